/* lds_rate: LDS read bandwidth and bank conflicts. 16 waves per group (4 per
 * SIMD, enough to hide the LDS latency), one group per CU, each wave issuing ds_read_b32 in blocks of 8 before a
 * s_waitcnt. Lane l reads dword (l * stride) of the group's LDS: stride 1
 * touches 32 distinct banks per 32 lanes and streams at 128 B/clk/CU (CDNA3
 * white paper); stride 2 puts two lanes of each 32 on one bank (bank =
 * dword mod 32, ISA guide LDS chapter), so every phase takes 2 cycles; stride 4
 * 4 cycles. Expected times: bytes / 128 B/clk, x2, x4. */
#include "model_common.h"

__global__ void lds_read(float *out, int iters, int stride)
{
  __shared__ float buf[64 * 64];
  for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) buf[i] = (float)i;
  __syncthreads();
  uint32_t addr = (uint32_t)(uintptr_t)&buf[((threadIdx.x & 63) * stride) % (64 * 64)];
  float x = 0;
  for (int i = 0; i < iters; i++) {
    float v;
    asm volatile("ds_read_b32 %0, %1\n ds_read_b32 %0, %1\n ds_read_b32 %0, %1\n ds_read_b32 %0, %1\n"
                 "ds_read_b32 %0, %1\n ds_read_b32 %0, %1\n ds_read_b32 %0, %1\n ds_read_b32 %0, %1\n"
                 "s_waitcnt lgkmcnt(0)"
                 : "=v"(v)
                 : "v"(addr)
                 : "memory");
    x += v;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

int main()
{
  require_model();
  const int groups = 2, threads = 1024, iters = 1024;
  float *out;
  CHECK_HIP(hipMalloc(&out, groups * threads * sizeof(float)));
  /* bytes each CU's LDS delivers: waves x reads x 64 lanes x 4 B */
  const double bytes = (threads / 64.0) * iters * 8 * 64 * 4;
  const double base_s = bytes / DOC_LDS_BYTES_PER_CU_CLK / DOC_CLOCK_HZ;
  int ok = 1;
  const int strides[3] = {1, 2, 4};
  for (int s = 0; s < 3; s++) {
    int st = strides[s];
    float ms = time_ms([&] { hipLaunchKernelGGL(lds_read, dim3(groups), dim3(threads), 0, 0, out, iters, st); });
    char what[96];
    snprintf(what, sizeof what, "LDS read, dword stride %d (%d-way conflict): seconds", st, st);
    ok &= within(what, ms * 1e-3, base_s * st, 0.03);
  }
  /* the values read must be what was stored (the model must not change results) */
  float h[64];
  CHECK_HIP(hipMemcpy(h, out, sizeof h, hipMemcpyDeviceToHost));
  for (int l = 0; l < 64; l++)
    if (h[l] != (float)iters * (float)((l * 4) % 4096)) { printf("wrong value at lane %d: %g\n", l, h[l]); ok = 0; break; }
  CHECK_HIP(hipFree(out));
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
