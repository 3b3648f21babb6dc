/* timeline_svg: renders a tksim --timeline trace to an SVG chart: one row per
 * track of one dispatch (named and ordered by the trace's thread_name and
 * thread_sort_index metadata), spans coloured by category, a time axis in
 * microseconds of modeled time, a legend of the categories shown.
 *
 *   tksim-timeline-svg TRACE.json OUT.svg [DISPATCH [T0_US T1_US]]
 *
 * DISPATCH is the trace's pid (1 = the first kernel launch); the window
 * defaults to the whole dispatch.  The trace is Chrome's Trace Event Format
 * (JSON object with "traceEvents"; "X" complete events with ts/dur in µs, "M"
 * metadata events), read with jansson; the chart is drawn with
 * examples/common/plot.h.  Spans of one category closer than half a pixel are
 * drawn as one rectangle, which keeps the file small without changing the
 * picture. Exit: 0, 1 unreadable/empty input or unwritable output, 2 usage. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

typedef struct span { int row; int cat; double ts, dur; } span;
typedef struct track { int64_t tid, sort; char name[64]; int used, disc; } track;

/* Colours by category; the per-wave issue row mixes most of them. */
static const struct { const char *cat, *color; } g_cats[] = {
    {"MFMA", "#d62728"},  {"VALU", "#1f77b4"},   {"SALU", "#9ecae1"},    {"SMEM", "#9467bd"},
    {"LDS", "#2ca02c"},   {"VMEM", "#ff7f0e"},   {"BRANCH", "#c7c7c7"},  {"MISC", "#dddddd"},
    {"wait", "#f2d43d"},  {"WAIT", "#f2d43d"},   {"barrier", "#222222"}, {"BARRIER", "#222222"}};
#define NCAT (int)(sizeof g_cats / sizeof *g_cats)

static int cat_of(const char *c)
{
  for (int i = 0; i < NCAT; i++)
    if (!strcmp(c, g_cats[i].cat)) return i;
  return 7; /* unknown categories are drawn as MISC */
}

static int by_sort(const void *a, const void *b)
{
  const track *x = a, *y = b;
  return x->sort != y->sort ? (x->sort < y->sort ? -1 : 1) : (x->tid < y->tid ? -1 : x->tid > y->tid);
}

static int by_row_ts(const void *a, const void *b)
{
  const span *x = a, *y = b;
  if (x->row != y->row) return x->row < y->row ? -1 : 1;
  return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int parse_num(const char *s, double *v)
{
  char *e;
  *v = strtod(s, &e);
  return e != s && !*e && isfinite(*v);
}

static int usage(const char *msg, const char *arg)
{
  if (msg) fprintf(stderr, "tksim-timeline-svg: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  fprintf(stderr, "usage: tksim-timeline-svg TRACE.json OUT.svg [DISPATCH [T0_US T1_US]]\n");
  return 2;
}

/* "_Z10gemm_8wavePK..." -> "gemm_8wave": the name inside an Itanium-mangled
 * function symbol (length-prefixed); anything else is kept as it is. */
static void short_name(const char *in, char *out, size_t n)
{
  snprintf(out, n, "%s", in);
  if (strncmp(in, "_Z", 2) != 0) return;
  char *e;
  const long len = strtol(in + 2, &e, 10);
  if (len <= 0 || (size_t)len >= n || (long)strlen(e) < len) return;
  const char *rest = e + len, *paren = strstr(rest, " (");
  snprintf(out, n, "%.*s%s", (int)len, e, paren ? paren : "");
}

int main(int argc, char **argv)
{
  if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    usage(NULL, NULL);
    return 0;
  }
  if (argc != 3 && argc != 4 && argc != 6) return usage("wrong number of arguments", NULL);
  double pidd = 1, t0 = NAN, t1 = NAN;
  if (argc > 3 && (!parse_num(argv[3], &pidd) || pidd < 0 || pidd != floor(pidd)))
    return usage("DISPATCH must be a non-negative integer", argv[3]);
  if (argc == 6 && (!parse_num(argv[4], &t0) || !parse_num(argv[5], &t1) || t1 <= t0))
    return usage("T0_US and T1_US must be numbers with T0_US < T1_US", NULL);
  const int64_t pid = (int64_t)pidd;

  json_error_t jerr;
  json_t *root = json_load_file(argv[1], 0, &jerr);
  if (!root) {
    fprintf(stderr, "tksim-timeline-svg: %s: not a readable JSON trace (line %d: %s)\n", argv[1], jerr.line, jerr.text);
    return 1;
  }
  json_t *events = json_is_array(root) ? root : json_object_get(root, "traceEvents");
  if (!json_is_array(events)) {
    fprintf(stderr, "tksim-timeline-svg: %s: no traceEvents array\n", argv[1]);
    json_decref(root);
    return 1;
  }

  const size_t nev = json_array_size(events);
  track *tr = calloc(1024, sizeof *tr);
  span *s = malloc((nev ? nev : 1) * sizeof *s);
  if (!tr || !s) { fprintf(stderr, "tksim-timeline-svg: out of memory\n"); return 1; }
  int ntr = 0;
  char kernel[160] = "";
  size_t n = 0;
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < nev; ++i) {
    json_t *e = json_array_get(events, i);
    const char *ph = json_string_value(json_object_get(e, "ph"));
    json_t *jpid = json_object_get(e, "pid"), *jtid = json_object_get(e, "tid");
    if (!ph || !json_is_integer(jpid) || json_integer_value(jpid) != pid) continue;
    const char *ename = json_string_value(json_object_get(e, "name"));
    json_t *args = json_object_get(e, "args");
    if (!strcmp(ph, "M") && ename && !strcmp(ename, "process_name")) {
      const char *nm = json_string_value(json_object_get(args, "name"));
      if (nm) short_name(nm, kernel, sizeof kernel);
      continue;
    }
    if (!json_is_integer(jtid)) continue;
    const int64_t tid = json_integer_value(jtid);
    int t = 0;
    while (t < ntr && tr[t].tid != tid) ++t;
    if (t == ntr) {
      if (ntr == 1024) { fprintf(stderr, "tksim-timeline-svg: more than 1024 tracks\n"); return 1; }
      tr[ntr] = (track){tid, tid, "", 0, ntr};
      snprintf(tr[ntr].name, sizeof tr[ntr].name, "track %lld", (long long)tid);
      ++ntr;
    }
    if (!strcmp(ph, "M") && ename && !strcmp(ename, "thread_name")) {
      const char *nm = json_string_value(json_object_get(args, "name"));
      if (nm) snprintf(tr[t].name, sizeof tr[t].name, "%s", nm);
    } else if (!strcmp(ph, "M") && ename && !strcmp(ename, "thread_sort_index")) {
      json_t *si = json_object_get(args, "sort_index");
      if (json_is_integer(si)) tr[t].sort = json_integer_value(si);
    } else if (!strcmp(ph, "X")) {
      json_t *jts = json_object_get(e, "ts"), *jdur = json_object_get(e, "dur");
      const char *cat = json_string_value(json_object_get(e, "cat"));
      if (!json_is_number(jts) || !json_is_number(jdur)) continue;
      const double ts = json_number_value(jts), dur = json_number_value(jdur);
      if (!isnan(t0) && (ts + dur < t0 || ts > t1)) continue;
      s[n++] = (span){tr[t].disc, cat_of(cat ? cat : "MISC"), ts, dur};
      tr[t].used = 1;
      if (ts < lo) lo = ts;
      if (ts + dur > hi) hi = ts + dur;
    }
  }
  json_decref(root);
  if (!n) {
    fprintf(stderr, "tksim-timeline-svg: no spans for dispatch %lld%s in %s\n", (long long)pid,
            isnan(t0) ? "" : " in the time window", argv[1]);
    return 1;
  }
  if (isnan(t0)) t0 = lo, t1 = hi;

  /* rows: the tracks with spans, in the trace's sort order; spans name
   * their track by discovery order (tr[].disc) */
  qsort(tr, (size_t)ntr, sizeof *tr, by_sort);
  int *row_of = malloc((size_t)ntr * sizeof *row_of), rows = 0;
  const char **names = malloc((size_t)ntr * sizeof *names);
  for (int t = 0; t < ntr; ++t) {
    row_of[tr[t].disc] = tr[t].used ? rows : -1;
    if (tr[t].used) names[rows++] = tr[t].name;
  }
  for (size_t i = 0; i < n; ++i) s[i].row = row_of[s[i].row];
  qsort(s, n, sizeof *s, by_row_ts);

  int present[NCAT] = {0}, ncats = 0;
  for (size_t i = 0; i < n; ++i) present[s[i].cat] = 1;
  for (int c = 0; c < NCAT; ++c) ncats += present[c];
  const double row_h = 14, width = 1400, legend_h = 8 + 16.0 * ncats;
  const double height = 110 + rows * row_h > 70 + legend_h + 10 ? 110 + rows * row_h : 70 + legend_h + 10;
  char title[320], xlabel[128];
  snprintf(title, sizeof title, "tksim timeline (modeled): %s, dispatch %lld, %.2f-%.2f \xc2\xb5s",
           kernel[0] ? kernel : "kernel", (long long)pid, t0, t1);
  snprintf(xlabel, sizeof xlabel, "modeled time since the first launch (\xc2\xb5s)");
  tk_plot p;
  if (tk_plot_open(&p, argv[2], width, height, title) != 0) {
    fprintf(stderr, "tksim-timeline-svg: cannot write %s\n", argv[2]);
    return 1;
  }
  tk_plot_area(&p, 130, 40, 150, height - 40 - rows * row_h);
  tk_plot_range(&p, t0, t1, 0, rows);
  for (int r = 0; r < rows; r += 2) /* shading every other row */
    tk_plot_rect(&p, t0, rows - r, t1, rows - r - 1, "#f3f3f3", NULL, NULL, NULL);
  tk_plot_axis_x(&p, xlabel, 1);
  tk_plot_axis_y_rows(&p, rows, names, NULL);

  /* merge same-category neighbours closer than half a pixel */
  const double half_px = 0.5 * (t1 - t0) / (p.right - p.left);
  size_t drawn = 0;
  for (size_t i = 0; i < n;) {
    const int row = s[i].row, cat = s[i].cat;
    double a = s[i].ts, b = s[i].ts + s[i].dur;
    size_t j = i + 1;
    while (j < n && s[j].row == row && s[j].cat == cat && s[j].ts <= b + half_px) {
      if (s[j].ts + s[j].dur > b) b = s[j].ts + s[j].dur;
      ++j;
    }
    /* a later span of another category starting inside [a, b] is drawn on top */
    const double y0 = rows - row - 0.9, y1 = rows - row - 0.1;
    tk_plot_rect(&p, a, y0, b, y1, g_cats[cat].color, g_cats[cat].cat, NULL, NULL);
    ++drawn;
    i = j;
  }
  const char *lnames[NCAT], *lcolors[NCAT];
  int nl = 0;
  for (int c = 0; c < NCAT; ++c)
    if (present[c]) lnames[nl] = g_cats[c].cat, lcolors[nl++] = g_cats[c].color;
  tk_plot_legend(&p, p.right + 15, p.top, nl, lnames, lcolors); /* right of the area, which is full of spans */
  if (tk_plot_close(&p) != 0) {
    fprintf(stderr, "tksim-timeline-svg: error writing %s\n", argv[2]);
    return 1;
  }
  printf("%s: %zu spans as %zu rectangles, %d rows, window %.3f..%.3f us\n", argv[2], n, drawn, rows, t0, t1);
  free(row_of);
  free(names);
  free(s);
  free(tr);
  return 0;
}
