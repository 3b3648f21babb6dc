/* gemm_8wave.h: the main GEMM kernel, built only from tk primitives.
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
 * Epilogue: each wave moves its accumulators 32x64 at a time through its own
 * 8 KiB f32 LDS tile (tk_store_acc_lds) and writes them with
 * tk_store_lds_global_epi: 16-byte (f32) / 8-byte (bf16) stores, alpha/beta,
 * bias and activation (gemm_epi, tk/epilogue.h), element stores only at the
 * M/N edges.
 *
 * B as K x N (--layout nn): kernel gemm_8wave_nn, which stages B with tk's
 * transposing group loads (pairs of K rows -> ds_write_b32 into the same
 * N x K tiles); everything else is identical.
 *
 * Requirements (checked on the host by gemm_8wave_unsupported): K, lda, ldb
 * multiples of 8 (16-byte rows for the group loads), every operand's span
 * per batch < 4 GiB (buffer descriptors).
 */
#ifndef GEMM_8WAVE_H
#define GEMM_8WAVE_H

#include <hip/hip_runtime.h>
#include <tk/tk.h>

#include "gemm_tile.h"
#include "tk_gemm.h"

#define W8_TILE 256
#define W8_KH 32 /* K per half-step: one LDS buffer */

TK_ST(w8_half_t, tk_bf16, 128, W8_KH, TK_LDS_SWZ); /* 128 rows x 32 k, 8 KiB */
typedef struct {
  w8_half_t a[2], b[2]; /* A rows 0-127, 128-255; Bt (N x K) rows 0-127, 128-255 */
} w8_buf_t;
TK_ST(w8_ep_t, float, 32, 64, TK_LDS_SWZ); /* epilogue: one per wave, 8 KiB */
typedef union {
  w8_buf_t buf[2];
  w8_ep_t ep[8];
} w8_smem_t;
TK_LDS_CHECK(w8_smem_t);

TK_STAGE(w8_stage_t, w8_half_t, 256); /* one group's 256 threads stage 128 rows */
TK_RT(w8_acc_t, TK_K_C_F32_32x32, 128, 64);
TK_RT(w8_a_t, TK_K_A_BF16_32x32x8, 128, W8_KH);
TK_RT(w8_bt_t, TK_K_A_BF16_32x32x8, 64, W8_KH); /* Bt (N x K) in the A kind */
TK_PENDING_B128(w8_pa_t, w8_a_t);
TK_PENDING_B128(w8_pb_t, w8_bt_t);
TK_RT(w8_piece_t, TK_K_C_F32_32x32, 32, 64);

/* B's share of a group's staging: Bt rows from an N x K B (nt), or the same
 * rows transposed out of a K x N B (nn, tk's transposing group loads: same
 * staging registers, pairs of K rows -> ds_write_b32) */
#define W8_B_COMMIT(tile, st, n_after)                                                  \
  do {                                                                                  \
    if (nn) tk_load_commit_t(tile, st, tid_, n_after);                                  \
    else tk_load_commit(tile, st, tid_, n_after);                                       \
  } while (0)
#define W8_B_ISSUE(st, k)                                                               \
  do {                                                                                  \
    if (nn) tk_load_issue_t(st, &gb, rb, 0, 0, (k), n0 + 128 * grp, tid_);              \
    else tk_load_issue(st, &gb, rb, 0, 0, n0 + 128 * grp, (k), tid_);                   \
  } while (0)

/* memory cluster of half-step s, in buffer `cur` = s%2: half-step s+1 goes
 * from staging set 1-cur to buffer 1-cur, and the same set is refilled with
 * half-step s+3 (K `kload`); set `cur` holds half-step s+2, in flight since
 * the previous cluster.  Group g stages rows 128g.. of both A and Bt (tiles
 * a[g], b[g]): 2 + 2 chunks per thread and set.  Each commit waits for its
 * own batch only: 3 batches of 2 loads may stay in flight (vmcnt(6)). */
#define W8_MEMORY(cur, kload)                                                           \
  do {                                                                                  \
    tk_prefetch_issue_b128(pa, sm.buf[cur].a[grp], 0, 0);                                  \
    tk_prefetch_issue_b128(pb, sm.buf[cur].b[gw / 2], (gw % 2) * 64, 0);                    \
    const uint32_t tid_ = tk_opaque(gtid); /* addresses recomputed here, not hoisted */ \
    tk_load_commit(sm.buf[1 - (cur)].a[grp], sa[1 - (cur)], tid_, 3 * TK_STAGE_NLOADS(sa[0])); \
    tk_load_issue(sa[1 - (cur)], &ga, ra, 0, 0, m0 + 128 * grp, (kload), tid_);         \
    W8_B_COMMIT(sm.buf[1 - (cur)].b[grp], sb[1 - (cur)], 3 * TK_STAGE_NLOADS(sa[0]));  \
    W8_B_ISSUE(sb[1 - (cur)], kload);                                                   \
    tk_prefetch_wait_b128(fa, pa, 0);                                                      \
    tk_prefetch_wait_b128(fb, pb, 0);                                                      \
  } while (0)

/* compute cluster: nothing crosses the scheduling fences, priority up */
#define W8_COMPUTE()                                                                    \
  do {                                                                                  \
    TK_SCHED_BARRIER(TK_SCHED_NONE);                                                    \
    TK_SETPRIO(1);                                                                      \
    tk_mma_ABt(acc, fa, fb, acc);                                                       \
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

/* the kernel body; nn (B as K x N) is a compile-time constant in each kernel */
static __device__ inline __attribute__((always_inline)) void w8_body(const uint16_t *__restrict__ a,
                                                                     const uint16_t *__restrict__ b, void *c,
                                                                     const tk_gemm_problem &p, const bool nn)
{
  TK_LDS_ALLOC(w8_smem_t, sm);
  const uint32_t wave = tk_wave_id(), grp = tk_group_id(4), gw = tk_group_wave(4);
  const uint32_t gtid = threadIdx.x % 256; /* thread index inside the group */
  int64_t m0, n0;
  gemm_tile_origin(p, W8_TILE, &m0, &n0);
  const int64_t z = blockIdx.z;

  /* this batch's A (M x K) and B (N x K, or K x N for nn) */
  tk_gl ga, gb;
  const int64_t ad[2] = {p.m, p.k}, as[2] = {p.lda, 1}, bs[2] = {p.ldb, 1};
  const int64_t bd[2] = {nn ? p.k : p.n, nn ? p.n : p.k};
  tk_gl_make(&ga, (void *)(a + z * tk_gemm_a_stride(&p)), 2, 2, ad, as);
  tk_gl_make(&gb, (void *)(b + z * tk_gemm_b_stride(&p)), 2, 2, bd, bs);
  const tk_rsrc ra = tk_gl_rsrc(&ga), rb = tk_gl_rsrc(&gb);

  w8_stage_t sa[2], sb[2]; /* two sets: half-steps s+1 and s+2 in flight */
  w8_pa_t pa;
  w8_pb_t pb;
  w8_a_t fa;
  w8_bt_t fb;
  w8_acc_t acc;
  tk_rt_zero(acc);

  /* prologue: half-step 0 into buffer 0, half-steps 1 and 2 in flight into
   * staging sets 1 and 0 */
  {
    const uint32_t tid_ = gtid;
    tk_load_issue(sa[0], &ga, ra, 0, 0, m0 + 128 * grp, 0, tid_);
    W8_B_ISSUE(sb[0], 0);
    tk_load_commit(sm.buf[0].a[grp], sa[0], tid_, TK_STAGE_NLOADS(sb[0]));
    W8_B_COMMIT(sm.buf[0].b[grp], sb[0], 0);
    tk_load_issue(sa[1], &ga, ra, 0, 0, m0 + 128 * grp, W8_KH, tid_);
    W8_B_ISSUE(sb[1], W8_KH);
    tk_load_issue(sa[0], &ga, ra, 0, 0, m0 + 128 * grp, 2 * W8_KH, tid_);
    W8_B_ISSUE(sb[0], 2 * W8_KH);
  }
  tk_lds_barrier();
  tk_group_barrier_if(4, 1); /* group 1 starts half a phase late */

  const int64_t ksteps = (p.k + 2 * W8_KH - 1) / (2 * W8_KH);
  for (int64_t ks = 0; ks < ksteps; ++ks) {
    const int64_t k0 = ks * 2 * W8_KH;
    W8_MEMORY(0, k0 + 3 * W8_KH);
    W8_BARRIER();
    W8_COMPUTE();
    W8_BARRIER();
    W8_MEMORY(1, k0 + 4 * W8_KH);
    W8_BARRIER();
    W8_COMPUTE();
    W8_BARRIER();
  }
  tk_group_barrier_if(4, 0); /* same barrier count for both groups; after it
                                no wave touches the loop's LDS buffers */

  /* epilogue: 4 pieces of 32x64 through this wave's LDS tile */
  tk_gl gc;
  gemm_c_tensor(p, c, z, &gc);
  const tk_rsrc rc = tk_gl_rsrc(&gc);
  const uint32_t lane = tk_lane_id();
#pragma unroll /* constant fragment indices: acc stays in registers */
  for (int fr = 0; fr < 4; ++fr) {
    w8_piece_t pc;
    pc.f[0] = acc.f[fr * 2 + 0];
    pc.f[1] = acc.f[fr * 2 + 1];
    tk_store_acc_lds(sm.ep[wave], pc, 0, 0);
    tk_store_lds_global_epi(&gc, rc, 0, 0, m0 + 128 * grp + 32 * fr, n0 + 64 * gw, sm.ep[wave], lane, 64,
                            gemm_epi(p));
  }
}

__global__ __launch_bounds__(512) void gemm_8wave(const uint16_t *__restrict__ a, const uint16_t *__restrict__ b,
                                                  void *c, tk_gemm_problem p)
{
  w8_body(a, b, c, p, false);
}
/* B as K x N: group 1 transposes B on its way into LDS */
__global__ __launch_bounds__(512) void gemm_8wave_nn(const uint16_t *__restrict__ a, const uint16_t *__restrict__ b,
                                                     void *c, tk_gemm_problem p)
{
  w8_body(a, b, c, p, true);
}

/* Why the 8wave kernel cannot take a problem (NULL: it can). */
static const char *gemm_8wave_unsupported(const tk_gemm_problem *p)
{
  const int64_t esz = tk_gemm_c_elem_bytes(p), lim = TK_GL_MAX_BYTES; /* tk_gl_make's limit */
  if (p->k % 8 || p->lda % 8 || p->ldb % 8)
    return "8wave needs K, lda and ldb to be multiples of 8 (16-byte rows for the group loads)";
  const int64_t b_span = p->layout == TK_GEMM_NT ? (p->n - 1) * p->ldb + p->k : (p->k - 1) * p->ldb + p->n;
  if (((p->m - 1) * p->lda + p->k) * 2 > lim || b_span * 2 > lim ||
      ((p->m - 1) * p->ldc + p->n) * esz > lim)
    return "8wave needs each operand of a batch to span less than 4 GiB (buffer descriptors)";
  return NULL;
}

/* The auto heuristic's rule for 8wave (docs/gemm.md): both M and N at least
 * one tile, and at least one 256x256 tile (over all batches) per two CUs of
 * an MI300X/MI325X.  Below that, 4wave's four times as many workgroups fill
 * the GPU better; the threshold is where the modeled 8wave/4wave ratio
 * crosses 1 (128 tiles: 0.79, 144: 0.96, 192: 1.34, docs/tksim-model.md),
 * to be revisited with hardware measurements. */
static bool gemm_8wave_preferred(const tk_gemm_problem *p)
{
  const int64_t tiles = ((p->m + W8_TILE - 1) / W8_TILE) * ((p->n + W8_TILE - 1) / W8_TILE) * p->batch;
  return p->m >= W8_TILE && p->n >= W8_TILE && 2 * tiles >= TK_NUM_CUS;
}

static hipError_t gemm_8wave_launch(const tk_gemm_problem *p, const uint16_t *a, const uint16_t *b, void *c,
                                    hipStream_t stream)
{
  const int64_t tiles = ((p->n + W8_TILE - 1) / W8_TILE) * ((p->m + W8_TILE - 1) / W8_TILE);
  if (tiles > 0xffffffffll || gemm_8wave_unsupported(p)) return hipErrorInvalidValue;
  hipLaunchKernelGGL(p->layout == TK_GEMM_NT ? gemm_8wave : gemm_8wave_nn, dim3((unsigned)tiles, 1, (unsigned)p->batch),
                     dim3(512), 0, stream, a, b, c, *p);
  return hipGetLastError();
}

#endif /* GEMM_8WAVE_H */
