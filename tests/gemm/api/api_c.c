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
/* the generated data auto must follow; not installed (an internal header),
 * so the installed-consumer build of this file leaves that check out */
#if defined(__has_include)
#if __has_include("gemm_heuristic_table.h")
#include "gemm_heuristic_table.h"
#define HAVE_TABLE 1
#endif
#endif

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

/* C = alpha * A * op(B) + beta * C0 with kernel `kern` (tk_gemm), or with
 * config *cfg (tk_gemm_plan + tk_gemm_run with this program's workspace, run
 * twice: the second C must have the same bits), compared with a CPU loop */
static void run_cfg(const char *what, tk_gemm_kernel kern, const tk_gemm_config *cfg, int64_t m, int64_t n, int64_t k,
                    int64_t batch, int layout, int out, float alpha, float beta, int64_t pad)
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
  tk_gemm_config pc = {kern, 0, 0, 0};
  void *ws = NULL;
  size_t ws_bytes = 0;
  if (cfg) {
    pc = *cfg;
    const int pe = tk_gemm_plan(&p, &pc);
    EXPECT(pe == TK_GEMM_OK, "%s: tk_gemm_plan returned %d (%s)", what, pe, tk_gemm_config_unsupported(&p, &pc));
    ws_bytes = tk_gemm_workspace_bytes(&p, &pc);
    EXPECT(pc.split_k < 2 || ws_bytes >= (size_t)(pc.split_k * batch * m * n * 4), "%s: workspace %zu bytes", what, ws_bytes);
    if (ws_bytes)
      EXPECT(hipMalloc(&ws, ws_bytes) == hipSuccess && hipMemset(ws, 0, ws_bytes) == hipSuccess, "%s: zeroed workspace",
             what);
  }
  const int e = cfg ? tk_gemm_run(&p, &pc, da, db, dc, ws, ws_bytes, 0) : tk_gemm(&p, kern, da, db, dc, 0);
  EXPECT(e == TK_GEMM_OK, "%s: tk_gemm returned %d (%s)", what, e, tk_gemm_strerror(e));
  EXPECT(hipDeviceSynchronize() == hipSuccess && hipMemcpy(c, dc, nc * esz, hipMemcpyDeviceToHost) == hipSuccess,
         "%s: copy back", what);
  if (cfg) { /* determinism: the same launch from the same C0 gives the same bits */
    unsigned char *c2 = malloc(nc * esz);
    EXPECT(hipMemcpy(dc, c0, nc * esz, hipMemcpyHostToDevice) == hipSuccess &&
               tk_gemm_run(&p, &pc, da, db, dc, ws, ws_bytes, 0) == TK_GEMM_OK && hipDeviceSynchronize() == hipSuccess &&
               hipMemcpy(c2, dc, nc * esz, hipMemcpyDeviceToHost) == hipSuccess,
           "%s: second run", what);
    EXPECT(memcmp(c, c2, nc * esz) == 0, "%s: second run differs in its bits", what);
    free(c2);
    (void)hipFree(ws);
  }
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
  if (!bad && cfg)
    printf("ok: %s (%s %dx%d split %d, twice, same bits)\n", what, tk_gemm_kernel_name((tk_gemm_kernel)pc.kernel),
           pc.tile_m, pc.tile_n, pc.split_k);
  else if (!bad) printf("ok: %s (%s)\n", what, tk_gemm_kernel_name(tk_gemm_choose(&p, kern)));

  /* the library's own check agrees on a correct result */
  tk_gemm_check_result r;
  EXPECT(tk_gemm_check(&p, a, b, c0, da, db, dc, &r) == TK_GEMM_OK && r.nbad == 0, "%s: tk_gemm_check", what);
  (void)hipFree(da), (void)hipFree(db), (void)hipFree(dc);
  free(a), free(b), free(c0), free(c);
}

/* k/8 (k = -8..7) as the device's fp8 e4m3 bits, exact: exponent bias 8 in
 * FNUZ (gfx942), 7 in OCP E4M3FN (gfx950), 3 mantissa bits; all these values
 * are normal in both (tk_gemm.h, tk_gemm_fp8_encoding) */
static uint8_t to_fp8(int k, int ocp)
{
  if (k == 0) return 0;
  int a = k < 0 ? -k : k, e = 0;
  while ((a >> e) > 1) ++e;               /* a = 1.f * 2^e, |k/8| = 1.f * 2^(e-3) */
  const int mant = ((a << 3) >> e) & 7;   /* 3 bits after the leading 1 */
  return (uint8_t)((k < 0 ? 0x80 : 0) | ((e - 3 + (ocp ? 7 : 8)) << 3) | mant);
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
  tk_gemm_fp8_enc enc = TK_GEMM_FP8_FNUZ;
  if (fp8 && tk_gemm_fp8_encoding(&enc) != TK_GEMM_OK) {
    printf("FAIL: %s: tk_gemm_fp8_encoding failed\n", what);
    ++failures;
  }
  const int ocp = enc == TK_GEMM_FP8_OCP;
  for (size_t i = 0; i < na; ++i) {
    if (fp8) a[i] = to_fp8(ai[i], ocp);
    else ((uint16_t *)a)[i] = to_bf16((float)ai[i] / 8.0f);
  }
  for (size_t i = 0; i < nb; ++i) {
    if (fp8) b[i] = to_fp8(bi[i], ocp);
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

/* Split-K and stream-K determinism on inexact inputs (f32 sums whose value
 * depends on the order): two runs from the same C0 must give the same bits.
 * split > 1: split-K on 128x128 tiles; sk > 0: stream-K over sk workgroups
 * on 256x256 tiles (the parts arrive in a different order each run on a GPU). */
static void determinism(int64_t m, int64_t n, int64_t k, int32_t split, int32_t sk)
{
  tk_gemm_problem p;
  tk_gemm_problem_init(&p, m, n, k);
  p.out = TK_GEMM_OUT_F32, p.beta = 1.0f;
  tk_gemm_config cfg = {TK_GEMM_8WAVE, sk ? 256 : 128, sk ? 256 : 128, split, 0, sk ? sk : TK_GEMM_SK_OFF};
  EXPECT(tk_gemm_plan(&p, &cfg) == TK_GEMM_OK && cfg.split_k == split && cfg.stream_k == (sk ? sk : TK_GEMM_SK_OFF),
         "determinism: plan split %d stream-K %d", split, sk);
  uint16_t *a = malloc((size_t)(m * k) * 2), *b = malloc((size_t)(n * k) * 2);
  float *c0 = malloc((size_t)(m * n) * 4), *r1 = malloc((size_t)(m * n) * 4), *r2 = malloc((size_t)(m * n) * 4);
  uint32_t x = 12345;
  for (int64_t i = 0; i < m * k; ++i) x = x * 1664525u + 1013904223u, a[i] = to_bf16(((float)(x >> 8) / 16777216.0f - 0.5f) * 3.1f);
  for (int64_t i = 0; i < n * k; ++i) x = x * 1664525u + 1013904223u, b[i] = to_bf16(((float)(x >> 8) / 16777216.0f - 0.5f) * 1.7f);
  for (int64_t i = 0; i < m * n; ++i) c0[i] = (float)(i % 7) * 0.37f;
  void *da = dev_copy(a, (size_t)(m * k) * 2), *db = dev_copy(b, (size_t)(n * k) * 2), *dc = dev_copy(c0, (size_t)(m * n) * 4);
  const size_t wb = tk_gemm_workspace_bytes(&p, &cfg);
  void *ws = NULL;
  EXPECT(hipMalloc(&ws, wb) == hipSuccess && hipMemset(ws, 0, wb) == hipSuccess, "determinism: workspace");
  float *res[2] = {r1, r2};
  for (int r = 0; r < 2; ++r)
    EXPECT(hipMemcpy(dc, c0, (size_t)(m * n) * 4, hipMemcpyHostToDevice) == hipSuccess &&
               tk_gemm_run(&p, &cfg, da, db, dc, ws, wb, 0) == TK_GEMM_OK && hipDeviceSynchronize() == hipSuccess &&
               hipMemcpy(res[r], dc, (size_t)(m * n) * 4, hipMemcpyDeviceToHost) == hipSuccess,
           "determinism: run %d", r);
  EXPECT(memcmp(r1, r2, (size_t)(m * n) * 4) == 0, "determinism: split %d stream-K %d runs differ in their bits",
         split, sk);
  tk_gemm_check_result cr;
  EXPECT(tk_gemm_check(&p, a, b, c0, da, db, dc, &cr) == TK_GEMM_OK && cr.nbad == 0, "determinism: check");
  if (!memcmp(r1, r2, (size_t)(m * n) * 4))
    printf("ok: split-K %d, stream-K %d on %lldx%lldx%lld: two runs, same bits\n", split, sk, (long long)m, (long long)n,
           (long long)k);
  (void)hipFree(ws), (void)hipFree(da), (void)hipFree(db), (void)hipFree(dc);
  free(a), free(b), free(c0), free(r1), free(r2);
}

static void run(const char *what, tk_gemm_kernel kern, int64_t m, int64_t n, int64_t k, int64_t batch, int layout,
                int out, float alpha, float beta, int64_t pad)
{
  run_cfg(what, kern, NULL, m, n, k, batch, layout, out, alpha, beta, pad);
}

int main(void)
{
  run("simple nn f32 alpha beta batch 2", TK_GEMM_SIMPLE, 70, 50, 40, 2, TK_GEMM_NN, TK_GEMM_OUT_F32, 0.5f, -1.0f, 0);
  run("4wave nt bf16 padded", TK_GEMM_4WAVE, 130, 70, 48, 1, TK_GEMM_NT, TK_GEMM_OUT_BF16, 1.0f, 0.0f, 3);
  run("8wave nt f32 beta", TK_GEMM_8WAVE, 64, 96, 64, 1, TK_GEMM_NT, TK_GEMM_OUT_F32, 2.0f, 0.5f, 8);
  run("auto nn bf16", TK_GEMM_AUTO, 33, 65, 17, 1, TK_GEMM_NN, TK_GEMM_OUT_BF16, 1.0f, 1.0f, 0);
  run("8wave K = 129 (masked tail)", TK_GEMM_8WAVE, 40, 70, 129, 1, TK_GEMM_NT, TK_GEMM_OUT_F32, 1.0f, 0.0f, 0);
  /* tile shapes and split-K through tk_gemm_plan / tk_gemm_run (exact sums: f32 bits equal the CPU's) */
  const tk_gemm_config s3 = {TK_GEMM_8WAVE, 128, 128, 3}, s4w = {TK_GEMM_8WAVE, 256, 256, 4};
  const tk_gemm_config t256x128 = {TK_GEMM_8WAVE, 256, 128, 2}, t128x256 = {TK_GEMM_8WAVE, 128, 256, 2};
  run_cfg("8wave 128x128 split 3 f32 beta", TK_GEMM_8WAVE, &s3, 131, 67, 301, 1, TK_GEMM_NT, TK_GEMM_OUT_F32, 1.0f, 0.5f, 0);
  run_cfg("8wave 256x256 split 4 bf16 batch 2 padded", TK_GEMM_8WAVE, &s4w, 50, 90, 200, 2, TK_GEMM_NT,
          TK_GEMM_OUT_BF16, -1.0f, 1.0f, 5);
  run_cfg("8wave 256x128 split 2 f32 K=1", TK_GEMM_8WAVE, &t256x128, 30, 20, 1, 1, TK_GEMM_NT, TK_GEMM_OUT_F32, 1.0f, 0.0f, 0);
  run_cfg("8wave 128x256 split 2 nn f32", TK_GEMM_8WAVE, &t128x256, 70, 40, 150, 1, TK_GEMM_NN, TK_GEMM_OUT_F32, 2.0f, 0.0f, 8);

  determinism(96, 80, 1000, 4, 0); /* K ranges 256, 256, 256, 232 */
  determinism(1024, 768, 640, 1, 5); /* 12 tiles over 5: 2 left over, 2-3 parts each */

  /* auto follows the generated table of the device it runs on
   * (bench/gemm-heuristic; gfx950's rows on gfx950, gfx942's elsewhere):
   * each swept shape gets its row's config; without 16-byte rows (odd lda)
   * 8wave rows give way to the rule's 4wave */
#ifdef HAVE_TABLE
  {
    hipDeviceProp_t prop;
    int dev = 0;
    EXPECT(hipGetDevice(&dev) == hipSuccess && hipGetDeviceProperties(&prop, dev) == hipSuccess, "device query");
    const int gfx950 = !strncmp(prop.gcnArchName, "gfx950", 6);
    EXPECT(!strcmp(tk_gemm_heuristic_target(), gfx950 ? "gfx950" : "gfx942"),
           "device %s reads the %s heuristic table", prop.gcnArchName, tk_gemm_heuristic_target());
  }
  size_t nrows;
  const gemm_heuristic_row *rows = gemm_heuristic_rows(tk_gemm_heuristic_target(), &nrows);
  for (size_t i = 0; i < nrows; ++i) {
    const gemm_heuristic_row *r = &rows[i];
    tk_gemm_problem q;
    tk_gemm_problem_init(&q, (int64_t)r->m, (int64_t)r->n, (int64_t)r->k);
    tk_gemm_config c = {TK_GEMM_AUTO, 0, 0, 0, 0};
    EXPECT(tk_gemm_plan(&q, &c) == TK_GEMM_OK && c.kernel == r->kernel &&
               (r->kernel != TK_GEMM_8WAVE || (c.tile_m == r->tile_m && c.tile_n == r->tile_n &&
                                               c.split_k == r->split_k && c.k_step == r->k_step)),
           "auto for table row %gx%gx%g: got %s %dx%d split %d K step %d", r->m, r->n, r->k,
           tk_gemm_kernel_name((tk_gemm_kernel)c.kernel), c.tile_m, c.tile_n, c.split_k, c.k_step);
    q.lda = q.k + 1;
    tk_gemm_config d = {TK_GEMM_AUTO, 0, 0, 0, 0};
    EXPECT(tk_gemm_plan(&q, &d) == TK_GEMM_OK && d.kernel != TK_GEMM_8WAVE,
           "auto for %gx%gx%g with lda = K + 1 chose 8wave (no 16-byte rows: its slow path)", r->m, r->n, r->k);
  }
  printf("ok: auto follows the %zu rows of the %s heuristic table\n", nrows, tk_gemm_heuristic_target());
#endif

  /* plan: AUTO fills kernel, tile and split; explicit fields stay; split clamped to K's 64-wide steps */
  {
    tk_gemm_problem q;
    tk_gemm_problem_init(&q, 1024, 1024, 1024);
    tk_gemm_config c = {TK_GEMM_AUTO, 0, 0, 0};
    EXPECT(tk_gemm_plan(&q, &c) == TK_GEMM_OK && c.kernel != TK_GEMM_AUTO && c.tile_m > 0 && c.split_k >= 1,
           "plan auto 1024^3");
    tk_gemm_config e = {TK_GEMM_8WAVE, 128, 128, 0};
    EXPECT(tk_gemm_plan(&q, &e) == TK_GEMM_OK && e.tile_m == 128 && e.tile_n == 128 && e.split_k == 1, "plan 8wave 128x128");
    tk_gemm_config f = {TK_GEMM_8WAVE, 0, 0, 100};
    EXPECT(tk_gemm_plan(&q, &f) == TK_GEMM_OK && f.split_k == 16 && f.tile_m == 256, "plan split 100 of K 1024 -> 16 (got %d)",
           f.split_k);
    EXPECT(tk_gemm_workspace_bytes(&q, &f) == (size_t)16 * 1024 * 1024 * 4 + 16 * 4, "workspace of split 16: partials + 16 tile counters");
    tk_gemm_config g = {TK_GEMM_8WAVE, 256, 128, 1};
    q.layout = TK_GEMM_NN;
    EXPECT(tk_gemm_plan(&q, &g) == TK_GEMM_ERR_UNSUPPORTED && strstr(tk_gemm_config_unsupported(&q, &g), "nn"),
           "8wave 256x128 nn not refused");
    tk_gemm_config h = {TK_GEMM_4WAVE, 0, 0, 2};
    EXPECT(tk_gemm_plan(&q, &h) == TK_GEMM_ERR_UNSUPPORTED && strstr(tk_gemm_config_unsupported(&q, &h), "split"),
           "4wave split 2 not refused");
    tk_gemm_config i = {TK_GEMM_8WAVE, 192, 256, 1};
    EXPECT(tk_gemm_plan(&q, &i) == TK_GEMM_ERR_UNSUPPORTED, "tile 192x256 not refused");
    tk_gemm_config j = {TK_GEMM_8WAVE, 256, 256, 2};
    q.layout = TK_GEMM_NT;
    EXPECT(tk_gemm_plan(&q, &j) == TK_GEMM_OK && tk_gemm_run(&q, &j, NULL, NULL, NULL, (void *)16, 100, 0) ==
           TK_GEMM_ERR_UNSUPPORTED, "too small a workspace not refused");
  }

  run_epi("8wave fp8 relu bias per row", TK_GEMM_8WAVE, 1, TK_GEMM_BIAS_ROW, 70, 90, 48);
  run_epi("simple fp8 relu bias per column", TK_GEMM_SIMPLE, 1, TK_GEMM_BIAS_COL, 33, 20, 16);
  run_epi("4wave bf16 relu bias per column", TK_GEMM_4WAVE, 0, TK_GEMM_BIAS_COL, 65, 130, 24);
  if (!strcmp(tk_gemm_heuristic_target(), "gfx950")) /* the fp8 4wave kernels exist on gfx950 only */
    run_epi("4wave fp8 relu bias per row", TK_GEMM_4WAVE, 1, TK_GEMM_BIAS_ROW, 70, 90, 48);

  /* refusals: nothing launched, C untouched */
  tk_gemm_problem p;
  tk_gemm_problem_init(&p, 64, 64, 64);
  p.lda = 63;
  EXPECT(tk_gemm_problem_error(&p) && strstr(tk_gemm_problem_error(&p), "lda"), "lda < K not refused");
  EXPECT(tk_gemm(&p, TK_GEMM_SIMPLE, NULL, NULL, NULL, 0) == TK_GEMM_ERR_PROBLEM, "tk_gemm took lda < K");
  tk_gemm_problem_init(&p, 64, 64, 129);
  EXPECT(tk_gemm_unsupported(TK_GEMM_8WAVE, &p) == NULL, "8wave refused K = 129 (it has a masked K tail)");
  /* the matrix-bounded loads' row limit (include/tk/loads.h): (rows + 256) * ld * bytes <= 2^32 - 1, i.e. with
   * ld = 4096 at most 2^32 / 8192 - 1 - 256 = 524031 bf16 rows and 1048319 fp8 rows of A (or of B, nt); the
   * spans stay below TK_GL_MAX_BYTES on both sides of the edge, so only that limit refuses */
  {
    const struct { tk_gemm_in in; int64_t rows; } edge[] = {{TK_GEMM_IN_BF16, 524031}, {TK_GEMM_IN_FP8, 1048319}};
    for (int i = 0; i < 2; ++i)
      for (int onb = 0; onb < 2; ++onb)
        for (int past = 0; past < 2; ++past) {
          tk_gemm_problem_init(&p, onb ? 64 : edge[i].rows + past, onb ? edge[i].rows + past : 64, 64);
          p.in = edge[i].in, p.lda = p.ldb = 4096;
          const char *why = tk_gemm_unsupported(TK_GEMM_8WAVE, &p);
          EXPECT(past ? why && strstr(why, "4 GiB") : why == NULL, "8wave %s %s rows %lld: %s", i ? "fp8" : "bf16",
                 onb ? "B" : "A", (long long)(edge[i].rows + past), why ? why : "taken");
        }
  }
  EXPECT(tk_gemm_choose(&p, TK_GEMM_AUTO) == TK_GEMM_SIMPLE, "auto for 64x64x129 should be simple (M, N <= 64)");
  EXPECT(tk_gemm(&p, (tk_gemm_kernel)9, NULL, NULL, NULL, 0) == TK_GEMM_ERR_KERNEL, "kernel 9 accepted");
  tk_gemm_problem_init(&p, 64, 64, 64);
  p.in = TK_GEMM_IN_FP8, p.layout = TK_GEMM_NN;
  EXPECT(tk_gemm_problem_error(&p) && strstr(tk_gemm_problem_error(&p), "layout nt"), "fp8 with nn not refused");
  p.layout = TK_GEMM_NT;
  if (!strcmp(tk_gemm_heuristic_target(), "gfx950")) {
    /* gfx950 has fp8 4wave kernels (gemm_4wave_fp8.h): taken, and run against the CPU above */
    EXPECT(tk_gemm_unsupported(TK_GEMM_4WAVE, &p) == NULL, "4wave refused fp8 on gfx950: %s", tk_gemm_unsupported(TK_GEMM_4WAVE, &p));
  } else {
    const char *why = tk_gemm_unsupported(TK_GEMM_4WAVE, &p);
    EXPECT(why && strstr(why, "gfx950"), "4wave fp8 on gfx942: %s", why ? why : "taken");
    EXPECT(tk_gemm(&p, TK_GEMM_4WAVE, NULL, NULL, NULL, 0) == TK_GEMM_ERR_UNSUPPORTED, "tk_gemm ran 4wave on fp8");
  }
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

  /* MX through the C API: 64x40x96 mxfp8 / mxfp4, every element 1.0, A's
   * scales 2^1 and B's 2^-3 on block 0, 2^0 and 2^0 after: C = 32/4 + 64 = 72
   * exactly; on gfx942 refused (no block-scaled MFMAs) */
  {
    const int64_t M = 64, N = 40, K = 96, kb = 3;
    for (int fp4 = 0; fp4 < 2; ++fp4) {
      tk_gemm_problem q;
      tk_gemm_problem_init(&q, M, N, K);
      q.in = fp4 ? TK_GEMM_IN_MXFP4 : TK_GEMM_IN_MXFP8;
      q.out = TK_GEMM_OUT_F32;
      q.mx_scale_a_len = M * kb, q.mx_scale_b_len = N * kb - 1;
      EXPECT(tk_gemm_problem_error(&q) && strstr(tk_gemm_problem_error(&q), "wrong size"), "MX scale tensor short by 1 accepted");
      q.mx_scale_b_len = N * kb;
      EXPECT(tk_gemm_problem_error(&q) == NULL, "MX problem refused: %s", tk_gemm_problem_error(&q));
      const size_t ab = (size_t)(fp4 ? M * K / 2 : M * K), bb = (size_t)(fp4 ? N * K / 2 : N * K);
      uint8_t *ha = malloc(ab), *hb = malloc(bb), *hsa = malloc((size_t)(M * kb)), *hsb = malloc((size_t)(N * kb));
      float *hc = malloc(sizeof(float) * (size_t)(M * N));
      memset(ha, fp4 ? 0x22 : 0x38, ab); /* E2M1 1.0 in both nibbles / E4M3 1.0 */
      memset(hb, fp4 ? 0x22 : 0x38, bb);
      for (int64_t i = 0; i < M * kb; ++i) hsa[i] = i % kb ? 0x7f : 0x80;
      for (int64_t i = 0; i < N * kb; ++i) hsb[i] = i % kb ? 0x7f : 0x7c;
      void *da, *db, *dsa, *dsb, *dc;
      EXPECT(hipMalloc(&da, ab) == hipSuccess && hipMalloc(&db, bb) == hipSuccess &&
                 hipMalloc(&dsa, (size_t)(M * kb)) == hipSuccess && hipMalloc(&dsb, (size_t)(N * kb)) == hipSuccess &&
                 hipMalloc(&dc, sizeof(float) * (size_t)(M * N)) == hipSuccess,
             "hipMalloc");
      (void)hipMemcpy(da, ha, ab, hipMemcpyHostToDevice);
      (void)hipMemcpy(db, hb, bb, hipMemcpyHostToDevice);
      (void)hipMemcpy(dsa, hsa, (size_t)(M * kb), hipMemcpyHostToDevice);
      (void)hipMemcpy(dsb, hsb, (size_t)(N * kb), hipMemcpyHostToDevice);
      q.mx_scale_a = dsa, q.mx_scale_b = dsb;
      const int gfx950 = !strcmp(tk_gemm_heuristic_target(), "gfx950");
      const int e = tk_gemm(&q, TK_GEMM_AUTO, da, db, dc, 0);
      if (!gfx950) {
        EXPECT(e == TK_GEMM_ERR_UNSUPPORTED, "MX on gfx942: %s, want unsupported", tk_gemm_strerror(e));
        tk_gemm_config cfg = {TK_GEMM_AUTO, 0, 0, 0, 0, 0};
        EXPECT(tk_gemm_plan(&q, &cfg) == TK_GEMM_ERR_UNSUPPORTED && tk_gemm_config_unsupported(&q, &cfg) &&
                   strstr(tk_gemm_config_unsupported(&q, &cfg), "gfx950"),
               "MX on gfx942: the reason names gfx950");
      } else {
        EXPECT(e == TK_GEMM_OK && hipDeviceSynchronize() == hipSuccess, "tk_gemm MX: %s", tk_gemm_strerror(e));
        (void)hipMemcpy(hc, dc, sizeof(float) * (size_t)(M * N), hipMemcpyDeviceToHost);
        int bad = 0;
        for (int64_t i = 0; i < M * N; ++i) bad += hc[i] != 72.0f;
        EXPECT(!bad, "MX %s: %d of %lld elements != 72 (C[0] = %g)", fp4 ? "mxfp4" : "mxfp8", bad, (long long)(M * N), hc[0]);
      }
      (void)hipFree(da), (void)hipFree(db), (void)hipFree(dsa), (void)hipFree(dsb), (void)hipFree(dc);
      free(ha), free(hb), free(hsa), free(hsb), free(hc);
    }
    tk_gemm_in in;
    EXPECT(tk_gemm_in_parse("mxfp8-e5m2", &in) && in == TK_GEMM_IN_MXFP8_E5M2, "parse mxfp8-e5m2");
    printf("ok: MX through the C API (%s)\n", !strcmp(tk_gemm_heuristic_target(), "gfx950") ? "computed" : "refused on gfx942");
  }

  printf(failures ? "api_c: %d failures\n" : "api_c: all ok\n", failures);
  return failures ? 1 : 0;
}
