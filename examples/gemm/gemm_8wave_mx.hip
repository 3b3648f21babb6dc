/* gemm_8wave_mx.hip: the 8wave MX kernels (gemm_8wave_mx.h: mxfp8 E4M3,
 * E5M2, mxfp4; gfx950 code, empty on gfx942 where the host refuses MX) in
 * their own translation unit of libtk_gemm, compiled in parallel with
 * tk_gemm.hip; the launch code is in the header. */
/* empty in a -DTK_GEMM_DEMO_ONLY=ON build (gemm_demo.h stands in) */
#ifndef TK_GEMM_DEMO_ONLY
#define GEMM_8WAVE_MX_TU
#include "gemm_8wave_mx.h"
#endif
