/* gemm_reference.h: the independent GPU reference for large checks: one
 * thread per C element, double-precision sums straight from global memory (no
 * LDS, no tiles, nothing shared with the kernels under test): alpha * scales *
 * sum + beta * C; bias and activation are applied by tk_gemm_check on the host. */
#ifndef GEMM_REFERENCE_H
#define GEMM_REFERENCE_H

#include <hip/hip_runtime.h>
#include <tk/types.h>

#include "tk_gemm.h"

/* element i of an input operand: bf16, or the device's fp8 e4m3 decoded in
 * software (not the kernels' hardware path): FNUZ (tk_fp8e4_to_f32_ref) in a
 * gfx942 device pass, OCP (tk_ocp_e4m3_to_f32_ref) in a gfx950 one */
static __device__ inline double gemm_reference_in(const void *x, int64_t i, bool fp8)
{
  if (!fp8) return tk_bf16_to_f32(((const uint16_t *)x)[i]);
#if TK_FP8_FNUZ
  return tk_fp8e4_to_f32_ref(((const uint8_t *)x)[i]);
#else
  return tk_ocp_e4m3_to_f32_ref(((const uint8_t *)x)[i]);
#endif
}

__global__ __launch_bounds__(256) void gemm_reference(const void *a, const void *b,
                                                      const void *c0, double *ref,
                                                      double *mag, tk_gemm_problem p)
{
  const int64_t n = (int64_t)blockIdx.x * 16 + threadIdx.x % 16;
  const int64_t m = (int64_t)blockIdx.y * 16 + threadIdx.x / 16;
  const int64_t z = blockIdx.z;
  if (m >= p.m || n >= p.n) return;
  const bool fp8 = p.in == TK_GEMM_IN_FP8;
  const int64_t a0 = z * tk_gemm_a_stride(&p) + m * p.lda, b0 = z * tk_gemm_b_stride(&p);
  double s = 0.0, sa = 0.0;
  for (int64_t k = 0; k < p.k; ++k) {
    const double bv = gemm_reference_in(b, b0 + (p.layout == TK_GEMM_NT ? n * p.ldb + k : k * p.ldb + n), fp8);
    const double t = gemm_reference_in(a, a0 + k, fp8) * bv;
    s += t;
    sa += fabs(t);
  }
  const int64_t ci = z * tk_gemm_c_stride(&p) + m * p.ldc + n;
  double cold = 0.0;
  if (p.beta != 0.0f)
    cold = p.out == TK_GEMM_OUT_BF16 ? tk_bf16_to_f32(((const uint16_t *)c0)[ci]) : ((const float *)c0)[ci];
  const int64_t o = (z * p.m + m) * p.n + n;
  const double alpha = (double)p.alpha * p.scale_a * p.scale_b;
  ref[o] = alpha * s + (double)p.beta * cold;
  mag[o] = fabs(alpha) * sa + fabs((double)p.beta * cold);
}

static hipError_t gemm_reference_launch(const tk_gemm_problem *p, const void *a, const void *b, const void *c0,
                                        double *ref, double *mag, hipStream_t stream)
{
  const dim3 grid((unsigned)((p->n + 15) / 16), (unsigned)((p->m + 15) / 16), (unsigned)p->batch);
  hipLaunchKernelGGL(gemm_reference, grid, dim3(256), 0, stream, a, b, c0, ref, mag, *p);
  return hipGetLastError();
}

#endif /* GEMM_REFERENCE_H */
