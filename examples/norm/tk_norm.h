/* tk_norm.h: fused row normalisations as a C library (libtk_norm), bf16 in
 * and out, f32 arithmetic and statistics, any M rows of any N columns
 * (N <= TK_NORM_MAX_N), one read of every input element:
 *
 *   h   = dropout(x) [+ residual]       dropout(x)_ij = keep_ij ? x_ij / (1 - p) : 0
 *   res_out = bf16(h)                    (written when residual != 0)
 *   z   = bf16(h) as f32                 (the stored residual is what is normalised)
 *   layernorm:  out = bf16((z - mean(z)) * rsqrt(var(z) + eps) * weight + bias)
 *   rmsnorm:    out = bf16(z * rsqrt(mean(z^2) + eps) * weight)
 *
 * mean and var over the row (population variance, two passes over the row
 * held in registers); x * 1/(1-p) + residual is one f32 fma.  The dropout
 * mask is counter based: one 32-bit hash of (seed, row i, column pair j/2)
 * gives 16 bits to each column of the pair, keep_ij = bits >= floor(p *
 * 2^16) (so p acts as a multiple of 2^-16), the same on the GPU and the CPU
 * (tk_norm_keep): the reference reproduces the mask bit for bit.  This is HipKittens' fused dropout + residual +
 * LayerNorm (kernels/layernorm of the hipkittens-cdna4 fixture) with a
 * seeded mask instead of a clock-seeded one.
 *
 * Row-major tensors with row pitches (elements): x, residual, out, res_out
 * each M x N; weight and bias N values.  Device pointers from hipMalloc.
 * Nothing here exits or prints: TK_NORM_OK or an error code
 * (tk_norm_strerror); a refused problem writes nothing. */
#ifndef TK_NORM_H
#define TK_NORM_H

#include <stddef.h>
#include <stdint.h>

#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TK_NORM_MAX_N 32768

enum {
  TK_NORM_OK = 0,
  TK_NORM_ERR_PROBLEM = 1, /* invalid problem (tk_norm_problem_error says why) */
  TK_NORM_ERR_HIP = 2,     /* a HIP call or launch failed */
  TK_NORM_ERR_MEMORY = 3,  /* host allocation failed */
  TK_NORM_ERR_ARG = 4      /* a NULL pointer the problem needs */
};

typedef enum tk_norm_op { TK_NORM_LAYERNORM = 0, TK_NORM_RMSNORM = 1 } tk_norm_op;

typedef struct tk_norm_problem {
  int64_t m, n;
  int32_t op;          /* tk_norm_op */
  int32_t residual;    /* add the residual input and write res_out */
  float dropout;       /* probability p in [0, 1); 0: no dropout */
  uint64_t seed;       /* dropout mask seed */
  float eps;           /* tk_norm_problem_init: 1e-5 */
  int64_t ld_x, ld_res, ld_out, ld_res_out; /* row pitches in elements (>= n) */
} tk_norm_problem;

/* Packed rows (pitches n), no residual, no dropout, eps 1e-5. */
void tk_norm_problem_init(tk_norm_problem *p, tk_norm_op op, int64_t m, int64_t n);
/* Why p is not a valid problem (NULL: it is), e.g. "dropout must be in [0, 1)". */
const char *tk_norm_problem_error(const tk_norm_problem *p);
/* Elements an M x N tensor with row pitch ld spans. */
int64_t tk_norm_elems(const tk_norm_problem *p, int64_t ld);

/* The forward pass, asynchronous on `stream`.  residual and res_out are
 * needed when p->residual, bias for layernorm; others may be NULL. */
int tk_norm_fwd(const tk_norm_problem *p, const uint16_t *x, const uint16_t *residual, const uint16_t *weight,
                const uint16_t *bias, uint16_t *out, uint16_t *res_out, hipStream_t stream);

const char *tk_norm_strerror(int err);

/* ---- the dropout mask (host and device use the same function) ----------- */
#if defined(__HIP__)
#define TK_NORM_HD static inline __attribute__((host)) __attribute__((device))
#else
#define TK_NORM_HD static inline
#endif
/* lowbias32 (Chris Wellons' integer hash, a bijection of 32-bit words) */
TK_NORM_HD uint32_t tk_norm_mix32(uint32_t x)
{
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
/* per-row key, then one hash per element: distinct (row, col) give distinct
 * hash inputs for rows and columns below 2^32 */
TK_NORM_HD uint32_t tk_norm_row_key(uint64_t seed, uint32_t row)
{
  return tk_norm_mix32(tk_norm_mix32(tk_norm_mix32((uint32_t)(seed >> 32)) ^ (uint32_t)seed) ^ row);
}
TK_NORM_HD uint32_t tk_norm_hash(uint32_t row_key, uint32_t col) { return tk_norm_mix32(row_key + col * 0x9e3779b9u); }
/* keep column j iff its 16 bits (the low half of tk_norm_hash(key, j / 2)
 * for even j, the high half for odd j) >= threshold = floor(p * 2^16) */
TK_NORM_HD uint32_t tk_norm_threshold(float p) { return (uint32_t)((double)p * 65536.0); }
TK_NORM_HD uint32_t tk_norm_bits16(uint32_t hash, uint32_t col) { return (col & 1u) ? hash >> 16 : hash & 0xffffu; }
int tk_norm_keep(const tk_norm_problem *p, int64_t row, int64_t col);

/* ---- CPU double-precision reference and check (host memory) -------------- */
typedef struct tk_norm_cmp {
  double max_abs, worst_ratio; /* worst |err| and |err| / bound */
  int64_t nbad, n;             /* elements past their bound, elements compared */
} tk_norm_cmp;

/* cmp[0]: out against a double reference from the same bf16 inputs, per
 * element |out - ref| <= 2^-8 |ref| + 2^-16 |w| (|z - mean| rstd + 1) + 2^-20
 * (bf16 rounding of the result, f32 statistics); cmp[1]: res_out, bit exact
 * (the f32 fma and the mask reproduced), counted only with a residual. */
int tk_norm_check(const tk_norm_problem *p, const uint16_t *x, const uint16_t *residual, const uint16_t *weight,
                  const uint16_t *bias, const uint16_t *out, const uint16_t *res_out, tk_norm_cmp cmp[2]);

#ifdef __cplusplus
}
#endif
#endif
