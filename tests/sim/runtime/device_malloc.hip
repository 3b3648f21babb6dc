// device_malloc.hip: device-side malloc/free (small blocks from every thread,
// and one large block per block of threads), written and read back within the
// kernel and checked against sums computed on the CPU.
#include <vector>
#include "rt_check.h"

__global__ void use_heap(long long *out, int per_thread)
{
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = static_cast<int *>(malloc(per_thread * sizeof(int)));
  long long s = -1;
  if (p) {
    for (int i = 0; i < per_thread; i++) p[i] = t * 1000 + i;
    s = 0;
    for (int i = 0; i < per_thread; i++) s += p[i];
    free(p);
  }
  __shared__ double *big;
  if (threadIdx.x == 0) big = static_cast<double *>(malloc(8192 * sizeof(double)));  // > 3 KiB: a large request
  __syncthreads();
  if (big) {
    for (int i = threadIdx.x; i < 8192; i += blockDim.x) big[i] = i * 0.5;
    __syncthreads();
    if (threadIdx.x == 0) {
      double b = 0;
      for (int i = 0; i < 8192; i++) b += big[i];
      out[gridDim.x * blockDim.x + blockIdx.x] = (long long)b;
      free(big);
    }
  }
  out[t] = s;
}

int main()
{
  const int blocks = 4, threads = 128, per = 16, n = blocks * threads;
  long long *d;
  HIP_OK(hipMalloc(&d, (n + blocks) * sizeof(long long)));
  HIP_OK(hipMemset(d, 0, (n + blocks) * sizeof(long long)));
  hipLaunchKernelGGL(use_heap, dim3(blocks), dim3(threads), 0, 0, d, per);
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  std::vector<long long> h(n + blocks);
  HIP_OK(hipMemcpy(h.data(), d, h.size() * sizeof(long long), hipMemcpyDeviceToHost));
  bool ok = true;
  for (int t = 0; t < n; t++) ok &= h[t] == (long long)t * 1000 * per + per * (per - 1) / 2;
  CHECK(ok, "every thread's small block held its values (h[5] = %lld)", h[5]);
  double bs = 0;
  for (int i = 0; i < 8192; i++) bs += i * 0.5;
  ok = true;
  for (int b = 0; b < blocks; b++) ok &= h[n + b] == (long long)bs;
  CHECK(ok, "each block's large block summed to %lld (got %lld)", (long long)bs, h[n]);
  HIP_OK(hipFree(d));
  return RT_DONE();
}
