/* tk/vec.h: row vectors for row-wise kernels (norms, rotary, elementwise):
 * a row of up to CAP elements spread over a group of G threads (a fraction
 * of a wave, a wave, or several waves of a workgroup) in f32 registers,
 * loaded and stored 16 bytes at a time with a masked tail for any length n,
 * converted from / to bf16, f16 and fp8 on the way; group reductions (sum,
 * max, mean and variance), scalar broadcasts, memory fences, and the
 * conversions between bf16 LDS / operand tiles and f32 accumulator tiles.
 *
 * Layout (TK_RV(name, CAP, G)): thread t (0..G-1) of the group holds
 * CH = CAP/(8G) chunks of 8 consecutive elements; chunk k of thread t covers
 * columns (k*G + t)*8 .. +7, element i of it is .v[8k + i].  Consecutive
 * threads read consecutive 16-byte pieces (bf16), so a wave's load of one
 * chunk index is one contiguous 1 KiB span.
 *
 * Hardware facts relied on:
 *  - raw buffer loads/stores range-check each access against num_records:
 *    loads past it return 0, stores past it are dropped (CDNA3 ISA guide,
 *    "Buffer addressing"); the tail elements use this (offset 0xfffffff0,
 *    global.h TK_GL_MAX_BYTES keeps it out of every tensor's range);
 *  - DPP quad_perm / row_half_mirror / row_mirror move values within rows of
 *    16 lanes for free in a VALU op, ds_swizzle (bit mode: and, or, xor
 *    masks over 32 lanes) and v_readlane go further (CDNA3 ISA guide, "DPP",
 *    "DS_SWIZZLE_B32", "V_READLANE_B32"); DPP control codes: LLVM
 *    AMDGPU DPP_QUAD_PERM 0x00-0xff, ROW_MIRROR 0x140, ROW_HALF_MIRROR 0x141
 *    (SIDefines.h DppCtrl);
 *  - a wave is 64 lanes (target.h); fences: LLVM AMDGPUUsage memory model,
 *    __builtin_amdgcn_fence(order, scope) with scopes "workgroup", "agent".
 */
#ifndef TK_VEC_H
#define TK_VEC_H

#include "types.h"
#include "global.h"
#include "register.h"
#include "shared.h"

/* TK_RV(name, CAP, G): typedef a row vector of capacity CAP elements over G
 * threads.  G a power of two from 1 to 1024; CAP a multiple of 8*G. */
#define TK_RV(name, CAP, G)                                                      \
  typedef struct {                                                               \
    static_assert((G) >= 1 && (G) <= 1024 && ((G) & ((G) - 1)) == 0,            \
      "tk: a row vector's thread count G must be a power of two 1..1024");       \
    static_assert((CAP) > 0 && (CAP) % (8 * (G)) == 0,                           \
      "tk: a row vector's capacity must be a positive multiple of 8*G (8 elements per chunk)"); \
    enum { tk_rv_cap = (CAP), tk_rv_threads = (G), tk_rv_chunks = (CAP) / (8 * (G)), \
           tk_rv_per_thread = (CAP) / (G) };                                     \
    float v[(CAP) / (G)];                                                        \
  } name

/* elements of a row vector per thread (the length of .v) */
#define TK_RV_PER_THREAD(V) ((int)sizeof((V).v) / (int)sizeof(float))
/* column of element e (0 .. per-thread count - 1) of thread t in a vector of
 * G threads */
TK_HDI int tk_rv_col(int g, int t, int e) { return ((e / 8) * g + t) * 8 + e % 8; }
/* first column of chunk k of thread t in a vector of G threads */
TK_HDI int tk_rv_chunk_col(int g, int t, int k) { return (k * g + t) * 8; }


/* --- element-wise, scalar broadcasts (no cross-thread traffic) ----------- */
#define TK__RV_SAME(D, A)                                                         \
  { typedef TK_TYPEOF(D) _R1; typedef TK_TYPEOF(A) _R2;                            \
    static_assert(((int)_R1::tk_rv_cap) == ((int)_R2::tk_rv_cap) &&                \
                  ((int)_R1::tk_rv_threads) == ((int)_R2::tk_rv_threads),          \
                  "tk: row vector operands must have the same capacity and thread count"); }
#define TK__RV_EACH(D, expr)                                                      \
  do { _Pragma("unroll") for (int _e = 0; _e < TK_RV_PER_THREAD(D); _e++) (D).v[_e] = (expr); } while (0)
#define tk_rv_fill(D, s) TK__RV_EACH(D, (float)(s))
#define tk_rv_copy(D, A) do { TK__RV_SAME(D, A); TK__RV_EACH(D, (A).v[_e]); } while (0)
#define tk_rv_add(D, A, B) do { TK__RV_SAME(D, A); TK__RV_SAME(D, B); TK__RV_EACH(D, (A).v[_e] + (B).v[_e]); } while (0)
#define tk_rv_sub(D, A, B) do { TK__RV_SAME(D, A); TK__RV_SAME(D, B); TK__RV_EACH(D, (A).v[_e] - (B).v[_e]); } while (0)
#define tk_rv_mul(D, A, B) do { TK__RV_SAME(D, A); TK__RV_SAME(D, B); TK__RV_EACH(D, (A).v[_e] * (B).v[_e]); } while (0)
/* D = A * B + C element-wise (one v_fma_f32 each) */
#define tk_rv_fma(D, A, B, C) do { TK__RV_SAME(D, A); TK__RV_SAME(D, B); TK__RV_SAME(D, C); \
    TK__RV_EACH(D, __builtin_fmaf((A).v[_e], (B).v[_e], (C).v[_e])); } while (0)
/* scalar broadcasts: D = A + s, D = A * s, D = (A - s) * m */
#define tk_rv_add_s(D, A, s) do { TK__RV_SAME(D, A); const float _s = (float)(s); TK__RV_EACH(D, (A).v[_e] + _s); } while (0)
#define tk_rv_mul_s(D, A, s) do { TK__RV_SAME(D, A); const float _s = (float)(s); TK__RV_EACH(D, (A).v[_e] * _s); } while (0)
#define tk_rv_sub_mul_s(D, A, s, m) do { TK__RV_SAME(D, A); const float _s = (float)(s), _m = (float)(m); \
    TK__RV_EACH(D, ((A).v[_e] - _s) * _m); } while (0)
/* set the elements at columns >= n (the tail past the row) to s: reductions
 * run over the whole capacity, so a computed tail must be cleared first */
#define tk_rv_mask_tail(D, t, n, s)                                               \
  do { typedef TK_TYPEOF(D) _TV; const int _n = (int)(n); const float _s = (float)(s); \
       _Pragma("unroll") for (int _e = 0; _e < TK_RV_PER_THREAD(D); _e++)        \
         if (tk_rv_col(((int)_TV::tk_rv_threads), (int)(t), _e) >= _n) (D).v[_e] = _s; } while (0)

#if TK_HIP
/* --- group reductions ----------------------------------------------------- */
/* value of lane (lane ^ m) for m = 1, 2 (quad_perm), or the mirrored lane of
 * a half row (m = 4) / row (m = 8) of 16: a sum or max over a butterfly of
 * mirrors covers the same lanes as one over xors */
TK_DI float tk__dpp_f32(float v, int ctrl_sel) {
  const int x = __builtin_bit_cast(int, v);
  int r;
  switch (ctrl_sel) {
  case 1: r = __builtin_amdgcn_update_dpp(x, x, 0xb1, 0xf, 0xf, false); break;  /* quad_perm [1,0,3,2] */
  case 2: r = __builtin_amdgcn_update_dpp(x, x, 0x4e, 0xf, 0xf, false); break;  /* quad_perm [2,3,0,1] */
  case 4: r = __builtin_amdgcn_update_dpp(x, x, 0x141, 0xf, 0xf, false); break; /* row_half_mirror */
  default: r = __builtin_amdgcn_update_dpp(x, x, 0x140, 0xf, 0xf, false); break; /* row_mirror */
  }
  return __builtin_bit_cast(float, r);
}
/* lane ^ 16 within each half wave: ds_swizzle bit mode, and 0x1f, xor 0x10 */
TK_DI float tk__swz16_f32(float v) {
  return __builtin_bit_cast(float, __builtin_amdgcn_ds_swizzle(__builtin_bit_cast(int, v), 0x401f));
}
TK_DI float tk__red_op(float a, float b, int is_max) { return is_max ? __builtin_fmaxf(a, b) : a + b; }

/* Sum / max of v over aligned groups of g lanes (g a power of two 1..64, a
 * compile-time constant after inlining): every lane gets its group's
 * result.  Steps: DPP within rows of 16, ds_swizzle across 16, and for g =
 * 64 two v_readlane (a wave-uniform result). */
TK_DI float tk__lanes_reduce(float v, int g, int is_max) {
  if (g >= 2) v = tk__red_op(v, tk__dpp_f32(v, 1), is_max);
  if (g >= 4) v = tk__red_op(v, tk__dpp_f32(v, 2), is_max);
  if (g >= 8) v = tk__red_op(v, tk__dpp_f32(v, 4), is_max);
  if (g >= 16) v = tk__red_op(v, tk__dpp_f32(v, 8), is_max);
  if (g >= 32) v = tk__red_op(v, tk__swz16_f32(v), is_max);
  if (g >= 64) {
    const float a = __builtin_bit_cast(float, __builtin_amdgcn_readlane(__builtin_bit_cast(int, v), 0));
    const float b = __builtin_bit_cast(float, __builtin_amdgcn_readlane(__builtin_bit_cast(int, v), 32));
    v = tk__red_op(a, b, is_max);
  }
  return v;
}
TK_DI float tk_lanes_sum(float v, int g) { return tk__lanes_reduce(v, g, 0); }
TK_DI float tk_lanes_max(float v, int g) { return tk__lanes_reduce(v, g, 1); }
TK_DI float tk_wave_sum(float v) { return tk__lanes_reduce(v, 64, 0); }
TK_DI float tk_wave_max(float v) { return tk__lanes_reduce(v, 64, 1); }

/* Reduction over aligned groups of g threads of a 1-D workgroup, g a power
 * of two up to 1024 (constant after inlining).  g > 64 (several waves per
 * group) goes through LDS: `scratch` holds one float per wave of the
 * workgroup (e.g. __shared__ float red[TK_WAVES]); every wave of the
 * workgroup must call it (two s_barrier), all lanes active. */
TK_DI float tk__group_reduce(float v, int g, float *scratch, int is_max) {
  if (g <= 64) return tk__lanes_reduce(v, g, is_max);
  v = tk__lanes_reduce(v, 64, is_max);
  const uint32_t wave = __builtin_amdgcn_workitem_id_x() / 64u, wpg = (uint32_t)g / 64u;
  if (__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)) == 0) scratch[wave] = v;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  const float *s = scratch + (wave / wpg) * wpg;
  float r = s[0];
  for (uint32_t w = 1; w < wpg; w++) r = tk__red_op(r, s[w], is_max);
  /* the scratch may be written again by the next reduction */
  __builtin_amdgcn_s_barrier();
  return r;
}
TK_DI float tk_group_sum(float v, int g, float *scratch) { return tk__group_reduce(v, g, scratch, 0); }
TK_DI float tk_group_max(float v, int g, float *scratch) { return tk__group_reduce(v, g, scratch, 1); }

/* sum / max of a whole row vector over its group (every thread gets it);
 * scratch as for tk_group_sum (unused when G <= 64, may be NULL) */
#define tk_rv_sum(V, scratch)                                                     \
  ({ typedef TK_TYPEOF(V) _TV; float _a = 0.0f;                                   \
     _Pragma("unroll") for (int _e = 0; _e < TK_RV_PER_THREAD(V); _e++) _a += (V).v[_e]; \
     tk_group_sum(_a, ((int)_TV::tk_rv_threads), (scratch)); })
#define tk_rv_max(V, scratch)                                                     \
  ({ typedef TK_TYPEOF(V) _TV; float _a = (V).v[0];                              \
     _Pragma("unroll") for (int _e = 1; _e < TK_RV_PER_THREAD(V); _e++) _a = __builtin_fmaxf(_a, (V).v[_e]); \
     tk_group_max(_a, ((int)_TV::tk_rv_threads), (scratch)); })
/* Mean and (population) variance of the first n elements of V, two-pass:
 * the mean first, then the mean of squared deviations (no cancellation as
 * in E[x^2] - E[x]^2; the row is in registers, so the second pass reads no
 * memory).  Elements past n are ignored.  Two group reductions. */
#define tk_rv_mean_var(V, t, n, scratch, mean_out, var_out)                       \
  do { typedef TK_TYPEOF(V) _TV; const int _n = (int)(n);                         \
       float _s = 0.0f, _q = 0.0f;                                                \
       /* a chunk wholly inside the row sums without per-element selects      \
        * (a branch per chunk, skipped unless a lane holds the row's end) */   \
       _Pragma("unroll") for (int _k = 0; _k < ((int)_TV::tk_rv_chunks); _k++) { \
         const int _c0 = tk_rv_chunk_col(((int)_TV::tk_rv_threads), (int)(t), _k); \
         if (_c0 + 8 <= _n) {                                                     \
           _Pragma("unroll") for (int _i = 0; _i < 8; _i++) _s += (V).v[8 * _k + _i]; \
         } else {                                                                 \
           _Pragma("unroll") for (int _i = 0; _i < 8; _i++) _s += _c0 + _i < _n ? (V).v[8 * _k + _i] : 0.0f; \
         } }                                                                      \
       const float _mean = tk_group_sum(_s, ((int)_TV::tk_rv_threads), (scratch)) / (float)_n; \
       _Pragma("unroll") for (int _k = 0; _k < ((int)_TV::tk_rv_chunks); _k++) { \
         const int _c0 = tk_rv_chunk_col(((int)_TV::tk_rv_threads), (int)(t), _k); \
         if (_c0 + 8 <= _n) {                                                     \
           _Pragma("unroll") for (int _i = 0; _i < 8; _i++) {                     \
             const float _d = (V).v[8 * _k + _i] - _mean; _q = __builtin_fmaf(_d, _d, _q); } \
         } else {                                                                 \
           _Pragma("unroll") for (int _i = 0; _i < 8; _i++) {                     \
             const float _d = _c0 + _i < _n ? (V).v[8 * _k + _i] - _mean : 0.0f; _q = __builtin_fmaf(_d, _d, _q); } \
         } }                                                                      \
       (mean_out) = _mean;                                                        \
       (var_out) = tk_group_sum(_q, ((int)_TV::tk_rv_threads), (scratch)) / (float)_n; } while (0)

/* Mean and (population) variance of the first n elements of V with one
 * group reduction (tk_rv_mean_var needs two: for G > 64 that is two LDS
 * rounds and four barriers).  Each wave sums d = x - k_w and d^2 around its
 * own shift k_w = its lane 0's first element (v_readlane, column 512*w of
 * the group), and publishes (sum, sum of squares, k_w, its element count)
 * through LDS; every thread moves them to wave 0's shift k_0 (exact
 * algebra: sum (x-k_0)^2 = q_w + 2 d s_w + n_w d^2, d = k_w - k_0) and
 * takes var = E[(x-k_0)^2] - E[x-k_0]^2.  k_0 is column 0, an element of
 * the row, so (k_0 - mean)^2 <= n var and the cancellation costs at most
 * about n f32 ulps of var (2^-9 relative at n = 32768; far less unless one
 * element dominates the row).  scratch: 4 floats per wave of the
 * workgroup (__shared__ float[4 * TK_WAVES]); all waves, all lanes, as for
 * tk_group_sum.  G <= 64: tk_rv_mean_var (no barriers to save). */
#define tk_rv_mean_var1(V, t, n, scratch, mean_out, var_out)                      \
  do { typedef TK_TYPEOF(V) _TV;                                                  \
       if ((int)_TV::tk_rv_threads <= 64) {                                       \
         tk_rv_mean_var(V, t, n, scratch, mean_out, var_out);                     \
       } else {                                                                   \
         const int _n = (int)(n), _G = (int)_TV::tk_rv_threads;                   \
         const float _sh = tk_wave_bcast((V).v[0], 0);                            \
         const tk_f32x2 _sh2 = {_sh, _sh};                                        \
         tk_f32x2 _s2 = {0.0f, 0.0f}, _q2 = {0.0f, 0.0f};                         \
         float _s = 0.0f, _q = 0.0f;                                              \
         _Pragma("unroll") for (int _k = 0; _k < ((int)_TV::tk_rv_chunks); _k++) { \
           const int _c0 = tk_rv_chunk_col(_G, (int)(t), _k);                      \
           if (_c0 + 8 <= _n) { /* pairs: v_pk_add_f32 / v_pk_fma_f32 */         \
             _Pragma("unroll") for (int _i = 0; _i < 8; _i += 2) {                \
               const tk_f32x2 _d = (tk_f32x2){(V).v[8 * _k + _i], (V).v[8 * _k + _i + 1]} - _sh2; \
               _s2 += _d; _q2 = __builtin_elementwise_fma(_d, _d, _q2); }         \
           } else {                                                               \
             _Pragma("unroll") for (int _i = 0; _i < 8; _i++) {                   \
               const float _d = _c0 + _i < _n ? (V).v[8 * _k + _i] - _sh : 0.0f;  \
               _s += _d; _q = __builtin_fmaf(_d, _d, _q); }                       \
           } }                                                                    \
         tk__rv_stats_combine(_s + _s2.x + _s2.y, _q + _q2.x + _q2.y, _sh, _n, _G, (scratch), &(mean_out), &(var_out)); \
       } } while (0)
TK_DI void tk__rv_stats_combine(float s, float q, float sh, int n, int g, float *scratch, float *mean, float *var) {
  s = tk_wave_sum(s), q = tk_wave_sum(q);
  const uint32_t wave = __builtin_amdgcn_workitem_id_x() / 64u, wpg = (uint32_t)g / 64u;
  /* elements of the row this wave holds: chunk k covers columns
   * (k*g + 64*(wave % wpg))*8 .. +511 */
  const int m = n - 512 * (int)(wave % wpg), span = 8 * g;
  const int cnt = m <= 0 ? 0 : (m / span) * 512 + (m % span < 512 ? m % span : 512);
  if (__builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u)) == 0) {
    float *d = scratch + 4 * wave;
    d[0] = s, d[1] = q, d[2] = cnt > 0 ? sh : 0.0f, d[3] = (float)cnt; /* a lane 0 past the row: any finite shift */
  }
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  const float *b = scratch + 4 * (wave / wpg) * wpg;
  const float k0 = b[2];
  float S = b[0], Q = b[1];
  for (uint32_t w = 1; w < wpg; w++) {
    const float d = b[4 * w + 2] - k0, sw = b[4 * w], nw = b[4 * w + 3];
    S += __builtin_fmaf(nw, d, sw);
    Q += __builtin_fmaf(d, __builtin_fmaf(nw, d, 2.0f * sw), b[4 * w + 1]);
  }
  __builtin_amdgcn_s_barrier(); /* the scratch may be written again next */
  const float md = S / (float)n;
  *mean = k0 + md;
  *var = __builtin_fmaxf(__builtin_fmaf(-md, md, Q / (float)n), 0.0f);
}

/* v of lane src (wave-uniform result, v_readlane) */
TK_DI float tk_wave_bcast(float v, int src) {
  return __builtin_bit_cast(float, __builtin_amdgcn_readlane(__builtin_bit_cast(int, v), src));
}

/* x rounded to bf16 (nearest even, NaN kept) and back to f32, branch free:
 * the value a bf16 store of x would hold */
TK_HDI float tk_round_bf16(float x) { return tk_bits_f32(tk__bf16_hi_rne(x) & 0xffff0000u); }
/* the same in two integer ops for values that are finite, infinite, or NaNs
 * whose payload's low 16 bits are 0 (any NaN computed from bf16 or f16
 * inputs: arithmetic keeps or quiets the input's payload); another NaN may
 * come out as an infinity or a zero */
TK_HDI float tk_round_bf16_finite(float x) {
  const uint32_t u = tk_f32_bits(x);
  return tk_bits_f32((u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u);
}

/* --- memory fences ---------------------------------------------------------
 * Order this thread's earlier global/LDS accesses before its later ones as
 * seen by the workgroup / the whole device (sequentially consistent fence at
 * that scope: the waits, and on the device scope the L2 writeback and
 * invalidate, AMDGPUUsage "Memory Model GFX942").  A fence orders; it does
 * not wait for other threads: pair it with a barrier or a flag. */
TK_DI void tk_fence_workgroup(void) { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup"); }
TK_DI void tk_fence_device(void) { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent"); }

/* --- loads and stores: global <-> row vector -------------------------------
 * r: a buffer descriptor over the tensor; row: byte offset of the row's
 * first element; n: elements in the row (the columns >= n read 0 and are
 * not written); t: the thread's index in its group (0..G-1).  A chunk
 * wholly inside the row moves as one 16-byte (bf16/f16) or 8-byte (fp8)
 * access when the row offset is a multiple of that size, else element by
 * element. */
#define TK__RV_OOB 0xfffffff0u
TK_DEV void tk_llvm_raw_buffer_store_i8(int8_t v, tk_rsrc rsrc, int32_t voffset, int32_t soffset, int32_t aux)
    __asm("llvm.amdgcn.raw.buffer.store.i8");
TK_DI void tk__rv_ld8_16(float *o, tk_rsrc r, uint32_t row, uint32_t c0, uint32_t n, int is_f16) {
  if ((row & 15u) == 0 && c0 + 8 <= n) {
    const tk_u32x4 w = tk_buffer_load_b128(r, row + (uint32_t)c0 * 2u);
    _Pragma("unroll") for (int j = 0; j < 4; j++) {
      if (is_f16) {
        o[2 * j] = tk_f16_to_f32((tk_f16)(w[j] & 0xffffu));
        o[2 * j + 1] = tk_f16_to_f32((tk_f16)(w[j] >> 16));
      } else {
        o[2 * j] = tk_bits_f32(w[j] << 16);
        o[2 * j + 1] = tk_bits_f32(w[j] & 0xffff0000u);
      }
    }
  } else {
    _Pragma("unroll") for (int i = 0; i < 8; i++) {
      const uint16_t h = tk_buffer_load_b16(r, c0 + i < n ? row + (uint32_t)(c0 + i) * 2u : TK__RV_OOB);
      o[i] = is_f16 ? tk_f16_to_f32(h) : tk_bf16_to_f32(h);
    }
  }
}
/* the high halves of two f32 as two bf16 (one v_perm_b32): exact for values
 * that are bf16 already */
TK_DI uint32_t tk__pack_hi(float lo, float hi) {
  return __builtin_amdgcn_perm(tk_f32_bits(hi), tk_f32_bits(lo), 0x07060302u);
}
TK_DI void tk__rv_st8_16(tk_rsrc r, uint32_t row, uint32_t c0, uint32_t n, const float *x, int is_f16) {
  if ((row & 15u) == 0 && c0 + 8 <= n) {
    tk_u32x4 w;
    _Pragma("unroll") for (int j = 0; j < 4; j++)
      w[j] = is_f16 == 1 ? ((uint32_t)tk_f32_to_f16(x[2 * j]) | ((uint32_t)tk_f32_to_f16(x[2 * j + 1]) << 16))
           : is_f16 == 2 ? tk_pack_bf16x2_rn(x[2 * j], x[2 * j + 1])
           : is_f16 == 3 ? tk__pack_hi(x[2 * j], x[2 * j + 1])
                         : tk_pack_bf16x2_rne(x[2 * j], x[2 * j + 1]);
    tk_buffer_store_b128(r, row + (uint32_t)c0 * 2u, w);
  } else {
    _Pragma("unroll") for (int i = 0; i < 8; i++)
      if (c0 + i < n)
        tk_buffer_store_b16(r, row + (uint32_t)(c0 + i) * 2u,
                            is_f16 == 1 ? tk_f32_to_f16(x[i])
                            : is_f16 == 2 ? (uint16_t)(tk_pack_bf16x2_rn(x[i], 0.0f) & 0xffffu)
                            : is_f16 == 3 ? (uint16_t)(tk_f32_bits(x[i]) >> 16) : tk_f32_to_bf16(x[i]));
  }
}
TK_DI void tk__rv_ld8_fp8(float *o, tk_rsrc r, uint32_t row, uint32_t c0, uint32_t n, int e5) {
  uint32_t lo, hi;
  if ((row & 7u) == 0 && c0 + 8 <= n) {
    const tk_u32x2 w = tk_buffer_load_b64(r, row + (uint32_t)c0);
    lo = w[0], hi = w[1];
  } else {
    uint32_t b[8];
    /* byte loads as the low byte of a 16-bit load's result would read past
     * the row's end: one u8 each, through a b16 at an even offset */
    _Pragma("unroll") for (int i = 0; i < 8; i++) {
      const uint32_t off = row + (uint32_t)(c0 + i);
      const uint32_t h = c0 + i < n ? tk_buffer_load_b16(r, off & ~1u) : 0u;
      b[i] = (off & 1u) ? (h >> 8) & 0xffu : h & 0xffu;
    }
    lo = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24;
    hi = b[4] | b[5] << 8 | b[6] << 16 | b[7] << 24;
  }
  if (e5) {
    o[0] = tk_cvt_fp8e5_f32(lo, 0), o[1] = tk_cvt_fp8e5_f32(lo, 1), o[2] = tk_cvt_fp8e5_f32(lo, 2), o[3] = tk_cvt_fp8e5_f32(lo, 3);
    o[4] = tk_cvt_fp8e5_f32(hi, 0), o[5] = tk_cvt_fp8e5_f32(hi, 1), o[6] = tk_cvt_fp8e5_f32(hi, 2), o[7] = tk_cvt_fp8e5_f32(hi, 3);
  } else {
    o[0] = tk_cvt_fp8e4_f32(lo, 0), o[1] = tk_cvt_fp8e4_f32(lo, 1), o[2] = tk_cvt_fp8e4_f32(lo, 2), o[3] = tk_cvt_fp8e4_f32(lo, 3);
    o[4] = tk_cvt_fp8e4_f32(hi, 0), o[5] = tk_cvt_fp8e4_f32(hi, 1), o[6] = tk_cvt_fp8e4_f32(hi, 2), o[7] = tk_cvt_fp8e4_f32(hi, 3);
  }
  /* columns past the row are 0 like the other loads (a zero byte is +0 in
   * both fp8 encodings, so only the vector path needs no care) */
}
TK_DI void tk__rv_st8_fp8(tk_rsrc r, uint32_t row, uint32_t c0, uint32_t n, const float *x, int e5) {
  const uint32_t lo = e5 ? tk_cvt_pk4_fp8e5(x[0], x[1], x[2], x[3]) : tk_cvt_pk4_fp8e4(x[0], x[1], x[2], x[3]);
  const uint32_t hi = e5 ? tk_cvt_pk4_fp8e5(x[4], x[5], x[6], x[7]) : tk_cvt_pk4_fp8e4(x[4], x[5], x[6], x[7]);
  if ((row & 7u) == 0 && c0 + 8 <= n) {
    tk_u32x2 w;
    w[0] = lo, w[1] = hi;
    tk_buffer_store_b64(r, row + (uint32_t)c0, w);
  } else {
    /* no byte store in global.h's set: a byte's 16-bit neighbour would be
     * overwritten, so element-wise through LLVM's i8 buffer store */
    _Pragma("unroll") for (int i = 0; i < 8; i++)
      if (c0 + i < n) tk_llvm_raw_buffer_store_i8((int8_t)(((i < 4 ? lo : hi) >> (8 * (i % 4))) & 0xffu), r,
                                                   (int32_t)(row + (uint32_t)(c0 + i)), 0, 0);
  }
}

/* One 8-element chunk at column c0 of a row (the pieces the vector loads
 * and stores are made of; for code that streams a second row chunk by
 * chunk, e.g. a norm's weights, instead of holding all of it): */
TK_DI void tk_ld8_bf16(float *o, tk_rsrc r, uint32_t row, uint32_t c0, uint32_t n) { tk__rv_ld8_16(o, r, row, c0, n, 0); }
TK_DI void tk_ld8_f16(float *o, tk_rsrc r, uint32_t row, uint32_t c0, uint32_t n) { tk__rv_ld8_16(o, r, row, c0, n, 1); }
TK_DI void tk_st8_bf16(tk_rsrc r, uint32_t row, uint32_t c0, uint32_t n, const float *x) { tk__rv_st8_16(r, row, c0, n, x, 0); }
TK_DI void tk_st8_f16(tk_rsrc r, uint32_t row, uint32_t c0, uint32_t n, const float *x) { tk__rv_st8_16(r, row, c0, n, x, 1); }
/* bf16 rounded to nearest, ties away from zero (tk_pack_bf16x2_rna: 3
 * integer ops per pair instead of RNE's 11; the same half-ulp error bound;
 * for finite values and NaNs that arithmetic produced, which keep their
 * quiet bit in the high half) */
TK_DI void tk_st8_bf16_rna(tk_rsrc r, uint32_t row, uint32_t c0, uint32_t n, const float *x) { tk__rv_st8_16(r, row, c0, n, x, 2); }

#define TK__RV_IO(V, t, BODY)                                                     \
  do { typedef TK_TYPEOF(V) _TV;                                                  \
       _Pragma("unroll") for (int _k = 0; _k < ((int)_TV::tk_rv_chunks); _k++) { \
         const uint32_t _c0 = (uint32_t)((_k * ((int)_TV::tk_rv_threads) + (int)(t)) * 8); \
         float *_p = &(V).v[8 * _k]; (void)_p; BODY; } } while (0)
#define tk_rv_load_bf16(V, r, row, n, t) TK__RV_IO(V, t, tk__rv_ld8_16(_p, (r), (row), _c0, (uint32_t)(n), 0))
#define tk_rv_load_f16(V, r, row, n, t) TK__RV_IO(V, t, tk__rv_ld8_16(_p, (r), (row), _c0, (uint32_t)(n), 1))
#define tk_rv_load_fp8e4(V, r, row, n, t) TK__RV_IO(V, t, tk__rv_ld8_fp8(_p, (r), (row), _c0, (uint32_t)(n), 0))
#define tk_rv_load_fp8e5(V, r, row, n, t) TK__RV_IO(V, t, tk__rv_ld8_fp8(_p, (r), (row), _c0, (uint32_t)(n), 1))
#define tk_rv_store_bf16(V, r, row, n, t) TK__RV_IO(V, t, tk__rv_st8_16((r), (row), _c0, (uint32_t)(n), _p, 0))
/* for a vector holding bf16 values already (tk_round_bf16): their bits,
 * no rounding (one v_perm_b32 per pair) */
#define tk_rv_store_bf16_exact(V, r, row, n, t) TK__RV_IO(V, t, tk__rv_st8_16((r), (row), _c0, (uint32_t)(n), _p, 3))
#define tk_rv_store_bf16_rna(V, r, row, n, t) TK__RV_IO(V, t, tk__rv_st8_16((r), (row), _c0, (uint32_t)(n), _p, 2))
#define tk_rv_store_f16(V, r, row, n, t) TK__RV_IO(V, t, tk__rv_st8_16((r), (row), _c0, (uint32_t)(n), _p, 1))
#define tk_rv_store_fp8e4(V, r, row, n, t) TK__RV_IO(V, t, tk__rv_st8_fp8((r), (row), _c0, (uint32_t)(n), _p, 0))
#define tk_rv_store_fp8e5(V, r, row, n, t) TK__RV_IO(V, t, tk__rv_st8_fp8((r), (row), _c0, (uint32_t)(n), _p, 1))

/* Load a bf16 row of n/2 values with each value repeated twice: element c
 * of V is value c/2 (interleaved-pair layouts: rotary's cos/sin for
 * (x[2i], x[2i+1])).  n: columns of V (even); row: byte offset of value 0.
 * Each chunk needs 4 values: one 8-byte access when aligned and whole. */
TK_DI void tk__rv_ld8_pairs(float *o, tk_rsrc r, uint32_t row, uint32_t c0, uint32_t n) {
  const uint32_t h0 = c0 / 2;
  if ((row & 7u) == 0 && c0 + 8 <= n) {
    const tk_u32x2 w = tk_buffer_load_b64(r, row + (uint32_t)h0 * 2u);
    _Pragma("unroll") for (int j = 0; j < 2; j++) {
      o[4 * j] = o[4 * j + 1] = tk_bits_f32(w[j] << 16);
      o[4 * j + 2] = o[4 * j + 3] = tk_bits_f32(w[j] & 0xffff0000u);
    }
  } else {
    _Pragma("unroll") for (int i = 0; i < 4; i++) {
      const uint16_t h = tk_buffer_load_b16(r, c0 + 2 * i < n ? row + (uint32_t)(h0 + i) * 2u : TK__RV_OOB);
      o[2 * i] = o[2 * i + 1] = tk_bf16_to_f32(h);
    }
  }
}
#define tk_rv_load_bf16_pairs(V, r, row, n, t) TK__RV_IO(V, t, tk__rv_ld8_pairs(_p, (r), (row), _c0, (uint32_t)(n)))

/* value of element e's pair partner (e ^ 1, the same chunk and thread) */
#define tk_rv_pair(V, e) ((V).v[(e) ^ 1])

/* --- LDS tiles <-> f32 accumulator tiles -----------------------------------
 * tk_rt_load_lds_c(D, S): D, an f32 accumulator tile (TK_K_C_F32_*), gets
 * the bf16 LDS tile S (TK_ST of tk_bf16, the same rows and columns, any
 * layout) converted to f32, element (r, c) where the C layout puts it
 * (register.h).  tk_rt_store_lds_c(S, A): the reverse, rounding to nearest
 * even.  For element-wise work on tiles that arrive through LDS (biases,
 * residuals added to a GEMM's accumulators).  One 16-bit LDS access per
 * element: a layout change, not a fast path. */
#define TK__RT_LDS_C(D, S, BODY)                                                  \
  do { typedef TK_TYPEOF(D) _TD; typedef TK_TYPEOF(S) _TS;                         \
       static_assert(((int)_TD::tk_dt) == TK_DT_F32 && ((int)_TD::tk_op) == TK_OP_C, \
         "tk: the register tile must be an f32 accumulator tile");                 \
       static_assert(((int)_TS::tk_elem_bytes) == 2 && ((int)_TS::tk_rows) == ((int)_TD::tk_rows) && \
                     ((int)_TS::tk_cols) == ((int)_TD::tk_cols),                   \
         "tk: the LDS tile must be a 16-bit tile of the register tile's size");    \
       const int _l = tk_lane();                                                   \
       _Pragma("unroll") for (int _r = 0; _r < ((int)_TD::tk_frag_count_r); _r++)            \
       _Pragma("unroll") for (int _c = 0; _c < ((int)_TD::tk_frag_count_c); _c++)            \
       _Pragma("unroll") for (int _i = 0; _i < ((int)_TD::tk_n); _i++) {           \
         const uint32_t _row = (uint32_t)(_r * ((int)_TD::tk_frag_rows) + tk_layout_c_row(((int)_TD::tk_frag_rows), _l, _i)); \
         const uint32_t _col = (uint32_t)(_c * ((int)_TD::tk_frag_cols) + tk_layout_c_col(((int)_TD::tk_frag_rows), _l, _i)); \
         uint16_t *_q = (uint16_t *)(void *)((char *)(void *)(S).data + tk_st_offset(_TS, _row, _col)); \
         const int _f = _r * ((int)_TD::tk_frag_count_c) + _c; BODY; } } while (0)
#define tk_rt_load_lds_c(D, S) TK__RT_LDS_C(D, S, (D).f[_f][_i] = tk_bf16_to_f32(*_q))
#define tk_rt_store_lds_c(S, A) TK__RT_LDS_C(A, S, *_q = tk_f32_to_bf16((A).f[_f][_i]))

/* Convert a bf16 B-operand tile (TK_K_B_BF16_16x16x16 / 32x32x8) to the f32
 * accumulator tile of the same M×N: the reverse of tk_rt_cvt_c_to_b_bf16
 * (the two layouts hold the same (row, col) per lane and register,
 * register.h), so no data moves between lanes. */
#define tk_rt_cvt_b_to_c_bf16(D, A)                                               \
  do { TK_RT_FLOAT(D); typedef TK_TYPEOF(A) _TA; typedef TK_TYPEOF(D) _TD;        \
       static_assert(((int)_TA::tk_op) == TK_OP_B && ((int)_TA::tk_n) == 4 && ((int)_TA::tk_dt) == TK_DT_BF16 && \
                     ((int)_TD::tk_rows) == ((int)_TA::tk_rows) && ((int)_TD::tk_cols) == ((int)_TA::tk_cols) && \
                     ((int)_TD::tk_frag_cols) == ((int)_TA::tk_frag_cols),                               \
         "tk: a bf16 B-operand tile converts to the accumulator tile of the same size and MFMA width"); \
       for (int _r = 0; _r < ((int)_TD::tk_frag_count_r); _r++)                             \
         for (int _c = 0; _c < ((int)_TD::tk_frag_count_c); _c++)                           \
           for (int _g = 0; _g < ((int)_TD::tk_n) / 4; _g++)                      \
             for (int _i = 0; _i < 4; _i++)                                       \
               (D).f[_r * ((int)_TD::tk_frag_count_c) + _c][_g * 4 + _i] =                  \
                 tk_bf16_to_f32((tk_bf16)(A).f[((_r * (((int)_TD::tk_n) / 4)) + _g) * ((int)_TA::tk_frag_count_c) + _c][_i]); \
  } while (0)
#endif /* TK_HIP */

#endif /* TK_VEC_H */
