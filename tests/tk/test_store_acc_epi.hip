// tk_store_acc_epi (stores.h): accumulator tiles straight from the registers
// to f32 / bf16 tensors with the fused epilogue (alpha, beta * C, bias per
// row / column in f32 or bf16, each activation), against a CPU epilogue in
// double on every element of the tensor: inside the window the formula,
// outside it (other rows, columns >= N, padding up to ld) untouched bit for
// bit.  The accumulators hold src[r][c], placed by register.h's documented
// MFMA output layout (32x32 and 16x16 fragments); windows in the interior
// (the GEMM's case), across the N and M edges and on odd leading dimensions;
// beta = 0 over a NaN C must not read it.
#include "tk_test.h"
#include <tk/tk.h>
#include <math.h>
#include <string.h>

#define TR 64
#define TC 64
TK_RT(acc32_t, TK_K_C_F32_32x32, TR, TC);
TK_RT(acc16_t, TK_K_C_F32_16x16, TR, TC);

static double act_ref(int act, double x) {
  switch (act) {
  case TK_ACT_RELU: return x > 0 ? x : 0;
  case TK_ACT_GELU_TANH: return 0.5 * x * (1.0 + tanh(sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  case TK_ACT_GELU_ERF: return 0.5 * x * erfc(-x / sqrt(2.0));
  case TK_ACT_SILU: return x / (1.0 + exp(-x));
  }
  return x;
}

// one wave: fills the accumulator tile from src (TR x TC, row-major) by the
// layout, then stores it at (r0, c0); the fill is unrolled so the tile stays in
// registers (isa_nospill_test_store_acc_epi), one wave may use them all
template <typename T>
__global__ __launch_bounds__(64) void k_acc_epi(tk_gl g, const float *src, int64_t r0, int64_t c0, float alpha,
                                                float beta, int act, int bias_mode, const void *bias,
                                                int64_t bias_len, int bias_bytes) {
  T acc;
  const int l = (int)tk_lane_id();
#pragma unroll
  for (int f = 0; f < T::tk_frag_count_r * T::tk_frag_count_c; f++)
#pragma unroll
    for (int i = 0; i < T::tk_n; i++) {
      const int r = (f / T::tk_frag_count_c) * T::tk_frag_rows + tk_layout_c_row(T::tk_frag_rows, l, i);
      const int c = (f % T::tk_frag_count_c) * T::tk_frag_cols + tk_layout_c_col(T::tk_frag_cols, l, i);
      acc.f[f][i] = src[r * TC + c];
    }
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const tk_epi ep = tk_epi_make(alpha, beta, act, bias_mode, bias, bias_len, bias_bytes);
  tk_store_acc_epi(&g, rs, 0, 0, r0, c0, acc, ep);
}

static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float bf16f(uint16_t h) { uint32_t u = (uint32_t)h << 16; float f; memcpy(&f, &u, 4); return f; }
static uint16_t f2bf(float f) {  // RNE, independent of tk's helper
  uint32_t u; memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);
  uint32_t lsb = (u >> 16) & 1u;
  return (uint16_t)((u + 0x7fffu + lsb) >> 16);
}

// M x N tensor (leading dimension ld), window at (r0, c0)
static void run_store(bool frag16, bool f32out, int64_t M, int64_t N, int64_t ld, int64_t r0, int64_t c0, float alpha,
                      float beta, int act, int bias_mode, bool bias_bf16, bool nan_c, bool specials = false) {
  const size_t n = (size_t)(M * ld);
  std::vector<float> src(TR * TC);
  for (auto &v : src) v = (float)((int)(tt_rand() % 2001) - 1000) / 256.0f;
  // out = acc (alpha 1, nothing else): the conversion's edges, checked bit
  // for bit below: NaNs whose payload is only in the low half (must stay NaN),
  // infinities, the largest finite (rounds to inf), ties to even both ways,
  // -0, a subnormal, values just off a tie
  static const uint32_t special[] = {0x7f800001u, 0xff800001u, 0x7fc00000u, 0xffffffffu, 0x7f800000u, 0xff800000u,
                                     0x7f7fffffu, 0x3f808000u, 0x3f818000u, 0x80000000u, 0x00000001u, 0x3f808001u,
                                     0xbf817fffu, 0x0000ffffu};
  if (specials)
    for (size_t i = 0; i < src.size(); i += 3) memcpy(&src[i], &special[(i / 3) % (sizeof special / 4)], 4);
  std::vector<float> cf(n);
  std::vector<uint16_t> cb(n);
  for (size_t i = 0; i < n; i++) {
    cf[i] = nan_c ? __builtin_nanf("") : (float)((int)(tt_rand() % 201) - 100) / 32.0f;
    cb[i] = f2bf(cf[i]);
  }
  const int64_t blen = bias_mode == TK_BIAS_ROW ? M : N;
  std::vector<float> bf(blen);
  std::vector<uint16_t> bb(blen);
  for (int64_t i = 0; i < blen; i++) {
    bf[i] = (float)((int)(tt_rand() % 2001) - 1000) / 512.0f;
    bb[i] = f2bf(bf[i]);
  }
  float *dsrc = tt_dev(src);
  void *dc = f32out ? (void *)tt_dev(cf) : (void *)tt_dev(cb);
  void *dbias = bias_bf16 ? (void *)tt_dev(bb) : (void *)tt_dev(bf);
  tk_gl g;
  int64_t dims[2] = {M, N}, strides[2] = {ld, 1};
  TT_CHECK(tk_gl_make(&g, dc, f32out ? 4 : 2, 2, dims, strides) == TK_OK, "tk_gl_make");
  if (frag16)
    hipLaunchKernelGGL(k_acc_epi<acc16_t>, dim3(1), dim3(64), 0, 0, g, dsrc, r0, c0, alpha, beta, act, bias_mode,
                       dbias, blen, bias_bf16 ? 2 : 4);
  else
    hipLaunchKernelGGL(k_acc_epi<acc32_t>, dim3(1), dim3(64), 0, 0, g, dsrc, r0, c0, alpha, beta, act, bias_mode,
                       dbias, blen, bias_bf16 ? 2 : 4);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> of = f32out ? tt_host((float *)dc, n) : std::vector<float>();
  std::vector<uint16_t> ob = f32out ? std::vector<uint16_t>() : tt_host((uint16_t *)dc, n);
  int bad = 0;
  for (int64_t r = 0; r < M; r++)
    for (int64_t c = 0; c < ld; c++) {
      const size_t i = (size_t)(r * ld + c);
      const bool in = r >= r0 && r < r0 + TR && c >= c0 && c < c0 + TC && c < N;
      if (!in) {
        const bool same = f32out ? memcmp(&of[i], &cf[i], 4) == 0 : ob[i] == cb[i];
        if (!same && bad++ < 5) printf("  (%lld,%lld) outside the window changed\n", (long long)r, (long long)c);
        continue;
      }
      if (specials) {  // exact: the f32 bits, or f2bf of them
        const float s = src[(r - r0) * TC + (c - c0)];
        const bool same = f32out ? memcmp(&of[i], &s, 4) == 0 : ob[i] == f2bf(s);
        if (!same && bad++ < 5)
          printf("  (%lld,%lld): %08x stored as %08x\n", (long long)r, (long long)c, (unsigned)f_bits(s),
                 f32out ? (unsigned)f_bits(of[i]) : (unsigned)ob[i]);
        continue;
      }
      const double old = f32out ? (double)cf[i] : (double)bf16f(cb[i]);
      const int64_t bi = bias_mode == TK_BIAS_ROW ? r : c;
      const double bias = bias_mode == TK_BIAS_NONE ? 0.0 : bias_bf16 ? (double)bf16f(bb[bi]) : (double)bf[bi];
      const double x = (double)alpha * src[(r - r0) * TC + (c - c0)];
      const double bo = beta != 0.0f ? (double)beta * old : 0.0;
      const double pre = x + bo + bias;
      const double mag = fabs(x) + fabs(bo) + fabs(bias);
      const double want = act_ref(act, pre);
      const double tol = 1.25 * 4 * ldexp(mag, -24) + (act > TK_ACT_RELU ? 32 * ldexp(fabs(pre), -24) : 0.0) +
                         (f32out ? 0.0 : ldexp(fabs(want), -8)) + 1e-30;
      const double got = f32out ? (double)of[i] : (double)bf16f(ob[i]);
      if (!(fabs(got - want) <= tol) && bad++ < 5)
        printf("  (%lld,%lld): got %.9g want %.9g\n", (long long)r, (long long)c, got, want);
    }
  TT_CHECK(bad == 0,
           "%s frags, %s out M=%lld N=%lld ld=%lld at (%lld,%lld) alpha=%g beta=%g act=%d bias=%d%s%s: %d wrong elements",
           frag16 ? "16x16" : "32x32", f32out ? "f32" : "bf16", (long long)M, (long long)N, (long long)ld,
           (long long)r0, (long long)c0, alpha, beta, act, bias_mode, bias_bf16 ? " bf16" : "",
           nan_c ? " NaN C" : "", bad);
  HIPCHECK(hipFree(dsrc));
  HIPCHECK(hipFree(dc));
  HIPCHECK(hipFree(dbias));
}

int main(void) {
  for (int f16 = 0; f16 < 2; f16++)
    for (int f32 = 0; f32 < 2; f32++) {
      for (int act = TK_ACT_NONE; act <= TK_ACT_SILU; act++) {
        run_store(f16, f32, 80, 136, 144, 8, 64, 1.0f, 0.0f, act, TK_BIAS_ROW, false, false);  // interior, row bias
        run_store(f16, f32, 80, 136, 136, 16, 8, -0.75f, 1.5f, act, TK_BIAS_COL, true, false); // interior, beta, col bias bf16
        run_store(f16, f32, 72, 100, 104, 4, 40, 2.0f, 0.5f, act, TK_BIAS_ROW, true, false);   // across the N edge
        run_store(f16, f32, 40, 64, 64, 0, 0, 0.5f, 0.25f, act, TK_BIAS_COL, false, false);    // across the M edge
      }
      run_store(f16, f32, 70, 67, 67, 3, 1, 0.5f, -1.0f, TK_ACT_NONE, TK_BIAS_NONE, false, false); // odd ld
      run_store(f16, f32, 64, 64, 64, 0, 0, 1.5f, 0.0f, TK_ACT_NONE, TK_BIAS_NONE, false, true);   // beta 0 over NaN
      // out = acc: wholly inside (straight from the registers), over a NaN C, and across an edge
      run_store(f16, f32, 80, 136, 144, 8, 64, 1.0f, 0.0f, TK_ACT_NONE, TK_BIAS_NONE, false, true, true);
      run_store(f16, f32, 72, 100, 104, 4, 40, 1.0f, 0.0f, TK_ACT_NONE, TK_BIAS_NONE, false, false, true);
    }
  return tt_finish();
}
