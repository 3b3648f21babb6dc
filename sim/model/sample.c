/* sample.c: spread-out sampling for grids of unequal groups.
 *
 * --model-sample=N alone simulates XCD 0's first N rounds and lets the rest
 * of its list repeat their durations, which is right only when the work
 * pattern repeats within those rounds. Causal attention's groups do work that
 * grows or shrinks with their block's place in the causal triangle, and the
 * pattern repeats only every batch (forward) or never (backward, grid order
 * head/batch/key block): covering it took N/256 rounds, so N^2 CPU time.
 *
 * --model-spread[=G] instead simulates N chunks of `slots` consecutive groups
 * of XCD 0's list (a round's worth each, so co-resident groups are neighbours
 * as in the real dispatch), evenly spaced over one period of the list, the
 * first at its start (the launch ramp) and the last at its end (the tail,
 * which decides when the dispatch ends). The other groups take the measured
 * durations interpolated linearly between the chunks' means, by place in the
 * period: exact for work linear in the place (a causal triangle's rows), and
 * the error of a smooth profile shrinks with N. The whole list is then list-
 * scheduled from time 0 on the XCD's slots as the dispatcher hands them out.
 * Deterministic: places, durations and the schedule do not depend on the host.
 */
#include <stdlib.h>
#include "model/sample.h"

static uint64_t gcd64(uint64_t a, uint64_t b)
{
  while (b) { uint64_t t = a % b; a = b; b = t; }
  return a;
}

uint64_t tks_spread_period_x(uint64_t g, uint32_t xcds)
{
  if (!g || !xcds) return 0;
  if (g == UINT64_MAX) return UINT64_MAX;
  uint64_t l = g / gcd64(g, xcds); /* lcm(g, xcds) / xcds */
  return l;
}

int tks_spread_plan(tks_spread *sp, uint64_t nx, uint64_t period_x, uint32_t slots, uint64_t rounds)
{
  sp->nx = nx;
  sp->period = period_x && period_x < nx ? period_x : nx;
  sp->slots = slots;
  sp->chunks = 0;
  if (!slots || !rounds || rounds > sp->period / slots || sp->period <= rounds * slots) return 0;
  sp->chunks = (uint32_t)rounds;
  return 1;
}

/* first place of chunk c: evenly spaced from 0 to period - slots (one chunk:
 * the middle); spacing > slots, so chunks never overlap */
static uint64_t chunk_start(const tks_spread *sp, uint64_t c)
{
  uint64_t span = sp->period - sp->slots;
  if (sp->chunks == 1) return span / 2;
  return c * span / (sp->chunks - 1);
}

uint64_t tks_spread_pick(const tks_spread *sp, uint64_t k)
{
  return chunk_start(sp, k / sp->slots) + k % sp->slots;
}

double tks_spread_cycles(const tks_spread *sp, const uint64_t *pos, const double *dur, uint64_t n)
{
  const uint64_t P = sp->period, S = sp->slots, C = sp->chunks;
  if (!C || n != C * S) return -1;
  double *d = malloc(P * sizeof *d), *mean = calloc(C, sizeof *mean), *sf = calloc(S, sizeof *sf);
  unsigned char *have = calloc(P, 1);
  double end = -1;
  if (!d || !mean || !sf || !have) goto out;
  for (uint64_t i = 0; i < n; i++) {
    if (pos[i] >= P || have[pos[i]]) goto out;
    have[pos[i]] = 1;
    d[pos[i]] = dur[i];
  }
  for (uint64_t c = 0; c < C; c++) {
    uint64_t s0 = chunk_start(sp, c);
    double sum = 0;
    for (uint64_t o = 0; o < S; o++) {
      if (!have[s0 + o]) goto out;
      sum += d[s0 + o];
    }
    mean[c] = sum / S;
  }
  /* places between chunks: linear between the chunks' means at their centres */
  for (uint64_t c = 0, p = 0; p < P; p++) {
    if (have[p]) continue;
    double x = (double)p;
    while (c + 1 < C && chunk_start(sp, c + 1) + (S - 1) / 2.0 < x) c++;
    double x0 = chunk_start(sp, c) + (S - 1) / 2.0;
    if (c + 1 >= C || x <= x0) { d[p] = mean[c]; continue; }
    double x1 = chunk_start(sp, c + 1) + (S - 1) / 2.0, t = (x - x0) / (x1 - x0);
    d[p] = mean[c] + t * (mean[c + 1] - mean[c]);
  }
  end = 0;
  for (uint64_t g = 0; g < sp->nx; g++) {
    uint64_t m = 0;
    for (uint64_t i = 1; i < S; i++)
      if (sf[i] < sf[m]) m = i;
    sf[m] += d[g % P];
    if (sf[m] > end) end = sf[m];
  }
out:
  free(d), free(mean), free(sf), free(have);
  return end;
}
