/* norm: the command-line program over libtk_norm (tk_norm.h): parses the
 * options, makes seeded random inputs, runs the fused dropout + residual +
 * LayerNorm / RMSNorm forward, checks it against the CPU reference, times
 * it and prints the time and the bandwidth with their label (measured /
 * modeled / emulated).  Options: --help and docs/rowwise.md.
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
#include "tk_norm.h"

#define CHECK_HIP(x) TK_EXAMPLE_CHECK_HIP("norm", x)

static void usage(FILE *f)
{
  fprintf(f,
          "usage: norm --op layernorm|rmsnorm --m M --n N [options]\n"
          "  fused forward, bf16 in/out, f32 statistics, one read of the input:\n"
          "    h = dropout(x) [+ residual];  res_out = bf16(h);  z = bf16(h)\n"
          "    layernorm: out = (z - mean) / sqrt(var + eps) * weight + bias\n"
          "    rmsnorm:   out = z / sqrt(mean(z^2) + eps) * weight\n"
          "  --op layernorm|rmsnorm  the normalisation (default layernorm)\n"
          "  --m M --n N            rows and columns (N <= 32768; default 256 x 1024)\n"
          "  --residual             add a residual input and write the sum (res_out)\n"
          "  --dropout P --seed S   dropout probability in [0, 1) with a counter-based mask from S\n"
          "                         (S also seeds the inputs; default 0 and 1)\n"
          "  --eps E                (default 1e-5)\n"
          "  --ld L                 row pitch of every M x N tensor in elements (>= N; default N)\n"
          "  --check                compare with the CPU double reference; exit 1 past tolerance\n"
          "  --iters N --warmup N   timed iterations / untimed warm-up launches\n"
          "                         (default 10/2 on a GPU, 1/0 under tksim)\n"
          "  --inject-error         test hook: corrupt one output element before --check\n"
          "  --help                 this text\n");
}

typedef struct options {
  tk_norm_problem p;
  tk_cli cli;
  int64_t ld;
} options;

typedef struct norm_data {
  uint16_t *hx, *hr, *hw, *hb;
  uint16_t *x, *r, *w, *b, *o, *ro;
  size_t nx, nr, no, nro;
} norm_data;

static uint16_t *host_bf16(tk_rng *r, size_t n)
{
  uint16_t *h = tk_ex_host_alloc("norm", n * 2);
  tk_rng_fill_bf16(r, h, n);
  return h;
}

static void setup(norm_data *d, const tk_norm_problem *p, uint64_t seed)
{
  memset(d, 0, sizeof *d);
  d->nx = (size_t)tk_norm_elems(p, p->ld_x), d->no = (size_t)tk_norm_elems(p, p->ld_out);
  d->nr = p->residual ? (size_t)tk_norm_elems(p, p->ld_res) : 0;
  d->nro = p->residual ? (size_t)tk_norm_elems(p, p->ld_res_out) : 0;
  tk_rng r;
  tk_rng_seed(&r, seed);
  d->hx = host_bf16(&r, d->nx);
  d->hr = p->residual ? host_bf16(&r, d->nr) : NULL;
  d->hw = host_bf16(&r, (size_t)p->n);
  d->hb = host_bf16(&r, (size_t)p->n);
  d->x = tk_ex_dev_copy("norm", d->hx, d->nx * 2), d->o = tk_ex_dev_alloc("norm", d->no * 2, 0xff);
  d->w = tk_ex_dev_copy("norm", d->hw, (size_t)p->n * 2), d->b = tk_ex_dev_copy("norm", d->hb, (size_t)p->n * 2);
  if (p->residual) d->r = tk_ex_dev_copy("norm", d->hr, d->nr * 2), d->ro = tk_ex_dev_alloc("norm", d->nro * 2, 0xff);
}

static void teardown(norm_data *d)
{
  void *dev[] = {d->x, d->r, d->w, d->b, d->o, d->ro};
  tk_ex_dev_free("norm", dev, sizeof dev / sizeof dev[0]);
  free(d->hx), free(d->hr), free(d->hw), free(d->hb);
}

typedef struct launch_ctx {
  const tk_norm_problem *p;
  norm_data *d;
} launch_ctx;

static int launch(void *v)
{
  const launch_ctx *l = v;
  const int e = tk_norm_fwd(l->p, l->d->x, l->d->r, l->d->w, l->d->b, l->d->o, l->d->ro, 0);
  if (e != TK_NORM_OK) fprintf(stderr, "norm: tk_norm_fwd: %s\n", tk_norm_strerror(e));
  return e;
}

static int check(const tk_norm_problem *p, norm_data *d, int inject)
{
  uint16_t *ho = tk_ex_host_copy("norm", d->o, d->no * 2);
  uint16_t *hro = p->residual ? tk_ex_host_copy("norm", d->ro, d->nro * 2) : NULL;
  if (inject) {
    const int64_t e = (p->m / 2) * p->ld_out + p->n / 3;
    ho[e] = tk_ex_bf16_perturb(ho[e]);
  }
  tk_norm_cmp c[2];
  const int e = tk_norm_check(p, d->hx, d->hr, d->hw, d->hb, ho, hro, c);
  free(ho), free(hro);
  if (e != TK_NORM_OK) {
    fprintf(stderr, "norm: check: %s\n", tk_norm_strerror(e));
    return 4;
  }
  printf("check: CPU double reference; tolerance per element: out 2^-8*|ref| + 2^-16*(|w|*(|zn|+1) + |b|) + 2^-20%s\n",
         p->residual ? ", res_out bit exact" : "");
  int fail = 0;
  printf("check: out: %lld elements, max abs err %.3e, worst err/bound %.3f, %lld past tolerance\n", (long long)c[0].n,
         c[0].max_abs, c[0].worst_ratio, (long long)c[0].nbad);
  fail |= c[0].nbad != 0;
  if (p->residual) {
    printf("check: res_out: %lld elements, %lld not bit exact\n", (long long)c[1].n, (long long)c[1].nbad);
    fail |= c[1].nbad != 0;
  }
  if (p->dropout > 0.0f) {
    int64_t kept = 0;
    for (int64_t i = 0; i < p->m; ++i)
      for (int64_t j = 0; j < p->n; ++j) kept += tk_norm_keep(p, i, j);
    printf("check: dropout mask: %.4f of elements kept (p = %g)\n", (double)kept / ((double)p->m * (double)p->n),
           (double)p->dropout);
  }
  return fail;
}

/* HBM bytes the operation must move: x (and residual) read, out (and
 * res_out) written, weight (and bias) read once */
static double bytes_moved(const tk_norm_problem *p)
{
  const double mn = (double)p->m * (double)p->n;
  const double vecs = p->op == TK_NORM_LAYERNORM ? 2.0 : 1.0;
  return 2.0 * (mn * (p->residual ? 4.0 : 2.0) + (double)p->n * vecs);
}

static int run(const options *o)
{
  const tk_norm_problem *p = &o->p;
  printf("problem: %s m=%lld n=%lld residual=%d dropout=%g seed=%llu eps=%g ld=%lld\n",
         p->op == TK_NORM_RMSNORM ? "rmsnorm" : "layernorm", (long long)p->m, (long long)p->n, p->residual,
         (double)p->dropout, (unsigned long long)p->seed, (double)p->eps, (long long)p->ld_x);
  norm_data d;
  setup(&d, p, p->seed);
  launch_ctx l = {p, &d};
  int rc = 0;
  if (o->cli.check) {
    if (launch(&l) != 0) return 4;
    CHECK_HIP(hipDeviceSynchronize());
    const int f = check(p, &d, o->cli.inject);
    if (f == 4) return 4;
    printf("check: %s\n", f ? "FAILED" : "PASSED");
    rc = f;
  }
  const tk_work w = {0, bytes_moved(p), NULL};
  if (o->cli.iters > 0 && tk_time_report("norm", launch, &l, o->cli.iters, o->cli.warmup, &w, NULL)) rc = 4;
  teardown(&d);
  return rc;
}

static int parse_args(int argc, char **argv, options *o)
{
  tk_cli *c = &o->cli;
  int ld_set = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v;
    if (!strcmp(a, "--residual")) { o->p.residual = 1; continue; }
    const int k = tk_cli_arg(c, argc, argv, &i, &v);
    if (k == TK_CLI_NEXT) continue;
    if (k != TK_CLI_VALUE) return k;
    int64_t x;
    if (!strcmp(a, "--op")) {
      if (!strcmp(v, "layernorm")) o->p.op = TK_NORM_LAYERNORM;
      else if (!strcmp(v, "rmsnorm")) o->p.op = TK_NORM_RMSNORM;
      else return tk_cli_fail(c, "unknown op (layernorm|rmsnorm)", v);
    } else if (!strcmp(a, "--dropout") || !strcmp(a, "--eps")) {
      if (!tk_cli_f32(v, a[2] == 'd' ? &o->p.dropout : &o->p.eps)) return tk_cli_fail(c, "not a finite number", v);
    } else if (!strcmp(a, "--m") || !strcmp(a, "--n") || !strcmp(a, "--ld") || !strcmp(a, "--seed")) {
      if (!tk_cli_i64(v, &x)) return tk_cli_fail(c, "not an integer", v);
      if (!strcmp(a, "--m")) o->p.m = x;
      else if (!strcmp(a, "--n")) o->p.n = x;
      else if (!strcmp(a, "--ld")) o->ld = x, ld_set = 1;
      else if (x < 0) return tk_cli_fail(c, "seed must be >= 0", v);
      else o->p.seed = (uint64_t)x;
    } else
      return tk_cli_fail(c, "unknown option", a);
  }
  const int64_t ld = ld_set ? o->ld : o->p.n;
  o->p.ld_x = o->p.ld_res = o->p.ld_out = o->p.ld_res_out = ld;
  return tk_cli_done(c, tk_norm_problem_error(&o->p));
}

int main(int argc, char **argv)
{
  options o;
  memset(&o, 0, sizeof o);
  tk_norm_problem_init(&o.p, TK_NORM_LAYERNORM, 256, 1024);
  o.p.seed = 1;
  tk_cli_init(&o.cli, "norm", usage, 0);
  const int rc = parse_args(argc, argv, &o);
  if (rc >= 0) return rc;
  if (tk_timing_start("norm", &o.cli.iters, o.cli.iters_set, &o.cli.warmup, o.cli.warmup_set)) return 4;
  return run(&o);
}
