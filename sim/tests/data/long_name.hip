// long_name.hip: a kernel whose name (1280 bytes) is longer than tksim keeps
// (TKS_NAME_MAX - 1 = 1023): loading must fail with a message naming the
// problem, not truncate the name (ctest tksim_loader_long_name).
#include <hip/hip_runtime.h>
#define LN_CAT(a, b) a##b
#define LN_D1(x) LN_CAT(x, x)
#define LN_D7(x) LN_D1(LN_D1(LN_D1(LN_D1(LN_D1(LN_D1(LN_D1(x)))))))
extern "C" __global__ void LN_D7(abcdefghij)(int *o) { o[threadIdx.x] = 1; }
