/* tk_rotary.h: rotary position embedding as a C library (libtk_rotary):
 * bf16 x of B x H x S rows of head dim D (any even D <= TK_ROTARY_MAX_D),
 * cos and sin tables of S x D/2 bf16 values (row s, pitch D/2), f32
 * arithmetic, bf16 out:
 *   half-split (GPT-NeoX, HipKittens' kernels/rotary), i < D/2:
 *     o[i]       = x[i] cos[s][i] - x[i + D/2] sin[s][i]
 *     o[i + D/2] = x[i + D/2] cos[s][i] + x[i] sin[s][i]
 *   interleaved (GPT-J), i < D/2:
 *     o[2i]      = x[2i] cos[s][i] - x[2i+1] sin[s][i]
 *     o[2i+1]    = x[2i+1] cos[s][i] + x[2i] sin[s][i]
 * Element (b, h, s, e) of x is at b*xs[0] + h*xs[1] + s*xs[2] + e (the head
 * dim contiguous; default BHSD packed, HipKittens' layout), of o at the
 * same with os[].  o may be x (in place).  Device pointers from hipMalloc;
 * nothing here exits or prints; a refused problem writes nothing. */
#ifndef TK_ROTARY_H
#define TK_ROTARY_H

#include <stddef.h>
#include <stdint.h>

#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TK_ROTARY_MAX_D 8192

enum {
  TK_ROTARY_OK = 0,
  TK_ROTARY_ERR_PROBLEM = 1, /* invalid problem (tk_rotary_problem_error says why) */
  TK_ROTARY_ERR_HIP = 2,     /* a HIP call or launch failed */
  TK_ROTARY_ERR_MEMORY = 3,  /* host allocation failed */
  TK_ROTARY_ERR_ARG = 4      /* a NULL pointer argument */
};

typedef enum tk_rotary_layout { TK_ROTARY_HALF = 0, TK_ROTARY_INTERLEAVED = 1 } tk_rotary_layout;

typedef struct tk_rotary_problem {
  int64_t b, h, s, d;
  int32_t layout;       /* tk_rotary_layout */
  int64_t xs[3], os[3]; /* element strides of b, h, s in x and o */
} tk_rotary_problem;

/* Packed BHSD strides for x and o. */
void tk_rotary_problem_init(tk_rotary_problem *p, tk_rotary_layout layout, int64_t b, int64_t h, int64_t s,
                            int64_t d);
/* Why p is not a valid problem (NULL: it is), e.g. "head dim must be even". */
const char *tk_rotary_problem_error(const tk_rotary_problem *p);
/* Elements a tensor with strides st spans (last element offset + 1). */
int64_t tk_rotary_elems(const tk_rotary_problem *p, const int64_t st[3]);

int tk_rotary_fwd(const tk_rotary_problem *p, const uint16_t *x, const uint16_t *cos_t, const uint16_t *sin_t,
                  uint16_t *o, hipStream_t stream);
const char *tk_rotary_strerror(int err);

/* ---- CPU double reference and check (host memory) ----------------------- */
typedef struct tk_rotary_cmp {
  double max_abs, worst_ratio;
  int64_t nbad, n;
} tk_rotary_cmp;
/* per element |o - ref| <= 2^-8 |ref| + 2^-22 (|x_a cos| + |x_b sin|) + 2^-30 */
int tk_rotary_check(const tk_rotary_problem *p, const uint16_t *x, const uint16_t *cos_t, const uint16_t *sin_t,
                    const uint16_t *o, tk_rotary_cmp *cmp);

#ifdef __cplusplus
}
#endif
#endif
