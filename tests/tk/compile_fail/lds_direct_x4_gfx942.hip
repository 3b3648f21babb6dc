// EXPECT: tk: tk_load_lds_direct_x4 needs 16-byte direct LDS loads (gfx950)
// The 16-byte direct-to-LDS load without #if TK_HAS_GLOBAL_LOAD_LDS_X4: the
// gfx942 device pass of the (gfx942 + gfx950) build refuses it by name.
#include <hip/hip_runtime.h>
#include "tk/loads.h"
TK_ST(st_t, tk_bf16, 64, 64, TK_LDS_SWZ);
__global__ void k(tk_gl g, uint16_t *out) {
  __shared__ st_t s;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  tk_load_lds_direct_x4(s, 256, &g, rs, 0, 0, 0, 0, threadIdx.x);
  TK_WAIT_VMCNT(0);
  tk_barrier();
  out[threadIdx.x] = *(const uint16_t *)((const char *)s.data + 2 * threadIdx.x);
}
