/* mfma.c: dense CDNA3 matrix fused multiply-add (v_mfma_*), one block each.
 *
 * Operand and result lane layouts from AMD's matrix instruction calculator
 * (CDNA3) / the CDNA3 ISA guide "Dependent arithmetic: matrix FMA":
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
 * fp8/bf8 are the gfx942 FNUZ formats (E4M3, bias 8; E5M2, bias 16; 0x80 NaN).
 * cbsz/abid/blgp broadcast controls are not implemented (nonzero values are
 * reported as unimplemented).
 */
#include <math.h>

#include "exec/exec_internal.h"

enum { E_BF16, E_F16, E_FP8, E_BF8, E_I8, E_F32 };

static float fp8_lut[2][256];
static int fp8_lut_ready;

static float fp8_val(uint32_t b, int bf8)
{
  b &= 0xff;
  if (b == 0x80) return NAN;
  int sign = b >> 7, mb = bf8 ? 2 : 3, eb = bf8 ? 5 : 4, bias = bf8 ? 16 : 8;
  int e = (int)((b >> mb) & ((1u << eb) - 1)), mant = (int)(b & ((1u << mb) - 1));
  float v = e == 0 ? ldexpf((float)mant, 1 - bias - mb) : ldexpf(1.0f + (float)mant / (float)(1 << mb), e - bias);
  return sign ? -v : v;
}

static void init_lut(void)
{
  for (int t = 0; t < 2; t++)
    for (int b = 0; b < 256; b++) fp8_lut[t][b] = fp8_val((uint32_t)b, t);
  __atomic_store_n(&fp8_lut_ready, 1, __ATOMIC_RELEASE);
}

static inline float elem_f(uint32_t word, int e, int ty)
{
  switch (ty) {
  case E_BF16: return tks_u2f(((word >> (16 * e)) & 0xffff) << 16);
  case E_F16: return tks_h2f((uint16_t)(word >> (16 * e)));
  case E_FP8: return fp8_lut[0][(word >> (8 * e)) & 0xff];
  case E_BF8: return fp8_lut[1][(word >> (8 * e)) & 0xff];
  default: return tks_u2f(word);
  }
}

/* Unpacks a lane's kpl elements of a source into out[]. */
static inline void unpack(const tks_wave *w, const tks_operand *o, int l, int kpl, int ty, float *out, int32_t *iout)
{
  int per = (ty == E_BF16 || ty == E_F16) ? 2 : (ty == E_F32 ? 1 : 4);
  for (int e = 0; e < kpl; e++) {
    uint32_t word = w->v[(o->reg + e / per) & (TKS_NVGPR - 1)][l];
    if (ty == E_I8) iout[e] = (int8_t)(word >> (8 * (e % per)));
    else out[e] = elem_f(word, e % per, ty);
  }
}

int tks_exec_mfma(tks_wave *w, const tks_inst *in)
{
  int M, K, ta, tb;
  switch (in->op) {
  case TKS_OP_MFMA_F32_32X32X8_BF16: M = 32; K = 8; ta = tb = E_BF16; break;
  case TKS_OP_MFMA_F32_16X16X16_BF16: M = 16; K = 16; ta = tb = E_BF16; break;
  case TKS_OP_MFMA_F32_32X32X8_F16: M = 32; K = 8; ta = tb = E_F16; break;
  case TKS_OP_MFMA_F32_16X16X16_F16: M = 16; K = 16; ta = tb = E_F16; break;
  case TKS_OP_MFMA_F32_16X16X32_FP8_FP8: M = 16; K = 32; ta = E_FP8; tb = E_FP8; break;
  case TKS_OP_MFMA_F32_16X16X32_FP8_BF8: M = 16; K = 32; ta = E_FP8; tb = E_BF8; break;
  case TKS_OP_MFMA_F32_16X16X32_BF8_FP8: M = 16; K = 32; ta = E_BF8; tb = E_FP8; break;
  case TKS_OP_MFMA_F32_16X16X32_BF8_BF8: M = 16; K = 32; ta = E_BF8; tb = E_BF8; break;
  case TKS_OP_MFMA_F32_32X32X16_FP8_FP8: M = 32; K = 16; ta = E_FP8; tb = E_FP8; break;
  case TKS_OP_MFMA_F32_32X32X16_FP8_BF8: M = 32; K = 16; ta = E_FP8; tb = E_BF8; break;
  case TKS_OP_MFMA_F32_32X32X16_BF8_FP8: M = 32; K = 16; ta = E_BF8; tb = E_FP8; break;
  case TKS_OP_MFMA_F32_32X32X16_BF8_BF8: M = 32; K = 16; ta = E_BF8; tb = E_BF8; break;
  case TKS_OP_MFMA_I32_16X16X32_I8: M = 16; K = 32; ta = tb = E_I8; break;
  case TKS_OP_MFMA_I32_32X32X16_I8: M = 32; K = 16; ta = tb = E_I8; break;
  case TKS_OP_MFMA_F32_16X16X4_F32: M = 16; K = 4; ta = tb = E_F32; break;
  case TKS_OP_MFMA_F32_32X32X2_F32: M = 32; K = 2; ta = tb = E_F32; break;
  default: return -1;
  }
  if (in->cbsz || in->abid || in->blgp) return -1;
  if (in->nsrc < 3 || in->src[0].kind != TKS_OPK_VGPR || in->src[1].kind != TKS_OPK_VGPR ||
      in->dst[0].kind != TKS_OPK_VGPR)
    return -1;
  if (!__atomic_load_n(&fp8_lut_ready, __ATOMIC_ACQUIRE)) init_lut();
  const int N = M, groups = 64 / M, kpl = K / groups, nreg = M * N / 64;
  float A[32][32], B[32][32], D[32][32];
  int32_t IA[32][32], IB[32][32], ID[32][32];
  const int isint = ta == E_I8;
  float tmpf[32];
  int32_t tmpi[32];
  for (int l = 0; l < 64; l++) {
    int i = l % M, kg = l / M;
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
