/* tk_gemm.h: the GEMM example kernels as a C library (libtk_gemm):
 *   C = act(alpha * scale_a * scale_b * A * op(B) + beta * C + bias),
 *   bf16 or fp8 e4m3 (the device's encoding: FNUZ on gfx942, OCP on gfx950)
 *   A and B, f32 accumulation, bf16 or f32 C,
 *   any M, N, K >= 1, leading dimensions and batch count; bias (optional) a
 *   vector over rows (length M) or columns (length N), f32 or bf16, shared by
 *   all batches; act none, ReLU, GELU (tanh or erf) or SiLU (docs/gemm.md,
 *   "Fused epilogue" and "fp8 inputs").
 * A is M x K row-major (row stride lda); B is N x K (TK_GEMM_NT, C = A * B^T)
 * or K x N (TK_GEMM_NN) row-major (row stride ldb); C is M x N (row stride
 * ldc); batches are packed one after another (strides below).
 *
 * Kernels (docs/gemm.md): "8wave" (gemm_8wave.h, 8-wave ping-pong, tiles
 * 256x256, 256x128, 128x256, 128x128, optional split-K with the deterministic
 * reduction of gemm_splitk.h), "4wave" (gemm_4wave.h, 128x128, the baseline),
 * "simple" (gemm_simple.h, 64x64, plain HIP FMAs), "mx" (gemm_mx.h, MX inputs
 * on gfx950: block-scaled f8f6f4 MFMAs); TK_GEMM_AUTO picks kernel,
 * tile and split by the table-driven heuristic in docs/gemm.md.  gemm_reference.h is the naive double-precision
 * GPU reference that tk_gemm_check uses for large problems.
 *
 * Callable from C and C++ (link tk::gemm, or -ltk_gemm -lamdhip64); device
 * pointers come from hipMalloc. Nothing here exits or prints: functions
 * return TK_GEMM_OK or an error code (tk_gemm_strerror). */
#ifndef TK_GEMM_H
#define TK_GEMM_H

#include <stddef.h>
#include <stdint.h>

/* tk targets AMD GPUs only; hip_common.h sets the same for clang's HIP mode */
#if !defined(__HIP_PLATFORM_AMD__) && !defined(__HIP_PLATFORM_NVIDIA__)
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
#include <tk/target.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_gemm_layout { TK_GEMM_NT = 0, TK_GEMM_NN = 1 } tk_gemm_layout;
typedef enum tk_gemm_out { TK_GEMM_OUT_BF16 = 0, TK_GEMM_OUT_F32 = 1 } tk_gemm_out;
/* Which tile a workgroup takes: tk's L2-grouped walk after the XCD remap
 * (default), or plain row-major (workgroup i -> tile row i / tiles_n, column
 * i % tiles_n; docs/gemm.md).  A launch runs its config's order
 * (tk_gemm_config.grid_order): under --kernel auto a heuristic row may pick
 * row-major, where the model found it faster (gfx950 1024^3). */
typedef enum tk_gemm_grid_order { TK_GEMM_GRID_L2 = 0, TK_GEMM_GRID_ROW_MAJOR = 1 } tk_gemm_grid_order;
/* A and B element type: bf16, or fp8 e4m3 with per-tensor scales.  fp8
 * bytes are "the device's e4m3", the encoding its fp8 MFMAs read
 * (tk_gemm_fp8_encoding says which; tk/types.h has both host references). */
typedef enum tk_gemm_in { TK_GEMM_IN_BF16 = 0, TK_GEMM_IN_FP8 = 1,
  /* OCP Microscaling (gfx950 only, the "mx" kernel): elements with one E8M0
   * scale byte per 32 along K (mx_scale_a/b below); MXFP8 E4M3, MXFP8 E5M2,
   * MXFP4 E2M1 (two per byte, element 2i in the low nibble) */
  TK_GEMM_IN_MXFP8 = 2, TK_GEMM_IN_MXFP8_E5M2 = 3, TK_GEMM_IN_MXFP4 = 4 } tk_gemm_in;
/* fp8 e4m3 encodings: FNUZ (gfx942: bias 8, 0x80 NaN, no -0, max 240) and
 * OCP E4M3FN (gfx950: bias 7, 0x80 is -0, NaN 0x7f/0xff, max 448) */
typedef enum tk_gemm_fp8_enc { TK_GEMM_FP8_FNUZ = 0, TK_GEMM_FP8_OCP = 1 } tk_gemm_fp8_enc;
/* fused epilogue (tk/epilogue.h has the formulas): activation, bias vector */
typedef enum tk_gemm_act {
  TK_GEMM_ACT_NONE = 0, TK_GEMM_ACT_RELU = 1, TK_GEMM_ACT_GELU_TANH = 2, TK_GEMM_ACT_GELU_ERF = 3, TK_GEMM_ACT_SILU = 4
} tk_gemm_act;
typedef enum tk_gemm_bias { TK_GEMM_BIAS_NONE = 0, TK_GEMM_BIAS_ROW = 1, TK_GEMM_BIAS_COL = 2 } tk_gemm_bias;
typedef enum tk_gemm_bias_type { TK_GEMM_BIAS_F32 = 0, TK_GEMM_BIAS_BF16 = 1 } tk_gemm_bias_type;
typedef enum tk_gemm_kernel { TK_GEMM_AUTO = 0, TK_GEMM_8WAVE = 1, TK_GEMM_4WAVE = 2, TK_GEMM_SIMPLE = 3, TK_GEMM_MX = 4 } tk_gemm_kernel;

enum {
  TK_GEMM_OK = 0,
  TK_GEMM_ERR_PROBLEM = 1,     /* sizes, batch or leading dimensions out of range (tk_gemm_problem_error) */
  TK_GEMM_ERR_UNSUPPORTED = 2, /* the kernel cannot take this problem (tk_gemm_unsupported) */
  TK_GEMM_ERR_KERNEL = 3,      /* not a kernel */
  TK_GEMM_ERR_HIP = 4,         /* a HIP call or launch failed */
  TK_GEMM_ERR_MEMORY = 5       /* host allocation failed */
};

/* Passed to the kernels by value: keep it plain. */
typedef struct tk_gemm_problem {
  int64_t m, n, k, batch;
  int64_t lda, ldb, ldc;
  int32_t layout; /* tk_gemm_layout */
  int32_t out;    /* tk_gemm_out */
  int32_t grid_order; /* tk_gemm_grid_order */
  float alpha, beta;
  /* inputs and fused epilogue (defaults from tk_gemm_problem_init: bf16, no
   * bias, no activation, scales 1) */
  int32_t in;          /* tk_gemm_in */
  int32_t act;         /* tk_gemm_act */
  int32_t bias;        /* tk_gemm_bias: ROW adds bias[m], COL adds bias[n] */
  int32_t bias_type;   /* tk_gemm_bias_type */
  int64_t bias_len;    /* elements in the bias vector: must be M (ROW) or N (COL) */
  const void *bias_ptr; /* device vector, bias_len elements of bias_type */
  float scale_a, scale_b; /* per-tensor scales (the dequantisation of fp8 inputs) */
  /* MX inputs: device E8M0 scale tensors, batch x M x ceil(K/32) (A) and
   * batch x N x ceil(K/32) (B) bytes, packed (OCP MX spec v1.0: one scale per
   * 32 consecutive elements of a row along K; a partial last block has its
   * own scale).  The lengths must be those (tk_gemm_mx_scale_need): a wrong
   * size is refused, not read past. */
  const void *mx_scale_a, *mx_scale_b;
  int64_t mx_scale_a_len, mx_scale_b_len;
} tk_gemm_problem;

/* M x N x K, batch 1, packed leading dimensions, nt, bf16 in and out,
 * alpha 1, beta 0, no bias, no activation, scales 1. */
void tk_gemm_problem_init(tk_gemm_problem *p, int64_t m, int64_t n, int64_t k);
/* Why p is not a valid problem (NULL: it is), e.g. "lda must be >= K". */
const char *tk_gemm_problem_error(const tk_gemm_problem *p);

/* Elements between batches and per batch (device helpers too). */
TK_HDI int64_t tk_gemm_a_stride(const tk_gemm_problem *p) { return p->m * p->lda; }
TK_HDI int64_t tk_gemm_b_stride(const tk_gemm_problem *p) { return (p->layout == TK_GEMM_NT ? p->n : p->k) * p->ldb; }
TK_HDI int64_t tk_gemm_c_stride(const tk_gemm_problem *p) { return p->m * p->ldc; }
TK_HDI int64_t tk_gemm_c_elem_bytes(const tk_gemm_problem *p) { return p->out == TK_GEMM_OUT_BF16 ? 2 : 4; }
TK_HDI int tk_gemm_in_is_mx(int32_t in) { return in >= TK_GEMM_IN_MXFP8 && in <= TK_GEMM_IN_MXFP4; }
/* bytes per input element (MXFP4: 1, holding two; tk_gemm_in_bytes counts right) */
TK_HDI int64_t tk_gemm_in_elem_bytes(const tk_gemm_problem *p) { return p->in == TK_GEMM_IN_BF16 ? 2 : 1; }
/* bytes of n input elements */
TK_HDI int64_t tk_gemm_in_bytes(const tk_gemm_problem *p, int64_t n) {
  return p->in == TK_GEMM_IN_MXFP4 ? (n + 1) / 2 : n * tk_gemm_in_elem_bytes(p);
}
/* bytes an MX scale tensor must have: which 0 (A) or 1 (B) */
TK_HDI int64_t tk_gemm_mx_scale_need(const tk_gemm_problem *p, int which) {
  return p->batch * (which ? p->n : p->m) * ((p->k + 31) / 32);
}
TK_HDI int64_t tk_gemm_bias_elem_bytes(const tk_gemm_problem *p) { return p->bias_type == TK_GEMM_BIAS_BF16 ? 2 : 4; }
/* the length a bias vector must have (0: no bias) */
TK_HDI int64_t tk_gemm_bias_need(const tk_gemm_problem *p) {
  return p->bias == TK_GEMM_BIAS_ROW ? p->m : p->bias == TK_GEMM_BIAS_COL ? p->n : 0;
}

/* The one place the fp8 encoding is chosen: the current device's (hipGetDevice)
 * gcnArchName, gfx950 -> OCP, anything else (gfx942) -> FNUZ.  TK_GEMM_OK, or
 * TK_GEMM_ERR_HIP if the device cannot be queried.  tk_gemm_check decodes
 * with it; the kernels' device code is compiled per target and reads that
 * target's encoding. */
int tk_gemm_fp8_encoding(tk_gemm_fp8_enc *enc);
/* "fnuz" or "ocp" */
const char *tk_gemm_fp8_encoding_name(tk_gemm_fp8_enc enc);

/* "bf16", "fp8", "mxfp8", "mxfp8-e5m2", "mxfp4" and back (1 on success) */
const char *tk_gemm_in_name(tk_gemm_in in);
int tk_gemm_in_parse(const char *s, tk_gemm_in *in);

/* "none", "relu", "gelu" (tanh approximation), "gelu-erf", "silu" and back (1 on success) */
const char *tk_gemm_act_name(tk_gemm_act a);
int tk_gemm_act_parse(const char *s, tk_gemm_act *a);

/* "8wave", "4wave", "simple", "mx", "auto" and back (1 on success). */
const char *tk_gemm_kernel_name(tk_gemm_kernel k);
int tk_gemm_kernel_parse(const char *s, size_t len, tk_gemm_kernel *k);
/* Why `kernel` cannot run valid problem p (NULL: it can). */
const char *tk_gemm_unsupported(tk_gemm_kernel kernel, const tk_gemm_problem *p);
/* The kernel tk_gemm runs: `requested`, or the heuristic's choice for AUTO. */
tk_gemm_kernel tk_gemm_choose(const tk_gemm_problem *p, tk_gemm_kernel requested);

/* Which target's heuristic table TK_GEMM_AUTO reads on the current device
 * (hipGetDevice): "gfx950" on gfx950 (rows swept under --model=mi355x),
 * "gfx942" elsewhere (--model=mi325x); docs/gemm.md "Kernel choice". */
const char *tk_gemm_heuristic_target(void);

/* Launches the problem on `stream` (asynchronous, like any launch), with the
 * heuristic's tile and split for `kernel` (tk_gemm_plan).
 * a, b, c: device memory holding batch * tk_gemm_{a,b,c}_stride(p) elements
 * (A and B: uint16_t bf16 bits, or uint8_t fp8 bits in the device's e4m3
 * encoding for TK_GEMM_IN_FP8, tk_gemm_fp8_encoding; MX: the OCP element
 * codes, scales in p->mx_scale_a/b).
 * A split-K plan allocates its workspace here, per call, and frees it after
 * synchronizing `stream`; use tk_gemm_run with your own workspace to avoid
 * that. */
int tk_gemm(const tk_gemm_problem *p, tk_gemm_kernel kernel, const void *a, const void *b, void *c,
            hipStream_t stream);

/* A kernel with its parameters.  Zero fields (and TK_GEMM_AUTO) mean "the
 * heuristic's"; tk_gemm_plan fills them in.  tile_m x tile_n: 8wave 256x256,
 * 224x256 (the 256x256 kernel with 7/8 of its MFMAs: more, smaller tiles for
 * grids just under one round), 256x128, 128x256 or 128x128 (nn: 256 wide in
 * N only), 4wave 128x128, simple
 * 64x64.  split_k: 8wave only, K cut into split_k ranges of a multiple of
 * the K step (fewer when K is short: tk_gemm_plan clamps it); each split
 * writes an f32 partial to a workspace and the tile's last split sums them in
 * split order, in the same launch (gemm_splitk.h): the same bits on every run.
 * stream_k: 8wave bf16, batch 1, no split: when the tiles do not fill whole
 * rounds of the device's CUs, the last tiles' K iterations are spread evenly
 * over one round of workgroups, partial tiles summed in K order by their last
 * contributor (deterministic too; docs/gemm.md, "Stream-K").  tk_gemm_plan
 * turns AUTO and ON into OFF or the number of stream-K workgroups (> 2; the
 * device's CUs times the kernel's workgroups per CU); a count may also be
 * given (tests use small ones).  Problems that fill whole rounds, or would
 * give a workgroup fewer than 4 K iterations, run without it. */
enum { TK_GEMM_SK_AUTO = 0, TK_GEMM_SK_OFF = 1, TK_GEMM_SK_ON = 2 };
/* grid_order: TK_GEMM_ORDER_AUTO, the heuristic's: p->grid_order when that
 * asks for row-major, else the table row's under kernel AUTO (when the row's
 * config is taken), else L2; tk_gemm_plan turns it into _L2 or _ROW_MAJOR,
 * which the launch runs whatever p->grid_order says. */
enum { TK_GEMM_ORDER_AUTO = 0, TK_GEMM_ORDER_L2 = 1, TK_GEMM_ORDER_ROW_MAJOR = 2 };
typedef struct tk_gemm_config {
  int32_t kernel;         /* tk_gemm_kernel */
  int32_t tile_m, tile_n; /* 0: the heuristic's */
  int32_t split_k;        /* 0: the heuristic's; 1: no split */
  int32_t k_step;         /* K per main-loop iteration: 8wave 64, or 128 for 128x128 (0: the heuristic's) */
  int32_t stream_k;       /* TK_GEMM_SK_AUTO (the heuristic's), _OFF, _ON, or a workgroup count > 2 */
  int32_t grid_order;     /* TK_GEMM_ORDER_AUTO (the heuristic's), _L2, _ROW_MAJOR */
} tk_gemm_config;
/* Fills cfg's open fields for valid problem p; TK_GEMM_OK, or
 * TK_GEMM_ERR_KERNEL / TK_GEMM_ERR_UNSUPPORTED (tk_gemm_config_unsupported says why). */
int tk_gemm_plan(const tk_gemm_problem *p, tk_gemm_config *cfg);
/* Why the (planned) cfg cannot run p (NULL: it can). */
const char *tk_gemm_config_unsupported(const tk_gemm_problem *p, const tk_gemm_config *cfg);
/* NULL when this build of the library has the kernel cfg needs for p; else
 * why not (a -DTK_GEMM_DEMO_ONLY=ON build, README's first command, has one
 * kernel; tk_gemm_config_unsupported returns the same reason). */
const char *tk_gemm_config_not_built(const tk_gemm_problem *p, const tk_gemm_config *cfg);
/* Workspace bytes the planned cfg needs for p on the current device (0
 * without split-K or stream-K). */
size_t tk_gemm_workspace_bytes(const tk_gemm_problem *p, const tk_gemm_config *cfg);
/* Launches planned cfg.  ws: device memory of at least
 * tk_gemm_workspace_bytes, ZEROED (hipMemset) before its first use; every
 * completed launch leaves it zeroed again (its per-tile counters), so it can
 * be reused for any later call that fits.  ws NULL: allocated, zeroed and
 * freed per call, as tk_gemm does. */
int tk_gemm_run(const tk_gemm_problem *p, const tk_gemm_config *cfg, const void *a, const void *b, void *c,
                void *ws, size_t ws_bytes, hipStream_t stream);
const char *tk_gemm_strerror(int err);

/* The double-precision reference on the GPU (one thread per element, no LDS):
 * ref and mag (device, batch * M * N doubles each, packed M x N per batch)
 * get alpha' * sum_k a*b + beta * c0 and |alpha'| * sum_k |a*b| + |beta * c0|
 * (alpha' = alpha * scale_a * scale_b; no bias, no activation: tk_gemm_check
 * applies those on the host). */
int tk_gemm_reference_gpu(const tk_gemm_problem *p, const void *a, const void *b, const void *c0,
                          double *ref, double *mag, hipStream_t stream);

/* Checks C computed on the device (c_dev) against a double-precision
 * reference of the same bf16 or fp8 inputs: CPU when M*N*K*batch <= 2^28
 * (from the host copies ha, hb, hc0 = initial C), else tk_gemm_reference_gpu
 * (from the device copies a_dev, b_dev and hc0); bias (copied back from
 * p->bias_ptr) and activation applied on the host in double. Per element
 *   |c - ref| <= L * (2*K*2^-24 * mag + 2^-24*|pre|) + Ca*2^-24*|pre|
 *                (+ 2^-8*|ref| for bf16 C) + 2^-126
 * pre = the value before the activation, L and Ca the activation's slope
 * bound and evaluation error (docs/gemm.md, "Correctness check and tolerance"). */
typedef struct tk_gemm_check_result {
  double max_abs, max_rel, worst_ratio;
  int64_t nbad;      /* elements past their bound */
  int gpu_reference; /* 1: the GPU reference was used */
} tk_gemm_check_result;
int tk_gemm_check(const tk_gemm_problem *p, const void *ha, const void *hb, const void *hc0, const void *a_dev,
                  const void *b_dev, const void *c_dev, tk_gemm_check_result *r);

#ifdef __cplusplus
}
#endif
#endif
