// bad_input.hip: invalid use of the runtime is refused with an error and has
// no effect: null and freed pointers, copies past an allocation, unknown copy
// kinds, launches with a zero grid/block dimension, 2048 threads per block or
// 70 KiB of dynamic LDS (the kernel must not run), and hipGetLastError /
// hipPeekAtLastError semantics.
#include <cstring>
#include <vector>
#include "rt_check.h"

__global__ void mark(int *flag) { if (threadIdx.x == 0 && blockIdx.x == 0) *flag = 1234; }
extern __shared__ int dyn[];
__global__ void mark_dyn(int *flag) { dyn[threadIdx.x] = 1; __syncthreads(); if (threadIdx.x == 0) *flag = dyn[0] + 4320; }

static int read_flag(int *d)
{
  int v = -1;
  HIP_OK(hipMemcpy(&v, d, sizeof v, hipMemcpyDeviceToHost));
  return v;
}

int main()
{
  const size_t bytes = 1024;
  std::vector<char> host(2 * bytes, 7);
  char *d;
  HIP_OK(hipMalloc(&d, bytes));
  HIP_OK(hipMemset(d, 0, bytes));

  // null pointers
  HIP_ERR(hipMemcpy(nullptr, host.data(), 16, hipMemcpyHostToDevice), hipErrorInvalidValue);
  HIP_ERR(hipMemcpy(d, nullptr, 16, hipMemcpyHostToDevice), hipErrorInvalidValue);
  HIP_ERR(hipMemcpy(host.data(), nullptr, 16, hipMemcpyDeviceToHost), hipErrorInvalidValue);
  HIP_ERR(hipMalloc(nullptr, 16), hipErrorInvalidValue);
  HIP_FAILS(hipMemset(nullptr, 0, 16));
  // a copy running past the end of the allocation, in either direction
  HIP_ERR(hipMemcpy(d, host.data(), bytes + 1, hipMemcpyHostToDevice), hipErrorInvalidValue);
  HIP_ERR(hipMemcpy(host.data(), d + 512, 513, hipMemcpyDeviceToHost), hipErrorInvalidValue);
  HIP_FAILS(hipMemset(d + 1000, 1, 25));
  // unknown copy kind
  HIP_FAILS(hipMemcpy(d, host.data(), 16, static_cast<hipMemcpyKind>(42)));
  // nothing was written by any of these
  std::vector<char> back(bytes, 1);
  HIP_OK(hipMemcpy(back.data(), d, bytes, hipMemcpyDeviceToHost));
  bool zero = true;
  for (char c : back) zero &= c == 0;
  CHECK(zero, "refused copies and sets wrote nothing");

  // hipGetLastError returns the last error once; hipPeekAtLastError keeps it
  HIP_ERR(hipMemcpy(d, nullptr, 16, hipMemcpyHostToDevice), hipErrorInvalidValue);
  HIP_ERR(hipPeekAtLastError(), hipErrorInvalidValue);
  HIP_ERR(hipGetLastError(), hipErrorInvalidValue);
  HIP_ERR(hipGetLastError(), hipSuccess);
  CHECK(std::strcmp(hipGetErrorName(hipErrorInvalidValue), "hipErrorInvalidValue") == 0, "error name");
  CHECK(hipGetErrorString(hipErrorOutOfMemory) != nullptr && hipGetErrorString(hipErrorOutOfMemory)[0], "error string");

  // freed pointers
  char *gone;
  HIP_OK(hipMalloc(&gone, bytes));
  HIP_OK(hipFree(gone));
  HIP_FAILS(hipMemcpy(gone, host.data(), 16, hipMemcpyHostToDevice));
  HIP_FAILS(hipFree(gone));
  (void)hipGetLastError();

  // bad launches: the kernel must not run
  int *flag;
  HIP_OK(hipMalloc(&flag, sizeof(int)));
  HIP_OK(hipMemset(flag, 0, sizeof(int)));
  hipLaunchKernelGGL(mark, dim3(0), dim3(64), 0, 0, flag);
  CHECK(hipGetLastError() != hipSuccess, "0 blocks refused");
  hipLaunchKernelGGL(mark, dim3(1), dim3(0), 0, 0, flag);
  CHECK(hipGetLastError() != hipSuccess, "0 threads refused");
  hipLaunchKernelGGL(mark, dim3(1), dim3(2048), 0, 0, flag);
  CHECK(hipGetLastError() != hipSuccess, "2048 threads refused");
  hipLaunchKernelGGL(mark, dim3(1), dim3(32, 32, 2), 0, 0, flag);
  CHECK(hipGetLastError() != hipSuccess, "32x32x2 threads refused");
  // 6 KiB beyond the device's LDS per workgroup (64 KiB gfx942, 160 KiB gfx950)
  hipDeviceProp_t prop;
  CHECK(hipGetDeviceProperties(&prop, 0) == hipSuccess, "device properties");
  hipLaunchKernelGGL(mark_dyn, dim3(1), dim3(64), prop.sharedMemPerBlock + 6 * 1024, 0, flag);
  CHECK(hipGetLastError() != hipSuccess, "dynamic LDS beyond the device's limit refused");
  (void)hipDeviceSynchronize();
  (void)hipGetLastError();
  CHECK(read_flag(flag) == 0, "no refused launch ran");

  // and a valid launch still works afterwards
  hipLaunchKernelGGL(mark, dim3(1), dim3(64), 0, 0, flag);
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  CHECK(read_flag(flag) == 1234, "valid launch after the refused ones");
  hipLaunchKernelGGL(mark_dyn, dim3(1), dim3(64), 64 * sizeof(int), 0, flag);
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  CHECK(read_flag(flag) == 4321, "dynamic LDS launch");

  HIP_OK(hipFree(flag));
  HIP_OK(hipFree(d));
  return RT_DONE();
}
