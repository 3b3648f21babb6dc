/* model.h: the timing model's entry points for the rest of tksim.
 * The runtime hooks (tks_model_launch_begin/_end, tks_model_process_end) are
 * reached through sim/report/launch_hooks.c; the functions below are what
 * exec and the runtime call for --model-sample (see NEEDS.md). */
#ifndef TKS_MODEL_MODEL_H
#define TKS_MODEL_MODEL_H

#include <stdint.h>
#include "model/params.h"
#include "tksim.h"

/* With --model-sample=N: 1 when exec must run this group of the current
 * dispatch, 0 when it must skip it (its results are then not computed).
 * Always 1 without sampling. Set up by tks_model_launch_begin. */
int tks_model_group_selected(uint32_t group_linear);
/* 1 when the current dispatch runs only a sample of its groups. */
int tks_model_sampling(void);

/* Resident workgroups per CU from VGPR/AGPR, LDS and wave limits. */
uint32_t tks_model_groups_per_cu(const tks_model_params *p, const tks_kernel *k, uint32_t waves_per_group,
                                 uint32_t lds_bytes);
/* Cycles one CU needs for n groups, k resident at a time, each T cycles
 * alone with its busiest pipe busy B cycles. */
double tks_model_cu_cycles(double n, uint32_t k, double T, double B);

#endif
