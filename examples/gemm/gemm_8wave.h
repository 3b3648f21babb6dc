/* gemm_8wave.h: the main GEMM kernel, built only from tk primitives.
 *
 * Tiles 256x256 (described here), 256x128, 128x256 and 128x128 (K step 64 or
 * 128) from one body, gemm_8wave_body.h, included once per shape below; any
 * K (masked tail) and split-K (gemm_splitk.h).
 *
 * 256x256 C tile per workgroup, K step 64 per loop iteration, 8 waves (512
 * threads) in two groups of 4: group g = waves 4g..4g+3.  Waves w and w+4
 * share SIMD w%4 (waves are placed round-robin on the CU's four SIMDs), so
 * each SIMD holds one wave of each group.  Wave (g, i) owns C rows
 * 128g..128g+127, columns 64i..64i+63: a 128x64 f32 accumulator tile (4x2
 * fragments of 32x32, 128 accumulator registers per lane).
 *
 * Ping-pong (docs/gemm.md has the diagram): each wave alternates a memory
 * cluster (LDS fragment reads, LDS commits, global loads) and a compute
 * cluster (32 MFMAs at s_setprio 1).  Group 1 passes one extra s_barrier
 * before the loop and group 0 one after it, so at every barrier one group
 * finishes memory work while the other finishes MFMAs: on each SIMD one wave
 * feeds the matrix core while the other moves data.
 *
 * Data flow, in half-steps of K = 32 (two per loop iteration, one LDS buffer
 * each, 32 KiB: A rows 0-127 / 128-255 and Bt rows 0-127 / 128-255 as
 * swizzled 128x32 bf16 tk tiles, 64 KiB in all):
 *   memory cluster of half-step s, in wave order
 *     - tk_prefetch_issue_b128: ds_read_b128 of this wave's A (128x32) and
 *       Bt (64x32) fragments of half-step s from buffer s%2, two K
 *       fragments per read (tk's paired K order, the same for A and Bt, so
 *       the product is unchanged);
 *     - tk_load_commit: the staged half-step s+1 (group g stages rows
 *       128g..128g+127 of A and of Bt, 2 x 16 bytes per thread each) goes
 *       to buffer (s+1)%2, each commit waiting with vmcnt(6) for its own
 *       batch only;
 *     - tk_load_issue: buffer loads of half-step s+3 into the staging set
 *       just committed (two sets alternate, s+2 is in flight in the other;
 *       beyond K they read 0: the buffer range check);
 *     - tk_prefetch_wait_b128: lgkmcnt(0), fragments become usable.
 *   compute cluster: tk_mma_ABt over the fragments (4x2x4 MFMA 32x32x8).
 * Buffer s%2 is read in the memory clusters of half-step s of both groups
 * and rewritten (with half-step s+2) only in the next memory clusters, which
 * the barriers order after those reads; the interval analysis is in
 * docs/gemm.md.  Global loads are in flight for two half-steps (two compute
 * clusters of each group) and never waited with vmcnt(0) in the loop.
 *
 * Epilogue: in the tiles 128 wide in N, a wave whose block lies inside C
 * stores it straight from its accumulators (tk_store_acc_epi: alpha/beta,
 * bias and activation of gemm_epi, tk/epilogue.h, in registers); a block
 * across the M/N edges, and every block of the 256-wide tiles, goes
 * 32x64 at a time through the wave's own 8 KiB f32 LDS tile
 * (tk_store_acc_lds) and tk_store_lds_global_epi: 16-byte (f32) / 8-byte
 * (bf16) stores, element stores only at the edges.
 *
 * B as K x N (--layout nn): kernel gemm_8wave_nn, which stages B with tk's
 * transposing group loads (pairs of K rows -> ds_write_b32 into the same
 * N x K tiles); everything else is identical.
 *
 * Any K, lda, ldb: the loop covers the largest multiple of the K step, a
 * masked tail loop (element-wise staging, one half-step per iteration) the
 * rest, or all of K when lda/ldb are not multiples of 8 (no 16-byte rows).
 * Requirement (gemm_8wave_unsupported_tile): every operand's span per batch
 * < 4 GiB (buffer descriptors); nn only for tiles 256 wide in N.
 */
#ifndef GEMM_8WAVE_H
#define GEMM_8WAVE_H

#include <hip/hip_runtime.h>
#include <string.h>
#include <tk/tk.h>

#include "gemm_splitk.h"
#include "gemm_tile.h"
#include "tk_gemm.h"

/* element (r, k) of one of the swizzled bf16 x 32 half-step tiles (the
 * masked K tail's staging) */
#define W8_LDS_AT(tile, r, k) (*(W8_EL *)((char *)(tile).data + tk_st_offset(W8_ID(w8_ha), (r), (k)))) /* a[] and b[]: one layout */

/* Can the group loads move this problem's rows (16-byte rows and origins,
 * operands within a buffer descriptor)?  Otherwise the kernel stages all of
 * K through the masked tail (correct for any K, lda, ldb; slow). */
TK_HDI bool gemm_8wave_wide(const tk_gemm_problem *p)
{
  const int64_t e = tk_gemm_in_elem_bytes(p), row = 16 / e; /* elements per 16 bytes */
  const int64_t b_span = p->layout == TK_GEMM_NT ? (p->n - 1) * p->ldb + p->k : (p->k - 1) * p->ldb + p->n;
  return p->lda % row == 0 && p->ldb % row == 0 && ((p->m - 1) * p->lda + p->k) * e <= TK_GL_MAX_BYTES &&
         b_span * e <= TK_GL_MAX_BYTES;
}

/* gemm_8wave_wide for a problem the launch accepted: its span tests are
 * gemm_8wave_unsupported_tile's and gemm_8wave_fp8_unsupported's, so only
 * the 16-byte rows are left to test */
TK_HDI bool gemm_8wave_wide_rows(const tk_gemm_problem *p)
{
  const int64_t row = 16 / tk_gemm_in_elem_bytes(p);
  return p->lda % row == 0 && p->ldb % row == 0;
}

/* The 8wave kernels' arguments, in their order: the kernel argument block
 * (kernarg segment) has them at these offsets (tk_kernarg_fresh), so the
 * epilogue reads c, p and ws from it after the main loop. */
typedef struct {
  const void *a, *b;
  void *c;
  tk_gemm_problem p;
  float *ws;
  int64_t kc;
  gemm_sk sk;
} gemm_8wave_kargs;

#define gemm_8wave_seg_ka(ka, i, kstep, skp) gemm_8wave_seg((ka)->p, (ka)->kc, (ka)->sk, (i), (kstep), (skp))
/* Segment i of this workgroup (gemm_splitk.h: data-parallel tiles and
 * split-K ranges have one, stream-K ranges up to three): the logical id of
 * its tile, its K range [kb, ke) and where its result goes (dest: W8_TO_C,
 * W8_TO_SPLIT or a stream-K slot, gemm_8wave_body.h); n: the number of
 * segments.  skp (a compile-time constant at each call): a stream-K
 * workgroup's segment, else the one segment of the others.  The body calls it before its main loop and again after it, on
 * a fresh read of the arguments, so none of it is held across the loop. */
#define W8_TO_C (-1)
#define W8_TO_SPLIT (-2)
typedef struct {
  uint32_t lid;
  int32_t dest, n;
  int64_t kb, ke;
} gemm_seg;
static __device__ inline __attribute__((always_inline)) gemm_seg gemm_8wave_seg(const tk_gemm_problem &p,
    int64_t kc, const gemm_sk &sk, int32_t i, int64_t kstep, const bool skp)
{
  gemm_seg g;
  if (!skp) { /* a whole tile, or its split blockIdx.y of gridDim.y */
    g.lid = gemm_tile_lid(p, blockIdx.x, (uint32_t)sk.dp);
    g.kb = (int64_t)blockIdx.y * kc, g.ke = g.kb + kc < p.k ? g.kb + kc : p.k;
    g.dest = sk.splits > 1 ? W8_TO_SPLIT : W8_TO_C;
    g.n = 1;
    return g;
  }
  const int64_t kt = (p.k + kstep - 1) / kstep; /* K iterations per tile */
  const int64_t iters = (int64_t)sk.tiles * kt;
  const uint32_t rho = tk_grid_xcd_remap(blockIdx.x - sk.dp, sk.groups, TK_NUM_XCDS);
  const int64_t qs = gemm_sk_first(rho, iters, sk.groups), qe = gemm_sk_first(rho + 1, iters, sk.groups);
  /* the range's tiles us .. ue, taken last one first, then the first one,
   * then those between: each group's K position then differs from every
   * other group's by one of a few constants (the range length mod kt), so
   * the groups of an XCD walk K nearly in step and share its L2 as
   * data-parallel tiles do (in range order they would be spread over all of
   * K: the panels of every K step at once) */
  const int64_t us = qs / kt, ue = (qe - 1) / kt;
  const int64_t u = i == 0 ? ue : i == 1 ? us : us + i - 1; /* iterations [s0, s1) of tile u */
  const int64_t s0 = qs > u * kt ? qs : u * kt, s1 = qe < (u + 1) * kt ? qe : (u + 1) * kt;
  g.lid = (uint32_t)(sk.dp + u);
  g.kb = (s0 - u * kt) * kstep;
  g.ke = (s1 - u * kt) * kstep < p.k ? (s1 - u * kt) * kstep : p.k;
  /* slot 0: the range's first segment, 1: its last */
  g.dest = g.kb == 0 && g.ke == p.k ? W8_TO_C : (u == us ? 0 : sk.groups) + (int32_t)rho;
  g.n = (int32_t)(ue - us + 1);
  return g;
}

/* The shapes' code below refers to these locals of the body: sm (LDS), sa/sb
 * (staging sets), pa/pb, fa/fb (fragments), acc, ga/gb, ra/rb, m0, n0, grp,
 * gw, gtid, nn and the shape constants gm, gn, wn, na, nb (enum). */

/* memory cluster of half-step s, in buffer `cur` = s%2: half-step s+1 goes
 * from staging set 1-cur to buffer 1-cur, and the same set is refilled with
 * half-step s+3 (K `kload`); set `cur` holds half-step s+2, in flight since
 * the previous cluster.  Group g stages its rows of both A and Bt (tiles
 * a[g], b[g]): na + nb loads per thread and set.  Each commit waits for its
 * own batch only: before the A commit, Bt of this set and both batches of
 * the other set may stay in flight (nb + na + nb); before the Bt commit, the
 * other set and the A batch just issued (na + nb + na). */
/* (MX kernels, gemm_8wave_mx.h: W8_PF reads the fragments in the MX lane
 * order, each cluster 0 issues the next K step's scale loads after the Bt
 * batch (W8_MX_ISSUE; W8_NS loads per thread, in both commits' counts since
 * they sit between batches of either set); the others: nothing) */
#define W8_MEMORY(cur, kload)                                                           \
  do {                                                                                  \
    W8_PF(pa, sm.buf[cur].a[grp], 0, 0);                                                \
    W8_PF(pb, sm.buf[cur].b[gw / 2], (gw % 2) * wn, 0);                                 \
    const uint32_t tid_ = tk_opaque(gtid); /* addresses recomputed here, not hoisted */ \
    tk_load_commit(sm.buf[1 - (cur)].a[grp], sa[1 - (cur)], tid_, nb + na + nb + W8_NS); \
    tk_load_issue(sa[1 - (cur)], &ga, ra, 0, 0, m0 + gm * grp, (kload), tid_);          \
    W8_B_COMMIT(sm.buf[1 - (cur)].b[grp], sb[1 - (cur)], na + nb + na + W8_NS);         \
    W8_B_ISSUE(sb[1 - (cur)], kload);                                                   \
    W8_MX_ISSUE(cur, kload);                                                            \
    tk_prefetch_wait_b128(fa, pa, 0);                                                   \
    tk_prefetch_wait_b128(fb, pb, 0);                                                   \
  } while (0)

/* The same cluster on gfx950 (W8_LEAN, gemm_8wave_body.h): every address
 * held across the loop, computed once before it (tk_prefetch_at_b128,
 * tk_load_at_mat): the fragment reads and LDS writes of buffer `cur` at a
 * constant offset from buffer 0's (the instructions' offset fields), the
 * global loads at the lane's row offset (VGPR) plus the wave-uniform column
 * offset W8_KOFF(kload) (SGPR).  With the double-rate MFMAs of gfx950 the
 * compute cluster is short and this cluster sets the ping-pong step; on
 * gfx942 the held registers made the kernels spill, so it keeps W8_MEMORY. */
#define W8_BUFB(cur) ((cur) * (int)sizeof(sm.buf[0])) /* buffer cur's distance from buffer 0 */
#define W8_MEMORY_LEAN(cur, kload)                                                      \
  do {                                                                                  \
    tk_prefetch_issue_b128_at(pa, sm.buf[0].a[0], pat_a, W8_BUFB(cur));                 \
    tk_prefetch_issue_b128_at(pb, sm.buf[0].b[0], pat_b, W8_BUFB(cur));                 \
    tk_load_commit_at(sa[1 - (cur)], la, W8_BUFB(1 - (cur)), nb + na + nb);             \
    tk_load_issue_at(sa[1 - (cur)], rma, la, W8_KOFF(kload));                           \
    W8_B_COMMIT_AT(1 - (cur), na + nb + na);                                            \
    W8_B_ISSUE_AT(1 - (cur), kload);                                                    \
    tk_prefetch_wait_b128(fa, pa, 0);                                                   \
    tk_prefetch_wait_b128(fb, pb, 0);                                                   \
  } while (0)

/* compute cluster: nothing crosses the scheduling fences, priority up */
#define W8_COMPUTE(mma, h) /* h: the half-step of the K step (0, 1) */                 \
  do {                                                                                  \
    TK_SCHED_BARRIER(TK_SCHED_NONE);                                                    \
    TK_SETPRIO(1);                                                                      \
    W8_MMA_##mma(h); /* the body's W8_MMA_ALL or _SHORT (a 224-row tile's group 1) */ \
    TK_SETPRIO(0);                                                                      \
    TK_SCHED_BARRIER(TK_SCHED_NONE);                                                    \
  } while (0)

/* end of a cluster: own LDS ops done (the waits above), then the barrier */
#define W8_BARRIER()                                                                    \
  do {                                                                                  \
    TK_SCHED_BARRIER(TK_SCHED_NONE);                                                    \
    tk_barrier();                                                                       \
    TK_SCHED_BARRIER(TK_SCHED_NONE);                                                    \
  } while (0)

/* The tile shapes: one body (gemm_8wave_body.h), four instantiations for
 * bf16 here, and fp8 in gemm_8wave_fp8.h.  The 256x256 ones are compiled in
 * their own translation unit, gemm_8wave_256.hip (GEMM_8WAVE_256_TU), with
 * TK_OPAQUE_IDS (tk/target.h): their two stream-K copies of the body need it
 * to stay spill-free, and in the others it costs 10-15% at 1024^3-2048^3
 * (modeled: lane-derived addresses recomputed inside the main loop).
 * gfx950's launches without stream-K take gemm_8wave_dp instead, one copy of
 * the body in a third unit, gemm_8wave_256dp.hip (GEMM_8WAVE_256DP_TU). */
#define W8_CAT_(x, s) x##_##s
#define W8_CAT(x, s) W8_CAT_(x, s)
#define W8_EL uint16_t /* bf16 bits */
#define W8_TT tk_bf16
#define W8_KIND TK_K_A_BF16_32x32x8

#define W8_KH 32 /* K per half-step (one LDS buffer); K step 64 */
#if defined(GEMM_8WAVE_MX_TU)
/* the MX unit (gemm_8wave_mx.hip) takes the schedule above, no bf16 kernel */
#undef W8_EL
#undef W8_TT
#undef W8_KIND
#undef W8_KH
#elif defined(GEMM_8WAVE_256_TU)
#define W8_TM 256
#define W8_TN 256
#define W8_ID(x) W8_CAT(x, 256x256)
#define W8_KERNEL gemm_8wave
#ifdef TK_GEMM_DEMO_ONLY /* the first run's build (gemm_demo.h): nt, no stream-K */
#define W8_NO_STREAM_K
#else
#define W8_KERNEL_NN gemm_8wave_nn
#endif
#define W8_ROWSKIP /* also the 224x256 tiles */
#include "gemm_8wave_body.h"
#undef W8_ROWSKIP
#undef W8_NO_STREAM_K
#undef W8_TM
#undef W8_TN
#undef W8_ID
#undef W8_KERNEL
#undef W8_KERNEL_NN
#elif defined(GEMM_8WAVE_256DP_TU)
/* gemm_8wave_256dp.hip: gemm_8wave_dp, the 256x256 nt tile without stream-K
 * segments or 224-row tiles (gemm_8wave_launch takes it on gfx950 when the
 * launch has no stream-K): one copy of the body, so the host-made tile map
 * and the overlapped prologue (W8_GEO, gemm_8wave_body.h) fit in registers;
 * in gemm_8wave, with two stream-K copies, they spilled 10-11 SGPRs and 624
 * VGPRs.  Empty on gfx942 (W8_GFX950_ONLY: never launched there). */
#ifndef TK_GEMM_DEMO_ONLY
#define W8_TM 256
#define W8_TN 256
#define W8_ID(x) W8_CAT(x, 256x256dp)
#define W8_KERNEL gemm_8wave_dp
#define W8_NO_STREAM_K
#define W8_GFX950_ONLY
#include "gemm_8wave_body.h"
#endif
#else
__global__ void gemm_8wave(const uint16_t *__restrict__ a, const uint16_t *__restrict__ b, void *c, tk_gemm_problem p,
                           float *ws, int64_t kc, gemm_sk sk);
#ifndef TK_GEMM_DEMO_ONLY /* the first run's build has the 256x256 nt kernel only (gemm_demo.h) */
__global__ void gemm_8wave_nn(const uint16_t *__restrict__ a, const uint16_t *__restrict__ b, void *c,
                              tk_gemm_problem p, float *ws, int64_t kc, gemm_sk sk);
__global__ void gemm_8wave_dp(const uint16_t *__restrict__ a, const uint16_t *__restrict__ b, void *c,
                              tk_gemm_problem p, float *ws, int64_t kc, gemm_sk sk);

#define W8_TM 256
#define W8_TN 128
#define W8_ID(x) W8_CAT(x, 256x128)
#define W8_KERNEL gemm_8wave_256x128
#include "gemm_8wave_body.h"
#undef W8_TM
#undef W8_TN
#undef W8_ID
#undef W8_KERNEL

#define W8_TM 128
#define W8_TN 256
#define W8_ID(x) W8_CAT(x, 128x256)
#define W8_KERNEL gemm_8wave_128x256
#define W8_KERNEL_NN gemm_8wave_128x256_nn
#include "gemm_8wave_body.h"
#undef W8_TM
#undef W8_TN
#undef W8_ID
#undef W8_KERNEL
#undef W8_KERNEL_NN

#define W8_TM 128
#define W8_TN 128
#define W8_ID(x) W8_CAT(x, 128x128)
#define W8_KERNEL gemm_8wave_128x128
#include "gemm_8wave_body.h"
#undef W8_ID
#undef W8_KERNEL
#undef W8_KH

/* 128x128 with K step 128 (half-steps of 64): twice the MFMAs per cluster
 * and per barrier, loads issued twice as long ahead; 64 KiB of LDS */
#define W8_KH 64
#define W8_ID(x) W8_CAT(x, 128x128k128)
#define W8_KERNEL gemm_8wave_128x128_k128
#include "gemm_8wave_body.h"
#undef W8_TM
#undef W8_TN
#undef W8_ID
#undef W8_KERNEL
#undef W8_KH
#else
#undef W8_KH
#endif /* TK_GEMM_DEMO_ONLY */
#undef W8_EL
#undef W8_TT
#undef W8_KIND

typedef void (*gemm_8wave_fn)(const uint16_t *, const uint16_t *, void *, tk_gemm_problem, float *, int64_t, gemm_sk);
/* kernels by tile shape and K step, nt and nn (NULL: no nn kernel for TN = 128) */
static const struct {
  int32_t tm, tn, kstep;
  gemm_8wave_fn nt, nn;
} gemm_8wave_shapes[] = {
#ifdef TK_GEMM_DEMO_ONLY
    {256, 256, 64, gemm_8wave, NULL},
    {224, 256, 64, gemm_8wave, NULL},
#else
    {256, 256, 64, gemm_8wave, gemm_8wave_nn},
    {224, 256, 64, gemm_8wave, gemm_8wave_nn}, /* the 256x256 kernels, group 1 one row fragment short */
    {256, 128, 64, gemm_8wave_256x128, NULL},
    {128, 256, 64, gemm_8wave_128x256, gemm_8wave_128x256_nn},
    {128, 128, 64, gemm_8wave_128x128, NULL},
    {128, 128, 128, gemm_8wave_128x128_k128, NULL},
#endif
};

/* The kernel of tile tm x tn and K step ks, for B as K x N if nn (NULL: no such kernel). */
static const gemm_8wave_fn *gemm_8wave_kernels(int32_t tm, int32_t tn, int32_t ks, int nn)
{
  for (size_t i = 0; i < sizeof gemm_8wave_shapes / sizeof gemm_8wave_shapes[0]; ++i)
    if (gemm_8wave_shapes[i].tm == tm && gemm_8wave_shapes[i].tn == tn && gemm_8wave_shapes[i].kstep == ks)
      return nn ? (gemm_8wave_shapes[i].nn ? &gemm_8wave_shapes[i].nn : NULL) : &gemm_8wave_shapes[i].nt;
  return NULL;
}

/* Why 8wave cannot take problem p with tile tm x tn (NULL: it can).  Any K,
 * lda, ldb: without 16-byte rows the masked tail stages all of K. */
static const char *gemm_8wave_unsupported_tile(const tk_gemm_problem *p, int32_t tm, int32_t tn, int32_t ks)
{
  const int64_t esz = tk_gemm_c_elem_bytes(p), lim = TK_GL_MAX_BYTES; /* tk_gl_make's limit */
  if (!gemm_8wave_kernels(tm, tn, 64, 0))
    return "8wave tiles are 256x256, 224x256, 256x128, 128x256 and 128x128";
  if (!gemm_8wave_kernels(tm, tn, ks, 0)) return "8wave's K step is 64 (and 128 for the 128x128 tile)";
  if (p->layout == TK_GEMM_NN && !gemm_8wave_kernels(tm, tn, ks, 1))
    return "8wave with B as K x N (nn) needs a tile 256 wide in N (256x256 or 128x256)";
  const int64_t b_span = p->layout == TK_GEMM_NT ? (p->n - 1) * p->ldb + p->k : (p->k - 1) * p->ldb + p->n;
  /* (and gfx950's matrix-bounded loads' row limit, tk_mat_rows_ok) */
  const int64_t b_rows = p->layout == TK_GEMM_NT ? p->n : p->k;
  if (((p->m - 1) * p->lda + p->k) * 2 > lim || b_span * 2 > lim ||
      ((p->m - 1) * p->ldc + p->n) * esz > lim || !tk_mat_rows_ok(p->m, p->lda, 2) ||
      !tk_mat_rows_ok(b_rows, p->ldb, 2))
    return "8wave needs each operand of a batch to span less than 4 GiB (buffer descriptors)";
  return NULL;
}
static const char *gemm_8wave_unsupported(const tk_gemm_problem *p) { return gemm_8wave_unsupported_tile(p, 256, 256, 64); }

/* K per split for `splits` splits: a multiple of the K step ks, so only the
 * last split has a K tail; splits that would be empty are dropped
 * (gemm_8wave_splits). */
static int64_t gemm_8wave_kc(const tk_gemm_problem *p, int64_t splits, int32_t ks)
{
  const int64_t per = (p->k + splits - 1) / splits;
  return (per + ks - 1) / ks * ks;
}
static int64_t gemm_8wave_splits(const tk_gemm_problem *p, int64_t splits, int32_t ks)
{
  const int64_t kc = gemm_8wave_kc(p, splits, ks);
  return (p->k + kc - 1) / kc;
}

/* The former rule (docs/gemm.md, "Kernel choice"), now the fallback of the
 * table-driven heuristic: 256x256 tiles when M and N are at least one tile
 * and the grid has at least one tile per two CUs of an MI300X/MI325X. */
static bool gemm_8wave_preferred(const tk_gemm_problem *p)
{
  const int64_t tiles = ((p->m + 255) / 256) * ((p->n + 255) / 256) * p->batch;
  return p->m >= 256 && p->n >= 256 && 2 * tiles >= TK_NUM_CUS && gemm_8wave_wide(p);
}

/* Stream-K workgroups for tile tm x tn on the current device: its CUs times
 * the kernel's resident workgroups per CU (hipOccupancy...), so that every
 * stream-K workgroup runs in the same round; 0 when unknown. */
static int32_t gemm_8wave_sk_groups(int32_t tm, int32_t tn, int32_t ks)
{
  const gemm_8wave_fn *fn = gemm_8wave_kernels(tm, tn, ks, 0);
  int dev = 0, cus = 0, occ = 0;
  if (!fn || hipGetDevice(&dev) != hipSuccess ||
      hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess ||
      hipOccupancyMaxActiveBlocksPerMultiprocessor(&occ, (const void *)*fn, 512, 0) != hipSuccess || cus < 1 ||
      occ < 1)
    return 0;
  return (int32_t)(cus * occ);
}

/* The stream-K decomposition of p over `groups` workgroups (gemm_splitk.h):
 * none (groups 0) when the tiles fill whole rounds, for batches, or when a
 * workgroup would get fewer than 4 K iterations, and for grids of less
 * than one round (there the parts' round trip through memory, all at the
 * end, costs more than the idle CUs give: 4096^3 models at 536 TFLOP/s
 * with stream-K against 600 without); otherwise the tiles left over by the
 * full rounds are spread over all workgroups, each getting less than one
 * tile's worth of iterations: at most two segments per workgroup
 * (gemm_8wave_body.h). */
static gemm_sk gemm_8wave_sk_plan(const tk_gemm_problem *p, int32_t tm, int32_t tn, int32_t ks, int32_t groups)
{
  gemm_sk sk = {};
  const int64_t tiles = ((p->n + tn - 1) / tn) * ((p->m + tm - 1) / tm), kt = (p->k + ks - 1) / ks;
  if (groups < 1 || p->batch != 1 || tiles % groups == 0 || tiles < groups || tiles > 0x7fffffffll) return sk;
  const int64_t sk_tiles = tiles % groups;
  if (sk_tiles * kt < 4 * (int64_t)groups) return sk;
  sk.dp = (int32_t)(tiles - sk_tiles), sk.tiles = (int32_t)sk_tiles, sk.groups = groups;
  return sk;
}

/* Rows of the kernel's register tile for tile rows tm: the 224-row tiles
 * run on the 256x256 kernel (its stream-K slots hold 256 rows) */
static int32_t gemm_8wave_reg_rows(int32_t tm) { return tm == 224 ? 256 : tm; }

/* Launches tile tm x tn with `splits` K splits (the caller has clamped it
 * with gemm_8wave_splits) or stream-K `sk` (groups 0: none); with either,
 * ws is the zeroed workspace of gemm_splitk.h (gemm_8wave_ws_bytes). */
static int64_t gemm_8wave_ws_bytes(const tk_gemm_problem *p, int32_t tm, int32_t tn, int64_t splits,
                                   const gemm_sk *sk)
{
  if (sk->groups) return gemm_sk_ws_bytes(sk, gemm_8wave_reg_rows(tm), tn);
  return gemm_splitk_ws_bytes(p, splits, ((p->n + tn - 1) / tn) * ((p->m + tm - 1) / tm));
}

static hipError_t gemm_8wave_launch(const tk_gemm_problem *p, int32_t tm, int32_t tn, int32_t ks, int64_t splits,
                                    const gemm_sk *sk, float *ws, const uint16_t *a, const uint16_t *b, void *c,
                                    hipStream_t stream)
{
  const int64_t tiles = ((p->n + tn - 1) / tn) * ((p->m + tm - 1) / tm);
  const gemm_8wave_fn *fn = gemm_8wave_kernels(tm, tn, ks, p->layout == TK_GEMM_NN);
  if (tiles > 0xffffffffll || splits < 1 || splits > 65535 || (tm == 224 && splits > 1) || !fn ||
      gemm_8wave_unsupported_tile(p, tm, tn, ks))
    return hipErrorInvalidValue;
  if (sk->groups && (splits != 1 || p->batch != 1 || sk->dp + sk->tiles != tiles ||
                     (int64_t)sk->tiles * ((p->k + ks - 1) / ks) < sk->groups))
    return hipErrorInvalidValue;
  const unsigned wgs = sk->groups ? (unsigned)(sk->dp + sk->groups) : (unsigned)tiles;
  gemm_sk k = *sk; /* what the kernel reads instead of gridDim (gemm_splitk.h) */
  if (!k.groups) k.dp = (int32_t)(uint32_t)tiles;
  k.splits = (int32_t)splits;
  k.tm = tm;
  k.l2 = gemm_tile_l2(p, tm, tn);
  k.plain = gemm_sk_plain(p, tm, tn, splits, k.groups);
  gemm_8wave_fn f = *fn;
#ifndef TK_GEMM_DEMO_ONLY
  /* 256x256 nt without stream-K on gfx950: the one-copy kernel (gemm_8wave_256dp.hip) */
  if (f == gemm_8wave && tm == 256 && !sk->groups && !strcmp(tk_gemm_heuristic_target(), "gfx950"))
    f = gemm_8wave_dp;
#endif
  hipLaunchKernelGGL(f, dim3(wgs, (unsigned)splits, (unsigned)p->batch), dim3(512), 0, stream, a, b, c, *p, ws,
                     splits > 1 ? gemm_8wave_kc(p, splits, ks) : p->k, k);
  return hipGetLastError();
}

#endif /* GEMM_8WAVE_256_TU */

#endif /* GEMM_8WAVE_H */
