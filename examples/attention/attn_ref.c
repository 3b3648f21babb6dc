/* attn_ref.c: the CPU double-precision reference of attention forward and
 * backward, the element-wise checks of tk_attn_check_fwd/bwd and the
 * finite-difference gradient of tk_attn_fd_grad (tk_attn.h).  Independent of
 * the kernels: plain loops over the bf16 inputs, one query row at a time
 * (memory O(skv) per row plus the K/V gradients of one head). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "ref.h"
#include "tk_attn.h"

/* rows x d doubles of head h of batch b of tensor t */
static void gather(const tk_attn_problem *p, tk_attn_tensor t, const uint16_t *x, int64_t b, int64_t h, int64_t rows,
                   double *out)
{
  for (int64_t s = 0; s < rows; ++s) {
    const uint16_t *row = x + tk_attn_offset(p, t, b, s, h);
    for (int64_t e = 0; e < p->d; ++e) out[s * p->d + e] = tk_ex_bf16_to_f32(row[e]);
  }
}

/* visible keys of query i: [0, n) */
static int64_t visible(const tk_attn_problem *p, int64_t i)
{
  if (!p->causal) return p->skv;
  const int64_t n = i + p->skv - p->sq + 1;
  return n < 0 ? 0 : n > p->skv ? p->skv : n;
}

/* Row i of one head: probabilities pr[0..n) (normalised), lse; returns n.
 * smax: max_j scale * sum_e |q_e k_je| (for the LSE bound). */
static int64_t row_probs(const tk_attn_problem *p, const double *Q, const double *K, int64_t i, double *pr,
                         double *lse, double *smax)
{
  const int64_t n = visible(p, i), d = p->d;
  double m = -INFINITY, sm = 0;
  for (int64_t j = 0; j < n; ++j) {
    double s = 0, a = 0;
    for (int64_t e = 0; e < d; ++e) {
      s += Q[i * d + e] * K[j * d + e];
      a += fabs(Q[i * d + e] * K[j * d + e]);
    }
    pr[j] = s * p->scale;
    m = fmax(m, pr[j]);
    sm = fmax(sm, a * p->scale);
  }
  double l = 0;
  for (int64_t j = 0; j < n; ++j) l += (pr[j] = exp(pr[j] - m));
  for (int64_t j = 0; j < n; ++j) pr[j] /= l;
  *lse = n ? m + log(l) : INFINITY;
  if (smax) *smax = sm;
  return n;
}

int tk_attn_check_fwd(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v,
                      const uint16_t *o, const float *lse, tk_attn_cmp cmp[2])
{
  if (!p || !q || !k || !v || !o || !lse || !cmp) return TK_ATTN_ERR_ARG;
  if (tk_attn_problem_error(p)) return TK_ATTN_ERR_PROBLEM;
  const int64_t d = p->d, group = p->hq / p->hkv;
  double *Q = malloc(sizeof(double) * p->sq * d), *K = malloc(sizeof(double) * p->skv * d);
  double *V = malloc(sizeof(double) * p->skv * d), *pr = malloc(sizeof(double) * p->skv);
  int rc = TK_ATTN_ERR_MEMORY;
  if (!Q || !K || !V || !pr) goto out;
  tk_cmp c[2];
  tk_cmp_init(&c[0]);
  tk_cmp_init(&c[1]);
  cmp[0].n = cmp[1].n = 0;
  const double eps = ldexp(1.0, -24);
  for (int64_t b = 0; b < p->b; ++b)
    for (int64_t h = 0; h < p->hq; ++h) {
      if (h % group == 0) {
        gather(p, TK_ATTN_K, k, b, h / group, p->skv, K);
        gather(p, TK_ATTN_V, v, b, h / group, p->skv, V);
      }
      gather(p, TK_ATTN_Q, q, b, h, p->sq, Q);
      for (int64_t i = 0; i < p->sq; ++i) {
        double rl, smax;
        const int64_t n = row_probs(p, Q, K, i, pr, &rl, &smax);
        const uint16_t *orow = o + tk_attn_offset(p, TK_ATTN_O, b, i, h);
        for (int64_t e = 0; e < d; ++e) {
          double ref = 0, mag = 0;
          for (int64_t j = 0; j < n; ++j) {
            ref += pr[j] * V[j * d + e];
            mag += pr[j] * fabs(V[j * d + e]);
          }
          const double bound = ldexp(mag, -8) + ldexp(fabs(ref), -8) + ldexp(1.0, -20);
          tk_cmp_add(&c[0], tk_ex_bf16_to_f32(orow[e]), ref, n ? bound : ldexp(1.0, -126)); /* no key: 0 */
          cmp[0].n++;
        }
        const double got = lse[(b * p->hq + h) * p->sq + i];
        if (!n) { /* +inf expected exactly */
          if (!(isinf(got) && got > 0)) c[1].nbad++, c[1].worst_ratio = INFINITY;
        } else {
          const double bound = 4.0 * (double)d * eps * smax + ldexp(fabs(rl), -20) + ldexp(1.0, -20);
          tk_cmp_add(&c[1], got, rl, bound);
        }
        cmp[1].n++;
      }
    }
  for (int i = 0; i < 2; ++i)
    cmp[i].max_abs = c[i].max_abs, cmp[i].worst_ratio = c[i].worst_ratio, cmp[i].nbad = c[i].nbad;
  rc = TK_ATTN_OK;
out:
  free(Q), free(K), free(V), free(pr);
  return rc;
}

int tk_attn_check_bwd(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v,
                      const uint16_t *dout, const uint16_t *dq, const uint16_t *dk, const uint16_t *dv,
                      tk_attn_cmp cmp[3])
{
  if (!p || !q || !k || !v || !dout || !dq || !dk || !dv || !cmp) return TK_ATTN_ERR_ARG;
  if (tk_attn_problem_error(p)) return TK_ATTN_ERR_PROBLEM;
  const int64_t d = p->d, group = p->hq / p->hkv, skv = p->skv;
  double *Q = malloc(sizeof(double) * p->sq * d), *K = malloc(sizeof(double) * skv * d);
  double *V = malloc(sizeof(double) * skv * d), *dO = malloc(sizeof(double) * p->sq * d);
  double *pr = malloc(sizeof(double) * skv), *dp = malloc(sizeof(double) * skv);
  double *dK = malloc(sizeof(double) * skv * d), *dV = malloc(sizeof(double) * skv * d);
  double *mK = malloc(sizeof(double) * skv * d), *mV = malloc(sizeof(double) * skv * d);
  double *O = malloc(sizeof(double) * d);
  int rc = TK_ATTN_ERR_MEMORY;
  if (!Q || !K || !V || !dO || !pr || !dp || !dK || !dV || !mK || !mV || !O) goto out;
  tk_cmp c[3];
  for (int i = 0; i < 3; ++i) tk_cmp_init(&c[i]), cmp[i].n = 0;
  for (int64_t b = 0; b < p->b; ++b)
    for (int64_t hk = 0; hk < p->hkv; ++hk) {
      gather(p, TK_ATTN_K, k, b, hk, skv, K);
      gather(p, TK_ATTN_V, v, b, hk, skv, V);
      memset(dK, 0, sizeof(double) * skv * d), memset(dV, 0, sizeof(double) * skv * d);
      memset(mK, 0, sizeof(double) * skv * d), memset(mV, 0, sizeof(double) * skv * d);
      for (int64_t h = hk * group; h < (hk + 1) * group; ++h) {
        gather(p, TK_ATTN_Q, q, b, h, p->sq, Q);
        gather(p, TK_ATTN_O, dout, b, h, p->sq, dO);
        for (int64_t i = 0; i < p->sq; ++i) {
          double rl;
          const int64_t n = row_probs(p, Q, K, i, pr, &rl, NULL);
          const double *g = dO + i * d;
          double D = 0, Dabs = 0;
          for (int64_t e = 0; e < d; ++e) {
            O[e] = 0;
            for (int64_t j = 0; j < n; ++j) O[e] += pr[j] * V[j * d + e];
            D += g[e] * O[e];
            Dabs += fabs(g[e] * O[e]);
          }
          for (int64_t j = 0; j < n; ++j) {
            double s = 0;
            for (int64_t e = 0; e < d; ++e) s += g[e] * V[j * d + e];
            dp[j] = s;
          }
          /* dQ row */
          const uint16_t *dqrow = dq + tk_attn_offset(p, TK_ATTN_Q, b, i, h);
          for (int64_t e = 0; e < d; ++e) {
            double ref = 0, mag = 0;
            for (int64_t j = 0; j < n; ++j) {
              ref += pr[j] * (dp[j] - D) * K[j * d + e];
              mag += pr[j] * (fabs(dp[j]) + Dabs) * fabs(K[j * d + e]);
            }
            ref *= p->scale, mag *= p->scale;
            tk_cmp_add(&c[0], tk_ex_bf16_to_f32(dqrow[e]), ref,
                       ldexp(mag, -6) + ldexp(fabs(ref), -8) + ldexp(1.0, -20));
            cmp[0].n++;
          }
          /* dK, dV contributions */
          for (int64_t j = 0; j < n; ++j) {
            const double ds = pr[j] * (dp[j] - D) * p->scale, dsm = pr[j] * (fabs(dp[j]) + Dabs) * p->scale;
            for (int64_t e = 0; e < d; ++e) {
              dK[j * d + e] += ds * Q[i * d + e];
              mK[j * d + e] += dsm * fabs(Q[i * d + e]);
              dV[j * d + e] += pr[j] * g[e];
              mV[j * d + e] += pr[j] * fabs(g[e]);
            }
          }
        }
      }
      for (int64_t j = 0; j < skv; ++j) {
        const uint16_t *dkrow = dk + tk_attn_offset(p, TK_ATTN_K, b, j, hk);
        const uint16_t *dvrow = dv + tk_attn_offset(p, TK_ATTN_V, b, j, hk);
        for (int64_t e = 0; e < d; ++e) {
          const double rk = dK[j * d + e], rv = dV[j * d + e];
          tk_cmp_add(&c[1], tk_ex_bf16_to_f32(dkrow[e]), rk,
                     ldexp(mK[j * d + e], -6) + ldexp(fabs(rk), -8) + ldexp(1.0, -20));
          tk_cmp_add(&c[2], tk_ex_bf16_to_f32(dvrow[e]), rv,
                     ldexp(mV[j * d + e], -7) + ldexp(fabs(rv), -8) + ldexp(1.0, -20));
          cmp[1].n++, cmp[2].n++;
        }
      }
    }
  for (int i = 0; i < 3; ++i)
    cmp[i].max_abs = c[i].max_abs, cmp[i].worst_ratio = c[i].worst_ratio, cmp[i].nbad = c[i].nbad;
  rc = TK_ATTN_OK;
out:
  free(Q), free(K), free(V), free(dO), free(pr), free(dp), free(dK), free(dV), free(mK), free(mV), free(O);
  return rc;
}

/* L = sum over the query heads of kv head group containing h (or head h
 * alone for Q) of sum_i O_i . dO_i, from double Q/K/V slices */
static double loss(const tk_attn_problem *p, const double *Q, const double *K, const double *V, const double *dO,
                   double *pr)
{
  double L = 0;
  for (int64_t i = 0; i < p->sq; ++i) {
    double rl;
    const int64_t n = row_probs(p, Q, K, i, pr, &rl, NULL);
    for (int64_t e = 0; e < p->d; ++e) {
      double oe = 0;
      for (int64_t j = 0; j < n; ++j) oe += pr[j] * V[j * p->d + e];
      L += oe * dO[i * p->d + e];
    }
  }
  return L;
}

int tk_attn_fd_grad(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v,
                    const uint16_t *dout, tk_attn_tensor t, int64_t b, int64_t s, int64_t h, int64_t e, double step,
                    double *fd)
{
  if (!p || !q || !k || !v || !dout || !fd) return TK_ATTN_ERR_ARG;
  if (tk_attn_problem_error(p) || t == TK_ATTN_O || b < 0 || b >= p->b || h < 0 ||
      h >= (t == TK_ATTN_Q ? p->hq : p->hkv) || s < 0 || s >= (t == TK_ATTN_Q ? p->sq : p->skv) || e < 0 ||
      e >= p->d || !(step > 0))
    return TK_ATTN_ERR_PROBLEM;
  const int64_t d = p->d, group = p->hq / p->hkv;
  double *Q = malloc(sizeof(double) * p->sq * d), *K = malloc(sizeof(double) * p->skv * d);
  double *V = malloc(sizeof(double) * p->skv * d), *dO = malloc(sizeof(double) * p->sq * d);
  double *pr = malloc(sizeof(double) * p->skv);
  int rc = TK_ATTN_ERR_MEMORY;
  if (!Q || !K || !V || !dO || !pr) goto out;
  {
    const int64_t hk = t == TK_ATTN_Q ? h / group : h;
    const int64_t h0 = t == TK_ATTN_Q ? h : hk * group, h1 = t == TK_ATTN_Q ? h + 1 : (hk + 1) * group;
    double *x = t == TK_ATTN_Q ? Q : t == TK_ATTN_K ? K : V;
    double Lp = 0, Lm = 0;
    gather(p, TK_ATTN_K, k, b, hk, p->skv, K);
    gather(p, TK_ATTN_V, v, b, hk, p->skv, V);
    for (int64_t hq = h0; hq < h1; ++hq) {
      gather(p, TK_ATTN_Q, q, b, hq, p->sq, Q);
      gather(p, TK_ATTN_O, dout, b, hq, p->sq, dO);
      const double x0 = x[s * d + e];
      x[s * d + e] = x0 + step;
      Lp += loss(p, Q, K, V, dO, pr);
      x[s * d + e] = x0 - step;
      Lm += loss(p, Q, K, V, dO, pr);
      x[s * d + e] = x0;
    }
    *fd = (Lp - Lm) / (2 * step);
  }
  rc = TK_ATTN_OK;
out:
  free(Q), free(K), free(V), free(dO), free(pr);
  return rc;
}
