/* norm_ref.c: the CPU reference of tk_norm.h: the dropout mask, the f32
 * residual (bit exact: the same fma), the statistics and the normalised
 * output in double precision, and the per-element comparison. */
#include <math.h>
#include <stdlib.h>

#include "inputs.h"
#include "tk_norm.h"

int tk_norm_keep(const tk_norm_problem *p, int64_t row, int64_t col)
{
  if (!(p->dropout > 0.0f)) return 1;
  const uint32_t h = tk_norm_hash(tk_norm_row_key(p->seed, (uint32_t)row), (uint32_t)col >> 1);
  return tk_norm_bits16(h, (uint32_t)col) >= tk_norm_threshold(p->dropout);
}

static void cmp_add(tk_norm_cmp *c, double err, double bound)
{
  c->n++;
  if (err > c->max_abs) c->max_abs = err;
  const double r = bound > 0 ? err / bound : (err > 0 ? INFINITY : 0);
  if (r > c->worst_ratio) c->worst_ratio = r;
  if (!(err <= bound)) c->nbad++;
}

int tk_norm_check(const tk_norm_problem *p, const uint16_t *x, const uint16_t *residual, const uint16_t *weight,
                  const uint16_t *bias, const uint16_t *out, const uint16_t *res_out, tk_norm_cmp cmp[2])
{
  if (tk_norm_problem_error(p)) return TK_NORM_ERR_PROBLEM;
  if (!x || !weight || !out || !cmp || (p->op == TK_NORM_LAYERNORM && !bias) ||
      (p->residual && (!residual || !res_out)))
    return TK_NORM_ERR_ARG;
  const int64_t n = p->n;
  double *z = malloc((size_t)n * sizeof *z);
  if (!z) return TK_NORM_ERR_MEMORY;
  cmp[0] = (tk_norm_cmp){0, 0, 0, 0};
  cmp[1] = (tk_norm_cmp){0, 0, 0, 0};
  const float scale = 1.0f / (1.0f - p->dropout);
  for (int64_t i = 0; i < p->m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const float xv = tk_ex_bf16_to_f32(x[i * p->ld_x + j]);
      const float rv = p->residual ? tk_ex_bf16_to_f32(residual[i * p->ld_res + j]) : 0.0f;
      const float m = tk_norm_keep(p, i, j) ? (p->dropout > 0.0f ? scale : 1.0f) : 0.0f;
      const float h = fmaf(xv, m, rv);
      const uint16_t hb = tk_ex_f32_to_bf16(h);
      z[j] = tk_ex_bf16_to_f32(hb);
      if (p->residual) {
        const uint16_t got = res_out[i * p->ld_res_out + j];
        cmp_add(&cmp[1], got == hb ? 0.0 : fabs((double)tk_ex_bf16_to_f32(got) - z[j]) + 1e-300, 0.0);
      }
    }
    double mean = 0, var = 0;
    if (p->op == TK_NORM_RMSNORM) {
      for (int64_t j = 0; j < n; ++j) var += z[j] * z[j];
      var /= (double)n;
    } else {
      for (int64_t j = 0; j < n; ++j) mean += z[j];
      mean /= (double)n;
      for (int64_t j = 0; j < n; ++j) var += (z[j] - mean) * (z[j] - mean);
      var /= (double)n;
    }
    const double rstd = 1.0 / sqrt(var + (double)p->eps);
    for (int64_t j = 0; j < n; ++j) {
      const double w = tk_ex_bf16_to_f32(weight[j]);
      const double b = p->op == TK_NORM_RMSNORM ? 0.0 : tk_ex_bf16_to_f32(bias[j]);
      const double zn = (z[j] - mean) * rstd;
      const double ref = zn * w + b;
      const double got = tk_ex_bf16_to_f32(out[i * p->ld_out + j]);
      const double bound = ldexp(fabs(ref), -8) + ldexp(fabs(w) * (fabs(zn) + 1.0) + fabs(b), -16) + ldexp(1.0, -20);
      cmp_add(&cmp[0], fabs(got - ref), bound);
    }
  }
  free(z);
  return TK_NORM_OK;
}
