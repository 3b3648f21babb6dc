/* launch_hooks.c: tksim.h's runtime hooks (tks_launch_begin/end,
 * tks_process_end), defined once here for all providers.
 *
 * Before each dispatch the hook table is rebuilt from the options: the race
 * checker (check/check.h), the report (report/report.h) and the timing model,
 * which sim/model joins by defining the weak tks_model_launch_begin/_end and
 * tks_model_process_end below (one definition of the tks_launch_* names per
 * program, so providers chain here rather than each defining them).
 */
#include "check/check.h"
#include "exec/hooks.h"
#include "report/report.h"

__attribute__((weak)) void tks_model_launch_begin(const tks_dispatch *d, const tks_options *opt);
__attribute__((weak)) void tks_model_launch_end(const tks_dispatch *d, const tks_launch_stats *stats,
                                                const tks_options *opt, int failed);
__attribute__((weak)) void tks_model_process_end(const tks_options *opt);

void tks_launch_begin(const tks_dispatch *d, const tks_options *opt)
{
  tks_hooks_clear();
  if (tks_check_setup(opt) < 0 || tks_report_setup(opt) < 0)
    fprintf(stderr, "tksim: hook table full; some checkers or reports are off\n");
  if (tks_model_launch_begin) tks_model_launch_begin(d, opt);
}

void tks_launch_end(const tks_dispatch *d, const tks_launch_stats *stats, const tks_options *opt,
                    int failed)
{
  if (tks_model_launch_end) tks_model_launch_end(d, stats, opt, failed);
  tks_report_print(d, stats, opt, failed);
  tks_hooks_clear();
}

void tks_process_end(const tks_options *opt)
{
  if (tks_model_process_end) tks_model_process_end(opt);
}
