/* tk_attn.h: the flash-attention example kernels as a C library
 * (libtk_attn):
 *   forward   O = softmax(Q K^T * scale + mask) V,  LSE = log sum_j exp(S_ij)
 *   backward  dQ, dK, dV from dO, O and LSE (FlashAttention-2 algorithm)
 * bf16 Q, K, V, O, dO, dQ, dK, dV; f32 LSE and statistics; head dim 64 or
 * 128; Hq query heads sharing Hkv key/value heads (MHA Hq = Hkv, GQA, MQA
 * Hkv = 1; query head h reads key/value head h / (Hq / Hkv)); any sequence
 * lengths sq (queries) and skv (keys); causal masking aligned bottom-right
 * like FlashAttention-2: key j is visible to query i iff j <= i + skv - sq.
 * A query with no visible key (causal, sq > skv) gets O = 0, LSE = +inf and
 * zero gradients.
 * Layout BSHD with strides: element (b, s, h, e) of a tensor is at
 * b*str[0] + s*str[1] + h*str[2] + e (the head dim contiguous); dQ/dK/dV use
 * the strides of Q/K/V, dO those of O.  LSE is packed [B][Hq][Sq] (natural
 * log).  Kernels and data flow: docs/attention.md.
 *
 * Callable from C and C++ (link tk::attn); device pointers from hipMalloc.
 * Nothing here exits or prints: functions return TK_ATTN_OK or an error code
 * (tk_attn_strerror). */
#ifndef TK_ATTN_H
#define TK_ATTN_H

#include <stddef.h>
#include <stdint.h>

#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  TK_ATTN_OK = 0,
  TK_ATTN_ERR_PROBLEM = 1, /* invalid problem (tk_attn_problem_error says why) */
  TK_ATTN_ERR_HIP = 2,     /* a HIP call or launch failed */
  TK_ATTN_ERR_MEMORY = 3,  /* host allocation failed */
  TK_ATTN_ERR_ARG = 4,     /* a NULL pointer argument */
  TK_ATTN_ERR_ENV = 5      /* a measurement hook in the environment has a bad value (TK_ATTN_BWD_DQ_*) */
};

/* the tensors, for strides and sizes */
typedef enum tk_attn_tensor { TK_ATTN_Q = 0, TK_ATTN_K = 1, TK_ATTN_V = 2, TK_ATTN_O = 3 } tk_attn_tensor;

typedef struct tk_attn_problem {
  int64_t b, hq, hkv, sq, skv, d;
  int32_t causal;
  float scale;         /* softmax scale (tk_attn_problem_init: 1/sqrt(d)) */
  int64_t str[4][3];   /* [tensor][batch, seq, head] element strides */
} tk_attn_problem;

/* Packed BSHD strides, scale 1/sqrt(d). */
void tk_attn_problem_init(tk_attn_problem *p, int64_t b, int64_t hq, int64_t hkv, int64_t sq, int64_t skv, int64_t d,
                          int causal);
/* Why p is not a valid problem (NULL: it is), e.g. "head dim must be 64 or 128". */
const char *tk_attn_problem_error(const tk_attn_problem *p);
/* Elements a tensor spans (last element offset + 1) and the LSE's. */
int64_t tk_attn_elems(const tk_attn_problem *p, tk_attn_tensor t);
int64_t tk_attn_lse_elems(const tk_attn_problem *p);
/* Element offset of (b, s, h, 0) in tensor t. */
int64_t tk_attn_offset(const tk_attn_problem *p, tk_attn_tensor t, int64_t b, int64_t s, int64_t h);

/* Forward: o and lse written, asynchronous on `stream`. */
int tk_attn_fwd(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v, uint16_t *o,
                float *lse, hipStream_t stream);

/* Forward with a workspace (device memory, 16-byte aligned, of
 * tk_attn_fwd_workspace_bytes(p) for the current device; 0 bytes: none
 * needed): lets the forward split the key range of its last round of work
 * items across idle CUs and merge the parts (docs/attention.md "Tail
 * split"); same results as tk_attn_fwd within the check's tolerance.
 * workspace NULL: no split; too small or not 16-byte aligned:
 * TK_ATTN_ERR_ARG.  The workspace is in use until the launches finish (one
 * workspace per call in flight). */
size_t tk_attn_fwd_workspace_bytes(const tk_attn_problem *p);
int tk_attn_fwd_ws(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v, uint16_t *o,
                   float *lse, void *workspace, size_t workspace_bytes, hipStream_t stream);

/* Backward flags: TK_ATTN_BWD_DETERMINISTIC sums every gradient element in a
 * fixed order (bitwise-identical results run to run; dQ on gfx942 through up
 * to 8 f32 partial sums over key blocks, added in a fixed order, no atomics;
 * on gfx950 by ordered accumulation into one f32 sum, f32 atomics taken in a
 * fixed key-block order behind flags, which models faster there, the
 * partials on gfx942: docs/attention.md "Deterministic backward"; past 4 GiB
 * of sums a second kernel that recomputes S, P, dP and dS).  Default (0): dQ is summed with f32 atomics inside the dK/dV kernel
 * (faster; dQ's last bits may differ run to run; dK and dV are still summed
 * in a fixed order). */
enum { TK_ATTN_BWD_DETERMINISTIC = 1 };
/* Backward workspace bytes for `flags` on the current device: the dO.O row
 * sums, plus the f32 dQ sums (b*hq*sq*d*4 bytes) for the default mode, or for
 * TK_ATTN_BWD_DETERMINISTIC P such partial sums (sq rounded up to 64;
 * 1 <= P <= 8 by the device's CU count, P partials <= 4 GiB;
 * docs/attention.md "Deterministic backward") or, by ordered accumulation,
 * the one sum and its flags (tk_attn_bwd_dq_ordered).  tk_attn_bwd_workspace_bytes is the larger
 * of the two (enough for both). */
size_t tk_attn_bwd_workspace_bytes(const tk_attn_problem *p);
size_t tk_attn_bwd_workspace_bytes_flags(const tk_attn_problem *p, unsigned flags);
/* TK_ATTN_BWD_DETERMINISTIC's dQ on the current device: the number of f32
 * partial sums (1..8), or 0 when the kernel that recomputes S, P, dP, dS for
 * dQ runs instead (one partial would pass 3.75 GiB, or the environment sets
 * TK_ATTN_BWD_DQ_RECOMPUTE=1: a test hook for that path); -1 for an
 * invalid problem.  TK_ATTN_BWD_DQ_PARTS=k in the environment forces k
 * partials (a measurement hook): k a whole number from 1 to the problem's
 * limit (at most 8, P partials <= 4 GiB); any other value gives -2 here, a
 * workspace size of 0 and TK_ATTN_ERR_ENV from the deterministic backward. */
int tk_attn_bwd_dq_partials(const tk_attn_problem *p);
/* 1 when TK_ATTN_BWD_DETERMINISTIC's dQ on the current device goes by ordered
 * accumulation instead (one f32 sum, each element's contributions added in a
 * fixed order of key blocks, waits on per-tile flags: the default's memory
 * traffic; tk_attn_bwd_dq_partials then says 0): on a gfx950 where its
 * rotated order applies (attn_bwd_dqo_rotate: non-causal, 2..32 key blocks,
 * b*hkv a multiple of 8, ...; there it models faster than the partials), not
 * on a gfx942 (where the partials do); 0 when not, -1 for an invalid problem.
 * TK_ATTN_BWD_DQ_ORDERED=1 / 0 in the environment forces it on / off,
 * TK_ATTN_BWD_DQ_PARTS=k off (measurement hooks; off past 4 GiB of sums or
 * with TK_ATTN_BWD_DQ_RECOMPUTE=1; another value: -2 and TK_ATTN_ERR_ENV as
 * TK_ATTN_BWD_DQ_PARTS's).  TK_ATTN_BWD_DQ_ROT=1 / 0 forces the rotated order
 * on / off where it applies (default: on on a gfx950, off on a gfx942); with
 * 0 a gfx950 takes the partials unless TK_ATTN_BWD_DQ_ORDERED=1 (then the
 * unrotated order), and on a gfx942 it acts only with TK_ATTN_BWD_DQ_ORDERED=1
 * (docs/attention.md "Measurement hooks"). */
int tk_attn_bwd_dq_ordered(const tk_attn_problem *p);
/* Backward: dq, dk, dv from q, k, v, o, lse (the forward's) and dout;
 * workspace: device memory, 16-byte aligned, of
 * tk_attn_bwd_workspace_bytes_flags(p, flags); tk_attn_bwd is flags 0.
 * Unknown flags: TK_ATTN_ERR_ARG.  (When the dQ sums would pass 4 GiB the
 * default mode runs the deterministic kernels.) */
int tk_attn_bwd(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v, const uint16_t *o,
                const uint16_t *dout, const float *lse, uint16_t *dq, uint16_t *dk, uint16_t *dv, void *workspace,
                hipStream_t stream);
int tk_attn_bwd_flags(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v,
                      const uint16_t *o, const uint16_t *dout, const float *lse, uint16_t *dq, uint16_t *dk,
                      uint16_t *dv, void *workspace, unsigned flags, hipStream_t stream);

const char *tk_attn_strerror(int err);

/* ---- CPU double-precision reference and checks (host memory) ------------ */

/* Comparison of one output against the reference. */
typedef struct tk_attn_cmp {
  double max_abs, worst_ratio; /* worst |err| and |err| / bound */
  int64_t nbad, n;             /* elements past their bound, elements compared */
} tk_attn_cmp;

/* Forward check of o (bf16) and lse against a double reference from the
 * same bf16 inputs.  Per element (docs/attention.md "Tolerance"):
 *   O:   |o - ref| <= 2^-8 * sum_j p_j |v_j| + 2^-8 |ref| + 2^-20
 *   LSE: |lse - ref| <= 4 d 2^-24 scale max_j sum_e |q_e k_je| + 2^-20 |ref| + 2^-20
 * (p_j the normalised probabilities); rows with no visible key must have
 * o = 0 and lse = +inf.  cmp[0] is O, cmp[1] LSE. */
int tk_attn_check_fwd(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v,
                      const uint16_t *o, const float *lse, tk_attn_cmp cmp[2]);
/* Backward check of dq, dk, dv (bf16) against a double reference computed
 * from q, k, v, dout alone (its own forward).  cmp[0..2]: dQ, dK, dV. */
int tk_attn_check_bwd(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v,
                      const uint16_t *dout, const uint16_t *dq, const uint16_t *dk, const uint16_t *dv,
                      tk_attn_cmp cmp[3]);
/* Finite-difference spot check of one gradient element: the central
 * difference of L = sum(O * dO) (double forward) with respect to element
 * (b, s, h, e) of tensor t (Q, K or V) at step `step`, into *fd. */
int tk_attn_fd_grad(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v,
                    const uint16_t *dout, tk_attn_tensor t, int64_t b, int64_t s, int64_t h, int64_t e, double step,
                    double *fd);

#ifdef __cplusplus
}
#endif
#endif
