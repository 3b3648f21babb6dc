/* report.h: `tksim --report` (per launch) and `--report=pc` (per instruction).
 *
 * tks_report_setup adds the hooks that count what exec's tks_launch_stats do
 * not have: LDS bank-conflict cycles from the model in check/banks.h and, per
 * PC, executions, lane-instructions, LDS and global traffic. tks_report_print
 * writes a launch's report to stderr, or appended to the file named by
 * TKSIM_REPORT_FILE when that variable is set.
 */
#ifndef TKS_REPORT_REPORT_H
#define TKS_REPORT_REPORT_H

#include <stdio.h>
#include "tksim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adds the report hooks when opt->report is non-zero. 0, or -1 when the hook
 * table is full. */
int tks_report_setup(const tks_options *opt);
/* Prints the report of the dispatch just run (no-op when opt->report is 0). */
void tks_report_print(const tks_dispatch *d, const tks_launch_stats *stats,
                      const tks_options *opt, int failed);
/* One row of --report=pc: an instruction's figures over the dispatch. */
typedef struct tks_report_pc {
  uint32_t pc;
  int cls;
  const char *text;
  uint64_t count, lanes, lds_accesses, lds_cycles, lds_conflict_cycles;
  uint64_t global_read, global_written, flops;
} tks_report_pc;
/* FLOPs (2*M*N*K*blocks) of one MFMA from its text, 0 when not an MFMA. */
uint64_t tks_mfma_flops_of(const char *text);

#ifdef __cplusplus
}
#endif
#endif
