/* cli.c: see cli.h. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int tk_cli_i64(const char *s, int64_t *v)
{
  char *e;
  errno = 0;
  const long long x = strtoll(s, &e, 10);
  if (e == s || *e || errno == ERANGE) return 0;
  *v = x;
  return 1;
}

int tk_cli_f32(const char *s, float *v)
{
  char *e;
  const double x = strtod(s, &e);
  if (e == s || *e || !isfinite(x) || !isfinite((float)x)) return 0;
  *v = (float)x;
  return 1;
}

int tk_cli_bad(const char *prog, void (*usage)(FILE *), const char *msg, const char *arg)
{
  fprintf(stderr, "%s: %s%s%s\n", prog, msg, arg ? ": " : "", arg ? arg : "");
  if (usage) usage(stderr);
  return 2;
}

const char *tk_cli_common_error(int check, int sweep, int inject, int64_t iters, const char *csv, const char *svg)
{
  if ((csv || svg) && !sweep) return "--csv/--svg need --sweep";
  if (sweep && check) return "--check and --sweep are exclusive";
  if (inject && !check) return "--inject-error needs --check";
  if (sweep && iters == 0) return "--sweep needs --iters >= 1";
  const char *ms = getenv("TKSIM_MODEL_SAMPLE"); /* tksim --model-sample runs only some workgroups */
  if (check && ms && atoi(ms) > 0)
    return "--check is refused under tksim --model-sample (results of unsimulated workgroups are not computed)";
  return NULL;
}

const char *tk_cli_count(const char *opt, int64_t x, int64_t *dst, int *set)
{
  if (x < 0) return strcmp(opt, "--iters") == 0 ? "--iters must be >= 0 (0: no timing)" : "--warmup must be >= 0";
  *dst = x, *set = 1;
  return NULL;
}

int tk_cli_list_next(const char **s, const char **item, size_t *len)
{
  if (!*s || !**s) return 0;
  const char *p = *s;
  size_t n = 0;
  while (p[n] && p[n] != ',') ++n;
  *item = p;
  *len = n;
  *s = p[n] ? p + n + 1 : p + n;
  return 1;
}

int tk_cli_shapes(const char *s, int dims, int64_t *out, int max)
{
  int count = 0;
  const char *item;
  size_t len;
  if (!s || !*s) return -1;
  while (tk_cli_list_next(&s, &item, &len)) {
    if (count == max) return -1;
    const char *p = item, *end = item + len;
    for (int d = 0; d < dims; ++d) {
      char *e;
      errno = 0;
      const long long x = strtoll(p, &e, 10);
      if (e == p || x < 1 || errno == ERANGE || e > end) return -1;
      out[count * dims + d] = x;
      p = e;
      if (d + 1 < dims) {
        if (p >= end || *p != 'x') return -1;
        ++p;
      }
    }
    if (p != end) return -1;
    ++count;
  }
  return count > 0 ? count : -1;
}

int tk_cli_ints(const char *s, int64_t *out, int n)
{
  const char *item;
  size_t len;
  int k = 0;
  while (tk_cli_list_next(&s, &item, &len)) {
    char buf[32];
    if (k == n || len == 0 || len >= sizeof buf) return 0;
    memcpy(buf, item, len);
    buf[len] = 0;
    if (!tk_cli_i64(buf, &out[k++])) return 0;
  }
  return k == n;
}

void tk_cli_init(tk_cli *c, const char *prog, void (*usage)(FILE *), int sweeps)
{
  memset(c, 0, sizeof *c);
  c->prog = prog, c->usage = usage, c->sweeps = sweeps;
  c->iters = 10, c->warmup = 2; /* tk_timing_start lowers the unset ones under tksim */
}

int tk_cli_fail(const tk_cli *c, const char *msg, const char *arg) { return tk_cli_bad(c->prog, c->usage, msg, arg); }

int tk_cli_arg(tk_cli *c, int argc, char **argv, int *i, const char **val)
{
  const char *a = argv[*i];
  if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
    if (c->usage) c->usage(stdout);
    return 0;
  }
  if (!strcmp(a, "--check")) return c->check = 1, TK_CLI_NEXT;
  if (!strcmp(a, "--inject-error")) return c->inject = 1, TK_CLI_NEXT;
  if (c->sweeps && !strcmp(a, "--sweep")) return c->sweep = 1, TK_CLI_NEXT;
  if (strncmp(a, "--", 2) != 0) return tk_cli_fail(c, "unexpected argument", a);
  if (*i + 1 >= argc) return tk_cli_fail(c, "missing value for", a);
  const char *v = argv[++*i];
  if (!strcmp(a, "--iters") || !strcmp(a, "--warmup")) {
    int64_t x;
    if (!tk_cli_i64(v, &x)) return tk_cli_fail(c, "not an integer", v);
    const char *e = a[2] == 'i' ? tk_cli_count(a, x, &c->iters, &c->iters_set)
                                : tk_cli_count(a, x, &c->warmup, &c->warmup_set);
    return e ? tk_cli_fail(c, e, v) : TK_CLI_NEXT;
  }
  if (c->sweeps && !strcmp(a, "--csv")) return c->csv = v, TK_CLI_NEXT;
  if (c->sweeps && !strcmp(a, "--svg")) return c->svg = v, TK_CLI_NEXT;
  *val = v;
  return TK_CLI_VALUE;
}

int tk_cli_done(const tk_cli *c, const char *problem_error)
{
  if (problem_error) return tk_cli_fail(c, problem_error, NULL);
  const char *e = tk_cli_common_error(c->check, c->sweep, c->inject, c->iters, c->csv, c->svg);
  return e ? tk_cli_fail(c, e, NULL) : -1;
}
