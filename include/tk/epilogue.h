/* tk/epilogue.h: the fused GEMM epilogue, per element:
 *     out = act(alpha * acc + beta * out_old + bias)
 * the order of hipBLASLt's epilogues (hipBLASLt datatypes reference,
 * hipblasLtEpilogue_t: the bias "is added before applying the final
 * postprocessing", HIPBLASLT_EPILOGUE_GELU_BIAS = "apply bias and then GELU").
 *
 *   tk_epi e = tk_epi_make(alpha, beta, act, bias_mode, bias_ptr, bias_len, bias_bytes);
 *   float y = tk_epi_value(&e, x, old, row, col);    x = the accumulator value
 *   tk_act_f32(act, x)                               the activation alone
 * The stores use it: tk_store_lds_global_epi (stores.h) for whole tiles.
 *
 * Activations (TK_ACT_*), f32 on the device:
 *   RELU       max(x, 0)
 *   GELU_TANH  0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))  (Hendrycks &
 *              Gimpel 2016), computed as x * sigmoid(2u) (the same function:
 *              0.5 (1 + tanh u) = 1 / (1 + e^-2u)), no cancellation for x < 0
 *   GELU_ERF   x * Phi(x), Phi(x) = 0.5 (1 + erf(x / sqrt 2)); erfc by
 *              Abramowitz & Stegun 7.1.26 (|error| <= 1.5e-7 absolute), the
 *              x < 0 half as 0.5 * erfc directly, so small tails keep their
 *              relative accuracy
 *   SILU       x * sigmoid(x)
 * exp via v_exp_f32 (exp2, 1 ULP) and 1/y via v_rcp_f32 (1 ULP) (CDNA3 ISA
 * guide, VOP1 transcendentals); no HIP math library, so tk stays header-only
 * without HIP headers (target.h).  docs/gemm.md states the error bound the
 * gemm check allows for them.
 *
 * Bias (TK_BIAS_*): ROW adds bias[row] (a vector of length M, hipBLASLt's
 * default: "length must match the number of rows in matrix D"), COL adds
 * bias[col] (length N); f32 (4 bytes) or bf16 (2 bytes) elements, read
 * through a buffer resource of exactly bias_len elements, so rows/columns
 * beyond it read 0 (the range check, global.h) instead of faulting.
 */
#ifndef TK_EPILOGUE_H
#define TK_EPILOGUE_H

#include "global.h"

enum { TK_ACT_NONE = 0, TK_ACT_RELU = 1, TK_ACT_GELU_TANH = 2, TK_ACT_GELU_ERF = 3, TK_ACT_SILU = 4 };
enum { TK_BIAS_NONE = 0, TK_BIAS_ROW = 1, TK_BIAS_COL = 2 };

#if TK_HIP
typedef struct {
  float alpha, beta;
  int32_t act;       /* TK_ACT_* */
  int32_t bias_mode; /* TK_BIAS_* */
  uint32_t bias_eb;  /* 4: f32 bias, 2: bf16 */
  tk_rsrc bias;      /* bias_len elements */
} tk_epi;

/* e^x for the activations: v_exp_f32 computes 2^x */
TK_DI float tk_epi_exp_(float x) { return __builtin_amdgcn_exp2f(x * 1.4426950408889634f); }
/* 1 / (1 + e^-t): inf for large -t gives 0, as it should */
TK_DI float tk_epi_sigmoid_(float t) { return __builtin_amdgcn_rcpf(1.0f + tk_epi_exp_(-t)); }

TK_DI float tk_act_f32(int act, float x) {
  switch (act) {
  case TK_ACT_RELU: return x > 0.0f ? x : 0.0f;
  case TK_ACT_GELU_TANH: return x * tk_epi_sigmoid_(1.5957691216057308f * (x + 0.044715f * x * x * x));
  case TK_ACT_GELU_ERF: {
    const float z = (x < 0.0f ? -x : x) * 0.7071067811865476f;
    const float t = __builtin_amdgcn_rcpf(1.0f + 0.3275911f * z);
    const float poly = t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
    const float erfc = poly * tk_epi_exp_(-z * z); /* erfc(|x|/sqrt2) */
    return x * (x < 0.0f ? 0.5f * erfc : 1.0f - 0.5f * erfc);
  }
  case TK_ACT_SILU: return x * tk_epi_sigmoid_(x);
  default: return x;
  }
}

/* bias_ptr: device vector of bias_len elements of bias_bytes (4 or 2); may be
 * NULL when bias_mode is TK_BIAS_NONE. */
TK_DI tk_epi tk_epi_make(float alpha, float beta, int act, int bias_mode, const void *bias_ptr, int64_t bias_len,
                         int bias_bytes) {
  tk_epi e;
  e.alpha = alpha, e.beta = beta, e.act = act, e.bias_mode = bias_mode;
  e.bias_eb = bias_bytes == 2 ? 2u : 4u;
  const int64_t nb = bias_mode == TK_BIAS_NONE || !bias_ptr ? 0 : bias_len * (int64_t)e.bias_eb;
  e.bias = tk_rsrc_make(bias_ptr, nb > 0xfffffff0ll ? 0u : (uint32_t)nb);
  return e;
}
/* alpha/beta only: what tk_store_lds_global_ab does */
TK_DI tk_epi tk_epi_ab(float alpha, float beta) {
  tk_epi e;
  e.alpha = alpha, e.beta = beta, e.act = TK_ACT_NONE, e.bias_mode = TK_BIAS_NONE, e.bias_eb = 4u;
  const tk_rsrc z = {0, 0, 0, 0};
  e.bias = z;
  return e;
}

/* bias element i (0 beyond the vector) */
TK_DI float tk_epi_bias_at(const tk_epi *e, uint32_t i) {
  if (e->bias_eb == 2u) return tk_bf16_to_f32(tk_buffer_load_b16(e->bias, i * 2u));
  return tk_bits_f32(tk_buffer_load_b32(e->bias, i * 4u));
}
/* the bias of output element (row, col) in the tensor's coordinates */
TK_DI float tk_epi_bias(const tk_epi *e, uint32_t row, uint32_t col) {
  if (e->bias_mode == TK_BIAS_NONE) return 0.0f;
  return tk_epi_bias_at(e, e->bias_mode == TK_BIAS_ROW ? row : col);
}
/* The epilogue after the beta term: + bias, then the activation.  `v` is
 * alpha * acc + beta * old already (the stores read old only when beta != 0). */
TK_DI float tk_epi_finish(const tk_epi *e, float v, uint32_t row, uint32_t col) {
  if (e->bias_mode != TK_BIAS_NONE) v += tk_epi_bias(e, row, col);
  return e->act == TK_ACT_NONE ? v : tk_act_f32(e->act, v);
}
/* the activation of e (none: v) */
TK_DI float tk_epi_act(const tk_epi *e, float v) { return e->act == TK_ACT_NONE ? v : tk_act_f32(e->act, v); }
/* Whole epilogue of one element: x the accumulator, old the current output
 * value (ignored when beta == 0: BLAS convention, C may hold NaN). */
TK_DI float tk_epi_value(const tk_epi *e, float x, float old, uint32_t row, uint32_t col) {
  float v = e->alpha * x;
  if (e->beta != 0.0f) v += e->beta * old;
  return tk_epi_finish(e, v, row, col);
}
#endif /* TK_HIP */

#endif /* TK_EPILOGUE_H */
