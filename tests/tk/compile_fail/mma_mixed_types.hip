// EXPECT: tk: mma: A and B must have the same element type and MFMA shape
// bf16 A with f16 B: no MFMA mixes them.
#include "tk/mma.h"
TK_RT(a_t, TK_K_A_BF16_16x16x16, 16, 16);
TK_RT(b_t, TK_K_B_F16_16x16x16, 16, 16);
TK_RT(acc_t, TK_K_C_F32_16x16, 16, 16);
__global__ void k(float *out) {
  a_t a; b_t b; acc_t c, d;
  tk_rt_zero(a); tk_rt_zero(b); tk_rt_zero(c);
  tk_mma_AB(d, a, b, c);
  out[0] = d.f[0][0];
}
