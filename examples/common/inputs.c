/* inputs.c: see inputs.h. */
#include "inputs.h"

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

uint8_t tk_rng_fp8e4(tk_rng *r)
{
  const double u = (double)(tk_rng_next(r) >> 11) / 9007199254740992.0;
  return tk_f32_to_fp8e4_ref((float)(2.0 * u - 1.0));
}
int tk_fp8e4_edges(const float **vals)
{
  static const float v[] = {-0.0f,  0x1p-10f, -0x1p-10f, 0x1.cp-8f, -0x1.cp-8f, 0x1.8p-10f, 0x1p-7f,
                            240.0f, -240.0f,  245.0f,    0x1p-12f,  -0x1p-12f};
  *vals = v;
  return (int)(sizeof v / sizeof v[0]);
}
void tk_rng_fill_fp8e4(tk_rng *r, uint8_t *out, size_t n, int edges)
{
  const float *ev;
  const int ne = tk_fp8e4_edges(&ev);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t x = tk_rng_fp8e4(r); /* drawn for every element: the same stream with or without edges */
    out[i] = edges && i % 4 == 0 ? tk_f32_to_fp8e4_ref(ev[(i / 4) % (size_t)ne]) : x;
  }
}
float tk_ex_bf16_to_f32(uint16_t h) { return tk_bf16_to_f32(h); }
uint16_t tk_ex_f32_to_bf16(float f) { return tk_f32_to_bf16(f); }
