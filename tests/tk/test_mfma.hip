// Every MFMA wrapper of tk/mma.h on its own, and the four tile-level products
// over multi-fragment tiles, checked element by element against a CPU matrix
// product.  Operands are placed in registers with the documented layout
// functions of tk/register.h (themselves checked against the calculator's
// tables by host_layouts).  Inputs are small integers, so every f32/i32
// result is exact and compared exactly.
#include "tk_test.h"
#include "tk/mma.h"
#include "tk/sync.h"

// Element e (lane-local index i) of fragment f of tile t, as raw bits of ET.
#define EL(ET, t, fi, i) (((ET *)(void *)&(t).f[fi])[i])

// Load an operand tile of kind role (A: rows×cols in A layout, B: in B layout)
// from a row-major matrix src with leading dimension ld.
#define LOAD_OP(ET, t, src, ld, role)                                            \
  do { typedef __typeof__(t) T_; int l_ = tk_lane();                             \
       int sh_ = (((int)T_::tk_op) == TK_OP_A) ? ((int)T_::tk_frag_rows) : ((int)T_::tk_frag_cols);          \
       for (int fr = 0; fr < ((int)T_::tk_frag_count_r); fr++) for (int fc = 0; fc < ((int)T_::tk_frag_count_c); fc++) \
         for (int i = 0; i < ((int)T_::tk_n); i++) {                                    \
           int r_ = ((int)T_::tk_op) == TK_OP_A ? tk_layout_a_row(sh_, ((int)T_::tk_n), l_, i) : tk_layout_b_row(sh_, ((int)T_::tk_n), l_, i); \
           int c_ = ((int)T_::tk_op) == TK_OP_A ? tk_layout_a_col(sh_, ((int)T_::tk_n), l_, i) : tk_layout_b_col(sh_, ((int)T_::tk_n), l_, i); \
           EL(ET, t, fr * ((int)T_::tk_frag_count_c) + fc, i) = (src)[(fr * ((int)T_::tk_frag_rows) + r_) * (ld) + fc * ((int)T_::tk_frag_cols) + c_]; \
         } } while (0)
#define ACC_IO(ET, t, mat, ld, ASSIGN)                                            \
  do { typedef __typeof__(t) T_; int l_ = tk_lane();                             \
       for (int fr = 0; fr < ((int)T_::tk_frag_count_r); fr++) for (int fc = 0; fc < ((int)T_::tk_frag_count_c); fc++) \
         for (int i = 0; i < ((int)T_::tk_n); i++) {                                    \
           int r_ = fr * ((int)T_::tk_frag_rows) + tk_layout_c_row(((int)T_::tk_frag_rows), l_, i);     \
           int c_ = fc * ((int)T_::tk_frag_cols) + tk_layout_c_col(((int)T_::tk_frag_rows), l_, i);     \
           ASSIGN((mat)[r_ * (ld) + c_], EL(ET, t, fr * ((int)T_::tk_frag_count_c) + fc, i));      \
         } } while (0)

#define TO_MAT(m, e) ((m) = (e))
#define TO_REG(m, e) ((e) = (m))

// One kernel per instruction: D(M×N) = A(M×K)·B(K×N) + C with 2 fragments along K
#define MFMA_KERNEL(name, ET, KA, KB, KC, CT, M, N, K)                          \
  __global__ void name(const ET *a, const ET *b, const CT *c, CT *d) {           \
    TK_RT(ta_t, KA, M, K); TK_RT(tb_t, KB, K, N); TK_RT(tc_t, KC, M, N);         \
    ta_t A; tb_t B; tc_t C, D;                                                   \
    LOAD_OP(ET, A, a, K, A); LOAD_OP(ET, B, b, N, B); ACC_IO(CT, C, c, N, TO_REG);     \
    tk_mma_AB(D, A, B, C);                                                       \
    ACC_IO(CT, D, d, N, TO_MAT);                                                      \
  }
MFMA_KERNEL(k_bf16_16, uint16_t, TK_K_A_BF16_16x16x16, TK_K_B_BF16_16x16x16, TK_K_C_F32_16x16, float, 16, 16, 32)
MFMA_KERNEL(k_bf16_32, uint16_t, TK_K_A_BF16_32x32x8, TK_K_B_BF16_32x32x8, TK_K_C_F32_32x32, float, 32, 32, 16)
MFMA_KERNEL(k_f16_16, uint16_t, TK_K_A_F16_16x16x16, TK_K_B_F16_16x16x16, TK_K_C_F32_16x16, float, 16, 16, 32)
MFMA_KERNEL(k_f16_32, uint16_t, TK_K_A_F16_32x32x8, TK_K_B_F16_32x32x8, TK_K_C_F32_32x32, float, 32, 32, 16)
MFMA_KERNEL(k_fp8_16, uint8_t, TK_K_A_FP8_16x16x32, TK_K_B_FP8_16x16x32, TK_K_C_F32_16x16, float, 16, 16, 64)
MFMA_KERNEL(k_fp8_32, uint8_t, TK_K_A_FP8_32x32x16, TK_K_B_FP8_32x32x16, TK_K_C_F32_32x32, float, 32, 32, 32)
MFMA_KERNEL(k_i8_16, uint8_t, TK_K_A_I8_16x16x32, TK_K_B_I8_16x16x32, TK_K_C_I32_16x16, int32_t, 16, 16, 64)
// tk_rt_in_agpr (tk/sync.h): the same product with both operand tiles moved to
// AGPRs first (the MFMA reads them there: tk_mfma_agpr_operand greps the
// instruction); the result must not change.
__global__ void k_bf16_32_agpr(const uint16_t *a, const uint16_t *b, const float *c, float *d) {
  TK_RT(ta_t, TK_K_A_BF16_32x32x8, 32, 16); TK_RT(tb_t, TK_K_B_BF16_32x32x8, 16, 32); TK_RT(tc_t, TK_K_C_F32_32x32, 32, 32);
  ta_t A; tb_t B; tc_t C, D;
  LOAD_OP(uint16_t, A, a, 16, A); LOAD_OP(uint16_t, B, b, 32, B); ACC_IO(float, C, c, 32, TO_REG);
  tk_rt_in_agpr(A);
  tk_rt_in_agpr(B);
  tk_mma_AB(D, A, B, C);
  ACC_IO(float, D, d, 32, TO_MAT);
}

// Tile-level products, bf16 16x16x16, M=32 N=48 K=32: A given as M×K (A kind)
// or K×M (B kind, "At"), B as K×N (B kind) or N×K (A kind, "Bt").
#define TM 32
#define TN 48
#define TK 32
__global__ void k_tiles(const uint16_t *a, const uint16_t *at, const uint16_t *b, const uint16_t *bt,
                        const float *c, float *d /* 5 results */) {
  TK_RT(a_t, TK_K_A_BF16_16x16x16, TM, TK);
  TK_RT(at_t, TK_K_B_BF16_16x16x16, TK, TM);
  TK_RT(b_t, TK_K_B_BF16_16x16x16, TK, TN);
  TK_RT(bt_t, TK_K_A_BF16_16x16x16, TN, TK);
  TK_RT(c_t, TK_K_C_F32_16x16, TM, TN);
  a_t A; at_t At; b_t B; bt_t Bt; c_t C, D;
  LOAD_OP(uint16_t, A, a, TK, A); LOAD_OP(uint16_t, At, at, TM, B);
  LOAD_OP(uint16_t, B, b, TN, B); LOAD_OP(uint16_t, Bt, bt, TK, A);
  ACC_IO(float, C, c, TN, TO_REG);
  tk_mma_AB(D, A, B, C);   ACC_IO(float, D, d + 0 * TM * TN, TN, TO_MAT);
  tk_mma_ABt(D, A, Bt, C); ACC_IO(float, D, d + 1 * TM * TN, TN, TO_MAT);
  tk_mma_AtB(D, At, B, C); ACC_IO(float, D, d + 2 * TM * TN, TN, TO_MAT);
  tk_mma_AtBt(D, At, Bt, C); ACC_IO(float, D, d + 3 * TM * TN, TN, TO_MAT);
  c_t E = C; /* first row fragment (rows 0..15) only: rows 16.. keep C */
  tk_mma_ABt_rows(E, A, Bt, E, 1); ACC_IO(float, E, d + 4 * TM * TN, TN, TO_MAT);
}

enum { E_BF16, E_F16, E_FP8, E_I8 };
static float small_value(int kind, uint32_t r) { int v = (int)(r % 9) - 4; (void)kind; return (float)v; }
static uint16_t enc16(int kind, float v) { return kind == E_BF16 ? tk_f32_to_bf16(v) : tk_f32_to_f16(v); }
// fp8 MFMAs read FNUZ on gfx942 and OCP E4M3FN on gfx950 (tk/types.h)
static int g_ocp_fp8 = 0;
static uint8_t enc8(int kind, float v) {
  if (kind != E_FP8) return (uint8_t)(int8_t)v;
  return g_ocp_fp8 ? tk_f32_to_ocp_e4m3_ref(v) : tk_f32_to_fp8e4_ref(v);
}

template <typename ET, typename CT>
static void run(const char *what, void (*kern)(const ET *, const ET *, const CT *, CT *), int kind, int M, int N, int K) {
  std::vector<float> av(M * K), bv(K * N);
  std::vector<ET> ae(M * K), be(K * N);
  std::vector<CT> cv(M * N);
  for (int i = 0; i < M * K; i++) { av[i] = small_value(kind, tt_rand()); }
  for (int i = 0; i < K * N; i++) { bv[i] = small_value(kind, tt_rand()); }
  for (int i = 0; i < M * N; i++) cv[i] = (CT)((int)(tt_rand() % 201) - 100);
  for (int i = 0; i < M * K; i++) ae[i] = sizeof(ET) == 2 ? (ET)enc16(kind, av[i]) : (ET)enc8(kind, av[i]);
  for (int i = 0; i < K * N; i++) be[i] = sizeof(ET) == 2 ? (ET)enc16(kind, bv[i]) : (ET)enc8(kind, bv[i]);
  ET *da = tt_dev(ae), *db = tt_dev(be);
  CT *dc = tt_dev(cv), *dd = tt_dev(std::vector<CT>(M * N, (CT)-7777));
  hipLaunchKernelGGL(kern, dim3(1), dim3(64), 0, 0, da, db, dc, dd);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<CT> got = tt_host(dd, M * N);
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double ref = (double)cv[i * N + j];
      for (int k = 0; k < K; k++) ref += (double)av[i * K + k] * bv[k * N + j];
      if ((double)got[i * N + j] != ref && bad++ < 5)
        printf("  %s: D[%d][%d] = %g, expected %g\n", what, i, j, (double)got[i * N + j], ref);
    }
  TT_CHECK(bad == 0, "%s: %d of %d elements wrong", what, bad, M * N);
  HIPCHECK(hipFree(da)); HIPCHECK(hipFree(db)); HIPCHECK(hipFree(dc)); HIPCHECK(hipFree(dd));
}

int main(void) {
  hipDeviceProp_t prop;
  HIPCHECK(hipGetDeviceProperties(&prop, 0));
  g_ocp_fp8 = !strncmp(prop.gcnArchName, "gfx950", 6);
  run<uint16_t, float>("mfma_f32_16x16x16_bf16", k_bf16_16, E_BF16, 16, 16, 32);
  run<uint16_t, float>("mfma_f32_32x32x8_bf16", k_bf16_32, E_BF16, 32, 32, 16);
  run<uint16_t, float>("mfma_f32_32x32x8_bf16, operands through tk_rt_in_agpr", k_bf16_32_agpr, E_BF16, 32, 32, 16);
  run<uint16_t, float>("mfma_f32_16x16x16_f16", k_f16_16, E_F16, 16, 16, 32);
  run<uint16_t, float>("mfma_f32_32x32x8_f16", k_f16_32, E_F16, 32, 32, 16);
  run<uint8_t, float>("mfma_f32_16x16x32_fp8_fp8", k_fp8_16, E_FP8, 16, 16, 64);
  run<uint8_t, float>("mfma_f32_32x32x16_fp8_fp8", k_fp8_32, E_FP8, 32, 32, 32);
  run<uint8_t, int32_t>("mfma_i32_16x16x32_i8", k_i8_16, E_I8, 16, 16, 64);

  // tile-level products
  std::vector<float> av(TM * TK), bv(TK * TN), cv(TM * TN);
  for (auto &v : av) v = small_value(E_BF16, tt_rand());
  for (auto &v : bv) v = small_value(E_BF16, tt_rand());
  for (auto &v : cv) v = (float)((int)(tt_rand() % 201) - 100);
  std::vector<uint16_t> a(TM * TK), at(TK * TM), b(TK * TN), bt(TN * TK);
  for (int i = 0; i < TM; i++) for (int k = 0; k < TK; k++) { a[i * TK + k] = at[k * TM + i] = tk_f32_to_bf16(av[i * TK + k]); }
  for (int k = 0; k < TK; k++) for (int j = 0; j < TN; j++) { b[k * TN + j] = bt[j * TK + k] = tk_f32_to_bf16(bv[k * TN + j]); }
  uint16_t *da = tt_dev(a), *dat = tt_dev(at), *db = tt_dev(b), *dbt = tt_dev(bt);
  float *dc = tt_dev(cv), *dd = tt_dev(std::vector<float>(5 * TM * TN, -7777.f));
  hipLaunchKernelGGL(k_tiles, dim3(1), dim3(64), 0, 0, da, dat, db, dbt, dc, dd);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> got = tt_host(dd, 5 * TM * TN);
  const char *names[5] = {"mma_AB", "mma_ABt", "mma_AtB", "mma_AtBt", "mma_ABt_rows (1 of 2 row fragments)"};
  for (int v = 0; v < 5; v++) {
    int bad = 0;
    for (int i = 0; i < TM; i++)
      for (int j = 0; j < TN; j++) {
        double ref = cv[i * TN + j];
        if (v < 4 || i < 16) /* mma_ABt_rows: rows of the second fragment keep C */
          for (int k = 0; k < TK; k++) ref += (double)av[i * TK + k] * bv[k * TN + j];
        if (got[v * TM * TN + i * TN + j] != ref && bad++ < 5)
          printf("  %s: D[%d][%d] = %g, expected %g\n", names[v], i, j, got[v * TM * TN + i * TN + j], ref);
      }
    TT_CHECK(bad == 0, "%s (32x48x32 bf16 tiles): %d wrong", names[v], bad);
  }
  return tt_finish();
}
