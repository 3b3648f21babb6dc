// Device math through tk's device libraries: every float and double ocml
// function below runs on the device (under tksim: each target's code object)
// and is compared with the host's libm on the same inputs, within the ULP
// bound and over the input range HIP's math API reference documents
// (rocm.docs.amd.com, HIP "math_api": "ULP difference of maximum absolute
// error" against the C++ standard library) plus one ulp: that table is the
// distance from a libm that is itself not correctly rounded, this test's
// reference is the host libm one precision up (double for float results, x87
// long double for double results), rounded once. With clang >= 20 and Debian's
// rocm-device-libs 5.2 this failed to link (undefined __oclc_daz_opt) before
// cmake/tk_hip.cmake put that constant into the ISA-version library.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846
// X(name, float expr, double expr, long double expr, lo0, hi0, lo1, hi1,
//   ulp float, ulp double); the expressions read x (and y for two-argument
//   functions), the long double one (the host reference) X and Y.
#define TK_MATH_FNS(X)                                                              \
  X(sin, sinf(x), sin(x), sinl(X), -PI, PI, 0, 0, 1, 1)                             \
  X(cos, cosf(x), cos(x), cosl(X), -PI, PI, 0, 0, 1, 1)                             \
  X(tan, tanf(x), tan(x), tanl(X), -1.47 * PI, 1.47 * PI, 0, 0, 1, 1)               \
  X(asin, asinf(x), asin(x), asinl(X), -1, 1, 0, 0, 2, 1)                           \
  X(acos, acosf(x), acos(x), acosl(X), -1, 1, 0, 0, 1, 1)                           \
  X(atan, atanf(x), atan(x), atanl(X), -10, 10, 0, 0, 2, 1)                         \
  X(atan2, atan2f(x, y), atan2(x, y), atan2l(X, Y), -4, 4, -2, 2, 1, 1)             \
  X(sinh, sinhf(x), sinh(x), sinhl(X), -5, 5, 0, 0, 1, 1)                           \
  X(cosh, coshf(x), cosh(x), coshl(X), -5, 5, 0, 0, 1, 1)                           \
  X(tanh, tanhf(x), tanh(x), tanhl(X), -5, 5, 0, 0, 2, 1)                           \
  X(asinh, asinhf(x), asinh(x), asinhl(X), -10, 10, 0, 0, 1, 1)                     \
  X(acosh, acoshf(x), acosh(x), acoshl(X), 1, 100, 0, 0, 1, 1)                      \
  X(atanh, atanhf(x), atanh(x), atanhl(X), -0.9, 0.9, 0, 0, 1, 1)                   \
  X(exp, expf(x), exp(x), expl(X), -10, 10, 0, 0, 1, 1)                             \
  X(exp2, exp2f(x), exp2(x), exp2l(X), -10, 10, 0, 0, 1, 1)                         \
  X(exp10, exp10f(x), exp10(x), exp10l(X), -4, 4, 0, 0, 1, 1)                       \
  X(expm1, expm1f(x), expm1(x), expm1l(X), -10, 10, 0, 0, 1, 1)                     \
  X(log, logf(x), log(x), logl(X), 1e-6, 1e6, 0, 0, 2, 1)                           \
  X(log2, log2f(x), log2(x), log2l(X), 1e-6, 1e6, 0, 0, 1, 1)                       \
  X(log10, log10f(x), log10(x), log10l(X), 1e-6, 1e6, 0, 0, 2, 1)                   \
  X(log1p, log1pf(x), log1p(x), log1pl(X), -0.9, 10, 0, 0, 1, 1)                    \
  X(pow, powf(x, y), pow(x, y), powl(X, Y), -4, 4, -2, 2, 1, 1)                     \
  X(sqrt, sqrtf(x), sqrt(x), sqrtl(X), 0, 100, 0, 0, 1, 1)                          \
  X(cbrt, cbrtf(x), cbrt(x), cbrtl(X), -100, 100, 0, 0, 2, 1)                       \
  X(hypot, hypotf(x, y), hypot(x, y), hypotl(X, Y), -10, 10, 0, 10, 1, 1)           \
  X(erf, erff(x), erf(x), erfl(X), -4, 4, 0, 0, 4, 4)                               \
  X(erfc, erfcf(x), erfc(x), erfcl(X), -4, 4, 0, 0, 2, 2)                           \
  X(lgamma, lgammaf(x), lgamma(x), lgammal(X), 0.5, 20, 0, 0, 4, 2)                 \
  X(tgamma, tgammaf(x), tgamma(x), tgammal(X), 0.5, 15, 0, 0, 6, 6)                 \
  X(fmod, fmodf(x, y), fmod(x, y), fmodl(X, Y), -10, 10, -3, 3, 0, 0)

enum {
#define X(n, ef, ed, el, a, b, c, d, uf, ud) FN_##n,
  TK_MATH_FNS(X)
#undef X
  NFN
};
struct fn_info { const char *name; double lo0, hi0, lo1, hi1; int ulp_f, ulp_d; };
static const fn_info fns[NFN] = {
#define X(n, ef, ed, el, a, b, c, d, uf, ud) {#n, a, b, c, d, uf, ud},
    TK_MATH_FNS(X)
#undef X
};

// One source for both sides: on the device these calls are ocml's, on the
// host glibc's libm.
__host__ __device__ static float eval_f(int f, float x, float y) {
  (void)y;
  switch (f) {
#define X(n, ef, ed, el, a, b, c, d, uf, ud) case FN_##n: return ef;
    TK_MATH_FNS(X)
#undef X
  }
  return 0.0f;
}
__host__ __device__ static double eval_d(int f, double x, double y) {
  (void)y;
  switch (f) {
#define X(n, ef, ed, el, a, b, c, d, uf, ud) case FN_##n: return ed;
    TK_MATH_FNS(X)
#undef X
  }
  return 0.0;
}
// The references: the host libm one precision up, rounded once: double
// functions for the float results, x87 long double ones for the double results.
static float ref_f(int f, float x, float y) { return (float)eval_d(f, x, y); }
static double ref_d(int f, double x, double y) {
  const long double X = x, Y = y;
  (void)Y;
  switch (f) {
#define X(n, ef, ed, el, a, b, c, d, uf, ud) case FN_##n: return (double)(el);
    TK_MATH_FNS(X)
#undef X
  }
  return 0.0;
}

#define NPT 128 // inputs per function

__global__ void k_math(const float *xf, const float *yf, const double *xd, const double *yd, float *of,
                       double *od) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= NFN * NPT) return;
  const int f = i / NPT;
  of[i] = eval_f(f, xf[i], yf[i]);
  od[i] = eval_d(f, xd[i], yd[i]);
}

// Distance in representable values (0 when equal, both NaN, or +0 vs -0).
static int64_t ulps_f(float a, float b) {
  if (isnan(a) && isnan(b)) return 0;
  if (isnan(a) || isnan(b)) return INT64_MAX;
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  int64_t oa = ia < 0 ? -(int64_t)(ia & 0x7fffffff) : ia, ob = ib < 0 ? -(int64_t)(ib & 0x7fffffff) : ib;
  return oa > ob ? oa - ob : ob - oa;
}
static int64_t ulps_d(double a, double b) {
  if (isnan(a) && isnan(b)) return 0;
  if (isnan(a) || isnan(b)) return INT64_MAX;
  int64_t ia, ib;
  memcpy(&ia, &a, 8);
  memcpy(&ib, &b, 8);
  // sign-magnitude -> ordered; |difference| fits for finite values of one sign
  // or near zero, which is all these ranges produce
  __int128 oa = ia < 0 ? -(__int128)(ia & INT64_MAX) : ia, ob = ib < 0 ? -(__int128)(ib & INT64_MAX) : ib;
  __int128 d = oa > ob ? oa - ob : ob - oa;
  return d > INT64_MAX ? INT64_MAX : (int64_t)d;
}

#define CHECK(x)                                                                           \
  do {                                                                                     \
    hipError_t e_ = (x);                                                                   \
    if (e_ != hipSuccess) {                                                                \
      printf("FAIL %s: %s\n", #x, hipGetErrorString(e_));                                  \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

int main(void) {
  const int n = NFN * NPT;
  static float xf[NFN * NPT], yf[NFN * NPT], of[NFN * NPT];
  static double xd[NFN * NPT], yd[NFN * NPT], od[NFN * NPT];
  uint64_t s = 0x9e3779b97f4a7c15ull;
  for (int f = 0; f < NFN; f++) {
    for (int j = 0; j < NPT; j++) {
      // the first half evenly spaced (ends included), the rest pseudo-random
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      double u = j < NPT / 2 ? (double)j / (NPT / 2 - 1) : (double)(s >> 11) * 0x1p-53;
      double v = (double)((s * 0x2545f4914f6cdd1dull) >> 11) * 0x1p-53;
      double x = fns[f].lo0 + (fns[f].hi0 - fns[f].lo0) * u, y = fns[f].lo1 + (fns[f].hi1 - fns[f].lo1) * v;
      if (f == FN_log || f == FN_log2 || f == FN_log10) x = exp(log(fns[f].lo0) + (log(fns[f].hi0) - log(fns[f].lo0)) * u);
      // a zero divisor is out of fmod's documented range
      if (f == FN_fmod && fabs(y) < 1e-3) y = 1.5;
      xf[f * NPT + j] = (float)x;
      yf[f * NPT + j] = (float)y;
      xd[f * NPT + j] = x;
      yd[f * NPT + j] = y;
    }
  }
  float *dxf, *dyf, *dof;
  double *dxd, *dyd, *dod;
  CHECK(hipMalloc(&dxf, sizeof xf));
  CHECK(hipMalloc(&dyf, sizeof yf));
  CHECK(hipMalloc(&dof, sizeof of));
  CHECK(hipMalloc(&dxd, sizeof xd));
  CHECK(hipMalloc(&dyd, sizeof yd));
  CHECK(hipMalloc(&dod, sizeof od));
  CHECK(hipMemcpy(dxf, xf, sizeof xf, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dyf, yf, sizeof yf, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dxd, xd, sizeof xd, hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dyd, yd, sizeof yd, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(k_math, dim3((n + 255) / 256), dim3(256), 0, 0, dxf, dyf, dxd, dyd, dof, dod);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(of, dof, sizeof of, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(od, dod, sizeof od, hipMemcpyDeviceToHost));

  int bad = 0;
  printf("%-7s %9s %6s %9s %6s   (max ulps vs the host reference / bound)\n", "fn", "float", "bound", "double",
         "bound");
  for (int f = 0; f < NFN; f++) {
    int64_t wf = 0, wd = 0;
    int jf = 0, jd = 0;
    for (int j = 0; j < NPT; j++) {
      const int i = f * NPT + j;
      int64_t uf = ulps_f(of[i], ref_f(f, xf[i], yf[i])), ud = ulps_d(od[i], ref_d(f, xd[i], yd[i]));
      if (uf > wf) wf = uf, jf = i;
      if (ud > wd) wd = ud, jd = i;
    }
    printf("%-7s %9lld %6d %9lld %6d\n", fns[f].name, (long long)wf, fns[f].ulp_f + 1, (long long)wd, fns[f].ulp_d + 1);
    if (wf > fns[f].ulp_f + 1) {
      printf("FAIL %sf(%a, %a): device %a, host %a\n", fns[f].name, xf[jf], yf[jf], of[jf], ref_f(f, xf[jf], yf[jf]));
      bad++;
    }
    if (wd > fns[f].ulp_d + 1) {
      printf("FAIL %s(%a, %a): device %a, host %a\n", fns[f].name, xd[jd], yd[jd], od[jd], ref_d(f, xd[jd], yd[jd]));
      bad++;
    }
  }
  (void)hipFree(dxf), (void)hipFree(dyf), (void)hipFree(dof);
  (void)hipFree(dxd), (void)hipFree(dyd), (void)hipFree(dod);
  if (bad) {
    printf("FAIL: %d function(s) past their bound\n", bad);
    return 1;
  }
  printf("PASS: %d float and %d double functions, %d inputs each\n", NFN, NFN, NPT);
  return 0;
}
