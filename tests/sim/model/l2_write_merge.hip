// l2_write_merge: the L2 is write-back (AMDGPUUsage, GFX942 memory model:
// a release's buffer_wbl2 "writes back dirty L2 cache lines"), so stores
// that fill a 32 B sector piecewise reach HBM once, not once per store
// (model v8; docs/tksim-model.md). One group (XCD 0) of 64 lanes writes 256
// lines of 128 B (32 KiB): lane t owns lines t, t + 64, t + 128, t + 192 and
// writes each in 8 B pieces (16 stores of 8 B, or 8 of 16 B if the compiler
// pairs them), so no store instruction puts more than 16 B into any line.
// Expected HBM traffic per launch, hand-computed: every sector of the 256
// lines is dirtied once, 256 x 128 B = 32768 B = 0.033 MB; nothing is read.
// The second launch writes the same lines again: the first launch's end
// wrote them back (they are clean), so again 0.033 MB. v7 charged each
// store its bytes per line rounded up to a 32 B burst: 0.131 MB (8 B
// stores) or 0.066 MB (16 B stores). ctest matches the report lines.
#include "model_common.h"

__global__ __launch_bounds__(64) void k_pieces(uint2 *out, unsigned tag) {
  for (int r = 0; r < 4; r++) {
    const int line = threadIdx.x + 64 * r;
    for (int j = 0; j < 16; j++)  // the line's 16 pieces of 8 B, in order
      out[line * 16 + j] = make_uint2(tag + line, (unsigned)j);
  }
}

int main(void) {
  require_model();
  uint2 *out;
  static uint2 h[256 * 16];
  CHECK_HIP(hipMalloc(&out, sizeof h));
  for (int launch = 1; launch <= 2; launch++) {
    const unsigned tag = 1000u * launch;
    hipLaunchKernelGGL(k_pieces, dim3(1), dim3(64), 0, 0, out, tag);
    CHECK_HIP(hipGetLastError());
    CHECK_HIP(hipMemcpy(h, out, sizeof h, hipMemcpyDeviceToHost));
    for (int i = 0; i < 256 * 16; i++)
      if (h[i].x != tag + (unsigned)(i / 16) || h[i].y != (unsigned)(i % 16)) {
        printf("l2_write_merge: launch %d element %d got (%u,%u): WRONG\n", launch, i, h[i].x, h[i].y);
        return 1;
      }
    printf("l2_write_merge: launch %d: results ok\n", launch);
  }
  return 0;
}
