/* Plain HIP main() around one of HipKittens' MI355X rotary-embedding kernels
 * (kernels/rotary/kernel_<N>.cpp of the CDNA4 fixture; HK_KERNEL_FILE is
 * that source without its Python harness, filter_pybind.cmake). The shape is
 * the file's own (ATTN_B, ATTN_H, ATTN_N, HEAD_DIM constants).
 *
 * Layouts (fixture test_python.py): x and o (B, H, N, D) bf16, cos and sin
 * (N, D/2) bf16 with angle n·base^(-2i/D), base 10000. o[..., :D/2] =
 * x1·cos − x2·sin, o[..., D/2:] = x2·cos + x1·sin (x1, x2 the halves of x;
 * GPT-NeoX style, rotation over the whole head). FLOPs (test_python.py):
 * B·H·N·D/2 (·cos) + B·H·N·D/2 (·sin) + B·N·D/2.
 *
 *   hk4_rotary_<N> [--check] [--iters N] [--warmup N] [--seed S]
 *
 * --check compares every element of o with a double reference. Exit: 0 ok,
 * 1 failure, 2 usage. */
#include <hip/hip_runtime.h>
#include HK_KERNEL_FILE

#include "hk_common.h"

static const int64_t hb = ATTN_B, hh = ATTN_H, hn = ATTN_N, hd = HEAD_DIM;

static int usage(const char *msg, const char *arg)
{
  if (msg) fprintf(stderr, "%s: %s%s%s\n", hk_prog, msg, arg ? ": " : "", arg ? arg : "");
  fprintf(stderr,
          "usage: %s [--check] [--iters N] [--warmup N] [--seed S]\n"
          "  HipKittens' MI355X rotary embedding, B=%lld H=%lld N=%lld D=%lld\n"
          "  --check     compare o with a CPU reference (every element); refused under --model-sample\n"
          "  --iters N   timed launches (default 1)   --warmup N  untimed launches first (default 0)\n"
          "  --seed S    input seed (default 1)\n",
          hk_prog, (long long)hb, (long long)hh, (long long)hn, (long long)hd);
  return 2;
}

int main(int argc, char **argv)
{
  hk_prog = argv[0] && strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : "hk4_rotary";
  int check = 0;
  int64_t iters = 1, warmup = 0, seed = 1;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--check")) check = 1;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(NULL, NULL), 0;
    else if (!strcmp(a, "--iters") || !strcmp(a, "--warmup") || !strcmp(a, "--seed")) {
      if (i + 1 >= argc) return usage("missing value after", a);
      int64_t *dst = !strcmp(a, "--iters") ? &iters : !strcmp(a, "--warmup") ? &warmup : &seed;
      if (!hk_parse_int(argv[++i], !strcmp(a, "--iters") ? 1 : 0, dst)) return usage("bad number", argv[i]);
    } else
      return usage("unknown option", a);
  }
  if (check && hk_sampled()) {
    fprintf(stderr, "%s: --check is refused under tksim --model-sample (unsimulated workgroups compute nothing)\n",
            hk_prog);
    return 2;
  }
  const int64_t half = hd / 2;
  const double flops = 2.0 * hb * hh * hn * half + (double)hb * hn * half;
  printf("kernel: HipKittens rotary B=%lld N=%lld H=%lld D=%lld\n", (long long)hb, (long long)hn, (long long)hh,
         (long long)hd);
  const size_t nx = (size_t)hb * hh * hn * hd, nt = (size_t)hn * half;
  uint16_t *x = (uint16_t *)malloc(nx * 2), *o = (uint16_t *)malloc(nx * 2), *c = (uint16_t *)malloc(nt * 2),
           *s = (uint16_t *)malloc(nt * 2);
  if (!x || !o || !c || !s) {
    fprintf(stderr, "%s: out of host memory\n", hk_prog);
    return 1;
  }
  uint64_t st = (uint64_t)seed;
  for (int64_t n = 0; n < hn; ++n)
    for (int64_t i = 0; i < half; ++i) {
      const double ang = (double)n * pow(10000.0, -2.0 * (double)i / (double)hd);
      c[n * half + i] = hk_f32_to_bf16((float)cos(ang));
      s[n * half + i] = hk_f32_to_bf16((float)sin(ang));
    }
  memset(o, 0xff, nx * 2); /* NaN: an element the kernel never writes fails the check */
  bf16 *dx, *dout, *dc, *ds;
  HK_CHECK_HIP(hipMalloc((void **)&dx, nx * 2));
  HK_CHECK_HIP(hipMalloc((void **)&dout, nx * 2));
  HK_CHECK_HIP(hipMalloc((void **)&dc, nt * 2));
  HK_CHECK_HIP(hipMalloc((void **)&ds, nt * 2));
  /* x written on the device, as the fixture's torch.randn (hk_gen_run);
   * a host copy for the check */
  hk_gen_add(dx, nx, &st, 1.0, 0.0, 0, x);
  if (hk_gen_run()) return 1;
  HK_CHECK_HIP(hipMemcpy(dout, o, nx * 2, hipMemcpyHostToDevice));
  HK_CHECK_HIP(hipMemcpy(dc, c, nt * 2, hipMemcpyHostToDevice));
  HK_CHECK_HIP(hipMemcpy(ds, s, nt * 2, hipMemcpyHostToDevice));
  using G4 = gl<bf16, -1, -1, -1, -1>;
  rotary_globals<HEAD_DIM> g{G4{dx, (int)hb, (int)hh, (int)hn, (int)hd}, G4{dout, (int)hb, (int)hh, (int)hn, (int)hd},
                             G4{ds, 1, 1, (int)hn, (int)half}, G4{dc, 1, 1, (int)hn, (int)half}, 0};
  const dim3 grid = g.grid(), block = g.block();
  printf("launch: grid %u x %u x %u groups, %u threads\n", grid.x, grid.y, grid.z, block.x);
  for (int64_t i = 0; i < warmup; ++i) dispatch_rotary<HEAD_DIM>(g);
  HK_CHECK_HIP(hipGetLastError());
  HK_CHECK_HIP(hipDeviceSynchronize());
  hipEvent_t e0, e1;
  HK_CHECK_HIP(hipEventCreate(&e0));
  HK_CHECK_HIP(hipEventCreate(&e1));
  const double w0 = hk_wall_ms();
  HK_CHECK_HIP(hipEventRecord(e0, 0));
  for (int64_t i = 0; i < iters; ++i) dispatch_rotary<HEAD_DIM>(g);
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
    /* bf16 products and sums (__hmul2, __hsub2/__hadd2): each product and the
     * result rounded to bf16, 2^-8 relative each (nearest) or 2^-7 (truncation) */
    int64_t bad = 0;
    double worst = 0;
    for (size_t r = 0; r < nx / hd; ++r) {
      const int64_t n = (int64_t)(r % hn);
      for (int64_t i = 0; i < half; ++i) {
        const double x1 = hk_bf16_to_f32(x[r * hd + i]), x2 = hk_bf16_to_f32(x[r * hd + half + i]);
        const double cc = hk_bf16_to_f32(c[n * half + i]), ss = hk_bf16_to_f32(s[n * half + i]);
        const double ref[2] = {x1 * cc - x2 * ss, x2 * cc + x1 * ss};
        const double mag[2] = {fabs(x1 * cc) + fabs(x2 * ss), fabs(x2 * cc) + fabs(x1 * ss)};
        for (int k = 0; k < 2; ++k) {
          const double got = hk_bf16_to_f32(o[r * hd + k * half + i]);
          const double bound = ldexp(mag[k], -7) + ldexp(fabs(ref[k]), -7) + 1e-30;
          const double e = fabs(got - ref[k]) / bound;
          if (!(e <= worst)) worst = e;
          if (!(e <= 1.0)) ++bad;
        }
      }
    }
    printf("check: %zu (all) elements of o against a CPU double reference of the same bf16 inputs; worst "
           "err/bound %.3f (bound: 2^-7 (|x1 c| + |x2 s|) + 2^-7 |ref|)\n", nx, worst);
    if (bad) {
      printf("check: FAILED (%lld elements past tolerance)\n", (long long)bad);
      rc = 1;
    } else
      printf("check: PASSED\n");
  }
  HK_CHECK_HIP(hipFree(dx));
  HK_CHECK_HIP(hipFree(dout));
  HK_CHECK_HIP(hipFree(dc));
  HK_CHECK_HIP(hipFree(ds));
  free(x), free(o), free(c), free(s);
  return rc;
}
