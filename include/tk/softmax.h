/* tk/softmax.h: the element maps of attention's softmax on f32 accumulator
 * tiles: masks (sequence-length tails, causal triangles) and exp2 of a
 * scaled tile minus a per-row or per-column vector.  The reductions (row /
 * column max and sum), broadcasts and the accumulator -> bf16 B-operand
 * conversion they combine with are in register.h.
 *
 *   tk_rt_mask_cols(D, A, ncols, v)   D = A, elements in tile columns >= ncols set to v
 *   tk_rt_mask_rows(D, A, nrows, v)   D = A, elements in tile rows >= nrows set to v
 *   tk_rt_mask_upper(D, A, d, v)      D = A, elements with col - row > d set to v
 *   tk_rt_mask_lower(D, A, d, v)      D = A, elements with row - col > d set to v
 *   tk_rt_exp2_row(D, A, s, rv)       D = exp2(A * s - rv[row])
 *   tk_rt_exp2_col(D, A, s, cv)       D = exp2(A * s - cv[col])
 * Coordinates are the tile's own (row 0..R-1, column 0..C-1); a kernel passes
 * limits relative to the tile's origin (e.g. ncols = seq_len - col0).
 * rv / cv are the per-lane row / column vectors of register.h
 * (TK_RT_ROWV / TK_RT_COLV): rv[fr*N + i] is row fr*FR + c_row(l, i), cv[fc]
 * is column fc*FC + l % FC.
 *
 * Hardware facts: accumulator element (lane l, register i) of fragment
 * (fr, fc) is row fr*FR + c_row(FR, l, i), column fc*FC + l % FC (CDNA3 ISA
 * guide §7 MFMA output layout; register.h).  exp2 is v_exp_f32
 * (__builtin_amdgcn_exp2f, CDNA3 ISA guide VOP1 "V_EXP_F32": 2^x, 1 ULP,
 * -inf -> 0, results below the normal range flush to 0), which is why
 * softmax kernels fold log2(e) into the scale s: exp(x) = exp2(x * log2 e).
 * A masked element set to -inf gives exp2(-inf * s - m) = 0 for finite m and
 * s > 0; a kernel keeps m finite for rows / columns that are all masked.
 */
#ifndef TK_SOFTMAX_H
#define TK_SOFTMAX_H

#include "register.h"

#if TK_HIP
/* 2^x on the device: v_exp_f32 (no denormal range scaling; softmax needs none) */
TK_DI float tk_exp2f(float x) {
#if TK_DEVICE_PASS
  return __builtin_amdgcn_exp2f(x);
#else
  return __builtin_exp2f(x);
#endif
}

/* lane-dependent coordinates of accumulator element (fr, fc, i) of tile type _T */
#define TK__ACC_ROW(_T, l, fr, i) ((fr) * ((int)_T::tk_frag_rows) + tk_layout_c_row(((int)_T::tk_frag_rows), (int)(l), (i)))
#define TK__ACC_COL(_T, l, fc) ((fc) * ((int)_T::tk_frag_cols) + (int)(l) % ((int)_T::tk_frag_cols))

/* D = A where keep(row, col), else v; one select per element */
#define TK__RT_MASK(D, A, KEEP, v)                                                 \
  do { TK_RT_SAME(D, A); TK_RT_FLOAT(D); typedef TK_TYPEOF(A) _T;                 \
       { typedef TK_TYPEOF(D) _S;                                                 \
         static_assert(((int)_S::tk_op) == TK_OP_C, "tk: masks apply to accumulator tiles"); } \
       const int _l = (int)tk_lane();                                            \
       const float _mv = (v);                                                     \
       _Pragma("unroll") for (int _r = 0; _r < ((int)_T::tk_frag_count_r); _r++)            \
       _Pragma("unroll") for (int _c = 0; _c < ((int)_T::tk_frag_count_c); _c++)            \
       _Pragma("unroll") for (int _i = 0; _i < ((int)_T::tk_n); _i++) {           \
         const int _row = TK__ACC_ROW(_T, _l, _r, _i), _col = TK__ACC_COL(_T, _l, _c); \
         (void)_row; (void)_col;                                                  \
         const float _x = (A).f[_r * ((int)_T::tk_frag_count_c) + _c][_i];                  \
         (D).f[_r * ((int)_T::tk_frag_count_c) + _c][_i] = (KEEP) ? _x : _mv;               \
       } } while (0)
#define tk_rt_mask_cols(D, A, ncols, v) TK__RT_MASK(D, A, _col < (int)(ncols), v)
#define tk_rt_mask_rows(D, A, nrows, v) TK__RT_MASK(D, A, _row < (int)(nrows), v)
#define tk_rt_mask_upper(D, A, d, v) TK__RT_MASK(D, A, _col - _row <= (int)(d), v)
#define tk_rt_mask_lower(D, A, d, v) TK__RT_MASK(D, A, _row - _col <= (int)(d), v)

/* D = exp2(A * s - rv[row]): an FMA and a v_exp_f32 per element */
#define tk_rt_exp2_row(D, A, s, rv)                                                \
  do { TK_RT_SAME(D, A); TK_RT_FLOAT(D); typedef TK_TYPEOF(A) _T;                 \
       const float _s = (s);                                                      \
       _Pragma("unroll") for (int _r = 0; _r < ((int)_T::tk_frag_count_r); _r++)            \
       _Pragma("unroll") for (int _c = 0; _c < ((int)_T::tk_frag_count_c); _c++)            \
       _Pragma("unroll") for (int _i = 0; _i < ((int)_T::tk_n); _i++)             \
         (D).f[_r * ((int)_T::tk_frag_count_c) + _c][_i] = tk_exp2f(__builtin_fmaf(         \
             (A).f[_r * ((int)_T::tk_frag_count_c) + _c][_i], _s, -(rv)[_r * ((int)_T::tk_n) + _i])); \
  } while (0)
/* D = exp2(A * s - cv[col]) */
#define tk_rt_exp2_col(D, A, s, cv)                                                \
  do { TK_RT_SAME(D, A); TK_RT_FLOAT(D); typedef TK_TYPEOF(A) _T;                 \
       const float _s = (s);                                                      \
       _Pragma("unroll") for (int _r = 0; _r < ((int)_T::tk_frag_count_r); _r++)            \
       _Pragma("unroll") for (int _c = 0; _c < ((int)_T::tk_frag_count_c); _c++)            \
       _Pragma("unroll") for (int _i = 0; _i < ((int)_T::tk_n); _i++)             \
         (D).f[_r * ((int)_T::tk_frag_count_c) + _c][_i] = tk_exp2f(__builtin_fmaf(         \
             (A).f[_r * ((int)_T::tk_frag_count_c) + _c][_i], _s, -(cv)[_c]));              \
  } while (0)
#endif /* TK_HIP */

#endif /* TK_SOFTMAX_H */
