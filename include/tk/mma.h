/* tk/mma.h: one wrapper per MFMA instruction tk uses, and tile-level matrix
 * products over register tiles (register.h).
 *
 * Instructions (CDNA3 ISA guide §7, LLVM BuiltinsAMDGPU.def, gfx940+):
 *   v_mfma_f32_16x16x16_bf16   (builtin ..._16x16x16bf16_1k)  A,B: 4 bf16/lane
 *   v_mfma_f32_32x32x8_bf16    (builtin ..._32x32x8bf16_1k)
 *   v_mfma_f32_16x16x16_f16, v_mfma_f32_32x32x8_f16           A,B: 4 f16/lane
 *   v_mfma_f32_16x16x32_fp8_fp8, v_mfma_f32_32x32x16_fp8_fp8  A,B: 8 fp8/lane
 *   v_mfma_i32_16x16x32_i8                                    A,B: 8 i8/lane
 * gfx950 only (CDNA4 ISA guide; TK_HAS_MFMA_F16_X2 / TK_HAS_MFMA_F8F6F4):
 *   v_mfma_f32_16x16x32_{bf16,f16}, v_mfma_f32_32x32x16_{bf16,f16}  A,B: 8/lane
 *   v_mfma_scale_f32_16x16x128_f8f6f4, v_mfma_scale_f32_32x32x64_f8f6f4
 *     (tk_mfma_scale_*: A,B 32 fp8 or fp4 per lane, formats and E8M0 block
 *     scales given; a scale byte of 127 is 1.0)
 * Kernels written with the tile API compile for either target as long as they
 * use shapes both have; the gfx950 shapes are named by their kinds
 * (TK_K_*_16x16x32 bf16/f16, TK_K_*_32x32x16 bf16/f16) and refused with a
 * static_assert in a gfx942 device pass (guard them with #if TK_HAS_MFMA_F16_X2).
 * The cbsz/abid/blgp broadcast modifiers are always 0 (f8f6f4: they are the
 * format selectors).
 * Tile products (D = A·B + C, all over one wave):
 *   tk_mma_AB  (D, A, B, C):  A M×K (A kind), B K×N (B kind)
 *   tk_mma_ABt (D, A, Bt, C): Bt N×K held in the A kind: Bt's A layout is
 *                              exactly B's layout, so no data moves
 *   tk_mma_AtB (D, At, B, C): At K×M held in the B kind
 *   tk_mma_AtBt(D, At, Bt, C)
 *   tk_mma_ABt_rows(D, A, Bt, C, NM): tk_mma_ABt over A's first NM row
 *                              fragments only (a shorter block, no MFMAs
 *                              issued for the rest)
 *   tk_mma_ABt_mx(D, A, Bt, C, SA, SB, FMT, SEL): gfx950, OCP MX block-scaled
 *                              fp8/bf8/fp4 (below)
 * Shapes and types are checked with static_assert. On gfx950 the products
 * of bf16/f16 16x16x16 and 32x32x8 tiles with an even number of K fragments
 * issue one 16x16x32 / 32x32x16 MFMA per pair of K fragments (twice the
 * rate; see TK_MMA_K2_ below): the same tiles, the same kernel source; fp8
 * e4m3 16x16x32 / 32x32x16 products with a multiple of 4 K fragments issue
 * one unscaled f8f6f4 16x16x128 / 32x32x64 (fp8 A and B) per 4 fragments
 * (TK_MMA_K4_). gfx950's fp8 is OCP E4M3FN, gfx942's FNUZ (tk/types.h): the
 * same fp8 tile holds the device's encoding.
 */
#ifndef TK_MMA_H
#define TK_MMA_H

#include "register.h"

#if TK_HIP
TK_DI tk_f32x4 tk_mfma_16x16x16_bf16(tk_i16x4 a, tk_i16x4 b, tk_f32x4 c) {
  return __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0);
}
TK_DI tk_f32x16 tk_mfma_32x32x8_bf16(tk_i16x4 a, tk_i16x4 b, tk_f32x16 c) {
  return __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, 0, 0, 0);
}
TK_DI tk_f32x4 tk_mfma_16x16x16_f16(tk_f16x4 a, tk_f16x4 b, tk_f32x4 c) {
  return __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, 0, 0, 0);
}
TK_DI tk_f32x16 tk_mfma_32x32x8_f16(tk_f16x4 a, tk_f16x4 b, tk_f32x16 c) {
  return __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, 0, 0, 0);
}
TK_DI tk_f32x4 tk_mfma_16x16x32_fp8(int64_t a, int64_t b, tk_f32x4 c) {
  return __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8((long)a, (long)b, c, 0, 0, 0);
}
TK_DI tk_f32x16 tk_mfma_32x32x16_fp8(int64_t a, int64_t b, tk_f32x16 c) {
  return __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8((long)a, (long)b, c, 0, 0, 0);
}
TK_DI tk_i32x4 tk_mfma_16x16x32_i8(int64_t a, int64_t b, tk_i32x4 c) {
  return __builtin_amdgcn_mfma_i32_16x16x32_i8((long)a, (long)b, c, 0, 0, 0);
}

/* gfx950 wrappers. The host pass of a HIP build parses device functions but
 * never emits them and has no gfx950 builtins, nor has a gfx942 device pass:
 * there the wrappers exist only as declarations that fail to compile if a
 * call survives (the tile API refuses the shapes earlier, with a message). */
#define TK_GFX950_ONLY_(what) \
  TK_DEV __attribute__((error("tk: " what " is a gfx950 (CDNA4) instruction; guard its use with #if TK_HAS_MFMA_F16_X2 / TK_HAS_MFMA_F8F6F4")))
#if TK_HAS_MFMA_F16_X2 && TK_DEVICE_PASS
typedef __bf16 tk_bf16x8_ __attribute__((ext_vector_type(8)));
TK_DI tk_f32x4 tk_mfma_16x16x32_bf16(tk_i16x8 a, tk_i16x8 b, tk_f32x4 c) {
  return __builtin_amdgcn_mfma_f32_16x16x32_bf16(__builtin_bit_cast(tk_bf16x8_, a),
                                                 __builtin_bit_cast(tk_bf16x8_, b), c, 0, 0, 0);
}
TK_DI tk_f32x16 tk_mfma_32x32x16_bf16(tk_i16x8 a, tk_i16x8 b, tk_f32x16 c) {
  return __builtin_amdgcn_mfma_f32_32x32x16_bf16(__builtin_bit_cast(tk_bf16x8_, a),
                                                 __builtin_bit_cast(tk_bf16x8_, b), c, 0, 0, 0);
}
TK_DI tk_f32x4 tk_mfma_16x16x32_f16(tk_f16x8 a, tk_f16x8 b, tk_f32x4 c) {
  return __builtin_amdgcn_mfma_f32_16x16x32_f16(a, b, c, 0, 0, 0);
}
TK_DI tk_f32x16 tk_mfma_32x32x16_f16(tk_f16x8 a, tk_f16x8 b, tk_f32x16 c) {
  return __builtin_amdgcn_mfma_f32_32x32x16_f16(a, b, c, 0, 0, 0);
}
#else
TK_GFX950_ONLY_("v_mfma_f32_16x16x32_bf16") tk_f32x4 tk_mfma_16x16x32_bf16(tk_i16x8 a, tk_i16x8 b, tk_f32x4 c);
TK_GFX950_ONLY_("v_mfma_f32_32x32x16_bf16") tk_f32x16 tk_mfma_32x32x16_bf16(tk_i16x8 a, tk_i16x8 b, tk_f32x16 c);
TK_GFX950_ONLY_("v_mfma_f32_16x16x32_f16") tk_f32x4 tk_mfma_16x16x32_f16(tk_f16x8 a, tk_f16x8 b, tk_f32x4 c);
TK_GFX950_ONLY_("v_mfma_f32_32x32x16_f16") tk_f32x16 tk_mfma_32x32x16_f16(tk_f16x8 a, tk_f16x8 b, tk_f32x16 c);
#endif
/* f8f6f4 formats (cbsz for A, blgp for B): CDNA4 ISA guide / LLVM */
enum { TK_F8F6F4_FP8 = 0, TK_F8F6F4_BF8 = 1, TK_F8F6F4_FP6 = 2, TK_F8F6F4_BF6 = 3, TK_F8F6F4_FP4 = 4 };
#if TK_HAS_MFMA_F8F6F4 && TK_DEVICE_PASS
/* D = (A·sa)(B·sb) + C, 16x16x128: fa/fb TK_F8F6F4_* (constants), sa/sb the
 * per-lane E8M0 scale bytes (byte 0 of the dword is used) */
#define tk_mfma_scale_16x16x128_f8f6f4(a, b, c, fa, fb, sa, sb) \
  __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4((a), (b), (c), (fa), (fb), 0, (sa), 0, (sb))
#define tk_mfma_scale_32x32x64_f8f6f4(a, b, c, fa, fb, sa, sb) \
  __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4((a), (b), (c), (fa), (fb), 0, (sa), 0, (sb))
/* the same with the scale byte chosen (ba, bb: 0..3, constants; op_sel and
 * op_sel_hi of the scale operands), and the fp4 form with 4-dword operands
 * (E2M1 A and B: 32 elements are 16 bytes per lane; the clang builtin only
 * takes 8 dwords, so the overloaded LLVM intrinsic is called by name) */
#define tk_mfma_scale_32x32x64_f8f6f4_sel(a, b, c, fa, fb, ba, sa, bb, sb) \
  __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4((a), (b), (c), (fa), (fb), (ba), (sa), (bb), (sb))
TK_DEV tk_f32x16 tk_llvm_mfma_scale_32x32x64_f4_(tk_i32x4 a, tk_i32x4 b, tk_f32x16 c, int cbsz, int blgp, int ba,
                                                  int sa, int bb, int sb)
    __asm("llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4.v4i32.v4i32");
#define tk_mfma_scale_32x32x64_fp4_sel(a, b, c, ba, sa, bb, sb) \
  tk_llvm_mfma_scale_32x32x64_f4_((a), (b), (c), TK_F8F6F4_FP4, TK_F8F6F4_FP4, (ba), (sa), (bb), (sb))
#else
TK_GFX950_ONLY_("v_mfma_scale_f32_32x32x64_f8f6f4")
tk_f32x16 tk_mfma_scale_32x32x64_f8f6f4_sel_(tk_i32x8 a, tk_i32x8 b, tk_f32x16 c, int sa, int sb);
TK_GFX950_ONLY_("v_mfma_scale_f32_32x32x64_f8f6f4")
tk_f32x16 tk_mfma_scale_32x32x64_fp4_sel_(tk_i32x4 a, tk_i32x4 b, tk_f32x16 c, int sa, int sb);
#define tk_mfma_scale_32x32x64_f8f6f4_sel(a, b, c, fa, fb, ba, sa, bb, sb) tk_mfma_scale_32x32x64_f8f6f4_sel_((a), (b), (c), (sa), (sb))
#define tk_mfma_scale_32x32x64_fp4_sel(a, b, c, ba, sa, bb, sb) tk_mfma_scale_32x32x64_fp4_sel_((a), (b), (c), (sa), (sb))
TK_GFX950_ONLY_("v_mfma_scale_f32_16x16x128_f8f6f4")
tk_f32x4 tk_mfma_scale_16x16x128_f8f6f4_(tk_i32x8 a, tk_i32x8 b, tk_f32x4 c, int sa, int sb);
TK_GFX950_ONLY_("v_mfma_scale_f32_32x32x64_f8f6f4")
tk_f32x16 tk_mfma_scale_32x32x64_f8f6f4_(tk_i32x8 a, tk_i32x8 b, tk_f32x16 c, int sa, int sb);
#define tk_mfma_scale_16x16x128_f8f6f4(a, b, c, fa, fb, sa, sb) tk_mfma_scale_16x16x128_f8f6f4_((a), (b), (c), (sa), (sb))
#define tk_mfma_scale_32x32x64_f8f6f4(a, b, c, fa, fb, sa, sb) tk_mfma_scale_32x32x64_f8f6f4_((a), (b), (c), (sa), (sb))
#endif

/* reinterpret an lvalue as another type: only the branch whose types match
 * is ever executed, the others are discarded after constant folding */
#define TK_RI_(T, x) (*(T *)(void *)&(x))

/* one fragment product, dispatched on compile-time type ids (dead branches
 * are removed; each branch only type-checks for its own vector types because
 * the operands are bit-cast). */
#define TK_MFMA_FRAG(dt, shape, a, b, c, d)                                      \
  do {                                                                            \
    if ((dt) == TK_DT_BF16 && (shape) == TK_SHAPE_16x16x16)                      \
      TK_RI_(tk_f32x4, d) = (tk_mfma_16x16x16_bf16(               \
          TK_RI_(tk_i16x4, a), TK_RI_(tk_i16x4, b),        \
          TK_RI_(tk_f32x4, c)));                                      \
    else if ((dt) == TK_DT_BF16 && (shape) == TK_SHAPE_32x32x8)                  \
      TK_RI_(tk_f32x16, d) = (tk_mfma_32x32x8_bf16(                \
          TK_RI_(tk_i16x4, a), TK_RI_(tk_i16x4, b),        \
          TK_RI_(tk_f32x16, c)));                                     \
    else if ((dt) == TK_DT_F16 && (shape) == TK_SHAPE_16x16x16)                  \
      TK_RI_(tk_f32x4, d) = (tk_mfma_16x16x16_f16(                \
          TK_RI_(tk_f16x4, a), TK_RI_(tk_f16x4, b),        \
          TK_RI_(tk_f32x4, c)));                                      \
    else if ((dt) == TK_DT_F16 && (shape) == TK_SHAPE_32x32x8)                   \
      TK_RI_(tk_f32x16, d) = (tk_mfma_32x32x8_f16(                 \
          TK_RI_(tk_f16x4, a), TK_RI_(tk_f16x4, b),        \
          TK_RI_(tk_f32x16, c)));                                     \
    else if ((dt) == TK_DT_FP8E4 && (shape) == TK_SHAPE_16x16x32)                \
      TK_RI_(tk_f32x4, d) = (tk_mfma_16x16x32_fp8(                \
          TK_RI_(int64_t, a), TK_RI_(int64_t, b),          \
          TK_RI_(tk_f32x4, c)));                                      \
    else if ((dt) == TK_DT_FP8E4 && (shape) == TK_SHAPE_32x32x16)                \
      TK_RI_(tk_f32x16, d) = (tk_mfma_32x32x16_fp8(                \
          TK_RI_(int64_t, a), TK_RI_(int64_t, b),          \
          TK_RI_(tk_f32x16, c)));                                     \
    else if ((dt) == TK_DT_I8 && (shape) == TK_SHAPE_16x16x32)                   \
      TK_RI_(tk_i32x4, d) = (tk_mfma_16x16x32_i8(                 \
          TK_RI_(int64_t, a), TK_RI_(int64_t, b),          \
          TK_RI_(tk_i32x4, c)));                                      \
    TK_MFMA_FRAG_X2_(dt, shape, a, b, c, d)                                      \
  } while (0)
/* gfx950's shapes, only where they can be emitted (no dead calls to the
 * declarations above at -O0) */
#if TK_HAS_MFMA_F16_X2 && TK_DEVICE_PASS
#define TK_MFMA_FRAG_X2_(dt, shape, a, b, c, d)                                  \
    else if ((dt) == TK_DT_BF16 && (shape) == TK_SHAPE_16x16x32)                 \
      TK_RI_(tk_f32x4, d) = tk_mfma_16x16x32_bf16(TK_RI_(tk_i16x8, a), TK_RI_(tk_i16x8, b), TK_RI_(tk_f32x4, c)); \
    else if ((dt) == TK_DT_BF16 && (shape) == TK_SHAPE_32x32x16)                 \
      TK_RI_(tk_f32x16, d) = tk_mfma_32x32x16_bf16(TK_RI_(tk_i16x8, a), TK_RI_(tk_i16x8, b), TK_RI_(tk_f32x16, c)); \
    else if ((dt) == TK_DT_F16 && (shape) == TK_SHAPE_16x16x32)                  \
      TK_RI_(tk_f32x4, d) = tk_mfma_16x16x32_f16(TK_RI_(tk_f16x8, a), TK_RI_(tk_f16x8, b), TK_RI_(tk_f32x4, c)); \
    else if ((dt) == TK_DT_F16 && (shape) == TK_SHAPE_32x32x16)                  \
      TK_RI_(tk_f32x16, d) = tk_mfma_32x32x16_f16(TK_RI_(tk_f16x8, a), TK_RI_(tk_f16x8, b), TK_RI_(tk_f32x16, c));
#else
#define TK_MFMA_FRAG_X2_(dt, shape, a, b, c, d)
#endif
#endif

/* static checks shared by the four products; TA/TB are the tile types, and
 * the "logical" dims after transposition are passed in. */
#define TK_MMA_CHECK(TD, TA, TB, TC, kA, kB, opA, opB, M, K, N)                  \
  static_assert(((int)TA::tk_dt) == TK_DT_BF16 || ((int)TA::tk_dt) == TK_DT_F16 ||             \
                ((int)TA::tk_dt) == TK_DT_FP8E4 || ((int)TA::tk_dt) == TK_DT_I8,                \
    "tk: mma: operand type has no MFMA (use bf16, f16, fp8 e4m3 or i8 tiles)");  \
  static_assert(((int)TA::tk_dt) == ((int)TB::tk_dt) && ((int)TA::tk_shape) == ((int)TB::tk_shape),          \
    "tk: mma: A and B must have the same element type and MFMA shape");          \
  static_assert(TK_HAS_MFMA_F16_X2 || !TK_DEVICE_PASS ||                         \
                !((((int)TA::tk_dt) == TK_DT_BF16 || ((int)TA::tk_dt) == TK_DT_F16) && \
                  (((int)TA::tk_shape) == TK_SHAPE_16x16x32 || ((int)TA::tk_shape) == TK_SHAPE_32x32x16)), \
    "tk: mma: 16x16x32 and 32x32x16 bf16/f16 are gfx950 (CDNA4) shapes; this device pass is " TK_TARGET_NAME \
    " (guard with #if TK_HAS_MFMA_F16_X2)");                                      \
  static_assert(((int)TA::tk_op) == (opA) && ((int)TB::tk_op) == (opB),                         \
    "tk: mma: operand tile kind does not match (A/B/transposed) role");           \
  static_assert(((int)TD::tk_op) == TK_OP_C && ((int)TC::tk_op) == TK_OP_C &&                   \
                ((int)TD::tk_dt) == ((int)TC::tk_dt) &&                                         \
                ((int)TD::tk_dt) == (((int)TA::tk_dt) == TK_DT_I8 ? TK_DT_I32 : TK_DT_F32),     \
    "tk: mma: D and C must be accumulator tiles (f32, or i32 for i8)");           \
  static_assert(((int)TD::tk_frag_rows) == ((((int)TA::tk_shape) == TK_SHAPE_16x16x16 ||           \
                                  ((int)TA::tk_shape) == TK_SHAPE_16x16x32) ? 16 : 32),  \
    "tk: mma: accumulator fragment size does not match the MFMA shape");         \
  static_assert((M) == ((int)TD::tk_rows) && (N) == ((int)TD::tk_cols) && (K) > 0 &&           \
                ((int)TD::tk_rows) == ((int)TC::tk_rows) && ((int)TD::tk_cols) == ((int)TC::tk_cols),         \
    "tk: mma: incompatible tile shapes (need A M×K, B K×N, C and D M×N)")

#if TK_HIP
/* gfx950: a pair of K fragments of a CDNA3 bf16/f16 shape (16x16x16,
 * 32x32x8) goes through one MFMA of the double-K shape (16x16x32, 32x32x16),
 * which runs at twice the rate (LLVM's gfx950 scheduling model gives both the
 * same cycles). Exact regrouping, not a new layout: in both shapes lane l
 * holds row (A) / column (B) l % 16 (or 32) and consecutive K slots of group
 * l / 16 (or 32), so concatenating fragments k and k+1 per lane maps A's and
 * B's slots to the same true K in both operands, and the MFMA sums over all
 * slots. Only the f32 accumulation order differs. */
#if TK_HAS_MFMA_F16_X2 && TK_DEVICE_PASS
#define TK_MMA_K2_(dt, shape, nk)                                                  \
  (((dt) == TK_DT_BF16 || (dt) == TK_DT_F16) &&                                  \
   ((shape) == TK_SHAPE_16x16x16 || (shape) == TK_SHAPE_32x32x8) && (nk) % 2 == 0)
#define TK_CAT8_(T4, x, y) __builtin_shufflevector(TK_RI_(T4, x), TK_RI_(T4, y), 0, 1, 2, 3, 4, 5, 6, 7)
#define TK_MFMA_FRAG_K2_(dt, shape, a0, a1, b0, b1, c, d)                        \
  do {                                                                            \
    if ((dt) == TK_DT_BF16 && (shape) == TK_SHAPE_16x16x16)                      \
      TK_RI_(tk_f32x4, d) = tk_mfma_16x16x32_bf16(TK_CAT8_(tk_i16x4, a0, a1), TK_CAT8_(tk_i16x4, b0, b1), TK_RI_(tk_f32x4, c)); \
    else if ((dt) == TK_DT_BF16 && (shape) == TK_SHAPE_32x32x8)                  \
      TK_RI_(tk_f32x16, d) = tk_mfma_32x32x16_bf16(TK_CAT8_(tk_i16x4, a0, a1), TK_CAT8_(tk_i16x4, b0, b1), TK_RI_(tk_f32x16, c)); \
    else if ((dt) == TK_DT_F16 && (shape) == TK_SHAPE_16x16x16)                  \
      TK_RI_(tk_f32x4, d) = tk_mfma_16x16x32_f16(TK_CAT8_(tk_f16x4, a0, a1), TK_CAT8_(tk_f16x4, b0, b1), TK_RI_(tk_f32x4, c)); \
    else if ((dt) == TK_DT_F16 && (shape) == TK_SHAPE_32x32x8)                   \
      TK_RI_(tk_f32x16, d) = tk_mfma_32x32x16_f16(TK_CAT8_(tk_f16x4, a0, a1), TK_CAT8_(tk_f16x4, b0, b1), TK_RI_(tk_f32x16, c)); \
  } while (0)
#else
#define TK_MMA_K2_(dt, shape, nk) 0
#define TK_MFMA_FRAG_K2_(dt, shape, a0, a1, b0, b1, c, d) do { (void)(a0); (void)(a1); (void)(b0); (void)(b1); } while (0)
#endif

/* gfx950: four K fragments of an fp8 e4m3 16x16x32 / 32x32x16 product go
 * through one f8f6f4 MFMA with fp8 A and B (16x16x128 / 32x32x64), which runs
 * at twice the rate of the CDNA3 fp8 shapes gfx950 keeps (docs/tksim-model.md
 * "CDNA4 parameters": product-page FP8 peak vs LLVM's gfx950 scheduling
 * model). The same regrouping as the K pairs above: lane l holds row/column
 * l % M and K slots KW*(l / M).. in both shapes (KW 8 -> 32, docs/hardware.md
 * "CDNA4"), so fragment j's slot i lands in slot 8j + i of the lane's 32 and
 * A and B agree on the true K of every slot. Scale arguments 0 make clang-22
 * emit the unscaled v_mfma_f32_{16x16x128,32x32x64}_f8f6f4 (no scaling by
 * definition); the scale form (scale 127 = 1.0) needs more registers: the
 * fp8 8wave GEMM spilled 104 VGPRs with it on gfx950, none with this. */
#if TK_HAS_MFMA_F8F6F4 && TK_DEVICE_PASS
#define TK_MMA_K4_(dt, shape, nk)                                                  \
  ((dt) == TK_DT_FP8E4 && ((shape) == TK_SHAPE_16x16x32 || (shape) == TK_SHAPE_32x32x16) && (nk) % 4 == 0)
typedef long long tk_i64x4_ __attribute__((ext_vector_type(4)));
#define TK_CAT4_I64_(x0, x1, x2, x3) \
  __builtin_bit_cast(tk_i32x8, ((tk_i64x4_){TK_RI_(long long, x0), TK_RI_(long long, x1), TK_RI_(long long, x2), TK_RI_(long long, x3)}))
#define TK_MFMA_FRAG_K4_(dt, shape, a0, a1, a2, a3, b0, b1, b2, b3, c, d)        \
  do {                                                                            \
    if ((dt) == TK_DT_FP8E4 && (shape) == TK_SHAPE_16x16x32)                     \
      TK_RI_(tk_f32x4, d) = tk_mfma_scale_16x16x128_f8f6f4(TK_CAT4_I64_(a0, a1, a2, a3), TK_CAT4_I64_(b0, b1, b2, b3), \
          TK_RI_(tk_f32x4, c), TK_F8F6F4_FP8, TK_F8F6F4_FP8, 0, 0);          \
    else if ((dt) == TK_DT_FP8E4 && (shape) == TK_SHAPE_32x32x16)                \
      TK_RI_(tk_f32x16, d) = tk_mfma_scale_32x32x64_f8f6f4(TK_CAT4_I64_(a0, a1, a2, a3), TK_CAT4_I64_(b0, b1, b2, b3), \
          TK_RI_(tk_f32x16, c), TK_F8F6F4_FP8, TK_F8F6F4_FP8, 0, 0);         \
  } while (0)
#else
#define TK_MMA_K4_(dt, shape, nk) 0
#define TK_MFMA_FRAG_K4_(dt, shape, a0, a1, a2, a3, b0, b1, b2, b3, c, d) \
  do { (void)(a0); (void)(a1); (void)(a2); (void)(a3); (void)(b0); (void)(b1); (void)(b2); (void)(b3); } while (0)
#endif

/* generic loop: A fragment (m,k) at ia, B fragment (k,n) at ib; fully
 * unrolled, so fragment indices are constants and tiles stay in registers
 * (a dynamically indexed tile would live in scratch memory) */
#define TK_MMA_LOOP(D, A, B, C, NM, NN, NK, IA, IB)                               \
  do { _Pragma("unroll") for (int _m = 0; _m < (NM); _m++)                       \
         _Pragma("unroll") for (int _n = 0; _n < (NN); _n++) {                   \
           TK_TYPEOF((D).f[0]) _acc = (C).f[_m * (NN) + _n];                      \
           if (TK_MMA_K4_(((int)_TA::tk_dt), ((int)_TA::tk_shape), (NK))) {      \
             _Pragma("unroll") for (int _k4 = 0; _k4 < (NK); _k4 += 4) {         \
               int _ia[4], _ib[4];                                                \
               _Pragma("unroll") for (int _j = 0; _j < 4; _j++) {                \
                 const int _k = _k4 + _j; _ia[_j] = (IA); _ib[_j] = (IB); }       \
               TK_MFMA_FRAG_K4_(((int)_TA::tk_dt), ((int)_TA::tk_shape), (A).f[_ia[0]], (A).f[_ia[1]], \
                                (A).f[_ia[2]], (A).f[_ia[3]], (B).f[_ib[0]], (B).f[_ib[1]], \
                                (B).f[_ib[2]], (B).f[_ib[3]], _acc, _acc);        \
             }                                                                    \
           } else if (TK_MMA_K2_(((int)_TA::tk_dt), ((int)_TA::tk_shape), (NK))) { \
             _Pragma("unroll") for (int _k2 = 0; _k2 < (NK); _k2 += 2) {         \
               int _ia0, _ib0, _ia1, _ib1;                                        \
               { const int _k = _k2; _ia0 = (IA); _ib0 = (IB); }                  \
               { const int _k = _k2 + 1; _ia1 = (IA); _ib1 = (IB); }              \
               TK_MFMA_FRAG_K2_(((int)_TA::tk_dt), ((int)_TA::tk_shape), (A).f[_ia0], (A).f[_ia1], \
                                (B).f[_ib0], (B).f[_ib1], _acc, _acc);            \
             }                                                                    \
           } else {                                                               \
             _Pragma("unroll") for (int _k = 0; _k < (NK); _k++)                 \
               TK_MFMA_FRAG(((int)_TA::tk_dt), ((int)_TA::tk_shape),          \
                            (A).f[IA], (B).f[IB], _acc, _acc);                    \
           }                                                                      \
           (D).f[_m * (NN) + _n] = _acc;                                          \
         } } while (0)

/* D (M×N) = A (M×K, A kind) · B (K×N, B kind) + C */
#define tk_mma_AB(D, A, B, C)                                                     \
  do { typedef TK_TYPEOF(D) _TD; typedef TK_TYPEOF(C) _TC; typedef TK_TYPEOF(A) _TA; typedef TK_TYPEOF(B) _TB; \
       TK_MMA_CHECK(_TD, _TA, _TB, _TC, , , TK_OP_A, TK_OP_B,            \
                    ((int)_TA::tk_rows), ((int)_TA::tk_cols), ((int)_TB::tk_cols));                    \
       static_assert(((int)_TA::tk_cols) == ((int)_TB::tk_rows), "tk: mma_AB: A cols (K) must equal B rows (K)"); \
       TK_MMA_LOOP(D, A, B, C, ((int)_TA::tk_frag_count_r), ((int)_TB::tk_frag_count_c), ((int)_TA::tk_frag_count_c),                \
                   _m * ((int)_TA::tk_frag_count_c) + _k, _k * ((int)_TB::tk_frag_count_c) + _n); } while (0)
/* D = A · Bt^T + C, Bt N×K in the A kind */
#define tk_mma_ABt(D, A, Bt, C)                                                   \
  do { typedef TK_TYPEOF(D) _TD; typedef TK_TYPEOF(C) _TC; typedef TK_TYPEOF(A) _TA; typedef TK_TYPEOF(Bt) _TB; \
       TK_MMA_CHECK(_TD, _TA, _TB, _TC, , , TK_OP_A, TK_OP_A,            \
                    ((int)_TA::tk_rows), ((int)_TA::tk_cols), ((int)_TB::tk_rows));                    \
       static_assert(((int)_TA::tk_cols) == ((int)_TB::tk_cols), "tk: mma_ABt: A cols (K) must equal Bt cols (K)"); \
       TK_MMA_LOOP(D, A, Bt, C, ((int)_TA::tk_frag_count_r), ((int)_TB::tk_frag_count_r), ((int)_TA::tk_frag_count_c),               \
                   _m * ((int)_TA::tk_frag_count_c) + _k, _n * ((int)_TB::tk_frag_count_c) + _k); } while (0)
/* D = A · Bt^T + C over the first NM row fragments of A, C and D only (NM a
 * constant, 1..A's row fragments); D's other fragments are left as they are.
 * For a wave whose block runs past the rows it must produce (a tile of C
 * shorter than the kernel's register tile): the MFMAs of the rows beyond
 * are not issued at all. */
#define tk_mma_ABt_rows(D, A, Bt, C, NM)                                          \
  do { typedef TK_TYPEOF(D) _TD; typedef TK_TYPEOF(C) _TC; typedef TK_TYPEOF(A) _TA; typedef TK_TYPEOF(Bt) _TB; \
       TK_MMA_CHECK(_TD, _TA, _TB, _TC, , , TK_OP_A, TK_OP_A,            \
                    ((int)_TA::tk_rows), ((int)_TA::tk_cols), ((int)_TB::tk_rows));                    \
       static_assert(((int)_TA::tk_cols) == ((int)_TB::tk_cols), "tk: mma_ABt: A cols (K) must equal Bt cols (K)"); \
       static_assert((NM) >= 1 && (NM) <= ((int)_TA::tk_frag_count_r), "tk: mma_ABt_rows: NM must be 1..A's row fragments"); \
       TK_MMA_LOOP(D, A, Bt, C, (NM), ((int)_TB::tk_frag_count_r), ((int)_TA::tk_frag_count_c),                          \
                   _m * ((int)_TA::tk_frag_count_c) + _k, _n * ((int)_TB::tk_frag_count_c) + _k); } while (0)
/* D = A · Bt^T + C with OCP MX block scales (gfx950 only): A and Bt are fp8
 * e4m3-kind 32x32x16 tiles (TK_K_A_FP8_32x32x16, 8 bytes per fragment and
 * lane) holding FMT elements (TK_F8F6F4_FP8, _BF8: 8 per fragment, one
 * 32x32x64 MFMA per 4 K fragments, read with tk_prefetch_issue_b128_k4;
 * TK_F8F6F4_FP4: 16 per fragment, one MFMA per 2 fragments, read with
 * tk_prefetch_issue_b128), so that each lane's 32 elements of an MFMA are one
 * MX block.  SA[i], SB[j]: per-lane E8M0 scale dwords of A's row fragment i
 * and Bt's row fragment j; MFMA q (q-th group of K fragments, at most 2)
 * takes byte SEL + 2q of both (SEL, FMT constants).  An E8M0 byte of 0xff
 * makes the block's products NaN (OCP MX spec v1.0 §6.1; the hardware's).
 * Each fragment's result passes an empty asm volatile right after its
 * MFMAs, so the products stay where the caller wrote them (between its
 * scheduling fences and s_setprio): the MFMAs are pure, and without the pin
 * clang-22 sank both half-steps' MFMAs of the 8wave MX kernel out of their
 * compute clusters to the loop's end (no ping-pong, both half-steps'
 * fragments live at once: 97-199 VGPRs spilled at 256x256).  The pin takes
 * the accumulators in VGPRs ("+v"), where gfx950 kernels of <= 256
 * registers keep them anyway. */
#if TK_HAS_MFMA_F8F6F4 && TK_DEVICE_PASS
typedef long long tk_i64x2_ __attribute__((ext_vector_type(2)));
#define TK_CAT2_I64_(x0, x1) __builtin_bit_cast(tk_i32x4, ((tk_i64x2_){TK_RI_(long long, x0), TK_RI_(long long, x1)}))
#define TK_MX_MFMA_(FMT, A, B, ia, ib, acc, q, SEL, sa, sb)                        \
  do {                                                                             \
    if ((FMT) == TK_F8F6F4_FP4)                                                    \
      acc = tk_mfma_scale_32x32x64_fp4_sel(TK_CAT2_I64_((A).f[(ia) + 2 * (q)], (A).f[(ia) + 2 * (q) + 1]), \
          TK_CAT2_I64_((B).f[(ib) + 2 * (q)], (B).f[(ib) + 2 * (q) + 1]), acc, (SEL) + 2 * (q), (sa), (SEL) + 2 * (q), (sb)); \
    else                                                                           \
      acc = tk_mfma_scale_32x32x64_f8f6f4_sel(TK_CAT4_I64_((A).f[(ia) + (4 * (q)) % _nk], (A).f[(ia) + (4 * (q) + 1) % _nk], \
          (A).f[(ia) + (4 * (q) + 2) % _nk], (A).f[(ia) + (4 * (q) + 3) % _nk]), TK_CAT4_I64_((B).f[(ib) + (4 * (q)) % _nk], \
          (B).f[(ib) + (4 * (q) + 1) % _nk], (B).f[(ib) + (4 * (q) + 2) % _nk], (B).f[(ib) + (4 * (q) + 3) % _nk]), acc, \
          ((FMT) == TK_F8F6F4_BF8 ? TK_F8F6F4_BF8 : TK_F8F6F4_FP8), ((FMT) == TK_F8F6F4_BF8 ? TK_F8F6F4_BF8 : TK_F8F6F4_FP8), \
          (SEL) + 2 * (q), (sa), (SEL) + 2 * (q), (sb));                           \
  } while (0)
#define tk_mma_ABt_mx(D, A, Bt, C, SA, SB, FMT, SEL)                              \
  do { typedef TK_TYPEOF(D) _TD; typedef TK_TYPEOF(C) _TC; typedef TK_TYPEOF(A) _TA; typedef TK_TYPEOF(Bt) _TB; \
       TK_MMA_CHECK(_TD, _TA, _TB, _TC, , , TK_OP_A, TK_OP_A,            \
                    ((int)_TA::tk_rows), ((int)_TA::tk_cols), ((int)_TB::tk_rows));                    \
       static_assert(((int)_TA::tk_cols) == ((int)_TB::tk_cols), "tk: mma_ABt_mx: A cols (K) must equal Bt cols (K)"); \
       static_assert(((int)_TA::tk_dt) == TK_DT_FP8E4 && ((int)_TA::tk_shape) == TK_SHAPE_32x32x16, \
                     "tk: mma_ABt_mx takes fp8-kind 32x32x16 tiles (their bytes hold the MX elements)"); \
       enum { _g = (FMT) == TK_F8F6F4_FP4 ? 2 : 4, _nk = (int)_TA::tk_frag_count_c, _nq = _nk / _g }; \
       static_assert((FMT) == TK_F8F6F4_FP8 || (FMT) == TK_F8F6F4_BF8 || (FMT) == TK_F8F6F4_FP4, \
                     "tk: mma_ABt_mx formats: TK_F8F6F4_FP8, _BF8 or _FP4");       \
       static_assert(_nk % _g == 0 && _nq >= 1 && _nq <= 2 && (SEL) >= 0 && (SEL) + 2 * (_nq - 1) <= 3, \
                     "tk: mma_ABt_mx: 1 or 2 MFMAs per fragment pair, scale bytes SEL + 2q in 0..3"); \
       _Pragma("unroll") for (int _m = 0; _m < (int)_TA::tk_frag_count_r; _m++)   \
         _Pragma("unroll") for (int _n = 0; _n < (int)_TB::tk_frag_count_r; _n++) { \
           tk_f32x16 _acc = TK_RI_(tk_f32x16, (C).f[_m * (int)_TB::tk_frag_count_r + _n]); \
           TK_MX_MFMA_((FMT), A, Bt, _m * _nk, _n * _nk, _acc, 0, (SEL), (SA)[_m], (SB)[_n]); \
           if (_nq > 1) TK_MX_MFMA_((FMT), A, Bt, _m * _nk, _n * _nk, _acc, 1, (SEL), (SA)[_m], (SB)[_n]); \
           asm volatile("" : "+v"(_acc)); /* pinned here: see above */          \
           TK_RI_(tk_f32x16, (D).f[_m * (int)_TB::tk_frag_count_r + _n]) = _acc;   \
         } } while (0)
#else
#define tk_mma_ABt_mx(D, A, Bt, C, SA, SB, FMT, SEL)                              \
  do { static_assert(!TK_DEVICE_PASS, "tk: mma_ABt_mx needs gfx950's block-scaled MFMAs (v_mfma_scale_f32_32x32x64_f8f6f4)"); \
       (void)(SA); (void)(SB); } while (0)
#endif
/* D = At^T · B + C, At K×M in the B kind */
#define tk_mma_AtB(D, At, B, C)                                                   \
  do { typedef TK_TYPEOF(D) _TD; typedef TK_TYPEOF(C) _TC; typedef TK_TYPEOF(At) _TA; typedef TK_TYPEOF(B) _TB; \
       TK_MMA_CHECK(_TD, _TA, _TB, _TC, , , TK_OP_B, TK_OP_B,            \
                    ((int)_TA::tk_cols), ((int)_TA::tk_rows), ((int)_TB::tk_cols));                    \
       static_assert(((int)_TA::tk_rows) == ((int)_TB::tk_rows), "tk: mma_AtB: At rows (K) must equal B rows (K)"); \
       TK_MMA_LOOP(D, At, B, C, ((int)_TA::tk_frag_count_c), ((int)_TB::tk_frag_count_c), ((int)_TA::tk_frag_count_r),               \
                   _k * ((int)_TA::tk_frag_count_c) + _m, _k * ((int)_TB::tk_frag_count_c) + _n); } while (0)
/* D = At^T · Bt^T + C */
#define tk_mma_AtBt(D, At, Bt, C)                                                 \
  do { typedef TK_TYPEOF(D) _TD; typedef TK_TYPEOF(C) _TC; typedef TK_TYPEOF(At) _TA; typedef TK_TYPEOF(Bt) _TB; \
       TK_MMA_CHECK(_TD, _TA, _TB, _TC, , , TK_OP_B, TK_OP_A,            \
                    ((int)_TA::tk_cols), ((int)_TA::tk_rows), ((int)_TB::tk_rows));                    \
       static_assert(((int)_TA::tk_rows) == ((int)_TB::tk_cols), "tk: mma_AtBt: At rows (K) must equal Bt cols (K)"); \
       TK_MMA_LOOP(D, At, Bt, C, ((int)_TA::tk_frag_count_c), ((int)_TB::tk_frag_count_r), ((int)_TA::tk_frag_count_r),              \
                   _k * ((int)_TA::tk_frag_count_c) + _m, _n * ((int)_TB::tk_frag_count_c) + _k); } while (0)
#endif

#endif /* TK_MMA_H */
