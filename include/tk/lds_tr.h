/* tk/lds_tr.h: gfx950 transposing LDS reads (ds_read_b64_tr_b16) of the
 * double-rate bf16/f16 MFMA operands, from a tile stored K-major: each K row
 * holds the M (for A) or N (for B) values contiguously, i.e. a row-major
 * K x N B, or a column-major A (stored as K x M). The plain ds_read_b64 path
 * (loads.h) needs K contiguous instead; this one saves the transpose a kernel
 * would otherwise do when writing LDS (e.g. attention's V).
 *
 *   tk_i16x8 tk_lds_read_tr_16x16x32(tile, row_bytes)   one operand fragment of
 *   tk_i16x8 tk_lds_read_tr_32x32x16(tile, row_bytes)   v_mfma_f32_<shape>_{bf16,f16}
 *   tk_i16x4 tk_lds_read_tr_16x16x16(tile, row_bytes)   one operand fragment of
 *   tk_i16x4 tk_lds_read_tr_32x32x8(tile, row_bytes)    the single-rate shapes
 *       (v_mfma_f32_<shape>_{bf16_1k,f16}, 4 per lane): one instruction each
 *   tk_rt_load_tr(rt, tile, row_bytes)   every fragment of a register tile of a
 *       TK_K_{A,B}_{BF16,F16}_{16x16x32,32x32x16,16x16x16,32x32x8} kind
 * tile: generic pointer into __shared__ memory, 8-byte aligned; element (k, x)
 * (x = m or n) at byte 2*x + k*row_bytes; row_bytes a multiple of 8 (padding
 * allowed). Results are bf16/f16 bit patterns (f16 users bit-cast to tk_f16x8).
 * Two instructions per double-rate fragment, each lane k rows 8*(l/S)+0..3
 * then +4..7; one per single-rate fragment, k rows 4*(l/S)+0..3. On gfx950
 * tk_mma pairs two single-rate K fragments into one double-rate MFMA (mma.h),
 * so a tile of the single-rate kinds read here feeds the double-rate MFMAs
 * with K in the order of the 32x32 accumulator's rows (attention's P^T).
 *
 * Hardware facts (docs/hardware.md "Transposing LDS reads", which lists the
 * sources: CDNA4 ISA guide section 11.4, Triton's chooseDsReadB64TrLayout,
 * CK-tile's LaneGroupTransposeTraits, Modular's ds_read_tr16_b64_row): per
 * 16-lane group, lane r*4 + c reads the 4 elements 4c..4c+3 of block row r;
 * lane i receives column i (rows 0..3). EXEC must be all ones. The MFMA
 * operand layout (register.h): lane l holds k = 8*(l/S) + i of row/column
 * l % S (S = 16 or 32). The reads are compiler builtins
 * (__builtin_amdgcn_ds_read_tr16_b64_v4i16, LLVM 20+), so LLVM inserts the
 * lgkmcnt waits. gfx942 has no such instruction: tk_rt_load_tr in a gfx942
 * device pass fails a static_assert naming it, the fragment functions fail
 * at code generation (guard with #if TK_HAS_DS_READ_TR).
 */
#ifndef TK_LDSTR_H
#define TK_LDSTR_H

#include "register.h"
#include "shared.h"

#if TK_HAS_DS_READ_TR && TK_DEVICE_PASS
/* one ds_read_b64_tr_b16 at generic LDS pointer p */
TK_DI tk_i16x4 tk__ds_read_tr16(const char *p) {
  return __builtin_amdgcn_ds_read_tr16_b64_v4i16((__attribute__((address_space(3))) tk_i16x4 *)p);
}
/* S = 16 or 32 columns per fragment, 8 K rows per group of S lanes */
TK_DI tk_i16x8 tk__lds_read_tr(const void *tile, uint32_t row_bytes, int S) {
  int l = tk_lane();
  int g = l >> 4, i = l & 15;
  int k0 = 8 * ((16 * g) / S) + (i >> 2);            /* this lane's block row */
  int x0 = (16 * g) % S + 4 * (i & 3);               /* its 4 columns */
  const char *p = (const char *)tile + (uint32_t)k0 * row_bytes + 2u * (uint32_t)x0;
  tk_i16x4 lo = tk__ds_read_tr16(p), hi = tk__ds_read_tr16(p + 4u * row_bytes);
  tk_i16x8 v = {lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]};
  return v;
}
TK_DI tk_i16x8 tk_lds_read_tr_16x16x32(const void *tile, uint32_t row_bytes) { return tk__lds_read_tr(tile, row_bytes, 16); }
TK_DI tk_i16x8 tk_lds_read_tr_32x32x16(const void *tile, uint32_t row_bytes) { return tk__lds_read_tr(tile, row_bytes, 32); }
/* single-rate fragment: 4 K rows per group of S lanes, one instruction */
TK_DI tk_i16x4 tk__lds_read_tr4(const void *tile, uint32_t row_bytes, int S) {
  int l = tk_lane();
  int g = l >> 4, i = l & 15;
  int k0 = 4 * ((16 * g) / S) + (i >> 2);            /* this lane's block row */
  int x0 = (16 * g) % S + 4 * (i & 3);               /* its 4 columns */
  return tk__ds_read_tr16((const char *)tile + (uint32_t)k0 * row_bytes + 2u * (uint32_t)x0);
}
/* the same reads from an LDS tile of any tk layout (shared.h): K row k, column x of the tile
 * at byte tk_lds_offset(layout, cols, 2, k, x) from base; a lane's 4 elements (x % 4 == 0) are
 * one aligned 8-byte unit of a row, which every layout keeps whole */
TK_DI tk_i16x4 tk__st_read_tr4(const char *base, int layout, uint32_t cols, uint32_t k, uint32_t x, int S) {
  int l = tk_lane();
  int g = l >> 4, i = l & 15;
  k += (uint32_t)(4 * ((16 * g) / S) + (i >> 2));
  x += (uint32_t)((16 * g) % S + 4 * (i & 3));
  return tk__ds_read_tr16(base + tk_lds_offset(layout, cols, 2u, k, x));
}
TK_DI tk_i16x8 tk__st_read_tr8(const char *base, int layout, uint32_t cols, uint32_t k, uint32_t x, int S) {
  int l = tk_lane();
  int g = l >> 4, i = l & 15;
  k += (uint32_t)(8 * ((16 * g) / S) + (i >> 2));
  x += (uint32_t)((16 * g) % S + 4 * (i & 3));
  tk_i16x4 lo = tk__ds_read_tr16(base + tk_lds_offset(layout, cols, 2u, k, x));
  tk_i16x4 hi = tk__ds_read_tr16(base + tk_lds_offset(layout, cols, 2u, k + 4u, x));
  tk_i16x8 v = {lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]};
  return v;
}
TK_DI tk_i16x4 tk_lds_read_tr_16x16x16(const void *tile, uint32_t row_bytes) { return tk__lds_read_tr4(tile, row_bytes, 16); }
TK_DI tk_i16x4 tk_lds_read_tr_32x32x8(const void *tile, uint32_t row_bytes) { return tk__lds_read_tr4(tile, row_bytes, 32); }
#else
#define TK_DS_READ_TR_ONLY_ \
  TK_DEV __attribute__((error("tk: ds_read_b64_tr_b16 is a gfx950 (CDNA4) instruction; guard its use with #if TK_HAS_DS_READ_TR")))
TK_DS_READ_TR_ONLY_ tk_i16x8 tk_lds_read_tr_16x16x32(const void *tile, uint32_t row_bytes);
TK_DS_READ_TR_ONLY_ tk_i16x8 tk_lds_read_tr_32x32x16(const void *tile, uint32_t row_bytes);
TK_DS_READ_TR_ONLY_ tk_i16x4 tk_lds_read_tr_16x16x16(const void *tile, uint32_t row_bytes);
TK_DS_READ_TR_ONLY_ tk_i16x4 tk_lds_read_tr_32x32x8(const void *tile, uint32_t row_bytes);
TK_DS_READ_TR_ONLY_ tk_i16x4 tk__st_read_tr4(const char *base, int layout, uint32_t cols, uint32_t k, uint32_t x, int S);
TK_DS_READ_TR_ONLY_ tk_i16x8 tk__st_read_tr8(const char *base, int layout, uint32_t cols, uint32_t k, uint32_t x, int S);
#endif

/* one fragment of shape `shape` (constant) into lvalue f: one or two reads */
#define tk__lds_tr_frag(f, shape, p, rb)                                                              \
  do {                                                                                              \
    if ((shape) == TK_SHAPE_16x16x32 || (shape) == TK_SHAPE_32x32x16) {                              \
      tk_i16x8 _v8 = (shape) == TK_SHAPE_16x16x32 ? tk_lds_read_tr_16x16x32(p, rb) : tk_lds_read_tr_32x32x16(p, rb); \
      __builtin_memcpy(&(f), &_v8, sizeof _v8 < sizeof(f) ? sizeof _v8 : sizeof(f));               \
    } else {                                                                                        \
      tk_i16x4 _v4 = (shape) == TK_SHAPE_16x16x16 ? tk_lds_read_tr_16x16x16(p, rb) : tk_lds_read_tr_32x32x8(p, rb); \
      __builtin_memcpy(&(f), &_v4, sizeof _v4 < sizeof(f) ? sizeof _v4 : sizeof(f));               \
    }                                                                                               \
  } while (0)

/* Fill register tile rt (A or B kind of a double-rate bf16/f16 shape) from
 * the K-major LDS tile: B fragment (fr, fc) = K rows fr*32.., N columns
 * fc*16.. (16x16x32); A fragment (fr, fc) = M columns fr*16.. of K rows
 * fc*32.. of the stored K x M tile. */
#define tk_rt_load_tr(rt, tile, row_bytes)                                            \
  do {                                                                              \
    typedef __typeof__(rt) _R;                                                      \
    static_assert(TK_HAS_DS_READ_TR || !TK_DEVICE_PASS,                             \
      "tk: ds_read_b64_tr_b16 is a gfx950 (CDNA4) instruction; this device pass is " TK_TARGET_NAME \
      " (guard its use with #if TK_HAS_DS_READ_TR)");                               \
    static_assert(((int)_R::tk_shape) == TK_SHAPE_16x16x32 || ((int)_R::tk_shape) == TK_SHAPE_32x32x16 || \
                  ((int)_R::tk_shape) == TK_SHAPE_16x16x16 || ((int)_R::tk_shape) == TK_SHAPE_32x32x8, \
                  "tk: tk_rt_load_tr reads the 16x16x32 / 32x32x16 / 16x16x16 / 32x32x8 operand kinds"); \
    static_assert((((int)_R::tk_dt) == TK_DT_BF16 || ((int)_R::tk_dt) == TK_DT_F16) &&             \
                  (((int)_R::tk_op) == TK_OP_A || ((int)_R::tk_op) == TK_OP_B),                    \
                  "tk: tk_rt_load_tr reads bf16/f16 A or B operand tiles");                        \
    const char *_t = (const char *)(tile);                                          \
    const uint32_t _rb = (uint32_t)(row_bytes);                                     \
    for (int _fr = 0; _fr < (int)_R::tk_frag_count_r; _fr++)                                  \
      for (int _fc = 0; _fc < (int)_R::tk_frag_count_c; _fc++) {                              \
        /* K rows and M/N columns of this fragment in the stored tile */          \
        const int _a = ((int)_R::tk_op) == TK_OP_A;                                 \
        const uint32_t _k = (uint32_t)(_a ? _fc * (int)_R::tk_frag_cols : _fr * (int)_R::tk_frag_rows); \
        const uint32_t _x = (uint32_t)(_a ? _fr * (int)_R::tk_frag_rows : _fc * (int)_R::tk_frag_cols); \
        const char *_p = _t + _k * _rb + 2u * _x;                                   \
        tk__lds_tr_frag((rt).f[_fr * (int)_R::tk_frag_count_c + _fc], (int)_R::tk_shape, _p, _rb); \
      }                                                                             \
  } while (0)

/* tk_rt_load_tr from an LDS tile of any tk layout: sm a TK_ST of 16-bit elements (K rows x M or
 * N columns, linear or swizzled: e.g. a row-major Q tile read as Q^T's A operand), the window at
 * K row r0, column c0 (c0 % 4 == 0); fragments as tk_rt_load_tr */
#define tk_st_load_tr(rt, sm, r0, c0)                                                 \
  do {                                                                              \
    typedef __typeof__(rt) _R;                                                      \
    typedef __typeof__(sm) _T;                                                      \
    static_assert(TK_HAS_DS_READ_TR || !TK_DEVICE_PASS,                             \
      "tk: ds_read_b64_tr_b16 is a gfx950 (CDNA4) instruction; this device pass is " TK_TARGET_NAME \
      " (guard its use with #if TK_HAS_DS_READ_TR)");                               \
    static_assert(((int)_R::tk_shape) == TK_SHAPE_16x16x32 || ((int)_R::tk_shape) == TK_SHAPE_32x32x16 || \
                  ((int)_R::tk_shape) == TK_SHAPE_16x16x16 || ((int)_R::tk_shape) == TK_SHAPE_32x32x8, \
                  "tk: tk_st_load_tr reads the 16x16x32 / 32x32x16 / 16x16x16 / 32x32x8 operand kinds"); \
    static_assert((((int)_R::tk_dt) == TK_DT_BF16 || ((int)_R::tk_dt) == TK_DT_F16) &&             \
                  (((int)_R::tk_op) == TK_OP_A || ((int)_R::tk_op) == TK_OP_B),                    \
                  "tk: tk_st_load_tr reads bf16/f16 A or B operand tiles");                        \
    static_assert(((int)_T::tk_elem_bytes) == 2, "tk: tk_st_load_tr reads tiles of 16-bit elements"); \
    const char *_b = (const char *)(sm).data;                                       \
    for (int _fr = 0; _fr < (int)_R::tk_frag_count_r; _fr++)                                  \
      for (int _fc = 0; _fc < (int)_R::tk_frag_count_c; _fc++) {                              \
        const int _a = ((int)_R::tk_op) == TK_OP_A;                                 \
        const uint32_t _k = (uint32_t)(r0) + (uint32_t)(_a ? _fc * (int)_R::tk_frag_cols : _fr * (int)_R::tk_frag_rows); \
        const uint32_t _x = (uint32_t)(c0) + (uint32_t)(_a ? _fr * (int)_R::tk_frag_rows : _fc * (int)_R::tk_frag_cols); \
        const int _s = ((int)_R::tk_shape) == TK_SHAPE_16x16x32 || ((int)_R::tk_shape) == TK_SHAPE_16x16x16 ? 16 : 32; \
        if (((int)_R::tk_shape) == TK_SHAPE_16x16x32 || ((int)_R::tk_shape) == TK_SHAPE_32x32x16) { \
          tk_i16x8 _v8 = tk__st_read_tr8(_b, (int)_T::tk_layout, (uint32_t)_T::tk_cols, _k, _x, _s); \
          __builtin_memcpy(&(rt).f[_fr * (int)_R::tk_frag_count_c + _fc], &_v8, sizeof _v8 < sizeof((rt).f[0]) ? sizeof _v8 : sizeof((rt).f[0])); \
        } else {                                                                    \
          tk_i16x4 _v4 = tk__st_read_tr4(_b, (int)_T::tk_layout, (uint32_t)_T::tk_cols, _k, _x, _s); \
          __builtin_memcpy(&(rt).f[_fr * (int)_R::tk_frag_count_c + _fc], &_v4, sizeof _v4 < sizeof((rt).f[0]) ? sizeof _v4 : sizeof((rt).f[0])); \
        }                                                                           \
      }                                                                             \
  } while (0)

#endif /* TK_LDSTR_H */
