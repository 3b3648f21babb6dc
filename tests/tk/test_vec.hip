// Device test for tk/vec.h, each result against a CPU computation:
//  - bf16 row vectors over 16, 64 and 256 threads (4 rows per wave, a row
//    per wave, a row per 4-wave workgroup) for rows of any length (1, 7,
//    8, 100, 1001, 1024, capacity) and row pitches that are and are not 16
//    bytes (vector and element paths): sum, max, two-pass mean and
//    variance, the one-reduction mean and variance (tk_rv_mean_var1), and
//    (x - mean) * 2 stored back as bf16 with nothing written past the row
//    (canaries);
//  - f16 and fp8 (e4m3, e5m2; FNUZ on gfx942, OCP on gfx950) loads and
//    stores of rows with tails, against the host encoders of tk/types.h;
//  - tk_lanes_sum / tk_lanes_max over every group width 1..64, tk_wave_bcast;
//  - the interleaved-pair load (each value twice);
//  - bf16 LDS tile <-> f32 accumulator tile for 16x16 and 32x32 fragments,
//    and the bf16 B-operand -> accumulator conversion;
//  - tk_fence_workgroup between one wave's global writes and another's
//    reads across a barrier.
#include "tk_test.h"
#include <string.h>
#include "tk/tk.h"

/* ---- bf16 rows: stats and a store ---------------------------------------- */
#define ROWS_KERNEL(name, CAP, G)                                                 \
  __global__ __launch_bounds__(256) void name(tk_gl x, tk_gl y, float *stats, int64_t n) { \
    TK_RV(rv_t, CAP, G);                                                          \
    __shared__ float red[16]; /* tk_rv_mean_var1: 4 floats per wave */           \
    const int t = threadIdx.x % (G);                                              \
    const int64_t row = (int64_t)blockIdx.x * (256 / (G)) + threadIdx.x / (G);    \
    const tk_rsrc rx = tk_gl_rsrc(&x), ry = tk_gl_rsrc(&y);                       \
    const uint32_t off = (uint32_t)(row * x.strides[2] * 2);                      \
    rv_t v;                                                                       \
    tk_rv_load_bf16(v, rx, off, n, t);                                            \
    float mean1, var1;                                                            \
    tk_rv_mean_var1(v, t, n, red, mean1, var1);                                   \
    const float s = tk_rv_sum(v, red);                                            \
    tk_rv_mask_tail(v, t, n, -1e30f);                                             \
    const float m = tk_rv_max(v, red);                                            \
    float mean, var;                                                              \
    tk_rv_mean_var(v, t, n, red, mean, var);                                      \
    tk_rv_sub_mul_s(v, v, mean, 2.0f);                                            \
    tk_rv_store_bf16(v, ry, (uint32_t)(row * y.strides[2] * 2), n, t);            \
    if (t == 0) { stats[row * 4 + 0] = s; stats[row * 4 + 1] = m;                 \
                  stats[row * 4 + 2] = mean; stats[row * 4 + 3] = var;            \
                  stats[4 * (int64_t)gridDim.x * (256 / (G)) + row * 2] = mean1;   \
                  stats[4 * (int64_t)gridDim.x * (256 / (G)) + row * 2 + 1] = var1; } \
  }
ROWS_KERNEL(k_rows16, 128, 16)
ROWS_KERNEL(k_rows64, 1024, 64)
ROWS_KERNEL(k_rows256, 2048, 256)

static float bf(uint16_t h) { return tk_bf16_to_f32(h); }

static void run_rows(const char *what, void (*k)(tk_gl, tk_gl, float *, int64_t), int cap, int g, int64_t n,
                     int64_t pitch, float off = 0.0f) {
  const int rows = 8 * (256 / g); /* 8 workgroups */
  std::vector<uint16_t> hx(rows * pitch), hy(rows * pitch, 0x7777);
  for (auto &v : hx) v = tk_f32_to_bf16((float)((int)(tt_rand() % 2001) - 1000) / 256.0f + off);
  uint16_t *dx = tt_dev(hx), *dy = tt_dev(hy);
  float *ds = tt_dev(std::vector<float>(rows * 6, NAN)); /* 4 per row, then mean1, var1 per row */
  tk_gl gx, gy;
  int64_t dims[2] = {rows, n}, str[2] = {pitch, 1};
  if (tk_gl_make(&gx, dx, 2, 2, dims, str) || tk_gl_make(&gy, dy, 2, 2, dims, str)) { TT_CHECK(0, "tk_gl_make"); return; }
  hipLaunchKernelGGL(k, dim3(8), dim3(256), 0, 0, gx, gy, ds, n);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint16_t> y = tt_host(dy, rows * pitch);
  std::vector<float> st = tt_host(ds, rows * 6);
  int bad = 0;
  for (int r = 0; r < rows; r++) {
    double s = 0, m = -1e300, q = 0;
    for (int64_t c = 0; c < n; c++) { double v = bf(hx[r * pitch + c]); s += v; m = v > m ? v : m; }
    const double mean = s / (double)n;
    for (int64_t c = 0; c < n; c++) { double d = bf(hx[r * pitch + c]) - mean; q += d * d; }
    const double var = q / (double)n;
    const double tol = 1e-5 * (double)n + 1e-5;
    if (fabs(st[r * 4 + 0] - s) > tol || st[r * 4 + 1] != (float)m || fabs(st[r * 4 + 2] - mean) > tol / n + 1e-6 ||
        fabs(st[r * 4 + 3] - var) > 1e-4 * var + 1e-6) {
      if (bad++ < 3) printf("  %s row %d: sum %g/%g max %g/%g mean %g/%g var %g/%g\n", what, r, st[r * 4], s,
                            st[r * 4 + 1], m, st[r * 4 + 2], mean, st[r * 4 + 3], var);
    }
    const float mean1 = st[rows * 4 + r * 2], var1 = st[rows * 4 + r * 2 + 1];
    if (fabs(mean1 - mean) > tol / n + 1e-6 || fabs(var1 - var) > 1e-4 * var + 1e-6) {
      if (bad++ < 3) printf("  %s row %d: mean_var1 mean %g/%g var %g/%g\n", what, r, mean1, mean, var1, var);
    }
    for (int64_t c = 0; c < pitch; c++) {
      const uint16_t got = y[r * pitch + c];
      if (c >= n) { if (got != 0x7777) bad++; continue; }
      const float want = ((float)bf(hx[r * pitch + c]) - st[r * 4 + 2]) * 2.0f;
      if (got != tk_f32_to_bf16(want)) { if (bad++ < 3) printf("  %s row %d col %lld: %04x want %04x\n", what, r, (long long)c, got, tk_f32_to_bf16(want)); }
    }
  }
  TT_CHECK(bad == 0, "%s: cap %d G %d n %lld pitch %lld: %d mismatches", what, cap, g, (long long)n, (long long)pitch, bad);
  HIPCHECK(hipFree(dx)); HIPCHECK(hipFree(dy)); HIPCHECK(hipFree(ds));
}

/* ---- f16 and fp8 rows ---------------------------------------------------- */
/* in: fp8 e4m3 row -> f32 (f16 store); f16 row -> fp8 e4m3 / e5m2 stores */
__global__ __launch_bounds__(64) void k_types(tk_gl f8in, tk_gl f16out, tk_gl f16in, tk_gl e4out, tk_gl e5out,
                                               tk_gl e5in, tk_gl f16out2, int64_t n) {
  TK_RV(rv_t, 1024, 64);
  const int t = threadIdx.x;
  rv_t v;
  tk_rv_load_fp8e4(v, tk_gl_rsrc(&f8in), 0u, n, t);
  tk_rv_store_f16(v, tk_gl_rsrc(&f16out), 0u, n, t);
  tk_rv_load_f16(v, tk_gl_rsrc(&f16in), 0u, n, t);
  tk_rv_store_fp8e4(v, tk_gl_rsrc(&e4out), 0u, n, t);
  tk_rv_store_fp8e5(v, tk_gl_rsrc(&e5out), 0u, n, t);
  tk_rv_load_fp8e5(v, tk_gl_rsrc(&e5in), 0u, n, t);
  tk_rv_store_f16(v, tk_gl_rsrc(&f16out2), 0u, n, t);
}

static int g_ocp;
static float dec_e4(uint8_t v) { return g_ocp ? tk_ocp_e4m3_to_f32_ref(v) : tk_fp8e4_to_f32_ref(v); }
static float dec_e5(uint8_t v) { return g_ocp ? tk_ocp_e5m2_to_f32_ref(v) : tk_fp8e5_to_f32_ref(v); }
static uint8_t enc_e4(float f) { return g_ocp ? tk_f32_to_ocp_e4m3_ref(f) : tk_f32_to_fp8e4_ref(f); }
static uint8_t enc_e5(float f) { return g_ocp ? tk_f32_to_ocp_e5m2_ref(f) : tk_f32_to_fp8e5_ref(f); }

static void run_types(int64_t n) {
  const int64_t pad = 24; /* canaries after the row */
  std::vector<uint8_t> f8(n + pad), e5(n + pad);
  std::vector<uint16_t> f16(n + pad);
  for (int64_t i = 0; i < n + pad; i++) {
    uint8_t b = (uint8_t)(tt_rand() & 0xff);
    if (g_ocp ? ((b & 0x7f) == 0x7f) : (b == 0x80)) b = 0x11; /* no NaN inputs */
    f8[i] = b;
    uint8_t c = (uint8_t)(tt_rand() & 0xff);
    if (g_ocp ? ((c & 0x7c) == 0x7c) : (c == 0x80)) c = 0x22; /* no NaN / inf */
    e5[i] = c;
    f16[i] = tk_f32_to_f16((float)((int)(tt_rand() % 4001) - 2000) / 97.0f);
  }
  uint8_t *d8 = tt_dev(f8), *de5 = tt_dev(e5);
  uint16_t *d16 = tt_dev(f16);
  uint16_t *o16 = tt_dev(std::vector<uint16_t>(n + pad, 0x5555)), *o16b = tt_dev(std::vector<uint16_t>(n + pad, 0x5555));
  uint8_t *oe4 = tt_dev(std::vector<uint8_t>(n + pad, 0x55)), *oe5 = tt_dev(std::vector<uint8_t>(n + pad, 0x55));
  tk_gl g8, g16o, g16i, ge4, ge5, ge5i, g16o2;
  int64_t dims[1] = {n + pad};
  tk_gl_make(&g8, d8, 1, 1, dims, NULL), tk_gl_make(&g16o, o16, 2, 1, dims, NULL);
  tk_gl_make(&g16i, d16, 2, 1, dims, NULL), tk_gl_make(&ge4, oe4, 1, 1, dims, NULL);
  tk_gl_make(&ge5, oe5, 1, 1, dims, NULL), tk_gl_make(&ge5i, de5, 1, 1, dims, NULL);
  tk_gl_make(&g16o2, o16b, 2, 1, dims, NULL);
  hipLaunchKernelGGL(k_types, dim3(1), dim3(64), 0, 0, g8, g16o, g16i, ge4, ge5, ge5i, g16o2, n);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint16_t> r16 = tt_host(o16, n + pad), r16b = tt_host(o16b, n + pad);
  std::vector<uint8_t> re4 = tt_host(oe4, n + pad), re5 = tt_host(oe5, n + pad);
  int bad = 0;
  for (int64_t i = 0; i < n + pad; i++) {
    if (i >= n) { bad += r16[i] != 0x5555 || r16b[i] != 0x5555 || re4[i] != 0x55 || re5[i] != 0x55; continue; }
    const float fin = tk_f16_to_f32(f16[i]);
    if (r16[i] != tk_f32_to_f16(dec_e4(f8[i]))) { if (bad++ < 3) printf("  fp8e4->f16 %lld: %04x from %02x\n", (long long)i, r16[i], f8[i]); }
    if (r16b[i] != tk_f32_to_f16(dec_e5(e5[i]))) { if (bad++ < 3) printf("  fp8e5->f16 %lld: %04x from %02x\n", (long long)i, r16b[i], e5[i]); }
    if (re4[i] != enc_e4(fin)) { if (bad++ < 3) printf("  f16->fp8e4 %lld: %02x want %02x (%g)\n", (long long)i, re4[i], enc_e4(fin), fin); }
    if (re5[i] != enc_e5(fin)) { if (bad++ < 3) printf("  f16->fp8e5 %lld: %02x want %02x (%g)\n", (long long)i, re5[i], enc_e5(fin), fin); }
  }
  TT_CHECK(bad == 0, "f16/fp8 rows n=%lld: %d mismatches", (long long)n, bad);
  HIPCHECK(hipFree(d8)); HIPCHECK(hipFree(de5)); HIPCHECK(hipFree(d16)); HIPCHECK(hipFree(o16));
  HIPCHECK(hipFree(o16b)); HIPCHECK(hipFree(oe4)); HIPCHECK(hipFree(oe5));
}

/* ---- lane reductions, broadcast, pair loads, fence ------------------------ */
__global__ __launch_bounds__(128) void k_lanes(const float *in, float *sums, float *maxs, float *bc, tk_gl pairs,
                                                float *pout, int64_t pn, int *flag_out) {
  const int l = tk_lane();
  const float v = in[threadIdx.x];
  if (threadIdx.x < 64) {
    sums[0 * 64 + l] = tk_lanes_sum(v, 1); maxs[0 * 64 + l] = tk_lanes_max(v, 1);
    sums[1 * 64 + l] = tk_lanes_sum(v, 2); maxs[1 * 64 + l] = tk_lanes_max(v, 2);
    sums[2 * 64 + l] = tk_lanes_sum(v, 4); maxs[2 * 64 + l] = tk_lanes_max(v, 4);
    sums[3 * 64 + l] = tk_lanes_sum(v, 8); maxs[3 * 64 + l] = tk_lanes_max(v, 8);
    sums[4 * 64 + l] = tk_lanes_sum(v, 16); maxs[4 * 64 + l] = tk_lanes_max(v, 16);
    sums[5 * 64 + l] = tk_lanes_sum(v, 32); maxs[5 * 64 + l] = tk_lanes_max(v, 32);
    sums[6 * 64 + l] = tk_wave_sum(v); maxs[6 * 64 + l] = tk_wave_max(v);
    bc[l] = tk_wave_bcast(v, 37);
    TK_RV(pv_t, 512, 64);
    pv_t p;
    tk_rv_load_bf16_pairs(p, tk_gl_rsrc(&pairs), 0u, pn, l);
    for (int e = 0; e < TK_RV_PER_THREAD(p); e++) pout[tk_rv_col(64, l, e)] = p.v[e] + 1000.0f * tk_rv_pair(p, e);
    /* wave 0 publishes, wave 1 reads after the fence and the barrier */
    flag_out[1 + l] = l * 3 + 1;
  }
  tk_fence_workgroup();
  __syncthreads();
  if (threadIdx.x >= 64) flag_out[65 + l] = flag_out[1 + l];
}

static void run_lanes(void) {
  std::vector<float> in(128);
  for (auto &v : in) v = (float)((int)(tt_rand() % 2001) - 1000) / 8.0f;
  const int64_t pn = 78; /* 39 pair values */
  std::vector<uint16_t> pv(64);
  for (int i = 0; i < 64; i++) pv[i] = tk_f32_to_bf16((float)(i + 1));
  float *din = tt_dev(in), *ds = tt_dev(std::vector<float>(7 * 64, NAN)), *dm = tt_dev(std::vector<float>(7 * 64, NAN));
  float *db = tt_dev(std::vector<float>(64, NAN)), *dp = tt_dev(std::vector<float>(512, NAN));
  uint16_t *dpv = tt_dev(pv);
  int *df = tt_dev(std::vector<int>(129, -1));
  tk_gl gp;
  int64_t dims[1] = {39};
  tk_gl_make(&gp, dpv, 2, 1, dims, NULL);
  hipLaunchKernelGGL(k_lanes, dim3(1), dim3(128), 0, 0, din, ds, dm, db, gp, dp, pn, df);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> s = tt_host(ds, 7 * 64), m = tt_host(dm, 7 * 64), b = tt_host(db, 64), p = tt_host(dp, 512);
  std::vector<int> f = tt_host(df, 129);
  int bad = 0;
  for (int k = 0; k < 7; k++) {
    const int g = 1 << k;
    for (int l = 0; l < 64; l++) {
      double ws = 0, wm = -1e300;
      for (int j = l / g * g; j < l / g * g + g; j++) ws += in[j], wm = in[j] > wm ? in[j] : wm;
      if (fabs(s[k * 64 + l] - ws) > 1e-3 || m[k * 64 + l] != (float)wm) {
        if (bad++ < 3) printf("  lanes g=%d lane %d: sum %g/%g max %g/%g\n", g, l, s[k * 64 + l], ws, m[k * 64 + l], wm);
      }
    }
  }
  TT_CHECK(bad == 0, "tk_lanes_sum/max over widths 1..64: %d mismatches", bad);
  bad = 0;
  for (int l = 0; l < 64; l++) bad += b[l] != in[37];
  TT_CHECK(bad == 0, "tk_wave_bcast: %d lanes wrong", bad);
  bad = 0;
  for (int c = 0; c < 512; c++) {
    const float want = c < pn ? (float)(c / 2 + 1) * 1001.0f : 0.0f;
    if (p[c] != want) { if (bad++ < 3) printf("  pairs col %d: %g want %g\n", c, p[c], want); }
  }
  TT_CHECK(bad == 0, "tk_rv_load_bf16_pairs (n = %lld): %d mismatches", (long long)pn, bad);
  bad = 0;
  for (int l = 0; l < 64; l++) bad += f[65 + l] != l * 3 + 1;
  TT_CHECK(bad == 0, "fence + barrier: wave 1 read %d stale values", bad);
  HIPCHECK(hipFree(din)); HIPCHECK(hipFree(ds)); HIPCHECK(hipFree(dm)); HIPCHECK(hipFree(db));
  HIPCHECK(hipFree(dp)); HIPCHECK(hipFree(dpv)); HIPCHECK(hipFree(df));
}

/* ---- LDS tiles <-> accumulator tiles -------------------------------------- */
#define LDS_KERNEL(name, KC, KB, R, C, LAYOUT)                                    \
  __global__ __launch_bounds__(64) void name(const uint16_t *in, uint16_t *out, float *acc_out, uint16_t *rt_out) { \
    TK_ST(st_t, tk_bf16, R, C, LAYOUT);                                           \
    TK_RT(c_t, KC, R, C); TK_RT(b_t, KB, R, C);                                   \
    __shared__ st_t s;                                                            \
    const int l = tk_lane();                                                      \
    for (int e = l; e < (R) * (C); e += 64)                                       \
      *(uint16_t *)(void *)((char *)(void *)s.data + tk_st_offset(st_t, e / (C), e % (C))) = in[e]; \
    __syncthreads();                                                              \
    c_t a;                                                                        \
    tk_rt_load_lds_c(a, s);                                                       \
    for (int fr = 0; fr < ((int)c_t::tk_frag_count_r); fr++) for (int fc = 0; fc < ((int)c_t::tk_frag_count_c); fc++) \
      for (int i = 0; i < ((int)c_t::tk_n); i++) {                                \
        const int r = fr * ((int)c_t::tk_frag_rows) + tk_layout_c_row(((int)c_t::tk_frag_rows), l, i); \
        const int c = fc * ((int)c_t::tk_frag_cols) + tk_layout_c_col(((int)c_t::tk_frag_rows), l, i); \
        acc_out[r * (C) + c] = a.f[fr * ((int)c_t::tk_frag_count_c) + fc][i]; }            \
    tk_rt_scale(a, a, 3.0f);                                                      \
    __syncthreads();                                                              \
    tk_rt_store_lds_c(s, a);                                                      \
    __syncthreads();                                                              \
    for (int e = l; e < (R) * (C); e += 64)                                       \
      out[e] = *(uint16_t *)(void *)((char *)(void *)s.data + tk_st_offset(st_t, e / (C), e % (C))); \
    b_t b; c_t a2;                                                                \
    tk_rt_cvt_c_to_b_bf16(b, a);                                                  \
    tk_rt_cvt_b_to_c_bf16(a2, b);                                                 \
    for (int fr = 0; fr < ((int)c_t::tk_frag_count_r); fr++) for (int fc = 0; fc < ((int)c_t::tk_frag_count_c); fc++) \
      for (int i = 0; i < ((int)c_t::tk_n); i++) {                                \
        const int r = fr * ((int)c_t::tk_frag_rows) + tk_layout_c_row(((int)c_t::tk_frag_rows), l, i); \
        const int c = fc * ((int)c_t::tk_frag_cols) + tk_layout_c_col(((int)c_t::tk_frag_rows), l, i); \
        rt_out[r * (C) + c] = tk_f32_to_bf16(a2.f[fr * ((int)c_t::tk_frag_count_c) + fc][i]); } \
  }
LDS_KERNEL(k_lds16, TK_K_C_F32_16x16, TK_K_B_BF16_16x16x16, 32, 64, TK_LDS_SWZ)
LDS_KERNEL(k_lds32, TK_K_C_F32_32x32, TK_K_B_BF16_32x32x8, 64, 32, TK_LDS_LINEAR)

static void run_lds(const char *what, void (*k)(const uint16_t *, uint16_t *, float *, uint16_t *), int R, int C) {
  std::vector<uint16_t> in(R * C);
  for (auto &v : in) v = tk_f32_to_bf16((float)((int)(tt_rand() % 2001) - 1000) / 64.0f);
  uint16_t *din = tt_dev(in), *dout = tt_dev(std::vector<uint16_t>(R * C, 0)), *drt = tt_dev(std::vector<uint16_t>(R * C, 0));
  float *dacc = tt_dev(std::vector<float>(R * C, NAN));
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, din, dout, dacc, drt);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint16_t> out = tt_host(dout, R * C), rt = tt_host(drt, R * C);
  std::vector<float> acc = tt_host(dacc, R * C);
  int bad = 0;
  for (int e = 0; e < R * C; e++) {
    const uint16_t want = tk_f32_to_bf16(bf(in[e]) * 3.0f);
    bad += acc[e] != bf(in[e]) || out[e] != want || rt[e] != want;
  }
  TT_CHECK(bad == 0, "%s: LDS tile <-> accumulator tile, B operand -> accumulator: %d mismatches", what, bad);
  HIPCHECK(hipFree(din)); HIPCHECK(hipFree(dout)); HIPCHECK(hipFree(drt)); HIPCHECK(hipFree(dacc));
}

int main(void) {
  hipDeviceProp_t prop;
  HIPCHECK(hipGetDeviceProperties(&prop, 0));
  g_ocp = strstr(prop.gcnArchName, "gfx950") != NULL;
  /* G = 16: 4 rows per wave (16 per workgroup), capacity 128 */
  run_rows("G16", k_rows16, 128, 16, 1, 8);
  run_rows("G16", k_rows16, 128, 16, 7, 7);
  run_rows("G16", k_rows16, 128, 16, 100, 104);
  run_rows("G16", k_rows16, 128, 16, 128, 128);
  /* G = 64: a row per wave */
  run_rows("G64", k_rows64, 1024, 64, 8, 8);
  run_rows("G64", k_rows64, 1024, 64, 1001, 1001);
  run_rows("G64", k_rows64, 1024, 64, 1001, 1008);
  run_rows("G64", k_rows64, 1024, 64, 1024, 1024);
  /* G = 256: a row per workgroup (LDS reduction) */
  run_rows("G256", k_rows256, 2048, 256, 1500, 1503);
  run_rows("G256", k_rows256, 2048, 256, 2048, 2056);
  /* rows far from 0 (mean / std about 40): the one-pass tk_rv_mean_var1
   * must not lose the variance to cancellation */
  run_rows("G256 offset 100", k_rows256, 2048, 256, 2048, 2056, 100.0f);
  run_rows("G64 offset 100", k_rows64, 1024, 64, 1001, 1008, 100.0f);
  run_types(1024);
  run_types(77);
  run_lanes();
  run_lds("16x16 swizzled", k_lds16, 32, 64);
  run_lds("32x32 linear", k_lds32, 64, 32);
  return tt_finish();
}
