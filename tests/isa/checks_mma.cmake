# Machine-code checks of tk/mma.h on tests/tk/test_mfma.hip: each wrapper
# kernel emits its named MFMA and nothing spills.
if(TARGET tk_test_mfma)
  foreach(pair "k_bf16_16|v_mfma_f32_16x16x16_?bf16" "k_bf16_32|v_mfma_f32_32x32x8_?bf16"
               "k_f16_16|v_mfma_f32_16x16x16_?f16" "k_f16_32|v_mfma_f32_32x32x8_?f16"
               "k_fp8_16|v_mfma_f32_16x16x32_fp8_fp8" "k_fp8_32|v_mfma_f32_32x32x16_fp8_fp8"
               "k_i8_16|v_mfma_i32_16x16x32_i8")
    string(REPLACE "|" ";" kv "${pair}")
    list(GET kv 0 k)
    list(GET kv 1 insn)
    tk_isa_check(NAME isa_mma_${k} TARGET tk_test_mfma KERNEL "${k}P"
      CHECKS --no-spill --count "^${insn} " 1 -1)
  endforeach()
  tk_isa_check(NAME isa_mma_tiles TARGET tk_test_mfma KERNEL k_tiles
    CHECKS --no-spill --count "^v_mfma_f32_16x16x16_?bf16 " 1 -1)
endif()
