/* Plain HIP main() around HipKittens' CDNA4 FP8 8-wave GEMM kernel
 * (kernels/fp8_8wave/8_wave.cu of the fixture: C = A·Bᵀ, A M×K and B N×K
 * fp8 e4m3 (OCP on gfx950), C M×N bf16; its launch: (M·N / 256²) groups of
 * 512 threads), at HK_FP8_SIZE³. HK_KERNEL_FILE is that source without its
 * host program (filter_fp8_kernel.cmake). With HK_FP8_KERNEL / HK_FP8_TILE /
 * HK_FP8_THREADS it launches another kernel of that family instead: the
 * 4-wave file's matmul_device_1024 (64x64 tiles, 256 threads,
 * filter_fp8_kernel.cmake KIND=4wave), the kernel behind the published 1024³ figure.
 *
 *   hk4_fp8_gemm_<S> [--iters N] [--check]
 *
 * Timing; --check also compares 4096 entries of C (spread over rows and
 * columns) with a CPU product of the decoded e4m3 inputs (bf16 output:
 * relative 2^-7; the inputs are non-negative, so no cancellation), prints
 * PASSED or FAILED and exits 1 on a mismatch. Under
 * `tksim --model=...` the event time is the model's and is labelled
 * "modeled"; otherwise no TFLOP/s is printed. Exit: 0 ok, 1 failure, 2 usage. */
#include <hip/hip_runtime.h>
#include HK_KERNEL_FILE

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

constexpr int S = HK_FP8_SIZE;
#ifndef HK_FP8_KERNEL
#define HK_FP8_KERNEL matmul_device
#define HK_FP8_TILE 256
#define HK_FP8_THREADS 512
#define HK_FP8_NAME "8-wave matmul_device"
#endif
constexpr int GRID = S / HK_FP8_TILE * (S / HK_FP8_TILE);

#define CHECK_HIP(x)                                                                           \
  do {                                                                                         \
    hipError_t e_ = (x);                                                                       \
    if (e_ != hipSuccess) {                                                                    \
      fprintf(stderr, "hk4_fp8_gemm: %s failed: %s\n", #x, hipGetErrorString(e_));             \
      exit(1);                                                                                 \
    }                                                                                          \
  } while (0)

/* OCP e4m3 (gfx950's fp8): sign, 4 exponent bits (bias 7), 3 mantissa bits;
 * the harness writes only codes 0x00..0x37, so no NaN */
static double e4m3_value(uint8_t v)
{
  const int e = (v >> 3) & 15, m = v & 7;
  const double x = e ? ldexp(1.0 + m / 8.0, e - 7) : ldexp(m / 8.0, -6);
  return (v & 0x80) ? -x : x;
}

static double wall_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
  long iters = 1;
  int check = 0;
  for (int i = 1; i < argc; ++i) {
    char *end = NULL;
    if (!strcmp(argv[i], "--iters") && i + 1 < argc && (iters = strtol(argv[++i], &end, 10)) >= 1 && !*end) continue;
    if (!strcmp(argv[i], "--check")) { check = 1; continue; }
    fprintf(stderr, "hk4_fp8_gemm: usage: %s [--iters N>=1] [--check] (bad argument: %s)\n", argv[0], argv[i]);
    return 2;
  }
  const size_t n_ab = (size_t)S * S;
  uint8_t *h = (uint8_t *)malloc(n_ab);
  if (!h) { fprintf(stderr, "hk4_fp8_gemm: out of host memory\n"); return 1; }
  /* OCP e4m3 codes 0x00..0x37 (0 .. 0.875): finite, small, no NaN */
  for (size_t i = 0; i < n_ab; ++i) h[i] = (uint8_t)(((i * 2654435761u) >> 13) % 0x38);
  fp8e4m3 *a = NULL, *b = NULL;
  bf16 *c = NULL;
  CHECK_HIP(hipMalloc((void **)&a, n_ab));
  CHECK_HIP(hipMalloc((void **)&b, n_ab));
  CHECK_HIP(hipMalloc((void **)&c, n_ab * 2));
  CHECK_HIP(hipMemcpy(a, h, n_ab, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(b, h, n_ab, hipMemcpyHostToDevice));
  kittens::gl<fp8e4m3, 1, 1, S, S> A(a, nullptr, nullptr, nullptr, nullptr);
  kittens::gl<fp8e4m3, 1, 1, S, S> B(b, nullptr, nullptr, nullptr, nullptr);
  kittens::gl<bf16, 1, 1, S, S> C(c, nullptr, nullptr, nullptr, nullptr);
  printf("kernel: HipKittens CDNA4 fp8 %s M=N=K=%d, grid %d x %d threads\n", HK_FP8_NAME, S, GRID, HK_FP8_THREADS);
  hipEvent_t e0, e1;
  CHECK_HIP(hipEventCreate(&e0));
  CHECK_HIP(hipEventCreate(&e1));
  const double w0 = wall_ms();
  CHECK_HIP(hipEventRecord(e0, 0));
  for (long i = 0; i < iters; ++i) HK_FP8_KERNEL<S, S, S><<<GRID, HK_FP8_THREADS>>>(A, B, C);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipEventRecord(e1, 0));
  CHECK_HIP(hipEventSynchronize(e1));
  const double w1 = wall_ms();
  float ev_ms = 0;
  CHECK_HIP(hipEventElapsedTime(&ev_ms, e0, e1));
  const double ms = ev_ms / (double)iters;
  hipDeviceProp_t prop;
  CHECK_HIP(hipGetDeviceProperties(&prop, 0));
  const char *model = getenv("TKSIM_MODEL");
  const int sim = strstr(prop.name, "tksim") != NULL;
  /* same test as harness.hip: modeled event time is far below the wall time */
  const int modeled = sim && model && model[0] && strcmp(model, "off") && ev_ms < 0.5 * (w1 - w0);
  printf("time: %.4f ms per iteration over %ld iterations [%s]\n", ms, iters,
         !sim ? "hardware" : modeled ? "modeled (tksim timing model)" : "emulated wall time (NOT performance)");
  if (!sim || modeled)
    printf("throughput: %.2f TFLOP/s%s\n", 2.0 * S * (double)S * S / (ms * 1e-3) / 1e12, sim ? " (modeled)" : "");
  else
    printf("throughput: not reported (run under tksim --model=mi355x)\n");
  int bad = 0;
  if (check) {
    uint16_t *hc = (uint16_t *)malloc(n_ab * 2);
    if (!hc) { fprintf(stderr, "hk4_fp8_gemm: out of host memory\n"); return 1; }
    CHECK_HIP(hipMemcpy(hc, c, n_ab * 2, hipMemcpyDeviceToHost));
    for (int k = 0; k < 4096; ++k) {
      const size_t i = ((size_t)k * 7919u) % S, j = ((size_t)k * 104729u + 17u) % S;
      double ref = 0;
      for (size_t x = 0; x < (size_t)S; ++x) ref += e4m3_value(h[i * S + x]) * e4m3_value(h[j * S + x]);
      uint32_t u = (uint32_t)hc[i * S + j] << 16;
      float got;
      memcpy(&got, &u, 4);
      if (!(fabs(got - ref) <= ref / 128.0 + 1e-3)) {
        if (bad++ < 5) fprintf(stderr, "hk4_fp8_gemm: C[%zu][%zu] = %g, expected %g\n", i, j, got, ref);
      }
    }
    printf("check: %s (%d of 4096 entries of C differ from a CPU product)\n", bad ? "FAILED" : "PASSED", bad);
    free(hc);
  }
  free(h);
  return bad ? 1 : 0;
}
