/* Plain HIP main() around one of HipKittens' MI355X attention forward kernels
 * (kernels/attn/fwd/attn_fwd_{non_causal,causal}[_d64].cpp of the CDNA4
 * fixture; HK_KERNEL_FILE is that source without its Python harness,
 * filter_pybind.cmake). Shapes are compile-time, as in the fixture's Makefile:
 * -DATTN_B/H/H_KV/N/D; HK_ATTN_CAUSAL says which file it is.
 *
 * Layouts (fixture test_python.py): Q (B, N, H, D), K and V (B, N, H_KV, D),
 * O (B, N, H, D), all bf16; L (B, H, 1, N) f32, the natural-log log-sum-exp
 * of each row's scaled scores. Scale 1/sqrt(D); causal: query row i sees
 * keys 0..i. FLOPs = 4·B·N²·H·D, halved for causal (test_python.py).
 *
 *   hk4_attn_fwd_<variant>_<shape> [--check] [--check-rows R] [--iters N] [--warmup N] [--seed S] [--dump FILE]
 *
 * --check compares O and L with a CPU double reference of the same bf16
 * inputs (every row when B·H·N ≤ 4096, else R sampled rows). Exit: 0 ok,
 * 1 failure (launch, check, timing not modeled when asked), 2 usage. */
#include <hip/hip_runtime.h>
#include HK_KERNEL_FILE

#include "hk_common.h"

#ifndef HK_ATTN_CAUSAL
#error "HK_ATTN_CAUSAL (0 or 1) must say whether HK_KERNEL_FILE is a causal kernel"
#endif

static const int64_t hb = ATTN_B, hh = ATTN_H, hkv = ATTN_H_KV, hn = ATTN_N, hd = ATTN_D;
static const int hcausal = HK_ATTN_CAUSAL;

static int usage(const char *msg, const char *arg)
{
  if (msg) fprintf(stderr, "%s: %s%s%s\n", hk_prog, msg, arg ? ": " : "", arg ? arg : "");
  fprintf(stderr,
          "usage: %s [--check] [--check-rows R] [--iters N] [--warmup N] [--seed S] [--dump FILE]\n"
          "  HipKittens' MI355X attention forward, B=%lld N=%lld H=%lld H_KV=%lld D=%lld %s\n"
          "  --check         compare O and L with a CPU reference (every row when B*H*N <= 4096,\n"
          "                  else R sampled rows, default 512); refused under tksim --model-sample\n"
          "  --iters N       timed launches (default 1)   --warmup N  untimed launches first (default 0)\n"
          "  --seed S        input seed (default 1)\n"
          "  --dump FILE     write the outputs' bytes to FILE (comparing tksim builds)\n",
          hk_prog, (long long)hb, (long long)hn, (long long)hh, (long long)hkv, (long long)hd,
          hcausal ? "causal" : "non-causal");
  return 2;
}

/* One query row (b, h, i) against the double reference. Error bound, derived
 * from what the kernel rounds: Q·scale·log2(e) goes to bf16 (≤ 2^-8 relative
 * per element, truncation or nearest), so each score is off by at most
 * ds = 2^-8·scale·Σ|q k| (plus f32 accumulation, K·2^-24·Σ|q k|·scale); P
 * goes to bf16 before P·V (2^-8 relative); so each normalised weight is off
 * by a factor within exp(±2·ds_max)·(1 ± 2^-8), and O by at most
 * 2·eps·Σ w|v| with eps that factor − 1; O is stored as bf16 (2^-7 |O|).
 * L = m + ln Σ exp(s − m) moves by at most ds_max + 2^-7 (+ f32 rounding). */
static void check_row(const uint16_t *q, const uint16_t *k, const uint16_t *v, const uint16_t *o, const float *l,
                      int64_t b, int64_t h, int64_t i, double *s, double *worst_o, double *worst_l, int64_t *bad,
                      double *err2, double *ref2)
{
  const double scale = 1.0 / sqrt((double)hd);
  const int64_t hk = h / (hh / hkv); /* GQA: query head h reads KV head h / group */
  const int64_t nk = hcausal ? i + 1 : hn;
  const uint16_t *qr = q + ((b * hn + i) * hh + h) * hd;
  double m = -INFINITY, ds = 0;
  for (int64_t j = 0; j < nk; ++j) {
    const uint16_t *kr = k + ((b * hn + j) * hkv + hk) * hd;
    double acc = 0, mag = 0;
    for (int64_t d = 0; d < hd; ++d) {
      const double p = (double)hk_bf16_to_f32(qr[d]) * (double)hk_bf16_to_f32(kr[d]);
      acc += p;
      mag += fabs(p);
    }
    s[j] = acc * scale;
    const double e = (ldexp(1.0, -8) + (double)hd * ldexp(1.0, -24)) * mag * scale;
    if (e > ds) ds = e;
    if (s[j] > m) m = s[j];
  }
  double sum = 0;
  for (int64_t j = 0; j < nk; ++j) sum += (s[j] = exp(s[j] - m));
  const double eps = exp(2 * ds) * (1 + ldexp(1.0, -8)) - 1;
  for (int64_t d = 0; d < hd; ++d) {
    double ref = 0, mag = 0;
    for (int64_t j = 0; j < nk; ++j) {
      const double vv = hk_bf16_to_f32(v[((b * hn + j) * hkv + hk) * hd + d]);
      ref += s[j] * vv;
      mag += s[j] * fabs(vv);
    }
    ref /= sum;
    mag /= sum;
    const double got = hk_bf16_to_f32(o[((b * hn + i) * hh + h) * hd + d]);
    const double bound = ldexp(fabs(ref), -7) + 2 * eps * mag + 1e-6;
    const double r = fabs(got - ref) / bound;
    *err2 += (got - ref) * (got - ref);
    *ref2 += ref * ref;
    if (!(r <= *worst_o)) *worst_o = r;
    if (!(r <= 1.0)) ++*bad;
  }
  const double lref = m + log(sum);
  const double lgot = l[(b * hh + h) * hn + i];
  const double lb = ds + ldexp(1.0, -7) + ldexp(fabs(lref), -20) + 1e-6;
  const double r = fabs(lgot - lref) / lb;
  if (!(r <= *worst_l)) *worst_l = r;
  if (!(r <= 1.0)) ++*bad;
}

int main(int argc, char **argv)
{
  hk_prog = argv[0] && strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : "hk4_attn_fwd";
  int check = 0;
  const char *dump = NULL;
  int64_t iters = 1, warmup = 0, seed = 1, check_rows = 512;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--check")) check = 1;
    else if (!strcmp(a, "--dump")) {
      if (i + 1 >= argc) return usage("missing value after", a);
      dump = argv[++i];
    }
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(NULL, NULL), 0;
    else if (!strcmp(a, "--iters") || !strcmp(a, "--warmup") || !strcmp(a, "--seed") || !strcmp(a, "--check-rows")) {
      if (i + 1 >= argc) return usage("missing value after", a);
      int64_t *dst = !strcmp(a, "--iters") ? &iters : !strcmp(a, "--warmup") ? &warmup : !strcmp(a, "--seed") ? &seed
                                                                                                            : &check_rows;
      const int64_t lo = (!strcmp(a, "--iters") || !strcmp(a, "--check-rows")) ? 1 : 0;
      if (!hk_parse_int(argv[++i], lo, dst)) return usage("bad number", argv[i]);
    } else
      return usage("unknown option", a);
  }
  if (check && hk_sampled()) {
    fprintf(stderr, "%s: --check is refused under tksim --model-sample (unsimulated workgroups compute nothing, "
                    "so O is incomplete)\n", hk_prog);
    return 2;
  }
  const double flops = 4.0 * hb * (double)hn * hn * hh * hd / (hcausal ? 2 : 1);
  printf("kernel: HipKittens attn_fwd B=%lld N=%lld H=%lld H_KV=%lld D=%lld causal=%d\n", (long long)hb,
         (long long)hn, (long long)hh, (long long)hkv, (long long)hd, hcausal);

  const size_t nq = (size_t)hb * hn * hh * hd, nkv = (size_t)hb * hn * hkv * hd, nl = (size_t)hb * hh * hn;
  /* host copies of the inputs and outputs only for --check: the inputs are
   * written on the device (hk_gen_run), which at N = 16384 saves 3-9 GB
   * of host memory in a benchmark-only run */
  uint16_t *q = NULL, *k = NULL, *v = NULL, *o = NULL;
  float *l = NULL;
  if (check) {
    q = (uint16_t *)malloc(nq * 2), k = (uint16_t *)malloc(nkv * 2), v = (uint16_t *)malloc(nkv * 2);
    o = (uint16_t *)malloc(nq * 2), l = (float *)malloc(nl * 4);
    if (!q || !k || !v || !o || !l) {
      fprintf(stderr, "%s: out of host memory\n", hk_prog);
      return 1;
    }
  }

  bf16 *dq, *dk, *dv, *dout;
  float *dl;
  HK_CHECK_HIP(hipMalloc((void **)&dq, nq * 2));
  HK_CHECK_HIP(hipMalloc((void **)&dk, nkv * 2));
  HK_CHECK_HIP(hipMalloc((void **)&dv, nkv * 2));
  HK_CHECK_HIP(hipMalloc((void **)&dout, nq * 2));
  HK_CHECK_HIP(hipMalloc((void **)&dl, nl * 4));
  uint64_t st = (uint64_t)seed;
  /* written on the device, as torch.randn writes the fixture's (hk_gen_run) */
  hk_gen_add(dq, nq, &st, 1.0, 0.0, 0, q);
  hk_gen_add(dk, nkv, &st, 1.0, 0.0, 0, k);
  hk_gen_add(dv, nkv, &st, 1.0, 0.0, 0, v);
  if (hk_gen_run()) return 1;
  /* NaN: a row the kernel never writes fails the check, and a --dump shows
   * it; a benchmark-only run reads no output, so leaves them untouched */
  if (check || dump) {
    HK_CHECK_HIP(hipMemset(dout, 0xff, nq * 2));
    HK_CHECK_HIP(hipMemset(dl, 0xff, nl * 4));
  }

  attn_globals<ATTN_D> g{_gl_QKVO{dq, (int)hb, (int)hn, (int)hh, (int)hd},
                         _gl_QKVO{dk, (int)hb, (int)hn, (int)hkv, (int)hd},
                         _gl_QKVO{dv, (int)hb, (int)hn, (int)hkv, (int)hd},
                         _gl_QKVO{dout, (int)hb, (int)hn, (int)hh, (int)hd},
                         gl<float, -1, -1, -1, -1>{dl, (int)hb, (int)hh, 1, (int)hn}, 0};
  const dim3 grid = g.grid(), block = g.block();
  printf("launch: grid %u x %u x %u groups, %u threads, %zu B dynamic LDS\n", grid.x, grid.y, grid.z, block.x,
         g.dynamic_shared_memory());
  /* the fixture's documented launch: (H, N/256, B) groups of 8 waves */
  if (grid.x != hh || grid.y != hn / 256 || grid.z != hb || block.x != 512 || hn % 256 || hh % hkv) {
    fprintf(stderr, "%s: the kernel's launch shape is not the documented one (grid (H, N/256, B), 512 threads, "
                    "N a multiple of 256): refusing to time it\n", hk_prog);
    return 1;
  }
  for (int64_t i = 0; i < warmup; ++i) dispatch_micro<ATTN_D>(g);
  HK_CHECK_HIP(hipGetLastError());
  HK_CHECK_HIP(hipDeviceSynchronize());
  hipEvent_t e0, e1;
  HK_CHECK_HIP(hipEventCreate(&e0));
  HK_CHECK_HIP(hipEventCreate(&e1));
  const double w0 = hk_wall_ms();
  HK_CHECK_HIP(hipEventRecord(e0, 0));
  for (int64_t i = 0; i < iters; ++i) dispatch_micro<ATTN_D>(g);
  HK_CHECK_HIP(hipGetLastError());
  HK_CHECK_HIP(hipEventRecord(e1, 0));
  HK_CHECK_HIP(hipEventSynchronize(e1));
  const double w1 = hk_wall_ms();
  float ev_ms = 0;
  HK_CHECK_HIP(hipEventElapsedTime(&ev_ms, e0, e1));
  HK_CHECK_HIP(hipDeviceSynchronize());
  if (dump) {
    const void *const bufs[] = {dout, dl};
    const size_t sizes[] = {nq * 2, nl * 4};
    if (hk_dump(dump, 2, bufs, sizes)) return 1;
  }
  int rc = hk_report_time(ev_ms, w1 - w0, iters, warmup, flops, "TFLOP/s");

  if (check) {
    HK_CHECK_HIP(hipMemcpy(o, dout, nq * 2, hipMemcpyDeviceToHost));
    HK_CHECK_HIP(hipMemcpy(l, dl, nl * 4, hipMemcpyDeviceToHost));
    double *s = (double *)malloc((size_t)hn * sizeof(double));
    const int64_t rows = hb * hh * hn;
    const int all = rows <= 4096;
    const int64_t n = all ? rows : check_rows;
    double wo = 0, wl = 0, err2 = 0, ref2 = 0;
    int64_t bad = 0;
    uint64_t cs = (uint64_t)seed ^ 0x5eedull;
    for (int64_t r = 0; r < n; ++r) {
      const int64_t idx = all ? r : (int64_t)(hk_rng_next(&cs) % (uint64_t)rows);
      check_row(q, k, v, o, l, idx / (hh * hn), idx / hn % hh, idx % hn, s, &wo, &wl, &bad, &err2, &ref2);
    }
    free(s);
    /* the per-value bound is a worst case (every rounding against us); the
     * relative L2 error over all checked values must also be at bf16 level
     * (2^-6: a wrong row, head or mask gives errors of order 1) */
    const double rel_l2 = sqrt(err2 / (ref2 > 0 ? ref2 : 1));
    printf("check: %lld %s rows of O (x%lld) and L against a CPU double reference of the same bf16 inputs; worst "
           "err/bound O %.3f, L %.3f; O relative L2 error %.2e (limit 2^-6)\n", (long long)n,
           all ? "(all)" : "sampled", (long long)hd, wo, wl, rel_l2);
    if (!(rel_l2 <= 1.0 / 64)) bad++;
    if (bad) {
      printf("check: FAILED (%lld values past tolerance)\n", (long long)bad);
      rc = 1;
    } else
      printf("check: PASSED\n");
  }
  HK_CHECK_HIP(hipFree(dq));
  HK_CHECK_HIP(hipFree(dk));
  HK_CHECK_HIP(hipFree(dv));
  HK_CHECK_HIP(hipFree(dout));
  HK_CHECK_HIP(hipFree(dl));
  free(q), free(k), free(v), free(o), free(l);
  return rc;
}
