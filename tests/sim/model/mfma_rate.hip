/* mfma_rate: v_mfma_f32_32x32x8_bf16 throughput and dependent-chain latency.
 * Peak: 4 waves (one per SIMD), 4 independent accumulators each; one group
 * per CU (grid < 304), so the modeled time must give 2048 bf16 FLOP/clk/CU
 * (CDNA3 white paper) within 2%. Chain: one wave, every MFMA uses the previous
 * result as SrcC; the matrix instruction calculator gives 16384 FLOPs at
 * 512 FLOP/clk/SIMD = 32 cycles per instruction, back to back through SrcC
 * forwarding (CDNA3 ISA guide, MFMA dependency table). */
#include "model_common.h"

typedef short bf16x4 __attribute__((ext_vector_type(4)));
typedef float f32x16 __attribute__((ext_vector_type(16)));

__global__ void mfma_peak(float *out, int iters)
{
  bf16x4 a = {(short)threadIdx.x, 1, 2, 3}, b = {3, 2, 1, (short)threadIdx.x};
  f32x16 c0 = {}, c1 = {}, c2 = {}, c3 = {};
  for (int i = 0; i < iters; i++) {
    c0 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c0, 0, 0, 0);
    c1 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c1, 0, 0, 0);
    c2 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c2, 0, 0, 0);
    c3 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c3, 0, 0, 0);
  }
  float s = 0;
  for (int i = 0; i < 16; i++) s += c0[i] + c1[i] + c2[i] + c3[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void mfma_chain(float *out, int iters)
{
  bf16x4 a = {(short)threadIdx.x, 1, 2, 3}, b = {3, 2, 1, (short)threadIdx.x};
  f32x16 c = {};
  for (int i = 0; i < iters; i++) c = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, 0, 0, 0);
  float s = 0;
  for (int i = 0; i < 16; i++) s += c[i];
  out[threadIdx.x] = s;
}

int main()
{
  require_model();
  const int groups = 4, iters = 1024;
  float *out;
  CHECK_HIP(hipMalloc(&out, groups * 256 * sizeof(float)));
  float ms = time_ms([&] { hipLaunchKernelGGL(mfma_peak, dim3(groups), dim3(256), 0, 0, out, iters); });
  double flop_per_group = 4.0 /*waves*/ * 4 * iters * (32.0 * 32 * 8 * 2);
  double rate = flop_per_group / (ms * 1e-3 * DOC_CLOCK_HZ); /* per CU per clock */
  int ok = within("MFMA bf16 FLOP/clk/CU", rate, DOC_BF16_FLOP_PER_CU_CLK, 0.02);

  const int chain = 2048;
  ms = time_ms([&] { hipLaunchKernelGGL(mfma_chain, dim3(1), dim3(64), 0, 0, out, chain); });
  double cyc = ms * 1e-3 * DOC_CLOCK_HZ / chain;
  ok &= within("dependent v_mfma_f32_32x32x8_bf16 cycles each", cyc, 16384.0 / (DOC_BF16_FLOP_PER_CU_CLK / 4), 0.05);
  CHECK_HIP(hipFree(out));
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
