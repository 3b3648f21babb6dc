/* lds_dma_wait: which counter a direct-to-LDS load (buffer_load_dword ...
 * lds, "LDS DMA") waits on. It is a VMEM load and a DS store counted on
 * vmcnt only: s_waitcnt vmcnt is what makes the LDS it wrote readable
 * (LLVM D124626 and PR 75245, SIInsertWaitcnts). One wave, MI325X
 * parameters (model_common.h; params.c: L2 hit 288 cycles, LDS latency 64).
 *
 * lgkm: 64 times { direct load; ds_read_b32; s_waitcnt lgkmcnt(1) }. With
 * the direct load off lgkmcnt, lgkmcnt(1) leaves this iteration's ds_read in
 * flight and finds the older ones done: the waits cost nothing, the 192
 * instructions issue at 4 clocks each and the kernel lasts about that plus
 * the last load. If the direct load counted on lgkmcnt, every wait would
 * hold until its LDS write (at least the 64-cycle LDS latency after issue):
 * 64 x 64 cycles at least.
 *
 * vmcnt: K times { 16 ds_read_b32 with lane l at dword 32 l (all 32 lanes of
 * a phase on bank 0: 32 cycles a phase, two phases: 64 cycles each; LDS
 * chapter of the ISA guide, lds_rate's stride rule); direct load;
 * s_waitcnt vmcnt(0); s_sleep 16 (1024 cycles) }. The load's LDS write
 * queues behind the reads' 1024 LDS cycles and vmcnt(0) waits for it, so an
 * iteration lasts at least 1024 + 1024 cycles; a vmcnt that did not cover
 * the write would wait for the data only (~288 + issue) and an iteration
 * would take ~1400. Expected: K x 2048 cycles within 3%. */
#include "model_common.h"

#include <stdint.h>
#include <tk/global.h>

#define K 32
#define DOC_L2_HIT_CYCLES 288.0 /* params.c: mt4g's MI300X L2 hit latency */
#define DOC_LDS_LATENCY_CYCLES 64.0

__global__ void lgkm_kernel(const float *src, float *out)
{
  __shared__ float dst[64], other[64];
  other[threadIdx.x] = 1.0f;
  __syncthreads();
  tk_rsrc r = tk_rsrc_make(src, 64 * 4);
  uint32_t voff = threadIdx.x * 4, m0 = (uint32_t)(uintptr_t)dst, a = (uint32_t)(uintptr_t)&other[threadIdx.x];
  float x = 0;
  asm volatile(".rept 64\n buffer_load_dword %1, %3, 0 offen lds\n ds_read_b32 %0, %4\n"
               "s_waitcnt lgkmcnt(1)\n .endr\n s_waitcnt vmcnt(0) lgkmcnt(0)"
               : "=&v"(x) : "v"(voff), "{m0}"(m0), "s"(r), "v"(a) : "memory");
  out[threadIdx.x] = dst[threadIdx.x] + x;
}

__global__ void vmcnt_kernel(const float *src, float *out)
{
  __shared__ float dst[64], busy[64 * 32];
  busy[threadIdx.x * 32] = 2.0f;
  __syncthreads();
  tk_rsrc r = tk_rsrc_make(src, 64 * 4);
  uint32_t voff = threadIdx.x * 4, m0 = (uint32_t)(uintptr_t)dst, a = (uint32_t)(uintptr_t)&busy[threadIdx.x * 32];
  float x = 0;
  for (int i = 0; i < K; i++)
    asm volatile(".rept 16\n ds_read_b32 %0, %4\n .endr\n"
                 "buffer_load_dword %1, %3, 0 offen lds\n s_waitcnt vmcnt(0)\n s_sleep 16"
                 : "=&v"(x) : "v"(voff), "{m0}"(m0), "s"(r), "v"(a) : "memory");
  asm volatile("s_waitcnt lgkmcnt(0)" ::: "memory");
  out[threadIdx.x] = dst[threadIdx.x] + x;
}

int main()
{
  require_model();
  float h[64], *src, *out;
  for (int l = 0; l < 64; l++) h[l] = (float)(3 * l + 1);
  CHECK_HIP(hipMalloc(&src, sizeof h));
  CHECK_HIP(hipMalloc(&out, sizeof h));
  CHECK_HIP(hipMemcpy(src, h, sizeof h, hipMemcpyHostToDevice));
  int ok = 1;
  const double cyc = 1.0 / DOC_CLOCK_HZ;

  float ms = time_ms([&] { hipLaunchKernelGGL(lgkm_kernel, dim3(1), dim3(64), 0, 0, src, out); });
  double t = ms * 1e-3, lo = DOC_L2_HIT_CYCLES * cyc, hi = 64 * DOC_LDS_LATENCY_CYCLES * cyc;
  printf("64 x { direct load; ds_read_b32; lgkmcnt(1) }: modeled %.4g s; at least one load (%.4g s), below 64 LDS "
         "latencies (%.4g s, the least if each wait held for a direct load)\n", t, lo, hi);
  if (!(t >= lo && t < hi)) { printf("lgkmcnt waits: out of [%.4g, %.4g) s\n", lo, hi); ok = 0; }
  float g[64];
  CHECK_HIP(hipMemcpy(g, out, sizeof g, hipMemcpyDeviceToHost));
  for (int l = 0; l < 64; l++)
    if (g[l] != h[l] + 1.0f) { printf("lgkm kernel: wrong value at lane %d: %g, want %g\n", l, g[l], h[l] + 1); ok = 0; break; }

  ms = time_ms([&] { hipLaunchKernelGGL(vmcnt_kernel, dim3(1), dim3(64), 0, 0, src, out); });
  t = ms * 1e-3;
  /* 16 reads x 64 LDS cycles, then s_sleep 16 = 64 x 16 cycles; the issue of the other instructions is ~1% */
  double want = K * (16 * 64.0 + 64 * 16.0) * cyc;
  ok &= within("vmcnt(0) after a direct load whose LDS write queues behind 1024 LDS cycles, seconds", t, want, 0.03);
  CHECK_HIP(hipMemcpy(g, out, sizeof g, hipMemcpyDeviceToHost));
  for (int l = 0; l < 64; l++)
    if (g[l] != h[l] + 2.0f) { printf("vmcnt kernel: wrong value at lane %d: %g, want %g\n", l, g[l], h[l] + 2); ok = 0; break; }
  CHECK_HIP(hipFree(src));
  CHECK_HIP(hipFree(out));
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
