/* hooks.c: the table of hook providers exec calls during a dispatch
 * (see hooks.h). Modified only between dispatches, so no lock. */
#include "exec/hooks.h"

tks_hooks tks_hook_table[TKS_MAX_HOOKS];
int tks_hook_n;

int tks_hooks_add(const tks_hooks *h)
{
  if (tks_hook_n >= TKS_MAX_HOOKS) return -1;
  tks_hook_table[tks_hook_n++] = *h;
  return 0;
}

void tks_hooks_clear(void) { tks_hook_n = 0; }
int tks_hooks_count(void) { return tks_hook_n; }
