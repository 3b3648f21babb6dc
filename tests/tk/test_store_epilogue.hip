// tk_store_lds_global_ab: f32 LDS tile -> f32 / bf16 tensor window with
// out = alpha * x + beta * out, wide stores inside, element stores at edges.
// Checked against a CPU computation of the same formula on every element of
// the tensor: inside the window it must equal the formula computed in double,
// and everything outside the window (other rows, columns >= N, padding up to ldc)
// must be untouched (bit for bit).  Tolerance inside: f32 rounding of
// alpha*x + beta*c (the compiler may fuse it), plus half a bf16 ulp.
// Windows are placed in the interior, across the N edge, across the M edge, on odd leading dimensions (rows not 8/16-byte aligned)
// and with beta = 0 over NaN (beta = 0 must not read C).
// Rounding: with alpha = 1, beta = 0 the bf16 output must be the CPU's
// round-to-nearest-even of the LDS value bit for bit, on values at exact bf16
// ties (low 16 bits 0x8000, even and odd kept bit) and one ulp of f32 either
// side: a pack that rounds ties away from zero (or truncates) fails here.
#include "tk_test.h"
#include <tk/tk.h>
#include <string.h>

#define TR 32
#define TC 64
TK_ST(ep_lin_t, float, TR, TC, TK_LDS_LINEAR);
TK_ST(ep_swz_t, float, TR, TC, TK_LDS_SWZ);

// src: TR x TC f32 values, row-major; each thread puts its elements into the
// LDS tile at the layout's offset, then the whole block stores the window.
template <typename T>
__global__ void k_epi(tk_gl g, const float *src, int64_t r0, int64_t c0, float alpha, float beta) {
  __shared__ T sm;
  for (int e = threadIdx.x; e < TR * TC; e += blockDim.x)
    *(float *)((char *)sm.data + tk_st_offset(T, e / TC, e % TC)) = src[e];
  __syncthreads();
  tk_rsrc rs = tk_gl_rsrc(&g);
  tk_store_lds_global_ab(&g, rs, 0, 0, r0, c0, sm, threadIdx.x, 128, alpha, beta);
}

static float bf16f(uint16_t h) { uint32_t u = (uint32_t)h << 16; float f; memcpy(&f, &u, 4); return f; }
static uint16_t f2bf(float f) {  // RNE, independent of tk's helper
  uint32_t u; memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);
  uint32_t lsb = (u >> 16) & 1u;
  return (uint16_t)((u + 0x7fffu + lsb) >> 16);
}

// one case: M x N tensor with leading dimension ld, window at (r0, c0)
static void run_case(bool swz, bool f32, int64_t M, int64_t N, int64_t ld, int64_t r0, int64_t c0,
                     float alpha, float beta, bool nan_c, bool ties = false) {
  const size_t n = (size_t)(M * ld);
  std::vector<float> src(TR * TC);
  for (auto &v : src) v = (float)((int)(tt_rand() % 2001) - 1000) / 64.0f;
  if (ties) {
    static const uint32_t lows[4] = {0x8000u, 0x7fffu, 0x8001u, 0x0000u};
    for (size_t e = 0; e < src.size(); e++) {
      // sign, exponent 2^-10 .. 2^21 and 7 mantissa bits at random, then the low half
      const uint32_t hi = ((tt_rand() & 1u) << 15) | ((117u + tt_rand() % 32u) << 7) | (tt_rand() & 0x7fu);
      const uint32_t u = (hi << 16) | lows[e % 4];
      memcpy(&src[e], &u, 4);
    }
  }
  std::vector<float> cf(n);
  std::vector<uint16_t> cb(n);
  for (size_t i = 0; i < n; i++) {
    float v = nan_c ? __builtin_nanf("") : (float)((int)(tt_rand() % 201) - 100) / 8.0f;
    cf[i] = v;
    cb[i] = f2bf(v);
  }
  float *dsrc = tt_dev(src);
  void *dc = f32 ? (void *)tt_dev(cf) : (void *)tt_dev(cb);
  tk_gl g;
  int64_t dims[2] = {M, N}, strides[2] = {ld, 1};
  TT_CHECK(tk_gl_make(&g, dc, f32 ? 4 : 2, 2, dims, strides) == TK_OK, "tk_gl_make");
  if (swz) hipLaunchKernelGGL(k_epi<ep_swz_t>, dim3(1), dim3(128), 0, 0, g, dsrc, r0, c0, alpha, beta);
  else hipLaunchKernelGGL(k_epi<ep_lin_t>, dim3(1), dim3(128), 0, 0, g, dsrc, r0, c0, alpha, beta);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> of32 = f32 ? tt_host((float *)dc, n) : std::vector<float>();
  std::vector<uint16_t> obf = f32 ? std::vector<uint16_t>() : tt_host((uint16_t *)dc, n);
  int bad = 0;
  for (int64_t r = 0; r < M; r++)
    for (int64_t c = 0; c < ld; c++) {
      const size_t i = (size_t)(r * ld + c);
      const bool in = r >= r0 && r < r0 + TR && c >= c0 && c < c0 + TC && c < N;
      // reference in double; tolerance: f32 rounding of a*x + b*c (with or
      // without a fused multiply-add), plus bf16 round-to-nearest (2^-8 rel.)
      double want = 0, mag = 0;
      const double old = f32 ? (double)cf[i] : (double)bf16f(cb[i]);
      if (in) {
        const double x = (double)alpha * src[(r - r0) * TC + (c - c0)];
        want = x + (beta != 0.0f ? (double)beta * old : 0.0);
        mag = fabs(x) + (beta != 0.0f ? fabs((double)beta * old) : 0.0);
      }
      double got;
      if (f32) {
        const float g = of32[i];
        got = g;
        if (!in) {  // untouched, bit for bit
          if (memcmp(&g, &cf[i], 4) != 0 && bad++ < 5)
            printf("  f32 (%lld,%lld) outside the window changed\n", (long long)r, (long long)c);
          continue;
        }
      } else {
        const uint16_t g = obf[i];
        got = bf16f(g);
        if (!in) {
          if (g != cb[i] && bad++ < 5)
            printf("  bf16 (%lld,%lld) outside the window changed\n", (long long)r, (long long)c);
          continue;
        }
        if (ties) {  // alpha 1, beta 0: exactly the CPU's RNE of the LDS value
          const uint16_t w = f2bf(src[(r - r0) * TC + (c - c0)]);
          if (g != w && bad++ < 5)
            printf("  bf16 (%lld,%lld): got 0x%04x want 0x%04x (RNE)\n", (long long)r, (long long)c, g, w);
        }
      }
      const double tol = 3 * ldexp(mag, -24) + (f32 ? 0.0 : ldexp(fabs(want), -8)) + 1e-30;
      if (!(fabs(got - want) <= tol) && bad++ < 5)
        printf("  %s (%lld,%lld): got %.9g want %.9g\n", f32 ? "f32" : "bf16", (long long)r, (long long)c, got, want);
    }
  TT_CHECK(bad == 0, "%s %s M=%lld N=%lld ld=%lld at (%lld,%lld) alpha=%g beta=%g%s: %d wrong elements",
           swz ? "swz" : "linear", f32 ? "f32" : "bf16", (long long)M, (long long)N, (long long)ld,
           (long long)r0, (long long)c0, alpha, beta, nan_c ? " (NaN C)" : "", bad);
  HIPCHECK(hipFree(dsrc));
  HIPCHECK(hipFree(dc));
}

int main(void) {
  for (int swz = 0; swz < 2; swz++)
    for (int f32 = 0; f32 < 2; f32++) {
      run_case(swz, f32, 40, 80, 80, 4, 8, 1.0f, 0.0f, false);     // interior, aligned rows
      run_case(swz, f32, 40, 80, 80, 4, 8, -0.75f, 1.5f, false);   // alpha/beta reads C
      run_case(swz, f32, 40, 70, 72, 0, 16, 2.0f, -0.5f, false);   // across the N edge (ld padding kept)
      run_case(swz, f32, 20, 64, 64, 0, 0, 1.0f, 1.0f, false);     // across the M edge
      run_case(swz, f32, 36, 67, 67, 3, 1, 0.5f, 0.25f, false);    // odd ld: unaligned rows
      run_case(swz, f32, 34, 66, 66, 1, 2, 1.0f, 0.0f, true);      // beta = 0 over NaN
      run_case(swz, f32, 40, 80, 80, 4, 8, 1.0f, 0.0f, false, true);  // bf16 ties: RNE bit for bit
      run_case(swz, f32, 36, 67, 67, 3, 1, 1.0f, 0.0f, false, true);  // the same through element stores
    }
  return tt_finish();
}
