// wrong_arch.hip (tksim only; built for gfx90a alone): the program starts, the
// runtime answers queries, and a launch is refused with
// hipErrorInvalidDeviceFunction because the binary has no gfx942 code (the
// message on stderr names gfx942, checked by ctest).
#include "rt_check.h"

__global__ void k(int *p) { *p = 1; }

int main()
{
  int n = 0;
  HIP_OK(hipGetDeviceCount(&n));
  int *p;
  HIP_OK(hipMalloc(&p, sizeof(int)));
  HIP_OK(hipMemset(p, 0, sizeof(int)));
  hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, p);
  HIP_ERR(hipGetLastError(), hipErrorInvalidDeviceFunction);
  int v = -1;
  HIP_OK(hipMemcpy(&v, p, sizeof v, hipMemcpyDeviceToHost));
  CHECK(v == 0, "kernel did not run");
  HIP_OK(hipFree(p));
  return RT_DONE();
}
