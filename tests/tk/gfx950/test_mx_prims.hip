// The three primitives of the 8wave MX GEMM (examples/gemm/gemm_8wave_mx.h),
// each against a reference that does not use it:
//  1. tk_load_lds_dword (tk/loads.h): lane l's dword at byte offset off[l] of
//     a buffer lands at LDS lds + 4*l (lds wave-uniform, a different base per
//     wave), offsets at or past the buffer's end and TK_OOB_OFFSET read 0,
//     LDS outside the waves' areas untouched (CPU gather); the words read
//     back with tk_lds_read_u32_issue / _wait (two in flight) equal them;
//  2. tk_prefetch_issue_b128_k4 (and the same reads through
//     tk_prefetch_at_b128_k4 + tk_prefetch_issue_b128_at) + tk_prefetch_wait_b128 (tk/loads.h): every
//     byte of an fp8 32x32x16 A tile (64 x 128, two row fragments of 8 K
//     fragments) read from swizzled (TK_LDS_SWZ16, the kernel's) and linear
//     LDS tiles equals the tensor byte the documented MX order names:
//     fragment kf, lane group h = l / 32, byte i <-> K column
//     4*(kf/4)*FK + 4*KW*h + KW*(kf%4) + i (FK 16, KW 8), so a lane's 32
//     bytes of one 32x32x64 MFMA are 32 consecutive K: one MX block;
//  3. tk_mma_ABt_mx (tk/mma.h) for MXFP8 E4M3 (SEL 0, two MFMAs per
//     fragment pair; SEL 1, one), E5M2 (SEL 2 and 3, one) and FP4 E2M1 (SEL
//     0 and 1, two; every byte 0..3 of a scale word selected somewhere, the
//     odd-SEL cases with block 0's scales at E8M0's extremes 0x00 / 0xfe
//     plus a 0x7f): operands placed
//     by the documented order (fp8 as in 2, fp4 in the paired order of
//     tk_prefetch_issue_b128: byte column 32*(kf/2) + 16*h + 8*(kf%2) + i,
//     element 2j in byte j's low nibble), scale words whose byte SEL + 2q
//     is the lane's block scale of MFMA q and whose other bytes are 0xff
//     (NaN if the instruction took them), against the OCP MX v1.0 product
//     on the CPU: sum over k of dec(A) 2^(sa-127) dec(B) 2^(sb-127) + C in
//     double, elements decoded here from the spec's formats (E4M3 bias 7,
//     E5M2 bias 15, E2M1 bias 1), tolerance K * 2^-24 * sum |terms| (f32
//     accumulation in any order); one NaN scale (0xff) in an A row and one
//     in a B column make exactly that row and that column NaN (spec 6.1).
//  4. what the fused epilogue makes of such a NaN: tk_act_f32's ReLU is
//     x > 0 ? x : 0 for every kernel, so ReLU(NaN) = 0 (as IEEE 754-2008
//     maxNum(x, 0); PyTorch's relu would keep the NaN), +-0 -> 0, +inf
//     stays; the MX GEMMs' NaN rows come out 0 under --act relu by the same
//     rule (tests/gemm: gemm_mx_*_edges_relu, against the check's reference).
// Needs a gfx950 device (tksim --arch=gfx950).
#include "../tk_test.h"
#include "tk/tk.h"
#include "tk/epilogue.h"

/* ---- 1. tk_load_lds_dword ---- */
#define NW 2 /* waves */
__global__ void k_lds_dword(const uint8_t *src, uint32_t nbytes, const uint32_t *offs, uint32_t *out, uint32_t *back) {
  __shared__ uint32_t lds[(NW + 2) * 64];
  const uint32_t t = threadIdx.x, w = t / 64;
  for (uint32_t i = t; i < (NW + 2) * 64; i += NW * 64) lds[i] = 0xdeadbeefu;
  __syncthreads();
  const tk_rsrc rs = tk_rsrc_make(src, nbytes);
  tk_load_lds_dword(&lds[64 + 64 * w], rs, offs[t]); /* wave w's area: words 64 + 64w .. */
  TK_WAIT_VMCNT(0);
  __syncthreads();
  for (uint32_t i = t; i < (NW + 2) * 64; i += NW * 64) out[i] = lds[i];
  uint32_t v0, v1; /* words 64 + t and the one after (wrapping in the loaded area) */
  tk_lds_read_u32_issue(v0, &lds[64 + t]);
  tk_lds_read_u32_issue(v1, &lds[64 + (t + 1) % (NW * 64)]);
  tk_lds_read_u32_wait(v0);
  tk_lds_read_u32_wait(v1);
  back[2 * t] = v0;
  back[2 * t + 1] = v1;
}

static void test_lds_dword(void) {
  const uint32_t nbytes = 1000; /* a whole number of dwords: 250 */
  std::vector<uint8_t> src(nbytes);
  for (auto &b : src) b = (uint8_t)tt_rand();
  std::vector<uint32_t> offs(NW * 64);
  for (uint32_t l = 0; l < NW * 64; l++) offs[l] = 4 * (tt_rand() % 250);
  offs[5] = nbytes - 4;   /* the last dword */
  offs[6] = nbytes;       /* just past the end: 0 */
  offs[70] = 4 * 300;     /* far past: 0 */
  offs[71] = TK_OOB_OFFSET;
  offs[72] = 0;
  uint8_t *ds = tt_dev(src);
  uint32_t *doff = tt_dev(offs), *dout = tt_dev(std::vector<uint32_t>((NW + 2) * 64, 0));
  uint32_t *dback = tt_dev(std::vector<uint32_t>(2 * NW * 64, 0));
  hipLaunchKernelGGL(k_lds_dword, dim3(1), dim3(NW * 64), 0, 0, ds, nbytes, doff, dout, dback);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint32_t> got = tt_host(dout, (NW + 2) * 64);
  int bad = 0;
  for (uint32_t i = 0; i < (NW + 2) * 64; i++) {
    uint32_t want = 0xdeadbeefu;
    if (i >= 64 && i < 64 + NW * 64) {
      const uint32_t o = offs[i - 64];
      want = 0;
      if ((uint64_t)o + 4 <= nbytes)
        want = (uint32_t)src[o] | (uint32_t)src[o + 1] << 8 | (uint32_t)src[o + 2] << 16 | (uint32_t)src[o + 3] << 24;
    }
    if (got[i] != want && bad++ < 5) printf("  lds_dword: LDS word %u = %08x, want %08x\n", i, got[i], want);
  }
  TT_CHECK(bad == 0, "tk_load_lds_dword: %d of %d LDS words wrong", bad, (NW + 2) * 64);
  std::vector<uint32_t> back = tt_host(dback, 2 * NW * 64);
  int bad2 = 0;
  for (uint32_t t = 0; t < NW * 64; t++)
    for (uint32_t j = 0; j < 2; j++)
      if (back[2 * t + j] != got[64 + (t + j) % (NW * 64)] && bad2++ < 5)
        printf("  lds_read_u32: thread %u word %u = %08x, want %08x\n", t, j, back[2 * t + j], got[64 + (t + j) % (NW * 64)]);
  TT_CHECK(bad2 == 0, "tk_lds_read_u32_issue/_wait: %d of %d words wrong", bad2, 2 * NW * 64);
}

/* ---- 2. tk_prefetch_issue_b128_k4 ---- */
TK_RT(k4_rt, TK_K_A_FP8_32x32x16, 64, 128);
TK_PENDING_B128(k4_pend, k4_rt);
/* AT: the same reads through tk_prefetch_at_b128_k4 + tk_prefetch_issue_b128_at
 * (the held-address form the gfx950 8wave MX kernels use) */
#define K4_KERNEL(name, LAYOUT, AT)                                               \
  TK_ST(name##_st, tk_fp8e4, 64, 128, LAYOUT);                                    \
  TK_STAGE(name##_stage, name##_st, 64);                                          \
  __global__ void name(tk_gl g, uint64_t *out) {                                  \
    __shared__ name##_st s;                                                       \
    const tk_rsrc rs = tk_gl_rsrc(&g);                                            \
    name##_stage st;                                                              \
    tk_load(s, st, &g, rs, 0, 0, 0, 0, threadIdx.x);                              \
    tk_lds_barrier();                                                             \
    k4_pend p;                                                                    \
    k4_rt a;                                                                      \
    if (AT) {                                                                     \
      tk_prefetch_at pat;                                                         \
      tk_prefetch_at_b128_k4(pat, p, s, 0, 0);                                    \
      tk_prefetch_issue_b128_at(p, s, pat, 0);                                    \
    } else {                                                                      \
      tk_prefetch_issue_b128_k4(p, s, 0, 0);                                      \
    }                                                                             \
    tk_prefetch_wait_b128(a, p, 0);                                               \
    for (int f = 0; f < 16; f++) out[f * 64 + threadIdx.x] = (uint64_t)a.f[f];   \
  }
K4_KERNEL(k_k4_swz16, TK_LDS_SWZ16, 0)
K4_KERNEL(k_k4_linear, TK_LDS_LINEAR, 0)
K4_KERNEL(k_k4at_swz16, TK_LDS_SWZ16, 1)
K4_KERNEL(k_k4at_linear, TK_LDS_LINEAR, 1)

/* the documented MX order (tk/loads.h): K column of fragment kf, lane group h, byte i */
static int kmx(int kf, int h, int i) { return 4 * (kf / 4) * 16 + 4 * 8 * h + 8 * (kf % 4) + i; }

static void test_k4(const char *what, void (*kern)(tk_gl, uint64_t *)) {
  std::vector<uint8_t> t(64 * 128);
  for (auto &b : t) b = (uint8_t)tt_rand();
  uint8_t *d = tt_dev(t);
  uint64_t *dout = tt_dev(std::vector<uint64_t>(16 * 64, 0));
  tk_gl g;
  const int64_t dims[2] = {64, 128};
  TT_CHECK(tk_gl_make(&g, d, 1, 2, dims, NULL) == TK_OK, "tk_gl_make");
  hipLaunchKernelGGL(kern, dim3(1), dim3(64), 0, 0, g, dout);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint64_t> got = tt_host(dout, 16 * 64);
  int bad = 0;
  for (int l = 0; l < 64; l++)
    for (int f = 0; f < 16; f++)
      for (int i = 0; i < 8; i++) {
        const int fr = f / 8, kf = f % 8, row = 32 * fr + tk_layout_a_row(32, 8, l, i), k = kmx(kf, l / 32, i);
        const uint8_t g8 = (uint8_t)(got[f * 64 + l] >> (8 * i)), w8 = t[row * 128 + k];
        if (g8 != w8 && bad++ < 5)
          printf("  %s: lane %d fragment %d byte %d = %02x, want (%d, %d) %02x\n", what, l, f, i, g8, row, k, w8);
      }
  /* the property the MX products need: fragments 4q..4q+3 of lane group h
   * are the 32 consecutive K of block 2q + h */
  for (int h = 0; h < 2; h++)
    for (int q = 0; q < 2; q++)
      for (int j = 0; j < 32; j++) TT_CHECK(kmx(4 * q + j / 8, h, j % 8) == 32 * (2 * q + h) + j, "MX block order");
  TT_CHECK(bad == 0, "%s: %d of %d fragment bytes wrong", what, bad, 64 * 16 * 8);
  HIPCHECK(hipFree(d));
  HIPCHECK(hipFree(dout));
}

/* ---- 3. tk_mma_ABt_mx ---- */
/* a, b: fragment f's 8 bytes for lane l at [f * 64 + l]; sa, sb: row
 * fragment's scale word per lane; c, d: accumulator fragment f, lane l,
 * register i at [(f * 64 + l) * 16 + i] */
#if TK_HAS_MFMA_F8F6F4
#define MX_KERNEL(name, FMT, RA, RB, KB, SEL)                                      \
  __global__ void name(const uint64_t *a, const uint64_t *b, const uint32_t *sa, const uint32_t *sb, const float *c, \
                       float *d) {                                                 \
    TK_RT(ta_t, TK_K_A_FP8_32x32x16, RA, KB);                                      \
    TK_RT(tb_t, TK_K_A_FP8_32x32x16, RB, KB);                                      \
    TK_RT(tc_t, TK_K_C_F32_32x32, RA, RB);                                         \
    ta_t A;                                                                        \
    tb_t B;                                                                        \
    tc_t C, D;                                                                     \
    const int l = tk_lane();                                                       \
    for (int f = 0; f < (RA / 32) * (KB / 16); f++) A.f[f] = (TK_TYPEOF(A.f[0]))a[f * 64 + l]; \
    for (int f = 0; f < (RB / 32) * (KB / 16); f++) B.f[f] = (TK_TYPEOF(B.f[0]))b[f * 64 + l]; \
    uint32_t SA[RA / 32], SB[RB / 32];                                             \
    for (int m = 0; m < RA / 32; m++) SA[m] = sa[m * 64 + l];                      \
    for (int n = 0; n < RB / 32; n++) SB[n] = sb[n * 64 + l];                      \
    for (int f = 0; f < (RA / 32) * (RB / 32); f++)                                \
      for (int i = 0; i < 16; i++) C.f[f][i] = c[(f * 64 + l) * 16 + i];           \
    tk_mma_ABt_mx(D, A, B, C, SA, SB, FMT, SEL);                                   \
    for (int f = 0; f < (RA / 32) * (RB / 32); f++)                                \
      for (int i = 0; i < 16; i++) d[(f * 64 + l) * 16 + i] = D.f[f][i];           \
  }
#else
#define MX_KERNEL(name, FMT, RA, RB, KB, SEL)                                      \
  __global__ void name(const uint64_t *, const uint64_t *, const uint32_t *, const uint32_t *, const float *, float *) {}
#endif
MX_KERNEL(k_mx_fp8, TK_F8F6F4_FP8, 64, 32, 128, 0)  /* 4 blocks: bytes 0, 2 */
MX_KERNEL(k_mx_bf8, TK_F8F6F4_BF8, 32, 64, 64, 2)   /* 2 blocks: byte 2 */
MX_KERNEL(k_mx_fp4, TK_F8F6F4_FP4, 64, 32, 64, 0)   /* 128 elements, 4 blocks: bytes 0, 2 */
/* the odd bytes (op_sel 1, op_sel_hi 0 / 1): the 8wave MX kernel's fp8
 * words hold a block's scale in byte 1 or 3 too (never selected there) */
MX_KERNEL(k_mx_fp8_s1, TK_F8F6F4_FP8, 64, 32, 64, 1) /* 2 blocks: byte 1 */
MX_KERNEL(k_mx_bf8_s3, TK_F8F6F4_BF8, 32, 64, 64, 3) /* 2 blocks: byte 3 */
MX_KERNEL(k_mx_fp4_s1, TK_F8F6F4_FP4, 64, 32, 64, 1) /* 4 blocks: bytes 1, 3 */

/* element decoders from the OCP MX v1.0 format definitions (NaN codes excluded by the caller) */
static double dec_e4m3(uint8_t c) {
  const int s = c >> 7, e = (c >> 3) & 15, m = c & 7;
  const double v = e ? ldexp(1.0 + m / 8.0, e - 7) : ldexp(m / 8.0, -6);
  return s ? -v : v;
}
static double dec_e5m2(uint8_t c) {
  const int s = c >> 7, e = (c >> 2) & 31, m = c & 3;
  const double v = e ? ldexp(1.0 + m / 4.0, e - 15) : ldexp(m / 4.0, -14);
  return s ? -v : v;
}
static double dec_e2m1(uint8_t c) {
  const int s = (c >> 3) & 1, e = (c >> 1) & 3, m = c & 1;
  const double v = e ? ldexp(1.0 + m / 2.0, e - 1) : m * 0.5;
  return s ? -v : v;
}
enum { F_FP8, F_BF8, F_FP4 };
static uint8_t rand_code(int fmt) {
  for (;;) {
    const uint8_t c = (uint8_t)tt_rand();
    if (fmt == F_FP4) return c & 15;
    if (fmt == F_FP8 && (c & 0x7f) != 0x7f) return c;
    if (fmt == F_BF8 && (c & 0x7c) != 0x7c) return c;
  }
}
static double dec(int fmt, uint8_t c) { return fmt == F_FP4 ? dec_e2m1(c) : fmt == F_FP8 ? dec_e4m3(c) : dec_e5m2(c); }

typedef void (*mx_kern)(const uint64_t *, const uint64_t *, const uint32_t *, const uint32_t *, const float *, float *);

/* RA x K times (RB x K)^T, KB bytes per row, SEL the first scale byte;
 * edges: block 0 at the ends of E8M0's range (A 0x00..0x06 with row 0 at
 * 0x00 = 2^-127, B 0xf8..0xfe with column 0 at 0xfe = 2^127: their products
 * 2^-6..2^6, finite only if the two scales multiply the product together,
 * OCP MX v1.0 6.1), and one 0x7f (2^0) */
static void test_mx(const char *what, mx_kern kern, int fmt, int RA, int RB, int KB, int sel, int edges = 0) {
  const int fp4 = fmt == F_FP4, K = fp4 ? 2 * KB : KB, nk = KB / 16, nb = K / 32, nq = fp4 ? nk / 2 : nk / 4;
  /* element codes (one per element), scales per (row, block) */
  std::vector<uint8_t> ea(RA * K), eb(RB * K), xa(RA * nb), xb(RB * nb);
  for (auto &e : ea) e = rand_code(fmt);
  for (auto &e : eb) e = rand_code(fmt);
  for (auto &x : xa) x = (uint8_t)(127 - 3 + tt_rand() % 7);
  for (auto &x : xb) x = (uint8_t)(127 - 3 + tt_rand() % 7);
  if (edges) {
    for (int r = 0; r < RA; r++) xa[r * nb] = (uint8_t)(tt_rand() % 7);
    for (int r = 0; r < RB; r++) xb[r * nb] = (uint8_t)(0xfe - tt_rand() % 7);
    xa[0] = 0x00, xb[0] = 0xfe, xa[1 * nb + nb - 1] = 0x7f;
  }
  xa[3 * nb + 1] = 0xff;         /* A row 3, block 1: NaN */
  xb[7 * nb + (nb - 1)] = 0xff;  /* B row (= D column) 7, last block: NaN */
  /* the bytes of each operand row (fp4: element 2j in byte j's low nibble) */
  auto row_byte = [&](const std::vector<uint8_t> &e, int r, int col) -> uint8_t {
    return fp4 ? (uint8_t)(e[r * K + 2 * col] | e[r * K + 2 * col + 1] << 4) : e[r * K + col];
  };
  /* byte i of fragment kf, lane group h: fp8 in the MX order, fp4 in the paired order */
  auto kcol = [&](int kf, int h, int i) { return fp4 ? 32 * (kf / 2) + 16 * h + 8 * (kf % 2) + i : kmx(kf, h, i); };
  std::vector<uint64_t> pa((RA / 32) * nk * 64), pb((RB / 32) * nk * 64);
  for (int fr = 0; fr < RA / 32; fr++)
    for (int kf = 0; kf < nk; kf++)
      for (int l = 0; l < 64; l++)
        for (int i = 0; i < 8; i++)
          pa[(fr * nk + kf) * 64 + l] |= (uint64_t)row_byte(ea, 32 * fr + l % 32, kcol(kf, l / 32, i)) << (8 * i);
  for (int fr = 0; fr < RB / 32; fr++)
    for (int kf = 0; kf < nk; kf++)
      for (int l = 0; l < 64; l++)
        for (int i = 0; i < 8; i++)
          pb[(fr * nk + kf) * 64 + l] |= (uint64_t)row_byte(eb, 32 * fr + l % 32, kcol(kf, l / 32, i)) << (8 * i);
  /* scale words: byte sel + 2q = the block of MFMA q for lane group h (2q + h), the rest 0xff */
  std::vector<uint32_t> wa((RA / 32) * 64), wb((RB / 32) * 64);
  auto word = [&](const std::vector<uint8_t> &x, int r, int h) {
    uint32_t w = 0xffffffffu;
    for (int q = 0; q < nq; q++) w = (w & ~(0xffu << (8 * (sel + 2 * q)))) | (uint32_t)x[r * nb + 2 * q + h] << (8 * (sel + 2 * q));
    return w;
  };
  for (int fr = 0; fr < RA / 32; fr++)
    for (int l = 0; l < 64; l++) wa[fr * 64 + l] = word(xa, 32 * fr + l % 32, l / 32);
  for (int fr = 0; fr < RB / 32; fr++)
    for (int l = 0; l < 64; l++) wb[fr * 64 + l] = word(xb, 32 * fr + l % 32, l / 32);
  const int nf = (RA / 32) * (RB / 32);
  std::vector<float> cin(nf * 64 * 16);
  for (auto &v : cin) v = (float)((int)(tt_rand() % 201) - 100);
  uint64_t *da = tt_dev(pa), *db = tt_dev(pb);
  uint32_t *dsa = tt_dev(wa), *dsb = tt_dev(wb);
  float *dc = tt_dev(cin), *dd = tt_dev(std::vector<float>(nf * 64 * 16, -7777.f));
  hipLaunchKernelGGL(kern, dim3(1), dim3(64), 0, 0, da, db, dsa, dsb, dc, dd);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> got = tt_host(dd, nf * 64 * 16);
  int bad = 0, nans = 0;
  for (int m = 0; m < RA / 32; m++)
    for (int n = 0; n < RB / 32; n++)
      for (int l = 0; l < 64; l++)
        for (int i = 0; i < 16; i++) {
          const int f = m * (RB / 32) + n, r = 32 * m + tk_layout_c_row(32, l, i), c = 32 * n + tk_layout_c_col(32, l, i);
          const float g = got[(f * 64 + l) * 16 + i];
          double ref = cin[(f * 64 + l) * 16 + i], mag = fabs(ref);
          int isnan_ref = 0;
          for (int k = 0; k < K; k++) {
            const uint8_t s1 = xa[r * nb + k / 32], s2 = xb[c * nb + k / 32];
            if (s1 == 0xff || s2 == 0xff) isnan_ref = 1;
            const double t = dec(fmt, ea[r * K + k]) * ldexp(1.0, s1 - 127) * dec(fmt, eb[c * K + k]) * ldexp(1.0, s2 - 127);
            ref += t;
            mag += fabs(t);
          }
          nans += isnan_ref;
          const int ok = isnan_ref ? isnan(g) : !isnan(g) && fabs(g - ref) <= K * ldexp(mag, -24);
          if (!ok && bad++ < 5) printf("  %s: D(%d, %d) = %.9g, want %.9g%s\n", what, r, c, g, ref, isnan_ref ? " (NaN scale)" : "");
        }
  TT_CHECK(nans == RB + RA - 1, "%s: the NaN scales must reach one row and one column (%d NaN elements)", what, nans);
  TT_CHECK(bad == 0, "%s: %d of %d elements wrong", what, bad, RA * RB);
  HIPCHECK(hipFree(da)); HIPCHECK(hipFree(db)); HIPCHECK(hipFree(dsa)); HIPCHECK(hipFree(dsb));
  HIPCHECK(hipFree(dc)); HIPCHECK(hipFree(dd));
}

/* ---- 4. ReLU of NaN ---- */
__global__ void k_relu(const float *x, float *y) { y[threadIdx.x] = tk_act_f32(TK_ACT_RELU, x[threadIdx.x]); }

static void test_relu_nan(void) {
  const float inf = __builtin_inff(), nan = __builtin_nanf("");
  std::vector<float> x = {nan, -nan, 0.0f, -0.0f, inf, -inf, 2.5f, -2.5f};
  const float want[8] = {0.0f, 0.0f, 0.0f, 0.0f, inf, 0.0f, 2.5f, 0.0f};
  float *dx = tt_dev(x), *dy = tt_dev(std::vector<float>(8, -1.0f));
  hipLaunchKernelGGL(k_relu, dim3(1), dim3(8), 0, 0, dx, dy);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> y = tt_host(dy, 8);
  for (int i = 0; i < 8; i++) TT_CHECK(y[i] == want[i] && !__builtin_signbit(y[i]), "relu(%g) = %g, want %g", x[i], y[i], want[i]);
  HIPCHECK(hipFree(dx)); HIPCHECK(hipFree(dy));
}

int main(void) {
  test_relu_nan();
  test_lds_dword();
  test_k4("k4 prefetch, TK_LDS_SWZ16", k_k4_swz16);
  test_k4("k4 prefetch, TK_LDS_LINEAR", k_k4_linear);
  test_k4("k4 prefetch at/issue_at, TK_LDS_SWZ16", k_k4at_swz16);
  test_k4("k4 prefetch at/issue_at, TK_LDS_LINEAR", k_k4at_linear);
  test_mx("mma_ABt_mx mxfp8 e4m3 64x32x128 sel 0", k_mx_fp8, F_FP8, 64, 32, 128, 0);
  test_mx("mma_ABt_mx mxfp8 e5m2 32x64x64 sel 2", k_mx_bf8, F_BF8, 32, 64, 64, 2);
  test_mx("mma_ABt_mx mxfp4 64x32x128", k_mx_fp4, F_FP4, 64, 32, 64, 0);
  test_mx("mma_ABt_mx mxfp8 e4m3 64x32x64 sel 1, scales 0x00/0xfe", k_mx_fp8_s1, F_FP8, 64, 32, 64, 1, 1);
  test_mx("mma_ABt_mx mxfp8 e5m2 32x64x64 sel 3, scales 0x00/0xfe", k_mx_bf8_s3, F_BF8, 32, 64, 64, 3, 1);
  test_mx("mma_ABt_mx mxfp4 64x32x128 sel 1, scales 0x00/0xfe", k_mx_fp4_s1, F_FP4, 64, 32, 64, 1, 1);
  return tt_finish();
}
