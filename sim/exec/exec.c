/* Placeholder until the execution engine lands: every dispatch fails loudly. */
#include <stdio.h>
#include "tksim.h"

int tks_exec_dispatch(const tks_dispatch *d, const tks_options *opt,
                      tks_launch_stats *stats, char *err, size_t errlen)
{
  (void)opt; (void)stats;
  snprintf(err, errlen, "tksim: kernel %s: execution engine not built yet", d->k->name);
  return -1;
}
