/* dqo_rank.c: the ordered dQ's rank formula (attn_bwd_dqo_rank, attn_bwd_dqo_rank.h) against
 * the three orders of attn_bwd_dqo.h's head written out plainly, on the host.  A key block's rank
 * in a query tile is its place in the order in which the tile's contributors add into the dQ block:
 *  - plain (non-causal): every key block contributes, ascending: rank = kb;
 *  - causal: the contributors are the key blocks with a key some row of the tile sees (key j,
 *    row i: j <= i + skv - sq, found here by trying every pair), descending;
 *  - rotated (non-causal, stride c = AB_DQO_ROT): key block k walks the kv group's T tiles
 *    starting at tile c k and wrapping, so it reaches tile u at step (u - c k) mod T; the
 *    contributors add in the order of those steps.
 * For every small shape below, every key block and every tile it visits (the kernel's walk: causal
 * blocks start at the tile holding row kv0 - (skv - sq)), the formula's rank must equal the
 * position of the block in that list.  Nothing here shares code with the formula. */
#include <stdio.h>

#include "attn_bwd_dqo_rank.h"

#define BK 128 /* keys per key block (attn_bwd.h AB_BK; the formula shifts by AB_DQO_BK_LOG2) */

static int fails, checks;

/* does key block k have a key that a row of tile q0 (rows q0 .. q0+bq-1 below sq) sees? */
static int causal_contributes(int k, int q0, int bq, int sq, int skv)
{
  for (int i = q0; i < q0 + bq && i < sq; ++i)
    for (int j = k * BK; j < (k + 1) * BK && j < skv; ++j)
      if (j <= i + skv - sq) return 1;
  return 0;
}

/* the reference rank of key block kb in tile (head offset h, rows q0) */
static int ref_rank(int causal, int rot, int kb, int n, int h, int q0, int bq, int sq, int skv, int ntq, int group)
{
  int order[64], m = 0;
  if (causal) {
    for (int k = n - 1; k >= 0; --k)
      if (causal_contributes(k, q0, bq, sq, skv)) order[m++] = k;
  } else if (rot) {
    const int t = ntq * group, u = h * ntq + q0 / bq;
    for (int step = 0; step < t; ++step) /* blocks in the order they reach tile u */
      for (int k = 0; k < n; ++k)
        if (((u - AB_DQO_ROT * k) % t + t) % t == step) order[m++] = k;
  } else {
    for (int k = 0; k < n; ++k) order[m++] = k;
  }
  for (int r = 0; r < m; ++r)
    if (order[r] == kb) return r;
  return -1; /* not a contributor: the walk should not visit the tile */
}

static void check_shape(int causal, int rot, int bq, int sq, int skv, int group)
{
  const int n = (skv + BK - 1) / BK, ntq = (sq + bq - 1) / bq, off = skv - sq;
  if (rot && (causal || n < 2 || n > 8 || ntq * group < AB_DQO_ROT * n)) return; /* attn_bwd_dqo_rotate's cases */
  for (int kb = 0; kb < n; ++kb) {
    const attn_bwd_dqo_rk k = attn_bwd_dqo_rank_k(causal, rot, kb, n, ntq, bq, off, skv);
    const int kv0 = kb * BK, qs = causal && kv0 - off > 0 ? (kv0 - off) / bq * bq : 0;
    for (int h = 0; h < group; ++h)
      for (int q0 = qs; q0 < sq; q0 += bq) {
        const int got = attn_bwd_dqo_rank(&k, q0 / bq + h * k.rh);
        const int want = ref_rank(causal, rot, kb, n, h, q0, bq, sq, skv, ntq, group);
        ++checks;
        if (got != want) {
          if (++fails <= 10)
            fprintf(stderr, "dqo_rank: FAIL: %s bq %d sq %d skv %d group %d: key block %d, head %d, rows %d: rank %d, want %d\n",
                    causal ? "causal" : rot ? "rotated" : "plain", bq, sq, skv, group, kb, h, q0, got, want);
        }
      }
  }
}

int main(void)
{
  static const int lens[] = {1, 31, 32, 33, 64, 100, 127, 128, 129, 200, 256, 300, 511, 700, 1000, 1024};
  const int nl = (int)(sizeof lens / sizeof lens[0]);
  for (int bqi = 0; bqi < 2; ++bqi)
    for (int a = 0; a < nl; ++a)
      for (int b = 0; b < nl; ++b)
        for (int group = 1; group <= 3; ++group) {
          const int bq = bqi ? 64 : 32;
          check_shape(0, 0, bq, lens[a], lens[b], group);
          check_shape(1, 0, bq, lens[a], lens[b], group);
          check_shape(0, 1, bq, lens[a], lens[b], group);
        }
  if (fails) {
    fprintf(stderr, "dqo_rank: %d of %d ranks wrong\n", fails, checks);
    return 1;
  }
  printf("dqo_rank: all ok (%d ranks: plain, causal, rotated)\n", checks);
  return 0;
}
