// mem_latency: a one-lane pointer chase pays the documented load-to-use
// latencies (model v9; params.c, from mt4g's published MI300X pointer
// chase): an HBM load 417 ns (fixed time), an L2 hit 288 clocks. The chase
// reads a buffer nothing wrote (not in any cache, the MALL included: H2D
// copies and hipMalloc do not fill it), one new 128 B line per hop, each
// address depending on the loaded value. Launch 1 misses every line; launch
// 2 chases the same lines, now in XCD 0's L2 (lines stay cached across
// launches). The loop's own instructions are the same in both, so per hop
//   (t1 - t2) / N = 417 ns - 288 / 1340 MHz = 202.1 ns  (MI325X clock)
// v8 (800 and 300 clocks): 373.1 ns.
#include "model_common.h"

#define HOPS 1024
#define STRIDE 32  // uint32: 128 B, one line per hop

__global__ __launch_bounds__(64) void k_chase(const uint32_t *buf, uint32_t *out) {
  uint32_t i = threadIdx.x;  // 0 for the one lane, but divergent to the compiler: vector loads, not s_load
  for (int h = 0; h < HOPS; h++) i = i + STRIDE + buf[i];  // buf is zero: i advances a line per hop
  out[0] = i;
}

int main(void) {
  require_model();
  uint32_t *buf, *out;
  CHECK_HIP(hipMalloc(&buf, (size_t)HOPS * STRIDE * 4 + 4096));
  CHECK_HIP(hipMalloc(&out, 4));
  double t[2];
  for (int r = 0; r < 2; r++)
    t[r] = time_ms([&] { hipLaunchKernelGGL(k_chase, dim3(1), dim3(1), 0, 0, buf, out); });
  uint32_t o = 0;
  CHECK_HIP(hipMemcpy(&o, out, 4, hipMemcpyDeviceToHost));
  int ok = o == (uint32_t)HOPS * STRIDE;
  printf("mem_latency: chase %s; cold %.3f us, L2-warm %.3f us\n", ok ? "results ok" : "WRONG", t[0] * 1e3, t[1] * 1e3);
  double per_hop_ns = (t[0] - t[1]) * 1e6 / HOPS;
  ok &= within("HBM minus L2 load-to-use per hop (ns)", per_hop_ns, 417.0 - 288.0 / (DOC_CLOCK_HZ / 1e9), 0.01);
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
