// Fixture for gemm_no_asm_detects: no_asm.sh must flag both lines below.
__device__ int lane() { return __builtin_amdgcn_mbcnt_lo(~0u, 0u); }
__device__ void nop() { asm volatile("s_nop 0"); }
