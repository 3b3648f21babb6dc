/* tk/stores.h: moving results out: accumulator register tiles -> global
 * (f32 or bf16, optional C = alpha*acc + beta*C epilogue), register tiles ->
 * LDS tiles, and LDS tiles -> global with 16-byte stores.
 *
 *   tk_store_acc_f32(gl, rsrc, b, h, r0, c0, acc, alpha, beta);
 *   tk_store_acc_bf16(gl, rsrc, b, h, r0, c0, acc, alpha, beta);
 *   tk_store_acc_lds(sm, acc, r0, c0);      f32 or bf16 LDS tile, any layout
 *   tk_store_acc_lds_t(sm, acc, r0, c0);    the same, transposed (element
 *                    (r, c) to LDS (r0 + c, c0 + r)), e.g. attention's O^T
 *   tk_store_acc_lds_t_bf16(sm, acc, r0, c0);  the same into a bf16 tile, four
 *                    elements per 8-byte write, RNE conversion in pairs
 *   tk_store_acc_lds_t_bf16_rn(sm, acc, r0, c0);  the same for finite values,
 *                    round to nearest (ties away on gfx942: 3 ops per pair)
 *   tk_store_lds_global(gl, rsrc, b, h, r0, c0, sm, tid, NT);
 *   tk_store_lds_global_ab(gl, rsrc, b, h, r0, c0, sm, tid, NT, alpha, beta);
 *                    f32 LDS tile -> f32/bf16 tensor, alpha/beta, 16/8-byte
 *                    stores, any shape (the GEMM epilogue)
 *   tk_store_lds_global_epi(gl, rsrc, b, h, r0, c0, sm, tid, NT, epi);
 *                    the same with the fused epilogue of epilogue.h (bias
 *                    per row or column, activation)
 *   tk_store_acc_epi(gl, rsrc, b, h, r0, c0, acc, epi);
 *                    accumulator tile -> f32/bf16 tensor straight from the
 *                    registers with the same fused epilogue (no LDS, no
 *                    barrier): the GEMM epilogue of tiles inside C
 *
 * Accumulator element (lane l, register i) of fragment (fr, fc) is
 * row fr*FR + tk_layout_c_row(FR, l, i), column fc*FC + l % FC (register.h,
 * CDNA3 ISA guide §7 MFMA output layout): for each register i, lanes with
 * consecutive l % FC write consecutive columns, so each store instruction
 * writes FC*4 (f32) or FC*2 (bf16) contiguous bytes per row.
 * Edges: every store goes through the tensor's buffer resource (except
 * tk_store_acc_epi's windows wholly inside the tensor: global stores,
 * global_store_short_d16_hi for bf16, CDNA3 ISA guide "FLAT, Scratch and
 * Global Instructions"), and elements outside the tensor (rows >= dims[2] - r0, columns >= dims[3] - c0) are sent
 * to TK_OOB_OFFSET, beyond num_records: the hardware drops them (CDNA3 ISA
 * guide, "Buffer addressing" range checking; LLVM AMDGPUUsage buffer
 * intrinsics), no branches.  beta == 0 does not read C (so NaNs in an
 * uninitialised C do not leak); the test is wave-uniform.
 * LDS -> global needs 16-byte chunks wholly inside or outside the tensor:
 * tk_load_shape_ok (loads.h) checks that on the host.
 */
#ifndef TK_STORES_H
#define TK_STORES_H

#include "epilogue.h"
#include "loads.h"

#if TK_HIP
#define TK__ACC_CHECK(T)                                                          \
  static_assert(((int)T::tk_op) == TK_OP_C && ((int)T::tk_dt) == TK_DT_F32, \
                "tk: this store takes an f32 accumulator tile (TK_K_C_F32_*)")

/* the element walk of tk_store_acc_f32 / _bf16: out = alpha * acc + beta * RD(rsrc, offset),
 * written by WR(rsrc, offset, value); RD and WR name the element format's buffer access */
#define TK__STORE_ACC_WALK(gl, rsrc, b, h, r0, c0, A, alpha, beta, RD, WR)      \
  do {                                                                            \
    typedef TK_TYPEOF(A) _A;                                                      \
    TK__ACC_CHECK(_A);                                                            \
    const tk_gview _gv = tk_gview_make((gl), (b), (h), (r0), (c0));               \
    const uint32_t _l = tk_lane_id();                                             \
    const float _al = (alpha), _be = (beta);                                      \
    _Pragma("unroll") for (int _fr = 0; _fr < ((int)_A::tk_frag_count_r); _fr++)                   \
    _Pragma("unroll") for (int _fc = 0; _fc < ((int)_A::tk_frag_count_c); _fc++)                   \
    _Pragma("unroll") for (int _i = 0; _i < ((int)_A::tk_n); _i++) {                     \
      const uint32_t _o = tk_gview_off(&_gv,                                      \
          _fr * ((int)_A::tk_frag_rows) + tk_layout_c_row(((int)_A::tk_frag_rows), (int)_l, _i),        \
          _fc * ((int)_A::tk_frag_cols) + _l % ((int)_A::tk_frag_cols));                                \
      float _v = _al * (A).f[_fr * ((int)_A::tk_frag_count_c) + _fc][_i];                          \
      if (_be != 0.0f) _v += _be * RD((rsrc), _o);                                \
      WR((rsrc), _o, _v);                                                         \
    }                                                                             \
  } while (0)
#define TK__ACC_RD_F32(rs, o) tk_bits_f32(tk_buffer_load_b32((rs), (o)))
#define TK__ACC_WR_F32(rs, o, v) tk_buffer_store_b32((rs), (o), tk_f32_bits(v))
#define TK__ACC_RD_BF16(rs, o) tk_bf16_to_f32(tk_buffer_load_b16((rs), (o)))
#define TK__ACC_WR_BF16(rs, o, v) tk_buffer_store_b16((rs), (o), tk_f32_to_bf16(v))

/* acc (f32 accumulator tile) -> f32 tensor window at (b, h, r0, c0):
 * out = alpha * acc + beta * out. */
#define tk_store_acc_f32(gl, rsrc, b, h, r0, c0, A, alpha, beta)                  \
  TK__STORE_ACC_WALK(gl, rsrc, b, h, r0, c0, A, alpha, beta, TK__ACC_RD_F32, TK__ACC_WR_F32)

/* acc -> bf16 tensor (round to nearest even); beta reads the bf16 C. */
#define tk_store_acc_bf16(gl, rsrc, b, h, r0, c0, A, alpha, beta)                 \
  TK__STORE_ACC_WALK(gl, rsrc, b, h, r0, c0, A, alpha, beta, TK__ACC_RD_BF16, TK__ACC_WR_BF16)

/* acc -> LDS tile sm (f32 or bf16 elements, any layout), at tile element
 * (r0, c0).  The caller barriers (tk_lds_barrier) before others read sm.
 * With r0 and c0 compile-time, r0 % 16 == 0 and c0 a multiple of the
 * fragment columns times the fragment count rounded up to a power of two
 * (e.g. 0, 0), each element's swizzled offset is one XOR of the lane's
 * (tk_lds_offset_add); otherwise the whole offset per element. */
#define tk_store_acc_lds(sm, A, r0, c0)                                           \
  do {                                                                            \
    typedef TK_TYPEOF(A) _A;                                                      \
    typedef TK_TYPEOF(sm) _T;                                                     \
    TK__ACC_CHECK(_A);                                                            \
    static_assert(((int)_T::tk_elem_bytes) == 4 || ((int)_T::tk_elem_bytes) == 2,               \
                  "tk: accumulators go to f32 or bf16 LDS tiles");                \
    const uint32_t _l = tk_lane_id();                                             \
    enum { _FR = (int)_A::tk_frag_rows, _FC = (int)_A::tk_frag_cols,                      \
           _CA = _FC * ((int)_A::tk_frag_count_c <= 1 ? 1 : (int)_A::tk_frag_count_c <= 2 ? 2 : (int)_A::tk_frag_count_c <= 4 ? 4 : 8) }; \
    if (__builtin_constant_p((r0) % 16 == 0 && (c0) % _CA == 0) && (r0) % 16 == 0 && (c0) % _CA == 0 && \
        (int)_A::tk_frag_count_c <= 8) {                                                    \
      const uint32_t _b = tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), ((int)_T::tk_elem_bytes), \
          (uint32_t)(r0) + tk_layout_c_row(_FR, (int)_l, 0), (uint32_t)(c0) + _l % _FC); \
      _Pragma("unroll") for (int _fr = 0; _fr < ((int)_A::tk_frag_count_r); _fr++)         \
      _Pragma("unroll") for (int _fc = 0; _fc < ((int)_A::tk_frag_count_c); _fc++)         \
      _Pragma("unroll") for (int _i = 0; _i < ((int)_A::tk_n); _i++) {           \
        const uint32_t _o = tk_lds_offset_add(((int)_T::tk_layout), ((int)_T::tk_cols), ((int)_T::tk_elem_bytes), \
            _b, (uint32_t)(_fr * _FR + tk_layout_c_row(_FR, 0, _i)), (uint32_t)(_fc * _FC)); \
        const float _v = (A).f[_fr * ((int)_A::tk_frag_count_c) + _fc][_i];                \
        if (((int)_T::tk_elem_bytes) == 4) *(float *)((char *)(sm).data + _o) = _v; \
        else *(uint16_t *)((char *)(sm).data + _o) = tk_f32_to_bf16(_v);         \
      }                                                                           \
      break;                                                                      \
    }                                                                             \
    _Pragma("unroll") for (int _fr = 0; _fr < ((int)_A::tk_frag_count_r); _fr++)                   \
    _Pragma("unroll") for (int _fc = 0; _fc < ((int)_A::tk_frag_count_c); _fc++)                   \
    _Pragma("unroll") for (int _i = 0; _i < ((int)_A::tk_n); _i++) {                     \
      const uint32_t _o = tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), ((int)_T::tk_elem_bytes), \
          (uint32_t)(r0) + _fr * ((int)_A::tk_frag_rows) + tk_layout_c_row(((int)_A::tk_frag_rows), (int)_l, _i), \
          (uint32_t)(c0) + _fc * ((int)_A::tk_frag_cols) + _l % ((int)_A::tk_frag_cols));               \
      const float _v = (A).f[_fr * ((int)_A::tk_frag_count_c) + _fc][_i];                          \
      if (((int)_T::tk_elem_bytes) == 4) *(float *)((char *)(sm).data + _o) = _v;        \
      else *(uint16_t *)((char *)(sm).data + _o) = tk_f32_to_bf16(_v);            \
    }                                                                             \
  } while (0)

/* acc -> LDS tile sm transposed: accumulator element (r, c) goes to tile
 * element (r0 + c, c0 + r).  For kernels that compute a product transposed
 * (e.g. O^T = V^T P^T) and store it in the tensor's own orientation with
 * tk_store_lds_global.  Lanes of one register write one LDS column, so the
 * writes are bank conflicted: an epilogue path. */
#define tk_store_acc_lds_t(sm, A, r0, c0)                                         \
  do {                                                                            \
    typedef TK_TYPEOF(A) _A;                                                      \
    typedef TK_TYPEOF(sm) _T;                                                     \
    TK__ACC_CHECK(_A);                                                            \
    static_assert(((int)_T::tk_elem_bytes) == 4 || ((int)_T::tk_elem_bytes) == 2,               \
                  "tk: accumulators go to f32 or bf16 LDS tiles");                \
    const uint32_t _l = tk_lane_id();                                             \
    _Pragma("unroll") for (int _fr = 0; _fr < ((int)_A::tk_frag_count_r); _fr++)                   \
    _Pragma("unroll") for (int _fc = 0; _fc < ((int)_A::tk_frag_count_c); _fc++)                   \
    _Pragma("unroll") for (int _i = 0; _i < ((int)_A::tk_n); _i++) {                     \
      const uint32_t _o = tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), ((int)_T::tk_elem_bytes), \
          (uint32_t)(r0) + _fc * ((int)_A::tk_frag_cols) + _l % ((int)_A::tk_frag_cols),               \
          (uint32_t)(c0) + _fr * ((int)_A::tk_frag_rows) + tk_layout_c_row(((int)_A::tk_frag_rows), (int)_l, _i)); \
      const float _v = (A).f[_fr * ((int)_A::tk_frag_count_c) + _fc][_i];                          \
      if (((int)_T::tk_elem_bytes) == 4) *(float *)((char *)(sm).data + _o) = _v;        \
      else *(uint16_t *)((char *)(sm).data + _o) = tk_f32_to_bf16(_v);            \
    }                                                                             \
  } while (0)

/* acc -> bf16 LDS tile sm transposed, as tk_store_acc_lds_t (element (r, c) to
 * (r0 + c, c0 + r)), for bf16 tiles with c0 % 4 == 0: an accumulator register
 * group i..i+3 holds four consecutive rows of one column (tk_layout_c_row, both
 * C shapes), i.e. four consecutive bf16 of one LDS row, which no layout splits
 * (TK_LDS_SWZ permutes 8-byte units): two pair conversions (tk_pack_bf16x2_rne)
 * and one ds_write_b64 per group instead of four scalar conversions and four
 * ds_write_b16 (attention's O^T epilogue: 64 elements per lane at d = 128). */
#define tk_store_acc_lds_t_bf16(sm, A, r0, c0) tk__store_acc_lds_t_bf16(sm, A, r0, c0, tk_pack_bf16x2_rne)
/* the same for finite accumulators, rounded to nearest by tk_pack_bf16x2_rn: ties to even on
 * gfx950 (one v_cvt_pk_bf16_f32 per pair, as tk_store_acc_lds_t_bf16), ties away from zero on
 * gfx942 (3 integer ops per pair instead of tk_pack_bf16x2's 11: no NaN test, no tie bit);
 * the error bound is the same half an ulp, only exact ties differ.  Attention's O^T epilogue
 * (64 elements per lane at d = 128). */
#define tk_store_acc_lds_t_bf16_rn(sm, A, r0, c0) tk__store_acc_lds_t_bf16(sm, A, r0, c0, tk_pack_bf16x2_rn)
#define tk__store_acc_lds_t_bf16(sm, A, r0, c0, PACK)                          \
  do {                                                                            \
    typedef TK_TYPEOF(A) _A;                                                      \
    typedef TK_TYPEOF(sm) _T;                                                     \
    TK__ACC_CHECK(_A);                                                            \
    static_assert(((int)_T::tk_elem_bytes) == 2, "tk_store_acc_lds_t_bf16: the LDS tile must hold bf16"); \
    static_assert(((int)_T::tk_cols) % 4 == 0 && ((int)_A::tk_n) % 4 == 0,        \
                  "tk_store_acc_lds_t_bf16: 4-row register groups, tile columns a multiple of 4"); \
    const uint32_t _l = tk_opaque(tk_lane_id()), _c0 = (uint32_t)(c0); /* no lane terms kept live from earlier code */ \
    _Pragma("unroll") for (int _fr = 0; _fr < ((int)_A::tk_frag_count_r); _fr++)  \
    _Pragma("unroll") for (int _fc = 0; _fc < ((int)_A::tk_frag_count_c); _fc++)  \
    _Pragma("unroll") for (int _i = 0; _i < ((int)_A::tk_n); _i += 4) {           \
      const uint32_t _o = tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), 2, \
          (uint32_t)(r0) + _fc * ((int)_A::tk_frag_cols) + _l % ((int)_A::tk_frag_cols), \
          _c0 + _fr * ((int)_A::tk_frag_rows) + tk_layout_c_row(((int)_A::tk_frag_rows), (int)_l, _i)); \
      const int _f = _fr * ((int)_A::tk_frag_count_c) + _fc;                      \
      const tk_u32x2 _w = {PACK((A).f[_f][_i], (A).f[_f][_i + 1]),  \
                           PACK((A).f[_f][_i + 2], (A).f[_f][_i + 3])}; \
      *(tk_u32x2 *)((char *)(sm).data + _o) = _w;                                 \
    }                                                                             \
  } while (0)

/* LDS tile sm -> tensor window at (b, h, r0, c0) by NT threads (tid 0..NT-1):
 * 16-byte chunks, ds_read_b128 + buffer_store_dwordx4; out-of-tensor chunks
 * are dropped by the buffer range check. */
#define tk_store_lds_global(gl, rsrc, b, h, r0, c0, sm, tid, NT)                  \
  do {                                                                            \
    typedef TK_TYPEOF(sm) _T;                                                     \
    enum { _cpr = ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes) / 16, _epc = 16 / ((int)_T::tk_elem_bytes), \
           _chunks = ((int)_T::tk_rows) * ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes) / 16 };        \
    static_assert(_chunks % (NT) == 0, "tk: chunk count must be a multiple of the thread count"); \
    const tk_gview _gv = tk_gview_make((gl), (b), (h), (r0), (c0));               \
    _Pragma("unroll") for (int _i = 0; _i < _chunks / (NT); _i++) {               \
      const uint32_t _j = (uint32_t)(tid) + (uint32_t)_i * (NT);                  \
      const uint32_t _r = _j / _cpr, _c = (_j % _cpr) * _epc;                     \
      const uint32_t _o = tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), ((int)_T::tk_elem_bytes), _r, _c); \
      tk_u32x4 _x = *(const tk_u32x4 *)((const char *)(sm).data + (_o & ~15u));   \
      if (TK_LDS_HALVES((int)_T::tk_layout) && (_o & 8u)) _x = _x.zwxy;                                                  \
      tk_buffer_store_b128((rsrc), tk_gview_off(&_gv, _r, _c), _x);               \
    }                                                                             \
  } while (0)

/* bias of element _e of group _i in tk_store_lds_global_epi */
#define TK__EPI_BIAS(_i, _e)                                                      \
  (_ep.bias_mode == TK_BIAS_ROW ? _brow[_i]                                       \
   : _ep.bias_mode != TK_BIAS_COL ? 0.0f                                          \
   : _colfix ? _bcol[_e] : tk_epi_bias_at(&_ep, _ec0 + _c + (uint32_t)(_e)))

/* LDS f32 tile sm -> f32 or bf16 tensor window at (b, h, r0, c0) (output type
 * from gl's element size) with the fused GEMM epilogue of tk_epi `epi`
 * (epilogue.h): out = act(alpha * x + beta * out + bias[row or col]), rows and
 * columns counted in the tensor (r0 + r, c0 + c), by NT threads (tid
 * 0..NT-1), 4 consecutive columns per thread and step: one 16-byte (f32) or
 * 8-byte (bf16) buffer store when the 4 elements are inside the tensor and
 * their address is aligned to the store width; element stores otherwise (any
 * N, any leading dimension), with out-of-tensor elements sent to
 * TK_OOB_OFFSET and dropped by the range check.  bf16 rounds to nearest
 * even.  beta == 0 does not read out; bias and activation are skipped when
 * off (all three tests wave-uniform). */
/* one 4-column group of tk_store_lds_global_epi: _v (alpha applied), its
 * tensor offset _g0 and row _r, column _c, whether it is wholly inside and
 * aligned (_whole); beta, bias, activation, store */
#define TK__EPI_GROUP(rsrc, _whole)                                               \
  do {                                                                            \
    if (_be != 0.0f) {                                                          \
      if (_whole && _f32) {                                                     \
        const tk_u32x4 _old = tk_buffer_load_b128((rsrc), _g0);                 \
        _v[0] += _be * tk_bits_f32(_old.x); _v[1] += _be * tk_bits_f32(_old.y); \
        _v[2] += _be * tk_bits_f32(_old.z); _v[3] += _be * tk_bits_f32(_old.w); \
      } else if (_whole) {                                                      \
        const tk_u32x2 _old = tk_buffer_load_b64((rsrc), _g0);                  \
        _v[0] += _be * tk_bf16_to_f32((tk_bf16)(_old.x & 0xffffu));             \
        _v[1] += _be * tk_bf16_to_f32((tk_bf16)(_old.x >> 16));                 \
        _v[2] += _be * tk_bf16_to_f32((tk_bf16)(_old.y & 0xffffu));             \
        _v[3] += _be * tk_bf16_to_f32((tk_bf16)(_old.y >> 16));                 \
      } else {                                                                  \
        _Pragma("unroll") for (int _e = 0; _e < 4; _e++)                        \
          _v[_e] += _be * (_f32 ? tk_bits_f32(tk_buffer_load_b32((rsrc), tk_gview_off(&_gv, _r, _c + (uint32_t)_e))) \
                                : tk_bf16_to_f32(tk_buffer_load_b16((rsrc), tk_gview_off(&_gv, _r, _c + (uint32_t)_e)))); \
      }                                                                         \
    }                                                                           \
    /* one copy of the bias and activation code for both store paths */       \
    if (_ep.bias_mode != TK_BIAS_NONE || _ep.act != TK_ACT_NONE) {              \
      _Pragma("unroll") for (int _e = 0; _e < 4; _e++)                          \
        _v[_e] = tk_epi_act(&_ep, _v[_e] + TK__EPI_BIAS(_i, _e));               \
    }                                                                           \
    if (_whole && _f32) {                                                       \
      tk_u32x4 _w = {tk_f32_bits(_v[0]), tk_f32_bits(_v[1]), tk_f32_bits(_v[2]), tk_f32_bits(_v[3])}; \
      tk_buffer_store_b128((rsrc), _g0, _w);                                    \
    } else if (_whole) {                                                        \
      tk_u32x2 _w = {tk_pack_bf16x2_rne(_v[0], _v[1]), tk_pack_bf16x2_rne(_v[2], _v[3])}; \
      tk_buffer_store_b64((rsrc), _g0, _w);                                     \
    } else {                                                                    \
      _Pragma("unroll") for (int _e = 0; _e < 4; _e++) {                        \
        const uint32_t _ge = tk_gview_off(&_gv, _r, _c + (uint32_t)_e);        \
        if (_f32) tk_buffer_store_b32((rsrc), _ge, tk_f32_bits(_v[_e]));        \
        else tk_buffer_store_b16((rsrc), _ge, tk_f32_to_bf16(_v[_e]));          \
      }                                                                         \
    }                                                                           \
  } while (0)

#define tk_store_lds_global_epi(gl, rsrc, b, h, r0, c0, sm, tid, NT, epi)         \
  do {                                                                            \
    typedef TK_TYPEOF(sm) _T;                                                     \
    enum { _gpr = ((int)_T::tk_cols) / 4, _groups = ((int)_T::tk_rows) * ((int)_T::tk_cols) / 4 }; \
    static_assert(((int)_T::tk_elem_bytes) == 4, "tk: tk_store_lds_global_epi reads an f32 LDS tile"); \
    static_assert(_groups % (NT) == 0, "tk: the tile's 4-column groups must be a multiple of the thread count"); \
    const tk_gview _gv = tk_gview_make((gl), (b), (h), (r0), (c0));               \
    const tk_epi _ep = (epi);                                                     \
    const float _al = _ep.alpha, _be = _ep.beta;                                  \
    const int _f32 = _gv.eb == 4;                                                 \
    const uint32_t _er0 = (uint32_t)(r0), _ec0 = (uint32_t)(c0);                  \
    /* the bias values, loaded before any store of the tile (a load after a    \
     * store would wait for it: vmcnt counts both): one per group for a row    \
     * bias; 4 for a column bias when each thread keeps its columns (NT a      \
     * multiple of the groups per row), else per element below */             \
    enum { _colfix = (NT) % _gpr == 0 };                                          \
    float _brow[_groups / (NT)], _bcol[4] = {0.0f, 0.0f, 0.0f, 0.0f};             \
    if (_ep.bias_mode == TK_BIAS_ROW) {                                           \
      _Pragma("unroll") for (int _i = 0; _i < _groups / (NT); _i++)               \
        _brow[_i] = tk_epi_bias_at(&_ep, _er0 + ((uint32_t)(tid) + (uint32_t)_i * (NT)) / _gpr); \
    } else if (_ep.bias_mode == TK_BIAS_COL && _colfix) {                         \
      _Pragma("unroll") for (int _e = 0; _e < 4; _e++)                            \
        _bcol[_e] = tk_epi_bias_at(&_ep, _ec0 + ((uint32_t)(tid) % _gpr) * 4u + (uint32_t)_e); \
    }                                                                             \
    /* the whole tile inside the tensor with rows aligned to the store width   \
     * (wave-uniform): no per-group range test, and each LDS offset one XOR of \
     * the thread's (tk_lds_offset_add: NT / groups-per-row a power of two)    \
     */                                                                         \
    enum { _rps = (NT) / _gpr, _fast = (NT) % _gpr == 0 && ((NT) / _gpr & ((NT) / _gpr - 1)) == 0 }; \
    if (_fast && _gv.rows >= ((int)_T::tk_rows) && _gv.cols >= ((int)_T::tk_cols) && \
        ((uint32_t)(uintptr_t)(gl)->ptr + _gv.base) % (4u * _gv.eb) == 0 && _gv.pitch % (4u * _gv.eb) == 0) { \
      const uint32_t _tr = (uint32_t)(tid) / _gpr, _c = ((uint32_t)(tid) % _gpr) * 4u; \
      const uint32_t _lb = tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), 4, _tr, _c); \
      const uint32_t _gb = _gv.base + _tr * _gv.pitch + _c * _gv.eb;             \
      if (_al == 1.0f && _be == 0.0f && _ep.bias_mode == TK_BIAS_NONE && _ep.act == TK_ACT_NONE) { \
        /* the plain product (alpha 1, no C read, bias or activation; one     \
         * wave-uniform test): LDS read, convert, store, nothing per group    \
         * (alpha * x is x: same bits) */                                     \
        _Pragma("unroll") for (int _i = 0; _i < _groups / (NT); _i++) {           \
          const uint32_t _o = tk_lds_offset_add(((int)_T::tk_layout), ((int)_T::tk_cols), 4, _lb, (uint32_t)(_i * _rps), 0); \
          tk_u32x4 _x = *(const tk_u32x4 *)((const char *)(sm).data + (_o & ~15u)); \
          if (TK_LDS_HALVES((int)_T::tk_layout) && (_o & 8u)) _x = _x.zwxy;                       \
          const uint32_t _g0 = _gb + (uint32_t)(_i * _rps) * _gv.pitch;           \
          if (_f32) {                                                             \
            tk_buffer_store_b128((rsrc), _g0, _x);                                \
          } else {                                                                \
            tk_u32x2 _w = {tk_pack_bf16x2_rne(tk_bits_f32(_x.x), tk_bits_f32(_x.y)), \
                           tk_pack_bf16x2_rne(tk_bits_f32(_x.z), tk_bits_f32(_x.w))}; \
            tk_buffer_store_b64((rsrc), _g0, _w);                                 \
          }                                                                       \
        }                                                                         \
        break;                                                                    \
      }                                                                           \
      _Pragma("unroll") for (int _i = 0; _i < _groups / (NT); _i++) {             \
        const uint32_t _r = _tr + (uint32_t)(_i * _rps);                          \
        const uint32_t _o = tk_lds_offset_add(((int)_T::tk_layout), ((int)_T::tk_cols), 4, _lb, (uint32_t)(_i * _rps), 0); \
        tk_u32x4 _x = *(const tk_u32x4 *)((const char *)(sm).data + (_o & ~15u)); \
        if (TK_LDS_HALVES((int)_T::tk_layout) && (_o & 8u)) _x = _x.zwxy;                         \
        float _v[4] = {_al * tk_bits_f32(_x.x), _al * tk_bits_f32(_x.y),          \
                       _al * tk_bits_f32(_x.z), _al * tk_bits_f32(_x.w)};         \
        const uint32_t _g0 = _gb + (uint32_t)(_i * _rps) * _gv.pitch;             \
        (void)_r;                                                                 \
        TK__EPI_GROUP(rsrc, 1);                                                   \
      }                                                                           \
      break;                                                                      \
    }                                                                             \
    _Pragma("unroll") for (int _i = 0; _i < _groups / (NT); _i++) {               \
      const uint32_t _j = (uint32_t)(tid) + (uint32_t)_i * (NT);                  \
      const uint32_t _r = _j / _gpr, _c = (_j % _gpr) * 4u;                       \
      const uint32_t _o = tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), 4, _r, _c); \
      tk_u32x4 _x = *(const tk_u32x4 *)((const char *)(sm).data + (_o & ~15u));   \
      if (TK_LDS_HALVES((int)_T::tk_layout) && (_o & 8u)) _x = _x.zwxy; /* swizzled: the 8-byte halves are exchanged */   \
      float _v[4] = {_al * tk_bits_f32(_x.x), _al * tk_bits_f32(_x.y),            \
                     _al * tk_bits_f32(_x.z), _al * tk_bits_f32(_x.w)};           \
      const uint32_t _g0 = tk_gview_off(&_gv, _r, _c);                            \
      const int _whole = (int32_t)_r < _gv.rows && (int32_t)_c + 3 < _gv.cols &&  \
                         (((uint32_t)(uintptr_t)(gl)->ptr + _g0) % (4u * _gv.eb)) == 0;                              \
      TK__EPI_GROUP(rsrc, _whole);                                                \
    }                                                                             \
  } while (0)

/* gfx950's bf16 plain stores round two registers at once (TK__STORE_ACC_EPI) */
#if TK_DEVICE_PASS && defined(TK_HAS_CVT_PK_BF16) && TK_HAS_CVT_PK_BF16
#define TK__ACC_BF16_PAIRS 1
#else
#define TK__ACC_BF16_PAIRS 0
#endif
/* ... and with two 32-wide fragment columns, trade halves so that one store
 * writes 128 B of one row (v_permlane32_swap_b32, gfx950) */
#if TK__ACC_BF16_PAIRS && TK_HAS_PERMLANE_SWAP
#define TK__ACC_BF16_ROWS 1
#define TK__ACC_BF16_SWAP32(x, y) tk_permlane32_swap(x, y)
#else
#define TK__ACC_BF16_ROWS 0
#define TK__ACC_BF16_SWAP32(x, y) do { } while (0)
#endif
/* One output type (EB = 4: f32, 2: bf16) of tk_store_acc_epi: constant
 * there, so no per-element type test. */
#define TK__STORE_ACC_EPI(A, _A, rsrc, EB)                                        \
  do {                                                                            \
    if ((EB) == 2 && TK__ACC_BF16_ROWS && _NI % 2 == 0 && _NF == 2 && _FR == 32 && _FC == 32 && \
        _plain && _inside) {                                                      \
      /* as below, and the two fragment columns' packed pairs trade lanes      \
       * 32-63 / 0-31 (tk_permlane32_swap): afterwards every lane of x holds   \
       * column l of rows r, r+1 and of y rows r+4, r+5 (32x32 C layout), so   \
       * each store writes 128 B of one row: one 128 B line instead of half of \
       * two (the stores of a 256x256 tile drain at the L2's line rate, model) */ \
      uint32_t _vp = _gv.base + _l * 2u;                                          \
      int _rp = 0;                                                                \
      _Pragma("unroll") for (int _fr = 0; _fr < ((int)_A::tk_frag_count_r); _fr++)         \
      _Pragma("unroll") for (int _i = 0; _i < _NI; _i += 2) {                     \
        const int _ra = _fr * _FR + tk_layout_c_row(_FR, 0, _i), _rb = _fr * _FR + tk_layout_c_row(_FR, 32, _i); \
        const int _d1 = tk_layout_c_row(_FR, 0, _i + 1) - tk_layout_c_row(_FR, 0, _i); \
        uint32_t _x = tk_pack_bf16x2_rne((A).f[_fr * _NF][_i], (A).f[_fr * _NF][_i + 1]); \
        uint32_t _y = tk_pack_bf16x2_rne((A).f[_fr * _NF + _NF - 1][_i], (A).f[_fr * _NF + _NF - 1][_i + 1]); \
        TK__ACC_BF16_SWAP32(_x, _y);                                              \
        uint32_t _v0 = _vp + (uint32_t)(_ra - _rp) * _gv.pitch;                   \
        asm volatile("" : "+v"(_v0));                                             \
        uint32_t _v1 = _v0 + (uint32_t)_d1 * _gv.pitch, _v4 = _v0 + (uint32_t)(_rb - _ra) * _gv.pitch; \
        asm volatile("" : "+v"(_v1));                                             \
        asm volatile("" : "+v"(_v4));                                             \
        uint32_t _v5 = _v4 + (uint32_t)_d1 * _gv.pitch;                           \
        asm volatile("" : "+v"(_v5));                                             \
        tk__store_glb_b16(_gp, _v0, 0u, (uint16_t)_x);                            \
        tk__store_glb_b16(_gp, _v1, 0u, (uint16_t)(_x >> 16));                    \
        tk__store_glb_b16(_gp, _v4, 0u, (uint16_t)_y);                            \
        tk__store_glb_b16(_gp, _v5, 0u, (uint16_t)(_y >> 16));                    \
        _vp = _v0, _rp = _ra;                                                     \
      }                                                                           \
      break;                                                                      \
    }                                                                             \
    if ((EB) == 2 && TK__ACC_BF16_PAIRS && _NI % 2 == 0 && _plain && _inside) {   \
      /* gfx950, bf16 out = acc inside: registers i, i + 1 (two rows of one     \
       * column) rounded by one v_cvt_pk_bf16_f32 (tk_pack_bf16x2_rne: the same \
       * bits as tk__bf16_hi_rne), the halves stored by global_store_short and   \
       * _d16_hi: half a VALU op per element instead of 5 and an s_nop (a       \
       * 256x256 GEMM tile's epilogue issued ~1100 instructions per wave, 2.5 us \
       * modeled at 4096^3) */                                                  \
      /* row offsets from the previous pair's (pinned): a few distinct row    \
       * steps times the pitch instead of one s_mul_i32 per row, all issued  \
       * before the first store (32 in a 256x256 GEMM tile's wave) */         \
      uint32_t _vp = _lo;                                                         \
      int _rp = 0;                                                                \
      _Pragma("unroll") for (int _fr = 0; _fr < ((int)_A::tk_frag_count_r); _fr++)         \
      _Pragma("unroll") for (int _i = 0; _i < _NI; _i += 2) {                     \
        const int _j = _i + 1 < _NI ? _i + 1 : _i;                                \
        const int _r0 = _fr * _FR + tk_layout_c_row(_FR, 0, _i), _r1 = _fr * _FR + tk_layout_c_row(_FR, 0, _j); \
        uint32_t _v0 = _vp + (uint32_t)(_r0 - _rp) * _gv.pitch;                   \
        asm volatile("" : "+v"(_v0));                                             \
        uint32_t _v1 = _v0 + (uint32_t)(_r1 - _r0) * _gv.pitch;                   \
        asm volatile("" : "+v"(_v1));                                             \
        _vp = _v0, _rp = _r0;                                                     \
        _Pragma("unroll") for (int _fc = 0; _fc < _NF; _fc++) {                   \
          const uint32_t _pk = tk_pack_bf16x2_rne((A).f[_fr * _NF + _fc][_i], (A).f[_fr * _NF + _fc][_j]); \
          tk__store_glb_b16(_gp, _v0, (uint32_t)(_fc * _FC * 2), (uint16_t)_pk);  \
          tk__store_glb_b16(_gp, _v1, (uint32_t)(_fc * _FC * 2), (uint16_t)(_pk >> 16)); \
        }                                                                         \
      }                                                                           \
      break;                                                                      \
    }                                                                             \
    if (_plain && _inside) {                                                      \
      /* out = acc, wholly inside: the registers straight to the stores.  The    \
       * general path below costs this case a copy and a zeroed bias register    \
       * per element and a vmcnt(0) per fragment row (its join points may hold  \
       * C or bias loads) */                                                     \
      _Pragma("unroll") for (int _fr = 0; _fr < ((int)_A::tk_frag_count_r); _fr++)         \
      _Pragma("unroll") for (int _i = 0; _i < _NI; _i++) {                        \
        uint32_t _vr = _lo + (uint32_t)(_fr * _FR + tk_layout_c_row(_FR, 0, _i)) * _gv.pitch; \
        asm volatile("" : "+v"(_vr));                                             \
        _Pragma("unroll") for (int _fc = 0; _fc < _NF; _fc++)                     \
          TK__STORE_ACC_GLB(EB, _gp, (A).f[_fr * _NF + _fc][_i], _vr, _fc * _FC * (EB)); \
      }                                                                           \
      break;                                                                      \
    }                                                                             \
    /* a column bias is the same for every register of a fragment column */    \
    float _bc[_NF];                                                               \
    _Pragma("unroll") for (int _fc = 0; _fc < _NF; _fc++) _bc[_fc] = 0.0f;        \
    if (_ep.bias_mode == TK_BIAS_COL) { /* one wave-uniform test, not one per load */ \
      _Pragma("unroll") for (int _fc = 0; _fc < _NF; _fc++)                       \
        _bc[_fc] = tk_epi_bias_at(&_ep, _ec0 + _fc * _FC + _l % _FC);             \
    }                                                                             \
    _Pragma("unroll") for (int _fr = 0; _fr < ((int)_A::tk_frag_count_r); _fr++) {         \
      float _v[_NF][_NI], _br[_NI];                                               \
      _Pragma("unroll") for (int _i = 0; _i < _NI; _i++) {                        \
        _br[_i] = 0.0f;                                                           \
        _Pragma("unroll") for (int _fc = 0; _fc < _NF; _fc++) _v[_fc][_i] = (A).f[_fr * _NF + _fc][_i]; \
      }                                                                           \
      if (_ep.bias_mode == TK_BIAS_ROW) {                                         \
        _Pragma("unroll") for (int _i = 0; _i < _NI; _i++)                        \
          _br[_i] = tk_epi_bias_at(&_ep, _er0 + _fr * _FR + tk_layout_c_row(_FR, (int)_l, _i)); \
      }                                                                           \
      if (_al != 1.0f) {                                                          \
        _Pragma("unroll") for (int _fc = 0; _fc < _NF; _fc++)                     \
        _Pragma("unroll") for (int _i = 0; _i < _NI; _i++) _v[_fc][_i] *= _al;    \
      }                                                                           \
      if (_be != 0.0f) {                                                          \
        _Pragma("unroll") for (int _fc = 0; _fc < _NF; _fc++)                     \
        _Pragma("unroll") for (int _i = 0; _i < _NI; _i++) {                      \
          const uint32_t _o = tk_gview_off(&_gv, _fr * _FR + tk_layout_c_row(_FR, (int)_l, _i), _fc * _FC + _l % _FC); \
          _v[_fc][_i] += _be * ((EB) == 4 ? tk_bits_f32(tk_buffer_load_b32((rsrc), _o))      \
                                          : tk_bf16_to_f32(tk_buffer_load_b16((rsrc), _o))); \
        }                                                                         \
      }                                                                           \
      if (_ep.bias_mode != TK_BIAS_NONE || _ep.act != TK_ACT_NONE) {              \
        _Pragma("unroll") for (int _fc = 0; _fc < _NF; _fc++)                     \
        _Pragma("unroll") for (int _i = 0; _i < _NI; _i++)                        \
          _v[_fc][_i] = tk_epi_act(&_ep, _v[_fc][_i] + _br[_i] + _bc[_fc]);       \
      }                                                                           \
      /* inside: lane offset + row offset, fragment column in the immediate    \
       * offset; at the edges each element's offset or TK_OOB_OFFSET */         \
      if (_inside) {                                                              \
        _Pragma("unroll") for (int _i = 0; _i < _NI; _i++) {                      \
          /* the row's offset made where it is used, in a VGPR: all of them    \
           * computed ahead in SGPRs spilled (256-wide GEMM tiles) */            \
          uint32_t _vr = _lo + (uint32_t)(_fr * _FR + tk_layout_c_row(_FR, 0, _i)) * _gv.pitch; \
          asm volatile("" : "+v"(_vr));                                           \
          _Pragma("unroll") for (int _fc = 0; _fc < _NF; _fc++)                   \
            TK__STORE_ACC_GLB(EB, _gp, _v[_fc][_i], _vr, _fc * _FC * (EB));      \
        }                                                                         \
      } else {                                                                    \
        _Pragma("unroll") for (int _i = 0; _i < _NI; _i++)                        \
        _Pragma("unroll") for (int _fc = 0; _fc < _NF; _fc++)                     \
          TK__STORE_ACC_ONE(EB, rsrc, _v[_fc][_i],                                \
            tk_gview_off(&_gv, _fr * _FR + tk_layout_c_row(_FR, (int)_l, _i), _fc * _FC + _l % _FC), 0); \
      }                                                                           \
    }                                                                             \
  } while (0)
/* Inside the tensor no range check is needed, so the stores are global ones
 * (tensor pointer in SGPRs + the lane's 32-bit offset + an immediate): for
 * bf16 that is global_store_short_d16_hi of the rounded value as it is (the
 * buffer intrinsic has no d16_hi form: one shift more per element). */
typedef __attribute__((address_space(1))) char tk__gchar;
TK_DI void tk__store_glb_b32(const void *base, uint32_t off, uint32_t imm, uint32_t v) {
  *(__attribute__((address_space(1))) uint32_t *)((tk__gchar *)base + (uint64_t)off + imm) = v;
}
TK_DI void tk__store_glb_b16(const void *base, uint32_t off, uint32_t imm, uint16_t v) {
  *(__attribute__((address_space(1))) uint16_t *)((tk__gchar *)base + (uint64_t)off + imm) = v;
}
#define TK__STORE_ACC_GLB(EB, base, x, vo, imm)                                   \
  do {                                                                            \
    if ((EB) == 4) tk__store_glb_b32((base), (vo), (uint32_t)(imm), tk_f32_bits(x)); \
    else tk__store_glb_b16((base), (vo), (uint32_t)(imm), (uint16_t)(tk__bf16_hi_rne(x) >> 16)); \
  } while (0)
#define TK__STORE_ACC_ONE(EB, rsrc, x, vo, so)                                    \
  do {                                                                            \
    if ((EB) == 4) tk_llvm_raw_buffer_store_i32((int32_t)tk_f32_bits(x), (rsrc), (int32_t)(vo), (so), 0); \
    else tk_llvm_raw_buffer_store_i16((int16_t)(tk__bf16_hi_rne(x) >> 16), (rsrc), (int32_t)(vo), (so), 0); \
  } while (0)

/* acc (f32 accumulator tile) -> f32 or bf16 tensor window at (b, h, r0, c0)
 * (output type from gl's element size) straight from the registers, with the
 * fused epilogue of tk_epi `epi` (epilogue.h): out = act(alpha * acc +
 * beta * out + bias[row or col]), rows and columns counted in the tensor.
 * One element store per register (lanes of a register write FC consecutive
 * columns of a row, so each instruction still writes whole row segments).
 * A window wholly inside the tensor (the GEMM's interior tiles, wave-uniform
 * test) needs no per-element range check: lane offset + row offset, the
 * fragment column in the store's immediate offset;
 * otherwise elements outside the tensor go to TK_OOB_OFFSET and are dropped,
 * so any window is correct.  No LDS and no barrier.  Per fragment row, the C
 * values (beta != 0) and row biases are loaded before its first store: a
 * load issued after a store waits for that store too (vmcnt counts both).
 * alpha == 1 skips the multiply, beta == 0 does not read out; bias and
 * activation are skipped when off (all wave-uniform).  bf16 rounds to
 * nearest even. */
#define tk_store_acc_epi(gl, rsrc, b, h, r0, c0, A, epi)                          \
  do {                                                                            \
    typedef TK_TYPEOF(A) _A;                                                      \
    TK__ACC_CHECK(_A);                                                            \
    enum { _FR = (int)_A::tk_frag_rows, _FC = (int)_A::tk_frag_cols, _NF = (int)_A::tk_frag_count_c, _NI = (int)_A::tk_n }; \
    const tk_gview _gv = tk_gview_make((gl), (b), (h), (r0), (c0));               \
    const tk_epi _ep = (epi);                                                     \
    const float _al = _ep.alpha, _be = _ep.beta;                                  \
    const uint32_t _l = tk_lane_id(), _er0 = (uint32_t)(r0), _ec0 = (uint32_t)(c0); \
    const int _inside = _gv.rows >= ((int)_A::tk_frag_count_r) * _FR && _gv.cols >= _NF * _FC; \
    const uint32_t _lo = _gv.base + (uint32_t)tk_layout_c_row(_FR, (int)_l, 0) * _gv.pitch + (_l % _FC) * _gv.eb; \
    const void *const _gp = (gl)->ptr;                                            \
    const int _plain = _al == 1.0f && _be == 0.0f && _ep.bias_mode == TK_BIAS_NONE && _ep.act == TK_ACT_NONE; \
    if (_gv.eb == 4) TK__STORE_ACC_EPI(A, _A, rsrc, 4);                           \
    else TK__STORE_ACC_EPI(A, _A, rsrc, 2);                                       \
  } while (0)

/* the same with alpha/beta only: out = alpha * x + beta * out */
#define tk_store_lds_global_ab(gl, rsrc, b, h, r0, c0, sm, tid, NT, alpha, beta)  \
  tk_store_lds_global_epi(gl, rsrc, b, h, r0, c0, sm, tid, NT, tk_epi_ab((alpha), (beta)))
#endif /* TK_HIP */

#endif /* TK_STORES_H */
