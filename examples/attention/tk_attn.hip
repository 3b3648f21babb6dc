/* tk_attn.hip: libtk_attn, the host API of tk_attn.h over the attention
 * kernels (attn_fwd.h, attn_bwd.h): problem validation, tensor descriptors,
 * launches.  The CPU reference and checks are in attn_ref.c.  No inline asm
 * and no compiler builtins in examples/ (tests/gemm/no_asm.sh). */
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tk_attn.h"
#include "attn_fwd.h"
#include "attn_fwd_cdna4.h"
#include "attn_bwd.h"

extern "C" {

void tk_attn_problem_init(tk_attn_problem *p, int64_t b, int64_t hq, int64_t hkv, int64_t sq, int64_t skv, int64_t d,
                          int causal)
{
  memset(p, 0, sizeof *p);
  p->b = b, p->hq = hq, p->hkv = hkv, p->sq = sq, p->skv = skv, p->d = d;
  p->causal = causal ? 1 : 0;
  p->scale = d > 0 ? (float)(1.0 / sqrt((double)d)) : 1.0f;
  for (int t = 0; t < 4; ++t) {
    const int64_t h = (t == TK_ATTN_K || t == TK_ATTN_V) ? hkv : hq, s = (t == TK_ATTN_K || t == TK_ATTN_V) ? skv : sq;
    p->str[t][2] = d;
    p->str[t][1] = h * d;
    p->str[t][0] = s * h * d;
  }
}

static int64_t rows_of(const tk_attn_problem *p, int t) { return (t == TK_ATTN_K || t == TK_ATTN_V) ? p->skv : p->sq; }
static int64_t heads_of(const tk_attn_problem *p, int t) { return (t == TK_ATTN_K || t == TK_ATTN_V) ? p->hkv : p->hq; }

int64_t tk_attn_elems(const tk_attn_problem *p, tk_attn_tensor t)
{
  return (p->b - 1) * p->str[t][0] + (rows_of(p, t) - 1) * p->str[t][1] + (heads_of(p, t) - 1) * p->str[t][2] + p->d;
}
int64_t tk_attn_lse_elems(const tk_attn_problem *p) { return p->b * p->hq * p->sq; }
int64_t tk_attn_offset(const tk_attn_problem *p, tk_attn_tensor t, int64_t b, int64_t s, int64_t h)
{
  return b * p->str[t][0] + s * p->str[t][1] + h * p->str[t][2];
}

/* Distinct (b, s, h, e) never share an address: with the dimensions of
 * extent > 1 sorted by stride, each stride must exceed the span of the
 * smaller ones (the head dim, stride 1, spans d). */
static int strides_overlap(const int64_t dims[3], const int64_t str[3], int64_t d)
{
  int idx[3] = {0, 1, 2};
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (str[idx[j]] < str[idx[i]]) { const int t = idx[i]; idx[i] = idx[j], idx[j] = t; }
  int64_t span = d;
  for (int i = 0; i < 3; ++i) {
    const int a = idx[i];
    if (dims[a] == 1) continue;
    if (str[a] < span) return 1;
    span = str[a] * (dims[a] - 1) + span;
  }
  return 0;
}

const char *tk_attn_problem_error(const tk_attn_problem *p)
{
  static const char *names[4] = {"Q", "K", "V", "O"};
  static char msg[4][160];
  if (!p) return "no problem given";
  if (p->d != 64 && p->d != 128) return "head dim must be 64 or 128";
  if (p->b < 1) return "batch must be >= 1";
  if (p->hq < 1 || p->hkv < 1) return "head counts must be >= 1";
  if (p->sq < 1 || p->skv < 1) return "sequence lengths must be >= 1 (zero-length attention is not defined)";
  if (p->hq % p->hkv) return "Hq must be a multiple of Hkv (query heads share key/value heads in equal groups)";
  if (p->sq > (1 << 24) || p->skv > (1 << 24) || p->b > 65535 || p->hq > 65535)
    return "size too large (limits: sequence 16777216, batch and heads 65535)";
  if (!(p->scale > 0) || !isfinite(p->scale)) return "scale must be a finite positive number";
  for (int t = 0; t < 4; ++t) {
    const int64_t dims[3] = {p->b, rows_of(p, t), heads_of(p, t)};
    for (int i = 0; i < 3; ++i)
      if (p->str[t][i] < 1 || p->str[t][i] > ((int64_t)1 << 40)) {
        snprintf(msg[t], sizeof msg[t], "%s strides must be in 1..2^40 elements", names[t]);
        return msg[t];
      }
    if (strides_overlap(dims, p->str[t], p->d)) {
      snprintf(msg[t], sizeof msg[t], "%s strides overlap: distinct elements would share an address", names[t]);
      return msg[t];
    }
    for (int i = 0; i < 3; ++i)
      if (p->str[t][i] % 8) {
        snprintf(msg[t], sizeof msg[t], "%s strides must be multiples of 8 elements (16-byte rows for the group loads)",
                 names[t]);
        return msg[t];
      }
    if (tk_attn_elems(p, (tk_attn_tensor)t) * 2 > TK_GL_MAX_BYTES) {
      snprintf(msg[t], sizeof msg[t], "%s spans more than 4 GiB - 16 bytes (a buffer descriptor's range)", names[t]);
      return msg[t];
    }
    /* K and V go through matrix-bounded loads (tk/loads.h): their offsets reach
     * TK_MAT_ROWS_PAST rows past a (batch, head) matrix */
    tk_gl g;
    g.elem_bytes = 2;
    g.dims[2] = rows_of(p, t), g.dims[3] = p->d, g.strides[2] = p->str[t][1];
    if (tk_gl_mat_ok(&g) != TK_OK) {
      snprintf(msg[t], sizeof msg[t], "%s: a (batch, head) matrix reaches within %d rows of 4 GiB (matrix-bounded loads)",
               names[t], TK_MAT_ROWS_PAST);
      return msg[t];
    }
  }
  return NULL;
}

/* tk_gl over tensor t: dims (B, H, S, D), strides (batch, head, seq, 1);
 * filled directly because tk_gl_make wants strides nested outermost-first
 * and BSHD's head stride is inside the sequence stride */
static tk_gl tensor_gl(const tk_attn_problem *p, int t, const void *ptr)
{
  tk_gl g;
  g.ptr = (void *)ptr;
  g.elem_bytes = 2;
  g.ndim = 4;
  g.dims[0] = p->b, g.dims[1] = heads_of(p, t), g.dims[2] = rows_of(p, t), g.dims[3] = p->d;
  g.strides[0] = p->str[t][0], g.strides[1] = p->str[t][2], g.strides[2] = p->str[t][1], g.strides[3] = 1;
  return g;
}

static int pointers_ok(const void *a, const void *b, const void *c, const void *d)
{
  return a && b && c && d && ((uintptr_t)a | (uintptr_t)b | (uintptr_t)c | (uintptr_t)d) % 16 == 0;
}

/* the forward's tail-split plan for p on the current device (attn_fwd_plan) */
static int fwd_plan(const tk_attn_problem *p, int32_t *ntail)
{
  int dev = 0, cus = 0;
  *ntail = 0;
  if (attn_fwd_cdna4_device()) return 1; /* the gfx950 forward runs every item whole */
  if (hipGetDevice(&dev) != hipSuccess || hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess)
    return 1;
  return attn_fwd_plan((p->sq + AF_BQ - 1) / AF_BQ, p->hq, p->b, p->skv, (int)p->d, p->causal, cus, ntail);
}

size_t tk_attn_fwd_workspace_bytes(const tk_attn_problem *p)
{
  if (tk_attn_problem_error(p)) return 0;
  int32_t ntail;
  const int s = fwd_plan(p, &ntail);
  return attn_fwd_ws_bytes(ntail, s, (int)p->d);
}

int tk_attn_fwd_ws(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v, uint16_t *o,
                   float *lse, void *workspace, size_t workspace_bytes, hipStream_t stream)
{
  if (tk_attn_problem_error(p)) return TK_ATTN_ERR_PROBLEM;
  if (!pointers_ok(q, k, v, o) || !lse) return TK_ATTN_ERR_ARG;
  attn_fwd_args a;
  memset(&a, 0, sizeof a);
  a.q = tensor_gl(p, TK_ATTN_Q, q), a.k = tensor_gl(p, TK_ATTN_K, k), a.v = tensor_gl(p, TK_ATTN_V, v);
  a.o = tensor_gl(p, TK_ATTN_O, o);
  a.lse = lse;
  a.sq = (int32_t)p->sq, a.skv = (int32_t)p->skv, a.hq = (int32_t)p->hq, a.group = (int32_t)(p->hq / p->hkv);
  a.causal = p->causal;
  a.scale_log2 = p->scale * AF_LOG2E;
  a.nsplit = 1; /* a.nqb 0: one launch, every item whole */
  if (workspace) {
    int32_t ntail;
    const int s = fwd_plan(p, &ntail);
    const size_t need = attn_fwd_ws_bytes(ntail, s, (int)p->d);
    if (need && (workspace_bytes < need || (uintptr_t)workspace % 16)) return TK_ATTN_ERR_ARG;
    if (need) {
      a.nqb = (int32_t)((p->sq + AF_BQ - 1) / AF_BQ);
      a.ntail = ntail, a.nsplit = s;
      const int64_t parts = (int64_t)ntail * s;
      /* [part][d][128 queries] f32, then the parts' 128 LSEs each */
      const int64_t dims[3] = {parts, p->d, AF_BQ};
      if (tk_gl_make(&a.ws_o, workspace, 4, 3, dims, NULL) != TK_OK) return TK_ATTN_ERR_ARG;
      a.ws_lse = (float *)workspace + parts * p->d * AF_BQ;
    }
  }
  /* gfx950 runs its own forward (attn_fwd_cdna4.h: double-rate MFMAs, transposing LDS reads); it has no
   * tail split, so fwd_plan plans none there and a.nqb stays 0 */
  const hipError_t e = attn_fwd_cdna4_device() && a.nqb == 0 ? attn_fwd_cdna4_launch(&a, (int)p->d, (int)p->b, stream)
                                                             : attn_fwd_launch(&a, (int)p->d, (int)p->b, stream);
  return e == hipSuccess ? TK_ATTN_OK : TK_ATTN_ERR_HIP;
}

int tk_attn_fwd(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v, uint16_t *o,
                float *lse, hipStream_t stream)
{
  return tk_attn_fwd_ws(p, q, k, v, o, lse, NULL, 0, stream);
}

/* the fused dQ's f32 sums ([b][hq][sq][d]) after the deltas; 0 when it does not apply (they
 * would pass one buffer descriptor's 4 GiB: the deterministic kernels then run) */
/* the measurement hooks' values: TK_ATTN_BWD_DQ_PARTS a whole number 1 .. the problem's limit of
 * partials (the choice without a device: at most 8 and 4 GiB; any value is wrong where there are
 * none), TK_ATTN_BWD_DQ_ORDERED 0 or 1, TK_ATTN_BWD_DQ_ROT 0 or 1 (the ordered dQ's rotated order off / on);
 * 1 when one is set to anything else (the calls then fail with TK_ATTN_ERR_ENV instead of ignoring it) */
static int64_t bwd_dqa_batch_bytes(const tk_attn_problem *p) { return p->hq * p->sq * p->d * 4; } /* one batch's f32 dQ sums */
/* TK_ATTN_BWD_DQ_BATCHES (bwd_dqa_batches) set to anything but a whole number k >= 1 whose k batches'
 * dQ sums fit one buffer descriptor: 1 (checked in both modes) */
static int bwd_batches_bad(const tk_attn_problem *p)
{
  const char *fb = getenv("TK_ATTN_BWD_DQ_BATCHES");
  if (!fb || !*fb) return 0;
  char *end = NULL;
  const long k = strtol(fb, &end, 10);
  return *end != '\0' || k < 1 || k > TK_GL_MAX_BYTES / bwd_dqa_batch_bytes(p);
}
static int bwd_env_bad(const tk_attn_problem *p)
{
  const char *fp = getenv("TK_ATTN_BWD_DQ_PARTS"), *fo = getenv("TK_ATTN_BWD_DQ_ORDERED");
  if (fo && *fo && strcmp(fo, "0") != 0 && strcmp(fo, "1") != 0) return 1;
  const char *fr = getenv("TK_ATTN_BWD_DQ_ROT");
  if (fr && *fr && strcmp(fr, "0") != 0 && strcmp(fr, "1") != 0) return 1;
  if (bwd_batches_bad(p)) return 1;
  if (!fp || !*fp) return 0;
  char *end = NULL;
  const long k = strtol(fp, &end, 10);
  return *end != '\0' || k < 1 || k > attn_bwd_dqp_parts(p->b, p->hq, p->hkv, p->sq, p->skv, p->d, 0, 0);
}
static int bwd_dqp_parts(const tk_attn_problem *p) /* deterministic: dQ partials (attn_bwd_dqp.h), 0: none */
{
  const char *rc = getenv("TK_ATTN_BWD_DQ_RECOMPUTE"); /* test hook: the > 3.75 GiB path at any size */
  if (rc && *rc && strcmp(rc, "0") != 0) return 0;
  /* the current device's CUs (as the forward's plan): launches of whole rounds */
  const int n = attn_bwd_dqp_parts(p->b, p->hq, p->hkv, p->sq, p->skv, p->d, attn_bwd_dqp_cus(), attn_bwd_dqp_cdna4());
  /* measurement hook: TK_ATTN_BWD_DQ_PARTS=k forces k partials (checked by bwd_env_bad) */
  const char *fp = getenv("TK_ATTN_BWD_DQ_PARTS");
  const int k = fp && *fp && !bwd_env_bad(p) ? atoi(fp) : 0;
  return n > 0 && k >= 1 ? k : n;
}
/* the ordered dQ's rotated order (attn_bwd_dqo_rotate): where it applies, on a gfx950 or as
 * TK_ATTN_BWD_DQ_ROT says (1: on, 0: off; a measurement hook) */
static int bwd_dqo_rot(const tk_attn_problem *p)
{
  const char *e = getenv("TK_ATTN_BWD_DQ_ROT");
  const int c = e && *e ? atoi(e) : attn_bwd_dqp_cdna4();
  return attn_bwd_dqo_rotate(p->b, p->hq, p->hkv, p->sq, p->skv, p->d, p->causal, attn_bwd_dqp_cus(), c);
}
/* deterministic: dQ by ordered accumulation (attn_bwd_dqo.h) instead of partials where it
 * models faster: on a gfx950 where its rotated order applies (MI355X b16 h16 s1024 d128, model
 * v9: 1.25x the default, the partials 1.37x, the plain order 1.43x; up to 32 key blocks since
 * session 45: s2048 1.17x, s4096 1.20x where the partials took 1.58x, 1.62x, v10; docs/attention.md
 * "Deterministic backward"), not on a gfx942 (MI325X s2048, v8: partials 1.138x, ordered
 * 1.28x); or as TK_ATTN_BWD_DQ_ORDERED says (1: on, 0: off), off when TK_ATTN_BWD_DQ_PARTS
 * forces partials (measurement hooks); never past one buffer's 4 GiB of sums or with
 * TK_ATTN_BWD_DQ_RECOMPUTE */
static int bwd_dqo_use(const tk_attn_problem *p)
{
  const char *rc = getenv("TK_ATTN_BWD_DQ_RECOMPUTE");
  if (rc && *rc && strcmp(rc, "0") != 0) return 0;
  if (tk_attn_lse_elems(p) * p->d * 4 > TK_GL_MAX_BYTES) return 0;
  const char *e = getenv("TK_ATTN_BWD_DQ_ORDERED"), *fp = getenv("TK_ATTN_BWD_DQ_PARTS");
  if (e && *e) return strcmp(e, "0") != 0;
  if (fp && *fp) return 0;
  return attn_bwd_dqp_cdna4() && bwd_dqo_rot(p);
}
int tk_attn_bwd_dq_partials(const tk_attn_problem *p)
{
  return tk_attn_problem_error(p) ? -1 : bwd_env_bad(p) ? -2 : bwd_dqo_use(p) ? 0 : bwd_dqp_parts(p);
}
int tk_attn_bwd_dq_ordered(const tk_attn_problem *p)
{
  return tk_attn_problem_error(p) ? -1 : bwd_env_bad(p) ? -2 : bwd_dqo_use(p);
}
/* default: batches per launch of the fused dQ.  Its f32 sums live in one buffer descriptor (< 4 GiB),
 * so a problem whose sums are larger runs as launches of this many batches, one after another on the
 * stream, each reusing the sums (b16 h64 s8192 d128: 4 GiB, two launches of 8 batches; before, the
 * unfused dK/dV + dQ kernels: MI355X GQA 687 TFLOP/s, 0.64x HipKittens, modeled v10); 0 when one
 * batch's sums pass 4 GiB (then dkdv + dq).  TK_ATTN_BWD_DQ_BATCHES=k sets k (a test hook: the
 * split at any size; checked by bwd_batches_bad) */
static int64_t bwd_dqa_batches(const tk_attn_problem *p)
{
  int64_t nb = TK_GL_MAX_BYTES / bwd_dqa_batch_bytes(p);
  const char *e = getenv("TK_ATTN_BWD_DQ_BATCHES");
  if (e && *e && !bwd_batches_bad(p)) nb = atoi(e);
  return nb < p->b ? nb : p->b;
}
static size_t bwd_dqa_bytes(const tk_attn_problem *p, unsigned flags)
{
  const int64_t n = tk_attn_lse_elems(p) * p->d * 4;
  if ((flags & TK_ATTN_BWD_DETERMINISTIC) && bwd_dqo_use(p)) /* the sums, then the flags */
    return (size_t)n + (size_t)attn_bwd_dqo_flags(p->b, p->hq, p->sq, p->d) * 4;
  if (flags & TK_ATTN_BWD_DETERMINISTIC)
    return (size_t)bwd_dqp_parts(p) * (size_t)attn_bwd_dqp_bytes(p->b, p->hq, p->sq, p->d);
  return (size_t)(bwd_dqa_batches(p) * bwd_dqa_batch_bytes(p)); /* one launch's sums */
}
static size_t bwd_delta_bytes(const tk_attn_problem *p) /* rounded to 16 (the sums' b128 accesses) */
{
  return ((size_t)tk_attn_lse_elems(p) * sizeof(float) + 15) & ~(size_t)15;
}

size_t tk_attn_bwd_workspace_bytes_flags(const tk_attn_problem *p, unsigned flags)
{
  if ((flags & TK_ATTN_BWD_DETERMINISTIC) ? bwd_env_bad(p) : bwd_batches_bad(p)) return 0;
  return tk_attn_problem_error(p) ? 0 : bwd_delta_bytes(p) + bwd_dqa_bytes(p, flags);
}
size_t tk_attn_bwd_workspace_bytes(const tk_attn_problem *p) /* enough for both modes */
{
  const size_t n0 = tk_attn_bwd_workspace_bytes_flags(p, 0), n1 = tk_attn_bwd_workspace_bytes_flags(p, TK_ATTN_BWD_DETERMINISTIC);
  return n0 > n1 ? n0 : n1;
}

int tk_attn_bwd(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v, const uint16_t *o,
                const uint16_t *dout, const float *lse, uint16_t *dq, uint16_t *dk, uint16_t *dv, void *workspace,
                hipStream_t stream)
{
  return tk_attn_bwd_flags(p, q, k, v, o, dout, lse, dq, dk, dv, workspace, 0, stream);
}

int tk_attn_bwd_flags(const tk_attn_problem *p, const uint16_t *q, const uint16_t *k, const uint16_t *v,
                      const uint16_t *o, const uint16_t *dout, const float *lse, uint16_t *dq, uint16_t *dk,
                      uint16_t *dv, void *workspace, unsigned flags, hipStream_t stream)
{
  if (tk_attn_problem_error(p)) return TK_ATTN_ERR_PROBLEM;
  if (flags & ~(unsigned)TK_ATTN_BWD_DETERMINISTIC) return TK_ATTN_ERR_ARG;
  if ((flags & TK_ATTN_BWD_DETERMINISTIC) ? bwd_env_bad(p) : bwd_batches_bad(p)) return TK_ATTN_ERR_ENV;
  if (!pointers_ok(q, k, v, o) || !pointers_ok(dout, dq, dk, dv) || !lse || !workspace) return TK_ATTN_ERR_ARG;
  attn_bwd_args a;
  a.q = tensor_gl(p, TK_ATTN_Q, q), a.k = tensor_gl(p, TK_ATTN_K, k), a.v = tensor_gl(p, TK_ATTN_V, v);
  a.o = tensor_gl(p, TK_ATTN_O, o), a.dout = tensor_gl(p, TK_ATTN_O, dout);
  a.dq = tensor_gl(p, TK_ATTN_Q, dq), a.dk = tensor_gl(p, TK_ATTN_K, dk), a.dv = tensor_gl(p, TK_ATTN_V, dv);
  a.lse = lse;
  a.delta = (float *)workspace;
  const size_t nq = bwd_dqa_bytes(p, flags);
  a.dqa = nq ? (float *)((char *)workspace + bwd_delta_bytes(p)) : NULL;
  const int ord = (flags & TK_ATTN_BWD_DETERMINISTIC) && nq && bwd_dqo_use(p); /* ordered dQ: sums, flags */
  a.nparts = (flags & TK_ATTN_BWD_DETERMINISTIC) && nq && !ord ? (int32_t)bwd_dqp_parts(p) : 0;
  a.dqa_bytes = (uint32_t)(a.nparts ? nq / (size_t)a.nparts : nq); /* deterministic: one partial's */
  a.dqo = NULL;
  a.dqo_rot = 0;
  if (ord) {
    a.dqa_bytes = (uint32_t)(tk_attn_lse_elems(p) * p->d * 4);
    a.dqo = (uint32_t *)((char *)a.dqa + a.dqa_bytes);
    a.dqo_rot = bwd_dqo_rot(p);
  }
  a.kb0 = 0;
  if (nq && (uintptr_t)workspace % 16) return TK_ATTN_ERR_ARG;
  a.sq = (int32_t)p->sq, a.skv = (int32_t)p->skv, a.hq = (int32_t)p->hq, a.group = (int32_t)(p->hq / p->hkv);
  a.causal = p->causal;
  a.scale = p->scale;
  a.scale_log2 = p->scale * AF_LOG2E;
  const int fused = a.dqa && !a.dqo && !a.nparts; /* the default's fused dQ: in launches of nb batches */
  const int64_t nb = fused ? bwd_dqa_batches(p) : p->b;
  for (int64_t b0 = 0; b0 < p->b; b0 += nb) {
    /* batches b0 .. b0 + n - 1: every tensor from batch b0 on, the sums reused */
    const int64_t n = p->b - b0 < nb ? p->b - b0 : nb;
    attn_bwd_args c = a;
    tk_gl *const gs[] = {&c.q, &c.k, &c.v, &c.o, &c.dout, &c.dq, &c.dk, &c.dv};
    for (tk_gl *g : gs) g->ptr = (char *)g->ptr + b0 * g->strides[0] * g->elem_bytes, g->dims[0] = n;
    c.lse = a.lse + b0 * p->hq * p->sq, c.delta = a.delta + b0 * p->hq * p->sq;
    if (fused) c.dqa_bytes = (uint32_t)(n * bwd_dqa_batch_bytes(p));
    if (attn_bwd_launch(&c, (int)p->d, (int)n, (int)p->hkv, stream) != hipSuccess) return TK_ATTN_ERR_HIP;
  }
  return TK_ATTN_OK;
}

const char *tk_attn_strerror(int err)
{
  switch (err) {
  case TK_ATTN_OK: return "ok";
  case TK_ATTN_ERR_PROBLEM: return "invalid problem (tk_attn_problem_error says why)";
  case TK_ATTN_ERR_HIP: return "a HIP call or kernel launch failed";
  case TK_ATTN_ERR_MEMORY: return "out of host memory";
  case TK_ATTN_ERR_ARG: return "a pointer argument is NULL or not 16-byte aligned";
  case TK_ATTN_ERR_ENV:
    return "TK_ATTN_BWD_DQ_PARTS must be a whole number 1..the problem's limit of partials (at most 8; "
           "tk_attn_bwd_dq_partials says -2), TK_ATTN_BWD_DQ_ORDERED 0 or 1, TK_ATTN_BWD_DQ_ROT 0 or 1, "
           "TK_ATTN_BWD_DQ_BATCHES a whole number >= 1 whose batches' dQ sums stay below 4 GiB";
  }
  return "unknown error";
}

} /* extern "C" */
