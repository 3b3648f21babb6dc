// gfx950_more.hip: CDNA4 additions tksim learned from its ISA coverage list,
// against host models from the CDNA4 ISA guide: v_cvt_f32_bf16 (a bf16 in
// bits [15:0], or [31:16] with SDWA WORD_1, widened to f32: the bits move up) and
// v_maximum3_f32 / v_minimum3_f32 (IEEE 754-2019 maximum/minimum of three:
// any NaN gives NaN, -0 < +0; unlike v_max3_f32, which drops NaNs). Run with
// tksim --arch=gfx950; the gfx942 code object holds an empty kernel.
#include "vtest.h"

enum { R_CVT_LO, R_CVT_HI, R_MAXIMUM3, R_MINIMUM3, NR };
static const char *r_name[NR] = { "v_cvt_f32_bf16", "v_cvt_f32_bf16_sdwa WORD_1", "v_maximum3_f32", "v_minimum3_f32" };

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
#endif
}

static float mx(float a, float b) { if (isnan(a) || isnan(b)) return NAN; if (a == 0 && b == 0) return signbit(a) ? b : a; return a > b ? a : b; }
static float mn(float a, float b) { if (isnan(a) || isnan(b)) return NAN; if (a == 0 && b == 0) return signbit(a) ? a : b; return a < b ? a : b; }

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
  }
  VT_HIP(hipFree(din)); VT_HIP(hipFree(dout));
  printf("gfx950_more: %d checks, %d failures\n", vt_checks, vt_failures);
  return vt_failures ? 1 : 0;
}
