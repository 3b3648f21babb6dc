// EXPECT: tk: elementwise arithmetic needs f32, f16, i32 or i8 tiles
// bf16 register tiles hold raw bits: adding them as integers is meaningless.
#include "tk/register.h"
TK_RT(a_t, TK_K_A_BF16_16x16x16, 16, 16);
__global__ void k(short *out) { a_t a, b, c; tk_rt_fill(a, 1); tk_rt_fill(b, 2); tk_rt_add(c, a, b); out[0] = c.f[0][0]; }
