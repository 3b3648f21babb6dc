// tk_rt_cvt_c_to_b_fp8e4: f32 accumulator tile -> fp8 e4m3 (FNUZ) B-operand
// tile, for both accumulator shapes (16x16 -> TK_K_B_FP8_16x16x32, 32x32 ->
// TK_K_B_FP8_32x32x16).  A host matrix X (M x N) is placed into the
// accumulator through register.h's C layout; every byte of every output
// fragment must equal the bit-exact host encoding (tk_f32_to_fp8e4_ref, the
// documented v_cvt_pk_fp8_f32 rules incl. out-of-range -> NaN 0x80) of the X
// element the B layout names: lane l, byte e of fragment (kf, fc) is
// k = kf*FK + 8*(l/S) + e, n = fc*S + l%S. On gfx950 the same conversion
// produces OCP E4M3FN bits: the reference is tk_f32_to_ocp_e4m3_ref there.
#include <string.h>
#include "tk_test.h"
#include "tk/register.h"

TK_RT(acc16_t, TK_K_C_F32_16x16, 64, 32);
TK_RT(b16_t, TK_K_B_FP8_16x16x32, 64, 32);
TK_RT(acc32_t, TK_K_C_F32_32x32, 64, 64);
TK_RT(b32_t, TK_K_B_FP8_32x32x16, 64, 64);

#define CVT_KERNEL(name, AT, BT, C)                                                    \
  __global__ __launch_bounds__(64) void name(const float *x, uint8_t *out) {           \
    const int l = tk_lane();                                                           \
    AT a;                                                                              \
    for (int fr = 0; fr < (int)AT::tk_frag_count_r; fr++)                                        \
      for (int fc = 0; fc < (int)AT::tk_frag_count_c; fc++)                                      \
        for (int i = 0; i < (int)AT::tk_n; i++)                                        \
          a.f[fr * (int)AT::tk_frag_count_c + fc][i] =                                           \
              x[(fr * (int)AT::tk_frag_rows + tk_layout_c_row((int)AT::tk_frag_rows, l, i)) * C + \
                fc * (int)AT::tk_frag_cols + tk_layout_c_col((int)AT::tk_frag_rows, l, i)];    \
    BT b;                                                                              \
    tk_rt_cvt_c_to_b_fp8e4(b, a);                                                      \
    for (int f = 0; f < (int)BT::tk_frag_count_r * (int)BT::tk_frag_count_c; f++)                          \
      for (int e = 0; e < 8; e++) out[(f * 8 + e) * 64 + l] = (uint8_t)((uint64_t)b.f[f] >> (8 * e)); \
  }
CVT_KERNEL(k_cvt16, acc16_t, b16_t, 32)
CVT_KERNEL(k_cvt32, acc32_t, b32_t, 64)

static int g_ocp = 0;  // the device's fp8 e4m3 is OCP (gfx950)
static void run(const char *what, void (*k)(const float *, uint8_t *), int M, int N, int S, int FK, int nfr, int nfc) {
  std::vector<float> x((size_t)M * N);
  for (auto &v : x) v = (float)((int)(tt_rand() % 4001) - 2000) / 7.0f;  // |v| up to 286: some out of range
  float *dx = tt_dev(x);
  uint8_t *dout = tt_dev(std::vector<uint8_t>((size_t)nfr * nfc * 8 * 64, 0x55));
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, dx, dout);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint8_t> out = tt_host(dout, (size_t)nfr * nfc * 8 * 64);
  int bad = 0;
  for (int kf = 0; kf < nfr; kf++)
    for (int fc = 0; fc < nfc; fc++)
      for (int l = 0; l < 64; l++)
        for (int e = 0; e < 8; e++) {
          const int kk = kf * FK + 8 * (l / S) + e, n = fc * S + l % S;
          const float xv = x[(size_t)kk * N + n];
          const uint8_t want = g_ocp ? tk_f32_to_ocp_e4m3_ref(xv) : tk_f32_to_fp8e4_ref(xv);
          const uint8_t got = out[((kf * nfc + fc) * 8 + e) * 64 + l];
          if (got != want && bad++ < 5)
            printf("  %s frag (%d,%d) lane %d byte %d: got %02x want %02x (x[%d][%d] = %g)\n", what, kf, fc, l, e, got,
                   want, kk, n, x[(size_t)kk * N + n]);
        }
  TT_CHECK(bad == 0, "%s: %d wrong bytes", what, bad);
  HIPCHECK(hipFree(dx));
  HIPCHECK(hipFree(dout));
}

int main(void) {
  hipDeviceProp_t prop;
  HIPCHECK(hipGetDeviceProperties(&prop, 0));
  g_ocp = !strncmp(prop.gcnArchName, "gfx950", 6);
  run("16x16 acc -> fp8 16x16x32 B (64x32)", k_cvt16, 64, 32, 16, 32, 2, 2);
  run("32x32 acc -> fp8 32x32x16 B (64x64)", k_cvt32, 64, 64, 32, 16, 4, 2);
  return tt_finish();
}
