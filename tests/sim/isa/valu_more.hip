// valu_more.hip: vector instructions tksim learned from its ISA coverage list
// (docs/tksim-exec.md), each against a host model written from the CDNA3 ISA
// guide's VOP1/VOP2/VOP3 descriptions: v_swap_b32 (both registers), VOP3
// v_add_i32 / v_sub_i32 / v_add_i16 / v_sub_i16 with and without clamp
// (saturate to the signed range / wrap), v_subrev_u16, v_lerp_u8 (per byte
// (a + b + c's LSB) >> 1), v_sad_hi_u8 (byte SAD << 16, plus c),
// v_cvt_off_f32_i4 (a[3:0] signed / 16) and v_frexp_exp_i16_f16.
#include "vtest.h"

enum { R_SWAP_X, R_SWAP_Y, R_ADD_I32, R_ADD_I32_CL, R_SUB_I32, R_SUB_I32_CL, R_ADD_I16, R_ADD_I16_CL, R_SUB_I16_CL,
       R_SUBREV_U16, R_LERP, R_SAD_HI, R_CVT_OFF, R_FREXP_I16, NR };
static const char *r_name[NR] = { "v_swap_b32 x", "v_swap_b32 y", "v_add_i32", "v_add_i32 clamp", "v_sub_i32",
  "v_sub_i32 clamp", "v_add_i16", "v_add_i16 clamp", "v_sub_i16 clamp", "v_subrev_u16", "v_lerp_u8",
  "v_sad_hi_u8", "v_cvt_off_f32_i4", "v_frexp_exp_i16_f16" };

__global__ void valu(const uint32_t *in, uint32_t *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], r;
  uint32_t *o = out + (size_t)i * NR;
  uint32_t x = a, y = b;
  asm volatile("v_swap_b32 %0, %1" : "+v"(x), "+v"(y));
  o[R_SWAP_X] = x; o[R_SWAP_Y] = y;
  asm volatile("v_add_i32 %0, %1, %2" : "=v"(r) : "v"(a), "v"(b)); o[R_ADD_I32] = r;
  asm volatile("v_add_i32 %0, %1, %2 clamp" : "=v"(r) : "v"(a), "v"(b)); o[R_ADD_I32_CL] = r;
  asm volatile("v_sub_i32 %0, %1, %2" : "=v"(r) : "v"(a), "v"(b)); o[R_SUB_I32] = r;
  asm volatile("v_sub_i32 %0, %1, %2 clamp" : "=v"(r) : "v"(a), "v"(b)); o[R_SUB_I32_CL] = r;
  asm volatile("v_add_i16 %0, %1, %2" : "=v"(r) : "v"(a), "v"(b)); o[R_ADD_I16] = r & 0xffff;
  asm volatile("v_add_i16 %0, %1, %2 clamp" : "=v"(r) : "v"(a), "v"(b)); o[R_ADD_I16_CL] = r & 0xffff;
  asm volatile("v_sub_i16 %0, %1, %2 clamp" : "=v"(r) : "v"(a), "v"(b)); o[R_SUB_I16_CL] = r & 0xffff;
  asm volatile("v_subrev_u16 %0, %1, %2" : "=v"(r) : "v"(a), "v"(b)); o[R_SUBREV_U16] = r & 0xffff;
  asm volatile("v_lerp_u8 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[R_LERP] = r;
  asm volatile("v_sad_hi_u8 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[R_SAD_HI] = r;
  asm volatile("v_cvt_off_f32_i4 %0, %1" : "=v"(r) : "v"(a)); o[R_CVT_OFF] = r;
  asm volatile("v_frexp_exp_i16_f16 %0, %1" : "=v"(r) : "v"(a)); o[R_FREXP_I16] = r & 0xffff;
}

static float h2f(uint16_t h)
{
  uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 0x3ff;
  float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 0x400), (int)e - 25);
  return s ? -v : v;
}

static void model(uint32_t a, uint32_t b, uint32_t c, uint32_t *r)
{
  r[R_SWAP_X] = b; r[R_SWAP_Y] = a;
  int64_t s = (int64_t)(int32_t)a + (int32_t)b, d = (int64_t)(int32_t)a - (int32_t)b;
  r[R_ADD_I32] = (uint32_t)s; r[R_SUB_I32] = (uint32_t)d;
  r[R_ADD_I32_CL] = (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
  r[R_SUB_I32_CL] = (uint32_t)(d > INT32_MAX ? INT32_MAX : d < INT32_MIN ? INT32_MIN : d);
  int32_t s16 = (int16_t)a + (int16_t)b, d16 = (int16_t)a - (int16_t)b;
  r[R_ADD_I16] = (uint32_t)s16 & 0xffff;
  r[R_ADD_I16_CL] = (uint32_t)(s16 > 32767 ? 32767 : s16 < -32768 ? -32768 : s16) & 0xffff;
  r[R_SUB_I16_CL] = (uint32_t)(d16 > 32767 ? 32767 : d16 < -32768 ? -32768 : d16) & 0xffff;
  r[R_SUBREV_U16] = (b - a) & 0xffff;
  uint32_t lerp = 0, sad = 0;
  for (int k = 0; k < 4; k++) {
    uint32_t p = (a >> (8 * k)) & 0xff, q = (b >> (8 * k)) & 0xff, t = (c >> (8 * k)) & 1;
    lerp |= ((p + q + t) >> 1) << (8 * k);
    sad += p > q ? p - q : q - p;
  }
  r[R_LERP] = lerp;
  r[R_SAD_HI] = (sad << 16) + c;
  int i4 = (int)(a & 15); if (i4 >= 8) i4 -= 16;
  r[R_CVT_OFF] = vt_f2u((float)i4 * 0.0625f);
  float h = h2f((uint16_t)a);
  int e = 0;
  if (!(isinf(h) || isnan(h) || h == 0)) frexpf(h, &e);
  r[R_FREXP_I16] = (uint32_t)e & 0xffff;
}

int main()
{
  const uint32_t edge[] = { 0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x7fff, 0x8000, 0xffff, 0x00ff00ffu, 0x3c00,
                            0x7c00, 0x0001, 0x03ff, 0xfbff, 0x12345678u, 0xdeadbeefu };
  std::vector<uint32_t> in;
  for (uint32_t x : edge) for (uint32_t y : edge) { in.push_back(x); in.push_back(y); in.push_back(x ^ y); }
  uint32_t s = 0x9e3779b9u;
  for (int i = 0; i < 512; i++) for (int k = 0; k < 3; k++) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; in.push_back(s); }
  int n = (int)in.size() / 3;
  uint32_t *din, *dout;
  VT_HIP(hipMalloc(&din, in.size() * 4));
  VT_HIP(hipMalloc(&dout, (size_t)n * NR * 4));
  VT_HIP(hipMemcpy(din, in.data(), in.size() * 4, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(valu, dim3((n + 255) / 256), dim3(256), 0, 0, din, dout, n);
  VT_HIP(hipGetLastError());
  std::vector<uint32_t> out((size_t)n * NR);
  VT_HIP(hipMemcpy(out.data(), dout, out.size() * 4, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    uint32_t want[NR];
    model(in[3 * i], in[3 * i + 1], in[3 * i + 2], want);
    for (int k = 0; k < NR; k++) {
      char what[96];
      snprintf(what, sizeof what, "%s(0x%x, 0x%x, 0x%x)", r_name[k], in[3 * i], in[3 * i + 1], in[3 * i + 2]);
      vt_check_u32(what, i, out[(size_t)i * NR + k], want[k]);
    }
  }
  VT_HIP(hipFree(din)); VT_HIP(hipFree(dout));
  printf("valu_more: %d checks, %d failures\n", vt_checks, vt_failures);
  return vt_failures ? 1 : 0;
}
