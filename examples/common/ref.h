/* ref.h: CPU references and the element-wise comparison for the examples.
 *
 * tk_ref_matmul_bf16: sum_k A(i,k) * B(k,j) in double over bf16 inputs, and
 * the sum of the products' magnitudes (what an f32 accumulation's error bound
 * scales with). Products of two bf16 values are exact in f32 and double
 * (8 + 8 significand bits), so the double sum is within K * 2^-53 relative of
 * the exact one: far below any f32 tolerance. Strides are in elements, so any
 * row-/column-major layout or transposition is described by them. */
#ifndef TK_EXAMPLES_REF_H
#define TK_EXAMPLES_REF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sum[i*n + j] = sum_k a[i*a_rs + k*a_ks] * b[k*b_ks + j*b_ns];
 * mag[i*n + j] = the same with |products|. Returns 0, or -1 out of memory. */
int tk_ref_matmul_bf16(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t a_rs, int64_t a_ks,
                       const uint16_t *b, int64_t b_ks, int64_t b_ns, double *sum, double *mag);

/* The same over fp8 e4m3 inputs, decoded with tk/types.h's bit-exact host
 * decoders: ocp 0 = FNUZ (gfx942, tk_fp8e4_to_f32_ref), ocp 1 = OCP E4M3FN
 * (gfx950, tk_ocp_e4m3_to_f32_ref); 4 + 4 significand bits, so products are
 * exact too. */
int tk_ref_matmul_fp8e4(int64_t m, int64_t n, int64_t k, const uint8_t *a, int64_t a_rs, int64_t a_ks,
                        const uint8_t *b, int64_t b_ks, int64_t b_ns, double *sum, double *mag, int ocp);
/* Comparison with per-element bounds: an element passes when |got - ref| <=
 * bound (NaN never passes). */
typedef struct tk_cmp {
  double max_abs, max_rel, worst_ratio; /* worst |err|, |err|/|ref|, |err|/bound */
  int64_t nbad;                         /* elements past their bound */
} tk_cmp;
void tk_cmp_init(tk_cmp *c);
void tk_cmp_add(tk_cmp *c, double got, double ref, double bound);

#ifdef __cplusplus
}
#endif
#endif
