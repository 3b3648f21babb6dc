/* attn_fwd.h: the flash-attention forward kernel, built from tk primitives
 * only (no inline asm, no compiler builtins: tests/gemm/no_asm.sh).
 *
 * O = softmax(Q K^T * scale + mask) V and LSE = log(sum_j exp(S_j)) per
 * query row, bf16 Q/K/V/O, f32 statistics.  One workgroup of 4 waves per
 * (Q block of 128 rows, query head, batch); wave w owns query rows
 * q0 + 32w .. +31.  K and V stream through LDS in tiles of 64 keys.
 *
 * Transposed formulation, so that P never goes through LDS: the wave
 * computes S^T = K Q^T (64 keys x 32 queries, a 32x32 f32 accumulator tile of
 * 2 fragments) with tk_mma_ABt (K and Q both row-major in LDS, the A
 * layout).  Softmax statistics are per query = per column of S^T: column max
 * and sum are in-lane reductions plus one ds_bpermute (register.h).  P^T,
 * an accumulator tile (keys x queries), converts to a bf16 B operand in place
 * (tk_rt_cvt_c_to_b_bf16: the 32x32 accumulator layout is the 32x32x8 B
 * layout with K = keys), and O^T (d x 32) += V^T P^T with V^T read from an
 * LDS tile written by tk's transposing group loads (tk_load_issue_t).
 * Online softmax (FlashAttention-2), per query column, in exp2 form with
 * log2(e) folded into the scale: m = running max of S*scale*log2e,
 * P = exp2(S*s - m), l = l*exp2(m_old - m) + colsum(P), O *= exp2(m_old - m).
 * Masks (tk/softmax.h): key rows >= skv (tail), and causal, bottom-right
 * aligned like FlashAttention-2: key j is visible to query i when
 * j <= i + skv - sq.  A query with no visible key gets O = 0, LSE = +inf.
 * Epilogue: O^T / l -> bf16 LDS tile transposed (tk_store_acc_lds_t) ->
 * 16-byte global stores (tk_store_lds_global); LSE (natural log) per query
 * from lanes 0..31.
 * LDS (d = 128): K tile 16 KiB + V^T tile 16 KiB, aliased with the Q tile
 * (32 KiB, read once into registers) and the 4 per-wave output tiles.
 */
#ifndef ATTN_FWD_H
#define ATTN_FWD_H

#include <hip/hip_runtime.h>
#include <tk/tk.h>

#include "tk_attn.h"

#define AF_BQ 128  /* query rows per workgroup (4 waves x 32) */
#define AF_BKV 64  /* keys per LDS tile */
#define AF_LOG2E 1.4426950408889634f
#define AF_LN2 0.6931471805599453f

/* Kernel arguments (by value): tensors as tk_gl with dims (B, H, S, D) and
 * BSHD strides, the LSE output [B][Hq][Sq] f32. */
typedef struct attn_fwd_args {
  tk_gl q, k, v, o;
  float *lse;
  int32_t sq, skv, hq, group; /* group = Hq / Hkv */
  int32_t causal;
  float scale_log2; /* softmax scale * log2(e) */
} attn_fwd_args;

#define ATTN_FWD_KERNEL(NAME, D)                                                                  \
  TK_ST(NAME##_kst, tk_bf16, AF_BKV, D, TK_LDS_SWZ);  /* K tile: keys x d */                     \
  TK_ST(NAME##_vst, tk_bf16, D, AF_BKV, TK_LDS_SWZ);  /* V^T tile: d x keys */                   \
  TK_ST(NAME##_qst, tk_bf16, AF_BQ, D, TK_LDS_SWZ);   /* Q block */                               \
  TK_ST(NAME##_ost, tk_bf16, 32, D, TK_LDS_SWZ);      /* one wave's O rows */                     \
  typedef union {                                                                                 \
    struct { NAME##_kst k; NAME##_vst v; } kv;                                                    \
    NAME##_qst q;                                                                                 \
    NAME##_ost o[4];                                                                              \
  } NAME##_smem;                                                                                  \
  TK_LDS_CHECK(NAME##_smem);                                                                      \
  TK_STAGE(NAME##_kstage, NAME##_kst, 256);                                                       \
  TK_STAGE(NAME##_vstage, NAME##_vst, 256);                                                       \
  TK_STAGE(NAME##_qstage, NAME##_qst, 256);                                                       \
  TK_RT(NAME##_q_t, TK_K_A_BF16_32x32x8, 32, D);      /* Q rows of the wave (Bt of K Q^T) */     \
  TK_RT(NAME##_k_t, TK_K_A_BF16_32x32x8, AF_BKV, D);  /* K tile */                               \
  TK_RT(NAME##_v_t, TK_K_A_BF16_32x32x8, D, AF_BKV);  /* V^T tile */                             \
  TK_RT(NAME##_s_t, TK_K_C_F32_32x32, AF_BKV, 32);    /* S^T, then P^T */                        \
  TK_RT(NAME##_p_t, TK_K_B_BF16_32x32x8, AF_BKV, 32); /* P^T as B operand (K = keys) */           \
  TK_RT(NAME##_o_t, TK_K_C_F32_32x32, D, 32);         /* O^T */                                   \
  TK_PENDING(NAME##_qpend, NAME##_q_t);                                                           \
  TK_PENDING(NAME##_kpend, NAME##_k_t);                                                           \
  TK_PENDING(NAME##_vpend, NAME##_v_t);                                                           \
  __global__ __launch_bounds__(256) void NAME(attn_fwd_args a)                                    \
  {                                                                                               \
    TK_LDS_ALLOC(NAME##_smem, sm);                                                                \
    const int tid = threadIdx.x;                                                                  \
    const uint32_t wave = tk_wave_id(), lane = tk_lane_id();                                      \
    const int q0 = (int)blockIdx.x * AF_BQ, h = (int)blockIdx.y, b = (int)blockIdx.z;             \
    const int hk = h / a.group;                                                                   \
    const int off = a.skv - a.sq; /* causal: key j visible to query i iff j <= i + off */         \
    const tk_rsrc rq = tk_gl_rsrc(&a.q), rk = tk_gl_rsrc(&a.k), rv = tk_gl_rsrc(&a.v);            \
    /* Q block -> LDS -> this wave's 32 rows in registers */                                      \
    NAME##_q_t qf;                                                                                \
    {                                                                                             \
      NAME##_qstage qs;                                                                           \
      NAME##_qpend qp;                                                                            \
      tk_load(sm.q, qs, &a.q, rq, b, h, q0, 0, tid);                                              \
      tk_lds_barrier();                                                                           \
      tk_prefetch_issue(qp, sm.q, 32 * wave, 0);                                                  \
      tk_prefetch_wait(qf, qp, 0);                                                                \
      tk_barrier();                                                                               \
    }                                                                                             \
    NAME##_o_t o;                                                                                 \
    tk_rt_zero(o);                                                                                \
    float m[1] = {-INFINITY}, l[1] = {0.0f}; /* per query column of this lane */                  \
    int kv_end = a.skv;                                                                           \
    if (a.causal && q0 + AF_BQ + off < kv_end) kv_end = q0 + AF_BQ + off;                        \
    const int qw = q0 + 32 * (int)wave; /* first query row of this wave */                        \
    for (int kv0 = 0; kv0 < kv_end; kv0 += AF_BKV) {                                              \
      NAME##_kstage ks;                                                                           \
      NAME##_vstage vs;                                                                           \
      tk_load_issue(ks, &a.k, rk, b, hk, kv0, 0, tid);                                            \
      tk_load_issue_t(vs, &a.v, rv, b, hk, kv0, 0, tid);                                          \
      tk_load_commit(sm.kv.k, ks, tid, TK_STAGE_NLOADS(vs));                                      \
      tk_load_commit_t(sm.kv.v, vs, tid, 0);                                                      \
      tk_lds_barrier();                                                                           \
      NAME##_kpend kp;                                                                            \
      NAME##_vpend vp;                                                                            \
      NAME##_k_t kf;                                                                              \
      NAME##_v_t vf;                                                                              \
      tk_prefetch_issue(kp, sm.kv.k, 0, 0);                                                       \
      tk_prefetch_wait(kf, kp, 0);                                                                \
      tk_prefetch_issue(vp, sm.kv.v, 0, 0); /* in flight during the softmax */                    \
      NAME##_s_t s;                                                                               \
      tk_rt_zero(s);                                                                              \
      tk_mma_ABt(s, kf, qf, s); /* S^T = K Q^T */                                                 \
      if (kv0 + AF_BKV > a.skv) tk_rt_mask_rows(s, s, a.skv - kv0, -INFINITY);                    \
      if (a.causal && qw + off - kv0 < AF_BKV - 1) tk_rt_mask_lower(s, s, qw + off - kv0, -INFINITY); \
      float mt[1], lt[1], alpha[1], mu[1];                                                        \
      tk_rt_col_max(mt, s);                                                                       \
      const float mn = fmaxf(m[0], mt[0] * a.scale_log2);                                         \
      mu[0] = mn == -INFINITY ? 0.0f : mn; /* all masked so far: keep exp2 finite */              \
      alpha[0] = tk_exp2f(m[0] - mu[0]);                                                          \
      tk_rt_exp2_col(s, s, a.scale_log2, mu); /* P^T */                                           \
      tk_rt_col_sum(lt, s);                                                                       \
      l[0] = l[0] * alpha[0] + lt[0];                                                             \
      m[0] = mn;                                                                                  \
      NAME##_p_t p;                                                                               \
      tk_rt_cvt_c_to_b_bf16(p, s);                                                                \
      tk_rt_col_bcast(o, o, alpha, *);                                                            \
      tk_prefetch_wait(vf, vp, 0);                                                                \
      tk_mma_AB(o, vf, p, o); /* O^T += V^T P^T */                                                \
      tk_barrier(); /* fragments are in registers: LDS may be refilled */                         \
    }                                                                                             \
    /* epilogue: O = O^T^T / l, LSE = (m + log2 l) ln 2 */                                         \
    float inv[1] = {l[0] > 0.0f ? 1.0f / l[0] : 0.0f};                                            \
    tk_rt_col_bcast(o, o, inv, *);                                                                \
    tk_store_acc_lds_t(sm.o[wave], o, 0, 0);                                                      \
    const tk_rsrc ro = tk_gl_rsrc(&a.o);                                                          \
    tk_lds_barrier();                                                                             \
    tk_store_lds_global(&a.o, ro, b, h, qw, 0, sm.o[wave], lane, 64);                             \
    const int qi = qw + (int)lane;                                                                \
    if (lane < 32 && qi < a.sq)                                                                   \
      a.lse[((int64_t)b * a.hq + h) * a.sq + qi] =                                                \
          l[0] > 0.0f ? (m[0] + log2f(l[0])) * AF_LN2 : INFINITY;                               \
  }

ATTN_FWD_KERNEL(attn_fwd_d64, 64)
ATTN_FWD_KERNEL(attn_fwd_d128, 128)

static hipError_t attn_fwd_launch(const attn_fwd_args *a, int d, int b, hipStream_t stream)
{
  const dim3 grid((unsigned)((a->sq + AF_BQ - 1) / AF_BQ), (unsigned)a->hq, (unsigned)b);
  if (d == 64) hipLaunchKernelGGL(attn_fwd_d64, grid, dim3(256), 0, stream, *a);
  else hipLaunchKernelGGL(attn_fwd_d128, grid, dim3(256), 0, stream, *a);
  return hipGetLastError();
}

#endif /* ATTN_FWD_H */
