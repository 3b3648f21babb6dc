/* fpconv.h: host reference conversions between f32 and the narrow float
 * formats, written from the format definitions (IEEE 754 binary16; bfloat16 =
 * the top half of binary32; gfx942's FP8/BF8 = E4M3FNUZ/E5M2FNUZ, bias 8/16,
 * 0x80 the only NaN, no infinities: CDNA3 ISA guide, "FP8 and BF8", and
 * LLVM APFloat's Float8E4M3FNUZ/Float8E5M2FNUZ). Round to nearest even.
 */
#ifndef TKS_FPCONV_H
#define TKS_FPCONV_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t fc_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float fc_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* binary16 -> f32 (exact) */
static inline float fc_h2f(uint16_t h)
{
  uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
  float v;
  if (e == 31) v = m ? NAN : INFINITY;
  else if (e == 0) v = ldexpf((float)m, -24);
  else v = ldexpf((float)(m | 1024), (int)e - 25);
  return s ? -v : v;
}

/* f32 -> binary16, round to nearest even, overflow to inf, NaN stays NaN */
static inline uint16_t fc_f2h(float f)
{
  uint32_t u = fc_bits(f);
  uint16_t s = (uint16_t)((u >> 16) & 0x8000);
  if (isnan(f)) return (uint16_t)(s | 0x7e00);
  float a = fabsf(f);
  if (a >= 65520.0f) return (uint16_t)(s | 0x7c00); /* >= max + half ulp rounds to inf */
  if (a < ldexpf(1.0f, -14)) {
    /* subnormal: units of 2^-24, nearest even */
    float q = a * 16777216.0f; /* exact: scaling by a power of two */
    float r = rintf(q);        /* host default rounding: nearest even */
    return (uint16_t)(s | (uint16_t)r);
  }
  int e;
  frexpf(a, &e);                        /* a = f * 2^e, f in [0.5,1) */
  float q = ldexpf(a, 11 - e);          /* 11 significant bits before the point */
  float r = rintf(q);                   /* in [1024, 2048] */
  int ee = e - 1 + 15;                  /* biased exponent of a */
  uint32_t mant = (uint32_t)r;
  if (mant == 2048) { mant = 1024; ee++; }
  if (ee >= 31) return (uint16_t)(s | 0x7c00);
  return (uint16_t)(s | (uint16_t)(ee << 10) | (uint16_t)(mant - 1024));
}

static inline float fc_bf2f(uint16_t b) { return fc_float((uint32_t)b << 16); }

/* f32 -> bfloat16, round to nearest even (NaN: any quiet NaN) */
static inline uint16_t fc_f2bf(float f)
{
  uint32_t u = fc_bits(f);
  if (isnan(f)) return (uint16_t)((u >> 16) | 0x40);
  uint32_t lsb = (u >> 16) & 1;
  return (uint16_t)((u + 0x7fffu + lsb) >> 16);
}

/* FP8 E4M3FNUZ (bias 8) and BF8 E5M2FNUZ (bias 16) -> f32, exact */
static inline float fc_fp8_to_f(uint8_t v)
{
  if (v == 0x80) return NAN;
  int s = v >> 7, e = (v >> 3) & 15, m = v & 7;
  float r = e ? ldexpf((float)(8 + m), e - 8 - 3) : ldexpf((float)m, 1 - 8 - 3);
  return s ? -r : r;
}

static inline float fc_bf8_to_f(uint8_t v)
{
  if (v == 0x80) return NAN;
  int s = v >> 7, e = (v >> 2) & 31, m = v & 3;
  float r = e ? ldexpf((float)(4 + m), e - 16 - 2) : ldexpf((float)m, 1 - 16 - 2);
  return s ? -r : r;
}

#endif
