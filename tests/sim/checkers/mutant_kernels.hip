// mutant_kernels.hip: device code for the wait-checker mutation harness
// (wait_mutants.hip). Compiled to a raw gfx942 code object; the harness
// patches its s_waitcnt instructions one at a time. The kernel mixes scalar
// kernarg loads, global loads, LDS writes/reads and a barrier, so its
// s_waitcnt instructions guard all three counters' kinds of loads.
#include <hip/hip_runtime.h>

extern "C" __global__ void mut_lds_global(const float *a, const float *b, float *out, int n)
{
  __shared__ float s[256];
  int t = threadIdx.x;
  float x = a[t];
  float y = b[t ^ 1];
  s[t] = x * 2.0f;
  __syncthreads();
  float z = s[(t + 3) % 256] + s[(t * 5) % 256];
  float w = a[(t + 7) % n];
  out[t] = z * y + w;
}
