/* attn_bwd_dqo_rank.h: the ordered dQ's rank of a key block in a query tile (the three orders are
 * described in attn_bwd_dqo.h's head), host and device, in plain C: attn_bwd_dqo.h's kvdqo kernels
 * use it, and tests/attention/dqo_rank.c checks it on the host against each order written out (no
 * HIP header needed: tk/target.h's qualifiers are empty in a plain C compile). */
#ifndef ATTN_BWD_DQO_RANK_H
#define ATTN_BWD_DQO_RANK_H

#include <assert.h>
#include <tk/target.h>

/* the rotated order's stride in tiles (attn_bwd_dqo_rotate), a power of two: the rank shifts by
 * its log */
#ifndef AB_DQO_ROT_LOG2
#define AB_DQO_ROT_LOG2 1
#endif
#define AB_DQO_ROT (1 << AB_DQO_ROT_LOG2)
static_assert(AB_DQO_ROT_LOG2 >= 0 && AB_DQO_ROT_LOG2 <= 7,
              "attn_bwd_dqo_rank.h: the rotated order's stride 1 << AB_DQO_ROT_LOG2 goes up to 128 tiles");
/* log2 of the keys per key block (attn_bwd.h's AB_BK, which attn_bwd_dqo.h checks against it):
 * the causal rank's shift */
#define AB_DQO_BK_LOG2 7

/* a key block's rank in a query tile: its place in the order of the adds into the tile's dQ block.
 *  - plain (non-causal, not rotated): kb;
 *  - causal (key blocks descending): L - kb, L = min((q0 + BQ + skv - sq - 1) / 128, (skv - 1) / 128)
 *    the tile's last contributor;
 *  - rotated (stride c = AB_DQO_ROT; non-causal, all N key blocks of a kv group resident at once,
 *    c N <= T tiles each): key block k starts at tile c k and wraps, so tile u (its index in the
 *    group's walk) is visited by key block min(u / c, N - 1) = L first, then L - 1, ..., 0, then
 *    N - 1, ..., L + 1, c tiles apart: each finds its predecessor's adds done.  k's rank: L - k,
 *    plus N when u < c k.
 * One form for the three, so a tile computes one formula (all three with selects cost ~35 scalar
 * instructions a tile: MI355X b16 h16 s1024 d128 kvdqo 514.8 -> 507.5 us with the rotated one alone,
 * modeled v10): min((v ra + rb) >> rs, rm) - kb + (v < rw ? n : 0), v = q0 / BQ + (h - the group's
 * first head) rh, the order's constants below (v ra + rb >= 0 on every tile a block visits: causal
 * blocks start at qs, whose first tile's last row sees key kv0). */
typedef struct { int rh, ra, rb, rs, rm, rw, n, kb; } attn_bwd_dqo_rk;
TK_HDI attn_bwd_dqo_rk attn_bwd_dqo_rank_k(int causal, int rot, int kb, int n, int ntq, int bq, int off, int skv)
{
  attn_bwd_dqo_rk k = {0, 0, 2 * kb, 0, 2 * kb, 0, n, kb}; /* plain: min(2 kb, 2 kb) - kb */
  if (causal) k.ra = bq, k.rb = bq + off - 1, k.rs = AB_DQO_BK_LOG2, k.rm = (skv - 1) / (1 << AB_DQO_BK_LOG2);
  else if (rot) k.rh = ntq, k.ra = 1, k.rb = 0, k.rs = AB_DQO_ROT_LOG2, k.rm = n - 1, k.rw = AB_DQO_ROT * kb;
  return k;
}
TK_HDI int attn_bwd_dqo_rank(const attn_bwd_dqo_rk *k, int v)
{
  const int l = (v * k->ra + k->rb) >> k->rs;
  return (l < k->rm ? l : k->rm) - k->kb + (v < k->rw ? k->n : 0);
}

#endif /* ATTN_BWD_DQO_RANK_H */
