// private_calls.hip: per-lane private (scratch) memory and real calls:
// local arrays indexed by run-time values (scratch_load/scratch_store or
// buffer accesses to the private segment), a recursive function (needs a
// stack in scratch), calls through a function pointer table (s_swappc), and
// a large per-lane array that cannot live in registers. The host recomputes
// every lane's result with the same C++ code.
#include "vtest.h"

__host__ __device__ static uint32_t mix(uint32_t x) { x ^= x >> 13; x *= 0x5bd1e995u; return x ^ (x >> 15); }

__host__ __device__ static uint32_t table_walk(uint32_t seed)
{
  uint32_t a[96];
  for (int i = 0; i < 96; i++) a[i] = mix(seed + (uint32_t)i);
  uint32_t j = seed % 96, acc = 0;
  for (int k = 0; k < 200; k++) { /* data-dependent indices: forces memory */
    acc += a[j];
    a[(j * 7 + 3) % 96] ^= acc;
    j = a[j] % 96;
  }
  return acc;
}

__host__ __device__ __noinline__ uint32_t fib_rec(uint32_t n) { return n < 2 ? n : fib_rec(n - 1) + fib_rec(n - 2); }

__device__ __noinline__ uint32_t op_add(uint32_t a, uint32_t b) { return a + b; }
__device__ __noinline__ uint32_t op_xor(uint32_t a, uint32_t b) { return a ^ (b << 3); }
__device__ __noinline__ uint32_t op_mul(uint32_t a, uint32_t b) { return a * (b | 1u); }
static uint32_t h_add(uint32_t a, uint32_t b) { return a + b; }
static uint32_t h_xor(uint32_t a, uint32_t b) { return a ^ (b << 3); }
static uint32_t h_mul(uint32_t a, uint32_t b) { return a * (b | 1u); }

typedef uint32_t (*binop)(uint32_t, uint32_t);

__global__ void priv(const uint32_t *in, uint32_t *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t s = in[i];
  out[3 * i] = table_walk(s);
  out[3 * i + 1] = fib_rec(s % 16);
  binop ops[3] = { op_add, op_xor, op_mul };
  uint32_t acc = s;
  for (int k = 0; k < 5; k++) acc = ops[(acc >> 4) % 3](acc, (uint32_t)k + s);
  out[3 * i + 2] = acc;
}

int main()
{
  const int n = 700;
  std::vector<uint32_t> in(n);
  uint64_t s = 123;
  for (auto &x : in) x = (uint32_t)vt_rand(&s);
  vt_buf<uint32_t> din(in), dout((size_t)3 * n);
  dout.zero();
  priv<<<(n + 127) / 128, 128>>>(din.d, dout.d, n);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto o = dout.get();
  uint32_t (*hops[3])(uint32_t, uint32_t) = { h_add, h_xor, h_mul };
  for (int i = 0; i < n; i++) {
    vt_check_u32("dynamically indexed private array", i, o[3 * i], table_walk(in[i]));
    vt_check_u32("recursive call", i, o[3 * i + 1], fib_rec(in[i] % 16));
    uint32_t acc = in[i];
    for (int k = 0; k < 5; k++) acc = hops[(acc >> 4) % 3](acc, (uint32_t)k + in[i]);
    vt_check_u32("indirect calls", i, o[3 * i + 2], acc);
  }
  return vt_finish("private_calls");
}
