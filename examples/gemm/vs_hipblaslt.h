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

#include "tk_gemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The problem p on the device buffers a, b, c as one hipBLASLt matmul (C is
 * updated in place, D = C). NULL after printing why it cannot run. */
typedef struct gemm_lt gemm_lt;
gemm_lt *gemm_lt_create(const tk_gemm_problem *p, const uint16_t *a, const uint16_t *b, void *c);
/* One launch (a tk_launch_fn for tk_time_launches): 0, or 1 after printing why. */
int gemm_lt_launch(void *lt);
void gemm_lt_destroy(gemm_lt *lt);

#ifdef __cplusplus
}
#endif
#endif /* GEMM_VS_HIPBLASLT_H */
