/* gemm_8wave_fp8.h: the 8-wave ping-pong GEMM for fp8 e4m3 A and B (the
 * device's encoding: FNUZ on gfx942, OCP E4M3FN on gfx950; tk_gemm.h),
 * built only from tk primitives: f32 accumulation through 32x32x16 fp8
 * fragments.  gfx942: v_mfma_f32_32x32x16_fp8_fp8 (CDNA3 ISA guide §7: 8 fp8
 * values per lane and operand, 16 passes like 32x32x8 bf16, so twice the
 * FLOPs per instruction).  gfx950: tk_mma issues one
 * v_mfma_f32_32x32x64_f8f6f4 (fp8 x fp8, unscaled) per 4 K fragments
 * (tk/mma.h TK_MMA_K4_), gfx950's full fp8 rate; same source.
 *
 * The schedule of gemm_8wave.h (its header comment and docs/gemm.md have the
 * ping-pong, the buffer/staging rotation and the barrier argument), with the
 * same bytes moving: a half-step is K = 64 fp8 (64 bytes per row, as K = 32
 * bf16), so LDS tiles, group loads, ds_read_b128 fragment reads and waits are
 * byte for byte those of the bf16 kernel and the K step per loop iteration
 * is 128.  256x256 C tile, 8 waves in two groups of 4; wave (g, i) owns rows
 * 128g.., columns 64i.. (4x2 fragments of 32x32, 128 accumulator registers).
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

#include "gemm_tile.h"
#include "tk_gemm.h"

#define W8F_TILE 256
#define W8F_KH 64 /* K per half-step: one LDS buffer, 64 bytes per row */

TK_ST(w8f_half_t, tk_fp8e4, 128, W8F_KH, TK_LDS_SWZ); /* 128 rows x 64 k, 8 KiB */
typedef struct {
  w8f_half_t a[2], b[2]; /* A rows 0-127, 128-255; Bt (N x K) rows 0-127, 128-255 */
} w8f_buf_t;
TK_ST(w8f_ep_t, float, 32, 64, TK_LDS_SWZ); /* epilogue: one per wave, 8 KiB */
typedef union {
  w8f_buf_t buf[2];
  w8f_ep_t ep[8];
} w8f_smem_t;
TK_LDS_CHECK(w8f_smem_t);

TK_STAGE(w8f_stage_t, w8f_half_t, 256); /* one group's 256 threads stage 128 rows */
TK_RT(w8f_acc_t, TK_K_C_F32_32x32, 128, 64);
TK_RT(w8f_a_t, TK_K_A_FP8_32x32x16, 128, W8F_KH);
TK_RT(w8f_bt_t, TK_K_A_FP8_32x32x16, 64, W8F_KH); /* Bt (N x K) in the A kind */
TK_PENDING_B128(w8f_pa_t, w8f_a_t);
TK_PENDING_B128(w8f_pb_t, w8f_bt_t);
TK_RT(w8f_piece_t, TK_K_C_F32_32x32, 32, 64);

/* memory cluster of half-step s in buffer `cur` = s%2 (gemm_8wave.h's
 * W8_MEMORY): fragment reads of s, commit of s+1 from staging set 1-cur,
 * loads of s+3 into that set; each commit waits for its own batch only */
#define W8F_MEMORY(cur, kload)                                                          \
  do {                                                                                  \
    tk_prefetch_issue_b128(pa, sm.buf[cur].a[grp], 0, 0);                               \
    tk_prefetch_issue_b128(pb, sm.buf[cur].b[gw / 2], (gw % 2) * 64, 0);                \
    const uint32_t tid_ = tk_opaque(gtid); /* addresses recomputed here, not hoisted */ \
    tk_load_commit(sm.buf[1 - (cur)].a[grp], sa[1 - (cur)], tid_, 3 * TK_STAGE_NLOADS(sa[0])); \
    tk_load_issue(sa[1 - (cur)], &ga, ra, 0, 0, m0 + 128 * grp, (kload), tid_);         \
    tk_load_commit(sm.buf[1 - (cur)].b[grp], sb[1 - (cur)], tid_, 3 * TK_STAGE_NLOADS(sa[0])); \
    tk_load_issue(sb[1 - (cur)], &gb, rb, 0, 0, n0 + 128 * grp, (kload), tid_);         \
    tk_prefetch_wait_b128(fa, pa, 0);                                                   \
    tk_prefetch_wait_b128(fb, pb, 0);                                                   \
  } while (0)

/* compute cluster: 32 fp8 fragment products (gfx950: 8 f8f6f4 MFMAs),
 * nothing crosses the fences, priority up */
#define W8F_COMPUTE()                                                                   \
  do {                                                                                  \
    TK_SCHED_BARRIER(TK_SCHED_NONE);                                                    \
    TK_SETPRIO(1);                                                                      \
    tk_mma_ABt(acc, fa, fb, acc);                                                       \
    TK_SETPRIO(0);                                                                      \
    TK_SCHED_BARRIER(TK_SCHED_NONE);                                                    \
  } while (0)

#define W8F_BARRIER()                                                                   \
  do {                                                                                  \
    TK_SCHED_BARRIER(TK_SCHED_NONE);                                                    \
    tk_barrier();                                                                       \
    TK_SCHED_BARRIER(TK_SCHED_NONE);                                                    \
  } while (0)

__global__ __launch_bounds__(512) void gemm_8wave_fp8(const uint8_t *__restrict__ a, const uint8_t *__restrict__ b,
                                                      void *c, tk_gemm_problem p)
{
  TK_LDS_ALLOC(w8f_smem_t, sm);
  const uint32_t wave = tk_wave_id(), grp = tk_group_id(4), gw = tk_group_wave(4);
  const uint32_t gtid = threadIdx.x % 256; /* thread index inside the group */
  int64_t m0, n0;
  gemm_tile_origin(p, W8F_TILE, &m0, &n0);
  const int64_t z = blockIdx.z;

  /* this batch's A (M x K) and B (N x K), 1-byte elements */
  tk_gl ga, gb;
  const int64_t ad[2] = {p.m, p.k}, as[2] = {p.lda, 1}, bd[2] = {p.n, p.k}, bs[2] = {p.ldb, 1};
  tk_gl_make(&ga, (void *)(a + z * tk_gemm_a_stride(&p)), 1, 2, ad, as);
  tk_gl_make(&gb, (void *)(b + z * tk_gemm_b_stride(&p)), 1, 2, bd, bs);
  const tk_rsrc ra = tk_gl_rsrc(&ga), rb = tk_gl_rsrc(&gb);

  w8f_stage_t sa[2], sb[2];
  w8f_pa_t pa;
  w8f_pb_t pb;
  w8f_a_t fa;
  w8f_bt_t fb;
  w8f_acc_t acc;
  tk_rt_zero(acc);

  /* prologue: half-step 0 into buffer 0, half-steps 1 and 2 in flight */
  {
    const uint32_t tid_ = gtid;
    tk_load_issue(sa[0], &ga, ra, 0, 0, m0 + 128 * grp, 0, tid_);
    tk_load_issue(sb[0], &gb, rb, 0, 0, n0 + 128 * grp, 0, tid_);
    tk_load_commit(sm.buf[0].a[grp], sa[0], tid_, TK_STAGE_NLOADS(sb[0]));
    tk_load_commit(sm.buf[0].b[grp], sb[0], tid_, 0);
    tk_load_issue(sa[1], &ga, ra, 0, 0, m0 + 128 * grp, W8F_KH, tid_);
    tk_load_issue(sb[1], &gb, rb, 0, 0, n0 + 128 * grp, W8F_KH, tid_);
    tk_load_issue(sa[0], &ga, ra, 0, 0, m0 + 128 * grp, 2 * W8F_KH, tid_);
    tk_load_issue(sb[0], &gb, rb, 0, 0, n0 + 128 * grp, 2 * W8F_KH, tid_);
  }
  tk_lds_barrier();
  tk_group_barrier_if(4, 1); /* group 1 starts half a phase late */

  const int64_t ksteps = (p.k + 2 * W8F_KH - 1) / (2 * W8F_KH);
  for (int64_t ks = 0; ks < ksteps; ++ks) {
    const int64_t k0 = ks * 2 * W8F_KH;
    W8F_MEMORY(0, k0 + 3 * W8F_KH);
    W8F_BARRIER();
    W8F_COMPUTE();
    W8F_BARRIER();
    W8F_MEMORY(1, k0 + 4 * W8F_KH);
    W8F_BARRIER();
    W8F_COMPUTE();
    W8F_BARRIER();
  }
  tk_group_barrier_if(4, 0); /* same barrier count for both groups */

  /* epilogue: 4 pieces of 32x64 through this wave's LDS tile */
  tk_gl gc;
  gemm_c_tensor(p, c, z, &gc);
  const tk_rsrc rc = tk_gl_rsrc(&gc);
  const tk_epi ep = gemm_epi(p);
  const uint32_t lane = tk_lane_id();
#pragma unroll
  for (int fr = 0; fr < 4; ++fr) {
    w8f_piece_t pc;
    pc.f[0] = acc.f[fr * 2 + 0];
    pc.f[1] = acc.f[fr * 2 + 1];
    tk_store_acc_lds(sm.ep[wave], pc, 0, 0);
    tk_store_lds_global_epi(&gc, rc, 0, 0, m0 + 128 * grp + 32 * fr, n0 + 64 * gw, sm.ep[wave], lane, 64, ep);
  }
}

/* Why the fp8 8wave kernel cannot take a problem (NULL: it can). */
static const char *gemm_8wave_fp8_unsupported(const tk_gemm_problem *p)
{
  const int64_t esz = tk_gemm_c_elem_bytes(p), lim = TK_GL_MAX_BYTES;
  if (p->layout != TK_GEMM_NT) return "8wave fp8 needs B as N x K (layout nt)";
  if (p->k % 16 || p->lda % 16 || p->ldb % 16)
    return "8wave with fp8 inputs needs K, lda and ldb to be multiples of 16 (16-byte rows for the group loads)";
  if ((p->m - 1) * p->lda + p->k > lim || (p->n - 1) * p->ldb + p->k > lim || ((p->m - 1) * p->ldc + p->n) * esz > lim)
    return "8wave needs each operand of a batch to span less than 4 GiB (buffer descriptors)";
  return NULL;
}

static hipError_t gemm_8wave_fp8_launch(const tk_gemm_problem *p, const uint8_t *a, const uint8_t *b, void *c,
                                        hipStream_t stream)
{
  const int64_t tiles = ((p->n + W8F_TILE - 1) / W8F_TILE) * ((p->m + W8F_TILE - 1) / W8F_TILE);
  if (tiles > 0xffffffffll || gemm_8wave_fp8_unsupported(p)) return hipErrorInvalidValue;
  hipLaunchKernelGGL(gemm_8wave_fp8, dim3((unsigned)tiles, 1, (unsigned)p->batch), dim3(512), 0, stream, a, b, c, *p);
  return hipGetLastError();
}

#endif /* GEMM_8WAVE_FP8_H */
