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
 * (tk_rt_cvt_c_to_b_bf16 layout: the 32x32 accumulator layout is the 32x32x8 B
 * layout with K = keys), and O^T (d x 32) += V^T P^T with V^T read from an
 * LDS tile written by tk's transposing group loads (tk_load_issue_t).
 * Online softmax (FlashAttention-2), per query column, in exp2 form with
 * log2(e) folded into the scale: m = running max of S*scale*log2e,
 * P = exp2(S*s - m), l = l*exp2(m_old - m) + colsum(P), O *= exp2(m_old - m);
 * m moves lazily (only when a tile's max exceeds it by AF_RESCALE).
 * Schedule (AF_TILE, docs/attention.md "Forward kernel"): a software
 * pipeline in which S^T(j+1)'s MFMAs are issued one at a time, each followed
 * by one or two elements of P(j)'s exp2 / sum / bf16 conversion (scheduling
 * barriers keep the order: a wave issues in order and an MFMA waits for the
 * busy pipe), then O^T += V^T(j) P^T(j) one MFMA at a time with S(j+1)'s
 * masks / column max and V(j+1)'s transposing commit between them; fragment
 * reads one 32-wide d-chunk ahead (d = 128: one fragment per MFMA slot, not a
 * burst of 8 per chunk, AF_KSPREAD / AF_VSPREAD); global loads issued between MFMAs, V one
 * tile ahead, K two (two register stage sets, so K(j+2)'s commit needs no
 * wait).  The tile's one barrier sits inside the O phase, after V(j)'s last
 * chunk is read and K(j+2) is written, and the next tile's first K chunk
 * reads follow it, so they cross the LDS under O's last MFMAs; V(j)'s first
 * chunk is read under S's last MFMAs, and O's last AF_ODEFER MFMAs are
 * issued around the next tile's rescale decision (the MFMA pipe works while
 * its scalar and vector work issues), the very last (AF_OLATE) inside the S
 * loop's first slot, after its exp2 work.  Prologue: K(0), V(0) loads issued
 * with Q's (AF_KQ); K/V descriptors built branch-free (af_rsrc_mat).
 * Masks (tk/softmax.h): key rows >= skv (tail), and causal, bottom-right
 * aligned like FlashAttention-2: key j is visible to query i when
 * j <= i + skv - sq.  A query with no visible key gets O = 0, LSE = +inf.
 * Epilogue: O^T / l -> bf16 LDS tile transposed (tk_store_acc_lds_t_bf16_rn: O is finite,
 * round to nearest in 3 integer ops per pair on gfx942, not RNE's NaN-safe 11) ->
 * 16-byte global stores through the matrix descriptor (AF_OMAT); LSE (natural log) per query
 * from lanes 0..31.
 * LDS: two buffers, each K(t) as 32-column tiles or V^T(t) (K(t), V(t) in
 * buffer t % 2), 2 x 16 KiB at d = 128; Q goes once through a 128-row tile
 * aliasing them into registers (d = 128: pinned to AGPRs, where the S MFMAs
 * read their B operand, tk_rt_in_agpr; LLVM otherwise parks Q there anyway and
 * copies two registers back before every MFMA); the 4 per-wave output tiles
 * alias the buffers.
 * Tail split (attn_fwd_plan, docs/attention.md "Tail split"): non-causal
 * problems whose last round of items would leave CUs idle run the whole rounds
 * as one launch (items spread over the XCDs in contiguous ranges), the last
 * items as a second launch of key-range parts that write O^T / l (f32) and
 * their LSE to a workspace, and attn_fwd_combine merges the parts (an item's
 * parts and its merge in the same XCD's contiguous range).
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
  /* work items (Q block, head, batch), numbered Q block fastest.  nqb == 0: grid (Q blocks,
   * Hq, B), every item whole.  nqb > 0 (the tail split, attn_fwd_plan): a 1-D grid over items
   * item0.., nsplit consecutive groups per item; nsplit > 1: group g is part g % nsplit of the
   * item's key tiles, its O^T / l (f32, [g][d][128 queries]) and log2-domain LSE (-inf: no
   * key) go to ws_o / ws_lse, and attn_fwd_combine merges an item's parts.  ntail: items split
   * (host side) */
  int32_t nqb, item0, nsplit, ntail;
  tk_gl ws_o;
  float *ws_lse;
} attn_fwd_args;

#define AF_VEARLY 4 /* S-phase MFMAs left when V(j)'s first chunk reads issue (<= 8: after the last K wait) */
#ifndef AF_KNLATE
#define AF_KNLATE 1 /* O MFMAs between the tile's barrier and the next tile's first K chunk reads */
#endif
#define AF_ODEFER 4 /* O MFMAs of a tile issued at the next tile's start (even, 0..8) */
#ifndef AF_OLATE
#define AF_OLATE 1 /* of those, issued inside the S loop's first slots (0..AF_ODEFER / 2) */
#endif
#ifndef AF_KQ
#define AF_KQ 1 /* K(0) and V(0)'s loads issued with Q's (the prologue) */
#endif
#ifndef AF_VMLATE
#define AF_VMLATE 1 /* the tile's V/K global-load wait after the first O MFMA */
#endif
#ifndef AF_QAGPR
#define AF_QAGPR 1 /* Q's fragments kept in AGPRs (tk_rt_in_agpr) */
#endif
#define AF_RESCALE 8.0f /* lazy rescale: the running max moves when a tile's max exceeds it by this (log2 units) */

/* K/V (and O) descriptors without tk_gl_rsrc_mat's device checks (tk_mat_rsrc_unchecked; with the
 * checks, ~10 argument loads in series behind branches: ~0.9 us of every workgroup, modeled):
 * tk_attn.hip checked tk_gl_mat_ok on the host and (b, h) come from the grid, always inside.  bf16
 * is known here, so the byte multiplies fold into shifts (tk_gl_rsrc_mat_unchecked reads elem_bytes) */
#ifndef AF_ARGB
#define AF_ARGB 1
#endif
#ifndef AF_QMAT
#define AF_QMAT 0 /* Q's loads through af_rsrc_mat (matrix-bounded); 1 modeled slower at (2,24,32768,128), v8 */
#endif
#ifndef AF_OMAT
#define AF_OMAT 1 /* the epilogue's O stores through af_rsrc_mat (matrix-bounded) */
#endif
__device__ static inline tk_rsrc af_rsrc_mat(const tk_gl *g, int b, int h)
{
  const int64_t e = (int64_t)b * g->strides[0] + (int64_t)h * g->strides[1];
  return tk_mat_rsrc_unchecked((const tk_bf16 *)g->ptr + e, g->dims[2], g->dims[3], g->strides[2], sizeof(tk_bf16));
}

/* S^T = K Q^T for the K tile in LDS, over 32-wide d-chunks (inside ATTN_FWD_KERNEL) */
#define AF_S_PHASE(NAME, S)                                                                       \
  do {                                                                                            \
    NAME##_kpend kp_;                                                                             \
    NAME##_k_t kf_;                                                                               \
    _Pragma("unroll") for (int c_ = 0; c_ < NC; ++c_) {                                           \
      tk_prefetch_issue(kp_, sm.kv.k[0][c_], 0, 0);                                              \
      tk_prefetch_wait(kf_, kp_, 0);                                                              \
      tk_mma_ABt(S, kf_, qf[c_], S);                                                              \
    }                                                                                             \
  } while (0)

/* the K tile's group loads, one LDS tile per 32 d-columns (inside ATTN_FWD_KERNEL): the
 * chunks' fragment reads then share their lane addresses (constant tile offsets) */
#define AF_K_ISSUE(ks, r0)                                                                          \
  do {                                                                                            \
    _Pragma("unroll") for (int c_ = 0; c_ < NC; ++c_) tk_load_issue_mat(ks[c_], mvk, rk, (r0), 32 * c_, tid); \
  } while (0)
#define AF_K_COMMIT(ks, B, n_after)                                                                 \
  do {                                                                                            \
    _Pragma("unroll") for (int c_ = 0; c_ < NC; ++c_)                                             \
      tk_load_commit(sm.kv.k[B][c_], ks[c_], tid, n_after);     /* the first waits for all of K */ \
  } while (0)

/* fragment reads of K chunk C (tile sm.kv.k[C]) and of V^T rows 32C.. with the chunk's
 * shift in the instructions' offset field (tk_prefetch_issue_rows: the K tiles are an
 * array of one type), so every chunk shares the same address registers */
#define AF_SHIFTED(ISSUE, C)                                                                      \
  do {                                                                                            \
    switch (C) {                                                                                  \
      case 0: ISSUE(0); break;                                                                    \
      case 1: ISSUE(1); break;                                                                    \
      case 2: ISSUE(2 % NC); break; /* % NC: d64 (NC 2) never takes cases 2-3; keeps the */      \
      case 3: ISSUE(3 % NC); break; /* unreached index inside the [NC] arrays */                  \
      default: break; /* chunk NC (a constant C + 1 past the last): nothing to read */           \
    }                                                                                             \
  } while (0)
#define AF_KREAD_(C)                                                                              \
  do {                                                                                            \
    tk_prefetch_issue_rows(kp_[C], sm.kv.k[KB_][0], 0, 0, AF_BKV * (C));                          \
  } while (0)
/* AF_KSPREAD (d = 128): K chunk C's fragment g % 8 alone, read in S slot 8 (C - 1) + g % 8;
 * at slot G = 8c + 4h the MFMAs need fragments 4h..4h+3 of chunk c, the last read in slot G - 5;
 * one read per slot after it while c + 1 < NC, so 4 may stay outstanding (5 or, at G = 8 (NC - 1),
 * 4 were issued), none at G = 8 (NC - 1) + 4 (V(j)'s first chunk reads come after that wait) */
#ifndef AF_KSPREAD
#define AF_KSPREAD (AF_WPE == 1)
#endif
#define AF_KREAD1_(C) tk_prefetch_issue_rows_frag(kp_[C], sm.kv.k[KB_][0], 0, 0, AF_BKV * (C), g % 8)
/* AF_VSPREAD (d = 128): the O phase's V chunks 1.. the same way: V chunk C < NC - 1's fragment k
 * read in O slot 8 (C - 1) + k, the last chunk's two per slot in slots 8 (NC - 2) .. +3 (one per
 * slot put its last reads just before the barrier, whose lgkmcnt(0) then waited for them).  At slot
 * G = 8c + 4h the MFMAs need fragments 4h..4h+3 of chunk c; LDS ops issued after the last of them
 * (the later reads, the V commit writes of slots 1..16, the ds_bpermute of slot 8, the K commit
 * writes of slots 18..21, the next tile's first K chunk in slot 25: NU_ 2, NG 32, KC0_ 18, BAR_ 24,
 * AF_KNLATE 1, checked below): 10, 11, 10, 12, 8, 11 for G = 8, 12, .., 28; one wait count,
 * AF_VSW = 8, serves them all (it may wait for up to 4 ops issued 3 or more slots later) */
#ifndef AF_VSPREAD
#define AF_VSPREAD (AF_WPE == 1)
#endif
#define AF_VSW 8
#define AF_VREADF_(C) tk_prefetch_issue_rows_frag(vp_[C], sm.kv.v[VB_], 0, 0, 32 * (C), vfi_)
/* the next tile's first K chunk (buffer VB_: K(j+2) was committed there this tile) */
#define AF_KREADN_(C) tk_prefetch_issue_rows(kp_[C], sm.kv.k[VB_][0], 0, 0, AF_BKV * (C))
#define AF_VREAD_(C) tk_prefetch_issue_rows(vp_[C], sm.kv.v[VB_], 0, 0, 32 * (C))

/* fragment reads of chunk C of NC (AF_RPC ds_read_b64 each) for chunk C's MFMAs, chunk 0
 * issued earlier: AF_KLA 2 issues chunk C+1 first and waits for chunk C only (C+1 lands
 * under C's MFMAs); AF_KLA 1 (d = 64, 256 registers) issues chunk C and waits for it */
#define AF_CHUNK(READ, WAIT, C, NR)                                                               \
  do {                                                                                            \
    if (AF_KLA == 1 && (C) > 0) AF_SHIFTED(READ, C);                                              \
    if (AF_KLA == 2 && (C) + 1 < NC) {                                                            \
      AF_SHIFTED(READ, (C) + 1);                                                                  \
      WAIT(C, NR);                                                                                \
    } else {                                                                                      \
      WAIT(C, 0);                                                                                 \
    }                                                                                             \
  } while (0)
/* K chunk C (and, with Q in LDS, Q chunk C, read after it) / V chunk C in registers, N reads
 * (0..15, constant) may stay outstanding */
#define AF_KWAIT_(C, N)                                                                           \
  do {                                                                                            \
    tk_prefetch_wait(kf_[C], kp_[C], N);                                                          \
  } while (0)
#define AF_VWAIT_(C, N) tk_prefetch_wait(vf_[C], vp_[C], N)
/* LDS ops the O phase issues between V chunk C's reads (slot 8 (C - 1), before its MFMA) and
 * their wait (slot 8 C): the V commit's ds_write_b32 after the MFMAs of slots 1 .. 8 NU_ and the
 * ds_bpermute after slot NG / 4's; with chunk C+1's AF_RPC reads, at most 15 (lgkmcnt's field) */
#define AF_VN_W(C) ((C) == 0 ? 0 : (((8 * (C) - 1 < 8 * NU_ ? 8 * (C) - 1 : 8 * NU_) -                 \
                                     (8 * ((C) - 1) > 1 ? 8 * ((C) - 1) : 1) + 1) > 0 ?                \
                                    ((8 * (C) - 1 < 8 * NU_ ? 8 * (C) - 1 : 8 * NU_) -                  \
                                     (8 * ((C) - 1) > 1 ? 8 * ((C) - 1) : 1) + 1) : 0) +                \
                                   (NG / 4 >= 8 * ((C) - 1) && NG / 4 <= 8 * (C) - 1 ? 1 : 0))
#define AF_VN(C) (AF_RPC + AF_VN_W(C) > 15 ? 15 : AF_RPC + AF_VN_W(C))

/* P elements of slot G (of AF_TILE's S loop): column sum (pinned here, or the compiler
 * defers all 32 adds past the loop) and bf16 conversion of each pair into the B-operand
 * fragment (tk_pack_bf16x2_rna: round to nearest, 3 integer ops per pair) */
#define AF_P_FINISH(G)                                                                            \
  do {                                                                                            \
    _Pragma("unroll") for (int e = (G) * EPG; e < ((G) + 1) * EPG; ++e) {                         \
      if (e % 2 == 1) { /* elements e-1, e: one packed add, one dword of the fragment */           \
        lsum2 = tk_opaque_f32x2(lsum2 + (tk_f32x2){xs[e - 1], xs[e]});                            \
        tk_u32x2 w_ = __builtin_bit_cast(tk_u32x2, p.f[(e / 16) * 4 + (e % 16) / 4]);             \
        w_[(e % 4) / 2] = tk_opaque(tk_pack_bf16x2_rna(xs[e - 1], xs[e]));                        \
        p.f[(e / 16) * 4 + (e % 16) / 4] = __builtin_bit_cast(TK_TYPEOF(p.f[0]), w_);             \
      }                                                                                           \
    }                                                                                             \
  } while (0)

/* one key tile of the forward's software pipeline (inside ATTN_FWD_KERNEL): tile J (parity
 * PAR); K stage sets KS (K(J+2), loaded during tile J-1, committed here) and KI (K(J+3),
 * issued here), V stage set VS (V(J+1) committed here, V(J+2) issued); K(t) and V(t) are in
 * LDS buffers k[t % 2] and v[t % 2], so K(J+1) is in k[1 - PAR] and V(J) in v[PAR]; SC holds
 * S(J), masked, with its column max in mt; SN receives S(J+1).  One barrier, in the O phase
 * (BAR_): before it every wave has written V(J+1) and K(J+2) and read K(J+1) and V(J) (the
 * buffers the next tile overwrites); after it the next tile's first K chunk is read */
#define AF_TILE(NAME, J, PAR, KS, KI, VS, SC, SN)                                                 \
  do {                                                                                            \
      enum { KB_ = 1 - (PAR), VB_ = (PAR) };                                                      \
      const int kv0 = kv_lo + (J) * AF_BKV;                                                       \
      /* K(j+1)'s first chunk reads were issued after the last tile's barrier (AF_BAR) */        \
      /* online softmax with a lazy running max: m moves (and O, l are rescaled) only when a      \
       * column's tile max exceeds it by AF_RESCALE, so P <= 2^AF_RESCALE; exact, since O, l       \
       * and LSE all use the same m */                                                            \
      /* half of O(j-1)'s last AF_ODEFER MFMAs (operands in registers) before the rescale decision, \
       * half after it: the MFMA pipe works while the tile-start VALU/SALU work issues */          \
      AF_O_DEFERRED(NAME, 8 - AF_ODEFER, 8 - AF_ODEFER / 2);                                       \
      const float ms = mt * a.scale_log2;                                                         \
      if (tk_wave_any(ms > m[0] + AF_RESCALE)) {                                                  \
        const float mn = fmaxf(m[0], ms);                                                         \
        float alpha[1] = {mn == -INFINITY ? 1.0f : tk_exp2f(m[0] - mn)};                          \
        l[0] *= alpha[0];                                                                         \
        AF_O_DEFERRED(NAME, 8 - AF_ODEFER / 2, 8); /* O(j-1) complete before it is scaled */       \
        tk_rt_zero(pkeep); /* the unconditional MFMAs below add 0 */                              \
        _Pragma("unroll") for (int c = 0; c < NC; ++c) tk_rt_col_bcast(o[c], o[c], alpha, *);     \
        m[0] = mn;                                                                                \
      }                                                                                           \
      float mu[1] = {m[0] == -INFINITY ? 0.0f : m[0]}; /* all masked so far: keep exp2 finite */  \
      AF_O_DEFERRED(NAME, 8 - AF_ODEFER / 2, 8 - AF_OLATE);                                       \
      /* 4-wave interleave: S(j+1)'s MFMAs (on the last tile a discarded product of the stale K   \
       * tile) one at a time, each followed by its share of P(j)'s exp2, column sum and bf16      \
       * conversion; a wave issues in order and an MFMA waits for the busy pipe, so only this     \
       * order (held by scheduling barriers) lets the VALU work run while the MFMA pipe is busy */ \
      NAME##_p_t p;                                                                               \
      NAME##_vpend vp_[NC];                                                                       \
      NAME##_v_t vf_[NC];                                                                         \
      float xs[32];                                                                               \
      tk_f32x2 lsum2 = {0.0f, 0.0f}, t2 = {0.0f, 0.0f};                                           \
      const tk_f32x2 sc2 = {a.scale_log2, a.scale_log2}, mu2 = {mu[0], mu[0]};                    \
      {                                                                                           \
        enum { NG = 8 * NC, EPG = 32 / NG }; /* MFMAs, P elements per lane per MFMA */            \
        _Pragma("unroll") for (int g = 0; g < NG; ++g) {                                          \
          const int c_ = g / 8, r_ = (g / 4) % 2, k_ = g % 4;                                     \
          /* exp2 of this slot's elements before its MFMA (the MFMA issues while the VALU is busy  \
           * with the quarter-rate v_exp_f32), the scaling of each pair in one packed FMA; at a     \
           * chunk start before the chunk's read wait */                                          \
          _Pragma("unroll") for (int e = g * EPG; e < (g + 1) * EPG; ++e) {                       \
            if (e % 2 == 0)                                                                       \
              t2 = (tk_f32x2){SC.f[e / 16][e % 16], SC.f[e / 16][e % 16 + 1]} * sc2 - mu2;        \
            xs[e] = tk_exp2f(t2[e % 2]);                                                          \
          }                                                                                       \
          if (AF_KSPREAD) {                                                                       \
            /* one read of K chunk c_+1 per slot (fragment g % 8), in the exp2's VALU shadow; a     \
             * wait per half chunk (counts above AF_KREAD1_) */                                       \
            if (c_ + 1 < NC) AF_SHIFTED(AF_KREAD1_, c_ + 1);                                      \
            if (g == 0) AF_KWAIT_(0, 1); /* chunk 0 (read after the last barrier); (1, 0) after it */ \
            if (c_ > 0 && g % 4 == 0) {                                                           \
              if (g % 8 == 4 && c_ == NC - 1) AF_KWAIT_(c_, 0);                                   \
              else AF_KWAIT_(c_, 4);                                                              \
            }                                                                                     \
          } else if (g % 8 == 0) {                                                                \
            AF_CHUNK(AF_KREAD_, AF_KWAIT_, c_, AF_RPC);                                               \
          }                                                                                       \
          /* K(j+3)'s global loads, chunk by chunk between the MFMAs (unconditional: beyond skv \
           * they read 0) */                                                                      \
          if (g % 8 == 2) tk_load_issue_mat(KI[c_], mvk, rk, kv0 + 3 * AF_BKV, 32 * c_, tid);       \
          /* V(j)'s first chunk reads AF_VEARLY MFMAs before the O phase (after the last K chunk's \
           * wait): they land under the last S MFMAs instead of stalling the first O MFMA */        \
          if (g == NG - AF_VEARLY) AF_SHIFTED(AF_VREAD_, 0);                                       \
          /* the last AF_OLATE deferred O MFMAs, one per S slot after its exp2 work (AF_OLATE) */    \
          if (g < AF_OLATE) AF_O_DEFERRED(NAME, 8 - AF_OLATE + g, 8 - AF_OLATE + g + 1);           \
          TK_SCHED_BARRIER(0);                                                                    \
          NAME##_f1_t a1, b1;                                                                     \
          NAME##_c1_t s1;                                                                         \
          a1.f[0] = kf_[c_].f[r_ * 4 + k_];                                                       \
          b1.f[0] = qf[c_].f[k_];                                                                 \
          if (c_ == 0 && k_ == 0) tk_rt_zero(s1);                                                 \
          else s1.f[0] = SN.f[r_];                                                                \
          tk_mma_ABt(s1, a1, b1, s1);                                                             \
          SN.f[r_] = s1.f[0];                                                                     \
          TK_SCHED_BARRIER(0);                                                                    \
          /* sum and conversion of the previous slot's elements (their v_exp_f32 results are       \
           * ready by now: no dependency stall, no hazard s_nop) */                               \
          if (g > 0) AF_P_FINISH(g - 1);                                                          \
          TK_SCHED_BARRIER(0);                                                                    \
        }                                                                                         \
        AF_P_FINISH(NG - 1);                                                                      \
      }                                                                                           \
      l[0] += lsum2[0] + lsum2[1]; /* this lane's half of the column (keys in lane ^ 32: the epilogue) */ \
      /* O^T += V^T(j) P^T(j), one MFMA at a time, V chunk reads KLA ahead; between the MFMAs    \
       * S(j+1)'s masks and in-lane column max and V(j+1)'s transposing commit (unit by unit),     \
       * S(j+1)'s cross-lane max (ds_bpermute) after the last V read was waited for */            \
      if (!AF_VMLATE) TK_WAIT_VMCNT(NK); /* V(j+1), K(j+2) in registers; K(j+3) stays in flight */     \
      {                                                                                           \
        /* K(j+2)'s commit (loaded a tile ago) after V(j+2)'s loads are issued, then the tile's one \
         * barrier once V(j)'s last chunk is read (AF_BAR) */                                      \
        enum { NU_ = TK_STAGE_T_UNITS(VS), KC0_ = 8 * NU_ + 2,                                    \
               BAR_ = 8 * (NC - 1) > KC0_ + NC - 1 ? 8 * (NC - 1) : KC0_ + NC - 1 };                 \
        /* d = 64 (256 registers): the V addresses are recomputed here, not kept across the loop */ \
        const uint32_t tv_ = AF_WPE == 1 ? (uint32_t)tid : tk_opaque((uint32_t)tid);              \
        const int kn = kv0 + AF_BKV;                                                              \
        if ((J) + 1 < nt) {                                                                       \
          if (kn + AF_BKV > kv_hi) tk_rt_mask_rows(SN, SN, kv_hi - kn, -INFINITY);                \
          if (a.causal && qw + off - kn < AF_BKV - 1) tk_rt_mask_lower(SN, SN, qw + off - kn, -INFINITY); \
        }                                                                                         \
        float mx = -INFINITY, mo = -INFINITY;                                                     \
        enum { NG = 8 * NC, EPG = 32 / NG };                                                      \
        static_assert(8 * NU_ + 1 < NG && BAR_ + AF_KNLATE < NG, "attn_fwd: the O phase has too few MFMAs for the commits"); \
        static_assert(!AF_VSPREAD || (NC == 4 && NU_ == 2 && NG == 32 && KC0_ == 18 && BAR_ == 24 && AF_KNLATE == 1), \
                      "attn_fwd: AF_VSPREAD's wait count (AF_VSW) was derived for this O-phase schedule"); \
        _Pragma("unroll") for (int g = 0; g < NG; ++g) {                                          \
          const int c_ = g / 8, k_ = g % 8;                                                       \
          if (AF_VSPREAD) {                                                                       \
            /* one read of V chunk c_+1 per slot (fragment k_), a wait per half chunk (AF_VSW) */  \
            if (c_ + 2 < NC) {                                                                    \
              const int vfi_ = k_;                                                                \
              AF_SHIFTED(AF_VREADF_, c_ + 1);                                                     \
            } else if (c_ + 2 == NC && k_ < 4) {                                                  \
              _Pragma("unroll") for (int q_ = 0; q_ < 2; ++q_) {                                  \
                const int vfi_ = 2 * k_ + q_;                                                     \
                AF_SHIFTED(AF_VREADF_, NC - 1);                                                   \
              }                                                                                   \
            }                                                                                     \
            if (g == 0) AF_VWAIT_(0, 1); /* chunk 0 (read in the S phase); (1, 0) after it */      \
            if (c_ > 0 && g % 4 == 0) AF_VWAIT_(c_, AF_VSW);                                      \
          } else if (k_ == 0) {                                                                   \
            /* the wait lets the LDS ops issued since chunk c_'s reads stay outstanding (its      \
             * V commit writes, the column max's ds_bpermute): a constant per chunk */             \
            switch (c_) {                                                                         \
              case 0: AF_CHUNK(AF_VREAD_, AF_VWAIT_, 0, AF_VN(0)); break;                         \
              case 1: AF_CHUNK(AF_VREAD_, AF_VWAIT_, 1, AF_VN(1)); break;                         \
              case 2: AF_CHUNK(AF_VREAD_, AF_VWAIT_, 2 % NC, AF_VN(2 % NC)); break; /* % NC: */   \
              case 3: AF_CHUNK(AF_VREAD_, AF_VWAIT_, 3 % NC, AF_VN(3 % NC)); break; /* as AF_SHIFTED */ \
            }                                                                                     \
          }                                                                                       \
          NAME##_f1_t a1;                                                                         \
          NAME##_b1_t b1;                                                                         \
          NAME##_c1_t o1;                                                                         \
          a1.f[0] = vf_[c_].f[k_];                                                                \
          b1.f[0] = p.f[k_];                                                                      \
          o1.f[0] = o[c_].f[0];                                                                   \
          if (g < NG - AF_ODEFER) {                                                               \
            tk_mma_AB(o1, a1, b1, o1);                                                            \
            o[c_].f[0] = o1.f[0];                                                                 \
          }                                                                                       \
          TK_SCHED_BARRIER(0);                                                                    \
          /* AF_VMLATE: the V(j+1)/K(j+2) load wait after the first O MFMA */                      \
          if (AF_VMLATE && g == 0) TK_WAIT_VMCNT(NK);                                             \
          /* S(j+1)'s in-lane column max in the first quarter, its cross-lane step (ds_bpermute)  \
           * right after; the result is used after the end barrier, its LDS latency long hidden */ \
          if (g < NG / 4)                                                                         \
            _Pragma("unroll") for (int e = g * 4 * EPG; e < (g + 1) * 4 * EPG; ++e)               \
              mx = fmaxf(mx, SN.f[e / 16][e % 16]);                                               \
          if (g == NG / 4) mo = tk_xor_f32(mx, 32); /* the column's other 32 keys: lane ^ 32 */  \
          /* (opaque: the compiler otherwise uses mo, and waits for all LDS ops, right after the  \
           * ds_bpermute) */                                                                      \
          if (g == NG - 1) mt = fmaxf(mx, __builtin_bit_cast(float, tk_opaque(__builtin_bit_cast(uint32_t, mo)))); \
          /* K(j+2)'s stage put in LDS order (the register part of its commit), one chunk tile      \
           * per MFMA; only the ds_writes wait for the end barrier */                             \
          _Pragma("unroll") for (int c2_ = 0; c2_ < NC; ++c2_)                                     \
            if (g == KC0_ + c2_) { tk_load_commit_prep(sm.kv.k[VB_][c2_], KS[c2_], tid, NK + NV); tk_load_commit_prepped(sm.kv.k[VB_][c2_], KS[c2_], tid); } \
          /* V(j+1)'s transposing commit one ds_write per MFMA (slots 1 .. 8 NU_), each unit's    \
           * V(j+2) loads right after that unit is written */                                    \
          /* (on the last tile too: V(nt) goes to the free buffer and is never read; the          \
           * epilogue's LDS barrier orders these writes before its own) */                        \
          if (g >= 1 && g <= 8 * NU_)                                                             \
            tk_load_commit_t_rows(sm.kv.v[KB_], VS, tv_, (g - 1) / 8, (g - 1) % 8, 1);            \
          _Pragma("unroll") for (int u_ = 0; u_ < NU_; ++u_)                                      \
            if (g == 8 * u_ + 9)                                                                  \
              tk_load_issue_t_mat_part(VS, mvv, rv, kv0 + 2 * AF_BKV, 0, tv_, u_, 1); /* V(j+2) */ \
          /* AF_BAR: V(j+1) and K(j+2) written, V(j) and K(j+1) read by every wave; the next tile's \
           * first K chunk crosses the LDS under this tile's last O MFMAs */                       \
          if (g == BAR_) tk_lds_barrier();                                                        \
          /* the next tile's first K chunk AF_KNLATE MFMAs after the barrier: right after it, its     \
           * 8 reads held the next O MFMA back (modeled, v7) */                                     \
          if (g == BAR_ + AF_KNLATE) AF_SHIFTED(AF_KREADN_, 0);                                   \
          TK_SCHED_BARRIER(0);                                                                    \
        }                                                                                         \
      }                                                                                           \
      vkeep = vf_[NC - 1];                                                                        \
      pkeep = p;                                                                                  \
  } while (0)

/* O^T += fragments K0..K1-1 of the last V^T chunk times P^T's (vkeep, pkeep: the previous
 * tile's AF_ODEFER deferred products; zero before the first tile) */
#define AF_O_DEFERRED(NAME, K0, K1)                                                               \
  do {                                                                                            \
    _Pragma("unroll") for (int k_ = (K0); k_ < (K1); ++k_) {                                      \
      NAME##_f1_t a1;                                                                             \
      NAME##_b1_t b1;                                                                             \
      NAME##_c1_t o1;                                                                             \
      a1.f[0] = vkeep.f[k_];                                                                      \
      b1.f[0] = pkeep.f[k_];                                                                      \
      o1.f[0] = o[NC - 1].f[0];                                                                   \
      tk_mma_AB(o1, a1, b1, o1);                                                                  \
      o[NC - 1].f[0] = o1.f[0];                                                                   \
      TK_SCHED_BARRIER(0);                                                                        \
    }                                                                                             \
  } while (0)

#define ATTN_FWD_KERNEL(NAME, D, WPE)                                                                \
  TK_ST(NAME##_kst, tk_bf16, AF_BKV, 32, TK_LDS_SWZ); /* K tile, one per 32 d-columns */          \
  TK_ST(NAME##_vst, tk_bf16, D, AF_BKV, TK_LDS_SWZ);  /* V^T tile: d x keys */                   \
  TK_ST(NAME##_qst, tk_bf16, AF_BQ, D, TK_LDS_SWZ);   /* Q block */                               \
  TK_ST(NAME##_ost, tk_bf16, 32, D, TK_LDS_SWZ);      /* one wave's O rows */                     \
  typedef union {                                                                                 \
    struct { NAME##_kst k[2][(D) / 32]; NAME##_vst v[2]; } kv; /* K(t), V^T(t) in buffers t % 2 */ \
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
  TK_RT(NAME##_ot_t, TK_K_C_F32_32x32, D, 32);        /* all of O^T: the epilogue's store */      \
  TK_RT(NAME##_f1_t, TK_K_A_BF16_32x32x8, 32, 8);     /* one fragment of K or Q */                \
  TK_RT(NAME##_c1_t, TK_K_C_F32_32x32, 32, 32);       /* one fragment of S^T or O^T */            \
  TK_RT(NAME##_b1_t, TK_K_B_BF16_32x32x8, 8, 32);     /* one fragment of P^T */                   \
  TK_PENDING(NAME##_qpend, NAME##_q_t);                                                           \
  TK_PENDING(NAME##_kpend, NAME##_k_t);                                                           \
  TK_PENDING(NAME##_vpend, NAME##_v_t);                                                           \
  __global__ __launch_bounds__(256, WPE) void NAME(attn_fwd_args a)                               \
  {                                                                                               \
    TK_LDS_ALLOC(NAME##_smem, sm);                                                                \
    enum { NC = (D) / 32, AF_WPE = (WPE),  /* 32-wide d-chunks; workgroups per CU */               \
           AF_KLA = (WPE) == 1 ? 2 : 1,    /* chunk reads in flight: AF_CHUNK */                     \
           AF_RPC = 8 };                   /* ds_read_b64 per chunk (K: 64x32, V^T: 32x64) */       \
    const int tid = threadIdx.x;                                                                  \
    const uint32_t wave = tk_wave_id(), lane = tk_lane_id();                                      \
    /* the work item: (Q block, head, batch) and, for a tail split item, its part (-1: whole) */ \
    int qb = (int)blockIdx.x, h = (int)blockIdx.y, b = (int)blockIdx.z, part = -1;                \
    int pid = 0; /* a tail part's slot in the workspace: (item - item0) nsplit + part */         \
    if (a.nqb > 0) {                                                                              \
      /* workgroup i runs on XCD i % 8 (round-robin dispatch, CDNA3 ISA guide 1.2), so each XCD  \
       * gets a contiguous range of slots: whole items (the same heads' K/V share its L2) or a    \
       * tail item's parts (attn_fwd_combine reads them on the same XCD: L2 hits) */             \
      /* unsigned (every term is >= 0): each run-time division ~10 scalar ops fewer than the  \
       * signed expansion, and b from item / nqb / hq reuses the first quotient */               \
      const uint32_t n_ = gridDim.x, x_ = blockIdx.x % 8u;                                        \
      const uint32_t i_ = x_ * (n_ / 8u) + min(x_, n_ % 8u) + blockIdx.x / 8u;                    \
      uint32_t item = i_;                                                                         \
      if (a.nsplit > 1) {                                                                         \
        const uint32_t ns_ = (uint32_t)a.nsplit, iq_ = i_ / ns_;                                  \
        item = (uint32_t)a.item0 + iq_, part = (int)(i_ - iq_ * ns_), pid = (int)i_;              \
      }                                                                                           \
      const uint32_t t_ = item / (uint32_t)a.nqb;                                                 \
      qb = (int)(item - t_ * (uint32_t)a.nqb), h = (int)(t_ % (uint32_t)a.hq), b = (int)(t_ / (uint32_t)a.hq); \
    }                                                                                             \
    const int q0 = qb * AF_BQ;                                                                    \
    const int hk = (int)((uint32_t)h / (uint32_t)a.group);                                        \
    const int off = a.skv - a.sq; /* causal: key j visible to query i iff j <= i + off */         \
    /* Q through a matrix descriptor too (AF_QMAT; rows past sq read 0): its loads issue right \
     * after the argument batch instead of behind the whole-tensor view's 64-bit checks */        \
    const tk_rsrc rq = AF_QMAT ? af_rsrc_mat(&a.q, b, h) : tk_gl_rsrc(&a.q);                      \
    /* K and V through matrix-bounded loads: the descriptor spans matrix (b, hk), so key rows    \
     * past skv read 0 without per-lane checks (tk/loads.h) */                                    \
    const tk_rsrc rk = AF_ARGB ? af_rsrc_mat(&a.k, b, hk) : tk_gl_rsrc_mat(&a.k, b, hk);            \
    const tk_rsrc rv = AF_ARGB ? af_rsrc_mat(&a.v, b, hk) : tk_gl_rsrc_mat(&a.v, b, hk);            \
    const tk_mview mvk = tk_gl_mview(&a.k), mvv = tk_gl_mview(&a.v);                              \
    /* keys [kv_lo, kv_hi): all (causal: up to the block's last visible key), or a part's whole  \
     * tiles (the split is for non-causal problems: attn_fwd_plan) */                              \
    int kv_lo = 0, kv_hi = a.skv;                                                                 \
    if (a.causal && q0 + AF_BQ + off < kv_hi) kv_hi = q0 + AF_BQ + off;                           \
    if (part >= 0) {                                                                              \
      const int tt = (a.skv + AF_BKV - 1) / AF_BKV;                                               \
      kv_lo = AF_BKV * (part * tt / a.nsplit);                                                    \
      kv_hi = min(a.skv, AF_BKV * ((part + 1) * tt / a.nsplit));                                  \
    }                                                                                             \
    /* Q block -> LDS -> this wave's 32 rows in registers, in d-chunks */                         \
    NAME##_q_t qf[NC];                                                                            \
    const int nt = kv_hi > kv_lo ? (kv_hi - kv_lo + AF_BKV - 1) / AF_BKV : 0; /* key tiles (0 when causal hides all) */ \
    NAME##_kstage ks0[NC], ks1[NC]; /* K(j+2) (loaded in tile j-1) and K(j+3) in flight during tile j */ \
    NAME##_vstage vs0;                                                                            \
    enum { NK = NC * TK_STAGE_NLOADS(ks0[0]), NV = TK_STAGE_NLOADS(vs0) };                        \
    {                                                                                             \
      NAME##_qstage qs;                                                                           \
      if (AF_QMAT) tk_load_issue_mat(qs, tk_gl_mview(&a.q), rq, q0, 0, tid);                     \
      else tk_load_issue(qs, &a.q, rq, b, h, q0, 0, tid);                                         \
      /* K(0) and V(0) with Q (AF_KQ): their trip to memory under Q's */                          \
      if (AF_KQ && nt > 0) {                                                                      \
        AF_K_ISSUE(ks0, kv_lo);                                                                   \
        tk_load_issue_t_mat(vs0, mvv, rv, kv_lo, 0, tid);                                         \
        tk_load_commit(sm.q, qs, tid, NK + NV);                                                   \
      } else {                                                                                    \
        tk_load_commit(sm.q, qs, tid, 0);                                                         \
      }                                                                                           \
      tk_lds_barrier();                                                                           \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                            \
        NAME##_qpend qp;                                                                          \
        tk_prefetch_issue(qp, sm.q, 32 * wave, 32 * c);                                           \
        tk_prefetch_wait(qf[c], qp, 0);                                                           \
        if (AF_QAGPR && AF_WPE == 1) tk_rt_in_agpr(qf[c]); /* d128: S reads B from AGPRs, no copies */ \
      }                                                                                           \
      tk_barrier();                                                                               \
    }                                                                                             \
    NAME##_o_t o[NC];                                                                             \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) tk_rt_zero(o[c]);                              \
    float m[1] = {-INFINITY}, l[1] = {0.0f}; /* per query column of this lane (log2 units) */     \
    const int qw = q0 + 32 * (int)wave; /* first query row of this wave */                        \
    NAME##_kpend kp_[NC]; /* K fragment reads; chunk 0's cross the tile boundary */             \
    NAME##_k_t kf_[NC];                                                                           \
    NAME##_s_t s_a, s_b; /* S(j) and S(j+1), alternating */                                       \
    tk_rt_zero(s_a);                                                                              \
    float mt = -INFINITY; /* column max of S(j) (raw scores) */                                   \
    /* prologue: tile 0 in LDS and S(0); tiles 1 (set 1) and 2 (set 0) in flight */               \
    if (nt > 0) {                                                                                 \
      if (!AF_KQ) {                                                                               \
        AF_K_ISSUE(ks0, kv_lo);                                                                   \
        tk_load_issue_t_mat(vs0, mvv, rv, kv_lo, 0, tid);                                         \
      }                                                                                           \
      AF_K_COMMIT(ks0, 0, NV); /* K(0) -> buffer 0 */                                             \
      AF_K_ISSUE(ks1, kv_lo + AF_BKV);                                                            \
      tk_lds_barrier();                                                                           \
      AF_S_PHASE(NAME, s_a);                                                                      \
      tk_load_commit_t(sm.kv.v[0], vs0, tid, NK); /* V(0) -> buffer 0; K(1) in flight */          \
      tk_load_issue_t_mat(vs0, mvv, rv, kv_lo + AF_BKV, 0, tid);                                  \
      AF_K_COMMIT(ks1, 1, NV); /* K(1) -> buffer 1; V(1) in flight */                             \
      AF_K_ISSUE(ks0, kv_lo + 2 * AF_BKV); /* K(2): committed by tile 0 */                        \
      tk_lds_barrier();                                                                           \
      { enum { VB_ = 1 }; AF_SHIFTED(AF_KREADN_, 0); } /* tile 0's first K(1) chunk */          \
      if (kv_lo + AF_BKV > kv_hi) tk_rt_mask_rows(s_a, s_a, kv_hi - kv_lo, -INFINITY);            \
      if (a.causal && qw + off < AF_BKV - 1) tk_rt_mask_lower(s_a, s_a, qw + off, -INFINITY);     \
      float mv[1];                                                                                \
      tk_rt_col_max(mv, s_a);                                                                     \
      mt = mv[0];                                                                                 \
    }                                                                                             \
    /* Software pipeline, per key tile j: S(j+1) = K(j+1) Q^T is issued together with the       \
     * softmax of S(j) (interleaved: the MFMAs run while the VALU works), then O += V(j) P(j).    \
     * LDS holds K(j+1) and V(j) (two barriers per tile); global loads run 2 tiles ahead in two    \
     * alternating register stage sets, so the loop is unrolled by 2. */                          \
    NAME##_v_t vkeep; /* O(j)'s deferred operands (AF_O_DEFERRED), zero before tile 0 */         \
    NAME##_p_t pkeep;                                                                             \
    tk_rt_zero(vkeep);                                                                            \
    tk_rt_zero(pkeep);                                                                            \
    for (int j = 0; j < nt; j += 2) {                                                             \
      AF_TILE(NAME, j, 0, ks0, ks1, vs0, s_a, s_b);                                               \
      if (j + 1 < nt) AF_TILE(NAME, j + 1, 1, ks1, ks0, vs0, s_b, s_a);                           \
    }                                                                                             \
    if (nt > 0) AF_O_DEFERRED(NAME, 8 - AF_ODEFER, 8);                                             \
    /* epilogue: O = (O^T / l)^T, LSE = (m + log2 l) ln 2 */                                       \
    l[0] += tk_xor_f32(l[0], 32); /* the column's other 32 keys were summed in lane ^ 32 */        \
    float inv[1] = {l[0] > 0.0f ? 1.0f / l[0] : 0.0f};                                            \
    if (part >= 0) {                                                                              \
      /* a tail part: O^T / l as f32 straight from the registers and the log2-domain LSE (-inf:  \
       * no key) to the workspace, for attn_fwd_combine; no LDS use, no barrier.  ws_o is          \
       * [pid][d][128 queries] f32, always in range (attn_fwd_ws_bytes < 4 GiB): 32-bit offsets, no \
       * row guard, the lane's base plus a constant per element (accumulator row                   \
       * tk_layout_c_row(32, l, i) = tk_layout_c_row(32, 0, i) + 4 (l / 32)); tk_store_acc_f32's    \
       * 64-bit window arithmetic and per-row checks were ~800 instructions after the last MFMA */  \
      const tk_rsrc rw = tk_gl_rsrc(&a.ws_o);                                                     \
      const uint32_t wb_ = (((uint32_t)pid * (D) + 4u * (lane / 32u)) * AF_BQ + 32u * wave + lane % 32u) * 4u; \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                            \
        tk_rt_scale(o[c], o[c], inv[0]);                                                          \
        _Pragma("unroll") for (int i_ = 0; i_ < (int)NAME##_o_t::tk_n; ++i_)                      \
          tk_buffer_store_b32(rw, wb_ + (uint32_t)((32 * c + tk_layout_c_row(32, 0, i_)) * AF_BQ * 4), \
                              tk_f32_bits(o[c].f[0][i_]));                                        \
      }                                                                                           \
      if (lane < 32) a.ws_lse[(int64_t)pid * AF_BQ + 32 * (int)wave + (int)lane] =                 \
                         l[0] > 0.0f ? m[0] + log2f(l[0]) : -INFINITY;                            \
      return;                                                                                     \
    }                                                                                             \
    /* O's descriptor and row pitch (kernel arguments the compiler reloads after the loop)     \
     * before the packing: their scalar loads land under it instead of stalling the stores */  \
    const tk_rsrc rom = af_rsrc_mat(&a.o, b, h);                                                  \
    const uint32_t op = (uint32_t)(a.o.strides[2] * (int64_t)sizeof(tk_bf16));                   \
    tk_lds_barrier(); /* the last tile's V commit (every wave's writes done) before sm.o */       \
    {                                                                                             \
      /* the d-chunks as one D x 32 tile (fragment c = o[c]): one store call, so its lane terms  \
       * are computed once, not once per chunk; O^T / l as whole-vector products first           \
       * (v_pk_mul_f32: interleaved with the packing the compiler issued 64 v_mul_f32) */        \
      NAME##_ot_t ot;                                                                             \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) ot.f[c] = o[c].f[0];                         \
      tk_rt_scale(ot, ot, inv[0]);                                                                \
      tk_store_acc_lds_t_bf16_rn(sm.o[wave], ot, 0, 0); /* 4 bf16 per ds_write_b64 */             \
    }                                                                                             \
    if (AF_OMAT) {                                                                                \
      /* O through a matrix descriptor (rows past sq land past its range: dropped), offsets in   \
       * 32 bits: no 64-bit window arithmetic or per-lane row select in the epilogue */          \
      tk_lds_barrier();                                                                           \
      /* lane's 16-byte chunk: row r0_ + ORPI_ i_, column c0_ in every iteration; r0_ < 8 shares no \
       * bit with ORPI_ i_ % 16, so the swizzled offset is the lane's base XOR a constant plus an   \
       * immediate (tk_lds_offset_add) and the halves' exchange ((r & 8)) is known per iteration:  \
       * ~2 VALU per store instead of the whole swizzle and 4 v_cndmask */                          \
      enum { OCPR_ = (D) * 2 / 16, OEPC_ = 8, ORPI_ = 64 / OCPR_ };                               \
      static_assert(ORPI_ <= 8 && 32 % ORPI_ == 0, "attn_fwd: O store rows per iteration");        \
      const uint32_t r0_ = lane / OCPR_, c0_ = (lane % OCPR_) * OEPC_;                            \
      const uint32_t ob_ = tk_lds_offset(TK_LDS_SWZ, (D), 2, r0_, c0_) & ~15u;                    \
      const uint32_t gb_ = ((uint32_t)qw + r0_) * op + c0_ * (uint32_t)sizeof(tk_bf16);           \
      _Pragma("unroll") for (int i_ = 0; i_ < 32 / ORPI_; ++i_) {                                 \
        const uint32_t dr_ = ORPI_ * (uint32_t)i_;                                                \
        const uint32_t o_ = tk_lds_offset_add(TK_LDS_SWZ, (D), 2, ob_, dr_, 0) & ~15u;            \
        tk_u32x4 x_ = *(const tk_u32x4 *)((const char *)sm.o[wave].data + o_);                    \
        if (TK_LDS_HALVES(TK_LDS_SWZ) && (dr_ & 8u)) x_ = x_.zwxy;                                \
        tk_buffer_store_b128(rom, gb_ + dr_ * op, x_);                                             \
      }                                                                                           \
    } else {                                                                                      \
      const tk_rsrc ro = tk_gl_rsrc(&a.o);                                                        \
      (void)rom, (void)op;                                                                        \
      tk_lds_barrier();                                                                           \
      tk_store_lds_global(&a.o, ro, b, h, qw, 0, sm.o[wave], lane, 64);                           \
    }                                                                                             \
    const int qi = qw + (int)lane;                                                                \
    if (lane < 32 && qi < a.sq)                                                                   \
      a.lse[((int64_t)b * a.hq + h) * a.sq + qi] =                                                \
          l[0] > 0.0f ? (m[0] + log2f(l[0])) * AF_LN2 : INFINITY;                                 \
  }

ATTN_FWD_KERNEL(attn_fwd_d64, 64, 2)
ATTN_FWD_KERNEL(attn_fwd_d128, 128, 1)

/* Tail split (flash-decoding style) of the last round of work items.  The items
 * ((Q block, head, batch), equal work when non-causal) run in rounds of `slots` = CUs x
 * workgroups per CU; a last round of r < slots items leaves CUs idle for a whole item's
 * time.  Instead the first items - r run as one launch (whole rounds), and the last r as a
 * second launch of g key ranges each (whole tiles), g minimising that launch's span
 * ceil(r g / slots) x ceil(tiles / g) + AF_SPLIT_COST (the merge, in tile times);
 * attn_fwd_combine merges the parts.  Causal problems are not split (their items differ in
 * length).  Returns g (1: no split) and sets *ntail = r. */
#define AF_SPLIT_MIN_TILES 2 /* key tiles per part at least */
#define AF_SPLIT_MAX 16      /* parts per item at most (attn_fwd_combine's weights) */
#define AF_SPLIT_COST 2      /* the merge launch, in key-tile times */
static int attn_fwd_plan(int64_t nqb, int64_t hq, int64_t b, int64_t skv, int d, int causal, int cus, int32_t *ntail)
{
  const int64_t items = nqb * hq * b, slots = (int64_t)cus * (d == 64 ? 2 : 1); /* launch bounds: WPE */
  const int64_t tiles = (skv + AF_BKV - 1) / AF_BKV;
  *ntail = 0;
  if (causal || cus < 1 || items >= ((int64_t)1 << 30)) return 1;
  const int64_t r = items % slots;
  if (r == 0) return 1;
  int64_t best = 1, span1 = tiles;
  for (int64_t g = 2; g <= AF_SPLIT_MAX && tiles / g >= AF_SPLIT_MIN_TILES; ++g) {
    const int64_t span = (r * g + slots - 1) / slots * ((tiles + g - 1) / g) + AF_SPLIT_COST;
    if (span < span1) span1 = span, best = g;
  }
  if (best > 1) *ntail = (int32_t)r;
  return (int)best;
}
/* workspace bytes for a plan: f32 O^T (d x 128) and 128 LSEs per part */
static size_t attn_fwd_ws_bytes(int32_t ntail, int nsplit, int d)
{
  return nsplit > 1 ? (size_t)ntail * (size_t)nsplit * AF_BQ * ((size_t)d + 1) * sizeof(float) : 0;
}

/* Merge of a tail item's parts: per query, LSE = log2 sum_p 2^lse_p and O = sum_p
 * 2^(lse_p - LSE) O_p (each part's O already divided by its own l); a query no part saw a
 * key for gets O = 0, LSE = +inf like the main kernel.  Workgroup (i, c): tail item i, head
 * dims 8c..8c+7 (1-D grid, ranges per XCD below); thread t: query t % 128, dims 8c + 4 (t / 128) .. +3.  A wave's workspace
 * reads are 256 contiguous bytes.  Every part's LSE and O loads are issued before the first
 * use (up to 5 x AF_SPLIT_MAX in flight): the workspace was written on other XCDs, so each
 * wave of loads costs a trip to memory, and one trip instead of one per few parts is most of
 * this launch's time. */
__global__ __launch_bounds__(256) void attn_fwd_combine(attn_fwd_args a, int d)
{
  /* 1-D grid of (tail item, dims 8c..) pairs in contiguous ranges per XCD, as the main kernel's
   * tail parts: an item's parts were written on the XCD that merges them */
  const int n_ = (int)gridDim.x, x_ = (int)blockIdx.x % 8, nc = d / 8;
  const int i_ = x_ * (n_ / 8) + min(x_, n_ % 8) + (int)blockIdx.x / 8, it = i_ / nc;
  const int item = a.item0 + it, qi = (int)threadIdx.x % AF_BQ;
  const int e0 = 8 * (i_ % nc) + 4 * ((int)threadIdx.x / AF_BQ);
  const int qb = item % a.nqb, h = (item / a.nqb) % a.hq, b = item / (a.nqb * a.hq), q = qb * AF_BQ + qi;
  if (q >= a.sq) return;
  const int64_t p0 = (int64_t)it * a.nsplit; /* the item's first part */
  const float *wl = a.ws_lse + p0 * AF_BQ + qi;
  const float *wo = (const float *)a.ws_o.ptr + (p0 * d + e0) * AF_BQ + qi;
  float lp[AF_SPLIT_MAX], x[AF_SPLIT_MAX][4];
#pragma unroll
  for (int p = 0; p < AF_SPLIT_MAX; ++p) {
    lp[p] = -INFINITY;
#pragma unroll
    for (int e = 0; e < 4; ++e) x[p][e] = 0.0f;
    if (p < a.nsplit) { /* wave-uniform */
      lp[p] = wl[p * AF_BQ];
#pragma unroll
      for (int e = 0; e < 4; ++e) x[p][e] = wo[((int64_t)p * d + e) * AF_BQ];
    }
  }
  float mx = -INFINITY;
#pragma unroll
  for (int p = 0; p < AF_SPLIT_MAX; ++p) mx = fmaxf(mx, lp[p]);
  tk_bf16 *op = (tk_bf16 *)a.o.ptr + b * a.o.strides[0] + h * a.o.strides[1] + q * a.o.strides[2] + e0;
  float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f}, sum = 0.0f;
  if (mx != -INFINITY) {
#pragma unroll
    for (int p = 0; p < AF_SPLIT_MAX; ++p) {
      const float w = exp2f(lp[p] - mx); /* 0 for parts without keys and past nsplit */
      sum += w;
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[e] += w * x[p][e];
    }
  }
  const float inv = sum > 0.0f ? 1.0f / sum : 0.0f;
  /* the four dims in one 8-byte store (rows 16-byte aligned: tk_attn.hip's stride check); RNE as
   * tk_f32_to_bf16 */
  const tk_u32x2 ow = {tk_pack_bf16x2_rne(acc[0] * inv, acc[1] * inv), tk_pack_bf16x2_rne(acc[2] * inv, acc[3] * inv)};
  *(tk_u32x2 *)op = ow;
  if (e0 == 0) a.lse[((int64_t)b * a.hq + h) * a.sq + q] = mx == -INFINITY ? INFINITY : (mx + log2f(sum)) * AF_LN2;
}

/* plain forward (a->nqb == 0) or, with a plan (a->nsplit > 1, a->ntail, a->nqb set; ws_o /
 * ws_lse in a workspace of attn_fwd_ws_bytes): the whole items, the tail parts, the merge;
 * three launches in stream order */
static hipError_t attn_fwd_launch(const attn_fwd_args *a, int d, int b, hipStream_t stream)
{
  if (a->nqb == 0) {
    const dim3 grid((unsigned)((a->sq + AF_BQ - 1) / AF_BQ), (unsigned)a->hq, (unsigned)b);
    if (d == 64) hipLaunchKernelGGL(attn_fwd_d64, grid, dim3(256), 0, stream, *a);
    else hipLaunchKernelGGL(attn_fwd_d128, grid, dim3(256), 0, stream, *a);
    return hipGetLastError();
  }
  attn_fwd_args w = *a, t = *a;
  const int32_t items = a->nqb * a->hq * b;
  w.item0 = 0, w.nsplit = 1;
  t.item0 = items - a->ntail;
  const unsigned nw = (unsigned)(items - a->ntail), nt = (unsigned)(a->ntail * a->nsplit);
  if (d == 64) {
    if (nw) hipLaunchKernelGGL(attn_fwd_d64, dim3(nw), dim3(256), 0, stream, w);
    hipLaunchKernelGGL(attn_fwd_d64, dim3(nt), dim3(256), 0, stream, t);
  } else {
    if (nw) hipLaunchKernelGGL(attn_fwd_d128, dim3(nw), dim3(256), 0, stream, w);
    hipLaunchKernelGGL(attn_fwd_d128, dim3(nt), dim3(256), 0, stream, t);
  }
  hipLaunchKernelGGL(attn_fwd_combine, dim3((unsigned)(a->ntail * (d / 8))), dim3(256), 0, stream, t, d);
  return hipGetLastError();
}

#endif /* ATTN_FWD_H */
