// alu_float.hip: f32/f64/f16/bf16 arithmetic and conversions against host
// IEEE arithmetic, including NaN, +-inf, denormals, -0, min/max and rounding.
//
// HIP keeps f32 denormals and compiles '/' and sqrtf correctly rounded by
// default (clang -fhip-fp32-correctly-rounded-divide-sqrt), so those are
// compared bit-exactly. v_cvt_i32_f32/v_cvt_u32_f32 saturate and turn NaN into
// 0 (CDNA3 ISA guide, VOP1 conversions); C leaves that undefined, so those two
// go through inline asm. Transcendentals are library approximations: checked
// to a stated tolerance (4 ulp-ish, rtol 5e-7) on finite normal inputs.
// min/max of +0 and -0 accept either zero: IEEE minNum/maxNum leave it open.
#include "vtest.h"
#include "fpconv.h"
#include <float.h>

#pragma clang fp contract(off)

typedef _Float16 h2 __attribute__((ext_vector_type(2)));

enum {
  F_ADD, F_SUB, F_MUL, F_FMA, F_DIV, F_SQRT, F_MIN, F_MAX, F_TRUNC, F_FLOOR, F_CEIL, F_RINT,
  F_ROUND, F_CVT_I32, F_CVT_U32, F_I32_TO_F, F_U32_TO_F, F_TO_H, F_H_TO_F, F_TO_BF, F_BF_TO_F,
  F_LDEXP, F_ABS, F_NEG, F_H_ADD, F_H_MUL, F_PK_ADD, F_PK_MUL, F_F64_ADD_HI, F_F64_ADD_LO,
  F_F64_MUL_HI, F_F64_MUL_LO, F_F64_FMA_HI, F_F64_FMA_LO, F_F64_DIV_HI, F_F64_DIV_LO, F_F64_TO_F,
  F_F_TO_F64_HI, F_F64_SQRT_HI, F_F64_SQRT_LO, F_CMP_LT, F_CMP_EQ, F_CMP_UNORD, F_EXP, F_LOG,
  F_SIN, NF
};
static const char *fname[NF] = {
  "add", "sub", "mul", "fma", "div", "sqrt|a|", "fmin", "fmax", "trunc", "floor", "ceil", "rint",
  "round", "cvt_i32_f32", "cvt_u32_f32", "cvt_f32_i32", "cvt_f32_u32", "cvt_f16_f32",
  "cvt_f32_f16", "f32->bf16", "bf16->f32", "ldexp", "fabs", "neg", "f16 add", "f16 mul",
  "pk_add_f16", "pk_mul_f16", "f64 add hi", "f64 add lo", "f64 mul hi", "f64 mul lo",
  "f64 fma hi", "f64 fma lo", "f64 div hi", "f64 div lo", "cvt_f32_f64", "cvt_f64_f32 hi",
  "f64 sqrt hi", "f64 sqrt lo", "a<b", "a==b", "unordered", "expf", "logf", "sinf" };

__global__ void fops(const float *A, const float *B, const float *C, uint32_t *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = A[i], b = B[i], c = C[i];
  uint32_t *o = out + i;
#define PUTF(op, v) o[(op) * n] = __float_as_uint(v)
  PUTF(F_ADD, a + b);
  PUTF(F_SUB, a - b);
  PUTF(F_MUL, a * b);
  PUTF(F_FMA, fmaf(a, b, c));
  PUTF(F_DIV, a / b);
  PUTF(F_SQRT, sqrtf(fabsf(a)));
  PUTF(F_MIN, fminf(a, b));
  PUTF(F_MAX, fmaxf(a, b));
  PUTF(F_TRUNC, truncf(a));
  PUTF(F_FLOOR, floorf(a));
  PUTF(F_CEIL, ceilf(a));
  PUTF(F_RINT, rintf(a));
  PUTF(F_ROUND, roundf(a));
  int32_t ci;
  asm volatile("v_cvt_i32_f32 %0, %1" : "=v"(ci) : "v"(a));
  o[F_CVT_I32 * n] = (uint32_t)ci;
  uint32_t cu;
  asm volatile("v_cvt_u32_f32 %0, %1" : "=v"(cu) : "v"(a));
  o[F_CVT_U32 * n] = cu;
  uint32_t ab = __float_as_uint(a);
  PUTF(F_I32_TO_F, (float)(int32_t)ab);
  PUTF(F_U32_TO_F, (float)ab);
  _Float16 h = (_Float16)a;
  uint16_t hb;
  __builtin_memcpy(&hb, &h, 2);
  o[F_TO_H * n] = hb;
  uint16_t lo16 = (uint16_t)ab;
  _Float16 hl;
  __builtin_memcpy(&hl, &lo16, 2);
  PUTF(F_H_TO_F, (float)hl);
  __bf16 bf = (__bf16)a;
  uint16_t bfb;
  __builtin_memcpy(&bfb, &bf, 2);
  o[F_TO_BF * n] = bfb;
  __bf16 bl;
  __builtin_memcpy(&bl, &lo16, 2);
  PUTF(F_BF_TO_F, (float)bl);
  PUTF(F_LDEXP, ldexpf(a, (int)(__float_as_uint(b) % 301u) - 150));
  PUTF(F_ABS, fabsf(a));
  PUTF(F_NEG, -a);
  _Float16 ha = (_Float16)a, hb2 = (_Float16)b;
  _Float16 hs = ha + hb2, hm = ha * hb2;
  uint16_t t16;
  __builtin_memcpy(&t16, &hs, 2);
  o[F_H_ADD * n] = t16;
  __builtin_memcpy(&t16, &hm, 2);
  o[F_H_MUL * n] = t16;
  h2 pa = { ha, (_Float16)c }, pb = { hb2, (_Float16)a };
  h2 ps = pa + pb, pm = pa * pb;
  uint32_t u32;
  __builtin_memcpy(&u32, &ps, 4);
  o[F_PK_ADD * n] = u32;
  __builtin_memcpy(&u32, &pm, 4);
  o[F_PK_MUL * n] = u32;
  double da = (double)a * 1.0000001, db = (double)b, dc = (double)c;
  double r;
  r = da + db; o[F_F64_ADD_HI * n] = (uint32_t)(__double_as_longlong(r) >> 32); o[F_F64_ADD_LO * n] = (uint32_t)__double_as_longlong(r);
  r = da * db; o[F_F64_MUL_HI * n] = (uint32_t)(__double_as_longlong(r) >> 32); o[F_F64_MUL_LO * n] = (uint32_t)__double_as_longlong(r);
  r = fma(da, db, dc); o[F_F64_FMA_HI * n] = (uint32_t)(__double_as_longlong(r) >> 32); o[F_F64_FMA_LO * n] = (uint32_t)__double_as_longlong(r);
  r = da / db; o[F_F64_DIV_HI * n] = (uint32_t)(__double_as_longlong(r) >> 32); o[F_F64_DIV_LO * n] = (uint32_t)__double_as_longlong(r);
  PUTF(F_F64_TO_F, (float)(da * db));
  o[F_F_TO_F64_HI * n] = (uint32_t)(__double_as_longlong((double)a) >> 32);
  r = sqrt(fabs(da)); o[F_F64_SQRT_HI * n] = (uint32_t)(__double_as_longlong(r) >> 32); o[F_F64_SQRT_LO * n] = (uint32_t)__double_as_longlong(r);
  o[F_CMP_LT * n] = a < b;
  o[F_CMP_EQ * n] = a == b;
  o[F_CMP_UNORD * n] = isnan(a) || isnan(b);
  PUTF(F_EXP, expf(a));
  PUTF(F_LOG, logf(a));
  PUTF(F_SIN, sinf(a));
#undef PUTF
}

static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

static int32_t sat_i32(float a)
{
  if (isnan(a)) return 0;
  if (a >= 2147483648.0f) return INT32_MAX;
  if (a <= -2147483648.0f) return INT32_MIN;
  return (int32_t)a; /* truncation toward zero */
}

static uint32_t sat_u32(float a)
{
  if (isnan(a) || a <= 0.0f) return 0;
  if (a >= 4294967296.0f) return UINT32_MAX;
  return (uint32_t)a;
}

int main()
{
  const float edge[] = { 0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f, -2.5f, 3.0f, 1e-40f, -1e-40f,
                         1.4e-45f, FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN,
                         -NAN, 65504.0f, 65520.0f, 1e-8f, 2147483648.0f, -2147483904.0f,
                         4294967296.0f, 16777217.0f, 0.1f, 7.0e-5f, 6.1e-5f, 3.4e38f, 123456.7f };
  const int ne = (int)(sizeof edge / sizeof edge[0]);
  const int n = 1536;
  std::vector<float> A(n), B(n), C(n);
  uint64_t s = 777;
  for (int i = 0; i < n; i++) {
    if (i < ne * ne) { A[i] = edge[i / ne]; B[i] = edge[i % ne]; C[i] = edge[(i * 7) % ne]; }
    else {
      /* random values over a wide exponent range, incl. denormals */
      uint32_t ua = (uint32_t)vt_rand(&s), ub = (uint32_t)vt_rand(&s), uc = (uint32_t)vt_rand(&s);
      if (i % 3 == 0) { ua &= 0x807fffffu; } /* denormal or zero */
      if (i % 4 == 0) { ua = (ua & 0x83ffffffu) | 0x3c000000u; ub = (ub & 0x83ffffffu) | 0x3c000000u; }
      A[i] = vt_u2f(ua); B[i] = vt_u2f(ub); C[i] = vt_u2f(uc);
      if (isnan(A[i])) A[i] = 1.25f;
      if (isnan(B[i])) B[i] = -3.5f;
      if (isnan(C[i])) C[i] = 0.0f;
    }
  }
  vt_buf<float> dA(A), dB(B), dC(C);
  vt_buf<uint32_t> dout((size_t)n * NF);
  dout.zero();
  fops<<<(n + 127) / 128, 128>>>(dA.d, dB.d, dC.d, dout.d, n);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  std::vector<uint32_t> o = dout.get();
  auto got = [&](int op, int i) { return o[(size_t)op * n + i]; };
  auto gotf = [&](int op, int i) { return vt_u2f(got(op, i)); };
  for (int i = 0; i < n; i++) {
    float a = A[i], b = B[i], c = C[i];
    vt_check_f32(fname[F_ADD], i, gotf(F_ADD, i), a + b);
    vt_check_f32(fname[F_SUB], i, gotf(F_SUB, i), a - b);
    vt_check_f32(fname[F_MUL], i, gotf(F_MUL, i), a * b);
    vt_check_f32(fname[F_FMA], i, gotf(F_FMA, i), fmaf(a, b, c));
    vt_check_f32(fname[F_DIV], i, gotf(F_DIV, i), a / b);
    vt_check_f32(fname[F_SQRT], i, gotf(F_SQRT, i), sqrtf(fabsf(a)));
    float mn = fminf(a, b), mx = fmaxf(a, b);
    if (a == 0.0f && b == 0.0f) { /* either zero is allowed */
      vt_check_u32("fmin(+-0) is zero", i, got(F_MIN, i) & 0x7fffffffu, 0);
      vt_check_u32("fmax(+-0) is zero", i, got(F_MAX, i) & 0x7fffffffu, 0);
    } else {
      vt_check_f32(fname[F_MIN], i, gotf(F_MIN, i), mn);
      vt_check_f32(fname[F_MAX], i, gotf(F_MAX, i), mx);
    }
    vt_check_f32(fname[F_TRUNC], i, gotf(F_TRUNC, i), truncf(a));
    vt_check_f32(fname[F_FLOOR], i, gotf(F_FLOOR, i), floorf(a));
    vt_check_f32(fname[F_CEIL], i, gotf(F_CEIL, i), ceilf(a));
    vt_check_f32(fname[F_RINT], i, gotf(F_RINT, i), rintf(a));
    vt_check_f32(fname[F_ROUND], i, gotf(F_ROUND, i), roundf(a));
    vt_check_u32(fname[F_CVT_I32], i, got(F_CVT_I32, i), (uint32_t)sat_i32(a));
    vt_check_u32(fname[F_CVT_U32], i, got(F_CVT_U32, i), sat_u32(a));
    uint32_t ab = vt_f2u(a);
    vt_check_f32(fname[F_I32_TO_F], i, gotf(F_I32_TO_F, i), (float)(int32_t)ab);
    vt_check_f32(fname[F_U32_TO_F], i, gotf(F_U32_TO_F, i), (float)ab);
    uint16_t wh = fc_f2h(a);
    if (isnan(a)) vt_check_u32("cvt_f16_f32(NaN) is NaN", i, (got(F_TO_H, i) & 0x7c00) == 0x7c00 && (got(F_TO_H, i) & 0x3ff), 1);
    else vt_check_u32(fname[F_TO_H], i, got(F_TO_H, i), wh);
    vt_check_f32(fname[F_H_TO_F], i, gotf(F_H_TO_F, i), fc_h2f((uint16_t)ab));
    if (isnan(a)) vt_check_u32("f32->bf16(NaN) is NaN", i, (got(F_TO_BF, i) & 0x7f80) == 0x7f80 && (got(F_TO_BF, i) & 0x7f), 1);
    else vt_check_u32(fname[F_TO_BF], i, got(F_TO_BF, i), fc_f2bf(a));
    vt_check_f32(fname[F_BF_TO_F], i, gotf(F_BF_TO_F, i), fc_bf2f((uint16_t)ab));
    vt_check_f32(fname[F_LDEXP], i, gotf(F_LDEXP, i), ldexpf(a, (int)(vt_f2u(b) % 301u) - 150));
    vt_check_f32(fname[F_ABS], i, gotf(F_ABS, i), fabsf(a));
    vt_check_u32(fname[F_NEG], i, got(F_NEG, i), vt_f2u(a) ^ 0x80000000u);
    /* f16 arithmetic: the exact float result of two halves rounded once to
     * half (float has >= 2*11+2 bits, so no double-rounding error) */
    float fa = fc_h2f(fc_f2h(a)), fb = fc_h2f(fc_f2h(b)), fcc = fc_h2f(fc_f2h(c));
    auto hcheck = [&](const char *what, uint32_t g, float want) {
      if (isnan(want)) vt_check_u32(what, i, (g & 0x7c00) == 0x7c00 && (g & 0x3ff), 1);
      else vt_check_u32(what, i, g, fc_f2h(want));
    };
    hcheck(fname[F_H_ADD], got(F_H_ADD, i), fa + fb);
    hcheck(fname[F_H_MUL], got(F_H_MUL, i), fa * fb);
    hcheck("pk_add_f16 lo", got(F_PK_ADD, i) & 0xffff, fa + fb);
    hcheck("pk_add_f16 hi", got(F_PK_ADD, i) >> 16, fcc + fa);
    hcheck("pk_mul_f16 lo", got(F_PK_MUL, i) & 0xffff, fa * fb);
    hcheck("pk_mul_f16 hi", got(F_PK_MUL, i) >> 16, fcc * fa);
    double da = (double)a * 1.0000001, db = (double)b, dc = (double)c;
    auto dcheck = [&](int hi, int lo, double want) {
      uint64_t g = ((uint64_t)got(hi, i) << 32) | got(lo, i);
      double gd;
      memcpy(&gd, &g, 8);
      vt_check_f64(fname[hi], i, gd, want);
    };
    dcheck(F_F64_ADD_HI, F_F64_ADD_LO, da + db);
    dcheck(F_F64_MUL_HI, F_F64_MUL_LO, da * db);
    dcheck(F_F64_FMA_HI, F_F64_FMA_LO, fma(da, db, dc));
    dcheck(F_F64_DIV_HI, F_F64_DIV_LO, da / db);
    dcheck(F_F64_SQRT_HI, F_F64_SQRT_LO, sqrt(fabs(da)));
    vt_check_f32(fname[F_F64_TO_F], i, gotf(F_F64_TO_F, i), (float)(da * db));
    if (!isnan(a)) vt_check_u32(fname[F_F_TO_F64_HI], i, got(F_F_TO_F64_HI, i), (uint32_t)(dbits((double)a) >> 32));
    vt_check_u32(fname[F_CMP_LT], i, got(F_CMP_LT, i), a < b);
    vt_check_u32(fname[F_CMP_EQ], i, got(F_CMP_EQ, i), a == b);
    vt_check_u32(fname[F_CMP_UNORD], i, got(F_CMP_UNORD, i), isnan(a) || isnan(b));
    if (isfinite(a) && fabsf(a) >= FLT_MIN && fabsf(a) < 80.0f)
      vt_check_near(fname[F_EXP], i, gotf(F_EXP, i), exp((double)a), 5e-7, 0);
    if (isfinite(a) && a >= FLT_MIN)
      vt_check_near(fname[F_LOG], i, gotf(F_LOG, i), log((double)a), 5e-7, 1e-7);
    if (isfinite(a) && fabsf(a) < 1000.0f && fabsf(a) >= FLT_MIN)
      vt_check_near(fname[F_SIN], i, gotf(F_SIN, i), sin((double)a), 5e-7, 1e-7);
  }
  return vt_finish("alu_float");
}
