/* tk/types.h: element types and conversions.
 *
 * Storage types are plain bit containers (uint16_t, uint8_t) so every value
 * moves bit-exactly; the packed vectors are clang ext_vector_types, the
 * operand types the MFMA builtins take (LLVM BuiltinsAMDGPU.def:
 * v4i16 for bf16_1k, v4f16 for f16, i64 for 8 fp8/i8 values, v4f32/v16f32
 * accumulators; gfx950: v8bf16/v8f16 for the 16x16x32 and 32x32x16 shapes,
 * v8i32 for f8f6f4).
 * fp8 on gfx950 is the OCP encoding (TK_FP8_FNUZ 0: E4M3FN bias 7, E5M2 bias
 * 15; CDNA4 ISA guide): the same conversion instructions below then produce
 * and read OCP bits, so tk_*fp8*_ref (FNUZ) describe gfx942 only;
 * tk_f32_to_ocp_e4m3_ref / tk_f32_to_ocp_e5m2_ref (and the decoders) are
 * host references of the OCP formats (OCP 8-bit floating point spec: round
 * to nearest even, out of range -> NaN for E4M3, inf for E5M2, with
 * saturation off as tk's conversions use it; NaN -> 0x7f, assumed).
 * fp8 on gfx942 uses the FNUZ encodings (CDNA3 ISA guide, "FP8 and BF8";
 * LLVM APFloat Float8E4M3FNUZ / Float8E5M2FNUZ): exponent bias 8 (e4m3) and
 * 16 (e5m2), no infinities, no negative zero, the single NaN is 0x80.
 * Device conversions use v_cvt_pk_fp8_f32 / v_cvt_f32_fp8 (round to nearest
 * even, saturation off: out-of-range -> NaN 0x80 on gfx942; the OCP rules
 * above on gfx950, same instructions); tk_*_ref are bit-exact host
 * references of the same rules, for tests.
 */
#ifndef TK_TYPES_H
#define TK_TYPES_H

#include <stdint.h>
#include <string.h>
#include "target.h"

typedef uint16_t tk_bf16;  /* bfloat16 bits */
typedef uint16_t tk_f16;   /* IEEE half bits (use _Float16 for arithmetic) */
typedef uint8_t tk_fp8e4;  /* fp8 e4m3 bits: FNUZ on gfx942, OCP E4M3FN on gfx950 */
typedef uint8_t tk_fp8e5;  /* fp8 e5m2 (bf8) bits: FNUZ on gfx942, OCP E5M2 on gfx950 */

/* two f32 in a register pair: arithmetic on it is one packed VALU op
 * (v_pk_fma_f32 / v_pk_add_f32 / v_pk_mul_f32, gfx90a and later) */
typedef float tk_f32x2 __attribute__((ext_vector_type(2)));
typedef float tk_f32x4 __attribute__((ext_vector_type(4)));
typedef float tk_f32x16 __attribute__((ext_vector_type(16)));
typedef int32_t tk_i32x4 __attribute__((ext_vector_type(4)));
typedef int32_t tk_i32x16 __attribute__((ext_vector_type(16)));
typedef int16_t tk_i16x4 __attribute__((ext_vector_type(4)));  /* 4 bf16 */
typedef _Float16 tk_f16x4 __attribute__((ext_vector_type(4)));
/* gfx950's 16x16x32 / 32x32x16 f16 and bf16 MFMAs take 8 values per lane */
typedef int16_t tk_i16x8 __attribute__((ext_vector_type(8)));  /* 8 bf16 */
typedef _Float16 tk_f16x8 __attribute__((ext_vector_type(8)));
/* gfx950's f8f6f4 MFMAs: 32 fp8 (or 32 fp4 in the low 4 dwords) per lane */
typedef int32_t tk_i32x8 __attribute__((ext_vector_type(8)));
typedef uint32_t tk_u32x2 __attribute__((ext_vector_type(2)));
typedef uint32_t tk_u32x4 __attribute__((ext_vector_type(4)));
/* byte views of the 8 fp8/i8 values an MFMA operand packs in an int64 */
typedef uint8_t tk_u8x8 __attribute__((ext_vector_type(8)));
typedef int8_t tk_i8x8 __attribute__((ext_vector_type(8)));

/* element type ids, used in static assertions of the tile macros */
enum { TK_DT_F32 = 1, TK_DT_BF16 = 2, TK_DT_F16 = 3, TK_DT_FP8E4 = 4,
       TK_DT_FP8E5 = 5, TK_DT_I8 = 6, TK_DT_I32 = 7 };

TK_HDI uint32_t tk_f32_bits(float f) { uint32_t u; __builtin_memcpy(&u, &f, 4); return u; }
TK_HDI float tk_bits_f32(uint32_t u) { float f; __builtin_memcpy(&f, &u, 4); return f; }

/* --- bf16 ----------------------------------------------------------------- */
/* f32 -> bf16, round to nearest even; NaN stays NaN (quiet bit forced so a
 * NaN whose payload is only in the low half does not become inf). */
TK_HDI tk_bf16 tk_f32_to_bf16(float f) {
  uint32_t u = tk_f32_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (tk_bf16)((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (tk_bf16)(u >> 16);
}
/* The same rounding with the bf16 in the high half of the result, for the
 * store paths: both candidates computed, then selected.  The early return
 * above (or a ternary over the expressions) becomes a divergent branch per
 * element on the device, exec-mask saves around both arms: 53 instructions
 * for four conversions against 36 with v_cndmask (clang-22, gfx942).  The
 * selects hold their masks in SGPRs, though: used for tk_f32_to_bf16 itself
 * they made attention's backward kernels spill an SGPR on gfx950. */
TK_HDI uint32_t tk__bf16_hi_rne(float x) {
  const uint32_t u = tk_f32_bits(x);
  const uint32_t quiet = u | 0x00400000u, rounded = u + 0x7fffu + ((u >> 16) & 1u);
  /* x != x: one v_cmp_u_f32 on the device (the integer test is an and and
   * a compare); the same set of values as (u & 0x7fffffff) > 0x7f800000 */
  return x != x ? quiet : rounded;
}
TK_HDI float tk_bf16_to_f32(tk_bf16 h) { return tk_bits_f32((uint32_t)h << 16); }
/* f32 -> bf16 round to nearest even for finite f (and infinities); a NaN may
 * come out as an infinity.  Two integer ops instead of four where the value
 * is known finite (softmax probabilities). */
TK_HDI tk_bf16 tk_f32_to_bf16_finite(float f) {
  uint32_t u = tk_f32_bits(f);
  return (tk_bf16)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
/* Two finite f32 (below 0x1.fefp127 in magnitude) as two bf16 in one dword,
 * lo in bits 15..0, rounded to nearest with ties away from zero: one integer
 * add per value and one merge (3 ops per pair, RNE needs 5).  The error bound
 * is RNE's (half an ulp); only exact ties round differently. */
TK_HDI uint32_t tk_pack_bf16x2_rna(float lo, float hi) {
#if TK_DEVICE_PASS
  /* the merge as one v_perm_b32 (bytes 3,2 of each sum; CDNA3 ISA guide VOP3
   * V_PERM_B32): the compiler's own choice is a shift and an and_or */
  return __builtin_amdgcn_perm(tk_f32_bits(hi) + 0x8000u, tk_f32_bits(lo) + 0x8000u, 0x07060302u);
#else
  return ((tk_f32_bits(lo) + 0x8000u) >> 16) | ((tk_f32_bits(hi) + 0x8000u) & 0xffff0000u);
#endif
}
/* Two finite f32 as two bf16 in one dword (lo in bits 15..0), rounded to nearest, in the
 * fewest instructions the target has: gfx950's v_cvt_pk_bf16_f32 (one instruction, ties to
 * even; CDNA4 ISA guide, TK_HAS_CVT_PK_BF16), else tk_pack_bf16x2_rna (3 ops, ties away
 * from zero).  Only exact ties differ between the two; both are within half an ulp. */
#if TK_DEVICE_PASS && TK_HAS_CVT_PK_BF16
typedef __bf16 tk__bf16x2_t __attribute__((ext_vector_type(2)));
/* gfx950's one v_cvt_pk_bf16_f32 (RNE in the default round mode, NaN quieted) */
TK_HDI uint32_t tk__cvt_pk_bf16(float lo, float hi) {
  const tk_f32x2 v = {lo, hi};
  return __builtin_bit_cast(uint32_t, __builtin_convertvector(v, tk__bf16x2_t));
}
#endif
TK_HDI uint32_t tk_pack_bf16x2_rn(float lo, float hi) {
#if TK_DEVICE_PASS && TK_HAS_CVT_PK_BF16
  return tk__cvt_pk_bf16(lo, hi);
#else
  return tk_pack_bf16x2_rna(lo, hi);
#endif
}
/* two bf16 in one dword: lo in bits 15..0 (lower k / lower column first) */
TK_HDI uint32_t tk_pack_bf16x2(float lo, float hi) {
#if TK_DEVICE_PASS
  /* the two high halves merged by one v_perm_b32 (bytes 3,2 of each) */
  return __builtin_amdgcn_perm(tk__bf16_hi_rne(hi), tk__bf16_hi_rne(lo), 0x07060302u);
#else
  return (tk__bf16_hi_rne(lo) >> 16) | (tk__bf16_hi_rne(hi) & 0xffff0000u);
#endif
}
/* tk_pack_bf16x2 (round to nearest even, NaN kept quiet: tk_f32_to_bf16's
 * results for every input) in gfx950's one v_cvt_pk_bf16_f32 (CDNA4 ISA guide:
 * RNE in the default round mode, NaN quieted); elsewhere tk_pack_bf16x2 */
TK_HDI uint32_t tk_pack_bf16x2_rne(float lo, float hi) {
#if TK_DEVICE_PASS && TK_HAS_CVT_PK_BF16
  return tk__cvt_pk_bf16(lo, hi);
#else
  return tk_pack_bf16x2(lo, hi);
#endif
}

/* --- f16 (hardware / compiler conversion, RNE) ---------------------------- */
TK_HDI tk_f16 tk_f32_to_f16(float f) { _Float16 h = (_Float16)f; tk_f16 b; __builtin_memcpy(&b, &h, 2); return b; }
TK_HDI float tk_f16_to_f32(tk_f16 b) { _Float16 h; __builtin_memcpy(&h, &b, 2); return (float)h; }

/* --- fp8 FNUZ: bit-exact host reference ----------------------------------- */
/* Decode: mbits mantissa bits, exponent bias `bias`; 0x80 is NaN. */
TK_HDI float tk_fp8_decode_ref(uint8_t v, int mbits, int bias) {
  if (v == 0x80) return tk_bits_f32(0x7fc00000u);
  int sign = v >> 7, e = (v >> mbits) & ((1 << (7 - mbits)) - 1), m = v & ((1 << mbits) - 1);
  float r;
  if (e == 0) r = (float)m / (float)(1 << mbits);       /* subnormal: m * 2^-mbits * 2^(1-bias) */
  else r = 1.0f + (float)m / (float)(1 << mbits);
  int ex = (e == 0 ? 1 : e) - bias;
  while (ex > 0) { r *= 2.0f; ex--; }
  while (ex < 0) { r *= 0.5f; ex++; }
  return sign ? -r : r;
}
/* Encode with round to nearest even, no saturation: NaN, inf and values that
 * round beyond the largest finite -> 0x80 (NaN); -0 and values rounding to 0
 * -> 0x00 (FNUZ has no -0). Matches v_cvt_pk_fp8_f32 with clamp off. */
TK_HDI uint8_t tk_fp8_encode_ref(float f, int mbits, int bias) {
  uint32_t u = tk_f32_bits(f);
  uint32_t sign = u >> 31, a = u & 0x7fffffffu;
  if (a >= 0x7f800000u) return 0x80;
  int ebits = 7 - mbits;
  /* smallest normal exponent 1-bias; quantum at exponent E is 2^(E-mbits) */
  int e32 = (int)(a >> 23) - 127;
  int emin = 1 - bias;
  int qexp = (e32 < emin ? emin : e32) - mbits;     /* log2 of the quantum */
  if (a == 0) return 0;
  /* scaled = a / 2^qexp as an integer with RNE; exact via f32 bits */
  uint32_t mant = (a & 0x7fffffu) | (e32 >= -126 ? 0x800000u : 0u);
  int sh = (e32 >= -126 ? e32 : -126) - 23 - qexp;  /* value = mant * 2^(e-23) */
  uint32_t q;
  if (sh >= 0) q = mant << sh;
  else if (sh < -31) q = 0;
  else {
    uint32_t rem = mant & ((1u << -sh) - 1), half = 1u << (-sh - 1);
    q = mant >> -sh;
    if (rem > half || (rem == half && (q & 1u))) q++;
  }
  /* q = magnitude in quanta; renormalise */
  uint32_t code;
  if (q == 0) return 0;
  int E = qexp + mbits;            /* exponent of the quantum grid */
  if (q >= (2u << mbits)) { q >>= 1; E++; }      /* rounding carried */
  if (q < (1u << mbits)) code = q;               /* subnormal (E == emin) */
  else {
    int be = E + bias;
    if (be > (1 << ebits) - 1) return 0x80;
    code = ((uint32_t)be << mbits) | (q & ((1u << mbits) - 1));
  }
  if (code > 0x7f) return 0x80;
  return (uint8_t)(code | (sign << 7));
}
TK_HDI float tk_fp8e4_to_f32_ref(tk_fp8e4 v) { return tk_fp8_decode_ref(v, 3, 8); }
TK_HDI float tk_fp8e5_to_f32_ref(tk_fp8e5 v) { return tk_fp8_decode_ref(v, 2, 16); }
TK_HDI tk_fp8e4 tk_f32_to_fp8e4_ref(float f) { return tk_fp8_encode_ref(f, 3, 8); }
TK_HDI tk_fp8e5 tk_f32_to_fp8e5_ref(float f) { return tk_fp8_encode_ref(f, 2, 16); }

/* --- fp8 OCP (gfx950) E4M3FN: bias 7, no infinities, S.1111.111 is NaN,
 * largest finite 448; host reference (round to nearest even, out of range
 * -> NaN 0x7f/0xff like the unsaturated conversion) ----------------------- */
TK_HDI float tk_ocp_e4m3_to_f32_ref(uint8_t v) {
  int s = v >> 7, e = (v >> 3) & 15, m = v & 7;
  float r;
  if (e == 15 && m == 7) return __builtin_nanf("");
  if (e == 0) r = (float)m * (1.0f / 512.0f);            /* m/8 * 2^-6 */
  else { r = 1.0f + (float)m / 8.0f; for (int i = 7; i < e; i++) r *= 2.0f; for (int i = e; i < 7; i++) r *= 0.5f; }
  return s ? -r : r;
}
TK_HDI uint8_t tk_f32_to_ocp_e4m3_ref(float f) {
  /* exhaustive nearest-even search over the 127 finite magnitudes */
  uint8_t sign = (tk_f32_bits(f) >> 24) & 0x80;
  float a = f < 0 ? -f : f;
  if (a != a) return 0x7f;
  int best = 0;
  float bd = a;
  for (int c = 1; c < 127; c++) {
    float d = tk_ocp_e4m3_to_f32_ref((uint8_t)c) - a;
    if (d < 0) d = -d;
    if (d < bd || (d == bd && !(c & 1))) { bd = d; best = c; }
  }
  if (a > 464.0f) return (uint8_t)(sign | 0x7f);          /* beyond 448 + half a step */
  return (uint8_t)(sign | best);
}

/* --- fp8 OCP (gfx950) E5M2: bias 15, S.11111.00 is inf, S.11111.xx NaN,
 * largest finite 57344; host reference (round to nearest even; at or beyond
 * 61440 = 57344 + half a step, which rounds to 2^16: inf, like the
 * unsaturated conversion) ------------------------------------------------- */
TK_HDI float tk_ocp_e5m2_to_f32_ref(uint8_t v) {
  int s = v >> 7, e = (v >> 2) & 31, m = v & 3;
  float r;
  if (e == 31) r = m ? __builtin_nanf("") : __builtin_inff();
  else if (e == 0) r = (float)m * (1.0f / 65536.0f);          /* m/4 * 2^-14 */
  else { r = 1.0f + (float)m / 4.0f; for (int i = 15; i < e; i++) r *= 2.0f; for (int i = e; i < 15; i++) r *= 0.5f; }
  return s ? -r : r;
}
TK_HDI uint8_t tk_f32_to_ocp_e5m2_ref(float f) {
  /* exhaustive nearest-even search over the 123 finite magnitudes */
  uint8_t sign = (tk_f32_bits(f) >> 24) & 0x80;
  float a = f < 0 ? -f : f;
  if (a != a) return 0x7f;
  if (a >= 61440.0f) return (uint8_t)(sign | 0x7c);
  int best = 0;
  float bd = a;
  for (int c = 1; c < 124; c++) {
    float d = tk_ocp_e5m2_to_f32_ref((uint8_t)c) - a;
    if (d < 0) d = -d;
    if (d < bd || (d == bd && !(c & 1))) { bd = d; best = c; }
  }
  return (uint8_t)(sign | best);
}

/* --- fp8 on device: hardware conversions ---------------------------------- */
#if TK_HIP
/* two f32 -> two fp8 in the low 16 bits (a -> byte 0, b -> byte 1) */
TK_DI uint32_t tk_cvt_pk_fp8e4(float a, float b) {
  return (uint32_t)__builtin_amdgcn_cvt_pk_fp8_f32(a, b, 0, false) & 0xffffu;
}
TK_DI uint32_t tk_cvt_pk_fp8e5(float a, float b) {
  return (uint32_t)__builtin_amdgcn_cvt_pk_bf8_f32(a, b, 0, false) & 0xffffu;
}
/* four f32 -> four fp8 in one dword, a in byte 0 */
TK_DI uint32_t tk_cvt_pk4_fp8e4(float a, float b, float c, float d) {
  int lo = __builtin_amdgcn_cvt_pk_fp8_f32(a, b, 0, false);
  return (uint32_t)__builtin_amdgcn_cvt_pk_fp8_f32(c, d, lo, true);
}
TK_DI uint32_t tk_cvt_pk4_fp8e5(float a, float b, float c, float d) {
  int lo = __builtin_amdgcn_cvt_pk_bf8_f32(a, b, 0, false);
  return (uint32_t)__builtin_amdgcn_cvt_pk_bf8_f32(c, d, lo, true);
}
/* byte `sel` (0..3, compile-time constant) of a dword -> f32 */
#define tk_cvt_fp8e4_f32(dword, sel) __builtin_amdgcn_cvt_f32_fp8((int)(dword), (sel))
#define tk_cvt_fp8e5_f32(dword, sel) __builtin_amdgcn_cvt_f32_bf8((int)(dword), (sel))
TK_DI float tk_fp8e4_to_f32(tk_fp8e4 v) { return __builtin_amdgcn_cvt_f32_fp8((int)v, 0); }
TK_DI float tk_fp8e5_to_f32(tk_fp8e5 v) { return __builtin_amdgcn_cvt_f32_bf8((int)v, 0); }
TK_DI tk_fp8e4 tk_f32_to_fp8e4(float f) { return (tk_fp8e4)tk_cvt_pk_fp8e4(f, 0.0f); }
TK_DI tk_fp8e5 tk_f32_to_fp8e5(float f) { return (tk_fp8e5)tk_cvt_pk_fp8e5(f, 0.0f); }
#endif

#endif /* TK_TYPES_H */
