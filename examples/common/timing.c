/* timing.c: see timing.h. */
#include "timing.h"

#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int tk_timing_under_tksim(void)
{
  static int cached = -1;
  if (cached < 0) {
    hipDeviceProp_t prop;
    cached = hipGetDeviceProperties(&prop, 0) == hipSuccess && strstr(prop.name, "tksim") != NULL;
  }
  return cached;
}

int tk_timing_model_requested(void)
{
  const char *m = getenv("TKSIM_MODEL");
  return m && *m && strcmp(m, "off") != 0;
}

const char *tk_timing_name(tk_timing t)
{
  return t == TK_TIMING_MEASURED ? "measured" : t == TK_TIMING_MODELED ? "modeled" : "emulated";
}

const char *tk_timing_label(tk_timing t)
{
  if (t == TK_TIMING_MEASURED) return "measured (hardware)";
  if (t == TK_TIMING_MODELED) return "modeled (tksim timing model)";
  return tk_timing_model_requested()
             ? "emulated wall time (tksim: timing model requested but not applied; NOT hardware performance)"
             : "emulated wall time (tksim, NOT hardware performance)";
}

int tk_timing_is_performance(tk_timing t) { return t != TK_TIMING_EMULATED; }

static double wall_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

#define HIP_OR_FAIL(x)                                                                    \
  do {                                                                                    \
    hipError_t e_ = (x);                                                                  \
    if (e_ != hipSuccess) {                                                               \
      fprintf(stderr, "timing: %s failed: %s\n", #x, hipGetErrorString(e_));              \
      rc = -2;                                                                            \
      goto out;                                                                           \
    }                                                                                     \
  } while (0)

int tk_time_launches(tk_launch_fn launch, void *ctx, int64_t iters, int64_t warmup, double *ms, tk_timing *kind)
{
  hipEvent_t e0 = NULL, e1 = NULL;
  int rc = 0;
  float ev_ms = 0;
  for (int64_t i = 0; i < warmup; ++i)
    if (launch(ctx) != 0) return -1;
  HIP_OR_FAIL(hipEventCreate(&e0));
  HIP_OR_FAIL(hipEventCreate(&e1));
  HIP_OR_FAIL(hipDeviceSynchronize());
  const double w0 = wall_ms();
  HIP_OR_FAIL(hipEventRecord(e0, 0));
  for (int64_t i = 0; i < iters; ++i)
    if (launch(ctx) != 0) {
      rc = -1;
      goto out;
    }
  HIP_OR_FAIL(hipEventRecord(e1, 0));
  HIP_OR_FAIL(hipEventSynchronize(e1));
  const double w1 = wall_ms();
  HIP_OR_FAIL(hipEventElapsedTime(&ev_ms, e0, e1));
  *ms = iters > 0 ? ev_ms / (double)iters : 0.0;
  if (!tk_timing_under_tksim()) *kind = TK_TIMING_MEASURED;
  else *kind = tk_timing_model_requested() && ev_ms < 0.5 * (w1 - w0) ? TK_TIMING_MODELED : TK_TIMING_EMULATED;
out:
  if (e0) (void)hipEventDestroy(e0);
  if (e1) (void)hipEventDestroy(e1);
  return rc;
}

int tk_timing_start(const char *prog, int64_t *iters, int iters_set, int64_t *warmup, int warmup_set)
{
  int ndev = 0;
  if (hipGetDeviceCount(&ndev) != hipSuccess || ndev < 1) {
    fprintf(stderr, "%s: no HIP device (run under tksim: build/bin/tksim build/bin/%s ...)\n", prog, prog);
    return 4;
  }
  if (tk_timing_under_tksim()) {
    if (!iters_set) *iters = 1;
    if (!warmup_set) *warmup = 0;
  }
  return 0;
}

static void print_time(double ms, int64_t iters, int64_t warmup, tk_timing kind)
{
  printf("time: %.4f ms per iteration over %lld iterations (%lld warm-up) [%s]\n", ms, (long long)iters,
         (long long)warmup, tk_timing_label(kind));
}

void tk_timing_print(double ms, int64_t iters, int64_t warmup, tk_timing kind, double flops, const char *note)
{
  print_time(ms, iters, warmup, kind);
  if (tk_timing_is_performance(kind))
    printf("throughput: %.2f TFLOP/s (%s%s%s)\n", flops / (ms * 1e-3) / 1e12, tk_timing_name(kind), note ? "; " : "",
           note ? note : "");
  else
    printf("throughput: not reported (emulated without timing model; run tksim --model=mi325x for modeled figures)\n");
}

void tk_timing_print_bandwidth(double ms, int64_t iters, int64_t warmup, tk_timing kind, double bytes)
{
  print_time(ms, iters, warmup, kind);
  if (tk_timing_is_performance(kind))
    printf("bandwidth: %.1f GB/s (%s; %.4g bytes = reads + writes, launch overhead included)\n",
           bytes / (ms * 1e-3) / 1e9, tk_timing_name(kind), bytes);
  else
    printf("bandwidth: not reported (emulated without timing model; run tksim --model=mi325x for modeled figures)\n");
  printf("bytes: %.0f\n", bytes);
}

int tk_time_report(const char *prog, tk_launch_fn launch, void *ctx, int64_t iters, int64_t warmup, const tk_work *w,
                   double *ms)
{
  double t;
  tk_timing kind;
  if (tk_time_launches(launch, ctx, iters, warmup, &t, &kind) != 0) {
    fprintf(stderr, "%s: launch failed\n", prog);
    return 4;
  }
  if (w->flops > 0) tk_timing_print(t, iters, warmup, kind, w->flops, w->note);
  else tk_timing_print_bandwidth(t, iters, warmup, kind, w->bytes);
  if (ms) *ms = t;
  return 0;
}
