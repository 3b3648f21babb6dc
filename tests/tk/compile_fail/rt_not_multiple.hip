// EXPECT: tk: register tile rows must be a positive multiple of the fragment rows
// A register tile of 24 rows cannot be made of 16-row MFMA fragments.
#include "tk/register.h"
TK_RT(bad_t, TK_K_A_BF16_16x16x16, 24, 16);
__global__ void k(float *out) { bad_t t; tk_rt_zero(t); out[0] = (float)t.f[0][0]; }
