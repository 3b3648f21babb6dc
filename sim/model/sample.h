/* sample.h: spread-out sampling (--model-sample=N --model-spread[=G]) for
 * grids whose groups do unequal work (causal attention): which groups of
 * XCD 0's list run, and the modeled cycles composed from their durations.
 * See sample.c for the method and docs/tksim-model.md "Emulation speed". */
#ifndef TKS_MODEL_SAMPLE_H
#define TKS_MODEL_SAMPLE_H

#include <stdint.h>

typedef struct tks_spread {
  uint64_t nx;      /* groups in the XCD's list (dispatch order) */
  uint64_t period;  /* places after which the XCD's list repeats its work (<= nx) */
  uint32_t slots;   /* groups resident at once on the XCD = groups per chunk */
  uint32_t chunks;  /* runs of `slots` consecutive places simulated */
} tks_spread;

/* Plans N = rounds chunks of `slots` groups over the first period_x places of
 * an XCD list of nx groups (period_x 0 or > nx: the whole list). Returns 1
 * when the chunks do not already cover the period (spreading applies), 0
 * otherwise (then --model-sample's first N rounds hold a whole period). */
int tks_spread_plan(tks_spread *sp, uint64_t nx, uint64_t period_x, uint32_t slots, uint64_t rounds);
/* The XCD list period of a grid pattern that repeats every g workgroups when
 * workgroups go to `xcds` XCDs round-robin: lcm(g, xcds) / xcds (0: 0). */
uint64_t tks_spread_period_x(uint64_t g, uint32_t xcds);
/* Place in the list of the k-th simulated group (k < chunks x slots). */
uint64_t tks_spread_pick(const tks_spread *sp, uint64_t k);
/* Modeled cycles of the whole list: pos/dur are the n simulated groups'
 * places and durations (slot free to group end); every place of the list
 * runs, in order, on the slot that frees first (from 0), as long as its
 * place p mod period: the measured duration where p was simulated, else the
 * linear interpolation between the mean durations of the chunks around it.
 * -1 when a simulated place is missing or memory runs out. */
double tks_spread_cycles(const tks_spread *sp, const uint64_t *pos, const double *dur, uint64_t n);

#endif
