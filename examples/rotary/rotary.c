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

#include "buffers.h"
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
  tk_cli c;
  tk_cli_init(&c, "rotary", usage, 0);
  int64_t b = 2, h = 4, s = 128, d = 128, seed = 1, xs[3], os[3];
  int layout = TK_ROTARY_HALF, xs_set = 0, os_set = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v;
    const int k = tk_cli_arg(&c, argc, argv, &i, &v);
    if (k == TK_CLI_NEXT) continue;
    if (k != TK_CLI_VALUE) return k;
    int64_t x;
    if (!strcmp(a, "--layout")) {
      if (!strcmp(v, "half")) layout = TK_ROTARY_HALF;
      else if (!strcmp(v, "interleaved")) layout = TK_ROTARY_INTERLEAVED;
      else return tk_cli_fail(&c, "unknown layout (interleaved|half)", v);
    } else if (!strcmp(a, "--x-strides") || !strcmp(a, "--o-strides")) {
      if (!tk_cli_ints(v, a[2] == 'x' ? xs : os, 3)) return tk_cli_fail(&c, "strides must be three integers B,H,S", v);
      *(a[2] == 'x' ? &xs_set : &os_set) = 1;
    } else if (!strcmp(a, "--b") || !strcmp(a, "--h") || !strcmp(a, "--s") || !strcmp(a, "--d") ||
               !strcmp(a, "--seed")) {
      if (!tk_cli_i64(v, &x)) return tk_cli_fail(&c, "not an integer", v);
      *(a[2] == 'b' ? &b : a[2] == 'h' ? &h : a[3] == 'e' ? &seed : a[2] == 's' ? &s : &d) = x;
    } else
      return tk_cli_fail(&c, "unknown option", a);
  }
  tk_rotary_problem_init(&p, (tk_rotary_layout)layout, b, h, s, d);
  if (xs_set) memcpy(p.xs, xs, sizeof xs);
  if (os_set) memcpy(p.os, os, sizeof os);
  const int prc = tk_cli_done(&c, tk_rotary_problem_error(&p));
  if (prc >= 0) return prc;
  if (tk_timing_start("rotary", &c.iters, c.iters_set, &c.warmup, c.warmup_set)) return 4;

  printf("problem: rotary %s b=%lld h=%lld s=%lld d=%lld x-strides=%lld,%lld,%lld o-strides=%lld,%lld,%lld\n",
         layout == TK_ROTARY_HALF ? "half" : "interleaved", (long long)b, (long long)h, (long long)s, (long long)d,
         (long long)p.xs[0], (long long)p.xs[1], (long long)p.xs[2], (long long)p.os[0], (long long)p.os[1],
         (long long)p.os[2]);
  const size_t nx = (size_t)tk_rotary_elems(&p, p.xs), no = (size_t)tk_rotary_elems(&p, p.os);
  const size_t ncs = (size_t)(s * (d / 2));
  uint16_t *hx = tk_ex_host_alloc("rotary", nx * 2), *hc = tk_ex_host_alloc("rotary", ncs * 2),
           *hs = tk_ex_host_alloc("rotary", ncs * 2);
  tk_rng r;
  tk_rng_seed(&r, (uint64_t)seed);
  tk_rng_fill_bf16(&r, hx, nx);
  for (int64_t si = 0; si < s; ++si)
    for (int64_t i = 0; i < d / 2; ++i) {
      const double ang = (double)si * pow(10000.0, -2.0 * (double)i / (double)d);
      hc[si * (d / 2) + i] = tk_ex_f32_to_bf16((float)cos(ang));
      hs[si * (d / 2) + i] = tk_ex_f32_to_bf16((float)sin(ang));
    }
  ctx l = {&p, tk_ex_dev_copy("rotary", hx, nx * 2), tk_ex_dev_copy("rotary", hc, ncs * 2),
           tk_ex_dev_copy("rotary", hs, ncs * 2), tk_ex_dev_alloc("rotary", no * 2, 0xff)};
  int rc = 0;
  if (c.check) {
    if (launch(&l) != 0) return 4;
    CHECK_HIP(hipDeviceSynchronize());
    uint16_t *ho = tk_ex_host_copy("rotary", l.o, no * 2);
    if (c.inject) {
      const size_t at = (size_t)((b - 1) * p.os[0] + (h - 1) * p.os[1] + (s / 2) * p.os[2] + d / 3);
      ho[at] = tk_ex_bf16_perturb(ho[at]);
    }
    tk_rotary_cmp cmp;
    if (tk_rotary_check(&p, hx, hc, hs, ho, &cmp) != TK_ROTARY_OK) return 4;
    printf("check: CPU double reference; tolerance per element: 2^-8*|ref| + 2^-22*(|x_a cos| + |x_b sin|) + 2^-30\n");
    printf("check: o: %lld elements, max abs err %.3e, worst err/bound %.3f, %lld past tolerance\n", (long long)cmp.n,
           cmp.max_abs, cmp.worst_ratio, (long long)cmp.nbad);
    printf("check: %s\n", cmp.nbad ? "FAILED" : "PASSED");
    rc = cmp.nbad != 0;
    free(ho);
  }
  /* x read, o written, the cos and sin tables read once */
  const tk_work w = {0, 2.0 * (2.0 * (double)b * (double)h * (double)s * (double)d + (double)s * (double)d), NULL};
  if (c.iters > 0 && tk_time_report("rotary", launch, &l, c.iters, c.warmup, &w, NULL)) return 4;
  void *dev[] = {l.x, l.c, l.s, l.o};
  tk_ex_dev_free("rotary", dev, 4);
  free(hx), free(hc), free(hs);
  return rc;
}
