/* mfma_rate_mi355x: CDNA4 MFMA peak rates under tksim --arch=gfx950
 * --model=mi355x, against AMD's MI355X product page: dense BF16 2516.6,
 * FP8 5033.2, MXFP4 10066.3 TFLOP/s at 256 CUs x 2400 MHz, i.e. 4096, 8192
 * and 16384 FLOP per CU per clock (ISSCC 2026 MI355X paper: 8192 FP8
 * FLOP/clk/CU). One group of 4 waves (one per SIMD) per CU, 4 independent
 * accumulators per wave; each kernel's modeled time must give the documented
 * per-CU rate within 2%, and that rate at the 2400 MHz peak clock on 256 CUs
 * the documented peak. The CDNA3 shape v_mfma_f32_16x16x16_bf16 keeps its
 * CDNA3 cycle count on gfx950 (LLVM's gfx950 scheduling model: the same
 * throughput as 16x16x32_bf16), i.e. half the rate: 2048 FLOP/clk/CU. The model's clock under load is an assumption
 * (sim/model/params.c); the rate per clock is not. */
#include "model_common.h"

/* MI355X under MFMA load: the parameter table's clock (ASSUMPTION: MI325X's
 * measured 1447/2100 of peak applied to 2400 MHz). */
#define MI355X_CLOCK_HZ (2400e6 * 1447.0 / 2100.0)
#define MI355X_PEAK_CLOCK_HZ 2400e6
#define MI355X_CUS 256

typedef __bf16 bf16x8 __attribute__((ext_vector_type(8)));
typedef int i32x8 __attribute__((ext_vector_type(8)));
typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef short i16x4 __attribute__((ext_vector_type(4)));

/* fmt: 0 bf16 (v_mfma_f32_16x16x32_bf16), 1 fp8 x fp8 and 2 fp4 x fp4
 * (v_mfma_f32_16x16x128_f8f6f4 with cbsz/blgp 0 and 4), 3 the CDNA3 shape
 * v_mfma_f32_16x16x16_bf16 */
template <int fmt> __global__ void mfma_peak(float *out, int iters)
{
  f32x4 c0 = {}, c1 = {}, c2 = {}, c3 = {};
#if defined(__gfx950__)
  if (fmt == 3) {
    i16x4 a = {(short)threadIdx.x, 1, 2, 3}, b = {3, 2, 1, (short)threadIdx.x};
    for (int i = 0; i < iters; i++) {
      c0 = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c0, 0, 0, 0);
      c1 = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c1, 0, 0, 0);
      c2 = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c2, 0, 0, 0);
      c3 = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c3, 0, 0, 0);
    }
  } else if (fmt == 0) {
    bf16x8 a, b;
    for (int i = 0; i < 8; i++) { a[i] = (__bf16)(float)(threadIdx.x + i); b[i] = (__bf16)(float)(i - 3); }
    for (int i = 0; i < iters; i++) {
      c0 = __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c0, 0, 0, 0);
      c1 = __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c1, 0, 0, 0);
      c2 = __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c2, 0, 0, 0);
      c3 = __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, c3, 0, 0, 0);
    }
  } else {
    i32x8 a, b;
    for (int i = 0; i < 8; i++) { a[i] = 0x38383838 + (int)threadIdx.x; b[i] = 0x30303030 + i; }
    const int f = fmt == 1 ? 0 : 4;
    for (int i = 0; i < iters; i++) {
      c0 = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c0, f, f, 0, 127, 0, 127);
      c1 = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c1, f, f, 0, 127, 0, 127);
      c2 = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c2, f, f, 0, 127, 0, 127);
      c3 = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c3, f, f, 0, 127, 0, 127);
    }
  }
#else
  (void)iters; /* the gfx942 pass: never run (the test runs on gfx950) */
#endif
  float s = 0;
  for (int i = 0; i < 4; i++) s += c0[i] + c1[i] + c2[i] + c3[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static int check(const char *what, float ms, double flop_per_mfma, int iters, double doc_cu_clk,
                 double doc_tflops)
{
  double flop_per_group = 4.0 /*waves*/ * 4 * iters * flop_per_mfma;
  double rate = flop_per_group / (ms * 1e-3 * MI355X_CLOCK_HZ); /* per CU per clock */
  char name[128];
  snprintf(name, sizeof name, "%s FLOP/clk/CU", what);
  int ok = within(name, rate, doc_cu_clk, 0.02);
  snprintf(name, sizeof name, "%s TFLOP/s at 256 CUs x 2400 MHz", what);
  ok &= within(name, rate * MI355X_CUS * MI355X_PEAK_CLOCK_HZ / 1e12, doc_tflops, 0.02);
  return ok;
}

int main()
{
  const char *m = getenv("TKSIM_MODEL"), *a = getenv("TKSIM_ARCH");
  if (!m || strcmp(m, "mi355x") || !a || strcmp(a, "gfx950")) {
    fprintf(stderr, "run under: tksim --arch=gfx950 --model=mi355x PROGRAM\n");
    return 2;
  }
  const int groups = 4, iters = 2048;
  float *out;
  CHECK_HIP(hipMalloc(&out, groups * 256 * sizeof(float)));
  int ok = 1;
  float ms = time_ms([&] { hipLaunchKernelGGL(mfma_peak<0>, dim3(groups), dim3(256), 0, 0, out, iters); });
  ok &= check("BF16 v_mfma_f32_16x16x32_bf16", ms, 16.0 * 16 * 32 * 2, iters, 4096, 2516.6);
  ms = time_ms([&] { hipLaunchKernelGGL(mfma_peak<1>, dim3(groups), dim3(256), 0, 0, out, iters); });
  ok &= check("FP8 v_mfma_f32_16x16x128_f8f6f4", ms, 16.0 * 16 * 128 * 2, iters, 8192, 5033.2);
  ms = time_ms([&] { hipLaunchKernelGGL(mfma_peak<2>, dim3(groups), dim3(256), 0, 0, out, iters); });
  ok &= check("FP4 v_mfma_f32_16x16x128_f8f6f4", ms, 16.0 * 16 * 128 * 2, iters, 16384, 10066.3);
  ms = time_ms([&] { hipLaunchKernelGGL(mfma_peak<3>, dim3(groups), dim3(256), 0, 0, out, iters); });
  ok &= check("BF16 CDNA3 shape v_mfma_f32_16x16x16_bf16", ms, 16.0 * 16 * 16 * 2, iters, 2048, 2516.6 / 2);
  CHECK_HIP(hipFree(out));
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
