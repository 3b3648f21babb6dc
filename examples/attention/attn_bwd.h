/* attn_bwd.h: the flash-attention backward kernels (FlashAttention-2
 * algorithm), built from tk primitives only.  Two modes, three launches each:
 *  default (a.dqa set): attn_bwd_pre (delta, and the f32 dQ sums zeroed),
 *    attn_bwd_d*_dkdvq (dK, dV as below, plus each wave's 32 x 32 block of
 *    dQ = dS K over the workgroup's 128 keys, added to the sums with f32
 *    buffer atomics: 5 matmuls, not 7), attn_bwd_dq_cvt (dQ = scale * sums,
 *    bf16); dQ's summation order varies run to run, dK and dV do not;
 *  deterministic (TK_ATTN_BWD_DETERMINISTIC, a.nparts set): attn_bwd_pre,
 *    attn_bwd_d*_kvdqp launches (dkdvq with dQ into f32 partial sums by
 *    plain loads and stores, in launch order), attn_bwd_dqp_sum1..8 (one per
 *    partial count; no atomics: attn_bwd_dqp.h); with neither set (partials past 3.75 GiB): attn_bwd_pre,
 *    attn_bwd_d*_dkdv, attn_bwd_d*_dq (attn_bwd_dq.h: recomputes S, P, dP, dS).
 * dkdvq: dS (bf16, the B operand's values) goes to an LDS tile of the 4
 * waves' keys before dV/dK's MFMAs (gfx950 d = 128: during them, AB_DS_IN_DV)
 * (AB_DS_PUT: gfx950 transposed, keys x
 * queries, one 8-byte store per B fragment; gfx942 queries x keys, 2-byte
 * stores); after the end-of-tile barrier wave w reads its 32 query rows x 128
 * keys of it (AB_DS_GET: gfx950 by transposing reads) and runs dQ's MFMAs
 * against K^T's 32 rows of its d-block (loaded once, kept in AGPRs), under
 * the next tile's commit; the atomics go out in the next tile (AB_ATOM_C).
 * gfx950, d = 128 (AB_DQ_IN_S): dS^T double-buffered; tile t's dQ MFMAs run in
 * tile t+1's S chunks (32 keys of dS per chunk, read one chunk ahead), where
 * S's MFMAs wait for their chunk reads; the atomics follow S.
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
 * t+1's global loads (and, in dkdv, one LSE or delta value per thread: on
 * gfx950 both by buffer loads, AB_LS_BUF; the row keeps -delta) are
 * issued right after tile t was committed (dq: before the barrier that
 * publishes it; dkdv: after it, between tile t's first chunk reads and their
 * wait, under their latency; gfx950 d = 128 dkdvq, kvdqp, kvdqo: under S's
 * MFMAs, AB_KV_AT) and land under tile t's MFMAs; at the end of tile t a barrier
 * frees the buffer, the stage is written
 * (tk_load_commit / tk_load_commit_t, LSE/delta into a small LDS row) and a
 * second barrier publishes it.  The issue is unconditional (past the last
 * tile the last one again): a conditional issue makes the stage registers a
 * phi, and the compiler's copies then wait for the loads at once.  Operand
 * fragments are read from LDS in 32-wide d-chunks, one chunk ahead of the
 * chunk's MFMAs (tk_prefetch_wait leaves the next chunk's reads in flight).
 * dP (dkdv, both targets: AB_DP_SLOTS, one 32x32x8 MFMA per slot on gfx942,
 * one 32x32x16 on gfx950) and on gfx942 dP^T (dq, AB_DP_INTERLEAVE) go one MFMA
 * at a time with P's exp2 between them: a wave issues in order and an MFMA
 * waits for the busy pipe, so only this order runs the exp2 under the MFMAs.
 * dkdv's start-up: the first query tile's, K's, V's (and dkdvq's K^T) global
 * loads all issued before the first wait.
 * dkdv on gfx950: Q^T and dO^T are not loaded: dV^T's and dK^T's A operands come from the Q
 * and dO tiles by transposing reads (AB_QT_TR, tk_st_load_tr), and the S/dP chunk reads and
 * K_w/V_w by ds_read_b128 (AB_RD_*).  Workgroups of one (kv head, batch) run on one XCD
 * (AB_XCD_ORDER; not the deterministic kvdqp, whose partial is its launch index); causal, the
 * heavy (low) key blocks of a few heads start first on gfx950 (AB_CAUSAL_WGS).
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
/* dq kernel: dP^T one 32x32x8 MFMA at a time with P^T's exp2 between them on gfx942 (the
 * dkdv kernel's proxy went 241.6 -> 226.4 us modeled with it); not on gfx950, where the dq kernel
 * spilled with it (second round) */
#define AB_DP_INTERLEAVE (!TK_HAS_MFMA_F16_X2)
/* dkdv kernels: dP interleaved with P's exp2 on both targets (AB_DP_SLOTS); on gfx950 each slot
 * is one double-rate 32x32x16 MFMA (two K fragments, AB_DP_FG) with its share of the exp2 and the
 * previous share's pair conversions after it: MI355X dkdvq proxy 142.8 -> 137.9 us (modeled; the
 * second round's single 32x32x8 slots had lost there) */
#define AB_KV_INTERLEAVE 1
/* dkdvq: the previous tile's dQ atomics go out at the tile's start (AB_ATOM_C 0: gfx950, after the
 * first chunk reads and the next tile's loads; proxy 125.4 -> 122.9 us) or once S's chunk reads
 * are issued (1: gfx942, MI325X proxy 223.6 us at the start, 220.5 here; modeled) */
/* gfx950 dkdvq (d = 128): tile t's dQ MFMAs in tile t+1's S chunks, between S's MFMAs that wait
 * for their chunk reads (dS^T double-buffered), its atomics then after S (AB_ATOM_C 1): MI355X
 * proxy 108.2 -> 105.8 us (modeled); 0 puts them back under the tile's commit.  Tried and dropped:
 * the whole 32 x 128 dS held in registers across the barrier (115.4: AGPR copies), the next
 * tile's load issue after chunk 0's MFMAs (113.1) */
#ifndef AB_DQ_IN_S
#define AB_DQ_IN_S TK_HAS_DS_READ_TR
#endif
#define AB_ATOM_C (TK_HAS_DS_READ_TR && !AB_DQ_IN_S ? 0 : 1) /* (d = 64 on gfx950: 1 with AB_DQ_IN_S too) */
/* gfx950 dkdvq, kvdqp and kvdqo, d = 128 (AB_DQ_IN_S): the next tile's advance (AB_KV_NEXT) in S
 * chunk AB_KV_NEXT_AT and its loads (AB_KV_ISSUE) in chunk AB_KV_AT, between S's and dQ's MFMAs (the
 * wave waits for the MFMA pipe there), not at the tile start, where they held S's first MFMA
 * ~0.1 us after the second barrier; and the tile's LSE row read after chunk 1's reads
 * (AB_LSE_LATE; chunk 0's wait leaves them in flight: the first MFMAs do not wait for them; P
 * needs them only in dP).  MI355X proxy dkdvq 92.24 -> 87.32 us (tile 1.238 -> 1.161 us), kvdqp
 * 104.07 -> 101.61 (modeled v10, session 46; all at chunk 3: 89.76, at chunk 0 with the late LSE:
 * 92.12, advance at 2: same as 1, loads at 2 / 4: 92.16 / 89.80); kvdqo (its acquire and dQ
 * put stay at chunk 0, before the loads) 118.88 -> 112.75, b16 h16 s1024 486.7 -> 466.5 */
#ifndef AB_LSE_LATE
#define AB_LSE_LATE 1
#endif
#ifndef AB_KV_NEXT_AT
#define AB_KV_NEXT_AT 1
#endif
#ifndef AB_KV_AT
#define AB_KV_AT 3
#endif
static_assert(AB_KV_NEXT_AT <= AB_KV_AT && AB_KV_AT < 8,
              "attn_bwd.h: the next tile's loads (S chunk AB_KV_AT, 0..7) must come at or after its advance (AB_KV_NEXT_AT)");
#define AB_DP_FG (TK_HAS_MFMA_F16_X2 ? 2 : 1) /* K fragments per dP MFMA slot */
/* dkdv kernels, gfx950, d = 128 (AB_BQ 32): dS = P (dP - delta) in four shares, one under each dV
 * chunk's two MFMAs (pinned there by scheduling groups), as unpacked v_add_f32 / v_mul_f32: the
 * packed forms LLVM makes of the pairs (v_pk_add_f32, v_pk_mul_f32) wait for an MFMA's end
 * (docs/tksim-model.md, the MFMA's hold on VALU), so each product goes through tk_opaque, which
 * leaves LLVM's vectorizer no pair to pack.  dO^T's first two chunks are read under the last dP
 * slots (the dS block no longer covers their latency) and dS goes to LDS for dQ under dK's last
 * MFMAs (there, not under dV, its stores do not delay the other waves' transposing reads).
 * MI355X dkdvq proxy 97.2 -> 94.7 us (modeled v10; session 44) */
#ifndef AB_DS_IN_DV
#define AB_DS_IN_DV (TK_HAS_CVT_PK_BF16 && TK_HAS_DS_READ_TR)
#endif
/* dkdv kernels, gfx950, d = 128 (with AB_DS_IN_DV): dK^T's last AB_DK_LATE chunks (2 MFMAs each)
 * run after the end-of-tile barrier, issued after the next tile's commit writes: that window is
 * bound by the four waves' LDS writes and their latency and held one MFMA (LLVM's).  Their Q^T
 * reads go three chunks ahead (not two) and are waited for before the barrier (the commit
 * overwrites the Q tile); with dQ in S (AB_DQ_IN_S) dS's stores are the last LDS ops before it and
 * the wait leaves them (AB_DSP_N, its instructions) in flight: they are read after the second
 * barrier.  MI355X proxy dkdvq 94.68 -> 92.24 us, kvdqp 104.14 -> 104.07 (modeled v10, session 45;
 * 1: unchanged; without the wait, a race: 92.20 / 104.03) */
#ifndef AB_DK_LATE
#define AB_DK_LATE 2
#endif
/* dS's store instructions (AB_DS_PUT at AB_BQ 32: LLVM pairs the four 8-byte stores into two
 * ds_write2_b64); a smaller count only waits longer, a larger one would leave Q^T reads unwaited
 * (tksim's race check in the tests catches that) */
#define AB_DSP_N 2
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
  int32_t kb0, nparts; /* deterministic dQ partials (attn_bwd_dqp.h): first unit of the launch, partials */
  uint32_t *dqo;       /* deterministic ordered dQ (attn_bwd_dqo.h): its flags (zeroed by attn_bwd_pre), else NULL */
  int32_t dqo_rot;     /* its rotated tile order (attn_bwd_dqo.h): 1 on, 0 off */
} attn_bwd_args;

/* delta = rowsum(dO * O): each row's d / 8 16-byte chunks over as many lanes
 * (coalesced: a wave reads whole rows), the chunk sums reduced across those
 * lanes with tk_xor_f32 in a fixed order (deterministic). */
#define AB_PRE_ROWS(d) (256 / ((d) / 8)) /* rows per 256-thread workgroup pass */
/* passes per workgroup of attn_bwd_pre and attn_bwd_dq_cvt (pass p: rows p gridDim.x
 * AB_PRE_ROWS further, so neighbouring workgroups still read neighbouring rows together), every
 * pass's loads issued first.  One pass left pre latency-bound with inputs in the Infinity Cache;
 * more passes cost with inputs from HBM.  MI355X b16 h16 s1024 d128, pre (modeled v10), inputs
 * device / host: 1 pass 47.5 / 63.0 us, 2: 37.9 / 67.2, 4: 37.9 / 69.3, 8: 38.0 / 69.7 (the
 * ordered dQ's, which zeroes no sums: 2 passes 44.4 us host, 1: 50.4) */
#define AB_PRE_PASSES 2
#define AB_PRE_WG_ROWS(d) (AB_PRE_ROWS(d) * AB_PRE_PASSES) /* rows per workgroup (the grid's x: sq / this) */
__global__ __launch_bounds__(256) void attn_bwd_pre(attn_bwd_args a)
{
  const int cpr = (int)a.o.dims[3] / 8; /* 16-byte chunks per row: 8 or 16 */
  const int tid = (int)threadIdx.x, c = tid % cpr, h = (int)blockIdx.y, b = (int)blockIdx.z;
  const int i0 = (int)blockIdx.x * (256 / cpr) + tid / cpr, di = (int)gridDim.x * (256 / cpr);
  const tk_rsrc ro = tk_gl_rsrc(&a.o), rg = tk_gl_rsrc(&a.dout);
  tk_u32x4 vo[AB_PRE_PASSES], vg[AB_PRE_PASSES];
  _Pragma("unroll") for (int p = 0; p < AB_PRE_PASSES; ++p) {
    const int i = i0 + p * di;
    const bool in = i < a.sq;
    const uint32_t oo = in ? (uint32_t)(tk_gl_offset(&a.o, b, h, i, 8 * c) * 2) : TK_OOB_OFFSET;
    const uint32_t og = in ? (uint32_t)(tk_gl_offset(&a.dout, b, h, i, 8 * c) * 2) : TK_OOB_OFFSET;
    vo[p] = tk_buffer_load_b128(ro, oo);
    vg[p] = tk_buffer_load_b128(rg, og);
  }
  _Pragma("unroll") for (int p = 0; p < AB_PRE_PASSES; ++p) {
    const int i = i0 + p * di;
    const bool in = i < a.sq;
    float s = 0.0f;
    _Pragma("unroll") for (int e = 0; e < 4; ++e) {
      s += tk_bf16_to_f32((uint16_t)(vo[p][e] & 0xffffu)) * tk_bf16_to_f32((uint16_t)(vg[p][e] & 0xffffu));
      s += tk_bf16_to_f32((uint16_t)(vo[p][e] >> 16)) * tk_bf16_to_f32((uint16_t)(vg[p][e] >> 16));
    }
    for (int m = 1; m < cpr; m <<= 1) s += tk_xor_f32(s, m);
    if (in && c == 0) a.delta[((int64_t)b * a.hq + h) * a.sq + i] = s;
    /* the fused dQ's sums start at 0: this thread's 8 of row i.  The ordered dQ's first
     * contribution to a block is a store (AB_DQ_PUT): only rows that see no key (causal, sq >
     * skv: no block has them) need the zeros */
    if (in && a.dqa && (!a.dqo || (a.causal && i + a.skv - a.sq < 0))) {
      tk_u32x4 *z = (tk_u32x4 *)(a.dqa + (((int64_t)b * a.hq + h) * a.sq + i) * (8 * cpr) + 8 * c);
      z[0] = tk_u32x4{0u, 0u, 0u, 0u};
      z[1] = tk_u32x4{0u, 0u, 0u, 0u};
    }
    const int bq = cpr == 16 ? 32 : 64; /* the ordered dQ's flags (attn_bwd_dqo.h): 4 per query tile */
    if (in && a.dqo && c == 0 && i % bq == 0)
      *(tk_u32x4 *)(a.dqo + ((((int64_t)b * a.hq + h) * ((a.sq + bq - 1) / bq) + i / bq) * 4)) = tk_u32x4{0u, 0u, 0u, 0u};
  }
}

/* fused dQ, last step: dQ = scale * sums (f32 workspace -> bf16 tensor), 8 elements per thread
 * and pass (grid and rows as attn_bwd_pre); CPR (16-byte chunks per row: d / 8) a constant, so the
 * row and chunk come without a runtime division; gfx950 rounds pairs with v_cvt_pk_bf16_f32
 * (tk_pack_bf16x2_rn, round to nearest even as tk_f32_to_bf16) */
__device__ static inline void attn_bwd_dq_cvt_rows(const attn_bwd_args &a, const int cpr)
{
  const int tid = (int)threadIdx.x, c = tid % cpr, h = (int)blockIdx.y, b = (int)blockIdx.z;
  const int i0 = (int)blockIdx.x * (256 / cpr) + tid / cpr, di = (int)gridDim.x * (256 / cpr);
  const tk_rsrc rq = tk_rsrc_make(a.dqa, a.dqa_bytes), rd = tk_gl_rsrc(&a.dq);
  tk_u32x4 x0[AB_PRE_PASSES], x1[AB_PRE_PASSES];
  _Pragma("unroll") for (int p = 0; p < AB_PRE_PASSES; ++p) { /* rows past sq read 0 (dropped) */
    const int i = i0 + p * di;
    const uint32_t o = i < a.sq ? (uint32_t)(((((int64_t)b * a.hq + h) * a.sq + i) * (8 * cpr) + 8 * c) * 4) : TK_OOB_OFFSET;
    x0[p] = tk_buffer_load_b128(rq, o);
    x1[p] = tk_buffer_load_b128(rq, o + 16u);
  }
  _Pragma("unroll") for (int p = 0; p < AB_PRE_PASSES; ++p) {
    const int i = i0 + p * di;
    tk_u32x4 y;
    _Pragma("unroll") for (int e = 0; e < 4; ++e) {
      const uint32_t lo = e < 2 ? x0[p][2 * e] : x1[p][2 * e - 4], hi = e < 2 ? x0[p][2 * e + 1] : x1[p][2 * e - 3];
#if TK_HAS_CVT_PK_BF16
      y[e] = tk_pack_bf16x2_rn(a.scale * tk_bits_f32(lo), a.scale * tk_bits_f32(hi));
#else
      y[e] = (uint32_t)tk_f32_to_bf16(a.scale * tk_bits_f32(lo)) |
             ((uint32_t)tk_f32_to_bf16(a.scale * tk_bits_f32(hi)) << 16);
#endif
    }
    tk_buffer_store_b128(rd, i < a.sq ? (uint32_t)(tk_gl_offset(&a.dq, b, h, i, 8 * c) * 2) : TK_OOB_OFFSET, y);
  }
}
__global__ __launch_bounds__(256) void attn_bwd_dq_cvt(attn_bwd_args a)
{
  if (a.q.dims[3] == 128) attn_bwd_dq_cvt_rows(a, 16);
  else attn_bwd_dq_cvt_rows(a, 8);
}

/* dkdv kernels, gfx950: a tile's LSE and delta rows by two buffer loads at one offset (a scalar
 * row base): MI355X dkdvq proxy 105.8 -> 103.7 us, 4% fewer instructions (modeled).  gfx942 keeps
 * one clamped 64-bit load of the thread's value: the second live value pushed others into AGPRs
 * there (MI325X proxy 220.8 -> 227.0 us), and so does the deterministic kvdqp (FQ 2: its d = 64
 * kernel spilled an SGPR with the two loads' descriptors) */
#define AB_LS_BUF TK_HAS_DS_READ_TR
/* dkdv kernels: a tensor's matrix (b, h) descriptors for one batch b, head by head, from b's base
 * plus h head strides (tk_mat_heads: tk_attn.hip checked tk_gl_mat_ok on the host; b comes from the
 * grid and h stays in the kv head's group).  Five scalars per tensor where the loop kept a copy of
 * its tk_gl (20): kvdqo spilled SGPRs (17 on gfx950, d = 128), and each head change re-ran the
 * 64-bit checks */
/* dkdv kernel (inside it): issue the query tile of query head H, rows Q0.., and commit the
 * tile of rows Q0.. (the head and rows advance by a counter, not T / ntq, T % ntq: two scalar
 * divisions per tile) */
#define AB_KV_ISSUE(H, Q0)                                                                        \
  do {                                                                                            \
    const int h_ = (H), q_ = (Q0);                                                                \
    if (LSB_) { /* (AB_LS_BUF) row q_ + li_ of the head's LSE and delta (both loaded, the commit keeps \
                      * one): one offset, rows past the array read 0 (buffer range check; rows    \
                      * past sq are replaced at the commit) */                                    \
      const uint32_t lo_ = ((uint32_t)(lsb_ + h_ * a.sq + q_) + (uint32_t)li_) * 4u;              \
      lsl = tk_bits_f32(tk_buffer_load_b32(rls_, lo_));                                           \
      lsd = tk_bits_f32(tk_buffer_load_b32(rdl_, lo_));                                           \
    } else { /* this thread's one value (LSE or delta), clamped to stay inside */                 \
      const int i_ = q_ + li_ < a.sq ? q_ + li_ : a.sq - 1;                                       \
      lsl = lsp[((int64_t)b * a.hq + h_) * a.sq + i_];                                            \
      lsd = lsl;                                                                                  \
    }                                                                                             \
    /* matrix-bounded: rows past sq read 0 in hardware; the head's descriptors (rqm, rgm) are     \
     * remade only when the head changes (AB_KV_NEXT) */                                          \
    const tk_rsrc rqm_ = rqm, rgm_ = rgm;                                                         \
    (void)h_;                                                                                     \
    tk_load_issue_mat(s1, mvq, rqm_, q_, 0, tid);                                                 \
    if (!AB_QT_TR) tk_load_issue_t_mat(t1, mvq, rqm_, q_, 0, tid);                                \
    tk_load_issue_mat(s2, mvg, rgm_, q_, 0, tid);                                                 \
    if (!AB_QT_TR) tk_load_issue_t_mat(t2, mvg, rgm_, q_, 0, tid);                                \
  } while (0)
#define AB_KV_COMMIT(Q0)                                                                          \
  do {                                                                                            \
    const int q_ = (Q0);                                                                          \
    if (AB_QT_TR) { /* Q^T, dO^T come from these tiles by transposing reads (AB_TR_READ) */      \
      tk_load_commit(sm.it.q, s1, tid, NS_);                                                      \
      tk_load_commit(sm.it.g, s2, tid, 0);                                                        \
    } else {                                                                                      \
      tk_load_commit(sm.it.q, s1, tid, NT_ + NS_ + NT_);                                          \
      tk_load_commit_t(sm.it.qt, t1, tid, NS_ + NT_);                                             \
      tk_load_commit(sm.it.g, s2, tid, NT_);                                                      \
      tk_load_commit_t(sm.it.gt, t2, tid, 0);                                                     \
    }                                                                                             \
    if (tid < 2 * BQ_) /* LSE (log2 units), -delta; rows past sq: +inf (P = 0), 0 */ \
      sm.it.ld[tid] = q_ + li_ < a.sq ? (tid < BQ_ ? lsl * AF_LOG2E : -lsd) : (tid < BQ_ ? INFINITY : 0.0f); \
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
        if (FQ_ == 3 && ih == (hk + 1) * a.group) ih = hk * a.group; /* rotated (attn_bwd_dqo.h) */ \
        rqm = FQ_ >= 2 ? tk_mat_heads_rsrc(hq_, ih) : tk_gl_rsrc_mat(&glq, b, ih);                  \
        rgm = FQ_ >= 2 ? tk_mat_heads_rsrc(hg_, ih) : tk_gl_rsrc_mat(&glg, b, ih);                  \
      }                                                                                           \
    }                                                                                             \
  } while (0)

/* dkdv kernel (inside it): element e of this lane's P (accumulator layout) into the bf16 B
 * operand pb, as tk_rt_cvt_c_to_b_bf16_finite places it (register group e % 16 / 4 of row
 * fragment e / 16 is B fragment 4 (e / 16) + e % 16 / 4) */
#define AB_P_CVT(e) (pb.f[((e) / 16) * 4 + ((e) % 16) / 4][(e) % 4] = (int16_t)tk_f32_to_bf16_finite(s.f[(e) / 16][(e) % 16]))

/* dkdv kernels, AB_DP_SLOTS' hooks: the LSE of P's element e (its row's, in lr), and the
 * conversion of slot g-1's EPG_ elements of P to the B operand pb (pairs by v_cvt_pk_bf16_f32
 * where there is one) */
#define AB_LSE_ROW(e) lr[e]
#if TK_HAS_CVT_PK_BF16
#define AB_P_CVT_PREV(g)                                                                          \
  do {                                                                                            \
    if ((g) > 0) {                                                                                \
      if (EPG_ % 2 == 0) {                                                                        \
        _Pragma("unroll") for (int e = ((g) - 1) * EPG_; e < (g) * EPG_; e += 2) {                \
          const uint32_t u_ = tk_pack_bf16x2_rn(s.f[e / 16][e % 16], s.f[e / 16][e % 16 + 1]);     \
          pb.f[(e / 16) * 4 + (e % 16) / 4][e % 4] = (int16_t)(u_ & 0xffffu);                     \
          pb.f[(e / 16) * 4 + (e % 16) / 4][e % 4 + 1] = (int16_t)(u_ >> 16);                     \
        }                                                                                         \
      } else {                                                                                    \
        _Pragma("unroll") for (int e = ((g) - 1) * EPG_; e < (g) * EPG_; ++e) AB_P_CVT(e);       \
      }                                                                                           \
    }                                                                                             \
  } while (0)
#else
#define AB_P_CVT_PREV(g)                                                                          \
  do {                                                                                            \
    if ((g) > 0) _Pragma("unroll") for (int e = ((g) - 1) * EPG_; e < (g) * EPG_; ++e) AB_P_CVT(e); \
  } while (0)
#endif

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

/* dP one MFMA at a time, each followed by its share of P = exp2(S * SC - LSE(e)) (a wave issues
 * in order and an MFMA waits for the busy pipe: only this order, held by scheduling barriers,
 * runs the exp2 under the MFMAs).  Chunk CC (0 .. NCH-1, a constant) of 32 d-columns:
 * DP (BQ x 32 f32 accumulator) += X (BQ x 32 A kind, BQ/32 row fragments x 4 K fragments)
 * times Y^T (32 x 32 A kind, 4 K fragments); FT is a 32-row A tile of 1 or 2 K fragments (two:
 * one double-rate MFMA on gfx950, tk_mma pairs them), CT one 32x32 accumulator fragment; S's
 * elements are split evenly over the NCH * BQ/32 * 4/FG slots; AFTER(g) runs after slot g's
 * exp2 (a macro name: e.g. the previous slot's conversion; AB_DP_NONE for nothing).  Used by
 * the dkdv kernels (P = exp2(S s - LSE_row)) and fit for the dq kernel's P^T (LSE(e) its column
 * value). */
#define AB_DP_NONE(g) ((void)0)
#define AB_DP_SLOTS(DP, X, Y, S, SC, LSE, FT, CT, BQ, NCH, CC, AFTER)                             \
  do {                                                                                            \
    typedef TK_TYPEOF(S) ST_;                                                                     \
    enum { FG_ = (int)FT::tk_frag_count_c, SPC_ = ((BQ) / 32) * (4 / FG_),                        \
           EPG_ = TK_RT_ROWV(ST_) / ((NCH) * SPC_) }; /* P elements per lane per MFMA */         \
    static_assert(EPG_ * (NCH) * SPC_ == TK_RT_ROWV(ST_), "AB_DP_SLOTS: S's elements split unevenly"); \
    TK_SCHED_BARRIER(0);                                                                          \
    _Pragma("unroll") for (int r_ = 0; r_ < (BQ) / 32; ++r_)                                      \
    _Pragma("unroll") for (int k_ = 0; k_ < 4 / FG_; ++k_) {                                      \
      const int g = ((CC) * ((BQ) / 32) + r_) * (4 / FG_) + k_;                                   \
      FT a1_, b1_;                                                                                \
      CT o1_;                                                                                     \
      _Pragma("unroll") for (int j_ = 0; j_ < FG_; ++j_) {                                        \
        a1_.f[j_] = (X).f[r_ * 4 + k_ * FG_ + j_];                                                \
        b1_.f[j_] = (Y).f[k_ * FG_ + j_];                                                         \
      }                                                                                           \
      o1_.f[0] = (DP).f[r_];                                                                      \
      tk_mma_ABt(o1_, a1_, b1_, o1_);                                                             \
      (DP).f[r_] = o1_.f[0];                                                                      \
      if (EPG_ % 2 == 0 && FG_ == 2) { /* gfx950 dkdv: pairs, the scaling one v_pk_fma_f32 (with \
                                        * dS's packed add: MI355X proxy 103.7 -> 101.3 us; gfx942 \
                                        * d = 64 spilled an SGPR with it) */                      \
        _Pragma("unroll") for (int e = g * EPG_; e < (g + 1) * EPG_; e += 2) {                     \
          const tk_f32x2 t2_ = (tk_f32x2){(S).f[e / 16][e % 16], (S).f[e / 16][e % 16 + 1]} *      \
                                   (tk_f32x2){(SC), (SC)} - (tk_f32x2){LSE(e), LSE(e + 1)};      \
          (S).f[e / 16][e % 16] = tk_exp2f(t2_[0]);                                               \
          (S).f[e / 16][e % 16 + 1] = tk_exp2f(t2_[1]);                                           \
        }                                                                                         \
      } else {                                                                                    \
        _Pragma("unroll") for (int e = g * EPG_; e < (g + 1) * EPG_; ++e)                         \
          (S).f[e / 16][e % 16] = tk_exp2f((S).f[e / 16][e % 16] * (SC) - LSE(e));                \
      }                                                                                           \
      AFTER(g);                                                                                   \
      TK_SCHED_BARRIER(0);                                                                        \
    }                                                                                             \
  } while (0)

/* dkdvq kernel (inside it): a wave's 32 x 32 dQ block (rows R0.., columns C0.. of query head H,
 * head dim DD) added to the f32 sums, one atomic per element: a register's 32 lanes cover 32
 * consecutive columns of one row (128 bytes); rows past sq are sent past num_records (dropped).
 * AB_DQ_PUT: ST (wave-uniform) stores the block instead, the first contribution to it in the
 * ordered dQ (rank 0, attn_bwd_dqo.h: its sums are not zeroed first) */
#define AB_STORE_F32(R, OFF, V) tk_buffer_store_b32(R, OFF, tk_f32_bits(V))
#define AB_DQ_ATOMIC(X, H, R0, C0, DD) AB_DQ_PUT_AS(X, H, R0, C0, DD, tk_buffer_atomic_add_f32)
#define AB_DQ_PUT(X, H, R0, C0, DD, ST)                                                           \
  do {                                                                                            \
    if (ST) AB_DQ_PUT_AS(X, H, R0, C0, DD, AB_STORE_F32);                                         \
    else AB_DQ_PUT_AS(X, H, R0, C0, DD, tk_buffer_atomic_add_f32);                                \
  } while (0)
#define AB_DQ_PUT_AS(X, H, R0, C0, DD, OP)                                                        \
  do {                                                                                            \
    const int r0_ = (R0);                                                                         \
    const uint32_t rb_off_ = (uint32_t)((((int64_t)b * a.hq + (H)) * a.sq + r0_) * (DD) + (C0)) * 4u; \
    const uint32_t lo_ = rb_off_ + (uint32_t)(tk_layout_c_row(32, (int)lane, 0) * (DD) + (int)(lane % 32)) * 4u; \
    if (r0_ + 32 <= a.sq) { /* whole block inside: constant offsets from one lane address */     \
      _Pragma("unroll") for (int i = 0; i < 16; ++i)                                              \
        OP(rdqa, lo_ + (uint32_t)(tk_layout_c_row(32, 0, i) * (DD)) * 4u, (X).f[0][i]);           \
    } else {                                                                                      \
      _Pragma("unroll") for (int i = 0; i < 16; ++i) {                                            \
        const int r_ = tk_layout_c_row(32, (int)lane, i);                                         \
        const uint32_t o_ = lo_ + (uint32_t)(tk_layout_c_row(32, 0, i) * (DD)) * 4u;              \
        OP(rdqa, r0_ + r_ < a.sq ? o_ : TK_OOB_OFFSET, (X).f[0][i]);                              \
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

/* dkdvq kernels: where dS goes for dQ.  gfx950 (ds_read_b64_tr_b16): transposed, keys x queries
 * (row pitch AB_DST_RB: 2 AB_BQ bytes + 8 or 16 of padding, so that the 16 lanes of a
 * transposing read (4 rows x 32 bytes) and of a row of 8-byte stores hit distinct banks); each
 * lane's B fragment of dS (4 consecutive queries of one key) is one 8-byte store, and dQ's A
 * operand comes back by transposing reads (tk_rt_load_tr; single-rate fragments, which tk_mma
 * pairs into 32x32x16 MFMAs).  gfx942: queries x keys (swizzled), one 2-byte store per element
 * (AB_DS_STORE), plain fragment reads. */
#define AB_DST_RB(BQ) (2 * (BQ) + ((BQ) == 32 ? 8 : 16))
/* AB_BQ 32 (d = 128): keys in groups of 4 rows of 64 bytes (no padding inside a group), groups
 * AB_DST_GP = 264 bytes apart: a transposing read's 32-lane phase (4 keys x 32 queries) covers
 * the 64 banks once, and a 16-lane phase of the 8-byte stores (16 keys, one column) hits 16
 * distinct 8-byte slots (tksim's gfx950 phases, docs/tksim-checkers.md); the padded rows above
 * left every dS read 2-way conflicted there (MI355X dkdvq proxy 110.6 -> 108.2 us, modeled) */
#define AB_DST_GP(BQ) (8 * (BQ) + 8)
#define AB_DST_ROW(BQ, K) ((BQ) == 32 ? AB_DST_GP(BQ) * ((K) / 4u) + 2 * (BQ) * ((K) % 4u) : (K) * AB_DST_RB(BQ))
#define AB_DST_BYTES(BQ) ((BQ) == 32 ? AB_DST_GP(BQ) * (AB_BK / 4) : AB_BK * AB_DST_RB(BQ))
/* dkdv kernels, gfx950: Q^T and dO^T (the A operands of dK^T, dV^T) read from the Q and dO tiles
 * (queries x d, swizzled) by ds_read_b64_tr_b16 (tk_st_load_tr: each lane's 4 d-values are one
 * 8-byte unit of a query row): no transposed global loads, commits or LDS tiles for them.
 * gfx942: transposed group loads into their own tiles (qt, gt) */
/* dkdv kernels, gfx950: the chunk reads of Q, dO (S's and dP's A operands) and the start-up reads
 * of K_w, V_w (their B^T operands) by ds_read_b128, one per K fragment pair in tk's paired K order
 * (loads.h; both operands of each product alike): half the LDS read instructions and their
 * address registers.  gfx942 (its swizzle exchanges 8-byte halves: selects per read): ds_read_b64 */
#if !TK_LDS_SWZ_HALVES
#define AB_PENDING_RD TK_PENDING_B128
#define AB_RD_ISSUE(P, SM, R0, C0) tk_prefetch_issue_b128(P, SM, R0, C0)
#define AB_RD_WAIT(D, P, N) tk_prefetch_wait_b128(D, P, (N) / 2)
#else
#define AB_PENDING_RD TK_PENDING
#define AB_RD_ISSUE(P, SM, R0, C0) tk_prefetch_issue(P, SM, R0, C0)
#define AB_RD_WAIT(D, P, N) tk_prefetch_wait(D, P, N)
#endif
#if TK_HAS_DS_READ_TR
#define AB_QT_TR 1
#define AB_TR_READ(X, SM, C0) tk_st_load_tr(X, SM, 0, C0)
#else
#define AB_QT_TR 0
#define AB_TR_READ(X, SM, C0) ((void)0)
#endif
#if TK_HAS_DS_READ_TR
#define AB_DS_MEMBER(NAME) NAME##_dstt ds[1 + AB_DQ_IN_S]
#define AB_DS_PUT(SM, X)                                                                          \
  do {                                                                                            \
    char *p_ = (char *)(SM).b + AB_DST_ROW(BQ_, 32u * wave + lane % 32u) + 8u * (lane / 32u);     \
    _Pragma("unroll") for (int j_ = 0; j_ < BQ_ / 8; ++j_)                                        \
      *(tk_i16x4 *)(void *)(p_ + 16 * j_) = (X).f[j_]; /* queries 8 j + 4 (lane / 32) .. +3 */  \
  } while (0)
/* AB_BQ 32: keys 32 C..+31 of the dS tile (32 queries x 32 keys, A kind) into X's fragments
 * F0..F0+3; 8-key fragment fc: key groups 2 fc (lanes 0-31), 2 fc + 1 (32-63) */
#define AB_DS_GET_PART(X, F0, SM, R0, C)                                                          \
  do {                                                                                            \
    const char *p_ = (const char *)(SM).b + 2 * (R0) + 8u * (lane / 32u);                        \
    _Pragma("unroll") for (int fc_ = 0; fc_ < 4; ++fc_)                                           \
      (X).f[(F0) + fc_] = tk_lds_read_tr_32x32x8(p_ + 2 * AB_DST_GP(BQ_) * (4 * (C) + fc_), 2 * BQ_); \
  } while (0)
#define AB_DS_GET(X, SM, R0, PT)                                                                  \
  do {                                                                                            \
    if (BQ_ == 32) { /* all 128 keys: the part reader's 32-key parts */                           \
      _Pragma("unroll") for (int c_ = 0; c_ < AB_BK / 32; ++c_) AB_DS_GET_PART(X, 4 * c_, SM, R0, c_); \
    } else                                                                                        \
      tk_rt_load_tr(X, (const char *)(SM).b + 2 * (R0), AB_DST_RB(BQ_));                          \
  } while (0)
#else
#define AB_DS_MEMBER(NAME) NAME##_dsst ds[1]
#define AB_DS_GET_PART(X, F0, SM, R0, C) ((void)0)
#define AB_DS_PUT(SM, X) AB_DS_STORE(SM, X, dsb_)
#define AB_DS_GET(X, SM, R0, PT) /* PT: X's pending-read type */                                  \
  do {                                                                                            \
    PT dpn_;                                                                                      \
    tk_prefetch_issue(dpn_, SM, R0, 0);                                                           \
    tk_prefetch_wait(X, dpn_, 0);                                                                 \
  } while (0)
#endif
#include "attn_bwd_dqp.h" /* the deterministic mode's dQ partials: AB_DQP_* hooks (FQ 2) */
#include "attn_bwd_dqo.h" /* the deterministic mode's ordered dQ: AB_DQO_* hooks (FQ 3) */

/* dkdv kernels: this workgroup's (key block X, kv head Y, batch Z) in XCD order: the launch's
 * workgroup w runs on XCD w % TK_NUM_XCDS (round-robin dispatch); tk_grid_xcd_remap gives each XCD
 * a contiguous range of logical ids, key block fastest, so the key blocks of one (head, batch)
 * share one L2 for Q, dO (read by each of them) and, causal, every XCD gets heavy and light blocks.
 * Blocks in dispatch order had XCD x hold key block x of every head: MI355X b16 h16 s1024 dkdvq
 * read Q, dO from HBM 8 times (modeled).
 * Causal: a key block's work falls with its index (queries from its first key on), so within
 * windows of about AB_CAUSAL_WGS logical ids (whole heads: G = AB_CAUSAL_WGS / key blocks, at
 * least 1) the ids go key block first, head second: the heavy blocks of G heads start before the
 * light ones, and a CU that finishes a light block early takes a heavy one of the next window
 * (longest first; the last blocks to start are the lightest).  MI355X b16 h16 s1024 causal dkdvq
 * 352.3 -> 322.2 us, GQA h64 hkv8 1041.9 -> 897.2 us (modeled; G 2 / 4 / 16 heads: 345.5 / 325.3 /
 * 325.8 us).  gfx950 only (0: off): on MI325X (38 CUs per XCD) a four-round sample put it at
 * 565.6 -> 601.3 us, but that sample's 152 groups are no whole number of windows, so it is not
 * known either way there; gfx942 keeps the plain order */
#ifndef AB_CAUSAL_WGS
#define AB_CAUSAL_WGS (TK_HAS_DS_READ_TR ? 64 : 0)
#endif
#define AB_XCD_ORDER(X, Y, Z)                                                                     \
  do {                                                                                            \
    const uint32_t nx_ = gridDim.x, ny_ = gridDim.y, n_ = nx_ * ny_ * gridDim.z;                  \
    uint32_t l_ = tk_grid_xcd_remap((uint32_t)(X) + nx_ * ((uint32_t)(Y) + ny_ * (uint32_t)(Z)), n_, TK_NUM_XCDS); \
    const uint32_t g_ = AB_CAUSAL_WGS > 0 && nx_ < AB_CAUSAL_WGS ? AB_CAUSAL_WGS / nx_ : 1u; /* heads per window */ \
    if (a.causal && g_ > 1) {                                                                     \
      const uint32_t wb_ = l_ / (nx_ * g_) * (nx_ * g_), p_ = l_ - wb_;                           \
      const uint32_t gw_ = (n_ - wb_) / nx_ < g_ ? (n_ - wb_) / nx_ : g_; /* (the last window's) */ \
      l_ = wb_ + (p_ % gw_) * nx_ + p_ / gw_;                                                    \
    }                                                                                             \
    (X) = (int)(l_ % nx_);                                                                        \
    (Y) = (int)(l_ / nx_ % ny_);                                                                  \
    (Z) = (int)(l_ / (nx_ * ny_));                                                                \
  } while (0)

/* dkdv kernels' epilogue: dK^T, dV^T (f32) -> bf16 LDS rows of dK, dV.  AB_EP_PK 1: four
 * elements per ds_write_b64, converted in pairs (tk_store_acc_lds_t_bf16: round to nearest even
 * with NaNs kept, as the element form; one v_cvt_pk_bf16_f32 per pair on gfx950); 0: element by
 * element (tk_store_acc_lds_t) */
#ifndef AB_EP_PK
#define AB_EP_PK 1
#endif
#if AB_EP_PK
#define AB_EP_STORE(SM, A, R0, C0) tk_store_acc_lds_t_bf16(SM, A, R0, C0)
#else
#define AB_EP_STORE(SM, A, R0, C0) tk_store_acc_lds_t(SM, A, R0, C0)
#endif

#define ATTN_BWD_KERNELS(NAME, D, AB_BQ)                                                                 \
  TK_ST(NAME##_rst, tk_bf16, AB_BQ, D, TK_LDS_SWZ);   /* AB_BQ rows x d */                         \
  TK_ST(NAME##_tst, tk_bf16, D, AB_BQ, TK_LDS_SWZ);   /* d x AB_BQ (transposed) */                  \
  TK_ST(NAME##_bst, tk_bf16, AB_BK, D, TK_LDS_SWZ);   /* 128 rows x d (start-up) */               \
  TK_ST(NAME##_ost, tk_bf16, 32, D, TK_LDS_SWZ);      /* one wave's 32 output rows */             \
  TK_ST(NAME##_dsst, tk_bf16, AB_BQ, AB_BK, TK_LDS_SWZ); /* dkdvq: dS of the 4 waves (queries x keys) */ \
  TK_ST(NAME##_ktst, tk_bf16, D, AB_BK, TK_LDS_SWZ);  /* dkdvq: K^T of the block (start-up) */     \
  typedef struct { uint64_t b[AB_DST_BYTES(AB_BQ) / 8]; } NAME##_dstt; /* dkdvq, gfx950: dS^T */ \
  typedef union {                                                                                 \
    struct { NAME##_rst q; NAME##_tst qt; NAME##_rst g; NAME##_tst gt; float ld[2 * AB_BQ]; AB_DS_MEMBER(NAME); } it; \
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
  TK_RT(NAME##_fg_t, TK_K_A_BF16_32x32x8, 32, 8 * AB_DP_FG); /* dkdv: one dP MFMA's A (or B^T) */ \
  TK_RT(NAME##_da_t, TK_K_A_BF16_32x32x8, 32, AB_BK); /* dkdvq: 32 rows of dS or of K^T, 128 keys */ \
  TK_PENDING(NAME##_dapend, NAME##_da_t);                                                         \
  TK_PENDING(NAME##_kcpend, NAME##_kc_t);                                                         \
  AB_PENDING_RD(NAME##_kcrd, NAME##_kc_t); /* dkdv: Q, dO chunk reads (AB_RD_ISSUE) */            \
  AB_PENDING_RD(NAME##_qcrd, NAME##_qc_t); /* dkdv: K_w, V_w start-up reads */                    \
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
  AB_DKDV_KERNEL(NAME, D, AB_BQ, NAME##_kvdqp, 2)                                               \
  AB_DKDV_KERNEL(NAME, D, AB_BQ, NAME##_kvdqo, 3)

/* the dK/dV kernel KNAME; FQ 1: dQ += dS K_w too (f32 atomics into a.dqa), see the file head */
#define AB_DKDV_KERNEL(NAME, D, AB_BQ, KNAME, FQ)                                                  \
  __global__ __launch_bounds__(256) void KNAME(attn_bwd_args a)                                   \
  {                                                                                               \
    TK_LDS_ALLOC(NAME##_kv_smem, sm);                                                             \
    enum { BQ_ = AB_BQ, NC = (D) / 32, /* 32-wide d-chunks */                                     \
           RK_ = AB_BQ / 8,            /* ds_read_b64 per chunk of Q, dO (AB_BQ x 32) and of Q^T, dO^T (32 x AB_BQ) */ \
           LSB_ = AB_LS_BUF && FQ != 2, FQ_ = FQ }; /* LSE and delta by buffer loads (AB_LS_BUF) */          \
    const int tid = threadIdx.x;                                                                  \
    const uint32_t wave = tk_wave_id(), lane = tk_lane_id();                                      \
    /* FQ 0/1: the key blocks of one (kv head, batch) on one XCD (tk_grid_xcd_remap: workgroup w  \
     * runs on XCD w % 8), so they read its Q and dO through one L2; FQ 2: a 1-D launch of units  \
     * and its partial's load mask (AB_DQP_UNIT, attn_bwd_dqp.h, groups them by XCD itself) */    \
    int kb_ = (int)blockIdx.x, hk = (int)blockIdx.y, b = (int)blockIdx.z;                         \
    uint32_t dqpm_ = 0u;                                                                          \
    if (FQ != 2 && (FQ != 3 || AB_DQO_XCD_OK())) AB_XCD_ORDER(kb_, hk, b);                       \
    if (FQ == 3) AB_DQO_KB(kb_); /* (attn_bwd_dqo.h) */                                           \
    if (FQ == 2) AB_DQP_UNIT(kb_, hk, b, dqpm_);                                                  \
    const int kv0 = kb_ * AB_BK;                                                                  \
    const int kw = kv0 + 32 * (int)wave; /* first key of this wave */                             \
    const int off = a.skv - a.sq;                                                                 \
    const tk_rsrc rk = tk_gl_rsrc(&a.k), rv = tk_gl_rsrc(&a.v);                                   \
    int qs = 0; /* causal: queries below kv0 - off see none of these keys */                      \
    if (a.causal && kv0 - off > 0) qs = ((kv0 - off) / AB_BQ) * AB_BQ;                            \
    /* tiles t = 0 .. nt-1 walk the group's query heads, each over its query tiles from qs */     \
    const int ntq = qs < a.sq ? (a.sq - qs + AB_BQ - 1) / AB_BQ : 0, nt = ntq * a.group;         \
    /* tile t+1 in flight during tile t: Q, Q^T, dO, dO^T stages and one LSE or delta value per   \
     * thread (threads 0..AB_BQ-1: LSE of row tid, AB_BQ..2 AB_BQ-1: delta; issued first, so the  \
     * stage commits' counts do not include it; the compiler waits for it itself; AB_LS_BUF: both \
     * values per thread, the commit keeps one) */                                                \
    NAME##_rstage s1, s2;                                                                         \
    NAME##_tstage t1, t2;                                                                         \
    const tk_mview mvq = tk_gl_mview(&a.q), mvg = tk_gl_mview(&a.dout);                           \
    const tk_mat_heads hq_ = tk_gl_mat_heads(&a.q, b), hg_ = tk_gl_mat_heads(&a.dout, b); /* Q's, dO's heads */ \
    const tk_gl glq = a.q, glg = a.dout; /* FQ 0, 1: local copies (the address of a kernel argument \
                                          * taken in the loop put the argument in scratch) */     \
    float lsl = 0.0f, lsd = 0.0f;                                                                 \
    enum { NS_ = TK_STAGE_NLOADS(s1), NT_ = TK_STAGE_NLOADS(t1) };                                \
    const int li_ = tid % AB_BQ;                                                                  \
    /* LSE and delta ([b][hq][sq] f32, below 4 GiB as dQ's sums): buffer loads, first row of batch b */ \
    const uint32_t lsn_ = (uint32_t)((int64_t)a.q.dims[0] * a.hq * a.sq * 4);                     \
    const tk_rsrc rls_ = tk_rsrc_make(a.lse, lsn_), rdl_ = tk_rsrc_make(a.delta, lsn_);           \
    const int lsb_ = b * a.hq * a.sq;                                                             \
    const float *lsp = tid < AB_BQ ? a.lse : a.delta; /* (!AB_LS_BUF) */                          \
    (void)rls_, (void)rdl_, (void)lsb_, (void)lsp;                                                \
    /* the tile last issued (query head ih, rows iq..; its index ni) and the one last committed */ \
    int ih = hk * a.group, iq = qs, ni = 0, cq = qs, ch = ih;                                     \
    AB_DQO_START(ih, iq, cq, ch); /* FQ 3: its state, the rotated start (attn_bwd_dqo.h) */      \
    tk_rsrc rqm = FQ_ >= 2 ? tk_mat_heads_rsrc(hq_, ih) : tk_gl_rsrc_mat(&glq, b, ih);           \
    tk_rsrc rgm = FQ_ >= 2 ? tk_mat_heads_rsrc(hg_, ih) : tk_gl_rsrc_mat(&glg, b, ih);           \
    /* dkdvq: the previous tile's dQ block and its head and first row; its atomics go out in the   \
     * next tile (AB_ATOM_C; no wait for the dQ MFMAs before the barrier) */                      \
    NAME##_oc_t dqc;                                                                              \
    int pq0 = 0, ph0 = 0;                                                                         \
    enum { DQS_ = AB_DQ_IN_S && AB_BQ == 32 && FQ != 3 }; /* dQ in the next tile's S chunks (gfx950, d = 128) */ \
    enum { DSV_ = AB_DS_IN_DV && AB_BQ == 32 }; /* dS under dV's MFMAs (AB_DS_IN_DV) */          \
    enum { KVL_ = AB_DQ_IN_S && AB_BQ == 32 && FQ != 0 }; /* (AB_KV_AT, AB_LSE_LATE: dkdvq, kvdqp, kvdqo) */ \
    enum { DKL_ = DSV_ && FQ != 3 ? AB_DK_LATE : 0 }; /* dK^T's last chunks after the end-of-tile barrier */ \
    if (nt > 0) AB_KV_ISSUE(ih, iq); /* the first query tile's loads, before K's and V's: all in flight \
                                      * together (committed after the K/V start-up tiles are read) */ \
    /* K_w and V_w in registers as 32-column chunks */                                            \
    NAME##_qc_t kf[NC], vf[NC];                                                                   \
    /* K, V (and for dkdvq K^T) loads all in flight at once: one global latency, not three */     \
    NAME##_ktstage kst;                                                                           \
    enum { NKT_ = FQ ? TK_STAGE_NLOADS(kst) : 0 };                                                \
    {                                                                                             \
      NAME##_bstage st, st2;                                                                      \
      NAME##_qcrd pk[NC], pv[NC];                                                                 \
      tk_load_issue(st, &a.k, rk, b, hk, kv0, 0, tid);                                            \
      tk_load_issue(st2, &a.v, rv, b, hk, kv0, 0, tid);                                           \
      if (FQ) tk_load_issue_t(kst, &a.k, rk, b, hk, kv0, 0, tid);                                 \
      tk_load_commit(sm.init.k, st, tid, TK_STAGE_NLOADS(st2) + NKT_);                            \
      tk_load_commit(sm.init.v, st2, tid, NKT_);                                                  \
      tk_lds_barrier();                                                                           \
      /* every chunk read in flight at once: one LDS latency, not 2 NC (MI355X b16 h16 s1024 d128: \
       * dkdvq 423.4 -> 422.4 us, kvdqo 523.8 -> 522.2, modeled v10) */                           \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                            \
        AB_RD_ISSUE(pk[c], sm.init.k, 32 * wave, 32 * c);                                         \
        AB_RD_ISSUE(pv[c], sm.init.v, 32 * wave, 32 * c);                                         \
      }                                                                                           \
      _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                            \
        AB_RD_WAIT(kf[c], pk[c], 0);                                                              \
        AB_RD_WAIT(vf[c], pv[c], 0);                                                              \
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
      NAME##_dapend pn;                                                                           \
      tk_load_commit_t(sm.ikt, kst, tid, 0);                                                      \
      tk_lds_barrier();                                                                           \
      tk_prefetch_issue(pn, sm.ikt, 32 * cb_, 0);                                                 \
      tk_prefetch_wait(ktf, pn, 0);                                                               \
      tk_rt_in_agpr(ktf);                                                                         \
      tk_barrier();                                                                               \
    }                                                                                             \
    const tk_rsrc rdqa = tk_rsrc_make(FQ == 2 ? AB_DQP_BASE() : a.dqa, FQ ? a.dqa_bytes : 0u);    \
    uint32_t dql[16]; /* FQ 2: this tile's partial sums so far (attn_bwd_dqp.h) */              \
    /* this lane's first dS element (row 4 (lane / 32), key column 32 wave + lane % 32) in sm.it.ds */ \
    const uint32_t dsb_ = tk_st_offset(NAME##_dsst, (uint32_t)tk_layout_c_row(32, (int)lane, 0), 32u * wave + lane % 32); \
    (void)dsb_; /* (gfx950 stores dS transposed: AB_DS_PUT) */                                    \
    NAME##_oc_t dk[NC], dv[NC]; /* 32 d-rows of dK^T, dV^T each */                                \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                              \
      tk_rt_zero(dk[c]);                                                                          \
      tk_rt_zero(dv[c]);                                                                          \
    }                                                                                             \
    if (nt > 0) AB_KV_COMMIT(iq);                                                                 \
    tk_lds_barrier();                                                                             \
    for (int t = 0; t < nt; ++t) {                                                                \
      const int q0 = cq, h0 = ch;                                                                 \
      const uint32_t z_ = 0u; /* chunk read addresses loop invariant (one workgroup per CU anyway) */ \
      /* per-row LSE (log2 units) of the rows this lane holds, read before the chunk reads (their \
       * waits then cover these too; gfx950 d = 128: after chunk 1's reads, AB_LSE_LATE); delta   \
       * after them (not needed before dS: fewer reads before the first MFMA) */                  \
      float lr[TK_RT_ROWV(NAME##_s_t)], dr[TK_RT_ROWV(NAME##_s_t)];                               \
      if (AB_KV_INTERLEAVE && !(KVL_ && AB_LSE_LATE)) AB_LSE_READ(lr, 0);                         \
      NAME##_s_t s, dp;                                                                           \
      NAME##_tc_t tc[2 * NC]; /* dV^T's, dK^T's A operands (dO^T, Q^T chunks) */                  \
      NAME##_p_t pb, sb; /* P, dS as bf16 B operands */                                           \
      tk_rt_zero(s);                                                                              \
      tk_rt_zero(dp);                                                                             \
      /* S = Q K_w^T, then dP = dO V_w^T by 32-column chunks, each chunk's reads issued one chunk \
       * ahead (the wait leaves the next chunk's RK_ reads in flight); dP one MFMA at a time, each \
       * followed by its share of P = exp2(S s - LSE) (a wave issues in order and an MFMA waits for \
       * the busy pipe: only this order, held by scheduling barriers, runs the exp2 under them) */ \
      {                                                                                           \
        NAME##_kcrd xp[2 * NC];                                                                   \
        NAME##_kc_t xc[2 * NC];                                                                   \
        NAME##_qc_t dsp[2]; /* AB_DQ_IN_S: the previous tile's dS, 32 keys per chunk, one ahead */ \
        if (FQ && DQS_ && t > 0) AB_DS_GET_PART(dsp[0], 0, sm.it.ds[(t - 1) & 1], 0, 0);       \
        AB_RD_ISSUE(xp[0], sm.it.q, z_, 0);                                                       \
        _Pragma("unroll") for (int c = 0; c < 2 * NC; ++c) {                                      \
          if (FQ && DQS_ && t > 0 && c + 1 < NC)                                            \
            AB_DS_GET_PART(dsp[(c + 1) % 2], 0, sm.it.ds[(t - 1) & 1], 0, c + 1);                   \
          if (c == NC - 1) { /* delta (and LSE, gfx950) early: their latency had split the dS block */ \
            AB_LSE_READ(dr, BQ_);                                                                 \
            if (!AB_KV_INTERLEAVE && !FQ) AB_LSE_READ(lr, 0); /* (dkdvq: 16 more live registers spill one) */ \
          }                                                                                       \
          if (c + 1 < NC) AB_RD_ISSUE(xp[c + 1], sm.it.q, z_, 32 * (c + 1));                      \
          else if (c + 1 < 2 * NC) AB_RD_ISSUE(xp[c + 1], sm.it.g, z_, 32 * (c + 1 - NC));        \
          if (AB_KV_INTERLEAVE && KVL_ && AB_LSE_LATE && c == 0) AB_LSE_READ(lr, 0); /* (AB_LSE_LATE) */ \
          if (FQ == 3 && c == 0 && t > 0) { /* in order, before the loads (attn_bwd_dqo.h) */    \
            AB_DQO_ACQUIRE(); /* (ph0, pq0) */                                                             \
            AB_DQ_PUT(dqc, ph0, pq0 + 32 * rb_, 32 * cb_, D, dqo_rank_ == 0u);                    \
          }                                                                                       \
          /* tile t+1's loads (the stage is free: tile t was committed), under the first chunk   \
           * reads' latency (gfx950 d = 128: under S's MFMAs, AB_KV_AT); unconditional, see the    \
           * loop's end */                                                                        \
          if (c == (KVL_ ? AB_KV_NEXT_AT : 0)) AB_KV_NEXT();                                       \
          if (c == (KVL_ ? AB_KV_AT : 0)) AB_KV_ISSUE(ih, iq);                                     \
          if (FQ == 1 && c == AB_ATOM_C * NC && t > 0) AB_DQ_ATOMIC(dqc, ph0, pq0 + 32 * rb_, 32 * cb_, D); \
          if (FQ == 3 && c == NC) AB_DQO_PEEK(h0, q0); /* this tile's flag, read a tile early */  \
          if (FQ == 2 && c == NC) { /* the previous tile's block, then this tile's sums so far */ \
            if (t > 0) AB_DQP_STORE(dqc, dql, ph0, pq0 + 32 * rb_, 32 * cb_, D);                  \
            AB_DQP_LOAD(dql, h0, q0 + 32 * rb_, 32 * cb_, D);                                     \
          }                                                                                       \
          if (c == NC && AB_KV_INTERLEAVE) { /* S complete: its masks before P */                 \
            if (q0 + AB_BQ > a.sq) tk_rt_mask_rows(s, s, a.sq - q0, -INFINITY);                   \
            if (kw + 32 > a.skv) tk_rt_mask_cols(s, s, a.skv - kw, -INFINITY);                    \
            if (a.causal && q0 + off - kw < 31) tk_rt_mask_upper(s, s, q0 + off - kw, -INFINITY); \
          }                                                                                       \
          /* (AB_DQ_IN_S, dkdvq) dsp[c+1]'s 4 reads, issued just before xp[c+1], stay in flight: RK_ \
           * alone waited for them (MI355X proxy 94.72 -> 94.68 us, modeled v10; session 44) */      \
          enum { DQW_ = DQS_ ? 8 : 0 };                                                           \
          enum { LLW_ = KVL_ && AB_LSE_LATE ? 8 : 0 }; /* (AB_LSE_LATE: chunk 0's wait leaves them in flight) */ \
          if (LLW_ > 0 && c == 0 && FQ == 1 && t > 0) AB_RD_WAIT(xc[c], xp[c], RK_ + DQW_ + LLW_); \
          else if (LLW_ > 0 && c == 0) AB_RD_WAIT(xc[c], xp[c], RK_ + LLW_);                      \
          else if (FQ == 1 && DQS_ && t > 0 && c + 1 < NC) AB_RD_WAIT(xc[c], xp[c], RK_ + DQW_);  \
          else if (c + 1 < 2 * NC) AB_RD_WAIT(xc[c], xp[c], RK_);                                 \
          else AB_RD_WAIT(xc[c], xp[c], 0);                                                       \
          if (DSV_ && c == 2 * NC - 1) { /* dO^T's first two chunks under the last dP slots (after \
                                          * the wait above, which would otherwise include them) */ \
            AB_TR_READ(tc[0], sm.it.g, 0);                                                        \
            AB_TR_READ(tc[1], sm.it.g, 32);                                                       \
          }                                                                                       \
          if (c < NC) {                                                                           \
            tk_mma_ABt(s, xc[c], kf[c], s);                  /* S = Q K_w^T */                    \
            if (FQ && DQS_ && t > 0) { /* the previous tile's dQ block, keys 32 c..+31 */   \
              NAME##_qc_t kb_;                                                                    \
              if (c == 0) tk_rt_zero(dqc);                                                        \
              _Pragma("unroll") for (int j_ = 0; j_ < 4; ++j_) kb_.f[j_] = ktf.f[4 * c + j_];      \
              tk_mma_ABt(dqc, dsp[c % 2], kb_, dqc);                                              \
            }                                                                                     \
          } else if (!AB_KV_INTERLEAVE) {                                                         \
            tk_mma_ABt(dp, xc[c], vf[c - NC], dp);           /* dP = dO V_w^T */                  \
          } else { /* dP = dO V_w^T by single MFMAs, P's exp2 between them; each slot converts \
                    * the previous slot's P (one behind: no wait for the v_exp_f32) */           \
            AB_DP_SLOTS(dp, xc[c], vf[c - NC], s, a.scale_log2, AB_LSE_ROW, NAME##_fg_t, NAME##_c1_t, \
                        AB_BQ, NC, c - NC, AB_P_CVT_PREV);                                        \
          }                                                                                       \
        }                                                                                         \
      }                                                                                           \
      if (AB_KV_INTERLEAVE) { /* the last slot's P */                                             \
        enum { EPG_ = TK_RT_ROWV(NAME##_s_t) / (NC * (AB_BQ / 32) * (4 / AB_DP_FG)) };            \
        AB_P_CVT_PREV(NC * (AB_BQ / 32) * (4 / AB_DP_FG));                                        \
      }                                                                                           \
      NAME##_tcpend tp[2 * NC];                                                                   \
      if (!AB_QT_TR) tk_prefetch_issue(tp[0], sm.it.gt, z_, 0); /* dO^T's first chunk under the conversions */ \
      else if (!DSV_) { /* gfx950: dO^T's first two chunks (the loop below reads two chunks ahead) */ \
        AB_TR_READ(tc[0], sm.it.g, 0);                                                            \
        AB_TR_READ(tc[1], sm.it.g, 32);                                                           \
      }                                                                                           \
      if (!AB_KV_INTERLEAVE) {                                                                    \
        if (FQ) AB_LSE_READ(lr, 0);                                                               \
        if (q0 + AB_BQ > a.sq) tk_rt_mask_rows(s, s, a.sq - q0, -INFINITY);                       \
        if (kw + 32 > a.skv) tk_rt_mask_cols(s, s, a.skv - kw, -INFINITY);                        \
        if (a.causal && q0 + off - kw < 31) tk_rt_mask_upper(s, s, q0 + off - kw, -INFINITY);     \
        tk_rt_exp2_row(s, s, a.scale_log2, lr); /* P */                                           \
      }                                                                                           \
      if (!AB_KV_INTERLEAVE) AB_CVT_B(pb, s);                                                     \
      if (!DSV_) {                                                                                \
        tk_rt_row_bcast(dp, dp, dr, +); /* dr: -delta (AB_KV_COMMIT), an add pairs into v_pk_add_f32 */ \
        tk_rt_mul(dp, s, dp); /* dS */                                                            \
        AB_CVT_B(sb, dp);                                                                         \
        if (FQ) AB_DS_PUT(sm.it.ds[DQS_ ? t & 1 : 0], sb); /* dS for dQ (published by the end-of-tile barrier) */ \
      }                                                                                           \
      /* dV^T += dO^T P, then dK^T += Q^T dS, by 32 d-rows, reads one chunk ahead */              \
      _Pragma("unroll") for (int c = 0; c < 2 * NC; ++c) {                                        \
        /* (not AB_READ_ROWS here: fewer instructions, slower: dkdv proxy 191.9 -> 197.9 us,       \
         * MI355X 126.6 -> 139.7, modeled) */                                                     \
        if (AB_QT_TR) { /* gfx950: from the dO and Q tiles (queries x d) by transposing reads, two \
                         * chunks ahead of their MFMAs (held there by the scheduling barrier) */ \
          if (c + 2 < NC) AB_TR_READ(tc[c + 2], sm.it.g, 32 * (c + 2));                           \
          else if (c + 2 < 2 * NC - DKL_) AB_TR_READ(tc[c + 2], sm.it.q, 32 * (c + 2 - NC));      \
          if (DKL_ > 0 && c + 3 >= 2 * NC - DKL_ && c + 3 < 2 * NC) /* (AB_DK_LATE) three ahead */ \
            AB_TR_READ(tc[c + 3], sm.it.q, 32 * (c + 3 - NC));                                    \
          TK_SCHED_BARRIER(0);                                                                    \
        } else {                                                                                  \
          if (c + 1 < NC) tk_prefetch_issue(tp[c + 1], sm.it.gt, z_ + 32 * (c + 1), 0);           \
          else if (c + 1 < 2 * NC) tk_prefetch_issue(tp[c + 1], sm.it.qt, z_ + 32 * (c + 1 - NC), 0); \
          if (c + 1 < 2 * NC) tk_prefetch_wait(tc[c], tp[c], RK_);                                \
          else tk_prefetch_wait(tc[c], tp[c], 0);                                                 \
        }                                                                                         \
        if (c < NC) tk_mma_AB(dv[c], tc[c], pb, dv[c]);            /* dV^T += dO^T P */           \
        else if (c < 2 * NC - DKL_) tk_mma_AB(dk[c - NC], tc[c], sb, dk[c - NC]); /* dK^T += Q^T dS */ \
        if (DSV_ && c < NC) { /* dS's share c (AB_DS_IN_DV): elements 4c..4c+3, unpacked, as B pairs */ \
          enum { EPC_ = TK_RT_ROWV(NAME##_s_t) / NC };                                            \
          _Pragma("unroll") for (int e = c * EPC_; e < (c + 1) * EPC_; ++e)                        \
            dp.f[e / 16][e % 16] = tk_bits_f32(tk_opaque(tk_f32_bits((dp.f[e / 16][e % 16] + dr[e]) * s.f[e / 16][e % 16]))); \
          _Pragma("unroll") for (int e = c * EPC_; e < (c + 1) * EPC_; e += 2) {                   \
            const uint32_t u_ = tk_pack_bf16x2_rn(dp.f[e / 16][e % 16], dp.f[e / 16][e % 16 + 1]);   \
            sb.f[(e / 16) * 4 + (e % 16) / 4][e % 4] = (int16_t)(u_ & 0xffffu);                    \
            sb.f[(e / 16) * 4 + (e % 16) / 4][e % 4 + 1] = (int16_t)(u_ >> 16);                    \
          }                                                                                       \
          TK_SCHED_GROUP(TK_SCHED_MFMA, 1, 0); /* each of the chunk's MFMAs, then half the share */ \
          TK_SCHED_GROUP(TK_SCHED_VALU, 5, 0);                                                    \
          TK_SCHED_GROUP(TK_SCHED_MFMA, 1, 0);                                                    \
          TK_SCHED_GROUP(TK_SCHED_VALU, 5, 0);                                                    \
        }                                                                                         \
        /* dS for dQ: AB_DQ_IN_S, under dK's last MFMAs (the last reads issued; read after the       \
         * second barrier, tk_lds_barrier's wait covers the stores); else (read after the first      \
         * barrier) under dV's last, so the waits of dK's reads cover the stores; AB_DK_LATE with \
         * AB_DQ_IN_S: after the loop, the last LDS ops before the end-of-tile barrier */            \
        if (DSV_ && FQ && c == (DQS_ ? (DKL_ > 0 ? -1 : 2 * NC - 2) : NC - 1)) AB_DS_PUT(sm.it.ds[DQS_ ? t & 1 : 0], sb); \
      }                                                                                           \
      /* one LDS buffer: free it, put tile t+1 in, start tile t+2's loads; unconditional (past    \
       * the last tile the last one again, never read): under a branch the stage registers become \
       * a phi, and the compiler's copies wait for the loads right after they are issued */      \
      if (DKL_ > 0 && DQS_ && FQ) { /* (AB_DK_LATE) dS's stores last; the late chunks' Q^T reads done before \
                           * other waves write the tiles (their MFMAs no longer wait for them) */    \
        TK_SCHED_BARRIER(0);                                                                      \
        AB_DS_PUT(sm.it.ds[t & 1], sb);                                                           \
        TK_SCHED_BARRIER(0);                                                                      \
        TK_WAIT_LGKMCNT(AB_DSP_N);                                                                \
      } else if (DKL_ > 0) TK_WAIT_LGKMCNT(0);                                                    \
      tk_barrier();                                                                               \
      if (FQ && !DQS_) { /* this wave's dQ block of tile t, its MFMAs under the commit */   \
        NAME##_da_t dsa;                                                                          \
        AB_DS_GET(dsa, sm.it.ds[0], 32 * rb_, NAME##_dapend);                                     \
        tk_rt_zero(dqc);                                                                          \
        tk_mma_ABt(dqc, dsa, ktf, dqc); /* dQ block = dS K over the 128 keys */                   \
      }                                                                                           \
      if (FQ) pq0 = q0, ph0 = h0;                                                                 \
      cq = iq; /* tile t+1 (the last one again past the end) */                                   \
      ch = ih;                                                                                    \
      AB_KV_COMMIT(cq);                                                                           \
      if (DKL_ > 0) { /* (AB_DK_LATE) under the commit's write latency, issued after its writes */ \
        TK_SCHED_BARRIER(0);                                                                      \
        _Pragma("unroll") for (int c = 2 * NC - DKL_; c < 2 * NC; ++c)                            \
          tk_mma_AB(dk[c - NC], tc[c], sb, dk[c - NC]);                                           \
        TK_SCHED_BARRIER(0);                                                                      \
      }                                                                                           \
      tk_lds_barrier();                                                                           \
    }                                                                                             \
    if (FQ && DQS_ && nt > 0) { /* the last tile's dQ block (its dS published by the barrier) */ \
      NAME##_da_t dsa;                                                                            \
      AB_DS_GET(dsa, sm.it.ds[(nt - 1) & 1], 32 * rb_, NAME##_dapend);                            \
      tk_rt_zero(dqc);                                                                            \
      tk_mma_ABt(dqc, dsa, ktf, dqc);                                                             \
    }                                                                                             \
    if (FQ == 1 && nt > 0) AB_DQ_ATOMIC(dqc, ph0, pq0 + 32 * rb_, 32 * cb_, D); /* the last tile's */ \
    if (FQ == 3 && nt > 0) {                                                                      \
      AB_DQO_ACQUIRE(); /* (ph0, pq0) */                                                                   \
      AB_DQ_PUT(dqc, ph0, pq0 + 32 * rb_, 32 * cb_, D, dqo_rank_ == 0u);                          \
      AB_DQO_RELEASE();                                                                           \
    }                                                                                             \
    if (FQ == 2 && nt > 0) AB_DQP_STORE(dqc, dql, ph0, pq0 + 32 * rb_, 32 * cb_, D);            \
    tk_barrier(); /* the epilogue tiles alias the query tiles other waves may still read */      \
    _Pragma("unroll") for (int c = 0; c < NC; ++c) {                                              \
      tk_rt_scale(dk[c], dk[c], a.scale);                                                         \
      AB_EP_STORE(sm.ep[wave].k, dk[c], 0, 32 * c);                                               \
      AB_EP_STORE(sm.ep[wave].v, dv[c], 0, 32 * c);                                               \
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
  /* attn_bwd_pre's grid, attn_bwd_dq_cvt's too */
  const dim3 gp((unsigned)((a->sq + AB_PRE_WG_ROWS(d) - 1) / AB_PRE_WG_ROWS(d)), (unsigned)a->hq, (unsigned)b);
  hipLaunchKernelGGL(attn_bwd_pre, gp, dim3(256), 0, stream, pa);
  const dim3 gkv((unsigned)((a->skv + AB_BK - 1) / AB_BK), (unsigned)hkv, (unsigned)b);
  const dim3 gq((unsigned)((a->sq + AF_BQ - 1) / AF_BQ), (unsigned)a->hq, (unsigned)b);
  if (a->nparts) { /* deterministic: kvdqp launches, then the partials' sum (attn_bwd_dqp.h) */
    if (d == 64) AB_DQP_LAUNCH(attn_bwd_d64_kvdqp, a, d, b, hkv, stream);
    else AB_DQP_LAUNCH(attn_bwd_d128_kvdqp, a, d, b, hkv, stream);
  } else if (a->dqa) { /* (a->dqo: the deterministic ordered dQ, attn_bwd_dqo.h) */
    if (a->dqo) hipLaunchKernelGGL(d == 64 ? attn_bwd_d64_kvdqo : attn_bwd_d128_kvdqo, gkv, dim3(256), 0, stream, *a);
    else if (d == 64) hipLaunchKernelGGL(attn_bwd_d64_dkdvq, gkv, dim3(256), 0, stream, *a);
    else hipLaunchKernelGGL(attn_bwd_d128_dkdvq, gkv, dim3(256), 0, stream, *a);
    hipLaunchKernelGGL(attn_bwd_dq_cvt, gp, dim3(256), 0, stream, *a);
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
