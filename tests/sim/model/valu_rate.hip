/* valu_rate: VALU dual issue. One group on one CU; each wave runs a loop of
 * 32 VALU ops plus 3 scalar ops (s_sub, s_cmp, s_cbranch), all in inline asm
 * so the instruction count is known. A wave issues at most one instruction
 * per 4 clocks (GCN/CDNA issue cycle), so one wave alone takes 35 x 4 = 140
 * clocks per iteration. A SIMD issues up to two VALU ops of different waves
 * per 4 clocks (VALU dual issue: rocprofiler-compute FAQ, counter
 * SQ_ACTIVE_INST_VALU2 "quad-cycles when two VALU instructions are issued"),
 * so W waves on one SIMD need W x 32 x 4 / 2 clocks of VALU per iteration:
 *   1 wave per SIMD:  max(140, 64)  = 140 clocks per iteration
 *   2 waves per SIMD: max(140, 128) = 140
 *   4 waves per SIMD: max(140, 256) = 256
 *   3 waves per SIMD: max(140, 192) = 192
 * (single issue would give 140, 256, 384, 512). Quarter-rate v_exp_f32 (16
 * clocks; a wave's own ops run one after another, its 3 scalar ops issue
 * under the last one): 1 and 2 waves per SIMD 32 x 16 = 512 clocks per
 * iteration (the second wave pairs with the first), 3 waves 768, 4 waves
 * 1024. Tolerance: 3% for one wave per SIMD; 10% with more, where the pipe
 * calendars' 64-clock buckets cost a few percent when waves run slightly
 * out of order (docs/tksim-model.md, "Pipes as calendars"); single issue
 * would be 33-100% slower than these figures. */
#include "model_common.h"

#define R4(x) x x x x
#define R32(x) R4(R4(x)) R4(x) R4(x) R4(x) R4(x)

__global__ void valu_loop(float *out, int iters, int slow)
{
  float x = (float)threadIdx.x * 1e-3f;
  int cnt;
  if (slow)
    asm volatile("s_mov_b32 %0, %2\n"
                 "1:\n" R32("v_exp_f32 %1, %1\n") "s_sub_u32 %0, %0, 1\n"
                 "s_cmp_lg_u32 %0, 0\n"
                 "s_cbranch_scc1 1b\n"
                 : "=&s"(cnt), "+v"(x)
                 : "s"(iters)
                 : "scc");
  else
    asm volatile("s_mov_b32 %0, %2\n"
                 "1:\n" R32("v_add_f32 %1, %1, %1\n") "s_sub_u32 %0, %0, 1\n"
                 "s_cmp_lg_u32 %0, 0\n"
                 "s_cbranch_scc1 1b\n"
                 : "=&s"(cnt), "+v"(x)
                 : "s"(iters)
                 : "scc");
  out[threadIdx.x] = x;
}

int main()
{
  require_model();
  const int iters = 512;
  float *out;
  CHECK_HIP(hipMalloc(&out, 1024 * sizeof(float)));
  int ok = 1;
  const int waves_per_simd[4] = {1, 2, 3, 4};
  for (int slow = 0; slow < 2; slow++)
    for (int i = 0; i < 4; i++) {
      const int w = waves_per_simd[i], threads = 4 * 64 * w;
      const double per_iter = slow ? (w <= 2 ? 512.0 : w * 32 * 16 / 2.0) : (w <= 2 ? 140.0 : w * 32 * 4 / 2.0);
      float ms = time_ms([&] { hipLaunchKernelGGL(valu_loop, dim3(1), dim3(threads), 0, 0, out, iters, slow); });
      char what[128];
      snprintf(what, sizeof what, "%s loop, %d wave(s) per SIMD: seconds", slow ? "v_exp_f32" : "v_add_f32", w);
      ok &= within(what, ms * 1e-3, iters * per_iter / DOC_CLOCK_HZ, w == 1 ? 0.03 : 0.10);
    }
  /* the model must not change results: lane 1 of the last (exp) run */
  float h[2];
  CHECK_HIP(hipMemcpy(h, out, sizeof h, hipMemcpyDeviceToHost));
  if (h[0] != h[0]) { printf("unexpected NaN\n"); ok = 0; }
  CHECK_HIP(hipFree(out));
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
