/* tk/register.h: per-wave register fragments in the exact MFMA operand
 * layouts, and register tiles composed of them.
 *
 * Layouts (CDNA3 ISA guide §7 "Matrix Arithmetic Instructions"; AMD matrix
 * instruction calculator, e.g. `--instruction v_mfma_f32_32x32x8_bf16
 * --detail-instruction`).  l = lane 0..63, i = register element index.
 * Operand A is M×K, B is K×N, the accumulator M×N.  KW = K elements per lane
 * (4 for bf16/f16, 8 for fp8/i8 and for gfx950's 16x16x32 / 32x32x16 bf16/f16).
 *   16x16xK:  A(l,i)  = (row l%16,           k KW*(l/16)+i)
 *             B(l,i)  = (k KW*(l/16)+i,      col l%16)
 *             C(l,i)  = (row 4*(l/16)+i,     col l%16),            i < 4
 *   32x32xK:  A(l,i)  = (row l%32,           k KW*(l/32)+i)
 *             B(l,i)  = (k KW*(l/32)+i,      col l%32)
 *             C(l,i)  = (row 8*(i/4)+4*(l/32)+i%4, col l%32),      i < 16
 * Kinds (TK_K_<op>_<type>_<shape>) name a fragment: rows, cols, per-lane
 * vector type, element type id, shape id, operand role.  Register tiles
 * (TK_RT) hold R/rows × C/cols fragments, row-major in .f[].
 * A B-operand tile is physically the A-operand layout of its transpose, so
 * mma_ABt etc. need no data movement (see mma.h).
 */
#ifndef TK_REGISTER_H
#define TK_REGISTER_H

#include "types.h"

/* shape ids */
enum { TK_SHAPE_16x16x16 = 1, TK_SHAPE_32x32x8 = 2, TK_SHAPE_16x16x32 = 3,
       TK_SHAPE_32x32x16 = 4 };
/* operand roles */
enum { TK_OP_A = 1, TK_OP_B = 2, TK_OP_C = 3 };

/* kind tables: ROWS, COLS, VEC (per-lane type), N (elements per lane), DT, SHAPE, OP */
/* bf16 */
#define TK_K_A_BF16_16x16x16_ROWS 16
#define TK_K_A_BF16_16x16x16_COLS 16
#define TK_K_A_BF16_16x16x16_VEC tk_i16x4
#define TK_K_A_BF16_16x16x16_N 4
#define TK_K_A_BF16_16x16x16_DT TK_DT_BF16
#define TK_K_A_BF16_16x16x16_SHAPE TK_SHAPE_16x16x16
#define TK_K_A_BF16_16x16x16_OP TK_OP_A
#define TK_K_B_BF16_16x16x16_ROWS 16
#define TK_K_B_BF16_16x16x16_COLS 16
#define TK_K_B_BF16_16x16x16_VEC tk_i16x4
#define TK_K_B_BF16_16x16x16_N 4
#define TK_K_B_BF16_16x16x16_DT TK_DT_BF16
#define TK_K_B_BF16_16x16x16_SHAPE TK_SHAPE_16x16x16
#define TK_K_B_BF16_16x16x16_OP TK_OP_B
#define TK_K_A_BF16_32x32x8_ROWS 32
#define TK_K_A_BF16_32x32x8_COLS 8
#define TK_K_A_BF16_32x32x8_VEC tk_i16x4
#define TK_K_A_BF16_32x32x8_N 4
#define TK_K_A_BF16_32x32x8_DT TK_DT_BF16
#define TK_K_A_BF16_32x32x8_SHAPE TK_SHAPE_32x32x8
#define TK_K_A_BF16_32x32x8_OP TK_OP_A
#define TK_K_B_BF16_32x32x8_ROWS 8
#define TK_K_B_BF16_32x32x8_COLS 32
#define TK_K_B_BF16_32x32x8_VEC tk_i16x4
#define TK_K_B_BF16_32x32x8_N 4
#define TK_K_B_BF16_32x32x8_DT TK_DT_BF16
#define TK_K_B_BF16_32x32x8_SHAPE TK_SHAPE_32x32x8
#define TK_K_B_BF16_32x32x8_OP TK_OP_B
/* f16 */
#define TK_K_A_F16_16x16x16_ROWS 16
#define TK_K_A_F16_16x16x16_COLS 16
#define TK_K_A_F16_16x16x16_VEC tk_f16x4
#define TK_K_A_F16_16x16x16_N 4
#define TK_K_A_F16_16x16x16_DT TK_DT_F16
#define TK_K_A_F16_16x16x16_SHAPE TK_SHAPE_16x16x16
#define TK_K_A_F16_16x16x16_OP TK_OP_A
#define TK_K_B_F16_16x16x16_ROWS 16
#define TK_K_B_F16_16x16x16_COLS 16
#define TK_K_B_F16_16x16x16_VEC tk_f16x4
#define TK_K_B_F16_16x16x16_N 4
#define TK_K_B_F16_16x16x16_DT TK_DT_F16
#define TK_K_B_F16_16x16x16_SHAPE TK_SHAPE_16x16x16
#define TK_K_B_F16_16x16x16_OP TK_OP_B
#define TK_K_A_F16_32x32x8_ROWS 32
#define TK_K_A_F16_32x32x8_COLS 8
#define TK_K_A_F16_32x32x8_VEC tk_f16x4
#define TK_K_A_F16_32x32x8_N 4
#define TK_K_A_F16_32x32x8_DT TK_DT_F16
#define TK_K_A_F16_32x32x8_SHAPE TK_SHAPE_32x32x8
#define TK_K_A_F16_32x32x8_OP TK_OP_A
#define TK_K_B_F16_32x32x8_ROWS 8
#define TK_K_B_F16_32x32x8_COLS 32
#define TK_K_B_F16_32x32x8_VEC tk_f16x4
#define TK_K_B_F16_32x32x8_N 4
#define TK_K_B_F16_32x32x8_DT TK_DT_F16
#define TK_K_B_F16_32x32x8_SHAPE TK_SHAPE_32x32x8
#define TK_K_B_F16_32x32x8_OP TK_OP_B
/* fp8 e4m3 (8 values per lane packed in an int64) */
#define TK_K_A_FP8_16x16x32_ROWS 16
#define TK_K_A_FP8_16x16x32_COLS 32
#define TK_K_A_FP8_16x16x32_VEC int64_t
#define TK_K_A_FP8_16x16x32_N 8
#define TK_K_A_FP8_16x16x32_DT TK_DT_FP8E4
#define TK_K_A_FP8_16x16x32_SHAPE TK_SHAPE_16x16x32
#define TK_K_A_FP8_16x16x32_OP TK_OP_A
#define TK_K_B_FP8_16x16x32_ROWS 32
#define TK_K_B_FP8_16x16x32_COLS 16
#define TK_K_B_FP8_16x16x32_VEC int64_t
#define TK_K_B_FP8_16x16x32_N 8
#define TK_K_B_FP8_16x16x32_DT TK_DT_FP8E4
#define TK_K_B_FP8_16x16x32_SHAPE TK_SHAPE_16x16x32
#define TK_K_B_FP8_16x16x32_OP TK_OP_B
#define TK_K_A_FP8_32x32x16_ROWS 32
#define TK_K_A_FP8_32x32x16_COLS 16
#define TK_K_A_FP8_32x32x16_VEC int64_t
#define TK_K_A_FP8_32x32x16_N 8
#define TK_K_A_FP8_32x32x16_DT TK_DT_FP8E4
#define TK_K_A_FP8_32x32x16_SHAPE TK_SHAPE_32x32x16
#define TK_K_A_FP8_32x32x16_OP TK_OP_A
#define TK_K_B_FP8_32x32x16_ROWS 16
#define TK_K_B_FP8_32x32x16_COLS 32
#define TK_K_B_FP8_32x32x16_VEC int64_t
#define TK_K_B_FP8_32x32x16_N 8
#define TK_K_B_FP8_32x32x16_DT TK_DT_FP8E4
#define TK_K_B_FP8_32x32x16_SHAPE TK_SHAPE_32x32x16
#define TK_K_B_FP8_32x32x16_OP TK_OP_B
/* gfx950 only (TK_HAS_MFMA_F16_X2): bf16/f16 with 8 values per lane,
 * v_mfma_f32_16x16x32_{bf16,f16} and v_mfma_f32_32x32x16_{bf16,f16}; the
 * layout rule above with KW = 8 (CDNA4 ISA guide, matrix arithmetic) */
#define TK_K_A_BF16_16x16x32_ROWS 16
#define TK_K_A_BF16_16x16x32_COLS 32
#define TK_K_A_BF16_16x16x32_VEC tk_i16x8
#define TK_K_A_BF16_16x16x32_N 8
#define TK_K_A_BF16_16x16x32_DT TK_DT_BF16
#define TK_K_A_BF16_16x16x32_SHAPE TK_SHAPE_16x16x32
#define TK_K_A_BF16_16x16x32_OP TK_OP_A
#define TK_K_B_BF16_16x16x32_ROWS 32
#define TK_K_B_BF16_16x16x32_COLS 16
#define TK_K_B_BF16_16x16x32_VEC tk_i16x8
#define TK_K_B_BF16_16x16x32_N 8
#define TK_K_B_BF16_16x16x32_DT TK_DT_BF16
#define TK_K_B_BF16_16x16x32_SHAPE TK_SHAPE_16x16x32
#define TK_K_B_BF16_16x16x32_OP TK_OP_B
#define TK_K_A_BF16_32x32x16_ROWS 32
#define TK_K_A_BF16_32x32x16_COLS 16
#define TK_K_A_BF16_32x32x16_VEC tk_i16x8
#define TK_K_A_BF16_32x32x16_N 8
#define TK_K_A_BF16_32x32x16_DT TK_DT_BF16
#define TK_K_A_BF16_32x32x16_SHAPE TK_SHAPE_32x32x16
#define TK_K_A_BF16_32x32x16_OP TK_OP_A
#define TK_K_B_BF16_32x32x16_ROWS 16
#define TK_K_B_BF16_32x32x16_COLS 32
#define TK_K_B_BF16_32x32x16_VEC tk_i16x8
#define TK_K_B_BF16_32x32x16_N 8
#define TK_K_B_BF16_32x32x16_DT TK_DT_BF16
#define TK_K_B_BF16_32x32x16_SHAPE TK_SHAPE_32x32x16
#define TK_K_B_BF16_32x32x16_OP TK_OP_B
#define TK_K_A_F16_16x16x32_ROWS 16
#define TK_K_A_F16_16x16x32_COLS 32
#define TK_K_A_F16_16x16x32_VEC tk_f16x8
#define TK_K_A_F16_16x16x32_N 8
#define TK_K_A_F16_16x16x32_DT TK_DT_F16
#define TK_K_A_F16_16x16x32_SHAPE TK_SHAPE_16x16x32
#define TK_K_A_F16_16x16x32_OP TK_OP_A
#define TK_K_B_F16_16x16x32_ROWS 32
#define TK_K_B_F16_16x16x32_COLS 16
#define TK_K_B_F16_16x16x32_VEC tk_f16x8
#define TK_K_B_F16_16x16x32_N 8
#define TK_K_B_F16_16x16x32_DT TK_DT_F16
#define TK_K_B_F16_16x16x32_SHAPE TK_SHAPE_16x16x32
#define TK_K_B_F16_16x16x32_OP TK_OP_B
#define TK_K_A_F16_32x32x16_ROWS 32
#define TK_K_A_F16_32x32x16_COLS 16
#define TK_K_A_F16_32x32x16_VEC tk_f16x8
#define TK_K_A_F16_32x32x16_N 8
#define TK_K_A_F16_32x32x16_DT TK_DT_F16
#define TK_K_A_F16_32x32x16_SHAPE TK_SHAPE_32x32x16
#define TK_K_A_F16_32x32x16_OP TK_OP_A
#define TK_K_B_F16_32x32x16_ROWS 16
#define TK_K_B_F16_32x32x16_COLS 32
#define TK_K_B_F16_32x32x16_VEC tk_f16x8
#define TK_K_B_F16_32x32x16_N 8
#define TK_K_B_F16_32x32x16_DT TK_DT_F16
#define TK_K_B_F16_32x32x16_SHAPE TK_SHAPE_32x32x16
#define TK_K_B_F16_32x32x16_OP TK_OP_B
/* i8 16x16x32 */
#define TK_K_A_I8_16x16x32_ROWS 16
#define TK_K_A_I8_16x16x32_COLS 32
#define TK_K_A_I8_16x16x32_VEC int64_t
#define TK_K_A_I8_16x16x32_N 8
#define TK_K_A_I8_16x16x32_DT TK_DT_I8
#define TK_K_A_I8_16x16x32_SHAPE TK_SHAPE_16x16x32
#define TK_K_A_I8_16x16x32_OP TK_OP_A
#define TK_K_B_I8_16x16x32_ROWS 32
#define TK_K_B_I8_16x16x32_COLS 16
#define TK_K_B_I8_16x16x32_VEC int64_t
#define TK_K_B_I8_16x16x32_N 8
#define TK_K_B_I8_16x16x32_DT TK_DT_I8
#define TK_K_B_I8_16x16x32_SHAPE TK_SHAPE_16x16x32
#define TK_K_B_I8_16x16x32_OP TK_OP_B
/* accumulators; shape id 16 = any 16x16 MFMA, 32 = any 32x32 */
#define TK_K_C_F32_16x16_ROWS 16
#define TK_K_C_F32_16x16_COLS 16
#define TK_K_C_F32_16x16_VEC tk_f32x4
#define TK_K_C_F32_16x16_N 4
#define TK_K_C_F32_16x16_DT TK_DT_F32
#define TK_K_C_F32_16x16_SHAPE 16
#define TK_K_C_F32_16x16_OP TK_OP_C
#define TK_K_C_F32_32x32_ROWS 32
#define TK_K_C_F32_32x32_COLS 32
#define TK_K_C_F32_32x32_VEC tk_f32x16
#define TK_K_C_F32_32x32_N 16
#define TK_K_C_F32_32x32_DT TK_DT_F32
#define TK_K_C_F32_32x32_SHAPE 32
#define TK_K_C_F32_32x32_OP TK_OP_C
#define TK_K_C_I32_16x16_ROWS 16
#define TK_K_C_I32_16x16_COLS 16
#define TK_K_C_I32_16x16_VEC tk_i32x4
#define TK_K_C_I32_16x16_N 4
#define TK_K_C_I32_16x16_DT TK_DT_I32
#define TK_K_C_I32_16x16_SHAPE 16
#define TK_K_C_I32_16x16_OP TK_OP_C

/* TK_RT(name, kind, R, C): typedef a register tile type of R×C elements made
 * of fragments of `kind` (e.g. TK_RT(acc_t, TK_K_C_F32_32x32, 64, 64)).
 * R and C must be multiples of the fragment dimensions (static_assert). */
#define TK_RT(name, kind, R, C)                                                  \
  typedef struct {                                                               \
    static_assert((R) > 0 && (R) % kind##_ROWS == 0,                             \
      "tk: register tile rows must be a positive multiple of the fragment rows"); \
    static_assert((C) > 0 && (C) % kind##_COLS == 0,                             \
      "tk: register tile cols must be a positive multiple of the fragment cols"); \
    enum { tk_rows = (R), tk_cols = (C), tk_frag_rows = kind##_ROWS,                 \
           tk_frag_cols = kind##_COLS, tk_frag_count_r = (R) / kind##_ROWS,                     \
           tk_frag_count_c = (C) / kind##_COLS, tk_n = kind##_N, tk_dt = kind##_DT,        \
           tk_shape = kind##_SHAPE, tk_op = kind##_OP };                         \
    kind##_VEC f[((R) / kind##_ROWS) * ((C) / kind##_COLS)];                     \
  } name

/* number of fragments of a tile type / object */
#define TK_RT_NF(T) ((int)(((int)T::tk_frag_count_r) * ((int)T::tk_frag_count_c)))
#define TK_TYPEOF(x) __typeof__(x)

/* --- layout functions (lane, i) -> (row, col) within one fragment --------- */
/* shape: 16 or 32 (fragment M/N), kw: K elements per lane for A/B */
TK_HDI int tk_layout_a_row(int shape, int kw, int lane, int i) { (void)kw; (void)i; return lane % shape; }
TK_HDI int tk_layout_a_col(int shape, int kw, int lane, int i) { return kw * (lane / shape) + i; }
TK_HDI int tk_layout_b_row(int shape, int kw, int lane, int i) { return kw * (lane / shape) + i; }
TK_HDI int tk_layout_b_col(int shape, int kw, int lane, int i) { (void)kw; (void)i; return lane % shape; }
TK_HDI int tk_layout_c_row(int shape, int lane, int i) {
  return shape == 16 ? 4 * (lane / 16) + i : 8 * (i / 4) + 4 * (lane / 32) + i % 4;
}
TK_HDI int tk_layout_c_col(int shape, int lane, int i) { (void)i; return lane % shape; }

/* --- per-lane access helpers --------------------------------------------- */
#if TK_HIP
TK_DI int tk_lane(void) {
  uint32_t l = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  TK__OPAQUE_ID("+v", l); /* tk/sync.h: TK_OPAQUE_IDS */
  return (int)l;
}

/* cross-lane: value of lane (lane ^ m); ds_bpermute works in bytes */
TK_DI float tk_xor_f32(float v, int m) {
  int src = (tk_lane() ^ m) << 2;
  return __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute(src, __builtin_bit_cast(int, v)));
}
#endif

/* --- whole-tile operations (macros: work on any TK_RT type) --------------- */
/* fill every element with scalar v (a value for f32/f16/i32/i8 tiles, the
 * bit pattern for bf16/fp8 tiles).  fp8/i8 fragments are one int64 holding 8
 * bytes, so they are filled through a byte view; vector kinds by a splat. */
#define tk_rt_fill(D, v)                                                         \
  do { typedef TK_TYPEOF(D) _TF;                                                 \
       _Pragma("unroll") for (int _f = 0; _f < (int)(sizeof((D).f) / sizeof((D).f[0])); _f++) \
         if ((int)sizeof((D).f[0]) == ((int)_TF::tk_n)) /* 1 byte per element */ \
           *(tk_u8x8 *)(void *)&(D).f[_f] = (tk_u8x8)(uint8_t)(v);              \
         else (D).f[_f] = (TK_TYPEOF((D).f[0]))(v); } while (0)
#define tk_rt_zero(D) tk_rt_fill(D, 0)
/* pin every fragment of D where this stands: an empty asm per fragment that
 * clang cannot move code across (e.g. accumulators zeroed under a prologue's
 * load latency instead of after the first barrier) */
#define tk_rt_pin(D)                                                             \
  do { _Pragma("unroll") for (int _f = 0; _f < (int)(sizeof((D).f) / sizeof((D).f[0])); _f++) \
         asm volatile("" : "+v"((D).f[_f])); } while (0)

/* (a nested block so the helper typedefs never collide) */
#define TK_RT_SAME(D, A)                                                          \
  { typedef TK_TYPEOF(D) _S1; typedef TK_TYPEOF(A) _S2;                           \
    static_assert(((int)_S1::tk_rows) == ((int)_S2::tk_rows) && ((int)_S1::tk_cols) == ((int)_S2::tk_cols) && \
                  ((int)_S1::tk_dt) == ((int)_S2::tk_dt) && ((int)_S1::tk_shape) == ((int)_S2::tk_shape) &&  \
                  ((int)_S1::tk_op) == ((int)_S2::tk_op),                                       \
                  "tk: elementwise operands must be register tiles of the same kind and size"); }
#define TK_RT_FLOAT(D)                                                            \
  { typedef TK_TYPEOF(D) _S1;                                                     \
    static_assert(((int)_S1::tk_dt) == TK_DT_F32, "tk: this operation needs an f32 (accumulator) tile"); }

/* Arithmetic needs elements the vector types compute on: bf16 and fp8 tiles
 * hold raw bits (convert first); i8 tiles are packed in an int64, so they go
 * through a byte view (8 independent wrapping int8 lanes). */
#define TK_RT_BINOP(D, A, B, OP)                                                 \
  do { TK_RT_SAME(D, A); TK_RT_SAME(D, B);                                       \
       { typedef TK_TYPEOF(D) _S0;                                               \
         static_assert(((int)_S0::tk_dt) == TK_DT_F32 || ((int)_S0::tk_dt) == TK_DT_F16 || \
                       ((int)_S0::tk_dt) == TK_DT_I32 || ((int)_S0::tk_dt) == TK_DT_I8,   \
           "tk: elementwise arithmetic needs f32, f16, i32 or i8 tiles (bf16/fp8 tiles hold raw bits)"); \
         _Pragma("unroll") for (int _f = 0; _f < (int)(sizeof((D).f) / sizeof((D).f[0])); _f++) \
           if (((int)_S0::tk_dt) == TK_DT_I8)                                     \
             *(tk_i8x8 *)(void *)&(D).f[_f] =                                    \
                 *(tk_i8x8 *)(void *)&(A).f[_f] OP *(tk_i8x8 *)(void *)&(B).f[_f]; \
           else (D).f[_f] = (A).f[_f] OP (B).f[_f]; } } while (0)
#define tk_rt_add(D, A, B) TK_RT_BINOP(D, A, B, +)
#define tk_rt_sub(D, A, B) TK_RT_BINOP(D, A, B, -)
#define tk_rt_mul(D, A, B) TK_RT_BINOP(D, A, B, *)
#define tk_rt_scale(D, A, s)                                                      \
  do { TK_RT_SAME(D, A); TK_RT_FLOAT(D);                                          \
       for (int _f = 0; _f < (int)(sizeof((D).f) / sizeof((D).f[0])); _f++)      \
         (D).f[_f] = (A).f[_f] * (float)(s); } while (0)
#define tk_rt_max(D, A, B)                                                        \
  do { TK_RT_SAME(D, A); TK_RT_SAME(D, B); TK_RT_FLOAT(D);                        \
       for (int _f = 0; _f < (int)(sizeof((D).f) / sizeof((D).f[0])); _f++)      \
         for (int _i = 0; _i < (int)(sizeof((D).f[0]) / sizeof((D).f[0][0])); _i++)                     \
           (D).f[_f][_i] = __builtin_fmaxf((A).f[_f][_i], (B).f[_f][_i]); } while (0)
#define tk_rt_exp2(D, A)                                                          \
  do { TK_RT_SAME(D, A); TK_RT_FLOAT(D);                                          \
       for (int _f = 0; _f < (int)(sizeof((D).f) / sizeof((D).f[0])); _f++)      \
         for (int _i = 0; _i < (int)(sizeof((D).f[0]) / sizeof((D).f[0][0])); _i++)                     \
           (D).f[_f][_i] = __builtin_exp2f((A).f[_f][_i]); } while (0)

/* Row / column vectors of an f32 accumulator tile, per lane: a lane holds the
 * values of the rows (columns) its elements lie in.
 *   row vector: float rv[TK_RT_ROWV(T)], rv[fr*N + i] belongs to row
 *               fr*FR + tk_layout_c_row(FR, lane, i)
 *   col vector: float cv[TK_RT_COLV(T)], cv[fc] belongs to column
 *               fc*FC + lane % FC */
#define TK_RT_ROWV(T) ((int)(((int)T::tk_frag_count_r) * ((int)T::tk_n)))
#define TK_RT_COLV(T) ((int)(((int)T::tk_frag_count_c)))

#if TK_HIP
/* reduce v over the lanes that share a row (lane % FR differs): xor 1..FR/2 */
#define TK_ROW_XREDUCE(v, FR, OPF)                                                \
  do { for (int _m = 1; _m < (FR); _m <<= 1) (v) = OPF((v), tk_xor_f32((v), _m)); } while (0)
/* reduce over lanes sharing a column (lane / FR differs): xor FR..32 */
#define TK_COL_XREDUCE(v, FR, OPF)                                                \
  do { for (int _m = (FR); _m < 64; _m <<= 1) (v) = OPF((v), tk_xor_f32((v), _m)); } while (0)
TK_DI float tk_op_max(float a, float b) { return __builtin_fmaxf(a, b); }
TK_DI float tk_op_sum(float a, float b) { return a + b; }

#define TK_RT_ROW_REDUCE(rv, A, OPF)                                              \
  do { TK_RT_FLOAT(A);                                                            \
       typedef TK_TYPEOF(A) _T;                                                   \
       for (int _r = 0; _r < ((int)_T::tk_frag_count_r); _r++)                                     \
         for (int _i = 0; _i < ((int)_T::tk_n); _i++) {                                  \
           float _v = (A).f[_r * ((int)_T::tk_frag_count_c)][_i];                                  \
           for (int _c = 1; _c < ((int)_T::tk_frag_count_c); _c++) _v = OPF(_v, (A).f[_r * ((int)_T::tk_frag_count_c) + _c][_i]); \
           TK_ROW_XREDUCE(_v, ((int)_T::tk_frag_rows), OPF);                                 \
           (rv)[_r * ((int)_T::tk_n) + _i] = _v;                                         \
         } } while (0)
#define TK_RT_COL_REDUCE(cv, A, OPF)                                              \
  do { TK_RT_FLOAT(A);                                                            \
       typedef TK_TYPEOF(A) _T;                                                   \
       for (int _c = 0; _c < ((int)_T::tk_frag_count_c); _c++) {                                   \
         float _v = (A).f[_c][0];                                                 \
         for (int _r = 0; _r < ((int)_T::tk_frag_count_r); _r++)                                   \
           for (int _i = (_r == 0 ? 1 : 0); _i < ((int)_T::tk_n); _i++)                  \
             _v = OPF(_v, (A).f[_r * ((int)_T::tk_frag_count_c) + _c][_i]);                        \
         TK_COL_XREDUCE(_v, ((int)_T::tk_frag_rows), OPF);                                   \
         (cv)[_c] = _v;                                                           \
       } } while (0)
/* row-wise / column-wise max and sum of an f32 tile (cross-lane via ds_bpermute) */
#define tk_rt_row_max(rv, A) TK_RT_ROW_REDUCE(rv, A, tk_op_max)
#define tk_rt_row_sum(rv, A) TK_RT_ROW_REDUCE(rv, A, tk_op_sum)
#define tk_rt_col_max(cv, A) TK_RT_COL_REDUCE(cv, A, tk_op_max)
#define tk_rt_col_sum(cv, A) TK_RT_COL_REDUCE(cv, A, tk_op_sum)
#endif

/* broadcasts: D = A (op) row vector / column vector; OP one of + - * */
#define tk_rt_row_bcast(D, A, rv, OP)                                             \
  do { TK_RT_SAME(D, A); TK_RT_FLOAT(D); typedef TK_TYPEOF(A) _T;                 \
       for (int _r = 0; _r < ((int)_T::tk_frag_count_r); _r++)                                     \
         for (int _c = 0; _c < ((int)_T::tk_frag_count_c); _c++)                                   \
           for (int _i = 0; _i < ((int)_T::tk_n); _i++)                                  \
             (D).f[_r * ((int)_T::tk_frag_count_c) + _c][_i] = (A).f[_r * ((int)_T::tk_frag_count_c) + _c][_i] OP (rv)[_r * ((int)_T::tk_n) + _i]; \
  } while (0)
#define tk_rt_col_bcast(D, A, cv, OP)                                             \
  do { TK_RT_SAME(D, A); TK_RT_FLOAT(D); typedef TK_TYPEOF(A) _T;                 \
       for (int _r = 0; _r < ((int)_T::tk_frag_count_r); _r++)                                     \
         for (int _c = 0; _c < ((int)_T::tk_frag_count_c); _c++)                                   \
           for (int _i = 0; _i < ((int)_T::tk_n); _i++)                                  \
             (D).f[_r * ((int)_T::tk_frag_count_c) + _c][_i] = (A).f[_r * ((int)_T::tk_frag_count_c) + _c][_i] OP (cv)[_c]; \
  } while (0)

/* Convert an f32 accumulator tile (M×N) to a bf16 / f16 B-operand tile of the
 * same M×N (M becomes K): C(l,i) = (4*(l/16)+i, l%16) is exactly the B layout
 * (k = 4*(l/16)+i, n = l%16); for 32x32, register group i/4 is the K=8 block
 * i/4 of the 32x32x8 B layout.  D: TK_RT(.., TK_K_B_BF16_16x16x16 or
 * TK_K_B_BF16_32x32x8 (or F16), M, N). */
#define TK_RT_CVT_C_TO_B(D, A, CVT)                                               \
  do { TK_RT_FLOAT(A); typedef TK_TYPEOF(A) _TA; typedef TK_TYPEOF(D) _TD;        \
       static_assert(((int)_TD::tk_op) == TK_OP_B && ((int)_TD::tk_n) == 4 &&                   \
                     ((int)_TD::tk_rows) == ((int)_TA::tk_rows) && ((int)_TD::tk_cols) == ((int)_TA::tk_cols) && \
                     ((int)_TD::tk_frag_cols) == ((int)_TA::tk_frag_cols),                              \
         "tk: accumulator converts to a 16-bit B-operand tile of the same size and MFMA width"); \
       for (int _r = 0; _r < ((int)_TA::tk_frag_count_r); _r++)                                    \
         for (int _c = 0; _c < ((int)_TA::tk_frag_count_c); _c++)                                  \
           for (int _g = 0; _g < ((int)_TA::tk_n) / 4; _g++)                             \
             for (int _i = 0; _i < 4; _i++)                                       \
               CVT((D).f[((_r * (((int)_TA::tk_n) / 4)) + _g) * ((int)_TD::tk_frag_count_c) + _c][_i],     \
                   (A).f[_r * ((int)_TA::tk_frag_count_c) + _c][_g * 4 + _i]);                     \
  } while (0)
#define TK_CVT_BF16_(dst, x) ((dst) = (int16_t)tk_f32_to_bf16(x))
#define TK_CVT_F16_(dst, x) ((dst) = (_Float16)(x))
#define TK_CVT_BF16F_(dst, x) ((dst) = (int16_t)tk_f32_to_bf16_finite(x))
#define tk_rt_cvt_c_to_b_bf16(D, A) TK_RT_CVT_C_TO_B(D, A, TK_CVT_BF16_)
/* the same for tiles known to hold no NaN (tk_f32_to_bf16_finite) */
#define tk_rt_cvt_c_to_b_bf16_finite(D, A) TK_RT_CVT_C_TO_B(D, A, TK_CVT_BF16F_)
#define tk_rt_cvt_c_to_b_f16(D, A) TK_RT_CVT_C_TO_B(D, A, TK_CVT_F16_)

#if TK_HIP
/* value of lane src (0..63) of every lane's v (ds_bpermute works in bytes) */
TK_DI uint32_t tk_lane_get_u32(uint32_t v, uint32_t src) {
  return (uint32_t)__builtin_amdgcn_ds_bpermute((int)(src << 2), (int)v);
}

/* tk_permlane32_swap(a, b): gfx950's v_permlane32_swap_b32 on two uint32_t
 * lvalues of the whole wave: a's lanes 32-63 trade places with b's lanes
 * 0-31, i.e. afterwards a = (a[0..31], b[0..31]) and b = (a[32..63],
 * b[32..63]) by lane.  One VALU instruction, no LDS (ds_bpermute would take
 * two LDS round trips).  Source: CDNA4 ISA guide, VOP1 V_PERMLANE32_SWAP_B32;
 * LLVM's llvm.amdgcn.permlane32.swap(vdst_old, vsrc_old, fi, bound_ctrl)
 * returns {vdst_new, vsrc_new}.  EXEC must be all ones (a pair with an
 * inactive lane is not swapped).  gfx942 has no such instruction: a gfx942
 * device pass fails the static_assert below (guard with #if
 * TK_HAS_PERMLANE_SWAP). */
#if TK_HAS_PERMLANE_SWAP && TK_DEVICE_PASS
TK_DI tk_u32x2 tk__permlane32_swap(uint32_t x, uint32_t y) {
  return __builtin_amdgcn_permlane32_swap(x, y, false, false);
}
#else
TK_DEV __attribute__((error("tk: v_permlane32_swap_b32 is a gfx950 (CDNA4) instruction; guard its use with #if "
                            "TK_HAS_PERMLANE_SWAP"))) tk_u32x2 tk__permlane32_swap(uint32_t x, uint32_t y);
#endif
#define tk_permlane32_swap(a, b)                                                                  \
  do {                                                                                            \
    static_assert(TK_HAS_PERMLANE_SWAP || !TK_DEVICE_PASS,                                        \
                  "tk: v_permlane32_swap_b32 is a gfx950 (CDNA4) instruction; this device pass is " \
                  TK_TARGET_NAME " (guard its use with #if TK_HAS_PERMLANE_SWAP)");              \
    const tk_u32x2 _pls = tk__permlane32_swap((uint32_t)(a), (uint32_t)(b));                      \
    (a) = _pls[0];                                                                                \
    (b) = _pls[1];                                                                                \
  } while (0)

/* Convert an f32 accumulator tile (M×N, M a multiple of 32) to an fp8 e4m3
 * (FNUZ, v_cvt_pk_fp8_f32: round to nearest even, out of range -> NaN) B
 * operand tile of the same M×N (M becomes K), for the P·V step of fp8
 * attention.  An fp8 B fragment wants 8 K-consecutive values per lane
 * (k = 8*(l/S) + e), the accumulator gives each lane runs of 4 rows, so
 * halves come from another lane (register.h layouts):
 *  - 32x32 -> TK_K_B_FP8_32x32x16: fragment kf = rows 16kf.. of accumulator
 *    fragment kf/2, register groups g = 2(kf%2) + h (h = l/32); lane l keeps
 *    its own 4 values and takes 4 from lane l^32: one ds_bpermute per
 *    fragment (each lane sends what its partner needs);
 *  - 16x16 -> TK_K_B_FP8_16x16x32: fragment kf = accumulator fragments 2kf
 *    and 2kf+1; lane (h, c) takes rows 8(h%2).. of fragment 2kf + h/2 from
 *    lanes (2(h%2), c) and (2(h%2)+1, c): four ds_bpermute per fragment. */
#define tk_rt_cvt_c_to_b_fp8e4(D, A)                                              \
  do { TK_RT_FLOAT(A); typedef TK_TYPEOF(A) _TA; typedef TK_TYPEOF(D) _TD;        \
       static_assert(((int)_TD::tk_op) == TK_OP_B && ((int)_TD::tk_dt) == TK_DT_FP8E4 && \
                     ((int)_TD::tk_rows) == ((int)_TA::tk_rows) && ((int)_TD::tk_cols) == ((int)_TA::tk_cols) && \
                     ((int)_TD::tk_frag_cols) == ((int)_TA::tk_frag_cols) && ((int)_TA::tk_rows) % 32 == 0, \
         "tk: accumulator converts to an fp8 B-operand tile of the same size and MFMA width (rows % 32 == 0)"); \
       const uint32_t _l = (uint32_t)tk_lane();                                   \
       _Pragma("unroll") for (int _kf = 0; _kf < ((int)_TD::tk_frag_count_r); _kf++)        \
       _Pragma("unroll") for (int _c = 0; _c < ((int)_TD::tk_frag_count_c); _c++) {         \
         uint32_t _lo, _hi;                                                       \
         if (((int)_TA::tk_frag_rows) == 32) {                                        \
           const int _r = _kf / 2, _p = _kf % 2;                                  \
           const uint32_t _h = _l / 32;                                           \
           const float *_a = (const float *)&(A).f[_r * ((int)_TA::tk_frag_count_c) + _c];  \
           const uint32_t _p0 = tk_cvt_pk4_fp8e4(_a[8 * _p + 0], _a[8 * _p + 1], _a[8 * _p + 2], _a[8 * _p + 3]); \
           const uint32_t _p1 = tk_cvt_pk4_fp8e4(_a[8 * _p + 4], _a[8 * _p + 5], _a[8 * _p + 6], _a[8 * _p + 7]); \
           const uint32_t _x = tk_lane_get_u32(_h ? _p0 : _p1, _l ^ 32u);         \
           _lo = _h ? _x : _p0;                                                   \
           _hi = _h ? _p1 : _x;                                                   \
         } else {                                                                 \
           const float *_a0 = (const float *)&(A).f[(2 * _kf) * ((int)_TA::tk_frag_count_c) + _c];     \
           const float *_a1 = (const float *)&(A).f[(2 * _kf + 1) * ((int)_TA::tk_frag_count_c) + _c]; \
           const uint32_t _q0 = tk_cvt_pk4_fp8e4(_a0[0], _a0[1], _a0[2], _a0[3]); \
           const uint32_t _q1 = tk_cvt_pk4_fp8e4(_a1[0], _a1[1], _a1[2], _a1[3]); \
           const uint32_t _h = _l / 16, _src = (2u * (_h % 2u)) * 16u + _l % 16u;  \
           const uint32_t _l0 = tk_lane_get_u32(_q0, _src), _l1 = tk_lane_get_u32(_q1, _src); \
           const uint32_t _h0 = tk_lane_get_u32(_q0, _src + 16u), _h1 = tk_lane_get_u32(_q1, _src + 16u); \
           _lo = (_h / 2u) ? _l1 : _l0;                                            \
           _hi = (_h / 2u) ? _h1 : _h0;                                            \
         }                                                                        \
         (D).f[_kf * ((int)_TD::tk_frag_count_c) + _c] = (int64_t)(((uint64_t)_hi << 32) | _lo); \
       } } while (0)
#endif

#endif /* TK_REGISTER_H */
