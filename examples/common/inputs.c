/* inputs.c: see inputs.h. */
#include "inputs.h"

#include <math.h>

#include <tk/types.h>

void tk_rng_seed(tk_rng *r, uint64_t seed)
{
  r->s = seed * 0x9e3779b97f4a7c15ull + 0x1234567ull; /* spread small seeds; never 0 */
  if (!r->s) r->s = 1;
}

uint64_t tk_rng_next(tk_rng *r)
{
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 2685821657736338717ull;
}

uint16_t tk_rng_bf16(tk_rng *r)
{
  const double u = (double)(tk_rng_next(r) >> 11) / 9007199254740992.0; /* 53 bits / 2^53 */
  return tk_f32_to_bf16((float)(2.0 * u - 1.0));
}

void tk_rng_fill_bf16(tk_rng *r, uint16_t *out, size_t n)
{
  for (size_t i = 0; i < n; ++i) out[i] = tk_rng_bf16(r);
}

/* OCP e4m3: the 127 finite magnitudes ascending are codes 0..126 (value
 * grows with the code), so nearest-even is a binary search for the
 * neighbours and a tie goes to the even code; beyond 448 + half a step
 * (464) NaN, as tk_f32_to_ocp_e4m3_ref */
uint8_t tk_ex_f32_to_ocp_e4m3(float f)
{
  const uint8_t sign = (tk_f32_bits(f) >> 24) & 0x80;
  const float a = f < 0 ? -f : f;
  if (a != a) return 0x7f;
  if (a > 464.0f) return (uint8_t)(sign | 0x7f);
  int lo = 0, hi = 126; /* largest code with value <= a */
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (tk_ocp_e4m3_to_f32_ref((uint8_t)mid) <= a) lo = mid;
    else hi = mid - 1;
  }
  int c = lo;
  if (lo < 126) {
    const float dl = a - tk_ocp_e4m3_to_f32_ref((uint8_t)lo), dh = tk_ocp_e4m3_to_f32_ref((uint8_t)(lo + 1)) - a;
    if (dh < dl || (dh == dl && (lo & 1))) c = lo + 1;
  }
  return (uint8_t)(sign | c);
}
static uint8_t fp8_encode(float f, int ocp) { return ocp ? tk_ex_f32_to_ocp_e4m3(f) : tk_f32_to_fp8e4_ref(f); }
uint8_t tk_rng_fp8e4(tk_rng *r, int ocp)
{
  const double u = (double)(tk_rng_next(r) >> 11) / 9007199254740992.0;
  return fp8_encode((float)(2.0 * u - 1.0), ocp);
}
int tk_fp8e4_edges(const float **vals, int ocp)
{
  static const float fnuz[] = {-0.0f,  0x1p-10f, -0x1p-10f, 0x1.cp-8f, -0x1.cp-8f, 0x1.8p-10f, 0x1p-7f,
                               240.0f, -240.0f,  245.0f,    0x1p-12f,  -0x1p-12f};
  static const float ocpv[] = {-0.0f,  0x1p-9f, -0x1p-9f, 0x1.cp-7f, -0x1.cp-7f, 0x1.8p-9f, 0x1p-6f,
                               448.0f, -448.0f, 460.0f,   0x1p-11f,  -0x1p-11f};
  *vals = ocp ? ocpv : fnuz;
  return ocp ? (int)(sizeof ocpv / sizeof ocpv[0]) : (int)(sizeof fnuz / sizeof fnuz[0]);
}
void tk_rng_fill_fp8e4(tk_rng *r, uint8_t *out, size_t n, int edges, int ocp)
{
  const float *ev;
  const int ne = tk_fp8e4_edges(&ev, ocp);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t x = tk_rng_fp8e4(r, ocp); /* drawn for every element: the same stream with or without edges */
    out[i] = edges && i % 4 == 0 ? fp8_encode(ev[(i / 4) % (size_t)ne], ocp) : x;
  }
}
float tk_ex_bf16_to_f32(uint16_t h) { return tk_bf16_to_f32(h); }
uint16_t tk_ex_f32_to_bf16(float f) { return tk_f32_to_bf16(f); }

uint16_t tk_ex_bf16_perturb(uint16_t h)
{
  const float v = tk_ex_bf16_to_f32(h);
  return tk_ex_f32_to_bf16(v + 0.25f * fmaxf(1.0f, fabsf(v)));
}
