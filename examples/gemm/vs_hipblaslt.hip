/* vs_hipblaslt.hip: the hipBLASLt side of `gemm --vs hipblaslt` (see
 * vs_hipblaslt.h for the column-major mapping). */
#include <hip/hip_runtime.h>
#include <hipblaslt/hipblaslt.h>
#include <stdio.h>
#include <stdlib.h>

#include "vs_hipblaslt.h"

#define GEMM_CHECK_LT(x)                                                                    \
  do {                                                                                      \
    hipblasStatus_t st_ = (x);                                                              \
    if (st_ != HIPBLAS_STATUS_SUCCESS) {                                                    \
      fprintf(stderr, "gemm: hipBLASLt: %s failed (status %d)\n", #x, (int)st_);            \
      gemm_lt_destroy(lt);                                                                  \
      return NULL;                                                                          \
    }                                                                                       \
  } while (0)

struct gemm_lt {
  hipblasLtHandle_t h;
  hipblasLtMatrixLayout_t la, lb, lc;
  hipblasLtMatmulDesc_t desc;
  hipblasLtMatmulPreference_t pref;
  hipblasLtMatmulHeuristicResult_t res;
  void *ws;
  const void *a, *b;
  void *c;
  float alpha, beta;
};

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

extern "C" gemm_lt *gemm_lt_create(const tk_gemm_problem *p, const uint16_t *a, const uint16_t *b, void *c)
{
  gemm_lt *lt = (gemm_lt *)calloc(1, sizeof *lt);
  if (!lt) return NULL;
  lt->a = a, lt->b = b, lt->c = c, lt->alpha = p->alpha, lt->beta = p->beta;
  GEMM_CHECK_LT(hipblasLtCreate(&lt->h));
  const hipDataType ct = p->out == TK_GEMM_OUT_BF16 ? HIP_R_16BF : HIP_R_32F;
  const bool nt = p->layout == TK_GEMM_NT;
  /* "A" of the column-major call is our B, "B" is our A (vs_hipblaslt.h) */
  GEMM_CHECK_LT(lt_layout(&lt->la, HIP_R_16BF, nt ? p->k : p->n, nt ? p->n : p->k, p->ldb, p->batch, tk_gemm_b_stride(p)));
  GEMM_CHECK_LT(lt_layout(&lt->lb, HIP_R_16BF, p->k, p->m, p->lda, p->batch, tk_gemm_a_stride(p)));
  GEMM_CHECK_LT(lt_layout(&lt->lc, ct, p->n, p->m, p->ldc, p->batch, tk_gemm_c_stride(p)));
  GEMM_CHECK_LT(hipblasLtMatmulDescCreate(&lt->desc, HIPBLAS_COMPUTE_32F, HIP_R_32F));
  const int32_t opa = nt ? HIPBLAS_OP_T : HIPBLAS_OP_N, opb = HIPBLAS_OP_N;
  GEMM_CHECK_LT(hipblasLtMatmulDescSetAttribute(lt->desc, HIPBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa));
  GEMM_CHECK_LT(hipblasLtMatmulDescSetAttribute(lt->desc, HIPBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb));
  GEMM_CHECK_LT(hipblasLtMatmulPreferenceCreate(&lt->pref));
  const uint64_t max_ws = 64ull << 20;
  GEMM_CHECK_LT(hipblasLtMatmulPreferenceSetAttribute(lt->pref, HIPBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &max_ws,
                                                      sizeof max_ws));
  int found = 0;
  GEMM_CHECK_LT(hipblasLtMatmulAlgoGetHeuristic(lt->h, lt->desc, lt->la, lt->lb, lt->lc, lt->lc, lt->pref, 1, &lt->res,
                                                &found));
  if (found < 1) {
    fprintf(stderr, "gemm: hipBLASLt has no algorithm for this problem\n");
    gemm_lt_destroy(lt);
    return NULL;
  }
  if (lt->res.workspaceSize > 0 && hipMalloc(&lt->ws, lt->res.workspaceSize) != hipSuccess) {
    fprintf(stderr, "gemm: hipBLASLt: cannot allocate %llu bytes of workspace\n",
            (unsigned long long)lt->res.workspaceSize);
    lt->ws = NULL;
    gemm_lt_destroy(lt);
    return NULL;
  }
  return lt;
}

extern "C" int gemm_lt_launch(void *v)
{
  gemm_lt *lt = (gemm_lt *)v;
  if (hipblasLtMatmul(lt->h, lt->desc, &lt->alpha, lt->b, lt->la, lt->a, lt->lb, &lt->beta, lt->c, lt->lc, lt->c, lt->lc,
                      &lt->res.algo, lt->ws, lt->res.workspaceSize, 0) != HIPBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "gemm: hipblasLtMatmul failed\n");
    return 1;
  }
  return 0;
}

extern "C" void gemm_lt_destroy(gemm_lt *lt)
{
  if (!lt) return;
  if (lt->ws) (void)hipFree(lt->ws);
  if (lt->pref) hipblasLtMatmulPreferenceDestroy(lt->pref);
  if (lt->desc) hipblasLtMatmulDescDestroy(lt->desc);
  if (lt->la) hipblasLtMatrixLayoutDestroy(lt->la);
  if (lt->lb) hipblasLtMatrixLayoutDestroy(lt->lb);
  if (lt->lc) hipblasLtMatrixLayoutDestroy(lt->lc);
  if (lt->h) hipblasLtDestroy(lt->h);
  free(lt);
}
