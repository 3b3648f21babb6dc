// EXPECT: tk: mma: operand type has no MFMA
// f32 tiles used as MFMA operands: there is no such MFMA in tk.
#include "tk/mma.h"
TK_RT(acc_t, TK_K_C_F32_16x16, 16, 16);
__global__ void k(float *out) {
  acc_t a, b, c, d;
  tk_rt_zero(a); tk_rt_zero(b); tk_rt_zero(c);
  tk_mma_AB(d, a, b, c);
  out[0] = d.f[0][0];
}
