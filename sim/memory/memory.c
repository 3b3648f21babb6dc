/* memory.c: tksim's allocation table.
 *
 * Device memory is host memory (tksim.h), so "device address" and "host
 * address" are the same number. The table records every live range the device
 * may touch (hipMalloc, hipHostMalloc, kernarg segments, loaded code objects,
 * internal blocks) so the checkers can tell a wild access from a good one.
 * It is a sorted array searched by bisection; tksim.h's contract is that it
 * only changes between dispatches, so lookups from worker threads need no lock.
 * A mutex still orders concurrent host threads registering allocations.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "tksim.h"

static tks_alloc *g_tab;
static size_t g_n, g_cap;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* Index of the first entry with base > addr. */
static size_t upper_bound(uint64_t addr)
{
  size_t lo = 0, hi = g_n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (g_tab[mid].base <= addr) lo = mid + 1; else hi = mid;
  }
  return lo;
}

int tks_mem_register(uint64_t base, uint64_t size, int kind)
{
  if (size == 0 || base + size < base) return -1;
  pthread_mutex_lock(&g_lock);
  size_t i = upper_bound(base);
  /* Reject overlaps with the neighbours: a range is registered once. */
  if ((i > 0 && g_tab[i - 1].base + g_tab[i - 1].size > base) ||
      (i < g_n && g_tab[i].base < base + size)) {
    pthread_mutex_unlock(&g_lock);
    return -1;
  }
  if (g_n == g_cap) {
    size_t nc = g_cap ? g_cap * 2 : 64;
    tks_alloc *t = realloc(g_tab, nc * sizeof *t);
    if (!t) { pthread_mutex_unlock(&g_lock); return -1; }
    g_tab = t; g_cap = nc;
  }
  memmove(g_tab + i + 1, g_tab + i, (g_n - i) * sizeof *g_tab);
  g_tab[i].base = base; g_tab[i].size = size; g_tab[i].kind = kind;
  g_n++;
  pthread_mutex_unlock(&g_lock);
  return 0;
}

int tks_mem_unregister(uint64_t base)
{
  pthread_mutex_lock(&g_lock);
  size_t i = upper_bound(base);
  if (i == 0 || g_tab[i - 1].base != base) { pthread_mutex_unlock(&g_lock); return -1; }
  i--;
  memmove(g_tab + i, g_tab + i + 1, (g_n - i - 1) * sizeof *g_tab);
  g_n--;
  pthread_mutex_unlock(&g_lock);
  return 0;
}

const tks_alloc *tks_mem_find(uint64_t addr, uint64_t size)
{
  if (addr + size < addr) return NULL;
  size_t i = upper_bound(addr);
  if (i == 0) return NULL;
  const tks_alloc *a = &g_tab[i - 1];
  if (addr >= a->base && addr + size <= a->base + a->size) return a;
  return NULL;
}
