// l2_sector: an L2 miss reads the 32 B sectors an access needs, not the whole
// 128 B line (docs/tksim-model.md, params.c l2_sector_bytes: rocprofiler-
// compute counts 32, 64 and 128 B memory reads). One group (XCD 0) reads one
// float from each of 4096 lines (512 KiB, 64 lanes x 64 loads, 4096 read-line
// lookups), at byte offset 0, then 32 (another sector), then 0 again, in
// three launches; the L2 and Infinity Cache keep lines across launches.
// Expected, each launch also writing 64 floats (2 lines, 128 B each):
//   launch 1: every line misses, 4096 x 32 B + 256 B = 0.131 MB of HBM;
//   launch 2: the lines are cached without their second sector: misses
//             again, 0.131 MB (whole-line fills, model v6: all hits, 0.000);
//   launch 3: the first sectors are cached: all hits, 0.000 MB.
// (v6 read whole lines: launch 1 0.525 MB.) ctest matches the report lines.
#include "model_common.h"

__global__ __launch_bounds__(64) void k_sector(const float *buf, float *out, int off) {
  float s = 0;
  for (int i = threadIdx.x; i < 4096; i += 64) s += buf[i * 32 + off];  // one float of line i
  out[threadIdx.x] = s;
}

int main(void) {
  require_model();
  float *buf, *out;
  static float h[4096 * 32];
  for (int i = 0; i < 4096 * 32; i++) h[i] = (float)(i % 97);
  CHECK_HIP(hipMalloc(&buf, sizeof h));
  CHECK_HIP(hipMalloc(&out, 64 * sizeof(float)));
  CHECK_HIP(hipMemcpy(buf, h, sizeof h, hipMemcpyHostToDevice));
  const int offs[3] = {0, 8, 0};
  for (int r = 0; r < 3; r++) {
    hipLaunchKernelGGL(k_sector, dim3(1), dim3(64), 0, 0, buf, out, offs[r]);
    CHECK_HIP(hipGetLastError());
    float o[64];
    CHECK_HIP(hipMemcpy(o, out, sizeof o, hipMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
      float want = 0;
      for (int i = t; i < 4096; i += 64) want += h[i * 32 + offs[r]];
      if (o[t] != want) { printf("l2_sector: launch %d lane %d got %g want %g: WRONG\n", r + 1, t, o[t], want); return 1; }
    }
    printf("l2_sector: launch %d (offset %d B): results ok\n", r + 1, offs[r] * 4);
  }
  return 0;
}
