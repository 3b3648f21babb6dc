/* tk_gemm.hip: libtk_gemm, the host API of tk_gemm.h over the example
 * kernels (one header each): validation, kernel choice, launch, and the
 * correctness check against a double-precision reference.  No inline asm and
 * no compiler builtins in examples/gemm by design (tests/gemm greps for them);
 * the kernels use tk primitives and plain HIP only.
 *
 * The kernels are in this translation unit except the 256x256 8wave ones
 * (gemm_8wave_256.hip: compiled with TK_OPAQUE_IDS, see gemm_8wave.h); the
 * gemm executable holds one code object per unit (tests/isa/tk-isa-check
 * reads them all). */
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tk_gemm.h"
#ifdef TK_GEMM_DEMO_ONLY /* README's first command: the 8wave 256x256 kernel only */
#include "gemm_8wave.h"
#include "gemm_demo.h"
#else
#include "gemm_4wave.h"
#include "gemm_4wave_fp8.h"
#include "gemm_8wave.h"
#include "gemm_8wave_fp8.h"
#include "gemm_8wave_mx.h"
#endif
#include "gemm_heuristic.h"
#ifndef TK_GEMM_DEMO_ONLY
#include "gemm_mx.h"
#endif
#include "gemm_mx_ref.h"
#include "gemm_reference.h"
#ifndef TK_GEMM_DEMO_ONLY
#include "gemm_simple.h"
#endif
#include "gemm_splitk.h"
#include "ref.h"

extern "C" {

void tk_gemm_problem_init(tk_gemm_problem *p, int64_t m, int64_t n, int64_t k)
{
  memset(p, 0, sizeof *p);
  p->m = m, p->n = n, p->k = k, p->batch = 1;
  p->lda = k, p->ldb = k, p->ldc = n;
  p->layout = TK_GEMM_NT;
  p->out = TK_GEMM_OUT_BF16;
  p->grid_order = TK_GEMM_GRID_L2;
  p->alpha = 1.0f;
  p->beta = 0.0f;
  p->in = TK_GEMM_IN_BF16;
  p->act = TK_GEMM_ACT_NONE;
  p->bias = TK_GEMM_BIAS_NONE;
  p->bias_type = TK_GEMM_BIAS_F32;
  p->scale_a = p->scale_b = 1.0f;
}

const char *tk_gemm_problem_error(const tk_gemm_problem *p)
{
  if (!p) return "no problem given";
  if (p->m < 1 || p->n < 1 || p->k < 1) return "sizes must be >= 1";
  if (p->grid_order != TK_GEMM_GRID_L2 && p->grid_order != TK_GEMM_GRID_ROW_MAJOR) return "unknown grid order";
  if (p->batch < 1) return "batch must be >= 1";
  /* limits keep every index product far inside int64 */
  if (p->m > (1 << 24) || p->n > (1 << 24) || p->k > (1 << 24) || p->batch > (1 << 16))
    return "size too large (limit 16777216 per dimension, 65536 batches)";
  if (p->layout != TK_GEMM_NT && p->layout != TK_GEMM_NN) return "unknown layout (nt|nn)";
  if (p->out != TK_GEMM_OUT_BF16 && p->out != TK_GEMM_OUT_F32) return "unknown output type (bf16|f32)";
  if (p->lda < p->k) return "lda must be >= K";
  if (p->ldb < (p->layout == TK_GEMM_NT ? p->k : p->n)) return "ldb must be >= K (nt) or >= N (nn)";
  if (p->ldc < p->n) return "ldc must be >= N";
  if (!isfinite(p->alpha) || !isfinite(p->beta)) return "alpha and beta must be finite";
  if (p->in < TK_GEMM_IN_BF16 || p->in > TK_GEMM_IN_MXFP4) return "unknown input type (bf16|fp8|mxfp8|mxfp8-e5m2|mxfp4)";
  if (p->in == TK_GEMM_IN_FP8 && p->layout != TK_GEMM_NT)
    return "fp8 inputs need layout nt (B as N x K: K contiguous in both operands, as the fp8 MFMA operands are)";
  if (tk_gemm_in_is_mx(p->in)) {
    if (p->layout != TK_GEMM_NT) return "MX inputs need layout nt (B as N x K: scale blocks run along K in both)";
    if (p->in == TK_GEMM_IN_MXFP4 && (p->lda % 2 || p->ldb % 2))
      return "mxfp4 packs two elements per byte: lda and ldb must be even (rows start on whole bytes)";
    if (p->mx_scale_a_len != tk_gemm_mx_scale_need(p, 0))
      return "MX scale tensor of the wrong size: A's needs batch*M*ceil(K/32) bytes (one E8M0 per 32 elements of a row)";
    if (p->mx_scale_b_len != tk_gemm_mx_scale_need(p, 1))
      return "MX scale tensor of the wrong size: B's needs batch*N*ceil(K/32) bytes (one E8M0 per 32 elements of a row)";
  }
  if (!isfinite(p->scale_a) || !isfinite(p->scale_b)) return "scale_a and scale_b must be finite";
  if (p->act < TK_GEMM_ACT_NONE || p->act > TK_GEMM_ACT_SILU) return "unknown activation (relu|gelu|gelu-erf|silu)";
  if (p->bias < TK_GEMM_BIAS_NONE || p->bias > TK_GEMM_BIAS_COL) return "unknown bias mode (row|col)";
  if (p->bias_type != TK_GEMM_BIAS_F32 && p->bias_type != TK_GEMM_BIAS_BF16) return "unknown bias type (f32|bf16)";
  if (p->bias != TK_GEMM_BIAS_NONE && p->bias_len != tk_gemm_bias_need(p))
    return p->bias == TK_GEMM_BIAS_ROW ? "bias of the wrong length: a bias per row needs M elements"
                                        : "bias of the wrong length: a bias per column needs N elements";
  return NULL;
}

const char *tk_gemm_in_name(tk_gemm_in in)
{
  switch (in) {
  case TK_GEMM_IN_BF16: return "bf16";
  case TK_GEMM_IN_FP8: return "fp8";
  case TK_GEMM_IN_MXFP8: return "mxfp8";
  case TK_GEMM_IN_MXFP8_E5M2: return "mxfp8-e5m2";
  case TK_GEMM_IN_MXFP4: return "mxfp4";
  }
  return "unknown";
}

int tk_gemm_in_parse(const char *s, tk_gemm_in *in)
{
  for (int i = TK_GEMM_IN_BF16; i <= TK_GEMM_IN_MXFP4; ++i)
    if (!strcmp(s, tk_gemm_in_name((tk_gemm_in)i))) {
      *in = (tk_gemm_in)i;
      return 1;
    }
  if (!strcmp(s, "mxfp8-e4m3")) { /* the default MXFP8 element, by its full name */
    *in = TK_GEMM_IN_MXFP8;
    return 1;
  }
  return 0;
}

/* MX needs gfx950's block-scaled MFMAs: NULL when the current device has
 * them, else why not */
/* K step of the 256x256 mx kernel: a K step is two half-steps of 64 bytes
 * per row (128 fp8, 256 fp4) */
static int32_t gemm_mx_big_kstep(const tk_gemm_problem *p)
{
  return p->in == TK_GEMM_IN_MXFP4 ? 4 * W8M_KH : 2 * W8M_KH;
}

static const char *mx_device_unsupported(void)
{
  int dev = 0;
  hipDeviceProp_t prop;
  if (hipGetDevice(&dev) != hipSuccess || hipGetDeviceProperties(&prop, dev) != hipSuccess)
    return "MX inputs need a gfx950 device, and the device cannot be queried";
  if (strncmp(prop.gcnArchName, "gfx950", 6))
    return "MX inputs (mxfp8, mxfp4) need a gfx950 (CDNA4) device: its block-scaled MFMAs "
           "(v_mfma_scale_f32_*_f8f6f4) do not exist on this one";
  return NULL;
}

/* the fp8 4wave kernels run on gfx950 devices only (gemm_4wave_fp8.h) */
static int gemm_on_gfx950(void) { return !strcmp(tk_gemm_heuristic_target(), "gfx950"); }
/* the current device's CU count (0: unknown) */
static int64_t gemm_device_cus(void)
{
  int dev = 0, cus = 0;
  if (hipGetDevice(&dev) != hipSuccess || hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess)
    cus = 0;
  return cus;
}

const char *tk_gemm_act_name(tk_gemm_act a)
{
  switch (a) {
  case TK_GEMM_ACT_NONE: return "none";
  case TK_GEMM_ACT_RELU: return "relu";
  case TK_GEMM_ACT_GELU_TANH: return "gelu";
  case TK_GEMM_ACT_GELU_ERF: return "gelu-erf";
  case TK_GEMM_ACT_SILU: return "silu";
  }
  return "unknown";
}

int tk_gemm_act_parse(const char *s, tk_gemm_act *a)
{
  for (int i = TK_GEMM_ACT_NONE; i <= TK_GEMM_ACT_SILU; ++i)
    if (!strcmp(s, tk_gemm_act_name((tk_gemm_act)i))) {
      *a = (tk_gemm_act)i;
      return 1;
    }
  return 0;
}

/* gfx950's fp8 MFMAs read OCP E4M3FN, gfx942's FNUZ (tk/target.h
 * TK_FP8_FNUZ, per device pass); the host learns the device's from its name */
int tk_gemm_fp8_encoding(tk_gemm_fp8_enc *enc)
{
  int dev = 0;
  hipDeviceProp_t prop;
  if (hipGetDevice(&dev) != hipSuccess || hipGetDeviceProperties(&prop, dev) != hipSuccess) return TK_GEMM_ERR_HIP;
  *enc = !strncmp(prop.gcnArchName, "gfx950", 6) ? TK_GEMM_FP8_OCP : TK_GEMM_FP8_FNUZ;
  return TK_GEMM_OK;
}

const char *tk_gemm_fp8_encoding_name(tk_gemm_fp8_enc enc) { return enc == TK_GEMM_FP8_OCP ? "ocp" : "fnuz"; }

const char *tk_gemm_kernel_name(tk_gemm_kernel k)
{
  switch (k) {
  case TK_GEMM_8WAVE: return "8wave";
  case TK_GEMM_4WAVE: return "4wave";
  case TK_GEMM_SIMPLE: return "simple";
  case TK_GEMM_MX: return "mx";
  case TK_GEMM_AUTO: return "auto";
  }
  return "unknown";
}

int tk_gemm_kernel_parse(const char *s, size_t len, tk_gemm_kernel *k)
{
  static const tk_gemm_kernel all[] = {TK_GEMM_8WAVE, TK_GEMM_4WAVE, TK_GEMM_SIMPLE, TK_GEMM_MX, TK_GEMM_AUTO};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
    const char *n = tk_gemm_kernel_name(all[i]);
    if (strlen(n) == len && !strncmp(s, n, len)) {
      *k = all[i];
      return 1;
    }
  }
  return 0;
}

const char *tk_gemm_unsupported(tk_gemm_kernel kernel, const tk_gemm_problem *p)
{
  if (kernel != TK_GEMM_MX && kernel != TK_GEMM_AUTO && tk_gemm_in_is_mx(p->in))
    return "MX inputs run on the mx kernel only (--kernel mx or auto)";
  switch (kernel) {
  case TK_GEMM_8WAVE: return p->in == TK_GEMM_IN_FP8 ? gemm_8wave_fp8_unsupported(p) : gemm_8wave_unsupported(p);
  case TK_GEMM_4WAVE:
    return p->in == TK_GEMM_IN_FP8 ? gemm_4wave_fp8_unsupported(p, gemm_on_gfx950()) : gemm_4wave_unsupported(p);
  case TK_GEMM_SIMPLE: return NULL;
  case TK_GEMM_MX: return gemm_mx_unsupported(p);
  case TK_GEMM_AUTO: return NULL; /* simple takes anything */
  }
  return "unknown kernel";
}

/* The rule the table falls back on (docs/gemm.md, "Kernel choice"): 8wave
 * 256x256 for grids of at least one 256x256 tile per two CUs; else the
 * 128x128-tile 4wave unless M or N is at most 64, where its tiles would be
 * mostly padding and the 64x64 "simple" kernel wastes less (also the
 * fallback for C beyond a buffer descriptor).  fp8: the fp8 8wave kernel by
 * the same grid rule, else simple (gfx942's 4wave takes bf16 only); on a gfx950
 * device the fp8 8wave kernel whenever it can run the problem, whatever the
 * grid: its MFMAs at twice gfx942's fp8 rate beat simple's f32 FMAs 4-16x
 * even at one tile or 16 rows (modeled MI355X: 1024^3 86.2 vs 8.2, 256^3
 * 1.92 vs 0.48, 16x4096x4096 8.48 vs 0.53 TFLOP/s). */
static tk_gemm_kernel choose_by_rule(const tk_gemm_problem *p)
{
  if (tk_gemm_in_is_mx(p->in)) return TK_GEMM_MX;
  if (p->in == TK_GEMM_IN_FP8) {
    const bool grid_ok = !strcmp(tk_gemm_heuristic_target(), "gfx950") ? gemm_8wave_wide(p) : gemm_8wave_preferred(p);
    return gemm_8wave_fp8_unsupported(p) == NULL && grid_ok ? TK_GEMM_8WAVE : TK_GEMM_SIMPLE;
  }
  if (gemm_8wave_unsupported(p) == NULL && gemm_8wave_preferred(p)) return TK_GEMM_8WAVE;
  if (p->m > 64 && p->n > 64 && gemm_4wave_unsupported(p) == NULL) return TK_GEMM_4WAVE;
  return TK_GEMM_SIMPLE;
}

/* AUTO: the nearest table row's kernel, tile, split and grid order when that
 * can run p efficiently (8wave needs 16-byte rows to use its main loop; nn
 * needs a tile 256 wide in N: the row's split with 128x256 or 256x256 then);
 * else the rule.  The order goes into cfg->grid_order only while that is
 * TK_GEMM_ORDER_AUTO (an explicit one wins). */
static void choose_auto(const tk_gemm_problem *p, tk_gemm_config *cfg)
{
  if (p->in != TK_GEMM_IN_BF16) { /* the table is from bf16 sweeps */
    cfg->kernel = choose_by_rule(p);
    if (cfg->kernel == TK_GEMM_8WAVE && p->in == TK_GEMM_IN_FP8) { /* fp8: the tile by the grid (gemm_8wave_fp8_tile) */
      const int64_t cus = gemm_device_cus(); /* unknown (0): 256x256 */
      const int gfx950 = gemm_on_gfx950();
      cfg->tile_m = cfg->tile_n = gemm_8wave_fp8_tile(p, gfx950, cus);
      /* gfx950: the 4wave fp8 kernel (64x64 or 128x128, deep pipeline,
       * gemm_4wave_fp8.h) while its 128x128 tiles need at most two rounds of
       * the CUs, else 8wave 256x256 (s46, modeled v10: 3072^3's 576 tiles
       * 4wave 1270.6, 8wave-256 1553.4; 4096x2048x2048's 512: 1599.3, 1258.5) */
      if (gfx950 && gemm_4wave_fp8_unsupported(p, gfx950) == NULL) {
        const int64_t t128 = ((p->n + W4F_BIG - 1) / W4F_BIG) * ((p->m + W4F_BIG - 1) / W4F_BIG) * p->batch;
        if (t128 <= 2 * cus) cfg->kernel = TK_GEMM_4WAVE, cfg->tile_m = cfg->tile_n = gemm_4wave_fp8_tile(p, cus);
        else cfg->tile_m = cfg->tile_n = W8F_TILE;
      }
    }
    return;
  }
  const gemm_heuristic_row *r = tk_gemm__nearest_row(p);
  if (r && tk_gemm__row_error(r)) r = NULL; /* a row with a bad field: the rule (the host test holds the tables valid) */
  if (r && r->kernel == TK_GEMM_8WAVE && gemm_8wave_wide(p)) {
    int32_t tm = r->tile_m, tn = r->tile_n, ks = r->k_step;
    if (p->layout == TK_GEMM_NN && !gemm_8wave_kernels(tm, tn, ks, 1)) tn = 256, ks = 64;
    if (!gemm_8wave_unsupported_tile(p, tm, tn, ks)) {
      cfg->kernel = TK_GEMM_8WAVE, cfg->tile_m = tm, cfg->tile_n = tn, cfg->split_k = r->split_k, cfg->k_step = ks;
      /* the row's order where its tile runs as swept (not an nn-widened one) */
      if (cfg->grid_order == TK_GEMM_ORDER_AUTO && p->grid_order == TK_GEMM_GRID_L2 && tn == r->tile_n && ks == r->k_step)
        cfg->grid_order = r->grid_order == TK_GEMM_GRID_ROW_MAJOR ? TK_GEMM_ORDER_ROW_MAJOR : TK_GEMM_ORDER_L2;
      return;
    }
  } else if (r && r->kernel == TK_GEMM_4WAVE && gemm_4wave_unsupported(p) == NULL) {
    cfg->kernel = TK_GEMM_4WAVE;
    return;
  } else if (r && r->kernel == TK_GEMM_SIMPLE) {
    cfg->kernel = TK_GEMM_SIMPLE;
    return;
  }
  cfg->kernel = choose_by_rule(p);
}

int tk_gemm_plan(const tk_gemm_problem *p, tk_gemm_config *cfg)
{
  if (tk_gemm_problem_error(p)) return TK_GEMM_ERR_PROBLEM;
  if (cfg->kernel < TK_GEMM_AUTO || cfg->kernel > TK_GEMM_MX) return TK_GEMM_ERR_KERNEL;
  if (cfg->grid_order < TK_GEMM_ORDER_AUTO || cfg->grid_order > TK_GEMM_ORDER_ROW_MAJOR) return TK_GEMM_ERR_UNSUPPORTED;
  if (cfg->kernel == TK_GEMM_AUTO) {
    const int32_t tm = cfg->tile_m, tn = cfg->tile_n, sk = cfg->split_k, ks = cfg->k_step;
    const int32_t go = cfg->grid_order;
    choose_auto(p, cfg);
    if (tm || tn || sk || ks) cfg->grid_order = go; /* an explicit config: the row's order is not its */
    /* explicit tile, split or K step: 8wave with them, the rest from the table
     * (a K step the explicit tile lacks falls back to 64) */
    if ((tm || tn || sk || ks) && cfg->kernel != TK_GEMM_8WAVE)
      cfg->kernel = TK_GEMM_8WAVE, cfg->tile_m = cfg->tile_n = 0, cfg->split_k = 0, cfg->k_step = 0;
    if (tm) cfg->tile_m = tm;
    if (tn) cfg->tile_n = tn;
    if (sk) cfg->split_k = sk;
    if (ks) cfg->k_step = ks;
    else if ((tm || tn) && !gemm_8wave_kernels(cfg->tile_m, cfg->tile_n, cfg->k_step, 0)) cfg->k_step = 64;
  }
  switch (cfg->kernel) {
  case TK_GEMM_8WAVE:
    if (p->in == TK_GEMM_IN_FP8) { /* gemm_8wave_fp8.h: 256x256 unless auto chose 128x128, no split */
      if (!cfg->tile_m) cfg->tile_m = W8F_TILE;
      if (!cfg->tile_n) cfg->tile_n = W8F_TILE;
      if (!cfg->split_k) cfg->split_k = 1;
      if (!cfg->k_step) cfg->k_step = 2 * W8F_KH;
      break;
    }
    if (!cfg->tile_m) cfg->tile_m = 256;
    if (!cfg->tile_n) cfg->tile_n = 256;
    if (!cfg->split_k) cfg->split_k = 1;
    if (!cfg->k_step) cfg->k_step = 64;
    if (cfg->split_k > 0 && (cfg->k_step == 64 || cfg->k_step == 128))
      cfg->split_k = (int32_t)gemm_8wave_splits(p, cfg->split_k, cfg->k_step);
    break;
  case TK_GEMM_MX: /* the 256x256 8wave body when the problem has whole K steps, else 128x128 */
    if (!cfg->tile_m && !cfg->tile_n && !cfg->k_step && gemm_8wave_mx_unsupported(p) == NULL)
      cfg->tile_m = W8M_TM, cfg->tile_n = W8M_TN, cfg->k_step = gemm_mx_big_kstep(p);
    if (!cfg->tile_m) cfg->tile_m = MX_TILE;
    if (!cfg->tile_n) cfg->tile_n = MX_TILE;
    if (!cfg->split_k) cfg->split_k = 1;
    if (!cfg->k_step) cfg->k_step = cfg->tile_m == W8M_TM && cfg->tile_n == W8M_TN ? gemm_mx_big_kstep(p) : MX_KS;
    break;
  case TK_GEMM_4WAVE:
    if (p->in == TK_GEMM_IN_FP8) { /* gemm_4wave_fp8.h: 64x64 or 128x128 by the grid, K step 128, no split */
      if (!cfg->tile_m && !cfg->tile_n) cfg->tile_m = cfg->tile_n = gemm_4wave_fp8_tile(p, gemm_device_cus());
      if (!cfg->tile_m) cfg->tile_m = cfg->tile_n;
      if (!cfg->tile_n) cfg->tile_n = cfg->tile_m;
      if (!cfg->split_k) cfg->split_k = 1;
      if (!cfg->k_step) cfg->k_step = W4F_KS;
      break;
    }
    if (!cfg->tile_m) cfg->tile_m = W4_TILE;
    if (!cfg->tile_n) cfg->tile_n = W4_TILE;
    if (!cfg->split_k) cfg->split_k = 1;
    if (!cfg->k_step) cfg->k_step = W4_KS;
    break;
  default:
    if (!cfg->tile_m) cfg->tile_m = 64;
    if (!cfg->tile_n) cfg->tile_n = 64;
    if (!cfg->split_k) cfg->split_k = 1;
    if (!cfg->k_step) cfg->k_step = 16;
    break;
  }
  /* stream-K: by default over the device's resident workgroups when the
   * tiles leave the last round part-empty (gemm_8wave_sk_plan) */
  if (cfg->stream_k == TK_GEMM_SK_AUTO || cfg->stream_k == TK_GEMM_SK_ON) {
    bool can = cfg->kernel == TK_GEMM_8WAVE && p->in == TK_GEMM_IN_BF16 && cfg->split_k == 1 && p->batch == 1;
#ifdef TK_GEMM_DEMO_ONLY
    can = false; /* built without stream-K (gemm_demo.h) */
#endif
    const int32_t g = can ? gemm_8wave_sk_groups(cfg->tile_m, cfg->tile_n, cfg->k_step) : 0;
    cfg->stream_k = g > TK_GEMM_SK_ON && gemm_8wave_sk_plan(p, cfg->tile_m, cfg->tile_n, cfg->k_step, g).groups ? g : TK_GEMM_SK_OFF;
  } else if (cfg->stream_k > TK_GEMM_SK_ON && cfg->kernel == TK_GEMM_8WAVE && p->in == TK_GEMM_IN_BF16 &&
             cfg->split_k == 1 && p->batch == 1 &&
             !gemm_8wave_sk_plan(p, cfg->tile_m, cfg->tile_n, cfg->k_step, cfg->stream_k).groups)
    cfg->stream_k = TK_GEMM_SK_OFF; /* a count the problem has no use for (whole rounds, too little K) */
  if (cfg->grid_order == TK_GEMM_ORDER_AUTO)
    cfg->grid_order = p->grid_order == TK_GEMM_GRID_ROW_MAJOR ? TK_GEMM_ORDER_ROW_MAJOR : TK_GEMM_ORDER_L2;
  return tk_gemm_config_unsupported(p, cfg) ? TK_GEMM_ERR_UNSUPPORTED : TK_GEMM_OK;
}

/* the stream-K decomposition of a planned config (groups 0: none) */
static gemm_sk config_sk(const tk_gemm_problem *p, const tk_gemm_config *cfg)
{
  const gemm_sk none = {};
  if (cfg->kernel != TK_GEMM_8WAVE || cfg->stream_k <= TK_GEMM_SK_ON) return none;
  return gemm_8wave_sk_plan(p, cfg->tile_m, cfg->tile_n, cfg->k_step, cfg->stream_k);
}

const char *tk_gemm_config_not_built(const tk_gemm_problem *p, const tk_gemm_config *cfg)
{
#ifdef TK_GEMM_DEMO_ONLY
  if (cfg->kernel != TK_GEMM_8WAVE || p->in != TK_GEMM_IN_BF16 || p->layout != TK_GEMM_NT || cfg->tile_n != 256 ||
      (cfg->tile_m != 256 && cfg->tile_m != 224) || cfg->k_step != 64 || cfg->stream_k > TK_GEMM_SK_ON)
    return GEMM_DEMO_WHY;
#endif
  (void)p, (void)cfg;
  return NULL;
}

const char *tk_gemm_config_unsupported(const tk_gemm_problem *p, const tk_gemm_config *cfg)
{
  if (cfg->grid_order < TK_GEMM_ORDER_AUTO || cfg->grid_order > TK_GEMM_ORDER_ROW_MAJOR)
    return "grid_order must be TK_GEMM_ORDER_AUTO (0), _L2 (1) or _ROW_MAJOR (2)";
  if (cfg->kernel < TK_GEMM_8WAVE || cfg->kernel > TK_GEMM_MX) return "unknown kernel (not planned?)";
  const char *not_built = tk_gemm_config_not_built(p, cfg);
  if (not_built) return not_built;
  if (tk_gemm_in_is_mx(p->in) != (cfg->kernel == TK_GEMM_MX))
    return cfg->kernel == TK_GEMM_MX ? "the mx kernel takes MX inputs only (--in mxfp8|mxfp8-e5m2|mxfp4)"
                                     : "MX inputs run on the mx kernel only (--kernel mx or auto)";
  if (cfg->kernel == TK_GEMM_MX) {
    const int big = cfg->tile_m == W8M_TM && cfg->tile_n == W8M_TN && cfg->k_step == gemm_mx_big_kstep(p);
    const int small = cfg->tile_m == MX_TILE && cfg->tile_n == MX_TILE && cfg->k_step == MX_KS;
    if (!(big || small) || cfg->split_k != 1 || cfg->stream_k > TK_GEMM_SK_ON)
      return "the mx kernel has two tiles, 256x256 (K step 128, mxfp4 256: the 8wave body) and 128x128 (K step 64), "
             "no split-K or stream-K";
    const char *why = big ? gemm_8wave_mx_unsupported(p) : gemm_mx_unsupported(p);
    return why ? why : mx_device_unsupported();
  }
  if (cfg->split_k < 1 || cfg->split_k > 65535) return "split_k must be 1..65535";
  if (cfg->stream_k < 0) return "stream_k must be 0/1 (off), 2 (on, planned) or a workgroup count above 2";
  if (cfg->stream_k > TK_GEMM_SK_ON) {
    if (cfg->kernel != TK_GEMM_8WAVE || p->in != TK_GEMM_IN_BF16) return "stream-K is an 8wave feature with bf16 inputs";
    if (cfg->split_k != 1) return "stream-K and split-K exclude each other";
    if (p->batch != 1) return "stream-K needs batch 1";
  }
  if (cfg->kernel == TK_GEMM_8WAVE && p->in == TK_GEMM_IN_FP8) {
    if ((cfg->tile_m != W8F_TILE && cfg->tile_m != W8F_SMALL) || cfg->tile_n != cfg->tile_m || cfg->split_k != 1 ||
        cfg->k_step != 2 * W8F_KH)
      return "the fp8 8wave kernel has two tiles, 256x256 and 128x128, K step 128 and no split-K";
    return gemm_8wave_fp8_unsupported(p);
  }
  if (cfg->kernel == TK_GEMM_8WAVE) {
    if (cfg->split_k > 1 && p->m * p->n * 4 > TK_GL_MAX_BYTES)
      return "8wave split-K needs M*N*4 bytes (one partial) below 4 GiB";
    if (cfg->split_k > 1 && cfg->tile_m == 224)
      return "the 224x256 tile runs without split-K (use 256x256 or a smaller tile)";
    return gemm_8wave_unsupported_tile(p, cfg->tile_m, cfg->tile_n, cfg->k_step);
  }
  if (cfg->split_k != 1) return "split-K is an 8wave feature (--split-k needs --kernel 8wave or auto)";
  if (cfg->kernel == TK_GEMM_4WAVE && p->in == TK_GEMM_IN_FP8) {
    if ((cfg->tile_m != W4F_SMALL && cfg->tile_m != W4F_BIG) || cfg->tile_n != cfg->tile_m || cfg->k_step != W4F_KS)
      return "the fp8 4wave kernel has two tiles, 64x64 and 128x128, K step 128 and no split-K";
    return gemm_4wave_fp8_unsupported(p, gemm_on_gfx950());
  }
  if (cfg->kernel == TK_GEMM_4WAVE) {
    if (cfg->tile_m != W4_TILE || cfg->tile_n != W4_TILE || cfg->k_step != W4_KS) return "4wave's tile is 128x128, its K step 32";
    return gemm_4wave_unsupported(p);
  }
  if (cfg->tile_m != 64 || cfg->tile_n != 64 || cfg->k_step != 16) return "simple's tile is 64x64, its K step 16";
  return NULL;
}

size_t tk_gemm_workspace_bytes(const tk_gemm_problem *p, const tk_gemm_config *cfg)
{
  if (tk_gemm_problem_error(p) || cfg->kernel != TK_GEMM_8WAVE) return 0;
  const gemm_sk sk = config_sk(p, cfg);
  return (size_t)gemm_8wave_ws_bytes(p, cfg->tile_m, cfg->tile_n, cfg->split_k, &sk);
}

tk_gemm_kernel tk_gemm_choose(const tk_gemm_problem *p, tk_gemm_kernel requested)
{
  if (requested != TK_GEMM_AUTO) return requested;
  tk_gemm_config cfg = {TK_GEMM_AUTO, 0, 0, 0, 0, 0, TK_GEMM_ORDER_AUTO};
  if (tk_gemm_problem_error(p)) return choose_by_rule(p);
  choose_auto(p, &cfg);
  return (tk_gemm_kernel)cfg.kernel;
}

int tk_gemm_run(const tk_gemm_problem *p, const tk_gemm_config *cfg, const void *a, const void *b, void *c,
                void *ws, size_t ws_bytes, hipStream_t stream)
{
  if (tk_gemm_problem_error(p) || (p->bias != TK_GEMM_BIAS_NONE && !p->bias_ptr)) return TK_GEMM_ERR_PROBLEM;
  if (cfg->kernel < TK_GEMM_8WAVE || cfg->kernel > TK_GEMM_MX) return TK_GEMM_ERR_KERNEL;
  if (tk_gemm_config_unsupported(p, cfg)) return TK_GEMM_ERR_UNSUPPORTED;
  if (tk_gemm_in_is_mx(p->in) && (!p->mx_scale_a || !p->mx_scale_b)) return TK_GEMM_ERR_PROBLEM;
  tk_gemm_problem q = *p; /* the kernels read the planned order from the problem they are passed */
  q.grid_order = tk_gemm__launch_order(p, cfg);
  p = &q;
  hipError_t e = hipErrorInvalidValue;
  const uint16_t *a16 = (const uint16_t *)a, *b16 = (const uint16_t *)b;
  switch (cfg->kernel) {
  case TK_GEMM_8WAVE: {
    if (p->in == TK_GEMM_IN_FP8) {
      e = gemm_8wave_fp8_launch(p, cfg->tile_m, (const uint8_t *)a, (const uint8_t *)b, c, stream);
      break;
    }
    const size_t need = tk_gemm_workspace_bytes(p, cfg);
    void *own = NULL;
    if (need && !ws) {
      if (hipMalloc(&own, need) != hipSuccess) return TK_GEMM_ERR_HIP;
      if (hipMemsetAsync(own, 0, need, stream) != hipSuccess) {
        (void)hipFree(own);
        return TK_GEMM_ERR_HIP;
      }
      ws = own, ws_bytes = need;
    }
    if (ws_bytes < need) return TK_GEMM_ERR_UNSUPPORTED;
    const gemm_sk sk = config_sk(p, cfg);
    e = gemm_8wave_launch(p, cfg->tile_m, cfg->tile_n, cfg->k_step, cfg->split_k, &sk, (float *)ws, a16, b16, c,
                          stream);
    if (own) {
      if (e == hipSuccess) e = hipStreamSynchronize(stream);
      (void)hipFree(own);
    }
    break;
  }
  case TK_GEMM_4WAVE:
    e = p->in == TK_GEMM_IN_FP8 ? gemm_4wave_fp8_launch(p, cfg->tile_m, (const uint8_t *)a, (const uint8_t *)b, c, stream)
                                : gemm_4wave_launch(p, a16, b16, c, stream);
    break;
  case TK_GEMM_MX:
    e = cfg->tile_n == W8M_TN && cfg->tile_m == W8M_TM ? gemm_8wave_mx_launch(p, a, b, c, stream) : gemm_mx_launch(p, a, b, c, stream);
    break;
  default: e = gemm_simple_launch(p, a, b, c, stream); break;
  }
  return e == hipSuccess ? TK_GEMM_OK : TK_GEMM_ERR_HIP;
}

int tk_gemm(const tk_gemm_problem *p, tk_gemm_kernel kernel, const void *a, const void *b, void *c,
            hipStream_t stream)
{
  if (tk_gemm_problem_error(p) || (p->bias != TK_GEMM_BIAS_NONE && !p->bias_ptr)) return TK_GEMM_ERR_PROBLEM;
  if (kernel < TK_GEMM_AUTO || kernel > TK_GEMM_MX) return TK_GEMM_ERR_KERNEL;
  tk_gemm_config cfg = {kernel, 0, 0, 0, 0, 0, TK_GEMM_ORDER_AUTO};
  const int e = tk_gemm_plan(p, &cfg);
  if (e != TK_GEMM_OK) return e;
  return tk_gemm_run(p, &cfg, a, b, c, NULL, 0, stream);
}

const char *tk_gemm_strerror(int err)
{
  switch (err) {
  case TK_GEMM_OK: return "ok";
  case TK_GEMM_ERR_PROBLEM: return "invalid problem (tk_gemm_problem_error says why)";
  case TK_GEMM_ERR_UNSUPPORTED: return "the kernel cannot take this problem (tk_gemm_unsupported says why)";
  case TK_GEMM_ERR_KERNEL: return "unknown kernel";
  case TK_GEMM_ERR_HIP: return "a HIP call or kernel launch failed";
  case TK_GEMM_ERR_MEMORY: return "out of host memory";
  }
  return "unknown error";
}

int tk_gemm_reference_gpu(const tk_gemm_problem *p, const void *a, const void *b, const void *c0,
                          double *ref, double *mag, hipStream_t stream)
{
  if (tk_gemm_problem_error(p)) return TK_GEMM_ERR_PROBLEM;
  return gemm_reference_launch(p, a, b, c0, ref, mag, stream) == hipSuccess ? TK_GEMM_OK : TK_GEMM_ERR_HIP;
}

/* element i of C (bf16 or f32) as a double */
static double c_elem(const tk_gemm_problem *p, const void *c, int64_t i)
{
  if (p->out == TK_GEMM_OUT_BF16) return tk_bf16_to_f32(((const uint16_t *)c)[i]);
  return ((const float *)c)[i];
}

/* MX: ref and mag of batch z from host copies of A, B and both scale
 * tensors (gemm_mx_ref.h decodes the OCP formats on its own) */
static int reference_mx(const tk_gemm_problem *p, int64_t z, const void *ha, const void *hb, const uint8_t *hsa,
                        const uint8_t *hsb, double *rz, double *mz)
{
  const int64_t kb = (p->k + 31) / 32;
  const int fmt = gemm_mx_fmt(p);
  return gemm_mx_ref_matmul(fmt, p->m, p->n, p->k, (const uint8_t *)ha + tk_gemm_in_bytes(p, z * tk_gemm_a_stride(p)),
                            p->lda, hsa + z * p->m * kb, (const uint8_t *)hb + tk_gemm_in_bytes(p, z * tk_gemm_b_stride(p)),
                            p->ldb, hsb + z * p->n * kb, rz, mz);
}

/* ref and mag (batch * M * N, packed) on the CPU from host copies (MX: and
 * the scale tensors hsa, hsb) */
static int reference_cpu(const tk_gemm_problem *p, const void *ha, const void *hb, const void *hc0,
                         const uint8_t *hsa, const uint8_t *hsb, double *ref, double *mag)
{
  const int64_t mn = p->m * p->n;
  const int64_t b_ks = p->layout == TK_GEMM_NT ? 1 : p->ldb, b_ns = p->layout == TK_GEMM_NT ? p->ldb : 1;
  const double alpha = (double)p->alpha * p->scale_a * p->scale_b;
  tk_gemm_fp8_enc enc = TK_GEMM_FP8_FNUZ;
  if (p->in == TK_GEMM_IN_FP8 && tk_gemm_fp8_encoding(&enc) != TK_GEMM_OK) return TK_GEMM_ERR_HIP;
  for (int64_t z = 0; z < p->batch; ++z) {
    double *rz = ref + z * mn, *mz = mag + z * mn;
    const int64_t ao = z * tk_gemm_a_stride(p), bo = z * tk_gemm_b_stride(p);
    const int e = tk_gemm_in_is_mx(p->in) ? reference_mx(p, z, ha, hb, hsa, hsb, rz, mz)
                  : p->in == TK_GEMM_IN_FP8
                      ? tk_ref_matmul_fp8e4(p->m, p->n, p->k, (const uint8_t *)ha + ao, p->lda, 1,
                                            (const uint8_t *)hb + bo, b_ks, b_ns, rz, mz, enc == TK_GEMM_FP8_OCP)
                      : tk_ref_matmul_bf16(p->m, p->n, p->k, (const uint16_t *)ha + ao, p->lda, 1,
                                           (const uint16_t *)hb + bo, b_ks, b_ns, rz, mz);
    if (e != 0) return TK_GEMM_ERR_MEMORY;
    for (int64_t m = 0; m < p->m; ++m)
      for (int64_t n = 0; n < p->n; ++n) {
        const double cold = p->beta != 0.0f ? c_elem(p, hc0, z * tk_gemm_c_stride(p) + m * p->ldc + n) : 0.0;
        const int64_t o = m * p->n + n;
        rz[o] = alpha * rz[o] + (double)p->beta * cold;
        mz[o] = fabs(alpha) * mz[o] + fabs((double)p->beta * cold);
      }
  }
  return TK_GEMM_OK;
}

/* ref and mag on the GPU (tk_gemm_reference_gpu) */
static int reference_gpu(const tk_gemm_problem *p, const void *a_dev, const void *b_dev, const void *hc0,
                         double *ref, double *mag)
{
  const size_t total = (size_t)(p->m * p->n * p->batch), c_bytes = (size_t)(p->batch * tk_gemm_c_stride(p) * tk_gemm_c_elem_bytes(p));
  double *dref = NULL, *dmag = NULL;
  void *dc0 = NULL;
  int rc = TK_GEMM_ERR_HIP;
  if (hipMalloc((void **)&dref, total * 8) == hipSuccess && hipMalloc((void **)&dmag, total * 8) == hipSuccess &&
      hipMalloc(&dc0, c_bytes) == hipSuccess && hipMemcpy(dc0, hc0, c_bytes, hipMemcpyHostToDevice) == hipSuccess &&
      tk_gemm_reference_gpu(p, a_dev, b_dev, dc0, dref, dmag, 0) == TK_GEMM_OK &&
      hipMemcpy(ref, dref, total * 8, hipMemcpyDeviceToHost) == hipSuccess &&
      hipMemcpy(mag, dmag, total * 8, hipMemcpyDeviceToHost) == hipSuccess)
    rc = TK_GEMM_OK;
  (void)hipFree(dref);
  (void)hipFree(dmag);
  (void)hipFree(dc0);
  return rc;
}

/* the activations in double (the independent reference of tk/epilogue.h;
 * ReLU of a NaN is 0, as there) */
static double act_ref(int act, double x)
{
  switch (act) {
  case TK_GEMM_ACT_RELU: return x > 0 ? x : 0;
  case TK_GEMM_ACT_GELU_TANH: return 0.5 * x * (1.0 + tanh(sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  case TK_GEMM_ACT_GELU_ERF: return 0.5 * x * erfc(-x / sqrt(2.0));
  case TK_GEMM_ACT_SILU: return x / (1.0 + exp(-x));
  }
  return x;
}

/* Why this bound: a bf16 x bf16 (or fp8 x fp8) product is exact in f32 (8 + 8
 * or 4 + 4 significand bits), so an f32 sum in any order errs by at most
 * K * 2^-24 * sum |a*b|; the alpha * scales product, the beta and bias adds
 * round at most 4 more times relative to mag (4 * 2^-24 * mag), the factor 2
 * is slack for the order.  An activation multiplies that by at most its
 * slope (L = 1.25 >= max |act'|: GELU 1.13, SiLU 1.10, ReLU 1) and adds its
 * own f32 evaluation error, at most Ca * 2^-24 * |pre| (Ca = 32 for GELU and
 * SiLU: v_exp_f32 / v_rcp_f32 1 ULP each, erf's 1.5e-7 absolute; 0 for ReLU);
 * rounding to bf16 adds half an ulp (2^-8 relative). */
int tk_gemm_check(const tk_gemm_problem *p, const void *ha, const void *hb, const void *hc0, const void *a_dev,
                  const void *b_dev, const void *c_dev, tk_gemm_check_result *r)
{
  if (tk_gemm_problem_error(p) || (p->bias != TK_GEMM_BIAS_NONE && !p->bias_ptr)) return TK_GEMM_ERR_PROBLEM;
  const int64_t mn = p->m * p->n, total = mn * p->batch;
  const size_t c_bytes = (size_t)(p->batch * tk_gemm_c_stride(p) * tk_gemm_c_elem_bytes(p));
  const size_t bias_bytes = (size_t)(p->bias != TK_GEMM_BIAS_NONE ? p->bias_len * tk_gemm_bias_elem_bytes(p) : 0);
  double *ref = (double *)malloc((size_t)total * sizeof(double));
  double *mag = (double *)malloc((size_t)total * sizeof(double));
  void *hc = malloc(c_bytes);
  void *hbias = malloc(bias_bytes ? bias_bytes : 1);
  const int mx = tk_gemm_in_is_mx(p->in);
  uint8_t *hsa = (uint8_t *)malloc(mx ? (size_t)p->mx_scale_a_len : 1), *hsb = (uint8_t *)malloc(mx ? (size_t)p->mx_scale_b_len : 1);
  int rc = TK_GEMM_ERR_MEMORY;
  if (!ref || !mag || !hc || !hbias || !hsa || !hsb) goto out;
  if (mx && (!p->mx_scale_a || !p->mx_scale_b)) {
    rc = TK_GEMM_ERR_PROBLEM;
    goto out;
  }
  if (mx && (hipMemcpy(hsa, p->mx_scale_a, (size_t)p->mx_scale_a_len, hipMemcpyDeviceToHost) != hipSuccess ||
             hipMemcpy(hsb, p->mx_scale_b, (size_t)p->mx_scale_b_len, hipMemcpyDeviceToHost) != hipSuccess)) {
    rc = TK_GEMM_ERR_HIP;
    goto out;
  }
  /* MX: always the CPU (the GPU reference does not decode MX) */
  r->gpu_reference = !mx && (double)p->m * p->n * p->k * p->batch > (double)(1 << 28);
  rc = r->gpu_reference ? reference_gpu(p, a_dev, b_dev, hc0, ref, mag)
                        : reference_cpu(p, ha, hb, hc0, hsa, hsb, ref, mag);
  if (rc != TK_GEMM_OK) goto out;
  if (hipMemcpy(hc, c_dev, c_bytes, hipMemcpyDeviceToHost) != hipSuccess ||
      (bias_bytes && hipMemcpy(hbias, p->bias_ptr, bias_bytes, hipMemcpyDeviceToHost) != hipSuccess)) {
    rc = TK_GEMM_ERR_HIP;
    goto out;
  }
  {
    tk_cmp cmp;
    tk_cmp_init(&cmp);
    const double eps = ldexp(1.0, -24), out_rel = p->out == TK_GEMM_OUT_BF16 ? ldexp(1.0, -8) : 0.0;
    const double slope = p->act == TK_GEMM_ACT_NONE ? 1.0 : 1.25;
    const double ca = p->act == TK_GEMM_ACT_NONE || p->act == TK_GEMM_ACT_RELU ? 0.0 : 32.0;
    for (int64_t z = 0; z < p->batch; ++z)
      for (int64_t m = 0; m < p->m; ++m)
        for (int64_t n = 0; n < p->n; ++n) {
          const int64_t o = z * mn + m * p->n + n;
          double bias = 0.0;
          if (p->bias != TK_GEMM_BIAS_NONE) {
            const int64_t i = p->bias == TK_GEMM_BIAS_ROW ? m : n;
            bias = p->bias_type == TK_GEMM_BIAS_BF16 ? tk_bf16_to_f32(((const uint16_t *)hbias)[i])
                                                     : ((const float *)hbias)[i];
          }
          const double pre = ref[o] + bias, mg = mag[o] + fabs(bias), rv = act_ref(p->act, pre);
          const double got = c_elem(p, hc, z * tk_gemm_c_stride(p) + m * p->ldc + n);
          if (isnan(rv)) { /* a NaN MX scale (0xff) makes its dot products NaN (OCP MX spec 6.1) */
            tk_cmp_add(&cmp, isnan(got) ? 0.0 : got, isnan(got) ? 0.0 : INFINITY, 1.0);
            continue;
          }
          if (isnan(pre)) { /* ... which ReLU maps to 0 (x > 0 ? x : 0, tk/epilogue.h, every kernel): exactly 0 */
            tk_cmp_add(&cmp, got, rv, ldexp(1.0, -126));
            continue;
          }
          const double bound = slope * ((2.0 * (double)p->k + 4.0) * eps * mg + eps * fabs(pre)) +
                               ca * eps * fabs(pre) + out_rel * fabs(rv) + ldexp(1.0, -126);
          tk_cmp_add(&cmp, got, rv, bound);
        }
    r->max_abs = cmp.max_abs, r->max_rel = cmp.max_rel, r->worst_ratio = cmp.worst_ratio, r->nbad = cmp.nbad;
  }
out:
  free(ref);
  free(mag);
  free(hc);
  free(hbias);
  free(hsa);
  free(hsb);
  return rc;
}

} /* extern "C" */
