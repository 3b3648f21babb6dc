/* valu.c: vector ALU instructions (VOP1/VOP2/VOP3/VOPC/VOP3P, DPP and SDWA
 * forms).
 *
 * Hardware facts relied on (CDNA3 ISA guide, "Vector ALU Operations",
 * "DPP", "SDWA" and the per-opcode descriptions):
 *  - carry-out and compare results are 64-bit lane masks; lanes disabled in
 *    EXEC write 0 bits; v_cmpx also writes EXEC.
 *  - DPP: quad_perm, row_shl/shr/ror, wave_shl/rol/shr/ror, row_mirror,
 *    row_half_mirror, row_bcast:15/31; rows are 16 lanes, banks 4 lanes of a
 *    row; an invalid or EXEC-disabled source lane reads 0 with bound_ctrl,
 *    otherwise the destination lane is not written.
 *  - 16-bit results of non-SDWA VOP1/VOP2/VOP3 ops zero the upper half
 *    unless op_sel[3] selects the high half (then the low half is kept).
 * Floating point is IEEE round-to-nearest-even (host float/double/_Float16
 * arithmetic; fma via fmaf/fma). Denormals are flushed when the kernel's MODE
 * says so. Transcendentals (exp, log, rcp, rsq, sqrt, sin, cos) are computed
 * exactly rounded from the host libm rather than with the hardware's ~1 ulp
 * approximations; v_div_scale/v_div_fmas do no scaling and v_div_fixup returns
 * the correctly rounded quotient numerator/denominator, i.e. the result the
 * compiler's division sequence is designed to produce.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>

#include "exec/exec_internal.h"

static inline float ieee_maximum(float a, float b)
{
  if (isnan(a) || isnan(b)) return NAN;
  if (a == 0 && b == 0) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static inline float ieee_minimum(float a, float b)
{
  if (isnan(a) || isnan(b)) return NAN;
  if (a == 0 && b == 0) return signbit(a) ? a : b;
  return a < b ? a : b;
}

#define LOOP const int full_ = (m == ~0ull); for (int l = 0; l < 64; l++) if (full_ || (m >> l & 1))

static inline float ftz_f(float x) { return (fpclassify(x) == FP_SUBNORMAL) ? copysignf(0.0f, x) : x; }
static inline double ftz_d(double x) { return (fpclassify(x) == FP_SUBNORMAL) ? copysign(0.0, x) : x; }

/* ---------------------------------------------------------------- DPP */
static int dpp_src_lane(uint32_t ctrl, int l)
{
  if (ctrl <= 0xff) return (l & ~3) | (int)((ctrl >> (2 * (l & 3))) & 3);
  if (ctrl >= 0x101 && ctrl <= 0x10f) { int n = (int)(ctrl & 15); return (l & 15) + n < 16 ? l + n : -1; }
  if (ctrl >= 0x111 && ctrl <= 0x11f) { int n = (int)(ctrl & 15); return (l & 15) >= n ? l - n : -1; }
  if (ctrl >= 0x121 && ctrl <= 0x12f) { int n = (int)(ctrl & 15); return (l & ~15) | (((l & 15) - n) & 15); }
  switch (ctrl) {
  case 0x130: return l < 63 ? l + 1 : -1;
  case 0x134: return (l + 1) & 63;
  case 0x138: return l > 0 ? l - 1 : -1;
  case 0x13c: return (l - 1) & 63;
  case 0x140: return (l & ~15) | (15 - (l & 15));
  case 0x141: return (l & ~7) | (7 - (l & 7));
  case 0x142: return l >= 16 ? (l & ~15) - 1 : -1;
  case 0x143: return l >= 32 ? 31 : -1;
  default: return -2;
  }
}

/* Stages DPP src0 into w->tmp[7] and returns the lanes that are written. */
static int dpp_setup(tks_wave *w, const tks_inst *in, uint64_t *mask)
{
  uint64_t exec = *mask, m = 0;
  const tks_operand *o = &in->src[0];
  if (o->kind != TKS_OPK_VGPR) return -1;
  const uint32_t *s = w->v[o->reg];
  uint32_t *t = w->tmp[7];
  for (int l = 0; l < 64; l++) {
    if (!(exec >> l & 1)) continue;
    if (!(in->dpp_row_mask >> (l >> 4) & 1) || !(in->dpp_bank_mask >> ((l >> 2) & 3) & 1)) continue;
    int sl = dpp_src_lane(in->dpp_ctrl, l);
    if (sl == -2) return -1;
    if (sl < 0 || !(exec >> sl & 1)) {
      if (in->flags & TKS_F_BOUND_CTRL) { t[l] = 0; m |= 1ull << l; }
      continue;
    }
    t[l] = s[sl];
    m |= 1ull << l;
  }
  *mask = m;
  return 0;
}

/* ---------------------------------------------------------------- sources */
static inline uint32_t sdwa_extract(uint32_t x, int sel, int sext)
{
  switch (sel) {
  case 0: case 1: case 2: case 3: {
    uint32_t b = (x >> (8 * sel)) & 0xff;
    return sext ? (uint32_t)(int32_t)(int8_t)b : b;
  }
  case 4: case 5: {
    uint32_t h = (x >> (16 * (sel - 4))) & 0xffff;
    return sext ? (uint32_t)(int32_t)(int16_t)h : h;
  }
  default: return x;
  }
}

static const uint32_t *src32(tks_wave *w, const tks_inst *in, int i)
{
  const tks_operand *o = &in->src[i];
  const uint32_t *p;
  if (i == 0 && (in->flags & TKS_F_DPP)) p = w->tmp[7];
  else if (o->kind == TKS_OPK_VGPR) p = w->v[o->reg];
  else {
    uint32_t x = tks_op32(w, o), *t = w->tmp[i];
    for (int l = 0; l < 64; l++) t[l] = x;
    p = t;
  }
  if ((in->flags & TKS_F_SDWA) && i < 2 && (in->sdwa_src_sel[i] != 6 || (o->abs & 2))) {
    uint32_t *t = w->tmp[i];
    int sel = in->sdwa_src_sel[i], sx = (o->abs & 2) != 0;
    for (int l = 0; l < 64; l++) t[l] = sdwa_extract(p[l], sel, sx);
    p = t;
  }
  return p;
}

/* f32 sources with abs/neg */
static const uint32_t *fsrc32(tks_wave *w, const tks_inst *in, int i)
{
  const uint32_t *p = src32(w, in, i);
  const tks_operand *o = &in->src[i];
  if (!(o->abs & 1) && !o->neg && !w->ftz32) return p;
  uint32_t *t = w->tmp[i];
  uint32_t andm = (o->abs & 1) ? 0x7fffffffu : 0xffffffffu, xorm = o->neg ? 0x80000000u : 0;
  for (int l = 0; l < 64; l++) {
    uint32_t x = (p[l] & andm) ^ xorm;
    if (w->ftz32 && (x & 0x7f800000u) == 0) x &= 0x80000000u;
    t[l] = x;
  }
  return t;
}

/* f16 source: half selected by op_sel bit i, abs/neg on bit 15 */
static const uint32_t *hsrc(tks_wave *w, const tks_inst *in, int i)
{
  const uint32_t *p = src32(w, in, i);
  const tks_operand *o = &in->src[i];
  int hi = (in->op_sel >> i) & 1;
  if (!hi && !(o->abs & 1) && !o->neg) return p;
  uint32_t *t = w->tmp[i];
  for (int l = 0; l < 64; l++) {
    uint32_t x = hi ? p[l] >> 16 : p[l];
    if (o->abs & 1) x &= 0x7fff;
    if (o->neg) x ^= 0x8000;
    t[l] = x & 0xffff;
  }
  return t;
}

static void src64(tks_wave *w, const tks_inst *in, int i, uint64_t *out, int fmods)
{
  const tks_operand *o = &in->src[i];
  if (o->kind == TKS_OPK_VGPR) {
    const uint32_t *lo = w->v[o->reg], *hi = w->v[(o->reg + 1) & (TKS_NVGPR - 1)];
    for (int l = 0; l < 64; l++) out[l] = (uint64_t)lo[l] | ((uint64_t)hi[l] << 32);
  } else {
    uint64_t x = tks_op64(w, o);
    for (int l = 0; l < 64; l++) out[l] = x;
  }
  if (fmods && ((o->abs & 1) || o->neg)) {
    uint64_t andm = (o->abs & 1) ? 0x7fffffffffffffffull : ~0ull, xorm = o->neg ? 0x8000000000000000ull : 0;
    for (int l = 0; l < 64; l++) out[l] = (out[l] & andm) ^ xorm;
  }
  if (fmods && w->ftz16)
    for (int l = 0; l < 64; l++) if ((out[l] & 0x7ff0000000000000ull) == 0) out[l] &= 0x8000000000000000ull;
}

static inline uint32_t *dst32(tks_wave *w, const tks_inst *in)
{
  if ((in->flags & TKS_F_SDWA) && in->sdwa_dst_sel != 6) return w->tmp[6];
  return w->v[in->dst[0].reg];
}

static void sdwa_finish(tks_wave *w, const tks_inst *in, uint64_t m)
{
  if (!(in->flags & TKS_F_SDWA) || in->sdwa_dst_sel == 6) return;
  uint32_t *d = w->v[in->dst[0].reg];
  const uint32_t *r = w->tmp[6];
  int sel = in->sdwa_dst_sel, un = in->sdwa_dst_unused;
  uint32_t shift = sel < 4 ? 8u * (uint32_t)sel : 16u * (uint32_t)(sel - 4);
  uint32_t width = sel < 4 ? 8 : 16;
  uint32_t fm = ((1u << width) - 1) << shift;
  LOOP {
    uint32_t v = (r[l] << shift) & fm;
    if (un == 2) v |= d[l] & ~fm;
    else if (un == 1) {
      uint32_t top = (v >> (shift + width - 1)) & 1;
      if (top) v |= ~((1u << (shift + width)) - 1);
    }
    d[l] = v;
  }
}

static void write_mask(tks_wave *w, const tks_operand *o, uint64_t bits)
{
  if (o->kind != TKS_OPK_SGPR) return;
  if (o->n >= 2) tks_swrite64(w, o->reg, bits);
  else tks_swrite32(w, o->reg, (uint32_t)bits);
}

static inline uint64_t mask_of(const tks_wave *w, const tks_operand *o)
{
  return tks_op64(w, o);
}

/* float32 output modifiers */
static void f32_post(tks_wave *w, const tks_inst *in, uint64_t m, uint32_t *d)
{
  if (!(in->flags & TKS_F_CLAMP) && !in->omod && !w->ftz32) return;
  LOOP {
    float x = tks_u2f(d[l]);
    if (in->omod == 1) x *= 2.0f; else if (in->omod == 2) x *= 4.0f; else if (in->omod == 3) x *= 0.5f;
    if (in->flags & TKS_F_CLAMP) x = isnan(x) ? 0.0f : fminf(fmaxf(x, 0.0f), 1.0f);
    if (w->ftz32) x = ftz_f(x);
    d[l] = tks_f2u(x);
  }
}

static void f64_store(tks_wave *w, const tks_inst *in, uint64_t m, const double *r)
{
  uint32_t *lo = w->v[in->dst[0].reg], *hi = w->v[(in->dst[0].reg + 1) & (TKS_NVGPR - 1)];
  LOOP {
    double x = r[l];
    if (in->omod == 1) x *= 2.0; else if (in->omod == 2) x *= 4.0; else if (in->omod == 3) x *= 0.5;
    if (in->flags & TKS_F_CLAMP) x = isnan(x) ? 0.0 : fmin(fmax(x, 0.0), 1.0);
    if (w->ftz16) x = ftz_d(x);
    uint64_t u = tks_d2u(x);
    lo[l] = (uint32_t)u; hi[l] = (uint32_t)(u >> 32);
  }
}

static inline void h_store(tks_wave *w, const tks_inst *in, uint32_t *d, int l, float x)
{
  if (in->flags & TKS_F_CLAMP) x = isnan(x) ? 0.0f : fminf(fmaxf(x, 0.0f), 1.0f);
  uint16_t h = tks_f2h(x);
  if ((in->flags & TKS_F_SDWA)) d[l] = h;
  else if (in->op_sel & 8) d[l] = (d[l] & 0xffffu) | ((uint32_t)h << 16);
  else d[l] = h;
}

static int fclass(double x, int is_denorm)
{
  int neg = signbit(x) != 0;
  if (isnan(x)) return 1; /* quiet NaN (signaling NaNs are not distinguished) */
  if (isinf(x)) return neg ? 2 : 9;
  if (x == 0) return neg ? 5 : 6;
  if (is_denorm) return neg ? 4 : 7;
  return neg ? 3 : 8;
}

static int fcmp(int c, double a, double b)
{
  switch (c) {
  case TKS_CMP_F: return 0;
  case TKS_CMP_LT: return a < b;
  case TKS_CMP_EQ: return a == b;
  case TKS_CMP_LE: return a <= b;
  case TKS_CMP_GT: return a > b;
  case TKS_CMP_LG: return a < b || a > b;
  case TKS_CMP_GE: return a >= b;
  case TKS_CMP_O: return !isnan(a) && !isnan(b);
  case TKS_CMP_U: return isnan(a) || isnan(b);
  case TKS_CMP_NGE: return !(a >= b);
  case TKS_CMP_NLG: return !(a < b || a > b);
  case TKS_CMP_NGT: return !(a > b);
  case TKS_CMP_NLE: return !(a <= b);
  case TKS_CMP_NEQ: return !(a == b);
  case TKS_CMP_NLT: return !(a < b);
  default: return 1;
  }
}

static int icmp(int c, int64_t a, int64_t b)
{
  switch (c) {
  case TKS_CMP_F: return 0;
  case TKS_CMP_LT: return a < b;
  case TKS_CMP_EQ: return a == b;
  case TKS_CMP_LE: return a <= b;
  case TKS_CMP_GT: return a > b;
  case TKS_CMP_LG: return a != b;
  case TKS_CMP_GE: return a >= b;
  case TKS_CMP_TRU: return 1;
  default: return -1;
  }
}

/* unsigned order is signed order with the sign bits flipped */
static int icmpu(int c, uint64_t a, uint64_t b)
{
  return icmp(c, (int64_t)(a ^ (UINT64_C(1) << 63)), (int64_t)(b ^ (UINT64_C(1) << 63)));
}

static int exec_cmp(tks_wave *w, const tks_inst *in, uint64_t m)
{
  uint64_t bits = 0;
  int t = in->sub_ty, c = in->sub;
  if (t == TKS_CT_F64 || t == TKS_CT_I64 || t == TKS_CT_U64) {
    uint64_t *a = w->tmp64[0], *b = w->tmp64[1];
    src64(w, in, 0, a, t == TKS_CT_F64);
    if (c == TKS_CMP_CLASS) { const uint32_t *bb = src32(w, in, 1); LOOP b[l] = bb[l]; }
    else src64(w, in, 1, b, t == TKS_CT_F64);
    LOOP {
      int r;
      if (c == TKS_CMP_CLASS) {
        double x = tks_u2d(a[l]);
        r = (int)((b[l] >> fclass(x, fpclassify(x) == FP_SUBNORMAL)) & 1);
        if (isnan(x)) r = (int)((b[l] >> ((a[l] >> 51) & 1 ? 1 : 0)) & 1);
      } else if (t == TKS_CT_F64) r = fcmp(c, tks_u2d(a[l]), tks_u2d(b[l]));
      else if (t == TKS_CT_I64) r = icmp(c, (int64_t)a[l], (int64_t)b[l]);
      else r = icmpu(c, a[l], b[l]);
      if (r < 0) return -1;
      if (r) bits |= 1ull << l;
    }
  } else {
    const uint32_t *a, *b;
    if (t == TKS_CT_F32) { a = fsrc32(w, in, 0); b = c == TKS_CMP_CLASS ? src32(w, in, 1) : fsrc32(w, in, 1); }
    else if (t == TKS_CT_F16) { a = hsrc(w, in, 0); b = c == TKS_CMP_CLASS ? src32(w, in, 1) : hsrc(w, in, 1); }
    else { a = src32(w, in, 0); b = src32(w, in, 1); }
    LOOP {
      int r;
      if (c == TKS_CMP_CLASS) {
        if (t == TKS_CT_F32) {
          float x = tks_u2f(a[l]);
          r = (int)((b[l] >> fclass(x, fpclassify(x) == FP_SUBNORMAL)) & 1);
          if (isnan(x)) r = (int)((b[l] >> ((a[l] >> 22) & 1 ? 1 : 0)) & 1);
        } else {
          float x = tks_h2f((uint16_t)a[l]);
          r = (int)((b[l] >> fclass(x, (a[l] & 0x7c00) == 0 && (a[l] & 0x3ff))) & 1);
          if (isnan(x)) r = (int)((b[l] >> ((a[l] >> 9) & 1 ? 1 : 0)) & 1);
        }
      } else if (t == TKS_CT_F32) r = fcmp(c, tks_u2f(a[l]), tks_u2f(b[l]));
      else if (t == TKS_CT_F16) r = fcmp(c, tks_h2f((uint16_t)a[l]), tks_h2f((uint16_t)b[l]));
      else if (t == TKS_CT_I32) r = icmp(c, (int32_t)a[l], (int32_t)b[l]);
      else if (t == TKS_CT_U32) r = icmpu(c, a[l], b[l]);
      else if (t == TKS_CT_I16) r = icmp(c, (int16_t)a[l], (int16_t)b[l]);
      else r = icmpu(c, a[l] & 0xffff, b[l] & 0xffff);
      if (r < 0) return -1;
      if (r) bits |= 1ull << l;
    }
  }
  if (in->flags & TKS_F_SDWA) {
    /* VOPC SDWA: the text names the mask destination like e64 */
  }
  write_mask(w, &in->dst[0], bits);
  if (in->cmpx) tks_set_exec(w, bits);
  return 0;
}

static float fract_f(float x)
{
  if (isinf(x)) return NAN;
  float r = x - floorf(x);
  return fminf(r, 0x1.fffffep-1f);
}

static uint32_t cvt_f32_i32(float x)
{
  if (isnan(x)) return 0;
  if (x >= 2147483647.0f) return 0x7fffffff;
  if (x <= -2147483648.0f) return 0x80000000u;
  return (uint32_t)(int32_t)x;
}

static uint32_t cvt_f32_u32(float x)
{
  if (isnan(x) || x <= 0) return 0;
  if (x >= 4294967295.0f) return 0xffffffffu;
  return (uint32_t)x;
}

static uint16_t f2h_rtz(float x)
{
  uint16_t h = tks_f2h(x);
  if (isnan(x)) return h;
  if (isinf(x)) return h;
  float back = tks_h2f(h);
  if (fabsf(back) > fabsf(x)) h = (uint16_t)(h - 1);
  return h;
}

/* ---- fp8 / bf8 (FNUZ, as on gfx942): NaN is 0x80, no infinities, no -0 */
static float fp8_to_f32(uint32_t b, int bf8)
{
  b &= 0xff;
  if (b == 0x80) return NAN;
  int sign = b >> 7;
  int eb = bf8 ? 5 : 4, mb = bf8 ? 2 : 3, bias = bf8 ? 16 : 8;
  int e = (int)((b >> mb) & ((1u << eb) - 1)), mant = (int)(b & ((1u << mb) - 1));
  float v;
  if (e == 0) v = ldexpf((float)mant, 1 - bias - mb);
  else v = ldexpf(1.0f + (float)mant / (float)(1 << mb), e - bias);
  return sign ? -v : v;
}

static uint32_t f32_to_fp8(float x, int bf8, int sat)
{
  if (isnan(x)) return 0x80;
  int mb = bf8 ? 2 : 3, bias = bf8 ? 16 : 8;
  float maxv = bf8 ? 57344.0f : 240.0f;
  uint32_t sign = signbit(x) ? 0x80 : 0;
  float a = fabsf(x);
  if (isinf(x)) return sat ? (sign | (bf8 ? 0x7f : 0x7f)) : 0x80;
  /* round to nearest even on the fp8 grid */
  int e;
  frexpf(a, &e);           /* a = f * 2^e, f in [0.5,1) -> exponent of leading bit is e-1 */
  int lead = e - 1;
  int minexp = 1 - bias;
  if (lead < minexp) lead = minexp;
  float q = ldexpf(1.0f, lead - mb);
  float r = rintf(a / q) * q;
  if (r > maxv) return sat ? (sign | 0x7f) : 0x80;
  if (r == 0) return 0; /* no negative zero */
  int re;
  frexpf(r, &re);
  int rl = re - 1;
  uint32_t code;
  if (rl < minexp) code = (uint32_t)(r / ldexpf(1.0f, minexp - mb));
  else {
    uint32_t ebits = (uint32_t)(rl + bias);
    uint32_t mant = (uint32_t)((r / ldexpf(1.0f, rl) - 1.0f) * (float)(1 << mb) + 0.5f);
    code = (ebits << mb) | mant;
  }
  return sign | code;
}

/* ---- fp8 / bf8 OCP (gfx950; OCP 8-bit floating point spec, CDNA4 ISA
 * guide): E4M3FN bias 7, max 448, no inf, S.1111.111 NaN; E5M2 bias 15, max
 * 57344, S.11111.00 inf, other S.11111.xx NaN; -0 exists. Conversion from f32:
 * round to nearest even; beyond the largest finite after rounding (and inf):
 * NaN (E4M3) / inf (E5M2), or the largest finite with clamp (saturation).
 * NaN in -> 0x7f (assumed: the guide does not print the NaN code; the OCP
 * spec leaves it open; tk's host reference tk_f32_to_ocp_e4m3_ref agrees). */
static float ocp8_to_f32(uint32_t b, int bf8)
{
  b &= 0xff;
  int sign = b >> 7;
  int eb = bf8 ? 5 : 4, mb = bf8 ? 2 : 3, bias = bf8 ? 15 : 7;
  int e = (int)((b >> mb) & ((1u << eb) - 1)), mant = (int)(b & ((1u << mb) - 1));
  float v;
  if (!bf8 && e == 15 && mant == 7) return NAN;
  if (bf8 && e == 31) v = mant ? NAN : INFINITY;
  else if (e == 0) v = ldexpf((float)mant, 1 - bias - mb);
  else v = ldexpf(1.0f + (float)mant / (float)(1 << mb), e - bias);
  return sign ? -v : v;
}

static uint32_t f32_to_ocp8(float x, int bf8, int sat)
{
  if (isnan(x)) return 0x7f;
  int mb = bf8 ? 2 : 3, bias = bf8 ? 15 : 7;
  float maxv = bf8 ? 57344.0f : 448.0f;
  uint32_t sign = signbit(x) ? 0x80 : 0;
  uint32_t big = sat ? (bf8 ? 0x7b : 0x7e) : (bf8 ? 0x7c : 0x7f); /* max finite / inf / NaN */
  float a = fabsf(x);
  if (isinf(x)) return sign | big;
  int e;
  frexpf(a, &e);
  int lead = e - 1, minexp = 1 - bias;
  if (lead < minexp) lead = minexp;
  float q = ldexpf(1.0f, lead - mb);
  float r = rintf(a / q) * q;
  if (r > maxv) return sign | big;
  if (r == 0) return sign;
  int re;
  frexpf(r, &re);
  int rl = re - 1;
  uint32_t code;
  if (rl < minexp) code = (uint32_t)(r / ldexpf(1.0f, minexp - mb));
  else code = ((uint32_t)(rl + bias) << mb) | (uint32_t)((r / ldexpf(1.0f, rl) - 1.0f) * (float)(1 << mb) + 0.5f);
  return sign | code;
}
/* the target's fp8 formats: FNUZ on gfx942, OCP on gfx950 */
static inline float f8_to_f32(uint32_t b, int bf8, int ocp) { return ocp ? ocp8_to_f32(b, bf8) : fp8_to_f32(b, bf8); }
static inline uint32_t f32_to_f8(float x, int bf8, int sat, int ocp) { return ocp ? f32_to_ocp8(x, bf8, sat) : f32_to_fp8(x, bf8, sat); }

static inline float bf16f(uint32_t x) { return tks_u2f(x << 16); }
/* f32 -> bf16, round to nearest even; NaN stays NaN (quiet bit set) */
static inline uint32_t f2bf_rne(uint32_t u)
{
  if ((u & 0x7fffffffu) > 0x7f800000u) return (u >> 16) | 0x40u;
  return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}

/* ---- 2/pi to 1201 bits for v_trig_preop_f64, computed once: pi by Machin's
 * formula (16 atan(1/5) - 4 atan(1/239)) in 1600-bit fixed point, then 2/pi by
 * binary long division. */
#define TP_WORDS 50 /* word 0: integer part, then 49 x 32 fraction bits */
static uint8_t two_over_pi_bits[1201]; /* [0] is the 2^-1 bit */
static int tp_ready;
static pthread_once_t tp_once = PTHREAD_ONCE_INIT;

static void bn_div_small(uint32_t *a, uint32_t d)
{
  uint64_t r = 0;
  for (int i = 0; i < TP_WORDS; i++) { uint64_t cur = (r << 32) | a[i]; a[i] = (uint32_t)(cur / d); r = cur % d; }
}
static void bn_add(uint32_t *a, const uint32_t *b)
{
  uint64_t c = 0;
  for (int i = TP_WORDS - 1; i >= 0; i--) { uint64_t s = (uint64_t)a[i] + b[i] + c; a[i] = (uint32_t)s; c = s >> 32; }
}
static void bn_sub(uint32_t *a, const uint32_t *b)
{
  int64_t br = 0;
  for (int i = TP_WORDS - 1; i >= 0; i--) { int64_t s = (int64_t)a[i] - b[i] - br; br = s < 0; a[i] = (uint32_t)(s + (br ? (1ll << 32) : 0)); }
}
static int bn_zero(const uint32_t *a) { for (int i = 0; i < TP_WORDS; i++) if (a[i]) return 0; return 1; }
static int bn_cmp(const uint32_t *a, const uint32_t *b)
{
  for (int i = 0; i < TP_WORDS; i++) if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}
static void bn_atan_inv(uint32_t *sum, uint32_t x, uint32_t mul)
{
  /* sum = mul * atan(1/x) */
  uint32_t term[TP_WORDS], t[TP_WORDS];
  memset(sum, 0, TP_WORDS * 4);
  memset(term, 0, sizeof term);
  term[0] = mul;
  bn_div_small(term, x);
  for (uint32_t k = 0; !bn_zero(term); k++) {
    memcpy(t, term, sizeof t);
    bn_div_small(t, 2 * k + 1);
    if (k & 1) bn_sub(sum, t); else bn_add(sum, t);
    bn_div_small(term, x);
    bn_div_small(term, x);
  }
}
static void tp_init(void)
{
  uint32_t pi[TP_WORDS], b[TP_WORDS], r[TP_WORDS];
  bn_atan_inv(pi, 5, 16);
  bn_atan_inv(b, 239, 4);
  bn_sub(pi, b);
  memset(r, 0, sizeof r);
  r[0] = 2;
  for (int i = 0; i < 1201; i++) {
    bn_add(r, r); /* r *= 2 */
    if (bn_cmp(r, pi) >= 0) { bn_sub(r, pi); two_over_pi_bits[i] = 1; }
  }
  __atomic_store_n(&tp_ready, 1, __ATOMIC_RELEASE);
}

/* V_TRIG_PREOP_F64 (CDNA3 ISA guide): the 53-bit segment of 2/pi starting
 * shift = 53*S1[4:0] (+ exponent(S0) - 1077 when that exponent exceeds 1077)
 * bits after the binary point, truncated, scaled by 2^(-53-shift) (2^128 more
 * for exponents >= 1968). */
static double trig_preop(double x, uint32_t seg)
{
  if (!__atomic_load_n(&tp_ready, __ATOMIC_ACQUIRE)) pthread_once(&tp_once, tp_init);
  uint64_t u = tks_d2u(x);
  int e = (int)((u >> 52) & 0x7ff);
  int shift = (int)(seg & 31) * 53;
  if (e > 1077) shift += e - 1077;
  uint64_t m = 0;
  for (int i = 0; i < 53; i++) {
    int pos = shift + i;
    m = (m << 1) | (pos < 1201 ? two_over_pi_bits[pos] : 0);
  }
  int scale = -53 - shift;
  if (e >= 1968) scale += 128;
  return ldexp((double)m, scale);
}

/* f16 MAD (v_mad_f16, v_mac_f16, v_madmk/madak_f16): the product rounded
 * to f16, then the sum rounded once (f16 + f16 is exact in double) */
static inline float mad_f16(float x, float y, float z)
{
  _Float16 p = (_Float16)(x * y); /* f16 x f16 is exact in f32 */
  _Float16 r = (_Float16)((double)p + (double)z);
  return (float)r;
}

static inline float fma_f16(float x, float y, float z)
{
  _Float16 r = (_Float16)((double)x * y + z); /* exact product and sum in double */
  return (float)r;
}

/* a 16-bit result into the low half (high half zeroed), or the high half
 * with op_sel[3] (low half kept), as h_store does for f16 results */
static inline void b16_store(const tks_inst *in, uint32_t *d, int l, uint32_t v)
{
  if (in->op_sel & 8) d[l] = (d[l] & 0xffffu) | (v << 16);
  else d[l] = v & 0xffffu;
}

static inline uint32_t norm16(float x, int u)
{
  if (isnan(x)) x = 0;
  int32_t v = u ? (int32_t)rintf(fminf(fmaxf(x, 0.0f), 1.0f) * 65535.0f) : (int32_t)rintf(fminf(fmaxf(x, -1.0f), 1.0f) * 32767.0f);
  return (uint32_t)v & 0xffff;
}

/* cube-map face selection (OpenGL's cube map table; LLVM's AMDGPU folding of
 * llvm.amdgcn.cube*): the major axis is z if |z| >= |x|,|y|, else y if
 * |y| >= |x|, else x; id = 2*axis + (negative); ma = 2 * major value */
static inline float cube_op(int op, float x, float y, float z)
{
  float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), id, sc, tc, ma;
  if (az >= ax && az >= ay) { id = z < 0 ? 5.0f : 4.0f; sc = z < 0 ? -x : x; tc = -y; ma = 2.0f * z; }
  else if (ay >= ax) { id = y < 0 ? 3.0f : 2.0f; sc = x; tc = y < 0 ? -z : z; ma = 2.0f * y; }
  else { id = x < 0 ? 1.0f : 0.0f; sc = x < 0 ? z : -z; tc = -y; ma = 2.0f * x; }
  switch (op) {
  case TKS_OP_V_CUBEID_F32: return id;
  case TKS_OP_V_CUBESC_F32: return sc;
  case TKS_OP_V_CUBETC_F32: return tc;
  default: return ma;
  }
}

/* stochastic rounding to a narrower float: the random bits are added below
 * the kept mantissa bits, then truncated (CDNA4 ISA guide, V_CVT_SR_*);
 * drop = f32 mantissa bits the target lacks */
static inline float sr_round(float x, uint32_t rnd, int drop)
{
  if (isnan(x) || isinf(x)) return x;
  uint32_t u = tks_f2u(x), mk = (1u << drop) - 1;
  u = (u + (rnd & mk)) & ~mk;
  return tks_u2f(u);
}

/* ---- gfx950 v_cvt_scalef32_* (MX conversions). Formats: OCP fp8 E4M3 /
 * bf8 E5M2 (f32_to_ocp8 above), fp6 E2M3 (bias 1, max 7.5), bf6 E3M2 (bias
 * 3, max 28), fp4 E2M1 (bias 1, max 6), f16, bf16, f32 (OCP MX spec 1.0).
 * Up-conversions: value x 2^(scale exponent - 127); down-conversions:
 * value / 2^(...) then round to nearest even (or stochastically: the
 * lane's seed bits below the kept mantissa are added, then cut off), fp6 and
 * fp4 saturating at their largest magnitude (they have no inf/NaN; NaN in
 * gives 0 (ASSUMPTION)). Element order: lowest bits first; 32 fp6 values are
 * one 192-bit little-endian bit stream over 6 VGPRs. */
enum { SF_F32, SF_F16, SF_BF16, SF_FP8, SF_BF8, SF_FP4, SF_FP6, SF_BF6 };
enum { SFK_UP1, SFK_UPPK, SFK_UP32, SFK_DNPK, SFK_DNSR, SFK_DN4, SFK_DN4SR, SFK_DN32, SFK_DN32SR };
static const struct { uint8_t kind, sf, df; } sf_tab[] = {
  /* f32_fp8 .. pk32_bf16_bf6 */
  {SFK_UP1, SF_FP8, SF_F32}, {SFK_UP1, SF_BF8, SF_F32}, {SFK_UP1, SF_FP8, SF_F16}, {SFK_UP1, SF_BF8, SF_F16},
  {SFK_UPPK, SF_FP8, SF_F32}, {SFK_UPPK, SF_BF8, SF_F32}, {SFK_UPPK, SF_FP8, SF_F16}, {SFK_UPPK, SF_BF8, SF_F16},
  {SFK_UPPK, SF_FP8, SF_BF16}, {SFK_UPPK, SF_BF8, SF_BF16},
  {SFK_UPPK, SF_FP4, SF_F32}, {SFK_UPPK, SF_FP4, SF_F16}, {SFK_UPPK, SF_FP4, SF_BF16},
  {SFK_UP32, SF_FP6, SF_F32}, {SFK_UP32, SF_BF6, SF_F32}, {SFK_UP32, SF_FP6, SF_F16}, {SFK_UP32, SF_BF6, SF_F16},
  {SFK_UP32, SF_FP6, SF_BF16}, {SFK_UP32, SF_BF6, SF_BF16},
  /* pk_fp8_f32 .. sr_bf8_bf16 */
  {SFK_DNPK, SF_F32, SF_FP8}, {SFK_DNPK, SF_F32, SF_BF8}, {SFK_DNPK, SF_F16, SF_FP8}, {SFK_DNPK, SF_F16, SF_BF8},
  {SFK_DNPK, SF_BF16, SF_FP8}, {SFK_DNPK, SF_BF16, SF_BF8},
  {SFK_DNSR, SF_F32, SF_FP8}, {SFK_DNSR, SF_F32, SF_BF8}, {SFK_DNSR, SF_F16, SF_FP8}, {SFK_DNSR, SF_F16, SF_BF8},
  {SFK_DNSR, SF_BF16, SF_FP8}, {SFK_DNSR, SF_BF16, SF_BF8},
  /* pk_fp4_f32 .. sr_pk_fp4_bf16 */
  {SFK_DN4, SF_F32, SF_FP4}, {SFK_DN4, SF_F16, SF_FP4}, {SFK_DN4, SF_BF16, SF_FP4},
  {SFK_DN4SR, SF_F32, SF_FP4}, {SFK_DN4SR, SF_F16, SF_FP4}, {SFK_DN4SR, SF_BF16, SF_FP4},
  /* 2xpk16_fp6_f32 .. sr_pk32_bf6_bf16 */
  {SFK_DN32, SF_F32, SF_FP6}, {SFK_DN32, SF_F32, SF_BF6}, {SFK_DN32, SF_F16, SF_FP6}, {SFK_DN32, SF_BF16, SF_FP6},
  {SFK_DN32, SF_F16, SF_BF6}, {SFK_DN32, SF_BF16, SF_BF6},
  {SFK_DN32SR, SF_F32, SF_FP6}, {SFK_DN32SR, SF_F32, SF_BF6}, {SFK_DN32SR, SF_F16, SF_FP6}, {SFK_DN32SR, SF_BF16, SF_FP6},
  {SFK_DN32SR, SF_F16, SF_BF6}, {SFK_DN32SR, SF_BF16, SF_BF6},
};

static inline void sf_params(int f, int *mb, int *bias, float *maxv)
{
  switch (f) {
  case SF_FP4: *mb = 1; *bias = 1; *maxv = 6.0f; break;
  case SF_FP6: *mb = 3; *bias = 1; *maxv = 7.5f; break;
  default: *mb = 2; *bias = 3; *maxv = 28.0f; break; /* SF_BF6 */
  }
}

static inline int sf_bits(int f) { return f == SF_FP4 ? 4 : (f == SF_FP6 || f == SF_BF6) ? 6 : 8; }

static float sf_decode(uint32_t b, int f)
{
  if (f == SF_FP8 || f == SF_BF8) return ocp8_to_f32(b, f == SF_BF8);
  int mb, bias; float maxv;
  sf_params(f, &mb, &bias, &maxv);
  int nb = sf_bits(f), eb = nb - 1 - mb;
  b &= (1u << nb) - 1;
  int e = (int)((b >> mb) & ((1u << eb) - 1)), mant = (int)(b & ((1u << mb) - 1));
  float v = e == 0 ? ldexpf((float)mant, 1 - bias - mb) : ldexpf(1.0f + (float)mant / (float)(1 << mb), e - bias);
  return (b >> (nb - 1)) ? -v : v;
}

/* f32 bits to drop below the target's quantum at |x| (stochastic rounding) */
static int sf_drop(float x, int mb, int bias)
{
  int e;
  frexpf(fabsf(x), &e);
  int lead = e - 1, minexp = 1 - bias, d = 23 - mb;
  if (lead < minexp) d += minexp - lead;
  return d > 24 ? 24 : d;
}

static uint32_t sf_encode(float x, int f, int sat, uint32_t seed, int sr)
{
  int mb, bias; float maxv;
  if (f == SF_FP8 || f == SF_BF8) {
    if (sr && !isnan(x) && !isinf(x)) x = sr_round(x, seed, sf_drop(x, f == SF_BF8 ? 2 : 3, f == SF_BF8 ? 15 : 7));
    return f32_to_ocp8(x, f == SF_BF8, sat);
  }
  sf_params(f, &mb, &bias, &maxv);
  int nb = sf_bits(f);
  uint32_t sign = signbit(x) ? 1u << (nb - 1) : 0;
  if (isnan(x)) return 0;
  float a = fabsf(x);
  if (sr && !isinf(a)) a = sr_round(a, seed, sf_drop(a, mb, bias));
  uint32_t maxcode = (1u << (nb - 1)) - 1;
  if (a >= maxv) return sign | maxcode;
  int e;
  frexpf(a, &e);
  int lead = e - 1, minexp = 1 - bias;
  if (lead < minexp) lead = minexp;
  float q = ldexpf(1.0f, lead - mb);
  float r = rintf(a / q) * q;
  if (r >= maxv) return sign | maxcode;
  if (r == 0) return sign;
  frexpf(r, &e);
  int rl = e - 1;
  uint32_t code;
  if (rl < minexp) code = (uint32_t)(r / ldexpf(1.0f, minexp - mb));
  else code = ((uint32_t)(rl + bias) << mb) | (uint32_t)((r / ldexpf(1.0f, rl) - 1.0f) * (float)(1 << mb) + 0.5f);
  return sign | code;
}

/* a 16-bit float source half (f16 or bf16) */
static inline float sf_half(uint32_t v, int f) { return f == SF_BF16 ? tks_u2f((v & 0xffff) << 16) : tks_h2f((uint16_t)v); }
/* an up-converted value into a 16-bit target */
static inline uint32_t sf_to16(float x, int f) { return f == SF_BF16 ? f2bf_rne(tks_f2u(x)) & 0xffff : tks_f2h(x); }

static int exec_scalef32(tks_wave *w, const tks_inst *in, uint64_t m)
{
  const int idx = in->op - TKS_OP_V_CVT_SCALEF32_F32_FP8;
  const int kind = sf_tab[idx].kind, sf = sf_tab[idx].sf, df = sf_tab[idx].df;
  if (in->ndst < 1 || in->dst[0].kind != TKS_OPK_VGPR || in->nsrc < 2) return -1;
  const tks_operand *sc_op = &in->src[in->nsrc - 1];
  const int sat = (in->flags & TKS_F_CLAMP) != 0;
  const uint32_t d = in->dst[0].reg, sel = in->op_sel;
  const uint32_t *src0 = src32(w, in, 0);
  const uint32_t *src1 = in->nsrc > 2 ? src32(w, in, 1) : NULL;
  const uint32_t s0reg = in->src[0].reg, s1reg = in->src[1].reg;
  const int s0v = in->src[0].kind == TKS_OPK_VGPR, s1v = in->src[1].kind == TKS_OPK_VGPR;
  if ((kind == SFK_UP32 || kind == SFK_DN32 || kind == SFK_DN32SR || (kind == SFK_DN4SR && sf == SF_F32)) && !s0v) return -1;
  if (kind == SFK_DN32 && sf == SF_F32 && !s1v) return -1;
  const uint32_t *scl = src32(w, in, in->nsrc - 1); /* the scale: the last source */
  (void)sc_op;
  LOOP {
    const int se = (int)((scl[l] >> 23) & 0xff) - 127;
    const float up = ldexpf(1.0f, se), dn = ldexpf(1.0f, -se);
    uint32_t x = src0[l];
    switch (kind) {
    case SFK_UP1: {
      float v = sf_decode(x >> (8 * (sel & 3)), sf) * up;
      if (df == SF_F32) w->v[d][l] = tks_f2u(v);
      else { uint32_t h = tks_f2h(v); w->v[d][l] = (sel & 8) ? (w->v[d][l] & 0xffffu) | (h << 16) : (w->v[d][l] & 0xffff0000u) | h; }
      break;
    }
    case SFK_UPPK: {
      float v0, v1;
      if (sf == SF_FP4) { uint32_t b = x >> (8 * (sel & 3)); v0 = sf_decode(b, SF_FP4) * up; v1 = sf_decode(b >> 4, SF_FP4) * up; }
      else { uint32_t hw = x >> (16 * (sel & 1)); v0 = sf_decode(hw, sf) * up; v1 = sf_decode(hw >> 8, sf) * up; }
      if (df == SF_F32) { w->v[d][l] = tks_f2u(v0); w->v[(d + 1) & (TKS_NVGPR - 1)][l] = tks_f2u(v1); }
      else w->v[d][l] = sf_to16(v0, df) | (sf_to16(v1, df) << 16);
      break;
    }
    case SFK_UP32: {
      uint32_t bits[6];
      for (int r = 0; r < 6; r++) bits[r] = w->v[(s0reg + r) & (TKS_NVGPR - 1)][l];
      for (int i = 0; i < 32; i++) {
        int bp = 6 * i;
        uint64_t word = (uint64_t)bits[bp / 32] | (bp / 32 + 1 < 6 ? (uint64_t)bits[bp / 32 + 1] << 32 : 0);
        float v = sf_decode((uint32_t)(word >> (bp % 32)), sf) * up;
        if (df == SF_F32) w->v[(d + i) & (TKS_NVGPR - 1)][l] = tks_f2u(v);
        else {
          uint32_t *r = &w->v[(d + i / 2) & (TKS_NVGPR - 1)][l], h = sf_to16(v, df);
          *r = (i & 1) ? (*r & 0xffffu) | (h << 16) : (*r & 0xffff0000u) | h;
        }
      }
      break;
    }
    case SFK_DNPK: {
      float a = sf == SF_F32 ? tks_u2f(x) : sf_half(x, sf), b = sf == SF_F32 ? tks_u2f(src1[l]) : sf_half(x >> 16, sf);
      uint32_t p = sf_encode(a * dn, df, sat, 0, 0) | (sf_encode(b * dn, df, sat, 0, 0) << 8);
      w->v[d][l] = (sel & 8) ? (w->v[d][l] & 0xffffu) | (p << 16) : (w->v[d][l] & 0xffff0000u) | p;
      break;
    }
    case SFK_DNSR: {
      float a = sf == SF_F32 ? tks_u2f(x) : sf_half(x >> (16 * (sel & 1)), sf);
      uint32_t sh = 8 * ((sel >> 2) & 3), p = sf_encode(a * dn, df, sat, src1[l], 1);
      w->v[d][l] = (w->v[d][l] & ~(0xffu << sh)) | (p << sh);
      break;
    }
    case SFK_DN4: case SFK_DN4SR: {
      const int sr = kind == SFK_DN4SR;
      float a, b;
      if (sf == SF_F32 && !sr) { a = tks_u2f(x); b = tks_u2f(src1[l]); }
      else if (sf == SF_F32) { a = tks_u2f(w->v[s0reg][l]); b = tks_u2f(w->v[(s0reg + 1) & (TKS_NVGPR - 1)][l]); }
      else { a = sf_half(x, sf); b = sf_half(x >> 16, sf); }
      uint32_t seed = sr ? src1[l] : 0;
      uint32_t p = sf_encode(a * dn, SF_FP4, 1, seed, sr) | (sf_encode(b * dn, SF_FP4, 1, seed, sr) << 4);
      uint32_t sh = 8 * ((sel >> 2) & 3);
      w->v[d][l] = (w->v[d][l] & ~(0xffu << sh)) | (p << sh);
      break;
    }
    default: { /* SFK_DN32 / SFK_DN32SR: 32 values -> 6 VGPRs of fp6/bf6 */
      const int sr = kind == SFK_DN32SR;
      uint32_t out[7] = {0};
      for (int i = 0; i < 32; i++) {
        float v;
        if (sf == SF_F32) {
          if (sr) v = tks_u2f(w->v[(s0reg + i) & (TKS_NVGPR - 1)][l]);
          else v = tks_u2f(w->v[((i < 16 ? s0reg : s1reg) + (i & 15)) & (TKS_NVGPR - 1)][l]);
        } else v = sf_half(w->v[(s0reg + i / 2) & (TKS_NVGPR - 1)][l] >> (16 * (i & 1)), sf);
        uint64_t c = sf_encode(v * dn, df, 1, sr ? src1[l] : 0, sr);
        int bp = 6 * i;
        out[bp / 32] |= (uint32_t)(c << (bp % 32));
        if (bp % 32 > 26) out[bp / 32 + 1] |= (uint32_t)(c >> (32 - bp % 32));
      }
      for (int r = 0; r < 6; r++) w->v[(d + r) & (TKS_NVGPR - 1)][l] = out[r];
      break;
    }
    }
  }
  return 0;
}

int tks_exec_valu(tks_wave *w, const tks_inst *in)
{
  uint64_t m = tks_exec_mask(w);
  if ((in->flags & TKS_F_DPP) && dpp_setup(w, in, &m)) return -1;
  const int ftz = w->ftz32;
  (void)ftz;
  const int gfx950 = w->c->k->co && w->c->k->co->arch == TKS_ARCH_GFX950;
  switch (in->op) {
  case TKS_OP_V_CVT_PK_BF16_F32: case TKS_OP_V_CVT_PK_F16_F32: case TKS_OP_V_CVT_F32_BF16:
  case TKS_OP_V_MAXIMUM3_F32: case TKS_OP_V_MINIMUM3_F32:
  case TKS_OP_V_PK_MAXIMUM3_F16: case TKS_OP_V_PK_MINIMUM3_F16: case TKS_OP_V_ASHR_PK_I8_I32:
  case TKS_OP_V_ASHR_PK_U8_I32: case TKS_OP_V_CVT_SR_BF16_F32: case TKS_OP_V_CVT_SR_F16_F32:
    if (!gfx950) return -1;
    break;
  default: break;
  }
  if (in->op >= TKS_OP_V_CVT_SCALEF32_F32_FP8 && in->op <= TKS_OP_V_CVT_SCALEF32_SR_PK32_BF6_BF16)
    return gfx950 ? exec_scalef32(w, in, m) : -1;
  switch (in->op) {
  case TKS_OP_V_NOP: return 0;
  case TKS_OP_V_CMP: return exec_cmp(w, in, m);
  case TKS_OP_V_CVT_PK_BF16_F32: {
    const uint32_t *a = fsrc32(w, in, 0), *b = fsrc32(w, in, 1);
    uint32_t *D = dst32(w, in);
    LOOP D[l] = f2bf_rne(a[l]) | (f2bf_rne(b[l]) << 16);
    sdwa_finish(w, in, m);
    return 0;
  }
  case TKS_OP_V_CVT_PK_F16_F32: {
    const uint32_t *a = fsrc32(w, in, 0), *b = fsrc32(w, in, 1);
    uint32_t *D = dst32(w, in);
    LOOP D[l] = (uint32_t)tks_f2h(tks_u2f(a[l])) | ((uint32_t)tks_f2h(tks_u2f(b[l])) << 16);
    sdwa_finish(w, in, m);
    return 0;
  }
  /* gfx950 v_bitop3_b32/_b16: any 3-input bitwise function, its truth table
   * (bitop3:TT, kept in offset) indexed by (a << 2 | b << 1 | c) per bit,
   * LLVM's convention (TT = f(0xf0, 0xcc, 0xaa)); b16: op_sel picks the
   * source halves and the destination half (the other half is kept) */
  case TKS_OP_V_BITOP3_B32: case TKS_OP_V_BITOP3_B16: {
    if (!gfx950 || in->ndst < 1 || in->dst[0].kind != TKS_OPK_VGPR) return -1;
    const uint32_t *a = src32(w, in, 0), *b = src32(w, in, 1), *c = src32(w, in, 2);
    uint32_t *D = w->v[in->dst[0].reg];
    const uint32_t tt = (uint32_t)in->offset & 0xff;
    const int b16 = in->op == TKS_OP_V_BITOP3_B16;
    LOOP {
      uint32_t x = a[l], y = b[l], z = c[l];
      if (b16) {
        x = (in->op_sel & 1) ? x >> 16 : x;
        y = (in->op_sel & 2) ? y >> 16 : y;
        z = (in->op_sel & 4) ? z >> 16 : z;
      }
      uint32_t r = 0;
      for (int t = 0; t < 8; t++)
        if (tt >> t & 1) {
          uint32_t mx = (t & 4) ? x : ~x, my = (t & 2) ? y : ~y, mz = (t & 1) ? z : ~z;
          r |= mx & my & mz;
        }
      if (!b16) D[l] = r;
      else if (in->op_sel & 8) D[l] = (D[l] & 0xffffu) | (r << 16);
      else D[l] = (D[l] & 0xffff0000u) | (r & 0xffffu);
    }
    return 0;
  }
  /* gfx950 v_permlane32_swap_b32 vdst, vsrc: lanes 32-63 of vdst trade
   * places with lanes 0-31 of vsrc; v_permlane16_swap_b32: the odd 16-lane
   * rows of vdst with the even rows of vsrc (LLVM AMDGPU intrinsics
   * llvm.amdgcn.permlane{16,32}_swap). Both registers are written. A pair
   * swaps when both of its lanes are in EXEC (ASSUMPTION: the ISA text for
   * partial EXEC is not at hand; compilers issue it with full EXEC). */
  case TKS_OP_V_PERMLANE32_SWAP_B32: case TKS_OP_V_PERMLANE16_SWAP_B32: {
    if (!gfx950 || in->ndst < 1 || in->dst[0].kind != TKS_OPK_VGPR || in->src[0].kind != TKS_OPK_VGPR) return -1;
    uint32_t *D = w->v[in->dst[0].reg], *S = w->v[in->src[0].reg];
    const int r32 = in->op == TKS_OP_V_PERMLANE32_SWAP_B32;
    for (int i = 0; i < 32; i++) {
      const int sl = r32 ? i : (i & 15) | ((i & 16) << 1);  /* vsrc lane: rows 0-1, or rows 0 and 2 */
      const int dl = r32 ? i + 32 : sl + 16;                 /* vdst lane: rows 2-3, or rows 1 and 3 */
      if (!(m >> sl & 1) || !(m >> dl & 1)) continue;
      const uint32_t t = D[dl];
      D[dl] = S[sl];
      S[sl] = t;
    }
    return 0;
  }
  case TKS_OP_V_READFIRSTLANE_B32: {
    uint64_t e = tks_exec_mask(w);
    int l = e ? __builtin_ctzll(e) : 0;
    const tks_operand *o = &in->src[0];
    uint32_t v = o->kind == TKS_OPK_VGPR ? w->v[o->reg][l] : tks_op32(w, o);
    tks_swrite32(w, in->dst[0].reg, v);
    return 0;
  }
  case TKS_OP_V_READLANE_B32: {
    uint32_t l = tks_op32(w, &in->src[1]) & 63;
    const tks_operand *o = &in->src[0];
    tks_swrite32(w, in->dst[0].reg, o->kind == TKS_OPK_VGPR ? w->v[o->reg][l] : tks_op32(w, o));
    return 0;
  }
  case TKS_OP_V_WRITELANE_B32: {
    uint32_t l = tks_op32(w, &in->src[1]) & 63;
    w->v[in->dst[0].reg][l] = tks_op32(w, &in->src[0]);
    return 0;
  }
  default: break;
  }

  const tks_operand *d0 = &in->dst[0];
  if (in->ndst >= 1 && d0->kind != TKS_OPK_VGPR) return -1;

#define U(i) src32(w, in, i)
#define IBIN(expr) { const uint32_t *a = U(0), *b = U(1); uint32_t *D = dst32(w, in); LOOP { uint32_t x = a[l], y = b[l]; D[l] = (expr); } } break;
#define ITRI(expr) { const uint32_t *a = U(0), *b = U(1), *c = U(2); uint32_t *D = dst32(w, in); LOOP { uint32_t x = a[l], y = b[l], z = c[l]; D[l] = (expr); } } break;
#define IUN(expr) { const uint32_t *a = U(0); uint32_t *D = dst32(w, in); LOOP { uint32_t x = a[l]; D[l] = (expr); } } break;
#define FUN(expr) { const uint32_t *a = fsrc32(w, in, 0); uint32_t *D = dst32(w, in); LOOP { float x = tks_u2f(a[l]); D[l] = tks_f2u(expr); } f32_post(w, in, m, D); } break;
#define FBIN(expr) { const uint32_t *a = fsrc32(w, in, 0), *b = fsrc32(w, in, 1); uint32_t *D = dst32(w, in); LOOP { float x = tks_u2f(a[l]), y = tks_u2f(b[l]); D[l] = tks_f2u(expr); } f32_post(w, in, m, D); } break;
#define FTRI(expr) { const uint32_t *a = fsrc32(w, in, 0), *b = fsrc32(w, in, 1), *c = fsrc32(w, in, 2); uint32_t *D = dst32(w, in); LOOP { float x = tks_u2f(a[l]), y = tks_u2f(b[l]), z = tks_u2f(c[l]); (void)x; D[l] = tks_f2u(expr); } f32_post(w, in, m, D); } break;
#define F2I(expr) { const uint32_t *a = fsrc32(w, in, 0); uint32_t *D = dst32(w, in); LOOP { float x = tks_u2f(a[l]); D[l] = (expr); } } break;
#define DUN(expr) { uint64_t *A = w->tmp64[0]; double *R = (double *)w->tmp64[3]; src64(w, in, 0, A, 1); LOOP { double x = tks_u2d(A[l]); R[l] = (expr); } f64_store(w, in, m, R); } break;
#define DBIN(expr) { uint64_t *A = w->tmp64[0], *B = w->tmp64[1]; double *R = (double *)w->tmp64[3]; src64(w, in, 0, A, 1); src64(w, in, 1, B, 1); LOOP { double x = tks_u2d(A[l]), y = tks_u2d(B[l]); R[l] = (expr); } f64_store(w, in, m, R); } break;
#define DTRI(expr) { uint64_t *A = w->tmp64[0], *B = w->tmp64[1], *C = w->tmp64[2]; double *R = (double *)w->tmp64[3]; src64(w, in, 0, A, 1); src64(w, in, 1, B, 1); src64(w, in, 2, C, 1); LOOP { double x = tks_u2d(A[l]), y = tks_u2d(B[l]), z = tks_u2d(C[l]); (void)x; R[l] = (expr); } f64_store(w, in, m, R); } break;
#define HUN(expr) { const uint32_t *a = hsrc(w, in, 0); uint32_t *D = dst32(w, in); LOOP { float x = tks_h2f((uint16_t)a[l]); h_store(w, in, D, l, (expr)); } } break;
#define HBIN(expr) { const uint32_t *a = hsrc(w, in, 0), *b = hsrc(w, in, 1); uint32_t *D = dst32(w, in); LOOP { float x = tks_h2f((uint16_t)a[l]), y = tks_h2f((uint16_t)b[l]); h_store(w, in, D, l, (expr)); } } break;
#define I16BIN(expr) { const uint32_t *a = U(0), *b = U(1); uint32_t *D = dst32(w, in); LOOP { uint32_t x = a[l] & 0xffff, y = b[l] & 0xffff; D[l] = (uint32_t)(expr) & 0xffff; } } break;

  switch (in->op) {
  case TKS_OP_V_MOV_B32: case TKS_OP_V_ACCVGPR_READ_B32: case TKS_OP_V_ACCVGPR_WRITE_B32:
  case TKS_OP_V_ACCVGPR_MOV_B32:
    IUN(x)
  case TKS_OP_V_MOV_B64: {
    uint64_t *A = w->tmp64[0];
    src64(w, in, 0, A, 0);
    uint32_t *lo = w->v[d0->reg], *hi = w->v[d0->reg + 1];
    LOOP { lo[l] = (uint32_t)A[l]; hi[l] = (uint32_t)(A[l] >> 32); }
    break;
  }
  case TKS_OP_V_NOT_B32: IUN(~x)
  case TKS_OP_V_BFREV_B32: IUN(({ uint32_t r = 0; for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i); r; }))
  case TKS_OP_V_FFBH_U32: IUN(x ? (uint32_t)__builtin_clz(x) : 0xffffffffu)
  case TKS_OP_V_FFBL_B32: IUN(x ? (uint32_t)__builtin_ctz(x) : 0xffffffffu)
  case TKS_OP_V_FFBH_I32: IUN(({ uint32_t t = ((int32_t)x < 0) ? ~x : x; t ? (uint32_t)__builtin_clz(t) - 1u : 0xffffffffu; }))
  case TKS_OP_V_CVT_F32_I32: IUN(tks_f2u((float)(int32_t)x))
  case TKS_OP_V_CVT_F32_U32: IUN(tks_f2u((float)x))
  case TKS_OP_V_CVT_I32_F32: F2I(cvt_f32_i32(x))
  case TKS_OP_V_CVT_U32_F32: F2I(cvt_f32_u32(x))
  case TKS_OP_V_CVT_RPI_I32_F32: F2I(cvt_f32_i32(floorf(x + 0.5f)))
  case TKS_OP_V_CVT_FLR_I32_F32: F2I(cvt_f32_i32(floorf(x)))
  case TKS_OP_V_CVT_F32_UBYTE0: IUN(tks_f2u((float)(x & 0xff)))
  case TKS_OP_V_CVT_F32_UBYTE1: IUN(tks_f2u((float)((x >> 8) & 0xff)))
  case TKS_OP_V_CVT_F32_UBYTE2: IUN(tks_f2u((float)((x >> 16) & 0xff)))
  case TKS_OP_V_CVT_F32_UBYTE3: IUN(tks_f2u((float)(x >> 24)))
  case TKS_OP_V_CVT_F16_F32: {
    const uint32_t *a = fsrc32(w, in, 0); uint32_t *D = dst32(w, in);
    LOOP h_store(w, in, D, l, tks_u2f(a[l]));
    break;
  }
  case TKS_OP_V_CVT_F32_F16: { const uint32_t *a = hsrc(w, in, 0); uint32_t *D = dst32(w, in); LOOP D[l] = tks_f2u(tks_h2f((uint16_t)a[l])); f32_post(w, in, m, D); break; }
  case TKS_OP_V_CVT_F16_U16: { const uint32_t *a = U(0); uint32_t *D = dst32(w, in); LOOP h_store(w, in, D, l, (float)(a[l] & 0xffff)); } break;
  case TKS_OP_V_CVT_F16_I16: { const uint32_t *a = U(0); uint32_t *D = dst32(w, in); LOOP h_store(w, in, D, l, (float)(int16_t)a[l]); break; }
  case TKS_OP_V_CVT_U16_F16: { const uint32_t *a = hsrc(w, in, 0); uint32_t *D = dst32(w, in); LOOP { float x = tks_h2f((uint16_t)a[l]); D[l] = isnan(x) || x <= 0 ? 0 : x >= 65535.0f ? 65535u : (uint32_t)x; } break; }
  case TKS_OP_V_CVT_I16_F16: { const uint32_t *a = hsrc(w, in, 0); uint32_t *D = dst32(w, in); LOOP { float x = tks_h2f((uint16_t)a[l]); int32_t v = isnan(x) ? 0 : x >= 32767.0f ? 32767 : x <= -32768.0f ? -32768 : (int32_t)x; D[l] = (uint32_t)v & 0xffff; } break; }
  case TKS_OP_V_CVT_F64_F32: {
    const uint32_t *a = fsrc32(w, in, 0); double *R = (double *)w->tmp64[3];
    LOOP R[l] = (double)tks_u2f(a[l]);
    f64_store(w, in, m, R);
    break;
  }
  case TKS_OP_V_CVT_F64_I32: { const uint32_t *a = U(0); double *R = (double *)w->tmp64[3]; LOOP R[l] = (double)(int32_t)a[l]; f64_store(w, in, m, R); break; }
  case TKS_OP_V_CVT_F64_U32: { const uint32_t *a = U(0); double *R = (double *)w->tmp64[3]; LOOP R[l] = (double)a[l]; f64_store(w, in, m, R); break; }
  case TKS_OP_V_CVT_F32_F64: {
    uint64_t *A = w->tmp64[0]; src64(w, in, 0, A, 1); uint32_t *D = dst32(w, in);
    LOOP D[l] = tks_f2u((float)tks_u2d(A[l]));
    f32_post(w, in, m, D);
    break;
  }
  case TKS_OP_V_CVT_I32_F64: case TKS_OP_V_CVT_U32_F64: {
    uint64_t *A = w->tmp64[0]; src64(w, in, 0, A, 1); uint32_t *D = dst32(w, in);
    LOOP {
      double x = tks_u2d(A[l]);
      if (in->op == TKS_OP_V_CVT_I32_F64) D[l] = isnan(x) ? 0 : x >= 2147483647.0 ? 0x7fffffffu : x <= -2147483648.0 ? 0x80000000u : (uint32_t)(int32_t)x;
      else D[l] = isnan(x) || x <= 0 ? 0 : x >= 4294967295.0 ? 0xffffffffu : (uint32_t)x;
    }
    break;
  }
  case TKS_OP_V_FRACT_F32: FUN(fract_f(x))
  case TKS_OP_V_TRUNC_F32: FUN(truncf(x))
  case TKS_OP_V_CEIL_F32: FUN(ceilf(x))
  case TKS_OP_V_FLOOR_F32: FUN(floorf(x))
  case TKS_OP_V_RNDNE_F32: FUN(rintf(x))
  case TKS_OP_V_EXP_F32: FUN(exp2f(x))
  case TKS_OP_V_LOG_F32: FUN(log2f(x))
  case TKS_OP_V_RCP_F32: case TKS_OP_V_RCP_IFLAG_F32: FUN(1.0f / x)
  case TKS_OP_V_RSQ_F32: FUN(1.0f / sqrtf(x))
  case TKS_OP_V_SQRT_F32: FUN(sqrtf(x))
  case TKS_OP_V_SIN_F32: FUN((float)sin((double)x * 6.283185307179586))
  case TKS_OP_V_COS_F32: FUN((float)cos((double)x * 6.283185307179586))
  case TKS_OP_V_FREXP_MANT_F32: FUN((isinf(x) || isnan(x)) ? x : ({ int e_; frexpf(x, &e_); }))
  /* V_CVT_OFF_F32_I4: S0[3:0] as a signed 4-bit value / 16 (-0.5 .. 0.4375) */
  case TKS_OP_V_CVT_OFF_F32_I4: { const uint32_t *a = U(0); uint32_t *D = dst32(w, in); LOOP D[l] = tks_f2u((float)((int32_t)(a[l] << 28) >> 28) / 16.0f); f32_post(w, in, m, D); break; }
  case TKS_OP_V_FREXP_EXP_I16_F16: { const uint32_t *a = hsrc(w, in, 0); uint32_t *D = dst32(w, in);
    LOOP { float x = tks_h2f((uint16_t)a[l]); int e_ = 0; if (!(isinf(x) || isnan(x) || x == 0)) frexpf(x, &e_); D[l] = (uint32_t)e_ & 0xffff; } break; }
  case TKS_OP_V_SWAP_B32: {
    /* both operands are read before either is written */
    if (in->dst[0].kind != TKS_OPK_VGPR || in->src[0].kind != TKS_OPK_VGPR) return -1;
    uint32_t *X = w->v[in->dst[0].reg], *Y = w->v[in->src[0].reg];
    LOOP { uint32_t t_ = X[l]; X[l] = Y[l]; Y[l] = t_; }
    break;
  }
  case TKS_OP_V_CLREXCP: break;
  case TKS_OP_V_FREXP_EXP_I32_F32: F2I((isinf(x) || isnan(x) || x == 0) ? 0u : ({ int e_; frexpf(x, &e_); (uint32_t)e_; }))
  case TKS_OP_V_FRACT_F64: DUN(isinf(x) ? NAN : fmin(x - floor(x), 0x1.fffffffffffffp-1))
  case TKS_OP_V_TRUNC_F64: DUN(trunc(x))
  case TKS_OP_V_CEIL_F64: DUN(ceil(x))
  case TKS_OP_V_FLOOR_F64: DUN(floor(x))
  case TKS_OP_V_RNDNE_F64: DUN(rint(x))
  case TKS_OP_V_RCP_F64: DUN(1.0 / x)
  case TKS_OP_V_RSQ_F64: DUN(1.0 / sqrt(x))
  case TKS_OP_V_SQRT_F64: DUN(sqrt(x))
  case TKS_OP_V_FREXP_MANT_F64: DUN((isinf(x) || isnan(x)) ? x : ({ int e_; frexp(x, &e_); }))
  case TKS_OP_V_FREXP_EXP_I32_F64: {
    uint64_t *A = w->tmp64[0]; src64(w, in, 0, A, 1); uint32_t *D = dst32(w, in);
    LOOP { double x = tks_u2d(A[l]); int e = 0; if (!isinf(x) && !isnan(x) && x != 0) frexp(x, &e); D[l] = (uint32_t)e; }
    break;
  }
  case TKS_OP_V_RCP_F16: HUN(1.0f / x)
  case TKS_OP_V_SQRT_F16: HUN(sqrtf(x))
  case TKS_OP_V_RSQ_F16: HUN(1.0f / sqrtf(x))
  case TKS_OP_V_EXP_F16: HUN(exp2f(x))
  case TKS_OP_V_LOG_F16: HUN(log2f(x))
  case TKS_OP_V_FLOOR_F16: HUN(floorf(x))
  case TKS_OP_V_CEIL_F16: HUN(ceilf(x))
  case TKS_OP_V_TRUNC_F16: HUN(truncf(x))
  case TKS_OP_V_RNDNE_F16: HUN(rintf(x))
  case TKS_OP_V_FRACT_F16: HUN(isinf(x) ? NAN : fminf(x - floorf(x), 0x1.ffcp-1f))
  case TKS_OP_V_SIN_F16: HUN((float)sin((double)x * 6.283185307179586))
  case TKS_OP_V_COS_F16: HUN((float)cos((double)x * 6.283185307179586))
  case TKS_OP_V_FREXP_MANT_F16: HUN((isinf(x) || isnan(x)) ? x : ({ int e_; frexpf(x, &e_); }))
  case TKS_OP_V_DIV_FIXUP_F16: {
    const uint32_t *b = hsrc(w, in, 1), *c = hsrc(w, in, 2);
    uint32_t *D = dst32(w, in);
    LOOP h_store(w, in, D, l, tks_h2f((uint16_t)c[l]) / tks_h2f((uint16_t)b[l]));
    break;
  }
  case TKS_OP_V_MIN3_F16: case TKS_OP_V_MAX3_F16: case TKS_OP_V_MED3_F16: {
    const uint32_t *a = hsrc(w, in, 0), *b = hsrc(w, in, 1), *c = hsrc(w, in, 2);
    uint32_t *D = dst32(w, in);
    LOOP {
      float x = tks_h2f((uint16_t)a[l]), y = tks_h2f((uint16_t)b[l]), z = tks_h2f((uint16_t)c[l]), r;
      if (in->op == TKS_OP_V_MIN3_F16) r = fminf(fminf(x, y), z);
      else if (in->op == TKS_OP_V_MAX3_F16) r = fmaxf(fmaxf(x, y), z);
      else r = (isnan(x) || isnan(y) || isnan(z)) ? fminf(fminf(x, y), z) : fmaxf(fminf(x, y), fminf(fmaxf(x, y), z));
      h_store(w, in, D, l, r);
    }
    break;
  }
  case TKS_OP_V_MAD_LEGACY_U16: case TKS_OP_V_MAD_U16: ITRI(((x & 0xffff) * (y & 0xffff) + z) & 0xffff)
  case TKS_OP_V_MAD_LEGACY_I16: case TKS_OP_V_MAD_I16: ITRI((uint32_t)((int16_t)x * (int16_t)y + (int16_t)z) & 0xffff)
  case TKS_OP_V_MAD_U32_U16: ITRI((x & 0xffff) * (y & 0xffff) + z)
  case TKS_OP_V_MAD_I32_I16: ITRI((uint32_t)((int32_t)(int16_t)x * (int16_t)y) + z)
  case TKS_OP_V_MIN3_I16: ITRI((uint32_t)({ int16_t p = (int16_t)x < (int16_t)y ? (int16_t)x : (int16_t)y; p < (int16_t)z ? p : (int16_t)z; }) & 0xffff)
  case TKS_OP_V_MAX3_I16: ITRI((uint32_t)({ int16_t p = (int16_t)x > (int16_t)y ? (int16_t)x : (int16_t)y; p > (int16_t)z ? p : (int16_t)z; }) & 0xffff)
  case TKS_OP_V_MED3_I16: ITRI((uint32_t)({ int16_t p = (int16_t)x, q = (int16_t)y, r = (int16_t)z; int16_t lo = p < q ? p : q, hi = p < q ? q : p; hi = hi < r ? hi : r; lo > hi ? lo : hi; }) & 0xffff)
  case TKS_OP_V_MIN3_U16: ITRI(({ uint32_t p = (x & 0xffff) < (y & 0xffff) ? x & 0xffff : y & 0xffff; p < (z & 0xffff) ? p : z & 0xffff; }))
  case TKS_OP_V_MAX3_U16: ITRI(({ uint32_t p = (x & 0xffff) > (y & 0xffff) ? x & 0xffff : y & 0xffff; p > (z & 0xffff) ? p : z & 0xffff; }))
  case TKS_OP_V_MED3_U16: ITRI(({ uint32_t p = x & 0xffff, q = y & 0xffff, r = z & 0xffff; uint32_t lo = p < q ? p : q, hi = p < q ? q : p; hi = hi < r ? hi : r; lo > hi ? lo : hi; }))
  /* V_LERP_U8: per byte (S0 + S1 + S2's byte LSB) >> 1; V_SAD_HI_U8: the byte
   * SAD shifted to the high half plus S2 (CDNA3 ISA guide, VOP3) */
  case TKS_OP_V_LERP_U8: ITRI(({ uint32_t s = 0; for (int i = 0; i < 4; i++) { uint32_t p = (x >> (8 * i)) & 0xff, q = (y >> (8 * i)) & 0xff, r = (z >> (8 * i)) & 1; s |= ((p + q + r) >> 1) << (8 * i); } s; }))
  case TKS_OP_V_SAD_HI_U8: ITRI(({ uint32_t s = 0; for (int i = 0; i < 4; i++) { uint32_t p = (x >> (8 * i)) & 0xff, q = (y >> (8 * i)) & 0xff; s += p > q ? p - q : q - p; } (s << 16) + z; }))
  case TKS_OP_V_SAD_U32: ITRI((x > y ? x - y : y - x) + z)
  case TKS_OP_V_SAD_U16: ITRI(({ uint32_t s = z; for (int i = 0; i < 2; i++) { uint32_t p = (x >> (16 * i)) & 0xffff, q = (y >> (16 * i)) & 0xffff; s += p > q ? p - q : q - p; } s; }))
  /* V_MSAD_U8: S2 + sum over bytes of |S0.b - S1.b|, skipping bytes whose S1
   * byte is 0: the ISA description calls the second input "the reference
   * input", and Mesa passes NIR msad_4x8's reference (its src0) as the second
   * operand of llvm.amdgcn.msad.u8 (ac_nir_to_llvm.c) */
  case TKS_OP_V_MSAD_U8: ITRI(({ uint32_t s = z; for (int i = 0; i < 4; i++) { uint32_t p = (x >> (8 * i)) & 0xff, q = (y >> (8 * i)) & 0xff; if (q) s += p > q ? p - q : q - p; } s; }))
  /* V_QSAD_PK_U16_U8 / V_MQSAD_PK_U16_U8 / V_MQSAD_U32_U8 (ISA guide, VOP3:
   * "the V_SAD_U8 / V_MSAD_U8 operation four times using different slices of
   * the first array, all entries of the second array and each entry of the
   * third array"): result i = SAD(S0[8i+31:8i], S1, S2 entry i), entries
   * truncated to 16 bits for the _pk forms; the masked forms skip the bytes
   * whose S1 (reference) byte is 0, as V_MSAD_U8 below. */
  case TKS_OP_V_QSAD_PK_U16_U8: case TKS_OP_V_MQSAD_PK_U16_U8: case TKS_OP_V_MQSAD_U32_U8: {
    uint64_t *A = w->tmp64[0];
    src64(w, in, 0, A, 0);
    const uint32_t *b = U(1);
    const int wide = in->op == TKS_OP_V_MQSAD_U32_U8, masked = in->op != TKS_OP_V_QSAD_PK_U16_U8;
    const tks_operand *c = &in->src[2];
    uint32_t cs[4] = {0, 0, 0, 0}; /* S2 when scalar/constant: dwords 0..3 */
    if (c->kind != TKS_OPK_VGPR) {
      uint64_t c01 = tks_op64(w, c);
      cs[0] = (uint32_t)c01; cs[1] = (uint32_t)(c01 >> 32);
      if (wide && c->kind == TKS_OPK_SGPR) { cs[2] = tks_sread32(w, c->reg + 2); cs[3] = tks_sread32(w, c->reg + 3); }
    }
    const int nd = wide ? 4 : 2;
    LOOP {
      uint32_t acc[4], cd[4], r[4];
      for (int k = 0; k < nd; k++) cd[k] = c->kind == TKS_OPK_VGPR ? w->v[(c->reg + k) & (TKS_NVGPR - 1)][l] : cs[k];
      for (int i = 0; i < 4; i++) acc[i] = wide ? cd[i] : (cd[i / 2] >> (16 * (i & 1))) & 0xffff;
      for (int i = 0; i < 4; i++) {
        uint32_t x = (uint32_t)(A[l] >> (8 * i)), y = b[l], s = acc[i];
        for (int j = 0; j < 4; j++) {
          uint32_t p = (x >> (8 * j)) & 0xff, q = (y >> (8 * j)) & 0xff;
          if (!masked || q) s += p > q ? p - q : q - p;
        }
        r[i] = s;
      }
      if (wide) for (int k = 0; k < 4; k++) w->v[(d0->reg + k) & (TKS_NVGPR - 1)][l] = r[k];
      else for (int k = 0; k < 2; k++) w->v[(d0->reg + k) & (TKS_NVGPR - 1)][l] = (r[2 * k] & 0xffff) | (r[2 * k + 1] << 16);
    }
    break;
  }
  case TKS_OP_V_SAD_U8: ITRI(({ uint32_t s = z; for (int i = 0; i < 4; i++) { uint32_t p = (x >> (8 * i)) & 0xff, q = (y >> (8 * i)) & 0xff; s += p > q ? p - q : q - p; } s; }))
  case TKS_OP_V_SAT_PK_U8_I16: IUN(({ uint32_t r = 0; for (int i = 0; i < 2; i++) { int32_t v = (int16_t)(x >> (16 * i)); r |= (uint32_t)(v < 0 ? 0 : v > 255 ? 255 : v) << (8 * i); } r; }))
  case TKS_OP_V_CVT_PK_FP8_F32: case TKS_OP_V_CVT_PK_BF8_F32: {
    int bf8 = in->op == TKS_OP_V_CVT_PK_BF8_F32, sat = (in->flags & TKS_F_CLAMP) != 0;
    const uint32_t *a = fsrc32(w, in, 0), *b = fsrc32(w, in, 1);
    uint32_t *D = w->v[d0->reg];
    int hi = (in->op_sel >> 3) & 1;
    LOOP {
      uint32_t p = f32_to_f8(tks_u2f(a[l]), bf8, sat, gfx950) | (f32_to_f8(tks_u2f(b[l]), bf8, sat, gfx950) << 8);
      D[l] = hi ? (D[l] & 0xffffu) | (p << 16) : (D[l] & 0xffff0000u) | p;
    }
    break;
  }
  case TKS_OP_V_CVT_SR_FP8_F32: case TKS_OP_V_CVT_SR_BF8_F32: {
    /* stochastic rounding: src1 supplies the random bits; we add them below the
     * kept mantissa by rounding with the random value as threshold */
    int bf8 = in->op == TKS_OP_V_CVT_SR_BF8_F32, sat = (in->flags & TKS_F_CLAMP) != 0;
    const uint32_t *a = fsrc32(w, in, 0), *b = U(1);
    uint32_t *D = w->v[d0->reg];
    int byte = (in->op_sel >> 2) & 3;
    LOOP {
      float x = tks_u2f(a[l]);
      uint32_t u = tks_f2u(x);
      int drop = 23 - (bf8 ? 2 : 3);
      if (!isnan(x) && !isinf(x)) {
        uint32_t r = b[l] & ((1u << drop) - 1);
        u = (u + r) & ~((1u << drop) - 1);
      }
      uint32_t v = f32_to_f8(tks_u2f(u), bf8, sat, gfx950);
      D[l] = (D[l] & ~(0xffu << (8 * byte))) | (v << (8 * byte));
    }
    break;
  }
  case TKS_OP_V_CVT_F32_FP8: case TKS_OP_V_CVT_F32_BF8: {
    int bf8 = in->op == TKS_OP_V_CVT_F32_BF8;
    const uint32_t *a = src32(w, in, 0);
    uint32_t *D = dst32(w, in);
    int byte = (in->flags & TKS_F_SDWA) ? 0 : (in->op_sel & 3);
    LOOP D[l] = tks_f2u(f8_to_f32(a[l] >> (8 * byte), bf8, gfx950));
    break;
  }
  case TKS_OP_V_CVT_PK_F32_FP8: case TKS_OP_V_CVT_PK_F32_BF8: {
    int bf8 = in->op == TKS_OP_V_CVT_PK_F32_BF8;
    const uint32_t *a = src32(w, in, 0);
    uint32_t *lo = w->v[d0->reg], *hi = w->v[d0->reg + 1];
    int word = (in->flags & TKS_F_SDWA) ? 0 : (in->op_sel & 1);
    LOOP {
      uint32_t x = a[l] >> (16 * word);
      lo[l] = tks_f2u(f8_to_f32(x, bf8, gfx950));
      hi[l] = tks_f2u(f8_to_f32(x >> 8, bf8, gfx950));
    }
    break;
  }
  /* ---- VOP2 */
  case TKS_OP_V_CNDMASK_B32: {
    uint64_t cm = mask_of(w, &in->src[2]);
    const uint32_t *a = fsrc32(w, in, 0), *b = fsrc32(w, in, 1);
    if (!(in->src[0].abs & 1) && !in->src[0].neg && !(in->src[1].abs & 1) && !in->src[1].neg) { a = U(0); b = U(1); }
    uint32_t *D = dst32(w, in);
    LOOP D[l] = (cm >> l & 1) ? b[l] : a[l];
    break;
  }
  case TKS_OP_V_ADD_F32: FBIN(x + y)
  case TKS_OP_V_SUB_F32: FBIN(x - y)
  case TKS_OP_V_SUBREV_F32: FBIN(y - x)
  case TKS_OP_V_MUL_F32: FBIN(x * y)
  case TKS_OP_V_MUL_LEGACY_F32: FBIN((x == 0 || y == 0) ? 0.0f : x * y)
  case TKS_OP_V_MIN_F32: FBIN(fminf(x, y))
  case TKS_OP_V_MAX_F32: FBIN(fmaxf(x, y))
  case TKS_OP_V_MIN_I32: IBIN((int32_t)x < (int32_t)y ? x : y)
  case TKS_OP_V_MAX_I32: IBIN((int32_t)x > (int32_t)y ? x : y)
  case TKS_OP_V_MIN_U32: IBIN(x < y ? x : y)
  case TKS_OP_V_MAX_U32: IBIN(x > y ? x : y)
  case TKS_OP_V_LSHRREV_B32: IBIN(y >> (x & 31))
  case TKS_OP_V_ASHRREV_I32: IBIN((uint32_t)((int32_t)y >> (x & 31)))
  case TKS_OP_V_LSHLREV_B32: IBIN(y << (x & 31))
  case TKS_OP_V_AND_B32: IBIN(x & y)
  case TKS_OP_V_OR_B32: IBIN(x | y)
  case TKS_OP_V_XOR_B32: IBIN(x ^ y)
  case TKS_OP_V_XNOR_B32: IBIN(~(x ^ y))
  /* VOP3 clamp on unsigned adds: saturate (LLVM selects uadd.sat / usub.sat to these) */
  case TKS_OP_V_ADD_U32:
    if (in->flags & TKS_F_CLAMP) { IBIN((uint64_t)x + y > 0xffffffffu ? 0xffffffffu : x + y) }
    else { IBIN(x + y) }
  case TKS_OP_V_SUB_U32:
    if (in->flags & TKS_F_CLAMP) { IBIN(y > x ? 0u : x - y) }
    else { IBIN(x - y) }
  case TKS_OP_V_SUBREV_U32:
    if (in->flags & TKS_F_CLAMP) { IBIN(x > y ? 0u : y - x) }
    else { IBIN(y - x) }
  case TKS_OP_V_ADD_CO_U32: case TKS_OP_V_SUB_CO_U32: case TKS_OP_V_SUBREV_CO_U32:
  case TKS_OP_V_ADDC_CO_U32: case TKS_OP_V_SUBB_CO_U32: case TKS_OP_V_SUBBREV_CO_U32: {
    const uint32_t *a = U(0), *b = U(1);
    uint64_t cin = in->nsrc > 2 ? mask_of(w, &in->src[2]) : 0, cout = 0;
    uint32_t *D = dst32(w, in);
    LOOP {
      uint64_t x = a[l], y = b[l], ci = (cin >> l) & 1, r;
      int c;
      switch (in->op) {
      case TKS_OP_V_ADD_CO_U32: r = x + y; c = r >> 32 != 0; break;
      case TKS_OP_V_ADDC_CO_U32: r = x + y + ci; c = r >> 32 != 0; break;
      case TKS_OP_V_SUB_CO_U32: r = x - y; c = y > x; break;
      case TKS_OP_V_SUBREV_CO_U32: r = y - x; c = x > y; break;
      case TKS_OP_V_SUBB_CO_U32: r = x - y - ci; c = y + ci > x; break;
      default: r = y - x - ci; c = x + ci > y; break;
      }
      D[l] = (uint32_t)r;
      if (c) cout |= 1ull << l;
    }
    if (in->ndst > 1) write_mask(w, &in->dst[1], cout);
    break;
  }
  case TKS_OP_V_FMAC_F32: { const uint32_t *a = fsrc32(w, in, 0), *b = fsrc32(w, in, 1); uint32_t *D = w->v[d0->reg]; LOOP D[l] = tks_f2u(fmaf(tks_u2f(a[l]), tks_u2f(b[l]), tks_u2f(D[l]))); f32_post(w, in, m, D); break; }
  case TKS_OP_V_FMAMK_F32: FTRI(fmaf(x, y, z)) /* text order: src0, K, src1 */
  case TKS_OP_V_FMAAK_F32: FTRI(fmaf(x, y, z))
  case TKS_OP_V_FMAC_F64: {
    uint64_t *A = w->tmp64[0], *B = w->tmp64[1], *C = w->tmp64[2]; double *R = (double *)w->tmp64[3];
    src64(w, in, 0, A, 1); src64(w, in, 1, B, 1);
    tks_operand dd = *d0; dd.neg = dd.abs = 0;
    tks_inst t2 = *in; t2.src[2] = dd; src64(w, &t2, 2, C, 0);
    LOOP R[l] = fma(tks_u2d(A[l]), tks_u2d(B[l]), tks_u2d(C[l]));
    f64_store(w, in, m, R);
    break;
  }
  case TKS_OP_V_MUL_U32_U24: IBIN((x & 0xffffff) * (y & 0xffffff))
  case TKS_OP_V_MUL_HI_U32_U24: IBIN((uint32_t)(((uint64_t)(x & 0xffffff) * (y & 0xffffff)) >> 32))
  case TKS_OP_V_MUL_I32_I24: IBIN((uint32_t)((int32_t)(x << 8) >> 8) * (uint32_t)((int32_t)(y << 8) >> 8))
  case TKS_OP_V_MUL_HI_I32_I24: IBIN((uint32_t)((uint64_t)((int64_t)((int32_t)(x << 8) >> 8) * ((int32_t)(y << 8) >> 8)) >> 32))
  case TKS_OP_V_LDEXP_F32: { const uint32_t *a = fsrc32(w, in, 0), *b = U(1); uint32_t *D = dst32(w, in); LOOP D[l] = tks_f2u(ldexpf(tks_u2f(a[l]), (int32_t)b[l] < -300 ? -300 : (int32_t)b[l] > 300 ? 300 : (int32_t)b[l])); f32_post(w, in, m, D); break; }
  case TKS_OP_V_ADD_F64: DBIN(x + y)
  case TKS_OP_V_MUL_F64: DBIN(x * y)
  case TKS_OP_V_MIN_F64: DBIN(fmin(x, y))
  case TKS_OP_V_MAX_F64: DBIN(fmax(x, y))
  case TKS_OP_V_LDEXP_F64: {
    uint64_t *A = w->tmp64[0]; double *R = (double *)w->tmp64[3];
    src64(w, in, 0, A, 1);
    const uint32_t *b = U(1);
    LOOP { int32_t e = (int32_t)b[l]; R[l] = ldexp(tks_u2d(A[l]), e < -3000 ? -3000 : e > 3000 ? 3000 : e); }
    f64_store(w, in, m, R);
    break;
  }
  case TKS_OP_V_TRIG_PREOP_F64: {
    uint64_t *A = w->tmp64[0]; double *R = (double *)w->tmp64[3];
    src64(w, in, 0, A, 1);
    const uint32_t *b = U(1);
    LOOP R[l] = trig_preop(tks_u2d(A[l]), b[l]);
    f64_store(w, in, m, R);
    break;
  }
  case TKS_OP_V_ADD_F16: HBIN(x + y)
  case TKS_OP_V_SUB_F16: HBIN(x - y)
  case TKS_OP_V_SUBREV_F16: HBIN(y - x)
  case TKS_OP_V_MUL_F16: HBIN(x * y)
  case TKS_OP_V_MAX_F16: HBIN(fmaxf(x, y))
  case TKS_OP_V_MIN_F16: HBIN(fminf(x, y))
  case TKS_OP_V_LDEXP_F16: { const uint32_t *a = hsrc(w, in, 0), *b = U(1); uint32_t *D = dst32(w, in); LOOP { int32_t e = (int16_t)b[l]; h_store(w, in, D, l, ldexpf(tks_h2f((uint16_t)a[l]), e)); } break; }
  case TKS_OP_V_LSHLREV_B16: I16BIN(y << (x & 15))
  case TKS_OP_V_LSHRREV_B16: I16BIN(y >> (x & 15))
  case TKS_OP_V_ASHRREV_I16: I16BIN((int16_t)y >> (x & 15))
  case TKS_OP_V_SUBREV_U16: I16BIN(y - x)
  /* VOP3 signed adds: clamp saturates to the signed range, else they wrap */
  case TKS_OP_V_ADD_I32: case TKS_OP_V_SUB_I32: {
    int sub = in->op == TKS_OP_V_SUB_I32, cl = (in->flags & TKS_F_CLAMP) != 0;
    IBIN(({ int64_t r = sub ? (int64_t)(int32_t)x - (int32_t)y : (int64_t)(int32_t)x + (int32_t)y;
            if (cl) r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r; (uint32_t)r; }))
  }
  case TKS_OP_V_ADD_I16: case TKS_OP_V_SUB_I16: {
    int sub = in->op == TKS_OP_V_SUB_I16, cl = (in->flags & TKS_F_CLAMP) != 0;
    I16BIN(({ int32_t r = sub ? (int16_t)x - (int16_t)y : (int16_t)x + (int16_t)y;
              if (cl) r = r > INT16_MAX ? INT16_MAX : r < INT16_MIN ? INT16_MIN : r; (uint32_t)r; }))
  }
  case TKS_OP_V_ADD_U16: I16BIN(x + y)
  case TKS_OP_V_SUB_U16: I16BIN(x - y)
  case TKS_OP_V_MUL_LO_U16: I16BIN(x * y)
  case TKS_OP_V_MAX_U16: I16BIN(x > y ? x : y)
  case TKS_OP_V_MIN_U16: I16BIN(x < y ? x : y)
  case TKS_OP_V_MAX_I16: I16BIN((int16_t)x > (int16_t)y ? x : y)
  case TKS_OP_V_MIN_I16: I16BIN((int16_t)x < (int16_t)y ? x : y)
  case TKS_OP_V_DOT2C_F32_F16: { const uint32_t *a = U(0), *b = U(1); uint32_t *D = w->v[d0->reg]; LOOP { float acc = tks_u2f(D[l]); acc = fmaf(tks_h2f((uint16_t)a[l]), tks_h2f((uint16_t)b[l]), acc); acc = fmaf(tks_h2f((uint16_t)(a[l] >> 16)), tks_h2f((uint16_t)(b[l] >> 16)), acc); D[l] = tks_f2u(acc); } break; }
  case TKS_OP_V_DOT2C_F32_BF16: { const uint32_t *a = U(0), *b = U(1); uint32_t *D = w->v[d0->reg]; LOOP { float acc = tks_u2f(D[l]); acc = fmaf(bf16f(a[l] & 0xffff), bf16f(b[l] & 0xffff), acc); acc = fmaf(bf16f(a[l] >> 16), bf16f(b[l] >> 16), acc); D[l] = tks_f2u(acc); } break; }
  case TKS_OP_V_DOT4C_I32_I8: case TKS_OP_V_DOT2C_I32_I16: case TKS_OP_V_DOT8C_I32_I4: {
    /* VOP2 forms accumulate into the destination */
    const uint32_t *a = U(0), *b = U(1); uint32_t *D = w->v[d0->reg];
    LOOP {
      int32_t s = (int32_t)D[l];
      uint32_t x = a[l], y = b[l];
      if (in->op == TKS_OP_V_DOT4C_I32_I8) for (int i = 0; i < 4; i++) s += (int32_t)(int8_t)(x >> (8 * i)) * (int8_t)(y >> (8 * i));
      else if (in->op == TKS_OP_V_DOT2C_I32_I16) for (int i = 0; i < 2; i++) s += (int32_t)(int16_t)(x >> (16 * i)) * (int16_t)(y >> (16 * i));
      else for (int i = 0; i < 8; i++) s += ((int32_t)(x << (28 - 4 * i)) >> 28) * ((int32_t)(y << (28 - 4 * i)) >> 28);
      D[l] = (uint32_t)s;
    }
    break;
  }
  /* ---- VOP3 */
  case TKS_OP_V_MAD_U64_U32: case TKS_OP_V_MAD_I64_I32: {
    const uint32_t *a = U(0), *b = U(1);
    uint64_t *C = w->tmp64[2];
    src64(w, in, 2, C, 0);
    uint32_t *lo = w->v[d0->reg], *hi = w->v[d0->reg + 1];
    uint64_t cout = 0;
    LOOP {
      if (in->op == TKS_OP_V_MAD_U64_U32) {
        unsigned __int128 r = (unsigned __int128)((uint64_t)a[l] * b[l]) + C[l];
        if (r >> 64) cout |= 1ull << l;
        lo[l] = (uint32_t)r; hi[l] = (uint32_t)((uint64_t)r >> 32);
      } else {
        __int128 r = (__int128)((int64_t)(int32_t)a[l] * (int32_t)b[l]) + (int64_t)C[l];
        if (r > INT64_MAX || r < INT64_MIN) cout |= 1ull << l;
        lo[l] = (uint32_t)r; hi[l] = (uint32_t)((uint64_t)r >> 32);
      }
    }
    if (in->ndst > 1) write_mask(w, &in->dst[1], cout);
    break;
  }
  case TKS_OP_V_LSHL_ADD_U64: {
    uint64_t *A = w->tmp64[0], *C = w->tmp64[2];
    src64(w, in, 0, A, 0); src64(w, in, 2, C, 0);
    const uint32_t *b = U(1);
    uint32_t *lo = w->v[d0->reg], *hi = w->v[d0->reg + 1];
    LOOP { uint64_t r = (A[l] << (b[l] & 7)) + C[l]; lo[l] = (uint32_t)r; hi[l] = (uint32_t)(r >> 32); }
    break;
  }
  case TKS_OP_V_LSHLREV_B64: case TKS_OP_V_LSHRREV_B64: case TKS_OP_V_ASHRREV_I64: {
    const uint32_t *a = U(0);
    uint64_t *B = w->tmp64[1];
    src64(w, in, 1, B, 0);
    uint32_t *lo = w->v[d0->reg], *hi = w->v[d0->reg + 1];
    LOOP {
      uint32_t s = a[l] & 63;
      uint64_t r = in->op == TKS_OP_V_LSHLREV_B64 ? B[l] << s : in->op == TKS_OP_V_LSHRREV_B64 ? B[l] >> s : (uint64_t)((int64_t)B[l] >> s);
      lo[l] = (uint32_t)r; hi[l] = (uint32_t)(r >> 32);
    }
    break;
  }
  case TKS_OP_V_MUL_LO_U32: IBIN(x * y)
  case TKS_OP_V_MUL_HI_U32: IBIN((uint32_t)(((uint64_t)x * y) >> 32))
  case TKS_OP_V_MUL_HI_I32: IBIN((uint32_t)((uint64_t)((int64_t)(int32_t)x * (int32_t)y) >> 32))
  case TKS_OP_V_MAD_U32_U24: ITRI((x & 0xffffff) * (y & 0xffffff) + z)
  case TKS_OP_V_MAD_I32_I24: ITRI((uint32_t)((int32_t)(x << 8) >> 8) * (uint32_t)((int32_t)(y << 8) >> 8) + z)
  case TKS_OP_V_ADD3_U32: ITRI(x + y + z)
  case TKS_OP_V_LSHL_ADD_U32: ITRI((x << (y & 31)) + z)
  case TKS_OP_V_ADD_LSHL_U32: ITRI((x + y) << (z & 31))
  case TKS_OP_V_AND_OR_B32: ITRI((x & y) | z)
  case TKS_OP_V_OR3_B32: ITRI(x | y | z)
  case TKS_OP_V_XAD_U32: ITRI((x ^ y) + z)
  case TKS_OP_V_LSHL_OR_B32: ITRI((x << (y & 31)) | z)
  case TKS_OP_V_BFE_U32: ITRI((z & 31) == 0 ? 0u : (uint32_t)((x >> (y & 31)) & ((1ull << (z & 31)) - 1)))
  case TKS_OP_V_BFE_I32: ITRI((z & 31) == 0 ? 0u : (uint32_t)(((int32_t)((x >> (y & 31)) << (32 - (z & 31)))) >> (32 - (z & 31))))
  case TKS_OP_V_BFI_B32: ITRI((x & y) | (~x & z))
  case TKS_OP_V_BFM_B32: IBIN((uint32_t)(((1ull << (x & 31)) - 1) << (y & 31)))
  case TKS_OP_V_ALIGNBIT_B32: ITRI((uint32_t)((((uint64_t)x << 32) | y) >> (z & 31)))
  case TKS_OP_V_ALIGNBYTE_B32: ITRI((uint32_t)((((uint64_t)x << 32) | y) >> (8 * (z & 3))))
  case TKS_OP_V_PERM_B32: {
    const uint32_t *a = U(0), *b = U(1), *c = U(2);
    uint32_t *D = dst32(w, in);
    LOOP {
      uint64_t v = ((uint64_t)a[l] << 32) | b[l];
      uint32_t r = 0;
      for (int i = 0; i < 4; i++) {
        uint32_t sel = (c[l] >> (8 * i)) & 0xff, byte;
        if (sel <= 7) byte = (uint32_t)(v >> (8 * sel)) & 0xff;
        else if (sel == 8) byte = (v >> 15 & 1) ? 0xff : 0;
        else if (sel == 9) byte = (v >> 31 & 1) ? 0xff : 0;
        else if (sel == 10) byte = (v >> 47 & 1) ? 0xff : 0;
        else if (sel == 11) byte = (v >> 63 & 1) ? 0xff : 0;
        else if (sel == 12) byte = 0;
        else byte = 0xff;
        r |= byte << (8 * i);
      }
      D[l] = r;
    }
    break;
  }
  case TKS_OP_V_FMA_F32: FTRI(fmaf(x, y, z))
  case TKS_OP_V_MAD_F32: FTRI(x * y + z)
  case TKS_OP_V_FMA_F64: DTRI(fma(x, y, z))
  case TKS_OP_V_FMA_F16: {
    const uint32_t *a = hsrc(w, in, 0), *b = hsrc(w, in, 1), *c = hsrc(w, in, 2);
    uint32_t *D = dst32(w, in);
    LOOP { double r = (double)tks_h2f((uint16_t)a[l]) * tks_h2f((uint16_t)b[l]) + tks_h2f((uint16_t)c[l]); _Float16 h = (_Float16)r; uint16_t hb; memcpy(&hb, &h, 2); float x = tks_h2f(hb); h_store(w, in, D, l, x); }
    break;
  }
  /* ---- learned from the ISA coverage list */
  case TKS_OP_V_MAC_F16: {
    const uint32_t *a = hsrc(w, in, 0), *b = hsrc(w, in, 1);
    uint32_t *D = w->v[d0->reg];
    LOOP h_store(w, in, D, l, mad_f16(tks_h2f((uint16_t)a[l]), tks_h2f((uint16_t)b[l]), tks_h2f((uint16_t)D[l])));
    break;
  }
  case TKS_OP_V_MADMK_F16: case TKS_OP_V_MADAK_F16: case TKS_OP_V_MAD_F16: case TKS_OP_V_MAD_LEGACY_F16:
  case TKS_OP_V_FMA_LEGACY_F16: {
    const uint32_t *a = hsrc(w, in, 0), *b = hsrc(w, in, 1), *c = hsrc(w, in, 2);
    uint32_t *D = dst32(w, in);
    const int fused = in->op == TKS_OP_V_FMA_LEGACY_F16;
    LOOP {
      float x = tks_h2f((uint16_t)a[l]), y = tks_h2f((uint16_t)b[l]), z = tks_h2f((uint16_t)c[l]);
      h_store(w, in, D, l, fused ? fma_f16(x, y, z) : mad_f16(x, y, z));
    }
    break;
  }
  case TKS_OP_V_DIV_FIXUP_LEGACY_F16: {
    const uint32_t *b = hsrc(w, in, 1), *c = hsrc(w, in, 2);
    uint32_t *D = dst32(w, in);
    LOOP h_store(w, in, D, l, tks_h2f((uint16_t)c[l]) / tks_h2f((uint16_t)b[l]));
    break;
  }
  case TKS_OP_V_PK_FMAC_F16: {
    const uint32_t *a = U(0), *b = U(1);
    uint32_t *D = w->v[d0->reg];
    LOOP {
      uint32_t r = 0;
      for (int h = 0; h < 2; h++) {
        float x = tks_h2f((uint16_t)(a[l] >> (16 * h))), y = tks_h2f((uint16_t)(b[l] >> (16 * h))), z = tks_h2f((uint16_t)(D[l] >> (16 * h)));
        r |= (uint32_t)tks_f2h(fma_f16(x, y, z)) << (16 * h);
      }
      D[l] = r;
    }
    break;
  }
  case TKS_OP_V_EXP_LEGACY_F32: FUN(exp2f(x))
  case TKS_OP_V_LOG_LEGACY_F32: FUN(log2f(x))
  case TKS_OP_V_CVT_NORM_I16_F16: case TKS_OP_V_CVT_NORM_U16_F16: {
    const uint32_t *a = hsrc(w, in, 0); uint32_t *D = dst32(w, in);
    const int u = in->op == TKS_OP_V_CVT_NORM_U16_F16;
    LOOP b16_store(in, D, l, norm16(tks_h2f((uint16_t)a[l]), u));
    sdwa_finish(w, in, m);
    break;
  }
  case TKS_OP_V_CVT_PKNORM_I16_F16: case TKS_OP_V_CVT_PKNORM_U16_F16: {
    const uint32_t *a = hsrc(w, in, 0), *b = hsrc(w, in, 1); uint32_t *D = dst32(w, in);
    const int u = in->op == TKS_OP_V_CVT_PKNORM_U16_F16;
    LOOP D[l] = norm16(tks_h2f((uint16_t)a[l]), u) | (norm16(tks_h2f((uint16_t)b[l]), u) << 16);
    break;
  }
  /* V_CVT_PKACCUM_U8_F32: byte S1[1:0] of D = S0 rounded and clamped to u8,
   * the other bytes of D kept */
  case TKS_OP_V_CVT_PKACCUM_U8_F32: {
    const uint32_t *a = fsrc32(w, in, 0), *b = U(1); uint32_t *D = w->v[d0->reg];
    LOOP { float x = rintf(tks_u2f(a[l])); uint32_t v = isnan(x) || x <= 0 ? 0 : x >= 255 ? 255 : (uint32_t)x; uint32_t sh = 8 * (b[l] & 3); D[l] = (D[l] & ~(0xffu << sh)) | (v << sh); }
    break;
  }
  case TKS_OP_V_CUBEID_F32: case TKS_OP_V_CUBESC_F32: case TKS_OP_V_CUBETC_F32: case TKS_OP_V_CUBEMA_F32: {
    const int op = in->op;
    FTRI(cube_op(op, x, y, z))
  }
  /* gfx950: packed IEEE 754-2019 maximum/minimum of three (NaN wins, -0 < +0) */
  case TKS_OP_V_PK_MAXIMUM3_F16: case TKS_OP_V_PK_MINIMUM3_F16: {
    const uint32_t *s3[3] = {U(0), U(1), U(2)};
    uint32_t *D = w->v[d0->reg];
    const int mx = in->op == TKS_OP_V_PK_MAXIMUM3_F16;
    LOOP {
      uint32_t res = 0;
      for (int h = 0; h < 2; h++) {
        float v[3];
        for (int i = 0; i < 3; i++) {
          int hi = h ? (in->op_sel_hi >> i) & 1 : (in->op_sel >> i) & 1;
          uint32_t x = (s3[i][l] >> (16 * hi)) & 0xffff;
          if (h ? (in->neg_hi >> i) & 1 : (in->neg_lo >> i) & 1) x ^= 0x8000;
          v[i] = tks_h2f((uint16_t)x);
        }
        float r = mx ? ieee_maximum(ieee_maximum(v[0], v[1]), v[2]) : ieee_minimum(ieee_minimum(v[0], v[1]), v[2]);
        if (in->flags & TKS_F_CLAMP) r = isnan(r) ? 0.0f : fminf(fmaxf(r, 0.0f), 1.0f);
        res |= (uint32_t)tks_f2h(r) << (16 * h);
      }
      D[l] = res;
    }
    break;
  }
  /* gfx950 V_ASHR_PK_{I8,U8}_I32: S0 and S1 shifted right arithmetically by
   * S2[4:0], saturated to i8 / u8, packed into 16 bits (S0 low byte) */
  case TKS_OP_V_ASHR_PK_I8_I32: case TKS_OP_V_ASHR_PK_U8_I32: {
    const uint32_t *a = U(0), *b = U(1), *c = U(2); uint32_t *D = w->v[d0->reg];
    const int u = in->op == TKS_OP_V_ASHR_PK_U8_I32;
    LOOP {
      uint32_t r = 0;
      for (int i = 0; i < 2; i++) {
        int32_t v = (int32_t)(i ? b[l] : a[l]) >> (c[l] & 31);
        int32_t lo = u ? 0 : -128, hi = u ? 255 : 127;
        v = v < lo ? lo : v > hi ? hi : v;
        r |= ((uint32_t)v & 0xff) << (8 * i);
      }
      b16_store(in, D, l, r);
    }
    break;
  }
  /* gfx950 V_CVT_SR_{BF16,F16}_F32: S0 rounded stochastically with the
   * random bits of S1, 16-bit result (op_sel[3]: high half) */
  case TKS_OP_V_CVT_SR_BF16_F32: case TKS_OP_V_CVT_SR_F16_F32: {
    const uint32_t *a = fsrc32(w, in, 0), *b = U(1); uint32_t *D = w->v[d0->reg];
    const int bf = in->op == TKS_OP_V_CVT_SR_BF16_F32;
    LOOP {
      float x = tks_u2f(a[l]);
      uint32_t r;
      if (bf) r = isnan(x) ? ((tks_f2u(x) >> 16) | 0x40) : (tks_f2u(sr_round(x, b[l], 16)) >> 16);
      else {
        /* f16 keeps 10 mantissa bits while normal; fewer below 2^-14 */
        int e = (int)((tks_f2u(x) >> 23) & 0xff) - 127, drop = 13;
        if (e < -14) drop = 13 + (-14 - e) > 23 ? 23 : 13 + (-14 - e);
        r = tks_f2h(sr_round(x, b[l], drop));
      }
      b16_store(in, D, l, r & 0xffff);
    }
    break;
  }
  case TKS_OP_V_MIN3_F32: FTRI(fminf(fminf(x, y), z))
  /* IEEE 754-2019 maximum/minimum: a NaN operand gives NaN, -0 < +0 */
  case TKS_OP_V_MAXIMUM3_F32: FTRI(ieee_maximum(ieee_maximum(x, y), z))
  case TKS_OP_V_MINIMUM3_F32: FTRI(ieee_minimum(ieee_minimum(x, y), z))
  /* bf16 in S0[15:0] (an SDWA src0_sel WORD_1 source brings [31:16] down
   * first) to f32: the bits move up */
  case TKS_OP_V_CVT_F32_BF16: { const uint32_t *a = U(0); uint32_t *D = dst32(w, in);
    LOOP D[l] = a[l] << 16;
    sdwa_finish(w, in, m);
    break;
  }
  case TKS_OP_V_MAX3_F32: FTRI(fmaxf(fmaxf(x, y), z))
  case TKS_OP_V_MED3_F32: FTRI(isnan(x) || isnan(y) || isnan(z) ? fminf(fminf(x, y), z) : fmaxf(fminf(x, y), fminf(fmaxf(x, y), z)))
  case TKS_OP_V_MIN3_I32: ITRI((uint32_t)({ int32_t p = (int32_t)x < (int32_t)y ? (int32_t)x : (int32_t)y; p < (int32_t)z ? p : (int32_t)z; }))
  case TKS_OP_V_MAX3_I32: ITRI((uint32_t)({ int32_t p = (int32_t)x > (int32_t)y ? (int32_t)x : (int32_t)y; p > (int32_t)z ? p : (int32_t)z; }))
  case TKS_OP_V_MED3_I32: ITRI((uint32_t)({ int32_t p = (int32_t)x, q = (int32_t)y, r = (int32_t)z; int32_t lo = p < q ? p : q, hi = p < q ? q : p; hi = hi < r ? hi : r; lo > hi ? lo : hi; }))
  case TKS_OP_V_MIN3_U32: ITRI(({ uint32_t p = x < y ? x : y; p < z ? p : z; }))
  case TKS_OP_V_MAX3_U32: ITRI(({ uint32_t p = x > y ? x : y; p > z ? p : z; }))
  case TKS_OP_V_MED3_U32: ITRI(({ uint32_t lo = x < y ? x : y, hi = x < y ? y : x; hi = hi < z ? hi : z; lo > hi ? lo : hi; }))
  case TKS_OP_V_DIV_SCALE_F32: {
    const uint32_t *a = fsrc32(w, in, 0); uint32_t *D = dst32(w, in);
    LOOP D[l] = a[l];
    if (in->ndst > 1) write_mask(w, &in->dst[1], 0);
    break;
  }
  case TKS_OP_V_DIV_SCALE_F64: {
    uint64_t *A = w->tmp64[0]; double *R = (double *)w->tmp64[3];
    src64(w, in, 0, A, 1);
    LOOP R[l] = tks_u2d(A[l]);
    f64_store(w, in, m, R);
    if (in->ndst > 1) write_mask(w, &in->dst[1], 0);
    break;
  }
  case TKS_OP_V_DIV_FMAS_F32: FTRI(fmaf(x, y, z))
  case TKS_OP_V_DIV_FMAS_F64: DTRI(fma(x, y, z))
  case TKS_OP_V_DIV_FIXUP_F32: FTRI(z / y)
  case TKS_OP_V_DIV_FIXUP_F64: DTRI(z / y)
  case TKS_OP_V_MBCNT_LO_U32_B32: { const uint32_t *a = U(0), *b = U(1); uint32_t *D = dst32(w, in); LOOP { uint32_t mk = l >= 32 ? 0xffffffffu : (uint32_t)((1ull << l) - 1); D[l] = (uint32_t)__builtin_popcount(a[l] & mk) + b[l]; } break; }
  case TKS_OP_V_MBCNT_HI_U32_B32: { const uint32_t *a = U(0), *b = U(1); uint32_t *D = dst32(w, in); LOOP { uint32_t mk = l < 32 ? 0 : (uint32_t)((1ull << (l - 32)) - 1); D[l] = (uint32_t)__builtin_popcount(a[l] & mk) + b[l]; } break; }
  case TKS_OP_V_BCNT_U32_B32: IBIN((uint32_t)__builtin_popcount(x) + y)
  case TKS_OP_V_CVT_PKRTZ_F16_F32: { const uint32_t *a = fsrc32(w, in, 0), *b = fsrc32(w, in, 1); uint32_t *D = dst32(w, in); LOOP D[l] = (uint32_t)f2h_rtz(tks_u2f(a[l])) | ((uint32_t)f2h_rtz(tks_u2f(b[l])) << 16); break; }
  case TKS_OP_V_CVT_PK_U8_F32: {
    const uint32_t *a = fsrc32(w, in, 0), *b = U(1), *c = U(2); uint32_t *D = dst32(w, in);
    LOOP { float x = rintf(tks_u2f(a[l])); uint32_t v = isnan(x) || x <= 0 ? 0 : x >= 255 ? 255 : (uint32_t)x; uint32_t sh = 8 * (b[l] & 3); D[l] = (c[l] & ~(0xffu << sh)) | (v << sh); }
    break;
  }
  case TKS_OP_V_CVT_PK_U16_U32: IBIN((x > 0xffff ? 0xffffu : x) | ((y > 0xffff ? 0xffffu : y) << 16))
  case TKS_OP_V_CVT_PK_I16_I32: IBIN(({ int32_t p = (int32_t)x, q = (int32_t)y; p = p > 32767 ? 32767 : p < -32768 ? -32768 : p; q = q > 32767 ? 32767 : q < -32768 ? -32768 : q; ((uint32_t)p & 0xffff) | ((uint32_t)q << 16); }))
  case TKS_OP_V_CVT_PKNORM_I16_F32: case TKS_OP_V_CVT_PKNORM_U16_F32: {
    const uint32_t *a = fsrc32(w, in, 0), *b = fsrc32(w, in, 1); uint32_t *D = dst32(w, in);
    int u = in->op == TKS_OP_V_CVT_PKNORM_U16_F32;
    LOOP {
      uint32_t r = 0;
      for (int h = 0; h < 2; h++) {
        float x = tks_u2f(h ? b[l] : a[l]);
        if (isnan(x)) x = 0;
        int32_t v = u ? (int32_t)rintf(fminf(fmaxf(x, 0.0f), 1.0f) * 65535.0f) : (int32_t)rintf(fminf(fmaxf(x, -1.0f), 1.0f) * 32767.0f);
        r |= ((uint32_t)v & 0xffff) << (16 * h);
      }
      D[l] = r;
    }
    break;
  }
  case TKS_OP_V_PACK_B32_F16: { const uint32_t *a = hsrc(w, in, 0), *b = hsrc(w, in, 1); uint32_t *D = dst32(w, in); LOOP D[l] = (a[l] & 0xffff) | (b[l] << 16); break; }
  /* ---- VOP3P */
  case TKS_OP_V_PK_FMA_F16: case TKS_OP_V_PK_MUL_F16: case TKS_OP_V_PK_ADD_F16: case TKS_OP_V_PK_MAX_F16:
  case TKS_OP_V_PK_MIN_F16: case TKS_OP_V_PK_ADD_U16: case TKS_OP_V_PK_SUB_U16: case TKS_OP_V_PK_ADD_I16:
  case TKS_OP_V_PK_SUB_I16: case TKS_OP_V_PK_MUL_LO_U16: case TKS_OP_V_PK_LSHLREV_B16: case TKS_OP_V_PK_LSHRREV_B16:
  case TKS_OP_V_PK_ASHRREV_I16: case TKS_OP_V_PK_MAX_I16: case TKS_OP_V_PK_MIN_I16: case TKS_OP_V_PK_MAX_U16:
  case TKS_OP_V_PK_MIN_U16: case TKS_OP_V_PK_MAD_U16: case TKS_OP_V_PK_MAD_I16: {
    int ns = in->nsrc;
    const uint32_t *s[3] = {U(0), ns > 1 ? U(1) : NULL, ns > 2 ? U(2) : NULL};
    uint32_t *D = w->v[d0->reg];
    LOOP {
      uint32_t res = 0;
      for (int h = 0; h < 2; h++) {
        uint32_t v[3] = {0, 0, 0};
        for (int i = 0; i < ns; i++) {
          int hi = h ? (in->op_sel_hi >> i) & 1 : (in->op_sel >> i) & 1;
          v[i] = (s[i][l] >> (16 * hi)) & 0xffff;
          int ng = h ? (in->neg_hi >> i) & 1 : (in->neg_lo >> i) & 1;
          if (ng && in->op <= TKS_OP_V_PK_MIN_F16) v[i] ^= 0x8000;
        }
        uint32_t r;
        float x = tks_h2f((uint16_t)v[0]), y = tks_h2f((uint16_t)v[1]), z = tks_h2f((uint16_t)v[2]);
        switch (in->op) {
        case TKS_OP_V_PK_FMA_F16: { _Float16 t = (_Float16)((double)x * y + z); uint16_t hb; memcpy(&hb, &t, 2); r = hb; break; }
        case TKS_OP_V_PK_MUL_F16: r = tks_f2h(x * y); break;
        case TKS_OP_V_PK_ADD_F16: r = tks_f2h(x + y); break;
        case TKS_OP_V_PK_MAX_F16: r = tks_f2h(fmaxf(x, y)); break;
        case TKS_OP_V_PK_MIN_F16: r = tks_f2h(fminf(x, y)); break;
        case TKS_OP_V_PK_ADD_U16: case TKS_OP_V_PK_ADD_I16: r = v[0] + v[1]; break;
        case TKS_OP_V_PK_SUB_U16: case TKS_OP_V_PK_SUB_I16: r = v[0] - v[1]; break;
        case TKS_OP_V_PK_MUL_LO_U16: r = v[0] * v[1]; break;
        case TKS_OP_V_PK_LSHLREV_B16: r = v[1] << (v[0] & 15); break;
        case TKS_OP_V_PK_LSHRREV_B16: r = v[1] >> (v[0] & 15); break;
        case TKS_OP_V_PK_ASHRREV_I16: r = (uint32_t)((int16_t)v[1] >> (v[0] & 15)); break;
        case TKS_OP_V_PK_MAX_I16: r = (int16_t)v[0] > (int16_t)v[1] ? v[0] : v[1]; break;
        case TKS_OP_V_PK_MIN_I16: r = (int16_t)v[0] < (int16_t)v[1] ? v[0] : v[1]; break;
        case TKS_OP_V_PK_MAX_U16: r = v[0] > v[1] ? v[0] : v[1]; break;
        /* a*b+c; wraps to 16 bits, or saturates with clamp */
        case TKS_OP_V_PK_MAD_U16: {
          uint32_t t = v[0] * v[1] + v[2];
          r = (in->flags & TKS_F_CLAMP) && t > 0xffffu ? 0xffffu : t;
          break;
        }
        case TKS_OP_V_PK_MAD_I16: {
          int32_t t = (int32_t)(int16_t)v[0] * (int16_t)v[1] + (int16_t)v[2];
          if (in->flags & TKS_F_CLAMP) t = t > 32767 ? 32767 : t < -32768 ? -32768 : t;
          r = (uint32_t)t;
          break;
        }
        default: r = v[0] < v[1] ? v[0] : v[1]; break;
        }
        if ((in->flags & TKS_F_CLAMP) && in->op <= TKS_OP_V_PK_MIN_F16) {
          float f = tks_h2f((uint16_t)r); f = isnan(f) ? 0.0f : fminf(fmaxf(f, 0.0f), 1.0f); r = tks_f2h(f);
        }
        res |= (r & 0xffff) << (16 * h);
      }
      D[l] = res;
    }
    break;
  }
  case TKS_OP_V_PK_FMA_F32: case TKS_OP_V_PK_MUL_F32: case TKS_OP_V_PK_ADD_F32: case TKS_OP_V_PK_MOV_B32: {
    int ns = in->op == TKS_OP_V_PK_FMA_F32 ? 3 : 2;
    uint64_t *S[3] = {w->tmp64[0], w->tmp64[1], w->tmp64[2]};
    for (int i = 0; i < ns; i++) src64(w, in, i, S[i], 0);
    uint32_t *lo = w->v[d0->reg], *hi = w->v[d0->reg + 1];
    LOOP {
      uint32_t out[2];
      for (int h = 0; h < 2; h++) {
        float v[3] = {0, 0, 0};
        uint32_t raw[3] = {0, 0, 0};
        for (int i = 0; i < ns; i++) {
          int sel = h ? (in->op_sel_hi >> i) & 1 : (in->op_sel >> i) & 1;
          raw[i] = (uint32_t)(S[i][l] >> (32 * sel));
          int ng = h ? (in->neg_hi >> i) & 1 : (in->neg_lo >> i) & 1;
          if (ng) raw[i] ^= 0x80000000u;
          v[i] = tks_u2f(raw[i]);
        }
        switch (in->op) {
        case TKS_OP_V_PK_FMA_F32: out[h] = tks_f2u(fmaf(v[0], v[1], v[2])); break;
        case TKS_OP_V_PK_MUL_F32: out[h] = tks_f2u(v[0] * v[1]); break;
        case TKS_OP_V_PK_ADD_F32: out[h] = tks_f2u(v[0] + v[1]); break;
        default: {
          /* v_pk_mov_b32: D.lo from src0 (op_sel[0] picks its high dword), D.hi from src1 */
          int i = h;
          int sel = (in->op_sel >> i) & 1;
          out[h] = (uint32_t)(S[i][l] >> (32 * sel));
        }
        }
      }
      lo[l] = out[0]; hi[l] = out[1];
    }
    break;
  }
  case TKS_OP_V_DOT2_U32_U16: case TKS_OP_V_DOT8_I32_I4: case TKS_OP_V_DOT8_U32_U4: {
    const uint32_t *a = U(0), *b = U(1), *c = U(2); uint32_t *D = dst32(w, in);
    LOOP {
      uint32_t x = a[l], y = b[l], s = c[l];
      if (in->op == TKS_OP_V_DOT2_U32_U16) s += (x & 0xffff) * (y & 0xffff) + (x >> 16) * (y >> 16);
      else if (in->op == TKS_OP_V_DOT8_U32_U4) for (int i = 0; i < 8; i++) s += ((x >> (4 * i)) & 15) * ((y >> (4 * i)) & 15);
      else for (int i = 0; i < 8; i++) s += (uint32_t)(((int32_t)(x << (28 - 4 * i)) >> 28) * ((int32_t)(y << (28 - 4 * i)) >> 28));
      D[l] = s;
    }
    break;
  }
  case TKS_OP_V_DOT2_F32_F16: case TKS_OP_V_DOT2_F32_BF16: case TKS_OP_V_DOT2_I32_I16:
  case TKS_OP_V_DOT4_I32_I8: case TKS_OP_V_DOT4_U32_U8: {
    const uint32_t *a = U(0), *b = U(1), *c = U(2);
    uint32_t *D = dst32(w, in);
    LOOP {
      uint32_t x = a[l], y = b[l];
      switch (in->op) {
      case TKS_OP_V_DOT2_F32_F16: {
        float p0 = tks_h2f((uint16_t)x), p1 = tks_h2f((uint16_t)(x >> 16)), q0 = tks_h2f((uint16_t)y), q1 = tks_h2f((uint16_t)(y >> 16));
        if (in->neg_lo & 1) p0 = -p0;
        if (in->neg_hi & 1) p1 = -p1;
        if (in->neg_lo & 2) q0 = -q0;
        if (in->neg_hi & 2) q1 = -q1;
        float cz = tks_u2f(c[l]);
        if (in->neg_lo & 4) cz = -cz;
        D[l] = tks_f2u((float)((double)p0 * q0 + (double)p1 * q1 + cz));
        break;
      }
      case TKS_OP_V_DOT2_F32_BF16:
        D[l] = tks_f2u((float)((double)bf16f(x & 0xffff) * bf16f(y & 0xffff) + (double)bf16f(x >> 16) * bf16f(y >> 16) + tks_u2f(c[l])));
        break;
      case TKS_OP_V_DOT2_I32_I16:
        D[l] = (uint32_t)((int32_t)(int16_t)x * (int16_t)y + (int32_t)(int16_t)(x >> 16) * (int16_t)(y >> 16) + (int32_t)c[l]);
        break;
      case TKS_OP_V_DOT4_I32_I8: {
        int32_t s = (int32_t)c[l];
        for (int i = 0; i < 4; i++) s += (int32_t)(int8_t)(x >> (8 * i)) * (int8_t)(y >> (8 * i));
        D[l] = (uint32_t)s;
        break;
      }
      default: {
        uint32_t s = c[l];
        for (int i = 0; i < 4; i++) s += ((x >> (8 * i)) & 0xff) * ((y >> (8 * i)) & 0xff);
        D[l] = s;
      }
      }
    }
    break;
  }
  case TKS_OP_V_FMA_MIX_F32: case TKS_OP_V_FMA_MIXLO_F16: case TKS_OP_V_FMA_MIXHI_F16: {
    const uint32_t *s[3] = {U(0), U(1), U(2)};
    uint32_t *D = w->v[d0->reg];
    LOOP {
      double v[3];
      for (int i = 0; i < 3; i++) {
        uint32_t x = s[i][l];
        double f;
        if ((in->op_sel_hi >> i) & 1) f = tks_h2f((uint16_t)(x >> (16 * ((in->op_sel >> i) & 1))));
        else f = tks_u2f(x);
        if ((in->neg_hi >> i) & 1) f = fabs(f);
        if ((in->neg_lo >> i) & 1) f = -f;
        v[i] = f;
      }
      float r = fmaf((float)v[0], (float)v[1], (float)v[2]);
      if (in->flags & TKS_F_CLAMP) r = isnan(r) ? 0.0f : fminf(fmaxf(r, 0.0f), 1.0f);
      if (in->op == TKS_OP_V_FMA_MIX_F32) D[l] = tks_f2u(r);
      else if (in->op == TKS_OP_V_FMA_MIXLO_F16) D[l] = (D[l] & 0xffff0000u) | tks_f2h(r);
      else D[l] = (D[l] & 0xffffu) | ((uint32_t)tks_f2h(r) << 16);
    }
    break;
  }
  default:
    return -1;
  }
  sdwa_finish(w, in, m);
  return 0;
}
