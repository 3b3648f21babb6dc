// Device test for tk/stores.h against CPU references: accumulator tiles
// (values a known function of their row/column, placed by register.h's
// documented MFMA output layout) stored to f32 and bf16 tensors with
// alpha/beta epilogues, through LDS (f32 swizzled, bf16 linear) and back to
// global, for tiles inside and across the tensor edges.  The tensors have
// padding columns and guard rows filled with a sentinel that must survive:
// out-of-tensor stores must be dropped.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tk/stores.h"

TK_RT(acc_t, TK_K_C_F32_32x32, 64, 64);
TK_RT(acc16_t, TK_K_C_F32_16x16, 32, 64);
TK_ST(st_f32, float, 64, 64, TK_LDS_SWZ);
TK_ST(st_bf16, tk_bf16, 64, 64, TK_LDS_LINEAR);
TK_ST(st_bf16s, tk_bf16, 64, 64, TK_LDS_SWZ);

__host__ __device__ static float val(int64_t r, int64_t c) { return (float)(r * 3 - c * 2) * 0.25f + 1.0f; }

#define FILL_ACC(acc, T, r0, c0)                                                   \
  do {                                                                             \
    const int l_ = (int)tk_lane_id();                                              \
    for (int f_ = 0; f_ < T::tk_frag_count_r * T::tk_frag_count_c; f_++)                               \
      for (int i_ = 0; i_ < T::tk_n; i_++) {                                       \
        int fr_ = f_ / T::tk_frag_count_c, fc_ = f_ % T::tk_frag_count_c;                              \
        acc.f[f_][i_] = val((r0) + fr_ * T::tk_frag_rows + tk_layout_c_row(T::tk_frag_rows, l_, i_), \
                            (c0) + fc_ * T::tk_frag_cols + tk_layout_c_col(T::tk_frag_cols, l_, i_)); \
      }                                                                            \
  } while (0)

// one wave per block; block (x, y) stores tile (y, x)
__global__ void k_acc_f32(tk_gl g, float alpha, float beta) {
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const int64_t r0 = (int64_t)blockIdx.y * 64, c0 = (int64_t)blockIdx.x * 64;
  acc_t acc;
  FILL_ACC(acc, acc_t, r0, c0);
  tk_store_acc_f32(&g, rs, 0, 0, r0, c0, acc, alpha, beta);
}
__global__ void k_acc_bf16(tk_gl g, float alpha, float beta) {
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const int64_t r0 = (int64_t)blockIdx.y * 32, c0 = (int64_t)blockIdx.x * 64;
  acc16_t acc;
  FILL_ACC(acc, acc16_t, r0, c0);
  tk_store_acc_bf16(&g, rs, 0, 0, r0, c0, acc, alpha, beta);
}
// acc -> LDS -> global, 256 threads: 4 waves each own 16 rows... simpler: wave w
// stores the whole acc only if w == 0, then all waves copy LDS -> global.
__global__ void k_via_lds_f32(tk_gl g) {
  __shared__ st_f32 s;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const int64_t r0 = (int64_t)blockIdx.y * 64, c0 = (int64_t)blockIdx.x * 64;
  if (tk_wave_id() == 0) {
    acc_t acc;
    FILL_ACC(acc, acc_t, r0, c0);
    tk_store_acc_lds(s, acc, 0, 0);
  }
  tk_lds_barrier();
  tk_store_lds_global(&g, rs, 0, 0, r0, c0, s, threadIdx.x, 256);
}
__global__ void k_via_lds_bf16(tk_gl g) {
  __shared__ st_bf16 s;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const int64_t r0 = (int64_t)blockIdx.y * 64, c0 = (int64_t)blockIdx.x * 64;
  if (tk_wave_id() == 1) {
    acc16_t acc;  // 32 rows: two halves
    FILL_ACC(acc, acc16_t, r0, c0);
    tk_store_acc_lds(s, acc, 0, 0);
    FILL_ACC(acc, acc16_t, r0 + 32, c0);
    tk_store_acc_lds(s, acc, 32, 0);
  }
  tk_lds_barrier();
  tk_store_lds_global(&g, rs, 0, 0, r0, c0, s, threadIdx.x, 256);
}
// the same through a swizzled bf16 tile: 32x32 fragments at the constant
// origin (0, 0) (tk_store_acc_lds's one-XOR offsets), then rows 16..47
// rewritten with the same values from 16x16 fragments at a runtime origin
// (the general offsets)
__global__ void k_via_lds_bf16_swz(tk_gl g, int32_t rt16) {
  __shared__ st_bf16s s;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const int64_t r0 = (int64_t)blockIdx.y * 64, c0 = (int64_t)blockIdx.x * 64;
  if (tk_wave_id() == 2) {
    acc_t acc;  // 64 x 64 in 32x32 fragments
    FILL_ACC(acc, acc_t, r0, c0);
    tk_store_acc_lds(s, acc, 0, 0);
  }
  tk_lds_barrier();
  if (tk_wave_id() == 3) {  // rows 16..47 again (same values) from 16x16 fragments at a runtime origin
    acc16_t acc;
    FILL_ACC(acc, acc16_t, r0 + rt16, c0);
    tk_store_acc_lds(s, acc, rt16, 0);
  }
  tk_lds_barrier();
  tk_store_lds_global(&g, rs, 0, 0, r0, c0, s, threadIdx.x, 256);
}

#define HIPCHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_)); exit(1); } } while (0)
static int bad = 0;
#define EXPECT(c, ...) do { if (!(c)) { if (bad++ < 12) { fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); } } } while (0)

static const int64_t R = 100, C = 136, S = 144, GUARD = 2;  // stride S > C: padding columns
static const float SENT = -12345.0f;


// run one f32 case; mode 0: acc alpha/beta, 1: via LDS
static void run_f32(int mode, float alpha, float beta) {
  size_t n = (size_t)(R + GUARD) * S;
  float *h = (float *)malloc(n * 4), *o = (float *)malloc(n * 4), *c0 = (float *)malloc(n * 4);
  for (size_t i = 0; i < n; i++) {
    int64_t r = (int64_t)i / S, c = (int64_t)i % S;
    c0[i] = (r < R && c < C) ? (float)((i * 37) % 101) - 50.0f : SENT;
    h[i] = c0[i];
  }
  void *d;
  HIPCHECK(hipMalloc(&d, n * 4));
  HIPCHECK(hipMemcpy(d, h, n * 4, hipMemcpyHostToDevice));
  tk_gl g;
  int64_t dims[2] = {R, C}, strides[2] = {S, 1};
  if (tk_gl_make(&g, d, 4, 2, dims, strides)) { fprintf(stderr, "tk_gl_make failed\n"); exit(1); }
  dim3 grid((unsigned)((C + 63) / 64), (unsigned)((R + 63) / 64));
  if (mode == 0) hipLaunchKernelGGL(k_acc_f32, grid, dim3(64), 0, 0, g, alpha, beta);
  else hipLaunchKernelGGL(k_via_lds_f32, grid, dim3(256), 0, 0, g);
  HIPCHECK(hipDeviceSynchronize());
  HIPCHECK(hipMemcpy(o, d, n * 4, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i++) {
    int64_t r = (int64_t)i / S, c = (int64_t)i % S;
    float want = SENT;
    if (r < R && c < C) want = mode == 0 ? alpha * val(r, c) + beta * c0[i] : val(r, c);
    EXPECT(fabsf(o[i] - want) <= 1e-5f * fabsf(want), "f32 mode %d alpha %g beta %g (%ld,%ld): %g want %g", mode, alpha,
           beta, (long)r, (long)c, o[i], want);
  }
  HIPCHECK(hipFree(d));
  free(h); free(o); free(c0);
}

static void run_bf16(int mode, float alpha, float beta) {
  size_t n = (size_t)(R + GUARD) * S;
  uint16_t *h = (uint16_t *)malloc(n * 2), *o = (uint16_t *)malloc(n * 2);
  const uint16_t sent = tk_f32_to_bf16(SENT);
  for (size_t i = 0; i < n; i++) {
    int64_t r = (int64_t)i / S, c = (int64_t)i % S;
    h[i] = (r < R && c < C) ? tk_f32_to_bf16((float)((i * 13) % 29) - 14.0f) : sent;
  }
  void *d;
  HIPCHECK(hipMalloc(&d, n * 2));
  HIPCHECK(hipMemcpy(d, h, n * 2, hipMemcpyHostToDevice));
  tk_gl g;
  int64_t dims[2] = {R, C}, strides[2] = {S, 1};
  if (tk_gl_make(&g, d, 2, 2, dims, strides)) { fprintf(stderr, "tk_gl_make failed\n"); exit(1); }
  if (mode == 0)
    hipLaunchKernelGGL(k_acc_bf16, dim3((unsigned)((C + 63) / 64), (unsigned)((R + 31) / 32)), dim3(64), 0, 0, g, alpha, beta);
  else if (mode == 1)
    hipLaunchKernelGGL(k_via_lds_bf16, dim3((unsigned)((C + 63) / 64), (unsigned)((R + 63) / 64)), dim3(256), 0, 0, g);
  else
    hipLaunchKernelGGL(k_via_lds_bf16_swz, dim3((unsigned)((C + 63) / 64), (unsigned)((R + 63) / 64)), dim3(256), 0, 0,
                       g, 16);
  HIPCHECK(hipDeviceSynchronize());
  HIPCHECK(hipMemcpy(o, d, n * 2, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i++) {
    int64_t r = (int64_t)i / S, c = (int64_t)i % S;
    uint16_t want = sent;
    if (r < R && c < C)
      want = tk_f32_to_bf16(mode == 0 ? alpha * val(r, c) + beta * tk_bf16_to_f32(h[i]) : val(r, c));
    EXPECT(o[i] == want, "bf16 mode %d alpha %g beta %g (%ld,%ld): %g want %g", mode, alpha, beta, (long)r, (long)c,
           tk_bf16_to_f32(o[i]), tk_bf16_to_f32(want));
  }
  HIPCHECK(hipFree(d));
  free(h); free(o);
}

int main(void) {
  run_f32(0, 1.0f, 0.0f);
  run_f32(0, 0.5f, -2.0f);
  run_f32(1, 1.0f, 0.0f);
  run_bf16(0, 1.0f, 0.0f);
  run_bf16(0, 2.0f, 0.5f);
  run_bf16(1, 1.0f, 0.0f);
  run_bf16(2, 1.0f, 0.0f);
  if (bad) { fprintf(stderr, "test_stores: %d mismatches\n", bad); return 1; }
  printf("test_stores: f32/bf16 acc stores (alpha/beta), acc->LDS->global: %ldx%ld in stride %ld, guards intact\n",
         (long)R, (long)C, (long)S);
  return 0;
}
