/* rotary_ref.c: the CPU double-precision reference of tk_rotary.h and the
 * per-element comparison. */
#include <math.h>

#include "inputs.h"
#include "tk_rotary.h"

int tk_rotary_check(const tk_rotary_problem *p, const uint16_t *x, const uint16_t *cos_t, const uint16_t *sin_t,
                    const uint16_t *o, tk_rotary_cmp *cmp)
{
  if (tk_rotary_problem_error(p)) return TK_ROTARY_ERR_PROBLEM;
  if (!x || !cos_t || !sin_t || !o || !cmp) return TK_ROTARY_ERR_ARG;
  *cmp = (tk_rotary_cmp){0, 0, 0, 0};
  const int64_t half = p->d / 2;
  for (int64_t b = 0; b < p->b; ++b)
    for (int64_t h = 0; h < p->h; ++h)
      for (int64_t s = 0; s < p->s; ++s) {
        const uint16_t *xr = x + b * p->xs[0] + h * p->xs[1] + s * p->xs[2];
        const uint16_t *orow = o + b * p->os[0] + h * p->os[1] + s * p->os[2];
        for (int64_t i = 0; i < half; ++i) {
          const double c = tk_ex_bf16_to_f32(cos_t[s * half + i]), sn = tk_ex_bf16_to_f32(sin_t[s * half + i]);
          const int64_t ia = p->layout == TK_ROTARY_HALF ? i : 2 * i;
          const int64_t ib = p->layout == TK_ROTARY_HALF ? i + half : 2 * i + 1;
          const double xa = tk_ex_bf16_to_f32(xr[ia]), xb = tk_ex_bf16_to_f32(xr[ib]);
          const double ref[2] = {xa * c - xb * sn, xb * c + xa * sn};
          const double mag[2] = {fabs(xa * c) + fabs(xb * sn), fabs(xb * c) + fabs(xa * sn)};
          const int64_t at[2] = {ia, ib};
          for (int k = 0; k < 2; ++k) {
            const double got = tk_ex_bf16_to_f32(orow[at[k]]);
            const double err = fabs(got - ref[k]);
            const double bound = ldexp(fabs(ref[k]), -8) + ldexp(mag[k], -22) + ldexp(1.0, -30);
            cmp->n++;
            if (err > cmp->max_abs) cmp->max_abs = err;
            if (err / bound > cmp->worst_ratio) cmp->worst_ratio = err / bound;
            if (!(err <= bound)) cmp->nbad++;
          }
        }
      }
  return TK_ROTARY_OK;
}
