/* Shared by the plain HIP harnesses around HipKittens' CDNA4 attention,
 * LayerNorm and rotary kernels (bench/hipkittens/*_harness.hip): bf16 bits,
 * seeded inputs, host timing, and the rule that decides whether a hipEvent
 * time is tksim's modeled time (same rule as harness.hip and examples/gemm). */
#pragma once
#include <hip/hip_runtime.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HK_CHECK_HIP(x)                                                                          \
  do {                                                                                           \
    hipError_t e_ = (x);                                                                         \
    if (e_ != hipSuccess) {                                                                      \
      fprintf(stderr, "%s: %s failed: %s (%s:%d)\n", hk_prog, #x, hipGetErrorString(e_), __FILE__, \
              __LINE__);                                                                         \
      exit(1);                                                                                   \
    }                                                                                            \
  } while (0)

static const char *hk_prog = "hk";

/* bf16 = upper half of binary32; round to nearest even (inputs have no NaN). */
static inline uint16_t hk_f32_to_bf16(float f)
{
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static inline float hk_bf16_to_f32(uint16_t h)
{
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static inline uint64_t hk_rng_next(uint64_t *s) /* splitmix64 */
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static inline double hk_rng_unit(uint64_t *s) /* uniform in [0, 1) */
{
  return (double)(hk_rng_next(s) >> 11) / 9007199254740992.0;
}
/* standard normal: the fixture's test_python.py uses torch.randn. Each value
 * is one of 65536 equally likely levels, the normal quantiles at
 * (i + 1/2) / 65536 (tails cut at 4.2 sigma; the levels are 2^-14 apart or
 * closer near 0, finer than bf16 there), four per 64-bit draw: input
 * generation had been half of an N = 1024 attention row's CPU time under
 * tksim (Box-Muller's cos and log). The table comes from bisection on erfc. */
static float hk_normal_level[65536];
static uint64_t *hk_rng_bits_of;
static uint64_t hk_rng_bits;
static int hk_rng_nbits;
static inline double hk_rng_normal(uint64_t *s)
{
  if (hk_normal_level[65535] == 0.0f)
    for (int i = 0; i < 65536; ++i) {
      const double p = (i + 0.5) / 65536.0;
      double lo = -10, hi = 10;
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo + hi);
        if (0.5 * erfc(-mid / 1.4142135623730951) < p) lo = mid;
        else hi = mid;
      }
      hk_normal_level[i] = (float)(0.5 * (lo + hi));
    }
  if (hk_rng_bits_of != s || hk_rng_nbits == 0) {
    hk_rng_bits_of = s;
    hk_rng_bits = hk_rng_next(s);
    hk_rng_nbits = 4;
  }
  const double x = hk_normal_level[hk_rng_bits & 0xffff];
  hk_rng_bits >>= 16;
  hk_rng_nbits--;
  return x;
}

/* Fills n bf16 values of device buffer dev with hk_f32_to_bf16((float)(scale
 * x)), x the next normals of stream st: the values and stream order of
 * filling a host array and copying it, but through a 16 MiB staging buffer,
 * so a benchmark-only run holds no host copy of its inputs (an N = 16384
 * attention's Q is 1-4 GB); keep, when not NULL, gets the host copy (--check
 * needs it). 0 on success. */
static inline int hk_upload_normal(void *dev, size_t n, uint64_t *st, double scale, uint16_t *keep)
{
  const size_t chunk = (size_t)8 << 20;
  uint16_t *buf = keep ? NULL : (uint16_t *)malloc((n < chunk ? n : chunk) * 2 + 2);
  if (!keep && !buf) { fprintf(stderr, "%s: out of host memory\n", hk_prog); return 1; }
  for (size_t at = 0; at < n; at += chunk) {
    const size_t m = n - at < chunk ? n - at : chunk;
    uint16_t *h = keep ? keep + at : buf;
    for (size_t i = 0; i < m; ++i) h[i] = hk_f32_to_bf16((float)(scale * hk_rng_normal(st)));
    HK_CHECK_HIP(hipMemcpy((uint16_t *)dev + at, h, m * 2, hipMemcpyHostToDevice));
  }
  free(buf);
  return 0;
}

/* --dump FILE: the device buffers' bytes, one after the other (emulated
 * outputs compared bit for bit between two tksim builds; under
 * --model-sample only the simulated groups' parts are computed). */
static inline int hk_dump(const char *path, int n, const void *const *dev, const size_t *bytes)
{
  FILE *f = fopen(path, "wb");
  if (!f) { fprintf(stderr, "%s: --dump: cannot open %s\n", hk_prog, path); return 1; }
  for (int i = 0; i < n; ++i) {
    void *h = malloc(bytes[i]);
    if (!h) { fprintf(stderr, "%s: out of host memory\n", hk_prog); fclose(f); return 1; }
    HK_CHECK_HIP(hipMemcpy(h, dev[i], bytes[i], hipMemcpyDeviceToHost));
    if (fwrite(h, 1, bytes[i], f) != bytes[i]) { fprintf(stderr, "%s: --dump: write to %s failed\n", hk_prog, path); free(h); fclose(f); return 1; }
    free(h);
  }
  return fclose(f) != 0;
}

static inline double hk_wall_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static inline const char *hk_env(const char *name)
{
  const char *v = getenv(name);
  return v ? v : "";
}

static inline int hk_parse_int(const char *s, int64_t lo, int64_t *out)
{
  char *end = NULL;
  long long v = strtoll(s, &end, 10);
  if (!s[0] || *end || v < lo) return 0;
  *out = v;
  return 1;
}

static inline int hk_sampled(void) { return atoi(hk_env("TKSIM_MODEL_SAMPLE")) > 0; }

/* Prints the time/throughput lines every harness prints (bench/validate-model
 * parses them) and returns 0, or 1 when tksim was asked for a model and the
 * event time is not modeled time (never reported as if it were). Under tksim
 * a modeled event time is far below the host's wall time; unmodeled event
 * time is about equal to it. unit: "TFLOP/s" (flops = work) or "TB/s". */
static inline int hk_report_time(float ev_ms, double wall_ms, int64_t iters, int64_t warmup, double work,
                                 const char *unit)
{
  hipDeviceProp_t prop;
  HK_CHECK_HIP(hipGetDeviceProperties(&prop, 0));
  const int sim = strstr(prop.name, "tksim") != NULL;
  const char *model = hk_env("TKSIM_MODEL");
  const int model_asked = sim && model[0] && strcmp(model, "off") != 0;
  const int modeled = model_asked && ev_ms < 0.5 * wall_ms;
  const double ms = ev_ms / (double)iters;
  printf("time: %.4f ms per iteration over %lld iterations (%lld warm-up) [%s]\n", ms, (long long)iters,
         (long long)warmup,
         !sim      ? "hardware"
         : modeled ? (hk_sampled() ? "modeled, sampled (tksim timing model)" : "modeled (tksim timing model)")
                   : "emulated wall time (tksim, NOT hardware performance)");
  printf("emulation: %.1f s wall time for the timed launches\n", wall_ms * 1e-3);
  if (!sim || modeled)
    printf("throughput: %.4g %s%s\n", work / (ms * 1e-3) / 1e12, unit, sim ? " (modeled)" : "");
  else
    printf("throughput: not reported (emulated without timing model; run tksim --arch=gfx950 --model=mi355x "
           "for modeled figures)\n");
  if (model_asked && !modeled) {
    fprintf(stderr, "%s: tksim was asked for --model=%s but the event time (%.3f ms) is not modeled time "
                    "(wall %.3f ms): refusing to report it\n",
            hk_prog, model, ev_ms, wall_ms);
    return 1;
  }
  return 0;
}
