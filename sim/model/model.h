/* model.h: the timing model's entry points for the rest of tksim.
 * The runtime hooks (tks_model_launch_begin/_end, tks_model_process_end) are
 * reached through sim/report/launch_hooks.c; the functions below are what
 * exec and the runtime call for --model-sample (see NEEDS.md). */
#ifndef TKS_MODEL_MODEL_H
#define TKS_MODEL_MODEL_H

#include <stdint.h>
#include "model/params.h"
#include "tksim.h"

/* Exec's unordered path (cooperative launches, which sampling never
 * reduces) asks per group; always 1. Sampling works through tks_sched. */
int tks_model_group_selected(uint32_t group_linear);
/* 1 when the current dispatch runs only a sample of its groups. */
int tks_model_sampling(void);

/* Resident workgroups per CU from VGPR/AGPR, LDS and wave limits. */
uint32_t tks_model_groups_per_cu(const tks_model_params *p, const tks_kernel *k, uint32_t waves_per_group,
                                 uint32_t lds_bytes);
/* --model-sample: the modeled cycles of an XCD that runs xcd_groups groups on
 * `slots` resident slots, from the end time of its first `simulated` groups
 * (whole rounds of slots): end x rounds of all / rounds simulated. */
double tks_model_sampled_cycles(double end, uint64_t simulated, uint64_t xcd_groups, uint32_t slots);
/* The groups not simulated taken by the next slot to free, in dispatch
 * order, each as long as the simulated group at its place in the sampled
 * pattern (group i: dur[i mod simulated]); slot_free (slots entries, when
 * each slot frees after the simulated groups) is overwritten. Equal to the
 * above for groups of equal work. */
double tks_model_sampled_cycles_list(double *slot_free, uint32_t slots, const double *dur, uint64_t simulated,
                                     uint64_t xcd_groups);

/* Device-side writes outside kernels (a fill or copy done on the device
 * between launches, e.g. hipMemset): the bytes at host address addr (an
 * allocation's backing) now sit in the Infinity Cache, as a kernel's writes
 * do (write-allocate, model v9; which runtime calls do this is the
 * runtime's choice: docs/tksim-model.md, Memory). No-op without a model. */
void tks_model_mem_write(uint64_t addr, uint64_t bytes);

#endif
