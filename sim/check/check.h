/* check.h: tksim's LDS race checker, attached to the engine through the hook
 * table of exec/hooks.h.
 *
 * Setup protocol (for the launch path): before each tks_exec_dispatch() call
 *   tks_check_setup(opt);  tks_report_setup(opt);   (report/report.h)
 * and after it tks_hooks_clear(). Each setup adds at most one tks_hooks
 * struct, and only for the options that need it, so a launch with races and
 * reports off adds nothing and exec keeps its fast path. The race checker's
 * dispatch_end returns the number of races found (non-zero fails the
 * dispatch) and writes the first report into err.
 */
#ifndef TKS_CHECK_CHECK_H
#define TKS_CHECK_CHECK_H

#include "tksim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adds the race checker's hooks when opt->check_races is set. Returns 0, or
 * -1 when the hook table is full. */
int tks_check_setup(const tks_options *opt);

#ifdef __cplusplus
}
#endif
#endif
