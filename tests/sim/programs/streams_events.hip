// streams_events.hip: a multi-kernel pipeline over two streams: stream 1
// fills and scales, stream 2 waits on an event recorded in stream 1, then adds
// and reduces; async copies on both; events give elapsed times >= 0. The
// final values are checked against the host's computation of the same chain.
#include "../isa/vtest.h"

__global__ void fill(int *x, int n, int base) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = base + i; }
__global__ void scale(int *x, int n, int f) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= f; }
__global__ void add(const int *a, int *b, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] += a[i]; }
__global__ void sum(const int *x, int n, unsigned long long *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, (unsigned long long)(long long)x[i]);
}

int main()
{
  const int n = 5000;
  hipStream_t s1, s2;
  VT_HIP(hipStreamCreate(&s1));
  VT_HIP(hipStreamCreate(&s2));
  hipEvent_t e0, e1, e2;
  VT_HIP(hipEventCreate(&e0));
  VT_HIP(hipEventCreate(&e1));
  VT_HIP(hipEventCreate(&e2));
  vt_buf<int> a(n), b(n);
  vt_buf<unsigned long long> total(1);
  std::vector<int> hb(n);
  for (int i = 0; i < n; i++) hb[i] = 7 * i - 3;
  int *pinned;
  VT_HIP(hipHostMalloc((void **)&pinned, n * sizeof(int)));
  int blocks = (n + 255) / 256;

  VT_HIP(hipEventRecord(e0, s1));
  fill<<<blocks, 256, 0, s1>>>(a.d, n, 11);
  scale<<<blocks, 256, 0, s1>>>(a.d, n, 3);
  VT_HIP(hipEventRecord(e1, s1));
  VT_HIP(hipMemcpyAsync(b.d, hb.data(), n * sizeof(int), hipMemcpyHostToDevice, s2));
  VT_HIP(hipMemsetAsync(total.d, 0, sizeof(unsigned long long), s2));
  VT_HIP(hipStreamWaitEvent(s2, e1, 0));
  add<<<blocks, 256, 0, s2>>>(a.d, b.d, n);
  sum<<<blocks, 256, 0, s2>>>(b.d, n, total.d);
  VT_HIP(hipMemcpyAsync(pinned, b.d, n * sizeof(int), hipMemcpyDeviceToHost, s2));
  VT_HIP(hipEventRecord(e2, s2));
  VT_HIP(hipEventSynchronize(e2));
  VT_HIP(hipGetLastError());
  float ms01 = -1, ms02 = -1;
  VT_HIP(hipEventElapsedTime(&ms01, e0, e1));
  VT_HIP(hipEventElapsedTime(&ms02, e0, e2));
  vt_check_u32("elapsed(e0,e1) >= 0", 0, ms01 >= 0.0f, 1);
  vt_check_u32("elapsed(e0,e2) >= elapsed(e0,e1)", 0, ms02 >= ms01, 1);
  long long want_total = 0;
  for (int i = 0; i < n; i++) {
    int want = (11 + i) * 3 + hb[i];
    want_total += want;
    vt_check_u32("b = 3*(11+i) + hb", i, (uint32_t)pinned[i], (uint32_t)want);
  }
  unsigned long long got_total = 0;
  VT_HIP(hipMemcpy(&got_total, total.d, sizeof got_total, hipMemcpyDeviceToHost));
  vt_check_u64("sum kernel", 0, got_total, (uint64_t)want_total);
  VT_HIP(hipStreamSynchronize(s1));
  VT_HIP(hipHostFree(pinned));
  VT_HIP(hipEventDestroy(e0)); VT_HIP(hipEventDestroy(e1)); VT_HIP(hipEventDestroy(e2));
  VT_HIP(hipStreamDestroy(s1)); VT_HIP(hipStreamDestroy(s2));
  return vt_finish("streams_events");
}
