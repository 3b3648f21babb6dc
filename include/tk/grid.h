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

#endif /* TK_GRID_H */
