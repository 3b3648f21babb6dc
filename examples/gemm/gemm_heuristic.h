/* gemm_heuristic.h: the lookup into the generated heuristic tables
 * (gemm_heuristic_table.h), in its own host-only C unit (gemm_heuristic.c)
 * so that regenerating a table relinks the library instead of recompiling
 * its kernels. Internal to libtk_gemm. */
#ifndef GEMM_HEURISTIC_H
#define GEMM_HEURISTIC_H

#include "tk_gemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* one row: a swept shape and its fastest modeled config */
typedef struct {
  double m, n, k;                                  /* M*batch, N, K of the swept shape */
  int32_t kernel, tile_m, tile_n, split_k, k_step; /* the fastest modeled config */
  int32_t grid_order; /* its tk_gemm_grid_order; last, so a row written without it (every row
                       * before the field, and bench/gemm-heuristic's L2 rows) is TK_GEMM_GRID_L2 */
} gemm_heuristic_row;

/* The row nearest to p in the current device's table (sum of |log2| of the
 * ratios of M*batch, N and K); NULL for an empty table. */
const gemm_heuristic_row *tk_gemm__nearest_row(const tk_gemm_problem *p);
/* The same in rows[0..n) (the host test's way in, without a device). */
const gemm_heuristic_row *tk_gemm__nearest_row_in(const gemm_heuristic_row *rows, size_t n,
                                                  const tk_gemm_problem *p);
/* Why a row cannot be used (NULL: it can): a grid order that is not a
 * tk_gemm_grid_order.  tk_gemm_plan skips such a row for the rule. */
const char *tk_gemm__row_error(const gemm_heuristic_row *r);
/* The order a planned cfg launches p with (tk_gemm_run passes it to the
 * kernels): cfg's, or p->grid_order when cfg's is still TK_GEMM_ORDER_AUTO. */
tk_gemm_grid_order tk_gemm__launch_order(const tk_gemm_problem *p, const tk_gemm_config *cfg);

#ifdef __cplusplus
}
#endif
#endif /* GEMM_HEURISTIC_H */
