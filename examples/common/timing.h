/* timing.h: timing of kernel launches for the example programs, with the
 * label every figure must carry: "measured" (hardware produced it),
 * "modeled" (tksim's timing model) or "emulated" (tksim's wall time: not
 * performance).
 *
 * Under tksim (device name contains "tksim") with the timing model requested
 * (TKSIM_MODEL set and not "off"), hipEventElapsedTime returns modeled time
 * when the model timed every launch in between.  Emulated launches are
 * synchronous, so modeled event time is far below the host's wall time of the
 * same launches, while unmodeled event time is about equal to it: that is how
 * a result is told modeled (docs/gemm.md, "Timing"). */
#ifndef TK_EXAMPLES_TIMING_H
#define TK_EXAMPLES_TIMING_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_timing { TK_TIMING_MEASURED = 0, TK_TIMING_MODELED = 1, TK_TIMING_EMULATED = 2 } tk_timing;

/* 1 when device 0 is tksim's emulated GPU (cached after the first call). */
int tk_timing_under_tksim(void);
/* 1 when tksim was asked for its timing model (TKSIM_MODEL). */
int tk_timing_model_requested(void);
/* "measured", "modeled" or "emulated": the CSV word. */
const char *tk_timing_name(tk_timing t);
/* The label printed next to a figure, e.g. "emulated wall time (tksim, NOT
 * hardware performance)". */
const char *tk_timing_label(tk_timing t);
/* Whether a throughput may be derived from the time (not for emulated). */
int tk_timing_is_performance(tk_timing t);

/* A program's start once its arguments are parsed: 4 with "PROG: no HIP
 * device (run under tksim ...)" on stderr when there is none, else 0; under
 * tksim the counts not given on the command line become 1 timed launch and 0
 * warm-ups (emulated launches are slow). */
int tk_timing_start(const char *prog, int64_t *iters, int iters_set, int64_t *warmup, int warmup_set);
/* Prints "time: X ms per iteration over N iterations (W warm-up) [label]"
 * and a "throughput: ... TFLOP/s (kind[; note])" line for measured or
 * modeled times, or says it is not reported for emulated ones. */
void tk_timing_print(double ms, int64_t iters, int64_t warmup, tk_timing kind, double flops, const char *note);
/* The same time line, then "bandwidth: X GB/s (kind; B bytes = reads +
 * writes, launch overhead included)" for measured or modeled times (else
 * "not reported") and "bytes: B": the memory-bound programs (norm, rotary). */
void tk_timing_print_bandwidth(double ms, int64_t iters, int64_t warmup, tk_timing kind, double bytes);

/* One launch of the work being timed; returns 0, or non-zero on failure. */
typedef int (*tk_launch_fn)(void *ctx);
/* `warmup` untimed launches, then `iters` launches between two hipEvents.
 * On success returns 0 with *ms the time per launch (0 when iters is 0) and
 * *kind its label; returns -1 when a launch failed, -2 on a HIP error (the
 * message is printed on stderr). */
int tk_time_launches(tk_launch_fn launch, void *ctx, int64_t iters, int64_t warmup, double *ms, tk_timing *kind);

/* What one launch does, for the report: flops > 0 gives tk_timing_print
 * (with note), else bytes gives tk_timing_print_bandwidth. */
typedef struct tk_work {
  double flops, bytes;
  const char *note;
} tk_work;
/* A program's timed run: tk_time_launches, then the report for `w`. Returns
 * 0 with *ms (may be NULL) the time per launch, or 4 (the programs' HIP
 * error status) after "PROG: launch failed" on stderr. */
int tk_time_report(const char *prog, tk_launch_fn launch, void *ctx, int64_t iters, int64_t warmup, const tk_work *w,
                   double *ms);

#ifdef __cplusplus
}
#endif
#endif
