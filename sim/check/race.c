/* race.c: the LDS race checker (tks_options.check_races).
 *
 * Two waves of one workgroup that touch the same LDS bytes, at least one of
 * them writing, with no s_barrier completing between the two accesses, race:
 * LDS instructions of different waves are not ordered except by s_barrier
 * (CDNA3 ISA guide, "Data Share Operations" and s_barrier). DS instructions
 * of one wave are executed in order (LGKM_CNT returns LDS results in order,
 * ISA guide "s_waitcnt"), so same-wave accesses never race. LDS atomics
 * (read-modify-write ds_add, ds_cmpst, ...) are not checked at all: at the ISA
 * level a relaxed atomic load or store is an ordinary ds_read/ds_write, so a
 * CAS loop's first load or an atomic flag store would be reported falsely;
 * the price is that "atomics from many waves, then a read without barrier"
 * goes unreported.
 *
 * A per-dword shadow of the group's LDS keeps, per dword, the last writer
 * (wave, epoch, instruction, bytes written) and which bytes each wave read in
 * the current epoch, so accesses to different bytes of one dword do not race.
 * (Approximation: when two waves write different bytes of one dword in one
 * epoch, only the later writer is remembered.) An
 * epoch is a per-worker counter bumped at every barrier release (by 1) and at
 * every workgroup start (by 2, so a new group's first epoch never follows an
 * old group's last), so no shadow is ever cleared: entries from an older
 * epoch are simply stale. Each race is reported once per pair of instructions.
 *
 * s_barrier does not wait for the wave's own LDS operations (ISA guide,
 * S_BARRIER; gfx942 has no automatic wait before barriers, so the compiler's
 * release fence emits s_waitcnt lgkmcnt). A write still in flight when its
 * wave reaches the barrier is therefore not ordered before other waves'
 * accesses after it. DS operations of a wave complete in order and
 * s_waitcnt lgkmcnt(N) leaves at most N LGKM operations, hence at most the N
 * newest DS operations, outstanding; counting DS instructions only (scalar
 * loads complete out of order, so they can only make fewer DS operations
 * complete) gives the DS operations known complete. Loads into LDS by VMEM
 * instructions (buffer/global ... lds) are tracked the same way on vmcnt. A
 * cell written in the epoch just before the current one, by a write its wave
 * had not completed at that barrier, races with any later access by another
 * wave.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check/check.h"
#include "exec/hooks.h"

#define LDS_MAX (160u * 1024u) /* the largest target's LDS (gfx950); gfx942 has 64 KiB */
#define LDS_DWORDS (LDS_MAX / 4)
#define REPL4 0x1111111111111111ull /* a 4-bit byte mask repeated for every wave */

typedef struct cell {        /* one dword of LDS */
  uint32_t w_epoch, r_epoch; /* 0: never */
  uint32_t w_inst[4];        /* per byte: the instruction that last wrote it */
  uint32_t w_seq[4];         /* per byte: that write's sequence number on its wave's counter (see VM_SEQ) */
  uint64_t r_bytes;          /* bytes read in r_epoch: 4 bits per wave (bit 4*wave + byte) */
  uint32_t r_inst[2];        /* the first two waves that read in r_epoch */
  uint8_t r_wave[2], r_n;
  uint8_t w_wave, w_bytes;   /* last writer and the bytes it wrote in w_epoch */
} cell;

typedef struct inst_info { uint32_t pc; const char *text; } inst_info;

#define MAX_WAVES 16
#define VM_SEQ 0x80000000u /* cell.w_seq counts VMEM instructions (vmcnt) */

typedef struct worker {
  cell *shadow;
  uint32_t epoch;
  /* per wave of the current group: DS instructions issued, the number known
   * complete, and how many were complete when it last reached s_barrier */
  uint32_t ds_issued[MAX_WAVES], ds_done[MAX_WAVES], ds_done_at_barrier[MAX_WAVES];
  /* the same for VMEM instructions (vmcnt), for buffer/global loads into LDS */
  uint32_t vm_issued[MAX_WAVES], vm_done[MAX_WAVES], vm_done_at_barrier[MAX_WAVES];
  uint32_t barrier_inst[MAX_WAVES];
  uint32_t arrive_epoch[MAX_WAVES]; /* epoch in which the wave last reached s_barrier */
  uint32_t group_id[3];
  inst_info *insts;          /* by instruction index, filled as seen */
  uint32_t ninsts;
  uint64_t *seen;            /* open-addressed set of reported pair keys (0 = empty) */
  uint32_t seen_cap, seen_n;
  uint64_t races;
} worker;

typedef struct race_state {
  worker *w;
  uint32_t nworkers;
  uint32_t waves_per_group;
  int off;                   /* cooperative dispatch: groups interleave on a worker */
  const char *kernel;
  pthread_mutex_t lock;      /* guards the dispatch-wide set of reported pairs and printing */
  uint64_t *gseen;
  uint32_t gseen_cap, gseen_n;
} race_state;

static race_state g_rs = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int set_insert(uint64_t **tab, uint32_t *cap, uint32_t *n, uint64_t key)
{
  if (*n * 2 + 2 > *cap) {
    uint32_t nc = *cap ? *cap * 2 : 64;
    uint64_t *nt = calloc(nc, sizeof *nt);
    if (!nt) return 0;
    for (uint32_t i = 0; i < *cap; i++) {
      uint64_t k = (*tab)[i];
      if (!k) continue;
      uint32_t h = (uint32_t)((k * 0x9e3779b97f4a7c15ull) >> 40) & (nc - 1);
      while (nt[h]) h = (h + 1) & (nc - 1);
      nt[h] = k;
    }
    free(*tab);
    *tab = nt;
    *cap = nc;
  }
  uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 40) & (*cap - 1);
  while ((*tab)[h]) {
    if ((*tab)[h] == key) return 0;
    h = (h + 1) & (*cap - 1);
  }
  (*tab)[h] = key;
  (*n)++;
  return 1;
}

static void note_inst(worker *w, const tks_inst_view *in)
{
  if (in->index >= w->ninsts) {
    uint32_t n = w->ninsts ? w->ninsts : 256;
    while (n <= in->index) n *= 2;
    inst_info *t = realloc(w->insts, n * sizeof *t);
    if (!t) return;
    memset(t + w->ninsts, 0, (n - w->ninsts) * sizeof *t);
    w->insts = t;
    w->ninsts = n;
  }
  w->insts[in->index].pc = in->pc;
  w->insts[in->index].text = in->text;
}

static const char *verb(int kind, int it)
{
  if (kind == 1) return it ? "writes it" : "writes";
  return it ? "reads it" : "reads";
}

/* kind_a/kind_b: 0 read, 1 write; a is the earlier access. in_flight: a is
 * a write its wave had not completed when it reached s_barrier (1: a DS
 * write, lgkmcnt; 2: a VMEM load into LDS, vmcnt). */
static void report(worker *w, uint32_t wave_a, uint32_t inst_a, int kind_a, uint32_t wave_b,
                   const tks_inst_view *in_b, int kind_b, uint32_t addr, uint32_t bytes,
                   int in_flight)
{
  uint32_t lo = inst_a < in_b->index ? inst_a : in_b->index;
  uint32_t hi = inst_a < in_b->index ? in_b->index : inst_a;
  uint64_t key = (((uint64_t)lo << 32 | hi) + 1) ^ ((uint64_t)(in_flight != 0) << 63);
  w->races++;
  if (!set_insert(&w->seen, &w->seen_cap, &w->seen_n, key)) return;
  const inst_info *ia = inst_a < w->ninsts ? &w->insts[inst_a] : NULL;
  char msg[1024];
  if (in_flight) {
    uint32_t bi = wave_a < MAX_WAVES ? w->barrier_inst[wave_a] : 0;
    const inst_info *ib = bi < w->ninsts ? &w->insts[bi] : NULL;
    snprintf(msg, sizeof msg,
             "tksim: LDS race: kernel %s, workgroup (%u,%u,%u): wave %u PC 0x%x '%s' writes [0x%x,+%u) "
             "and wave %u PC 0x%x '%s' %s after the s_barrier at PC 0x%x, which wave %u reached with "
             "the write still in flight (no s_waitcnt %s before the s_barrier)",
             in_b->kernel, w->group_id[0], w->group_id[1], w->group_id[2], wave_a,
             ia ? ia->pc : 0, ia && ia->text ? ia->text : "?", addr, bytes, wave_b, in_b->pc,
             in_b->text ? in_b->text : "?", verb(kind_b, 1), ib ? ib->pc : 0, wave_a,
             in_flight == 2 ? "vmcnt" : "lgkmcnt");
  } else {
    snprintf(msg, sizeof msg,
             "tksim: LDS race: kernel %s, workgroup (%u,%u,%u): wave %u PC 0x%x '%s' %s [0x%x,+%u) "
             "and wave %u PC 0x%x '%s' %s with no s_barrier between",
             in_b->kernel, w->group_id[0], w->group_id[1], w->group_id[2], wave_a,
             ia ? ia->pc : 0, ia && ia->text ? ia->text : "?", verb(kind_a, 0), addr, bytes,
             wave_b, in_b->pc, in_b->text ? in_b->text : "?", verb(kind_b, 1));
  }
  pthread_mutex_lock(&g_rs.lock);
  if (set_insert(&g_rs.gseen, &g_rs.gseen_cap, &g_rs.gseen_n, key)) {
    fprintf(stderr, "%s\n", msg);
  }
  pthread_mutex_unlock(&g_rs.lock);
}

static void on_dispatch_begin(void *user, const tks_dispatch *d, uint32_t nworkers,
                              uint32_t waves_per_group, uint32_t lds_bytes)
{
  race_state *rs = user;
  if (nworkers > rs->nworkers) {
    worker *nw = realloc(rs->w, nworkers * sizeof *nw);
    if (!nw) { rs->nworkers = 0; return; }
    memset(nw + rs->nworkers, 0, (nworkers - rs->nworkers) * sizeof *nw);
    rs->w = nw;
    rs->nworkers = nworkers;
  }
  rs->waves_per_group = waves_per_group;
  /* the shadow is per worker; a cooperative launch interleaves several
   * groups on one worker, so the checker sits those out */
  rs->off = d->cooperative;
  rs->kernel = d->k ? d->k->name : "?";
  rs->gseen_n = 0;
  if (rs->gseen) memset(rs->gseen, 0, rs->gseen_cap * sizeof *rs->gseen);
  for (uint32_t i = 0; i < rs->nworkers; i++) {
    worker *w = &rs->w[i];
    w->races = 0;
    w->seen_n = 0;
    if (w->seen) memset(w->seen, 0, w->seen_cap * sizeof *w->seen);
    if (waves_per_group > 1 && lds_bytes > 0 && !w->shadow) {
      /* 160 KiB of cells (gfx950's LDS), allocated once: no group can address more */
      w->shadow = calloc(LDS_DWORDS, sizeof *w->shadow);
      w->epoch = 0;
    }
  }
}

static void on_group_begin(void *user, uint32_t worker_id, const uint32_t group_id[3],
                           uint32_t group_linear, uint32_t nwaves)
{
  race_state *rs = user;
  if (rs->off || worker_id >= rs->nworkers) return;
  worker *w = &rs->w[worker_id];
  w->epoch += 2;
  if (w->epoch < 2) { /* wrapped: old entries could look current */
    if (w->shadow) memset(w->shadow, 0, LDS_DWORDS * sizeof *w->shadow);
    w->epoch = 2;
  }
  memcpy(w->group_id, group_id, sizeof w->group_id);
  memset(w->ds_issued, 0, sizeof w->ds_issued);
  memset(w->ds_done, 0, sizeof w->ds_done);
  memset(w->ds_done_at_barrier, 0, sizeof w->ds_done_at_barrier);
  memset(w->vm_issued, 0, sizeof w->vm_issued);
  memset(w->vm_done, 0, sizeof w->vm_done);
  memset(w->vm_done_at_barrier, 0, sizeof w->vm_done_at_barrier);
  memset(w->arrive_epoch, 0, sizeof w->arrive_epoch);
}

static void on_barrier_release(void *user, uint32_t worker_id, uint32_t group_linear)
{
  race_state *rs = user;
  if (worker_id >= rs->nworkers) return;
  worker *w = &rs->w[worker_id];
  w->epoch++;
  if (w->epoch == 0) {
    if (w->shadow) memset(w->shadow, 0, LDS_DWORDS * sizeof *w->shadow);
    w->epoch = 1;
  }
}

static void on_issue(void *user, const tks_wave_view *wv, const tks_inst_view *in)
{
  race_state *rs = user;
  if (rs->off || (in->cls != TKS_CLASS_DS && in->cls != TKS_CLASS_VMEM) || wv->waves_per_group < 2 ||
      wv->worker >= rs->nworkers || wv->wave_in_group >= MAX_WAVES)
    return;
  worker *w = &rs->w[wv->worker];
  if (in->cls == TKS_CLASS_DS) w->ds_issued[wv->wave_in_group]++;
  else w->vm_issued[wv->wave_in_group]++;
}

static void on_waitcnt(void *user, const tks_wave_view *wv, const tks_inst_view *in, int vmcnt,
                       int lgkmcnt, int expcnt)
{
  race_state *rs = user;
  if (wv->waves_per_group < 2 || wv->worker >= rs->nworkers || wv->wave_in_group >= MAX_WAVES) return;
  worker *w = &rs->w[wv->worker];
  uint32_t me = wv->wave_in_group;
  /* 15 (lgkmcnt) and 63 (vmcnt) are the fields' "no wait" */
  if (lgkmcnt >= 0 && lgkmcnt < 15 && w->ds_issued[me] > (uint32_t)lgkmcnt &&
      w->ds_issued[me] - (uint32_t)lgkmcnt > w->ds_done[me])
    w->ds_done[me] = w->ds_issued[me] - (uint32_t)lgkmcnt;
  if (vmcnt >= 0 && vmcnt < 63 && w->vm_issued[me] > (uint32_t)vmcnt &&
      w->vm_issued[me] - (uint32_t)vmcnt > w->vm_done[me])
    w->vm_done[me] = w->vm_issued[me] - (uint32_t)vmcnt;
}

static void on_barrier_arrive(void *user, const tks_wave_view *wv, const tks_inst_view *in)
{
  race_state *rs = user;
  if (wv->waves_per_group < 2 || wv->worker >= rs->nworkers || wv->wave_in_group >= MAX_WAVES) return;
  worker *w = &rs->w[wv->worker];
  note_inst(w, in);
  w->ds_done_at_barrier[wv->wave_in_group] = w->ds_done[wv->wave_in_group];
  w->vm_done_at_barrier[wv->wave_in_group] = w->vm_done[wv->wave_in_group];
  w->barrier_inst[wv->wave_in_group] = in->index;
  w->arrive_epoch[wv->wave_in_group] = w->epoch;
}

static void on_lds_access(void *user, const tks_wave_view *wv, const tks_inst_view *in,
                          const uint32_t addr[64], uint32_t bytes, uint64_t exec, int is_write)
{
  race_state *rs = user;
  if (rs->off || is_write == 2 || !bytes || wv->waves_per_group < 2 || wv->worker >= rs->nworkers) return;
  worker *w = &rs->w[wv->worker];
  if (!w->shadow) return;
  note_inst(w, in);
  const uint32_t me = wv->wave_in_group, ep = w->epoch;
  const uint64_t mine = 0xfull << (4 * (me & 15)); /* this wave's nibble of r_bytes */
  const int writes = is_write == 1;
  /* this instruction's sequence number on its counter (on_issue counted it
   * already): DS operations on lgkmcnt; VMEM ones (buffer/global ... lds,
   * flat) on vmcnt, marked with VM_SEQ; others untracked (UINT32_MAX) */
  uint32_t seq = UINT32_MAX;
  if (me < MAX_WAVES && in->cls == TKS_CLASS_DS && w->ds_issued[me]) seq = w->ds_issued[me] - 1;
  else if (me < MAX_WAVES && in->cls == TKS_CLASS_VMEM && w->vm_issued[me]) seq = (w->vm_issued[me] - 1) | VM_SEQ;
  for (uint64_t m = exec; m; m &= m - 1) {
    int lane = __builtin_ctzll(m);
    uint32_t a = addr[lane];
    if (a >= LDS_MAX || bytes > LDS_MAX - a) continue; /* out of range: exec reports it */
    for (uint32_t d = a / 4; d <= (a + bytes - 1) / 4; d++) {
      /* this access's bytes within dword d */
      uint32_t lo = d * 4 < a ? a - d * 4 : 0, hi = d * 4 + 4 > a + bytes ? a + bytes - d * 4 : 4;
      uint8_t mask = (uint8_t)(((1u << hi) - 1) & ~((1u << lo) - 1));
      cell *c = &w->shadow[d];
      uint8_t wov = c->w_bytes & mask;
      if (wov && c->w_wave != me) {
        int b = __builtin_ctz(wov); /* the first overlapping byte names the write */
        if (c->w_epoch == ep) {
          report(w, c->w_wave, c->w_inst[b], 1, me, in, is_write, d * 4 + (uint32_t)b,
                 (uint32_t)__builtin_popcount(wov), 0);
        } else if (c->w_epoch + 1 == ep && c->w_wave < MAX_WAVES && w->arrive_epoch[c->w_wave] == c->w_epoch) {
          /* written in the epoch before this one: was any overlapping byte's
           * write still in flight when its wave reached the barrier? (a
           * writer that ended instead of reaching it gets the benefit of the
           * doubt) */
          for (uint8_t o = wov; o; o &= (uint8_t)(o - 1)) {
            int j = __builtin_ctz(o);
            uint32_t q = c->w_seq[j];
            if (q == UINT32_MAX) continue;
            int pend = (q & VM_SEQ) ? (q & ~VM_SEQ) >= w->vm_done_at_barrier[c->w_wave]
                                    : q >= w->ds_done_at_barrier[c->w_wave];
            if (pend) {
              report(w, c->w_wave, c->w_inst[j], 1, me, in, is_write, d * 4 + (uint32_t)j,
                     (uint32_t)__builtin_popcount(wov), (q & VM_SEQ) ? 2 : 1);
              break;
            }
          }
        }
      }
      if (writes) {
        uint64_t others = c->r_epoch == ep ? c->r_bytes & ~mine & (REPL4 * mask) : 0;
        if (others) {
          /* name a stored reader that read these bytes, else the first other one */
          int k = -1;
          for (int j = 0; j < c->r_n; j++)
            if (c->r_wave[j] != me && ((c->r_bytes >> (4 * c->r_wave[j])) & mask)) { k = j; break; }
          if (k < 0) k = (c->r_n > 0 && c->r_wave[0] != me) ? 0 : 1;
          uint8_t rov = (uint8_t)((others >> (__builtin_ctzll(others) & ~3u)) & mask);
          report(w, c->r_wave[k], c->r_inst[k], 0, me, in, is_write, d * 4 + (uint32_t)__builtin_ctz(rov | 16u),
                 (uint32_t)__builtin_popcount(rov), 0);
        }
        c->w_bytes = (uint8_t)((c->w_epoch == ep && c->w_wave == me ? c->w_bytes : 0) | mask);
        c->w_epoch = ep;
        c->w_wave = (uint8_t)me;
        for (uint8_t o = mask; o; o &= (uint8_t)(o - 1)) {
          int j = __builtin_ctz(o);
          c->w_inst[j] = in->index;
          c->w_seq[j] = seq;
        }
      } else {
        if (c->r_epoch != ep) {
          c->r_epoch = ep;
          c->r_bytes = 0;
          c->r_n = 0;
        }
        if (!(c->r_bytes & mine)) { /* first read of this dword by this wave in the epoch */
          if (c->r_n < 2) {
            c->r_wave[c->r_n] = (uint8_t)me;
            c->r_inst[c->r_n] = in->index;
            c->r_n++;
          }
        }
        c->r_bytes |= (uint64_t)mask << (4 * (me & 15));
      }
    }
  }
}

static int on_dispatch_end(void *user, const tks_dispatch *d, tks_launch_stats *stats, char *err,
                           size_t errlen)
{
  race_state *rs = user;
  uint64_t n = 0;
  for (uint32_t i = 0; i < rs->nworkers; i++) n += rs->w[i].races;
  if (!n) return 0;
  stats->errors_reported += rs->gseen_n;
  /* the races were printed as found; the dispatch error just sums up */
  if (err && errlen)
    snprintf(err, errlen, "tksim: kernel %s failed: %u LDS race(s) between waves reported above",
             rs->kernel, rs->gseen_n ? rs->gseen_n : 1);
  return (int)(rs->gseen_n ? rs->gseen_n : 1);
}

int tks_check_setup(const tks_options *opt)
{
  if (!opt || !opt->check_races) return 0;
  tks_hooks h;
  memset(&h, 0, sizeof h);
  h.user = &g_rs;
  h.dispatch_begin = on_dispatch_begin;
  h.dispatch_end = on_dispatch_end;
  h.group_begin = on_group_begin;
  h.barrier_release = on_barrier_release;
  h.lds_access = on_lds_access;
  h.issue = on_issue;
  h.waitcnt = on_waitcnt;
  h.barrier_arrive = on_barrier_arrive;
  return tks_hooks_add(&h);
}
