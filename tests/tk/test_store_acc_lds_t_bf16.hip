// Device test of tk_store_acc_lds_t_bf16, tk_store_acc_lds_t_bf16_rn (tk/stores.h) and tk_pack_bf16x2_rne
// (tk/types.h) against CPU references, on both targets (gfx950: one
// v_cvt_pk_bf16_f32 per pair; gfx942: tk_pack_bf16x2).
// - pack: every pair of a list of f32 with rounding ties (even and odd
//   mantissa below), carries into the exponent, the largest finite values
//   that round to infinity, infinities, subnormals, zeros of both signs and
//   NaNs, against a double-precision round-to-nearest-even reference
//   (the nearer of the two bf16 neighbours, ties to the even one).
// - store: accumulator tiles (32x32 and 16x16 fragments, values placed by
//   register.h's documented output layout) into linear and swizzled bf16 LDS
//   tiles at (r0, c0) = (0, 0) and (16, 32), read back element by element
//   through tk_lds_offset: element (r, c) must be at (r0 + c, c0 + r), every
//   other element of the tile untouched.
// - the _rn store (finite values, round to nearest): the same placement; the
//   RNE result except at exact ties, where gfx942 rounds away from zero
//   (tk_pack_bf16x2_rna) and gfx950 to even (v_cvt_pk_bf16_f32).
#include <hip/hip_runtime.h>
#include <math.h>
#include <string.h>
#include "tk/tk.h"
#include "tk_test.h"

// round-to-nearest-even reference of one f32 as bf16 bits (NaN: any quiet NaN)
static uint16_t ref_rne(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if (f != f) return 0x7fc0; /* compared as "a NaN" below */
  const uint32_t t = u & 0xffff0000u, t1 = t + 0x10000u; /* truncation, next away from zero */
  float ft, ft1;
  memcpy(&ft, &t, 4);
  memcpy(&ft1, &t1, 4);
  if ((t & 0x7f800000u) == 0x7f800000u) return (uint16_t)(t >> 16); /* infinity */
  const double d0 = fabs((double)f - (double)ft);
  const double d1 = (t1 & 0x7f800000u) == 0x7f800000u ? ldexp(1.0, 128) - fabs((double)f) /* rounds to inf */
                                                      : fabs((double)ft1 - (double)f);
  if (d0 < d1 || (d0 == d1 && ((t >> 16) & 1u) == 0)) return (uint16_t)(t >> 16);
  return (uint16_t)(t1 >> 16);
}
// ties away from zero (finite f): the nearer neighbour, the larger magnitude at a tie
static uint16_t ref_rna(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)((u + 0x8000u) >> 16);
}
static int is_tie(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (u & 0xffffu) == 0x8000u;
}
static int same_bf16(uint16_t got, uint16_t want) {
  if ((want & 0x7fffu) > 0x7f80u || want == 0x7fc0u) return (got & 0x7fffu) > 0x7f80u; /* NaN stays NaN */
  return got == want;
}

__global__ __launch_bounds__(64) void k_pack_rne(const float *x, uint32_t *out, int n) {
  for (int i = tk_lane(); i < n; i += 64) out[i] = tk_pack_bf16x2_rne(x[2 * i], x[2 * i + 1]);
}

__host__ __device__ static float val(int r, int c) {
  /* distinct values, most of them not exact in bf16, some exact ties */
  return (float)(r * 67 - c * 29) * 0.0078125f + (float)((r + c) % 7) * 0x1p-12f;
}
#define SENT 0x5a5au

#define STORE_KERNEL(NAME, ACC_KIND, AR, AC, LAYOUT, R0, C0, TR, TC) STORE_KERNEL_(NAME, ACC_KIND, AR, AC, LAYOUT, R0, C0, TR, TC, tk_store_acc_lds_t_bf16)
#define STORE_KERNEL_(NAME, ACC_KIND, AR, AC, LAYOUT, R0, C0, TR, TC, STORE)          \
  __global__ __launch_bounds__(64) void NAME(uint16_t *out) {                         \
    TK_RT(a_t, ACC_KIND, AR, AC);                                                     \
    TK_ST(s_t, tk_bf16, TR, TC, LAYOUT);                                              \
    __shared__ s_t sm;                                                                \
    const int l = (int)tk_lane_id();                                                  \
    for (int e = l; e < (TR) * (TC); e += 64) ((uint16_t *)sm.data)[e] = SENT;        \
    tk_lds_barrier();                                                                 \
    a_t A;                                                                            \
    for (int f = 0; f < a_t::tk_frag_count_r * a_t::tk_frag_count_c; f++)             \
      for (int i = 0; i < a_t::tk_n; i++) {                                           \
        const int fr = f / a_t::tk_frag_count_c, fc = f % a_t::tk_frag_count_c;      \
        A.f[f][i] = val(fr * a_t::tk_frag_rows + tk_layout_c_row(a_t::tk_frag_rows, l, i), \
                        fc * a_t::tk_frag_cols + tk_layout_c_col(a_t::tk_frag_cols, l, i)); \
      }                                                                               \
    STORE(sm, A, R0, C0);                                                             \
    tk_lds_barrier();                                                                 \
    for (int e = l; e < (TR) * (TC); e += 64)                                         \
      out[e] = *(const uint16_t *)((const char *)sm.data + tk_st_offset(s_t, e / (TC), e % (TC))); \
  }
/* accumulator AR x AC into a tile of TR x TC (TR >= R0 + AC, TC >= C0 + AR) */
STORE_KERNEL(k_st32_lin, TK_K_C_F32_32x32, 64, 64, TK_LDS_LINEAR, 0, 0, 64, 64)
STORE_KERNEL(k_st32_swz, TK_K_C_F32_32x32, 64, 64, TK_LDS_SWZ, 0, 0, 64, 64)
STORE_KERNEL(k_st32_swz_off, TK_K_C_F32_32x32, 32, 64, TK_LDS_SWZ, 16, 32, 96, 128)
STORE_KERNEL(k_st16_lin_off, TK_K_C_F32_16x16, 32, 16, TK_LDS_LINEAR, 16, 32, 32, 64)
STORE_KERNEL(k_st16_swz, TK_K_C_F32_16x16, 32, 64, TK_LDS_SWZ, 0, 0, 64, 32)
STORE_KERNEL_(k_rn32_swz_off, TK_K_C_F32_32x32, 32, 64, TK_LDS_SWZ, 16, 32, 96, 128, tk_store_acc_lds_t_bf16_rn)
STORE_KERNEL_(k_rn16_lin_off, TK_K_C_F32_16x16, 32, 16, TK_LDS_LINEAR, 16, 32, 32, 64, tk_store_acc_lds_t_bf16_rn)
static int g_rn_away; /* the _rn store's ties: away from zero (gfx942) or to even (gfx950) */

typedef void (*store_k)(uint16_t *);
static void run_store(const char *what, store_k k, int AR, int AC, int R0, int C0, int TR, int TC, int rn = 0) {
  uint16_t *d;
  HIPCHECK(hipMalloc((void **)&d, (size_t)TR * TC * 2));
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, d);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint16_t> h = tt_host(d, (size_t)TR * TC);
  HIPCHECK(hipFree(d));
  int bad = 0, ties = 0;
  for (int r = 0; r < TR; r++)
    for (int c = 0; c < TC; c++) {
      const int ar = c - C0, ac = r - R0; /* accumulator element stored here, if any */
      const int inside = ar >= 0 && ar < AR && ac >= 0 && ac < AC;
      const float x = inside ? val(ar, ac) : 0.0f;
      const uint16_t want = !inside ? (uint16_t)SENT : rn && g_rn_away && is_tie(x) ? ref_rna(x) : ref_rne(x);
      ties += inside && rn && is_tie(x);
      if (h[(size_t)r * TC + c] != want && bad++ < 3)
        printf("  %s (%d,%d): 0x%04x, want 0x%04x%s\n", what, r, c, h[(size_t)r * TC + c], want,
               inside ? "" : " (outside the stored block: untouched)");
    }
  TT_CHECK(bad == 0, "%s: %d elements wrong", what, bad);
  TT_CHECK(!rn || ties > 0, "%s: no exact ties among the values (the rounding difference untested)", what);
}

int main() {
  std::vector<float> x;
  const uint32_t bits[] = {
      0x3f808000u, 0x3f818000u, /* ties: even below (down), odd below (up) */
      0xbf808000u, 0xbf818000u, 0x3f808001u, 0x3f807fffu, /* negative ties; just above / below a tie */
      0x3fffffffu, 0x407fc000u, /* carry into the exponent */
      0x7f7fffffu, 0xff7fffffu, 0x7f7f8000u, 0x7f7f7fffu, /* largest finite: to inf; tie to inf; just below */
      0x7f800000u, 0xff800000u, 0x00000001u, 0x00018000u, 0x80008000u, 0x00000000u, 0x80000000u,
      0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x7fbfffffu, /* quiet, negative quiet, signalling NaNs */
  };
  for (uint32_t b : bits) { float f; memcpy(&f, &b, 4); x.push_back(f); }
  for (int i = 0; i < 200; i++) { /* random finite values over a wide range, many ties */
    uint32_t u = tt_rand();
    if (i % 3 == 0) u = (u & 0xffff0000u) | 0x8000u;
    if (((u >> 23) & 0xffu) == 0xffu) u ^= 0x40000000u;
    float f; memcpy(&f, &u, 4); x.push_back(f);
  }
  if (x.size() % 2) x.push_back(1.0f);
  const int n = (int)x.size() / 2;
  float *dx = tt_dev(x);
  uint32_t *dout;
  HIPCHECK(hipMalloc((void **)&dout, n * 4));
  hipLaunchKernelGGL(k_pack_rne, dim3(1), dim3(64), 0, 0, dx, dout, n);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint32_t> out = tt_host(dout, n);
  int bad = 0;
  for (int i = 0; i < n; i++)
    for (int h = 0; h < 2; h++) {
      const uint16_t got = (uint16_t)(out[i] >> (16 * h)), want = ref_rne(x[2 * i + h]);
      uint32_t xb;
      memcpy(&xb, &x[2 * i + h], 4);
      if (!same_bf16(got, want) && bad++ < 5) printf("  pack_rne(0x%08x) = 0x%04x, want 0x%04x\n", xb, got, want);
    }
  TT_CHECK(bad == 0, "tk_pack_bf16x2_rne: %d of %d values wrong", bad, 2 * n);
  HIPCHECK(hipFree(dx));
  HIPCHECK(hipFree(dout));

  run_store("32x32 linear", k_st32_lin, 64, 64, 0, 0, 64, 64);
  run_store("32x32 swizzled", k_st32_swz, 64, 64, 0, 0, 64, 64);
  run_store("32x32 swizzled at (16, 32)", k_st32_swz_off, 32, 64, 16, 32, 96, 128);
  run_store("16x16 linear at (16, 32)", k_st16_lin_off, 32, 16, 16, 32, 32, 64);
  run_store("16x16 swizzled", k_st16_swz, 32, 64, 0, 0, 64, 32);
  hipDeviceProp_t prop;
  HIPCHECK(hipGetDeviceProperties(&prop, 0));
  g_rn_away = strstr(prop.gcnArchName, "gfx950") == NULL;
  run_store("_rn 32x32 swizzled at (16, 32)", k_rn32_swz_off, 32, 64, 16, 32, 96, 128, 1);
  run_store("_rn 16x16 linear at (16, 32)", k_rn16_lin_off, 32, 16, 16, 32, 32, 64, 1);
  return tt_finish();
}
