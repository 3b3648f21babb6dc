// The code of docs/tutorial.md ("your first kernel"): C = A * B^T in bf16 with
// f32 accumulation, one wave per 32x32 output tile, K in steps of 64, using
// grid.h (tile order), loads.h (group load + prefetch), mma.h, stores.h.
// Checked against a CPU product of the same bf16 inputs.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tk/tk.h"

// --- tutorial: types ---
#define BM 32   // output tile rows (M)
#define BN 32   // output tile cols (N)
#define BK 64   // K per step
TK_ST(a_smem, tk_bf16, BM, BK, TK_LDS_SWZ);      // A tile in LDS, swizzled
TK_ST(b_smem, tk_bf16, BN, BK, TK_LDS_SWZ);      // B^T tile (N x K) in LDS
TK_STAGE(a_stage, a_smem, 64);                   // staging registers, 64 threads
TK_STAGE(b_stage, b_smem, 64);
TK_RT(a_reg, TK_K_A_BF16_32x32x8, BM, BK);       // MFMA A operand fragments
TK_RT(b_reg, TK_K_A_BF16_32x32x8, BN, BK);       // B^T held in the A kind
TK_RT(acc_reg, TK_K_C_F32_32x32, BM, BN);        // f32 accumulator
TK_PENDING(a_pend, a_reg);
TK_PENDING(b_pend, b_reg);

// --- tutorial: kernel ---
__global__ void tutorial_gemm(tk_gl a, tk_gl bt, tk_gl c) {
  __shared__ a_smem as;
  __shared__ b_smem bs;
  const tk_rsrc ra = tk_gl_rsrc(&a), rb = tk_gl_rsrc(&bt), rc = tk_gl_rsrc(&c);
  const uint32_t tid = threadIdx.x;
  const uint32_t tiles_m = (uint32_t)((c.dims[2] + BM - 1) / BM), tiles_n = (uint32_t)((c.dims[3] + BN - 1) / BN);
  uint32_t tm, tn;
  tk_grid_tile(blockIdx.x, gridDim.x, tiles_m, tiles_n, 4, TK_NUM_XCDS, &tm, &tn);
  const int64_t m0 = (int64_t)tm * BM, n0 = (int64_t)tn * BN;

  acc_reg acc;
  tk_rt_zero(acc);
  for (int64_t k0 = 0; k0 < a.dims[3]; k0 += BK) {
    a_stage sa;
    b_stage sb;
    tk_load_issue(sa, &a, ra, 0, 0, m0, k0, tid);     // all global loads first
    tk_load_issue(sb, &bt, rb, 0, 0, n0, k0, tid);
    tk_load_commit(as, sa, tid, TK_STAGE_NLOADS(sb)); // B's loads may still fly
    tk_load_commit(bs, sb, tid, 0);
    tk_lds_barrier();                                 // LDS writes -> reads
    a_pend pa;
    b_pend pb;
    a_reg fa;
    b_reg fb;
    tk_prefetch_issue(pa, as, 0, 0);                  // ds_read_b64s
    tk_prefetch_issue(pb, bs, 0, 0);
    tk_prefetch_wait(fa, pa, 8);                      // B's 8 reads may still fly
    tk_prefetch_wait(fb, pb, 0);
    tk_mma_ABt(acc, fa, fb, acc);                     // 8 x v_mfma_f32_32x32x8_bf16
    tk_barrier();                                     // all reads done before the next writes
  }
  tk_store_acc_f32(&c, rc, 0, 0, m0, n0, acc, 1.0f, 0.0f);  // edges dropped
}
// --- tutorial: end ---

// --- tutorial: row-wise (RMSNorm, one row per wave) ---
TK_RV(row_t, 1024, 64);                    // a row of up to 1024 values over 64 threads

__global__ void tutorial_rmsnorm(tk_gl x, tk_gl w, tk_gl y, float eps) {
  const int64_t row = blockIdx.x;            // one row per 64-thread workgroup
  const int n = (int)x.dims[3];              // int: widths fit, and (float)n stays a 32-bit convert
  const int t = threadIdx.x;
  const tk_rsrc rx = tk_gl_rsrc(&x), rw = tk_gl_rsrc(&w), ry = tk_gl_rsrc(&y);
  row_t v, g, sq;
  tk_rv_load_bf16(v, rx, (uint32_t)(row * x.strides[2] * 2), n, t);  // columns >= n read 0
  tk_rv_load_bf16(g, rw, 0u, n, t);
  tk_rv_mul(sq, v, v);
  const float ms = tk_rv_sum(sq, NULL) / (float)n;                    // every lane gets the sum
  tk_rv_mul_s(v, v, 1.0f / __builtin_sqrtf(ms + eps));
  tk_rv_mul(v, v, g);
  tk_rv_store_bf16(v, ry, (uint32_t)(row * y.strides[2] * 2), n, t);  // columns >= n not written
}

static int rmsnorm_check(void);

#define HIPCHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_)); exit(1); } } while (0)

int main(void) {
  const int64_t M = 80, N = 72, K = 136;  // not multiples of the tile; K*2 % 16 == 0
  uint16_t *ha = (uint16_t *)malloc(M * K * 2), *hb = (uint16_t *)malloc(N * K * 2);
  for (int64_t i = 0; i < M * K; i++) ha[i] = tk_f32_to_bf16((float)((i * 7) % 19 - 9) * 0.125f);
  for (int64_t i = 0; i < N * K; i++) hb[i] = tk_f32_to_bf16((float)((i * 5) % 23 - 11) * 0.25f);
  void *da, *db, *dc;
  HIPCHECK(hipMalloc(&da, M * K * 2));
  HIPCHECK(hipMalloc(&db, N * K * 2));
  HIPCHECK(hipMalloc(&dc, M * N * 4));
  HIPCHECK(hipMemcpy(da, ha, M * K * 2, hipMemcpyHostToDevice));
  HIPCHECK(hipMemcpy(db, hb, N * K * 2, hipMemcpyHostToDevice));
  HIPCHECK(hipMemset(dc, 0, M * N * 4));
  tk_gl a, bt, c;
  int64_t da_[2] = {M, K}, db_[2] = {N, K}, dc_[2] = {M, N};
  int e;
  if ((e = tk_gl_make(&a, da, 2, 2, da_, NULL)) || (e = tk_gl_make(&bt, db, 2, 2, db_, NULL)) ||
      (e = tk_gl_make(&c, dc, 4, 2, dc_, NULL))) {
    fprintf(stderr, "%s\n", tk_err_str(e));
    return 1;
  }
  if (!tk_load_shape_ok(&a, 0) || !tk_load_shape_ok(&bt, 0)) { fprintf(stderr, "K must be a multiple of 8\n"); return 1; }
  const unsigned tiles = (unsigned)(((M + BM - 1) / BM) * ((N + BN - 1) / BN));
  hipLaunchKernelGGL(tutorial_gemm, dim3(tiles), dim3(64), 0, 0, a, bt, c);
  HIPCHECK(hipDeviceSynchronize());
  float *hc = (float *)malloc(M * N * 4);
  HIPCHECK(hipMemcpy(hc, dc, M * N * 4, hipMemcpyDeviceToHost));
  int bad = 0;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      double ref = 0;
      for (int64_t k = 0; k < K; k++) ref += (double)tk_bf16_to_f32(ha[i * K + k]) * tk_bf16_to_f32(hb[j * K + k]);
      if (fabs(hc[i * N + j] - ref) > 1e-3 * (1 + fabs(ref)) && bad++ < 10)
        fprintf(stderr, "C(%ld,%ld) = %g, want %g\n", (long)i, (long)j, hc[i * N + j], ref);
    }
  if (bad) { fprintf(stderr, "test_tutorial: %d mismatches\n", bad); return 1; }
  printf("test_tutorial: %ldx%ldx%ld bf16 GEMM (%u tiles) matches the CPU product\n", (long)M, (long)N, (long)K, tiles);
  return rmsnorm_check();
}

// the row-wise section: 5 rows of 1001 columns at an odd pitch (1003: the
// rows are not 16-byte aligned, so the loads take the element path)
static int rmsnorm_check(void) {
  const int64_t M = 5, N = 1001, LD = 1003;
  uint16_t *hx = (uint16_t *)malloc(M * LD * 2), *hw = (uint16_t *)malloc(N * 2), *hy = (uint16_t *)malloc(M * LD * 2);
  for (int64_t i = 0; i < M * LD; i++) hx[i] = tk_f32_to_bf16((float)((i * 13) % 41 - 20) * 0.0625f);
  for (int64_t i = 0; i < N; i++) hw[i] = tk_f32_to_bf16(0.5f + (float)(i % 7) * 0.125f);
  void *dx, *dw, *dy;
  HIPCHECK(hipMalloc(&dx, M * LD * 2));
  HIPCHECK(hipMalloc(&dw, N * 2));
  HIPCHECK(hipMalloc(&dy, M * LD * 2));
  HIPCHECK(hipMemcpy(dx, hx, M * LD * 2, hipMemcpyHostToDevice));
  HIPCHECK(hipMemcpy(dw, hw, N * 2, hipMemcpyHostToDevice));
  HIPCHECK(hipMemset(dy, 0x55, M * LD * 2));
  tk_gl x, w, y;
  int64_t dxy[2] = {M, N}, sxy[2] = {LD, 1}, dw_[1] = {N};
  if (tk_gl_make(&x, dx, 2, 2, dxy, sxy) || tk_gl_make(&w, dw, 2, 1, dw_, NULL) || tk_gl_make(&y, dy, 2, 2, dxy, sxy)) return 1;
  hipLaunchKernelGGL(tutorial_rmsnorm, dim3((unsigned)M), dim3(64), 0, 0, x, w, y, 1e-5f);
  HIPCHECK(hipDeviceSynchronize());
  HIPCHECK(hipMemcpy(hy, dy, M * LD * 2, hipMemcpyDeviceToHost));
  int bad = 0;
  for (int64_t i = 0; i < M; i++) {
    double ms = 0;
    for (int64_t j = 0; j < N; j++) ms += (double)tk_bf16_to_f32(hx[i * LD + j]) * tk_bf16_to_f32(hx[i * LD + j]);
    const double r = 1.0 / sqrt(ms / N + 1e-5);
    for (int64_t j = 0; j < LD; j++) {
      if (j >= N) { bad += hy[i * LD + j] != 0x5555; continue; }
      const double ref = tk_bf16_to_f32(hx[i * LD + j]) * r * tk_bf16_to_f32(hw[j]);
      if (fabs(tk_bf16_to_f32(hy[i * LD + j]) - ref) > 0.004 * fabs(ref) + 1e-6 && bad++ < 10)
        fprintf(stderr, "y(%ld,%ld) = %g, want %g\n", (long)i, (long)j, tk_bf16_to_f32(hy[i * LD + j]), ref);
    }
  }
  if (bad) { fprintf(stderr, "test_tutorial: rmsnorm: %d mismatches\n", bad); return 1; }
  printf("test_tutorial: %ldx%ld RMSNorm (odd pitch %ld) matches the CPU reference\n", (long)M, (long)N, (long)LD);
  return 0;
}
