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

#define AF_RESCALE 8.0f /* lazy rescale: the running max moves when a tile's max exceeds it by this (log2 units) */

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
  TK_RT(NAME##_q_t, TK_K_A_BF16_32x32x8, 32, 32);     /* 32 d-columns of the wave's Q rows */     \
  TK_RT(NAME##_k_t, TK_K_A_BF16_32x32x8, AF_BKV, 32); /* 32 d-columns of the K tile */            \
  TK_RT(NAME##_v_t, TK_K_A_BF16_32x32x8, 32, AF_BKV); /* 32 d-rows of the V^T tile */             \
  TK_RT(NAME##_s_t, TK_K_C_F32_32x32, AF_BKV, 32);    /* S^T, then P^T */                        \
  TK_RT(NAME##_p_t, TK_K_B_BF16_32x32x8, AF_BKV, 32); /* P^T as B operand (K = keys) */           \
  TK_RT(NAME##_o_t, TK_K_C_F32_32x32, 32, 32);        /* 32 d-rows of O^T */                      \
  TK_PENDING(NAME##_qpend, NAME##_q_t);                                                           \
  TK_PENDING(NAME##_kpend, NAME##_k_t);                                                           \
  TK_PENDING(NAME##_vpend, NAME##_v_t);                                                           \
  __global__ __launch_bounds__(256, 2) void NAME(attn_fwd_args a)                                 \
  {                                                                                               \
    TK_LDS_ALLOC(NAME##_smem, sm);                                                                \
    enum { NC = (D) / 32 }; /* 32-wide chunks of the head dim */                                  \
    const int tid = threadIdx.x;                                                                  \
    const uint32_t wave = tk_wave_id(), lane = tk_lane_id();                                      \
    const int q0 = (int)blockIdx.x * AF_BQ, h = (int)blockIdx.y, b = (int)blockIdx.z;             \
    const int hk = h / a.group;                                                                   \
    const int off = a.skv - a.sq; /* causal: key j visible to query i iff j <= i + off */         \
    const tk_rsrc rq = tk_gl_rsrc(&a.q), rk = tk_gl_rsrc(&a.k), rv = tk_gl_rsrc(&a.v);            \
    int kv_end = a.skv;                                                                           \
    if (a.causal && q0 + AF_BQ + off < kv_end) kv_end = q0 + AF_BQ + off;                         \
    /* Q block -> LDS -> this wave's 32 rows in registers, in d-chunks */                         \
    NAME##_q_t qf[NC];                                                                            \
    {                                                                                             \
      NAME##_qstage qs;                                                                           \
      tk_load(sm.q, qs, &a.q, rq, b, h, q0, 0, tid);                                              \
      tk_lds_barrier();                                                                           \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                            \
        NAME##_qpend qp;                                                                          \
        tk_prefetch_issue(qp, sm.q, 32 * wave, 32 * c);                                           \
        tk_prefetch_wait(qf[c], qp, 0);                                                           \
      }                                                                                           \
      tk_barrier();                                                                               \
    }                                                                                             \
    NAME##_o_t o[NC];                                                                             \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) tk_rt_zero(o[c]);                              \
    float m[1] = {-INFINITY}, l[1] = {0.0f}; /* per query column of this lane (log2 units) */     \
    const int qw = q0 + 32 * (int)wave; /* first query row of this wave */                        \
    /* the first tile's global loads; each iteration issues the next tile's */                   \
    NAME##_kstage ks;                                                                             \
    NAME##_vstage vs;                                                                             \
    if (kv_end > 0) {                                                                             \
      tk_load_issue(ks, &a.k, rk, b, hk, 0, 0, tid);                                              \
      tk_load_issue_t(vs, &a.v, rv, b, hk, 0, 0, tid);                                            \
    }                                                                                             \
    for (int kv0 = 0; kv0 < kv_end; kv0 += AF_BKV) {                                              \
      tk_load_commit(sm.kv.k, ks, tid, TK_STAGE_NLOADS(vs));                                      \
      tk_load_commit_t(sm.kv.v, vs, tid, 0);                                                      \
      tk_lds_barrier();                                                                           \
      if (kv0 + AF_BKV < kv_end) { /* in flight during this tile's compute */                     \
        tk_load_issue(ks, &a.k, rk, b, hk, kv0 + AF_BKV, 0, tid);                                 \
        tk_load_issue_t(vs, &a.v, rv, b, hk, kv0 + AF_BKV, 0, tid);                               \
      }                                                                                           \
      /* S^T = K Q^T over d-chunks (the other workgroup on the SIMD hides the LDS latency) */      \
      NAME##_s_t s;                                                                               \
      tk_rt_zero(s);                                                                              \
      {                                                                                           \
        NAME##_kpend kp;                                                                          \
        NAME##_k_t kf;                                                                            \
        _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                          \
          tk_prefetch_issue(kp, sm.kv.k, tk_opaque(0), 32 * c);                                        \
          tk_prefetch_wait(kf, kp, 0);                                                            \
          tk_mma_ABt(s, kf, qf[c], s);                                                            \
        }                                                                                         \
      }                                                                                           \
      if (kv0 + AF_BKV > a.skv) tk_rt_mask_rows(s, s, a.skv - kv0, -INFINITY);                    \
      if (a.causal && qw + off - kv0 < AF_BKV - 1) tk_rt_mask_lower(s, s, qw + off - kv0, -INFINITY); \
      /* online softmax with a lazy running max: m moves (and O, l are rescaled) only when a      \
       * column's tile max exceeds it by AF_RESCALE, so P <= 2^AF_RESCALE; exact, since O, l       \
       * and LSE all use the same m */                                                            \
      float mt[1];                                                                                \
      tk_rt_col_max(mt, s);                                                                       \
      const float ms = mt[0] * a.scale_log2;                                                      \
      if (tk_wave_any(ms > m[0] + AF_RESCALE)) {                                                  \
        const float mn = fmaxf(m[0], ms);                                                         \
        float alpha[1] = {mn == -INFINITY ? 1.0f : tk_exp2f(m[0] - mn)};                          \
        l[0] *= alpha[0];                                                                         \
        _Pragma("unroll") for (int c = 0; c < NC; ++c) tk_rt_col_bcast(o[c], o[c], alpha, *);     \
        m[0] = mn;                                                                                \
      }                                                                                           \
      float mu[1] = {m[0] == -INFINITY ? 0.0f : m[0]}; /* all masked so far: keep exp2 finite */  \
      tk_rt_exp2_col(s, s, a.scale_log2, mu); /* P^T */                                           \
      float lt[1];                                                                                \
      tk_rt_col_sum(lt, s);                                                                       \
      l[0] += lt[0];                                                                              \
      NAME##_p_t p;                                                                               \
      tk_rt_cvt_c_to_b_bf16_finite(p, s);                                                         \
      {                                                                                           \
        NAME##_vpend vp;                                                                          \
        NAME##_v_t vf;                                                                            \
        _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                          \
          tk_prefetch_issue(vp, sm.kv.v, tk_opaque(32 * c), 0);                                        \
          tk_prefetch_wait(vf, vp, 0);                                                            \
          tk_mma_AB(o[c], vf, p, o[c]); /* O^T += V^T P^T */                                      \
        }                                                                                         \
      }                                                                                           \
      tk_barrier(); /* every wave's reads are done: the next commit may overwrite */              \
    }                                                                                             \
    /* epilogue: O = (O^T / l)^T, LSE = (m + log2 l) ln 2 */                                       \
    float inv[1] = {l[0] > 0.0f ? 1.0f / l[0] : 0.0f};                                            \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                              \
      tk_rt_col_bcast(o[c], o[c], inv, *);                                                        \
      tk_store_acc_lds_t(sm.o[wave], o[c], 0, 32 * c);                                            \
    }                                                                                             \
    const tk_rsrc ro = tk_gl_rsrc(&a.o);                                                          \
    tk_lds_barrier();                                                                             \
    tk_store_lds_global(&a.o, ro, b, h, qw, 0, sm.o[wave], lane, 64);                             \
    const int qi = qw + (int)lane;                                                                \
    if (lane < 32 && qi < a.sq)                                                                   \
      a.lse[((int64_t)b * a.hq + h) * a.sq + qi] =                                                \
          l[0] > 0.0f ? (m[0] + log2f(l[0])) * AF_LN2 : INFINITY;                                 \
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
