/* hooks.c: the table of hook providers exec calls during a dispatch
 * (see hooks.h). Modified only between dispatches, so no lock. */
#include <string.h>
#include "exec/hooks.h"

tks_hooks tks_hook_table[TKS_MAX_HOOKS];
int tks_hook_n;

int tks_hooks_add(const tks_hooks *h)
{
  if (tks_hook_n >= TKS_MAX_HOOKS) return -1;
  tks_hook_table[tks_hook_n++] = *h;
  return 0;
}

static tks_sched g_sched;

void tks_sched_set(const tks_sched *s)
{
  if (s && s->slots && s->domains && s->wave_time) g_sched = *s;
  else memset(&g_sched, 0, sizeof g_sched);
}

const tks_sched *tks_sched_get(void) { return g_sched.slots ? &g_sched : NULL; }

void tks_hooks_clear(void) { tks_hook_n = 0; memset(&g_sched, 0, sizeof g_sched); }
int tks_hooks_count(void) { return tks_hook_n; }
