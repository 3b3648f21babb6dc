/* tk/grid.h: which output tile a workgroup computes.
 *
 * Provides two pure __host__ __device__ index maps, both bijections on
 * [0, tiles) for every shape (tested exhaustively in tests/tk/host_grid.cpp):
 *  - tk_grid_l2_order: "grouped" ordering. Tile rows are taken in groups of G;
 *    inside a group the tiles are walked column by column, so workgroups that
 *    run at the same time reuse the same G A-row-panels and a few B-column-
 *    panels from L2 instead of streaming whole rows of B.  The last group has
 *    tiles_m % G rows when G does not divide tiles_m.
 *  - tk_grid_xcd_remap: MI300X/MI325X are built from 8 XCDs, each with its own
 *    L2 (4 MB); the command processor hands workgroups to XCDs round-robin, so
 *    workgroup id w runs on XCD w % 8.  The remap gives each XCD a contiguous
 *    range of logical tile ids, so neighbouring tiles of the grouped order
 *    share one XCD's L2.  When the grid is not a multiple of 8 the first
 *    (n % 8) XCDs get one tile more.
 * tk_grid_check validates a launch's shape on the host (TK_ERR_GRID).
 * tk_udiv / tk_grid_l2: the grouped order with its divisions by variables
 * made on the host (multiply-high reciprocals, Granlund & Montgomery 1994),
 * for kernels whose first loads wait for the tile index.
 * Sources: AMD CDNA3 white paper and "AMD Instinct MI300X workload
 * optimization" guide (ROCm docs: XCD round-robin dispatch, per-XCD L2).
 */
#ifndef TK_GRID_H
#define TK_GRID_H

#include <stdint.h>
#include "target.h"
#include "global.h" /* TK_OK / TK_ERR_GRID */

/* TK_NUM_XCDS (target.h): XCDs on MI300X / MI325X (304 CUs: 38 per XCD). */

/* Grouped (L2-friendly) order: logical tile id -> (tile row, tile col) of a
 * tiles_m x tiles_n grid.  group_m: tile rows per group (0 is treated as 1). */
TK_HDI void tk_grid_l2_order(uint32_t id, uint32_t tiles_m, uint32_t tiles_n, uint32_t group_m,
                                     uint32_t *tile_m, uint32_t *tile_n) {
  if (group_m == 0) group_m = 1;
  uint32_t per_group = group_m * tiles_n;
  uint32_t group = id / per_group;
  uint32_t first_m = group * group_m;
  uint32_t rows = tiles_m - first_m < group_m ? tiles_m - first_m : group_m;
  uint32_t in_group = id - group * per_group;
  *tile_m = first_m + in_group % rows;
  *tile_n = in_group / rows;
}

/* Inverse of tk_grid_l2_order: (tile row, tile col) -> logical id. */
TK_HDI uint32_t tk_grid_l2_index(uint32_t tile_m, uint32_t tile_n, uint32_t tiles_m, uint32_t tiles_n,
                                         uint32_t group_m) {
  if (group_m == 0) group_m = 1;
  uint32_t group = tile_m / group_m;
  uint32_t first_m = group * group_m;
  uint32_t rows = tiles_m - first_m < group_m ? tiles_m - first_m : group_m;
  return group * group_m * tiles_n + tile_n * rows + (tile_m - first_m);
}

/* XCD-aware remap: hardware workgroup id wg (of n_wg) -> logical tile id, so
 * that XCD x (= wg % n_xcd) owns logical ids [start_x, start_x + count_x).
 * n_xcd 0 or 1 is the identity. */
TK_HDI uint32_t tk_grid_xcd_remap(uint32_t wg, uint32_t n_wg, uint32_t n_xcd) {
  if (n_xcd <= 1) return wg;
  uint32_t q = n_wg / n_xcd, r = n_wg % n_xcd;
  uint32_t xcd = wg % n_xcd, local = wg / n_xcd;
  /* XCDs below r hold q+1 tiles, the rest q. */
  uint32_t start = xcd < r ? xcd * (q + 1) : r * (q + 1) + (xcd - r) * q;
  return start + local;
}

/* Inverse of tk_grid_xcd_remap: logical tile id -> hardware workgroup id. */
TK_HDI uint32_t tk_grid_xcd_unmap(uint32_t logical, uint32_t n_wg, uint32_t n_xcd) {
  if (n_xcd <= 1) return logical;
  uint32_t q = n_wg / n_xcd, r = n_wg % n_xcd;
  uint32_t big = r * (q + 1);
  uint32_t xcd, local;
  if (logical < big) {
    xcd = logical / (q + 1);
    local = logical % (q + 1);
  } else {
    xcd = r + (logical - big) / q;
    local = (logical - big) % q;
  }
  return local * n_xcd + xcd;
}

/* Host check before a launch: the maps divide by tiles_n and by the group
 * size, so zero tiles, or a grid whose workgroup count is not the tile count,
 * are rejected with TK_ERR_GRID (message: tk_err_str).  n_xcd may be 0. */
TK_HDI int tk_grid_check(uint32_t n_wg, uint32_t tiles_m, uint32_t tiles_n) {
  if (tiles_m == 0 || tiles_n == 0) return TK_ERR_GRID;
  if ((uint64_t)tiles_m * tiles_n != (uint64_t)n_wg) return TK_ERR_GRID;
  return TK_OK;
}

/* Both together, the usual kernel prologue:
 *   tk_grid_tile(blockIdx.x, gridDim.x, tiles_m, tiles_n, 8, TK_NUM_XCDS, &tm, &tn); */
TK_HDI void tk_grid_tile(uint32_t wg, uint32_t n_wg, uint32_t tiles_m, uint32_t tiles_n, uint32_t group_m,
                                 uint32_t n_xcd, uint32_t *tile_m, uint32_t *tile_n) {
  tk_grid_l2_order(tk_grid_xcd_remap(wg, n_wg, n_xcd), tiles_m, tiles_n, group_m, tile_m, tile_n);
}

/* Division by a run-time invariant divisor as a multiply-high and two shifts
 * (Granlund & Montgomery, "Division by Invariant Integers using
 * Multiplication", PLDI 1994, figure 4.1): tk_udiv_make(d) once (on the host,
 * passed in the kernel arguments), then tk_udiv_q(n, v) = n / d for every
 * uint32_t n, exactly, where a plain division by a variable costs a
 * v_rcp_iflag_f32 sequence of ~25 instructions.  d = 0 is taken as 1. */
typedef struct {
  uint32_t mul;      /* m' = floor(2^32 (2^l - d) / d) + 1, l = ceil(log2 d) */
  uint32_t sh1, sh2; /* min(l, 1), max(l - 1, 0) */
} tk_udiv;

TK_HDI tk_udiv tk_udiv_make(uint32_t d) {
  if (d == 0) d = 1;
  uint32_t l = 0;
  while (l < 32 && ((uint64_t)1 << l) < d) l++;
  tk_udiv v;
  v.mul = (uint32_t)((((uint64_t)1 << 32) * (((uint64_t)1 << l) - d)) / d + 1); /* < 2^64: (2^l - d) < 2^31 */
  v.sh1 = l < 1 ? l : 1;
  v.sh2 = l > 1 ? l - 1 : 0;
  return v;
}
TK_HDI uint32_t tk_udiv_q(uint32_t n, tk_udiv v) {
  const uint32_t t = (uint32_t)(((uint64_t)v.mul * n) >> 32); /* s_mul_hi_u32 / v_mul_hi_u32 */
  return (t + ((n - t) >> v.sh1)) >> v.sh2;
}

/* tk_grid_l2_order with its divisions made on the host: tk_grid_l2_make(
 * tiles_m, tiles_n, group_m) once, then tk_grid_l2_order_at(&g, id, &tm, &tn)
 * gives tk_grid_l2_order(id, tiles_m, tiles_n, group_m, &tm, &tn) for every
 * id < tiles_m * tiles_n (a multiply-high per division: the kernel's first
 * loads are not held behind two ~25-instruction divisions).  group_m = 1 is
 * the row-major order (tm = id / tiles_n, tn = id % tiles_n). */
typedef struct {
  uint32_t tiles_m, group_m, per_group; /* per_group = group_m * tiles_n */
  tk_udiv by_group, by_rows, by_last;   /* / per_group, / group_m, / the last group's rows */
} tk_grid_l2;

TK_HDI tk_grid_l2 tk_grid_l2_make(uint32_t tiles_m, uint32_t tiles_n, uint32_t group_m) {
  if (group_m == 0) group_m = 1;
  tk_grid_l2 g;
  g.tiles_m = tiles_m, g.group_m = group_m, g.per_group = group_m * tiles_n;
  g.by_group = tk_udiv_make(g.per_group);
  g.by_rows = tk_udiv_make(group_m);
  g.by_last = tk_udiv_make(tiles_m % group_m ? tiles_m % group_m : group_m);
  return g;
}
TK_HDI void tk_grid_l2_order_at(const tk_grid_l2 *g, uint32_t id, uint32_t *tile_m, uint32_t *tile_n) {
  const uint32_t group = tk_udiv_q(id, g->by_group);
  const uint32_t first_m = group * g->group_m, in_group = id - group * g->per_group;
  const int last = g->tiles_m - first_m < g->group_m; /* the short last group */
  const uint32_t rows = last ? g->tiles_m - first_m : g->group_m;
  const uint32_t tn = tk_udiv_q(in_group, last ? g->by_last : g->by_rows);
  *tile_m = first_m + (in_group - tn * rows);
  *tile_n = tn;
}

#endif /* TK_GRID_H */
