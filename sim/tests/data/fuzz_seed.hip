// Device code for the fuzz seed corpus (sim/tests/corpus-seeds): what the
// decoder follows beyond a kernel's own code - a static call to a function
// kept out of line, a call through a function-pointer table - and device
// math from the ocml library, compiled like a hiprtc result (-O3).
#include <hip/hip_runtime.h>

__device__ __attribute__((noinline)) float scale(float x, int k) { return ldexpf(x, k) + sinf(x); }
__device__ float twice(float x) { return 2.0f * x; }
__device__ float square(float x) { return x * x; }
__device__ float (*const table[2])(float) = { twice, square };

extern "C" __global__ void seed_calls(float *x, int which, long n)
{
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = table[which & 1](scale(x[i], (int)(i & 7))) + expf(x[i]) + (float)(i * n);
}
