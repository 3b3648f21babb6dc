/* model.c: tksim's cycle-approximate timing model of CDNA3, driven by exec's
 * hook stream (sim/exec/hooks.h) and ordering exec's execution (tks_sched).
 *
 * Concurrency. The model takes over the order in which exec runs a
 * non-cooperative dispatch: workgroup i goes to XCD i % 8 (CDNA3 dispatches
 * round-robin over the XCDs), each XCD keeps CUs-per-XCD x k groups resident
 * (k: occupancy from registers and LDS) and starts its next group, in
 * dispatch order, on the slot that frees, at the modeled time it frees; among
 * an XCD's running waves exec always runs the one whose modeled clock is
 * earliest (ties: older group first). So the groups that are resident at the
 * same time share their CU's pipes and their XCD's L2 tags and bandwidth in
 * modeled-time order, and tails and uneven rounds come out of the simulation.
 * XCDs are independent (own L2, a 1/8 share of HBM bandwidth) and run on
 * worker threads in parallel; a dispatch ends when its last group does.
 *
 * Per wave: the clock at which it may issue next, its outstanding vmcnt and
 * lgkmcnt operations with their modeled return times, the ready time of MFMA
 * results per VGPR/AGPR. Per SIMD: VALU, SALU and MFMA pipe calendars (with
 * s_setprio levels). Per CU: the LDS pipe (128 B/clk, bank conflicts from the
 * checker's bank model, sim/check/banks.h) and the vector-memory request path.
 * Per XCD: a set-associative tag array of 128 B lines with the time each
 * line's fill completes (a hit on a line still in flight waits for it) and
 * its dirty 32 B sectors (write-back L2, model v8: a sector's HBM write is
 * charged once, when it turns dirty), the L2 and HBM channels as queues.
 * The Infinity Cache (MALL) in front of HBM, one for the whole GPU, its
 * contents carried between dispatches (model v9; g_mall_all below).
 * Hardware numbers: params.c, with sources.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/banks.h"
#include "exec/hooks.h"
#include "model/params.h"
#include "model/timeline.h"
#include "model/model.h"
#include "model/sample.h"

#define MQ 64          /* outstanding counter ops tracked per wave */
#define MW 16          /* waves per group */
#define MREGS 512      /* v0..v255 then a0..a255 */
#define MXCD 8         /* XCDs (L2 domains) the tables hold */
#define MVALU 2        /* VALU issue ports per SIMD the tables hold (valu_per_issue) */

typedef struct mq { double t[MQ]; int head, n; double floor; } mq;

typedef struct mwave {
  double next;          /* earliest next issue (absolute modeled cycle) */
  double issue;         /* issue clock of the instruction being executed */
  double end;
  double arrive;
  int at_barrier, active;
  mq vm, lgkm;
  int cur_q;            /* 1 vm, 2 lgkm: the entry the current instruction pushed */
  int prio;             /* s_setprio level 0..3 */
  int mfma_regs;        /* any MFMA result pending */
  double valu_hold;     /* its last MFMA holds its VALU ops until then (params.h mfma_valu_hold) */
  double pk_hold;       /* ... and its v_pk_*_f32 / v_pk_mov_b32 / dot ops until then */
  double valu_end;      /* its last VALU op's end: its next one starts no earlier (dual issue pairs two waves, not one) */
  double reg_ready[MREGS];
} mwave;

/* Per-instruction parse cache: MFMA cycles and operand register ranges, the
 * scalar cost (s_nop/s_sleep) and s_setprio level, so no instruction's text
 * is read more than once per XCD. */
typedef struct mparse {
  uint8_t done, nops, kind, slow;
  uint8_t pk_f32;               /* VALU: v_pk_{add,fma,mul}_f32, v_pk_mov_b32 or dot (held to the MFMA's passes + 2) */
  uint8_t fixed;                /* scalar op that waits without using the SALU (s_nop, s_sleep) */
  int8_t prio;                  /* s_setprio level, -1 otherwise */
  float mfma_cycles;
  float hold_valu, hold_pk;     /* MFMA: clocks from its start during which the wave's VALU / PK_F32 ops wait */
  float scalar_cycles;
  double mfma_flops;
  uint16_t first[4], count[4];  /* operand 0 = destination */
  const char *mnem;             /* interned, for the timeline */
} mparse;
typedef struct pcache { mparse *e; uint32_t n; } pcache;

/* A pipe's reservation calendar: time in buckets of CAL_B cycles, each with
 * the cycles already booked, kept as a ring of CAL_N buckets. Exec runs the
 * waves in modeled-time order only within a window (hooks.h), and MFMAs book
 * at their operands' ready time, so bookings arrive slightly out of order; a
 * calendar lets a booking use the gaps an earlier one left. Buckets that fell
 * out of the ring behind the newest booking count as full. */
#define CAL_B 64
#define CAL_N 4096u    /* 262144 cycles of look-behind */
typedef struct cal { uint16_t *used; uint64_t lo, hi, full; double end; } cal;

/* A SIMD pipe with s_setprio levels: one calendar per level. A booking looks
 * for free capacity among the bookings of its own and higher levels only, so
 * a higher-priority wave takes the earliest slots. The lower-priority cycles
 * it overlaps are displaced: they are owed (debt) and booked again before that
 * level's next booking on the pipe, or added to the pipe's end. Levels above
 * 0 exist only once a wave has executed s_setprio (top). */
#define NPRIO 4
typedef struct pcal { cal lv[NPRIO]; double debt[NPRIO]; int top; } pcal;

typedef struct mcu {
  pcal valu[4][MVALU], salu[4], mfma[4]; /* valu: one calendar per dual-issue port */
  cal lds, vmem;
} mcu;

/* A bandwidth channel's reservation calendar (model v9): time in buckets of
 * FQ_B cycles, each with the service cycles booked (fractional: an L2 line
 * takes 1/16 of a clock). A request books at its own time, so one that the
 * CU's request path delays into the future does not hold up requests issued
 * before it (v8's channels were single FIFO queues: a bulk load booked 2000
 * cycles ahead made every later-simulated load of the XCD wait behind it).
 * Buckets behind the ring count as full. */
#define FQ_B 16.0
#define FQ_N 16384u
typedef struct fq { double *used; uint64_t lo, hi; } fq;

typedef struct mxcd {
  pthread_mutex_t mu;           /* the channels; uncontended when ordered (one thread per XCD) */
  fq l2q, hbmq, mallq;          /* L2, HBM and Infinity Cache channels */
  double end;                   /* latest group end */
  double busy;                  /* sum of its groups' durations (slot free to group end) */
  /* sampling (XCD 0): each simulated group's linear id and duration */
  uint32_t *dlin; double *dur; uint64_t ndur, capdur;
  uint64_t groups, l2_hits, l2_misses, mall_hits;
  double hbm_bytes, hbm_wbytes; /* HBM traffic; of which write-backs */
  pcache pc;
} mxcd;

typedef struct mslot {
  mwave w[MW];
  uint32_t nwaves, group;
  uint32_t cu, xcd, kidx;       /* CU (global index), XCD, position among the CU's resident groups */
  double free_at;               /* when this slot's previous group ended */
  double start;                 /* when the current group started (its slot's free_at then) */
  pcache own_pc;                /* cooperative launches: slots of one XCD run on several threads */
  pcache *pc;
  uint64_t va_base, va_size, va_dva; /* the allocation the slot's last global access fell in */
} mslot;

typedef struct mstate {
  const tks_model_params *p;
  const tks_lds_bank_model *banks; /* the emulated target's LDS bank model */
  mslot *slots; uint32_t nslots;
  mcu *cus; uint32_t ncus;
  mxcd x[MXCD];
  uint32_t waves_per_group, lds_bytes;
  const tks_kernel *k;
  int ordered;                  /* exec runs this dispatch in modeled-time order */
  uint32_t kpc, spx, run_domains; /* groups per CU, slots per XCD, XCDs simulated */
  uint64_t max_groups;          /* per simulated XCD (sampling), 0 = all */
  int timeline;
  double tl_dispatch_base_us;   /* timeline: start of this dispatch */
  double tl_end;                /* timeline: latest end drawn */
} mstate;

static mstate g_m;
static double g_tl_next_us;

/* ------------------------------------------------------------ L2 tags */
/* sec: per way, the line's sectors (params.h l2_sector_bytes) it holds;
 * dirty (L2 only): of those, the ones written since the line was filled or
 * the dispatch began (the L2 is write-back: a sector's HBM write is charged
 * once, when it first turns dirty; model v8) */
/* touched (the MALL slices only): sets written since the slices were last
 * emptied, so that emptying them each dispatch costs what was used */
typedef struct l2 { uint64_t *tag; double *ready; uint8_t *sec, *dirty, *touched; uint32_t sets, ways; pthread_mutex_t *locks; } l2;
static l2 g_l2[MXCD];
static pthread_mutex_t g_l2_lock[64];
static pthread_once_t g_l2_once = PTHREAD_ONCE_INIT;
static const tks_model_params *g_l2_p;

/* The Infinity Cache (MALL, memory-attached last level): a memory-side
 * cache in front of HBM that every L2 miss and write-back passes, shared by
 * every XCD (CDNA3 white paper). Two parts (model v9):
 * - g_mall_all, the whole cache (mall_bytes, LRU, indexed by address, so a
 *   line written or read by any XCD in an earlier dispatch is found by every
 *   XCD): what the MALL holds when a dispatch starts. Read-only while the
 *   dispatch runs, so the XCDs' threads see one state whatever their order
 *   (determinism); updated at the dispatch's end from the journals below,
 *   and by tks_model_mem_write (device-side fills between dispatches).
 * - g_mall[x], one slice per XCD of mall_bytes / XCDs, emptied at each
 *   dispatch's start: the lines XCD x brought in or wrote during this
 *   dispatch (v6-v8 kept these slices across dispatches instead, so a line
 *   written by XCD k was never found by XCD j's later reads).
 * The journals: per XCD, a ring of its last fills (reads that missed the
 * L2, slice-sized) and the span of lines it wrote in each allocation; at
 * the dispatch's end the fills go in round-robin over the XCDs, then the
 * written spans (merged over the XCDs, in allocation order). A span stands
 * for every line between the first and last one written: under
 * --model-sample, which runs XCD 0's groups only, it extends their writes
 * to the whole range they cover (what the other XCDs' groups write in a
 * grid that splits a buffer by group); LRU, write-allocate. */
static l2 g_mall[MXCD];
static l2 g_mall_all;
static pthread_mutex_t g_mall_lock[64], g_mall_all_lock[64];
#define MSPAN 64
typedef struct mspan { uint64_t alloc, lo, hi; } mspan; /* lines [lo, hi] of the allocation at line `alloc` */
typedef struct mjournal {
  uint64_t *fill; uint32_t cap, head, n; /* ring: line << 8 | sectors */
  mspan span[MSPAN]; uint32_t nspan;
} mjournal;
static mjournal g_mj[MXCD];

static void cache_alloc(l2 *c, uint64_t bytes, uint32_t ways, uint32_t line, pthread_mutex_t *locks, int dirty)
{
  c->ways = ways;
  c->sets = (uint32_t)(bytes / line / ways);
  c->locks = locks;
  if (!c->sets) return;
  c->tag = calloc((size_t)c->sets * c->ways, sizeof(uint64_t));
  c->ready = calloc((size_t)c->sets * c->ways, sizeof(double));
  c->sec = calloc((size_t)c->sets * c->ways, 1);
  c->dirty = dirty ? calloc((size_t)c->sets * c->ways, 1) : NULL;
  if (!c->tag || !c->ready || !c->sec || (dirty && !c->dirty)) {
    free(c->tag); free(c->ready); free(c->sec); free(c->dirty);
    c->tag = NULL; c->ready = NULL; c->sec = NULL; c->dirty = NULL;
  }
}

static void l2_init(void)
{
  const tks_model_params *p = g_l2_p;
  for (int i = 0; i < 64; i++) { pthread_mutex_init(&g_l2_lock[i], NULL); pthread_mutex_init(&g_mall_lock[i], NULL); }
  for (uint32_t x = 0; x < p->xcds && x < MXCD; x++) {
    cache_alloc(&g_l2[x], p->l2_bytes_per_xcd, p->l2_ways, p->line_bytes, g_l2_lock, 1);
    if (p->mall_bytes) {
      cache_alloc(&g_mall[x], p->mall_bytes / p->xcds, p->mall_ways, p->line_bytes, g_mall_lock, 0);
      if (g_mall[x].tag && !(g_mall[x].touched = calloc(g_mall[x].sets, 1))) g_mall[x].tag = NULL;
      g_mj[x].cap = (uint32_t)(p->mall_bytes / p->xcds / p->line_bytes);
      g_mj[x].fill = malloc((size_t)g_mj[x].cap * sizeof *g_mj[x].fill);
      if (!g_mj[x].fill) g_mj[x].cap = 0;
    }
  }
  for (int i = 0; i < 64; i++) pthread_mutex_init(&g_mall_all_lock[i], NULL);
  if (p->mall_bytes) cache_alloc(&g_mall_all, p->mall_bytes, p->mall_ways, p->line_bytes, g_mall_all_lock, 0);
}

/* Lines stay cached across dispatches; their fill times belong to the
 * dispatch that made them, and none is dirty any more (the end-of-kernel
 * release writes dirty L2 lines back: AMDGPUUsage, GFX942 memory model,
 * buffer_wbl2; their bytes were charged when written). */
static void l2_new_dispatch(void)
{
  for (uint32_t x = 0; x < MXCD; x++) {
    if (g_l2[x].ready) memset(g_l2[x].ready, 0, (size_t)g_l2[x].sets * g_l2[x].ways * sizeof(double));
    if (g_l2[x].dirty) memset(g_l2[x].dirty, 0, (size_t)g_l2[x].sets * g_l2[x].ways);
    /* the MALL slices hold this dispatch's lines only (g_mall_all the rest) */
    l2 *m = &g_mall[x];
    if (m->tag && m->touched)
      for (uint32_t set = 0; set < m->sets; set++)
        if (m->touched[set]) {
          memset(m->tag + (size_t)set * m->ways, 0, m->ways * sizeof(uint64_t));
          memset(m->sec + (size_t)set * m->ways, 0, m->ways);
          m->touched[set] = 0;
        }
    g_mj[x].head = g_mj[x].n = g_mj[x].nspan = 0;
  }
}

static uint32_t cache_set(const l2 *c, uint64_t line) { return (uint32_t)((line ^ (line >> 11)) % c->sets); }

/* 1 when the line is cached with every sector of `need` (the LRU order is
 * left alone). */
static int cache_probe(l2 *c, uint64_t line, uint32_t need)
{
  if (!c->tag) return 0;
  uint32_t set = cache_set(c, line);
  const uint64_t *t = c->tag + (size_t)set * c->ways, key = line + 1;
  pthread_mutex_t *mu = &c->locks[set & 63];
  pthread_mutex_lock(mu);
  uint32_t i = 0;
  while (i < c->ways && t[i] != key) i++;
  int hit = i < c->ways && (need & ~(uint32_t)c->sec[(size_t)set * c->ways + i]) == 0;
  pthread_mutex_unlock(mu);
  return hit;
}

static double dmax(double a, double b) { return a > b ? a : b; }

/* A cache access (L2 or MALL) that fills the sectors it needs, not always
 * the whole line (params.h l2_sector_bytes): `need` is the access's sector
 * mask. A hit (returns 1) finds every needed sector, and *ready is when the
 * line's fill completes; otherwise *fetch gets the sectors to read from
 * below (all of `need` when the line was not cached at all), `fill` is when
 * they arrive, and the line now holds them. LRU within a set, way 0 most
 * recent. */
static int cache_access(l2 *c, uint64_t line, uint32_t need, double fill, double *ready, uint32_t *fetch)
{
  *ready = fill;
  *fetch = need;
  if (!c->tag) return 0;
  uint32_t set = cache_set(c, line);
  size_t base = (size_t)set * c->ways;
  uint64_t *t = c->tag + base, key = line + 1;
  double *r = c->ready + base;
  uint8_t *sc = c->sec + base;
  pthread_mutex_t *mu = &c->locks[set & 63];
  pthread_mutex_lock(mu);
  uint32_t i = 0;
  while (i < c->ways && t[i] != key) i++;
  uint32_t have = i < c->ways ? sc[i] : 0, miss = need & ~have;
  double rd = i < c->ways ? r[i] : fill;
  if (miss && i < c->ways) rd = dmax(rd, fill);
  uint8_t dt = i < c->ways && c->dirty ? c->dirty[base + i] : 0;
  if (i == c->ways) i = c->ways - 1;
  memmove(t + 1, t, i * sizeof *t);
  memmove(r + 1, r, i * sizeof *r);
  memmove(sc + 1, sc, i);
  if (c->dirty) { memmove(c->dirty + base + 1, c->dirty + base, i); c->dirty[base] = dt; }
  t[0] = key;
  r[0] = rd;
  sc[0] = (uint8_t)(have | need);
  if (c->touched) c->touched[set] = 1;
  pthread_mutex_unlock(mu);
  *ready = miss ? fill : rd;
  *fetch = miss;
  return !miss;
}

/* A write into the L2 (write-back, write-allocate: the written sectors are
 * then held, and dirty, without a read from below; a sector only partly
 * written counts as held). Returns the sectors of `need` that were not
 * dirty yet: the only ones whose HBM write is still to be charged. */
static uint32_t cache_write(l2 *c, uint64_t line, uint32_t need, double t)
{
  if (!c->tag || !c->dirty) return need;
  uint32_t set = cache_set(c, line);
  size_t base = (size_t)set * c->ways;
  uint64_t *tg = c->tag + base, key = line + 1;
  double *r = c->ready + base;
  uint8_t *sc = c->sec + base, *dt = c->dirty + base;
  pthread_mutex_t *mu = &c->locks[set & 63];
  pthread_mutex_lock(mu);
  uint32_t i = 0;
  while (i < c->ways && tg[i] != key) i++;
  uint32_t have = i < c->ways ? sc[i] : 0, was = i < c->ways ? dt[i] : 0;
  double rd = i < c->ways ? r[i] : t;
  if (i == c->ways) i = c->ways - 1;
  memmove(tg + 1, tg, i * sizeof *tg);
  memmove(r + 1, r, i * sizeof *r);
  memmove(sc + 1, sc, i);
  memmove(dt + 1, dt, i);
  tg[0] = key;
  r[0] = rd;
  sc[0] = (uint8_t)(have | need);
  dt[0] = (uint8_t)(was | need);
  pthread_mutex_unlock(mu);
  return need & ~was;
}

static int l2_access(uint32_t xcd, uint64_t line, uint32_t need, double fill, double *ready, uint32_t *fetch)
{
  return cache_access(&g_l2[xcd], line, need, fill, ready, fetch);
}

/* ------------------------------------------------------------ MALL journals */
/* The sector mask of a whole line (params.h l2_sector_bytes), as h_global. */
static uint32_t full_sectors(const tks_model_params *p)
{
  uint32_t sb = p->l2_sector_bytes && p->l2_sector_bytes < p->line_bytes ? p->l2_sector_bytes : p->line_bytes;
  uint32_t n = p->line_bytes / sb;
  return n >= 8 ? 0xffu : (1u << n) - 1;
}

/* XCD x brought `sec` of `line` into the MALL (called under the XCD's mu) */
static void mj_fill(uint32_t x, uint64_t line, uint32_t sec)
{
  mjournal *j = &g_mj[x];
  if (!j->cap) return;
  j->fill[(j->head + j->n) % j->cap] = line << 8 | sec;
  if (j->n < j->cap) j->n++;
  else j->head = (j->head + 1) % j->cap;
}

/* XCD x wrote `line` of the allocation starting at line `alloc` */
static void mj_write(uint32_t x, uint64_t alloc, uint64_t line, uint32_t sec)
{
  mjournal *j = &g_mj[x];
  for (uint32_t i = j->nspan; i-- > 0;)
    if (j->span[i].alloc == alloc) {
      if (line < j->span[i].lo) j->span[i].lo = line;
      if (line > j->span[i].hi) j->span[i].hi = line;
      return;
    }
  if (j->nspan < MSPAN) j->span[j->nspan++] = (mspan){alloc, line, line};
  else mj_fill(x, line, sec); /* more written allocations than spans: the line itself */
}

static int cmp_span(const void *a, const void *b)
{
  const mspan *x = a, *y = b;
  return x->alloc < y->alloc ? -1 : x->alloc > y->alloc;
}

/* Lines [lo, hi] written into the whole MALL, at most its capacity (the
 * last ones: LRU keeps those). */
static void mall_insert_range(const tks_model_params *p, uint64_t lo, uint64_t hi)
{
  uint64_t cap = p->mall_bytes / p->line_bytes;
  if (hi - lo + 1 > cap) lo = hi + 1 - cap;
  uint32_t full = full_sectors(p), f;
  double rd;
  for (uint64_t l = lo; l <= hi; l++) cache_access(&g_mall_all, l, full, 0, &rd, &f);
}

/* End of a dispatch: its MALL traffic into the whole MALL (see g_mall_all):
 * the XCDs' fills round-robin (an interleaving of their times), then the
 * written spans, merged over the XCDs per allocation. One thread. */
static void mall_merge(const tks_model_params *p)
{
  if (!g_mall_all.tag) return;
  uint32_t maxn = 0;
  for (uint32_t x = 0; x < MXCD; x++) if (g_mj[x].n > maxn) maxn = g_mj[x].n;
  double rd;
  uint32_t f;
  for (uint32_t k = 0; k < maxn; k++)
    for (uint32_t x = 0; x < MXCD; x++) {
      const mjournal *j = &g_mj[x];
      if (k >= j->n) continue;
      uint64_t e = j->fill[(j->head + k) % j->cap];
      cache_access(&g_mall_all, e >> 8, (uint32_t)(e & 0xff), 0, &rd, &f);
    }
  mspan sp[MXCD * MSPAN];
  uint32_t n = 0;
  for (uint32_t x = 0; x < MXCD; x++)
    for (uint32_t i = 0; i < g_mj[x].nspan; i++) sp[n++] = g_mj[x].span[i];
  qsort(sp, n, sizeof *sp, cmp_span);
  for (uint32_t i = 0; i < n;) {
    uint64_t lo = sp[i].lo, hi = sp[i].hi;
    uint32_t k = i + 1;
    for (; k < n && sp[k].alloc == sp[i].alloc; k++) {
      if (sp[k].lo < lo) lo = sp[k].lo;
      if (sp[k].hi > hi) hi = sp[k].hi;
    }
    mall_insert_range(p, lo, hi);
    i = k;
  }
  for (uint32_t x = 0; x < MXCD; x++) g_mj[x].head = g_mj[x].n = g_mj[x].nspan = 0;
}

void tks_model_mem_write(uint64_t addr, uint64_t bytes)
{
  if (!bytes) return;
  if (!g_l2_p) {
    const char *m = getenv("TKSIM_MODEL");
    g_l2_p = m ? tks_model_params_for(tks_model_id(m)) : NULL;
    if (!g_l2_p) return;
  }
  pthread_once(&g_l2_once, l2_init);
  const tks_model_params *p = g_l2_p;
  if (!g_mall_all.tag) return;
  const tks_alloc *al = tks_mem_find(addr, bytes);
  uint64_t da = al ? addr - al->base + al->dva : addr;
  mall_insert_range(p, da / p->line_bytes, (da + bytes - 1) / p->line_bytes);
}


/* ------------------------------------------------------------ calendars */
static void cal_reset(cal *c)
{
  if (c->used) memset(c->used, 0, CAL_N * sizeof *c->used);
  c->lo = c->hi = c->full = 0;
  c->end = 0;
}

/* Cycles booked in bucket b (buckets behind the ring count as full). */
static uint32_t cal_used(const cal *c, uint64_t b)
{
  if (b < c->lo) return CAL_B;
  if (!c->used || b >= c->lo + CAL_N) return 0;
  return c->used[b % CAL_N];
}

/* Makes bucket `last` addressable, sliding the ring forward if needed. */
static void cal_reach(cal *c, uint64_t last)
{
  if (!c->used) c->used = calloc(CAL_N, sizeof *c->used);
  if (last < c->lo + CAL_N) return;
  uint64_t nlo = last - CAL_N + 1;
  for (uint64_t b = c->lo; b < nlo && b < c->lo + CAL_N; b++) c->used[b % CAL_N] = 0;
  c->lo = nlo;
  if (c->full < nlo) c->full = nlo;
}

static void cal_add(cal *c, uint64_t b, uint32_t add)
{
  cal_reach(c, b);
  if (b >= c->lo) c->used[b % CAL_N] = (uint16_t)(c->used[b % CAL_N] + add);
}

/* Books dur cycles at or after t; returns the start. */
static double cal_book(cal *c, double t, double dur)
{
  uint64_t b = (uint64_t)(t / CAL_B);
  if (b < c->full) b = c->full;
  if (b < c->lo) b = c->lo;
  while (cal_used(c, b) >= CAL_B) b++;
  double st = (double)b * CAL_B + cal_used(c, b);
  if (st < t) st = t;
  double need = dur;
  while (need > 0) {
    double room = CAL_B - (double)cal_used(c, b);
    double take = need < room ? need : room;
    cal_add(c, b, (uint32_t)(take + 0.5 > room ? room : take + 0.5));
    need -= take;
    if (need > 0) b++;
  }
  if (b > c->hi) c->hi = b;
  while (cal_used(c, c->full) >= CAL_B && c->full <= c->hi) c->full++;
  if (st + dur > c->end) c->end = st + dur;
  return st;
}

static void pcal_reset(pcal *p)
{
  for (int l = 0; l < NPRIO; l++) { cal_reset(&p->lv[l]); p->debt[l] = 0; }
  p->top = 0;
}

/* Cycles of bucket b booked at levels lo..hi. */
static uint32_t pcal_used(const pcal *p, int lo, int hi, uint64_t b)
{
  uint32_t u = 0;
  for (int l = lo; l <= hi; l++) u += cal_used(&p->lv[l], b);
  return u;
}

/* First-fit of dur cycles at or after t among the bookings of levels >= lvl,
 * recorded at lvl; capacity it takes from lower levels becomes their debt. */
static double pcal_fit(pcal *p, int lvl, double t, double dur)
{
  cal *c = &p->lv[lvl];
  uint64_t b = (uint64_t)(t / CAL_B);
  for (int l = lvl; l <= p->top; l++) { /* buckets a level filled alone are full */
    if (b < p->lv[l].full) b = p->lv[l].full;
    if (p->lv[l].used && b < p->lv[l].lo) b = p->lv[l].lo;
  }
  while (pcal_used(p, lvl, p->top, b) >= CAL_B) b++;
  double st = (double)b * CAL_B + pcal_used(p, lvl, p->top, b);
  if (st < t) st = t;
  double need = dur;
  while (need > 0) {
    double hi = pcal_used(p, lvl, p->top, b);
    double room = hi < CAL_B ? CAL_B - hi : 0;
    double take = need < room ? need : room;
    uint32_t add = (uint32_t)(take + 0.5 > room ? room : take + 0.5);
    if (lvl > 0 && add) {
      double lo = pcal_used(p, 0, lvl - 1, b);
      double over = dmax(0, hi + add + lo - CAL_B) - dmax(0, hi + lo - CAL_B);
      if (over > 0) { /* owed by the highest lower level booked here */
        int l = lvl - 1;
        while (l > 0 && !cal_used(&p->lv[l], b)) l--;
        p->debt[l] += over;
      }
    }
    cal_add(c, b, add);
    need -= take;
    if (need > 0) b++;
  }
  if (b > c->hi) c->hi = b;
  while (cal_used(c, c->full) >= CAL_B && c->full <= c->hi) c->full++;
  if (st + dur > c->end) c->end = st + dur;
  return st;
}

/* Books dur cycles at or after t for a wave at s_setprio level lvl. */
static double pcal_book(pcal *p, int lvl, double t, double dur)
{
  if (lvl > p->top) p->top = lvl;
  if (p->top == 0) return cal_book(&p->lv[0], t, dur);
  if (p->debt[lvl] > 0) { /* this level's displaced cycles run first */
    double d = p->debt[lvl];
    p->debt[lvl] = 0;
    t = pcal_fit(p, lvl, t, d) + d;
  }
  return pcal_fit(p, lvl, t, dur);
}

/* ------------------------------------------------------------ channels */
static void fq_reset(fq *q)
{
  if (q->used && q->hi >= q->lo) {
    uint64_t n = q->hi - q->lo + 1;
    if (n >= FQ_N) memset(q->used, 0, FQ_N * sizeof *q->used);
    else for (uint64_t b = q->lo; b <= q->hi; b++) q->used[b % FQ_N] = 0;
  }
  q->lo = q->hi = 0;
}

static double fq_used(const fq *q, uint64_t b)
{
  if (b < q->lo) return FQ_B;
  if (!q->used || b >= q->lo + FQ_N) return 0;
  return q->used[b % FQ_N];
}

/* When dur cycles of service booked at or after t would end; books them
 * when `book` (the first free capacity from t on, bucket by bucket). */
static double fq_at(fq *q, double t, double dur, int book)
{
  if (book && !q->used && !(q->used = calloc(FQ_N, sizeof *q->used))) return t + dur;
  uint64_t b = (uint64_t)(t > 0 ? t / FQ_B : 0);
  if (b < q->lo) b = q->lo;
  double need = dur, end = t;
  for (;;) {
    if (book && b >= q->lo + FQ_N) { /* slide the ring forward */
      uint64_t nlo = b - FQ_N + 1;
      for (uint64_t k = q->lo; k < nlo && k < q->lo + FQ_N; k++) q->used[k % FQ_N] = 0;
      q->lo = nlo;
    }
    double u = fq_used(q, b), room = FQ_B - u;
    if (room > 1e-9) {
      double take = need < room ? need : room;
      double st = (double)b * FQ_B + u;
      end = dmax(t, st) + take;
      if (book) { q->used[b % FQ_N] = u + take; if (b > q->hi) q->hi = b; }
      need -= take;
      if (need <= 1e-12) break;
    }
    b++;
  }
  return dmax(end, t + dur);
}

/* ------------------------------------------------------------ queues */
static void q_push(mq *q, double t)
{
  if (q->n == MQ) { /* too many in flight: fold the oldest into the floor */
    if (q->t[q->head] > q->floor) q->floor = q->t[q->head];
    q->head = (q->head + 1) % MQ;
    q->n--;
  }
  q->t[(q->head + q->n) % MQ] = t;
  q->n++;
}

static double *q_last(mq *q) { return q->n ? &q->t[(q->head + q->n - 1) % MQ] : NULL; }

/* s_waitcnt cnt=N: the wave resumes when all but the newest N ops returned
 * (loads of one counter return in order on gfx9, ISA guide s_waitcnt). */
static double q_wait(mq *q, int keep)
{
  double t = q->floor;
  while (q->n > keep) {
    if (q->t[q->head] > t) t = q->t[q->head];
    q->head = (q->head + 1) % MQ;
    q->n--;
  }
  q->floor = 0;
  return t;
}

/* ------------------------------------------------------------ parsing */
enum { K_OTHER = 0, K_MFMA, K_VALU };

static const char *intern(const char *s, size_t n)
{
  static char *tab[1024];
  static int ntab;
  static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_lock(&mu);
  for (int i = 0; i < ntab; i++)
    if (strlen(tab[i]) == n && !memcmp(tab[i], s, n)) { pthread_mutex_unlock(&mu); return tab[i]; }
  const char *r = "inst";
  if (ntab < 1024) {
    char *c = malloc(n + 1);
    memcpy(c, s, n);
    c[n] = 0;
    tab[ntab++] = c;
    r = c;
  }
  pthread_mutex_unlock(&mu);
  return r;
}

/* v5 / v[4:7] / a[0:15] -> unified index range; other operands skipped. */
static int parse_reg(const char *s, uint16_t *first, uint16_t *count)
{
  int base;
  if (*s == 'v') base = 0; else if (*s == 'a') base = 256; else return 0;
  s++;
  int lo, hi;
  if (*s == '[') {
    if (sscanf(s, "[%d:%d]", &lo, &hi) != 2) return 0;
  } else if (*s >= '0' && *s <= '9') {
    lo = hi = atoi(s);
  } else return 0;
  if (lo < 0 || hi < lo || hi > 255) return 0;
  *first = (uint16_t)(base + lo);
  *count = (uint16_t)(hi - lo + 1);
  return 1;
}

/* MFMA cycles = FLOPs / per-SIMD rate of the input type (matrix instruction
 * calculator's "Execution cycles"); v_mfma[_scale]_<out>_<M>x<N>x<K>[_<B>b]_<in>.
 * gfx950's f8f6f4 MFMAs take their operand formats from cbsz (A) and blgp (B)
 * (CDNA4 ISA guide: 0 fp8, 1 bf8, 2 fp6, 3 bf6, 4 fp4): fp8 rate if either is
 * fp8/bf8, else the fp6/fp4 rate. CDNA4's double-rate shapes are the ones
 * CDNA3 lacks; the others run at the legacy rate (params.h). */
static int cdna4_shape(const char *m)
{
  static const char *const shapes[] = {"_16x16x32_bf16", "_16x16x32_f16", "_32x32x16_bf16", "_32x32x16_f16",
                                       "_16x16x64_i8", "_32x32x32_i8", "_f8f6f4"};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    const char *h = strstr(m, shapes[i]);
    if (h && h[strlen(shapes[i])] == 0) return 1;
  }
  return 0;
}

static void parse_mfma(const char *m, const char *text, const tks_model_params *p, mparse *r)
{
  int M = 0, N = 0, K = 0, B = 1;
  const char *s = strstr(m, "_mfma_");
  if (s) s += 5;
  while (s && *s && !(s[0] == '_' && s[1] >= '0' && s[1] <= '9')) s = strchr(s + 1, '_');
  if (!s || sscanf(s + 1, "%dx%dx%d", &M, &N, &K) != 3) { r->mfma_cycles = 16; r->mfma_flops = 0; return; }
  const char *b = strstr(s, "b_");
  const char *u = strchr(s + 1, '_');
  if (u && b && b > u && sscanf(u + 1, "%db_", &B) != 1) B = 1;
  int t = TKS_MT_F16;
  if (strstr(m, "f8f6f4")) {
    const char *c = strstr(text, "cbsz:"), *g = strstr(text, "blgp:");
    int fa = c ? atoi(c + 5) : 0, fb = g ? atoi(g + 5) : 0;
    t = (fa <= 1 || fb <= 1) ? TKS_MT_F8 : TKS_MT_F4;
  }
  else if (strstr(m, "xf32")) t = TKS_MT_XF32;
  else if (strstr(m, "f64")) t = TKS_MT_F64;
  else if (strstr(m, "i8")) t = TKS_MT_I8;
  else if (strstr(m, "fp8") || strstr(m, "bf8")) t = TKS_MT_F8;
  else if (strstr(m, "bf16") || strstr(m, "f16")) t = TKS_MT_F16;
  else t = TKS_MT_F32;
  r->mfma_flops = 2.0 * M * N * K * B;
  double c = r->mfma_flops / (cdna4_shape(m) ? p->mfma_flops_per_simd_clk[t] : p->mfma_legacy_flops_per_simd_clk[t]);
  r->mfma_cycles = (float)(c < p->mfma_min_cycles ? p->mfma_min_cycles : c);
}

static mparse *parse(mslot *s, const tks_inst_view *in)
{
  pcache *pc = s->pc;
  if (in->index >= pc->n) {
    uint32_t n = pc->n ? pc->n : 256;
    while (n <= in->index) n *= 2;
    pc->e = realloc(pc->e, n * sizeof *pc->e);
    memset(pc->e + pc->n, 0, (n - pc->n) * sizeof *pc->e);
    pc->n = n;
  }
  mparse *r = &pc->e[in->index];
  if (r->done) return r;
  const char *t = in->text ? in->text : "";
  size_t ml = strcspn(t, " ");
  r->mnem = intern(t, ml);
  r->prio = -1;
  r->scalar_cycles = (float)g_m.p->salu_cycles;
  /* s_nop N: N+1 wait states; s_sleep N: 64*N clocks (ISA guide); neither uses
   * the SALU. The disassembler may print N in hex (s_sleep 0x7f). */
  if (ml == 5 && !strncmp(t, "s_nop", 5)) { r->fixed = 1; r->scalar_cycles = (float)(g_m.p->nop_wait_state_cycles * (strtol(t + 5, NULL, 0) + 1)); }
  else if (ml == 7 && !strncmp(t, "s_sleep", 7)) { r->fixed = 1; r->scalar_cycles = (float)(64.0 * strtol(t + 7, NULL, 0)); }
  else if (ml == 9 && !strncmp(t, "s_setprio", 9)) r->prio = (int8_t)(strtol(t + 9, NULL, 0) & 3);
  if (in->cls == TKS_CLASS_MFMA) { r->kind = K_MFMA; parse_mfma(r->mnem, t, g_m.p, r); }
  else if (in->cls == TKS_CLASS_VALU) {
    r->kind = K_VALU;
    r->slow = strstr(r->mnem, "f64") || strstr(r->mnem, "_exp_") || strstr(r->mnem, "_log_") ||
              strstr(r->mnem, "_rcp_") || strstr(r->mnem, "_rsq_") || strstr(r->mnem, "_sqrt_") ||
              strstr(r->mnem, "_sin_") || strstr(r->mnem, "_cos_");
    /* held to an MFMA's passes + 2 (params.c mfma_valu_hold): packed f32 and dot */
    r->pk_f32 = !strncmp(r->mnem, "v_pk_add_f32", 12) || !strncmp(r->mnem, "v_pk_fma_f32", 12) ||
                !strncmp(r->mnem, "v_pk_mul_f32", 12) || !strncmp(r->mnem, "v_pk_mov_b32", 12) ||
                !strncmp(r->mnem, "v_dot", 5);
  }
  if (r->kind) {
    const char *q = t + ml;
    while (*q && r->nops < 4) {
      while (*q == ' ' || *q == ',') q++;
      if (!*q) break;
      uint16_t f, c;
      if (parse_reg(q, &f, &c)) { r->first[r->nops] = f; r->count[r->nops] = c; }
      else { r->first[r->nops] = 0; r->count[r->nops] = 0; }
      r->nops++;
      q += strcspn(q, ",");
    }
  }
  if (r->kind == K_MFMA) {
    /* params.c mfma_valu_hold: in 4-clock slots from the MFMA's issue, an XDL
     * MFMA holds the wave's VALU ops off for 1 + (widest A/B source bytes) /
     * 16 slots and its PK_F32 / dot ops until passes + 2 (+1 with an A source
     * of 16 B or more); f32 and f64 MFMAs (not XDL) hold every VALU op until
     * passes + 2. Operands 1 and 2 are A and B. */
    double slot = g_m.p->issue_cycles, passes = ceil(r->mfma_cycles / slot);
    int bytes = 4 * (r->nops > 2 && r->count[2] > r->count[1] ? r->count[2] : r->nops > 1 ? r->count[1] : 1);
    size_t mlen = strlen(r->mnem);
    int sgemm = mlen > 4 && !strcmp(r->mnem + mlen - 3, "f32") && r->mnem[mlen - 4] != 'x';
    int xdl = !strstr(r->mnem, "f64") && !sgemm;
    if (xdl) {
      r->hold_valu = (float)(slot * (1 + bytes / 16));
      r->hold_pk = (float)(slot * (passes + 2 + (r->nops > 1 && 4 * r->count[1] >= 16)));
    } else r->hold_valu = r->hold_pk = (float)(slot * (passes + 2));
  }
  r->done = 1;
  return r;
}

/* ------------------------------------------------------------ timeline */
static const char *const g_cls_name[TKS_CLASS_COUNT] = {
  "SALU", "SMEM", "VALU", "MFMA", "LDS", "VMEM", "BRANCH", "WAIT", "BARRIER", "MISC"};

/* The timeline draws one CU's view: a resident-group slot (the first of CU 0
 * on XCD 0, or TKSIM_TIMELINE_SLOT's), every group that runs there, at its
 * modeled times. */
static uint32_t g_tl_slot;
static int tl_on(const mslot *s) { return g_m.timeline && g_tl_slot < g_m.nslots && s == &g_m.slots[g_tl_slot]; }

static void tl(mslot *s, uint32_t tid, const char *name, const char *cat, double t0, double t1)
{
  if (!tl_on(s)) return;
  double cyc_us = 1e6 / g_m.p->clock_hz;
  tks_timeline_span(tid, name, cat, g_m.tl_dispatch_base_us + t0 * cyc_us, (t1 - t0) * cyc_us);
  if (t1 > g_m.tl_end) g_m.tl_end = t1;
}

/* ------------------------------------------------------------ layout */
/* Slot -> CU and XCD. Ordered: slot = xcd * spx + j, j's CU is j % CUs-per-XCD
 * (the first round puts one group on every CU), kidx = j / CUs-per-XCD.
 * Cooperative (every group resident at once, several threads per XCD): slot =
 * group, XCD = group % 8, and each slot has a CU model of its own. */
static void layout(uint32_t nslots)
{
  const tks_model_params *p = g_m.p;
  uint32_t xcds = p->xcds < MXCD ? p->xcds : MXCD, cpx = p->cus / xcds;
  uint32_t ncus = g_m.ordered ? p->cus : nslots;
  if (nslots > g_m.nslots) {
    g_m.slots = realloc(g_m.slots, nslots * sizeof *g_m.slots);
    memset(g_m.slots + g_m.nslots, 0, (nslots - g_m.nslots) * sizeof *g_m.slots);
    g_m.nslots = nslots;
  }
  if (ncus > g_m.ncus) {
    g_m.cus = realloc(g_m.cus, ncus * sizeof *g_m.cus);
    memset(g_m.cus + g_m.ncus, 0, (ncus - g_m.ncus) * sizeof *g_m.cus);
    g_m.ncus = ncus;
  }
  for (uint32_t i = 0; i < ncus; i++) {
    mcu *c = &g_m.cus[i];
    for (int j = 0; j < 4; j++) {
      for (int v = 0; v < MVALU; v++) pcal_reset(&c->valu[j][v]);
      pcal_reset(&c->salu[j]); pcal_reset(&c->mfma[j]);
    }
    cal_reset(&c->lds); cal_reset(&c->vmem);
  }
  for (uint32_t i = 0; i < nslots; i++) {
    mslot *s = &g_m.slots[i];
    s->free_at = 0;
    if (g_m.ordered) {
      uint32_t j = i % g_m.spx;
      s->xcd = i / g_m.spx;
      s->cu = s->xcd * cpx + j % cpx;
      s->kidx = j / cpx;
      s->pc = &g_m.x[s->xcd % MXCD].pc;
    } else {
      s->xcd = i % xcds;
      s->cu = i;
      s->kidx = 0;
      s->pc = &s->own_pc;
    }
  }
}

/* ------------------------------------------------------------ hooks */
static void h_dispatch_begin(void *u, const tks_dispatch *d, uint32_t nworkers,
                             uint32_t waves_per_group, uint32_t lds_bytes)
{
  /* parse caches start empty every dispatch: a kernel of an unloaded module
   * may leave its address to another kernel (the allocations are kept) */
  for (uint32_t i = 0; i < MXCD; i++) {
    mxcd *x = &g_m.x[i];
    pcache pc = x->pc;
    fq q3[3] = {x->l2q, x->hbmq, x->mallq};
    for (int k = 0; k < 3; k++) fq_reset(&q3[k]);
    uint32_t *dlin = x->dlin;
    double *dur = x->dur;
    uint64_t capdur = x->capdur;
    if (pc.e) memset(pc.e, 0, pc.n * sizeof *pc.e);
    pthread_mutex_destroy(&x->mu);
    memset(x, 0, sizeof *x);
    pthread_mutex_init(&x->mu, NULL);
    x->pc = pc;
    x->l2q = q3[0], x->hbmq = q3[1], x->mallq = q3[2];
    x->dlin = dlin, x->dur = dur, x->capdur = capdur;
  }
  for (uint32_t i = 0; i < g_m.nslots; i++)
    if (g_m.slots[i].own_pc.e) memset(g_m.slots[i].own_pc.e, 0, g_m.slots[i].own_pc.n * sizeof *g_m.slots[i].own_pc.e);
  g_m.ordered = !d->cooperative;
  layout(nworkers);
  for (uint32_t i = 0; i < g_m.nslots; i++) g_m.slots[i].va_size = 0; /* freed allocations' addresses return */
  l2_new_dispatch();
  g_m.k = d->k;
  g_m.waves_per_group = waves_per_group;
  g_m.lds_bytes = lds_bytes;
  g_m.tl_dispatch_base_us = g_tl_next_us;
  g_m.tl_end = 0;
  if (g_m.timeline) {
    char nm[TKS_NAME_MAX + 64]; /* kernel names run to TKS_NAME_MAX (rocPRIM's mangled ones ~475 B) */
    snprintf(nm, sizeof nm, "%s (%s)", d->k->name, g_m.p->name);
    tks_timeline_dispatch(nm, g_tl_next_us);
  }
}

static void h_group_begin(void *u, uint32_t worker, const uint32_t gid[3], uint32_t linear,
                          uint32_t nwaves)
{
  mslot *s = &g_m.slots[worker];
  s->nwaves = nwaves > MW ? MW : nwaves;
  memset(s->w, 0, s->nwaves * sizeof s->w[0]);
  s->group = linear;
  s->start = s->free_at;
  for (uint32_t i = 0; i < s->nwaves; i++) { s->w[i].active = 1; s->w[i].next = s->free_at; }
}

static void h_group_end(void *u, uint32_t worker, uint32_t linear)
{
  mslot *s = &g_m.slots[worker];
  double t = s->free_at;
  for (uint32_t i = 0; i < s->nwaves; i++) t = dmax(t, dmax(s->w[i].end, s->w[i].next));
  s->free_at = t;
  mxcd *x = &g_m.x[s->xcd % MXCD];
  pthread_mutex_lock(&x->mu);
  if (t > x->end) x->end = t;
  x->busy += t - s->start;
  if (g_m.run_domains == 1 && s->xcd == 0) {
    if (x->ndur == x->capdur) {
      uint64_t c = x->capdur ? 2 * x->capdur : 256;
      uint32_t *nl = realloc(x->dlin, c * sizeof *nl);
      double *nd = realloc(x->dur, c * sizeof *nd);
      if (nl) x->dlin = nl;
      if (nd) x->dur = nd;
      if (nl && nd) x->capdur = c;
    }
    if (x->ndur < x->capdur) { x->dlin[x->ndur] = linear; x->dur[x->ndur++] = t - s->start; }
  }
  x->groups++;
  pthread_mutex_unlock(&x->mu);
}

static mwave *wave_of(mslot *s, const tks_wave_view *wv)
{
  return &s->w[wv->wave_in_group < MW ? wv->wave_in_group : MW - 1];
}

static void h_issue(void *u, const tks_wave_view *wv, const tks_inst_view *in)
{
  const tks_model_params *p = g_m.p;
  mslot *s = &g_m.slots[wv->worker];
  mcu *cu = &g_m.cus[s->cu];
  /* wave w of the CU's kidx-th resident group: SIMD (kidx * waves + w) mod 4,
   * so groups of 1-3 waves spread over the SIMDs (groups of 4 and 8 waves:
   * SIMD w mod 4, as before) */
  uint32_t wi = wv->wave_in_group < MW ? wv->wave_in_group : MW - 1,
           simd = (wv->simd + s->kidx * g_m.waves_per_group) & 3;
  mwave *w = &s->w[wi];
  double t = w->next;
  w->cur_q = 0;
  uint32_t tid = wi;
  switch (in->cls) {
  case TKS_CLASS_MFMA: {
    mparse *r = parse(s, in);
    double ready = t;
    if (w->mfma_regs)
      for (int o = 1; o < r->nops; o++)
        for (int i = 0; i < r->count[o]; i++) {
          int g = r->first[o] + i;
          /* SrcC (operand 3) overlapping a previous result is forwarded */
          double rr = w->reg_ready[g] + (o == 3 ? 0 : p->mfma_dep_tail_cycles);
          if (w->reg_ready[g] > 0 && rr > ready) ready = rr;
        }
    double st = pcal_book(&cu->mfma[simd], w->prio, ready, r->mfma_cycles);
    if (r->nops > 0)
      for (int i = 0; i < r->count[0]; i++) w->reg_ready[r->first[0] + i] = st + r->mfma_cycles;
    w->mfma_regs = 1;
    if (p->mfma_valu_hold) { w->valu_hold = st + r->hold_valu; w->pk_hold = st + r->hold_pk; }
    if (st > t) tl(s, tid, "mfma dependency", "wait", t, st);
    w->next = st + p->issue_cycles;
    tl(s, 100 + simd, r->mnem, "MFMA", st, st + r->mfma_cycles);
    tl(s, tid, r->mnem, "MFMA", st, st + p->issue_cycles);
    return;
  }
  case TKS_CLASS_VALU: {
    mparse *r = parse(s, in);
    double ready = t;
    if (w->mfma_regs)
      for (int o = 1; o < r->nops; o++)
        for (int i = 0; i < r->count[o]; i++) {
          int g = r->first[o] + i;
          if (w->reg_ready[g] > 0) ready = dmax(ready, w->reg_ready[g] + p->mfma_dep_tail_cycles);
        }
    double c = r->slow ? p->valu_slow_cycles : p->valu_cycles;
    /* the wave's last MFMA holds its VALU ops (params.c mfma_valu_hold; an
     * MFMA of another wave on the SIMD does not) */
    ready = dmax(ready, r->pk_f32 ? w->pk_hold : w->valu_hold);
    /* dual issue: the SIMD issues up to valu_per_issue VALU ops of different
     * waves per issue cycle, modeled as that many ports, each a calendar. A
     * wave takes the port whose last booking ends first (ties: its home port,
     * from its place among the SIMD's waves, so two waves in step pair up);
     * with s_setprio in play it keeps to its home port. A wave's own ops
     * still run one after another (a quarter-rate op keeps its next VALU op
     * 16 clocks away), so one wave alone runs as without dual issue. */
    ready = dmax(ready, w->valu_end);
    uint32_t nport = p->valu_per_issue >= MVALU ? MVALU : 1;
    uint32_t port = nport > 1 ? ((s->kidx * g_m.waves_per_group + wi) / 4) % nport : 0;
    pcal *vp = cu->valu[simd];
    if (nport > 1 && w->prio == 0 && vp[0].top == 0 && vp[1].top == 0) {
      uint32_t other = port ^ 1;
      if (dmax(ready, vp[other].lv[0].end) < dmax(ready, vp[port].lv[0].end)) port = other;
    }
    double st = pcal_book(&vp[port], w->prio, ready, c);
    w->valu_end = st + c;
    if (st > t) tl(s, tid, "dependency", "wait", t, st);
    w->next = st + p->issue_cycles;
    tl(s, tid, r->mnem, "VALU", st, st + c);
    return;
  }
  case TKS_CLASS_SALU: case TKS_CLASS_BRANCH: case TKS_CLASS_MISC: {
    mparse *r = parse(s, in);
    double st = t;
    double c = r->scalar_cycles;
    if (r->prio >= 0) w->prio = r->prio; /* applies from the next instruction */
    if (!r->fixed) st = pcal_book(&cu->salu[simd], w->prio, t, c);
    w->next = st + c;
    if (tl_on(s)) tl(s, tid, r->mnem, g_cls_name[in->cls], st, st + c);
    return;
  }
  case TKS_CLASS_SMEM:
    q_push(&w->lgkm, t + p->smem_latency);
    w->next = t + p->issue_cycles;
    if (tl_on(s)) tl(s, tid, parse(s, in)->mnem, "SMEM", t, t + p->issue_cycles);
    return;
  case TKS_CLASS_DS:
    /* ds ops without an LDS access (all lanes off) return after the latency */
    w->issue = t;
    q_push(&w->lgkm, t + p->lds_latency);
    w->cur_q = 2;
    w->next = t + p->issue_cycles;
    return;
  case TKS_CLASS_VMEM:
    w->issue = t;
    q_push(&w->vm, t + p->l2_hit_latency);
    w->cur_q = 1;
    w->next = t + p->issue_cycles;
    return;
  default: /* waitcnt, barrier: handled by their hooks */
    w->issue = t;
    w->next = t + p->issue_cycles;
    return;
  }
}

static void h_lds(void *u, const tks_wave_view *wv, const tks_inst_view *in, const uint32_t addr[64],
                  uint32_t bytes, uint64_t exec, int is_write)
{
  const tks_model_params *p = g_m.p;
  mslot *s = &g_m.slots[wv->worker];
  mwave *w = wave_of(s, wv);
  tks_lds_cost c = tks_lds_access_cost_on(g_m.banks, addr, exec, bytes, is_write);
  double data = __builtin_popcountll(exec) * (double)bytes / p->lds_bytes_per_clk;
  double cyc = dmax(c.cycles, data);
  if (cyc < 1) cyc = 1;
  if (w->cur_q == 1) {
    /* LDS write of a VMEM load (buffer_load ... lds, global_load_lds_*): it
     * counts on vmcnt, not lgkmcnt, until the data is in LDS (LLVM D124626
     * and PR 75245, SIInsertWaitcnts: "LDS DMA" is a VMEM load and DS store
     * and needs a vmcnt wait before the LDS it wrote is read). So it is done
     * when the load's data has arrived (h_global ran first and set the vm
     * entry) and the LDS took the write; no latency of its own beyond the
     * load's (ASSUMPTION). */
    double *vm = q_last(&w->vm);
    double st = cal_book(&g_m.cus[s->cu].lds, vm ? *vm : w->issue, cyc), ret = st + cyc;
    if (vm) { if (ret > *vm) *vm = ret; }
    else q_push(&w->vm, ret);
    if (tl_on(s)) tl(s, 200 + wv->wave_in_group, parse(s, in)->mnem, "LDS", st, ret);
    return;
  }
  double st = cal_book(&g_m.cus[s->cu].lds, w->issue, cyc);
  double ret = st + cyc + p->lds_latency;
  double *last = w->cur_q == 2 ? q_last(&w->lgkm) : NULL;
  if (last) { if (ret > *last) *last = ret; }
  else q_push(&w->lgkm, ret);
  if (tl_on(s)) tl(s, 200 + wv->wave_in_group, parse(s, in)->mnem, "LDS", st, ret);
}

/* Insertion sort: lane addresses mostly ascend, so this is near linear where
 * qsort's calls per comparison showed in profiles. */
static void sort_lines(uint64_t *v, int n)
{
  for (int i = 1; i < n; i++) {
    uint64_t x = v[i];
    int j = i;
    while (j > 0 && v[j - 1] > x) { v[j] = v[j - 1]; j--; }
    v[j] = x;
  }
}

/* A vector memory access: the wave's distinct 128 B lines go through the
 * CU's request path (cu_bytes_per_clk), then the XCD's L2 channels
 * (l2_bytes_per_clk_per_xcd); lines the L2 misses, and all writes, also
 * through the XCD's share of HBM bandwidth. Data returns after the L2 or HBM
 * latency, or when the line's pending fill completes. */
/* The device-virtual address of a global access (tks_alloc.dva): the L2's
 * sets must not depend on where the host heap happened to be (ASLR moved
 * streaming kernels' modeled times by +-10% from run to run). An address in
 * no allocation (memory checks off) keeps its own value. */
static uint64_t dev_addr(mslot *s, uint64_t a)
{
  if (a - s->va_base >= s->va_size) {
    const tks_alloc *al = tks_mem_find(a, 1);
    if (!al) return a;
    s->va_base = al->base; s->va_size = al->size; s->va_dva = al->dva;
  }
  return a - s->va_base + s->va_dva;
}

static void h_global(void *u, const tks_wave_view *wv, const tks_inst_view *in, const uint64_t addr[64],
                     uint32_t bytes, uint64_t exec, int is_write)
{
  const tks_model_params *p = g_m.p;
  mslot *s = &g_m.slots[wv->worker];
  mwave *w = wave_of(s, wv);
  /* each line the lanes touch, with the sectors of it they touch (params.h
   * l2_sector_bytes; 0: the whole line), as line << 8 | mask */
  uint64_t lines[128];
  uint32_t sb = p->l2_sector_bytes && p->l2_sector_bytes < p->line_bytes ? p->l2_sector_bytes : p->line_bytes;
  uint32_t nsec = p->line_bytes / sb;
  if (nsec > 8) { nsec = 8; sb = p->line_bytes / 8; }
  const uint32_t full = (1u << nsec) - 1;
  int n = 0;
  uint64_t walloc = ~0ull; /* a write's allocation (its first lane's), as a line: the MALL journal's span key */
  for (int l = 0; l < 64; l++)
    if (exec >> l & 1) {
      uint64_t da = dev_addr(s, addr[l]), de = da + (bytes ? bytes : 1) - 1;
      if (walloc == ~0ull) walloc = (addr[l] - s->va_base < s->va_size ? s->va_dva : da) / p->line_bytes;
      uint64_t a = da / p->line_bytes, b = de / p->line_bytes;
      uint32_t s0 = (uint32_t)(da % p->line_bytes) / sb, s1 = (uint32_t)(de % p->line_bytes) / sb;
      if (b == a) lines[n++] = a << 8 | (((2u << s1) - 1) & ~((1u << s0) - 1));
      else {
        lines[n++] = a << 8 | (full & ~((1u << s0) - 1));
        lines[n++] = b << 8 | ((2u << s1) - 1);
      }
    }
  sort_lines(lines, n);
  int nl = 0;
  for (int i = 0; i < n; i++)
    if (nl && lines[nl - 1] >> 8 == lines[i] >> 8) lines[nl - 1] |= lines[i] & 0xff;
    else lines[nl++] = lines[i];
  if (!nl) return;
  /* a write's HBM cost: the bytes it writes per line (the write-back L2
   * merges a line's partial writes before it goes out), whole 32 B HBM
   * bursts, at most a line; lanes' bytes are spread evenly over the lines */
  double wr_line = p->line_bytes;
  if (is_write) {
    const double per = ceil((double)__builtin_popcountll(exec) * (bytes ? bytes : 1) / nl / 32.0) * 32.0;
    if (per < wr_line) wr_line = per;
  }
  double xfer = nl * (double)p->line_bytes / p->cu_bytes_per_clk;
  double st = cal_book(&g_m.cus[s->cu].vmem, w->issue, xfer);
  double l2_cyc = p->line_bytes / p->l2_bytes_per_clk_per_xcd;
  double hbm_cyc = p->line_bytes / (p->hbm_bytes_per_s / p->clock_hz / p->xcds);
  double mall_cyc = p->mall_bytes ? p->line_bytes / (p->mall_bytes_per_s / p->clock_hz / p->xcds) : 0;
  double mall_lat = p->mall_latency_s * p->clock_hz;
  double ret = st + xfer + p->l2_hit_latency;
  uint32_t xi = s->xcd % MXCD;
  l2 *mall = &g_mall[xi];
  mxcd *x = &g_m.x[xi];
  pthread_mutex_lock(&x->mu);
  for (int i = 0; i < nl; i++) {
    uint64_t line = lines[i] >> 8;
    uint32_t need = (uint32_t)(lines[i] & 0xff);
    double t = st + i * (double)p->line_bytes / p->cu_bytes_per_clk;
    double at_l2 = fq_at(&x->l2q, t, l2_cyc, 1);
    double ready;
    uint32_t fetch;
    if (is_write) {
      /* write-back L2 (model v8): the write is acknowledged by the L2 and
       * costs HBM bandwidth only for the sectors it makes dirty first, so
       * instructions that fill a line piecewise pay for it once; before
       * v8 each instruction paid for its bytes per line in 32 B bursts
       * (4x O's bytes for HipKittens' attention forward epilogue) */
      uint32_t nd = g_l2[xi].tag ? cache_write(&g_l2[xi], line, need, at_l2) : 0;
      double wb = g_l2[xi].tag ? (double)__builtin_popcount(nd) * p->line_bytes / nsec : wr_line;
      if (wb > 0) {
        fq_at(&x->hbmq, at_l2, hbm_cyc * wb / p->line_bytes, 1);
        x->hbm_bytes += wb;
        x->hbm_wbytes += wb;
      }
      if (mall->tag) { cache_access(mall, line, need, 0, &ready, &fetch); mj_write(xi, walloc, line, need); }
      ret = dmax(ret, at_l2 + p->l2_hit_latency);
      continue;
    }
    /* if the L2 misses sectors: they come from the MALL when it holds the
     * line, else from HBM; the bytes moved are the missing sectors' */
    int in_mall = mall->tag && (cache_probe(mall, line, need) || cache_probe(&g_mall_all, line, need));
    double fr = (double)__builtin_popcount(need) / nsec; /* a first guess for the fill's size */
    double mall_done = fq_at(&x->mallq, at_l2, mall_cyc * fr, 0), hbm_done = fq_at(&x->hbmq, at_l2, hbm_cyc * fr, 0);
    double fill = in_mall ? mall_done + mall_lat : hbm_done + p->hbm_latency_s * p->clock_hz;
    if (l2_access(xi, line, need, fill, &ready, &fetch)) {
      x->l2_hits++;
      ret = dmax(ret, dmax(at_l2 + p->l2_hit_latency, ready));
    } else {
      double f = (double)__builtin_popcount(fetch) / nsec;
      x->l2_misses++;
      if (in_mall) { fq_at(&x->mallq, at_l2, mall_cyc * f, 1); x->mall_hits++; }
      else { fq_at(&x->hbmq, at_l2, hbm_cyc * f, 1); x->hbm_bytes += p->line_bytes * f; }
      if (mall->tag) { mj_fill(xi, line, fetch); cache_access(mall, line, fetch, 0, &ready, &fetch); }
      ret = dmax(ret, fill);
    }
  }
  pthread_mutex_unlock(&x->mu);
  double *last = w->cur_q == 1 ? q_last(&w->vm) : NULL;
  if (last) { if (ret > *last) *last = ret; }
  else q_push(&w->vm, ret);
  if (tl_on(s)) tl(s, 300 + wv->wave_in_group, parse(s, in)->mnem, "VMEM", st, ret);
}

static void h_waitcnt(void *u, const tks_wave_view *wv, const tks_inst_view *in, int vmcnt, int lgkmcnt,
                      int expcnt)
{
  mslot *s = &g_m.slots[wv->worker];
  mwave *w = wave_of(s, wv);
  double t = w->issue, r = t;
  if (vmcnt >= 0 && vmcnt < 63) r = dmax(r, q_wait(&w->vm, vmcnt));
  if (lgkmcnt >= 0 && lgkmcnt < 15) r = dmax(r, q_wait(&w->lgkm, lgkmcnt));
  if (r > t) tl(s, wv->wave_in_group, "s_waitcnt", "wait", t, r);
  w->next = dmax(w->next, r + g_m.p->issue_cycles);
}

static void h_barrier_arrive(void *u, const tks_wave_view *wv, const tks_inst_view *in)
{
  mslot *s = &g_m.slots[wv->worker];
  mwave *w = wave_of(s, wv);
  w->arrive = w->issue;
  w->at_barrier = 1;
}

static void h_barrier_release(void *u, uint32_t worker, uint32_t linear)
{
  mslot *s = &g_m.slots[worker];
  double t = 0;
  for (uint32_t i = 0; i < s->nwaves; i++)
    if (s->w[i].at_barrier) t = dmax(t, s->w[i].arrive);
  t += g_m.p->barrier_cycles;
  for (uint32_t i = 0; i < s->nwaves; i++)
    if (s->w[i].at_barrier) {
      tl(s, i, "s_barrier", "barrier", s->w[i].arrive, t);
      s->w[i].at_barrier = 0;
      s->w[i].next = dmax(s->w[i].next, t);
    }
}

static void h_wave_end(void *u, const tks_wave_view *wv)
{
  mslot *s = &g_m.slots[wv->worker];
  mwave *w = wave_of(s, wv);
  /* stores and loads still in flight finish before the wave's slot frees */
  double e = dmax(w->next, dmax(q_wait(&w->vm, 0), q_wait(&w->lgkm, 0)));
  w->end = e;
  w->next = e;
  w->active = 0;
}

/* exec's ordering key (tks_sched.wave_time). */
static double sched_wave_time(void *u, uint32_t slot, uint32_t wave)
{
  return g_m.slots[slot].w[wave < MW ? wave : MW - 1].next;
}

/* ------------------------------------------------------------ whole GPU */
uint32_t tks_model_groups_per_cu(const tks_model_params *p, const tks_kernel *k, uint32_t waves_per_group,
                                 uint32_t lds_bytes)
{
  uint32_t regs = k->vgpr_count;
  if (k->agpr_count) regs = k->accum_offset + k->agpr_count;
  if (regs < 8) regs = 8;
  regs = (regs + 7) / 8 * 8;
  uint32_t wps = p->vgprs_per_simd_lane / regs;
  if (wps > p->max_waves_per_simd) wps = p->max_waves_per_simd;
  /* the CU's wave slots (SIMDs x waves per SIMD) hold whole groups; the
   * dispatcher spreads the waves of groups smaller than four SIMDs over all
   * of them (h_issue), so 1-wave groups fill every SIMD, not only SIMD 0 */
  uint32_t g = waves_per_group ? (p->simds * wps) / waves_per_group : 1;
  if (lds_bytes) {
    uint32_t gl = p->lds_bytes / lds_bytes;
    if (gl < g) g = gl;
  }
  if (g > p->max_groups_per_cu) g = p->max_groups_per_cu;
  return g ? g : 1;
}

double tks_model_sampled_cycles(double end, uint64_t simulated, uint64_t xcd_groups, uint32_t slots)
{
  if (simulated == 0 || simulated >= xcd_groups || slots == 0) return end;
  double rounds_all = ceil((double)xcd_groups / slots), rounds_sim = ceil((double)simulated / slots);
  return end * rounds_all / rounds_sim;
}

/* The groups not simulated, in dispatch order, each take the next slot to
 * free (as the dispatcher hands them out), with the duration of the
 * simulated group at the same place in the sampled pattern: group i of the
 * XCD's list runs as long as simulated group i mod (simulated). For equal
 * groups this is end x rounds (tks_model_sampled_cycles); for groups of
 * unequal work whose pattern repeats within the sample (causal attention:
 * the query blocks of a head, in grid order) it is the dynamic schedule the
 * hardware runs, not every round as long as its longest group.
 * slot_free: when each of the XCD's slots frees after the simulated groups
 * (overwritten); dur: the simulated groups' durations in dispatch order. */
double tks_model_sampled_cycles_list(double *slot_free, uint32_t slots, const double *dur, uint64_t simulated,
                                     uint64_t xcd_groups)
{
  double end = 0;
  for (uint32_t i = 0; i < slots; i++) end = dmax(end, slot_free[i]);
  if (simulated == 0 || simulated >= xcd_groups || slots == 0) return end;
  for (uint64_t g = simulated; g < xcd_groups; g++) {
    uint32_t m = 0;
    for (uint32_t i = 1; i < slots; i++)
      if (slot_free[i] < slot_free[m]) m = i;
    slot_free[m] += dur[g % simulated];
    end = dmax(end, slot_free[m]);
  }
  return end;
}

/* --model-spread (sample.c): set per launch by tks_model_launch_begin */
static tks_spread g_spread;
static int g_spread_on;

static uint64_t spread_pick(void *u, uint64_t k) { (void)u; return tks_spread_pick(&g_spread, k); }

/* XCD 0's simulated groups (linear id = place x XCDs) composed over its list */
static double spread_cycles(const mxcd *x0)
{
  uint64_t *pos = malloc(x0->ndur * sizeof *pos);
  double r = -1;
  if (pos) {
    for (uint64_t i = 0; i < x0->ndur; i++) pos[i] = x0->dlin[i] / g_m.p->xcds;
    r = tks_spread_cycles(&g_spread, pos, x0->dur, x0->ndur);
  }
  free(pos);
  return r;
}

static int cmp_lin(const void *a, const void *b)
{
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static int h_dispatch_end(void *u, const tks_dispatch *d, tks_launch_stats *st, char *err, size_t errlen)
{
  const tks_model_params *p = g_m.p;
  double hbm = 0, cyc = 0;
  uint64_t groups = 0, hits = 0, misses = 0, mall_hits = 0;
  mall_merge(p);
  for (uint32_t i = 0; i < MXCD; i++) {
    mxcd *x = &g_m.x[i];
    mall_hits += x->mall_hits;
    hbm += x->hbm_bytes;
    groups += x->groups;
    hits += x->l2_hits;
    misses += x->l2_misses;
    cyc = dmax(cyc, x->end);
  }
  if (!groups) return 0;
  double ngroups = 1;
  for (int i = 0; i < 3; i++) ngroups *= d->block[i] ? ceil((double)d->grid[i] / d->block[i]) : 1;
  int sampled = 0;
  if (g_m.ordered && g_m.run_domains == 1 && p->xcds > 1) {
    /* one XCD simulated (sampling): XCD 0 holds the most groups; the others
     * are alike. With only its first rounds simulated, scale by rounds. */
    uint64_t nx = (uint64_t)ceil(ngroups / p->xcds);
    mxcd *x0 = &g_m.x[0];
    if (g_spread_on && x0->ndur == x0->groups && (cyc = spread_cycles(x0)) >= 0) {
      /* --model-spread: chunks spread over the period, the rest interpolated (sample.c) */
    } else if (x0->ndur == x0->groups && x0->ndur && g_m.nslots >= g_m.spx) {
      /* durations in dispatch (linear id) order: sort (id, index) pairs */
      uint64_t *key = malloc(x0->ndur * sizeof *key);
      double *d = malloc(x0->ndur * sizeof *d), *sf = malloc(g_m.spx * sizeof *sf);
      if (key && d && sf) {
        for (uint64_t i = 0; i < x0->ndur; i++) key[i] = (uint64_t)x0->dlin[i] << 32 | i;
        qsort(key, x0->ndur, sizeof *key, cmp_lin);
        for (uint64_t i = 0; i < x0->ndur; i++) d[i] = x0->dur[key[i] & 0xffffffffu];
        for (uint32_t i = 0; i < g_m.spx; i++) sf[i] = g_m.slots[i].free_at;
        cyc = tks_model_sampled_cycles_list(sf, g_m.spx, d, x0->ndur, nx);
      } else
        cyc = tks_model_sampled_cycles(x0->end, x0->groups, nx, g_m.spx);
      free(key), free(d), free(sf);
    } else
      cyc = tks_model_sampled_cycles(x0->end, x0->groups, nx, g_m.spx);
    sampled = (double)groups < ngroups;
  }
  double sec = cyc / p->clock_hz;
  /* whole-grid HBM traffic at peak bandwidth is a floor (sampled: scaled) */
  double hbm_all = hbm * (ngroups / groups);
  double hbm_s = hbm_all / p->hbm_bytes_per_s;
  if (hbm_s > sec) sec = hbm_s;
  st->modeled_seconds = sec + p->launch_overhead_s;
  st->model_l2_hits = hits;
  st->model_l2_misses = misses;
  st->model_hbm_bytes = hbm_all;
  st->model_group_scale = ngroups / groups;
  if (g_m.timeline) g_tl_next_us += (g_m.tl_end + 100) * 1e6 / p->clock_hz;
  if (getenv("TKSIM_MODEL_VERBOSE")) {
    fprintf(stderr, "tksim model: %s groups=%.0f simulated=%llu k=%u slots/XCD=%u%s cycles=%.0f hbm=%.3gs -> %.6g s\n",
            d->k->name, ngroups, (unsigned long long)groups, g_m.kpc, g_m.spx, sampled ? " (sampled)" : "", cyc,
            hbm_s, st->modeled_seconds);
    double wb = 0;
    for (uint32_t i = 0; i < MXCD; i++) wb += g_m.x[i].hbm_wbytes;
    fprintf(stderr, "  L2 hits %llu, misses %llu (of which Infinity Cache hits %llu), HBM %.4g MB (writes %.4g MB)\n",
            (unsigned long long)hits, (unsigned long long)misses, (unsigned long long)mall_hits, hbm_all / 1e6,
            wb * (ngroups / groups) / 1e6);
    for (uint32_t i = 0; i < MXCD; i++)
      if (g_m.x[i].groups)
        fprintf(stderr, "  XCD %u: %llu groups, last ends at cycle %.0f\n", i, (unsigned long long)g_m.x[i].groups,
                g_m.x[i].end);
  }
  return 0;
}

/* ------------------------------------------------------------ sampling */
/* --model-sample=N simulates XCD 0 only (groups 0, 8, 16, ...), and of those
 * the first N rounds (N x slots per XCD) in dispatch order; concurrency,
 * L2 sharing and the HBM share stay as in a full run. Exec skips the other
 * groups entirely: their outputs are not computed (the runtime says so). */
static int g_sampling;

int tks_model_group_selected(uint32_t group_linear) { (void)group_linear; return 1; }

int tks_model_sampling(void) { return g_sampling; }

/* ------------------------------------------------------------ runtime hooks */
void tks_model_launch_begin(const tks_dispatch *d, const tks_options *opt)
{
  if (!opt->model) return;
  const tks_model_params *p = tks_model_params_for(opt->model);
  if (!p) return;
  g_m.p = p;
  g_m.banks = tks_lds_model_for(opt->arch);
  g_l2_p = p;
  pthread_once(&g_l2_once, l2_init);
  g_m.timeline = opt->timeline != NULL && tks_timeline_open(opt->timeline) == 0;
  if (g_m.timeline) {
    /* slot = XCD * slots per XCD + j, j on CU j % 38 (layout below); a bad
     * value draws nothing rather than guessing */
    const char *ts = getenv("TKSIM_TIMELINE_SLOT");
    char *end = NULL;
    unsigned long v = ts && *ts ? strtoul(ts, &end, 10) : 0;
    g_tl_slot = ts && *ts && (*end || v > 0xffffffffu) ? 0xffffffffu : (uint32_t)v;
    if (g_tl_slot == 0xffffffffu) fprintf(stderr, "tksim: TKSIM_TIMELINE_SLOT=%s is not a slot number; no spans drawn\n", ts);
  }
  double ngroups = 1;
  uint32_t threads = 1;
  for (int i = 0; i < 3; i++) {
    ngroups *= d->block[i] ? ceil((double)d->grid[i] / d->block[i]) : 1;
    threads *= d->block[i] ? d->block[i] : 1;
  }
  uint32_t wpg = (threads + 63) / 64;
  uint32_t xcds = p->xcds < MXCD ? p->xcds : MXCD;
  g_m.kpc = tks_model_groups_per_cu(p, d->k, wpg, d->k->group_segment_fixed_size + d->dynamic_lds);
  g_m.spx = p->cus / xcds * g_m.kpc;
  g_m.run_domains = xcds;
  g_m.max_groups = 0;
  g_sampling = 0;
  if (opt->model_sample > 0 && !d->cooperative) {
    g_m.run_domains = 1;
    g_m.max_groups = (uint64_t)opt->model_sample * g_m.spx;
    g_sampling = ngroups > 1;
  }
  g_spread_on = 0;
  if (g_m.run_domains == 1 && opt->model_spread && xcds == p->xcds)
    g_spread_on = tks_spread_plan(&g_spread, (uint64_t)ceil(ngroups / xcds), tks_spread_period_x(opt->model_spread, xcds),
                                  g_m.spx, (uint64_t)opt->model_sample);
  tks_hooks h = {0};
  h.dispatch_begin = h_dispatch_begin;
  h.dispatch_end = h_dispatch_end;
  h.group_begin = h_group_begin;
  h.group_end = h_group_end;
  h.issue = h_issue;
  h.lds_access = h_lds;
  h.global_access = h_global;
  h.waitcnt = h_waitcnt;
  h.barrier_arrive = h_barrier_arrive;
  h.barrier_release = h_barrier_release;
  h.wave_end = h_wave_end;
  if (tks_hooks_add(&h) < 0) { fprintf(stderr, "tksim: hook table full; the timing model is off\n"); return; }
  tks_sched sc = {0};
  sc.domains = xcds;
  sc.slots = g_m.spx;
  sc.run_domains = g_m.run_domains;
  sc.max_groups = g_m.max_groups;
  if (g_spread_on) sc.pick = spread_pick;
  sc.window = 16;
  sc.wave_time = sched_wave_time;
  tks_sched_set(&sc);
}

void tks_model_launch_end(const tks_dispatch *d, const tks_launch_stats *stats, const tks_options *opt,
                          int failed)
{
}

void tks_model_process_end(const tks_options *opt)
{
  if (opt->timeline) tks_timeline_close();
}
