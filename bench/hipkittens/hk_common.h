/* Shared by the plain HIP harnesses around HipKittens' CDNA4 attention,
 * LayerNorm and rotary kernels (bench/hipkittens/<family>_harness.hip): bf16 bits,
 * seeded inputs (written on the device: hk_gen_add, hk_gen_run), host
 * timing, and the rule that decides whether a hipEvent time is tksim's
 * modeled time (same rule as harness.hip and examples/gemm). */
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

/* ---- inputs written on the device ----------------------------------------
 * The fixture's scripts time kernels on inputs torch.randn has just written
 * on the device, so the timed launch finds the last-written part of them in
 * the L2 and the Infinity Cache; a buffer copied from the host is in neither
 * (tksim does not model copies). So the harnesses have their inputs written
 * by a device kernel (--check copies them back for the CPU reference).
 *
 * Value of element i: the Irwin-Hall sum of the four bytes of a 32-bit hash
 * (murmur3's finaliser) of i and a key, centred: s in [-510, 510], variance
 * 4 (256^2 - 1) / 12 = 21845; then fmaf(s, mul, add), mul = scale /
 * sqrt(21845): normal-ish of standard deviation `scale` (1021 levels within
 * +-3.45 sigma). Integer arithmetic and one correctly rounded fmaf, so the
 * host computes every value bit for bit as the device does (test
 * hipkittens_gen_check). bf16 outputs round to nearest even. */
static __host__ __device__ inline uint32_t hk_gen_mix(uint32_t x)
{
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  x ^= x >> 16;
  return x;
}
static __host__ __device__ inline float hk_gen_value(uint64_t i, uint32_t key, float mul, float add)
{
  const uint32_t h = hk_gen_mix((uint32_t)i * 0x9e3779b1u + (uint32_t)(i >> 32) * 0x7feb352du + key);
  const int32_t s = (int32_t)((h & 0xffu) + (h >> 8 & 0xffu) + (h >> 16 & 0xffu) + (h >> 24)) - 510;
  return fmaf((float)s, mul, add);
}
static __host__ __device__ inline uint32_t hk_gen_bf16(float f)
{
  uint32_t u = __builtin_bit_cast(uint32_t, f);
  u += 0x7fffu + ((u >> 16) & 1u);
  return u >> 16;
}
/* elements [base, n) (base a multiple of 8), grid-stride: 8 bf16 (or 4 f32)
 * consecutive elements, one 16 B store, per thread and step */
__global__ void __launch_bounds__(256) hk_gen_kernel(void *dst, uint64_t base, uint64_t n, uint32_t key, float mul,
                                                     float add, int f32)
{
  const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, nt = (uint64_t)gridDim.x * blockDim.x;
  if (f32) {
    float *d = (float *)dst;
    for (uint64_t i = base + t * 4; i < n; i += nt * 4) {
      if (i + 4 <= n)
        *(float4 *)(d + i) = make_float4(hk_gen_value(i, key, mul, add), hk_gen_value(i + 1, key, mul, add),
                                         hk_gen_value(i + 2, key, mul, add), hk_gen_value(i + 3, key, mul, add));
      else
        for (uint64_t j = i; j < n; ++j) d[j] = hk_gen_value(j, key, mul, add);
    }
    return;
  }
  uint16_t *d = (uint16_t *)dst;
  for (uint64_t i = base + t * 8; i < n; i += nt * 8) {
    if (i + 8 <= n) {
      uint32_t w[4];
      for (int j = 0; j < 4; ++j)
        w[j] = hk_gen_bf16(hk_gen_value(i + 2 * j, key, mul, add)) |
               hk_gen_bf16(hk_gen_value(i + 2 * j + 1, key, mul, add)) << 16;
      *(uint4 *)(d + i) = make_uint4(w[0], w[1], w[2], w[3]);
    } else
      for (uint64_t j = i; j < n; ++j) d[j] = (uint16_t)hk_gen_bf16(hk_gen_value(j, key, mul, add));
  }
}

/* tksim --model-sample: only some workgroups run */
static inline int hk_sampled(void)
{
  const char *v = getenv("TKSIM_MODEL_SAMPLE");
  return v && atoi(v) > 0;
}

/* The inputs of one run, written in the order they were added (as the
 * fixture's script creates them one after the other). */
typedef struct {
  void *dev, *keep;
  size_t n;
  uint32_t key;
  float mul, add;
  int f32;
} hk_gen_buf;
static hk_gen_buf hk_gen_bufs[8];
static int hk_gen_nbufs;

/* n values (bf16, or f32 when f32) of standard deviation `scale` around
 * `add` for device buffer dev, key = the next draw of stream st; keep (when
 * not NULL) gets a host copy. Written by hk_gen_run. */
static inline void hk_gen_add(void *dev, size_t n, uint64_t *st, double scale, double add, int f32, void *keep)
{
  if (hk_gen_nbufs == (int)(sizeof hk_gen_bufs / sizeof hk_gen_bufs[0])) {
    fprintf(stderr, "%s: hk_gen_add: too many input buffers\n", hk_prog);
    exit(1);
  }
  hk_gen_buf *b = &hk_gen_bufs[hk_gen_nbufs++];
  b->dev = dev, b->keep = keep, b->n = n, b->key = (uint32_t)hk_rng_next(st);
  b->mul = (float)(scale / sqrt(21845.0)), b->add = (float)add, b->f32 = f32;
}

/* Bytes of the inputs' end that the device writes, 384 MiB: what comes
 * before cannot be in any cache when the timed launch starts (MI355X holds 8
 * x 4 MB of L2 and 256 MB of Infinity Cache, 288 MB; the device's writes
 * spread evenly over the XCDs and the sets), so the host writes it,
 * with the same values: under tksim the device writes about 5 million values
 * a second, and an N = 16384 backward has 3-7 billion. HK_GEN_DEVICE_BYTES
 * overrides (tests; a huge value: everything on the device). */
static inline uint64_t hk_gen_device_bytes(void)
{
  const char *e = getenv("HK_GEN_DEVICE_BYTES");
  char *end = NULL;
  const unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;
  if (e && *e && (*end || e[0] == '-')) {
    fprintf(stderr, "%s: HK_GEN_DEVICE_BYTES=%s is not a byte count\n", hk_prog, e);
    exit(2);
  }
  return e && *e ? (uint64_t)v : (uint64_t)384 << 20;
}

/* Writes every added buffer: the inputs' start from the host (through a
 * 16 MiB staging buffer), the last hk_gen_device_bytes() of the sequence by
 * hk_gen_kernel, one ordinary launch of one group per CU per buffer. Under
 * tksim --model-sample only XCD 0's groups of it run (the other XCDs' work
 * is not simulated), which writes exactly what the sampled timed launch,
 * XCD 0 alone, can find in its caches, at an eighth of the emulation time;
 * the host then writes the whole buffer first, so every value is still the
 * formula's. 0 on success. */
static inline int hk_gen_run(void)
{
  uint64_t total = 0, at = 0;
  for (int i = 0; i < hk_gen_nbufs; ++i) total += hk_gen_bufs[i].n * (hk_gen_bufs[i].f32 ? 4 : 2);
  const uint64_t dev_bytes = hk_gen_device_bytes(), dev_from = total > dev_bytes ? total - dev_bytes : 0;
  const int sampled = hk_sampled();
  int dev_id = 0;
  hipDeviceProp_t prop;
  HK_CHECK_HIP(hipGetDevice(&dev_id));
  HK_CHECK_HIP(hipGetDeviceProperties(&prop, dev_id));
  const size_t chunk = (size_t)4 << 20; /* elements */
  void *stage = NULL;
  for (int i = 0; i < hk_gen_nbufs; ++i) {
    hk_gen_buf *b = &hk_gen_bufs[i];
    const size_t es = b->f32 ? 4 : 2;
    /* elements [split, n) from the device; [0, split) (sampled: all) from the host */
    uint64_t split = dev_from <= at ? 0 : (dev_from - at) / es;
    split = split >= b->n ? b->n : split & ~(uint64_t)7;
    const uint64_t host_to = sampled ? b->n : split;
    at += b->n * es;
    for (size_t c0 = 0; c0 < host_to; c0 += chunk) {
      const size_t m = host_to - c0 < chunk ? host_to - c0 : chunk;
      if (!b->keep && !stage && !(stage = malloc(chunk * 4))) {
        fprintf(stderr, "%s: out of host memory\n", hk_prog);
        return 1;
      }
      char *h = b->keep ? (char *)b->keep + c0 * es : (char *)stage;
      for (size_t j = 0; j < m; ++j) {
        const float v = hk_gen_value(c0 + j, b->key, b->mul, b->add);
        if (b->f32) ((float *)h)[j] = v;
        else ((uint16_t *)h)[j] = (uint16_t)hk_gen_bf16(v);
      }
      HK_CHECK_HIP(hipMemcpy((char *)b->dev + c0 * es, h, m * es, hipMemcpyHostToDevice));
    }
    if (split == b->n) continue;
    const uint64_t per = 256 * (b->f32 ? 4 : 8), want = (b->n - split + per - 1) / per;
    const uint64_t cap = prop.multiProcessorCount > 0 ? (uint64_t)prop.multiProcessorCount : 1;
    hipLaunchKernelGGL(hk_gen_kernel, dim3((unsigned)(want < cap ? want : cap)), dim3(256), 0, 0, b->dev,
                       (uint64_t)split, (uint64_t)b->n, b->key, b->mul, b->add, b->f32);
    HK_CHECK_HIP(hipGetLastError());
    HK_CHECK_HIP(hipDeviceSynchronize());
    if (b->keep && host_to < b->n)
      HK_CHECK_HIP(hipMemcpy((char *)b->keep + split * es, (char *)b->dev + split * es, (b->n - split) * es,
                             hipMemcpyDeviceToHost));
  }
  free(stage);
  hk_gen_nbufs = 0;
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
