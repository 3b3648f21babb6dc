// Device conversions of tk/types.h (hardware v_cvt_pk_fp8_f32 / bf8,
// v_cvt_f32_fp8 / bf8, and the bf16/f16 paths compiled for gfx942) compared
// bit-exactly with the host references (which host_conversions checks
// against independent double-based references), over every fp8 code and
// many f32 values incl. NaN, +-inf, +-0, ties, subnormals and overflow.
// The references follow the device: FNUZ on gfx942, OCP (E4M3FN / E5M2) on
// gfx950, whose same instructions produce and read OCP bits.
#include "tk_test.h"
#include <string.h>
#include "tk/types.h"

#define NV 4096
__global__ void k_conv(const float *x, uint32_t *e4, uint32_t *e5, uint16_t *bf, uint16_t *h,
                       uint32_t *pk4, float *d4, float *d5) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < NV) {
    e4[t] = tk_f32_to_fp8e4(x[t]);
    e5[t] = tk_f32_to_fp8e5(x[t]);
    bf[t] = tk_f32_to_bf16(x[t]);
    h[t] = tk_f32_to_f16(x[t]);
  }
  if (t < NV / 4) pk4[t] = tk_cvt_pk4_fp8e4(x[4 * t], x[4 * t + 1], x[4 * t + 2], x[4 * t + 3]);
  if (t < 256) {
    d4[t] = tk_fp8e4_to_f32((uint8_t)t);
    d5[t] = tk_fp8e5_to_f32((uint8_t)t);
    /* byte select of the packed form: code t in byte t%4 */
    uint32_t w = (uint32_t)t << (8 * (t % 4));
    float v = (t % 4 == 0) ? tk_cvt_fp8e4_f32(w, 0) : (t % 4 == 1) ? tk_cvt_fp8e4_f32(w, 1)
            : (t % 4 == 2) ? tk_cvt_fp8e4_f32(w, 2) : tk_cvt_fp8e4_f32(w, 3);
    if (tk_f32_bits(v) != tk_f32_bits(d4[t]) && !(v != v && d4[t] != d4[t])) d4[t] = -12345.0f;
  }
}

static int same_f(float a, float b) { return (isnan(a) && isnan(b)) || tk_f32_bits(a) == tk_f32_bits(b); }

// the device's fp8 formats (set in main from the device's architecture)
static uint8_t (*enc4)(float) = tk_f32_to_fp8e4_ref, (*enc5)(float) = tk_f32_to_fp8e5_ref;
static float (*dec4)(uint8_t) = tk_fp8e4_to_f32_ref, (*dec5)(uint8_t) = tk_fp8e5_to_f32_ref;
static uint8_t ocp_e4(float f) { return tk_f32_to_ocp_e4m3_ref(f); }
static uint8_t ocp_e5(float f) { return tk_f32_to_ocp_e5m2_ref(f); }
static uint8_t fnuz_e4(float f) { return tk_f32_to_fp8e4_ref(f); }
static uint8_t fnuz_e5(float f) { return tk_f32_to_fp8e5_ref(f); }
static float ocp_d4(uint8_t v) { return tk_ocp_e4m3_to_f32_ref(v); }
static float ocp_d5(uint8_t v) { return tk_ocp_e5m2_to_f32_ref(v); }
static float fnuz_d4(uint8_t v) { return tk_fp8e4_to_f32_ref(v); }
static float fnuz_d5(uint8_t v) { return tk_fp8e5_to_f32_ref(v); }

int main(void) {
  hipDeviceProp_t prop;
  HIPCHECK(hipGetDeviceProperties(&prop, 0));
  const int ocp = !strncmp(prop.gcnArchName, "gfx950", 6);
  if (ocp) { enc4 = ocp_e4; enc5 = ocp_e5; dec4 = ocp_d4; dec5 = ocp_d5; }
  else { enc4 = fnuz_e4; enc5 = fnuz_e5; dec4 = fnuz_d4; dec5 = fnuz_d5; }
  printf("fp8 formats: %s (%s)\n", ocp ? "OCP" : "FNUZ", prop.gcnArchName);
  std::vector<float> x(NV);
  int n = 0;
  const float sp[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 240.0f, 248.0f, 247.0f, 256.0f, 57344.0f,
                      61440.0f, 1e-30f, -1e-30f, 1.0f, 1.0625f, 1.1875f, 0.0009765625f, 65504.0f, 65520.0f,
                      448.0f, -448.0f, 464.0f, 464.5f, 480.0f, 61439.0f, -61440.0f, 0.001953125f, 0.0009765625f,
                      1.52587890625e-05f, 7.62939453125e-06f, 1.1444091796875e-05f, -0.00146484375f};
  for (float v : sp) x[n++] = v;
  // fp8 code values and midpoints between neighbouring codes (ties)
  for (int v = 0; v < 128 && n + 4 < NV; v++) {
    float a = dec4((uint8_t)v), b = dec4((uint8_t)(v + 1 < 128 ? v + 1 : v));
    float c = dec5((uint8_t)v), d = dec5((uint8_t)(v + 1 < 128 ? v + 1 : v));
    x[n++] = a; x[n++] = -(a + b) / 2; x[n++] = (c + d) / 2; x[n++] = -c;
  }
  while (n < NV) {
    uint32_t r = tt_rand();
    if (n % 3 == 0) x[n++] = tk_bits_f32(r);  // anything, incl. NaN payloads
    else x[n++] = ldexpf((float)(r & 0xffffff) / 16777216.0f + 0.5f, (int)((r >> 24) % 44) - 26) * ((r & 1) ? -1 : 1);
  }
  float *dx = tt_dev(x);
  uint32_t *de4 = tt_dev(std::vector<uint32_t>(NV)), *de5 = tt_dev(std::vector<uint32_t>(NV)), *dpk = tt_dev(std::vector<uint32_t>(NV / 4));
  uint16_t *dbf = tt_dev(std::vector<uint16_t>(NV)), *dh = tt_dev(std::vector<uint16_t>(NV));
  float *dd4 = tt_dev(std::vector<float>(256)), *dd5 = tt_dev(std::vector<float>(256));
  hipLaunchKernelGGL(k_conv, dim3(NV / 256), dim3(256), 0, 0, dx, de4, de5, dbf, dh, dpk, dd4, dd5);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint32_t> e4 = tt_host(de4, NV), e5 = tt_host(de5, NV), pk = tt_host(dpk, NV / 4);
  std::vector<uint16_t> bf = tt_host(dbf, NV), h = tt_host(dh, NV);
  std::vector<float> d4 = tt_host(dd4, 256), d5 = tt_host(dd5, 256);
  int b4 = 0, b5 = 0, bb = 0, bh = 0, bp = 0, bd = 0;
  for (int i = 0; i < NV; i++) {
    if (e4[i] != enc4(x[i]) && b4++ < 5) printf("  fp8e4(%a) = %02x, ref %02x\n", x[i], e4[i], enc4(x[i]));
    if (e5[i] != enc5(x[i]) && b5++ < 5) printf("  fp8e5(%a) = %02x, ref %02x\n", x[i], e5[i], enc5(x[i]));
    uint16_t rb = tk_f32_to_bf16(x[i]);
    int bnan = isnan(x[i]) && (bf[i] & 0x7f80) == 0x7f80 && (bf[i] & 0x7f);
    if (bf[i] != rb && !bnan && bb++ < 5) printf("  bf16(%a) = %04x, ref %04x\n", x[i], bf[i], rb);
    uint16_t rh = tk_f32_to_f16(x[i]);
    int hnan = isnan(x[i]) && (h[i] & 0x7c00) == 0x7c00 && (h[i] & 0x3ff);
    if (h[i] != rh && !hnan && bh++ < 5) printf("  f16(%a) = %04x, ref %04x\n", x[i], h[i], rh);
  }
  for (int t = 0; t < NV / 4; t++) {
    uint32_t ref = 0;
    for (int j = 0; j < 4; j++) ref |= (uint32_t)enc4(x[4 * t + j]) << (8 * j);
    if (pk[t] != ref && bp++ < 5) printf("  pk4 fp8e4 #%d = %08x, ref %08x\n", t, pk[t], ref);
  }
  for (int v = 0; v < 256; v++) {
    if (!same_f(d4[v], dec4((uint8_t)v)) && bd++ < 5) printf("  fp8e4 %02x -> %g, ref %g\n", v, d4[v], dec4((uint8_t)v));
    if (!same_f(d5[v], dec5((uint8_t)v)) && bd++ < 5) printf("  fp8e5 %02x -> %g, ref %g\n", v, d5[v], dec5((uint8_t)v));
  }
  TT_CHECK(b4 == 0, "f32->fp8 e4m3: %d of %d differ", b4, NV);
  TT_CHECK(b5 == 0, "f32->fp8 e5m2: %d of %d differ", b5, NV);
  TT_CHECK(bb == 0, "f32->bf16: %d differ", bb);
  TT_CHECK(bh == 0, "f32->f16: %d differ", bh);
  TT_CHECK(bp == 0, "4x f32 -> packed fp8 e4m3: %d differ", bp);
  TT_CHECK(bd == 0, "fp8 -> f32 (all codes, byte select): %d differ", bd);
  return tt_finish();
}
