/* attn_fwd_cdna4.h: the flash-attention forward kernel for gfx950 (CDNA4:
 * MI350X / MI355X), built from tk primitives only (no inline asm, no
 * compiler builtins: tests/gemm/no_asm.sh).  tk_attn.hip launches it when the
 * device is a gfx950; gfx942 runs attn_fwd.h.
 *
 * Same algorithm, masks, C API and epilogue as attn_fwd.h (read its header
 * first): one workgroup of 4 waves per (128 query rows, query head, batch),
 * transposed formulation S^T = K Q^T, P^T converted in place from the
 * accumulator to the B operand, O^T += V^T P^T, exp2-form online softmax with
 * a lazy running max, one LDS barrier per 64-key tile.  What gfx950 changes:
 * - MFMA rate.  gfx950's bf16 32x32x16 MFMA does twice the work of the
 *   32x32x8 one in the same 16 passes (CDNA4 ISA guide, MFMA table; modeled:
 *   docs/tksim-model.md).  attn_fwd.h issues one 32x32x8 K fragment per MFMA
 *   (to interleave VALU work between single MFMAs), i.e. half rate on
 *   gfx950; here every MFMA is a pair of K fragments, which tk_mma issues as
 *   one 32x32x16 (mma.h), so a tile is 32 double-rate MFMAs at d = 128 with
 *   the softmax's VALU work spread two elements per MFMA.
 * - V without a transposing commit.  attn_fwd.h writes V^T into LDS with
 *   4-byte transposing writes (16 ds_write_b32 per lane and tile at d =
 *   128).  Here V goes to LDS row-major like K (one ds_write_b128 per lane
 *   and 32-column chunk) and the V^T operand is read with gfx950's
 *   transposing LDS read (ds_read_b64_tr_b16, tk_rt_load_tr on the 32x32x8 A
 *   kind, tk/lds_tr.h): one read per fragment, as many as before.  Pairing
 *   two 32x32x8 fragments puts K (keys) in the 32x32 accumulator's row order
 *   in both operands (P^T's and V^T's), so the in-place P^T conversion still
 *   holds.  V's LDS tiles are 64 keys x 32 d, linear (64-byte rows): a
 *   32-lane phase of the transposing read covers 4 consecutive rows = 256
 *   contiguous bytes = the 64 banks once (docs/hardware.md, gfx950 banks).
 * - K and Q fragments as K-fragment pairs, one ds_read_b128 each
 *   (tk_prefetch_issue_b128_rows), which gfx950's swizzle serves without bank
 *   conflicts (the 32-row ds_read_b64 reads are 2-way there); both operands
 *   read that way, so their paired K order cancels.
 * - K straight into LDS: gfx950's 16-byte direct loads through the matrix
 *   descriptor (tk_load_lds_direct_x4_mat), no staging registers, three K
 *   buffers: K(j+3) is issued in tile j's O phase after its last V^T read.
 *   Why there: LLVM puts an s_waitcnt vmcnt(0) before a transposing LDS read
 *   (a compiler builtin) while any direct-to-LDS load is in flight (it cannot
 *   tell the buffers apart), so K loads issued in the S phase (as before,
 *   two buffers) stalled every tile's first V^T read for their whole latency
 *   (0.26 us per tile, modeled); issued after the last V^T read they have a
 *   whole S phase before the next one, and two tiles before their own use.
 *   V stays staged (a whole tile ahead already).
 * - Two workgroups per CU at both head dims (256 registers, 2 x 80 KiB of
 *   LDS at d = 128, gfx950's 160 KiB): two waves per SIMD, so one wave's softmax VALU work and
 *   waits run under the other's MFMAs.  At 256 registers the next K and V^T
 *   chunks' reads go out half a chunk ahead (a whole chunk would spill).
 * - P packed to bf16 with v_cvt_pk_bf16_f32 (tk_pack_bf16x2_rn: one
 *   instruction per pair instead of three).
 * - Workgroups that share a K/V matrix run on one XCD (tk_grid_xcd_remap):
 *   modeled L2 hit rate 74% -> 95% at b16 h16 s2048.
 * - Epilogue: O^T / l goes to LDS four accumulator rows (= four bf16 of one
 *   O row) per ds_write_b64, converted in pairs by v_cvt_pk_bf16_f32
 *   (tk_store_acc_lds_t_bf16), not element by element in software (1594
 *   instructions per wave after the last MFMA before; modeled s2048 d128
 *   1118.4 -> 1163.6 TFLOP/s).
 * Schedule per key tile j (one barrier; K(t) in buffer t % 3, V(t) in t % 2):
 * wait for this wave's K(j+1) direct loads, barrier; lazy rescale; S^T(j+1)
 * one paired MFMA at a time with P(j)'s exp2 (before each MFMA) and its sum /
 * bf16 packing (after); then O^T += V^T(j) P^T(j) one paired MFMA at a time
 * with S(j+1)'s masks and column max, V(j+1)'s commit (one chunk per MFMA,
 * each chunk's V(j+2) loads right after it) and, after the last V^T read,
 * K(j+3)'s direct loads (one chunk per MFMA).
 * LDS: 3 K + 2 V = 80 KiB at d = 128 (40 KiB at d = 64); Q is read once
 * through LDS into registers; the per-wave output tiles alias the buffers.
 */
#ifndef ATTN_FWD_CDNA4_H
#define ATTN_FWD_CDNA4_H

#include <hip/hip_runtime.h>
#include <string.h>
#include <tk/tk.h>

#include "attn_fwd.h" /* attn_fwd_args (the kernel arguments both forwards take) */

#define AF4_BQ 128  /* query rows per workgroup (4 waves x 32) */
#define AF4_BKV 64  /* keys per LDS tile */
#define AF4_LN2 0.6931471805599453f
#define AF4_RESCALE 8.0f
/* the O phase's first MFMA slot after the last V^T read (AF_KLA 1: chunk NC-1 read in slot 4 NC - 6) */
#define AF4_KLOAD0 (4 * NC - 5)
/* K buffers: 3 on gfx950 (80 KiB at d = 128, two groups per CU in 160 KiB); the gfx942 device
 * pass (never launched, 64 KiB of LDS) only has to compile */
#if TK_HAS_DS_READ_TR
#define AF4_NKB 3
#else
#define AF4_NKB 2
#endif /* lazy rescale threshold (log2 units), as attn_fwd.h */

/* S^T = K Q^T for K tile 0 in LDS, over 32-wide d-chunks (prologue) */
#define AF4_S_PHASE(NAME, S)                                                                      \
  do {                                                                                            \
    NAME##_kpend kp_;                                                                             \
    NAME##_k_t kf_;                                                                               \
    _Pragma("unroll") for (int c_ = 0; c_ < NC; ++c_) {                                           \
      tk_prefetch_issue_b128(kp_, sm.kv.k[0][c_], 0, 0);                                         \
      tk_prefetch_wait_b128(kf_, kp_, 0);                                                         \
      tk_mma_ABt(S, kf_, qf[c_], S);                                                              \
    }                                                                                             \
  } while (0)

/* K chunk C's fragment reads with the chunk's shift in the ds_read offset field (the K tiles
 * are an array of one type), so every chunk shares one set of address registers */
#define AF4_SHIFTED(ISSUE, C)                                                                     \
  do {                                                                                            \
    switch (C) {                                                                                  \
      case 0: ISSUE(0); break;                                                                    \
      case 1: ISSUE(1); break;                                                                    \
      case 2: ISSUE(2 % NC); break; /* % NC: d64 (NC 2) never takes cases 2-3; keeps the */      \
      case 3: ISSUE(3 % NC); break; /* unreached index inside kp_[NC] (-Warray-bounds) */         \
      default: break; /* chunk NC (a constant C + 1 past the last): nothing to read */           \
    }                                                                                             \
  } while (0)
/* chunk C's reads for chunk C's MFMAs, chunk 0 issued earlier: AF_KLA 2 issues chunk C+1
 * first and waits for chunk C only; AF_KLA 1 (256 registers) waits for chunk C, whose reads
 * went out half a chunk earlier (AF4_TILE: slot 4C - 2) */
#define AF4_CHUNK(C)                                                                              \
  do {                                                                                            \
    if (AF_KLA == 2 && (C) + 1 < NC) {                                                            \
      AF4_SHIFTED(AF4_KREAD_, (C) + 1);                                                           \
      tk_prefetch_wait_b128(kf_[C], kp_[C], AF_RPC);                                              \
    } else {                                                                                      \
      tk_prefetch_wait_b128(kf_[C], kp_[C], 0);                                                   \
    }                                                                                             \
  } while (0)

/* P elements of slot G: column sum (pinned here, or the compiler defers the adds past the
 * loop) and bf16 conversion of each pair into the B-operand fragment (v_cvt_pk_bf16_f32) */
#define AF4_P_FINISH(G)                                                                           \
  do {                                                                                            \
    _Pragma("unroll") for (int e = (G) * EPG; e < ((G) + 1) * EPG; ++e) {                         \
      if (e % 2 == 1) {                                                                           \
        lsum2 = tk_opaque_f32x2(lsum2 + (tk_f32x2){xs[e - 1], xs[e]});                            \
        tk_u32x2 w_ = __builtin_bit_cast(tk_u32x2, p.f[(e / 16) * 4 + (e % 16) / 4]);             \
        w_[(e % 4) / 2] = tk_opaque(tk_pack_bf16x2_rn(xs[e - 1], xs[e]));                        \
        p.f[(e / 16) * 4 + (e % 16) / 4] = __builtin_bit_cast(TK_TYPEOF(p.f[0]), w_);             \
      }                                                                                           \
    }                                                                                             \
  } while (0)


/* one 64x32 chunk of K or V (rows R0.., columns C0..) of matrix (b, hk) straight into LDS tile
 * sm.kv.TILE: gfx950's 16-byte direct loads (buffer_load_dwordx4 ... lds), no staging registers;
 * rows past skv read 0 (matrix-bounded descriptor: tk_gl_rsrc_mat) */
#define AF4_LOAD(TILE, MV, RS, R0, C0) tk_load_lds_direct_x4_mat(sm.kv.TILE, 256, MV, RS, R0, C0, tid)

/* K chunk C's fragment reads of tile J+1 */
#define AF4_KREAD_(C) tk_prefetch_issue_b128_rows(kp_[C], sm.kv.k[kr_][0], 0, 0, AF4_BKV * (C))
/* V^T chunk C (32 d-rows x 64 keys) through transposing reads of V's 64x32 tile */
#define AF4_VREAD(C) tk_rt_load_tr(vf_[C], sm.kv.v[VB_][C].data, 64)

/* this wave's 32 rows of the Q half in V buffer 1, in d-chunks */
#define AF4_QREAD(NAME, QF)                                                                            \
  do {                                                                                            \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                              \
      NAME##_qpend qp;                                                                            \
      tk_prefetch_issue_b128(qp, sm.qv.qh, 32 * (wave % 2), 32 * c);                              \
      tk_prefetch_wait_b128(QF[c], qp, 0);                                                        \
    }                                                                                             \
  } while (0)

/* one key tile (inside ATTN_FWD_CDNA4_KERNEL): see attn_fwd.h's AF_TILE for the roles of
 * J, PAR, SC (S(J), masked, column max in mt) and SN (receives S(J+1)); VS: the stage set
 * holding V(J+1) (in flight on entry, committed here; V(J+2) issued into it) */
#define AF4_TILE(NAME, J, PAR, VS, SC, SN)                                                    \
  do {                                                                                            \
      enum { VN_ = 1 - (PAR), VB_ = (PAR) };                                                      \
      const int kv0 = (J) * AF4_BKV;                                                               \
      TK_WAIT_VMCNT(2 * NC * NL); /* this wave's K(j+1) (V(j+1)'s stage and K(j+2) may fly) */   \
      tk_lds_barrier(); /* ... and every wave's, and V(j)'s commit: visible */                    \
      NAME##_kpend kp_[NC];                                                                       \
      NAME##_k_t kf_[NC];                                                                         \
      AF4_SHIFTED(AF4_KREAD_, 0);                                                                  \
      const float ms = mt * a.scale_log2;                                                         \
      if (tk_wave_any(ms > m[0] + AF4_RESCALE)) {                                                  \
        const float mn = fmaxf(m[0], ms);                                                         \
        float alpha[1] = {mn == -INFINITY ? 1.0f : tk_exp2f(m[0] - mn)};                          \
        l[0] *= alpha[0];                                                                         \
        _Pragma("unroll") for (int c = 0; c < NC; ++c) tk_rt_col_bcast(o[c], o[c], alpha, *);     \
        m[0] = mn;                                                                                \
      }                                                                                           \
      float mu[1] = {m[0] == -INFINITY ? 0.0f : m[0]};                                            \
      NAME##_p_t p;                                                                               \
      float xs[32];                                                                               \
      tk_f32x2 lsum2 = {0.0f, 0.0f}, t2 = {0.0f, 0.0f};                                           \
      const tk_f32x2 sc2 = {a.scale_log2, a.scale_log2}, mu2 = {mu[0], mu[0]};                    \
      {                                                                                           \
        enum { NG = 4 * NC, EPG = 32 / NG }; /* paired MFMAs, P elements per lane per MFMA */      \
        _Pragma("unroll") for (int g = 0; g < NG; ++g) {                                          \
          const int c_ = g / 4, r_ = g % 2, k_ = (g / 2) % 2;                                     \
          _Pragma("unroll") for (int e = g * EPG; e < (g + 1) * EPG; ++e) {                       \
            if (e % 2 == 0)                                                                       \
              t2 = (tk_f32x2){SC.f[e / 16][e % 16], SC.f[e / 16][e % 16 + 1]} * sc2 - mu2;        \
            xs[e] = tk_exp2f(t2[e % 2]);                                                          \
          }                                                                                       \
          if (g % 4 == 0) {                                                                       \
            AF4_CHUNK(c_);                                          \
          }                                                                                       \
          if (AF_KLA == 1 && g % 4 == 2 && c_ + 1 < NC) AF4_SHIFTED(AF4_KREAD_, c_ + 1);           \
          /* K(j+2)'s global loads, one chunk per 4 MFMAs (beyond skv they read 0) */             \
          /* K(j+2) straight into the K buffer K(j) left (free since the barrier), one chunk per  \
           * 4 MFMAs (rows past skv read 0) */                                                    \
          TK_SCHED_BARRIER(0);                                                                    \
          NAME##_f2_t a2, b2;                                                                     \
          NAME##_c1_t s1;                                                                         \
          a2.f[0] = kf_[c_].f[r_ * 4 + 2 * k_], a2.f[1] = kf_[c_].f[r_ * 4 + 2 * k_ + 1];          \
          b2.f[0] = qf[c_].f[2 * k_], b2.f[1] = qf[c_].f[2 * k_ + 1];                             \
          if (c_ == 0 && k_ == 0) tk_rt_zero(s1);                                                 \
          else s1.f[0] = SN.f[r_];                                                                \
          tk_mma_ABt(s1, a2, b2, s1); /* one 32x32x16 */                                          \
          SN.f[r_] = s1.f[0];                                                                     \
          TK_SCHED_BARRIER(0);                                                                    \
          if (g > 0) AF4_P_FINISH(g - 1);                                                          \
          TK_SCHED_BARRIER(0);                                                                    \
        }                                                                                         \
        AF4_P_FINISH(NG - 1);                                                                      \
      }                                                                                           \
      l[0] += lsum2[0] + lsum2[1];                                                                \
      /* O^T += V^T(j) P^T(j), one paired MFMA at a time; V^T chunk reads one chunk ahead      \
       * (compiler builtins: LLVM places their lgkmcnt waits) */                                 \
      NAME##_v_t vf_[NC];                                                                         \
      AF4_VREAD(0);                                                                               \
      {                                                                                           \
        const int kn = kv0 + AF4_BKV;                                                              \
        if ((J) + 1 < nt) {                                                                       \
          if (kn + AF4_BKV > a.skv) tk_rt_mask_rows(SN, SN, a.skv - kn, -INFINITY);                \
          if (a.causal && qw + off - kn < AF4_BKV - 1) tk_rt_mask_lower(SN, SN, qw + off - kn, -INFINITY); \
        }                                                                                         \
        float mx = -INFINITY, mo = -INFINITY;                                                     \
        enum { NG = 4 * NC, EPG = 32 / NG };                                                      \
        static_assert(2 * NC <= NG, "attn_fwd_cdna4: the O phase has too few MFMAs for V's loads"); \
        _Pragma("unroll") for (int g = 0; g < NG; ++g) {                                          \
          const int c_ = g / 4, k_ = g % 4;                                                       \
          /* the next chunk's V^T: AF_KLA 2 a whole chunk ahead, 1 (256 registers) half a chunk */ \
          if (AF_KLA == 2 && k_ == 0 && c_ + 1 < NC) AF4_VREAD(c_ + 1);                          \
          if (AF_KLA == 1 && k_ == 2 && c_ + 1 < NC) AF4_VREAD(c_ + 1); /* half a chunk ahead */    \
          NAME##_f2_t a2;                                                                         \
          NAME##_b2_t b2;                                                                         \
          NAME##_c1_t o1;                                                                         \
          a2.f[0] = vf_[c_].f[2 * k_], a2.f[1] = vf_[c_].f[2 * k_ + 1];                           \
          b2.f[0] = p.f[2 * k_], b2.f[1] = p.f[2 * k_ + 1];                                       \
          o1.f[0] = o[c_].f[0];                                                                   \
          tk_mma_AB(o1, a2, b2, o1); /* one 32x32x16 */                                           \
          o[c_].f[0] = o1.f[0];                                                                   \
          TK_SCHED_BARRIER(0);                                                                    \
          if (g < NG / 4)                                                                         \
            _Pragma("unroll") for (int e = g * 4 * EPG; e < (g + 1) * 4 * EPG; ++e)               \
              mx = fmaxf(mx, SN.f[e / 16][e % 16]);                                               \
          if (g == NG / 4) mo = tk_xor_f32(mx, 32); /* the column's other 32 keys: lane ^ 32 */  \
          if (g == NG - 1) mt = fmaxf(mx, mo);                                                    \
          /* V(j+1) -> the free V buffer, one 32-column chunk per MFMA, each chunk's V(j+2)       \
           * loads right after it (loads issued after V(j+1) chunk c: its later chunks, K(j+2),   \
           * V(j+2)'s earlier chunks = 2 NC - 1 batches of one chunk) */                          \
          _Pragma("unroll") for (int c2_ = 0; c2_ < NC; ++c2_)                                     \
            if (g == 1 + c2_) {                                                                   \
              tk_load_commit(sm.kv.v[VN_][c2_], VS[c2_], tid, (2 * NC - 1) * NL);                 \
              tk_load_issue_mat(VS[c2_], mvv, rv, kv0 + 2 * AF4_BKV, 32 * c2_, tid); /* V(j+2) */  \
            }                                                                                     \
          /* K(j+3) straight into the buffer K(j) left, one chunk per MFMA after the last V^T    \
           * read (LLVM waits vmcnt(0) before a transposing read while a direct load is in       \
           * flight; here the next such wait is a whole S phase away) */                         \
          if (g >= AF4_KLOAD0 && g < AF4_KLOAD0 + NC)                                             \
            AF4_LOAD(k[kl_][g - AF4_KLOAD0], mvk, rk, kv0 + 3 * AF4_BKV, 32 * (g - AF4_KLOAD0));  \
          TK_SCHED_BARRIER(0);                                                                    \
        }                                                                                         \
      }                                                                                           \
  } while (0)

#define ATTN_FWD_CDNA4_KERNEL(NAME, D, WPE)                                                          \
  TK_ST(NAME##_kst, tk_bf16, AF4_BKV, 32, TK_LDS_SWZ);    /* K tile, one per 32 d-columns */       \
  TK_ST(NAME##_vst, tk_bf16, AF4_BKV, 32, TK_LDS_LINEAR); /* V tile (keys x 32 d), row-major */    \
  TK_ST(NAME##_qhst, tk_bf16, AF4_BQ / 2, D, TK_LDS_SWZ); /* half the Q block */                 \
  TK_ST(NAME##_ost, tk_bf16, 32, D, TK_LDS_SWZ);         /* one wave's O rows */                  \
  typedef union {                                                                                 \
    struct { NAME##_kst k[AF4_NKB][(D) / 32]; NAME##_vst v[2][(D) / 32]; } kv; /* K(t): t % 3, V(t): t % 2 */  \
    struct { NAME##_kst k[AF4_NKB][(D) / 32]; NAME##_vst v0[(D) / 32]; NAME##_qhst qh; } qv; /* Q halves in V buffer 1 */ \
    NAME##_ost o[4];                                                                              \
  } NAME##_smem;                                                                                  \
  TK_LDS_CHECK(NAME##_smem);                                                                      \
  TK_STAGE(NAME##_qstage, NAME##_qhst, 256);                                                      \
  TK_RT(NAME##_q_t, TK_K_A_BF16_32x32x8, 32, 32);     /* 32 d-columns of the wave's Q rows */     \
  TK_RT(NAME##_k_t, TK_K_A_BF16_32x32x8, AF4_BKV, 32); /* 32 d-columns of the K tile */            \
  TK_RT(NAME##_v_t, TK_K_A_BF16_32x32x8, 32, AF4_BKV); /* 32 d-rows of V^T (transposing reads) */  \
  TK_RT(NAME##_s_t, TK_K_C_F32_32x32, AF4_BKV, 32);    /* S^T, then P^T */                        \
  TK_RT(NAME##_p_t, TK_K_B_BF16_32x32x8, AF4_BKV, 32); /* P^T as B operand (K = keys) */           \
  TK_RT(NAME##_o_t, TK_K_C_F32_32x32, 32, 32);        /* 32 d-rows of O^T */                      \
  TK_RT(NAME##_f2_t, TK_K_A_BF16_32x32x8, 32, 16);    /* a K-fragment pair of K, Q or V^T */      \
  TK_RT(NAME##_c1_t, TK_K_C_F32_32x32, 32, 32);       /* one fragment of S^T or O^T */            \
  TK_RT(NAME##_b2_t, TK_K_B_BF16_32x32x8, 16, 32);    /* a K-fragment pair of P^T */              \
  TK_STAGE(NAME##_vstage, NAME##_vst, 256); /* one 64x32 chunk of V */                          \
  TK_PENDING_B128(NAME##_qpend, NAME##_q_t); /* K-fragment pairs: one ds_read_b128 each */       \
  TK_PENDING_B128(NAME##_kpend, NAME##_k_t);                                                      \
  __global__ __launch_bounds__(256, WPE) void NAME(attn_fwd_args a)                               \
  {                                                                                               \
    ATTN_FWD_CDNA4_BODY(NAME, D, WPE)                                                             \
  }

#if TK_HAS_DS_READ_TR
#define ATTN_FWD_CDNA4_BODY(NAME, D, WPE)                                                          \
    TK_LDS_ALLOC(NAME##_smem, sm);                                                                \
    enum { NC = (D) / 32, AF_WPE = (WPE),                                                          \
           AF_KLA = (WPE) == 1 ? 2 : 1, /* K chunk reads in flight: AF_CHUNK */                     \
           AF_RPC = 4 };                /* ds_read_b128 per K chunk (64 x 32) */                   \
    const int tid = threadIdx.x;                                                                  \
    const uint32_t wave = tk_wave_id(), lane = tk_lane_id();                                      \
    /* workgroups that share a K/V matrix on one XCD (its own L2): the grid's linear id w runs \
     * on XCD w % 8, tk_grid_xcd_remap gives each XCD a contiguous range of (q block, head,     \
     * batch) ids, q block fastest, so an XCD's concurrent groups read the same K/V */          \
    /* 32-bit ids (the launch refuses grids of 2^32 groups or more): 64-bit divisions by the \
     * grid's dimensions were ~350 scalar instructions before the first load */                \
    const uint32_t gx_ = gridDim.x, gy_ = gridDim.y;                                           \
    const uint32_t w_ = tk_grid_xcd_remap(blockIdx.x + gx_ * (blockIdx.y + gy_ * blockIdx.z),  \
                                          gx_ * gy_ * gridDim.z, TK_NUM_XCDS);                  \
    const uint32_t t_ = w_ / gx_, bt_ = t_ / gy_;                                               \
    /* q blocks last to first: causal blocks with the most keys start first (less idle tail) */ \
    const int q0 = (int)(gx_ - 1 - (w_ - t_ * gx_)) * AF4_BQ, h = (int)(t_ - bt_ * gy_), b = (int)bt_; \
    const int hk = h / a.group;                                                                   \
    const int off = a.skv - a.sq; /* causal: key j visible to query i iff j <= i + off */         \
    const tk_rsrc rq = tk_gl_rsrc(&a.q);                                                          \
    /* Q's two halves first: the K/V descriptors below are ~0.7 us of branchy scalar work with \
     * kernel-argument loads on its path, which the Q loads' latency now covers */              \
    NAME##_qstage qs0, qs1;                                                                       \
    enum { NQ = TK_STAGE_NLOADS(qs0) };                                                           \
    tk_load_issue(qs0, &a.q, rq, b, h, q0, 0, tid);                                               \
    tk_load_issue(qs1, &a.q, rq, b, h, q0 + AF4_BQ / 2, 0, tid);                                  \
    const tk_rsrc rk = tk_gl_rsrc_mat(&a.k, b, hk), rv = tk_gl_rsrc_mat(&a.v, b, hk);             \
    const tk_mview mvk = tk_gl_mview(&a.k), mvv = tk_gl_mview(&a.v);                              \
    int kv_end = a.skv;                                                                           \
    if (a.causal && q0 + AF4_BQ + off < kv_end) kv_end = q0 + AF4_BQ + off;                         \
    NAME##_o_t o[NC];                                                                             \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) tk_rt_zero(o[c]);                              \
    float m[1] = {-INFINITY}, l[1] = {0.0f};                                                      \
    const int qw = q0 + 32 * (int)wave;                                                           \
    const int nt = (kv_end + AF4_BKV - 1) / AF4_BKV;                                                \
    NAME##_vstage vs0[NC]; /* V(j+1) in flight during tile j, per chunk */                        \
    enum { NL = TK_STAGE_NLOADS(vs0[0]) }; /* buffer loads per chunk and lane */                  \
    static_assert(NL == 1, "attn_fwd_cdna4: one 16-byte load per lane and chunk (K's direct loads too)"); \
    /* prologue: Q's two halves, K(0), V(0) and K(1) all in flight at once (one global latency, \
     * not two); the Q halves go through V buffer 1 (free until tile 0) one after the other:    \
     * waves 0-1 read rows 0-63, then waves 2-3 rows 64-127 */                                   \
    NAME##_q_t qf[NC];                                                                            \
    {                                                                                             \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) AF4_LOAD(k[0][c], mvk, rk, 0, 32 * c);      \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) tk_load_issue_mat(vs0[c], mvv, rv, 0, 32 * c, tid); \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) AF4_LOAD(k[1][c], mvk, rk, AF4_BKV, 32 * c); \
      tk_load_commit(sm.qv.qh, qs0, tid, NQ + 3 * NC * NL);                                       \
      tk_lds_barrier();                                                                           \
      if (wave < 2) AF4_QREAD(NAME, qf);                                                                \
      tk_lds_barrier(); /* rows 0-63 read before rows 64-127 overwrite them */                    \
      tk_load_commit(sm.qv.qh, qs1, tid, 3 * NC * NL);                                            \
      tk_lds_barrier();                                                                           \
      if (wave >= 2) AF4_QREAD(NAME, qf);                                                               \
    }                                                                                             \
    NAME##_s_t s_a, s_b;                                                                          \
    tk_rt_zero(s_a);                                                                              \
    float mt = -INFINITY;                                                                         \
    if (nt > 0) {                                                                                 \
      TK_WAIT_VMCNT(2 * NC * NL); /* K(0) (V(0), K(1) may stay in flight) */                     \
      tk_lds_barrier();                                                                           \
      AF4_S_PHASE(NAME, s_a);                                                                     \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) { /* V(0) -> buffer 0, V(1) issued */        \
        tk_load_commit(sm.kv.v[0][c], vs0[c], tid, (2 * NC - 1) * NL);                            \
        tk_load_issue_mat(vs0[c], mvv, rv, AF4_BKV, 32 * c, tid);                                 \
      }                                                                                           \
      /* K(2) after V(1), as every tile issues K(j+3) after V(j+2) */                             \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) AF4_LOAD(k[2][c], mvk, rk, 2 * AF4_BKV, 32 * c); \
      if (AF4_BKV > a.skv) tk_rt_mask_rows(s_a, s_a, a.skv, -INFINITY);                            \
      if (a.causal && qw + off < AF4_BKV - 1) tk_rt_mask_lower(s_a, s_a, qw + off, -INFINITY);     \
      float mv[1];                                                                                \
      tk_rt_col_max(mv, s_a);                                                                     \
      mt = mv[0];                                                                                 \
    }                                                                                             \
    int kr_ = 1, kl_ = 0; /* K buffers (t % 3): K(j+1) read, K(j+3) loaded in tile j */         \
    for (int j = 0; j < nt; j += 2) {                                                             \
      AF4_TILE(NAME, j, 0, vs0, s_a, s_b);                                                        \
      kl_ = kr_, kr_ = kr_ == 2 ? 0 : kr_ + 1;                                                    \
      if (j + 1 < nt) AF4_TILE(NAME, j + 1, 1, vs0, s_b, s_a);                                    \
      kl_ = kr_, kr_ = kr_ == 2 ? 0 : kr_ + 1;                                                    \
    }                                                                                             \
    l[0] += tk_xor_f32(l[0], 32);                                                                 \
    float inv[1] = {l[0] > 0.0f ? 1.0f / l[0] : 0.0f};                                            \
    TK_WAIT_VMCNT(0); /* the last tile's direct loads (into buffers sm.o aliases) */             \
    tk_lds_barrier(); /* ... every wave's, before sm.o */                                         \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                              \
      tk_rt_col_bcast(o[c], o[c], inv, *);                                                        \
      tk_store_acc_lds_t_bf16(sm.o[wave], o[c], 0, 32 * c);                                         \
    }                                                                                             \
    const tk_rsrc ro = tk_gl_rsrc(&a.o);                                                          \
    tk_lds_barrier();                                                                             \
    tk_store_lds_global(&a.o, ro, b, h, qw, 0, sm.o[wave], lane, 64);                             \
    const int qi = qw + (int)lane;                                                                \
    if (lane < 32 && qi < a.sq)                                                                   \
      a.lse[((int64_t)b * a.hq + h) * a.sq + qi] =                                                \
          l[0] > 0.0f ? (m[0] + log2f(l[0])) * AF4_LN2 : INFINITY;
#else
/* gfx942 device pass (no transposing LDS reads): never launched (tk_attn.hip picks attn_fwd.h) */
#define ATTN_FWD_CDNA4_BODY(NAME, D, WPE) (void)a;
#endif

ATTN_FWD_CDNA4_KERNEL(attn_fwd_cdna4_d64, 64, 2)
ATTN_FWD_CDNA4_KERNEL(attn_fwd_cdna4_d128, 128, 2)

/* 1 when the current device is a gfx950 (this kernel's target), else 0 */
static int attn_fwd_cdna4_device(void)
{
  int dev = 0;
  hipDeviceProp_t prop;
  if (hipGetDevice(&dev) != hipSuccess || hipGetDeviceProperties(&prop, dev) != hipSuccess) return 0;
  return !strncmp(prop.gcnArchName, "gfx950", 6);
}

static hipError_t attn_fwd_cdna4_launch(const attn_fwd_args *a, int d, int b, hipStream_t stream)
{
  const dim3 grid((unsigned)((a->sq + AF4_BQ - 1) / AF4_BQ), (unsigned)a->hq, (unsigned)b);
  /* the kernel numbers its groups in 32 bits (2^32 groups would need 64 TiB of Q) */
  if ((uint64_t)grid.x * grid.y * grid.z > 0xffffffffu) return hipErrorInvalidConfiguration;
  if (d == 64) hipLaunchKernelGGL(attn_fwd_cdna4_d64, grid, dim3(256), 0, stream, *a);
  else hipLaunchKernelGGL(attn_fwd_cdna4_d128, grid, dim3(256), 0, stream, *a);
  return hipGetLastError();
}

#endif /* ATTN_FWD_CDNA4_H */
