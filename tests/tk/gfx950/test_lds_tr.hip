// tk_rt_load_tr (tk/lds_tr.h: ds_read_b64_tr_b16) feeding the gfx950
// double-rate MFMAs, checked against a CPU matrix product: A (M x K) is
// stored in LDS column-major (K rows of M, padded), B (K x N) row-major (K rows
// of N, padded), both read with the transposing read into the 16x16x32 /
// 32x32x16 bf16 and f16 kinds, multiplied with tk_mma_AB and compared element
// by element (small integers: every result is exact). Several fragments along
// M, N and K, so the per-fragment addressing is exercised too.
// Needs a gfx950 device (tksim --arch=gfx950).
#include <string.h>
#include "../tk_test.h"
#include "tk/mma.h"
#include "tk/lds_tr.h"
#include "tk/shared.h"

#if TK_HAS_DS_READ_TR
#define TR_KERNEL(name, KA, KB, KC, M, N, K)                                       \
  __global__ void name(const uint16_t *a, const uint16_t *b, float *d) {          \
    enum { RA = 2 * (M) + 16, RB = 2 * (N) + 8 }; /* padded row bytes */          \
    __shared__ __attribute__((aligned(16))) uint16_t sa[(K) * RA / 2];             \
    __shared__ __attribute__((aligned(16))) uint16_t sb[(K) * RB / 2];             \
    int t = threadIdx.x;                                                           \
    for (int e = t; e < (M) * (K); e += 64) sa[(e % (K)) * (RA / 2) + e / (K)] = a[e]; \
    for (int e = t; e < (K) * (N); e += 64) sb[(e / (N)) * (RB / 2) + e % (N)] = b[e]; \
    __syncthreads();                                                               \
    TK_RT(ta_t, KA, M, K); TK_RT(tb_t, KB, K, N); TK_RT(tc_t, KC, M, N);           \
    ta_t A; tb_t B; tc_t C;                                                        \
    tk_rt_load_tr(A, sa, RA);                                                      \
    tk_rt_load_tr(B, sb, RB);                                                      \
    tk_rt_zero(C);                                                                 \
    tk_mma_AB(C, A, B, C);                                                         \
    int l = tk_lane();                                                             \
    for (int fr = 0; fr < (int)tc_t::tk_frag_count_r; fr++)                                  \
      for (int fc = 0; fc < (int)tc_t::tk_frag_count_c; fc++)                                \
        for (int i = 0; i < (int)tc_t::tk_n; i++) {                                \
          int r = fr * (int)tc_t::tk_frag_rows + tk_layout_c_row((int)tc_t::tk_frag_rows, l, i); \
          int c = fc * (int)tc_t::tk_frag_cols + tk_layout_c_col((int)tc_t::tk_frag_rows, l, i); \
          d[r * (N) + c] = ((float *)(void *)&C.f[fr * (int)tc_t::tk_frag_count_c + fc])[i];  \
        }                                                                          \
  }
#else
#define TR_KERNEL(name, KA, KB, KC, M, N, K)                                       \
  __global__ void name(const uint16_t *, const uint16_t *, float *) {}
#endif
TR_KERNEL(k_bf16_16, TK_K_A_BF16_16x16x32, TK_K_B_BF16_16x16x32, TK_K_C_F32_16x16, 32, 32, 64)
TR_KERNEL(k_bf16_32, TK_K_A_BF16_32x32x16, TK_K_B_BF16_32x32x16, TK_K_C_F32_32x32, 32, 64, 32)
TR_KERNEL(k_f16_16, TK_K_A_F16_16x16x32, TK_K_B_F16_16x16x32, TK_K_C_F32_16x16, 16, 48, 32)
TR_KERNEL(k_f16_32, TK_K_A_F16_32x32x16, TK_K_B_F16_32x32x16, TK_K_C_F32_32x32, 64, 32, 16)
// single-rate kinds (one ds_read_b64_tr_b16 per fragment); K = 24 is three K fragments, so
// tk_mma issues one paired double-rate MFMA and one single-rate one
TR_KERNEL(k_bf16_32x8, TK_K_A_BF16_32x32x8, TK_K_B_BF16_32x32x8, TK_K_C_F32_32x32, 32, 64, 24)
TR_KERNEL(k_bf16_16x16, TK_K_A_BF16_16x16x16, TK_K_B_BF16_16x16x16, TK_K_C_F32_16x16, 48, 16, 32)
TR_KERNEL(k_f16_32x8, TK_K_A_F16_32x32x8, TK_K_B_F16_32x32x8, TK_K_C_F32_32x32, 32, 32, 16)

// tk_st_load_tr: the same reads from swizzled TK_ST tiles (TK_LDS_SWZ, the layout attention's
// Q and dO tiles use): A (M = 32 x K = 32) stored K x M at columns 32..63 of a 32 x 64 tile
// (the window's column offset c0), B (K = 32 x N = 64) stored K x N in a 32 x 64 tile; both
// single-rate 32x32x8 (one read per fragment) and both double-rate 32x32x16 (two per fragment)
#if TK_HAS_DS_READ_TR
TK_ST(st_kx64_t, tk_bf16, 32, 64, TK_LDS_SWZ);
#define ST_KERNEL(name, KA, KB)                                                    \
  __global__ void name(const uint16_t *a, const uint16_t *b, float *d) {          \
    __shared__ st_kx64_t sa, sb;                                                   \
    int t = threadIdx.x;                                                           \
    for (int e = t; e < 32 * 32; e += 64) /* a[m][k] -> (k, 32 + m) */             \
      *(uint16_t *)((char *)sa.data + tk_st_offset(st_kx64_t, e % 32, 32 + e / 32)) = a[e]; \
    for (int e = t; e < 32 * 64; e += 64) /* b[k][n] -> (k, n) */                  \
      *(uint16_t *)((char *)sb.data + tk_st_offset(st_kx64_t, e / 64, e % 64)) = b[e]; \
    __syncthreads();                                                               \
    TK_RT(ta_t, KA, 32, 32); TK_RT(tb_t, KB, 32, 64); TK_RT(tc_t, TK_K_C_F32_32x32, 32, 64); \
    ta_t A; tb_t B; tc_t C;                                                        \
    tk_st_load_tr(A, sa, 0, 32);                                                   \
    tk_st_load_tr(B, sb, 0, 0);                                                    \
    tk_rt_zero(C);                                                                 \
    tk_mma_AB(C, A, B, C);                                                         \
    int l = tk_lane();                                                             \
    for (int fr = 0; fr < (int)tc_t::tk_frag_count_r; fr++)                        \
      for (int fc = 0; fc < (int)tc_t::tk_frag_count_c; fc++)                      \
        for (int i = 0; i < (int)tc_t::tk_n; i++) {                                \
          int r = fr * (int)tc_t::tk_frag_rows + tk_layout_c_row((int)tc_t::tk_frag_rows, l, i); \
          int c = fc * (int)tc_t::tk_frag_cols + tk_layout_c_col((int)tc_t::tk_frag_rows, l, i); \
          d[r * 64 + c] = ((float *)(void *)&C.f[fr * (int)tc_t::tk_frag_count_c + fc])[i]; \
        }                                                                          \
  }
#else
#define ST_KERNEL(name, KA, KB)                                                    \
  __global__ void name(const uint16_t *, const uint16_t *, float *) {}
#endif
ST_KERNEL(k_st_bf16_32x8, TK_K_A_BF16_32x32x8, TK_K_B_BF16_32x32x8)
ST_KERNEL(k_st_bf16_32x16, TK_K_A_BF16_32x32x16, TK_K_B_BF16_32x32x16)

static void run(const char *what, void (*kern)(const uint16_t *, const uint16_t *, float *), int bf16, int M, int N,
                int K) {
  std::vector<float> av(M * K), bv(K * N);
  std::vector<uint16_t> ae(M * K), be(K * N);
  for (int i = 0; i < M * K; i++) { av[i] = (float)((int)(tt_rand() % 9) - 4); ae[i] = bf16 ? tk_f32_to_bf16(av[i]) : tk_f32_to_f16(av[i]); }
  for (int i = 0; i < K * N; i++) { bv[i] = (float)((int)(tt_rand() % 9) - 4); be[i] = bf16 ? tk_f32_to_bf16(bv[i]) : tk_f32_to_f16(bv[i]); }
  uint16_t *da = tt_dev(ae), *db = tt_dev(be);
  float *dd = tt_dev(std::vector<float>(M * N, -7777.f));
  hipLaunchKernelGGL(kern, dim3(1), dim3(64), 0, 0, da, db, dd);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> got = tt_host(dd, M * N);
  int bad = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double ref = 0;
      for (int k = 0; k < K; k++) ref += (double)av[i * K + k] * bv[k * N + j];
      if (got[i * N + j] != ref && bad++ < 5) printf("  %s: D[%d][%d] = %g, expected %g\n", what, i, j, got[i * N + j], ref);
    }
  TT_CHECK(bad == 0, "%s: %d of %d elements wrong", what, bad, M * N);
  HIPCHECK(hipFree(da)); HIPCHECK(hipFree(db)); HIPCHECK(hipFree(dd));
}

int main() {
  hipDeviceProp_t p;
  HIPCHECK(hipGetDeviceProperties(&p, 0));
  if (strncmp(p.gcnArchName, "gfx950", 6)) {
    printf("FAIL: needs a gfx950 device (this one is %s; tksim --arch=gfx950)\n", p.gcnArchName);
    return 1;
  }
  run("bf16 16x16x32 tr, 32x32x64", k_bf16_16, 1, 32, 32, 64);
  run("bf16 32x32x16 tr, 32x64x32", k_bf16_32, 1, 32, 64, 32);
  run("f16 16x16x32 tr, 16x48x32", k_f16_16, 0, 16, 48, 32);
  run("f16 32x32x16 tr, 64x32x16", k_f16_32, 0, 64, 32, 16);
  run("bf16 32x32x8 tr, 32x64x24", k_bf16_32x8, 1, 32, 64, 24);
  run("bf16 16x16x16 tr, 48x16x32", k_bf16_16x16, 1, 48, 16, 32);
  run("f16 32x32x8 tr, 32x32x16", k_f16_32x8, 0, 32, 32, 16);
  run("bf16 32x32x8 tk_st_load_tr from swizzled tiles, 32x64x32", k_st_bf16_32x8, 1, 32, 64, 32);
  run("bf16 32x32x16 tk_st_load_tr from swizzled tiles, 32x64x32", k_st_bf16_32x16, 1, 32, 64, 32);
  return tt_finish();
}
