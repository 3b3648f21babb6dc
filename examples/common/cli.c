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
