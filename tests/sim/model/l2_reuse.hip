// l2_reuse: the report's modeled L2 figures for a kernel whose groups all read
// the same 64 KiB. Expected from the documented model (docs/tksim-model.md:
// 128 B lines, one 4 MB 16-way L2 per XCD, group g on XCD g % 8, writes go
// to HBM by the bytes written per line, in 32 B bursts): 24 groups, 3 per
// XCD; each group reads 512 lines once; the first group of each XCD misses
// all 512, the other two hit them all:
//   lookups 24 * 512 = 12288, hits 16 * 512 = 8192 -> 66.7 %;
//   HBM bytes = 8 * 512 missed lines * 128 + 24 4-byte stores * 32 = 0.525 MB.
// The program only runs the kernel and checks its result; ctest matches the
// report line (run with --threads=1 so groups of one XCD never overlap).
#include "model_common.h"

__global__ __launch_bounds__(256) void k_reuse(const uint32_t *buf, uint32_t *out) {
  uint32_t s = 0;
  for (int i = threadIdx.x; i < 16384; i += 256) s += buf[i];  // 64 KiB, 256 B per wave instruction
  s += __shfl_xor(s, 1); // keep it simple: lane 0 of wave 0 writes a partial
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

int main(void) {
  require_model();
  uint32_t *buf, *out;
  CHECK_HIP(hipMalloc(&buf, 16384 * 4));
  CHECK_HIP(hipMalloc(&out, 24 * 4));
  uint32_t h[16384];
  for (int i = 0; i < 16384; i++) h[i] = (uint32_t)i;
  CHECK_HIP(hipMemcpy(buf, h, sizeof h, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(k_reuse, dim3(24), dim3(256), 0, 0, buf, out);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  uint32_t o[24];
  CHECK_HIP(hipMemcpy(o, out, sizeof o, hipMemcpyDeviceToHost));
  // thread 0 sums i = 0, 256, ..., plus thread 1's partial (xor 1)
  uint32_t want = 0;
  for (int t = 0; t < 2; t++)
    for (int i = t; i < 16384; i += 256) want += (uint32_t)i;
  for (int g = 0; g < 24; g++)
    if (o[g] != want) { printf("l2_reuse: group %d got %u want %u\n", g, o[g], want); return 1; }
  printf("l2_reuse: 24 groups read the same 64 KiB: results ok\n");
  return 0;
}
