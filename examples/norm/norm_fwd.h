/* norm_fwd.h: the fused dropout + residual + LayerNorm / RMSNorm forward
 * kernel (tk_norm.h has the semantics), built from tk/vec.h row vectors.
 *
 * One row per group of G threads: G = 16..64 lanes of a wave (several rows
 * per wave for short rows) or 256..1024 threads of a workgroup (long rows,
 * reductions through LDS).  The row lives in registers from its one read
 * to its store: CAP/G f32 per thread, so N up to CAP needs no second pass
 * over x and residual (a 16-row bf16 block at N = 16384 would be 512 KiB,
 * beyond any LDS).  Weights and bias are streamed chunk by chunk at the
 * end (the same N values for every row: L2 hits after the first rows).
 * Rows past M read nothing and write nothing but still take part in the
 * group reductions (all lanes must reach the barriers). */
#ifndef NORM_FWD_H
#define NORM_FWD_H

#include <tk/tk.h>
#include "tk_norm.h"

typedef struct norm_args {
  const uint16_t *x, *res, *w, *b;
  uint16_t *out, *res_out;
  uint32_t x_bytes, res_bytes, out_bytes, res_out_bytes; /* buffer ranges */
  int64_t m, n, ld_x, ld_res, ld_out, ld_res_out;
  uint64_t seed;
  uint32_t thr;      /* keep iff the column's 16 hash bits >= thr */
  float scale;       /* 1 / (1 - p) */
  float eps;
  int32_t rms, has_res, has_drop;
  int32_t full;      /* n == the kernel's CAP and every row offset a multiple of 16 bytes */
} norm_args;

#define NORM_WG(G) ((G) < 256 ? 256 : (G))

/* One row: nv elements accessed (0 past M), nn the row length, am a mask
 * on row byte offsets.  The kernel calls it twice: with nv = nn = CAP and
 * am = ~15 (the row is full and 16-byte aligned: a.full), every tail test
 * and alignment test folds away at compile time (no per-chunk branches,
 * selects or phi copies), and with the run-time values otherwise. */
#define NORM_KERNEL(name, CAP, G)                                                 \
  static __device__ __forceinline__ void name##_row(const norm_args &a, int64_t row, uint32_t nv, \
                                                    uint32_t nn, uint32_t am) {   \
    TK_RV(rv_t, CAP, G);                                                          \
    __shared__ float red[4 * NORM_WG(G) / 64];                                    \
    const int t = (int)(threadIdx.x % (G));                                       \
    const uint32_t rrow = (uint32_t)(row < a.m ? row : 0);                        \
    const tk_rsrc rx = tk_rsrc_make(a.x, a.x_bytes), rout = tk_rsrc_make(a.out, a.out_bytes); \
    rv_t h, r;                                                                    \
    tk_rv_load_bf16(h, rx, ((uint32_t)(rrow * a.ld_x * 2) & am), nv, t);                 \
    tk_rv_fill(r, 0.0f);                                                          \
    if (a.has_res)                                                                \
      tk_rv_load_bf16(r, tk_rsrc_make(a.res, a.res_bytes), ((uint32_t)(rrow * a.ld_res * 2) & am), nv, t); \
    /* h = x * (keep ? 1/(1-p) : 0) + residual, one fma as on the CPU */          \
    if (a.has_drop) {                                                             \
      const uint32_t key = tk_norm_row_key(a.seed, rrow);                        \
      /* one hash per column pair (chunks start at even columns) */            \
      _Pragma("unroll") for (int e = 0; e < TK_RV_PER_THREAD(h); e += 2) {       \
        const uint32_t col = (uint32_t)tk_rv_col((G), t, e);                     \
        const uint32_t hs = tk_norm_hash(key, col >> 1);                         \
        const float m0 = (hs & 0xffffu) >= a.thr ? a.scale : 0.0f;               \
        const float m1 = (hs >> 16) >= a.thr ? a.scale : 0.0f;                   \
        h.v[e] = __builtin_fmaf(h.v[e], m0, r.v[e]);                             \
        h.v[e + 1] = __builtin_fmaf(h.v[e + 1], m1, r.v[e + 1]);                 \
      }                                                                           \
    } else if (a.has_res) {                                                       \
      tk_rv_add(h, h, r);                                                         \
    }                                                                             \
    if (a.has_res || a.has_drop) {                                                \
      /* the stored residual is what is normalised: round to bf16 (RNE; h   \
       * comes from bf16 inputs, so tk_round_bf16_finite is exact here) */      \
      _Pragma("unroll") for (int e = 0; e < TK_RV_PER_THREAD(h); e++)            \
        h.v[e] = tk_round_bf16_finite(h.v[e]);                                    \
      if (a.has_res)                                                              \
        tk_rv_store_bf16_exact(h, tk_rsrc_make(a.res_out, a.res_out_bytes), ((uint32_t)(rrow * a.ld_res_out * 2) & am), nv, t); \
    }                                                                             \
    float mean = 0.0f, rstd;                                                      \
    if (a.rms) {                                                                  \
      rv_t q;                                                                     \
      tk_rv_mul(q, h, h);                                                         \
      rstd = 1.0f / __builtin_sqrtf(tk_rv_sum(q, red) / (float)nn + a.eps); \
    } else {                                                                      \
      float var;                                                                  \
      /* G >= 512: one group reduction (one LDS round, two barriers; 169.6 ->  \
       * 160.5 us modeled at MI325X 8192^2); at G = 256 its extra VALU costs   \
       * more than the two barriers it saves (46.7 -> 47.7 us at 4096^2) */     \
      if ((G) >= 512)                                                             \
        tk_rv_mean_var1(h, t, nn, red, mean, var);                               \
      else                                                                        \
        tk_rv_mean_var(h, t, nn, red, mean, var);                                \
      rstd = 1.0f / __builtin_sqrtf(var + a.eps);                                 \
    }                                                                             \
    const tk_rsrc rw = tk_rsrc_make(a.w, (uint32_t)(a.n * 2));                    \
    const tk_rsrc rb = tk_rsrc_make(a.rms ? a.w : a.b, (uint32_t)(a.n * 2));      \
    _Pragma("unroll") for (int k = 0; k < ((int)rv_t::tk_rv_chunks); k++) {      \
      const uint32_t c0 = (uint32_t)tk_rv_chunk_col((G), t, k);                           \
      float w8[8], b8[8] = {0}, y[8];                                                   \
      tk_ld8_bf16(w8, rw, 0u, c0, nv);                                            \
      if (!a.rms) tk_ld8_bf16(b8, rb, 0u, c0, nv);                                \
      /* pairs: v_pk_mul_f32 / v_pk_fma_f32 (packed f32, full rate on CDNA3/4) */ \
      _Pragma("unroll") for (int i = 0; i < 8; i += 2) {                          \
        const tk_f32x2 hv = {h.v[8 * k + i], h.v[8 * k + i + 1]}, wv = {w8[i], w8[i + 1]}, \
                       bv = {b8[i], b8[i + 1]};                                   \
        const tk_f32x2 z = a.rms ? hv * rstd : (hv - mean) * rstd;                \
        const tk_f32x2 yv = a.rms ? z * wv : __builtin_elementwise_fma(z, wv, bv); \
        y[i] = yv.x, y[i + 1] = yv.y;                                             \
      }                                                                           \
      tk_st8_bf16_rna(rout, ((uint32_t)(rrow * a.ld_out * 2) & am), c0, nv, y);              \
    }                                                                             \
  }                                                                               \
  __global__ __launch_bounds__(NORM_WG(G)) void name(norm_args a) {              \
    const int64_t row = (int64_t)blockIdx.x * (NORM_WG(G) / (G)) + threadIdx.x / (G); \
    if (a.full && row < a.m)                                                      \
      name##_row(a, row, (CAP), (CAP), ~15u);                                     \
    else /* past M: no access */                                                  \
      name##_row(a, row, row < a.m ? (uint32_t)a.n : 0u, (uint32_t)a.n, ~0u);     \
  }

#endif
