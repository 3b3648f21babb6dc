/* memory.c: tksim's allocation table.
 *
 * Device memory is host memory (tksim.h), so "device address" and "host
 * address" are the same number. The table records every live range the device
 * may touch (hipMalloc, hipHostMalloc, kernarg segments, loaded code objects,
 * internal blocks) so the checkers can tell a wild access from a good one.
 *
 * It is a sorted array searched by bisection, without a lock: lookups come
 * from the engine's worker threads on every checked access. Between
 * dispatches it is changed in place (tksim.h's contract). During a dispatch
 * (tks_mem_dispatch_begin/end, called by the runtime) a change - device
 * malloc's memory service registering a block - builds a new array and
 * publishes it atomically; readers keep using the old one, which is freed
 * when the dispatch ends. A mutex orders the writers.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "memory/memory.h"

typedef struct table {
  size_t n, cap;
  tks_alloc e[];
} table;

static table *g_cur;               /* published table; read with acquire */
static table **g_retired;          /* replaced during a dispatch, freed at its end */
static size_t g_nretired, g_capretired;
static int g_in_dispatch;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t g_dva_next = 0x7f0000000000ull; /* next device-virtual address (tks_alloc.dva) */

static table *cur(void) { return __atomic_load_n(&g_cur, __ATOMIC_ACQUIRE); }

/* Index of the first entry with base > addr. */
static size_t upper_bound(const table *t, uint64_t addr)
{
  size_t lo = 0, hi = t ? t->n : 0;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->e[mid].base <= addr) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/* A table that can take one more entry: in place when no dispatch runs, else
 * a copy (the old one is retired). NULL when out of memory. */
static table *writable(table *t, size_t need)
{
  size_t n = t ? t->n : 0;
  if (!g_in_dispatch && t && t->cap >= need) return t;
  size_t cap = t ? t->cap : 0;
  while (cap < need) cap = cap ? cap * 2 : 64;
  table *nt;
  if (!g_in_dispatch) {
    nt = realloc(t, sizeof *nt + cap * sizeof(tks_alloc));
    if (!nt) return NULL;
  } else {
    if (g_nretired == g_capretired) {
      size_t c = g_capretired ? g_capretired * 2 : 16;
      table **r = realloc(g_retired, c * sizeof *r);
      if (!r) return NULL;
      g_retired = r; g_capretired = c;
    }
    nt = malloc(sizeof *nt + cap * sizeof(tks_alloc));
    if (!nt) return NULL;
    if (n) memcpy(nt->e, t->e, n * sizeof(tks_alloc));
    if (t) g_retired[g_nretired++] = t;
  }
  nt->n = n;
  nt->cap = cap;
  return nt;
}

int tks_mem_register(uint64_t base, uint64_t size, int kind)
{
  if (size == 0 || base + size < base) return -1;
  pthread_mutex_lock(&g_lock);
  table *t = g_cur;
  size_t i = upper_bound(t, base);
  /* Reject overlaps with the neighbours: a range is registered once. */
  if (t && ((i > 0 && t->e[i - 1].base + t->e[i - 1].size > base) || (i < t->n && t->e[i].base < base + size))) {
    pthread_mutex_unlock(&g_lock);
    return -1;
  }
  table *w = writable(t, (t ? t->n : 0) + 1);
  if (!w) { pthread_mutex_unlock(&g_lock); return -1; }
  memmove(w->e + i + 1, w->e + i, (w->n - i) * sizeof(tks_alloc));
  w->e[i].base = base; w->e[i].size = size; w->e[i].kind = kind;
  /* ASSUMPTION: ROCm's allocator hands out 2 MiB fragments for large
   * buffers; any fixed rule serves, as long as it does not depend on base */
  uint64_t align = size >= (2u << 20) ? (2u << 20) : 4096;
  g_dva_next = (g_dva_next + align - 1) & ~(align - 1);
  w->e[i].dva = g_dva_next;
  g_dva_next += (size + 4095) & ~(uint64_t)4095;
  w->n++;
  __atomic_store_n(&g_cur, w, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&g_lock);
  return 0;
}

int tks_mem_unregister(uint64_t base)
{
  pthread_mutex_lock(&g_lock);
  table *t = g_cur;
  size_t i = upper_bound(t, base);
  if (i == 0 || t->e[i - 1].base != base) { pthread_mutex_unlock(&g_lock); return -1; }
  i--;
  table *w = writable(t, t->n);
  if (!w) { pthread_mutex_unlock(&g_lock); return -1; }
  memmove(w->e + i, w->e + i + 1, (w->n - i - 1) * sizeof(tks_alloc));
  w->n--;
  __atomic_store_n(&g_cur, w, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&g_lock);
  return 0;
}

const tks_alloc *tks_mem_find(uint64_t addr, uint64_t size)
{
  if (addr + size < addr) return NULL;
  const table *t = cur();
  size_t i = upper_bound(t, addr);
  if (i == 0) return NULL;
  const tks_alloc *a = &t->e[i - 1];
  if (addr >= a->base && addr + size <= a->base + a->size) return a;
  return NULL;
}

void tks_mem_dispatch_begin(void)
{
  pthread_mutex_lock(&g_lock);
  g_in_dispatch++;
  pthread_mutex_unlock(&g_lock);
}

void tks_mem_dispatch_end(void)
{
  pthread_mutex_lock(&g_lock);
  if (g_in_dispatch > 0 && --g_in_dispatch == 0) {
    for (size_t k = 0; k < g_nretired; k++) free(g_retired[k]);
    g_nretired = 0;
  }
  pthread_mutex_unlock(&g_lock);
}
