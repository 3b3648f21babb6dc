// streams_events.hip: work on a stream runs in order (kernel -> kernel -> copy),
// hipStreamWaitEvent orders a second stream after the first, events time the
// work (non-negative, stop after start), and event/stream queries report
// completion after synchronisation.
#include <vector>
#include "rt_check.h"

__global__ void iota(int *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = i; }
__global__ void affine(int *x, int n, int a, int b) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = a * x[i] + b; }
__global__ void add_into(const int *x, int *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] += x[i]; }

int main()
{
  const int n = 3000;
  int *x, *y;
  HIP_OK(hipMalloc(&x, n * sizeof(int)));
  HIP_OK(hipMalloc(&y, n * sizeof(int)));
  HIP_OK(hipMemset(y, 0, n * sizeof(int)));
  hipStream_t s1, s2;
  HIP_OK(hipStreamCreate(&s1));
  HIP_OK(hipStreamCreateWithFlags(&s2, hipStreamNonBlocking));
  hipEvent_t start, mid, stop, untimed, never;
  HIP_OK(hipEventCreate(&start));
  HIP_OK(hipEventCreate(&mid));
  HIP_OK(hipEventCreate(&stop));
  HIP_OK(hipEventCreateWithFlags(&untimed, hipEventDisableTiming));
  HIP_OK(hipEventCreate(&never));

  std::vector<int> h(n, -1);
  HIP_OK(hipEventRecord(start, s1));
  hipLaunchKernelGGL(iota, dim3((n + 127) / 128), dim3(128), 0, s1, x, n);
  hipLaunchKernelGGL(affine, dim3((n + 127) / 128), dim3(128), 0, s1, x, n, 3, 1);
  HIP_OK(hipEventRecord(mid, s1));
  HIP_OK(hipStreamWaitEvent(s2, mid, 0));
  hipLaunchKernelGGL(add_into, dim3((n + 127) / 128), dim3(128), 0, s2, x, y, n);
  HIP_OK(hipGetLastError());
  HIP_OK(hipMemcpyAsync(h.data(), x, n * sizeof(int), hipMemcpyDeviceToHost, s1));
  HIP_OK(hipEventRecord(stop, s1));
  HIP_OK(hipEventSynchronize(stop));
  bool ok = true;
  for (int i = 0; i < n; i++) ok &= h[i] == 3 * i + 1;
  CHECK(ok, "iota then affine then copy ran in stream order (h[5] = %d)", h[5]);
  HIP_OK(hipStreamSynchronize(s2));
  std::vector<int> hy(n, -1);
  HIP_OK(hipMemcpy(hy.data(), y, n * sizeof(int), hipMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < n; i++) ok &= hy[i] == 3 * i + 1;
  CHECK(ok, "stream 2 waited for stream 1's event (hy[5] = %d)", hy[5]);

  float t_all = -1, t_first = -1, t_second = -1;
  HIP_OK(hipEventElapsedTime(&t_all, start, stop));
  HIP_OK(hipEventElapsedTime(&t_first, start, mid));
  HIP_OK(hipEventElapsedTime(&t_second, mid, stop));
  CHECK(t_all >= 0 && t_first >= 0 && t_second >= 0, "elapsed times non-negative: %g %g %g", t_all, t_first, t_second);
  CHECK(t_first <= t_all * 1.001f + 1e-3f && t_second <= t_all * 1.001f + 1e-3f, "parts within the whole: %g %g of %g", t_first, t_second, t_all);
  HIP_OK(hipEventQuery(stop));
  HIP_OK(hipStreamQuery(s1));
  HIP_OK(hipStreamQuery(s2));
  HIP_OK(hipDeviceSynchronize());

  // timing with events that cannot time, or were never recorded, fails
  HIP_OK(hipEventRecord(untimed, s1));
  HIP_OK(hipEventSynchronize(untimed));
  float t;
  HIP_FAILS(hipEventElapsedTime(&t, start, untimed));
  HIP_FAILS(hipEventElapsedTime(&t, start, never));

  // the null stream works too
  HIP_OK(hipEventRecord(start, 0));
  hipLaunchKernelGGL(affine, dim3((n + 127) / 128), dim3(128), 0, 0, x, n, 1, 5);
  HIP_OK(hipEventRecord(stop, 0));
  HIP_OK(hipEventSynchronize(stop));
  HIP_OK(hipMemcpy(h.data(), x, n * sizeof(int), hipMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < n; i++) ok &= h[i] == 3 * i + 6;
  CHECK(ok, "null-stream kernel applied after the earlier work");

  HIP_OK(hipEventDestroy(start)); HIP_OK(hipEventDestroy(mid)); HIP_OK(hipEventDestroy(stop));
  HIP_OK(hipEventDestroy(untimed)); HIP_OK(hipEventDestroy(never));
  HIP_OK(hipStreamDestroy(s1)); HIP_OK(hipStreamDestroy(s2));
  HIP_OK(hipFree(x)); HIP_OK(hipFree(y));
  return RT_DONE();
}
