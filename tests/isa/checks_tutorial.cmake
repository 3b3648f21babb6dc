# The tutorial kernel (tests/tk/test_tutorial.hip, docs/tutorial.md): per K step
# of 64 the main loop holds 8 MFMAs 32x32x8 bf16, 16 prefetch ds_read_b64 and
# 8 buffer_load_dwordx4 (2 tiles x 4 chunks per thread); no spills, registers and LDS within gfx942 limits.
if(TARGET tk_test_tutorial)
  tk_isa_check(NAME isa_tutorial TARGET tk_test_tutorial KERNEL tutorial_gemm
    CHECKS --no-spill --max-regs 256 --max-lds 65536 --main-loop "^v_mfma"
           --loop-count "^v_mfma_f32_32x32x8_?bf16 " 8 8 --loop-count "^ds_read_b64" 16 16
           --loop-count "^buffer_load_dwordx4" 8 8)
endif()
