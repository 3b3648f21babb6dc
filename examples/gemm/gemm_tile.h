/* gemm_tile.h: where a workgroup of the example kernels writes: tile
 * blockIdx.x of gridDim.x in tk's L2-grouped walk (8 tile rows per group)
 * after the XCD remap (tk/grid.h), so concurrently running workgroups share
 * A/B panels in one XCD's L2 (or row-major, p.grid_order, for comparison); batch blockIdx.z of C as a tk global tensor;
 * the problem's fused epilogue as a tk_epi. */
#ifndef GEMM_TILE_H
#define GEMM_TILE_H

#include <hip/hip_runtime.h>
#include <tk/global.h>
#include <tk/epilogue.h>
#include <tk/grid.h>

#include "tk_gemm.h"

/* origin (m0, n0) of the em x en tile with logical id lid: tk's L2-grouped
 * order, or row-major (p.grid_order) */
static __device__ inline void gemm_tile_at(const tk_gemm_problem &p, int64_t em, int64_t en, uint32_t lid,
                                           int64_t *m0, int64_t *n0)
{
  uint32_t tm, tn;
  const uint32_t tiles_m = (uint32_t)((p.m + em - 1) / em), tiles_n = (uint32_t)((p.n + en - 1) / en);
  if (p.grid_order == TK_GEMM_GRID_ROW_MAJOR) { /* the comparison order: no L2 grouping */
    tm = lid / tiles_n;
    tn = lid % tiles_n;
  } else
    tk_grid_l2_order(lid, tiles_m, tiles_n, 8, &tm, &tn);
  *m0 = (int64_t)tm * em;
  *n0 = (int64_t)tn * en;
}
/* gemm_tile_at's map for em x en tiles of p with its divisions made here, on
 * the host (tk_grid_l2; row-major = groups of one tile row) */
static inline tk_grid_l2 gemm_tile_l2(const tk_gemm_problem *p, int64_t em, int64_t en)
{
  return tk_grid_l2_make((uint32_t)((p->m + em - 1) / em), (uint32_t)((p->n + en - 1) / en),
                         p->grid_order == TK_GEMM_GRID_ROW_MAJOR ? 1u : 8u);
}
/* gemm_tile_at through that map (the same origins, no division by a
 * variable on the device) */
static __device__ inline void gemm_tile_at_l2(const tk_grid_l2 &g, int64_t em, int64_t en, uint32_t lid, int64_t *m0,
                                              int64_t *n0)
{
  uint32_t tm, tn;
  tk_grid_l2_order_at(&g, lid, &tm, &tn);
  *m0 = (int64_t)tm * em;
  *n0 = (int64_t)tn * en;
}
/* the logical tile id of workgroup wg of n_wg: after the XCD remap
 * (tk/grid.h), so an XCD's workgroups take neighbouring tiles of the L2
 * order; row-major order takes no remap either */
static __device__ inline uint32_t gemm_tile_lid(const tk_gemm_problem &p, uint32_t wg, uint32_t n_wg)
{
  /* tk_grid_xcd_remap's map without its branches (the XCDs below r hold
   * q + 1 tiles: start = xcd * q + min(xcd, r)) and the order a select, so
   * the kernel's prologue up to its first loads is one basic block and its
   * kernel-argument loads issue as one batch (with the branches clang waited
   * for a second batch after them: ~0.05 us, modeled) */
#if TK_TARGET_GFX == 950 /* (gfx942: unchanged) */
  const uint32_t q = n_wg / TK_NUM_XCDS, r = n_wg % TK_NUM_XCDS, xcd = wg % TK_NUM_XCDS;
  const uint32_t remap = xcd * q + (xcd < r ? xcd : r) + wg / TK_NUM_XCDS;
  return p.grid_order == TK_GEMM_GRID_ROW_MAJOR ? wg : remap;
#else
  return p.grid_order == TK_GEMM_GRID_ROW_MAJOR ? wg : tk_grid_xcd_remap(wg, n_wg, TK_NUM_XCDS);
#endif
}
/* origin (m0, n0) of this workgroup's em x en tile of C */
static __device__ inline void gemm_tile_origin2(const tk_gemm_problem &p, int64_t em, int64_t en, int64_t *m0,
                                                int64_t *n0)
{
  gemm_tile_at(p, em, en, gemm_tile_lid(p, blockIdx.x, gridDim.x), m0, n0);
}
static __device__ inline void gemm_tile_origin(const tk_gemm_problem &p, int64_t edge, int64_t *m0, int64_t *n0)
{
  gemm_tile_origin2(p, edge, edge, m0, n0);
}

/* A rows x cols matrix with row stride ld as a tk global tensor, without
 * tk_gl_make's validation: the host validated the problem (tk_gemm_problem_error,
 * the kernels' size limits), and on the device the checks were a few hundred
 * scalar instructions per workgroup before its first load (and again before
 * the epilogue); with the outer dimensions known to be 1 the compiler also
 * folds tk_gl_rsrc's extent. */
static __device__ inline void gemm_gl2(tk_gl *g, void *ptr, int eb, int64_t rows, int64_t cols, int64_t ld)
{
  g->ptr = ptr;
  g->elem_bytes = eb;
  g->ndim = 2;
  g->dims[0] = g->dims[1] = 1;
  g->dims[2] = rows;
  g->dims[3] = cols;
  g->strides[0] = g->strides[1] = rows * ld; /* as tk_gl_make sets them: steps over the matrix */
  g->strides[2] = ld;
  g->strides[3] = 1;
}

/* batch z of C: M x N, row stride ldc, bf16 or f32 elements */
static __device__ inline void gemm_c_tensor(const tk_gemm_problem &p, void *c, int64_t z, tk_gl *gc)
{
  const int esz = (int)tk_gemm_c_elem_bytes(&p);
  gemm_gl2(gc, (void *)((char *)c + z * tk_gemm_c_stride(&p) * esz), esz, p.m, p.n, p.ldc);
}

/* the fused epilogue of p (tk/epilogue.h): the per-tensor input scales fold
 * into alpha (hipBLASLt's scaleA * scaleB * alpha) */
static_assert((int)TK_GEMM_ACT_RELU == TK_ACT_RELU && (int)TK_GEMM_ACT_GELU_TANH == TK_ACT_GELU_TANH &&
                  (int)TK_GEMM_ACT_GELU_ERF == TK_ACT_GELU_ERF && (int)TK_GEMM_ACT_SILU == TK_ACT_SILU &&
                  (int)TK_GEMM_BIAS_ROW == TK_BIAS_ROW && (int)TK_GEMM_BIAS_COL == TK_BIAS_COL,
              "tk_gemm's epilogue enums are tk's");
static __device__ inline tk_epi gemm_epi(const tk_gemm_problem &p)
{
  return tk_epi_make(p.alpha * p.scale_a * p.scale_b, p.beta, p.act, p.bias, p.bias_ptr, p.bias_len,
                     (int)tk_gemm_bias_elem_bytes(&p));
}

/* split-K: this workgroup's f32 partial (split blockIdx.y of `splits`, the
 * launch's gridDim.y, passed in: gridDim is a dispatch-packet load) of
 * batch z, packed M x N, at ws + ((z * splits + split) * M * N) floats */
static __device__ inline void gemm_ws_tensor(const tk_gemm_problem &p, float *ws, int64_t z, int64_t splits,
                                             tk_gl *gw)
{
  gemm_gl2(gw, (void *)(ws + (z * splits + blockIdx.y) * p.m * p.n), 4, p.m, p.n, p.n);
}

#endif /* GEMM_TILE_H */
