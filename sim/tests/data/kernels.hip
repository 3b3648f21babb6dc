// Device code for tksim's host-side loader tests (sim/tests). The tests check
// the loader's results against facts that follow from these declarations.
#include <hip/hip_runtime.h>

struct pair { int a; double b; };  // 16 bytes, align 8

__device__ int table[16];          // a 64-byte device global
__constant__ float coeffs[8];      // 32 bytes
__device__ int *table_ptr = &table[4]; // needs a dynamic relocation: &table + 16

extern "C" __global__ void add(float *c, const float *a, const float *b, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i] * coeffs[0] + (float)table[i & 15] + (float)table_ptr[0];
}

extern "C" __global__ void __launch_bounds__(256) lds_reverse(float *x)
{
  __shared__ float buf[1024];      // 4096 bytes of static LDS
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) buf[i] = x[i];
  __syncthreads();
  for (int i = t; i < 1024; i += blockDim.x) x[i] = buf[1023 - i];
}

extern "C" __global__ void by_value(pair p, char c, long *out)
{
  if (threadIdx.x == 0) out[0] = p.a + (long)p.b + c;
}
