// channel_order: a load is not held up by requests the model books later in
// time (model v9: the L2, Infinity Cache and HBM channels are calendars, a
// request taking the first free capacity at its own time; v8's were FIFO
// queues, so a burst that the CU's request path delayed ahead pushed every
// load of the XCD simulated after it behind the burst's future time).
// Expected, from the documented model (group g on XCD g % 8; 128 B/clk per
// CU request path; L2 2048 B/clk per XCD, so a 128 B line takes 1/16 clock
// of it; HBM load-to-use 417 ns):
//   launch 1: group 8 alone chases 256 fresh lines, one dependent load per
//     hop (tksim_model_mem_latency's loop).
//   launch 2: the same chase, while group 0 (same XCD, another CU) streams a
//     128 KiB buffer 40 times (4 waves, 32 loads of 1 KiB each, then a
//     wait; about half the chase's time in all): 1024 clocks of its CU's
//     request path per round, about one L2 line per clock, 1/16 of the
//     XCD's L2 channels. The chase's lines take the free capacity at their
//     own times, so the launch takes as long as launch 1: ratio 1.000
//     (tolerance 0.5%). v8's FIFO channels: 1.023.
#include "model_common.h"

#define HOPS 256
#define STRIDE 32  // uint32 per hop: one 128 B line
#define ROUNDS 40  // group 0's rounds: about half the chase's time in all

__global__ __launch_bounds__(256) void k_mix(const uint32_t *chase, const uint4 *stream, uint32_t *out, int with_stream) {
  if (blockIdx.x == 8) {
    if (threadIdx.x) return;
    uint32_t i = threadIdx.x;  // divergent to the compiler: vector loads
    for (int h = 0; h < HOPS; h++) i = i + STRIDE + chase[i];
    out[0] = i;
  } else if (blockIdx.x == 0 && with_stream) {
    uint32_t s = 0;
    for (int r = 0; r < ROUNDS; r++) {
      uint4 v[32];
#pragma unroll
      for (int k = 0; k < 32; k++) v[k] = stream[k * 256 + threadIdx.x + (s & 1)];  // 32 x 1 KiB per wave; s: not hoisted
#pragma unroll
      for (int k = 0; k < 32; k++) s += v[k].x ^ v[k].w;
      if (s == 0xdeadbeefu) break;  // keeps the loads live
    }
    out[1 + threadIdx.x] = s;
  }
}

int main(void) {
  require_model();
  uint32_t *chase, *chase2, *out;
  uint4 *stream;
  CHECK_HIP(hipMalloc(&chase, (size_t)HOPS * STRIDE * 4 + 4096));  // never written: zeros, in no cache
  CHECK_HIP(hipMalloc(&chase2, (size_t)HOPS * STRIDE * 4 + 4096));
  CHECK_HIP(hipMalloc(&stream, (32 * 256 + 1) * sizeof(uint4)));    // 128 KiB (+ one for s & 1)
  CHECK_HIP(hipMalloc(&out, 260 * 4));
  double t1 = time_ms([&] { hipLaunchKernelGGL(k_mix, dim3(9), dim3(256), 0, 0, chase, stream, out, 0); });
  double t2 = time_ms([&] { hipLaunchKernelGGL(k_mix, dim3(9), dim3(256), 0, 0, chase2, stream, out, 1); });
  uint32_t o = 0;
  CHECK_HIP(hipMemcpy(&o, out, 4, hipMemcpyDeviceToHost));
  int ok = o == (uint32_t)HOPS * STRIDE;
  printf("channel_order: chase %s; alone %.3f us, beside a stream %.3f us\n", ok ? "results ok" : "WRONG", t1 * 1e3,
         t2 * 1e3);
  ok &= within("chase beside a stream / alone", t2 / t1, 1.0, 0.005);
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
