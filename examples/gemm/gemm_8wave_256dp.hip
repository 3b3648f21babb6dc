/* gemm_8wave_256dp.hip: gemm_8wave_dp, the 256x256 bf16 nt kernel for the
 * launches without stream-K on gfx950 (data-parallel tiles and split-K),
 * in its own translation unit, part of libtk_gemm.  One copy of the body
 * (no stream-K segments, no 224-row tiles), so unlike gemm_8wave it takes
 * the host-made tile map and the overlapped prologue without spilling, and
 * needs no TK_OPAQUE_IDS.  On gfx942 the kernel is empty and never
 * launched (gemm_8wave_launch).  The host code is in gemm_8wave.h. */
#define GEMM_8WAVE_256DP_TU
#include "gemm_8wave.h"
