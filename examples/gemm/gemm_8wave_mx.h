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
 *  - scales out of the inner loop: one 4-byte (fp8: the K step's 4 blocks)
 *    or 8-byte (fp4: 8 blocks) load per row fragment and lane per K step,
 *    issued with the K step's first memory cluster a whole step ahead, the
 *    lane's bytes shifted into place once per step (byte 0 = its block of
 *    the first MFMA, byte 2 of the next: op_sel picks them); 6 loads per
 *    thread and K step against the 8 16-byte data loads per half-step.
 * Scale tensors as the OCP spec lays them out (tk_gemm.h): M x K/32 and
 * N x K/32 bytes per batch.  Rows past M or N read 0 for both elements and
 * scales (buffer range checks): products 0, never NaN.
 *
 * Requirements (gemm_8wave_mx_unsupported; the 128x128 mx kernel takes the
 * rest): whole K steps (K a multiple of 128, mxfp4 256: no masked tail, so
 * no padding blocks), 16-byte rows (lda, ldb bytes multiples of 16), spans
 * below 4 GiB.  fp4 runs with the problem in bytes (K, lda, ldb halved),
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
  const int64_t step = fp4 ? 4 * W8M_KH : 2 * W8M_KH, lda = fp4 ? p->lda / 2 : p->lda, ldb = fp4 ? p->ldb / 2 : p->ldb;
  const int64_t kb = p->k / (fp4 ? 2 : 1), lim = TK_GL_MAX_BYTES, esz = tk_gemm_c_elem_bytes(p);
  if (p->k % step)
    return fp4 ? "the 256x256 mx kernel needs K to be a multiple of 256 for mxfp4 (whole K steps)"
               : "the 256x256 mx kernel needs K to be a multiple of 128 for mxfp8 (whole K steps)";
  if (lda % 16 || ldb % 16) return "the 256x256 mx kernel needs lda and ldb of whole 16-byte rows";
  if ((p->m - 1) * lda + kb > lim || (p->n - 1) * ldb + kb > lim || ((p->m - 1) * p->ldc + p->n) * esz > lim ||
      (p->m > p->n ? p->m : p->n) * (p->k / 32) > lim)
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
#elif TK_HAS_MFMA_F8F6F4 || !TK_DEVICE_PASS
/* Scales go through LDS: per K step and group, A's 128 rows and Bt's 128
 * rows of scale words (4 bytes: fp8's 4 blocks, fp4: 8 bytes, 8 blocks) by
 * direct-to-LDS loads (waves 0-1 of the group A's, 2-3 Bt's: W8_NS = 1 or 2
 * per thread), issued in a step's first memory cluster two steps ahead into
 * one of three buffers (the buffer being read by the other group and the next
 * step's stay untouched), complete at the next step's second cluster's
 * commits (issued before them) and seen after its barrier.  Each memory
 * cluster reads the half-step's words of its fragments (6 ds_read_b32) and
 * shifts lane group h's block into byte 0 (byte 2: the next MFMA's), the
 * result pinned there (tk_opaque: the reads, waits and shifts stay in the
 * memory cluster, off the MFMAs' path).  Held
 * in registers only from the memory cluster to its compute cluster: a copy
 * of the words held across the loop made the kernel spill (146 VGPRs). */
#define W8_MX
#define W8_MX_SW (W8_MX_EPB) /* scale words per row and K step: 1 (fp8) or 2 (fp4) */
#define W8_NS W8_MX_SW
#define W8_MX_NF (W8_GM / 32 + W8_WN / 32) /* scale words per lane and half-step */
#define W8_MX_SETUP()                                                                    \
  const int64_t mx_kb = p.k * W8_MX_EPB / 32; /* scale bytes per row */                  \
  tk_gl mx_gsa, mx_gsb;                                                                  \
  gemm_gl2(&mx_gsa, (void *)((const uint8_t *)p.mx_scale_a + z * p.m * mx_kb), 1, p.m, mx_kb, mx_kb); \
  gemm_gl2(&mx_gsb, (void *)((const uint8_t *)p.mx_scale_b + z * p.n * mx_kb), 1, p.n, mx_kb, mx_kb); \
  const tk_rsrc mx_rsa = tk_gl_rsrc(&mx_gsa), mx_rsb = tk_gl_rsrc(&mx_gsb);             \
  /* [buffer][group][word]: A's GM rows, then Bt's GN rows, SW words each, padded   \
   * to whole rounds of the group's 256 threads */                                       \
  TK_SHARED uint32_t mx_lds[3][2][256 * W8_NS];                                          \
  static_assert((W8_GM * W8_MX_SW) % 64 == 0 && (W8_GM + W8_GN) * W8_MX_SW <= 256 * W8_NS, \
                "gemm_8wave_mx: A's scale words end on a wave, all fit the rounds");     \
  uint32_t mx_sc[W8_MX_NF];
/* the scale words of the K step at element k into buffer bi: word q = gtid +
 * 256 i of this group's area (A row q / SW, then Bt rows, then padding read
 * as 0); the operand is wave-uniform (A's words end on a wave), so one
 * buffer descriptor per wave */
#define W8_MX_LOAD(bi, k)                                                                \
  do {                                                                                   \
    const uint32_t _kb = (uint32_t)((k) * W8_MX_EPB / 32), _l = tk_lane_id();            \
    _Pragma("unroll") for (int _i = 0; _i < W8_NS; _i++) {                               \
      const uint32_t _w0 = 64 * gw + 256 * _i, _q = _w0 + _l; /* _w0: wave-uniform (SGPR) */ \
      const bool _b = _w0 >= W8_GM * W8_MX_SW; /* Bt's words or padding: per wave */     \
      const uint32_t _qq = _b ? _q - W8_GM * W8_MX_SW : _q, _r = _qq / W8_MX_SW;          \
      const int64_t _g = (_b ? n0 + gn * grp : m0 + gm * grp) + _r;                     \
      const bool _in = _r < (uint32_t)(_b ? W8_GN : W8_GM) && _g < (_b ? p.n : p.m);     \
      const uint32_t _off = _in ? (uint32_t)(_g * mx_kb) + _kb + 4 * (_qq % W8_MX_SW) : TK_OOB_OFFSET; \
      tk_load_lds_dword(&mx_lds[bi][grp][_w0], _b ? mx_rsb : mx_rsa, _off);      \
    }                                                                                    \
  } while (0)
#define W8_MX_PROLOGUE0(k) W8_MX_LOAD(0, k)
#define W8_MX_PROLOGUE(k) W8_MX_LOAD(1, (k) + 2 * W8_KH)
/* a memory cluster: read this half-step's words (step ks, buffer ks % 3),
 * then (cluster 0) issue step ks + 2's loads */
#define W8_MX_ISSUE(cur, kload)                                                          \
  do {                                                                                   \
    const uint32_t _bi = (uint32_t)ks % 3, _l = tk_lane_id() % 32, _sh = 8 * (tk_lane_id() / 32); \
    const uint32_t _wd = W8_MX_SW == 2 ? (cur) : 0; /* fp4: the half-step's word */    \
    /* all words read first, then shifted and pinned: a pin after each read    \
     * made each read wait for the one before (6 LDS round trips in series) */ \
    /* (asm reads: plain ones made LLVM wait for the newest direct scale load,  \
     * a global latency per K step; the buffer read here was filled a step ago) \
     */                                                                                  \
    _Pragma("unroll") for (int _i = 0; _i < W8_GM / 32; _i++)                            \
      tk_lds_read_u32_issue(mx_sc[_i], &mx_lds[_bi][grp][(32 * _i + _l) * W8_MX_SW + _wd]); \
    _Pragma("unroll") for (int _j = 0; _j < W8_WN / 32; _j++)                            \
      tk_lds_read_u32_issue(mx_sc[W8_GM / 32 + _j],                                      \
                            &mx_lds[_bi][gw / 2][(W8_GM + (gw % 2) * wn + 32 * _j + _l) * W8_MX_SW + _wd]); \
    _Pragma("unroll") for (int _i = 0; _i < W8_MX_NF; _i++) {                            \
      tk_lds_read_u32_wait(mx_sc[_i]);                                                   \
      mx_sc[_i] = tk_opaque(mx_sc[_i] >> _sh);                                           \
    }                                                                                    \
    if ((cur) == 0) W8_MX_LOAD(((uint32_t)ks + 2) % 3, (kload) + W8_KH);                 \
  } while (0)

#define W8_KH W8M_KH
#define W8_TM W8M_TM
#define W8_TN W8M_TN
#define W8_EL uint8_t
#define W8_TT tk_fp8e4 /* the bytes of the MX elements (fp8-kind tiles) */
#define W8_KIND TK_K_A_FP8_32x32x16
#define W8_NO_STREAM_K

/* MXFP8 (E4M3, E5M2): one MFMA per half-step and fragment pair, scale byte
 * 0 in the first half-step, 2 in the second */
#define W8_MX_EPB 1
#define W8_PF tk_prefetch_issue_b128_k4
#define W8_MX_MMA(h) tk_mma_ABt_mx(acc, fa, fb, acc, mx_sc, mx_sc + W8_GM / 32, W8_MX_FMT, 2 * (h))

#define W8_MX_FMT TK_F8F6F4_FP8
#define W8_ID(x) W8_CAT(x, 256x128_mxfp8)
#define W8_KERNEL gemm_8wave_mxfp8
#include "gemm_8wave_body.h"
#undef W8_ID
#undef W8_KERNEL
#undef W8_MX_FMT

#define W8_MX_FMT TK_F8F6F4_BF8
#define W8_ID(x) W8_CAT(x, 256x128_mxbf8)
#define W8_KERNEL gemm_8wave_mxbf8
#include "gemm_8wave_body.h"
#undef W8_ID
#undef W8_KERNEL
#undef W8_MX_FMT

#undef W8_MX_EPB
#undef W8_PF
#undef W8_MX_MMA

/* MXFP4: a half-step is 128 elements, two MFMAs per fragment pair (bytes 0
 * and 2 of its own word: blocks 0..3 of the step in .x, 4..7 in .y) */
#define W8_MX_EPB 2
#define W8_PF tk_prefetch_issue_b128
#define W8_MX_MMA(h) tk_mma_ABt_mx(acc, fa, fb, acc, mx_sc, mx_sc + W8_GM / 32, W8_MX_FMT, 0)
#define W8_MX_FMT TK_F8F6F4_FP4
#define W8_ID(x) W8_CAT(x, 256x128_mxfp4)
#define W8_KERNEL gemm_8wave_mxfp4
#include "gemm_8wave_body.h"
#undef W8_ID
#undef W8_KERNEL
#undef W8_MX_FMT
#undef W8_MX_EPB
#undef W8_PF
#undef W8_MX_MMA

#undef W8_NO_STREAM_K
#undef W8_KH
#undef W8_TM
#undef W8_TN
#undef W8_EL
#undef W8_TT
#undef W8_KIND
#undef W8_MX
#undef W8_NS
#undef W8_MX_NF
#undef W8_MX_SETUP
#undef W8_MX_LOAD
#undef W8_MX_PROLOGUE
#undef W8_MX_PROLOGUE0
#undef W8_MX_ISSUE
#undef W8_MX_SW
#else
/* gfx942 device pass: no block-scaled MFMAs; the host refuses MX there */
#define W8M_EMPTY(name)                                                                        \
  __global__ __launch_bounds__(512) void name(const uint8_t *__restrict__ a, const uint8_t *__restrict__ b, void *c, \
                                              tk_gemm_problem p, float *ws, int64_t kc, gemm_sk sk)               \
  {                                                                                            \
    (void)a, (void)b, (void)c, (void)p, (void)ws, (void)kc, (void)sk;                          \
  }
W8M_EMPTY(gemm_8wave_mxfp8)
W8M_EMPTY(gemm_8wave_mxbf8)
W8M_EMPTY(gemm_8wave_mxfp4)
#undef W8M_EMPTY
#endif

static inline hipError_t gemm_8wave_mx_launch(const tk_gemm_problem *p, const void *a, const void *b, void *c,
                                       hipStream_t stream)
{
  const int64_t tiles = ((p->n + W8M_TN - 1) / W8M_TN) * ((p->m + W8M_TM - 1) / W8M_TM);
  if (tiles > 0xffffffffll || gemm_8wave_mx_unsupported(p)) return hipErrorInvalidValue;
  tk_gemm_problem q = *p;
  if (p->in == TK_GEMM_IN_MXFP4) q.k /= 2, q.lda /= 2, q.ldb /= 2; /* the body works in bytes */
  const gemm_sk no_sk = {(int32_t)(uint32_t)tiles, 0, 0, 1, W8M_TM}; /* data-parallel tiles, one split */
  void (*kern)(const uint8_t *, const uint8_t *, void *, tk_gemm_problem, float *, int64_t, gemm_sk) =
      p->in == TK_GEMM_IN_MXFP4 ? gemm_8wave_mxfp4 : p->in == TK_GEMM_IN_MXFP8_E5M2 ? gemm_8wave_mxbf8 : gemm_8wave_mxfp8;
  hipLaunchKernelGGL(kern, dim3((unsigned)tiles, 1, (unsigned)p->batch), dim3(512), 0, stream, (const uint8_t *)a,
                     (const uint8_t *)b, c, q, (float *)NULL, q.k, no_sk);
  return hipGetLastError();
}

#endif /* GEMM_8WAVE_MX_H */
