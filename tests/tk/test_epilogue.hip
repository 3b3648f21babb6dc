// tk/epilogue.h: the activations on the device against their definitions in
// double (ReLU exact; GELU tanh, GELU erf and SiLU within 4*2^-24*|x| + 2^-40,
// far below the 1e-4..1e-3 by which the two GELUs differ from each other, so
// a swapped or wrong formula fails), and tk_store_lds_global_epi (bias per
// row / per column, f32 / bf16 bias, each activation, beta) against a CPU
// epilogue on windows across the tensor's edges, everything outside the
// window untouched.
#include "tk_test.h"
#include <tk/tk.h>
#include <math.h>
#include <string.h>

static double act_ref(int act, double x) {
  switch (act) {
  case TK_ACT_RELU: return x > 0 ? x : 0;
  case TK_ACT_GELU_TANH: return 0.5 * x * (1.0 + tanh(sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  case TK_ACT_GELU_ERF: return 0.5 * x * erfc(-x / sqrt(2.0));
  case TK_ACT_SILU: return x / (1.0 + exp(-x));
  }
  return x;
}

__global__ void k_act(const float *x, float *y, int n, int act) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = tk_act_f32(act, x[i]);
}

static void test_activations(void) {
  std::vector<float> xs;
  for (int i = -2400; i <= 2400; i++) xs.push_back((float)i / 200.0f);  // -12..12, step 0.005
  const float special[] = {0.0f, -0.0f, 1e-30f, -1e-30f, 1e-7f, -1e-7f, 30.0f, -30.0f, 88.0f, -88.0f, 1e4f, -1e4f};
  for (float s : special) xs.push_back(s);
  const int n = (int)xs.size();
  float *dx = tt_dev(xs), *dy;
  HIPCHECK(hipMalloc((void **)&dy, n * sizeof(float)));
  const char *names[] = {"none", "relu", "gelu-tanh", "gelu-erf", "silu"};
  for (int act = TK_ACT_NONE; act <= TK_ACT_SILU; act++) {
    hipLaunchKernelGGL(k_act, dim3((n + 255) / 256), dim3(256), 0, 0, dx, dy, n, act);
    HIPCHECK(hipDeviceSynchronize());
    std::vector<float> y = tt_host(dy, n);
    int bad = 0;
    double worst = 0;
    for (int i = 0; i < n; i++) {
      const double want = act_ref(act, xs[i]);
      const double tol = act <= TK_ACT_RELU ? 0.0 : 4.0 * ldexp(fabs((double)xs[i]), -24) + ldexp(1.0, -40);
      const double err = fabs((double)y[i] - want);
      worst = fmax(worst, err / (tol > 0 ? tol : 1e-300));
      if (!(err <= tol) && bad++ < 5) printf("  %s(%.9g): got %.9g want %.9g\n", names[act], xs[i], y[i], want);
    }
    TT_CHECK(bad == 0, "activation %s: %d values past 4*2^-24*|x| (worst err/bound %.3f)", names[act], bad, worst);
  }
  HIPCHECK(hipFree(dx));
  HIPCHECK(hipFree(dy));
}

#define TR 32
#define TC 64
TK_ST(ep_swz_t, float, TR, TC, TK_LDS_SWZ);

__global__ void k_epi_store(tk_gl g, const float *src, int64_t r0, int64_t c0, float alpha, float beta, int act,
                            int bias_mode, const void *bias, int64_t bias_len, int bias_bytes) {
  __shared__ ep_swz_t sm;
  for (int e = threadIdx.x; e < TR * TC; e += blockDim.x)
    *(float *)((char *)sm.data + tk_st_offset(ep_swz_t, e / TC, e % TC)) = src[e];
  __syncthreads();
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const tk_epi ep = tk_epi_make(alpha, beta, act, bias_mode, bias, bias_len, bias_bytes);
  tk_store_lds_global_epi(&g, rs, 0, 0, r0, c0, sm, threadIdx.x, 128, ep);
}

static float bf16f(uint16_t h) { uint32_t u = (uint32_t)h << 16; float f; memcpy(&f, &u, 4); return f; }
static uint16_t f2bf(float f) {  // RNE, independent of tk's helper
  uint32_t u; memcpy(&u, &f, 4);
  uint32_t lsb = (u >> 16) & 1u;
  return (uint16_t)((u + 0x7fffu + lsb) >> 16);
}

// M x N f32 tensor (leading dimension ld), window at (r0, c0); bias of M
// (row) or N (col) elements
static void run_store(bool f32out, int64_t M, int64_t N, int64_t ld, int64_t r0, int64_t c0, float alpha, float beta,
                      int act, int bias_mode, bool bias_bf16) {
  const size_t n = (size_t)(M * ld);
  std::vector<float> src(TR * TC);
  for (auto &v : src) v = (float)((int)(tt_rand() % 2001) - 1000) / 256.0f;
  std::vector<float> cf(n);
  std::vector<uint16_t> cb(n);
  for (size_t i = 0; i < n; i++) {
    cf[i] = (float)((int)(tt_rand() % 201) - 100) / 32.0f;
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
  hipLaunchKernelGGL(k_epi_store, dim3(1), dim3(128), 0, 0, g, dsrc, r0, c0, alpha, beta, act, bias_mode, dbias,
                     blen, bias_bf16 ? 2 : 4);
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
      const double old = f32out ? (double)cf[i] : (double)bf16f(cb[i]);
      const int64_t bi = bias_mode == TK_BIAS_ROW ? r : c;
      const double bias = bias_mode == TK_BIAS_NONE ? 0.0 : bias_bf16 ? (double)bf16f(bb[bi]) : (double)bf[bi];
      const double x = (double)alpha * src[(r - r0) * TC + (c - c0)];
      const double pre = x + (beta != 0.0f ? (double)beta * old : 0.0) + bias;
      const double mag = fabs(x) + fabs((double)beta * old) + fabs(bias);
      const double want = act_ref(act, pre);
      const double tol = 1.25 * 4 * ldexp(mag, -24) + (act > TK_ACT_RELU ? 4 * ldexp(fabs(pre), -24) : 0.0) +
                         (f32out ? 0.0 : ldexp(fabs(want), -8)) + 1e-30;
      const double got = f32out ? (double)of[i] : (double)bf16f(ob[i]);
      if (!(fabs(got - want) <= tol) && bad++ < 5)
        printf("  (%lld,%lld): got %.9g want %.9g\n", (long long)r, (long long)c, got, want);
    }
  TT_CHECK(bad == 0, "%s out M=%lld N=%lld ld=%lld at (%lld,%lld) alpha=%g beta=%g act=%d bias=%d%s: %d wrong elements",
           f32out ? "f32" : "bf16", (long long)M, (long long)N, (long long)ld, (long long)r0, (long long)c0, alpha, beta,
           act, bias_mode, bias_bf16 ? " bf16" : "", bad);
  HIPCHECK(hipFree(dsrc));
  HIPCHECK(hipFree(dc));
  HIPCHECK(hipFree(dbias));
}

int main(void) {
  test_activations();
  for (int f32 = 0; f32 < 2; f32++)
    for (int act = TK_ACT_NONE; act <= TK_ACT_SILU; act++) {
      run_store(f32, 40, 80, 80, 4, 8, 1.0f, 0.0f, act, TK_BIAS_ROW, false);     // interior, row bias f32
      run_store(f32, 40, 70, 72, 0, 16, -0.75f, 1.5f, act, TK_BIAS_COL, true);   // across the N edge, col bias bf16
      run_store(f32, 20, 64, 64, 0, 0, 2.0f, 0.0f, act, TK_BIAS_COL, false);     // across the M edge
      run_store(f32, 36, 67, 67, 3, 1, 0.5f, 0.25f, act, TK_BIAS_ROW, true);     // odd ld: element stores
      run_store(f32, 40, 80, 80, 4, 8, 1.0f, 1.0f, act, TK_BIAS_NONE, false);    // activation only
    }
  return tt_finish();
}
