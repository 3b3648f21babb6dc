/* attn_bwd_dqo.h: the deterministic backward's dQ by ordered accumulation
 * (attn_bwd_d*_kvdqo, TK_ATTN_BWD_DETERMINISTIC where attn_bwd_dqo_use says
 * so): the default's fused kernel (dkdvq: dQ blocks added into one f32
 * [b][hq][sq][d] sum with f32 atomics, then attn_bwd_dq_cvt), with the
 * contributions to each dQ block added in a fixed order of key blocks:
 * bitwise repeatable with the default's memory traffic (no partials).
 *  - A wave's 32 x 32 dQ block of query tile (head h, rows q0..) has a flag
 *    (u32 [b][hq][ceil(sq/BQ)][4 waves], zeroed by attn_bwd_pre): before its
 *    atomics the wave of key block kb waits until the flag reaches kb's rank
 *    among the tile's contributors (tk_flag_wait_geq, agent-scope acquire),
 *    after them it releases rank + 1 (tk_flag_release: its atomics complete
 *    first).  Each element then takes its adds in rank order, whatever the
 *    timing.
 *  - Order: non-causal, key blocks ascending (every key block contributes to
 *    every tile; all start at query row 0, so kb trails kb - 1 by about half
 *    a tile); causal, descending (the contributors of tile q0 are key blocks
 *    0 .. L(q0) = (q0 + BQ + skv - sq - 1) / 128, capped at the last; rank
 *    L - kb): key block kb starts 128 / BQ tiles above kb + 1, so kb + 1 has
 *    passed each of kb's tiles before kb reaches it and nobody waits.
 *  - No deadlock: a wave waits only for the previous key block in that order,
 *    and the grid puts that key block's workgroup before its own in dispatch
 *    order (causal: key blocks reversed, AB_DQO_KB); the dispatcher starts
 *    workgroups in order and a started workgroup runs to its end, so the
 *    oldest unfinished workgroup's predecessor has finished and it proceeds
 *    (induction).  With the XCD grouping (AB_XCD_ORDER: XCD x runs logical
 *    ids [x N/8, (x+1) N/8) in their order) the predecessor, the previous
 *    logical id, stays on the same XCD and earlier when a (kv head, batch)'s
 *    key blocks never straddle two XCDs' ranges: b * hkv a multiple of 8
 *    (then N/8 is a whole number of them); otherwise the kernel keeps the
 *    dispatch order itself (slower: a head's key blocks on 8 L2s).  Nothing
 *    depends on occupancy or on how many workgroups are resident (gfx942 and
 *    gfx950 alike).  Under tksim --model-sample the predecessor is on XCD 0
 *    and earlier, so it is simulated (with b * hkv a multiple of 8).
 *  - Rotated order (a.dqo_rot; non-causal, gfx950's choice, TK_ATTN_BWD_DQ_ROT
 *    0 / 1 forces it off / on): see attn_bwd_dqo_rotate; its waits also go to
 *    later-dispatched key blocks of the same kv group (N <= 32 workgroups,
 *    contiguous in one XCD's order, N <= CUs / 8), so the group must be
 *    resident at once.  It is: the dispatcher starts groups in order, round
 *    robin over the XCDs, stalling while the next one does not fit; if it
 *    stalls at a group on XCD y, y holds at least CUs / 8 >= N groups, so the
 *    earliest unfinished kv group Gy there has all its key blocks started
 *    (were one missing, only Gy's blocks, fewer than N, could be resident on
 *    y), and its waits stay inside Gy: it completes and frees a CU
 *    (induction).  tksim's functional exec admits groups the same way (one
 *    per CU, 32 per XCD: sim/exec/exec.c take_group).
 *  - Acquire: in the rotated order (which needs the XCD grouping,
 *    AB_DQO_XCD_OK) a tile's contributors run on one XCD and their adds are RMW atomics, which bypass L1 and meet in
 *    that XCD's L2: the wait needs no acquire fence (tk_flag_wait_geq_seen_rmw,
 *    flag.h says why); otherwise the agent-scope acquire.
 * Hardware facts: in-order workgroup dispatch, XCD round robin (grid.h);
 * the memory model of tk/flag.h (AMDGPUUsage GFX942: release waits for the
 * wave's earlier atomics, vmcnt(0), and writes back L2, buffer_wbl2 sc1; the
 * acquire invalidates, buffer_inv sc1; tksim does not model their cache
 * effects, only their issue). */
#ifndef ATTN_BWD_DQO_H
#define ATTN_BWD_DQO_H

#ifndef ATTN_BWD_H
#error "attn_bwd_dqo.h is included by attn_bwd.h, not on its own"
#endif

#include "attn_bwd_dqo_rank.h" /* attn_bwd_dqo_rank, AB_DQO_ROT */
static_assert((1 << AB_DQO_BK_LOG2) == AB_BK, "attn_bwd_dqo.h: the causal rank's shift AB_DQO_BK_LOG2 is not log2(AB_BK)");

/* the dkdv kernels' query tile (AB_BQ) for head dim d */
#define AB_DQO_BQ(d) ((d) == 64 ? 64 : 32)
/* flags (u32) of the ordered dQ: 4 per query tile per query head and batch */
static inline int64_t attn_bwd_dqo_flags(int64_t b, int64_t hq, int64_t sq, int64_t d)
{
  return b * hq * ((sq + AB_DQO_BQ(d) - 1) / AB_DQO_BQ(d)) * 4;
}

/* inside AB_DKDV_KERNEL (FQ 3), after AB_XCD_ORDER: causal grids run key blocks last to first
 * (each waits for the one above it, which must come earlier in dispatch order) */
#define AB_DQO_KB(KB)                                                                            \
  do {                                                                                            \
    if (a.causal) (KB) = (int)gridDim.x - 1 - (KB);                                               \
  } while (0)
/* FQ 3: the XCD grouping keeps a wave's predecessor earlier on its XCD (b * hkv a multiple of 8) */
#define AB_DQO_XCD_OK() (((uint32_t)gridDim.y * (uint32_t)gridDim.z) % (uint32_t)TK_NUM_XCDS == 0u)
/* the rotated order (1: on, stride AB_DQO_ROT tiles; `c` 0 turns it off): non-causal (causal key blocks need no rotation: see
 * the head); 2..32 key blocks of a kv group (8 until session 45, then the partials: MI355X b16 h16
 * d128 deterministic s2048 2.4894 -> 1.8468 ms, s4096 9.4122 -> 6.9524, the plain order 2.3125 /
 * 8.7323; modeled v10), at most one per CU of an XCD (`cus` / 8: the whole group resident at once, the head's argument); b * hkv
 * a multiple of 8 (the group on one XCD, contiguous: AB_DQO_XCD_OK); at least AB_DQO_ROT tiles per
 * key block and kv group (c >= 1) */
static inline int attn_bwd_dqo_rotate(int64_t b, int64_t hq, int64_t hkv, int64_t sq, int64_t skv, int64_t d,
                                      int causal, int cus, int c)
{
  const int64_t n = (skv + AB_BK - 1) / AB_BK, t = (sq + AB_DQO_BQ(d) - 1) / AB_DQO_BQ(d) * (hq / hkv);
  return !(causal || n < 2 || n > 32 || n > cus / 8 || (b * hkv) % 8 != 0 || t < AB_DQO_ROT * n || c < 1);
}
/* inside AB_DKDV_KERNEL (FQ 3): the first tile (query head IH, rows IQ; the committed CQ, CH) of
 * key block kb_ in the rotated order: tile c kb_ of its nt */
#define AB_DQO_START(IH, IQ, CQ, CH)                                                              \
  uint32_t dqo_seen_ = 0u, dqo_rank_ = 0u; /* the peeked flag, the rank of the block in flight */ \
  uint32_t *dqo_rel_ = NULL; /* its flag, released before the next acquire */                    \
  const uint32_t dqo_ntq_ = (uint32_t)(a.sq + BQ_ - 1) / (uint32_t)BQ_;                           \
  /* gridDim.x in a register: read in the loop, it is reloaded from the kernel arguments after    \
   * every flag access (an atomic: the compiler may not keep memory values across it) */         \
  const int dqo_nkb_ = (int)gridDim.x;                                                            \
  /* a tile's contributors on one XCD, their adds in one L2 (rotated order: attn_bwd_dqo_rotate    \
   * chose it for b hkv % 8 == 0, tested here on the grid as launched): the fence-free wait */    \
  const int dqo_one_l2_ = a.dqo_rot && AB_DQO_XCD_OK();                                           \
  /* this block's rank constants (attn_bwd_dqo_rank) */                                          \
  const attn_bwd_dqo_rk dqo_rk_ = attn_bwd_dqo_rank_k(a.causal, a.dqo_rot, kb_, dqo_nkb_, (int)dqo_ntq_, BQ_, off, a.skv); \
  uint32_t dqo_nrank_ = 0u, *dqo_nflag_ = NULL; /* the peeked tile's rank and flag */           \
  (void)dqo_seen_, (void)dqo_rank_, (void)dqo_rel_, (void)dqo_ntq_, (void)dqo_nkb_, (void)dqo_one_l2_; \
  (void)dqo_rk_, (void)dqo_nrank_, (void)dqo_nflag_;                                              \
  if (FQ_ == 3 && a.dqo_rot) {                                                                    \
    const int r_ = AB_DQO_ROT * kb_;                                                              \
    (IH) += r_ / ntq;                                                                             \
    (IQ) = (r_ % ntq) * BQ_;                                                                      \
    (CQ) = (IQ);                                                                                  \
    (CH) = (IH);                                                                                  \
  }
/* the flag of this wave's dQ block in query tile (H, rows Q0..) and this block's rank there */
#define AB_DQO_FLAG(H, Q0)                                                                        \
  (a.dqo + ((((uint32_t)b * (uint32_t)a.hq + (uint32_t)(H)) * dqo_ntq_ + (uint32_t)(Q0) / (uint32_t)BQ_) * 4u + wave))
#define AB_DQO_RANK(H, Q0) attn_bwd_dqo_rank(&dqo_rk_, (Q0) / BQ_ + ((H) - hk * a.group) * dqo_rk_.rh)
/* before the wave's atomics into the tile last peeked (at the next tile's start, before its
 * loads): the previous block's release, then this one's predecessors' adds done */
#define AB_DQO_ACQUIRE()                                                                          \
  do {                                                                                            \
    AB_DQO_RELEASE();                                                                             \
    dqo_rank_ = dqo_nrank_;                                                                       \
    dqo_rel_ = dqo_nflag_;                                                                        \
    if (dqo_one_l2_) /* adds in one L2: no acquire fence (tk_flag_wait_geq_seen_rmw; MI355X     \
                      * kvdqo 538.1 -> 524.0 us at b16 h16 s1024 d128, modeled v10) */           \
      tk_flag_wait_geq_seen_rmw(dqo_rel_, dqo_rank_, dqo_seen_);                                  \
    else                                                                                          \
      tk_flag_wait_geq_seen(dqo_rel_, dqo_rank_, dqo_seen_);                                      \
  } while (0)
/* mid-tile: the flag of this tile's block (H, Q0), read for its acquire at the next tile's start
 * (with its address and this block's rank there, made once) */
#define AB_DQO_PEEK(H, Q0)                                                                        \
  do {                                                                                            \
    dqo_nflag_ = AB_DQO_FLAG(H, Q0);                                                              \
    dqo_nrank_ = (uint32_t)AB_DQO_RANK(H, Q0);                                                        \
    dqo_seen_ = tk_flag_peek(dqo_nflag_);                                                         \
  } while (0)
/* after them: the next may add.  At the next acquire (a tile later, after the commit waited for
 * the stage's loads: the release's vmcnt(0) then finds the atomics done, where at the tile's end
 * it waited for the next tile's loads) and after the last */
#define AB_DQO_RELEASE()                                                                          \
  do {                                                                                            \
    if (dqo_rel_) tk_flag_release(dqo_rel_, dqo_rank_ + 1u);                                      \
  } while (0)

#endif /* ATTN_BWD_DQO_H */
