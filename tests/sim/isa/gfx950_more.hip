// gfx950_more.hip: CDNA4 additions tksim learned from its ISA coverage list,
// against host models from the CDNA4 ISA guide: v_cvt_f32_bf16 (a bf16 in
// bits [15:0], or [31:16] with SDWA WORD_1, widened to f32: the bits move up) and
// v_maximum3_f32 / v_minimum3_f32 (IEEE 754-2019 maximum/minimum of three:
// any NaN gives NaN, -0 < +0; unlike v_max3_f32, which drops NaNs), their packed
// f16 forms v_pk_maximum3/minimum3_f16, v_ashr_pk_{i8,u8}_i32 (S0 and S1 shifted
// right arithmetically by S2[4:0], saturated to bytes, S0 in the low byte) and
// v_cvt_sr_{bf16,f16}_f32 (stochastic rounding: S1's random bits below the kept
// mantissa are added, then cut off; f16 checked in its normal range). Run with
// tksim --arch=gfx950; the gfx942 code object holds an empty kernel.
#include "vtest.h"

enum { R_CVT_LO, R_CVT_HI, R_MAXIMUM3, R_MINIMUM3, R_PKMAX3, R_PKMIN3, R_ASHR_I8, R_ASHR_U8, R_SR_BF16, R_SR_F16, NR };
static const char *r_name[NR] = { "v_cvt_f32_bf16", "v_cvt_f32_bf16_sdwa WORD_1", "v_maximum3_f32", "v_minimum3_f32",
  "v_pk_maximum3_f16", "v_pk_minimum3_f16", "v_ashr_pk_i8_i32", "v_ashr_pk_u8_i32", "v_cvt_sr_bf16_f32", "v_cvt_sr_f16_f32" };

__global__ void k([[maybe_unused]] const uint32_t *in, [[maybe_unused]] uint32_t *out, [[maybe_unused]] int n)
{
#if defined(__gfx950__)
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], r;
  uint32_t *o = out + (size_t)i * NR;
  asm volatile("v_cvt_f32_bf16 %0, %1" : "=v"(r) : "v"(a)); o[R_CVT_LO] = r;
  asm volatile("v_cvt_f32_bf16_sdwa %0, %1 dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1" : "=v"(r) : "v"(a)); o[R_CVT_HI] = r;
  asm volatile("v_maximum3_f32 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[R_MAXIMUM3] = r;
  asm volatile("v_minimum3_f32 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[R_MINIMUM3] = r;
  /* packed f16 (the halves of a, b, c); S0/S1 >> S2[4:0] saturated to bytes;
   * stochastic rounding with the random bits in S1 */
  asm volatile("v_pk_maximum3_f16 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[R_PKMAX3] = r;
  asm volatile("v_pk_minimum3_f16 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[R_PKMIN3] = r;
  asm volatile("v_ashr_pk_i8_i32 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[R_ASHR_I8] = r & 0xffff;
  asm volatile("v_ashr_pk_u8_i32 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[R_ASHR_U8] = r & 0xffff;
  asm volatile("v_cvt_sr_bf16_f32 %0, %1, %2" : "=v"(r) : "v"(a), "v"(c)); o[R_SR_BF16] = r & 0xffff;
  asm volatile("v_cvt_sr_f16_f32 %0, %1, %2" : "=v"(r) : "v"(a), "v"(c)); o[R_SR_F16] = r & 0xffff;
#endif
}

static float mx(float a, float b) { if (isnan(a) || isnan(b)) return NAN; if (a == 0 && b == 0) return signbit(a) ? b : a; return a > b ? a : b; }
static float mn(float a, float b) { if (isnan(a) || isnan(b)) return NAN; if (a == 0 && b == 0) return signbit(a) ? a : b; return a < b ? a : b; }
static uint32_t pk3(uint32_t a, uint32_t b, uint32_t c, int max)
{
  uint32_t r = 0;
  for (int h = 0; h < 2; h++) {
    _Float16 x[3];
    uint32_t v[3] = {a, b, c};
    for (int i = 0; i < 3; i++) { uint16_t u = (uint16_t)(v[i] >> (16 * h)); memcpy(&x[i], &u, 2); }
    float f = max ? mx(mx((float)x[0], (float)x[1]), (float)x[2]) : mn(mn((float)x[0], (float)x[1]), (float)x[2]);
    _Float16 y = (_Float16)f;
    uint16_t u; memcpy(&u, &y, 2);
    r |= (uint32_t)u << (16 * h);
  }
  return r;
}
static uint32_t sat8(int32_t v, int u) { int32_t lo = u ? 0 : -128, hi = u ? 255 : 127; return (uint32_t)(v < lo ? lo : v > hi ? hi : v) & 0xff; }

int main()
{
  const float vals[] = { 0.0f, -0.0f, 1.0f, -1.0f, 3.5f, -2.25e-38f, 1e30f, -INFINITY, INFINITY, NAN, 65504.0f, 1.0e-45f };
  std::vector<uint32_t> in;
  for (float x : vals) for (float y : vals) for (int z = 0; z < 3; z++) {
    in.push_back(vt_f2u(x) ^ (z == 2 ? 0x1234u : 0)); in.push_back(vt_f2u(y)); in.push_back(vt_f2u(vals[(z * 5 + 3) % 12]));
  }
  int n = (int)in.size() / 3;
  uint32_t *din, *dout;
  VT_HIP(hipMalloc(&din, in.size() * 4));
  VT_HIP(hipMalloc(&dout, (size_t)n * NR * 4));
  VT_HIP(hipMemcpy(din, in.data(), in.size() * 4, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(k, dim3((n + 63) / 64), dim3(64), 0, 0, din, dout, n);
  VT_HIP(hipGetLastError());
  std::vector<uint32_t> out((size_t)n * NR);
  VT_HIP(hipMemcpy(out.data(), dout, out.size() * 4, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    uint32_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    float fa = vt_u2f(a), fb = vt_u2f(b), fc = vt_u2f(c);
    const uint32_t *o = &out[(size_t)i * NR];
    vt_check_u32(r_name[R_CVT_LO], i, o[R_CVT_LO], a << 16);
    vt_check_u32(r_name[R_CVT_HI], i, o[R_CVT_HI], a & 0xffff0000u);
    vt_check_f32(r_name[R_MAXIMUM3], i, vt_u2f(o[R_MAXIMUM3]), mx(mx(fa, fb), fc));
    vt_check_f32(r_name[R_MINIMUM3], i, vt_u2f(o[R_MINIMUM3]), mn(mn(fa, fb), fc));
    for (int k = 0; k < 2; k++) {
      uint32_t want = pk3(a, b, c, k == 0), got = o[R_PKMAX3 + k];
      for (int h = 0; h < 2; h++) {
        uint16_t g16 = (uint16_t)(got >> (16 * h)), w16 = (uint16_t)(want >> (16 * h));
        _Float16 gx; memcpy(&gx, &g16, 2);
        int gnan = isnan((float)gx) != 0;
        /* NaN results: any NaN matches (payloads are not specified) */
        _Float16 hx[3]; uint32_t vv[3] = {a, b, c}; int anynan = 0;
        for (int q = 0; q < 3; q++) { uint16_t u = (uint16_t)(vv[q] >> (16 * h)); memcpy(&hx[q], &u, 2); anynan |= isnan((float)hx[q]); }
        if (anynan) vt_check_u32(r_name[R_PKMAX3 + k], 2 * i + h, (uint32_t)gnan, 1u);
        else vt_check_u32(r_name[R_PKMAX3 + k], 2 * i + h, g16, w16);
      }
    }
    uint32_t sh = c & 31;
    vt_check_u32(r_name[R_ASHR_I8], i, o[R_ASHR_I8], sat8((int32_t)a >> sh, 0) | (sat8((int32_t)b >> sh, 0) << 8));
    vt_check_u32(r_name[R_ASHR_U8], i, o[R_ASHR_U8], sat8((int32_t)a >> sh, 1) | (sat8((int32_t)b >> sh, 1) << 8));
    /* stochastic rounding: the random bits below the kept mantissa are added, then cut off */
    if (!isnan(fa)) vt_check_u32(r_name[R_SR_BF16], i, o[R_SR_BF16], isinf(fa) ? a >> 16 : (a + (c & 0xffffu)) >> 16);
    float afa = fabsf(fa);
    if (afa >= 0x1p-14f && afa < 65504.0f) {
      uint32_t t = (a + (c & 0x1fffu)) & ~0x1fffu;
      _Float16 y = (_Float16)vt_u2f(t); uint16_t u; memcpy(&u, &y, 2);
      vt_check_u32(r_name[R_SR_F16], i, o[R_SR_F16], u);
    }
  }
  VT_HIP(hipFree(din)); VT_HIP(hipFree(dout));
  printf("gfx950_more: %d checks, %d failures\n", vt_checks, vt_failures);
  return vt_failures ? 1 : 0;
}
