// gfx950 (CDNA4) MFMA shapes through tk, checked element by element against a
// CPU matrix product: the tile API with the 16x16x32 and 32x32x16 bf16/f16
// kinds (operands placed with tk/register.h's layout functions, KW = 8), and
// tk_mfma_scale_16x16x128_f8f6f4 / _32x32x64_ with OCP fp8 E4M3 and fp4 E2M1
// operands and E8M0 block scales, placed by the rule written out below
// (lane l: row/column l % M, k = 32 * (l / M) + e; element e at bit bits*e).
// Also fp8 e4m3 16x16x32 / 32x32x16 tiles through tk_mma_AB (OCP bytes; 4 K
// fragments per f8f6f4 MFMA, 2 left on the CDNA3 fp8 shape).
// Small integer-valued inputs and power-of-two scales: every result is exact.
// Needs a gfx950 device (tksim --arch=gfx950); fails on any other.
#include "../tk_test.h"
#include "tk/mma.h"

#define EL(ET, t, fi, i) (((ET *)(void *)&(t).f[fi])[i])
#define LOAD_OP(ET, t, src, ld)                                                  \
  do { typedef __typeof__(t) T_; int l_ = tk_lane();                             \
       int sh_ = (((int)T_::tk_op) == TK_OP_A) ? ((int)T_::tk_frag_rows) : ((int)T_::tk_frag_cols); \
       for (int fr = 0; fr < ((int)T_::tk_frag_count_r); fr++) for (int fc = 0; fc < ((int)T_::tk_frag_count_c); fc++) \
         for (int i = 0; i < ((int)T_::tk_n); i++) {                             \
           int r_ = ((int)T_::tk_op) == TK_OP_A ? tk_layout_a_row(sh_, ((int)T_::tk_n), l_, i) : tk_layout_b_row(sh_, ((int)T_::tk_n), l_, i); \
           int c_ = ((int)T_::tk_op) == TK_OP_A ? tk_layout_a_col(sh_, ((int)T_::tk_n), l_, i) : tk_layout_b_col(sh_, ((int)T_::tk_n), l_, i); \
           EL(ET, t, fr * ((int)T_::tk_frag_count_c) + fc, i) = (src)[(fr * ((int)T_::tk_frag_rows) + r_) * (ld) + fc * ((int)T_::tk_frag_cols) + c_]; \
         } } while (0)
#define TO_MAT(m, e) ((m) = (e))
#define TO_REG(m, e) ((e) = (m))
#define ACC_IO(t, mat, ld, ASSIGN)                                               \
  do { typedef __typeof__(t) T_; int l_ = tk_lane();                             \
       for (int fr = 0; fr < ((int)T_::tk_frag_count_r); fr++) for (int fc = 0; fc < ((int)T_::tk_frag_count_c); fc++) \
         for (int i = 0; i < ((int)T_::tk_n); i++) {                             \
           int r_ = fr * ((int)T_::tk_frag_rows) + tk_layout_c_row(((int)T_::tk_frag_rows), l_, i); \
           int c_ = fc * ((int)T_::tk_frag_cols) + tk_layout_c_col(((int)T_::tk_frag_rows), l_, i); \
           ASSIGN((mat)[r_ * (ld) + c_], EL(float, t, fr * ((int)T_::tk_frag_count_c) + fc, i)); \
         } } while (0)

// D(M×N) = A(M×K)·B(K×N) + C, two fragments along K
#if TK_HAS_MFMA_F16_X2
#define X2_KERNEL(name, KA, KB, KC, M, N, K)                                     \
  __global__ void name(const uint16_t *a, const uint16_t *b, const float *c, float *d) { \
    TK_RT(ta_t, KA, M, K); TK_RT(tb_t, KB, K, N); TK_RT(tc_t, KC, M, N);         \
    ta_t A; tb_t B; tc_t C, D;                                                   \
    LOAD_OP(uint16_t, A, a, K); LOAD_OP(uint16_t, B, b, N); ACC_IO(C, c, N, TO_REG);   \
    tk_mma_AB(D, A, B, C);                                                       \
    ACC_IO(D, d, N, TO_MAT);                                                          \
  }
#else
#define X2_KERNEL(name, KA, KB, KC, M, N, K)                                     \
  __global__ void name(const uint16_t *, const uint16_t *, const float *, float *) {}
#endif
X2_KERNEL(k_bf16_16, TK_K_A_BF16_16x16x32, TK_K_B_BF16_16x16x32, TK_K_C_F32_16x16, 16, 16, 64)
X2_KERNEL(k_bf16_32, TK_K_A_BF16_32x32x16, TK_K_B_BF16_32x32x16, TK_K_C_F32_32x32, 32, 32, 32)
X2_KERNEL(k_f16_16, TK_K_A_F16_16x16x32, TK_K_B_F16_16x16x32, TK_K_C_F32_16x16, 16, 16, 64)
X2_KERNEL(k_f16_32, TK_K_A_F16_32x32x16, TK_K_B_F16_32x32x16, TK_K_C_F32_32x32, 32, 32, 32)

// fp8 e4m3 (OCP on gfx950) 16x16x32 / 32x32x16 tiles through tk_mma_AB: 4
// K fragments become one f8f6f4 MFMA (tk/mma.h TK_MMA_K4_), 2 stay CDNA3
// fp8 MFMAs
#if TK_HAS_MFMA_F16_X2
#define FP8_KERNEL(name, KA, KB, KC, M, N, K)                                    \
  __global__ void name(const uint8_t *a, const uint8_t *b, const float *c, float *d) { \
    TK_RT(ta_t, KA, M, K); TK_RT(tb_t, KB, K, N); TK_RT(tc_t, KC, M, N);         \
    ta_t A; tb_t B; tc_t C, D;                                                   \
    LOAD_OP(uint8_t, A, a, K); LOAD_OP(uint8_t, B, b, N); ACC_IO(C, c, N, TO_REG);  \
    tk_mma_AB(D, A, B, C);                                                       \
    ACC_IO(D, d, N, TO_MAT);                                                     \
  }
#else
#define FP8_KERNEL(name, KA, KB, KC, M, N, K)                                    \
  __global__ void name(const uint8_t *, const uint8_t *, const float *, float *) {}
#endif
FP8_KERNEL(k_fp8_16_k8, TK_K_A_FP8_16x16x32, TK_K_B_FP8_16x16x32, TK_K_C_F32_16x16, 16, 16, 256)
FP8_KERNEL(k_fp8_32_k4, TK_K_A_FP8_32x32x16, TK_K_B_FP8_32x32x16, TK_K_C_F32_32x32, 32, 32, 64)
FP8_KERNEL(k_fp8_32_k2, TK_K_A_FP8_32x32x16, TK_K_B_FP8_32x32x16, TK_K_C_F32_32x32, 32, 32, 32)

// f8f6f4, one MFMA: a/b hold each lane's 8 dwords (host-packed), sa/sb each
// lane's scale byte; d gets each lane's accumulator registers.
__global__ void k_f8f6f4_16(const tk_i32x8 *a, const tk_i32x8 *b, const int *sa, const int *sb, float *d, int fmt) {
#if TK_HAS_MFMA_F8F6F4
  int l = tk_lane();
  tk_f32x4 c = {1.0f, 1.0f, 1.0f, 1.0f};
  if (fmt == 0) c = tk_mfma_scale_16x16x128_f8f6f4(a[l], b[l], c, TK_F8F6F4_FP8, TK_F8F6F4_FP8, sa[l], sb[l]);
  else c = tk_mfma_scale_16x16x128_f8f6f4(a[l], b[l], c, TK_F8F6F4_FP4, TK_F8F6F4_FP8, sa[l], sb[l]);
  for (int i = 0; i < 4; i++) d[l * 4 + i] = c[i];
#else
  (void)a; (void)b; (void)sa; (void)sb; (void)d; (void)fmt;
#endif
}
__global__ void k_f8f6f4_32(const tk_i32x8 *a, const tk_i32x8 *b, const int *sa, const int *sb, float *d) {
#if TK_HAS_MFMA_F8F6F4
  int l = tk_lane();
  tk_f32x16 c;
  for (int i = 0; i < 16; i++) c[i] = 1.0f;
  c = tk_mfma_scale_32x32x64_f8f6f4(a[l], b[l], c, TK_F8F6F4_FP8, TK_F8F6F4_FP4, sa[l], sb[l]);
  for (int i = 0; i < 16; i++) d[l * 16 + i] = c[i];
#else
  (void)a; (void)b; (void)sa; (void)sb; (void)d;
#endif
}

static float small_value(uint32_t r) { return (float)((int)(r % 9) - 4); }

static void run_x2(const char *what, void (*kern)(const uint16_t *, const uint16_t *, const float *, float *),
                   int bf16, int M, int N, int K) {
  std::vector<float> av(M * K), bv(K * N), cv(M * N);
  std::vector<uint16_t> ae(M * K), be(K * N);
  for (int i = 0; i < M * K; i++) { av[i] = small_value(tt_rand()); ae[i] = bf16 ? tk_f32_to_bf16(av[i]) : tk_f32_to_f16(av[i]); }
  for (int i = 0; i < K * N; i++) { bv[i] = small_value(tt_rand()); be[i] = bf16 ? tk_f32_to_bf16(bv[i]) : tk_f32_to_f16(bv[i]); }
  for (int i = 0; i < M * N; i++) cv[i] = (float)((int)(tt_rand() % 201) - 100);
  uint16_t *da = tt_dev(ae), *db = tt_dev(be);
  float *dc = tt_dev(cv), *dd = tt_dev(std::vector<float>(M * N, -7777.f));
  hipLaunchKernelGGL(kern, dim3(1), dim3(64), 0, 0, da, db, dc, dd);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> got = tt_host(dd, M * N);
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double ref = cv[i * N + j];
      for (int k = 0; k < K; k++) ref += (double)av[i * K + k] * bv[k * N + j];
      if (got[i * N + j] != ref && bad++ < 5) printf("  %s: D[%d][%d] = %g, expected %g\n", what, i, j, got[i * N + j], ref);
    }
  TT_CHECK(bad == 0, "%s: %d of %d elements wrong", what, bad, M * N);
  HIPCHECK(hipFree(da)); HIPCHECK(hipFree(db)); HIPCHECK(hipFree(dc)); HIPCHECK(hipFree(dd));
}

// fp8 tiles: small integers (exact in OCP e4m3), -0 among them (code 0x80)
static void run_fp8(const char *what, void (*kern)(const uint8_t *, const uint8_t *, const float *, float *),
                    int M, int N, int K) {
  std::vector<float> av(M * K), bv(K * N), cv(M * N);
  std::vector<uint8_t> ae(M * K), be(K * N);
  for (int i = 0; i < M * K; i++) { av[i] = small_value(tt_rand()); ae[i] = tk_f32_to_ocp_e4m3_ref(i % 97 ? av[i] : -0.0f); av[i] = i % 97 ? av[i] : 0.0f; }
  for (int i = 0; i < K * N; i++) { bv[i] = small_value(tt_rand()); be[i] = tk_f32_to_ocp_e4m3_ref(bv[i]); }
  for (int i = 0; i < M * N; i++) cv[i] = (float)((int)(tt_rand() % 201) - 100);
  uint8_t *da = tt_dev(ae), *db = tt_dev(be);
  float *dc = tt_dev(cv), *dd = tt_dev(std::vector<float>(M * N, -7777.f));
  hipLaunchKernelGGL(kern, dim3(1), dim3(64), 0, 0, da, db, dc, dd);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> got = tt_host(dd, M * N);
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double ref = cv[i * N + j];
      for (int k = 0; k < K; k++) ref += (double)av[i * K + k] * bv[k * N + j];
      if (got[i * N + j] != ref && bad++ < 5) printf("  %s: D[%d][%d] = %g, expected %g\n", what, i, j, got[i * N + j], ref);
    }
  TT_CHECK(bad == 0, "%s: %d of %d elements wrong", what, bad, M * N);
  HIPCHECK(hipFree(da)); HIPCHECK(hipFree(db)); HIPCHECK(hipFree(dc)); HIPCHECK(hipFree(dd));
}

// fp4 E2M1 codes of the values -6..6 that it holds exactly
static uint8_t fp4_code(float v) {
  static const float mag[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (int c = 0; c < 8; c++) if (mag[c] == (v < 0 ? -v : v)) return (uint8_t)(c | (v < 0 ? 8 : 0));
  return 0xff;
}

// One f8f6f4 MFMA of shape M×N×K; fa/fb: 0 fp8 E4M3 (OCP), 4 fp4 E2M1.
static void run_f8f6f4(const char *what, int M, int K, int fa, int fb) {
  const int N = M, kpl = 32;
  std::vector<float> av(M * K), bv(K * N);
  std::vector<int> sa(64), sb(64);
  std::vector<tk_i32x8> pa(64), pb(64);
  static const float fp4_vals[] = {-6, -4, -3, -2, -1.5f, -1, -0.5f, 0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (int i = 0; i < M * K; i++) av[i] = fa == 4 ? fp4_vals[tt_rand() % 15] : small_value(tt_rand());
  for (int i = 0; i < K * N; i++) bv[i] = fb == 4 ? fp4_vals[tt_rand() % 15] : small_value(tt_rand());
  for (int l = 0; l < 64; l++) {
    sa[l] = 127 + (int)(tt_rand() % 5) - 2;  // 2^-2 .. 2^2
    sb[l] = 127 + (int)(tt_rand() % 5) - 2;
    int r = l % M, kb = l / M;
    uint32_t wa[8] = {0}, wb[8] = {0};
    for (int e = 0; e < kpl; e++) {
      int k = kpl * kb + e;
      uint32_t ca = fa == 4 ? fp4_code(av[r * K + k]) : tk_f32_to_ocp_e4m3_ref(av[r * K + k]);
      uint32_t cb = fb == 4 ? fp4_code(bv[k * N + r]) : tk_f32_to_ocp_e4m3_ref(bv[k * N + r]);
      int bits_a = fa == 4 ? 4 : 8, bits_b = fb == 4 ? 4 : 8;
      wa[(bits_a * e) / 32] |= ca << ((bits_a * e) % 32);
      wb[(bits_b * e) / 32] |= cb << ((bits_b * e) % 32);
    }
    for (int i = 0; i < 8; i++) { pa[l][i] = (int32_t)wa[i]; pb[l][i] = (int32_t)wb[i]; }
  }
  tk_i32x8 *da = tt_dev(pa), *db = tt_dev(pb);
  int *dsa = tt_dev(sa), *dsb = tt_dev(sb);
  int nreg = M * N / 64;
  float *dd = tt_dev(std::vector<float>(64 * nreg, -7777.f));
  if (M == 16) hipLaunchKernelGGL(k_f8f6f4_16, dim3(1), dim3(64), 0, 0, da, db, dsa, dsb, dd, fa == 4 ? 1 : 0);
  else hipLaunchKernelGGL(k_f8f6f4_32, dim3(1), dim3(64), 0, 0, da, db, dsa, dsb, dd);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> got = tt_host(dd, 64 * nreg);
  int bad = 0;
  for (int l = 0; l < 64; l++)
    for (int i = 0; i < nreg; i++) {
      int r = tk_layout_c_row(M, l, i), c = tk_layout_c_col(M, l, i);
      double ref = 1.0;
      for (int k = 0; k < K; k++) {
        double s_a = ldexp(1.0, sa[r + M * (k / kpl)] - 127), s_b = ldexp(1.0, sb[c + N * (k / kpl)] - 127);
        ref += (double)av[r * K + k] * s_a * (double)bv[k * N + c] * s_b;
      }
      if (got[l * nreg + i] != ref && bad++ < 5) printf("  %s: D[%d][%d] = %g, expected %g\n", what, r, c, got[l * nreg + i], ref);
    }
  TT_CHECK(bad == 0, "%s: %d of %d elements wrong", what, bad, M * N);
  HIPCHECK(hipFree(da)); HIPCHECK(hipFree(db)); HIPCHECK(hipFree(dsa)); HIPCHECK(hipFree(dsb)); HIPCHECK(hipFree(dd));
}

int main(void) {
  hipDeviceProp_t p;
  HIPCHECK(hipGetDeviceProperties(&p, 0));
  if (strncmp(p.gcnArchName, "gfx950", 6)) {
    printf("FAIL: needs a gfx950 device (this one is %s; under tksim: --arch=gfx950)\n", p.gcnArchName);
    return 1;
  }
  run_x2("mfma_f32_16x16x32_bf16", k_bf16_16, 1, 16, 16, 64);
  run_x2("mfma_f32_32x32x16_bf16", k_bf16_32, 1, 32, 32, 32);
  run_x2("mfma_f32_16x16x32_f16", k_f16_16, 0, 16, 16, 64);
  run_x2("mfma_f32_32x32x16_f16", k_f16_32, 0, 32, 32, 32);
  run_fp8("tk_mma fp8 16x16x32 tiles, 8 K fragments (2 f8f6f4 16x16x128)", k_fp8_16_k8, 16, 16, 256);
  run_fp8("tk_mma fp8 32x32x16 tiles, 4 K fragments (1 f8f6f4 32x32x64)", k_fp8_32_k4, 32, 32, 64);
  run_fp8("tk_mma fp8 32x32x16 tiles, 2 K fragments (CDNA3 fp8 shape)", k_fp8_32_k2, 32, 32, 32);
  run_f8f6f4("mfma_scale_f32_16x16x128_f8f6f4 fp8*fp8", 16, 128, 0, 0);
  run_f8f6f4("mfma_scale_f32_16x16x128_f8f6f4 fp4*fp8", 16, 128, 4, 0);
  run_f8f6f4("mfma_scale_f32_32x32x64_f8f6f4 fp8*fp4", 32, 64, 0, 4);
  return tt_finish();
}
