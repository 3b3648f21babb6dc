/* gemm_splitk.h: the second kernel of a split-K GEMM: sums the f32 partials
 * that the 8wave kernel's splits left in the workspace and applies the
 * epilogue, C = alpha * sum + beta * C.
 *
 * Deterministic: every element's partials are added in split order 0, 1, ...
 * by one thread, so the same inputs give the same bits on every run (no
 * atomics; the order differs from the unsplit kernel's, the error bound of
 * docs/gemm.md holds for any order).  Workspace layout (gemm_tile.h,
 * gemm_ws_tensor): batch z, split s at ((z * splits + s) * M * N) floats,
 * packed M x N.  One thread per C element, grid-stride; plain HIP. */
#ifndef GEMM_SPLITK_H
#define GEMM_SPLITK_H

#include <hip/hip_runtime.h>
#include <tk/types.h>

#include "tk_gemm.h"

__global__ __launch_bounds__(256) void gemm_splitk_reduce(const float *__restrict__ ws, void *c, tk_gemm_problem p,
                                                          int64_t splits)
{
  const int64_t mn = p.m * p.n, total = mn * p.batch;
  const bool bf16 = p.out == TK_GEMM_OUT_BF16;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t z = i / mn, e = i % mn, m = e / p.n, n = e % p.n;
    const float *w = ws + z * splits * mn + e;
    float s = 0.0f;
    for (int64_t k = 0; k < splits; ++k) s += w[k * mn];
    float v = p.alpha * s;
    const int64_t ci = z * tk_gemm_c_stride(&p) + m * p.ldc + n;
    if (bf16) {
      uint16_t *cz = (uint16_t *)c;
      if (p.beta != 0.0f) v += p.beta * tk_bf16_to_f32(cz[ci]);
      cz[ci] = tk_f32_to_bf16(v);
    } else {
      float *cz = (float *)c;
      if (p.beta != 0.0f) v += p.beta * cz[ci];
      cz[ci] = v;
    }
  }
}

/* floats of workspace a split-K launch needs */
static int64_t gemm_splitk_ws_floats(const tk_gemm_problem *p, int64_t splits)
{
  return splits > 1 ? p->batch * splits * p->m * p->n : 0;
}

static hipError_t gemm_splitk_reduce_launch(const tk_gemm_problem *p, int64_t splits, const float *ws, void *c,
                                            hipStream_t stream)
{
  const int64_t total = p->m * p->n * p->batch, blocks = (total + 255) / 256;
  hipLaunchKernelGGL(gemm_splitk_reduce, dim3((unsigned)(blocks < 4096 ? blocks : 4096)), dim3(256), 0, stream, ws, c,
                     *p, splits);
  return hipGetLastError();
}

#endif /* GEMM_SPLITK_H */
