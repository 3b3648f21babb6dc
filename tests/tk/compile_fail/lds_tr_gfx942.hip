// EXPECT: tk: ds_read_b64_tr_b16 is a gfx950 (CDNA4) instruction
// The transposing LDS read without #if TK_HAS_DS_READ_TR: the gfx942 device
// pass of the (gfx942 + gfx950) build refuses it with the message above.
#include <hip/hip_runtime.h>
#include "tk/lds_tr.h"
TK_RT(b_t, TK_K_B_BF16_16x16x32, 32, 16);
__global__ void k(float *out) {
  __shared__ __attribute__((aligned(16))) uint16_t s[32 * 16];
  s[threadIdx.x] = 0;
  __syncthreads();
  b_t b;
  tk_rt_load_tr(b, s, 32);
  out[threadIdx.x] = (float)b.f[0][0];
}
