// l2_xcd: concurrent workgroups share their XCD's L2, and only theirs.
// Expected from the documented model (docs/tksim-model.md: workgroup g runs
// on XCD g % 8, as CDNA3 dispatches round-robin; one 4 MB L2 per XCD; 128 B
// lines; a read of a line another group's miss is still filling is a hit that
// waits for the fill). Each launch has two reader groups that read the same
// fresh 64 KiB (512 lines) at the same time; the other groups exit at once:
//   launch 1: readers 0 and 8 (both on XCD 0): 1024 lookups, 512 hits: 50.0%
//   launch 2: readers 0 and 1 (XCDs 0 and 1):  1024 lookups, 0 hits:    0.0%
// ctest matches the two report lines in order; the program checks the sums.
#include "model_common.h"

__global__ __launch_bounds__(256) void k_pair(const uint32_t *buf, uint32_t *out, int r0, int r1) {
  if ((int)blockIdx.x != r0 && (int)blockIdx.x != r1) return;
  uint32_t s = 0;
  for (int i = threadIdx.x; i < 16384; i += 256) s += buf[i];  // 64 KiB, 256 B per wave instruction
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

static int run(const char *what, int groups, int r0, int r1) {
  uint32_t *buf, *out;  // a fresh buffer per launch: nothing of it is in any L2 yet
  CHECK_HIP(hipMalloc(&buf, 16384 * 4));
  CHECK_HIP(hipMalloc(&out, groups * 4));
  static uint32_t h[16384];
  for (int i = 0; i < 16384; i++) h[i] = (uint32_t)i * 3u;
  CHECK_HIP(hipMemcpy(buf, h, sizeof h, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(k_pair, dim3(groups), dim3(256), 0, 0, buf, out, r0, r1);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  uint32_t o[16];
  CHECK_HIP(hipMemcpy(o, out, groups * 4, hipMemcpyDeviceToHost));
  uint32_t want = 0;  // thread 0 sums i = 0, 256, ...
  for (int i = 0; i < 16384; i += 256) want += (uint32_t)i * 3u;
  int ok = o[r0] == want && o[r1] == want;
  printf("l2_xcd: %s: groups %d and %d read the same 64 KiB: %s\n", what, r0, r1, ok ? "results ok" : "WRONG");
  CHECK_HIP(hipFree(buf));
  CHECK_HIP(hipFree(out));
  return ok;
}

int main(void) {
  require_model();
  int ok = run("same XCD", 9, 0, 8);
  ok &= run("different XCDs", 2, 0, 1);
  return ok ? 0 : 1;
}
