/* gemm_8wave_256.hip: the 256x256 8wave kernels (gemm_8wave, gemm_8wave_nn)
 * in their own translation unit, part of libtk_gemm.  Compiled with
 * TK_OPAQUE_IDS (tk/target.h): lane and wave ids recomputed per use, so
 * clang does not hoist lane-derived addresses out of the two stream-K
 * copies of the body and spill; the other kernels (tk_gemm.hip) are faster
 * without it.  The host code that launches these is in gemm_8wave.h. */
#define TK_OPAQUE_IDS
#define GEMM_8WAVE_256_TU
#include "gemm_8wave.h"
