// EXPECT: tk: shared tile cols must be a positive multiple of 16
// An LDS tile of 40 columns is not a whole number of 16-wide fragments.
#include "tk/shared.h"
TK_ST(bad_st, uint16_t, 32, 40, TK_LDS_SWZ);
__global__ void k(float *out) { __shared__ bad_st s; s.data[threadIdx.x] = 1; out[0] = s.data[0]; }
