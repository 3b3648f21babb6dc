/* model_common.h: shared bits of the timing-model microbenchmarks. Each
 * program times kernels with hipEvents (which tksim --model reports as
 * modeled time) and compares with a figure computed from AMD's published
 * numbers: MI325X (CDNA3) 304 CUs, HBM3E (MI325X product page; clock and
 * achievable bandwidth below); 2048 bf16 FLOP/clk/CU (CDNA3 white paper: 1307.4 TFLOP/s dense
 * bf16); LDS 128 B/clk/CU, 32 banks of 4 B (CDNA3 white paper, ISA guide). */
#pragma once
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOC_CUS 304
/* MI325X under MFMA load: 1340 MHz, the parameter table's clock (fitted, 7%
 * below the 1447 MHz AMD measured: ROCm blog "Measuring max-achievable FLOPs,
 * part 2"); HBM achievable: 6 TB/s
 * x the 4017/5300 GB/s AMD measured on MI300X (ROCm blog "compute and memory
 * modes"). */
#define DOC_CLOCK_HZ 1340e6
#define DOC_HBM_BYTES_PER_S (6.0e12 * 4017.0 / 5300.0)
#define DOC_BF16_FLOP_PER_CU_CLK 2048.0
#define DOC_LDS_BYTES_PER_CU_CLK 128.0

#define CHECK_HIP(x)                                                                   \
  do {                                                                                 \
    hipError_t e_ = (x);                                                               \
    if (e_ != hipSuccess) {                                                            \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, hipGetErrorString(e_)); \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

/* The benchmarks mean nothing without the model: refuse to run without it. */
static inline void require_model(void)
{
  const char *m = getenv("TKSIM_MODEL");
  if (!m || strcmp(m, "mi325x") != 0) {
    fprintf(stderr, "run under: tksim --model=mi325x PROGRAM\n");
    exit(2);
  }
}

/* The model adds a fixed time per launch (docs/tksim-model.md, parameter
 * tables: 14.9 us fitted for MI300X/MI325X (model v10; 11 us before), 4.04 us for MI350X/MI355X, AMD's
 * TransferBench figure); the benchmarks check the kernel's own time. */
static inline double doc_launch_overhead_ms(void)
{
  const char *m = getenv("TKSIM_MODEL");
  return m && (!strcmp(m, "mi350x") || !strcmp(m, "mi355x")) ? 0.00404 : 0.0149;
}
#define DOC_LAUNCH_OVERHEAD_MS doc_launch_overhead_ms()

/* Modeled milliseconds of one launch of f(), launch overhead excluded. */
template <class F> static float time_ms(F f)
{
  hipEvent_t a, b;
  CHECK_HIP(hipEventCreate(&a));
  CHECK_HIP(hipEventCreate(&b));
  CHECK_HIP(hipEventRecord(a, 0));
  f();
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipEventRecord(b, 0));
  CHECK_HIP(hipEventSynchronize(b));
  float ms = 0;
  CHECK_HIP(hipEventElapsedTime(&ms, a, b));
  CHECK_HIP(hipEventDestroy(a));
  CHECK_HIP(hipEventDestroy(b));
  return ms - (float)DOC_LAUNCH_OVERHEAD_MS;
}

static inline int within(const char *what, double got, double want, double tol)
{
  double r = got / want - 1;
  printf("%s: modeled %.4g, expected %.4g from the documentation (%+.2f%%, tolerance %.1f%%)\n", what, got, want,
         r * 100, tol * 100);
  return fabs(r) <= tol;
}
