/* gemm: the command-line program over libtk_gemm (tk_gemm.h): parses the
 * options, makes seeded random inputs, calls tk_gemm, checks the result
 * against a double-precision reference, times it and prints the figures with
 * their label (measured / modeled / emulated), or runs a sweep with CSV and
 * SVG outputs.  Options and exit codes: docs/gemm.md ("Running").
 *
 * Exit: 0 ok; 1 the check failed; 2 bad arguments (nothing run); 3 the
 * kernel cannot take the problem; 4 a HIP error. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hip_check.h"
#include "inputs.h"
#include "sweep.h"
#include "timing.h"
#include "tk_gemm.h"
#ifdef TK_GEMM_HIPBLASLT
#include "vs_hipblaslt.h"
#endif

#define MAX_SHAPES 256
#define MAX_KERNELS 8

#define CHECK_HIP(x) TK_EXAMPLE_CHECK_HIP("gemm", x)

static void usage(FILE *f)
{
  fprintf(f,
          "usage: gemm [options]\n"
          "  C = act(alpha * scale_a * scale_b * A * op(B) + beta * C + bias); A is M x K row-major,\n"
          "  bf16, fp8 or MX (block-scaled) inputs, f32 accumulation\n"
          "  --m M --n N --k K      problem size (each >= 1; default 256)\n"
          "  --batch B              batch count (>= 1; batches packed densely)\n"
          "  --layout nt|nn         B is N x K (nt: C = A*B^T, default) or K x N (nn)\n"
          "  --out bf16|f32         output/C element type (default bf16)\n"
          "  --grid-order l2|row-major  tile order: tk's L2/XCD order or row-major (default:\n"
          "                         the plan's: --kernel auto's table row's, else l2)\n"
          "  --alpha X --beta Y     scalars (default 1, 0)\n"
          "  --in bf16|fp8          A and B element type (fp8: the device's e4m3,\n"
          "                         FNUZ on gfx942, OCP on gfx950; layout nt only)\n"
          "  --in mxfp8|mxfp8-e5m2|mxfp4  OCP MX inputs (gfx950 only; layout nt): E4M3, E5M2 or E2M1\n"
          "                         elements, one E8M0 scale per 32 along K (M x ceil(K/32), N x ceil(K/32))\n"
          "  --mx-scale-edges       MX: scales at the extremes (0x00, 0xfe in pairs that cancel, 0x7f) and\n"
          "                         one NaN scale (0xff) in row 1 of A's first block\n"
          "  --mx-scale-a-len L --mx-scale-b-len L  MX scale tensor sizes (default the required; another is refused)\n"
          "  --scale-a X --scale-b Y  per-tensor input scales (default 1; the fp8 dequantisation)\n"
          "  --fp8-edges            fp8 inputs: every 4th element an encoder edge case (subnormals,\n"
          "                         +-240 (FNUZ) or +-448 (OCP), -0, values rounding to 0)\n"
          "  --bias row|col         add a bias vector per row (length M) or per column (length N)\n"
          "  --bias-type f32|bf16   bias element type (default f32)\n"
          "  --bias-len L           bias vector length (default the one required; another is refused)\n"
          "  --act relu|gelu|gelu-erf|silu  activation after the bias (gelu: tanh approximation)\n"
          "  --lda L --ldb L --ldc L  leading dimensions (>= row length; default = row length)\n"
          "  --iters N --warmup N   timed iterations / untimed warm-up launches\n"
          "                         (default 10/2 on a GPU, 1/0 under tksim)\n"
          "  --kernel 8wave|4wave|simple|mx|auto  kernel (auto: see docs/gemm.md)\n"
          "  --tile MxN             8wave tile: 256x256 (default), 224x256, 256x128, 128x256, 128x128;\n"
          "                         4wave --in fp8 (gfx950): 64x64, 128x128\n"
          "  --split-k S            8wave: cut K into S ranges, f32 partials reduced in a fixed order\n"
          "  --k-step 64|128        8wave K per loop iteration (128: the 128x128 tile only)\n"
          "  --stream-k on|off|G    8wave: spread the last round's tiles over all CUs (default: on where it\n"
          "                         applies); G: over G workgroups instead of the device's count\n"
          "                         (default 1; with --kernel auto both default to the heuristic's)\n"
          "  --check                compare with a double-precision reference; exit 1 past tolerance\n"
          "  --seed S               input random seed (default 1)\n"
          "  --sweep                time the sweep shapes (squares 1024..16384, LLM and decode shapes)\n"
          "  --sweep-shapes LIST    sweep these shapes instead: MxNxK[,MxNxK...]\n"
          "  --sweep-kernels LIST   sweep each shape with these kernels, side by side (e.g. 8wave,4wave)\n"
          "  --csv FILE --svg FILE  sweep outputs (CSV table; SVG bar chart of TFLOP/s, or of ms when emulated)\n"
          "  --vs hipblaslt         compare with hipBLASLt (only when found at configure time)\n"
          "  --inject-error         test hook: corrupt C[0,0] before --check (the check must fail)\n"
          "  --help                 this text\n");
}

typedef struct options {
  tk_gemm_problem p;
  tk_gemm_kernel kernel;
  int32_t tile_m, tile_n, split_k, k_step, stream_k; /* --tile, --split-k, --k-step, --stream-k (0: the plan's) */
  int32_t grid_order; /* --grid-order: TK_GEMM_ORDER_L2 / _ROW_MAJOR, or _AUTO (the plan's) */
  tk_cli cli; /* --check --inject-error --iters --warmup --sweep --csv --svg */
  int vs, fp8_edges, mx_edges;
  uint64_t seed;
  const char *shapes;
  tk_gemm_kernel kernels[MAX_KERNELS]; /* --sweep-kernels, else {kernel} */
  int nkernels;
} options;

/* ---- inputs on host and device ------------------------------------------ */

typedef struct gemm_data {
  void *ha, *hb, *a, *b; /* host and device A, B (bf16, fp8 or MX element bits) */
  void *sa, *sb;         /* device MX scale tensors (NULL: not MX) */
  void *hc0, *c;         /* initial C (host), C (device) */
  void *bias;            /* device bias vector (NULL: none) */
  size_t c_bytes;
  tk_gemm_problem p;     /* the problem with bias_ptr set */
} gemm_data;

/* MX element codes: random finite values of the format (E4M3 never its NaN
 * code S.1111.111, E5M2 never exponent 31); n elements, fp4 packed in pairs */
static void fill_mx(tk_rng *r, uint8_t *x, size_t n, tk_gemm_in in)
{
  const size_t bytes = in == TK_GEMM_IN_MXFP4 ? (n + 1) / 2 : n;
  for (size_t i = 0; i < bytes; ++i) {
    uint8_t v = (uint8_t)(tk_rng_next(r) >> 32);
    if (in == TK_GEMM_IN_MXFP8 && (v & 0x7f) == 0x7f) v ^= 0x01;          /* NaN -> 416 */
    if (in == TK_GEMM_IN_MXFP8_E5M2 && (v & 0x7c) == 0x7c) v &= 0xbf;     /* inf/NaN -> a finite code */
    x[i] = v;
  }
}

/* MX scale tensors: random E8M0 near 1.0 (2^-4 .. 2^4), or with
 * --mx-scale-edges the extremes: block b of every row of A gets 0x00, 0x7f,
 * 0xfe or 0x80 (b % 4) and B the complement 254 - that, so each product of
 * two blocks is scaled by 2^0 (A or B alone at 2^-127 / 2^127: the scaled
 * elements leave f32's range, their products do not), and A's row 1 block 0
 * is NaN (0xff): row 1 of C must be NaN (OCP MX spec 6.1). */
static void fill_mx_scales(tk_rng *r, uint8_t *sa, uint8_t *sb, const tk_gemm_problem *p, int edges)
{
  const int64_t kb = (p->k + 31) / 32;
  static const uint8_t edge[4] = {0x00, 0x7f, 0xfe, 0x80};
  for (int64_t i = 0; i < p->mx_scale_a_len; ++i)
    sa[i] = edges ? edge[(i % kb) % 4] : (uint8_t)(123 + (tk_rng_next(r) >> 32) % 9);
  for (int64_t i = 0; i < p->mx_scale_b_len; ++i)
    sb[i] = edges ? (uint8_t)(254 - edge[(i % kb) % 4]) : (uint8_t)(123 + (tk_rng_next(r) >> 32) % 9);
  if (edges && p->m > 1 && p->mx_scale_a_len >= 2 * kb) sa[kb] = 0xff;
}

/* A, B, an initial C (so beta matters) and the bias from the seed, in that
 * order (MX: then the scale tensors) */
static void setup(gemm_data *d, const tk_gemm_problem *p, uint64_t seed, int fp8_edges, int mx_edges)
{
  const size_t na = (size_t)(p->batch * tk_gemm_a_stride(p)), nb = (size_t)(p->batch * tk_gemm_b_stride(p));
  const size_t nc = (size_t)(p->batch * tk_gemm_c_stride(p));
  const size_t abytes = (size_t)tk_gemm_in_bytes(p, (int64_t)na), bbytes = (size_t)tk_gemm_in_bytes(p, (int64_t)nb);
  const size_t nbias = p->bias != TK_GEMM_BIAS_NONE ? (size_t)p->bias_len : 0;
  const size_t bias_bytes = nbias * (size_t)tk_gemm_bias_elem_bytes(p);
  tk_rng r;
  tk_rng_seed(&r, seed);
  d->p = *p;
  d->c_bytes = nc * (size_t)tk_gemm_c_elem_bytes(p);
  d->ha = malloc(abytes);
  d->hb = malloc(bbytes);
  d->hc0 = malloc(d->c_bytes);
  void *hbias = malloc(bias_bytes ? bias_bytes : 1);
  if (!d->ha || !d->hb || !d->hc0 || !hbias) {
    fprintf(stderr, "gemm: out of host memory for the inputs\n");
    exit(4);
  }
  if (p->in == TK_GEMM_IN_FP8) {
    /* the bytes the device's fp8 MFMAs read (tk_gemm_fp8_encoding) */
    tk_gemm_fp8_enc enc;
    if (tk_gemm_fp8_encoding(&enc) != TK_GEMM_OK) {
      fprintf(stderr, "gemm: cannot query the device for its fp8 encoding\n");
      exit(4);
    }
    tk_rng_fill_fp8e4(&r, d->ha, na, fp8_edges, enc == TK_GEMM_FP8_OCP);
    tk_rng_fill_fp8e4(&r, d->hb, nb, fp8_edges, enc == TK_GEMM_FP8_OCP);
  } else if (tk_gemm_in_is_mx(p->in)) {
    fill_mx(&r, d->ha, na, (tk_gemm_in)p->in);
    fill_mx(&r, d->hb, nb, (tk_gemm_in)p->in);
  } else {
    tk_rng_fill_bf16(&r, d->ha, na);
    tk_rng_fill_bf16(&r, d->hb, nb);
  }
  for (size_t i = 0; i < nc; ++i) {
    const uint16_t h = tk_rng_bf16(&r);
    if (p->out == TK_GEMM_OUT_BF16) ((uint16_t *)d->hc0)[i] = h;
    else ((float *)d->hc0)[i] = tk_ex_bf16_to_f32(h);
  }
  for (size_t i = 0; i < nbias; ++i) { /* bf16 values in [-1, 1), or f32 with all 24 bits */
    const uint64_t u = tk_rng_next(&r);
    if (p->bias_type == TK_GEMM_BIAS_BF16) ((uint16_t *)hbias)[i] = tk_ex_f32_to_bf16((float)((double)(u >> 11) * 0x1p-52 - 1.0));
    else ((float *)hbias)[i] = (float)((double)(u >> 40) * 0x1p-23 - 1.0);
  }
  CHECK_HIP(hipMalloc(&d->a, abytes));
  CHECK_HIP(hipMalloc(&d->b, bbytes));
  CHECK_HIP(hipMalloc(&d->c, d->c_bytes));
  CHECK_HIP(hipMemcpy(d->a, d->ha, abytes, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(d->b, d->hb, bbytes, hipMemcpyHostToDevice));
  CHECK_HIP(hipMemcpy(d->c, d->hc0, d->c_bytes, hipMemcpyHostToDevice));
  d->bias = NULL;
  if (bias_bytes) {
    CHECK_HIP(hipMalloc(&d->bias, bias_bytes));
    CHECK_HIP(hipMemcpy(d->bias, hbias, bias_bytes, hipMemcpyHostToDevice));
  }
  d->p.bias_ptr = d->bias;
  free(hbias);
  d->sa = d->sb = NULL;
  if (tk_gemm_in_is_mx(p->in)) { /* sizes as given (a wrong one was refused before) */
    uint8_t *hsa = malloc((size_t)p->mx_scale_a_len), *hsb = malloc((size_t)p->mx_scale_b_len);
    if (!hsa || !hsb) {
      fprintf(stderr, "gemm: out of host memory for the MX scales\n");
      exit(4);
    }
    fill_mx_scales(&r, hsa, hsb, p, mx_edges);
    CHECK_HIP(hipMalloc(&d->sa, (size_t)p->mx_scale_a_len));
    CHECK_HIP(hipMalloc(&d->sb, (size_t)p->mx_scale_b_len));
    CHECK_HIP(hipMemcpy(d->sa, hsa, (size_t)p->mx_scale_a_len, hipMemcpyHostToDevice));
    CHECK_HIP(hipMemcpy(d->sb, hsb, (size_t)p->mx_scale_b_len, hipMemcpyHostToDevice));
    free(hsa);
    free(hsb);
  }
  d->p.mx_scale_a = d->sa, d->p.mx_scale_b = d->sb;
}

static void teardown(gemm_data *d)
{
  CHECK_HIP(hipFree(d->a));
  CHECK_HIP(hipFree(d->b));
  CHECK_HIP(hipFree(d->c));
  if (d->bias) CHECK_HIP(hipFree(d->bias));
  if (d->sa) CHECK_HIP(hipFree(d->sa));
  if (d->sb) CHECK_HIP(hipFree(d->sb));
  free(d->ha);
  free(d->hb);
  free(d->hc0);
}

/* ---- one launch, for tk_time_launches ------------------------------------ */

typedef struct launch_ctx {
  tk_gemm_config cfg; /* planned */
  gemm_data *d;
  void *ws; /* split-K workspace, allocated once per problem */
  size_t ws_bytes;
} launch_ctx;

static int launch(void *v)
{
  const launch_ctx *l = v;
  const int e = tk_gemm_run(&l->d->p, &l->cfg, l->d->a, l->d->b, l->d->c, l->ws, l->ws_bytes, 0);
  if (e != TK_GEMM_OK) fprintf(stderr, "gemm: tk_gemm: %s\n", tk_gemm_strerror(e));
  return e;
}

/* the options' kernel, tile and split, planned for p (tk_gemm_plan); NULL
 * when it can run p, else why not */
static const char *plan(const tk_gemm_problem *p, tk_gemm_kernel kernel, const options *o, tk_gemm_config *cfg)
{
  cfg->kernel = kernel, cfg->tile_m = o->tile_m, cfg->tile_n = o->tile_n, cfg->split_k = o->split_k;
  cfg->k_step = o->k_step, cfg->stream_k = o->stream_k, cfg->grid_order = o->grid_order;
  const int e = tk_gemm_plan(p, cfg);
  if (e == TK_GEMM_ERR_UNSUPPORTED) return tk_gemm_config_unsupported(p, cfg);
  return e == TK_GEMM_OK ? NULL : tk_gemm_strerror(e);
}

/* "8wave" (256x256, K step 64, no split, L2 order), "8wave-128x128",
 * "8wave-128x128k128" (K step 128), "8wave-128x128-s4" (split-K 4),
 * "8wave-128x128k128-s2-rm" (row-major grid order), "4wave", "4wave-64x64k128"
 * (fp8's 4wave), ...: the
 * config names of bench/gemm-heuristic; `in`: the problem's input format
 * (a tk_gemm_in: 4wave with fp8 inputs is another kernel, gemm_4wave_fp8.h) */
static const char *config_name(const tk_gemm_config *c, int32_t in, char *buf, size_t n)
{
  const int sk = c->stream_k > TK_GEMM_SK_ON, rm = c->grid_order == TK_GEMM_ORDER_ROW_MAJOR;
  if (c->kernel == TK_GEMM_4WAVE && in == TK_GEMM_IN_FP8) {
    snprintf(buf, n, "4wave-%dx%dk%d%s", c->tile_m, c->tile_n, c->k_step, rm ? "-rm" : "");
    return buf;
  }
  if (c->kernel != TK_GEMM_8WAVE ||
      (c->tile_m == 256 && c->tile_n == 256 && c->split_k == 1 && c->k_step == 64 && !sk && !rm))
    return tk_gemm_kernel_name((tk_gemm_kernel)c->kernel);
  char ks[16] = "";
  if (c->k_step != 64) snprintf(ks, sizeof ks, "k%d", c->k_step);
  if (c->split_k > 1) snprintf(buf, n, "8wave-%dx%d%s-s%d%s", c->tile_m, c->tile_n, ks, c->split_k, rm ? "-rm" : "");
  else snprintf(buf, n, "8wave-%dx%d%s%s%s", c->tile_m, c->tile_n, ks, sk ? "-sk" : "", rm ? "-rm" : "");
  return buf;
}

/* test hook: the check must notice one wrong element */
static void inject_error(const tk_gemm_problem *p, gemm_data *d)
{
  if (p->out == TK_GEMM_OUT_BF16) {
    uint16_t h;
    CHECK_HIP(hipMemcpy(&h, d->c, 2, hipMemcpyDeviceToHost));
    h = tk_ex_bf16_perturb(h);
    CHECK_HIP(hipMemcpy(d->c, &h, 2, hipMemcpyHostToDevice));
  } else {
    float v;
    CHECK_HIP(hipMemcpy(&v, d->c, 4, hipMemcpyDeviceToHost));
    v += 0.25f * fmaxf(1.0f, fabsf(v));
    CHECK_HIP(hipMemcpy(d->c, &v, 4, hipMemcpyHostToDevice));
  }
}

#ifdef TK_GEMM_HIPBLASLT
/* --vs hipblaslt: both libraries on the same inputs from the same initial C:
 * agreement of one launch each, then hipBLASLt's time next to ours. */
static int compare_hipblaslt(tk_gemm_kernel kernel, gemm_data *d, const tk_gemm_problem *p, const options *o,
                             double tk_ms)
{
  const size_t n = d->c_bytes, esz = (size_t)tk_gemm_c_elem_bytes(p);
  uint8_t *ours = malloc(n), *theirs = malloc(n);
  gemm_lt *lt = gemm_lt_create(p, d->a, d->b, d->c);
  int rc = 4;
  if (!ours || !theirs || !lt) goto out;
  CHECK_HIP(hipMemcpy(d->c, d->hc0, n, hipMemcpyHostToDevice));
  if (tk_gemm(&d->p, kernel, d->a, d->b, d->c, 0) != TK_GEMM_OK) goto out;
  CHECK_HIP(hipMemcpy(ours, d->c, n, hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(d->c, d->hc0, n, hipMemcpyHostToDevice));
  if (gemm_lt_launch(lt) != 0) goto out;
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_HIP(hipMemcpy(theirs, d->c, n, hipMemcpyDeviceToHost));
  double max_diff = 0, max_ref = 0;
  for (size_t i = 0; i + esz <= n; i += esz) {
    double x, y;
    if (esz == 2) {
      uint16_t hx, hy;
      memcpy(&hx, ours + i, 2), memcpy(&hy, theirs + i, 2);
      x = tk_ex_bf16_to_f32(hx), y = tk_ex_bf16_to_f32(hy);
    } else {
      float fx, fy;
      memcpy(&fx, ours + i, 4), memcpy(&fy, theirs + i, 4);
      x = fx, y = fy;
    }
    max_diff = fmax(max_diff, fabs(x - y));
    max_ref = fmax(max_ref, fabs(y));
  }
  printf("hipblaslt: agreement max |tk - hipblaslt| = %.3e (max |hipblaslt| = %.3e; padding between rows included)\n",
         max_diff, max_ref);
  double ms;
  tk_timing kind;
  if (tk_time_launches(gemm_lt_launch, lt, o->cli.iters, o->cli.warmup, &ms, &kind) != 0 || ms <= 0) goto out;
  const double flops = 2.0 * p->m * p->n * p->k * p->batch;
  printf("hipblaslt: %.4f ms per iteration, %.2f TFLOP/s; tk %s: %.2f TFLOP/s; tk / hipblaslt = %.3f [%s]\n", ms,
         flops / (ms * 1e-3) / 1e12, tk_gemm_kernel_name(kernel), flops / (tk_ms * 1e-3) / 1e12, ms / tk_ms,
         tk_timing_label(kind));
  rc = 0;
out:
  gemm_lt_destroy(lt);
  free(ours);
  free(theirs);
  return rc;
}
#endif

/* ---- a single problem ---------------------------------------------------- */

static int run_one(const options *o)
{
  const tk_gemm_problem *p = &o->p;
  tk_gemm_config cfg;
  const char *why = plan(p, o->kernel, o, &cfg);
  const tk_gemm_kernel kernel = (tk_gemm_kernel)cfg.kernel;
  printf("problem: M=%lld N=%lld K=%lld batch=%lld layout=%s out=%s alpha=%g beta=%g lda=%lld ldb=%lld ldc=%lld\n",
         (long long)p->m, (long long)p->n, (long long)p->k, (long long)p->batch, p->layout == TK_GEMM_NT ? "nt" : "nn",
         p->out == TK_GEMM_OUT_BF16 ? "bf16" : "f32", p->alpha, p->beta, (long long)p->lda, (long long)p->ldb,
         (long long)p->ldc);
  tk_gemm_fp8_enc enc;
  const int enc_ok = tk_gemm_fp8_encoding(&enc) == TK_GEMM_OK;
  const char *fp8_name = !enc_ok ? NULL : enc == TK_GEMM_FP8_OCP ? "fp8 e4m3 (OCP)" : "fp8 e4m3 (FNUZ)";
  const char *fp8_name_edges = enc_ok && enc == TK_GEMM_FP8_OCP ? "fp8 e4m3 (OCP) with edge cases" : "fp8 e4m3 (FNUZ) with edge cases";
  char in_name[96];
  if (tk_gemm_in_is_mx(p->in))
    snprintf(in_name, sizeof in_name, "%s (OCP MX, E8M0 scales per 32)%s",
             p->in == TK_GEMM_IN_MXFP8 ? "mxfp8 e4m3" : p->in == TK_GEMM_IN_MXFP8_E5M2 ? "mxfp8 e5m2" : "mxfp4 e2m1",
             o->mx_edges ? " with edge scales" : "");
  else
    snprintf(in_name, sizeof in_name, "%s", p->in != TK_GEMM_IN_FP8 ? "bf16"
                                            : fp8_name ? (o->fp8_edges ? fp8_name_edges : fp8_name)
                                                       : "fp8 e4m3 (encoding unknown)");
  printf("inputs: %s, scale_a=%g scale_b=%g; epilogue: bias %s%s, activation %s\n", in_name,
         p->scale_a, p->scale_b, p->bias == TK_GEMM_BIAS_ROW ? "per row" : p->bias == TK_GEMM_BIAS_COL ? "per column" : "none",
         p->bias == TK_GEMM_BIAS_NONE ? "" : p->bias_type == TK_GEMM_BIAS_BF16 ? " (bf16)" : " (f32)",
         tk_gemm_act_name((tk_gemm_act)p->act));
  if (cfg.kernel == TK_GEMM_AUTO) cfg.kernel = tk_gemm_choose(p, TK_GEMM_AUTO); /* not planned: name only */
  char cname[64];
  const int named = cfg.kernel == TK_GEMM_8WAVE || (cfg.kernel == TK_GEMM_4WAVE && p->in == TK_GEMM_IN_FP8);
  printf("kernel: %s%s%s%s%s\n", tk_gemm_kernel_name((tk_gemm_kernel)cfg.kernel), o->kernel == TK_GEMM_AUTO ? " (auto)" : "",
         !named && cfg.grid_order == TK_GEMM_ORDER_ROW_MAJOR ? ", grid order row-major" : "",
         named ? ", config " : "", named ? config_name(&cfg, p->in, cname, sizeof cname) : "");
  if (o->kernel == TK_GEMM_AUTO) printf("heuristic: %s table\n", tk_gemm_heuristic_target());
  if (named || cfg.kernel == TK_GEMM_MX) { /* mx: 256x256 (8wave body) or 128x128 */
    char skn[32] = "off";
    if (cfg.stream_k > TK_GEMM_SK_ON) snprintf(skn, sizeof skn, "%d workgroups", cfg.stream_k);
    printf("config: tile %dx%d, K step %d, split-k %d, stream-k %s, grid order %s\n", cfg.tile_m, cfg.tile_n,
           cfg.k_step, cfg.split_k, skn, cfg.grid_order == TK_GEMM_ORDER_ROW_MAJOR ? "row-major" : "l2");
  }
  if (why && tk_gemm_config_not_built(p, &cfg)) { /* a configuration this build left out: exit 2 */
    fprintf(stderr, "gemm: kernel %s: %s\n", tk_gemm_kernel_name(kernel), why);
    return 2;
  }
  if (why) {
    fprintf(stderr, "gemm: kernel %s cannot run this problem: %s%s\n", tk_gemm_kernel_name(kernel), why,
            o->kernel == TK_GEMM_AUTO ? "" : " (--kernel auto picks one that can)");
    return 3;
  }
  (void)kernel;
  gemm_data d;
  setup(&d, p, o->seed, o->fp8_edges, o->mx_edges);
  launch_ctx l = {cfg, &d, NULL, tk_gemm_workspace_bytes(p, &cfg)};
  if (l.ws_bytes) { CHECK_HIP(hipMalloc(&l.ws, l.ws_bytes)); CHECK_HIP(hipMemset(l.ws, 0, l.ws_bytes)); }
  int rc = 0;
  if (o->cli.check) {
    if (launch(&l) != 0) return 4;
    CHECK_HIP(hipDeviceSynchronize());
    if (o->cli.inject) inject_error(p, &d);
    tk_gemm_check_result r;
    const int e = tk_gemm_check(&d.p, d.ha, d.hb, d.hc0, d.a, d.b, d.c, &r);
    if (e != TK_GEMM_OK) {
      fprintf(stderr, "gemm: check: %s\n", tk_gemm_strerror(e));
      return 4;
    }
    printf("check: reference %s; max abs err %.3e, max rel err %.3e, worst err/bound %.3f; tolerance per element: "
           "%s(2*K+4)*2^-24*mag + 2^-24*|pre|%s%s\n",
           r.gpu_reference ? "GPU naive double" : "CPU double", r.max_abs, r.max_rel, r.worst_ratio,
           p->act == TK_GEMM_ACT_NONE ? "" : "1.25*", p->act == TK_GEMM_ACT_NONE || p->act == TK_GEMM_ACT_RELU ? "" : " + 32*2^-24*|pre| (activation)",
           p->out == TK_GEMM_OUT_BF16 ? " + 2^-8*|ref| (bf16 output rounding)" : "");
    if (r.nbad) {
      printf("check: FAILED (%lld elements past tolerance)\n", (long long)r.nbad);
      rc = 1;
    } else
      printf("check: PASSED\n");
    CHECK_HIP(hipMemcpy(d.c, d.hc0, d.c_bytes, hipMemcpyHostToDevice));
  }
  if (o->cli.iters > 0) {
    double ms;
    const tk_work w = {2.0 * p->m * p->n * p->k * p->batch, 0, NULL};
    if (tk_time_report("gemm", launch, &l, o->cli.iters, o->cli.warmup, &w, &ms)) {
      teardown(&d);
      return 4;
    }
#ifdef TK_GEMM_HIPBLASLT
    if (o->vs && compare_hipblaslt(kernel, &d, p, o, ms) != 0) rc = rc ? rc : 4;
#endif
  }
  if (l.ws) CHECK_HIP(hipFree(l.ws));
  teardown(&d);
  return rc;
}

/* ---- the sweep ----------------------------------------------------------- */

static int run_sweep(const options *o)
{
  static const char *def = "1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,16384x16384x16384,"
                           "4096x4096x14336,4096x14336x4096,8192x28672x8192,8192x8192x28672,16384x8192x1024,"
                           "1x4096x4096,16x4096x4096,128x4096x4096"; /* the last three: decode-like */
  int64_t dims[MAX_SHAPES * 3];
  const int nshapes = tk_cli_shapes(o->shapes ? o->shapes : def, 3, dims, MAX_SHAPES);
  tk_gemm_problem shapes[MAX_SHAPES];
  for (int i = 0; i < nshapes; ++i) { /* each shape with the other options, packed leading dimensions */
    tk_gemm_problem *p = &shapes[i];
    *p = o->p;
    p->m = dims[3 * i], p->n = dims[3 * i + 1], p->k = dims[3 * i + 2];
    p->lda = p->k, p->ldb = p->layout == TK_GEMM_NT ? p->k : p->n, p->ldc = p->n;
    p->bias_len = tk_gemm_bias_need(p);
    if (tk_gemm_in_is_mx(p->in)) {
      if (p->in == TK_GEMM_IN_MXFP4) p->lda = p->ldb = p->k + (p->k & 1);
      p->mx_scale_a_len = tk_gemm_mx_scale_need(p, 0), p->mx_scale_b_len = tk_gemm_mx_scale_need(p, 1);
    }
    if (tk_gemm_problem_error(p)) return tk_cli_fail(&o->cli, "bad --sweep-shapes list", o->shapes);
  }
  if (nshapes < 0) return tk_cli_fail(&o->cli, "bad --sweep-shapes list (MxNxK[,MxNxK...], at most 256)", o->shapes);
  tk_sweep sw;
  char title[32];
  snprintf(title, sizeof title, "gemm %s", tk_gemm_in_name((tk_gemm_in)o->p.in));
  tk_sweep_init(&sw, title, "m,n,k,batch,layout,out");
  int rc = 0;
  for (int i = 0; i < nshapes && !rc; ++i) {
    const tk_gemm_problem *p = &shapes[i];
    for (int ki = 0; ki < o->nkernels && !rc; ++ki) {
      tk_gemm_config cfg;
      const char *why = plan(p, o->kernels[ki], o, &cfg);
      const tk_gemm_kernel kernel = cfg.kernel == TK_GEMM_AUTO ? tk_gemm_choose(p, TK_GEMM_AUTO) : (tk_gemm_kernel)cfg.kernel;
      char cname[64];
      if (why) {
        fprintf(stderr, "gemm: kernel %s cannot run %lldx%lldx%lld: %s\n", tk_gemm_kernel_name(kernel),
                (long long)p->m, (long long)p->n, (long long)p->k, why);
        rc = 3;
        break;
      }
      gemm_data d;
      setup(&d, p, o->seed, o->fp8_edges, o->mx_edges);
      launch_ctx l = {cfg, &d, NULL, tk_gemm_workspace_bytes(p, &cfg)};
      if (l.ws_bytes) { CHECK_HIP(hipMalloc(&l.ws, l.ws_bytes)); CHECK_HIP(hipMemset(l.ws, 0, l.ws_bytes)); }
      double ms;
      tk_timing kind;
      const int e = tk_time_launches(launch, &l, o->cli.iters, o->cli.warmup, &ms, &kind);
      if (l.ws) CHECK_HIP(hipFree(l.ws));
      teardown(&d);
      if (e != 0) {
        fprintf(stderr, "gemm: launch failed\n");
        rc = 4;
        break;
      }
      char key[128], shape[64];
      snprintf(key, sizeof key, "%lld,%lld,%lld,%lld,%s,%s", (long long)p->m, (long long)p->n, (long long)p->k,
               (long long)p->batch, p->layout == TK_GEMM_NT ? "nt" : "nn", p->out == TK_GEMM_OUT_BF16 ? "bf16" : "f32");
      snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)p->m, (long long)p->n, (long long)p->k);
      if (tk_sweep_add(&sw, key, shape, config_name(&cfg, p->in, cname, sizeof cname), ms, 2.0 * p->m * p->n * p->k * p->batch, kind)) {
        fprintf(stderr, "gemm: out of host memory\n");
        rc = 4;
      }
    }
  }
  /* outputs of what ran, also after a failure */
  const int wrc = tk_sweep_write_outputs(&sw, "gemm", o->cli.csv, o->cli.svg);
  rc = rc ? rc : wrc;
  tk_sweep_free(&sw);
  return rc;
}

/* ---- arguments ----------------------------------------------------------- */

static int parse_args(int argc, char **argv, options *o)
{
  tk_cli *c = &o->cli;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v;
    if (!strcmp(a, "--fp8-edges")) { o->fp8_edges = 1; continue; }
    if (!strcmp(a, "--mx-scale-edges")) { o->mx_edges = 1; continue; }
    if (!strcmp(a, "--png"))
      return tk_cli_fail(c, "--png was replaced by --svg (an SVG bar chart with axes and legend)", NULL);
    const int k = tk_cli_arg(c, argc, argv, &i, &v);
    if (k == TK_CLI_NEXT) continue;
    if (k != TK_CLI_VALUE) return k;
    int64_t x;
    if (!strcmp(a, "--m") || !strcmp(a, "--n") || !strcmp(a, "--k") || !strcmp(a, "--batch") || !strcmp(a, "--lda") ||
        !strcmp(a, "--ldb") || !strcmp(a, "--ldc") || !strcmp(a, "--seed")) {
      if (!tk_cli_i64(v, &x)) return tk_cli_fail(c, "not an integer", v);
      if (!strcmp(a, "--m")) o->p.m = x;
      else if (!strcmp(a, "--n")) o->p.n = x;
      else if (!strcmp(a, "--k")) o->p.k = x;
      else if (!strcmp(a, "--batch")) o->p.batch = x;
      else if (!strcmp(a, "--lda") || !strcmp(a, "--ldb") || !strcmp(a, "--ldc")) {
        if (x < 1) return tk_cli_fail(c, "leading dimension must be >= 1", v);
        *(a[4] == 'a' ? &o->p.lda : a[4] == 'b' ? &o->p.ldb : &o->p.ldc) = x;
      } else
        o->seed = (uint64_t)x;
    } else if (!strcmp(a, "--alpha") || !strcmp(a, "--beta")) {
      if (!tk_cli_f32(v, a[2] == 'a' ? &o->p.alpha : &o->p.beta)) return tk_cli_fail(c, "not a finite number", v);
    } else if (!strcmp(a, "--scale-a") || !strcmp(a, "--scale-b")) {
      if (!tk_cli_f32(v, a[8] == 'a' ? &o->p.scale_a : &o->p.scale_b)) return tk_cli_fail(c, "not a finite number", v);
    } else if (!strcmp(a, "--in")) {
      tk_gemm_in in;
      if (!tk_gemm_in_parse(v, &in)) return tk_cli_fail(c, "unknown input type (bf16|fp8|mxfp8|mxfp8-e5m2|mxfp4)", v);
      o->p.in = in;
    } else if (!strcmp(a, "--bias")) {
      if (!strcmp(v, "row")) o->p.bias = TK_GEMM_BIAS_ROW;
      else if (!strcmp(v, "col")) o->p.bias = TK_GEMM_BIAS_COL;
      else return tk_cli_fail(c, "unknown bias mode (row|col)", v);
    } else if (!strcmp(a, "--bias-type")) {
      if (!strcmp(v, "f32")) o->p.bias_type = TK_GEMM_BIAS_F32;
      else if (!strcmp(v, "bf16")) o->p.bias_type = TK_GEMM_BIAS_BF16;
      else return tk_cli_fail(c, "unknown bias type (f32|bf16)", v);
    } else if (!strcmp(a, "--mx-scale-a-len") || !strcmp(a, "--mx-scale-b-len")) {
      if (!tk_cli_i64(v, &x)) return tk_cli_fail(c, "not an integer", v);
      if (x < 1) return tk_cli_fail(c, "MX scale tensor lengths must be >= 1", v);
      *(a[11] == 'a' ? &o->p.mx_scale_a_len : &o->p.mx_scale_b_len) = x;
    } else if (!strcmp(a, "--bias-len")) {
      if (!tk_cli_i64(v, &x)) return tk_cli_fail(c, "not an integer", v);
      if (x < 1) return tk_cli_fail(c, "--bias-len must be >= 1", v);
      o->p.bias_len = x;
    } else if (!strcmp(a, "--act")) {
      tk_gemm_act act;
      if (!tk_gemm_act_parse(v, &act) || act == TK_GEMM_ACT_NONE)
        return tk_cli_fail(c, "unknown activation (relu|gelu|gelu-erf|silu)", v);
      o->p.act = act;
    } else if (!strcmp(a, "--grid-order")) {
      if (!strcmp(v, "l2")) o->grid_order = TK_GEMM_ORDER_L2;
      else if (!strcmp(v, "row-major")) o->grid_order = TK_GEMM_ORDER_ROW_MAJOR;
      else return tk_cli_fail(c, "unknown grid order (l2|row-major)", v);
    } else if (!strcmp(a, "--layout")) {
      if (!strcmp(v, "nt")) o->p.layout = TK_GEMM_NT;
      else if (!strcmp(v, "nn")) o->p.layout = TK_GEMM_NN;
      else return tk_cli_fail(c, "unknown layout (nt|nn)", v);
    } else if (!strcmp(a, "--out")) {
      if (!strcmp(v, "bf16")) o->p.out = TK_GEMM_OUT_BF16;
      else if (!strcmp(v, "f32")) o->p.out = TK_GEMM_OUT_F32;
      else return tk_cli_fail(c, "unknown output type (bf16|f32)", v);
    } else if (!strcmp(a, "--kernel")) {
      if (!tk_gemm_kernel_parse(v, strlen(v), &o->kernel))
        return tk_cli_fail(c, "unknown kernel (8wave|4wave|simple|mx|auto)", v);
    } else if (!strcmp(a, "--tile")) {
      int64_t t[2];
      if (tk_cli_shapes(v, 2, t, 1) != 1 ||
          !(((t[0] == 128 || t[0] == 256 || (t[0] == 224 && t[1] == 256)) && (t[1] == 128 || t[1] == 256)) ||
            (t[0] == 64 && t[1] == 64)))
        return tk_cli_fail(c, "unknown --tile (8wave: 256x256, 224x256, 256x128, 128x256, 128x128; "
                              "4wave --in fp8: 64x64, 128x128)", v);
      o->tile_m = (int32_t)t[0], o->tile_n = (int32_t)t[1];
    } else if (!strcmp(a, "--split-k")) {
      if (!tk_cli_i64(v, &x) || x < 1 || x > 65535) return tk_cli_fail(c, "--split-k must be 1..65535", v);
      o->split_k = (int32_t)x;
    } else if (!strcmp(a, "--stream-k")) {
      if (!strcmp(v, "on")) o->stream_k = TK_GEMM_SK_ON;
      else if (!strcmp(v, "off")) o->stream_k = TK_GEMM_SK_OFF;
      else if (tk_cli_i64(v, &x) && x > TK_GEMM_SK_ON && x <= 65535) o->stream_k = (int32_t)x;
      else return tk_cli_fail(c, "--stream-k must be on, off or a workgroup count 3..65535", v);
    } else if (!strcmp(a, "--k-step")) {
      if (!tk_cli_i64(v, &x) || (x != 64 && x != 128))
        return tk_cli_fail(c, "--k-step must be 64 or 128 (128: 8wave 128x128 only)", v);
      o->k_step = (int32_t)x;
    } else if (!strcmp(a, "--sweep-kernels")) {
      const char *q = v, *item;
      size_t len;
      o->cli.sweep = 1;
      o->nkernels = 0;
      while (tk_cli_list_next(&q, &item, &len)) {
        if (o->nkernels == MAX_KERNELS) return tk_cli_fail(c, "too many kernels in --sweep-kernels", v);
        if (!tk_gemm_kernel_parse(item, len, &o->kernels[o->nkernels++]))
          return tk_cli_fail(c, "unknown kernel in --sweep-kernels (8wave|4wave|simple|auto)", v);
      }
      if (!o->nkernels) return tk_cli_fail(c, "unknown kernel in --sweep-kernels (8wave|4wave|simple|auto)", v);
    } else if (!strcmp(a, "--sweep-shapes")) o->shapes = v, o->cli.sweep = 1;
    else if (!strcmp(a, "--vs")) {
      if (strcmp(v, "hipblaslt") != 0) return tk_cli_fail(c, "unknown --vs library (hipblaslt)", v);
#ifdef TK_GEMM_HIPBLASLT
      o->vs = 1;
#else
      fprintf(stderr, "gemm: --vs hipblaslt: not available in this build (hipBLASLt was not found at configure time)\n");
      return 2;
#endif
    } else
      return tk_cli_fail(c, "unknown option", a);
  }
  /* mxfp4 rows start on whole bytes: an odd K gets one padding element */
  const int64_t krow = o->p.in == TK_GEMM_IN_MXFP4 ? o->p.k + (o->p.k & 1) : o->p.k;
  if (o->p.lda < 0) o->p.lda = krow;
  if (o->p.ldb < 0) o->p.ldb = o->p.layout == TK_GEMM_NT ? krow : o->p.n;
  const int mx = tk_gemm_in_is_mx(o->p.in);
  if (!mx && (o->p.mx_scale_a_len || o->p.mx_scale_b_len))
    return tk_cli_fail(c, "--mx-scale-a-len/--mx-scale-b-len need MX inputs (--in mxfp8|mxfp4)", NULL);
  if (!mx && o->mx_edges) return tk_cli_fail(c, "--mx-scale-edges needs MX inputs (--in mxfp8|mxfp8-e5m2|mxfp4)", NULL);
  if (mx && !o->p.mx_scale_a_len) o->p.mx_scale_a_len = tk_gemm_mx_scale_need(&o->p, 0);
  if (mx && !o->p.mx_scale_b_len) o->p.mx_scale_b_len = tk_gemm_mx_scale_need(&o->p, 1);
  if (o->p.ldc < 0) o->p.ldc = o->p.n;
  if (o->p.bias_len < 0) o->p.bias_len = tk_gemm_bias_need(&o->p);
  if (o->p.bias == TK_GEMM_BIAS_NONE && o->p.bias_len > 0)
    return tk_cli_fail(c, "--bias-len needs --bias row|col", NULL);
  if (o->p.bias == TK_GEMM_BIAS_NONE && o->p.bias_type != TK_GEMM_BIAS_F32)
    return tk_cli_fail(c, "--bias-type needs --bias row|col", NULL);
  if (o->fp8_edges && o->p.in != TK_GEMM_IN_FP8) return tk_cli_fail(c, "--fp8-edges needs --in fp8", NULL);
  if (o->vs && (o->p.in != TK_GEMM_IN_BF16 || o->p.bias != TK_GEMM_BIAS_NONE || o->p.act != TK_GEMM_ACT_NONE))
    return tk_cli_fail(c, "--vs hipblaslt compares bf16 inputs without bias or activation only", NULL);
  const int drc = tk_cli_done(c, tk_gemm_problem_error(&o->p));
  if (drc >= 0) return drc;
  if (mx && strcmp(tk_gemm_heuristic_target(), "gfx950") != 0) { /* the one device query before the run */
    fprintf(stderr, "gemm: MX inputs (--in %s) need a gfx950 (CDNA4) device: the block-scaled MFMAs "
                    "(v_mfma_scale_f32_*_f8f6f4) do not exist on this one\n", tk_gemm_in_name((tk_gemm_in)o->p.in));
    return 2;
  }
  return -1; /* go on */
}

int main(int argc, char **argv)
{
  options o;
  memset(&o, 0, sizeof o);
  tk_gemm_problem_init(&o.p, 256, 256, 256);
  o.p.lda = o.p.ldb = o.p.ldc = -1; /* default: the row length, known after parsing */
  o.p.bias_len = -1;                 /* default: M or N, known after parsing */
  o.kernel = TK_GEMM_AUTO;
  tk_cli_init(&o.cli, "gemm", usage, 1);
  o.seed = 1;
  const int rc = parse_args(argc, argv, &o);
  if (rc >= 0) return rc;

  if (tk_timing_start("gemm", &o.cli.iters, o.cli.iters_set, &o.cli.warmup, o.cli.warmup_set)) return 4;
  if (!o.nkernels) o.kernels[o.nkernels++] = o.kernel;
  return o.cli.sweep ? run_sweep(&o) : run_one(&o);
}
