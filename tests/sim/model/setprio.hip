/* setprio: s_setprio decides which of two waves on one SIMD gets the MFMA
 * pipe first (docs/tksim-model.md, "Pipes as calendars").
 *
 * One group of 5 waves: waves 0 and 4 share SIMD 0 (wave w on SIMD w % 4),
 * waves 1-3 end at once. Each of the two issues M = 4*ITERS independent
 * v_mfma_f32_32x32x8_bf16 (4 accumulators, so every MFMA is ready when the
 * pipe frees); the pipe is then busy 2*M*C cycles, C = 16384 FLOPs / 512
 * FLOP/clk/SIMD = 32 (CDNA3 matrix instruction calculator, white paper peak).
 * Then wave 0 sleeps once and wave 4 four times (s_sleep 127 = 64*127 = S
 * clocks each, ISA guide).
 *
 *  - equal priority: the two waves share the pipe, wave 4's last MFMA ends
 *    near 2*M*C, so the kernel takes 2*M*C + 4*S;
 *  - wave 4 at s_setprio 3: its MFMAs take the pipe first and end at M*C;
 *    wave 0's end at 2*M*C (its displaced cycles are not lost), so the kernel
 *    takes max(M*C + 4*S, 2*M*C + S) = 2*M*C + S with the figures below.
 *
 * Tolerance 5%: loop overhead and the exec quantum (64 instructions) by which
 * the model's interleaving of the two waves is coarse. */
#include "model_common.h"

typedef short bf16x4 __attribute__((ext_vector_type(4)));
typedef float f32x16 __attribute__((ext_vector_type(16)));

#define ITERS 256
#define MFMA_CYCLES (16384.0 / (DOC_BF16_FLOP_PER_CU_CLK / 4))
#define SLEEP_CYCLES (64.0 * 127)

template <int PRIO> __global__ void contend(float *out)
{
  int wave = __builtin_amdgcn_readfirstlane(threadIdx.x) / 64; /* uniform: scalar branches */
  if (wave != 0 && wave != 4) return;
  if (PRIO && wave == 4) __builtin_amdgcn_s_setprio(3);
  bf16x4 a = {(short)threadIdx.x, 1, 2, 3}, b = {3, 2, 1, (short)threadIdx.x};
  f32x16 c0 = {}, c1 = {}, c2 = {}, c3 = {};
  for (int i = 0; i < ITERS; i++) {
    c0 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c0, 0, 0, 0);
    c1 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c1, 0, 0, 0);
    c2 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c2, 0, 0, 0);
    c3 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c3, 0, 0, 0);
  }
  float s = 0;
  for (int i = 0; i < 16; i++) s += c0[i] + c1[i] + c2[i] + c3[i];
  out[threadIdx.x] = s;
  __builtin_amdgcn_s_sleep(127);
  if (wave == 4) {
    __builtin_amdgcn_s_sleep(127);
    __builtin_amdgcn_s_sleep(127);
    __builtin_amdgcn_s_sleep(127);
  }
}

int main()
{
  require_model();
  float *out;
  CHECK_HIP(hipMalloc(&out, 320 * sizeof(float)));
  const double M = 4.0 * ITERS, C = MFMA_CYCLES, S = SLEEP_CYCLES;
  float eq = time_ms([&] { hipLaunchKernelGGL(contend<0>, dim3(1), dim3(320), 0, 0, out); });
  float pr = time_ms([&] { hipLaunchKernelGGL(contend<1>, dim3(1), dim3(320), 0, 0, out); });
  double eq_cyc = eq * 1e-3 * DOC_CLOCK_HZ, pr_cyc = pr * 1e-3 * DOC_CLOCK_HZ;
  int ok = within("equal priority, kernel cycles", eq_cyc, 2 * M * C + 4 * S, 0.05);
  double want_pr = M * C + 4 * S > 2 * M * C + S ? M * C + 4 * S : 2 * M * C + S;
  ok &= within("wave 4 at s_setprio 3, kernel cycles", pr_cyc, want_pr, 0.05);
  CHECK_HIP(hipFree(out));
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
