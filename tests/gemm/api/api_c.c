/* api_c: a plain C program that uses the gemm example kernels through their
 * library (tk_gemm.h, libtk_gemm): small problems on each kernel, checked
 * against this file's own CPU loop (also with fp8 inputs, scales, a bias and
 * ReLU), and the API's refusals.
 *
 * Inputs are multiples of 1/8 in [-1, 1): exact in bf16, and every product
 * and partial sum (|sum| <= K, multiples of 1/64) is exact in f32 for the K
 * used here, in any summation order, so f32 results must match exactly; bf16
 * results must be the exact value rounded to bf16 (within 2^-8 relative).
 * Exit 0 when everything matches, 1 otherwise. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_gemm.h"

static int failures = 0;
#define EXPECT(cond, ...)                     \
  do {                                        \
    if (!(cond)) {                            \
      printf("FAIL: " __VA_ARGS__);           \
      printf("\n");                           \
      ++failures;                             \
    }                                         \
  } while (0)

/* a value v that is a multiple of 1/8 in [-1, 1) as bf16 bits: exact, the top half of the f32 */
static uint16_t to_bf16(float v)
{
  uint32_t u;
  memcpy(&u, &v, 4);
  return (uint16_t)(u >> 16);
}
static float from_bf16(uint16_t h)
{
  const uint32_t u = (uint32_t)h << 16;
  float v;
  memcpy(&v, &u, 4);
  return v;
}

static void *dev_copy(const void *h, size_t n)
{
  void *d = NULL;
  if (hipMalloc(&d, n) != hipSuccess || hipMemcpy(d, h, n, hipMemcpyHostToDevice) != hipSuccess) {
    printf("FAIL: hipMalloc/hipMemcpy of %zu bytes\n", n);
    exit(1);
  }
  return d;
}

/* C = alpha * A * op(B) + beta * C0 with kernel `kern`, compared with a CPU loop */
static void run(const char *what, tk_gemm_kernel kern, int64_t m, int64_t n, int64_t k, int64_t batch, int layout,
                int out, float alpha, float beta, int64_t pad)
{
  tk_gemm_problem p;
  tk_gemm_problem_init(&p, m, n, k);
  p.batch = batch, p.layout = layout, p.out = out, p.alpha = alpha, p.beta = beta;
  p.lda = k + pad, p.ldb = (layout == TK_GEMM_NT ? k : n) + pad, p.ldc = n + pad;
  EXPECT(tk_gemm_problem_error(&p) == NULL, "%s: valid problem refused: %s", what, tk_gemm_problem_error(&p));
  const size_t na = (size_t)(batch * m * p.lda), nb = (size_t)(batch * (layout == TK_GEMM_NT ? n : k) * p.ldb);
  const size_t nc = (size_t)(batch * m * p.ldc), esz = out == TK_GEMM_OUT_BF16 ? 2 : 4;
  uint16_t *a = malloc(na * 2), *b = malloc(nb * 2);
  unsigned char *c0 = malloc(nc * esz), *c = malloc(nc * esz);
  for (size_t i = 0; i < na; ++i) a[i] = to_bf16((float)((int)((i * 7 + 3) % 16) - 8) / 8.0f);
  for (size_t i = 0; i < nb; ++i) b[i] = to_bf16((float)((int)((i * 5 + 1) % 16) - 8) / 8.0f);
  for (size_t i = 0; i < nc; ++i) {
    const float v = (float)((int)(i % 9) - 4) / 4.0f;
    if (esz == 2) ((uint16_t *)c0)[i] = to_bf16(v);
    else ((float *)c0)[i] = v;
  }
  void *da = dev_copy(a, na * 2), *db = dev_copy(b, nb * 2), *dc = dev_copy(c0, nc * esz);
  const int e = tk_gemm(&p, kern, da, db, dc, 0);
  EXPECT(e == TK_GEMM_OK, "%s: tk_gemm returned %d (%s)", what, e, tk_gemm_strerror(e));
  EXPECT(hipDeviceSynchronize() == hipSuccess && hipMemcpy(c, dc, nc * esz, hipMemcpyDeviceToHost) == hipSuccess,
         "%s: copy back", what);
  int64_t bad = 0;
  for (int64_t z = 0; z < batch; ++z)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t q = 0; q < k; ++q) {
          const int64_t bi = layout == TK_GEMM_NT ? j * p.ldb + q : q * p.ldb + j;
          s += (double)from_bf16(a[z * m * p.lda + i * p.lda + q]) *
               from_bf16(b[z * (layout == TK_GEMM_NT ? n : k) * p.ldb + bi]);
        }
        const size_t ci = (size_t)(z * m * p.ldc + i * p.ldc + j);
        const double old = esz == 2 ? from_bf16(((uint16_t *)c0)[ci]) : ((float *)c0)[ci];
        const double want = alpha * s + beta * old;
        const double got = esz == 2 ? from_bf16(((uint16_t *)c)[ci]) : ((float *)c)[ci];
        const double tol = esz == 2 ? ldexp(fabs(want), -8) : 0.0;
        if (!(fabs(got - want) <= tol) && bad++ < 3)
          printf("  %s: C[%lld][%lld][%lld] = %.9g, expected %.9g\n", what, (long long)z, (long long)i, (long long)j,
                 got, want);
      }
  EXPECT(bad == 0, "%s: %lld wrong elements", what, (long long)bad);
  if (!bad) printf("ok: %s (%s)\n", what, tk_gemm_kernel_name(tk_gemm_choose(&p, kern)));

  /* the library's own check agrees on a correct result */
  tk_gemm_check_result r;
  EXPECT(tk_gemm_check(&p, a, b, c0, da, db, dc, &r) == TK_GEMM_OK && r.nbad == 0, "%s: tk_gemm_check", what);
  (void)hipFree(da), (void)hipFree(db), (void)hipFree(dc);
  free(a), free(b), free(c0), free(c);
}

/* k/8 (k = -8..7) as fp8 e4m3 FNUZ bits (bias 8, 3 mantissa bits): exact */
static uint8_t to_fp8(int k)
{
  if (k == 0) return 0;
  int a = k < 0 ? -k : k, e = 0;
  while ((a >> e) > 1) ++e;               /* a = 1.f * 2^e, |k/8| = 1.f * 2^(e-3) */
  const int mant = ((a << 3) >> e) & 7;   /* 3 bits after the leading 1 */
  return (uint8_t)((k < 0 ? 0x80 : 0) | ((e - 3 + 8) << 3) | mant);
}

/* The fused epilogue and fp8 inputs through the C API: C (f32) =
 * relu(alpha * scale_a * scale_b * A * B^T + beta * C0 + bias[row or col]),
 * everything multiples of 1/64 with small K: exact in f32, so exact here. */
static void run_epi(const char *what, tk_gemm_kernel kern, int fp8, int bias_mode, int64_t m, int64_t n, int64_t k)
{
  tk_gemm_problem p;
  tk_gemm_problem_init(&p, m, n, k);
  p.out = TK_GEMM_OUT_F32, p.beta = 0.5f, p.act = TK_GEMM_ACT_RELU, p.bias = bias_mode;
  p.in = fp8 ? TK_GEMM_IN_FP8 : TK_GEMM_IN_BF16, p.scale_a = fp8 ? 2.0f : 1.0f, p.scale_b = fp8 ? 0.5f : 1.0f;
  p.bias_len = bias_mode == TK_GEMM_BIAS_ROW ? m : n;
  const size_t na = (size_t)(m * k), nb = (size_t)(n * k), nc = (size_t)(m * n), ib = fp8 ? 1 : 2;
  int *ai = malloc(na * sizeof(int)), *bi = malloc(nb * sizeof(int));
  unsigned char *a = malloc(na * ib), *b = malloc(nb * ib);
  float *c0 = malloc(nc * 4), *c = malloc(nc * 4), *bias = malloc((size_t)p.bias_len * 4);
  for (size_t i = 0; i < na; ++i) ai[i] = (int)((i * 7 + 3) % 16) - 8;
  for (size_t i = 0; i < nb; ++i) bi[i] = (int)((i * 5 + 1) % 16) - 8;
  for (size_t i = 0; i < na; ++i) {
    if (fp8) a[i] = to_fp8(ai[i]);
    else ((uint16_t *)a)[i] = to_bf16((float)ai[i] / 8.0f);
  }
  for (size_t i = 0; i < nb; ++i) {
    if (fp8) b[i] = to_fp8(bi[i]);
    else ((uint16_t *)b)[i] = to_bf16((float)bi[i] / 8.0f);
  }
  for (size_t i = 0; i < nc; ++i) c0[i] = (float)((int)(i % 9) - 4) / 4.0f;
  for (int64_t i = 0; i < p.bias_len; ++i) bias[i] = (float)((int)(i % 13) - 6) / 8.0f;
  void *da = dev_copy(a, na * ib), *db = dev_copy(b, nb * ib), *dc = dev_copy(c0, nc * 4);
  void *dbias = dev_copy(bias, (size_t)p.bias_len * 4);
  EXPECT(tk_gemm_problem_error(&p) == NULL, "%s: valid problem refused: %s", what, tk_gemm_problem_error(&p));
  EXPECT(tk_gemm(&p, kern, da, db, dc, 0) == TK_GEMM_ERR_PROBLEM, "%s: tk_gemm ran without a bias pointer", what);
  p.bias_ptr = dbias;
  const int e = tk_gemm(&p, kern, da, db, dc, 0);
  EXPECT(e == TK_GEMM_OK, "%s: tk_gemm returned %d (%s)", what, e, tk_gemm_strerror(e));
  EXPECT(hipDeviceSynchronize() == hipSuccess && hipMemcpy(c, dc, nc * 4, hipMemcpyDeviceToHost) == hipSuccess,
         "%s: copy back", what);
  int64_t bad = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t q = 0; q < k; ++q) s += (ai[i * k + q] / 8.0) * (bi[j * k + q] / 8.0);
      double want = s * p.scale_a * p.scale_b + 0.5 * c0[i * n + j] + bias[bias_mode == TK_GEMM_BIAS_ROW ? i : j];
      want = want > 0 ? want : 0;
      if (c[i * n + j] != want && bad++ < 3)
        printf("  %s: C[%lld][%lld] = %.9g, expected %.9g\n", what, (long long)i, (long long)j, c[i * n + j], want);
    }
  EXPECT(bad == 0, "%s: %lld wrong elements", what, (long long)bad);
  if (!bad) printf("ok: %s (%s)\n", what, tk_gemm_kernel_name(tk_gemm_choose(&p, kern)));
  (void)hipFree(da), (void)hipFree(db), (void)hipFree(dc), (void)hipFree(dbias);
  free(ai), free(bi), free(a), free(b), free(c0), free(c), free(bias);
}

int main(void)
{
  run("simple nn f32 alpha beta batch 2", TK_GEMM_SIMPLE, 70, 50, 40, 2, TK_GEMM_NN, TK_GEMM_OUT_F32, 0.5f, -1.0f, 0);
  run("4wave nt bf16 padded", TK_GEMM_4WAVE, 130, 70, 48, 1, TK_GEMM_NT, TK_GEMM_OUT_BF16, 1.0f, 0.0f, 3);
  run("8wave nt f32 beta", TK_GEMM_8WAVE, 64, 96, 64, 1, TK_GEMM_NT, TK_GEMM_OUT_F32, 2.0f, 0.5f, 8);
  run("auto nn bf16", TK_GEMM_AUTO, 33, 65, 17, 1, TK_GEMM_NN, TK_GEMM_OUT_BF16, 1.0f, 1.0f, 0);

  run_epi("8wave fp8 relu bias per row", TK_GEMM_8WAVE, 1, TK_GEMM_BIAS_ROW, 70, 90, 48);
  run_epi("simple fp8 relu bias per column", TK_GEMM_SIMPLE, 1, TK_GEMM_BIAS_COL, 33, 20, 16);
  run_epi("4wave bf16 relu bias per column", TK_GEMM_4WAVE, 0, TK_GEMM_BIAS_COL, 65, 130, 24);

  /* refusals: nothing launched, C untouched */
  tk_gemm_problem p;
  tk_gemm_problem_init(&p, 64, 64, 64);
  p.lda = 63;
  EXPECT(tk_gemm_problem_error(&p) && strstr(tk_gemm_problem_error(&p), "lda"), "lda < K not refused");
  EXPECT(tk_gemm(&p, TK_GEMM_SIMPLE, NULL, NULL, NULL, 0) == TK_GEMM_ERR_PROBLEM, "tk_gemm took lda < K");
  tk_gemm_problem_init(&p, 64, 64, 129);
  EXPECT(tk_gemm_unsupported(TK_GEMM_8WAVE, &p) != NULL, "8wave took K = 129");
  EXPECT(tk_gemm(&p, TK_GEMM_8WAVE, NULL, NULL, NULL, 0) == TK_GEMM_ERR_UNSUPPORTED, "tk_gemm ran 8wave on K = 129");
  EXPECT(tk_gemm_choose(&p, TK_GEMM_AUTO) == TK_GEMM_SIMPLE, "auto for 64x64x129 should be simple (M, N <= 64)");
  EXPECT(tk_gemm(&p, (tk_gemm_kernel)9, NULL, NULL, NULL, 0) == TK_GEMM_ERR_KERNEL, "kernel 9 accepted");
  tk_gemm_problem_init(&p, 64, 64, 64);
  p.in = TK_GEMM_IN_FP8, p.layout = TK_GEMM_NN;
  EXPECT(tk_gemm_problem_error(&p) && strstr(tk_gemm_problem_error(&p), "layout nt"), "fp8 with nn not refused");
  p.layout = TK_GEMM_NT;
  EXPECT(tk_gemm_unsupported(TK_GEMM_4WAVE, &p) != NULL, "4wave took fp8");
  EXPECT(tk_gemm(&p, TK_GEMM_4WAVE, NULL, NULL, NULL, 0) == TK_GEMM_ERR_UNSUPPORTED, "tk_gemm ran 4wave on fp8");
  p.bias = TK_GEMM_BIAS_COL, p.bias_len = 63;
  EXPECT(tk_gemm_problem_error(&p) && strstr(tk_gemm_problem_error(&p), "wrong length"), "bias length 63 != N accepted");
  p.bias = TK_GEMM_BIAS_NONE, p.act = 7;
  EXPECT(tk_gemm_problem_error(&p) && strstr(tk_gemm_problem_error(&p), "activation"), "activation 7 accepted");
  tk_gemm_act act;
  EXPECT(tk_gemm_act_parse("gelu-erf", &act) && act == TK_GEMM_ACT_GELU_ERF, "parse gelu-erf");
  EXPECT(!tk_gemm_act_parse("tanh", &act), "parse tanh accepted");
  tk_gemm_kernel kk;
  EXPECT(tk_gemm_kernel_parse("4wave", 5, &kk) && kk == TK_GEMM_4WAVE, "parse 4wave");
  EXPECT(!tk_gemm_kernel_parse("5wave", 5, &kk), "parse 5wave accepted");

  printf(failures ? "api_c: %d failures\n" : "api_c: all ok\n", failures);
  return failures ? 1 : 0;
}
