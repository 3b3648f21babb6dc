/* Plain HIP main() around one HipKittens MI325X BF16 GEMM kernel (C = A·Bᵀ,
 * A M×K, B N×K, C M×N, bf16 row-major, f32 accumulation; fixture README).
 * HK_KERNEL_FILE is that kernel's source with its pybind11/pyutils lines
 * filtered out at build time (bench/hipkittens/filter_kernel.cmake); the
 * sizes (M, N, K), BLOCK_SIZE, NUM_THREADS, micro_globals and dispatch_micro
 * come from it, so grid/block/LDS are the kernel's own.
 *
 *   hk_gemm_<S> [--check] [--iters N] [--warmup N] [--seed S]
 *
 * Prints the launch shape, the time per launch and TFLOP/s = 2·M·N·K / time.
 * Under `tksim --model=...` hipEvent time is the model's (docs/tksim-model.md),
 * and the figures are labelled "modeled"; without a model they are emulated
 * wall time and no TFLOP/s is printed. Exit codes: 0 ok, 1 failure (launch
 * error, check failed, timing not modeled when TKSIM_MODEL asks for it),
 * 2 bad usage. */
#include <hip/hip_runtime.h>
#include HK_KERNEL_FILE

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const int64_t hk_m = M, hk_n = N, hk_k = K;

#define HK_CHECK_HIP(x)                                                                       \
  do {                                                                                        \
    hipError_t e_ = (x);                                                                      \
    if (e_ != hipSuccess) {                                                                   \
      fprintf(stderr, "hk_gemm: %s failed: %s (%s:%d)\n", #x, hipGetErrorString(e_), __FILE__, \
              __LINE__);                                                                      \
      exit(1);                                                                                \
    }                                                                                         \
  } while (0)

static int usage(const char *msg, const char *arg)
{
  if (msg) fprintf(stderr, "hk_gemm: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  fprintf(stderr,
          "usage: hk_gemm [--check] [--iters N] [--warmup N] [--seed S]\n"
          "  HipKittens' %lldx%lldx%lld BF16 GEMM kernel (C = A*B^T), built from a HipKittens checkout\n"
          "  --check     compare C with a CPU reference (all elements up to 2^30 multiply-adds,\n"
          "              otherwise 4096 sampled ones); refused under tksim --model-sample\n"
          "  --iters N   timed launches (default 1)   --warmup N  untimed launches first (default 0)\n"
          "  --seed S    input pattern seed (default 1)\n",
          (long long)hk_m, (long long)hk_n, (long long)hk_k);
  return 2;
}

static int parse_int(const char *s, int64_t lo, int64_t *out)
{
  char *end = NULL;
  long long v = strtoll(s, &end, 10);
  if (!s[0] || *end || v < lo) return 0;
  *out = v;
  return 1;
}

/* bf16 = upper half of binary32; round to nearest even (no NaN inputs here). */
static uint16_t f32_to_bf16(float f)
{
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static float bf16_to_f32(uint16_t h)
{
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint64_t rng_next(uint64_t *s) /* splitmix64 */
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static uint16_t rng_bf16(uint64_t *s) /* uniform in [-1, 1), rounded to bf16 */
{
  const double u = (double)(rng_next(s) >> 11) / 9007199254740992.0;
  return f32_to_bf16((float)(2.0 * u - 1.0));
}

static double wall_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static const char *env_str(const char *name)
{
  const char *v = getenv(name);
  return v ? v : "";
}

/* Compares C[i][j] with a double-precision dot product of the same bf16
 * inputs. Bound per element: the bf16 conversion of the output, which
 * HipKittens does by truncation (its convertor<bf16, float>: the upper 16
 * bits), so under one ulp, 2^-7·|x|; plus f32 accumulation error over K
 * terms (K·2^-24·Σ|a·b|, the standard recursive-summation bound). */
static int64_t check_element(const uint16_t *a, const uint16_t *b, const uint16_t *c, int64_t i, int64_t j,
                             double *worst)
{
  double ref = 0, mag = 0;
  for (int64_t k = 0; k < hk_k; ++k) {
    const double p = (double)bf16_to_f32(a[i * hk_k + k]) * (double)bf16_to_f32(b[j * hk_k + k]);
    ref += p;
    mag += fabs(p);
  }
  const double got = bf16_to_f32(c[i * hk_n + j]);
  const double bound = ldexp(fabs(ref), -7) + (double)hk_k * ldexp(mag, -24) + 1e-30;
  const double ratio = fabs(got - ref) / bound;
  if (!(ratio <= *worst)) *worst = ratio; /* NaN propagates as worst */
  if (ratio <= 1.0) return 0;
  return 1;
}

int main(int argc, char **argv)
{
  int check = 0;
  int64_t iters = 1, warmup = 0, seed = 1;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--check")) check = 1;
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(NULL, NULL), 0;
    else if (!strcmp(a, "--iters") || !strcmp(a, "--warmup") || !strcmp(a, "--seed")) {
      if (i + 1 >= argc) return usage("missing value after", a);
      int64_t *dst = !strcmp(a, "--iters") ? &iters : !strcmp(a, "--warmup") ? &warmup : &seed;
      if (!parse_int(argv[++i], !strcmp(a, "--iters") ? 1 : 0, dst)) return usage("bad number", argv[i]);
    } else
      return usage("unknown option", a);
  }
  const int sampled = atoi(env_str("TKSIM_MODEL_SAMPLE")) > 0;
  if (check && sampled) {
    fprintf(stderr, "hk_gemm: --check is refused under tksim --model-sample (unsimulated workgroups "
                    "compute nothing, so C is incomplete)\n");
    return 2;
  }

  /* The launch shape is the kernel's own (micro_globals); it must be the one
   * the fixture README documents, else this is not the kernel we mean to time. */
  micro_globals probe_shape{_gl_A{nullptr, 1, 1, (int)hk_m, (int)hk_k}, _gl_B{nullptr, 1, 1, (int)hk_n, (int)hk_k},
                            _gl_C{nullptr, 1, 1, (int)hk_m, (int)hk_n}, 0};
  const dim3 grid = probe_shape.grid(), block = probe_shape.block();
  const size_t lds = probe_shape.dynamic_shared_memory();
  const int64_t groups = (hk_n / BLOCK_SIZE) * (hk_m / BLOCK_SIZE);
  printf("kernel: HipKittens micro_tk M=%lld N=%lld K=%lld BLOCK_SIZE=%d K_STEP=%d\n", (long long)hk_m,
         (long long)hk_n, (long long)hk_k, (int)BLOCK_SIZE, (int)K_STEP);
  printf("launch: grid %u x %u x %u groups, %u x %u x %u threads, %zu B dynamic LDS\n", grid.x, grid.y, grid.z,
         block.x, block.y, block.z, lds);
  /* LDS: the CDNA3 kernels take 64 KiB, the CDNA4 (KITTENS_CDNA4) ones
   * HipKittens' MAX_SHARED_MEMORY of 160000 B */
#ifdef KITTENS_CDNA4
  const size_t want_lds = 160000;
#else
  const size_t want_lds = 65536;
#endif
  if (grid.x != groups || grid.y != 1 || grid.z != 1 || block.x != 512 || block.y != 1 || block.z != 1 ||
      lds != want_lds || hk_m % BLOCK_SIZE || hk_n % BLOCK_SIZE || hk_k % K_STEP) {
    fprintf(stderr, "hk_gemm: the kernel's launch shape is not the documented one (grid (N/BLOCK)*(M/BLOCK) = %lld "
                    "groups, 512 threads, %zu B LDS, sizes multiples of the tile): refusing to time it\n",
            (long long)groups, want_lds);
    return 1;
  }

  const size_t na = (size_t)hk_m * hk_k, nb = (size_t)hk_n * hk_k, nc = (size_t)hk_m * hk_n;
  uint16_t *ha = (uint16_t *)malloc(na * 2), *hb = (uint16_t *)malloc(nb * 2), *hc = (uint16_t *)malloc(nc * 2);
  if (!ha || !hb || !hc) {
    fprintf(stderr, "hk_gemm: out of host memory for %lldx%lldx%lld\n", (long long)hk_m, (long long)hk_n,
            (long long)hk_k);
    return 1;
  }
  uint64_t s = (uint64_t)seed;
  for (size_t i = 0; i < na; ++i) ha[i] = rng_bf16(&s);
  for (size_t i = 0; i < nb; ++i) hb[i] = rng_bf16(&s);
  memset(hc, 0xff, nc * 2); /* NaN: an element the kernel never writes fails the check */

  bf16 *da = NULL, *db = NULL, *dc = NULL;
  HK_CHECK_HIP(hipMalloc((void **)&da, na * 2));
  HK_CHECK_HIP(hipMalloc((void **)&db, nb * 2));
  HK_CHECK_HIP(hipMalloc((void **)&dc, nc * 2));
  HK_CHECK_HIP(hipMemcpy(da, ha, na * 2, hipMemcpyHostToDevice));
  HK_CHECK_HIP(hipMemcpy(db, hb, nb * 2, hipMemcpyHostToDevice));
  HK_CHECK_HIP(hipMemcpy(dc, hc, nc * 2, hipMemcpyHostToDevice));

  micro_globals g{_gl_A{da, 1, 1, (int)hk_m, (int)hk_k}, _gl_B{db, 1, 1, (int)hk_n, (int)hk_k},
                  _gl_C{dc, 1, 1, (int)hk_m, (int)hk_n}, 0};
  for (int64_t i = 0; i < warmup; ++i) dispatch_micro(g);
  HK_CHECK_HIP(hipGetLastError());
  HK_CHECK_HIP(hipDeviceSynchronize());

  hipEvent_t e0, e1;
  HK_CHECK_HIP(hipEventCreate(&e0));
  HK_CHECK_HIP(hipEventCreate(&e1));
  const double w0 = wall_ms();
  HK_CHECK_HIP(hipEventRecord(e0, 0));
  for (int64_t i = 0; i < iters; ++i) dispatch_micro(g);
  HK_CHECK_HIP(hipGetLastError());
  HK_CHECK_HIP(hipEventRecord(e1, 0));
  HK_CHECK_HIP(hipEventSynchronize(e1));
  const double w1 = wall_ms();
  float ev_ms = 0;
  HK_CHECK_HIP(hipEventElapsedTime(&ev_ms, e0, e1));
  HK_CHECK_HIP(hipDeviceSynchronize());
  const double ms = ev_ms / (double)iters;

  /* Under tksim the device name says so. tksim replaces event time by the
   * model's only when every launch in between got a modeled duration;
   * launches run synchronously, so modeled time is far below the host's wall
   * time while unmodeled event time is about equal to it (same test as
   * examples/gemm). */
  hipDeviceProp_t prop;
  HK_CHECK_HIP(hipGetDeviceProperties(&prop, 0));
  const int sim = strstr(prop.name, "tksim") != NULL;
  const char *model = env_str("TKSIM_MODEL");
  const int model_asked = sim && model[0] && strcmp(model, "off") != 0;
  const int modeled = model_asked && ev_ms < 0.5 * (w1 - w0);
  const double tflops = 2.0 * (double)hk_m * (double)hk_n * (double)hk_k / (ms * 1e-3) / 1e12;
  printf("time: %.4f ms per iteration over %lld iterations (%lld warm-up) [%s]\n", ms, (long long)iters,
         (long long)warmup,
         !sim ? "hardware" : modeled ? (sampled ? "modeled, sampled (tksim timing model)" : "modeled (tksim timing model)")
                                     : "emulated wall time (tksim, NOT hardware performance)");
  printf("emulation: %.1f s wall time for the timed launches\n", (w1 - w0) * 1e-3);
  if (!sim || modeled)
    printf("throughput: %.2f TFLOP/s%s\n", tflops, sim ? " (modeled)" : "");
  else
    printf("throughput: not reported (emulated without timing model; run tksim --model=mi325x for modeled figures)\n");
  if (model_asked && !modeled) {
    fprintf(stderr, "hk_gemm: tksim was asked for --model=%s but the event time (%.3f ms) is not modeled time "
                    "(wall %.3f ms): refusing to report it\n",
            model, ev_ms, w1 - w0);
    return 1;
  }

  int rc = 0;
  if (check) {
    HK_CHECK_HIP(hipMemcpy(hc, dc, nc * 2, hipMemcpyDeviceToHost));
    const int all = (double)hk_m * (double)hk_n * (double)hk_k <= 1073741824.0;
    int64_t nbad = 0, nchecked = 0;
    double worst = 0;
    if (all) {
      for (int64_t i = 0; i < hk_m; ++i)
        for (int64_t j = 0; j < hk_n; ++j, ++nchecked) nbad += check_element(ha, hb, hc, i, j, &worst);
    } else {
      uint64_t cs = (uint64_t)seed ^ 0x5eedull;
      for (; nchecked < 4096; ++nchecked)
        nbad += check_element(ha, hb, hc, (int64_t)(rng_next(&cs) % (uint64_t)hk_m),
                              (int64_t)(rng_next(&cs) % (uint64_t)hk_n), &worst);
    }
    printf("check: %lld %s elements against a CPU double reference of the same bf16 inputs; worst err/bound %.3f "
           "(bound: 2^-7 |ref| + K 2^-24 sum|a b|)\n",
           (long long)nchecked, all ? "(all)" : "sampled", worst);
    if (nbad) {
      printf("check: FAILED (%lld elements past tolerance)\n", (long long)nbad);
      rc = 1;
    } else
      printf("check: PASSED\n");
  }
  HK_CHECK_HIP(hipEventDestroy(e0));
  HK_CHECK_HIP(hipEventDestroy(e1));
  HK_CHECK_HIP(hipFree(da));
  HK_CHECK_HIP(hipFree(db));
  HK_CHECK_HIP(hipFree(dc));
  free(ha);
  free(hb);
  free(hc);
  return rc;
}
