/* attn_bwd.h: the flash-attention backward kernels (FlashAttention-2
 * algorithm), built from tk primitives only.  Two modes, three launches each:
 *  default (a.dqa set): attn_bwd_pre (delta, and the f32 dQ sums zeroed),
 *    attn_bwd_d*_dkdvq (dK, dV as below, plus each wave's 32 x 32 block of
 *    dQ = dS K over the workgroup's 128 keys, added to the sums with f32
 *    buffer atomics: 5 matmuls, not 7), attn_bwd_dq_cvt (dQ = scale * sums,
 *    bf16); dQ's summation order varies run to run, dK and dV do not;
 *  deterministic (TK_ATTN_BWD_DETERMINISTIC, a.nparts set): attn_bwd_pre,
 *    attn_bwd_d*_kvdqp launches (dkdvq with dQ into f32 partial sums by
 *    plain loads and stores, in launch order), attn_bwd_dqp_sum (no atomics:
 *    attn_bwd_dqp.h); with neither set (partials past 3.75 GiB): attn_bwd_pre,
 *    attn_bwd_d*_dkdv, attn_bwd_d*_dq (attn_bwd_dq.h: recomputes S, P, dP, dS).
 * dkdvq: dS (bf16, the B operand's values) goes to an LDS tile of the 4
 * waves' keys (AB_DS_STORE) before dV/dK's MFMAs; after the end-of-tile
 * barrier wave w reads its 32 query rows x 128 keys of it and runs dQ's MFMAs
 * against K^T's 32 rows of its d-block (loaded once, kept in AGPRs), under
 * the next tile's commit; the atomics go out in the next tile after S's MFMAs.
 *
 *  1. attn_bwd_pre: delta_i = sum_e dO_ie O_ie per query row (f32, into the
 *     workspace); a row's d/8 16-byte chunks over as many lanes (coalesced),
 *     reduced across them with tk_xor_f32.
 *  2. attn_bwd_dkdv_d*: one workgroup of 4 waves per (128 keys, kv head,
 *     batch); wave w owns keys kv0 + 32w..+31 with K_w and V_w in registers
 *     and accumulates dK^T and dV^T (d x 32, f32) over every query head of
 *     its group and every query tile (in a fixed order):
 *       S   = Q K_w^T          (AB_BQ x 32: tk_mma_ABt, Q and K_w in A layout)
 *       P   = exp2(S*scale*log2e - LSE_i*log2e)    (tk_rt_exp2_row)
 *       dV^T += dO^T P         (dO^T from tk's transposing group loads,
 *                               P -> bf16 B operand in registers)
 *       dP  = dO V_w^T         (tk_mma_ABt)
 *       dS  = P * (dP - delta_i)   (row broadcast, elementwise product)
 *       dK^T += Q^T dS         (Q^T transposed load, dS -> B operand)
 *     dK = scale * dK at the end.  Masks as in the forward (query rows >= sq,
 *     keys >= skv, causal upper triangle of S); causal workgroups start at
 *     their first visible query tile.
 *  3. attn_bwd_dq_d*: one workgroup per (128 queries, query head, batch), the
 *     forward's transposed formulation: S^T = K Q_w^T, P^T =
 *     exp2(S^T*s - LSE_col), dP^T = V dO_w^T, dS^T = P^T * (dP^T - delta_col),
 *     dQ^T += K^T dS^T (K^T transposed load); dQ = scale * dQ.
 * Pipeline (both kernels): one LDS buffer and one register stage set; tile
 * t+1's global loads (and, in dkdv, one LSE or delta value per thread) are
 * issued right after tile t was committed (dq: before the barrier that
 * publishes it; dkdv: after it, between tile t's first chunk reads and their
 * wait, under their latency) and land under tile t's MFMAs; at
 * the end of tile t a barrier frees the buffer, the stage is written
 * (tk_load_commit / tk_load_commit_t, LSE/delta into a small LDS row) and a
 * second barrier publishes it.  The issue is unconditional (past the last
 * tile the last one again): a conditional issue makes the stage registers a
 * phi, and the compiler's copies then wait for the loads at once.  Operand
 * fragments are read from LDS in 32-wide d-chunks, one chunk ahead of the
 * chunk's MFMAs (tk_prefetch_wait leaves the next chunk's reads in flight).
 * On gfx942 dP (dkdv) and dP^T (dq) go one MFMA at a time with P's exp2
 * between them (AB_DP_INTERLEAVE): a wave issues in order and an MFMA waits
 * for the busy pipe, so only this order runs the exp2 under the MFMAs.
 * dkdv's Q and dO tiles come through matrix-bounded loads (tk_load_issue_mat: rows past sq
 * read 0 in hardware), the head's descriptor made per tile from local copies of the tensors
 * (the address of a kernel argument taken in the loop puts the argument in scratch); the
 * next tiles' head and rows advance by a counter (no division per tile); on gfx942 P's bf16
 * conversion runs one slot behind its exp2 between the single dP MFMAs.
 * Registers and occupancy: dkdv keeps K_w, V_w (64 registers, in AGPRs: tk_rt_in_agpr, the
 * MFMAs read them there) and dK^T, dV^T (128) all along, one workgroup per CU;
 * dq (d = 128) fits 256 registers and 32 KiB of LDS (Q, then dO, through one start-up tile; chunk read and load
 * addresses recomputed per tile through tk_opaque), so two workgroups share
 * a CU and one's softmax runs under the other's MFMAs.
 * LDS (d = 64): dkdv 4 x 8 KiB (Q, Q^T, dO, dO^T tiles of 64 queries) + LSE
 * and delta rows, dq 3 x 8 KiB (K, K^T, V of 64 keys); d = 128 uses tiles of
 * 32 rows; both alias their start-up and epilogue tiles with these.
 */
#ifndef ATTN_BWD_H
#define ATTN_BWD_H

#include <hip/hip_runtime.h>
#include <tk/tk.h>

#include "attn_fwd.h"
#include "tk_attn.h"

#define AB_BK 128 /* keys per dkdv workgroup (4 waves x 32) */
/* dkdv: dP one 32x32x8 MFMA at a time with P's exp2 between them (gfx942: MI325X dkdv proxy
 * 241.6 -> 226.4 us modeled); not on gfx950, where single fragments lose the double-rate
 * 32x32x16 and, paired, the exp2 between the shorter MFMAs outlasts them (proxy 150.4 -> 157.8,
 * paired 152.8 us) */
#define AB_DP_INTERLEAVE (!TK_HAS_MFMA_F16_X2)
/* AB_BQ: queries per LDS tile of the dkdv kernel and keys per tile of the dq
 * kernel, a macro argument: 64 for d = 64, 32 for d = 128 (register
 * pressure: at 64 the d = 128 dkdv kernel needs more than 512 registers) */

typedef struct attn_bwd_args {
  tk_gl q, k, v, o, dout, dq, dk, dv;
  const float *lse;
  float *delta;
  float *dqa;         /* fused dQ (dkdvq): f32 [b][hq][sq][d] sums, zeroed by attn_bwd_pre; else NULL */
  uint32_t dqa_bytes; /* its size (< 4 GiB: one buffer descriptor) */
  int32_t sq, skv, hq, group;
  int32_t causal;
  float scale, scale_log2;
  int32_t kb0, nparts; /* deterministic dQ partials (attn_bwd_dqp.h): first key block of the launch, partials */
} attn_bwd_args;

/* delta = rowsum(dO * O): each row's d / 8 16-byte chunks over as many lanes
 * (coalesced: a wave reads whole rows), the chunk sums reduced across those
 * lanes with tk_xor_f32 in a fixed order (deterministic). */
#define AB_PRE_ROWS(d) (256 / ((d) / 8)) /* rows per 256-thread workgroup */
__global__ __launch_bounds__(256) void attn_bwd_pre(attn_bwd_args a)
{
  const int cpr = (int)a.o.dims[3] / 8; /* 16-byte chunks per row: 8 or 16 */
  const int tid = (int)threadIdx.x, c = tid % cpr;
  const int i = (int)blockIdx.x * (256 / cpr) + tid / cpr, h = (int)blockIdx.y, b = (int)blockIdx.z;
  const tk_rsrc ro = tk_gl_rsrc(&a.o), rg = tk_gl_rsrc(&a.dout);
  const bool in = i < a.sq;
  const uint32_t oo = in ? (uint32_t)(tk_gl_offset(&a.o, b, h, i, 8 * c) * 2) : TK_OOB_OFFSET;
  const uint32_t og = in ? (uint32_t)(tk_gl_offset(&a.dout, b, h, i, 8 * c) * 2) : TK_OOB_OFFSET;
  const tk_u32x4 vo = tk_buffer_load_b128(ro, oo), vg = tk_buffer_load_b128(rg, og);
  float s = 0.0f;
  _Pragma("unroll") for (int e = 0; e < 4; ++e) {
    s += tk_bf16_to_f32((uint16_t)(vo[e] & 0xffffu)) * tk_bf16_to_f32((uint16_t)(vg[e] & 0xffffu));
    s += tk_bf16_to_f32((uint16_t)(vo[e] >> 16)) * tk_bf16_to_f32((uint16_t)(vg[e] >> 16));
  }
  for (int m = 1; m < cpr; m <<= 1) s += tk_xor_f32(s, m);
  if (in && c == 0) a.delta[((int64_t)b * a.hq + h) * a.sq + i] = s;
  if (in && a.dqa) { /* the fused dQ's sums start at 0: this thread's 8 of row i */
    tk_u32x4 *z = (tk_u32x4 *)(a.dqa + (((int64_t)b * a.hq + h) * a.sq + i) * (8 * cpr) + 8 * c);
    z[0] = tk_u32x4{0u, 0u, 0u, 0u};
    z[1] = tk_u32x4{0u, 0u, 0u, 0u};
  }
}

/* fused dQ, last step: dQ = scale * sums (f32 workspace -> bf16 tensor), 8 elements per thread
 * (grid and rows as attn_bwd_pre) */
__global__ __launch_bounds__(256) void attn_bwd_dq_cvt(attn_bwd_args a)
{
  const int cpr = (int)a.q.dims[3] / 8;
  const int tid = (int)threadIdx.x, c = tid % cpr;
  const int i = (int)blockIdx.x * (256 / cpr) + tid / cpr, h = (int)blockIdx.y, b = (int)blockIdx.z;
  if (i >= a.sq) return;
  const tk_u32x4 *x = (const tk_u32x4 *)(a.dqa + (((int64_t)b * a.hq + h) * a.sq + i) * (8 * cpr) + 8 * c);
  const tk_u32x4 x0 = x[0], x1 = x[1];
  tk_u32x4 y;
  _Pragma("unroll") for (int e = 0; e < 4; ++e) {
    const uint32_t lo = e < 2 ? x0[2 * e] : x1[2 * e - 4], hi = e < 2 ? x0[2 * e + 1] : x1[2 * e - 3];
    y[e] = (uint32_t)tk_f32_to_bf16(a.scale * tk_bits_f32(lo)) |
           ((uint32_t)tk_f32_to_bf16(a.scale * tk_bits_f32(hi)) << 16);
  }
  tk_buffer_store_b128(tk_gl_rsrc(&a.dq), (uint32_t)(tk_gl_offset(&a.dq, b, h, i, 8 * c) * 2), y);
}

/* dkdv kernel (inside it): issue the query tile of query head H, rows Q0.., and commit the
 * tile of rows Q0.. (the head and rows advance by a counter, not T / ntq, T % ntq: two scalar
 * divisions per tile) */
#define AB_KV_ISSUE(H, Q0)                                                                        \
  do {                                                                                            \
    const int h_ = (H), q_ = (Q0);                                                                \
    const int i_ = q_ + li_ < a.sq ? q_ + li_ : a.sq - 1; /* clamped: the load stays inside */    \
    lsv = lsp[((int64_t)b * a.hq + h_) * a.sq + i_];                                              \
    /* matrix-bounded: rows past sq read 0 in hardware; the head's descriptors (rqm, rgm) are     \
     * remade only when the head changes (AB_KV_NEXT) */                                          \
    const tk_rsrc rqm_ = rqm, rgm_ = rgm;                                                         \
    (void)h_;                                                                                     \
    tk_load_issue_mat(s1, mvq, rqm_, q_, 0, tid);                                                 \
    tk_load_issue_t_mat(t1, mvq, rqm_, q_, 0, tid);                                               \
    tk_load_issue_mat(s2, mvg, rgm_, q_, 0, tid);                                                 \
    tk_load_issue_t_mat(t2, mvg, rgm_, q_, 0, tid);                                               \
  } while (0)
#define AB_KV_COMMIT(Q0)                                                                          \
  do {                                                                                            \
    const int q_ = (Q0);                                                                          \
    tk_load_commit(sm.it.q, s1, tid, NT_ + NS_ + NT_);                                            \
    tk_load_commit_t(sm.it.qt, t1, tid, NS_ + NT_);                                               \
    tk_load_commit(sm.it.g, s2, tid, NT_);                                                        \
    tk_load_commit_t(sm.it.gt, t2, tid, 0);                                                       \
    if (tid < 2 * BQ_) /* rows past sq: LSE +inf (P = 0), delta 0 */                            \
      sm.it.ld[tid] = q_ + li_ < a.sq ? (tid < BQ_ ? lsv * AF_LOG2E : lsv) : (tid < BQ_ ? INFINITY : 0.0f); \
  } while (0)

/* dkdv kernel (inside it): advance the issued tile (ih, iq, ni) by one, staying on the last */
#define AB_KV_NEXT()                                                                              \
  do {                                                                                            \
    if (ni + 1 < nt) {                                                                            \
      ++ni;                                                                                       \
      iq += BQ_;                                                                                  \
      if (iq >= a.sq) { /* ntq tiles per head end at sq; the next head's descriptors */          \
        iq = qs;                                                                                  \
        ++ih;                                                                                     \
        rqm = tk_gl_rsrc_mat(&glq, b, ih);                                                        \
        rgm = tk_gl_rsrc_mat(&glg, b, ih);                                                        \
      }                                                                                           \
    }                                                                                             \
  } while (0)

/* dkdv kernel (inside it): element e of this lane's P (accumulator layout) into the bf16 B
 * operand pb, as tk_rt_cvt_c_to_b_bf16_finite places it (register group e % 16 / 4 of row
 * fragment e / 16 is B fragment 4 (e / 16) + e % 16 / 4) */
#define AB_P_CVT(e) (pb.f[((e) / 16) * 4 + ((e) % 16) / 4][(e) % 4] = (int16_t)tk_f32_to_bf16_finite(s.f[(e) / 16][(e) % 16]))

/* dkdv kernels: an f32 accumulator tile Y (AB_BQ x 32) as the bf16 B operand X, elements in
 * AB_P_CVT's places; with v_cvt_pk_bf16_f32 (gfx950: TK_HAS_CVT_PK_BF16) two per instruction
 * (tk_pack_bf16x2_rn, round to nearest even like the finite conversion it replaces) */
#if TK_HAS_CVT_PK_BF16
#define AB_CVT_B(X, Y)                                                                            \
  do {                                                                                            \
    typedef TK_TYPEOF(Y) YT_;                                                                     \
    _Pragma("unroll") for (int e = 0; e < TK_RT_ROWV(YT_); e += 2) {                              \
      const uint32_t u_ = tk_pack_bf16x2_rn((Y).f[e / 16][e % 16], (Y).f[e / 16][e % 16 + 1]);     \
      (X).f[(e / 16) * 4 + (e % 16) / 4][e % 4] = (int16_t)(u_ & 0xffffu);                         \
      (X).f[(e / 16) * 4 + (e % 16) / 4][e % 4 + 1] = (int16_t)(u_ >> 16);                         \
    }                                                                                             \
  } while (0)
#else
#define AB_CVT_B(X, Y) tk_rt_cvt_c_to_b_bf16_finite(X, Y)
#endif

/* dkdv kernel (inside it): per-row LSE (log2 units, into lr) or delta (into dr) of the rows
 * this lane holds */
#define AB_LSE_READ(X, OFF)                                                                       \
  do {                                                                                            \
    _Pragma("unroll") for (int fr = 0; fr < BQ_ / 32; ++fr)                                       \
    _Pragma("unroll") for (int i = 0; i < 16; ++i)                                                \
      X[fr * 16 + i] = sm.it.ld[(OFF) + 32 * fr + tk_layout_c_row(32, (int)lane, i)];            \
  } while (0)

/* dkdvq kernel (inside it): a wave's 32 x 32 dQ block (rows R0.., columns C0.. of query head H,
 * head dim DD) added to the f32 sums, one atomic per element: a register's 32 lanes cover 32
 * consecutive columns of one row (128 bytes); rows past sq are sent past num_records (dropped) */
#define AB_DQ_ATOMIC(X, H, R0, C0, DD)                                                                \
  do {                                                                                            \
    const int r0_ = (R0);                                                                         \
    const uint32_t rb_off_ = (uint32_t)((((int64_t)b * a.hq + (H)) * a.sq + r0_) * (DD) + (C0)) * 4u; \
    const uint32_t lo_ = rb_off_ + (uint32_t)(tk_layout_c_row(32, (int)lane, 0) * (DD) + (int)(lane % 32)) * 4u; \
    if (r0_ + 32 <= a.sq) { /* whole block inside: constant offsets from one lane address */     \
      _Pragma("unroll") for (int i = 0; i < 16; ++i)                                              \
        tk_buffer_atomic_add_f32(rdqa, lo_ + (uint32_t)(tk_layout_c_row(32, 0, i) * (DD)) * 4u, (X).f[0][i]); \
    } else {                                                                                      \
      _Pragma("unroll") for (int i = 0; i < 16; ++i) {                                            \
        const int r_ = tk_layout_c_row(32, (int)lane, i);                                         \
        const uint32_t o_ = lo_ + (uint32_t)(tk_layout_c_row(32, 0, i) * (DD)) * 4u;              \
        tk_buffer_atomic_add_f32(rdqa, r0_ + r_ < a.sq ? o_ : TK_OOB_OFFSET, (X).f[0][i]);        \
      }                                                                                           \
    }                                                                                             \
  } while (0)

/* dkdvq kernel (inside it): this wave's dS (X: the bf16 B operand, AB_P_CVT's element order) into
 * the LDS tile SM of queries x keys, one ds_write_b16 per element: element e is row
 * 32 (e / 16) + tk_layout_c_row(32, lane, e % 16), column 32 wave + lane % 32; offsets from the
 * lane's first (B0) by one XOR (tk_lds_offset_add: the register's row bits and the lane's are
 * disjoint) */
#define AB_DS_STORE(SM, X, B0)                                                                    \
  do {                                                                                            \
    typedef TK_TYPEOF(SM) T_;                                                                     \
    _Pragma("unroll") for (int e = 0; e < 2 * (int)T_::tk_rows; ++e) {                            \
      const uint32_t o_ = tk_lds_offset_add((int)T_::tk_layout, (uint32_t)T_::tk_cols, 2u, (B0),   \
                                            (uint32_t)(32 * (e / 16) + tk_layout_c_row(32, 0, e % 16)), 0u); \
      *(int16_t *)((char *)(SM).data + o_) = (X).f[(e / 16) * 4 + (e % 16) / 4][e % 4];           \
    }                                                                                             \
  } while (0)

#include "attn_bwd_dqp.h" /* the deterministic mode's dQ partials: AB_DQP_* hooks (FQ 2) */

#define ATTN_BWD_KERNELS(NAME, D, AB_BQ)                                                                 \
  TK_ST(NAME##_rst, tk_bf16, AB_BQ, D, TK_LDS_SWZ);   /* AB_BQ rows x d */                         \
  TK_ST(NAME##_tst, tk_bf16, D, AB_BQ, TK_LDS_SWZ);   /* d x AB_BQ (transposed) */                  \
  TK_ST(NAME##_bst, tk_bf16, AB_BK, D, TK_LDS_SWZ);   /* 128 rows x d (start-up) */               \
  TK_ST(NAME##_ost, tk_bf16, 32, D, TK_LDS_SWZ);      /* one wave's 32 output rows */             \
  TK_ST(NAME##_dsst, tk_bf16, AB_BQ, AB_BK, TK_LDS_SWZ); /* dkdvq: dS of the 4 waves (queries x keys) */ \
  TK_ST(NAME##_ktst, tk_bf16, D, AB_BK, TK_LDS_SWZ);  /* dkdvq: K^T of the block (start-up) */     \
  typedef union {                                                                                 \
    struct { NAME##_rst q; NAME##_tst qt; NAME##_rst g; NAME##_tst gt; float ld[2 * AB_BQ]; NAME##_dsst ds; } it; \
    struct { NAME##_bst k; NAME##_bst v; } init;                                                  \
    NAME##_ktst ikt;                                                                              \
    struct { NAME##_ost k, v; } ep[4];                                                            \
  } NAME##_kv_smem;                                                                               \
  TK_LDS_CHECK(NAME##_kv_smem);                                                                   \
  TK_STAGE(NAME##_rstage, NAME##_rst, 256);                                                       \
  TK_STAGE(NAME##_tstage, NAME##_tst, 256);                                                       \
  TK_STAGE(NAME##_bstage, NAME##_bst, 256);                                                       \
  TK_STAGE(NAME##_ktstage, NAME##_ktst, 256);                                                     \
  TK_RT(NAME##_w_t, TK_K_A_BF16_32x32x8, 32, D);      /* a wave's 32 rows (K_w, V_w, Q_w, dO_w) */ \
  TK_RT(NAME##_r_t, TK_K_A_BF16_32x32x8, AB_BQ, D);   /* AB_BQ-row tile as A */                    \
  TK_RT(NAME##_t_t, TK_K_A_BF16_32x32x8, D, AB_BQ);   /* transposed tile as A */        \
  TK_RT(NAME##_s_t, TK_K_C_F32_32x32, AB_BQ, 32);     /* S, P, dP, dS (AB_BQ x 32) */               \
  TK_RT(NAME##_p_t, TK_K_B_BF16_32x32x8, AB_BQ, 32);  /* as B operand (K = AB_BQ) */                \
  TK_RT(NAME##_g_t, TK_K_C_F32_32x32, D, 32);         /* d x 32 gradient accumulators */          \
  TK_RT(NAME##_kc_t, TK_K_A_BF16_32x32x8, AB_BQ, 32); /* dq: 32 d-columns of a K or V tile */   \
  TK_RT(NAME##_qc_t, TK_K_A_BF16_32x32x8, 32, 32);    /* dq: 32 d-columns of Q_w or dO_w */     \
  TK_RT(NAME##_tc_t, TK_K_A_BF16_32x32x8, 32, AB_BQ); /* dq: 32 d-rows of K^T */                \
  TK_RT(NAME##_oc_t, TK_K_C_F32_32x32, 32, 32);       /* dq: 32 d-rows of dQ^T */               \
  TK_RT(NAME##_f1_t, TK_K_A_BF16_32x32x8, 32, 8);     /* dkdv: one A fragment */                \
  TK_RT(NAME##_c1_t, TK_K_C_F32_32x32, 32, 32);       /* dkdv: one accumulator fragment */      \
  TK_RT(NAME##_da_t, TK_K_A_BF16_32x32x8, 32, AB_BK); /* dkdvq: 32 rows of dS or of K^T, 128 keys */ \
  TK_PENDING(NAME##_dapend, NAME##_da_t);                                                         \
  TK_PENDING(NAME##_kcpend, NAME##_kc_t);                                                         \
  TK_PENDING(NAME##_qcpend, NAME##_qc_t);                                                         \
  TK_PENDING(NAME##_tcpend, NAME##_tc_t);                                                         \
  TK_PENDING(NAME##_wpend, NAME##_w_t);                                                           \
  TK_PENDING(NAME##_rpend, NAME##_r_t);                                                           \
  TK_PENDING(NAME##_tpend, NAME##_t_t);                                                           \
  /* prefetch a whole tile into registers, waiting at once */                                     \
  __device__ static inline void NAME##_read_r(NAME##_r_t *x, const NAME##_rst *sm)                \
  {                                                                                               \
    NAME##_rpend pn;                                                                              \
    tk_prefetch_issue(pn, *sm, 0, 0);                                                             \
    tk_prefetch_wait(*x, pn, 0);                                                                  \
  }                                                                                               \
  __device__ static inline void NAME##_read_t(NAME##_t_t *x, const NAME##_tst *sm)                \
  {                                                                                               \
    NAME##_tpend pn;                                                                              \
    tk_prefetch_issue(pn, *sm, 0, 0);                                                             \
    tk_prefetch_wait(*x, pn, 0);                                                                  \
  }                                                                                               \
  /* a wave's accumulated d x 32 gradient (transposed) -> its 32 rows of g */                     \
  __device__ static inline void NAME##_store_w(const tk_gl *gl, int b, int h, int r0, NAME##_g_t *acc, \
                                               NAME##_ost *ep)                                    \
  {                                                                                               \
    tk_store_acc_lds_t(*ep, *acc, 0, 0);                                                          \
    const tk_rsrc rs = tk_gl_rsrc(gl);                                                            \
    TK_WAIT_LGKMCNT(0);                                                                           \
    tk_store_lds_global(gl, rs, b, h, r0, 0, *ep, tk_lane_id(), 64);                              \
  }                                                                                               \
                                                                                                  \
  AB_DKDV_KERNEL(NAME, D, AB_BQ, NAME##_dkdv, 0)                                                \
  AB_DKDV_KERNEL(NAME, D, AB_BQ, NAME##_dkdvq, 1)                                               \
  AB_DKDV_KERNEL(NAME, D, AB_BQ, NAME##_kvdqp, 2)

/* the dK/dV kernel KNAME; FQ 1: dQ += dS K_w too (f32 atomics into a.dqa), see the file head */
#define AB_DKDV_KERNEL(NAME, D, AB_BQ, KNAME, FQ)                                                  \
  __global__ __launch_bounds__(256) void KNAME(attn_bwd_args a)                                   \
  {                                                                                               \
    TK_LDS_ALLOC(NAME##_kv_smem, sm);                                                             \
    enum { BQ_ = AB_BQ, NC = (D) / 32, /* 32-wide d-chunks */                                     \
           RK_ = AB_BQ / 8 };          /* ds_read_b64 per chunk of Q, dO (AB_BQ x 32) and of Q^T, dO^T (32 x AB_BQ) */ \
    const int tid = threadIdx.x;                                                                  \
    const uint32_t wave = tk_wave_id(), lane = tk_lane_id();                                      \
    const int kv0 = ((int)blockIdx.x + (FQ == 2 ? a.kb0 : 0)) * AB_BK, hk = (int)blockIdx.y, b = (int)blockIdx.z; \
    const int kw = kv0 + 32 * (int)wave; /* first key of this wave */                             \
    const int off = a.skv - a.sq;                                                                 \
    const tk_rsrc rk = tk_gl_rsrc(&a.k), rv = tk_gl_rsrc(&a.v);                                   \
    /* K_w and V_w in registers as 32-column chunks */                                            \
    NAME##_qc_t kf[NC], vf[NC];                                                                   \
    {                                                                                             \
      NAME##_bstage st;                                                                           \
      NAME##_qcpend pn;                                                                           \
      tk_load(sm.init.k, st, &a.k, rk, b, hk, kv0, 0, tid);                                       \
      tk_load(sm.init.v, st, &a.v, rv, b, hk, kv0, 0, tid);                                       \
      tk_lds_barrier();                                                                           \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                            \
        tk_prefetch_issue(pn, sm.init.k, 32 * wave, 32 * c);                                      \
        tk_prefetch_wait(kf[c], pn, 0);                                                           \
        tk_prefetch_issue(pn, sm.init.v, 32 * wave, 32 * c);                                      \
        tk_prefetch_wait(vf[c], pn, 0);                                                           \
        tk_rt_in_agpr(kf[c]); /* MFMA operands straight from AGPRs, no copy back per use */       \
        tk_rt_in_agpr(vf[c]);                                                                     \
      }                                                                                           \
      tk_barrier();                                                                               \
    }                                                                                             \
    /* dkdvq: wave w sums dQ block (rb_, cb_) (32 x 32 of the AB_BQ x d tile) over the block's 128 \
     * keys: dQ = dS K = dS (K^T)^T, K^T's 32 rows of that block in registers (AGPRs) all along */ \
    const int rb_ = (AB_BQ) == 32 ? 0 : (int)wave / ((D) / 32), cb_ = (int)wave % ((D) / 32);    \
    NAME##_da_t ktf;                                                                              \
    if (FQ) {                                                                                     \
      NAME##_ktstage st;                                                                          \
      NAME##_dapend pn;                                                                           \
      tk_load_issue_t(st, &a.k, rk, b, hk, kv0, 0, tid);                                          \
      tk_load_commit_t(sm.ikt, st, tid, 0);                                                       \
      tk_lds_barrier();                                                                           \
      tk_prefetch_issue(pn, sm.ikt, 32 * cb_, 0);                                                 \
      tk_prefetch_wait(ktf, pn, 0);                                                               \
      tk_rt_in_agpr(ktf);                                                                         \
      tk_barrier();                                                                               \
    }                                                                                             \
    const tk_rsrc rdqa = tk_rsrc_make(FQ == 2 ? AB_DQP_BASE() : a.dqa, FQ ? a.dqa_bytes : 0u);    \
    uint32_t dql[16];                                                                             \
    /* this lane's first dS element (row 4 (lane / 32), key column 32 wave + lane % 32) in sm.it.ds */ \
    const uint32_t dsb_ = tk_st_offset(NAME##_dsst, (uint32_t)tk_layout_c_row(32, (int)lane, 0), 32u * wave + lane % 32); \
    NAME##_oc_t dk[NC], dv[NC]; /* 32 d-rows of dK^T, dV^T each */                                \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                              \
      tk_rt_zero(dk[c]);                                                                          \
      tk_rt_zero(dv[c]);                                                                          \
    }                                                                                             \
    int qs = 0; /* causal: queries below kv0 - off see none of these keys */                      \
    if (a.causal && kv0 - off > 0) qs = ((kv0 - off) / AB_BQ) * AB_BQ;                            \
    /* tiles t = 0 .. nt-1 walk the group's query heads, each over its query tiles from qs */     \
    const int ntq = qs < a.sq ? (a.sq - qs + AB_BQ - 1) / AB_BQ : 0, nt = ntq * a.group;         \
    /* tile t+1 in flight during tile t: Q, Q^T, dO, dO^T stages and one LSE or delta value per   \
     * thread (threads 0..AB_BQ-1: LSE of row tid, AB_BQ..2 AB_BQ-1: delta; issued first, so the  \
     * stage commits' counts do not include it; the compiler waits for it itself) */              \
    NAME##_rstage s1, s2;                                                                         \
    NAME##_tstage t1, t2;                                                                         \
    const tk_mview mvq = tk_gl_mview(&a.q), mvg = tk_gl_mview(&a.dout);                           \
    const tk_gl glq = a.q, glg = a.dout; /* local copies: the address of a kernel argument taken   \
                                          * in the loop put the argument in scratch */            \
    float lsv = 0.0f;                                                                             \
    enum { NS_ = TK_STAGE_NLOADS(s1), NT_ = TK_STAGE_NLOADS(t1) };                                \
    const int li_ = tid % AB_BQ;                                                                  \
    const float *lsp = tid < AB_BQ ? a.lse : a.delta;                                             \
    /* the tile last issued (query head ih, rows iq..; its index ni) and the one last committed */ \
    int ih = hk * a.group, iq = qs, ni = 0, cq = qs, ch = ih;                                     \
    tk_rsrc rqm = tk_gl_rsrc_mat(&glq, b, ih), rgm = tk_gl_rsrc_mat(&glg, b, ih);                 \
    /* dkdvq: the previous tile's dQ block and its head and first row; its atomics go out in the   \
     * next tile once S's MFMAs are issued (no wait for the dQ MFMAs before the barrier) */        \
    NAME##_oc_t dqc;                                                                              \
    int pq0 = 0, ph0 = 0;                                                                         \
    if (nt > 0) {                                                                                 \
      AB_KV_ISSUE(ih, iq);                                                                        \
      AB_KV_COMMIT(iq);                                                                           \
    }                                                                                             \
    tk_lds_barrier();                                                                             \
    for (int t = 0; t < nt; ++t) {                                                                \
      const int q0 = cq, h0 = ch;                                                                 \
      const uint32_t z_ = 0u; /* chunk read addresses loop invariant (one workgroup per CU anyway) */ \
      /* per-row LSE (log2 units) of the rows this lane holds, read before the chunk reads (their \
       * waits then cover these too); delta after them (not needed before dS: fewer reads before  \
       * the first MFMA) */                                                                       \
      float lr[TK_RT_ROWV(NAME##_s_t)], dr[TK_RT_ROWV(NAME##_s_t)];                               \
      if (AB_DP_INTERLEAVE) AB_LSE_READ(lr, 0);                                                   \
      NAME##_s_t s, dp;                                                                           \
      NAME##_p_t pb, sb; /* P, dS as bf16 B operands */                                           \
      tk_rt_zero(s);                                                                              \
      tk_rt_zero(dp);                                                                             \
      /* S = Q K_w^T, then dP = dO V_w^T by 32-column chunks, each chunk's reads issued one chunk \
       * ahead (the wait leaves the next chunk's RK_ reads in flight); dP one MFMA at a time, each \
       * followed by its share of P = exp2(S s - LSE) (a wave issues in order and an MFMA waits for \
       * the busy pipe: only this order, held by scheduling barriers, runs the exp2 under them) */ \
      {                                                                                           \
        NAME##_kcpend xp[2 * NC];                                                                 \
        NAME##_kc_t xc[2 * NC];                                                                   \
        tk_prefetch_issue(xp[0], sm.it.q, z_, 0);                                                 \
        _Pragma("unroll") for (int c = 0; c < 2 * NC; ++c) {                                      \
          if (c == NC - 1) { /* delta (and LSE, gfx950) early: their latency had split the dS block */ \
            AB_LSE_READ(dr, BQ_);                                                                 \
            if (!AB_DP_INTERLEAVE && !FQ) AB_LSE_READ(lr, 0); /* (dkdvq: 16 more live registers spill one) */ \
          }                                                                                       \
          if (c + 1 < NC) tk_prefetch_issue(xp[c + 1], sm.it.q, z_, 32 * (c + 1));                \
          else if (c + 1 < 2 * NC) tk_prefetch_issue(xp[c + 1], sm.it.g, z_, 32 * (c + 1 - NC));  \
          if (c == 0) { /* tile t+1's loads (the stage is free: tile t was committed), under the  \
                         * first chunk reads' latency; unconditional, see the loop's end */      \
            AB_KV_NEXT();                                                                         \
            AB_KV_ISSUE(ih, iq);                                                                  \
          }                                                                                       \
          if (FQ == 1 && c == NC && t > 0) AB_DQ_ATOMIC(dqc, ph0, pq0 + 32 * rb_, 32 * cb_, D);    \
          if (FQ == 2 && c == NC) { /* the previous tile's block, then this tile's sums so far */ \
            if (t > 0) AB_DQP_STORE(dqc, dql, ph0, pq0 + 32 * rb_, 32 * cb_, D);                  \
            AB_DQP_LOAD(dql, h0, q0 + 32 * rb_, 32 * cb_, D);                                     \
          }                                                                                       \
          if (c == NC && AB_DP_INTERLEAVE) { /* S complete: its masks before P */                 \
            if (q0 + AB_BQ > a.sq) tk_rt_mask_rows(s, s, a.sq - q0, -INFINITY);                   \
            if (kw + 32 > a.skv) tk_rt_mask_cols(s, s, a.skv - kw, -INFINITY);                    \
            if (a.causal && q0 + off - kw < 31) tk_rt_mask_upper(s, s, q0 + off - kw, -INFINITY); \
          }                                                                                       \
          if (c + 1 < 2 * NC) tk_prefetch_wait(xc[c], xp[c], RK_);                                \
          else tk_prefetch_wait(xc[c], xp[c], 0);                                                 \
          if (c < NC) {                                                                           \
            tk_mma_ABt(s, xc[c], kf[c], s);                  /* S = Q K_w^T */                    \
          } else if (!AB_DP_INTERLEAVE) {                                                         \
            tk_mma_ABt(dp, xc[c], vf[c - NC], dp);           /* dP = dO V_w^T */                  \
          } else {                                                                                \
            TK_SCHED_BARRIER(0);                                                                  \
            enum { EPG = 4 / NC }; /* P elements per lane per MFMA */                             \
            _Pragma("unroll") for (int r = 0; r < AB_BQ / 32; ++r)                                \
            _Pragma("unroll") for (int k = 0; k < 4; ++k) {                                       \
              const int g = ((c - NC) * (AB_BQ / 32) + r) * 4 + k;                                \
              NAME##_f1_t a1, b1;                                                                 \
              NAME##_c1_t o1;                                                                     \
              a1.f[0] = xc[c].f[r * 4 + k];                                                       \
              b1.f[0] = vf[c - NC].f[k];                                                          \
              o1.f[0] = dp.f[r];                                                                  \
              tk_mma_ABt(o1, a1, b1, o1);                    /* dP = dO V_w^T */                  \
              dp.f[r] = o1.f[0];                                                                  \
              _Pragma("unroll") for (int e = g * EPG; e < (g + 1) * EPG; ++e)                     \
                s.f[e / 16][e % 16] = tk_exp2f(s.f[e / 16][e % 16] * a.scale_log2 - lr[e]); /* P */ \
              /* the previous slot's P to bf16 (one slot behind: no wait for the v_exp_f32) */    \
              if (g > 0) _Pragma("unroll") for (int e = (g - 1) * EPG; e < g * EPG; ++e) AB_P_CVT(e); \
              TK_SCHED_BARRIER(0);                                                                \
            }                                                                                     \
          }                                                                                       \
        }                                                                                         \
      }                                                                                           \
      if (AB_DP_INTERLEAVE) /* the last slot's P */                                               \
        _Pragma("unroll") for (int e = TK_RT_ROWV(NAME##_s_t) - 4 / NC; e < TK_RT_ROWV(NAME##_s_t); ++e) AB_P_CVT(e); \
      NAME##_tcpend tp[2 * NC];                                                                   \
      NAME##_tc_t tc[2 * NC];                                                                     \
      tk_prefetch_issue(tp[0], sm.it.gt, z_, 0); /* dO^T's first chunk under the conversions */   \
      if (!AB_DP_INTERLEAVE) {                                                                    \
        if (FQ) AB_LSE_READ(lr, 0);                                                               \
        if (q0 + AB_BQ > a.sq) tk_rt_mask_rows(s, s, a.sq - q0, -INFINITY);                       \
        if (kw + 32 > a.skv) tk_rt_mask_cols(s, s, a.skv - kw, -INFINITY);                        \
        if (a.causal && q0 + off - kw < 31) tk_rt_mask_upper(s, s, q0 + off - kw, -INFINITY);     \
        tk_rt_exp2_row(s, s, a.scale_log2, lr); /* P */                                           \
      }                                                                                           \
      if (!AB_DP_INTERLEAVE) AB_CVT_B(pb, s);                                                     \
      tk_rt_row_bcast(dp, dp, dr, -);                                                             \
      tk_rt_mul(dp, s, dp); /* dS */                                                              \
      AB_CVT_B(sb, dp);                                                                           \
      if (FQ) AB_DS_STORE(sm.it.ds, sb, dsb_); /* dS for dQ (published by the end-of-tile barrier) */ \
      /* dV^T += dO^T P, then dK^T += Q^T dS, by 32 d-rows, reads one chunk ahead */              \
      _Pragma("unroll") for (int c = 0; c < 2 * NC; ++c) {                                        \
        /* (not AB_READ_ROWS here: fewer instructions, slower: dkdv proxy 191.9 -> 197.9 us,       \
         * MI355X 126.6 -> 139.7, modeled) */                                                     \
        if (c + 1 < NC) tk_prefetch_issue(tp[c + 1], sm.it.gt, z_ + 32 * (c + 1), 0);             \
        else if (c + 1 < 2 * NC) tk_prefetch_issue(tp[c + 1], sm.it.qt, z_ + 32 * (c + 1 - NC), 0); \
        if (c + 1 < 2 * NC) tk_prefetch_wait(tc[c], tp[c], RK_);                                  \
        else tk_prefetch_wait(tc[c], tp[c], 0);                                                   \
        if (c < NC) tk_mma_AB(dv[c], tc[c], pb, dv[c]);            /* dV^T += dO^T P */           \
        else tk_mma_AB(dk[c - NC], tc[c], sb, dk[c - NC]);         /* dK^T += Q^T dS */           \
      }                                                                                           \
      /* one LDS buffer: free it, put tile t+1 in, start tile t+2's loads; unconditional (past    \
       * the last tile the last one again, never read): under a branch the stage registers become \
       * a phi, and the compiler's copies wait for the loads right after they are issued */      \
      tk_barrier();                                                                               \
      if (FQ) { /* this wave's dQ block of tile t, its MFMAs under the commit */                  \
        NAME##_dapend dpn;                                                                        \
        NAME##_da_t dsa;                                                                          \
        tk_prefetch_issue(dpn, sm.it.ds, 32 * rb_, 0);                                            \
        tk_prefetch_wait(dsa, dpn, 0);                                                            \
        tk_rt_zero(dqc);                                                                          \
        tk_mma_ABt(dqc, dsa, ktf, dqc); /* dQ block = dS K over the 128 keys */                   \
        pq0 = q0, ph0 = h0;                                                                       \
      }                                                                                           \
      cq = iq; /* tile t+1 (the last one again past the end) */                                   \
      ch = ih;                                                                                    \
      AB_KV_COMMIT(cq);                                                                           \
      tk_lds_barrier();                                                                           \
    }                                                                                             \
    if (FQ == 1 && nt > 0) AB_DQ_ATOMIC(dqc, ph0, pq0 + 32 * rb_, 32 * cb_, D); /* the last tile's */ \
    if (FQ == 2 && nt > 0) AB_DQP_STORE(dqc, dql, ph0, pq0 + 32 * rb_, 32 * cb_, D);            \
    tk_barrier(); /* the epilogue tiles alias the query tiles other waves may still read */      \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                              \
      tk_rt_scale(dk[c], dk[c], a.scale);                                                         \
      tk_store_acc_lds_t(sm.ep[wave].k, dk[c], 0, 32 * c);                                        \
      tk_store_acc_lds_t(sm.ep[wave].v, dv[c], 0, 32 * c);                                        \
    }                                                                                             \
    {                                                                                             \
      const tk_rsrc rdk = tk_gl_rsrc(&a.dk), rdv = tk_gl_rsrc(&a.dv);                             \
      TK_WAIT_LGKMCNT(0);                                                                         \
      tk_store_lds_global(&a.dk, rdk, b, hk, kw, 0, sm.ep[wave].k, lane, 64);                     \
      tk_store_lds_global(&a.dv, rdv, b, hk, kw, 0, sm.ep[wave].v, lane, 64);                     \
    }                                                                                             \
  }

ATTN_BWD_KERNELS(attn_bwd_d64, 64, 64)
ATTN_BWD_KERNELS(attn_bwd_d128, 128, 32)

#include "attn_bwd_dq.h" /* the deterministic dq kernel (uses the tile types above) */

/* a->dqa set: the fused dQ (dkdvq, then attn_bwd_dq_cvt); else dkdv and the dq kernel (deterministic) */
static hipError_t attn_bwd_launch(const attn_bwd_args *a, int d, int b, int hkv, hipStream_t stream)
{
  attn_bwd_args pa = *a;
  if (a->nparts) pa.dqa = NULL; /* deterministic partials: nothing to zero */
  hipLaunchKernelGGL(attn_bwd_pre, dim3((unsigned)((a->sq + AB_PRE_ROWS(d) - 1) / AB_PRE_ROWS(d)), (unsigned)a->hq,
                     (unsigned)b), dim3(256), 0, stream, pa);
  const dim3 gkv((unsigned)((a->skv + AB_BK - 1) / AB_BK), (unsigned)hkv, (unsigned)b);
  const dim3 gq((unsigned)((a->sq + AF_BQ - 1) / AF_BQ), (unsigned)a->hq, (unsigned)b);
  if (a->nparts) { /* deterministic: kvdqp launches, then the partials' sum (attn_bwd_dqp.h) */
    if (d == 64) AB_DQP_LAUNCH(attn_bwd_d64_kvdqp, a, d, b, hkv, stream);
    else AB_DQP_LAUNCH(attn_bwd_d128_kvdqp, a, d, b, hkv, stream);
  } else if (a->dqa) {
    if (d == 64) hipLaunchKernelGGL(attn_bwd_d64_dkdvq, gkv, dim3(256), 0, stream, *a);
    else hipLaunchKernelGGL(attn_bwd_d128_dkdvq, gkv, dim3(256), 0, stream, *a);
    hipLaunchKernelGGL(attn_bwd_dq_cvt, dim3((unsigned)((a->sq + AB_PRE_ROWS(d) - 1) / AB_PRE_ROWS(d)), (unsigned)a->hq,
                       (unsigned)b), dim3(256), 0, stream, *a);
  } else if (d == 64) {
    hipLaunchKernelGGL(attn_bwd_d64_dkdv, gkv, dim3(256), 0, stream, *a);
    hipLaunchKernelGGL(attn_bwd_d64_dq, gq, dim3(256), 0, stream, *a);
  } else {
    hipLaunchKernelGGL(attn_bwd_d128_dkdv, gkv, dim3(256), 0, stream, *a);
    hipLaunchKernelGGL(attn_bwd_d128_dq, gq, dim3(256), 0, stream, *a);
  }
  return hipGetLastError();
}

#endif /* ATTN_BWD_H */
