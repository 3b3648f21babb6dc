/* launch_hooks.c: tksim.h's runtime hooks (tks_launch_begin/end,
 * tks_process_end), defined once here for all providers.
 *
 * Before each dispatch the hook table is rebuilt from the options: the race
 * checker (check/check.h), the report (report/report.h) and the timing model,
 * which sim/model joins by defining the weak tks_model_launch_begin/_end and
 * tks_model_process_end below (one definition of the tks_launch_* names per
 * program, so providers chain here rather than each defining them).
 */
#include <string.h>
#include "check/check.h"
#include "exec/hooks.h"
#include "report/report.h"

__attribute__((weak)) void tks_model_launch_begin(const tks_dispatch *d, const tks_options *opt);
__attribute__((weak)) void tks_model_launch_end(const tks_dispatch *d, const tks_launch_stats *stats,
                                                const tks_options *opt, int failed);
__attribute__((weak)) void tks_model_process_end(const tks_options *opt);
/* Device printf (runtime/hostcall.c, absent from unit tests that link the core
 * alone): told which wave writes each hostcall packet, it prints messages in
 * wave order rather than in the order threads happened to finish them. */
__attribute__((weak)) void tks_hostcall_on_store(uint32_t wave_id, const uint64_t addr[64], uint64_t exec);

static void hostcall_store(void *user, const tks_wave_view *w, const tks_inst_view *in,
                           const uint64_t addr[64], uint32_t bytes, uint64_t exec, int is_write)
{
  (void)user; (void)in; (void)bytes;
  if (is_write == 1) tks_hostcall_on_store(w->wave_id, addr, exec);
}

static int has_hostcall(const tks_dispatch *d)
{
  for (int i = 0; d && d->k && i < d->k->nargs; i++)
    if (!strcmp(d->k->args[i].value_kind, "hidden_hostcall_buffer")) return 1;
  return 0;
}

void tks_launch_begin(const tks_dispatch *d, const tks_options *opt)
{
  tks_hooks_clear();
  if (tks_check_setup(opt) < 0 || tks_report_setup(opt) < 0)
    fprintf(stderr, "tksim: hook table full; some checkers or reports are off\n");
  if (tks_model_launch_begin) tks_model_launch_begin(d, opt);
  if (tks_hostcall_on_store && has_hostcall(d)) {
    tks_hooks h = { 0 };
    h.global_access = hostcall_store;
    if (tks_hooks_add(&h) < 0)
      fprintf(stderr, "tksim: hook table full; device printf prints in completion order\n");
  }
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
