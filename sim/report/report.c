/* report.c: tksim's per-launch and per-PC reports (see report.h).
 *
 * Instruction counts by class, MFMA FLOPs, s_waitcnt/s_barrier counts and
 * global bytes come from exec's tks_launch_stats; this file adds LDS accesses
 * and bank-conflict cycles (model: check/banks.h, gfx942 32 banks x 4 B, also
 * applied to gfx950 and said so in the report) and,
 * with --report=pc, per-instruction attribution gathered through the exec
 * hooks (exec/hooks.h). Counters are per worker thread, merged at
 * dispatch end, so the hooks take no locks. MFMA FLOPs per instruction are
 * 2*M*N*K*blocks from the mnemonic (v_mfma_<out>_<M>x<N>x<K>[_<B>b]_<in>, AMD
 * matrix instruction calculator naming).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/report.h"
#include "check/banks.h"
#include "exec/hooks.h"

typedef struct pc_row {
  tks_report_pc r;
  int used;
} pc_row;

typedef struct rworker {
  pc_row *rows;            /* by instruction index */
  uint32_t nrows;
  uint64_t lds_accesses, lds_cycles, lds_conflicts;
} rworker;

typedef struct rstate {
  rworker *w;
  uint32_t nworkers;
  int per_pc;
  /* last dispatch, merged */
  tks_report_pc *last;
  uint32_t nlast;
  uint64_t lds_accesses, lds_cycles, lds_conflicts;
  uint64_t waves_per_group;
  uint64_t launches;
} rstate;

static rstate g_r;

uint64_t tks_mfma_flops_of(const char *text)
{
  const char *p = text ? strstr(text, "mfma_") : NULL;
  if (!p) return 0;
  /* first token of the form <M>x<N>x<K> */
  for (const char *q = p; *q && *q != ' '; q++) {
    if (!isdigit((unsigned char)*q) || (q > p && isdigit((unsigned char)q[-1]))) continue;
    char *e;
    unsigned long m = strtoul(q, &e, 10);
    if (*e != 'x') continue;
    unsigned long n = strtoul(e + 1, &e, 10);
    if (*e != 'x') continue;
    unsigned long k = strtoul(e + 1, &e, 10);
    unsigned long blocks = 1;
    if (*e == '_' && isdigit((unsigned char)e[1])) {
      char *f;
      unsigned long b = strtoul(e + 1, &f, 10);
      if (*f == 'b') blocks = b;
    }
    return 2ull * m * n * k * blocks;
  }
  return 0;
}

static pc_row *row_for(rworker *w, const tks_inst_view *in)
{
  if (in->index >= w->nrows) {
    uint32_t n = w->nrows ? w->nrows : 256;
    while (n <= in->index) n *= 2;
    pc_row *t = realloc(w->rows, n * sizeof *t);
    if (!t) return NULL;
    memset(t + w->nrows, 0, (n - w->nrows) * sizeof *t);
    w->rows = t;
    w->nrows = n;
  }
  pc_row *r = &w->rows[in->index];
  if (!r->used) {
    r->used = 1;
    r->r.pc = in->pc;
    r->r.cls = in->cls;
    r->r.text = in->text;
  }
  return r;
}

static void on_dispatch_begin(void *user, const tks_dispatch *d, uint32_t nworkers,
                              uint32_t waves_per_group, uint32_t lds_bytes)
{
  rstate *s = user;
  if (nworkers > s->nworkers) {
    rworker *nw = realloc(s->w, nworkers * sizeof *nw);
    if (!nw) { s->nworkers = 0; return; }
    memset(nw + s->nworkers, 0, (nworkers - s->nworkers) * sizeof *nw);
    s->w = nw;
    s->nworkers = nworkers;
  }
  for (uint32_t i = 0; i < s->nworkers; i++) {
    rworker *w = &s->w[i];
    if (w->rows) memset(w->rows, 0, w->nrows * sizeof *w->rows);
    w->lds_accesses = w->lds_cycles = w->lds_conflicts = 0;
  }
  s->waves_per_group = waves_per_group;
}

static void on_issue(void *user, const tks_wave_view *wv, const tks_inst_view *in)
{
  rstate *s = user;
  if (wv->worker >= s->nworkers) return;
  pc_row *r = row_for(&s->w[wv->worker], in);
  if (!r) return;
  r->r.count++;
  r->r.lanes += (uint64_t)__builtin_popcountll(wv->exec);
}

static void on_lds(void *user, const tks_wave_view *wv, const tks_inst_view *in,
                   const uint32_t addr[64], uint32_t bytes, uint64_t exec, int is_write)
{
  rstate *s = user;
  if (wv->worker >= s->nworkers) return;
  rworker *w = &s->w[wv->worker];
  tks_lds_cost c = tks_lds_access_cost_on(tks_lds_model_for(tks_get_options()->arch), addr, exec, bytes, is_write);
  w->lds_accesses++;
  w->lds_cycles += c.cycles;
  w->lds_conflicts += c.cycles - c.phases;
  if (s->per_pc) {
    pc_row *r = row_for(w, in);
    if (!r) return;
    r->r.lds_accesses++;
    r->r.lds_cycles += c.cycles;
    r->r.lds_conflict_cycles += c.cycles - c.phases;
  }
}

static void on_global(void *user, const tks_wave_view *wv, const tks_inst_view *in,
                      const uint64_t addr[64], uint32_t bytes, uint64_t exec, int is_write)
{
  rstate *s = user;
  if (wv->worker >= s->nworkers) return;
  pc_row *r = row_for(&s->w[wv->worker], in);
  if (!r) return;
  uint64_t n = (uint64_t)__builtin_popcountll(exec) * bytes;
  if (is_write == 0 || is_write == 2) r->r.global_read += n;
  if (is_write != 0) r->r.global_written += n;
}

static int cmp_pc(const void *a, const void *b)
{
  const tks_report_pc *x = a, *y = b;
  return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int on_dispatch_end(void *user, const tks_dispatch *d, tks_launch_stats *stats, char *err,
                           size_t errlen)
{
  rstate *s = user;
  s->lds_accesses = s->lds_cycles = s->lds_conflicts = 0;
  uint32_t maxrows = 0;
  for (uint32_t i = 0; i < s->nworkers; i++) {
    s->lds_accesses += s->w[i].lds_accesses;
    s->lds_cycles += s->w[i].lds_cycles;
    s->lds_conflicts += s->w[i].lds_conflicts;
    if (s->w[i].nrows > maxrows) maxrows = s->w[i].nrows;
  }
  stats->lds_bank_conflict_cycles += s->lds_conflicts;
  if (!stats->lds_accesses) stats->lds_accesses = s->lds_accesses;
  s->nlast = 0;
  if (!s->per_pc) return 0;
  tks_report_pc *out = realloc(s->last, (maxrows ? maxrows : 1) * sizeof *out);
  if (!out) return 0;
  s->last = out;
  for (uint32_t idx = 0; idx < maxrows; idx++) {
    tks_report_pc m;
    int used = 0;
    memset(&m, 0, sizeof m);
    for (uint32_t i = 0; i < s->nworkers; i++) {
      if (idx >= s->w[i].nrows || !s->w[i].rows[idx].used) continue;
      const tks_report_pc *r = &s->w[i].rows[idx].r;
      if (!used) { m.pc = r->pc; m.cls = r->cls; m.text = r->text; used = 1; }
      m.count += r->count;
      m.lanes += r->lanes;
      m.lds_accesses += r->lds_accesses;
      m.lds_cycles += r->lds_cycles;
      m.lds_conflict_cycles += r->lds_conflict_cycles;
      m.global_read += r->global_read;
      m.global_written += r->global_written;
    }
    if (!used) continue;
    m.flops = m.cls == TKS_CLASS_MFMA ? m.count * tks_mfma_flops_of(m.text) : 0;
    out[s->nlast++] = m;
  }
  qsort(out, s->nlast, sizeof *out, cmp_pc);
  return 0;
}

int tks_report_setup(const tks_options *opt)
{
  if (!opt || !opt->report) return 0;
  g_r.per_pc = opt->report >= 2;
  tks_hooks h;
  memset(&h, 0, sizeof h);
  h.user = &g_r;
  h.dispatch_begin = on_dispatch_begin;
  h.dispatch_end = on_dispatch_end;
  h.lds_access = on_lds;
  if (g_r.per_pc) {
    h.issue = on_issue;
    h.global_access = on_global;
  }
  return tks_hooks_add(&h);
}

/* ------------------------------------------------------------------ output */
static FILE *open_out(int *close_it)
{
  const char *f = getenv("TKSIM_REPORT_FILE");
  *close_it = 0;
  if (f && *f) {
    FILE *o = fopen(f, "a");
    if (o) { *close_it = 1; return o; }
    fprintf(stderr, "tksim: cannot open TKSIM_REPORT_FILE '%s'; reporting to stderr\n", f);
  }
  return stderr;
}

static const char *class_name[TKS_CLASS_COUNT] = {
  "salu", "smem", "valu", "mfma", "lds", "vmem", "branch", "waitcnt", "barrier", "misc"
};

static int cmp_conflicts(const void *a, const void *b)
{
  const tks_report_pc *x = *(const tks_report_pc *const *)a, *y = *(const tks_report_pc *const *)b;
  if (x->lds_conflict_cycles != y->lds_conflict_cycles)
    return x->lds_conflict_cycles > y->lds_conflict_cycles ? -1 : 1;
  return x->pc < y->pc ? -1 : x->pc > y->pc;
}

void tks_report_print(const tks_dispatch *d, const tks_launch_stats *s, const tks_options *opt,
                      int failed)
{
  if (!opt || !opt->report || !d || !s) return;
  int close_it;
  FILE *o = open_out(&close_it);
  g_r.launches++;
  uint64_t groups = 1;
  for (int i = 0; i < 3; i++)
    groups *= d->block[i] ? (d->grid[i] + d->block[i] - 1) / d->block[i] : 0;
  fprintf(o, "tksim report: launch %" PRIu64 ", kernel %s%s\n", g_r.launches,
          d->k ? d->k->name : "?", failed ? " (FAILED)" : "");
  fprintf(o, "  grid %ux%ux%u work-items, block %ux%ux%u: %" PRIu64 " workgroups, %" PRIu64 " waves\n",
          d->grid[0], d->grid[1], d->grid[2], d->block[0], d->block[1], d->block[2], groups, s->waves);
  fprintf(o, "  instructions %" PRIu64 " (lane-instructions %" PRIu64 ")\n", s->instructions,
          s->lane_instructions);
  /* exec counts each instruction in at most one class; "other" is the rest
   * (s_nop, s_endpgm, s_setprio, s_sleep, cache control, DS lane ops such as
   * ds_bpermute), so the classes add up to the total */
  uint64_t classed = s->salu + s->valu + s->smem + s->vmem_load + s->vmem_store + s->lds_read +
                     s->lds_write + s->mfma + s->branch + s->waitcnt + s->barrier;
  fprintf(o, "    salu %" PRIu64 "  valu %" PRIu64 "  smem %" PRIu64 "  vmem load %" PRIu64
          "  vmem store %" PRIu64 "  lds read %" PRIu64 "  lds write %" PRIu64 "  mfma %" PRIu64
          "  branch %" PRIu64 "  s_waitcnt %" PRIu64 "  s_barrier %" PRIu64 "  other %" PRIu64 "\n",
          s->salu, s->valu, s->smem, s->vmem_load, s->vmem_store, s->lds_read, s->lds_write,
          s->mfma, s->branch, s->waitcnt, s->barrier,
          s->instructions > classed ? s->instructions - classed : 0);
  fprintf(o, "  mfma %" PRIu64 ", %" PRIu64 " FLOPs\n", s->mfma, s->mfma_flops);
  fprintf(o, "  lds accesses %" PRIu64 ", %" PRIu64 " cycles, bank-conflict cycles %" PRIu64
          " (model: %s)\n", g_r.lds_accesses, g_r.lds_cycles, s->lds_bank_conflict_cycles,
          tks_lds_model_for(tks_get_options()->arch)->name);
  if (tks_get_options()->arch == TKS_ARCH_GFX950)
    fprintf(o, "  target gfx950: %u KiB of LDS per workgroup; bank count and read bandwidth sourced, the "
            "lane grouping of its phases assumed (docs/hardware.md \"CDNA4\")\n",
            tks_arch_lds_bytes(TKS_ARCH_GFX950) / 1024);
  fprintf(o, "  global bytes read %" PRIu64 ", written %" PRIu64 "\n", s->global_bytes_read,
          s->global_bytes_written);
  fprintf(o, "  s_waitcnt %" PRIu64 ", s_barrier %" PRIu64 "\n", s->waitcnt, s->barrier);
  if (s->errors_reported)
    fprintf(o, "  checker reports %" PRIu64 "\n", s->errors_reported);
  if (s->modeled_seconds > 0) {
    fprintf(o, "  modeled time %.3f us\n", s->modeled_seconds * 1e6);
    /* what the model says about the memory side: L2 reuse and HBM traffic,
     * and the MFMA rate the modeled time implies (whole grid) */
    const uint64_t lk = s->model_l2_hits + s->model_l2_misses;
    const double scale = s->model_group_scale > 0 ? s->model_group_scale : 1.0;
    fprintf(o, "  modeled L2 hit rate %.1f%% of %" PRIu64 " read-line lookups, HBM traffic %.3f MB, "
            "MFMA %.2f TFLOP/s over the modeled time%s\n",
            lk ? 100.0 * (double)s->model_l2_hits / (double)lk : 0.0, lk, s->model_hbm_bytes / 1e6,
            (double)s->mfma_flops * scale / s->modeled_seconds / 1e12,
            scale > 1.0 ? " (sampled groups, extrapolated)" : "");
  }

  if (opt->report >= 2 && g_r.nlast) {
    fprintf(o, "  per instruction (sorted by PC; lds cyc = modeled LDS cycles, confl = bank-conflict cycles):\n");
    fprintf(o, "  %8s %12s %14s %10s %10s %10s %12s %12s %14s  %s\n", "pc", "count", "lanes",
            "lds acc", "lds cyc", "confl", "global rd", "global wr", "flops", "instruction");
    for (uint32_t i = 0; i < g_r.nlast; i++) {
      const tks_report_pc *r = &g_r.last[i];
      fprintf(o, "  %8x %12" PRIu64 " %14" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
              " %12" PRIu64 " %12" PRIu64 " %14" PRIu64 "  %s [%s]\n",
              r->pc, r->count, r->lanes, r->lds_accesses, r->lds_cycles, r->lds_conflict_cycles,
              r->global_read, r->global_written, r->flops, r->text ? r->text : "?",
              r->cls >= 0 && r->cls < TKS_CLASS_COUNT ? class_name[r->cls] : "?");
    }
    const tks_report_pc **top = malloc(g_r.nlast * sizeof *top);
    uint32_t nt = 0;
    for (uint32_t i = 0; top && i < g_r.nlast; i++)
      if (g_r.last[i].lds_conflict_cycles) top[nt++] = &g_r.last[i];
    if (nt) {
      qsort(top, nt, sizeof *top, cmp_conflicts);
      fprintf(o, "  LDS bank conflicts by instruction (most first):\n");
      for (uint32_t i = 0; i < nt && i < 16; i++)
        fprintf(o, "    pc 0x%x  %" PRIu64 " conflict cycles over %" PRIu64
                " accesses (%.2f per access)  %s\n", top[i]->pc, top[i]->lds_conflict_cycles,
                top[i]->lds_accesses, (double)top[i]->lds_conflict_cycles /
                (double)(top[i]->lds_accesses ? top[i]->lds_accesses : 1), top[i]->text);
    } else if (top) {
      fprintf(o, "  no LDS bank conflicts\n");
    }
    free(top);
  }
  fflush(o);
  if (close_it) fclose(o);
}
