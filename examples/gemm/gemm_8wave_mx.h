/* gemm_8wave_mx.h: the 8-wave ping-pong GEMM for OCP MX inputs on gfx950
 * (MXFP8 E4M3, MXFP8 E5M2, MXFP4 E2M1; one E8M0 scale per 32 elements along
 * K): the fp8 8wave kernel's body (gemm_8wave_body.h: 8 waves
 * in two groups, LDS half-steps of 64 bytes per row, ds_read_b128 fragment
 * reads, loads two half-steps ahead; the same 256x256 C tile) with three
 * MX hooks:
 *  - products: tk_mma_ABt_mx (tk/mma.h), v_mfma_scale_f32_32x32x64_f8f6f4,
 *    one per 4 fp8 K fragments or per 2 fp4 ones (a half-step of 64 bytes per
 *    row is K = 64 fp8 or 128 fp4: one or two MFMAs per fragment pair of C);
 *  - fragment reads in the MX lane order: each lane's 32 elements of an MFMA
 *    must be one MX block (the instruction takes one scale byte per lane,
 *    CDNA4 ISA guide "Matrix arithmetic"): fp8 through
 *    tk_prefetch_issue_b128_k4, fp4 through the plain paired order (16 bytes
 *    per lane and MFMA are already 32 consecutive elements);
 *  - scales in 16-byte chunks: one buffer_load_dwordx4 per row covers 4 fp8
 *    K steps (2 fp4 ones), split by MFMA lane group and written into LDS a
 *    step later (a quarter (half) of the rows per step: one load per thread
 *    and step); the first memory cluster of a K step reads the step's words
 *    of all 6 row fragments with one ds_read_b128 and one ds_read_b64, and
 *    op_sel picks each MFMA's byte (fp4: one word per K step, fp8: one per
 *    two, shifted by 8 on the odd step; gemm_8wave_mx_kernels.h).
 *    The 4-byte gather per row and step this replaces touched a 128-byte
 *    line per row, as many lines as the A and B data themselves.
 * On gfx950 the memory cluster holds its addresses across the loop (the fp8
 * kernel's W8_MEMORY_LEAN, with the MX hooks: W8_MX_MEMORY_LEAN).
 * Scale tensors as the OCP spec lays them out (tk_gemm.h): M x K/32 and
 * N x K/32 bytes per batch.  Rows past M or N read 0 elements (buffer range
 * checks) and row M-1's / N-1's scales: they only reach C elements outside
 * C, which are never stored.
 *
 * Requirements (gemm_8wave_mx_unsupported; the 128x128 mx kernel takes the
 * rest): K a multiple of 32, the scale block (what the K step of 128, mxfp4
 * 256, leaves runs as a masked tail of 64-byte half-steps, zero past K,
 * scales read from global: W8_MX_TAIL_MMA), 16-byte rows (lda, ldb bytes
 * multiples of 16), spans below 4 GiB.  fp4 runs with the problem in bytes (K, lda, ldb halved),
 * which is all the body's address arithmetic sees.
 */
#ifndef GEMM_8WAVE_MX_H
#define GEMM_8WAVE_MX_H

#include <hip/hip_runtime.h>
#include <tk/tk.h>

#include "gemm_8wave.h"
#include "gemm_tile.h"
#include "tk_gemm.h"

/* C tile 256x256, fp8's: 240 VGPRs (mxfp4 241), no spills, once tk_mma_ABt_mx
 * pins its products in the compute clusters (tk/mma.h; before, clang sank
 * them to the loop's end and the 256x256 tile spilled 145-199 VGPRs, which
 * is why this kernel was 256x128 with half the MFMAs per LDS byte) */
#define W8M_TM 256
#define W8M_TN 256
#define W8M_KH 64 /* bytes per row and half-step */

/* Why the 8wave mx kernel cannot take p (NULL: it can); the device check is
 * the host API's */
static inline const char *gemm_8wave_mx_unsupported(const tk_gemm_problem *p)
{
  if (!tk_gemm_in_is_mx(p->in)) return "the 8wave mx kernel takes MX inputs only";
  if (p->layout != TK_GEMM_NT) return "MX inputs need layout nt";
  const int fp4 = p->in == TK_GEMM_IN_MXFP4;
  const int64_t lda = fp4 ? p->lda / 2 : p->lda, ldb = fp4 ? p->ldb / 2 : p->ldb;
  const int64_t kb = p->k / (fp4 ? 2 : 1), lim = TK_GL_MAX_BYTES, esz = tk_gemm_c_elem_bytes(p);
  if (p->k % 32)
    return "the 256x256 mx kernel needs K to be a multiple of 32 (whole OCP scale blocks; the 128x128 mx kernel pads "
           "the last block)";
  if (lda % 16 || ldb % 16) return "the 256x256 mx kernel needs lda and ldb of whole 16-byte rows";
  if ((p->m - 1) * lda + kb > lim || (p->n - 1) * ldb + kb > lim || ((p->m - 1) * p->ldc + p->n) * esz > lim ||
      (p->m > p->n ? p->m : p->n) * (p->k / 32) > lim ||
      /* the matrix-bounded loads' row limit (tk_mat_rows_ok; not tested again on the device: W8_GEO) */
      !tk_mat_rows_ok(p->m, lda, 1) || !tk_mat_rows_ok(p->n, ldb, 1))
    return "the 256x256 mx kernel needs each operand of a batch to span less than 4 GiB (buffer descriptors)";
  return NULL;
}

#ifndef GEMM_8WAVE_MX_TU
/* defined in gemm_8wave_mx.hip (their own translation unit: built in
 * parallel with tk_gemm.hip) */
#define W8M_DECL(name)                                                                         \
  __global__ void name(const uint8_t *__restrict__ a, const uint8_t *__restrict__ b, void *c, tk_gemm_problem p, \
                       float *ws, int64_t kc, gemm_sk sk);
W8M_DECL(gemm_8wave_mxfp8)
W8M_DECL(gemm_8wave_mxbf8)
W8M_DECL(gemm_8wave_mxfp4)
#undef W8M_DECL
#else
/* the kernels themselves: only their translation unit sees them, so that
 * changing them does not rebuild tk_gemm.hip */
#include "gemm_8wave_mx_kernels.h"
#endif

static inline hipError_t gemm_8wave_mx_launch(const tk_gemm_problem *p, const void *a, const void *b, void *c,
                                       hipStream_t stream)
{
  const int64_t tiles = ((p->n + W8M_TN - 1) / W8M_TN) * ((p->m + W8M_TM - 1) / W8M_TM);
  if (tiles > 0xffffffffll || gemm_8wave_mx_unsupported(p)) return hipErrorInvalidValue;
  tk_gemm_problem q = *p;
  if (p->in == TK_GEMM_IN_MXFP4) q.k /= 2, q.lda /= 2, q.ldb /= 2; /* the body works in bytes */
  /* data-parallel tiles, one split; the tile map with host-made reciprocals (W8_GEO) */
  const gemm_sk no_sk = {(int32_t)(uint32_t)tiles, 0, 0, 1, W8M_TM, gemm_tile_l2(p, W8M_TM, W8M_TN),
                          gemm_sk_plain(p, W8M_TM, W8M_TN, 1, 0)};
  void (*kern)(const uint8_t *, const uint8_t *, void *, tk_gemm_problem, float *, int64_t, gemm_sk) =
      p->in == TK_GEMM_IN_MXFP4 ? gemm_8wave_mxfp4 : p->in == TK_GEMM_IN_MXFP8_E5M2 ? gemm_8wave_mxbf8 : gemm_8wave_mxfp8;
  hipLaunchKernelGGL(kern, dim3((unsigned)tiles, 1, (unsigned)p->batch), dim3(512), 0, stream, (const uint8_t *)a,
                     (const uint8_t *)b, c, q, (float *)NULL, q.k, no_sk);
  return hipGetLastError();
}

#endif /* GEMM_8WAVE_MX_H */
