/* sweep.c: see sweep.h. */
#include "sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

void tk_sweep_init(tk_sweep *s, const char *what, const char *key_header)
{
  memset(s, 0, sizeof *s);
  s->what = what;
  s->key_header = key_header;
}

int tk_sweep_add(tk_sweep *s, const char *key, const char *shape, const char *kernel, double ms, double flops,
                 tk_timing timing)
{
  if (s->n == s->cap) {
    const size_t cap = s->cap ? 2 * s->cap : 16;
    tk_sweep_row *r = realloc(s->rows, cap * sizeof *r);
    if (!r) return -1;
    s->rows = r, s->cap = cap;
  }
  tk_sweep_row *r = &s->rows[s->n];
  snprintf(r->key, sizeof r->key, "%s", key);
  snprintf(r->shape, sizeof r->shape, "%s", shape);
  snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
  r->ms = ms;
  r->timing = timing;
  const int perf = tk_timing_is_performance(timing);
  r->tflops = perf && ms > 0 ? flops / (ms * 1e-3) / 1e12 : 0;
  /* the first run of this shape: the others are compared with it */
  const tk_sweep_row *first = r;
  for (size_t i = 0; i < s->n; ++i)
    if (!strcmp(s->rows[i].shape, shape) && !strcmp(s->rows[i].key, key)) {
      first = &s->rows[i];
      break;
    }
  char tf[48] = "TFLOP/s not reported (emulated)", rel[80] = "";
  if (perf) snprintf(tf, sizeof tf, "%.4f TFLOP/s", r->tflops);
  if (perf && first != r && r->tflops > 0)
    snprintf(rel, sizeof rel, " (%s is %.2fx this)", first->kernel, first->tflops / r->tflops);
  printf("sweep: %s kernel %s: %.4f ms, %s%s [%s]\n", shape, kernel, ms, tf, rel, tk_timing_label(timing));
  fflush(stdout);
  ++s->n;
  return 0;
}

int tk_sweep_write_csv(const tk_sweep *s, const char *path)
{
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fprintf(f, "%s,kernel,ms,tflops,timing\n", s->key_header);
  for (size_t i = 0; i < s->n; ++i) {
    const tk_sweep_row *r = &s->rows[i];
    char tf[32] = "";
    if (tk_timing_is_performance(r->timing)) snprintf(tf, sizeof tf, "%.6g", r->tflops);
    fprintf(f, "%s,%s,%.6f,%s,%s\n", r->key, r->kernel, r->ms, tf, tk_timing_name(r->timing));
  }
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  return bad ? -1 : 0;
}

/* index of `name` in list[0..*n), appended when absent */
static int intern(const char **list, int *n, const char *name)
{
  for (int i = 0; i < *n; ++i)
    if (!strcmp(list[i], name)) return i;
  list[*n] = name;
  return (*n)++;
}

int tk_sweep_write_svg(const tk_sweep *s, const char *path)
{
  const size_t n = s->n ? s->n : 1;
  const char **groups = malloc(n * sizeof *groups), **series = malloc(n * sizeof *series);
  double *values = malloc(n * n * sizeof *values);
  if (!groups || !series || !values) {
    free(groups), free(series), free(values);
    return -1;
  }
  int ng = 0, ns = 0, perf = s->n > 0;
  for (size_t i = 0; i < s->n; ++i) {
    intern(groups, &ng, s->rows[i].shape);
    intern(series, &ns, s->rows[i].kernel);
    perf &= tk_timing_is_performance(s->rows[i].timing);
  }
  for (size_t i = 0; i < (size_t)ng * (size_t)ns; ++i) values[i] = NAN;
  tk_timing label = s->n ? s->rows[0].timing : TK_TIMING_EMULATED;
  for (size_t i = 0; i < s->n; ++i) {
    const tk_sweep_row *r = &s->rows[i];
    const int g = intern(groups, &ng, r->shape), k = intern(series, &ns, r->kernel);
    values[g * ns + k] = perf ? r->tflops : r->ms;
    if (r->timing != label) label = TK_TIMING_EMULATED; /* mixed: the weakest claim */
  }
  char title[256];
  snprintf(title, sizeof title, "%s: %s per shape and kernel, %s", s->what, perf ? "throughput" : "time",
           tk_timing_name(label));
  const tk_plot_bars_spec spec = {title, tk_timing_label(label), "problem shape", perf ? "TFLOP/s" : "ms per iteration",
                                  ng, ns, groups, series, values};
  const int rc = tk_plot_bars(path, &spec);
  free(groups), free(series), free(values);
  return rc;
}

void tk_sweep_free(tk_sweep *s)
{
  free(s->rows);
  s->rows = NULL;
  s->n = s->cap = 0;
}

int tk_sweep_write_outputs(const tk_sweep *s, const char *prog, const char *csv, const char *svg)
{
  int rc = 0;
  if (csv && tk_sweep_write_csv(s, csv) != 0) {
    fprintf(stderr, "%s: cannot write %s\n", prog, csv);
    rc = 2;
  }
  if (svg && tk_sweep_write_svg(s, svg) != 0) {
    fprintf(stderr, "%s: cannot write %s\n", prog, svg);
    rc = 2;
  }
  return rc;
}
