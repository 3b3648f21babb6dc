// EXPECT: tk: v_permlane32_swap_b32 is a gfx950 (CDNA4) instruction
// tk_permlane32_swap without #if TK_HAS_PERMLANE_SWAP: the gfx942 device
// pass of the (gfx942 + gfx950) build refuses it with the message above.
#include <hip/hip_runtime.h>
#include "tk/register.h"
__global__ void k(unsigned *out) {
  uint32_t a = threadIdx.x, b = 2 * threadIdx.x;
  tk_permlane32_swap(a, b);
  out[threadIdx.x] = a + b;
}
