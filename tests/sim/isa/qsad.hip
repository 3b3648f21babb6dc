// qsad.hip: the quad-byte SAD instructions against a host model written from
// the ISA guide's description (VOP3, the same on gfx942 and gfx950): "perform
// the V_SAD_U8 (V_MSAD_U8) operation four times using different slices of the
// first array, all entries of the second array and each entry of the third
// array" - result i = S2 entry i + sum over bytes j of |S0 byte (i + j) -
// S1 byte j|, for i = 0..3 (the 4-byte windows of the 8-byte S0 starting at
// bytes 0..3):
//  * v_qsad_pk_u16_u8:  S2 and D are four 16-bit entries in 64 bits (each
//    result truncated to 16 bits);
//  * v_mqsad_pk_u16_u8: the same with V_MSAD_U8's mask (a byte pair whose S1
//    byte - the reference - is 0 does not count);
//  * v_mqsad_u32_u8:    masked, S2 and D four 32-bit entries in 128 bits.
// Random bytes with many zeros (the mask) and accumulators near 0xffff (the
// 16-bit truncation).
#include "vtest.h"

typedef uint32_t u32x4 __attribute__((ext_vector_type(4)));
enum { N = 256 };

__global__ void k_qsad(const uint32_t *in, uint32_t *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t *p = in + 8 * i;
  uint64_t s0 = p[0] | (uint64_t)p[1] << 32, s2 = p[3] | (uint64_t)p[4] << 32, q, m;
  uint32_t s1 = p[2];
  u32x4 c = { p[4], p[5], p[6], p[7] }, r;
  asm volatile("v_qsad_pk_u16_u8 %0, %1, %2, %3" : "=&v"(q) : "v"(s0), "v"(s1), "v"(s2));
  asm volatile("v_mqsad_pk_u16_u8 %0, %1, %2, %3" : "=&v"(m) : "v"(s0), "v"(s1), "v"(s2));
  asm volatile("v_mqsad_u32_u8 %0, %1, %2, %3" : "=&v"(r) : "v"(s0), "v"(s1), "v"(c));
  uint32_t *o = out + 8 * i;
  o[0] = (uint32_t)q; o[1] = (uint32_t)(q >> 32); o[2] = (uint32_t)m; o[3] = (uint32_t)(m >> 32);
  o[4] = r.x; o[5] = r.y; o[6] = r.z; o[7] = r.w;
}

static uint32_t sad(uint64_t s0, int i, uint32_t s1, uint32_t acc, int masked)
{
  for (int j = 0; j < 4; j++) {
    uint32_t a = (uint32_t)(s0 >> (8 * (i + j))) & 0xff, b = (s1 >> (8 * j)) & 0xff;
    if (masked && b == 0) continue;
    acc += a > b ? a - b : b - a;
  }
  return acc;
}

int main()
{
  uint32_t *h = (uint32_t *)malloc(N * 8 * 4), *g = (uint32_t *)malloc(N * 8 * 4);
  uint64_t seed = 29;
  for (int k = 0; k < N * 8; k++) {
    uint32_t x = (uint32_t)vt_rand(&seed);
    if (k % 8 < 3) /* bytes: a quarter of them zero */
      for (int b = 0; b < 4; b++) if (((x >> (8 * b)) & 3) == 0) x &= ~(0xffu << (8 * b));
    if (k % 8 == 3 || k % 8 == 4) x = (k & 16) ? (x | 0xff00ff00u) : x; /* 16-bit entries near 0xffff */
    h[k] = x;
  }
  uint32_t *din, *dout;
  VT_HIP(hipMalloc(&din, N * 8 * 4));
  VT_HIP(hipMalloc(&dout, N * 8 * 4));
  VT_HIP(hipMemcpy(din, h, N * 8 * 4, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(k_qsad, dim3(N / 64), dim3(64), 0, 0, din, dout);
  VT_SYNC();
  VT_HIP(hipMemcpy(g, dout, N * 8 * 4, hipMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) {
    const uint32_t *p = h + 8 * i, *o = g + 8 * i;
    uint64_t s0 = p[0] | (uint64_t)p[1] << 32, s2 = p[3] | (uint64_t)p[4] << 32;
    uint64_t q = 0, m = 0;
    for (int e = 0; e < 4; e++) {
      uint32_t acc = (uint32_t)(s2 >> (16 * e)) & 0xffff;
      q |= (uint64_t)(sad(s0, e, p[2], acc, 0) & 0xffff) << (16 * e);
      m |= (uint64_t)(sad(s0, e, p[2], acc, 1) & 0xffff) << (16 * e);
      vt_check_u32("v_mqsad_u32_u8", i, o[4 + e], sad(s0, e, p[2], p[4 + e], 1));
    }
    vt_check_u64("v_qsad_pk_u16_u8", i, o[0] | (uint64_t)o[1] << 32, q);
    vt_check_u64("v_mqsad_pk_u16_u8", i, o[2] | (uint64_t)o[3] << 32, m);
  }
  VT_HIP(hipFree(din));
  VT_HIP(hipFree(dout));
  free(h);
  free(g);
  return vt_finish("qsad");
}
