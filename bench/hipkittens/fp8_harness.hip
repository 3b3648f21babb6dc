/* Plain HIP main() around HipKittens' CDNA4 FP8 8-wave GEMM kernel
 * (kernels/fp8_8wave/8_wave.cu of the fixture: C = A·Bᵀ, A M×K and B N×K
 * fp8 e4m3 (OCP on gfx950), C M×N bf16; its launch: (M·N / 256²) groups of
 * 512 threads), at HK_FP8_SIZE³. HK_KERNEL_FILE is that source without its
 * host program (filter_fp8_kernel.cmake).
 *
 *   hk4_fp8_gemm_<S> [--iters N]
 *
 * Timing only (no check: the bf16 harness, harness.hip, checks HipKittens'
 * kernels; this one exists for the modeled MI355X FP8 figure). Under
 * `tksim --model=...` the event time is the model's and is labelled
 * "modeled"; otherwise no TFLOP/s is printed. Exit: 0 ok, 1 failure, 2 usage. */
#include <hip/hip_runtime.h>
#include HK_KERNEL_FILE

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

constexpr int S = HK_FP8_SIZE;

#define CHECK_HIP(x)                                                                           \
  do {                                                                                         \
    hipError_t e_ = (x);                                                                       \
    if (e_ != hipSuccess) {                                                                    \
      fprintf(stderr, "hk4_fp8_gemm: %s failed: %s\n", #x, hipGetErrorString(e_));             \
      exit(1);                                                                                 \
    }                                                                                          \
  } while (0)

static double wall_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
  long iters = 1;
  for (int i = 1; i < argc; ++i) {
    char *end = NULL;
    if (!strcmp(argv[i], "--iters") && i + 1 < argc && (iters = strtol(argv[++i], &end, 10)) >= 1 && !*end) continue;
    fprintf(stderr, "hk4_fp8_gemm: usage: %s [--iters N>=1] (bad argument: %s)\n", argv[0], argv[i]);
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
  printf("kernel: HipKittens CDNA4 fp8 8-wave matmul_device M=N=K=%d, grid %d x 512 threads\n", S, S / 256 * (S / 256));
  hipEvent_t e0, e1;
  CHECK_HIP(hipEventCreate(&e0));
  CHECK_HIP(hipEventCreate(&e1));
  const double w0 = wall_ms();
  CHECK_HIP(hipEventRecord(e0, 0));
  for (long i = 0; i < iters; ++i) matmul_device<S, S, S><<<S / 256 * (S / 256), 512>>>(A, B, C);
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
  free(h);
  return 0;
}
