/* test_memory.c: the allocation table (sim/memory): lookups inside, at the
 * edges of and outside registered ranges, overlap refusal, unregistering. */
#include <pthread.h>
#include "check.h"
#include "memory/memory.h"

/* A reader like the engine's workers: look up ranges without a lock. */
static volatile int g_stop_reader;
static long g_reads_ok;
static void *reader(void *arg)
{
  (void)arg;
  while (!g_stop_reader) {
    const tks_alloc *a = tks_mem_find(0x5000000, 8);
    if (a && a->base == 0x5000000 && a->size == 64) g_reads_ok++;
  }
  return NULL;
}

int main(void)
{
  CHECK(tks_mem_register(0x10000, 0x100, TKS_ALLOC_DEVICE) == 0, "register A");
  CHECK(tks_mem_register(0x20000, 0x40, TKS_ALLOC_HOST) == 0, "register B");
  CHECK(tks_mem_register(0x18000, 0x10, TKS_ALLOC_KERNARG) == 0, "register C between A and B");
  const tks_alloc *a = tks_mem_find(0x10000, 4);
  CHECK(a && a->base == 0x10000 && a->size == 0x100 && a->kind == TKS_ALLOC_DEVICE, "find A at its start");
  CHECK(tks_mem_find(0x100fc, 4) != NULL, "last 4 bytes of A");
  CHECK(tks_mem_find(0x100fd, 4) == NULL, "one byte past the end of A");
  CHECK(tks_mem_find(0x100ff, 1) != NULL, "last byte of A");
  CHECK(tks_mem_find(0x10100, 1) == NULL, "first byte after A");
  CHECK(tks_mem_find(0xffff, 1) == NULL, "byte before A");
  CHECK(tks_mem_find(0xffff, 2) == NULL, "straddling the start of A");
  const tks_alloc *c = tks_mem_find(0x18008, 8);
  CHECK(c && c->kind == TKS_ALLOC_KERNARG, "find C");
  CHECK(tks_mem_find(0x20000, 0x40) && tks_mem_find(0x20000, 0x41) == NULL, "B exact and one over");
  CHECK(tks_mem_find(UINT64_MAX - 2, 8) == NULL, "wrapping range");
  CHECK(tks_mem_register(0x100f0, 0x20, TKS_ALLOC_DEVICE) != 0, "overlap with A's tail refused");
  CHECK(tks_mem_register(0xfff0, 0x20, TKS_ALLOC_DEVICE) != 0, "overlap with A's head refused");
  CHECK(tks_mem_register(0x10010, 0x10, TKS_ALLOC_DEVICE) != 0, "range inside A refused");
  CHECK(tks_mem_register(0x30000, 0, TKS_ALLOC_DEVICE) != 0, "zero size refused");
  CHECK(tks_mem_unregister(0x10010) != 0, "unregister by an inner address fails");
  CHECK(tks_mem_unregister(0x10000) == 0, "unregister A");
  CHECK(tks_mem_find(0x10000, 1) == NULL, "A gone");
  CHECK(tks_mem_unregister(0x10000) != 0, "double unregister fails");
  CHECK(tks_mem_find(0x18000, 1) && tks_mem_find(0x20000, 1), "C and B remain");
  /* many ranges: table growth keeps ordering */
  int ok = 1;
  for (uint64_t i = 0; i < 1000; i++) ok &= tks_mem_register(0x1000000 + (999 - i) * 0x100, 0x80, TKS_ALLOC_DEVICE) == 0;
  for (uint64_t i = 0; i < 1000; i++) {
    const tks_alloc *x = tks_mem_find(0x1000000 + i * 0x100 + 0x7f, 1);
    ok &= x && x->base == 0x1000000 + i * 0x100;
    ok &= tks_mem_find(0x1000000 + i * 0x100 + 0x80, 1) == NULL;
  }
  CHECK(ok, "1000 ranges registered in reverse order are all found");

  /* during a dispatch, changes publish a new table; old lookups stay valid */
  CHECK(tks_mem_register(0x5000000, 64, TKS_ALLOC_DEVICE) == 0, "register D");
  tks_mem_dispatch_begin();
  const tks_alloc *d = tks_mem_find(0x5000000, 8);
  CHECK(d && d->size == 64, "find D");
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);
  int ok2 = 1;
  for (uint64_t i = 0; i < 2000; i++) {
    ok2 &= tks_mem_register(0x6000000 + i * 0x1000, 0x100, TKS_ALLOC_DEVICE) == 0;
    if (i % 2) ok2 &= tks_mem_unregister(0x6000000 + (i - 1) * 0x1000) == 0;
  }
  g_stop_reader = 1;
  pthread_join(t, NULL);
  CHECK(ok2, "2000 registrations and 1000 removals during a dispatch");
  CHECK(g_reads_ok > 0, "concurrent reader always found D (%ld reads)", g_reads_ok);
  CHECK(d->base == 0x5000000 && d->size == 64, "a pointer from before the changes is still readable");
  CHECK(tks_mem_find(0x6000000 + 1999 * 0x1000, 0x100) != NULL, "new range visible");
  CHECK(tks_mem_find(0x6000000 + 1998 * 0x1000, 1) == NULL, "removed range gone");
  CHECK(tks_mem_unregister(0x5000000) == 0 && tks_mem_find(0x5000000, 1) == NULL, "remove D during the dispatch");
  tks_mem_dispatch_end();
  CHECK(tks_mem_find(0x6000000 + 1999 * 0x1000, 1) && tks_mem_find(0x1000000, 1), "table intact after the dispatch");
  return CHECK_DONE();
}
