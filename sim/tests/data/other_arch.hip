// A kernel for other GPUs (gfx90a, gfx1100): the loader must refuse these code
// objects. Builtins only, so it builds without device libraries (-nogpulib).
#include <hip/hip_runtime.h>
extern "C" __global__ void add(float *c, const float *a)
{
  unsigned i = __builtin_amdgcn_workitem_id_x();
  c[i] = a[i] + 1.0f;
}
