// control_flow.hip: divergent EXEC masks: nested ifs, loops with per-lane trip
// counts, break/continue, early return, a switch, a non-inlined call with
// divergent arguments, and a uniform loop with a divergent body. Every lane's
// result is recomputed on the host by the same C++ function (compiled for the
// host), so any lane run under a wrong EXEC mask shows up.
#include "vtest.h"

__host__ __device__ static uint32_t collatz_steps(uint32_t x)
{
  uint32_t n = 0;
  while (x != 1 && n < 500) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    n++;
  }
  return n;
}

__device__ __noinline__ uint32_t callee(uint32_t a, uint32_t b)
{
  if (a > b) return a - b;
  uint32_t s = 0;
  for (uint32_t i = 0; i < (b & 7); i++) s += a ^ i;
  return s;
}
static uint32_t callee_h(uint32_t a, uint32_t b)
{
  if (a > b) return a - b;
  uint32_t s = 0;
  for (uint32_t i = 0; i < (b & 7); i++) s += a ^ i;
  return s;
}

__host__ __device__ static uint32_t nested(uint32_t v, int lane)
{
  uint32_t r = 0;
  if (v & 1) {
    r += 10;
    if (v & 2) {
      r += 100;
      if (lane % 3 == 0) r += 1000;
      else r -= 7;
    } else if (v & 4) {
      r *= 3;
    }
  } else {
    for (int k = 0; k < (int)(v % 9); k++) {
      if (k == 5) break;
      if (k % 2) continue;
      r += (uint32_t)k * v;
    }
  }
  switch (v % 5) {
  case 0: r ^= 0xff; break;
  case 1: r += 1; /* fall through */
  case 2: r += 2; break;
  case 3: r = r * 2 + 1; break;
  default: break;
  }
  return r;
}

__global__ void flow(const uint32_t *in, uint32_t *out, uint32_t *out2, uint32_t *out3, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return; /* early return of part of the last wave */
  uint32_t v = in[i];
  out2[i] = callee(v & 0xffff, (v >> 16) & 0xffff);
  int lane = threadIdx.x % 64;
  if (v % 11 == 3) { /* early return of scattered lanes */
    out[i] = 0xdead;
    return;
  }
  out[i] = nested(v, lane) + collatz_steps((v % 10000) + 1);
  uint32_t acc = 0;
  for (int k = 0; k < 16; k++) /* uniform loop, divergent body */
    if ((v >> k) & 1) acc += (uint32_t)k * k;
  out3[i] = acc;
}

int main()
{
  const int n = 3000;
  std::vector<uint32_t> in(n);
  uint64_t s = 31337;
  for (auto &x : in) x = (uint32_t)vt_rand(&s);
  vt_buf<uint32_t> din(in), dout(n), dout2(n), dout3(n);
  dout.zero(); dout2.zero();
  VT_HIP(hipMemset(dout3.d, 0xff, n * sizeof(uint32_t)));
  flow<<<(n + 191) / 192, 192>>>(din.d, dout.d, dout2.d, dout3.d, n);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto o = dout.get(), o2 = dout2.get(), o3 = dout3.get();
  for (int i = 0; i < n; i++) {
    uint32_t v = in[i];
    int lane = (i % 192) % 64;
    vt_check_u32("non-inlined call", i, o2[i], callee_h(v & 0xffff, (v >> 16) & 0xffff));
    if (v % 11 == 3) {
      vt_check_u32("early return", i, o[i], 0xdead);
      vt_check_u32("early return skips the rest", i, o3[i], 0xffffffffu);
      continue;
    }
    vt_check_u32("nested ifs/loops/switch", i, o[i], nested(v, lane) + collatz_steps((v % 10000) + 1));
    uint32_t acc = 0;
    for (int k = 0; k < 16; k++)
      if ((v >> k) & 1) acc += (uint32_t)k * k;
    vt_check_u32("uniform loop divergent body", i, o3[i], acc);
  }
  return vt_finish("control_flow");
}
