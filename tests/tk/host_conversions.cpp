// Host test of tk/types.h conversions against independent references built
// from double arithmetic (nearest representable value, ties to even):
// f32->bf16 (incl. NaN/inf/ties/subnormals), bf16->f32, pack, fp8 e4m3/e5m2
// FNUZ decode of all 256 codes (value formula from the FNUZ definition) and
// encode over many values (ties, subnormals, overflow -> NaN 0x80, -0 -> 0).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tk/types.h"

static int g_fail = 0;
#define CHECK(c, ...) do { if (!(c)) { if (g_fail++ < 20) { printf("FAIL: " __VA_ARGS__); printf("\n"); } } } while (0)

static uint32_t rng_state = 12345;
static uint32_t rnd(void) { rng_state ^= rng_state << 13; rng_state ^= rng_state >> 17; rng_state ^= rng_state << 5; return rng_state; }

static float from_bits(uint32_t u) { return tk_bits_f32(u); }

// reference bf16: among the two bf16 neighbours of x pick the nearest, ties even
static uint16_t bf16_reference(float x) {
  uint32_t u = tk_f32_bits(x);
  if (isnan(x)) return 0xffff;  // marker: any NaN accepted
  uint16_t lo = (uint16_t)(u >> 16), hi = (uint16_t)(lo + 1);
  if ((u & 0xffff) == 0) return lo;
  double dx = x, dl = tk_bits_f32((uint32_t)lo << 16);
  double dh = ((hi & 0x7f80) == 0x7f80 && (hi & 0x7f) == 0) ? (x > 0 ? ldexp(1.0, 128) : -ldexp(1.0, 128))
                                                           : (double)tk_bits_f32((uint32_t)hi << 16);
  double el = fabs(dx - dl), eh = fabs(dh - dx);
  if (el < eh) return lo;
  if (eh < el) return hi;
  return (lo & 1) ? hi : lo;
}

// fp8 FNUZ value of code v by definition: bias b, m mantissa bits
static double fp8_value(int v, int m, int bias) {
  int s = v >> 7, e = (v >> m) & ((1 << (7 - m)) - 1), f = v & ((1 << m) - 1);
  double r = e == 0 ? ldexp((double)f, 1 - bias - m) : ldexp((double)((1 << m) + f), e - bias - m);
  return s ? -r : r;
}
static int fp8_reference(float x, int m, int bias) {
  if (isnan(x) || isinf(x)) return 0x80;
  double ax = fabs((double)x);
  // largest finite: code 0x7f
  double maxv = fp8_value(0x7f, m, bias), ulp = maxv - fp8_value(0x7e, m, bias);
  if (ax >= maxv + ulp / 2) return 0x80;
  int best = 0;
  double be = ax;
  for (int c = 1; c <= 0x7f; c++) {
    double e = fabs(fp8_value(c, m, bias) - ax);
    if (e < be || (e == be && (c & 1) == 0)) { best = c; be = e; }
  }
  if (best == 0) return 0;
  return x < 0 ? (best | 0x80) : best;
}

int main(void) {
  // --- bf16 ---
  const uint32_t special[] = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000,
                              0x7fc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0x00000001, 0x00008000,
                              0x00018000, 0x3f808000, 0x3f818000, 0x3f80ffff, 0x7f7fffff, 0x7f7f8000,
                              0xff7f8000, 0x007fffff, 0x3f807fff, 0x40490fdb};
  int nspec = (int)(sizeof special / sizeof special[0]);
  for (int n = 0; n < nspec + 2000000; n++) {
    uint32_t u = n < nspec ? special[n] : rnd();
    if (n >= nspec && (n & 3) == 0) u = (u & 0xffff0000u) | 0x8000u;  // exact ties
    float x = from_bits(u);
    uint16_t got = tk_f32_to_bf16(x), ref = bf16_reference(x);
    if (ref == 0xffff) CHECK((got & 0x7f80) == 0x7f80 && (got & 0x7f) != 0, "bf16(NaN %08x) = %04x not NaN", u, got);
    else CHECK(got == ref, "bf16(%08x) = %04x, expected %04x", u, got, ref);
  }
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = tk_bf16_to_f32((uint16_t)h);
    CHECK(tk_f32_bits(f) == h << 16, "bf16->f32 %04x", h);
  }
  CHECK(tk_pack_bf16x2(1.0f, -2.0f) == 0xc0003f80u, "pack_bf16x2 order");
  // --- fp8 decode, all codes ---
  for (int v = 0; v < 256; v++) {
    float e4 = tk_fp8e4_to_f32_ref((uint8_t)v), e5 = tk_fp8e5_to_f32_ref((uint8_t)v);
    if (v == 0x80) { CHECK(isnan(e4) && isnan(e5), "0x80 must be NaN"); continue; }
    CHECK((double)e4 == fp8_value(v, 3, 8), "e4m3 decode %02x: %g vs %g", v, e4, fp8_value(v, 3, 8));
    CHECK((double)e5 == fp8_value(v, 2, 16), "e5m2 decode %02x: %g vs %g", v, e5, fp8_value(v, 2, 16));
  }
  CHECK(tk_fp8e4_to_f32_ref(0x7f) == 240.0f, "e4m3 FNUZ max is 240");
  CHECK(tk_fp8e5_to_f32_ref(0x7f) == 57344.0f, "e5m2 FNUZ max is 57344");
  // --- fp8 encode ---
  for (int n = 0; n < 400000; n++) {
    float x;
    if (n < 256 * 3) {  // every code's value, and midpoints to its neighbours (ties)
      int v = n / 3, k = n % 3;
      if (v == 0x80) continue;
      double a = fp8_value(v, 3, 8), b = fp8_value((v & 0x7f) == 0x7f ? v : v + 1, 3, 8);
      x = (float)(k == 0 ? a : k == 1 ? (a + b) / 2 : a * 1.0000001);
    } else if (n < 2000) {
      int v = (n - 768) % 256;
      if (v == 0x80) continue;
      double a = fp8_value(v, 2, 16), b = fp8_value((v & 0x7f) == 0x7f ? v : v + 1, 2, 16);
      x = (float)((n & 1) ? (a + b) / 2 : a);
    } else {
      uint32_t r = rnd();
      // exponents in the interesting range [2^-24, 2^17]
      x = ldexpf((float)(r & 0xffffff) / (float)0x1000000 + 0.5f, (int)((r >> 24) % 42) - 24) * ((r & 1) ? -1.f : 1.f);
    }
    int g4 = tk_f32_to_fp8e4_ref(x), r4 = fp8_reference(x, 3, 8);
    int g5 = tk_f32_to_fp8e5_ref(x), r5 = fp8_reference(x, 2, 16);
    CHECK(g4 == r4, "e4m3(%a) = %02x, expected %02x", x, g4, r4);
    CHECK(g5 == r5, "e5m2(%a) = %02x, expected %02x", x, g5, r5);
  }
  const float sp[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, 1e30f, -1e30f, 240.0f, 247.99f, 248.0f, 1e-30f};
  for (float x : sp) {
    CHECK(tk_f32_to_fp8e4_ref(x) == fp8_reference(x, 3, 8), "e4m3 special %g", x);
    CHECK(tk_f32_to_fp8e5_ref(x) == fp8_reference(x, 2, 16), "e5m2 special %g", x);
  }
  CHECK(tk_f32_to_fp8e4_ref(-0.0f) == 0, "-0 -> 0 (FNUZ has no -0)");
  CHECK(tk_f32_to_fp8e4_ref(248.0f) == 0x80, "248 (tie above max) -> NaN");
  // --- OCP E4M3FN (gfx950's fp8): bias 7, S.1111.111 NaN, no inf, max 448 ---
  for (int c = 0; c < 256; c++) {
    int e = (c >> 3) & 15, m = c & 7;
    double want = (e == 15 && m == 7) ? NAN : (e ? ldexp(1.0 + m / 8.0, e - 7) : ldexp(m / 8.0, -6));
    if (c & 0x80) want = -want;
    float got = tk_ocp_e4m3_to_f32_ref((uint8_t)c);
    if (isnan(want)) CHECK(isnan(got), "ocp e4m3 decode %02x: %g, want NaN", c, got);
    else {
      CHECK((double)got == want, "ocp e4m3 decode %02x: %g, want %g", c, got, want);
      CHECK(tk_f32_to_ocp_e4m3_ref(got) == c, "ocp e4m3 encode(decode(%02x)) = %02x", c, tk_f32_to_ocp_e4m3_ref(got));
    }
  }
  // values from the OCP 8-bit floating point spec's E4M3 table, ties to even
  const struct { float x; int code; } ocp[] = {
    {1.0f, 0x38}, {448.0f, 0x7e}, {-448.0f, 0xfe}, {0x1p-9f, 0x01}, {0x1p-6f, 0x08},
    {0x1p-10f, 0x00}, {0x3p-10f, 0x02}, {464.0f, 0x7e}, {465.0f, 0x7f}, {-1e9f, 0xff},
    {NAN, 0x7f}, {-0.0f, 0x80}, {1.0625f, 0x38}, {1.1875f, 0x3a}};
  for (auto &t : ocp)
    CHECK(tk_f32_to_ocp_e4m3_ref(t.x) == t.code, "ocp e4m3 encode %a = %02x, want %02x", t.x,
          tk_f32_to_ocp_e4m3_ref(t.x), t.code);
  // --- OCP E5M2 (gfx950's bf8): bias 15, S.11111.00 inf, S.11111.xx NaN ---
  for (int c = 0; c < 256; c++) {
    int e = (c >> 2) & 31, m = c & 3;
    double want = e == 31 ? (m ? NAN : INFINITY) : (e ? ldexp(1.0 + m / 4.0, e - 15) : ldexp(m / 4.0, -14));
    if (c & 0x80) want = -want;
    float got = tk_ocp_e5m2_to_f32_ref((uint8_t)c);
    if (isnan(want)) CHECK(isnan(got), "ocp e5m2 decode %02x: %g, want NaN", c, got);
    else {
      CHECK((double)got == want, "ocp e5m2 decode %02x: %g, want %g", c, got, want);
      CHECK(tk_f32_to_ocp_e5m2_ref(got) == c, "ocp e5m2 encode(decode(%02x)) = %02x", c, tk_f32_to_ocp_e5m2_ref(got));
    }
  }
  // ties to even; 61440 = 57344 + half a step rounds to 2^16: inf (unsaturated)
  const struct { float x; int code; } ocp5[] = {
    {1.0f, 0x3c}, {57344.0f, 0x7b}, {-57344.0f, 0xfb}, {61439.0f, 0x7b}, {61440.0f, 0x7c},
    {-1e9f, 0xfc}, {INFINITY, 0x7c}, {NAN, 0x7f}, {-0.0f, 0x80}, {0x1p-16f, 0x01}, {0x1p-17f, 0x00},
    {0x3p-17f, 0x02}, {1.125f, 0x3c}, {1.375f, 0x3e}, {0x1p-14f, 0x04}};
  for (auto &t : ocp5)
    CHECK(tk_f32_to_ocp_e5m2_ref(t.x) == t.code, "ocp e5m2 encode %a = %02x, want %02x", t.x,
          tk_f32_to_ocp_e5m2_ref(t.x), t.code);
  printf("%d failed\n", g_fail);
  return g_fail ? 1 : 0;
}
