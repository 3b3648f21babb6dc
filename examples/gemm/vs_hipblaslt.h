/* vs_hipblaslt.h: `gemm --vs hipblaslt`, the same problem through AMD's
 * hipBLASLt on the same device buffers, for a side-by-side figure measured in
 * one process.  Compiled only when the build found hipBLASLt and this file
 * compiled against its header (examples/gemm/CMakeLists.txt); ROCm 6+ API
 * (hipDataType HIP_R_16BF, hipblasComputeType_t HIPBLAS_COMPUTE_32F).
 *
 * hipBLASLt is column-major.  Our row-major C (M x N, ldc) is the column-major
 * N x M matrix C^T, and C^T = op(B)^T-side first:
 *   nt: C = A * B^T   ->  C^T = B * A^T: "A" = B stored K x N (ld ldb), op T
 *   nn: C = A * B     ->  C^T = B^T * A^T: "A" = B stored N x K (ld ldb), op N
 * and "B" = A stored K x M (ld lda), op N, for both; m' = N, n' = M, k' = K.
 */
#ifndef GEMM_VS_HIPBLASLT_H
#define GEMM_VS_HIPBLASLT_H

#include <hipblaslt/hipblaslt.h>

#define GEMM_CHECK_LT(x)                                                                    \
  do {                                                                                      \
    hipblasStatus_t st_ = (x);                                                              \
    if (st_ != HIPBLAS_STATUS_SUCCESS) {                                                    \
      fprintf(stderr, "gemm: hipBLASLt: %s failed (status %d)\n", #x, (int)st_);            \
      return -1.0;                                                                          \
    }                                                                                       \
  } while (0)

/* One layout with batch count and stride. */
static hipblasStatus_t lt_layout(hipblasLtMatrixLayout_t *l, hipDataType t, int64_t rows, int64_t cols, int64_t ld,
                                 int64_t batch, int64_t stride)
{
  hipblasStatus_t st = hipblasLtMatrixLayoutCreate(l, t, (uint64_t)rows, (uint64_t)cols, ld);
  if (st != HIPBLAS_STATUS_SUCCESS || batch == 1) return st;
  const int32_t b32 = (int32_t)batch;
  st = hipblasLtMatrixLayoutSetAttribute(*l, HIPBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &b32, sizeof b32);
  if (st != HIPBLAS_STATUS_SUCCESS) return st;
  return hipblasLtMatrixLayoutSetAttribute(*l, HIPBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride);
}

/* Runs `warmup` + `iters` hipBLASLt launches of problem p on the device
 * buffers a, b, c (C is updated in place, D = C) and returns milliseconds per
 * timed launch (hipEvent), or -1 after printing why it could not run. */
static double hipblaslt_time(const gemm_problem *p, const uint16_t *a, const uint16_t *b, void *c, int64_t iters,
                             int64_t warmup)
{
  hipblasLtHandle_t h;
  GEMM_CHECK_LT(hipblasLtCreate(&h));
  const hipDataType ct = p->out == OUT_BF16 ? HIP_R_16BF : HIP_R_32F;
  const bool nt = p->layout == LAYOUT_NT;
  hipblasLtMatrixLayout_t la, lb, lc;
  /* "A" of the column-major call is our B, "B" is our A (header comment) */
  GEMM_CHECK_LT(lt_layout(&la, HIP_R_16BF, nt ? p->k : p->n, nt ? p->n : p->k, p->ldb, p->batch, b_batch_stride(p)));
  GEMM_CHECK_LT(lt_layout(&lb, HIP_R_16BF, p->k, p->m, p->lda, p->batch, a_batch_stride(p)));
  GEMM_CHECK_LT(lt_layout(&lc, ct, p->n, p->m, p->ldc, p->batch, c_batch_stride(p)));
  hipblasLtMatmulDesc_t desc;
  GEMM_CHECK_LT(hipblasLtMatmulDescCreate(&desc, HIPBLAS_COMPUTE_32F, HIP_R_32F));
  const int32_t opa = nt ? HIPBLAS_OP_T : HIPBLAS_OP_N, opb = HIPBLAS_OP_N;
  GEMM_CHECK_LT(hipblasLtMatmulDescSetAttribute(desc, HIPBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa));
  GEMM_CHECK_LT(hipblasLtMatmulDescSetAttribute(desc, HIPBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb));
  hipblasLtMatmulPreference_t pref;
  GEMM_CHECK_LT(hipblasLtMatmulPreferenceCreate(&pref));
  const uint64_t max_ws = 64ull << 20;
  GEMM_CHECK_LT(hipblasLtMatmulPreferenceSetAttribute(pref, HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &max_ws,
                                                      sizeof max_ws));
  hipblasLtMatmulHeuristicResult_t res;
  int found = 0;
  GEMM_CHECK_LT(hipblasLtMatmulAlgoGetHeuristic(h, desc, la, lb, lc, lc, pref, 1, &res, &found));
  if (found < 1) {
    fprintf(stderr, "gemm: hipBLASLt has no algorithm for this problem\n");
    return -1.0;
  }
  void *ws = NULL;
  if (res.workspaceSize > 0 && hipMalloc(&ws, res.workspaceSize) != hipSuccess) {
    fprintf(stderr, "gemm: hipBLASLt: cannot allocate %llu bytes of workspace\n", (unsigned long long)res.workspaceSize);
    return -1.0;
  }
  const float alpha = p->alpha, beta = p->beta;
  hipEvent_t e0, e1;
  GEMM_CHECK_HIP(hipEventCreate(&e0));
  GEMM_CHECK_HIP(hipEventCreate(&e1));
  double ms_per = -1.0;
  for (int64_t i = 0; i < warmup + iters; ++i) {
    if (i == warmup) GEMM_CHECK_HIP(hipEventRecord(e0, 0));
    if (hipblasLtMatmul(h, desc, &alpha, b, la, a, lb, &beta, c, lc, c, lc, &res.algo, ws, res.workspaceSize, 0) !=
        HIPBLAS_STATUS_SUCCESS) {
      fprintf(stderr, "gemm: hipblasLtMatmul failed\n");
      iters = -1;
      break;
    }
  }
  if (iters >= 0) {
    GEMM_CHECK_HIP(hipEventRecord(e1, 0));
    GEMM_CHECK_HIP(hipEventSynchronize(e1));
    float ms = 0;
    GEMM_CHECK_HIP(hipEventElapsedTime(&ms, e0, e1));
    ms_per = iters > 0 ? ms / (double)iters : 0.0;
  }
  GEMM_CHECK_HIP(hipEventDestroy(e0));
  GEMM_CHECK_HIP(hipEventDestroy(e1));
  if (ws) GEMM_CHECK_HIP(hipFree(ws));
  hipblasLtMatmulPreferenceDestroy(pref);
  hipblasLtMatmulDescDestroy(desc);
  hipblasLtMatrixLayoutDestroy(la);
  hipblasLtMatrixLayoutDestroy(lb);
  hipblasLtMatrixLayoutDestroy(lc);
  hipblasLtDestroy(h);
  return ms_per;
}

#endif /* GEMM_VS_HIPBLASLT_H */
