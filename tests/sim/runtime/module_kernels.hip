// module_kernels.hip: device code loaded at run time by module.hip with
// hipModuleLoad/hipModuleLoadData (built as a bundle and as a raw ELF).
#include <hip/hip_runtime.h>

__device__ int bias;

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i] + (float)bias;
}
