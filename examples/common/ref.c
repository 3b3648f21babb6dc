/* ref.c: see ref.h. */
#include "ref.h"

#include <math.h>
#include <stdlib.h>
#include <tk/types.h>

int tk_ref_matmul_bf16(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t a_rs, int64_t a_ks,
                       const uint16_t *b, int64_t b_ks, int64_t b_ns, double *sum, double *mag)
{
  /* one column of B at a time, converted once: the inner loop runs over k */
  double *col = malloc((size_t)(k > 0 ? k : 1) * sizeof *col);
  if (!col) return -1;
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t q = 0; q < k; ++q) col[q] = tk_bf16_to_f32(b[q * b_ks + j * b_ns]);
    for (int64_t i = 0; i < m; ++i) {
      const uint16_t *ar = a + i * a_rs;
      double s = 0.0, sa = 0.0;
      for (int64_t q = 0; q < k; ++q) {
        const double t = (double)tk_bf16_to_f32(ar[q * a_ks]) * col[q];
        s += t;
        sa += fabs(t);
      }
      sum[i * n + j] = s;
      mag[i * n + j] = sa;
    }
  }
  free(col);
  return 0;
}

int tk_ref_matmul_fp8e4(int64_t m, int64_t n, int64_t k, const uint8_t *a, int64_t a_rs, int64_t a_ks,
                        const uint8_t *b, int64_t b_ks, int64_t b_ns, double *sum, double *mag, int ocp)
{
  double *col = malloc((size_t)(k > 0 ? k : 1) * sizeof *col);
  double dec[256]; /* every code decoded once */
  if (!col) return -1;
  for (int v = 0; v < 256; ++v) dec[v] = ocp ? tk_ocp_e4m3_to_f32_ref((uint8_t)v) : tk_fp8e4_to_f32_ref((tk_fp8e4)v);
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t q = 0; q < k; ++q) col[q] = dec[b[q * b_ks + j * b_ns]];
    for (int64_t i = 0; i < m; ++i) {
      const uint8_t *ar = a + i * a_rs;
      double s = 0.0, sa = 0.0;
      for (int64_t q = 0; q < k; ++q) {
        const double t = dec[ar[q * a_ks]] * col[q];
        s += t;
        sa += fabs(t);
      }
      sum[i * n + j] = s;
      mag[i * n + j] = sa;
    }
  }
  free(col);
  return 0;
}

void tk_cmp_init(tk_cmp *c)
{
  c->max_abs = c->max_rel = c->worst_ratio = 0;
  c->nbad = 0;
}

void tk_cmp_add(tk_cmp *c, double got, double ref, double bound)
{
  const double err = fabs(got - ref);
  const double ratio = isnan(got) ? INFINITY : err / bound;
  if (!(ratio <= 1.0)) ++c->nbad;
  if (!(err <= c->max_abs)) c->max_abs = isnan(got) ? INFINITY : fmax(c->max_abs, err);
  if (fabs(ref) > 0) c->max_rel = fmax(c->max_rel, err / fabs(ref));
  if (!(ratio <= c->worst_ratio)) c->worst_ratio = ratio;
}
