/* Plain HIP main() around one of HipKittens' MI355X fused dropout + residual
 * + LayerNorm kernels (kernels/layernorm/kernel_<N>.cpp of the CDNA4 fixture;
 * HK_KERNEL_FILE is that source without its Python harness,
 * filter_pybind.cmake). The shape is the file's own (B, N, D = H·HEAD_D,
 * DROPOUT_P constants); rocrand comes from tk's shim (shim/rocrand_kernel.h).
 *
 * Layouts (fixture test_python.py): x, residual, o, o_resid (B, N, D) bf16,
 * weight and bias (D) bf16. The kernel writes o_resid = residual + dropout(x)
 * (an element of x dropped with probability DROPOUT_P, kept ones scaled by
 * 1/(1 - DROPOUT_P)) and o = LayerNorm(o_resid)·weight + bias (eps 1e-5).
 * FLOPs (test_python.py): 8·B·N·D.
 *
 *   hk4_layernorm_<N> [--check] [--check-rows R] [--iters N] [--warmup N] [--seed S]
 *
 * --check: the dropout mask is seeded from the clock (clock64()), so each
 * element of o_resid must be one of its two possible values (kept or
 * dropped), about DROPOUT_P of them dropped; o is compared with the LayerNorm
 * of the kernel's own o_resid row in double (R sampled rows, default 256).
 * Exit: 0 ok, 1 failure, 2 usage. */
#include <hip/hip_runtime.h>
#include HK_KERNEL_FILE

#include "hk_common.h"

static const int64_t hb = B, hn = N, hd = D;

static int usage(const char *msg, const char *arg)
{
  if (msg) fprintf(stderr, "%s: %s%s%s\n", hk_prog, msg, arg ? ": " : "", arg ? arg : "");
  fprintf(stderr,
          "usage: %s [--check] [--check-rows R] [--iters N] [--warmup N] [--seed S]\n"
          "  HipKittens' MI355X fused dropout-residual-LayerNorm, B=%lld N=%lld D=%lld, dropout %g\n"
          "  --check         check o_resid (every element) and o (R sampled rows, default 256) against a\n"
          "                  CPU reference; refused under --model-sample\n"
          "  --iters N       timed launches (default 1)   --warmup N  untimed launches first (default 0)\n"
          "  --seed S        input seed (default 1)\n",
          hk_prog, (long long)hb, (long long)hn, (long long)hd, (double)DROPOUT_P);
  return 2;
}

int main(int argc, char **argv)
{
  hk_prog = argv[0] && strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : "hk4_layernorm";
  int check = 0;
  int64_t iters = 1, warmup = 0, seed = 1, check_rows = 256;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--check")) check = 1;
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
    fprintf(stderr, "%s: --check is refused under tksim --model-sample (unsimulated workgroups compute nothing)\n",
            hk_prog);
    return 2;
  }
  const double flops = 8.0 * hb * hn * hd;
  printf("kernel: HipKittens layernorm B=%lld N=%lld D=%lld dropout=%g\n", (long long)hb, (long long)hn, (long long)hd,
         (double)DROPOUT_P);
  const size_t nx = (size_t)hb * hn * hd;
  uint16_t *x = (uint16_t *)malloc(nx * 2), *r = (uint16_t *)malloc(nx * 2), *o = (uint16_t *)malloc(nx * 2),
           *orr = (uint16_t *)malloc(nx * 2), *w = (uint16_t *)malloc(hd * 2), *bi = (uint16_t *)malloc(hd * 2);
  if (!x || !r || !o || !orr || !w || !bi) {
    fprintf(stderr, "%s: out of host memory\n", hk_prog);
    return 1;
  }
  uint64_t st = (uint64_t)seed;
  /* nn.LayerNorm starts at weight 1, bias 0; perturbed so both take part */
  for (int64_t i = 0; i < hd; ++i) w[i] = hk_f32_to_bf16((float)(1.0 + 0.25 * hk_rng_normal(&st)));
  for (int64_t i = 0; i < hd; ++i) bi[i] = hk_f32_to_bf16((float)(0.25 * hk_rng_normal(&st)));
  memset(o, 0xff, nx * 2);
  memset(orr, 0xff, nx * 2);
  bf16 *dx, *dr, *dout, *dor, *dw, *db;
  HK_CHECK_HIP(hipMalloc((void **)&dx, nx * 2));
  HK_CHECK_HIP(hipMalloc((void **)&dr, nx * 2));
  HK_CHECK_HIP(hipMalloc((void **)&dout, nx * 2));
  HK_CHECK_HIP(hipMalloc((void **)&dor, nx * 2));
  HK_CHECK_HIP(hipMalloc((void **)&dw, hd * 2));
  HK_CHECK_HIP(hipMalloc((void **)&db, hd * 2));
  /* x and the residual written on the device, as the fixture's torch.randn
   * (hk_gen_run); host copies for the check */
  hk_gen_add(dx, nx, &st, 1.0, 0.0, 0, x);
  hk_gen_add(dr, nx, &st, 1.0, 0.0, 0, r);
  if (hk_gen_run()) return 1;
  HK_CHECK_HIP(hipMemcpy(dout, o, nx * 2, hipMemcpyHostToDevice));
  HK_CHECK_HIP(hipMemcpy(dor, orr, nx * 2, hipMemcpyHostToDevice));
  HK_CHECK_HIP(hipMemcpy(dw, w, hd * 2, hipMemcpyHostToDevice));
  HK_CHECK_HIP(hipMemcpy(db, bi, hd * 2, hipMemcpyHostToDevice));
  using G4 = gl<bf16, -1, -1, -1, -1>;
  norm_globals<D> g{G4{dx, 1, (int)hb, (int)hn, (int)hd}, G4{dr, 1, (int)hb, (int)hn, (int)hd},
                    G4{dout, 1, (int)hb, (int)hn, (int)hd}, G4{dor, 1, (int)hb, (int)hn, (int)hd},
                    G4{dw, 1, 1, 1, (int)hd}, G4{db, 1, 1, 1, (int)hd}, 0};
  const dim3 grid = g.grid(), block = g.block();
  printf("launch: grid %u x %u x %u groups, %u threads\n", grid.x, grid.y, grid.z, block.x);
  for (int64_t i = 0; i < warmup; ++i) dispatch_micro<D>(g);
  HK_CHECK_HIP(hipGetLastError());
  HK_CHECK_HIP(hipDeviceSynchronize());
  hipEvent_t e0, e1;
  HK_CHECK_HIP(hipEventCreate(&e0));
  HK_CHECK_HIP(hipEventCreate(&e1));
  const double w0 = hk_wall_ms();
  HK_CHECK_HIP(hipEventRecord(e0, 0));
  for (int64_t i = 0; i < iters; ++i) dispatch_micro<D>(g);
  HK_CHECK_HIP(hipGetLastError());
  HK_CHECK_HIP(hipEventRecord(e1, 0));
  HK_CHECK_HIP(hipEventSynchronize(e1));
  const double w1 = hk_wall_ms();
  float ev_ms = 0;
  HK_CHECK_HIP(hipEventElapsedTime(&ev_ms, e0, e1));
  HK_CHECK_HIP(hipDeviceSynchronize());
  int rc = hk_report_time(ev_ms, w1 - w0, iters, warmup, flops, "TFLOP/s");
  if (check) {
    HK_CHECK_HIP(hipMemcpy(o, dout, nx * 2, hipMemcpyDeviceToHost));
    HK_CHECK_HIP(hipMemcpy(orr, dor, nx * 2, hipMemcpyDeviceToHost));
    /* o_resid: kept = residual + x/(1-p) with bf16 products and sums (each
     * rounded: 2^-7 relative of the terms), dropped = residual exactly */
    const double keep = 1.0 / (1.0 - (double)DROPOUT_P);
    int64_t bad = 0, dropped = 0, clear = 0;
    double worst_r = 0;
    for (size_t i = 0; i < nx; ++i) {
      const double rr = hk_bf16_to_f32(r[i]), xx = hk_bf16_to_f32(x[i]) * keep, got = hk_bf16_to_f32(orr[i]);
      /* where |x| is under half an ulp of residual, kept and dropped look the
       * same in bf16: such elements do not count for the dropout rate */
      const int ambiguous = fabs(xx) <= ldexp(fabs(rr), -8);
      clear += !ambiguous;
      if (got == rr) { dropped += !ambiguous; continue; }
      const double e = fabs(got - (rr + xx)) / (ldexp(fabs(rr) + fabs(xx), -7) + ldexp(fabs(rr + xx), -7) + 1e-30);
      if (!(e <= worst_r)) worst_r = e;
      if (!(e <= 1.0)) ++bad;
    }
    const double frac = (double)dropped / (double)(clear ? clear : 1);
    /* binomial: clear draws at p; 6 standard deviations either side */
    const double sd = sqrt((double)DROPOUT_P * (1 - (double)DROPOUT_P) / (double)(clear ? clear : 1));
    const int frac_ok = fabs(frac - (double)DROPOUT_P) <= 6 * sd + 1e-9;
    /* o: LayerNorm of the kernel's o_resid row in double. The kernel keeps
     * the row's mean and variance in bf16 (its sums are bf16 reductions),
     * so o carries their rounding: bound 2^-5 (1 + |ref|) per element, and
     * a relative L2 error of 2^-6 over the checked rows */
    double worst_o = 0, err2 = 0, ref2 = 0;
    uint64_t cs = (uint64_t)seed ^ 0x5eedull;
    const int64_t rows = hb * hn, nrows = rows < check_rows ? rows : check_rows;
    for (int64_t k = 0; k < nrows; ++k) {
      const int64_t row = rows <= check_rows ? k : (int64_t)(hk_rng_next(&cs) % (uint64_t)rows);
      const uint16_t *v = orr + row * hd;
      double mean = 0, var = 0;
      for (int64_t i = 0; i < hd; ++i) mean += hk_bf16_to_f32(v[i]);
      mean /= (double)hd;
      for (int64_t i = 0; i < hd; ++i) var += (hk_bf16_to_f32(v[i]) - mean) * (hk_bf16_to_f32(v[i]) - mean);
      var /= (double)hd;
      const double inv = 1.0 / sqrt(var + 1e-5);
      for (int64_t i = 0; i < hd; ++i) {
        const double ref = (hk_bf16_to_f32(v[i]) - mean) * inv * hk_bf16_to_f32(w[i]) + hk_bf16_to_f32(bi[i]);
        const double got = hk_bf16_to_f32(o[row * hd + i]);
        const double e = fabs(got - ref) / ldexp(1.0 + fabs(ref), -5);
        err2 += (got - ref) * (got - ref);
        ref2 += ref * ref;
        if (!(e <= worst_o)) worst_o = e;
        if (!(e <= 1.0)) ++bad;
      }
    }
    const double rel_l2 = sqrt(err2 / (ref2 > 0 ? ref2 : 1));
    printf("check: o_resid all %zu elements, %.4f%% of the %lld distinguishable ones dropped (expected %g%%, %s); "
           "worst err/bound %.3f\n", nx, 100 * frac, (long long)clear, 100 * (double)DROPOUT_P, frac_ok ? "within 6 sd" : "OUT of 6 sd", worst_r);
    printf("check: o %lld rows against a CPU double LayerNorm of the kernel's o_resid; worst err/bound %.3f, relative "
           "L2 error %.2e (limit 2^-6)\n", (long long)nrows, worst_o, rel_l2);
    if (bad || !frac_ok || !(rel_l2 <= 1.0 / 64)) {
      printf("check: FAILED (%lld elements past tolerance%s%s)\n", (long long)bad, frac_ok ? "" : ", dropout rate",
             rel_l2 <= 1.0 / 64 ? "" : ", L2 error");
      rc = 1;
    } else
      printf("check: PASSED\n");
  }
  HK_CHECK_HIP(hipFree(dx));
  HK_CHECK_HIP(hipFree(dr));
  HK_CHECK_HIP(hipFree(dout));
  HK_CHECK_HIP(hipFree(dor));
  HK_CHECK_HIP(hipFree(dw));
  HK_CHECK_HIP(hipFree(db));
  free(x), free(r), free(o), free(orr), free(w), free(bi);
  return rc;
}
