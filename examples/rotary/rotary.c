/* rotary: the command-line program over libtk_rotary (tk_rotary.h): parses
 * the options, makes seeded random inputs (x uniform in [-1, 1), cos/sin
 * of the usual angles s * 10000^(-2i/D)), runs the rotary embedding, checks
 * it against the CPU reference, times it and prints the time and bandwidth
 * with their label (measured / modeled / emulated).
 *
 * Exit: 0 ok; 1 the check failed; 2 bad arguments (nothing run, nothing
 * written); 4 a HIP error. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hip_check.h"
#include "inputs.h"
#include "timing.h"
#include "tk_rotary.h"

#define CHECK_HIP(x) TK_EXAMPLE_CHECK_HIP("rotary", x)

static void usage(FILE *f)
{
  fprintf(f,
          "usage: rotary --b B --h H --s S --d D --layout interleaved|half [options]\n"
          "  rotary position embedding of bf16 x[b][h][s][0..D) with cos/sin tables [S][D/2]:\n"
          "    half:        (x[i], x[i+D/2]) rotated by angle (s, i)\n"
          "    interleaved: (x[2i], x[2i+1]) rotated by angle (s, i)\n"
          "  --b B --h H --s S      batch, heads, sequence length (default 2 x 4 x 128)\n"
          "  --d D                  head dim, any even number up to 8192 (default 128)\n"
          "  --layout L             interleaved or half (default half)\n"
          "  --x-strides B,H,S      element strides of x (default packed BHSD); --o-strides for o\n"
          "  --check                compare with the CPU double reference; exit 1 past tolerance\n"
          "  --iters N --warmup N   timed iterations / untimed warm-up launches\n"
          "                         (default 10/2 on a GPU, 1/0 under tksim)\n"
          "  --seed S               input seed (default 1)\n"
          "  --inject-error         test hook: corrupt one output element before --check\n"
          "  --help                 this text\n");
}

static int bad(const char *msg, const char *arg) { return tk_cli_bad("rotary", usage, msg, arg); }

static int parse3(const char *v, int64_t out[3])
{
  const char *s = v, *item;
  size_t len;
  int n = 0;
  while (tk_cli_list_next(&s, &item, &len)) {
    char buf[32];
    if (n == 3 || len == 0 || len >= sizeof buf) return 0;
    memcpy(buf, item, len);
    buf[len] = 0;
    if (!tk_cli_i64(buf, &out[n++])) return 0;
  }
  return n == 3;
}

static void *dev_alloc(size_t bytes, int fill)
{
  void *p = NULL;
  CHECK_HIP(hipMalloc(&p, bytes ? bytes : 16));
  CHECK_HIP(hipMemset(p, fill, bytes ? bytes : 16));
  return p;
}

static void *host_alloc(size_t bytes)
{
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "rotary: out of host memory\n");
    exit(4);
  }
  return p;
}

typedef struct ctx {
  const tk_rotary_problem *p;
  uint16_t *x, *c, *s, *o;
} ctx;

static int launch(void *v)
{
  const ctx *l = v;
  const int e = tk_rotary_fwd(l->p, l->x, l->c, l->s, l->o, 0);
  if (e != TK_ROTARY_OK) fprintf(stderr, "rotary: tk_rotary_fwd: %s\n", tk_rotary_strerror(e));
  return e;
}

int main(int argc, char **argv)
{
  tk_rotary_problem p;
  int64_t b = 2, h = 4, s = 128, d = 128, iters = 10, warmup = 2, seed = 1, xs[3], os[3];
  int layout = TK_ROTARY_HALF, check = 0, inject = 0, iters_set = 0, warmup_set = 0, xs_set = 0, os_set = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--check")) { check = 1; continue; }
    if (!strcmp(a, "--inject-error")) { inject = 1; continue; }
    if (strncmp(a, "--", 2) != 0) return bad("unexpected argument", a);
    if (i + 1 >= argc) return bad("missing value for", a);
    const char *v = argv[++i];
    int64_t x;
    if (!strcmp(a, "--layout")) {
      if (!strcmp(v, "half")) layout = TK_ROTARY_HALF;
      else if (!strcmp(v, "interleaved")) layout = TK_ROTARY_INTERLEAVED;
      else return bad("unknown layout (interleaved|half)", v);
    } else if (!strcmp(a, "--x-strides") || !strcmp(a, "--o-strides")) {
      if (!parse3(v, a[2] == 'x' ? xs : os)) return bad("strides must be three integers B,H,S", v);
      if (a[2] == 'x') xs_set = 1;
      else os_set = 1;
    } else if (!strcmp(a, "--b") || !strcmp(a, "--h") || !strcmp(a, "--s") || !strcmp(a, "--d") ||
               !strcmp(a, "--seed") || !strcmp(a, "--iters") || !strcmp(a, "--warmup")) {
      if (!tk_cli_i64(v, &x)) return bad("not an integer", v);
      if (!strcmp(a, "--b")) b = x;
      else if (!strcmp(a, "--h")) h = x;
      else if (!strcmp(a, "--s")) s = x;
      else if (!strcmp(a, "--d")) d = x;
      else if (!strcmp(a, "--seed")) seed = x;
      else {
        const char *ce = a[2] == 'i' ? tk_cli_count(a, x, &iters, &iters_set) : tk_cli_count(a, x, &warmup, &warmup_set);
        if (ce) return bad(ce, v);
      }
    } else
      return bad("unknown option", a);
  }
  tk_rotary_problem_init(&p, (tk_rotary_layout)layout, b, h, s, d);
  if (xs_set) memcpy(p.xs, xs, sizeof xs);
  if (os_set) memcpy(p.os, os, sizeof os);
  const char *e = tk_rotary_problem_error(&p);
  if (e) return bad(e, NULL);
  const char *ce = tk_cli_common_error(check, 0, inject, iters, NULL, NULL);
  if (ce) return bad(ce, NULL);
  if (tk_timing_start("rotary", &iters, iters_set, &warmup, warmup_set)) return 4;

  printf("problem: rotary %s b=%lld h=%lld s=%lld d=%lld x-strides=%lld,%lld,%lld o-strides=%lld,%lld,%lld\n",
         layout == TK_ROTARY_HALF ? "half" : "interleaved", (long long)b, (long long)h, (long long)s, (long long)d,
         (long long)p.xs[0], (long long)p.xs[1], (long long)p.xs[2], (long long)p.os[0], (long long)p.os[1],
         (long long)p.os[2]);
  const size_t nx = (size_t)tk_rotary_elems(&p, p.xs), no = (size_t)tk_rotary_elems(&p, p.os);
  const size_t ncs = (size_t)(s * (d / 2));
  uint16_t *hx = host_alloc(nx * 2), *hc = host_alloc(ncs * 2), *hs = host_alloc(ncs * 2);
  tk_rng r;
  tk_rng_seed(&r, (uint64_t)seed);
  tk_rng_fill_bf16(&r, hx, nx);
  for (int64_t si = 0; si < s; ++si)
    for (int64_t i = 0; i < d / 2; ++i) {
      const double ang = (double)si * pow(10000.0, -2.0 * (double)i / (double)d);
      hc[si * (d / 2) + i] = tk_ex_f32_to_bf16((float)cos(ang));
      hs[si * (d / 2) + i] = tk_ex_f32_to_bf16((float)sin(ang));
    }
  ctx l = {&p, dev_alloc(nx * 2, 0), dev_alloc(ncs * 2, 0), dev_alloc(ncs * 2, 0), dev_alloc(no * 2, 0xff)};
  CHECK_HIP(hipMemcpy(l.x, hx, nx * 2, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(l.c, hc, ncs * 2, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(l.s, hs, ncs * 2, hipMemcpyHostToDevice));
  int rc = 0;
  if (check) {
    if (launch(&l) != 0) return 4;
    CHECK_HIP(hipDeviceSynchronize());
    uint16_t *ho = host_alloc(no * 2);
    CHECK_HIP(hipMemcpy(ho, l.o, no * 2, hipMemcpyDeviceToHost));
    if (inject) {
      const size_t at = (size_t)((b - 1) * p.os[0] + (h - 1) * p.os[1] + (s / 2) * p.os[2] + d / 3);
      const float v = tk_ex_bf16_to_f32(ho[at]);
      ho[at] = tk_ex_f32_to_bf16(v + 0.25f * fmaxf(1.0f, fabsf(v)));
    }
    tk_rotary_cmp c;
    if (tk_rotary_check(&p, hx, hc, hs, ho, &c) != TK_ROTARY_OK) return 4;
    printf("check: CPU double reference; tolerance per element: 2^-8*|ref| + 2^-22*(|x_a cos| + |x_b sin|) + 2^-30\n");
    printf("check: o: %lld elements, max abs err %.3e, worst err/bound %.3f, %lld past tolerance\n", (long long)c.n,
           c.max_abs, c.worst_ratio, (long long)c.nbad);
    printf("check: %s\n", c.nbad ? "FAILED" : "PASSED");
    rc = c.nbad != 0;
    free(ho);
  }
  if (iters > 0) {
    double ms;
    tk_timing kind;
    if (tk_time_launches(launch, &l, iters, warmup, &ms, &kind) != 0) return 4;
    /* x read, o written, the cos and sin tables read once */
    const double bytes = 2.0 * (2.0 * (double)b * (double)h * (double)s * (double)d + (double)s * (double)d);
    printf("time: %.4f ms per iteration over %lld iterations (%lld warm-up) [%s]\n", ms, (long long)iters,
           (long long)warmup, tk_timing_label(kind));
    if (tk_timing_is_performance(kind))
      printf("bandwidth: %.1f GB/s (%s; %.4g bytes = reads + writes, launch overhead included)\n",
             bytes / (ms * 1e-3) / 1e9, tk_timing_name(kind), bytes);
    else
      printf("bandwidth: not reported (emulated without timing model; run tksim --model=mi325x for modeled figures)\n");
    printf("bytes: %.0f\n", bytes);
  }
  CHECK_HIP(hipFree(l.x));
  CHECK_HIP(hipFree(l.c));
  CHECK_HIP(hipFree(l.s));
  CHECK_HIP(hipFree(l.o));
  free(hx), free(hc), free(hs);
  return rc;
}
