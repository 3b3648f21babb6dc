/* mfma.c: dense CDNA3/CDNA4 matrix fused multiply-add (v_mfma_*), one block each.
 *
 * Operand and result lane layouts from AMD's matrix instruction calculator
 * (CDNA3, CDNA4) / the CDNA3 and CDNA4 ISA guides "Matrix arithmetic": the
 * same rule covers every dense shape, CDNA4's new ones included (16x16x32,
 * 32x32x16 f16/bf16; 16x16x128, 32x32x64 f8f6f4):
 *  - 32x32xK: A[i][k] is in lane i + 32*(k / (K/2)), element k % (K/2) of the
 *    lane's packed source registers; B[k][j] in lane j + 32*(k / (K/2)).
 *    D[i][j] is in lane j + 32*((i/4) % 2), register (i % 4) + 4*(i / 8).
 *  - 16x16xK: A[i][k] in lane i + 16*(k / (K/4)), element k % (K/4);
 *    B[k][j] in lane j + 16*(k / (K/4)); D[i][j] in lane j + 16*(i/4),
 *    register i % 4.
 * Elements are packed little-endian in the source registers (2 per dword for
 * f16/bf16, 4 for fp8/bf8/i8). Products of bf16/f16/fp8/bf8 inputs are exact
 * in f32; tksim adds them to the f32 accumulator one k at a time in f32
 * (round-to-nearest-even after each addition). The hardware sums a few
 * products at higher internal precision first, so results may differ from a
 * GPU in the last bits. i8 accumulates exactly in 32-bit integers (wrapping).
 * fp8/bf8 are the gfx942 FNUZ formats (E4M3, bias 8; E5M2, bias 16; 0x80 NaN)
 * on gfx942 and the OCP formats (E4M3FN, bias 7, S.1111.111 NaN, no inf; E5M2,
 * bias 15, IEEE-like inf/NaN) on gfx950 (CDNA4 ISA guide; OCP 8-bit floating
 * point specification). On gfx942 cbsz/abid/blgp broadcast controls are not
 * implemented (nonzero values are reported as unimplemented).
 *
 * gfx950 f8f6f4 (v_mfma[_scale]_f32_{16x16x128,32x32x64}_f8f6f4): cbsz (A) and
 * blgp (B) pick the element format: 0 fp8 E4M3, 1 bf8 E5M2, 2 fp6 E2M3,
 * 3 bf6 E3M2, 4 fp4 E2M1 (OCP Microscaling Formats spec). Elements are packed
 * densely, element e of a lane at bit bits*e of its source registers (fp6:
 * 32 x 6 bits fill exactly the 6 registers LLVM gives the operand, so
 * elements straddle dwords; CK's f6x32_pk_t, passed to these MFMAs as 6
 * dwords, packs the same way: docs/hardware.md "f8f6f4 packing"); each
 * lane holds 32 consecutive k of one row (A) or column (B). The _scale
 * forms multiply each 32-element k block by 2^(s-127), s the E8M0 byte of the
 * lane that holds the block (lane i + M*(k/32) for A row i, j + N*(k/32) for
 * B column j), byte op_sel[n] + 2*op_sel_hi[n] of scale operand n (0xff: NaN).
 * The two scales multiply the (exact) product of the elements together, as
 * the OCP MX spec's dot product X_A * X_B * sum(P_A * P_B) does (section
 * 6.1): each product is scaled by 2^(sa + sb - 254) in double and rounded
 * once to f32, so A at scale 2^127 with B at 2^-127 stays finite (scaling
 * each element alone overflowed f32 for |element| >= 2).
 */
#include <math.h>

#include "exec/exec_internal.h"

/* element formats; the LUT ones are indexed by their code */
enum { E_BF16, E_F16, E_I8, E_F32, E_FP8, E_BF8, E_OFP8, E_OBF8, E_FP6, E_BF6, E_FP4, E_NFMT };

static float lut[E_NFMT][256];
static pthread_once_t lut_once = PTHREAD_ONCE_INIT;

/* a minifloat with eb exponent bits, mb mantissa bits and the given bias;
 * inf/nan per format */
static float mini_val(uint32_t b, int eb, int mb, int bias, int fmt)
{
  int nb = 1 + eb + mb;
  b &= (1u << nb) - 1;
  int sign = (int)(b >> (nb - 1));
  int e = (int)((b >> mb) & ((1u << eb) - 1)), mant = (int)(b & ((1u << mb) - 1));
  if ((fmt == E_FP8 || fmt == E_BF8) && b == 0x80) return NAN;        /* FNUZ: 0x80 is NaN */
  if (fmt == E_OFP8 && e == 15 && mant == 7) return NAN;              /* E4M3FN: no inf */
  if (fmt == E_OBF8 && e == 31) return mant ? NAN : (sign ? -INFINITY : INFINITY);
  float v = e == 0 ? ldexpf((float)mant, 1 - bias - mb) : ldexpf(1.0f + (float)mant / (float)(1 << mb), e - bias);
  return sign ? -v : v;
}

static void init_lut(void)
{
  for (int b = 0; b < 256; b++) {
    lut[E_FP8][b] = mini_val((uint32_t)b, 4, 3, 8, E_FP8);
    lut[E_BF8][b] = mini_val((uint32_t)b, 5, 2, 16, E_BF8);
    lut[E_OFP8][b] = mini_val((uint32_t)b, 4, 3, 7, E_OFP8);
    lut[E_OBF8][b] = mini_val((uint32_t)b, 5, 2, 15, E_OBF8);
    lut[E_FP6][b] = mini_val((uint32_t)b, 2, 3, 1, E_FP6);
    lut[E_BF6][b] = mini_val((uint32_t)b, 3, 2, 3, E_BF6);
    lut[E_FP4][b] = mini_val((uint32_t)b, 2, 1, 1, E_FP4);
  }
}

static const int fmt_bits[E_NFMT] = {16, 16, 8, 32, 8, 8, 8, 8, 6, 6, 4};

/* Unpacks a lane's kpl elements of a source into out[] (element e at bit
 * bits*e of the registers starting at o->reg). */
static inline void unpack(const tks_wave *w, const tks_operand *o, int l, int kpl, int ty, float *out, int32_t *iout)
{
  const int bits = fmt_bits[ty];
  for (int e = 0; e < kpl; e++) {
    uint32_t bit = (uint32_t)(bits * e), r = bit / 32, sh = bit % 32;
    uint64_t word = w->v[(o->reg + r) & (TKS_NVGPR - 1)][l];
    if (sh + (uint32_t)bits > 32) word |= (uint64_t)w->v[(o->reg + r + 1) & (TKS_NVGPR - 1)][l] << 32;
    uint32_t code = (uint32_t)(word >> sh);
    switch (ty) {
    case E_BF16: out[e] = tks_u2f((code & 0xffff) << 16); break;
    case E_F16: out[e] = tks_h2f((uint16_t)code); break;
    case E_F32: out[e] = tks_u2f(code); break;
    case E_I8: iout[e] = (int8_t)code; break;
    default: out[e] = lut[ty][code & ((1u << bits) - 1)]; break;
    }
  }
}

/* f8f6f4 format selector (cbsz/blgp) -> element format, -1 unimplemented */
static int f8f6f4_fmt(int sel)
{
  switch (sel) {
  case 0: return E_OFP8;
  case 1: return E_OBF8;
  case 2: return E_FP6;
  case 3: return E_BF6;
  case 4: return E_FP4;
  default: return -1;
  }
}

static inline uint32_t lane_op32(const tks_wave *w, const tks_operand *o, int l)
{
  return o->kind == TKS_OPK_VGPR ? w->v[o->reg & (TKS_NVGPR - 1)][l] : tks_op32(w, o);
}

static inline double lane_f64(const tks_wave *w, const tks_operand *o, int r, int l)
{
  if (o->kind != TKS_OPK_VGPR) return tks_u2d(o->imm);
  return tks_u2d((uint64_t)w->v[(o->reg + r) & (TKS_NVGPR - 1)][l] |
                 (uint64_t)w->v[(o->reg + r + 1) & (TKS_NVGPR - 1)][l] << 32);
}

/* v_mfma_f64_16x16x4_f64: the 16x16xK rule above with one f64 (a register
 * pair) per lane in A and B - A[i][k] in lane i + 16k, B[k][j] in lane j + 16k -
 * and D[i][j] in lane j + 16*(i/4), pair i % 4. Each product is added with
 * one rounding (fma), k in order; neg:[a,b,c] negates A, B, C (LLVM prints
 * the BLGP field of the f64 forms as neg). */
static int mfma_f64(tks_wave *w, const tks_inst *in)
{
  if (in->cbsz || in->abid || in->blgp || in->nsrc < 3 || in->src[0].kind != TKS_OPK_VGPR ||
      in->src[1].kind != TKS_OPK_VGPR || in->dst[0].kind != TKS_OPK_VGPR)
    return -1;
  double A[16][4], B[4][16], D[16][16];
  const double na = in->neg_lo & 1 ? -1.0 : 1.0, nb = in->neg_lo & 2 ? -1.0 : 1.0, nc = in->neg_lo & 4 ? -1.0 : 1.0;
  for (int l = 0; l < 64; l++) {
    A[l % 16][l / 16] = na * lane_f64(w, &in->src[0], 0, l);
    B[l / 16][l % 16] = nb * lane_f64(w, &in->src[1], 0, l);
    for (int r = 0; r < 4; r++) D[4 * (l / 16) + r][l % 16] = nc * lane_f64(w, &in->src[2], 2 * r, l);
  }
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++)
      for (int k = 0; k < 4; k++) D[i][j] = fma(A[i][k], B[k][j], D[i][j]);
  const tks_operand *d = &in->dst[0];
  for (int l = 0; l < 64; l++)
    for (int r = 0; r < 4; r++) {
      uint64_t u = tks_d2u(D[4 * (l / 16) + r][l % 16]);
      w->v[(d->reg + 2 * r) & (TKS_NVGPR - 1)][l] = (uint32_t)u;
      w->v[(d->reg + 2 * r + 1) & (TKS_NVGPR - 1)][l] = (uint32_t)(u >> 32);
    }
  w->c->wstats[w->g->worker].mfma_flops += 2ull * 16 * 16 * 4;
  return 0;
}

#ifndef TKS_MFMA_GENERAL_ONLY
/* The dense bf16/f16 shapes (every attention and GEMM kernel here) without
 * the general path's per-element format switch: by the layout rule above,
 * source register e/2 of lane c + M*kg holds element kg*kpl + e of row (A) or
 * column (B) c, half e&1; accumulator register r holds whole rows of D in
 * runs of N lanes. Same f32 arithmetic in the same order as the general
 * path (product rounded, then added, k ascending), only vectorized over j
 * (vectors of 4 floats: SSE, every x86-64 host), so the
 * results are bit-identical. One exception would be which NaN survives when
 * two meet (the host keeps an operand the compiler picks): operations with
 * a NaN among their inputs take the general path; NaNs made inside (inf·0,
 * inf-inf) are all the host's default NaN, whichever is kept. */
typedef float tks_v4f __attribute__((vector_size(16)));

/* D[i][0..N) += A[i][k] * B[k][0..N), k ascending; N/4 accumulators of 4
 * floats stay in registers (8 for N = 32: half of SSE's 16). */
#define TKS_DENSE_ROWS(NAME, M, NV)                                                          \
  static void NAME(float (*D)[32], const float (*A)[32], const tks_v4f (*B)[8], int K)      \
  {                                                                                          \
    for (int i = 0; i < (M); i++) {                                                          \
      tks_v4f c[NV];                                                                         \
      _Pragma("GCC unroll 8") for (int q = 0; q < (NV); q++) memcpy(&c[q], D[i] + 4 * q, 16); \
      for (int k = 0; k < K; k++) {                                                          \
        const float a = A[i][k];                                                             \
        const tks_v4f av = {a, a, a, a};                                                     \
        _Pragma("GCC unroll 8") for (int q = 0; q < (NV); q++) c[q] = B[k][q] * av + c[q];   \
      }                                                                                      \
      _Pragma("GCC unroll 8") for (int q = 0; q < (NV); q++) memcpy(D[i] + 4 * q, &c[q], 16); \
    }                                                                                        \
  }
TKS_DENSE_ROWS(dense16_rows32, 32, 8)
TKS_DENSE_ROWS(dense16_rows16, 16, 4)

/* any NaN among n floats */
static int has_nan(const float *x, int n)
{
  int any = 0;
  for (int t = 0; t < n; t++) any |= x[t] != x[t];
  return any;
}

/* 0 done, 1 NaN among the inputs (nothing written). Inlined with constant
 * shapes (mfma_dense16_shape): a run-time row size made each row copy a
 * `rep movs`, a quarter of this function's time. */
static inline __attribute__((always_inline)) int mfma_dense16(tks_wave *w, const tks_inst *in, int M, int K, int f16)
{
  const int N = M, kpl = K / (64 / M), nreg = M * N / 64;
  float A[32][32], D[32][32];
  tks_v4f B[32][8];
  float *Bf = (float *)B; /* B[k][j] at Bf[32k + j] */
  for (int kg = 0; kg < 64 / M; kg++)
    for (int e = 0; e < kpl; e++) {
      const int k = kg * kpl + e, sh = 16 * (e & 1);
      const uint32_t *ra = w->v[(in->src[0].reg + e / 2) & (TKS_NVGPR - 1)] + M * kg;
      const uint32_t *rb = w->v[(in->src[1].reg + e / 2) & (TKS_NVGPR - 1)] + M * kg;
      if (f16) {
        for (int c = 0; c < M; c++) {
          A[c][k] = tks_h2f((uint16_t)(ra[c] >> sh));
          Bf[32 * k + c] = tks_h2f((uint16_t)(rb[c] >> sh));
        }
      } else {
        for (int c = 0; c < M; c++) {
          A[c][k] = tks_u2f(((ra[c] >> sh) & 0xffff) << 16);
          Bf[32 * k + c] = tks_u2f(((rb[c] >> sh) & 0xffff) << 16);
        }
      }
    }
  /* accumulator register r: lanes 32h..32h+31 are row 8(r/4) + 4h + r%4
   * (32x32), lanes 16h..16h+15 row 4h + r (16x16) */
  const tks_operand *c = &in->src[2];
  for (int r = 0; r < nreg; r++)
    for (int h = 0; h < 64 / N; h++) {
      const int i = M == 32 ? 8 * (r / 4) + 4 * h + (r % 4) : 4 * h + r;
      if (c->kind == TKS_OPK_VGPR) memcpy(D[i], w->v[(c->reg + r) & (TKS_NVGPR - 1)] + N * h, (size_t)N * 4);
      else
        for (int j = 0; j < N; j++) D[i][j] = tks_u2f((uint32_t)c->imm);
    }
  for (int i = 0; i < M; i++)
    if (has_nan(A[i], K) || has_nan(D[i], N)) return 1;
  for (int k = 0; k < K; k++)
    if (has_nan(Bf + 32 * k, N)) return 1;
  if (M == 32) dense16_rows32(D, (const float (*)[32])A, (const tks_v4f (*)[8])B, K);
  else dense16_rows16(D, (const float (*)[32])A, (const tks_v4f (*)[8])B, K);
  const tks_operand *d = &in->dst[0];
  for (int r = 0; r < nreg; r++)
    for (int h = 0; h < 64 / N; h++) {
      const int i = M == 32 ? 8 * (r / 4) + 4 * h + (r % 4) : 4 * h + r;
      memcpy(w->v[(d->reg + r) & (TKS_NVGPR - 1)] + N * h, D[i], (size_t)N * 4);
    }
  w->c->wstats[w->g->worker].mfma_flops += 2ull * (uint64_t)M * N * K;
  return 0;
}

/* the bf16/f16 shapes with K * M <= 512, each with constant sizes */
static int mfma_dense16_shape(tks_wave *w, const tks_inst *in, int M, int K, int f16)
{
#define TKS_DENSE_CASE(MM, KK)                                                                \
  if (M == (MM) && K == (KK)) return f16 ? mfma_dense16(w, in, MM, KK, 1) : mfma_dense16(w, in, MM, KK, 0);
  TKS_DENSE_CASE(32, 16)
  TKS_DENSE_CASE(32, 8)
  TKS_DENSE_CASE(16, 32)
  TKS_DENSE_CASE(16, 16)
#undef TKS_DENSE_CASE
  return mfma_dense16(w, in, M, K, f16);
}

#endif

int tks_exec_mfma(tks_wave *w, const tks_inst *in)
{
  if (in->op == TKS_OP_MFMA_F64_16X16X4_F64) return mfma_f64(w, in);
  if (in->neg_lo) return -1; /* neg:[..] exists only for the f64 forms */
  int M, K, ta, tb;
  const int gfx950 = w->c->k->co && w->c->k->co->arch == TKS_ARCH_GFX950;
  /* fp8/bf8 of the CDNA3-era instructions: FNUZ on gfx942, OCP on gfx950 */
  const int f8 = gfx950 ? E_OFP8 : E_FP8, b8 = gfx950 ? E_OBF8 : E_BF8;
  int scaled = 0, f8f6f4 = 0;
  switch (in->op) {
  case TKS_OP_MFMA_F32_32X32X8_BF16: M = 32; K = 8; ta = tb = E_BF16; break;
  case TKS_OP_MFMA_F32_16X16X16_BF16: M = 16; K = 16; ta = tb = E_BF16; break;
  case TKS_OP_MFMA_F32_32X32X8_F16: M = 32; K = 8; ta = tb = E_F16; break;
  case TKS_OP_MFMA_F32_16X16X16_F16: M = 16; K = 16; ta = tb = E_F16; break;
  case TKS_OP_MFMA_F32_16X16X32_FP8_FP8: M = 16; K = 32; ta = f8; tb = f8; break;
  case TKS_OP_MFMA_F32_16X16X32_FP8_BF8: M = 16; K = 32; ta = f8; tb = b8; break;
  case TKS_OP_MFMA_F32_16X16X32_BF8_FP8: M = 16; K = 32; ta = b8; tb = f8; break;
  case TKS_OP_MFMA_F32_16X16X32_BF8_BF8: M = 16; K = 32; ta = b8; tb = b8; break;
  case TKS_OP_MFMA_F32_32X32X16_FP8_FP8: M = 32; K = 16; ta = f8; tb = f8; break;
  case TKS_OP_MFMA_F32_32X32X16_FP8_BF8: M = 32; K = 16; ta = f8; tb = b8; break;
  case TKS_OP_MFMA_F32_32X32X16_BF8_FP8: M = 32; K = 16; ta = b8; tb = f8; break;
  case TKS_OP_MFMA_F32_32X32X16_BF8_BF8: M = 32; K = 16; ta = b8; tb = b8; break;
  case TKS_OP_MFMA_I32_16X16X32_I8: M = 16; K = 32; ta = tb = E_I8; break;
  case TKS_OP_MFMA_I32_32X32X16_I8: M = 32; K = 16; ta = tb = E_I8; break;
  case TKS_OP_MFMA_F32_16X16X4_F32: M = 16; K = 4; ta = tb = E_F32; break;
  case TKS_OP_MFMA_F32_32X32X2_F32: M = 32; K = 2; ta = tb = E_F32; break;
  case TKS_OP_MFMA_F32_16X16X32_BF16: M = 16; K = 32; ta = tb = E_BF16; break;
  case TKS_OP_MFMA_F32_16X16X32_F16: M = 16; K = 32; ta = tb = E_F16; break;
  case TKS_OP_MFMA_F32_32X32X16_BF16: M = 32; K = 16; ta = tb = E_BF16; break;
  case TKS_OP_MFMA_F32_32X32X16_F16: M = 32; K = 16; ta = tb = E_F16; break;
  case TKS_OP_MFMA_I32_16X16X64_I8: if (!gfx950) return -1; M = 16; K = 64; ta = tb = E_I8; break;
  case TKS_OP_MFMA_I32_32X32X32_I8: if (!gfx950) return -1; M = 32; K = 32; ta = tb = E_I8; break;
  case TKS_OP_MFMA_SCALE_F32_16X16X128_F8F6F4: scaled = 1; /* fallthrough */
  case TKS_OP_MFMA_F32_16X16X128_F8F6F4: M = 16; K = 128; f8f6f4 = 1; ta = tb = 0; break;
  case TKS_OP_MFMA_SCALE_F32_32X32X64_F8F6F4: scaled = 1; /* fallthrough */
  case TKS_OP_MFMA_F32_32X32X64_F8F6F4: M = 32; K = 64; f8f6f4 = 1; ta = tb = 0; break;
  default: return -1;
  }
  /* the CDNA4-only shapes are not gfx942 instructions */
  if ((in->op >= TKS_OP_MFMA_F32_16X16X32_BF16 && in->op <= TKS_OP_MFMA_SCALE_F32_32X32X64_F8F6F4) && !gfx950)
    return -1;
  if (f8f6f4) {
    ta = f8f6f4_fmt(in->cbsz);
    tb = f8f6f4_fmt(in->blgp);
    if (ta < 0 || tb < 0 || in->abid) return -1;
  } else if (in->cbsz || in->abid || in->blgp) return -1;
  if (in->nsrc < (scaled ? 5 : 3) || in->src[0].kind != TKS_OPK_VGPR || in->src[1].kind != TKS_OPK_VGPR ||
      in->dst[0].kind != TKS_OPK_VGPR)
    return -1;
  /* 1: a NaN among the inputs, the general path below decides which survives.
   * TKS_MFMA_GENERAL_ONLY: the general path alone (sim/tests/test_mfma_fast.c
   * compares the two) */
#ifndef TKS_MFMA_GENERAL_ONLY
  if (!scaled && (ta == E_BF16 || ta == E_F16) && K * M <= 32 * 16 && mfma_dense16_shape(w, in, M, K, ta == E_F16) == 0)
    return 0;
#endif
  pthread_once(&lut_once, init_lut);
  const int N = M, groups = 64 / M, kpl = K / groups, nreg = M * N / 64;
  float A[32][128], B[128][32], D[32][32];
  int ea[32][4], eb[32][4]; /* _scale forms: E8M0 bytes of row i / column j, k block g (255 NaN) */
  int32_t IA[32][128], IB[128][32], ID[32][32]; /* K up to 128 (i8 16x16x64) */
  const int isint = ta == E_I8;
  float tmpf[128];
  int32_t tmpi[128];
  int sbyte_a = ((in->op_sel >> 0) & 1) | (((in->op_sel_hi >> 0) & 1) << 1);
  int sbyte_b = ((in->op_sel >> 1) & 1) | (((in->op_sel_hi >> 1) & 1) << 1);
  for (int l = 0; l < 64; l++) {
    int i = l % M, kg = l / M;
    if (scaled) {
      ea[i][kg] = (int)((lane_op32(w, &in->src[3], l) >> (8 * sbyte_a)) & 0xff);
      eb[i][kg] = (int)((lane_op32(w, &in->src[4], l) >> (8 * sbyte_b)) & 0xff);
    }
    unpack(w, &in->src[0], l, kpl, ta, tmpf, tmpi);
    for (int e = 0; e < kpl; e++) { if (isint) IA[i][kg * kpl + e] = tmpi[e]; else A[i][kg * kpl + e] = tmpf[e]; }
    unpack(w, &in->src[1], l, kpl, tb, tmpf, tmpi);
    for (int e = 0; e < kpl; e++) { if (isint) IB[kg * kpl + e][i] = tmpi[e]; else B[kg * kpl + e][i] = tmpf[e]; }
  }
  /* accumulator input */
  const tks_operand *c = &in->src[2];
  for (int r = 0; r < nreg; r++)
    for (int l = 0; l < 64; l++) {
      int j = l % N, i = M == 32 ? 8 * (r / 4) + 4 * (l / 32) + (r % 4) : 4 * (l / 16) + r;
      uint32_t v = c->kind == TKS_OPK_VGPR ? w->v[(c->reg + r) & (TKS_NVGPR - 1)][l] : (uint32_t)c->imm;
      if (isint) ID[i][j] = (int32_t)v; else D[i][j] = tks_u2f(v);
    }
  if (isint) {
    for (int i = 0; i < M; i++)
      for (int k = 0; k < K; k++) {
        int32_t a = IA[i][k];
        for (int j = 0; j < N; j++) ID[i][j] = (int32_t)((uint32_t)ID[i][j] + (uint32_t)(a * IB[k][j]));
      }
  } else if (scaled) {
    /* f8f6f4 elements have at most 4 significant bits: a * b is exact in f32 */
    for (int i = 0; i < M; i++)
      for (int g = 0; g < groups; g++) {
        double sc[32];
        for (int j = 0; j < N; j++)
          sc[j] = ea[i][g] == 255 || eb[j][g] == 255 ? NAN : ldexp(1.0, ea[i][g] + eb[j][g] - 254);
        for (int k = g * kpl; k < (g + 1) * kpl; k++) {
          float a = A[i][k];
          for (int j = 0; j < N; j++) D[i][j] += (float)((double)(a * B[k][j]) * sc[j]);
        }
      }
  } else {
    for (int i = 0; i < M; i++)
      for (int k = 0; k < K; k++) {
        float a = A[i][k];
        for (int j = 0; j < N; j++) D[i][j] += a * B[k][j];
      }
  }
  const tks_operand *d = &in->dst[0];
  for (int r = 0; r < nreg; r++) {
    uint32_t *dr = w->v[(d->reg + r) & (TKS_NVGPR - 1)];
    for (int l = 0; l < 64; l++) {
      int j = l % N, i = M == 32 ? 8 * (r / 4) + 4 * (l / 32) + (r % 4) : 4 * (l / 16) + r;
      dr[l] = isint ? (uint32_t)ID[i][j] : tks_f2u(D[i][j]);
    }
  }
  w->c->wstats[w->g->worker].mfma_flops += 2ull * (uint64_t)M * N * K;
  return 0;
}
