// EXPECT: tk: mma: 16x16x32 and 32x32x16 bf16/f16 are gfx950 (CDNA4) shapes
// A gfx950-only MFMA shape without #if TK_HAS_MFMA_F16_X2: the gfx942 device
// pass of the (gfx942 + gfx950) build refuses it with the message above.
#include "tk/mma.h"
TK_RT(a_t, TK_K_A_BF16_16x16x32, 16, 32);
TK_RT(b_t, TK_K_B_BF16_16x16x32, 32, 16);
TK_RT(acc_t, TK_K_C_F32_16x16, 16, 16);
__global__ void k(float *out) {
  a_t a; b_t b; acc_t c;
  tk_rt_zero(a); tk_rt_zero(b); tk_rt_zero(c);
  tk_mma_AB(c, a, b, c);
  out[threadIdx.x] = c.f[0][0];
}
