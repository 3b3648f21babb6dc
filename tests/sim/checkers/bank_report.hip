// bank_report.hip: end-to-end check of `tksim --report=pc` LDS figures. One
// wave issues three LDS reads with hand-computed costs under the bank model
// (docs/tksim-checkers.md); run_report.cmake matches the per-PC lines:
//   ds_read_b32,  lane stride 128 B: every lane on bank 0 at distinct dwords,
//                 32-way per half wave -> 2 phases x 32 = 64 cycles, 62 conflict
//   ds_read_b128, lane stride 512 B: every lane on banks 0-3, 8 lanes per
//                 phase -> 8 phases x 8 = 64 cycles, 56 conflict
//   ds_read_b64,  lane stride 8 B: 16 lanes fill 32 banks -> 4 cycles, 0 conflict
// The program also checks the values read, so it passes on a GPU as well.
#include "../isa/vtest.h"

__global__ void banks(uint32_t *out)
{
  __shared__ uint32_t lds[64 * 128];
  int t = threadIdx.x;
  for (int i = t; i < 64 * 128; i += 64) lds[i] = (uint32_t)i * 3u + 1u;
  __syncthreads();
  uint32_t base = (uint32_t)(uintptr_t)lds;
  uint32_t a32 = base + (uint32_t)t * 128u, a128 = base + (uint32_t)t * 512u, a64 = base + (uint32_t)t * 8u;
  uint32_t x;
  typedef uint32_t u4 __attribute__((ext_vector_type(4)));
  typedef uint32_t u2 __attribute__((ext_vector_type(2)));
  u4 y;
  u2 z;
  asm volatile("ds_read_b32 %0, %1\n\ts_waitcnt lgkmcnt(0)" : "=v"(x) : "v"(a32) : "memory");
  asm volatile("ds_read_b128 %0, %1\n\ts_waitcnt lgkmcnt(0)" : "=v"(y) : "v"(a128) : "memory");
  asm volatile("ds_read_b64 %0, %1\n\ts_waitcnt lgkmcnt(0)" : "=v"(z) : "v"(a64) : "memory");
  out[t * 7 + 0] = x;
  for (int k = 0; k < 4; k++) out[t * 7 + 1 + k] = y[k];
  out[t * 7 + 5] = z[0];
  out[t * 7 + 6] = z[1];
}

int main()
{
  vt_buf<uint32_t> out(64 * 7);
  banks<<<1, 64>>>(out.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto h = out.get();
  for (int t = 0; t < 64; t++) {
    vt_check_u32("ds_read_b32", t, h[t * 7], (uint32_t)(t * 32) * 3u + 1u);
    for (int k = 0; k < 4; k++) vt_check_u32("ds_read_b128", t * 4 + k, h[t * 7 + 1 + k], (uint32_t)(t * 128 + k) * 3u + 1u);
    vt_check_u32("ds_read_b64 lo", t, h[t * 7 + 5], (uint32_t)(t * 2) * 3u + 1u);
    vt_check_u32("ds_read_b64 hi", t, h[t * 7 + 6], (uint32_t)(t * 2 + 1) * 3u + 1u);
  }
  return vt_finish("bank_report");
}
