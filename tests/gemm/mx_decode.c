/* mx_decode: every code of every OCP MX element format and every E8M0 scale
 * byte, decoded by examples/gemm/gemm_mx_ref.h (the gemm check's reference),
 * against the OCP Microscaling Formats (MX) Specification v1.0:
 *  - section 5.3.3 / table "FP4 E2M1": the 8 magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6 written out;
 *  - section 5.3.2 / tables of FP6 E2M3, E3M2 and 5.3.1 / OCP FP8 E4M3, E5M2: exponent
 *    bias, max normal, min normal, max subnormal, min subnormal, and the
 *    inf/NaN encodings (E4M3: S.1111.111 NaN, no inf; E5M2: S.11111.00 inf,
 *    S.11111.{01,10,11} NaN; FP6/FP4: none);
 *  - section 5.4 / E8M0: 2^(s-127), 0xff NaN.
 * Every code is checked: sign symmetry, strict increase over the positive
 * codes, and the spacing the spec implies (2^(e - bias - M) in binade e,
 * 2^(1 - bias - M) among subnormals).  Exit 0 all pass, 1 a failure. */
#include <math.h>
#include <stdio.h>

#include "gemm_mx_ref.h"

static int fails = 0;
#define EXPECT(cond, ...)            \
  do {                               \
    if (!(cond)) {                   \
      printf("FAIL: " __VA_ARGS__);  \
      printf("\n");                  \
      ++fails;                       \
    }                                \
  } while (0)

typedef struct spec {
  const char *name;
  int fmt, e_bits, m_bits, bias;
  double max_normal, min_normal, max_sub, min_sub;
} spec;

/* the values the spec's tables list */
static const spec specs[] = {
    {"E4M3", GEMM_MX_E4M3, 4, 3, 7, 448.0, 0x1p-6, 0.875 * 0x1p-6, 0x1p-9},
    {"E5M2", GEMM_MX_E5M2, 5, 2, 15, 57344.0, 0x1p-14, 0.75 * 0x1p-14, 0x1p-16},
    {"E2M3", GEMM_MX_E2M3, 2, 3, 1, 7.5, 1.0, 0.875, 0.125},
    {"E3M2", GEMM_MX_E3M2, 3, 2, 3, 28.0, 0.25, 0.1875, 0.0625},
    {"E2M1", GEMM_MX_E2M1, 2, 1, 1, 6.0, 1.0, 0.5, 0.5},
};

static int is_special(const spec *s, unsigned c)
{
  const unsigned mag = c & ((1u << (s->e_bits + s->m_bits)) - 1u);
  if (s->fmt == GEMM_MX_E4M3) return mag == 0x7f;
  if (s->fmt == GEMM_MX_E5M2) return mag >= 0x7c;
  return 0;
}

int main(void)
{
  /* FP4 E2M1: the whole table */
  static const double fp4[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
  for (unsigned c = 0; c < 16; ++c) {
    const double want = c & 8 ? -fp4[c & 7] : fp4[c & 7];
    const double got = gemm_mx_decode(GEMM_MX_E2M1, c);
    EXPECT(got == want && signbit(got) == signbit(want), "E2M1 0x%x: %g, spec %g", c, got, want);
  }
  for (size_t f = 0; f < sizeof specs / sizeof specs[0]; ++f) {
    const spec *s = &specs[f];
    const int nb = 1 + s->e_bits + s->m_bits;
    const unsigned sign = 1u << (nb - 1);
    double maxv = 0, min_normal = INFINITY, max_sub = 0, min_sub = INFINITY, prev = -1;
    int nan_codes = 0, inf_codes = 0;
    for (unsigned c = 0; c < (1u << nb); ++c) {
      const double v = gemm_mx_decode(s->fmt, c);
      if (is_special(s, c)) {
        const int inf_code = s->fmt == GEMM_MX_E5M2 && (c & (sign - 1)) == 0x7c;
        EXPECT(inf_code ? isinf(v) && (v < 0) == !!(c & sign) : isnan(v), "%s 0x%x: special code decodes to %g",
               s->name, c, v);
        nan_codes += isnan(v), inf_codes += isinf(v) != 0;
        continue;
      }
      EXPECT(isfinite(v), "%s 0x%x: %g is not finite", s->name, c, v);
      /* sign symmetry: the sign bit only negates (0x80-style codes are -0) */
      const double pos = gemm_mx_decode(s->fmt, c & (sign - 1));
      EXPECT(c & sign ? (v == -pos && signbit(v)) : v == pos, "%s 0x%x: %g vs positive %g", s->name, c, v, pos);
      if (c & sign) continue;
      /* positive codes in order: strictly increasing, each step the ulp of
       * the previous code's binade (subnormals share binade 1's) */
      const unsigned e = c >> s->m_bits, pe = (c - 1) >> s->m_bits;
      const double step = ldexp(1.0, (pe > 1 ? (int)pe : 1) - s->bias - s->m_bits);
      if (c > 0) EXPECT(v - prev == step, "%s 0x%x: %g after %g, step %g, want %g", s->name, c, v, prev, v - prev, step);
      prev = v;
      if (v > maxv) maxv = v;
      if (e == 0 && v > 0) {
        if (v > max_sub) max_sub = v;
        if (v < min_sub) min_sub = v;
      }
      if (e > 0 && v < min_normal) min_normal = v;
    }
    EXPECT(maxv == s->max_normal, "%s max normal %g, spec %g", s->name, maxv, s->max_normal);
    EXPECT(min_normal == s->min_normal, "%s min normal %g, spec %g", s->name, min_normal, s->min_normal);
    EXPECT(max_sub == s->max_sub, "%s max subnormal %g, spec %g", s->name, max_sub, s->max_sub);
    EXPECT(min_sub == s->min_sub, "%s min subnormal %g, spec %g", s->name, min_sub, s->min_sub);
    EXPECT(gemm_mx_decode(s->fmt, 0) == 0.0 && !signbit(gemm_mx_decode(s->fmt, 0)), "%s +0", s->name);
    const int want_nan = s->fmt == GEMM_MX_E4M3 ? 2 : s->fmt == GEMM_MX_E5M2 ? 6 : 0;
    const int want_inf = s->fmt == GEMM_MX_E5M2 ? 2 : 0;
    EXPECT(nan_codes == want_nan && inf_codes == want_inf, "%s: %d NaN and %d inf codes, spec %d and %d", s->name,
           nan_codes, inf_codes, want_nan, want_inf);
    printf("ok: %s, all %u codes (max %g, min normal %g, subnormals %g..%g)\n", s->name, 1u << nb, maxv, min_normal,
           min_sub, max_sub);
  }
  /* E8M0: every byte */
  for (unsigned s = 0; s < 256; ++s) {
    const double v = gemm_mx_scale((uint8_t)s);
    if (s == 0xff) EXPECT(isnan(v), "E8M0 0xff is NaN, got %g", v);
    else EXPECT(v == ldexp(1.0, (int)s - 127), "E8M0 0x%02x: %g", s, v);
  }
  EXPECT(gemm_mx_scale(0x00) == 0x1p-127 && gemm_mx_scale(0x7f) == 1.0 && gemm_mx_scale(0xfe) == 0x1p127,
         "E8M0 extremes 0x00 = 2^-127, 0x7f = 1, 0xfe = 2^127");
  printf("ok: E8M0, all 256 bytes\n");
  /* fp4 packing: element 2i in the low nibble */
  const uint8_t pk[2] = {0x2f, 0x71}; /* elements 0xf, 0x2, 0x1, 0x7 */
  EXPECT(gemm_mx_code(GEMM_MX_E2M1, pk, 4, 0, 0) == 0xf && gemm_mx_code(GEMM_MX_E2M1, pk, 4, 0, 1) == 0x2 &&
             gemm_mx_code(GEMM_MX_E2M1, pk, 4, 0, 2) == 0x1 && gemm_mx_code(GEMM_MX_E2M1, pk, 4, 0, 3) == 0x7,
         "fp4 nibble order");
  /* the reference product: a NaN scale poisons its row, scales multiply */
  {
    uint8_t a[32], b[32], sa[1] = {0x7f + 3}, sb[1] = {0x7f - 1};
    for (int k = 0; k < 32; ++k) a[k] = 0x38, b[k] = 0x40; /* E4M3 1.0 and 2.0 */
    double ref, mag;
    EXPECT(gemm_mx_ref_matmul(GEMM_MX_E4M3, 1, 1, 32, a, 32, sa, b, 32, sb, &ref, &mag) == 0 && ref == 32 * 2.0 * 8 * 0.5,
           "reference 1x1x32: %g, want 256", ref);
    sa[0] = 0xff;
    EXPECT(gemm_mx_ref_matmul(GEMM_MX_E4M3, 1, 1, 32, a, 32, sa, b, 32, sb, &ref, &mag) == 0 && isnan(ref),
           "reference with a NaN scale: %g", ref);
  }
  printf(fails ? "mx_decode: %d FAILED\n" : "mx_decode: all passed\n", fails);
  return fails ? 1 : 0;
}
