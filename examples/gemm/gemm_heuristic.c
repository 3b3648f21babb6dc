/* gemm_heuristic.c: which heuristic table the current device reads, and the
 * nearest-row lookup (gemm_heuristic.h). Plain C, host only. */
#include <math.h>

#include "gemm_heuristic_table.h"

/* "gfx950" or "gfx942": whose rows the current device gets; gfx942's when
 * the device cannot be queried */
const char *tk_gemm_heuristic_target(void)
{
  int dev = 0;
  hipDeviceProp_t prop;
  if (hipGetDevice(&dev) != hipSuccess || hipGetDeviceProperties(&prop, dev) != hipSuccess) return "gfx942";
  size_t n;
  return gemm_heuristic_rows(prop.gcnArchName, &n) == gemm_heuristic_gfx950 ? "gfx950" : "gfx942";
}

const gemm_heuristic_row *tk_gemm__nearest_row(const tk_gemm_problem *p)
{
  size_t nrows;
  const gemm_heuristic_row *rows = gemm_heuristic_rows(tk_gemm_heuristic_target(), &nrows);
  return tk_gemm__nearest_row_in(rows, nrows, p);
}

const gemm_heuristic_row *tk_gemm__nearest_row_in(const gemm_heuristic_row *rows, size_t nrows,
                                                  const tk_gemm_problem *p)
{
  const gemm_heuristic_row *best = NULL;
  double bd = 0;
  const double m = (double)p->m * (double)p->batch;
  for (size_t i = 0; i < nrows; ++i) {
    const gemm_heuristic_row *r = &rows[i];
    const double d = fabs(log2(m / r->m)) + fabs(log2((double)p->n / r->n)) + fabs(log2((double)p->k / r->k));
    if (!best || d < bd) best = r, bd = d;
  }
  return best;
}

const char *tk_gemm__row_error(const gemm_heuristic_row *r)
{
  if (r->grid_order != TK_GEMM_GRID_L2 && r->grid_order != TK_GEMM_GRID_ROW_MAJOR)
    return "heuristic row: grid_order must be TK_GEMM_GRID_L2 (0) or TK_GEMM_GRID_ROW_MAJOR (1)";
  return NULL;
}

tk_gemm_grid_order tk_gemm__launch_order(const tk_gemm_problem *p, const tk_gemm_config *cfg)
{
  if (cfg->grid_order == TK_GEMM_ORDER_ROW_MAJOR) return TK_GEMM_GRID_ROW_MAJOR;
  if (cfg->grid_order == TK_GEMM_ORDER_L2) return TK_GEMM_GRID_L2;
  return (tk_gemm_grid_order)p->grid_order;
}
