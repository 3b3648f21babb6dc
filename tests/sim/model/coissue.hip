/* coissue: how long a wave's MFMA holds the wave's next VALU ops (model v7,
 * sim/model/params.c mfma_valu_hold). Source: llvm-project PR #233721 (AMD,
 * rules fitted to ATT thread traces on MI308X/gfx942 and MI350X/gfx950),
 * counted in 4-clock issue slots from the MFMA's issue:
 *   - an XDL MFMA holds any VALU op (transcendentals and packed 16-bit ops
 *     included) until slot 1 + (widest A/B source bytes) / 16;
 *   - v_pk_{add,fma,mul}_f32, v_pk_mov_b32 and dot ops until slot passes + 2
 *     (+1 for an A source of 16 B or more);
 *   - f32/f64 MFMAs (not XDL) hold every VALU op until slot passes + 2.
 *
 * One wave runs a loop of one MFMA (accumulating into its own C, so the next
 * MFMA waits for it), four VALU ops independent of it, and 3 scalar ops
 * (s_sub, s_cmp, s_cbranch). A wave issues at most once per 4 clocks and its
 * own VALU ops run one after another. Clocks per iteration, from the MFMA's
 * issue at 0:
 * gfx942 (--model=mi325x), v_mfma_f32_32x32x8_f16: 16384 FLOPs at 512
 * FLOP/SIMD/clk = 32 clocks = 8 passes, A and B 8 B (hold 1 slot = 4 clk):
 *   k0 4 x v_add_f32:     adds at 4, 8, 12, 16, scalars 20, 24, 28      -> 32
 *   k1 4 x v_pk_mul_f32:  held to (8 + 2) x 4 = 40: 40..52, 56..64      -> 68
 *   k2 4 x v_exp_f32:     quarter rate (16 clk), not held beyond slot 1:
 *                         4, 20, 36, 52, scalars 56, 60, 64             -> 68
 *   k3 v_mfma_f64_16x16x4_f64 (2048 FLOPs at 64/clk = 8 passes, not XDL)
 *      + 4 x v_add_f32:   held to 40 as k1                              -> 68
 *   k4 4 x v_pk_mul_f16:  a packed 16-bit op issues like any VALU op    -> 32
 * gfx950 (--arch=gfx950 --model=mi355x), v_mfma_f32_16x16x32_bf16: 16384
 * FLOPs at 1024 FLOP/SIMD/clk = 16 clocks = 4 passes, A and B 16 B:
 *   k5 4 x v_add_f32:     held 1 + 16/16 = 2 slots: 8..20, 24..32       -> 36
 *   k6 4 x v_pk_mul_f32:  held to (4 + 2 + 1) x 4 = 28: 28..40, 44..52  -> 56
 * v6's rule (transcendental/every v_pk_*: wait for the MFMA's end, nothing
 * else held) gives 32, 60, 96, 32, 60, 32, 44; co-issue everywhere (v5) 32,
 * 32, 68, 32, 32, 32, 32. Tolerance 3%. */
#include "model_common.h"

#define R4(x) x x x x
#define LOOP(mfma, valu)                                                                                              \
  "s_mov_b32 %0, %5\n"                                                                                                \
  "1:\n" mfma "\n" R4(valu "\n") "s_sub_u32 %0, %0, 1\n"                                                              \
  "s_cmp_lg_u32 %0, 0\n"                                                                                              \
  "s_cbranch_scc1 1b\n"

typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef _Float16 half2 __attribute__((ext_vector_type(2)));
typedef __bf16 bf16x8 __attribute__((ext_vector_type(8)));
typedef float float4v __attribute__((ext_vector_type(4)));
typedef float float16v __attribute__((ext_vector_type(16)));
typedef double double4v __attribute__((ext_vector_type(4)));

__global__ void coissue_loop(float *out, int iters, int kind)
{
  float16v acc = {};
  double4v dacc = {};
  float4v acc4 = {};
  half4 a = {(_Float16)threadIdx.x, 1, 2, 3}, b = {1, 1, 1, 1};
  half2 h = {(_Float16)threadIdx.x, 1};
  double da = (double)threadIdx.x, db = 1.0;
  float x = (float)threadIdx.x * 1e-3f;
  double y = (double)threadIdx.x;
  int cnt;
#if defined(__gfx950__)
  bf16x8 a8 = {(__bf16)(float)threadIdx.x, 1, 2, 3, 4, 5, 6, 7}, b8 = {1, 1, 1, 1, 1, 1, 1, 1};
  if (kind == 5)
    asm volatile(LOOP("v_mfma_f32_16x16x32_bf16 %1, %3, %4, %1", "v_add_f32 %2, %2, %2")
                 : "=&s"(cnt), "+v"(acc4), "+v"(x) : "v"(a8), "v"(b8), "s"(iters) : "scc");
  else if (kind == 6)
    asm volatile(LOOP("v_mfma_f32_16x16x32_bf16 %1, %3, %4, %1", "v_pk_mul_f32 %2, %2, %2")
                 : "=&s"(cnt), "+v"(acc4), "+v"(y) : "v"(a8), "v"(b8), "s"(iters) : "scc");
#endif
  if (kind == 0)
    asm volatile(LOOP("v_mfma_f32_32x32x8_f16 %1, %3, %4, %1", "v_add_f32 %2, %2, %2")
                 : "=&s"(cnt), "+v"(acc), "+v"(x) : "v"(a), "v"(b), "s"(iters) : "scc");
  else if (kind == 1)
    asm volatile(LOOP("v_mfma_f32_32x32x8_f16 %1, %3, %4, %1", "v_pk_mul_f32 %2, %2, %2")
                 : "=&s"(cnt), "+v"(acc), "+v"(y) : "v"(a), "v"(b), "s"(iters) : "scc");
  else if (kind == 2)
    asm volatile(LOOP("v_mfma_f32_32x32x8_f16 %1, %3, %4, %1", "v_exp_f32 %2, %2")
                 : "=&s"(cnt), "+v"(acc), "+v"(x) : "v"(a), "v"(b), "s"(iters) : "scc");
  else if (kind == 3)
    asm volatile(LOOP("v_mfma_f64_16x16x4_f64 %1, %3, %4, %1", "v_add_f32 %2, %2, %2")
                 : "=&s"(cnt), "+v"(dacc), "+v"(x) : "v"(da), "v"(db), "s"(iters) : "scc");
  else if (kind == 4)
    asm volatile(LOOP("v_mfma_f32_32x32x8_f16 %1, %3, %4, %1", "v_pk_mul_f16 %2, %2, %2")
                 : "=&s"(cnt), "+v"(acc), "+v"(h) : "v"(a), "v"(b), "s"(iters) : "scc");
  out[threadIdx.x] = acc[0] + acc4[0] + (float)dacc[0] + x + (float)y + (float)h[0];
}

int main()
{
  const char *m = getenv("TKSIM_MODEL"), *arch = getenv("TKSIM_ARCH");
  int cdna4 = m && !strcmp(m, "mi355x") && arch && !strcmp(arch, "gfx950");
  if (!cdna4) require_model();
  const double clock_hz = cdna4 ? 2400e6 * 1447.0 / 2100.0 : DOC_CLOCK_HZ; /* params.c: MI355X / MI325X */
  const int iters = 2048; /* the kernel's start and final store (~650 clocks) stay under 1% */
  float *out;
  CHECK_HIP(hipMalloc(&out, 64 * sizeof(float)));
  int ok = 1;
  const char *name[7] = {"32x32x8_f16 + 4 x v_add_f32",       "32x32x8_f16 + 4 x v_pk_mul_f32 (held to passes+2)",
                         "32x32x8_f16 + 4 x v_exp_f32",       "f64 16x16x4 + 4 x v_add_f32 (not XDL: held to passes+2)",
                         "32x32x8_f16 + 4 x v_pk_mul_f16",    "16x16x32_bf16 + 4 x v_add_f32 (16 B sources: 2 slots)",
                         "16x16x32_bf16 + 4 x v_pk_mul_f32 (held to passes+3)"};
  const double per_iter[7] = {32.0, 68.0, 68.0, 68.0, 32.0, 36.0, 56.0};
  for (int k = cdna4 ? 5 : 0; k < (cdna4 ? 7 : 5); k++) {
    float ms = time_ms([&] { hipLaunchKernelGGL(coissue_loop, dim3(1), dim3(64), 0, 0, out, iters, k); });
    char what[160];
    snprintf(what, sizeof what, "MFMA loop %s: seconds", name[k]);
    ok &= within(what, ms * 1e-3, iters * per_iter[k] / clock_hz, 0.03);
  }
  CHECK_HIP(hipFree(out));
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
