/* gemm_4wave_fp8.hip: the fp8 4wave kernels (gemm_4wave_fp8.h) in their own
 * translation unit, part of libtk_gemm: 64x64 tiles with 8 LDS stages and
 * 128x128 with 4.  Empty on gfx942 (never launched there). */
#ifndef TK_GEMM_DEMO_ONLY /* the first command's build has the demo kernel only (gemm_demo.h) */
#include "gemm_4wave_fp8.h"

#define W4F_CAT_(x, y) x##_##y
#define W4F_CAT(x, y) W4F_CAT_(x, y)

#define W4F_T W4F_SMALL
#define W4F_NS 8
#define W4F_KA 2
#define W4F_ID(x) W4F_CAT(x, 64)
#define W4F_KERNEL gemm_4wave_fp8_64
#include "gemm_4wave_fp8_body.h"
#undef W4F_T
#undef W4F_NS
#undef W4F_KA
#undef W4F_ID
#undef W4F_KERNEL

#define W4F_T W4F_BIG
#define W4F_NS 4
#define W4F_KA 1
#define W4F_ID(x) W4F_CAT(x, 128)
#define W4F_KERNEL gemm_4wave_fp8_128
#include "gemm_4wave_fp8_body.h"
#undef W4F_T
#undef W4F_NS
#undef W4F_KA
#undef W4F_ID
#undef W4F_KERNEL
#endif
