/* cli.c: see cli.h. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

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
