/* attn: the command-line program over libtk_attn (tk_attn.h): parses the
 * options, makes seeded random inputs, runs the forward or backward pass,
 * checks against the CPU double-precision reference, times it and prints the
 * figures with their label (measured / modeled / emulated), or runs a sweep
 * with CSV and SVG outputs.  Options and exit codes: docs/attention.md.
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
#include "device_inputs.h"
#include "hip_check.h"
#include "inputs.h"
#include "sweep.h"
#include "timing.h"
#include "tk_attn.h"

#define MAX_SHAPES 64

#define CHECK_HIP(x) TK_EXAMPLE_CHECK_HIP("attn", x)

static void usage(FILE *f)
{
  fprintf(f,
          "usage: attn [options]\n"
          "  flash attention: O = softmax(Q K^T * scale + mask) V (fwd), dQ dK dV (bwd); bf16, BSHD layout\n"
          "  --b B                  batch (default 1)\n"
          "  --hq H --hkv H         query heads, key/value heads (Hq a multiple of Hkv; default 1, = hq)\n"
          "  --sq S --skv S         query and key sequence lengths (default 256, skv = sq)\n"
          "  --d D                  head dim: 64 or 128 (default 128)\n"
          "  --causal               causal mask, bottom-right aligned (key j visible to query i iff j <= i + skv - sq)\n"
          "  --scale X              softmax scale (default 1/sqrt(d))\n"
          "  --dir fwd|bwd          forward, or backward (timed: the backward launches only)\n"
          "  --no-split             forward without the tail split (tk_attn_fwd, no workspace)\n"
          "  --deterministic        backward without atomics (TK_ATTN_BWD_DETERMINISTIC: bitwise-repeatable dQ;\n"
          "                         default: dQ summed with f32 atomics inside the dK/dV kernel)\n"
          "  --q-strides B,S,H      element strides of batch, sequence, head (also --k-strides, --v-strides,\n"
          "                         --o-strides; default packed BSHD; dQ/dK/dV/dO use Q/K/V/O's)\n"
          "  --check                compare with the CPU double-precision reference; exit 1 past tolerance\n"
          "                         (bwd: also a finite-difference check of one dQ, dK and dV element, and a\n"
          "                         second backward run that must reproduce dK, dV bit for bit, and dQ bit for\n"
          "                         bit with --deterministic, to 2^-7 relative otherwise)\n"
          "  --iters N --warmup N   timed iterations / untimed warm-up launches\n"
          "                         (default 10/2 on a GPU, 1/0 under tksim)\n"
          "  --seed S               input random seed (default 1)\n"
          "  --inputs device|host   device (default): after the upload, one ordinary kernel launch loads and\n"
          "                         stores back the last 384 MiB of the inputs (fwd Q K V; bwd Q K V dO O LSE),\n"
          "                         so the timed launch finds them in the caches as a producer kernel leaves them\n"
          "                         (as HipKittens' harnesses do); host: hipMemcpy only (cold). Values identical\n"
          "  --dump FILE            after the run, write the outputs' bytes to FILE (fwd: O then LSE;\n"
          "                         bwd: dQ, dK, dV), for bitwise comparisons\n"
          "  --sweep                time the sweep shapes, non-causal and causal\n"
          "  --sweep-shapes LIST    BxHxSxD[,BxHxSxD...] instead (hkv = hq, skv = sq)\n"
          "  --csv FILE --svg FILE  sweep outputs (CSV table; SVG bar chart of TFLOP/s, or of ms when emulated)\n"
          "  --inject-error         test hook: corrupt one output element before --check (the check must fail)\n"
          "  --help                 this text\n");
}

typedef struct options {
  tk_attn_problem p;
  tk_cli cli;
  int bwd, nosplit, det, hkv_set, skv_set, scale_set, str_set[4];
  int host_inputs; /* --inputs host */
  uint64_t seed;
  const char *shapes, *dump;
} options;

/* ---- data ----------------------------------------------------------------- */

typedef struct attn_data {
  uint16_t *hq, *hk, *hv, *hg;           /* host Q, K, V, dO */
  uint16_t *q, *k, *v, *o, *g, *dq, *dk, *dv; /* device */
  float *lse;
  void *ws;        /* backward workspace */
  void *fws;       /* forward workspace (tail split), ws_bytes of it */
  size_t ws_bytes; /* tk_attn_fwd_workspace_bytes */
  size_t n[4];
} attn_data;

static void *dev_alloc(size_t bytes) { return tk_ex_dev_alloc("attn", bytes, 0); }

/* Q, K, V (and dO for bwd) from the seed, in that order; bwd: 0 forward only, 1 backward, 2
 * deterministic backward (its workspace) */
static void setup(attn_data *d, const tk_attn_problem *p, uint64_t seed, int bwd)
{
  memset(d, 0, sizeof *d);
  for (int t = 0; t < 4; ++t) d->n[t] = (size_t)tk_attn_elems(p, (tk_attn_tensor)t);
  tk_rng r;
  tk_rng_seed(&r, seed);
  d->hq = malloc(d->n[0] * 2), d->hk = malloc(d->n[1] * 2), d->hv = malloc(d->n[2] * 2);
  d->hg = bwd ? malloc(d->n[3] * 2) : NULL;
  if (!d->hq || !d->hk || !d->hv || (bwd && !d->hg)) {
    fprintf(stderr, "attn: out of host memory for the inputs\n");
    exit(4);
  }
  tk_rng_fill_bf16(&r, d->hq, d->n[0]);
  tk_rng_fill_bf16(&r, d->hk, d->n[1]);
  tk_rng_fill_bf16(&r, d->hv, d->n[2]);
  if (bwd) tk_rng_fill_bf16(&r, d->hg, d->n[3]);
  d->q = dev_alloc(d->n[0] * 2), d->k = dev_alloc(d->n[1] * 2), d->v = dev_alloc(d->n[2] * 2);
  d->o = dev_alloc(d->n[3] * 2);
  d->lse = dev_alloc((size_t)tk_attn_lse_elems(p) * 4);
  CHECK_HIP(hipMemcpy(d->q, d->hq, d->n[0] * 2, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(d->k, d->hk, d->n[1] * 2, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(d->v, d->hv, d->n[2] * 2, hipMemcpyHostToDevice));
  if (bwd) {
    d->g = dev_alloc(d->n[3] * 2);
    d->dq = dev_alloc(d->n[0] * 2), d->dk = dev_alloc(d->n[1] * 2), d->dv = dev_alloc(d->n[2] * 2);
    /* the workspace of the mode that runs (bwd 2: deterministic, its dQ partials); its contents on
     * entry are the caller's garbage: all-ones bytes (f32 NaN) here, so that a kernel that counts
     * on zeros there shows in --check */
    d->ws = tk_ex_dev_alloc("attn", tk_attn_bwd_workspace_bytes_flags(p, bwd == 2 ? TK_ATTN_BWD_DETERMINISTIC : 0u), 0xff);
    CHECK_HIP(hipMemcpy(d->g, d->hg, d->n[3] * 2, hipMemcpyHostToDevice));
  }
  d->ws_bytes = tk_attn_fwd_workspace_bytes(p);
  if (d->ws_bytes) d->fws = tk_ex_dev_alloc("attn", d->ws_bytes, 0xff); /* (garbage, as above) */
}

/* --inputs device: the timed launch's inputs as the kernels that produce
 * them on hardware leave them (Q, K, V from the QKV projection; dO, and O,
 * LSE from the forward: bwd runs this after its forward), in HipKittens'
 * harness order (bench/hipkittens: hk_gen_add calls) */
static void device_inputs(attn_data *d, const tk_attn_problem *p, int bwd)
{
  const tk_ex_dev_span s[6] = {{d->q, d->n[0] * 2}, {d->k, d->n[1] * 2},
                               {d->v, d->n[2] * 2}, {d->g, d->n[3] * 2},
                               {d->o, d->n[3] * 2}, {d->lse, (size_t)tk_attn_lse_elems(p) * 4}};
  tk_ex_device_rewrite("attn", s, bwd ? 6 : 3, TK_EX_DEVICE_INPUT_BYTES);
}

/* --dump: the outputs' bytes, one after the other */
static int dump_outputs(const char *path, const tk_attn_problem *p, const attn_data *d, int bwd)
{
  const void *dev[3] = {bwd ? (void *)d->dq : (void *)d->o, bwd ? (void *)d->dk : (void *)d->lse, d->dv};
  const size_t bytes[3] = {bwd ? d->n[0] * 2 : d->n[3] * 2, bwd ? d->n[1] * 2 : (size_t)tk_attn_lse_elems(p) * 4,
                           d->n[2] * 2};
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "attn: --dump: cannot open %s\n", path);
    return 4;
  }
  int bad = 0;
  for (int i = 0; i < (bwd ? 3 : 2) && !bad; ++i) {
    void *h = tk_ex_host_copy("attn", dev[i], bytes[i]);
    bad = fwrite(h, 1, bytes[i], f) != bytes[i];
    free(h);
  }
  if (fclose(f) != 0 || bad) {
    fprintf(stderr, "attn: --dump: write to %s failed\n", path);
    return 4;
  }
  return 0;
}

static void teardown(attn_data *d)
{
  void *dev[] = {d->q, d->k, d->v, d->o, d->g, d->dq, d->dk, d->dv, d->lse, d->ws, d->fws};
  for (size_t i = 0; i < sizeof dev / sizeof dev[0]; ++i)
    if (dev[i]) CHECK_HIP(hipFree(dev[i]));
  free(d->hq), free(d->hk), free(d->hv), free(d->hg);
}

typedef struct launch_ctx {
  const tk_attn_problem *p;
  attn_data *d;
  int bwd;
  int nosplit; /* forward: tk_attn_fwd (no workspace, no tail split) */
  int det;     /* backward: TK_ATTN_BWD_DETERMINISTIC */
} launch_ctx;

static int launch(void *v)
{
  const launch_ctx *l = v;
  attn_data *d = l->d;
  const int e = l->bwd ? tk_attn_bwd_flags(l->p, d->q, d->k, d->v, d->o, d->g, d->lse, d->dq, d->dk, d->dv, d->ws,
                                            l->det ? TK_ATTN_BWD_DETERMINISTIC : 0u, 0)
                : l->nosplit ? tk_attn_fwd(l->p, d->q, d->k, d->v, d->o, d->lse, 0)
                             : tk_attn_fwd_ws(l->p, d->q, d->k, d->v, d->o, d->lse, d->fws, d->ws_bytes, 0);
  if (e != TK_ATTN_OK) fprintf(stderr, "attn: tk_attn_%s: %s\n", l->bwd ? "bwd" : "fwd", tk_attn_strerror(e));
  return e;
}

/* query-key pairs the mask lets through, per (batch, head) */
static double visible_pairs(const tk_attn_problem *p)
{
  if (!p->causal) return (double)p->sq * (double)p->skv;
  double n = 0;
  for (int64_t i = 0; i < p->sq; ++i) {
    const int64_t v = i + p->skv - p->sq + 1;
    n += v < 0 ? 0 : v > p->skv ? (double)p->skv : (double)v;
  }
  return n;
}

/* forward: 2 matmuls (S = QK^T, PV), 2 flops per multiply-add; backward: 5
 * (S recomputed, dV, dP, dK, dQ), the FlashAttention-2 convention */
static double flops(const tk_attn_problem *p, int bwd)
{
  return (bwd ? 10.0 : 4.0) * visible_pairs(p) * (double)p->d * (double)p->b * (double)p->hq;
}

/* test hook: one output element changes by a quarter of its magnitude (or 0.25) */
static void inject_error(uint16_t *dev)
{
  uint16_t h;
  CHECK_HIP(hipMemcpy(&h, dev, 2, hipMemcpyDeviceToHost));
  h = tk_ex_bf16_perturb(h);
  CHECK_HIP(hipMemcpy(dev, &h, 2, hipMemcpyHostToDevice));
}

static uint16_t *to_host(const uint16_t *dev, size_t n) { return tk_ex_host_copy("attn", dev, n * 2); }

static int report(const char *what, const tk_attn_cmp *c)
{
  printf("check: %s: %lld elements, max abs err %.3e, worst err/bound %.3f, %lld past tolerance\n", what,
         (long long)c->n, c->max_abs, c->worst_ratio, (long long)c->nbad);
  return c->nbad != 0;
}

static int check_fwd(const tk_attn_problem *p, attn_data *d, int inject)
{
  if (inject) inject_error(d->o);
  uint16_t *ho = to_host(d->o, d->n[3]);
  const size_t nl = (size_t)tk_attn_lse_elems(p);
  float *hl = malloc(nl * 4);
  if (!hl) exit(4);
  CHECK_HIP(hipMemcpy(hl, d->lse, nl * 4, hipMemcpyDeviceToHost));
  tk_attn_cmp c[2];
  const int e = tk_attn_check_fwd(p, d->hq, d->hk, d->hv, ho, hl, c);
  free(ho), free(hl);
  if (e != TK_ATTN_OK) {
    fprintf(stderr, "attn: check: %s\n", tk_attn_strerror(e));
    return 4;
  }
  printf("check: CPU double reference; tolerance per element: O 2^-8*sum_j p_j|v_j| + 2^-8*|ref| + 2^-20, "
         "LSE 4*d*2^-24*scale*max_j sum|q k_j| + 2^-20*|ref| + 2^-20\n");
  int fail = report("O", &c[0]);
  fail |= report("LSE", &c[1]);
  return fail;
}

static double mean_abs(const uint16_t *h, size_t n)
{
  double s = 0;
  for (size_t i = 0; i < n; ++i) s += fabs(tk_ex_bf16_to_f32(h[i]));
  return n ? s / (double)n : 0;
}

static int check_bwd(const tk_attn_problem *p, attn_data *d, int inject)
{
  if (inject) inject_error(d->dk);
  uint16_t *g[3] = {to_host(d->dq, d->n[0]), to_host(d->dk, d->n[1]), to_host(d->dv, d->n[2])};
  tk_attn_cmp c[3];
  int e = tk_attn_check_bwd(p, d->hq, d->hk, d->hv, d->hg, g[0], g[1], g[2], c);
  int fail = 0;
  if (e == TK_ATTN_OK) {
    printf("check: CPU double reference; tolerance per element: dQ, dK 2^-6*scale*sum P(|dP|+sum|dO o|)|k or q| + "
           "2^-8*|ref| + 2^-20, dV 2^-7*sum P|dO| + 2^-8*|ref| + 2^-20\n");
    fail |= report("dQ", &c[0]);
    fail |= report("dK", &c[1]);
    fail |= report("dV", &c[2]);
    /* finite differences of L = sum(O * dO): one element of each input, in
     * the last batch and head, the middle row */
    static const char *names[3] = {"dQ", "dK", "dV"};
    for (int t = 0; t < 3 && e == TK_ATTN_OK; ++t) {
      const int64_t h = (t == 0 ? p->hq : p->hkv) - 1, s = (t == 0 ? p->sq : p->skv) / 2, el = p->d / 3;
      double fd;
      e = tk_attn_fd_grad(p, d->hq, d->hk, d->hv, d->hg, (tk_attn_tensor)t, p->b - 1, s, h, el, 1e-3, &fd);
      if (e != TK_ATTN_OK) break;
      const double got = tk_ex_bf16_to_f32(g[t][tk_attn_offset(p, (tk_attn_tensor)t, p->b - 1, s, h) + el]);
      const double bound = ldexp(fabs(fd), -5) + ldexp(mean_abs(g[t], d->n[t]), -5) + 1e-6;
      const int ok = fabs(got - fd) <= bound;
      printf("check: finite difference %s[b=%lld,s=%lld,h=%lld,e=%lld]: fd %.6e, kernel %.6e, |diff| %.3e, bound "
             "%.3e (2^-5*|fd| + 2^-5*mean|%s|) %s\n",
             names[t], (long long)(p->b - 1), (long long)s, (long long)h, (long long)el, fd, got, fabs(got - fd), bound,
             names[t], ok ? "ok" : "FAILED");
      fail |= !ok;
    }
  }
  free(g[0]), free(g[1]), free(g[2]);
  if (e != TK_ATTN_OK) {
    fprintf(stderr, "attn: check: %s\n", tk_attn_strerror(e));
    return 4;
  }
  return fail;
}

/* Determinism: a second backward, into gradients overwritten with 0xff bytes
 * first (a launch that wrote nothing cannot pass: 0xffff is a NaN), must
 * reproduce the first run's dK, dV bit for bit (summed in a fixed order in
 * both modes) and dQ bit for bit in the deterministic mode; the default
 * mode's dQ is summed with atomics in any order, so there each element must
 * agree to 2^-7 of its magnitude (a few bf16 ulps) plus 2^-20. */
static int check_bwd_repeat(const tk_attn_problem *p, attn_data *d, const launch_ctx *l, uint16_t *const first[3])
{
  uint16_t *dev[3] = {d->dq, d->dk, d->dv};
  static const char *names[3] = {"dQ", "dK", "dV"};
  for (int t = 0; t < 3; ++t) CHECK_HIP(hipMemset(dev[t], 0xff, d->n[t] * 2));
  if (launch((void *)l) != 0) return 4;
  CHECK_HIP(hipDeviceSynchronize());
  int fail = 0;
  for (int t = 0; t < 3; ++t) {
    uint16_t *again = to_host(dev[t], d->n[t]);
    /* the tensor's elements (padding between strided rows is never written) */
    const int64_t rows = t == 0 ? p->sq : p->skv, heads = t == 0 ? p->hq : p->hkv;
    size_t diff = 0, n = 0;
    for (int64_t b = 0; b < p->b; ++b)
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t h = 0; h < heads; ++h)
          for (int64_t e = 0; e < p->d; ++e, ++n) {
            const size_t i = (size_t)(tk_attn_offset(p, (tk_attn_tensor)t, b, r, h) + e);
            if (t == 0 && !l->det) {
              const double x = tk_ex_bf16_to_f32(again[i]), y = tk_ex_bf16_to_f32(first[t][i]);
              diff += !(fabs(x - y) <= ldexp(fmax(fabs(x), fabs(y)), -7) + ldexp(1.0, -20));
            } else
              diff += again[i] != first[t][i];
          }
    printf("check: second backward run: %s %s (%zu of %zu elements differ)\n", names[t],
           diff ? "DIFFERS" : t == 0 && !l->det ? "identical to 2^-7 (atomic sums)" : "bitwise identical", diff, n);
    fail |= diff != 0;
    free(again);
  }
  return fail;
}

static void print_problem(const tk_attn_problem *p, int bwd)
{
  printf("problem: %s b=%lld hq=%lld hkv=%lld sq=%lld skv=%lld d=%lld causal=%d scale=%g strides q=%lld,%lld,%lld "
         "k=%lld,%lld,%lld v=%lld,%lld,%lld o=%lld,%lld,%lld\n",
         bwd ? "bwd" : "fwd", (long long)p->b, (long long)p->hq, (long long)p->hkv, (long long)p->sq,
         (long long)p->skv, (long long)p->d, p->causal, p->scale, (long long)p->str[0][0], (long long)p->str[0][1],
         (long long)p->str[0][2], (long long)p->str[1][0], (long long)p->str[1][1], (long long)p->str[1][2],
         (long long)p->str[2][0], (long long)p->str[2][1], (long long)p->str[2][2], (long long)p->str[3][0],
         (long long)p->str[3][1], (long long)p->str[3][2]);
}

static int run_one(const options *o)
{
  const tk_attn_problem *p = &o->p;
  print_problem(p, o->bwd);
  if (o->bwd) {
    printf("backward: %s", o->det ? "deterministic (TK_ATTN_BWD_DETERMINISTIC: a fixed summation order)"
                                  : "default (dQ summed with f32 atomics in the dK/dV kernel)");
    /* default: no workspace size only for a bad TK_ATTN_BWD_DQ_BATCHES (the problem was checked) */
    const int np = o->det ? tk_attn_bwd_dq_partials(p) : tk_attn_bwd_workspace_bytes_flags(p, 0) ? -1 : -2;
    if (np == -2) { /* a measurement hook set to a bad value: say which, do not run */
      printf("\n");
      fprintf(stderr, "attn: %s (TK_ATTN_BWD_DQ_PARTS=%s, TK_ATTN_BWD_DQ_ORDERED=%s, TK_ATTN_BWD_DQ_ROT=%s, "
              "TK_ATTN_BWD_DQ_BATCHES=%s)\n", tk_attn_strerror(TK_ATTN_ERR_ENV),
              getenv("TK_ATTN_BWD_DQ_PARTS") ? getenv("TK_ATTN_BWD_DQ_PARTS") : "(unset)",
              getenv("TK_ATTN_BWD_DQ_ORDERED") ? getenv("TK_ATTN_BWD_DQ_ORDERED") : "(unset)",
              getenv("TK_ATTN_BWD_DQ_ROT") ? getenv("TK_ATTN_BWD_DQ_ROT") : "(unset)",
              getenv("TK_ATTN_BWD_DQ_BATCHES") ? getenv("TK_ATTN_BWD_DQ_BATCHES") : "(unset)");
      return 2;
    }
    if (o->det && tk_attn_bwd_dq_ordered(p) == 1) /* (its f32 atomics in a fixed order: still deterministic) */
      printf(", dQ by ordered accumulation (f32 atomics in a fixed key-block order)\n");
    else if (np > 0) printf(", dQ through %d f32 partial sums\n", np);
    else printf(o->det ? ", dQ by the recomputing dq kernel\n" : "\n");
  }
  attn_data d;
  setup(&d, p, o->seed, o->bwd ? 1 + o->det : 0);
  if (!o->bwd)
    printf("forward: tail split %s (workspace %zu bytes)\n", !o->nosplit && d.ws_bytes ? "on" : "off", d.ws_bytes);
  launch_ctx fwd = {p, &d, 0, o->nosplit, 0}, l = {p, &d, o->bwd, o->nosplit, o->det};
  int rc = 0;
  if (!o->bwd && !o->host_inputs) device_inputs(&d, p, 0);
  if (o->cli.check || o->bwd) { /* the backward needs the forward's O and LSE */
    if (launch(&fwd) != 0) return 4;
    CHECK_HIP(hipDeviceSynchronize());
  }
  if (o->bwd && !o->host_inputs) device_inputs(&d, p, 1);
  printf("inputs: %s\n", o->host_inputs ? "host (hipMemcpy only)"
                                         : "device (last 384 MiB loaded and stored back by one kernel launch)");
  if (o->cli.check) {
    int f;
    if (o->bwd) {
      if (launch(&l) != 0) return 4;
      CHECK_HIP(hipDeviceSynchronize());
      uint16_t *first[3] = {to_host(d.dq, d.n[0]), to_host(d.dk, d.n[1]), to_host(d.dv, d.n[2])};
      f = check_bwd(p, &d, o->cli.inject);
      if (f != 4) f |= check_bwd_repeat(p, &d, &l, first);
      free(first[0]), free(first[1]), free(first[2]);
    } else
      f = check_fwd(p, &d, o->cli.inject);
    if (f == 4) return 4;
    printf("check: %s\n", f ? "FAILED" : "PASSED");
    rc = f;
  }
  if (o->cli.iters > 0) {
    char note[64];
    snprintf(note, sizeof note, "%s flops = %.4g", o->bwd ? "10*pairs*d*b*hq" : "4*pairs*d*b*hq", flops(p, o->bwd));
    const tk_work w = {flops(p, o->bwd), 0, note};
    if (tk_time_report("attn", launch, &l, o->cli.iters, o->cli.warmup, &w, NULL)) {
      teardown(&d);
      return 4;
    }
  }
  if (o->dump && !rc) rc = dump_outputs(o->dump, p, &d, o->bwd);
  teardown(&d);
  return rc;
}

static int run_sweep(const options *o)
{
  static const char *def = "16x16x8192x128,16x16x8192x64";
  int64_t dims[MAX_SHAPES * 4];
  const int ns = tk_cli_shapes(o->shapes ? o->shapes : def, 4, dims, MAX_SHAPES);
  if (ns < 0) return tk_cli_fail(&o->cli, "bad --sweep-shapes list (BxHxSxD[,BxHxSxD...], at most 64)", o->shapes);
  tk_attn_problem shapes[MAX_SHAPES];
  for (int i = 0; i < ns; ++i) {
    tk_attn_problem_init(&shapes[i], dims[4 * i], dims[4 * i + 1], dims[4 * i + 1], dims[4 * i + 2], dims[4 * i + 2],
                         dims[4 * i + 3], 0);
    const char *e = tk_attn_problem_error(&shapes[i]);
    if (e) return tk_cli_fail(&o->cli, e, o->shapes);
  }
  tk_sweep sw;
  tk_sweep_init(&sw, o->bwd ? "flash attention bwd bf16" : "flash attention fwd bf16", "b,hq,hkv,sq,skv,d,causal,dir");
  int rc = 0;
  for (int i = 0; i < ns && !rc; ++i)
    for (int causal = 0; causal < 2 && !rc; ++causal) {
      tk_attn_problem p = shapes[i];
      p.causal = causal;
      attn_data d;
      setup(&d, &p, o->seed, o->bwd ? 1 + o->det : 0);
      launch_ctx fwd = {&p, &d, 0, o->nosplit, 0}, l = {&p, &d, o->bwd, o->nosplit, o->det};
      if (o->bwd && launch(&fwd) != 0) rc = 4;
      if (!rc && !o->host_inputs) device_inputs(&d, &p, o->bwd);
      double ms = 0;
      tk_timing kind = TK_TIMING_EMULATED;
      if (!rc && tk_time_launches(launch, &l, o->cli.iters, o->cli.warmup, &ms, &kind) != 0) rc = 4;
      teardown(&d);
      if (rc) {
        fprintf(stderr, "attn: launch failed\n");
        break;
      }
      char key[128], shape[64];
      snprintf(key, sizeof key, "%lld,%lld,%lld,%lld,%lld,%lld,%d,%s", (long long)p.b, (long long)p.hq,
               (long long)p.hkv, (long long)p.sq, (long long)p.skv, (long long)p.d, causal, o->bwd ? "bwd" : "fwd");
      snprintf(shape, sizeof shape, "b%lld h%lld s%lld d%lld", (long long)p.b, (long long)p.hq, (long long)p.sq,
               (long long)p.d);
      if (tk_sweep_add(&sw, key, shape, causal ? "causal" : "non-causal", ms, flops(&p, o->bwd), kind)) rc = 4;
    }
  const int wrc = tk_sweep_write_outputs(&sw, "attn", o->cli.csv, o->cli.svg);
  rc = rc ? rc : wrc;
  tk_sweep_free(&sw);
  return rc;
}

static int parse_args(int argc, char **argv, options *o)
{
  int64_t strides[4][3];
  tk_cli *c = &o->cli;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v;
    if (!strcmp(a, "--causal")) { o->p.causal = 1; continue; }
    if (!strcmp(a, "--no-split")) { o->nosplit = 1; continue; }
    if (!strcmp(a, "--deterministic")) { o->det = 1; continue; }
    const int k = tk_cli_arg(c, argc, argv, &i, &v);
    if (k == TK_CLI_NEXT) continue;
    if (k != TK_CLI_VALUE) return k;
    int64_t x;
    if (!strcmp(a, "--b") || !strcmp(a, "--hq") || !strcmp(a, "--hkv") || !strcmp(a, "--sq") || !strcmp(a, "--skv") ||
        !strcmp(a, "--d") || !strcmp(a, "--seed")) {
      if (!tk_cli_i64(v, &x)) return tk_cli_fail(c, "not an integer", v);
      if (!strcmp(a, "--b")) o->p.b = x;
      else if (!strcmp(a, "--hq")) o->p.hq = x;
      else if (!strcmp(a, "--hkv")) o->p.hkv = x, o->hkv_set = 1;
      else if (!strcmp(a, "--sq")) o->p.sq = x;
      else if (!strcmp(a, "--skv")) o->p.skv = x, o->skv_set = 1;
      else if (!strcmp(a, "--d")) o->p.d = x;
      else
        o->seed = (uint64_t)x;
    } else if (!strcmp(a, "--scale")) {
      if (!tk_cli_f32(v, &o->p.scale)) return tk_cli_fail(c, "not a finite number", v);
      o->scale_set = 1;
    } else if (!strcmp(a, "--inputs")) {
      if (!strcmp(v, "device")) o->host_inputs = 0;
      else if (!strcmp(v, "host")) o->host_inputs = 1;
      else return tk_cli_fail(c, "unknown --inputs (device|host)", v);
    } else if (!strcmp(a, "--dump")) {
      o->dump = v;
    } else if (!strcmp(a, "--dir")) {
      if (!strcmp(v, "fwd")) o->bwd = 0;
      else if (!strcmp(v, "bwd")) o->bwd = 1;
      else return tk_cli_fail(c, "unknown direction (fwd|bwd)", v);
    } else if (!strcmp(a, "--q-strides") || !strcmp(a, "--k-strides") || !strcmp(a, "--v-strides") ||
               !strcmp(a, "--o-strides")) {
      const int t = a[2] == 'q' ? 0 : a[2] == 'k' ? 1 : a[2] == 'v' ? 2 : 3;
      if (!tk_cli_ints(v, strides[t], 3)) return tk_cli_fail(c, "strides must be three integers B,S,H", v);
      o->str_set[t] = 1;
    } else if (!strcmp(a, "--sweep-shapes")) o->shapes = v, c->sweep = 1;
    else
      return tk_cli_fail(c, "unknown option", a);
  }
  /* defaults that depend on other options, then explicit strides */
  const float scale = o->p.scale;
  tk_attn_problem_init(&o->p, o->p.b, o->p.hq, o->hkv_set ? o->p.hkv : o->p.hq, o->p.sq,
                       o->skv_set ? o->p.skv : o->p.sq, o->p.d, o->p.causal);
  if (o->scale_set) o->p.scale = scale;
  for (int t = 0; t < 4; ++t)
    if (o->str_set[t]) memcpy(o->p.str[t], strides[t], sizeof strides[t]);
  if (o->dump && c->sweep) return tk_cli_fail(c, "--dump writes one run's outputs: not with --sweep", o->dump);
  return tk_cli_done(c, tk_attn_problem_error(&o->p));
}

int main(int argc, char **argv)
{
  options o;
  memset(&o, 0, sizeof o);
  o.p.b = 1, o.p.hq = 1, o.p.sq = 256, o.p.d = 128;
  o.seed = 1;
  tk_cli_init(&o.cli, "attn", usage, 1);
  const int rc = parse_args(argc, argv, &o);
  if (rc >= 0) return rc;
  if (tk_timing_start("attn", &o.cli.iters, o.cli.iters_set, &o.cli.warmup, o.cli.warmup_set)) return 4;
  return o.cli.sweep ? run_sweep(&o) : run_one(&o);
}
