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
 *    K steps (2 fp4 ones), written transposed into LDS a step later (a
 *    quarter (half) of the rows per step: one load per thread and step),
 *    each memory cluster reads its half-step's word per row fragment and
 *    lane (6 ds_read_b32) and shifts the lane's bytes into place (byte 0 =
 *    its block of the first MFMA, byte 2 of the next: op_sel picks them).
 *    The 4-byte gather per row and step this replaces touched a 128-byte
 *    line per row, as many lines as the A and B data themselves.
 * Scale tensors as the OCP spec lays them out (tk_gemm.h): M x K/32 and
 * N x K/32 bytes per batch.  Rows past M or N read 0 elements (buffer range
 * checks) and row M-1's / N-1's scales: they only reach C elements outside
 * C, which are never stored.
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
/* Scales go through LDS in 16-byte chunks: a chunk is a row's scale bytes of
 * W8_MX_CS K steps (fp8: 4 steps of 4 blocks, fp4: 2 steps of 8 blocks), so
 * a row's scales are fetched once per CS steps by one 16-byte load, not by a
 * 4-byte gather every step (each a 128-byte line per row: as many lines as
 * the A and B data, what held mxfp8 at 0.70x of fp8).  Thread gtid of a
 * group owns row gtid of its area (A's GM rows, then Bt's GN rows), phase
 * gtid % CS: every K step, in its second memory cluster, each thread writes
 * the chunk it loaded a step before (if its phase is ks % CS) and loads the
 * next one (if its phase is (ks + 1) % CS) -- one buffer_load_dwordx4 per
 * thread and step (W8_NS = 1, the body's vmcnt counts exact), the lanes out
 * of phase sent out of range (no memory traffic) and writing to a dummy
 * area, so neither LLVM's waits nor the loop see a branch.  Phase f's chunk
 * c is loaded at step (c-1)*CS + f - 1, written at (c-1)*CS + f, i.e. after
 * every read of chunk c - 2 (same buffer, c % 2; last read at step
 * (c-1)*CS - 1) and before the first read of chunk c (step c*CS), barriers
 * between.  LDS word j of a chunk at mx_lds[c % 2][grp][j][row]: the reads
 * (32 consecutive rows, one word) and the writes (256 consecutive rows) are
 * bank-conflict free.  Rows past M or N read row M - 1's (N - 1's) scales:
 * they only scale products of C rows/columns outside C, never stored; bytes
 * past a row's end (the last chunk) belong to no step that runs. */
#define W8_MX
#define W8_MX_SW (W8_MX_EPB) /* scale words per row and K step: 1 (fp8) or 2 (fp4) */
#define W8_MX_CS (4 / W8_MX_SW) /* K steps per 16-byte chunk */
#define W8_NS 1 /* one chunk load per thread and K step (second memory cluster) */
#define W8_MX_NF (W8_GM / 32 + W8_WN / 32) /* scale words per lane and half-step */
#define W8_MX_SETUP()                                                                    \
  const int64_t mx_kb = p.k * W8_MX_EPB / 32; /* scale bytes per row */                  \
  tk_gl mx_gsa, mx_gsb;                                                                  \
  gemm_gl2(&mx_gsa, (void *)((const uint8_t *)p.mx_scale_a + z * p.m * mx_kb), 1, p.m, mx_kb, mx_kb); \
  gemm_gl2(&mx_gsb, (void *)((const uint8_t *)p.mx_scale_b + z * p.n * mx_kb), 1, p.n, mx_kb, mx_kb); \
  const tk_rsrc mx_rsa = tk_gl_rsrc(&mx_gsa), mx_rsb = tk_gl_rsrc(&mx_gsb);             \
  /* [buffer][group][word of the chunk][row: A's GM, then Bt's GN]; buffer 2:   \
   * where the lanes out of phase write (never read) */                                 \
  TK_SHARED uint32_t mx_lds[3][2][4][W8_GM + W8_GN];                                     \
  static_assert(W8_GM + W8_GN == 256 && W8_GM % 64 == 0,                                 \
                "gemm_8wave_mx: one scale row per thread of a group, A's rows end on a wave"); \
  tk_u32x4 mx_st; /* the chunk on its way (registers) */                                 \
  uint32_t mx_sc[W8_MX_NF];
/* load chunk c for this thread's row if its phase is f, else nothing (out of
 * range); the operand is wave-uniform (A's rows end on a wave) */
#define W8_MX_LOAD(c, f)                                                                 \
  do {                                                                                   \
    const uint32_t _q = tk_opaque(gtid);                                                 \
    const bool _b = gw >= W8_GM / 64; /* Bt's rows (_q >= GM): per wave, a scalar choice */ \
    const int64_t _g = (_b ? n0 + gn * grp - W8_GM : m0 + gm * grp) + _q, _lim = (_b ? p.n : p.m) - 1; \
    const uint32_t _off = (uint32_t)((_g < _lim ? _g : _lim) * mx_kb + kb * W8_MX_EPB / 32) + 16u * (uint32_t)(c); \
    mx_st = tk_buffer_load_b128(_b ? mx_rsb : mx_rsa, _q % W8_MX_CS == (uint32_t)(f) ? _off : TK_OOB_OFFSET); \
  } while (0)
/* write the chunk in registers, transposed, into buffer bi if this thread's
 * phase is f (else into the dummy buffer 2) */
#define W8_MX_COMMIT(bi, f)                                                              \
  do {                                                                                   \
    const uint32_t _q = tk_opaque(gtid);                                                 \
    uint32_t *_d = _q % W8_MX_CS == (uint32_t)(f) ? &mx_lds[bi][grp][0][_q] : &mx_lds[2][grp][0][_q]; \
    _d[0 * (W8_GM + W8_GN)] = mx_st.x;                                                   \
    _d[1 * (W8_GM + W8_GN)] = mx_st.y;                                                   \
    _d[2 * (W8_GM + W8_GN)] = mx_st.z;                                                   \
    _d[3 * (W8_GM + W8_GN)] = mx_st.w;                                                   \
  } while (0)
/* prologue: chunk 0 of every row (issued first, written before the
 * prologue's barrier), then phase 0's chunk 1 (the "step -1" load) */
#define W8_MX_PROLOGUE0(k)                                                               \
  do {                                                                                   \
    const uint32_t _q0 = tk_opaque(gtid);                                                \
    W8_MX_LOAD(0, _q0 % W8_MX_CS);                                                       \
  } while (0)
#define W8_MX_PROLOGUE(k)                                                                \
  do {                                                                                   \
    const uint32_t _q0 = tk_opaque(gtid);                                                \
    W8_MX_COMMIT(0, _q0 % W8_MX_CS);                                                     \
    W8_MX_LOAD(1, 0);                                                                    \
  } while (0)
/* a memory cluster: read this half-step's words (step ks: chunk ks / CS in
 * buffer (ks / CS) % 2, word (ks % CS) * SW (+ the half-step for fp4)); the
 * second one writes phase ks % CS's chunk ks / CS + 1 and loads phase
 * (ks + 1) % CS's chunk (ks + 1) / CS + 1 */
#define W8_MX_ISSUE(cur, kload)                                                          \
  do {                                                                                   \
    const uint32_t _bi = ((uint32_t)ks / W8_MX_CS) % 2, _l = tk_lane_id() % 32, _sh = 8 * (tk_lane_id() / 32); \
    const uint32_t _wd = ((uint32_t)ks % W8_MX_CS) * W8_MX_SW + (W8_MX_SW == 2 ? (cur) : 0); \
    /* all words read first, then shifted and pinned: a pin after each read    \
     * made each read wait for the one before (6 LDS round trips in series) */ \
    _Pragma("unroll") for (int _i = 0; _i < W8_GM / 32; _i++)                            \
      tk_lds_read_u32_issue(mx_sc[_i], &mx_lds[_bi][grp][_wd][32 * _i + _l]);            \
    _Pragma("unroll") for (int _j = 0; _j < W8_WN / 32; _j++)                            \
      tk_lds_read_u32_issue(mx_sc[W8_GM / 32 + _j],                                      \
                            &mx_lds[_bi][gw / 2][_wd][W8_GM + (gw % 2) * wn + 32 * _j + _l]); \
    _Pragma("unroll") for (int _i = 0; _i < W8_MX_NF; _i++) {                            \
      tk_lds_read_u32_wait(mx_sc[_i]);                                                   \
      mx_sc[_i] = tk_opaque(mx_sc[_i] >> _sh);                                           \
    }                                                                                    \
    if ((cur) == 1) {                                                                    \
      W8_MX_COMMIT(1 - _bi, (uint32_t)ks % W8_MX_CS);                                    \
      W8_MX_LOAD((uint32_t)(ks + 1) / W8_MX_CS + 1, (uint32_t)(ks + 1) % W8_MX_CS);      \
    }                                                                                    \
    (void)(kload);                                                                       \
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
#undef W8_MX_CS
#undef W8_MX_COMMIT
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
