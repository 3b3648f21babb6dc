/* gemm_tile.h: which C tile and batch a workgroup of the example kernels
 * computes: tile blockIdx.x of gridDim.x in tk's L2-grouped walk (8 tile rows
 * per group) after the XCD remap (tk/grid.h), so concurrently running
 * workgroups share A/B panels in one XCD's L2; batch blockIdx.z. */
#ifndef GEMM_TILE_H
#define GEMM_TILE_H

#include <hip/hip_runtime.h>
#include <tk/grid.h>

#include "tk_gemm.h"

/* origin (m0, n0) of this workgroup's edge x edge tile of C */
static __device__ inline void gemm_tile_origin(const tk_gemm_problem &p, int64_t edge, int64_t *m0, int64_t *n0)
{
  uint32_t tm, tn;
  const uint32_t tiles_m = (uint32_t)((p.m + edge - 1) / edge), tiles_n = (uint32_t)((p.n + edge - 1) / edge);
  tk_grid_tile(blockIdx.x, gridDim.x, tiles_m, tiles_n, 8, TK_NUM_XCDS, &tm, &tn);
  *m0 = (int64_t)tm * edge;
  *n0 = (int64_t)tn * edge;
}

#endif /* GEMM_TILE_H */
