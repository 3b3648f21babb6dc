// smem_store.hip: scalar memory writes (CDNA3 ISA guide, "Scalar Memory
// Operations": S_STORE_DWORD{,X2,X4}, S_BUFFER_STORE_DWORD, S_ATOMIC_*,
// S_BUFFER_ATOMIC_*; GLC returns the value before the operation). One wave
// writes through SBASE (a kernel-argument pointer) and through a buffer
// descriptor built over the same memory; s_dcache_wb makes the writes
// visible, s_waitcnt lgkmcnt(0) waits for returns. The host checks memory and
// the returned values against a sequential model of the same operations.
#include "vtest.h"

__global__ void smem(uint32_t *mem, uint32_t *ret, uint32_t a, uint32_t b)
{
  uint64_t A = (uint64_t)a << 32 | b;
  uint32_t r0, r1, r2, r3, r4, r5;
  uint64_t R0;
  /* plain stores at 0, 8 (x2) and 16 (x4) */
  asm volatile("s_store_dword %0, %1, 0x0\n s_dcache_wb\n s_waitcnt lgkmcnt(0)" : : "s"(a), "s"(mem) : "memory");
  asm volatile("s_store_dwordx2 %0, %1, 0x8\n s_dcache_wb\n s_waitcnt lgkmcnt(0)" : : "s"(A), "s"(mem) : "memory");
  uint32_t q0 = a + 1, q1 = a + 2, q2 = a + 3, q3 = a + 4;
  asm volatile("s_mov_b32 s40, %0\n s_mov_b32 s41, %1\n s_mov_b32 s42, %2\n s_mov_b32 s43, %3\n"
               " s_store_dwordx4 s[40:43], %4, 0x10\n s_dcache_wb\n s_waitcnt lgkmcnt(0)"
               : : "s"(q0), "s"(q1), "s"(q2), "s"(q3), "s"(mem) : "s40", "s41", "s42", "s43", "memory");
  /* atomics at 32..: add (returning), sub (not), cmpswap hit and miss, umax_x2, inc */
  r0 = b;
  asm volatile("s_atomic_add %0, %1, 0x20 glc\n s_waitcnt lgkmcnt(0)" : "+s"(r0) : "s"(mem) : "memory");
  r1 = a;
  asm volatile("s_atomic_sub %0, %1, 0x24\n s_dcache_wb\n s_waitcnt lgkmcnt(0)" : : "s"(r1), "s"(mem) : "memory");
  /* cmpswap data: {new, compare} */
  asm volatile("s_mov_b32 s40, %1\n s_mov_b32 s41, 7\n s_atomic_cmpswap s[40:41], %2, 0x28 glc\n s_waitcnt lgkmcnt(0)\n"
               " s_mov_b32 %0, s40" : "=s"(r2) : "s"(a), "s"(mem) : "s40", "s41", "memory");
  asm volatile("s_mov_b32 s40, %1\n s_mov_b32 s41, 8\n s_atomic_cmpswap s[40:41], %2, 0x2c glc\n s_waitcnt lgkmcnt(0)\n"
               " s_mov_b32 %0, s40" : "=s"(r3) : "s"(b), "s"(mem) : "s40", "s41", "memory");
  R0 = A;
  asm volatile("s_atomic_umax_x2 %0, %1, 0x30 glc\n s_waitcnt lgkmcnt(0)" : "+s"(R0) : "s"(mem) : "memory");
  r4 = 5;
  asm volatile("s_atomic_inc %0, %1, 0x38 glc\n s_waitcnt lgkmcnt(0)" : "+s"(r4) : "s"(mem) : "memory");
  /* through a buffer descriptor: base = mem + 64 bytes, 16 records (bytes) */
  uint64_t base = (uint64_t)(uintptr_t)mem + 64;
  uint32_t blo = (uint32_t)base, bhi = (uint32_t)(base >> 32) & 0xffff;
  asm volatile("s_mov_b32 s40, %1\n s_mov_b32 s41, %2\n s_mov_b32 s42, 16\n s_mov_b32 s43, 0x27000\n"
               " s_buffer_store_dword %3, s[40:43], 0x4\n s_dcache_wb\n s_waitcnt lgkmcnt(0)\n"
               " s_buffer_store_dword %3, s[40:43], 0x10\n s_dcache_wb\n s_waitcnt lgkmcnt(0)\n"
               " s_mov_b32 %0, %4\n s_buffer_atomic_add %0, s[40:43], 0x8 glc\n s_waitcnt lgkmcnt(0)"
               : "=&s"(r5) : "s"(blo), "s"(bhi), "s"(a), "s"(b) : "s40", "s41", "s42", "s43", "memory");
  if (threadIdx.x == 0) {
    ret[0] = r0; ret[1] = r2; ret[2] = r3; ret[3] = (uint32_t)R0; ret[4] = (uint32_t)(R0 >> 32); ret[5] = r4;
    ret[6] = r5;
  }
}

int main()
{
  const uint32_t pairs[][2] = { { 0x12345678u, 0x9abcdef0u }, { 0, 0xffffffffu }, { 7, 3 }, { 0x80000000u, 0x7fffffffu } };
  for (const auto &p : pairs) {
    uint32_t a = p[0], b = p[1];
    std::vector<uint32_t> m(32);
    for (int i = 0; i < 32; i++) m[i] = 0x1000u * (uint32_t)i + 7u * a;
    m[10] = 7;  /* cmpswap at 0x28 hits: compare 7 */
    m[11] = 9;  /* cmpswap at 0x2c misses: compare 8 */
    uint32_t *dm, *dr;
    VT_HIP(hipMalloc(&dm, 32 * 4));
    VT_HIP(hipMalloc(&dr, 8 * 4));
    VT_HIP(hipMemcpy(dm, m.data(), 32 * 4, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(smem, dim3(1), dim3(64), 0, 0, dm, dr, a, b);
    VT_HIP(hipGetLastError());
    std::vector<uint32_t> got(32), ret(8);
    VT_HIP(hipMemcpy(got.data(), dm, 32 * 4, hipMemcpyDeviceToHost));
    VT_HIP(hipMemcpy(ret.data(), dr, 8 * 4, hipMemcpyDeviceToHost));
    /* sequential model */
    std::vector<uint32_t> w = m;
    uint64_t A = (uint64_t)a << 32 | b;
    w[0] = a; w[2] = (uint32_t)A; w[3] = (uint32_t)(A >> 32);
    w[4] = a + 1; w[5] = a + 2; w[6] = a + 3; w[7] = a + 4;
    uint32_t want_r0 = w[8]; w[8] += b;
    w[9] -= a;
    uint32_t want_r2 = w[10]; if (w[10] == 7) w[10] = a;
    uint32_t want_r3 = w[11]; if (w[11] == 8) w[11] = b;
    uint64_t old64 = (uint64_t)w[13] << 32 | w[12];
    uint64_t nw64 = A > old64 ? A : old64; w[12] = (uint32_t)nw64; w[13] = (uint32_t)(nw64 >> 32);
    uint32_t want_r4 = w[14]; w[14] = w[14] >= 5 ? 0 : w[14] + 1;
    w[16 + 1] = a;  /* buffer offset 4 */
    /* buffer offset 0x10 is past 16 records: dropped */
    uint32_t want_r5 = w[16 + 2]; w[16 + 2] += b;
    for (int i = 0; i < 32; i++) vt_check_u32("memory word", i, got[i], w[i]);
    vt_check_u32("s_atomic_add glc return", 0, ret[0], want_r0);
    vt_check_u32("s_atomic_cmpswap (hit) return", 0, ret[1], want_r2);
    vt_check_u32("s_atomic_cmpswap (miss) return", 0, ret[2], want_r3);
    vt_check_u64("s_atomic_umax_x2 return", 0, (uint64_t)ret[4] << 32 | ret[3], old64);
    vt_check_u32("s_atomic_inc return", 0, ret[5], want_r4);
    vt_check_u32("s_buffer_atomic_add return", 0, ret[6], want_r5);
    VT_HIP(hipFree(dm)); VT_HIP(hipFree(dr));
  }
  printf("smem_store: %d checks, %d failures\n", vt_checks, vt_failures);
  return vt_failures ? 1 : 0;
}
