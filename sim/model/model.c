/* model.c: tksim's cycle-approximate timing model of a CDNA3 CU, driven by
 * exec's hook stream (sim/exec/hooks.h), extrapolated to the whole GPU.
 *
 * Per execution slot (one resident workgroup) the model keeps, per wave, the
 * clock at which it may issue next, its outstanding vmcnt/lgkmcnt operations
 * with their modeled return times and the ready time of MFMA results per
 * VGPR/AGPR; per SIMD the clock at which its VALU, SALU and MFMA pipes are
 * free; per CU the LDS pipe (128 B/clk, bank conflicts from the checker's
 * bank model, sim/check/banks.h) and the vector memory pipe (per-CU share of
 * L2 and HBM bandwidth; a set-associative tag array of 128 B lines per XCD
 * L2 decides hits). Waves are placed on SIMD wave_in_group % 4 (hooks.h).
 * Resources are reserved in exec's interleaving order (not a per-cycle
 * arbiter), so throughput is right and the order among waves approximate;
 * s_setprio acts on the SIMD pipes only (see pcal below). Whole-GPU time: occupancy from VGPR/AGPR/LDS use,
 * rounds of workgroups per CU, max with total HBM traffic / peak bandwidth.
 * Hardware numbers: params.c (each with its source).
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

#define MQ 64          /* outstanding counter ops tracked per wave */
#define MW 16          /* waves per group */
#define MREGS 512      /* v0..v255 then a0..a255 */

typedef struct mq { double t[MQ]; int head, n; double floor; } mq;

typedef struct mwave {
  double next;          /* earliest next issue */
  double issue;         /* issue clock of the instruction being executed */
  double end;
  double arrive;
  int at_barrier, active;
  mq vm, lgkm;
  int cur_q;            /* 1 vm, 2 lgkm: the entry the current instruction pushed */
  int prio;             /* s_setprio level 0..3 */
  int mfma_regs;        /* any MFMA result pending */
  float reg_ready[MREGS];
} mwave;

/* Per-instruction parse cache: MFMA cycles and operand register ranges, the
 * scalar cost (s_nop/s_sleep) and s_setprio level, so no instruction's text
 * is read more than once per slot. */
typedef struct mparse {
  uint8_t done, nops, kind, slow;
  uint8_t fixed;                /* scalar op that waits without using the SALU (s_nop, s_sleep) */
  int8_t prio;                  /* s_setprio level, -1 otherwise */
  float mfma_cycles;
  float scalar_cycles;
  double mfma_flops;
  uint16_t first[4], count[4];  /* operand 0 = destination */
  const char *mnem;             /* interned, for the timeline */
} mparse;

/* A pipe's reservation calendar: time in buckets of CAL_B cycles, each with
 * the cycles already booked. exec runs a wave for a quantum of instructions
 * before the next, so bookings arrive out of time order; a bucketed calendar
 * lets a later-simulated wave use the gaps an earlier one left (a single
 * "free at" clock would serialise the waves). */
#define CAL_B 64
#define CAL_MAX (1u << 24)
typedef struct cal { uint16_t *used; uint32_t cap, hi, full; double end; } cal;

/* A SIMD pipe with s_setprio levels: one calendar per level. A booking looks
 * for free capacity among the bookings of its own and higher levels only, so
 * a higher-priority wave takes the earliest slots even when exec simulated a
 * lower-priority wave's instructions first (exec runs waves in quanta). The
 * lower-priority cycles it overlaps are displaced: they are owed (debt) and
 * booked again before that level's next booking on the pipe, or added to the
 * pipe's end. Levels above 0 exist only once a wave has executed s_setprio
 * (top), so the common case is one calendar. */
#define NPRIO 4
typedef struct pcal { cal lv[NPRIO]; double debt[NPRIO]; int top; } pcal;

typedef struct mslot {
  mwave w[MW];
  uint32_t nwaves, group;
  pcal valu[4], salu[4], mfma[4];
  cal lds, vmem;
  double busy_simd[4], busy_lds, busy_vmem;
  double base;                  /* timeline offset of this group (slot 0) */
  /* accumulated over groups */
  double sum_cycles, sum_busy, max_cycles;
  uint64_t groups, l2_hits, l2_misses;
  double hbm_bytes;
  mparse *pc; uint32_t npc;
} mslot;

typedef struct mstate {
  const tks_model_params *p;
  mslot *slots; uint32_t nslots;
  uint32_t waves_per_group, lds_bytes;
  const tks_kernel *k;
  int timeline;
  double tl_dispatch_base_us;   /* timeline: start of this dispatch */
  double tl_clock;              /* slot 0's running clock (groups end to end) */
} mstate;

static mstate g_m;
static double g_tl_next_us;

/* ------------------------------------------------------------ L2 tags */
typedef struct l2 { uint64_t *tag; uint32_t sets, ways; } l2;
static l2 g_l2[8];
static pthread_mutex_t g_l2_lock[64];
static pthread_once_t g_l2_once = PTHREAD_ONCE_INIT;
static const tks_model_params *g_l2_p;

static void l2_init(void)
{
  const tks_model_params *p = g_l2_p;
  for (int i = 0; i < 64; i++) pthread_mutex_init(&g_l2_lock[i], NULL);
  for (uint32_t x = 0; x < p->xcds && x < 8; x++) {
    g_l2[x].ways = p->l2_ways;
    g_l2[x].sets = p->l2_bytes_per_xcd / p->line_bytes / p->l2_ways;
    g_l2[x].tag = calloc((size_t)g_l2[x].sets * g_l2[x].ways, sizeof(uint64_t));
  }
}

/* LRU within a set: way 0 most recent. Returns 1 on hit. */
static int l2_access(uint32_t xcd, uint64_t line)
{
  l2 *c = &g_l2[xcd];
  if (!c->tag) return 0;
  uint32_t set = (uint32_t)((line ^ (line >> 11)) % c->sets);
  uint64_t *t = c->tag + (size_t)set * c->ways, key = line + 1;
  pthread_mutex_t *mu = &g_l2_lock[set & 63];
  pthread_mutex_lock(mu);
  uint32_t i = 0;
  while (i < c->ways && t[i] != key) i++;
  int hit = i < c->ways;
  if (!hit) i = c->ways - 1;
  memmove(t + 1, t, i * sizeof *t);
  t[0] = key;
  pthread_mutex_unlock(mu);
  return hit;
}

static double dmax(double a, double b) { return a > b ? a : b; }

/* ------------------------------------------------------------ calendars */
static void cal_reset(cal *c)
{
  /* hi is the last bucket written (bucket 0 too when hi is 0) */
  if (c->used) memset(c->used, 0, (size_t)(c->hi < c->cap ? c->hi + 1 : c->cap) * sizeof *c->used);
  c->hi = c->full = 0;
  c->end = 0;
}

/* Makes buckets 0..last addressable (zeroed). */
static void cal_grow(cal *c, uint32_t last)
{
  if (last < c->cap) return;
  uint32_t n = c->cap ? c->cap : 1024;
  while (n <= last && n < CAL_MAX) n *= 2;
  c->used = realloc(c->used, (size_t)n * sizeof *c->used);
  memset(c->used + c->cap, 0, (size_t)(n - c->cap) * sizeof *c->used);
  c->cap = n;
}

/* Books dur cycles at or after t; returns the start. */
static double cal_book(cal *c, double t, double dur)
{
  uint32_t b = (uint32_t)(t / CAL_B);
  if (b >= CAL_MAX - 1) { /* past the calendar: plain free-at clock */
    double st = t > c->end ? t : c->end;
    c->end = st + dur;
    return st;
  }
  if (b < c->full) b = c->full;
  while (b < CAL_MAX - 1 && b < c->cap && c->used[b] >= CAL_B) b++;
  double need = dur;
  cal_grow(c, b + (uint32_t)(dur / CAL_B) + 2);
  double st = (double)b * CAL_B + c->used[b];
  if (st < t) st = t;
  while (need > 0 && b < c->cap) {
    double room = CAL_B - c->used[b];
    double take = need < room ? need : room;
    c->used[b] = (uint16_t)(c->used[b] + (take + 0.5 > room ? room : take + 0.5));
    need -= take;
    if (need > 0) b++;
  }
  if (b > c->hi) c->hi = b;
  while (c->full < c->cap && c->used[c->full] >= CAL_B) c->full++;
  if (st + dur > c->end) c->end = st + dur;
  return st;
}

static void pcal_reset(pcal *p)
{
  for (int l = 0; l <= p->top; l++) { cal_reset(&p->lv[l]); p->debt[l] = 0; }
  p->top = 0;
}

static uint32_t lv_used(const cal *c, uint32_t b) { return b < c->cap ? c->used[b] : 0; }

/* Cycles of bucket b booked at levels lo..hi. */
static uint32_t pcal_used(const pcal *p, int lo, int hi, uint32_t b)
{
  uint32_t u = 0;
  for (int l = lo; l <= hi; l++) u += lv_used(&p->lv[l], b);
  return u;
}

/* First-fit of dur cycles at or after t among the bookings of levels >= lvl,
 * recorded at lvl; capacity it takes from lower levels becomes their debt. */
static double pcal_fit(pcal *p, int lvl, double t, double dur)
{
  cal *c = &p->lv[lvl];
  uint32_t b = (uint32_t)(t / CAL_B);
  if (b + (uint32_t)(dur / CAL_B) + 2 >= CAL_MAX - 1) { /* past the calendar: free-at clocks */
    double st = t;
    for (int l = lvl; l <= p->top; l++) st = dmax(st, p->lv[l].end);
    c->end = st + dur;
    return st;
  }
  for (int l = lvl; l <= p->top; l++) /* buckets a level filled alone are full */
    if (b < p->lv[l].full) b = p->lv[l].full;
  while (pcal_used(p, lvl, p->top, b) >= CAL_B) b++;
  cal_grow(c, b + (uint32_t)(dur / CAL_B) + 2);
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
        while (l > 0 && !lv_used(&p->lv[l], b)) l--;
        p->debt[l] += over;
      }
    }
    c->used[b] = (uint16_t)(c->used[b] + add);
    need -= take;
    if (need > 0) { b++; cal_grow(c, b + 1); }
  }
  if (b > c->hi) c->hi = b;
  while (c->full < c->cap && c->used[c->full] >= CAL_B) c->full++;
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

/* When the pipe drains: its last booking plus cycles still owed. */
static double pcal_end(const pcal *p)
{
  double e = 0, owed = 0;
  for (int l = 0; l <= p->top; l++) { e = dmax(e, p->lv[l].end); owed += p->debt[l]; }
  return e + owed;
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
 * calculator's "Execution cycles"); v_mfma_<out>_<M>x<N>x<K>[_<B>b]_<in>. */
static void parse_mfma(const char *m, const tks_model_params *p, mparse *r)
{
  int M = 0, N = 0, K = 0, B = 1;
  const char *s = strstr(m, "_mfma_");
  if (s) s = strchr(s + 6, '_');
  if (!s || sscanf(s + 1, "%dx%dx%d", &M, &N, &K) != 3) { r->mfma_cycles = 16; r->mfma_flops = 0; return; }
  const char *b = strstr(s, "b_");
  const char *u = strchr(s + 1, '_');
  if (u && b && b > u && sscanf(u + 1, "%db_", &B) != 1) B = 1;
  int t = TKS_MT_F16;
  if (strstr(m, "xf32")) t = TKS_MT_XF32;
  else if (strstr(m, "f64")) t = TKS_MT_F64;
  else if (strstr(m, "i8")) t = TKS_MT_I8;
  else if (strstr(m, "fp8") || strstr(m, "bf8")) t = TKS_MT_F8;
  else if (strstr(m, "bf16") || strstr(m, "f16")) t = TKS_MT_F16;
  else t = TKS_MT_F32;
  r->mfma_flops = 2.0 * M * N * K * B;
  double c = r->mfma_flops / p->mfma_flops_per_simd_clk[t];
  r->mfma_cycles = (float)(c < p->mfma_min_cycles ? p->mfma_min_cycles : c);
}

static mparse *parse(mslot *s, const tks_inst_view *in)
{
  if (in->index >= s->npc) {
    uint32_t n = s->npc ? s->npc : 256;
    while (n <= in->index) n *= 2;
    s->pc = realloc(s->pc, n * sizeof *s->pc);
    memset(s->pc + s->npc, 0, (n - s->npc) * sizeof *s->pc);
    s->npc = n;
  }
  mparse *r = &s->pc[in->index];
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
  if (in->cls == TKS_CLASS_MFMA) { r->kind = K_MFMA; parse_mfma(r->mnem, g_m.p, r); }
  else if (in->cls == TKS_CLASS_VALU) {
    r->kind = K_VALU;
    r->slow = strstr(r->mnem, "f64") || strstr(r->mnem, "_exp_") || strstr(r->mnem, "_log_") ||
              strstr(r->mnem, "_rcp_") || strstr(r->mnem, "_rsq_") || strstr(r->mnem, "_sqrt_") ||
              strstr(r->mnem, "_sin_") || strstr(r->mnem, "_cos_");
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
  r->done = 1;
  return r;
}

/* ------------------------------------------------------------ timeline */
static const char *const g_cls_name[TKS_CLASS_COUNT] = {
  "SALU", "SMEM", "VALU", "MFMA", "LDS", "VMEM", "BRANCH", "WAIT", "BARRIER", "MISC"};

static void tl(mslot *s, uint32_t tid, const char *name, const char *cat, double t0, double t1)
{
  if (!g_m.timeline || s != &g_m.slots[0]) return;
  double cyc_us = 1e6 / g_m.p->clock_hz;
  tks_timeline_span(tid, name, cat, g_m.tl_dispatch_base_us + (s->base + t0) * cyc_us,
                    (t1 - t0) * cyc_us);
}

/* ------------------------------------------------------------ hooks */

static void h_dispatch_begin(void *u, const tks_dispatch *d, uint32_t nworkers,
                             uint32_t waves_per_group, uint32_t lds_bytes)
{
  if (nworkers > g_m.nslots) {
    g_m.slots = realloc(g_m.slots, nworkers * sizeof *g_m.slots);
    memset(g_m.slots + g_m.nslots, 0, (nworkers - g_m.nslots) * sizeof *g_m.slots);
    g_m.nslots = nworkers;
  }
  int same = g_m.k == d->k;
  for (uint32_t i = 0; i < g_m.nslots; i++) {
    mslot *s = &g_m.slots[i];
    mparse *pc = s->pc; uint32_t npc = s->npc;
    if (!same) { free(pc); pc = NULL; npc = 0; }
    for (int j = 0; j < 4; j++)
      for (int l = 0; l < NPRIO; l++) { free(s->valu[j].lv[l].used); free(s->salu[j].lv[l].used); free(s->mfma[j].lv[l].used); }
    free(s->lds.used); free(s->vmem.used);
    memset(s, 0, sizeof *s);
    s->pc = pc; s->npc = npc;
  }
  g_m.k = d->k;
  g_m.waves_per_group = waves_per_group;
  g_m.lds_bytes = lds_bytes;
  g_m.tl_dispatch_base_us = g_tl_next_us;
  if (g_m.timeline) {
    char nm[320];
    snprintf(nm, sizeof nm, "%s (%s)", d->k->name, g_m.p->name);
    tks_timeline_dispatch(nm, g_tl_next_us);
  }
}

static void h_group_begin(void *u, uint32_t worker, const uint32_t gid[3], uint32_t linear,
                          uint32_t nwaves)
{
  mslot *s = &g_m.slots[worker];
  double base = s->base;
  memset(s->w, 0, sizeof s->w);
  for (int i = 0; i < 4; i++) { pcal_reset(&s->valu[i]); pcal_reset(&s->salu[i]); pcal_reset(&s->mfma[i]); }
  cal_reset(&s->lds); cal_reset(&s->vmem);
  memset(s->busy_simd, 0, sizeof s->busy_simd);
  s->busy_lds = s->busy_vmem = 0;
  s->nwaves = nwaves > MW ? MW : nwaves;
  s->group = linear;
  for (uint32_t i = 0; i < s->nwaves; i++) s->w[i].active = 1;
  s->base = base;
}

static void h_group_end(void *u, uint32_t worker, uint32_t linear)
{
  mslot *s = &g_m.slots[worker];
  double t = 0, b = 0;
  for (uint32_t i = 0; i < s->nwaves; i++) t = dmax(t, dmax(s->w[i].end, s->w[i].next));
  for (int i = 0; i < 4; i++) t = dmax(t, dmax(pcal_end(&s->mfma[i]), pcal_end(&s->valu[i]))); /* pipes drain */
  t = dmax(t, dmax(s->lds.end, s->vmem.end));
  for (int i = 0; i < 4; i++) b = dmax(b, s->busy_simd[i]);
  b = dmax(b, dmax(s->busy_lds, s->busy_vmem));
  s->sum_cycles += t;
  s->sum_busy += b;
  if (t > s->max_cycles) s->max_cycles = t;
  s->groups++;
  s->base += t; /* slot 0's timeline lays its groups end to end */
}

static void h_issue(void *u, const tks_wave_view *wv, const tks_inst_view *in)
{
  const tks_model_params *p = g_m.p;
  mslot *s = &g_m.slots[wv->worker];
  uint32_t wi = wv->wave_in_group < MW ? wv->wave_in_group : MW - 1, simd = wv->simd & 3;
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
    double st = pcal_book(&s->mfma[simd], w->prio, ready, r->mfma_cycles);
    s->busy_simd[simd] += r->mfma_cycles;
    if (r->nops > 0)
      for (int i = 0; i < r->count[0]; i++) w->reg_ready[r->first[0] + i] = (float)(st + r->mfma_cycles);
    w->mfma_regs = 1;
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
    double st = pcal_book(&s->valu[simd], w->prio, ready, c);
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
    if (!r->fixed) st = pcal_book(&s->salu[simd], w->prio, t, c);
    w->next = st + c;
    if (g_m.timeline && s == &g_m.slots[0]) tl(s, tid, r->mnem, g_cls_name[in->cls], st, st + c);
    return;
  }
  case TKS_CLASS_SMEM:
    q_push(&w->lgkm, t + p->smem_latency);
    w->next = t + p->issue_cycles;
    if (g_m.timeline && s == &g_m.slots[0]) tl(s, tid, parse(s, in)->mnem, "SMEM", t, t + p->issue_cycles);
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
  mwave *w = &s->w[wv->wave_in_group < MW ? wv->wave_in_group : MW - 1];
  tks_lds_cost c = tks_lds_access_cost(addr, exec, bytes, is_write ? 1 : 0);
  double data = __builtin_popcountll(exec) * (double)bytes / p->lds_bytes_per_clk;
  double cyc = dmax(c.cycles, data);
  if (cyc < 1) cyc = 1;
  double st = cal_book(&s->lds, w->issue, cyc);
  s->busy_lds += cyc;
  double ret = st + cyc + p->lds_latency;
  double *last = w->cur_q == 2 ? q_last(&w->lgkm) : NULL;
  if (last) { if (ret > *last) *last = ret; }
  else q_push(&w->lgkm, ret); /* LDS write of a VMEM load (counted on vmcnt there) */
  if (g_m.timeline && s == &g_m.slots[0])
    tl(s, 200 + wv->wave_in_group, parse(s, in)->mnem, "LDS", st, ret);
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

static void h_global(void *u, const tks_wave_view *wv, const tks_inst_view *in, const uint64_t addr[64],
                     uint32_t bytes, uint64_t exec, int is_write)
{
  const tks_model_params *p = g_m.p;
  mslot *s = &g_m.slots[wv->worker];
  mwave *w = &s->w[wv->wave_in_group < MW ? wv->wave_in_group : MW - 1];
  /* the distinct 128 B lines the wave touches (coalescing) */
  uint64_t lines[128];
  int n = 0;
  for (int l = 0; l < 64; l++)
    if (exec >> l & 1) {
      uint64_t a = addr[l] / p->line_bytes, b = (addr[l] + (bytes ? bytes : 1) - 1) / p->line_bytes;
      lines[n++] = a;
      if (b != a) lines[n++] = b;
    }
  sort_lines(lines, n);
  double xfer = 0, lat = p->l2_hit_latency;
  double hbm_share = p->hbm_bytes_per_s / p->clock_hz / p->cus; /* bytes/clk/CU */
  uint32_t xcd = s->group % (p->xcds ? p->xcds : 1);
  for (int i = 0; i < n; i++) {
    if (i && lines[i] == lines[i - 1]) continue;
    int hit = !is_write && l2_access(xcd, lines[i]);
    if (hit) { s->l2_hits++; xfer += p->line_bytes / p->l2_bytes_per_clk_per_cu; }
    else {
      if (!is_write) s->l2_misses++;
      s->hbm_bytes += p->line_bytes;
      xfer += p->line_bytes / hbm_share;
      if (!is_write) lat = p->hbm_latency;
    }
  }
  double st = cal_book(&s->vmem, w->issue, xfer);
  s->busy_vmem += xfer;
  double ret = st + xfer + lat;
  double *last = w->cur_q == 1 ? q_last(&w->vm) : NULL;
  if (last) { if (ret > *last) *last = ret; }
  else q_push(&w->vm, ret);
  if (g_m.timeline && s == &g_m.slots[0])
    tl(s, 300 + wv->wave_in_group, parse(s, in)->mnem, "VMEM", st, ret);
}

static void h_waitcnt(void *u, const tks_wave_view *wv, const tks_inst_view *in, int vmcnt, int lgkmcnt,
                      int expcnt)
{
  mslot *s = &g_m.slots[wv->worker];
  mwave *w = &s->w[wv->wave_in_group < MW ? wv->wave_in_group : MW - 1];
  double t = w->issue, r = t;
  if (vmcnt >= 0 && vmcnt < 63) r = dmax(r, q_wait(&w->vm, vmcnt));
  if (lgkmcnt >= 0 && lgkmcnt < 15) r = dmax(r, q_wait(&w->lgkm, lgkmcnt));
  if (r > t) tl(s, wv->wave_in_group, "s_waitcnt", "wait", t, r);
  w->next = dmax(w->next, r + g_m.p->issue_cycles);
}

static void h_barrier_arrive(void *u, const tks_wave_view *wv, const tks_inst_view *in)
{
  mslot *s = &g_m.slots[wv->worker];
  mwave *w = &s->w[wv->wave_in_group < MW ? wv->wave_in_group : MW - 1];
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
  mwave *w = &s->w[wv->wave_in_group < MW ? wv->wave_in_group : MW - 1];
  /* stores and loads still in flight finish before the wave's slot frees */
  double e = dmax(w->next, dmax(q_wait(&w->vm, 0), q_wait(&w->lgkm, 0)));
  w->end = e;
  w->active = 0;
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
  uint32_t per_simd = (waves_per_group + p->simds - 1) / p->simds;
  uint32_t g = per_simd ? wps / per_simd : 1;
  if (lds_bytes) {
    uint32_t gl = p->lds_bytes / lds_bytes;
    if (gl < g) g = gl;
  }
  if (g > p->max_groups_per_cu) g = p->max_groups_per_cu;
  return g ? g : 1;
}

/* Cycles one CU needs for n groups, k resident at a time, each taking T
 * alone and keeping its busiest pipe busy B cycles. */
double tks_model_cu_cycles(double n, uint32_t k, double T, double B)
{
  if (n <= 0) return 0;
  double rounds = ceil(n / k);
  double last = n - (rounds - 1) * k;
  return (rounds - 1) * dmax(T, k * B) + dmax(T, last * B);
}

static int h_dispatch_end(void *u, const tks_dispatch *d, tks_launch_stats *st, char *err, size_t errlen)
{
  const tks_model_params *p = g_m.p;
  double sum = 0, busy = 0, hbm = 0;
  uint64_t groups = 0, hits = 0, misses = 0;
  for (uint32_t i = 0; i < g_m.nslots; i++) {
    sum += g_m.slots[i].sum_cycles;
    busy += g_m.slots[i].sum_busy;
    hbm += g_m.slots[i].hbm_bytes;
    groups += g_m.slots[i].groups;
    hits += g_m.slots[i].l2_hits;
    misses += g_m.slots[i].l2_misses;
  }
  if (!groups) return 0;
  /* groups exec skipped under --model-sample take the simulated groups' mean */
  double T = sum / groups, B = busy / groups;
  double ngroups = 1;
  for (int i = 0; i < 3; i++) ngroups *= d->block[i] ? ceil((double)d->grid[i] / d->block[i]) : 1;
  uint32_t k = tks_model_groups_per_cu(p, d->k, g_m.waves_per_group, g_m.lds_bytes);
  double per_cu = ceil(ngroups / p->cus);
  double cyc = tks_model_cu_cycles(per_cu, k, T, B);
  double sec = cyc / p->clock_hz;
  /* whole-grid HBM traffic, scaled from the simulated groups */
  double hbm_s = hbm * (ngroups / groups) / p->hbm_bytes_per_s;
  if (hbm_s > sec) sec = hbm_s;
  st->modeled_seconds = sec + p->launch_overhead_s;
  st->model_l2_hits = hits;
  st->model_l2_misses = misses;
  st->model_hbm_bytes = hbm * (ngroups / groups);
  st->model_group_scale = ngroups / groups;
  if (g_m.timeline) g_tl_next_us += (g_m.slots[0].base + 100) * 1e6 / p->clock_hz;
  if (getenv("TKSIM_MODEL_VERBOSE"))
    fprintf(stderr, "tksim model: %s groups=%.0f simulated=%llu T=%.0f B=%.0f k=%u cycles=%.0f hbm=%.3gs -> %.6g s\n",
            d->k->name, ngroups, (unsigned long long)groups, T, B, k, cyc, hbm_s, st->modeled_seconds);
  return 0;
}

/* ------------------------------------------------------------ sampling */
/* --model-sample=N: the model needs only N groups per resident-group slot of
 * one CU (N x occupancy), spread evenly over the grid; exec asks per group
 * (NEEDS.md) and skips the others, which then compute nothing. */
static uint32_t g_sample_stride; /* 0: every group runs */

int tks_model_group_selected(uint32_t group_linear)
{
  return g_sample_stride == 0 || group_linear % g_sample_stride == 0;
}

int tks_model_sampling(void) { return g_sample_stride > 1; }

static void setup_sampling(const tks_dispatch *d, const tks_options *opt, const tks_model_params *p)
{
  g_sample_stride = 0;
  if (opt->model_sample <= 0 || d->cooperative) return; /* grid syncs need every group */
  double ngroups = 1;
  uint32_t threads = 1;
  for (int i = 0; i < 3; i++) {
    ngroups *= d->block[i] ? ceil((double)d->grid[i] / d->block[i]) : 1;
    threads *= d->block[i] ? d->block[i] : 1;
  }
  uint32_t wpg = (threads + 63) / 64;
  uint32_t k = tks_model_groups_per_cu(p, d->k, wpg, d->k->group_segment_fixed_size + d->dynamic_lds);
  double want = (double)opt->model_sample * k;
  if (ngroups > want) g_sample_stride = (uint32_t)floor(ngroups / want);
}

/* ------------------------------------------------------------ runtime hooks */
void tks_model_launch_begin(const tks_dispatch *d, const tks_options *opt)
{
  if (!opt->model) return;
  const tks_model_params *p = tks_model_params_for(opt->model);
  if (!p) return;
  g_m.p = p;
  g_l2_p = p;
  pthread_once(&g_l2_once, l2_init);
  setup_sampling(d, opt, p);
  g_m.timeline = opt->timeline != NULL && tks_timeline_open(opt->timeline) == 0;
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
  if (tks_hooks_add(&h) < 0) fprintf(stderr, "tksim: hook table full; the timing model is off\n");
}

void tks_model_launch_end(const tks_dispatch *d, const tks_launch_stats *stats, const tks_options *opt,
                          int failed)
{
}

void tks_model_process_end(const tks_options *opt)
{
  if (opt->timeline) tks_timeline_close();
}
