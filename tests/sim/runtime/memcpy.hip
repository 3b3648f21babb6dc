// memcpy.hip: hipMemcpy/hipMemcpyAsync in every direction (incl. hipMemcpyDefault
// and pinned host memory), checked byte for byte against the CPU source data,
// and a kernel reading what was copied in.
#include <cstring>
#include <vector>
#include "rt_check.h"

__global__ void twice(const int *in, int *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * in[i];
}

int main()
{
  const int n = 10000;
  const size_t bytes = n * sizeof(int);
  std::vector<int> src(n), back(n, -1);
  for (int i = 0; i < n; i++) src[i] = i * 7919 - 12345;

  int *d1, *d2, *pinned;
  HIP_OK(hipMalloc(&d1, bytes));
  HIP_OK(hipMalloc(&d2, bytes));
  HIP_OK(hipHostMalloc(&pinned, bytes, 0));
  CHECK(((uintptr_t)d1 & 255) == 0 && ((uintptr_t)d2 & 255) == 0, "device allocations are 256-byte aligned");

  HIP_OK(hipMemcpy(d1, src.data(), bytes, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(d2, d1, bytes, hipMemcpyDeviceToDevice));
  HIP_OK(hipMemcpy(back.data(), d2, bytes, hipMemcpyDeviceToHost));
  CHECK(std::memcmp(back.data(), src.data(), bytes) == 0, "H2D -> D2D -> D2H round trip");

  // hipMemcpyDefault infers the direction from the pointers.
  std::vector<int> back2(n, -1);
  HIP_OK(hipMemset(d2, 0, bytes));
  HIP_OK(hipMemcpy(d2, src.data(), bytes, hipMemcpyDefault));
  HIP_OK(hipMemcpy(back2.data(), d2, bytes, hipMemcpyDefault));
  CHECK(std::memcmp(back2.data(), src.data(), bytes) == 0, "hipMemcpyDefault round trip");

  // pinned host memory, async copies on a stream, host-to-host
  hipStream_t s;
  HIP_OK(hipStreamCreate(&s));
  std::memset(pinned, 0, bytes);
  HIP_OK(hipMemcpyAsync(d1, src.data(), bytes, hipMemcpyHostToDevice, s));
  HIP_OK(hipMemcpyAsync(pinned, d1, bytes, hipMemcpyDeviceToHost, s));
  HIP_OK(hipStreamSynchronize(s));
  CHECK(std::memcmp(pinned, src.data(), bytes) == 0, "async copies into pinned memory");
  std::vector<int> hh(n, 0);
  HIP_OK(hipMemcpy(hh.data(), pinned, bytes, hipMemcpyHostToHost));
  CHECK(std::memcmp(hh.data(), src.data(), bytes) == 0, "host to host");
  // the remaining async directions: device to device, host to host, default
  std::vector<int> back3(n, -1), hh2(n, 0);
  HIP_OK(hipMemsetAsync(d2, 0, bytes, s));
  HIP_OK(hipMemcpyAsync(d2, d1, bytes, hipMemcpyDeviceToDevice, s));
  HIP_OK(hipMemcpyAsync(back3.data(), d2, bytes, hipMemcpyDefault, s));
  HIP_OK(hipMemcpyAsync(hh2.data(), pinned, bytes, hipMemcpyHostToHost, s));
  HIP_OK(hipStreamSynchronize(s));
  CHECK(std::memcmp(back3.data(), src.data(), bytes) == 0, "async D2D then async default (D2H)");
  CHECK(std::memcmp(hh2.data(), src.data(), bytes) == 0, "async host to host");
  HIP_OK(hipMemcpyAsync(d2, src.data() + 1, bytes - sizeof(int), hipMemcpyDefault, 0));
  HIP_OK(hipMemcpyAsync(back3.data(), d2, bytes - sizeof(int), hipMemcpyDeviceToHost, 0));
  HIP_OK(hipDeviceSynchronize());
  CHECK(std::memcmp(back3.data(), src.data() + 1, bytes - sizeof(int)) == 0, "async default (H2D) on the null stream");

  // partial copies at an offset
  HIP_OK(hipMemset(d2, 0, bytes));
  HIP_OK(hipMemcpy(d2 + 100, src.data() + 5, 50 * sizeof(int), hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(back.data(), d2, bytes, hipMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; i++) ok &= back[i] == ((i >= 100 && i < 150) ? src[i - 95] : 0);
  CHECK(ok, "copy of 50 ints to offset 100");

  // a kernel sees the copied data
  hipLaunchKernelGGL(twice, dim3((n + 255) / 256), dim3(256), 0, 0, d1, d2, n);
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  HIP_OK(hipMemcpy(back.data(), d2, bytes, hipMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < n; i++) ok &= back[i] == 2 * src[i];
  CHECK(ok, "kernel output is twice the input");

  HIP_OK(hipStreamDestroy(s));
  HIP_OK(hipFree(d1));
  HIP_OK(hipFree(d2));
  HIP_OK(hipHostFree(pinned));
  return RT_DONE();
}
