/* rotary_fwd.h: the rotary embedding kernel (tk_rotary.h has the
 * semantics), built from tk/vec.h row vectors.  One (b, h, s) row per group
 * of G threads (G = D/16 .. 64: e.g. 8 threads per row and 32 rows per
 * workgroup at D = 128), each thread one 16-byte chunk of x per half (or two
 * neighbouring chunks interleaved), the cos / sin values it needs as 16- or
 * 8-byte loads (the tables are S x D/2: L2 hits across b and h).  Rows
 * whose halves are not 16-byte aligned (D/2 % 8 != 0) take the element
 * path of the vector loads, so any even D works. */
#ifndef ROTARY_FWD_H
#define ROTARY_FWD_H

#include <tk/tk.h>
#include "tk_rotary.h"

typedef struct rotary_args {
  const uint16_t *x, *c, *s;
  uint16_t *o;
  uint32_t x_bytes, o_bytes, cs_bytes;
  int64_t rows, h, s_len, d;
  int64_t xs[3], os[3];
  /* row index -> (s, b, h) by multiply-high instead of 32-bit divisions
   * (each some 15 VALU ops): q = (n * m) >> sh for n < 2^31 (rotary_div) */
  uint32_t bh_m, bh_sh, h_m, h_sh;
  int32_t full;      /* D/2 = the kernel's HC and every row 16-byte aligned */
} rotary_args;

/* n / d for n < 2^31 with m = ceil(2^(31+l) / d), l = ceil(log2 d), sh =
 * 31 + l: m*d - 2^sh = e < d <= 2^l, so n*e < 2^sh and the quotient is
 * exact (Granlund-Montgomery, "Division by invariant integers using
 * multiplication", 1994, round-up variant) */
static inline __host__ __device__ uint32_t rotary_div(uint32_t n, uint32_t m, uint32_t sh) {
  return (uint32_t)(((uint64_t)n * m) >> sh);
}

#define ROT_WG(G) ((G) < 256 ? 256 : (G))

/* HC: capacity of a half row (>= D/2), G threads per row */
/* One row: half the half-row length (HC on the full path), nh the
 * elements of a half accessed (0 past the last row), am a mask on byte
 * offsets (~15 when they are known 16-byte aligned): the kernel calls it
 * with compile-time HC, HC, ~15 when a.full (every tail and alignment test
 * folds away) and with the run-time values otherwise. */
#define ROTARY_KERNEL(name, HC, G)                                                \
  static __device__ __forceinline__ void name##_row(const rotary_args &a, int interleaved, int64_t row, \
                                                    uint32_t half, uint32_t nh, uint32_t am) { \
    const int t = (int)(threadIdx.x % (G));                                       \
    /* rows in (s, b, h) order: the b*h rows of one position s follow each   \
     * other and share its cos / sin row (L2 hits) */                          \
    const uint32_t rr = (uint32_t)(row < a.rows ? row : 0); /* rows < 2^31 */     \
    const uint32_t bh = (uint32_t)(a.rows / a.s_len), hl = (uint32_t)a.h;        \
    const uint32_t sq = rotary_div(rr, a.bh_m, a.bh_sh), rb = rr - sq * bh;       \
    const uint32_t bb = rotary_div(rb, a.h_m, a.h_sh), hh = rb - bb * hl;          \
    /* 32-bit offsets: every tensor spans < 4 GiB (tk_rotary_problem_error) */  \
    const uint32_t xo = ((bb * (uint32_t)a.xs[0] + hh * (uint32_t)a.xs[1] + sq * (uint32_t)a.xs[2]) * 2u) & am; \
    const uint32_t oo = ((bb * (uint32_t)a.os[0] + hh * (uint32_t)a.os[1] + sq * (uint32_t)a.os[2]) * 2u) & am; \
    const uint32_t co = (sq * 2u * half) & am; /* a cos / sin row: D/2 bf16 */   \
    const uint32_t nf = 2u * nh;                                                  \
    const tk_rsrc rx = tk_rsrc_make(a.x, a.x_bytes), ro = tk_rsrc_make(a.o, a.o_bytes); \
    const tk_rsrc rc = tk_rsrc_make(a.c, a.cs_bytes), rs = tk_rsrc_make(a.s, a.cs_bytes); \
    if (interleaved) {                                                            \
      TK_RV(full_t, 2 * (HC), G);                                                 \
      full_t x, c, s;                                                             \
      tk_rv_load_bf16(x, rx, xo, nf, t);                                          \
      tk_rv_load_bf16_pairs(c, rc, co, nf, t);                                    \
      tk_rv_load_bf16_pairs(s, rs, co, nf, t);                                    \
      full_t y;                                                                   \
      _Pragma("unroll") for (int e = 0; e < TK_RV_PER_THREAD(x); e++)            \
        y.v[e] = (e & 1) ? __builtin_fmaf(x.v[e], c.v[e], x.v[e ^ 1] * s.v[e])   \
                         : __builtin_fmaf(x.v[e], c.v[e], -(x.v[e ^ 1] * s.v[e])); \
      tk_rv_store_bf16_rna(y, ro, oo, nf, t);                                         \
    } else {                                                                      \
      TK_RV(half_t, HC, G);                                                       \
      half_t x1, x2, c, s;                                                        \
      tk_rv_load_bf16(x1, rx, xo, nh, t);                                         \
      tk_rv_load_bf16(x2, rx, xo + half * 2u, nh, t);                             \
      tk_rv_load_bf16(c, rc, co, nh, t);                                          \
      tk_rv_load_bf16(s, rs, co, nh, t);                                          \
      half_t y1, y2;                                                              \
      _Pragma("unroll") for (int e = 0; e < TK_RV_PER_THREAD(x1); e++) {        \
        y1.v[e] = __builtin_fmaf(x1.v[e], c.v[e], -(x2.v[e] * s.v[e]));          \
        y2.v[e] = __builtin_fmaf(x2.v[e], c.v[e], x1.v[e] * s.v[e]);             \
      }                                                                           \
      tk_rv_store_bf16_rna(y1, ro, oo, nh, t);                                        \
      tk_rv_store_bf16_rna(y2, ro, oo + half * 2u, nh, t);                            \
    }                                                                             \
  }                                                                               \
  __global__ __launch_bounds__(ROT_WG(G)) void name(rotary_args a, int interleaved) { \
    const int64_t row = (int64_t)blockIdx.x * (ROT_WG(G) / (G)) + threadIdx.x / (G); \
    const uint32_t half = (uint32_t)(a.d / 2);                                    \
    /* HC 4096: no full-path copy (the two copies spilled SGPRs) */             \
    if ((HC) <= 2048 && a.full && row < a.rows)                                   \
      name##_row(a, interleaved, row, (HC), (HC), ~15u);                          \
    else                                                                          \
      name##_row(a, interleaved, row, half, row < a.rows ? half : 0u, ~0u);       \
  }

#endif
