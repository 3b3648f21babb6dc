/* race_unit_test.c: host unit test of the LDS race checker (sim/check/race.c)
 * driven through its exec hooks with hand-written access sequences, so each
 * rule is tested without depending on what a compiler emits. Expected
 * outcomes follow the rules in docs/tksim-checkers.md: different waves, same
 * bytes, one writing, same barrier epoch -> race; same wave never; a barrier
 * in between orders them unless the earlier write was still in flight
 * (lgkmcnt for DS, vmcnt for VMEM loads into LDS) when its wave reached the
 * barrier; different bytes of one dword do not race; atomics are exempt.
 */
#include <stdio.h>
#include <string.h>
#include "check/check.h"
#include "exec/hooks.h"

static tks_hooks H;
static int g_fail;
static tks_kernel g_k;
static tks_dispatch g_d;

static tks_wave_view wave(uint32_t w)
{
  tks_wave_view v;
  memset(&v, 0, sizeof v);
  v.worker = 0;
  v.wave_in_group = w;
  v.waves_per_group = 4;
  v.exec = ~0ull;
  return v;
}

static tks_inst_view inst(uint32_t index, int cls, const char *text)
{
  tks_inst_view i;
  i.pc = index * 8;
  i.index = index;
  i.cls = cls;
  i.text = text;
  i.kernel = "unit";
  return i;
}

static void begin(void)
{
  H.dispatch_begin(H.user, &g_d, 1, 4, 65536);
  uint32_t gid[3] = { 0, 0, 0 };
  H.group_begin(H.user, 0, gid, 0, 4);
}

static int end(void)
{
  tks_launch_stats st;
  memset(&st, 0, sizeof st);
  char err[512] = "";
  return H.dispatch_end(H.user, &g_d, &st, err, sizeof err);
}

/* one wave-wide DS access: lane l at base + l*stride, exec all lanes */
static void ds(uint32_t w, uint32_t index, int is_write, uint32_t base, uint32_t stride, uint32_t bytes)
{
  tks_wave_view v = wave(w);
  tks_inst_view i = inst(index, TKS_CLASS_DS, is_write == 1 ? "ds_write" : is_write == 2 ? "ds_add" : "ds_read");
  uint32_t a[64];
  for (int l = 0; l < 64; l++) a[l] = base + (uint32_t)l * stride;
  H.issue(H.user, &v, &i);
  H.lds_access(H.user, &v, &i, a, bytes, ~0ull, is_write);
}

static void vmem_lds(uint32_t w, uint32_t index, uint32_t base)
{
  tks_wave_view v = wave(w);
  tks_inst_view i = inst(index, TKS_CLASS_VMEM, "buffer_load_dword lds");
  uint32_t a[64];
  for (int l = 0; l < 64; l++) a[l] = base + (uint32_t)l * 4;
  H.issue(H.user, &v, &i);
  H.lds_access(H.user, &v, &i, a, 4, ~0ull, 1);
}

static void waitcnt(uint32_t w, int vm, int lgkm)
{
  tks_wave_view v = wave(w);
  tks_inst_view i = inst(900, TKS_CLASS_WAITCNT, "s_waitcnt");
  H.issue(H.user, &v, &i);
  H.waitcnt(H.user, &v, &i, vm, lgkm, 7);
}

static void barrier(void)
{
  for (uint32_t w = 0; w < 4; w++) {
    tks_wave_view v = wave(w);
    tks_inst_view i = inst(901, TKS_CLASS_BARRIER, "s_barrier");
    H.issue(H.user, &v, &i);
    H.barrier_arrive(H.user, &v, &i);
  }
  H.barrier_release(H.user, 0, 0);
}

static void expect(const char *what, int got_races, int want_race)
{
  int ok = (got_races > 0) == want_race;
  printf("%-4s %-66s %s\n", ok ? "ok" : "FAIL", what, got_races ? "race reported" : "quiet");
  if (!ok) g_fail++;
}

int main(void)
{
  tks_options opt;
  memset(&opt, 0, sizeof opt);
  opt.check_races = 1;
  tks_hooks_clear();
  if (tks_check_setup(&opt) != 0 || tks_hooks_count() != 1) {
    printf("FAIL: tks_check_setup did not add one hook provider\n");
    return 1;
  }
  extern tks_hooks tks_hook_table[TKS_MAX_HOOKS];
  H = tks_hook_table[0];
  snprintf(g_k.name, sizeof g_k.name, "unit");
  g_d.k = &g_k;

  begin(); ds(0, 1, 1, 0, 4, 4); ds(1, 2, 0, 0, 4, 4);
  expect("write wave 0, read wave 1, same epoch", end(), 1);
  begin(); ds(0, 1, 0, 0, 4, 4); ds(1, 2, 1, 0, 4, 4);
  expect("read wave 0, write wave 1, same epoch", end(), 1);
  begin(); ds(0, 1, 1, 0, 4, 4); ds(1, 2, 1, 0, 4, 4);
  expect("write wave 0, write wave 1, same epoch", end(), 1);
  begin(); ds(0, 1, 0, 0, 4, 4); ds(1, 2, 0, 0, 4, 4);
  expect("two reads", end(), 0);
  begin(); ds(0, 1, 1, 0, 4, 4); ds(0, 2, 0, 0, 4, 4); ds(0, 3, 1, 0, 4, 4);
  expect("one wave writes, reads, writes", end(), 0);
  begin(); ds(0, 1, 1, 0, 4, 4); waitcnt(0, 63, 0); barrier(); ds(1, 2, 0, 0, 4, 4);
  expect("write, s_waitcnt lgkmcnt(0), s_barrier, read", end(), 0);
  begin(); ds(0, 1, 1, 0, 4, 4); barrier(); ds(1, 2, 0, 0, 4, 4);
  expect("write, s_barrier without wait, read (in flight)", end(), 1);
  begin(); ds(0, 1, 1, 0, 4, 4); ds(0, 2, 0, 1024, 4, 4); waitcnt(0, 63, 1); barrier(); ds(1, 3, 0, 0, 4, 4);
  expect("write, read, lgkmcnt(1) (write complete), s_barrier, read", end(), 0);
  begin(); ds(0, 1, 0, 1024, 4, 4); ds(0, 2, 1, 0, 4, 4); waitcnt(0, 63, 1); barrier(); ds(1, 3, 0, 0, 4, 4);
  expect("read, write, lgkmcnt(1) (write pending), s_barrier, read", end(), 1);
  begin(); ds(0, 1, 1, 0, 4, 4); barrier(); waitcnt(0, 63, 0); barrier(); ds(1, 2, 0, 0, 4, 4);
  expect("write, s_barrier, wait, s_barrier, read", end(), 0);
  begin(); vmem_lds(0, 1, 0); waitcnt(0, 0, 15); barrier(); ds(1, 2, 0, 0, 4, 4);
  expect("buffer_load lds, vmcnt(0), s_barrier, read", end(), 0);
  begin(); vmem_lds(0, 1, 0); waitcnt(0, 63, 0); barrier(); ds(1, 2, 0, 0, 4, 4);
  expect("buffer_load lds, only lgkmcnt(0), s_barrier, read (in flight)", end(), 1);
  begin(); ds(0, 1, 1, 0, 4, 1); ds(1, 2, 1, 1, 4, 1);
  expect("bytes 4l and 4l+1 from two waves", end(), 0);
  begin(); ds(0, 1, 1, 0, 4, 2); ds(1, 2, 0, 1, 4, 1);
  expect("b16 write of bytes 0-1, other wave reads byte 1", end(), 1);
  begin(); ds(0, 1, 1, 0, 4, 4); ds(1, 2, 0, 256, 4, 4);
  expect("disjoint ranges", end(), 0);
  begin(); ds(0, 1, 2, 0, 4, 4); ds(1, 2, 2, 0, 4, 4); ds(2, 3, 0, 0, 4, 4);
  expect("atomics from two waves, then a read (atomics exempt)", end(), 0);
  begin(); ds(0, 1, 1, 0, 16, 16); ds(3, 2, 0, 1020, 4, 4);
  expect("b128 write, b32 read of its last dword by wave 3", end(), 1);
  /* a new workgroup on the worker starts clean */
  begin(); ds(0, 1, 1, 0, 4, 4); waitcnt(0, 63, 0);
  { uint32_t gid[3] = { 1, 0, 0 }; H.group_begin(H.user, 0, gid, 1, 4); }
  ds(1, 2, 0, 0, 4, 4);
  expect("write in group 0, read in group 1 on the same worker", end(), 0);

  printf("%s: %d failure(s)\n", g_fail ? "FAILED" : "PASSED", g_fail);
  return g_fail ? 1 : 0;
}
