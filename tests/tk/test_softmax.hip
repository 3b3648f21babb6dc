// tk/softmax.h masks and exp2 maps, stores.h's transposed accumulator ->
// LDS store, register.h's tk_rt_cvt_c_to_b_bf16_finite and sync.h's
// tk_wave_any, on f32 accumulator tiles of both layouts (16x16 fragments: 48x32
// tile; 32x32 fragments: 64x64), against CPU computations on the matrices
// placed by register.h's documented layout functions.  The mask limits and
// diagonals cover inside, edge and outside of the tile; the exp2 vectors are
// CPU-chosen per row / column, so a wrong lane-to-row mapping shows.
#include "tk_test.h"
#include "tk/softmax.h"
#include "tk/stores.h"
#include <math.h>
#include <string.h>

#define NOUT 10 /* full-tile results per kernel */
#define FOR_ELEMS(T, body)                                                        \
  for (int fr = 0; fr < ((int)T::tk_frag_count_r); fr++) for (int fc = 0; fc < ((int)T::tk_frag_count_c); fc++) \
    for (int i = 0; i < ((int)T::tk_n); i++) {                                    \
      int row = fr * ((int)T::tk_frag_rows) + tk_layout_c_row(((int)T::tk_frag_rows), l, i); \
      int col = fc * ((int)T::tk_frag_cols) + tk_layout_c_col(((int)T::tk_frag_rows), l, i); \
      int f = fr * ((int)T::tk_frag_count_c) + fc; (void)f; body; }

// lim: {ncols, nrows, d_upper, d_lower, ncols2, d_upper2}; rvec[R], cvec[C]
#define SM_KERNEL(name, KC, R, C)                                                 \
  __global__ __launch_bounds__(64) void name(const float *x, const int *lim, const float *rvec, \
                                             const float *cvec, float s, float *out, float *tout) { \
    TK_RT(t_t, KC, R, C);                                                         \
    TK_ST(st_t, float, C, R, TK_LDS_LINEAR);                                       \
    __shared__ st_t sm;                                                           \
    int l = tk_lane();                                                            \
    t_t X, Z;                                                                     \
    FOR_ELEMS(t_t, X.f[f][i] = x[row * C + col]);                                 \
    float *o = out;                                                               \
    tk_rt_mask_cols(Z, X, lim[0], -INFINITY); FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_mask_rows(Z, X, lim[1], -INFINITY); FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_mask_upper(Z, X, lim[2], -1.5f);    FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_mask_lower(Z, X, lim[3], -INFINITY); FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_mask_cols(Z, X, lim[4], 7.0f);      FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_mask_upper(Z, X, lim[5], 0.0f);     FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_mask_lower(Z, X, lim[6], 3.0f);     FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    float rv[TK_RT_ROWV(t_t)], cv[TK_RT_COLV(t_t)];                               \
    for (int fr = 0; fr < ((int)t_t::tk_frag_count_r); fr++) for (int i = 0; i < ((int)t_t::tk_n); i++) \
      rv[fr * ((int)t_t::tk_n) + i] = rvec[fr * ((int)t_t::tk_frag_rows) + tk_layout_c_row(((int)t_t::tk_frag_rows), l, i)]; \
    for (int fc = 0; fc < ((int)t_t::tk_frag_count_c); fc++) cv[fc] = cvec[fc * ((int)t_t::tk_frag_cols) + l % ((int)t_t::tk_frag_cols)]; \
    tk_rt_exp2_row(Z, X, s, rv); FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_exp2_col(Z, X, s, cv); FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    /* masked then exp2: -inf elements must become exactly 0 */                   \
    tk_rt_mask_lower(Z, X, lim[3], -INFINITY);                                    \
    tk_rt_exp2_col(Z, Z, s, cv); FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    /* transposed LDS store: tout[c][r] = X[r][c] (read back through the layout) */ \
    tk_store_acc_lds_t(sm, X, 0, 0);                                              \
    tk_lds_barrier();                                                             \
    for (int e = l; e < R * C; e += 64) {                                         \
      int r = e / R, c = e % R; /* LDS tile is C x R */                            \
      tout[e] = *(const float *)((const char *)sm.data + tk_st_offset(st_t, r, c)); \
    }                                                                             \
  }
SM_KERNEL(k_sm16, TK_K_C_F32_16x16, 48, 32)
SM_KERNEL(k_sm32, TK_K_C_F32_32x32, 64, 64)

typedef void (*kern_t)(const float *, const int *, const float *, const float *, float, float *, float *);

static void run(const char *what, kern_t k, int R, int C, std::vector<int> lim) {
  std::vector<float> x(R * C), rvec(R), cvec(C);
  for (auto &v : x) v = (float)((int)(tt_rand() % 2001) - 1000) / 128.0f;
  for (auto &v : rvec) v = (float)((int)(tt_rand() % 201) - 100) / 16.0f;
  for (auto &v : cvec) v = (float)((int)(tt_rand() % 201) - 100) / 16.0f;
  const float s = 1.4426950408889634f * 0.125f; /* log2(e) / sqrt(64) */
  float *dx = tt_dev(x), *dr = tt_dev(rvec), *dc = tt_dev(cvec);
  int *dl = tt_dev(lim);
  float *dout = tt_dev(std::vector<float>(NOUT * R * C, NAN)), *dt = tt_dev(std::vector<float>(R * C, NAN));
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, dx, dl, dr, dc, s, dout, dt);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> out = tt_host(dout, NOUT * R * C), t = tt_host(dt, R * C);
  const char *names[NOUT] = {"mask_cols", "mask_rows", "mask_upper", "mask_lower", "mask_cols(v=7)",
                             "mask_upper(v=0)", "mask_lower(v=3)", "exp2_row", "exp2_col", "mask_lower+exp2_col"};
  for (int op = 0; op < 9 + 1; op++) {
    int bad = 0;
    for (int r = 0; r < R; r++)
      for (int c = 0; c < C; c++) {
        const double a = x[r * C + c];
        double ref;
        int exact = 1;
        switch (op) {
        case 0: ref = c < lim[0] ? a : -INFINITY; break;
        case 1: ref = r < lim[1] ? a : -INFINITY; break;
        case 2: ref = c - r <= lim[2] ? a : -1.5; break;
        case 3: ref = r - c <= lim[3] ? a : -INFINITY; break;
        case 4: ref = c < lim[4] ? a : 7.0; break;
        case 5: ref = c - r <= lim[5] ? a : 0.0; break;
        case 6: ref = r - c <= lim[6] ? a : 3.0; break;
        case 7: ref = exp2(a * (double)s - rvec[r]); exact = 0; break;
        case 8: ref = exp2(a * (double)s - cvec[c]); exact = 0; break;
        default: ref = r - c <= lim[3] ? exp2(a * (double)s - cvec[c]) : 0.0; exact = r - c > lim[3]; break;
        }
        const float g = out[op * R * C + r * C + c];
        /* v_exp_f32: 1 ULP; the fma's rounding of the argument adds |arg| * 2^-24 relative */
        const int ok = exact ? (double)g == ref : fabs((double)g - ref) <= 4e-7 * fabs(ref) + 1e-30;
        if (!ok && bad++ < 3) printf("  %s %s (%d,%d): %.9g vs %.9g\n", what, names[op], r, c, g, ref);
      }
    TT_CHECK(bad == 0, "%s %s: %d wrong", what, names[op], bad);
  }
  int bad = 0;
  for (int c = 0; c < C; c++)
    for (int r = 0; r < R; r++)
      if (t[c * R + r] != x[r * C + c] && bad++ < 3) printf("  %s store_acc_lds_t (%d,%d): %g vs %g\n", what, r, c, t[c * R + r], x[r * C + c]);
  TT_CHECK(bad == 0, "%s tk_store_acc_lds_t: %d wrong", what, bad);
}

// cvt finite: every element against the host reference tk_f32_to_bf16 (the
// values include rounding ties and carries into the exponent)
__global__ __launch_bounds__(64) void k_cvt_finite(const float *x, uint16_t *b_out) {
  TK_RT(a_t, TK_K_C_F32_32x32, 64, 32);
  TK_RT(b_t, TK_K_B_BF16_32x32x8, 64, 32);
  const int l = tk_lane();
  a_t X;
  FOR_ELEMS(a_t, X.f[f][i] = x[row * 32 + col]);
  b_t B;
  tk_rt_cvt_c_to_b_bf16_finite(B, X);
  for (int fr = 0; fr < ((int)b_t::tk_frag_count_r); fr++)
    for (int i = 0; i < 4; i++) {
      const int k = fr * 8 + tk_layout_b_row(32, 4, l, i), n = tk_layout_b_col(32, 4, l, i);
      b_out[k * 32 + n] = (uint16_t)B.f[fr][i];
    }
}
// pack_bf16x2_rna on the device: out[i] = pack(x[2i], x[2i+1])
__global__ __launch_bounds__(64) void k_pack_rna(const float *x, uint32_t *out, int n) {
  for (int i = tk_lane(); i < n; i += 64) out[i] = tk_pack_bf16x2_rna(x[2 * i], x[2 * i + 1]);
}
// tk_pack_bf16x2_rn (gfx950: v_cvt_pk_bf16_f32, ties to even; gfx942: the rna form)
__global__ __launch_bounds__(64) void k_pack_rn(const float *x, uint32_t *out, int n) {
  for (int i = tk_lane(); i < n; i += 64) out[i] = tk_pack_bf16x2_rn(x[2 * i], x[2 * i + 1]);
}
// reference: the nearer of the two bf16 neighbours (truncation t and t + 1 ulp
// away from zero) in double; ties to the one of larger magnitude
static uint16_t ref_bf16_rna(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  const uint32_t t = u & 0xffff0000u, t1 = t + 0x10000u;
  float ft, ft1;
  memcpy(&ft, &t, 4);
  memcpy(&ft1, &t1, 4);
  const double dt = fabs((double)f - (double)ft), dt1 = fabs((double)ft1 - (double)f);
  return (uint16_t)((dt1 <= dt ? t1 : t) >> 16);
}
// wave_any: predicate true on lane `who` only (-1: none); out[lane] = result
__global__ __launch_bounds__(64) void k_any(int who, int *out) {
  out[tk_lane()] = tk_wave_any((int)tk_lane() == who);
}

int main(void) {
  {
    std::vector<float> x(64 * 32);
    for (size_t i = 0; i < x.size(); i++) {
      const uint32_t r = tt_rand();
      /* ties (low half 0x8000), carries (0x7fff8000-style mantissas) and random values */
      const uint32_t u = (i % 3 == 0) ? ((r & 0xffff0000u) | 0x8000u) : (i % 3 == 1) ? ((r & 0x807f0000u) | 0x3f7f8000u | (r & 0x7fff)) : (r & 0xbfffffffu);
      memcpy(&x[i], &u, 4);
    }
    float *dx = tt_dev(x);
    uint16_t *db = tt_dev(std::vector<uint16_t>(64 * 32, 0xdead));
    hipLaunchKernelGGL(k_cvt_finite, dim3(1), dim3(64), 0, 0, dx, db);
    HIPCHECK(hipDeviceSynchronize());
    std::vector<uint16_t> b = tt_host(db, 64 * 32);
    int bad = 0;
    for (size_t i = 0; i < x.size(); i++)
      if (b[i] != tk_f32_to_bf16(x[i]) && bad++ < 3) printf("  cvt_finite %zu: %04x vs %04x\n", i, b[i], tk_f32_to_bf16(x[i]));
    TT_CHECK(bad == 0, "tk_rt_cvt_c_to_b_bf16_finite: %d wrong", bad);
    uint32_t *dp = tt_dev(std::vector<uint32_t>(64 * 16, 0));
    hipLaunchKernelGGL(k_pack_rna, dim3(1), dim3(64), 0, 0, dx, dp, 64 * 16);
    HIPCHECK(hipDeviceSynchronize());
    std::vector<uint32_t> pk = tt_host(dp, 64 * 16);
    bad = 0;
    int ties = 0;
    for (size_t i = 0; i < pk.size(); i++) {
      if (!(fabsf(x[2 * i]) < 3e38f && fabsf(x[2 * i + 1]) < 3e38f)) continue; /* finite inputs only */
      const uint32_t want = ref_bf16_rna(x[2 * i]) | ((uint32_t)ref_bf16_rna(x[2 * i + 1]) << 16);
      if (pk[i] != want && bad++ < 3) printf("  pack_rna %zu: %08x vs %08x\n", i, pk[i], want);
      for (int h = 0; h < 2; h++) {
        uint32_t u;
        memcpy(&u, &x[2 * i + h], 4);
        ties += (u & 0xffffu) == 0x8000u;
      }
    }
    TT_CHECK(bad == 0 && ties > 0, "tk_pack_bf16x2_rna: %d wrong (%d ties among the inputs)", bad, ties);
    // rn: each half the nearest bf16 (a tie may go either way: even on gfx950, away elsewhere)
    hipLaunchKernelGGL(k_pack_rn, dim3(1), dim3(64), 0, 0, dx, dp, 64 * 16);
    HIPCHECK(hipDeviceSynchronize());
    pk = tt_host(dp, 64 * 16);
    bad = 0;
    for (size_t i = 0; i < pk.size(); i++)
      for (int h = 0; h < 2; h++) {
        const float f = x[2 * i + h];
        if (!(fabsf(f) < 3e38f)) continue;
        const uint16_t got = (uint16_t)(pk[i] >> (16 * h)), a = ref_bf16_rna(f), e = tk_f32_to_bf16(f);
        if (got != a && got != e && bad++ < 3) printf("  pack_rn %zu.%d: %04x vs %04x / %04x\n", i, h, got, a, e);
      }
    TT_CHECK(bad == 0, "tk_pack_bf16x2_rn: %d halves not the nearest bf16", bad);
    for (int who : {-1, 0, 17, 40, 63}) {
      int *dout = tt_dev(std::vector<int>(64, -7));
      hipLaunchKernelGGL(k_any, dim3(1), dim3(64), 0, 0, who, dout);
      HIPCHECK(hipDeviceSynchronize());
      std::vector<int> o = tt_host(dout, 64);
      int wrong = 0;
      for (int l = 0; l < 64; l++) wrong += o[l] != (who >= 0);
      TT_CHECK(wrong == 0, "tk_wave_any(lane == %d): %d lanes wrong", who, wrong);
    }
  }
  // limits: ncols, nrows, d_upper, d_lower, ncols (v=7), d_upper (v=0), d_lower (v=3)
  run("16x16 frags 48x32", k_sm16, 48, 32, {17, 33, 0, 5, 40, -20, -3});
  run("16x16 frags 48x32 (edges)", k_sm16, 48, 32, {0, 48, 31, -47, 32, 100, -100});
  run("32x32 frags 64x64", k_sm32, 64, 64, {33, 1, -7, 12, 64, 63, 0});
  run("32x32 frags 64x64 (edges)", k_sm32, 64, 64, {64, 0, -63, 63, -5, -64, 64});
  return tt_finish();
}
