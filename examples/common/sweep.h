/* sweep.h: a table of timed runs (shapes x kernels) for the example programs'
 * --sweep: one printed line per run (with the first kernel's speed-up over
 * the others of the same shape), a CSV file and an SVG bar chart (plot.h).
 *
 * Throughput (TFLOP/s) is derived from measured or modeled times only; a
 * sweep with emulated times charts milliseconds of emulated wall time
 * instead, and says so in the title. */
#ifndef TK_EXAMPLES_SWEEP_H
#define TK_EXAMPLES_SWEEP_H

#include <stddef.h>

#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_sweep_row {
  char key[128];   /* the CSV columns that describe the problem, comma-separated */
  char shape[64];  /* the shape as shown (chart group), e.g. "512x512x128" */
  char kernel[32]; /* chart series */
  double ms, tflops; /* tflops: 0 when the time is emulated */
  tk_timing timing;
} tk_sweep_row;

typedef struct tk_sweep {
  const char *what;       /* e.g. "gemm bf16": the chart's title */
  const char *key_header; /* CSV header of the key columns, e.g. "m,n,k,batch,layout,out" */
  tk_sweep_row *rows;
  size_t n, cap;
} tk_sweep;

void tk_sweep_init(tk_sweep *s, const char *what, const char *key_header);
/* Records a run of `flops` floating-point operations taking `ms` per
 * iteration and prints its "sweep:" line. Returns 0, or -1 out of memory. */
int tk_sweep_add(tk_sweep *s, const char *key, const char *shape, const char *kernel, double ms, double flops,
                 tk_timing timing);
/* "<key_header>,kernel,ms,tflops,timing" and one line per run (tflops empty
 * when emulated). Returns 0, or -1 when the file cannot be written. */
int tk_sweep_write_csv(const tk_sweep *s, const char *path);
/* Grouped bar chart, one group per shape and one bar per kernel. 0 or -1. */
int tk_sweep_write_svg(const tk_sweep *s, const char *path);
/* The --csv and --svg outputs (either may be NULL): "PROG: cannot write
 * FILE" on stderr for each that fails. Returns 0, or 2 (the programs' exit
 * status for an output that cannot be written) when one failed. */
int tk_sweep_write_outputs(const tk_sweep *s, const char *prog, const char *csv, const char *svg);
void tk_sweep_free(tk_sweep *s);

#ifdef __cplusplus
}
#endif
#endif
