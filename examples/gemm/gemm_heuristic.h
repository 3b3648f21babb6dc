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
} gemm_heuristic_row;

/* The row nearest to p in the current device's table (sum of |log2| of the
 * ratios of M*batch, N and K); NULL for an empty table. */
const gemm_heuristic_row *tk_gemm__nearest_row(const tk_gemm_problem *p);

#ifdef __cplusplus
}
#endif
#endif /* GEMM_HEURISTIC_H */
