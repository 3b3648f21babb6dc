// A HIP static library built with tk_add_hip_library: y = expf(x) + erff(x)
// + pow(x, 1.5) (double) on the device, behind a host function.
#include <hip/hip_runtime.h>
#include <math.h>

__global__ static void k_mathlib(const float *x, double *y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = (double)expf(x[i]) + (double)erff(x[i]) + pow((double)x[i], 1.5);
}

// 0, or -1 when a HIP call fails
extern "C" int consumer_mathlib(const float *x, double *y, int n) {
  float *dx;
  double *dy;
  if (hipMalloc(&dx, n * sizeof(float)) != hipSuccess || hipMalloc(&dy, n * sizeof(double)) != hipSuccess) return -1;
  if (hipMemcpy(dx, x, n * sizeof(float), hipMemcpyHostToDevice) != hipSuccess) return -1;
  hipLaunchKernelGGL(k_mathlib, dim3((n + 63) / 64), dim3(64), 0, 0, dx, dy, n);
  if (hipMemcpy(y, dy, n * sizeof(double), hipMemcpyDeviceToHost) != hipSuccess) return -1;
  return (hipFree(dx) == hipSuccess && hipFree(dy) == hipSuccess) ? 0 : -1;
}
