// scalef32.hip: gfx950's MX conversions v_cvt_scalef32_* against host models
// from the OCP Microscaling (MX) spec v1.0 element formats (fp8 E4M3 bias 7
// max 448, bf8 E5M2 bias 15, fp6 E2M3 bias 1 max 7.5, bf6 E3M2 bias 3 max 28,
// fp4 E2M1 bias 1 max 6) and the instructions' descriptions (LLVM/MLIR ROCDL:
// up-conversions multiply by, down-conversions divide by, the exponent part
// of the f32 scale, i.e. 2^(biased exponent - 127); the scale's mantissa is
// ignored). The host encodes by searching every code for the nearest value
// (ties to the even code), fp6/fp4 saturate; stochastic-rounding forms run
// with seed 0, which the ISA's "add the random bits below the kept mantissa,
// then cut" makes a truncation toward zero. Operand selects: op_sel[1:0] pick
// the source byte (op_sel[0] the source word for packed pairs), op_sel[3]
// the destination half, op_sel[3:2] the destination byte (CDNA4 ISA guide /
// LLVM's encodings). Run with tksim --arch=gfx950; the gfx942 code object
// holds an empty kernel.
#include "vtest.h"

typedef float f32x32 __attribute__((ext_vector_type(32)));
typedef float f32x16 __attribute__((ext_vector_type(16)));
typedef float f32x2 __attribute__((ext_vector_type(2)));
typedef uint32_t u32x16 __attribute__((ext_vector_type(16)));
typedef uint32_t u32x6 __attribute__((ext_vector_type(6)));

enum { IN_B = 0, IN_FP6 = 4, IN_F32 = 10, IN_H = 42, IN_SCALE = 58, IN_DW = 59 };
enum {
  O_F32_FP8 = 0, O_F32_BF8_B3 = 1, O_F16_FP8 = 2, O_PK_F32_FP8 = 3 /* 2 */, O_PK_F16_BF8 = 5, O_PK_BF16_FP8 = 6,
  O_PK_F32_FP4 = 7 /* 2 */, O_PK_F16_FP4 = 9, O_PK_BF16_FP4 = 10, O_PK32_F32_FP6 = 11 /* 32 */, O_PK32_F16_BF6 = 43 /* 16 */,
  O_PK32_BF16_FP6 = 59 /* 16 */, O_PK_FP8_F32 = 75, O_PK_BF8_F32 = 76, O_PK_FP8_F16 = 77, O_PK_BF8_BF16 = 78,
  O_SR_FP8_F32 = 79, O_SR_BF8_F16 = 80, O_PK_FP4_F32 = 81, O_PK_FP4_F16 = 82, O_SR_PK_FP4_F32 = 83,
  O_2XPK16_FP6 = 84 /* 6 */, O_PK32_BF6_F16 = 90 /* 6 */, O_SR_PK32_FP6 = 96 /* 6 */, O_DW = 102
};

__global__ void k(const uint32_t *in, uint32_t *out)
{
#if defined(__gfx950__)
  int t = threadIdx.x;
  const uint32_t *p = in + IN_DW * t;
  uint32_t *o = out + O_DW * t;
  const uint32_t b = p[IN_B], b1 = p[IN_B + 1];
  const float sc = __uint_as_float(p[IN_SCALE]);
  uint32_t r;
  f32x2 r2;
  asm volatile("v_cvt_scalef32_f32_fp8 %0, %1, %2" : "=v"(r) : "v"(b), "v"(sc)); o[O_F32_FP8] = r;
  asm volatile("v_cvt_scalef32_f32_bf8 %0, %1, %2 op_sel:[1,1,0]" : "=v"(r) : "v"(b), "v"(sc)); o[O_F32_BF8_B3] = r;
  r = 0xabcd1234u; asm volatile("v_cvt_scalef32_f16_fp8 %0, %1, %2 op_sel:[1,0,1]" : "+v"(r) : "v"(b), "v"(sc)); o[O_F16_FP8] = r;
  asm volatile("v_cvt_scalef32_pk_f32_fp8 %0, %1, %2 op_sel:[1,0,0]" : "=v"(r2) : "v"(b), "v"(sc)); o[O_PK_F32_FP8] = __float_as_uint(r2.x); o[O_PK_F32_FP8 + 1] = __float_as_uint(r2.y);
  asm volatile("v_cvt_scalef32_pk_f16_bf8 %0, %1, %2" : "=v"(r) : "v"(b1), "v"(sc)); o[O_PK_F16_BF8] = r;
  asm volatile("v_cvt_scalef32_pk_bf16_fp8 %0, %1, %2 op_sel:[1,0,0]" : "=v"(r) : "v"(b1), "v"(sc)); o[O_PK_BF16_FP8] = r;
  asm volatile("v_cvt_scalef32_pk_f32_fp4 %0, %1, %2 op_sel:[0,1,0]" : "=v"(r2) : "v"(b), "v"(sc)); o[O_PK_F32_FP4] = __float_as_uint(r2.x); o[O_PK_F32_FP4 + 1] = __float_as_uint(r2.y);
  asm volatile("v_cvt_scalef32_pk_f16_fp4 %0, %1, %2 op_sel:[1,0,0]" : "=v"(r) : "v"(b1), "v"(sc)); o[O_PK_F16_FP4] = r;
  asm volatile("v_cvt_scalef32_pk_bf16_fp4 %0, %1, %2 op_sel:[1,1,0]" : "=v"(r) : "v"(b1), "v"(sc)); o[O_PK_BF16_FP4] = r;
  u32x6 s6 = {p[IN_FP6], p[IN_FP6 + 1], p[IN_FP6 + 2], p[IN_FP6 + 3], p[IN_FP6 + 4], p[IN_FP6 + 5]};
  f32x32 r32;
  asm volatile("v_cvt_scalef32_pk32_f32_fp6 %0, %1, %2" : "=v"(r32) : "v"(s6), "v"(sc));
  for (int i = 0; i < 32; i++) o[O_PK32_F32_FP6 + i] = __float_as_uint(r32[i]);
  u32x16 r16;
  asm volatile("v_cvt_scalef32_pk32_f16_bf6 %0, %1, %2" : "=v"(r16) : "v"(s6), "v"(sc));
  for (int i = 0; i < 16; i++) o[O_PK32_F16_BF6 + i] = r16[i];
  asm volatile("v_cvt_scalef32_pk32_bf16_fp6 %0, %1, %2" : "=v"(r16) : "v"(s6), "v"(sc));
  for (int i = 0; i < 16; i++) o[O_PK32_BF16_FP6 + i] = r16[i];
  /* down-conversions */
  const float x0 = __uint_as_float(p[IN_F32]), x1 = __uint_as_float(p[IN_F32 + 1]);
  const uint32_t hp = p[IN_H], hq = p[IN_H + 1];
  r = 0x5a5a5a5au; asm volatile("v_cvt_scalef32_pk_fp8_f32 %0, %1, %2, %3 op_sel:[0,0,0,1]" : "+v"(r) : "v"(x0), "v"(x1), "v"(sc)); o[O_PK_FP8_F32] = r;
  r = 0x5a5a5a5au; asm volatile("v_cvt_scalef32_pk_bf8_f32 %0, %1, %2, %3" : "+v"(r) : "v"(x0), "v"(x1), "v"(sc)); o[O_PK_BF8_F32] = r;
  r = 0x5a5a5a5au; asm volatile("v_cvt_scalef32_pk_fp8_f16 %0, %1, %2" : "+v"(r) : "v"(hp), "v"(sc)); o[O_PK_FP8_F16] = r;
  r = 0x5a5a5a5au; asm volatile("v_cvt_scalef32_pk_bf8_bf16 %0, %1, %2 op_sel:[0,0,1]" : "+v"(r) : "v"(hq), "v"(sc)); o[O_PK_BF8_BF16] = r;
  r = 0x5a5a5a5au; asm volatile("v_cvt_scalef32_sr_fp8_f32 %0, %1, %2, %3 op_sel:[0,0,1,1]" : "+v"(r) : "v"(x0), "v"(0u), "v"(sc)); o[O_SR_FP8_F32] = r;
  r = 0x5a5a5a5au; asm volatile("v_cvt_scalef32_sr_bf8_f16 %0, %1, %2, %3 op_sel:[0,0,1,0]" : "+v"(r) : "v"(hp), "v"(0u), "v"(sc)); o[O_SR_BF8_F16] = r;
  r = 0x5a5a5a5au; asm volatile("v_cvt_scalef32_pk_fp4_f32 %0, %1, %2, %3 op_sel:[0,0,1,0]" : "+v"(r) : "v"(x0), "v"(x1), "v"(sc)); o[O_PK_FP4_F32] = r;
  r = 0x5a5a5a5au; asm volatile("v_cvt_scalef32_pk_fp4_f16 %0, %1, %2 op_sel:[0,0,1,1]" : "+v"(r) : "v"(hp), "v"(sc)); o[O_PK_FP4_F16] = r;
  f32x2 xx = {x0, x1};
  r = 0x5a5a5a5au; asm volatile("v_cvt_scalef32_sr_pk_fp4_f32 %0, %1, %2, %3" : "+v"(r) : "v"(xx), "v"(0u), "v"(sc)); o[O_SR_PK_FP4_F32] = r;
  f32x16 lo16, hi16;
  for (int i = 0; i < 16; i++) { lo16[i] = __uint_as_float(p[IN_F32 + i]); hi16[i] = __uint_as_float(p[IN_F32 + 16 + i]); }
  u32x6 d6;
  asm volatile("v_cvt_scalef32_2xpk16_fp6_f32 %0, %1, %2, %3" : "=v"(d6) : "v"(lo16), "v"(hi16), "v"(sc));
  for (int i = 0; i < 6; i++) o[O_2XPK16_FP6 + i] = d6[i];
  u32x16 h16;
  for (int i = 0; i < 16; i++) h16[i] = p[IN_H + i];
  asm volatile("v_cvt_scalef32_pk32_bf6_f16 %0, %1, %2" : "=v"(d6) : "v"(h16), "v"(sc));
  for (int i = 0; i < 6; i++) o[O_PK32_BF6_F16 + i] = d6[i];
  f32x32 x32;
  for (int i = 0; i < 32; i++) x32[i] = __uint_as_float(p[IN_F32 + i]);
  asm volatile("v_cvt_scalef32_sr_pk32_fp6_f32 %0, %1, %2, %3" : "=v"(d6) : "v"(x32), "v"(0u), "v"(sc));
  for (int i = 0; i < 6; i++) o[O_SR_PK32_FP6 + i] = d6[i];
#else
  (void)in, (void)out; /* gfx942 pass of a fat build: gfx950-only instructions */
#endif
}

/* ---- host models (OCP MX v1.0 element formats) */
enum { FP8, BF8, FP6, BF6, FP4 };
static const int fbits[] = {8, 8, 6, 6, 4}, fmb[] = {3, 2, 3, 2, 1}, fbias[] = {7, 15, 1, 3, 1};
static double dec(uint32_t c, int f)
{
  int nb = fbits[f], mb = fmb[f], eb = nb - 1 - mb;
  c &= (1u << nb) - 1;
  int s = c >> (nb - 1), e = (c >> mb) & ((1 << eb) - 1), m = c & ((1 << mb) - 1);
  if (f == FP8 && e == 15 && m == 7) return NAN;
  if (f == BF8 && e == 31) return m ? NAN : (s ? -INFINITY : INFINITY);
  double v = e == 0 ? ldexp(m, 1 - fbias[f] - mb) : ldexp(1.0 + m / (double)(1 << mb), e - fbias[f]);
  return s ? -v : v;
}
/* nearest finite code (ties: even code); trunc: toward zero; fp6/fp4 saturate */
static uint32_t enc(double x, int f, int trunc)
{
  int nb = fbits[f];
  uint32_t best = 0;
  double bd = INFINITY;
  for (uint32_t c = 0; c < (1u << nb); c++) {
    double v = dec(c, f);
    if (isnan(v) || isinf(v) || (signbit(v) != signbit(x) && v != 0)) continue;
    if (trunc && fabs(v) > fabs(x)) continue;
    double dd = fabs(v - x);
    if (dd < bd || (dd == bd && !(c & 1) && (best & 1))) { bd = dd; best = c; }
  }
  if (signbit(x) && (best & ((1u << (nb - 1)) - 1)) == 0) best |= 1u << (nb - 1); /* -0 */
  return best;
}
static uint32_t f2h(float x) { _Float16 h = (_Float16)x; uint16_t u; memcpy(&u, &h, 2); return u; }
static float h2f(uint32_t u) { _Float16 h; uint16_t v = (uint16_t)u; memcpy(&h, &v, 2); return (float)h; }
static float bf2f(uint32_t u) { return vt_u2f((u & 0xffff) << 16); }
static uint32_t f2bf(float x) { uint32_t u = vt_f2u(x); if (isnan(x)) return (u >> 16) | 0x40; return (u + 0x7fff + ((u >> 16) & 1)) >> 16; }
static uint32_t fp6_at(const uint32_t *w, int i) { int bp = 6 * i; uint64_t x = w[bp / 32] | (bp / 32 + 1 < 6 ? (uint64_t)w[bp / 32 + 1] << 32 : 0); return (uint32_t)(x >> (bp % 32)) & 63; }

static void chk_f(const char *what, int i, uint32_t got, double want) { vt_check_f32(what, i, vt_u2f(got), (float)want); }

int main()
{
  const int n = 64;
  std::vector<uint32_t> in((size_t)IN_DW * n);
  uint64_t s = 4242;
  for (int t = 0; t < n; t++) {
    uint32_t *p = &in[(size_t)IN_DW * t];
    for (int i = 0; i < 4; i++) p[IN_B + i] = (uint32_t)vt_rand(&s);
    for (int i = 0; i < 6; i++) p[IN_FP6 + i] = (uint32_t)vt_rand(&s);
    int k = (int)(vt_rand(&s) % 7) - 3;                                     /* scale 2^k ... */
    p[IN_SCALE] = vt_f2u(ldexpf(1.0f + (float)(vt_rand(&s) % 1000) / 1000.0f, k)); /* ... with a mantissa that must not count */
    /* values within +-1.3 x fp6's max after scaling (fp8 forms stay in range: 448 > 9.75) */
    for (int i = 0; i < 32; i++) p[IN_F32 + i] = vt_f2u(ldexpf(((float)(vt_rand(&s) % 20001) - 10000.0f) / 10000.0f * 9.75f, k));
    for (int i = 0; i < 16; i++) {
      float a = ldexpf(((float)(vt_rand(&s) % 2001) - 1000.0f) / 1000.0f * 9.0f, k), c = ldexpf(((float)(vt_rand(&s) % 2001) - 1000.0f) / 1000.0f * 9.0f, k);
      p[IN_H + i] = (i == 1 ? f2bf(a) | (f2bf(c) << 16) : f2h(a) | (f2h(c) << 16));
    }
  }
  vt_buf<uint32_t> din(in), dout((size_t)O_DW * n);
  dout.zero();
  hipLaunchKernelGGL(k, dim3(1), dim3(n), 0, 0, din.d, dout.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto out = dout.get();
  for (int t = 0; t < n; t++) {
    const uint32_t *p = &in[(size_t)IN_DW * t], *o = &out[(size_t)O_DW * t];
    int e = (int)((p[IN_SCALE] >> 23) & 0xff) - 127;
    double up = ldexp(1.0, e), dn = ldexp(1.0, -e);
    uint32_t b = p[IN_B], b1 = p[IN_B + 1];
    chk_f("v_cvt_scalef32_f32_fp8", t, o[O_F32_FP8], dec(b, FP8) * up);
    chk_f("v_cvt_scalef32_f32_bf8 byte 3", t, o[O_F32_BF8_B3], dec(b >> 24, BF8) * up);
    { uint32_t want = (f2h((float)(dec(b >> 8, FP8) * up)) << 16) | 0x1234u; uint32_t g = o[O_F16_FP8];
      if (isnan(h2f(want >> 16))) vt_check_u32("v_cvt_scalef32_f16_fp8 byte 1 -> hi (NaN)", t, isnan(h2f(g >> 16)) && (g & 0xffff) == 0x1234u, 1);
      else vt_check_u32("v_cvt_scalef32_f16_fp8 byte 1 -> hi", t, g, want); }
    chk_f("v_cvt_scalef32_pk_f32_fp8 word 1 [0]", t, o[O_PK_F32_FP8], dec(b >> 16, FP8) * up);
    chk_f("v_cvt_scalef32_pk_f32_fp8 word 1 [1]", t, o[O_PK_F32_FP8 + 1], dec(b >> 24, FP8) * up);
    for (int h = 0; h < 2; h++) {
      float g = h2f(o[O_PK_F16_BF8] >> (16 * h)), wv = h2f(f2h((float)(dec(b1 >> (8 * h), BF8) * up)));
      vt_check_f32("v_cvt_scalef32_pk_f16_bf8", 2 * t + h, g, wv);
      g = bf2f(o[O_PK_BF16_FP8] >> (16 * h)); wv = bf2f(f2bf((float)(dec(b1 >> (16 + 8 * h), FP8) * up)));
      vt_check_f32("v_cvt_scalef32_pk_bf16_fp8 word 1", 2 * t + h, g, wv);
      chk_f("v_cvt_scalef32_pk_f32_fp4 byte 2", 2 * t + h, o[O_PK_F32_FP4 + h], dec(b >> (16 + 4 * h), FP4) * up);
      vt_check_f32("v_cvt_scalef32_pk_f16_fp4 byte 1", 2 * t + h, h2f(o[O_PK_F16_FP4] >> (16 * h)), h2f(f2h((float)(dec(b1 >> (8 + 4 * h), FP4) * up))));
      vt_check_f32("v_cvt_scalef32_pk_bf16_fp4 byte 3", 2 * t + h, bf2f(o[O_PK_BF16_FP4] >> (16 * h)), bf2f(f2bf((float)(dec(b1 >> (24 + 4 * h), FP4) * up))));
    }
    for (int i = 0; i < 32; i++) {
      uint32_t c = fp6_at(&p[IN_FP6], i);
      chk_f("v_cvt_scalef32_pk32_f32_fp6", 32 * t + i, o[O_PK32_F32_FP6 + i], dec(c, FP6) * up);
      vt_check_f32("v_cvt_scalef32_pk32_f16_bf6", 32 * t + i, h2f(o[O_PK32_F16_BF6 + i / 2] >> (16 * (i & 1))), h2f(f2h((float)(dec(c, BF6) * up))));
      vt_check_f32("v_cvt_scalef32_pk32_bf16_fp6", 32 * t + i, bf2f(o[O_PK32_BF16_FP6 + i / 2] >> (16 * (i & 1))), bf2f(f2bf((float)(dec(c, FP6) * up))));
    }
    /* down */
    double x0 = vt_u2f(p[IN_F32]) * dn, x1 = vt_u2f(p[IN_F32 + 1]) * dn;
    double h0 = h2f(p[IN_H]) * dn, h1 = h2f(p[IN_H] >> 16) * dn, q0 = bf2f(p[IN_H + 1]) * dn, q1 = bf2f(p[IN_H + 1] >> 16) * dn;
    vt_check_u32("v_cvt_scalef32_pk_fp8_f32 -> hi", t, o[O_PK_FP8_F32], 0x5a5au | (enc(x0, FP8, 0) << 16) | (enc(x1, FP8, 0) << 24));
    vt_check_u32("v_cvt_scalef32_pk_bf8_f32 -> lo", t, o[O_PK_BF8_F32], 0x5a5a0000u | enc(x0, BF8, 0) | (enc(x1, BF8, 0) << 8));
    vt_check_u32("v_cvt_scalef32_pk_fp8_f16", t, o[O_PK_FP8_F16], 0x5a5a0000u | enc(h0, FP8, 0) | (enc(h1, FP8, 0) << 8));
    vt_check_u32("v_cvt_scalef32_pk_bf8_bf16 -> hi", t, o[O_PK_BF8_BF16], 0x5a5au | (enc(q0, BF8, 0) << 16) | (enc(q1, BF8, 0) << 24));
    vt_check_u32("v_cvt_scalef32_sr_fp8_f32 seed 0 -> byte 3", t, o[O_SR_FP8_F32], 0x005a5a5au | (enc(x0, FP8, 1) << 24));
    vt_check_u32("v_cvt_scalef32_sr_bf8_f16 seed 0 -> byte 1", t, o[O_SR_BF8_F16], 0x5a5a005au | (enc(h0, BF8, 1) << 8));
    vt_check_u32("v_cvt_scalef32_pk_fp4_f32 -> byte 1", t, o[O_PK_FP4_F32], 0x5a5a005au | ((enc(x0, FP4, 0) | (enc(x1, FP4, 0) << 4)) << 8));
    vt_check_u32("v_cvt_scalef32_pk_fp4_f16 -> byte 3", t, o[O_PK_FP4_F16], 0x005a5a5au | ((enc(h0, FP4, 0) | (enc(h1, FP4, 0) << 4)) << 24));
    vt_check_u32("v_cvt_scalef32_sr_pk_fp4_f32 seed 0", t, o[O_SR_PK_FP4_F32], 0x5a5a5a00u | enc(x0, FP4, 1) | (enc(x1, FP4, 1) << 4));
    for (int i = 0; i < 32; i++) {
      double xv = vt_u2f(p[IN_F32 + i]) * dn, hv = h2f(p[IN_H + i / 2] >> (16 * (i & 1))) * dn;
      if (i / 2 == 1) hv = 0; /* IN_H + 1 holds bf16 for the case above: not used below */
      vt_check_u32("v_cvt_scalef32_2xpk16_fp6_f32", 32 * t + i, fp6_at(&o[O_2XPK16_FP6], i), enc(xv, FP6, 0));
      vt_check_u32("v_cvt_scalef32_sr_pk32_fp6_f32 seed 0", 32 * t + i, fp6_at(&o[O_SR_PK32_FP6], i), enc(xv, FP6, 1));
      if (i / 2 != 1) vt_check_u32("v_cvt_scalef32_pk32_bf6_f16", 32 * t + i, fp6_at(&o[O_PK32_BF6_F16], i), enc(hv, BF6, 0));
    }
  }
  return vt_finish("scalef32");
}
