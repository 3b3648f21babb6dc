# Machine-code checks of tk/loads.h, on the kernels of tests/tk/test_loads.hip.
if(TARGET tk_test_loads)
  # group load: both batches (2 x 2 buffer_load_dwordx4 per thread) issued back
  # to back with no wait between them, then ONE vmcnt(2) (the second batch
  # stays in flight) before the first batch's ds_write_b128s
  tk_isa_check(NAME isa_loads_group_batch TARGET tk_test_loads KERNEL k_group_bf16
    CHECKS --no-spill --count "^buffer_load_dwordx4" 4 4 --count "^ds_write_b128" 4 4
           --span-forbid "^buffer_load_dwordx4" "^buffer_load_dwordx4" "^s_waitcnt"
           --span-forbid "^buffer_load_dwordx4" "^s_waitcnt vmcnt\\(2\\)$" "^s_waitcnt.*vmcnt\\([013-9]"
           --span-forbid "^buffer_load_dwordx4" "^s_waitcnt vmcnt\\(2\\)$" "^ds_write"
           --count "^s_waitcnt vmcnt\\(2\\)$" 1 1)
  # direct-to-LDS: 64x64 bf16 = 8 KiB / (256 lanes x 4 B) = 8 buffer_load_dword ... lds
  tk_isa_check(NAME isa_loads_direct TARGET tk_test_loads KERNEL k_direct_bf16
    CHECKS --no-spill --count "^buffer_load_dword .* lds$" 8 8 --forbid "^ds_write"
           --span-forbid "^buffer_load_dword .* lds$" "^buffer_load_dword .* lds$" "^s_waitcnt.*vmcnt")
  # prefetch: 16 + 8 inline-asm ds_read_b64, no LDS wait inside the batch, and
  # the two explicit waits: lgkmcnt(8) (B's 8 reads may fly) and lgkmcnt(0)
  tk_isa_check(NAME isa_loads_prefetch TARGET tk_test_loads KERNEL k_prefetch
    CHECKS --no-spill --count "^ds_read_b64" 24 24
           --span-forbid "^ds_read_b64" "^ds_read_b64" "^s_waitcnt.*lgkmcnt"
           --count "^s_waitcnt lgkmcnt\\(8\\)$" 1 1)
endif()
# b128 prefetch (tests/tk/test_prefetch_b128.hip): A 1x8 + B 4x2 fragments in
# K pairs = 4 + 4 inline-asm ds_read_b128, no ds_read_b64, no LDS wait inside
# the batch, then lgkmcnt(4) (B's 4 reads may fly) and lgkmcnt(0)
if(TARGET tk_test_prefetch_b128)
  tk_isa_check(NAME isa_loads_prefetch_b128 TARGET tk_test_prefetch_b128 KERNEL k_contents
    CHECKS --no-spill --count "^ds_read_b128" 8 8 --forbid "^ds_read_b64"
           --span-forbid "^ds_read_b128" "^ds_read_b128" "^s_waitcnt.*lgkmcnt"
           --count "^s_waitcnt lgkmcnt\\(4\\)$" 1 1)
endif()
