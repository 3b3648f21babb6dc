// Register-tile operations of tk/register.h on f32 accumulator tiles of both
// layouts (16x16 fragments: 48x32 tile; 32x32 fragments: 64x64 tile), each
// checked against a CPU computation on the matrices placed with the
// documented layout functions: fill/zero, add, sub, mul, scale, max, exp2,
// row/column max and sum (cross-lane reductions), row/column broadcasts and
// the f32 accumulator -> bf16 B-operand conversion.
#include "tk_test.h"
#include "tk/register.h"

#define NOPS 9    /* full-tile results written per kernel */
#define FOR_ELEMS(T, body)                                                        \
  for (int fr = 0; fr < ((int)T::tk_frag_count_r); fr++) for (int fc = 0; fc < ((int)T::tk_frag_count_c); fc++)     \
    for (int i = 0; i < ((int)T::tk_n); i++) {                                           \
      int row = fr * ((int)T::tk_frag_rows) + tk_layout_c_row(((int)T::tk_frag_rows), l, i);            \
      int col = fc * ((int)T::tk_frag_cols) + tk_layout_c_col(((int)T::tk_frag_rows), l, i);            \
      int f = fr * ((int)T::tk_frag_count_c) + fc; (void)f; body; }

#define OPS_KERNEL(name, KC, KB, R, C)                                            \
  __global__ __launch_bounds__(64) void name(const float *x, const float *y, float *out, float *rv_out, \
                       float *cv_out, uint16_t *b_out) {                          \
    TK_RT(t_t, KC, R, C); TK_RT(b_t, KB, R, C);                                   \
    int l = tk_lane();                                                            \
    t_t X, Y, Z;                                                                  \
    FOR_ELEMS(t_t, X.f[f][i] = x[row * C + col]; Y.f[f][i] = y[row * C + col]);   \
    float *o = out;                                                               \
    tk_rt_fill(Z, 2.5f);  FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_zero(Z);        FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_add(Z, X, Y);   FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_sub(Z, X, Y);   FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_mul(Z, X, Y);   FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_scale(Z, X, -0.75f); FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_max(Z, X, Y);   FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    tk_rt_exp2(Z, X);     FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C; \
    float rmax[TK_RT_ROWV(t_t)], rsum[TK_RT_ROWV(t_t)], cmax[TK_RT_COLV(t_t)], csum[TK_RT_COLV(t_t)]; \
    tk_rt_row_max(rmax, X); tk_rt_row_sum(rsum, X);                               \
    tk_rt_col_max(cmax, X); tk_rt_col_sum(csum, X);                               \
    /* per lane: rv_out[lane][row] for the rows it holds, 2 vectors */             \
    for (int fr = 0; fr < ((int)t_t::tk_frag_count_r); fr++) for (int i = 0; i < ((int)t_t::tk_n); i++) {  \
      int row = fr * ((int)t_t::tk_frag_rows) + tk_layout_c_row(((int)t_t::tk_frag_rows), l, i);         \
      rv_out[(l * 2 + 0) * R + row] = rmax[fr * ((int)t_t::tk_n) + i];                   \
      rv_out[(l * 2 + 1) * R + row] = rsum[fr * ((int)t_t::tk_n) + i]; }                 \
    for (int fc = 0; fc < ((int)t_t::tk_frag_count_c); fc++) {                                     \
      int col = fc * ((int)t_t::tk_frag_cols) + l % ((int)t_t::tk_frag_cols);                            \
      cv_out[(l * 2 + 0) * C + col] = cmax[fc];                                   \
      cv_out[(l * 2 + 1) * C + col] = csum[fc]; }                                 \
    /* broadcasts: Z = X - rowmax, then Z = Z * colsum */                         \
    tk_rt_row_bcast(Z, X, rmax, -);                                               \
    tk_rt_col_bcast(Z, Z, csum, *);                                               \
    FOR_ELEMS(t_t, o[row * C + col] = Z.f[f][i]); o += R * C;                     \
    b_t B;                                                                        \
    tk_rt_cvt_c_to_b_bf16(B, X);                                                  \
    for (int fr = 0; fr < ((int)b_t::tk_frag_count_r); fr++) for (int fc = 0; fc < ((int)b_t::tk_frag_count_c); fc++) \
      for (int i = 0; i < 4; i++) {                                               \
        int k = fr * ((int)b_t::tk_frag_rows) + tk_layout_b_row(((int)b_t::tk_frag_cols), 4, l, i);      \
        int n = fc * ((int)b_t::tk_frag_cols) + tk_layout_b_col(((int)b_t::tk_frag_cols), 4, l, i);      \
        b_out[k * C + n] = (uint16_t)B.f[fr * ((int)b_t::tk_frag_count_c) + fc][i]; }              \
  }
OPS_KERNEL(k_ops16, TK_K_C_F32_16x16, TK_K_B_BF16_16x16x16, 48, 32)
OPS_KERNEL(k_ops32, TK_K_C_F32_32x32, TK_K_B_BF16_32x32x8, 64, 64)

static int close_to(float got, double ref, double rel) {
  return fabs((double)got - ref) <= rel * fabs(ref) + 1e-30;
}

static void run(const char *what, void (*k)(const float *, const float *, float *, float *, float *, uint16_t *), int R, int C, int FR) {
  std::vector<float> x(R * C), y(R * C);
  for (auto &v : x) v = (float)((int)(tt_rand() % 2001) - 1000) / 64.0f;
  for (auto &v : y) v = (float)((int)(tt_rand() % 2001) - 1000) / 64.0f;
  float *dx = tt_dev(x), *dy = tt_dev(y);
  float *dout = tt_dev(std::vector<float>(NOPS * R * C, NAN));
  float *drv = tt_dev(std::vector<float>(64 * 2 * R, NAN)), *dcv = tt_dev(std::vector<float>(64 * 2 * C, NAN));
  uint16_t *db = tt_dev(std::vector<uint16_t>(R * C, 0xdead));
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, dx, dy, dout, drv, dcv, db);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> out = tt_host(dout, NOPS * R * C), rv = tt_host(drv, 64 * 2 * R), cv = tt_host(dcv, 64 * 2 * C);
  std::vector<uint16_t> b = tt_host(db, R * C);
  std::vector<double> rmax(R, -INFINITY), rsum(R, 0), cmax(C, -INFINITY), csum(C, 0);
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) {
      double v = x[r * C + c];
      rmax[r] = fmax(rmax[r], v); rsum[r] += v; cmax[c] = fmax(cmax[c], v); csum[c] += v;
    }
  const char *names[NOPS] = {"fill", "zero", "add", "sub", "mul", "scale", "max", "exp2", "row_bcast-,col_bcast*"};
  for (int op = 0; op < NOPS; op++) {
    int bad = 0;
    for (int r = 0; r < R; r++)
      for (int c = 0; c < C; c++) {
        double a = x[r * C + c], bb = y[r * C + c], ref;
        switch (op) {
        case 0: ref = 2.5; break;
        case 1: ref = 0; break;
        case 2: ref = (float)(a + bb); break;
        case 3: ref = (float)(a - bb); break;
        case 4: ref = (float)(a * bb); break;
        case 5: ref = (float)(a * -0.75); break;
        case 6: ref = fmax(a, bb); break;
        case 7: ref = exp2(a); break;
        default: ref = (a - rmax[r]) * csum[c]; break;
        }
        float g = out[op * R * C + r * C + c];
        int ok = op == 7 ? close_to(g, ref, 4e-7) : op == 8 ? close_to(g, ref, 1e-6) : (double)g == ref;
        if (!ok && bad++ < 3) printf("  %s %s (%d,%d): %.9g vs %.9g\n", what, names[op], r, c, g, ref);
      }
    TT_CHECK(bad == 0, "%s %s: %d wrong", what, names[op], bad);
  }
  // reductions: every lane's copy of every row/col it holds
  int bad = 0, seen = 0;
  for (int l = 0; l < 64; l++)
    for (int r = 0; r < R; r++) {
      float m = rv[(l * 2) * R + r], s = rv[(l * 2 + 1) * R + r];
      if (isnan(m) && isnan(s)) continue;
      seen++;
      if (!((double)m == rmax[r] && close_to(s, rsum[r], 1e-6)) && bad++ < 3)
        printf("  %s row %d lane %d: max %g sum %g vs %g %g\n", what, r, l, m, s, rmax[r], rsum[r]);
    }
  // each row is held by the FR lanes that share lane / FR
  TT_CHECK(bad == 0 && seen == R * FR, "%s row reductions: %d wrong, %d lane-rows seen", what, bad, seen);
  bad = 0; seen = 0;
  for (int l = 0; l < 64; l++)
    for (int c = 0; c < C; c++) {
      float m = cv[(l * 2) * C + c], s = cv[(l * 2 + 1) * C + c];
      if (isnan(m) && isnan(s)) continue;
      seen++;
      if (!((double)m == cmax[c] && close_to(s, csum[c], 1e-6)) && bad++ < 3)
        printf("  %s col %d lane %d: max %g sum %g vs %g %g\n", what, c, l, m, s, cmax[c], csum[c]);
    }
  // each column is held by the 64/FR lanes that share lane % FR
  TT_CHECK(bad == 0 && seen == C * 64 / FR, "%s column reductions: %d wrong, %d seen", what, bad, seen);
  bad = 0;
  for (int i = 0; i < R * C; i++)
    if (b[i] != tk_f32_to_bf16(x[i]) && bad++ < 3) printf("  %s cvt_c_to_b (%d,%d): %04x vs %04x\n", what, i / C, i % C, b[i], tk_f32_to_bf16(x[i]));
  TT_CHECK(bad == 0, "%s cvt_c_to_b_bf16: %d wrong", what, bad);
}

int main(void) {
  run("16x16 frags 48x32", k_ops16, 48, 32, 16);
  run("32x32 frags 64x64", k_ops32, 64, 64, 32);
  return tt_finish();
}
