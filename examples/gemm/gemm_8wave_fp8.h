/* gemm_8wave_fp8.h: the 8-wave ping-pong GEMM for fp8 e4m3 A and B (the
 * device's encoding: FNUZ on gfx942, OCP E4M3FN on gfx950; tk_gemm.h),
 * built only from tk primitives: f32 accumulation through 32x32x16 fp8
 * fragments.  gfx942: v_mfma_f32_32x32x16_fp8_fp8 (CDNA3 ISA guide §7: 8 fp8
 * values per lane and operand, 16 passes like 32x32x8 bf16, so twice the
 * FLOPs per instruction).  gfx950: tk_mma issues one
 * v_mfma_f32_32x32x64_f8f6f4 (fp8 x fp8, unscaled) per 4 K fragments
 * (tk/mma.h TK_MMA_K4_), gfx950's full fp8 rate; same source.
 *
 * The bf16 kernels' body (gemm_8wave_body.h, one more instantiation: element
 * type, fragment kind and K per half-step are its parameters), so the same
 * schedule (gemm_8wave.h's header comment and docs/gemm.md have the
 * ping-pong, the buffer/staging rotation and the barrier argument) with the
 * same bytes moving: a half-step is K = 64 fp8 (64 bytes per row, as K = 32
 * bf16), so LDS tiles, group loads, ds_read_b128 fragment reads and waits are
 * byte for byte those of the bf16 kernel and the K step per loop iteration
 * is 128; K beyond the last full step goes through the body's masked tail.
 * 256x256 C tile, 8 waves in two groups of 4; wave (g, i) owns rows 128g..,
 * columns 64i.. (4x2 fragments of 32x32, 128 accumulator registers).
 * A tile's A fragments (128x64) are 4x4 fragments of 32x16 (an int64 of 8
 * fp8 per lane), the same 32 registers per lane as bf16's 4x4 of 32x8.
 *
 * Epilogue: tk_store_lds_global_epi with alpha * scale_a * scale_b, beta,
 * bias and activation (tk/epilogue.h), through the per-wave f32 LDS tiles.
 *
 * Requirements (gemm_8wave_fp8_unsupported): B as N x K (layout nt, checked
 * for every fp8 problem by tk_gemm_problem_error), K, lda and ldb multiples
 * of 16 (16-byte rows for the group loads), every operand's span per batch
 * < 4 GiB (buffer descriptors).
 */
#ifndef GEMM_8WAVE_FP8_H
#define GEMM_8WAVE_FP8_H

#include <hip/hip_runtime.h>
#include <tk/tk.h>

#include "gemm_8wave.h"
#include "gemm_tile.h"
#include "tk_gemm.h"

#define W8F_TILE 256
#define W8F_KH 64 /* K per half-step: one LDS buffer, 64 bytes per row */
#define W8_KH W8F_KH
#define W8_TM W8F_TILE
#define W8_TN W8F_TILE
#define W8_EL uint8_t /* e4m3 bits */
#define W8_TT tk_fp8e4
#define W8_KIND TK_K_A_FP8_32x32x16
#define W8_ID(x) W8_CAT(x, 256x256_fp8)
#define W8_KERNEL gemm_8wave_fp8
#define W8_NO_STREAM_K /* fp8: data-parallel tiles only (tk_gemm_config_unsupported) */
#include "gemm_8wave_body.h"
#undef W8_TM
#undef W8_TN
#undef W8_ID
#undef W8_KERNEL
/* 128x128 (gfx950's auto below one 256x256 tile per CU, gemm_8wave_fp8_tile):
 * four times the workgroups, each wave 64x32 of C; the same K step of 128 */
#define W8F_SMALL 128
#define W8_TM W8F_SMALL
#define W8_TN W8F_SMALL
#define W8_ID(x) W8_CAT(x, 128x128_fp8)
#define W8_KERNEL gemm_8wave_128x128_fp8
#include "gemm_8wave_body.h"
#undef W8_NO_STREAM_K
#undef W8_KH
#undef W8_TM
#undef W8_TN
#undef W8_EL
#undef W8_TT
#undef W8_KIND
#undef W8_ID
#undef W8_KERNEL

/* Why the fp8 8wave kernel cannot take a problem (NULL: it can). */
static const char *gemm_8wave_fp8_unsupported(const tk_gemm_problem *p)
{
  const int64_t esz = tk_gemm_c_elem_bytes(p), lim = TK_GL_MAX_BYTES;
  if (p->layout != TK_GEMM_NT) return "8wave fp8 needs B as N x K (layout nt)";
  if (p->k % 16 || p->lda % 16 || p->ldb % 16)
    return "8wave with fp8 inputs needs K, lda and ldb to be multiples of 16 (16-byte rows for the group loads)";
  if ((p->m - 1) * p->lda + p->k > lim || (p->n - 1) * p->ldb + p->k > lim || ((p->m - 1) * p->ldc + p->n) * esz > lim ||
      !tk_mat_rows_ok(p->m, p->lda, 1) || !tk_mat_rows_ok(p->n, p->ldb, 1)) /* matrix-bounded loads' row limit */
    return "8wave needs each operand of a batch to span less than 4 GiB (buffer descriptors)";
  return NULL;
}

/* The fp8 8wave tile for problem p on a device with `cus` CUs when the caller
 * named none: 128x128 on gfx950 when 256x256 tiles would leave CUs idle
 * (fewer tiles than CUs: modeled MI355X 1024^3 and 2048^3, 16 and 64 tiles
 * for 256 CUs), 256x256 otherwise and on gfx942 (tuned there). */
static int32_t gemm_8wave_fp8_tile(const tk_gemm_problem *p, int gfx950, int64_t cus)
{
  const int64_t tiles = ((p->n + W8F_TILE - 1) / W8F_TILE) * ((p->m + W8F_TILE - 1) / W8F_TILE) * p->batch;
  return gfx950 && tiles < cus ? W8F_SMALL : W8F_TILE;
}

static hipError_t gemm_8wave_fp8_launch(const tk_gemm_problem *p, int32_t tile, const uint8_t *a, const uint8_t *b,
                                        void *c, hipStream_t stream)
{
  const int64_t tiles = ((p->n + tile - 1) / tile) * ((p->m + tile - 1) / tile);
  if ((tile != W8F_TILE && tile != W8F_SMALL) || tiles > 0xffffffffll || gemm_8wave_fp8_unsupported(p))
    return hipErrorInvalidValue;
  /* one split: no workspace, the whole K range */
  /* every tile data-parallel, one split */
  const gemm_sk no_sk = {(int32_t)(uint32_t)tiles, 0, 0, 1, tile, gemm_tile_l2(p, tile, tile),
                          gemm_sk_plain(p, tile, tile, 1, 0)};
  hipLaunchKernelGGL(tile == W8F_TILE ? gemm_8wave_fp8 : gemm_8wave_128x128_fp8, dim3((unsigned)tiles, 1, (unsigned)p->batch),
                     dim3(512), 0, stream, a, b, c, *p, (float *)NULL, p->k, no_sk);
  return hipGetLastError();
}

#endif /* GEMM_8WAVE_FP8_H */
