/* attn_bwd_dq.h: the deterministic backward's dQ kernel attn_bwd_d*_dq
 * (TK_ATTN_BWD_DETERMINISTIC, when the dQ partial sums of attn_bwd_dqp.h do
 * not apply): one workgroup per (128 queries, query head, batch) recomputes
 * S, P, dP and dS for its queries (the forward's transposed formulation, see
 * attn_bwd.h's head, item 3) and sums dQ over every key in a fixed order: no
 * atomics, bitwise repeatable.  Included by attn_bwd.h after its kernels (it
 * uses their tile types, NAME##_*).
 * Hardware facts: those of attn_bwd.h (CDNA3 ISA guide: 64 KiB LDS per CU, 512
 * VGPRs+AGPRs per lane of a wave; two workgroups per CU at d = 128 need <= 256
 * registers and <= 32 KiB of LDS each). */
#ifndef ATTN_BWD_DQ_H
#define ATTN_BWD_DQ_H

#ifndef ATTN_BWD_H
#error "attn_bwd_dq.h is included by attn_bwd.h (after its kernels), not on its own"
#endif

/* chunk reads of a transposed tile R0 + RS rows down (RS = 0, 32, 64, 96 after unrolling): the
 * shift as a constant (tk_prefetch_issue_rows puts it in the reads' offset field, so every
 * chunk shares one set of address registers) */
#define AB_READ_ROWS(P, SM, R0, RS)                                                               \
  do {                                                                                            \
    switch (RS) {                                                                                 \
    case 32: tk_prefetch_issue_rows(P, SM, R0, 0, 32); break;                                     \
    case 64: tk_prefetch_issue_rows(P, SM, R0, 0, 64); break;                                     \
    case 96: tk_prefetch_issue_rows(P, SM, R0, 0, 96); break;                                     \
    default: tk_prefetch_issue(P, SM, (R0) + (RS), 0); break;                                     \
    }                                                                                             \
  } while (0)


/* dq kernel, AB_DP_SLOTS' hook: P^T's element e takes its column's (the lane's query's) LSE */
#define AB_LSE_COL(e) lc[0]

/* dq kernel (inside it): issue / commit the key tile at row R0 */
#define AB_Q_ISSUE(R0)                                                                            \
  do {                                                                                            \
    const int ti_ = (int)tk_opaque((uint32_t)tid); /* offsets computed here, not kept live */    \
    tk_load_issue_mat(s1, mvk, rkm, (R0), 0, ti_);                                                \
    tk_load_issue_t_mat(t1, mvk, rkm, (R0), 0, ti_);                                              \
    tk_load_issue_mat(s2, mvv, rvm, (R0), 0, ti_);                                                \
  } while (0)
#define AB_Q_COMMIT()                                                                             \
  do {                                                                                            \
    const int tc_ = (int)tk_opaque((uint32_t)tid);                                                \
    tk_load_commit(sm.it.k, s1, tc_, NT_ + NS_);                                                  \
    tk_load_commit_t(sm.it.kt, t1, tc_, NS_);                                                     \
    tk_load_commit(sm.it.v, s2, tc_, 0);                                                          \
  } while (0)

/* the dq kernel of NAME (ATTN_BWD_KERNELS' tile types), head dim D, AB_BQ keys per tile */
#define AB_DQ_KERNEL(NAME, D, AB_BQ)                                                              \
  typedef union {                                                                                 \
    struct { NAME##_rst k; NAME##_tst kt; NAME##_rst v; } it;                                     \
    NAME##_bst init; /* Q, then dO (one at a time: 32 KiB at d = 128, two workgroups per CU) */   \
    NAME##_ost ep[4];                                                                             \
  } NAME##_q_smem;                                                                                \
  TK_LDS_CHECK(NAME##_q_smem);                                                                    \
  __global__ __launch_bounds__(256, 2) void NAME##_dq(attn_bwd_args a)                            \
  {                                                                                               \
    TK_LDS_ALLOC(NAME##_q_smem, sm);                                                              \
    enum { BQ_ = AB_BQ, NC = (D) / 32, /* 32-wide d-chunks */                                     \
           RK_ = AB_BQ / 8 };          /* ds_read_b64 per chunk of K, V (AB_BQ x 32), K^T (32 x AB_BQ) */ \
    const int tid = threadIdx.x;                                                                  \
    const uint32_t wave = tk_wave_id(), lane = tk_lane_id();                                      \
    const int q0 = (int)blockIdx.x * AF_BQ, h = (int)blockIdx.y, b = (int)blockIdx.z;             \
    const int hk = h / a.group, off = a.skv - a.sq;                                               \
    const int qw = q0 + 32 * (int)wave;                                                           \
    const tk_rsrc rq = tk_gl_rsrc(&a.q), rg = tk_gl_rsrc(&a.dout);                                \
    /* Q_w and dO_w in registers as 32-column chunks, through one 32 KiB LDS tile in turn */      \
    NAME##_qc_t qf[NC], gf[NC];                                                                   \
    {                                                                                             \
      NAME##_bstage st;                                                                           \
      NAME##_qcpend pn;                                                                           \
      tk_load(sm.init, st, &a.q, rq, b, h, q0, 0, tid);                                           \
      tk_load_issue(st, &a.dout, rg, b, h, q0, 0, tid);                                           \
      tk_lds_barrier();                                                                           \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                            \
        tk_prefetch_issue(pn, sm.init, 32 * wave, 32 * c);                                        \
        tk_prefetch_wait(qf[c], pn, 0);                                                           \
      }                                                                                           \
      tk_barrier();                                                                               \
      tk_load_commit(sm.init, st, tid, 0);                                                        \
      tk_lds_barrier();                                                                           \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                            \
        tk_prefetch_issue(pn, sm.init, 32 * wave, 32 * c);                                        \
        tk_prefetch_wait(gf[c], pn, 0);                                                           \
      }                                                                                           \
      tk_barrier();                                                                               \
    }                                                                                             \
    const int qi = qw + (int)(lane % 32);                                                         \
    const int64_t row = ((int64_t)b * a.hq + h) * a.sq;                                           \
    float lc[1] = {qi < a.sq ? a.lse[row + qi] * AF_LOG2E : INFINITY};                            \
    float dc[1] = {qi < a.sq ? a.delta[row + qi] : 0.0f};                                         \
    NAME##_oc_t dq[NC];                                                                           \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) tk_rt_zero(dq[c]);                             \
    int kv_end = a.skv;                                                                           \
    if (a.causal && q0 + AF_BQ + off < kv_end) kv_end = q0 + AF_BQ + off;                         \
    /* key tile t+1's K, K^T, V stages in flight during tile t (one LDS buffer, two barriers) */  \
    const int nt = kv_end > 0 ? (kv_end + AB_BQ - 1) / AB_BQ : 0;                                 \
    /* matrix-bounded loads: key rows past skv read 0 in hardware (tk/loads.h) */                 \
    const tk_rsrc rkm = tk_gl_rsrc_mat(&a.k, b, hk), rvm = tk_gl_rsrc_mat(&a.v, b, hk);           \
    const tk_mview mvk = tk_gl_mview(&a.k), mvv = tk_gl_mview(&a.v);                              \
    NAME##_rstage s1, s2;                                                                         \
    NAME##_tstage t1;                                                                             \
    enum { NS_ = TK_STAGE_NLOADS(s1), NT_ = TK_STAGE_NLOADS(t1) };                                \
    if (nt > 0) {                                                                                 \
      AB_Q_ISSUE(0);                                                                              \
      AB_Q_COMMIT();                                                                              \
      AB_Q_ISSUE(AB_BQ);                                                                          \
    }                                                                                             \
    tk_lds_barrier();                                                                             \
    for (int t = 0; t < nt; ++t) {                                                                \
      const int kv0 = t * AB_BQ;                                                                  \
      NAME##_s_t s, dp;                                                                           \
      tk_rt_zero(s);                                                                              \
      tk_rt_zero(dp);                                                                             \
      /* an opaque zero row: the chunk reads' lane addresses are computed here, per tile, instead \
       * of living in registers through the loop (36 of them: two workgroups per CU need <= 256) */ \
      const uint32_t z_ = tk_opaque(0u);                                                          \
      /* chunk reads one chunk ahead: chunk c's wait leaves chunk c+1's RK_ reads in flight */    \
      {                                                                                           \
        NAME##_kcpend kp[2 * NC];                                                                 \
        NAME##_kc_t kc[2 * NC];                                                                   \
        tk_prefetch_issue(kp[0], sm.it.k, z_, 0);                                                 \
        _Pragma("unroll") for (int c = 0; c < 2 * NC; ++c) { /* K chunks (S^T), then V (dP^T) */  \
          if (c + 1 < NC) tk_prefetch_issue(kp[c + 1], sm.it.k, z_, 32 * (c + 1));                \
          else if (c + 1 < 2 * NC) tk_prefetch_issue(kp[c + 1], sm.it.v, z_, 32 * (c + 1 - NC));  \
          if (c + 1 < 2 * NC) tk_prefetch_wait(kc[c], kp[c], RK_);                                \
          else tk_prefetch_wait(kc[c], kp[c], 0);                                                 \
          if (c < NC) {                                                                           \
            tk_mma_ABt(s, kc[c], qf[c], s);                    /* S^T = K Q_w^T */                \
          } else if (!AB_DP_INTERLEAVE) {                                                         \
            tk_mma_ABt(dp, kc[c], gf[c - NC], dp);             /* dP^T = V dO_w^T */              \
          } else { /* one MFMA at a time, each followed by its share of P^T's exp2 (see dkdv) */  \
            AB_DP_SLOTS(dp, kc[c], gf[c - NC], s, a.scale_log2, AB_LSE_COL, NAME##_f1_t, NAME##_c1_t, \
                        AB_BQ, NC, c - NC, AB_DP_NONE);              /* dP^T = V dO_w^T */  \
          }                                                                                       \
        }                                                                                         \
      }                                                                                           \
      NAME##_tcpend tp[NC];                                                                       \
      NAME##_tc_t tc[NC];                                                                         \
      tk_prefetch_issue(tp[0], sm.it.kt, z_, 0); /* K^T's first chunk under the softmax */        \
      if (!AB_DP_INTERLEAVE) {                                                                    \
        if (kv0 + AB_BQ > a.skv) tk_rt_mask_rows(s, s, a.skv - kv0, -INFINITY);                   \
        if (a.causal && qw + off - kv0 < AB_BQ - 1) tk_rt_mask_lower(s, s, qw + off - kv0, -INFINITY); \
        tk_rt_exp2_col(s, s, a.scale_log2, lc); /* P^T */                                         \
      } else { /* P^T masked after its exp2: 0 where hidden (a select: an overflow is dropped too) */ \
        if (kv0 + AB_BQ > a.skv) tk_rt_mask_rows(s, s, a.skv - kv0, 0.0f);                        \
        if (a.causal && qw + off - kv0 < AB_BQ - 1) tk_rt_mask_lower(s, s, qw + off - kv0, 0.0f); \
      }                                                                                           \
      tk_rt_col_bcast(dp, dp, dc, -);                                                             \
      tk_rt_mul(dp, s, dp); /* dS^T */                                                            \
      NAME##_p_t pb;                                                                              \
      tk_rt_cvt_c_to_b_bf16_finite(pb, dp);                                                       \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) { /* dQ^T += K^T dS^T, by 32 d-rows */       \
        if (c + 1 < NC) {                                                                         \
          AB_READ_ROWS(tp[c + 1], sm.it.kt, z_, 32 * (c + 1)); /* shift: offset field */          \
          tk_prefetch_wait(tc[c], tp[c], RK_);                                                    \
        } else {                                                                                  \
          tk_prefetch_wait(tc[c], tp[c], 0);                                                      \
        }                                                                                         \
        tk_mma_AB(dq[c], tc[c], pb, dq[c]);                                                       \
      }                                                                                           \
      /* free the buffer, put tile t+1 in, start tile t+2's loads (unconditional: past the end    \
       * rows that read 0 and are never used; see the dkdv kernel) */                             \
      tk_barrier();                                                                               \
      AB_Q_COMMIT();                                                                              \
      AB_Q_ISSUE(kv0 + 2 * AB_BQ);                                                                \
      tk_lds_barrier();                                                                           \
    }                                                                                             \
    tk_barrier(); /* the output tiles alias the key tiles slower waves may still read */          \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                              \
      tk_rt_scale(dq[c], dq[c], a.scale);                                                         \
      tk_store_acc_lds_t(sm.ep[wave], dq[c], 0, 32 * c);                                          \
    }                                                                                             \
    const tk_rsrc ro = tk_gl_rsrc(&a.dq);                                                         \
    TK_WAIT_LGKMCNT(0);                                                                           \
    tk_store_lds_global(&a.dq, ro, b, h, qw, 0, sm.ep[wave], lane, 64);                           \
  }

AB_DQ_KERNEL(attn_bwd_d64, 64, 64)
AB_DQ_KERNEL(attn_bwd_d128, 128, 32)

#endif /* ATTN_BWD_DQ_H */
