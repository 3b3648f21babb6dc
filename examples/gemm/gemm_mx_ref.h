/* gemm_mx_ref.h: host decoding of the OCP Microscaling (MX) element and
 * scale formats, and the double-precision MX matrix product the gemm check
 * compares against (plain C; no device code, no tksim code).
 *
 * Formats (OCP Microscaling Formats (MX) Specification v1.0, section 5):
 *   E4M3 (FP8, bias 7):  no infinities, S.1111.111 is NaN, max 448
 *   E5M2 (FP8, bias 15): S.11111.00 is +-inf, S.11111.{01,10,11} NaN, max 57344
 *   E2M3 (FP6, bias 1):  no inf/NaN, max 7.5
 *   E3M2 (FP6, bias 3):  no inf/NaN, max 28
 *   E2M1 (FP4, bias 1):  no inf/NaN, values 0, 0.5, 1, 1.5, 2, 3, 4, 6
 *   E8M0 scale: 2^(s - 127) for s = 0..254, 0xff NaN (no sign, no zero)
 * Every element format: exponent field 0 is subnormal, 2^(1 - bias) * m / 2^M.
 * A block of 32 consecutive elements along K shares one scale; a dot product
 * of two blocks is X_A * X_B * sum(P_A * P_B) (spec 6.1), NaN when either
 * scale is NaN.  FP4 elements are stored two per byte, element 2i in the low
 * nibble (the order the f8f6f4 MFMAs read: element e at bit 4e of the lane's
 * registers, CDNA4 ISA guide). */
#ifndef GEMM_MX_REF_H
#define GEMM_MX_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* element formats of MX inputs (the values of tk_gemm_in minus TK_GEMM_IN_MXFP8) */
enum { GEMM_MX_E4M3 = 0, GEMM_MX_E5M2 = 1, GEMM_MX_E2M3 = 2, GEMM_MX_E3M2 = 3, GEMM_MX_E2M1 = 4 };
#define GEMM_MX_BLOCK 32

/* bits per element */
static inline int gemm_mx_bits(int fmt) { return fmt <= GEMM_MX_E5M2 ? 8 : fmt == GEMM_MX_E2M1 ? 4 : 6; }

/* the value of element code `c` of format fmt (low bits used) */
static inline double gemm_mx_decode(int fmt, uint32_t c)
{
  static const int eb[] = {4, 5, 2, 3, 2}, mb[] = {3, 2, 3, 2, 1}, bias[] = {7, 15, 1, 3, 1};
  const int e_bits = eb[fmt], m_bits = mb[fmt], nb = 1 + e_bits + m_bits;
  c &= (1u << nb) - 1u;
  const int neg = (int)(c >> (nb - 1));
  const uint32_t e = (c >> m_bits) & ((1u << e_bits) - 1u), m = c & ((1u << m_bits) - 1u);
  if (fmt == GEMM_MX_E4M3 && e == 15 && m == 7) return NAN;
  if (fmt == GEMM_MX_E5M2 && e == 31) return m ? NAN : neg ? -INFINITY : INFINITY;
  const double mag = e == 0 ? ldexp((double)m, 1 - bias[fmt] - m_bits)
                            : ldexp((double)((1u << m_bits) | m), (int)e - bias[fmt] - m_bits);
  return neg ? -mag : mag;
}

/* an E8M0 scale byte */
static inline double gemm_mx_scale(uint8_t s) { return s == 0xff ? NAN : ldexp(1.0, (int)s - 127); }

/* element k of row r of an MX operand stored row-major with ld elements per
 * row (fp4: two per byte, low nibble first; ld even) */
static inline uint32_t gemm_mx_code(int fmt, const uint8_t *x, int64_t ld, int64_t r, int64_t k)
{
  const int64_t i = r * ld + k;
  if (gemm_mx_bits(fmt) == 4) return (x[i / 2] >> (4 * (i % 2))) & 0xfu;
  return x[i]; /* fp8 (fp6 is not a stored input format of the gemm) */
}

/* ref[m*N + n] = sum_k A[m][k] sA[m][k/32] * B[n][k] sB[n][k/32] and mag the
 * same over |products|, in double (exact products; scales up to 2^+-127 each
 * stay far inside double's range).  A: M x K (lda), B: N x K (ldb), scales
 * M x kb and N x kb bytes, kb = ceil(K / 32).  0, or -1 without memory. */
static inline int gemm_mx_ref_matmul(int fmt, int64_t M, int64_t N, int64_t K, const uint8_t *a, int64_t lda,
                                     const uint8_t *sa, const uint8_t *b, int64_t ldb, const uint8_t *sb,
                                     double *ref, double *mag)
{
  const int64_t kb = (K + GEMM_MX_BLOCK - 1) / GEMM_MX_BLOCK;
  double *av = (double *)malloc(sizeof(double) * (size_t)(M * K)), *bv = (double *)malloc(sizeof(double) * (size_t)(N * K));
  if (!av || !bv) {
    free(av);
    free(bv);
    return -1;
  }
  for (int64_t r = 0; r < M; ++r)
    for (int64_t k = 0; k < K; ++k)
      av[r * K + k] = gemm_mx_decode(fmt, gemm_mx_code(fmt, a, lda, r, k)) * gemm_mx_scale(sa[r * kb + k / GEMM_MX_BLOCK]);
  for (int64_t r = 0; r < N; ++r)
    for (int64_t k = 0; k < K; ++k)
      bv[r * K + k] = gemm_mx_decode(fmt, gemm_mx_code(fmt, b, ldb, r, k)) * gemm_mx_scale(sb[r * kb + k / GEMM_MX_BLOCK]);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double s = 0, g = 0;
      const double *x = av + m * K, *y = bv + n * K;
      for (int64_t k = 0; k < K; ++k) {
        const double t = x[k] * y[k];
        s += t;
        g += fabs(t);
      }
      ref[m * N + n] = s, mag[m * N + n] = g;
    }
  free(av);
  free(bv);
  return 0;
}

#endif /* GEMM_MX_REF_H */
