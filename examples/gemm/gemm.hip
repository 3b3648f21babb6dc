/* gemm: C = alpha * A * op(B) + beta * C with bf16 inputs, f32 accumulation and
 * bf16 or f32 output, for any M, N, K >= 1, leading dimensions and batch count.
 *
 * This file holds the program around the kernels: argument validation, random
 * bf16 inputs, hipEvent timing, the correctness check against an independent
 * reference (CPU double precision on the same bf16 values for small problems,
 * a naive one-thread-per-element double-precision GPU kernel for large ones),
 * the shape sweep with its CSV and PNG outputs.
 *
 * Kernels: "8wave" (gemm_8wave.h), the main one: 256x256 tile, 8 waves in
 * ping-pong, built only from tk primitives; "4wave", the baseline: tk register
 * tiles and MFMAs, 128x128 tile, no ping-pong; "simple", a 4-wave LDS-tiled
 * kernel in plain HIP (64x64 tile, f32 FMAs) for tiny or skinny problems.
 * All walk tiles in tk's L2-grouped, XCD-remapped order (tk/grid.h);
 * docs/gemm.md explains them and the auto heuristic.  No inline asm and no
 * compiler builtins here by design (tests/gemm greps for them).
 *
 * Hardware facts relied on: bf16 is the top 16 bits of an IEEE binary32 (so a
 * bf16*bf16 product is exact in f32: 8+8 significand bits <= 24); LDS is 64 KiB
 * per workgroup on gfx942 (CDNA3 ISA guide, ch. 2).
 */
#include <hip/hip_runtime.h>
#include <tk/grid.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>

#define GEMM_CHECK_HIP(x)                                                                   \
  do {                                                                                      \
    hipError_t e_ = (x);                                                                    \
    if (e_ != hipSuccess) {                                                                 \
      fprintf(stderr, "gemm: %s failed: %s (%s:%d)\n", #x, hipGetErrorString(e_), __FILE__, \
              __LINE__);                                                                    \
      exit(4);                                                                              \
    }                                                                                       \
  } while (0)

/* ---- bf16 conversions (host and device, plain bit manipulation) ---------- */

__host__ __device__ static inline float bf16_to_f32(uint16_t h)
{
  union { uint32_t u; float f; } v;
  v.u = (uint32_t)h << 16;
  return v.f;
}

/* Round to nearest even; NaN stays a (quiet) NaN. */
__host__ __device__ static inline uint16_t f32_to_bf16(float f)
{
  union { uint32_t u; float f; } v;
  v.f = f;
  if ((v.u & 0x7f800000u) == 0x7f800000u && (v.u & 0x007fffffu))
    return (uint16_t)((v.u >> 16) | 0x40);
  uint32_t r = v.u + 0x7fffu + ((v.u >> 16) & 1u);
  return (uint16_t)(r >> 16);
}

/* ---- problem ------------------------------------------------------------- */

enum gemm_layout { LAYOUT_NT, LAYOUT_NN };
enum gemm_out { OUT_BF16, OUT_F32 };
enum gemm_kernel { KERNEL_AUTO, KERNEL_8WAVE, KERNEL_4WAVE, KERNEL_SIMPLE };

struct gemm_problem {
  int64_t m, n, k, batch;
  int64_t lda, ldb, ldc;
  int layout, out;
  float alpha, beta;
};

/* Element strides: A is M x K row-major (row stride lda); B is N x K (nt) or
 * K x N (nn) row-major (row stride ldb); C is M x N (row stride ldc). Batches
 * are packed one after another. */
__host__ __device__ static int64_t a_batch_stride(const gemm_problem *p) { return p->m * p->lda; }
__host__ __device__ static int64_t b_batch_stride(const gemm_problem *p)
{
  return (p->layout == LAYOUT_NT ? p->n : p->k) * p->ldb;
}
__host__ __device__ static int64_t c_batch_stride(const gemm_problem *p) { return p->m * p->ldc; }

/* ---- kernel "simple": 4 waves, 64x64 tile, K step 16 ---------------------- */

#define S_TILE 64
#define S_KT 16

__global__ __launch_bounds__(256) void gemm_simple(const uint16_t *__restrict__ a,
                                                   const uint16_t *__restrict__ b,
                                                   void *c, gemm_problem p)
{
  /* k-major LDS tiles so the inner loop reads a row of A values and a row of B
   * values; +1 column of f32 would not help here: lanes read along n/m. */
  __shared__ float as[S_KT][S_TILE];
  __shared__ float bs[S_KT][S_TILE];
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  /* tile order: tk's L2-grouped walk (8 tile rows per group) after the XCD
   * remap, so concurrently running groups share A/B panels in one XCD's L2 */
  uint32_t tm, tn;
  const uint32_t tiles_m = (uint32_t)((p.m + S_TILE - 1) / S_TILE);
  const uint32_t tiles_n = (uint32_t)((p.n + S_TILE - 1) / S_TILE);
  tk_grid_tile(blockIdx.x, gridDim.x, tiles_m, tiles_n, 8, TK_NUM_XCDS, &tm, &tn);
  const int64_t m0 = (int64_t)tm * S_TILE, n0 = (int64_t)tn * S_TILE;
  const int64_t z = blockIdx.z;
  a += z * a_batch_stride(&p);
  b += z * b_batch_stride(&p);
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

  for (int64_t k0 = 0; k0 < p.k; k0 += S_KT) {
    { /* A: 64 rows x 16 k, 4 consecutive k per lane */
      const int r = tid / 4, kc = (tid % 4) * 4;
      const int64_t gm = m0 + r;
      for (int q = 0; q < 4; ++q) {
        const int64_t gk = k0 + kc + q;
        as[kc + q][r] = (gm < p.m && gk < p.k) ? bf16_to_f32(a[gm * p.lda + gk]) : 0.0f;
      }
    }
    if (p.layout == LAYOUT_NT) { /* B is N x K */
      const int r = tid / 4, kc = (tid % 4) * 4;
      const int64_t gn = n0 + r;
      for (int q = 0; q < 4; ++q) {
        const int64_t gk = k0 + kc + q;
        bs[kc + q][r] = (gn < p.n && gk < p.k) ? bf16_to_f32(b[gn * p.ldb + gk]) : 0.0f;
      }
    } else { /* B is K x N */
      const int kr = tid / 16, nc = (tid % 16) * 4;
      const int64_t gk = k0 + kr;
      for (int q = 0; q < 4; ++q) {
        const int64_t gn = n0 + nc + q;
        bs[kr][nc + q] = (gn < p.n && gk < p.k) ? bf16_to_f32(b[gk * p.ldb + gn]) : 0.0f;
      }
    }
    __syncthreads();
    for (int kk = 0; kk < S_KT; ++kk) {
      float av[4], bv[4];
      for (int i = 0; i < 4; ++i) av[i] = as[kk][ty + 16 * i];
      for (int j = 0; j < 4; ++j) bv[j] = bs[kk][4 * tx + j];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
    }
    __syncthreads();
  }

  /* Epilogue: 4 consecutive columns per lane -> one 8-byte (bf16) or 16-byte
   * (f32) store when the row segment is whole and aligned; masked elements
   * otherwise. beta == 0 never reads C (BLAS convention: C may hold NaN). */
  const int64_t gn = n0 + 4 * tx;
  for (int i = 0; i < 4; ++i) {
    const int64_t gm = m0 + ty + 16 * i;
    if (gm >= p.m) continue;
    const int64_t off = z * c_batch_stride(&p) + gm * p.ldc + gn;
    const bool whole = gn + 4 <= p.n && (off % 4) == 0;
    if (p.out == OUT_BF16) {
      uint16_t *cp = (uint16_t *)c + off;
      if (whole) {
        uint2 old = make_uint2(0, 0);
        if (p.beta != 0.0f) old = *(const uint2 *)cp;
        const uint16_t o[4] = {(uint16_t)(old.x & 0xffff), (uint16_t)(old.x >> 16),
                               (uint16_t)(old.y & 0xffff), (uint16_t)(old.y >> 16)};
        uint16_t r[4];
        for (int j = 0; j < 4; ++j) {
          float v = p.alpha * acc[i][j];
          if (p.beta != 0.0f) v = fmaf(p.beta, bf16_to_f32(o[j]), v);
          r[j] = f32_to_bf16(v);
        }
        *(uint2 *)cp = make_uint2((uint32_t)r[0] | ((uint32_t)r[1] << 16),
                                  (uint32_t)r[2] | ((uint32_t)r[3] << 16));
      } else {
        for (int j = 0; j < 4 && gn + j < p.n; ++j) {
          float v = p.alpha * acc[i][j];
          if (p.beta != 0.0f) v = fmaf(p.beta, bf16_to_f32(cp[j]), v);
          cp[j] = f32_to_bf16(v);
        }
      }
    } else {
      float *cp = (float *)c + off;
      if (whole) {
        float4 old = make_float4(0, 0, 0, 0);
        if (p.beta != 0.0f) old = *(const float4 *)cp;
        float4 r;
        r.x = p.alpha * acc[i][0] + p.beta * old.x;
        r.y = p.alpha * acc[i][1] + p.beta * old.y;
        r.z = p.alpha * acc[i][2] + p.beta * old.z;
        r.w = p.alpha * acc[i][3] + p.beta * old.w;
        *(float4 *)cp = r;
      } else {
        for (int j = 0; j < 4 && gn + j < p.n; ++j) {
          float v = p.alpha * acc[i][j];
          if (p.beta != 0.0f) v = fmaf(p.beta, cp[j], v);
          cp[j] = v;
        }
      }
    }
  }
}

/* ---- kernel "4wave": the baseline, same tk primitives, no ping-pong ------- */
/* 4 waves, 128x128 C tile, K step 32, one LDS buffer, everything in sequence:
 * load the step (tk group loads: issue, one batched wait, ds_write_b128),
 * barrier, ds_read_b64 fragments (tk prefetch + wait), 16 MFMAs, barrier.
 * Wave w owns the 64x64 quarter (w/2, w%2) as a tk accumulator tile (2x2
 * fragments of 32x32). Problems outside the group loads' rule (B as K x N, or
 * K, lda, ldb not multiples of 8) are staged element by element into the same
 * swizzled tiles (a wave-uniform branch), so this kernel takes any problem.
 * Epilogue as in 8wave: per-wave 32x64 f32 LDS tile + tk_store_lds_global_ab.
 * 32 KiB of LDS: two workgroups fit on a CU. */
#if __has_include(<tk/mma.h>) && __has_include(<tk/shared.h>)
#include <tk/tk.h>
#define GEMM_HAVE_4WAVE 1
#define W4_TILE 128
#define W4_KS 32

TK_ST(w4_st_t, tk_bf16, W4_TILE, W4_KS, TK_LDS_SWZ); /* 128 x 32 bf16, 8 KiB */
TK_ST(w4_ep_t, float, 32, 64, TK_LDS_SWZ);
typedef union {
  struct { w4_st_t a, b; } in; /* A and Bt (B as N x K) */
  w4_ep_t ep[4];               /* epilogue, one per wave */
} w4_smem_t;
TK_LDS_CHECK(w4_smem_t);
#define W4_LDS_AT(tile, r, k) (*(uint16_t *)((char *)(tile).data + tk_st_offset(w4_st_t, (r), (k))))

TK_STAGE(w4_stage_t, w4_st_t, 256);
TK_RT(w4_acc_t, TK_K_C_F32_32x32, 64, 64);
TK_RT(w4_op_t, TK_K_A_BF16_32x32x8, 64, W4_KS);
TK_PENDING(w4_pend_t, w4_op_t);
TK_RT(w4_piece_t, TK_K_C_F32_32x32, 32, 64);

__global__ __launch_bounds__(256) void gemm_4wave(const uint16_t *__restrict__ a,
                                                  const uint16_t *__restrict__ b, void *c,
                                                  gemm_problem p)
{
  TK_LDS_ALLOC(w4_smem_t, sm);
  const int tid = threadIdx.x;
  const uint32_t wave = tk_wave_id(), lane = tk_lane_id();
  uint32_t tm, tn;
  const uint32_t tiles_m = (uint32_t)((p.m + W4_TILE - 1) / W4_TILE);
  const uint32_t tiles_n = (uint32_t)((p.n + W4_TILE - 1) / W4_TILE);
  tk_grid_tile(blockIdx.x, gridDim.x, tiles_m, tiles_n, 8, TK_NUM_XCDS, &tm, &tn);
  const int64_t m0 = (int64_t)tm * W4_TILE, n0 = (int64_t)tn * W4_TILE;
  const int64_t z = blockIdx.z;
  a += z * a_batch_stride(&p);
  b += z * b_batch_stride(&p);
  const int wm = (wave / 2) * 64, wn = (wave % 2) * 64;
  /* wave-uniform: can the step be moved with 16-byte group loads (rows of
   * 16-byte chunks, operands within a buffer descriptor's range)? */
  const bool wide = p.layout == LAYOUT_NT && p.k % 8 == 0 && p.lda % 8 == 0 && p.ldb % 8 == 0 &&
                    ((p.m - 1) * p.lda + p.k) * 2 <= TK_GL_MAX_BYTES && ((p.n - 1) * p.ldb + p.k) * 2 <= TK_GL_MAX_BYTES;
  tk_gl ga, gb;
  const int64_t ad[2] = {p.m, p.k}, as[2] = {p.lda, 1}, bd[2] = {p.n, p.k}, bs[2] = {p.ldb, 1};
  tk_gl_make(&ga, (void *)a, 2, 2, ad, as);
  tk_gl_make(&gb, (void *)b, 2, 2, bd, bs);
  const tk_rsrc ra = tk_gl_rsrc(&ga), rb = tk_gl_rsrc(&gb);

  w4_acc_t acc;
  tk_rt_zero(acc);
  w4_stage_t sa, sb;
  w4_pend_t pa, pb;
  w4_op_t fa, fb;
  for (int64_t k0 = 0; k0 < p.k; k0 += W4_KS) {
    if (wide) {
      tk_load_issue(sa, &ga, ra, 0, 0, m0, k0, tid);
      tk_load_issue(sb, &gb, rb, 0, 0, n0, k0, tid);
      tk_load_commit(sm.in.a, sa, tid, TK_STAGE_NLOADS(sb));
      tk_load_commit(sm.in.b, sb, tid, 0);
    } else { /* 16 elements per lane and operand; zero outside */
      for (int e = tid; e < W4_TILE * W4_KS; e += 256) {
        const int r = e / W4_KS, kk = e % W4_KS;
        const int64_t gk = k0 + kk, gm = m0 + r, gn = n0 + r;
        W4_LDS_AT(sm.in.a, r, kk) = (gm < p.m && gk < p.k) ? a[gm * p.lda + gk] : (uint16_t)0;
        uint16_t bv = 0;
        if (gn < p.n && gk < p.k) bv = p.layout == LAYOUT_NT ? b[gn * p.ldb + gk] : b[gk * p.ldb + gn];
        W4_LDS_AT(sm.in.b, r, kk) = bv;
      }
    }
    tk_lds_barrier();
    tk_prefetch_issue(pa, sm.in.a, wm, 0);
    tk_prefetch_issue(pb, sm.in.b, wn, 0);
    tk_prefetch_wait(fa, pa, 0);
    tk_prefetch_wait(fb, pb, 0);
    tk_mma_ABt(acc, fa, fb, acc); /* acc(fm, fn) += A(fm, :) * Bt(fn, :)^T */
    tk_barrier();                 /* fragments are in registers: LDS may be refilled */
  }

  tk_gl gc;
  const int64_t cd[2] = {p.m, p.n}, cs[2] = {p.ldc, 1};
  const int esz = p.out == OUT_BF16 ? 2 : 4;
  tk_gl_make(&gc, (void *)((char *)c + z * c_batch_stride(&p) * esz), esz, 2, cd, cs);
  const tk_rsrc rc = tk_gl_rsrc(&gc);
#pragma unroll
  for (int fr = 0; fr < 2; ++fr) {
    w4_piece_t pc;
    pc.f[0] = acc.f[fr * 2 + 0];
    pc.f[1] = acc.f[fr * 2 + 1];
    tk_store_acc_lds(sm.ep[wave], pc, 0, 0);
    tk_store_lds_global_ab(&gc, rc, 0, 0, m0 + wm + 32 * fr, n0 + wn, sm.ep[wave], lane, 64, p.alpha, p.beta);
  }
}
#else
#define GEMM_HAVE_4WAVE 0
#endif

/* ---- kernel "8wave": 256x256 tile, 8-wave ping-pong (gemm_8wave.h) -------- */
#include "gemm_8wave.h"

/* ---- independent GPU reference: one thread per element, double sums ------ */

__global__ __launch_bounds__(256) void gemm_reference(const uint16_t *a, const uint16_t *b,
                                                      const void *c0, double *ref,
                                                      double *mag, gemm_problem p)
{
  const int64_t n = (int64_t)blockIdx.x * 16 + threadIdx.x % 16;
  const int64_t m = (int64_t)blockIdx.y * 16 + threadIdx.x / 16;
  const int64_t z = blockIdx.z;
  if (m >= p.m || n >= p.n) return;
  const uint16_t *ar = a + z * a_batch_stride(&p) + m * p.lda;
  const uint16_t *bz = b + z * b_batch_stride(&p);
  double s = 0.0, sa = 0.0;
  for (int64_t k = 0; k < p.k; ++k) {
    const double bv = bf16_to_f32(p.layout == LAYOUT_NT ? bz[n * p.ldb + k] : bz[k * p.ldb + n]);
    const double t = (double)bf16_to_f32(ar[k]) * bv;
    s += t;
    sa += fabs(t);
  }
  const int64_t ci = z * c_batch_stride(&p) + m * p.ldc + n;
  double cold = 0.0;
  if (p.beta != 0.0f)
    cold = p.out == OUT_BF16 ? bf16_to_f32(((const uint16_t *)c0)[ci]) : ((const float *)c0)[ci];
  const int64_t o = (z * p.m + m) * p.n + n;
  ref[o] = (double)p.alpha * s + (double)p.beta * cold;
  mag[o] = fabs((double)p.alpha) * sa + fabs((double)p.beta * cold);
}

/* ---- host side ------------------------------------------------------------ */

static void usage(FILE *f)
{
  fprintf(f,
          "usage: gemm [options]\n"
          "  C = alpha * A * op(B) + beta * C; A is M x K row-major, bf16 inputs, f32 accumulation\n"
          "  --m M --n N --k K      problem size (each >= 1; default 256)\n"
          "  --batch B              batch count (>= 1; batches packed densely)\n"
          "  --layout nt|nn         B is N x K (nt: C = A*B^T, default) or K x N (nn)\n"
          "  --out bf16|f32         output/C element type (default bf16)\n"
          "  --alpha X --beta Y     scalars (default 1, 0)\n"
          "  --lda L --ldb L --ldc L  leading dimensions (>= row length; default = row length)\n"
          "  --iters N --warmup N   timed iterations / untimed warm-up launches\n"
          "                         (default 10/2 on a GPU, 1/0 under tksim)\n"
          "  --kernel 8wave|4wave|simple|auto  kernel (auto: see docs/gemm.md)\n"
          "  --check                compare with a double-precision reference; exit 1 past tolerance\n"
          "  --seed S               input random seed (default 1)\n"
          "  --sweep                time the sweep shapes (squares 1024..16384, LLM shapes)\n"
          "  --sweep-shapes LIST    sweep these shapes instead: MxNxK[,MxNxK...]\n"
          "  --sweep-kernels LIST   sweep each shape with these kernels, side by side (e.g. 8wave,4wave)\n"
          "  --csv FILE --png FILE  sweep outputs (CSV table, bar chart of TFLOP/s)\n"
          "  --vs hipblaslt         compare with hipBLASLt (only when found at configure time)\n"
          "  --inject-error         test hook: corrupt C[0,0] before --check (the check must fail)\n"
          "  --help                 this text\n");
}

static int bad(const char *msg, const char *arg)
{
  fprintf(stderr, "gemm: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  usage(stderr);
  return 2;
}

static bool parse_i64(const char *s, int64_t *v)
{
  char *e;
  long long x = strtoll(s, &e, 10);
  if (e == s || *e) return false;
  *v = x;
  return true;
}

static bool parse_f32(const char *s, float *v)
{
  char *e;
  double x = strtod(s, &e);
  if (e == s || *e || !isfinite(x)) return false;
  *v = (float)x;
  return true;
}

struct options {
  gemm_problem p;
  int kernel;
  int64_t iters, warmup;
  bool iters_set, warmup_set;
  bool check, sweep, inject;
  uint64_t seed;
  const char *csv, *png, *shapes;
  std::vector<int> kernels; /* --sweep-kernels, else {kernel} */
  bool vs;                  /* --vs hipblaslt */
};

static bool parse_kernel(const char *s, size_t len, int *k)
{
  static const struct { const char *name; int k; } names[] = {
      {"8wave", KERNEL_8WAVE}, {"4wave", KERNEL_4WAVE}, {"simple", KERNEL_SIMPLE}, {"auto", KERNEL_AUTO}};
  for (const auto &n : names)
    if (strlen(n.name) == len && !strncmp(s, n.name, len)) {
      *k = n.k;
      return true;
    }
  return false;
}

static const char *kernel_name(int k)
{
  switch (k) {
  case KERNEL_8WAVE: return "8wave";
  case KERNEL_4WAVE: return "4wave";
  case KERNEL_SIMPLE: return "simple";
  default: return "auto";
  }
}

/* Validation of one problem: sizes and leading dimensions. */
static const char *problem_error(const gemm_problem *p)
{
  if (p->m < 1 || p->n < 1 || p->k < 1) return "sizes must be >= 1";
  if (p->batch < 1) return "batch must be >= 1";
  if (p->m > (1 << 24) || p->n > (1 << 24) || p->k > (1 << 24) || p->batch > (1 << 16))
    return "size too large (limit 16777216 per dimension, 65536 batches)";
  if (p->lda < p->k) return "lda must be >= K";
  if (p->ldb < (p->layout == LAYOUT_NT ? p->k : p->n)) return "ldb must be >= K (nt) or >= N (nn)";
  if (p->ldc < p->n) return "ldc must be >= N";
  return NULL;
}

/* xorshift64*: inputs reproducible from --seed. */
static uint64_t rng_next(uint64_t *s)
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}
static uint16_t rng_bf16(uint64_t *s)
{
  /* uniform in [-1, 1), rounded to bf16 */
  const double u = (double)(rng_next(s) >> 11) / 9007199254740992.0;
  return f32_to_bf16((float)(2.0 * u - 1.0));
}

static bool under_tksim(void)
{
  hipDeviceProp_t prop;
  if (hipGetDeviceProperties(&prop, 0) != hipSuccess) return false;
  return strstr(prop.name, "tksim") != NULL;
}
static bool tksim_model_on(void)
{
  const char *m = getenv("TKSIM_MODEL");
  return m && *m && strcmp(m, "off") != 0;
}

/* Why `kernel` cannot run problem p (NULL: it can). */
static const char *kernel_unsupported(int kernel, const gemm_problem *p)
{
  if (kernel == KERNEL_8WAVE) return w8_unsupported(p);
  /* 4wave writes C through a buffer descriptor (tk_store_lds_global_ab) */
  if (kernel == KERNEL_4WAVE && ((p->m - 1) * p->ldc + p->n) * (p->out == OUT_BF16 ? 2 : 4) > TK_GL_MAX_BYTES)
    return "4wave needs C of a batch to span at most 4 GiB - 16 bytes (buffer descriptor)";
  return NULL;
}

/* The kernel heuristic (docs/gemm.md): 8wave for grids of at least one
 * 256x256 tile per CU; else the 128x128-tile 4wave unless M or N is at most
 * 64, where its tiles would be mostly padding and the 64x64 "simple" kernel
 * wastes less (also the fallback for C beyond a buffer descriptor). */
static int choose_kernel(const gemm_problem *p, int requested)
{
  if (requested != KERNEL_AUTO) return requested;
  if (w8_unsupported(p) == NULL && w8_preferred(p)) return KERNEL_8WAVE;
  if (GEMM_HAVE_4WAVE && p->m > 64 && p->n > 64 && kernel_unsupported(KERNEL_4WAVE, p) == NULL) return KERNEL_4WAVE;
  return KERNEL_SIMPLE;
}

static bool kernel_available(int kernel)
{
  return kernel == KERNEL_SIMPLE || kernel == KERNEL_8WAVE || (kernel == KERNEL_4WAVE && GEMM_HAVE_4WAVE);
}

static hipError_t launch(int kernel, const uint16_t *a, const uint16_t *b, void *c,
                         const gemm_problem *p)
{
  if (kernel == KERNEL_8WAVE) {
    const int64_t tiles = ((p->n + W8_TILE - 1) / W8_TILE) * ((p->m + W8_TILE - 1) / W8_TILE);
    if (tiles > 0xffffffffll || w8_unsupported(p)) return hipErrorInvalidValue;
    hipLaunchKernelGGL(p->layout == LAYOUT_NT ? gemm_8wave : gemm_8wave_nn, dim3((unsigned)tiles, 1, (unsigned)p->batch),
                       dim3(512), 0, 0, a, b, c, *p);
    return hipGetLastError();
  }
#if GEMM_HAVE_4WAVE
  if (kernel == KERNEL_4WAVE) {
    const int64_t tiles = ((p->n + W4_TILE - 1) / W4_TILE) * ((p->m + W4_TILE - 1) / W4_TILE);
    if (tiles > 0xffffffffll) return hipErrorInvalidValue;
    hipLaunchKernelGGL(gemm_4wave, dim3((unsigned)tiles, 1, (unsigned)p->batch), dim3(256), 0, 0, a, b, c, *p);
    return hipGetLastError();
  }
#endif
  if (kernel != KERNEL_SIMPLE) return hipErrorNotSupported;
  const int64_t tiles = ((p->n + S_TILE - 1) / S_TILE) * ((p->m + S_TILE - 1) / S_TILE);
  if (tiles > 0xffffffffll) return hipErrorInvalidValue;
  dim3 grid((unsigned)tiles, 1, (unsigned)p->batch);
  hipLaunchKernelGGL(gemm_simple, grid, dim3(256), 0, 0, a, b, c, *p);
  return hipGetLastError();
}

struct device_problem {
  uint16_t *a, *b;
  void *c;
  std::vector<uint16_t> ha, hb;
  std::vector<uint8_t> hc0;
  size_t c_bytes;
};

static void setup(device_problem *d, const gemm_problem *p, uint64_t seed)
{
  const size_t na = (size_t)(p->batch * a_batch_stride(p));
  const size_t nb = (size_t)(p->batch * b_batch_stride(p));
  const size_t nc = (size_t)(p->batch * c_batch_stride(p));
  const size_t esz = p->out == OUT_BF16 ? 2 : 4;
  uint64_t s = seed * 0x9e3779b97f4a7c15ull + 0x1234567ull;
  if (!s) s = 1;
  d->ha.resize(na);
  d->hb.resize(nb);
  for (size_t i = 0; i < na; ++i) d->ha[i] = rng_bf16(&s);
  for (size_t i = 0; i < nb; ++i) d->hb[i] = rng_bf16(&s);
  d->c_bytes = nc * esz;
  d->hc0.resize(d->c_bytes);
  for (size_t i = 0; i < nc; ++i) {
    const uint16_t h = rng_bf16(&s);
    if (esz == 2)
      memcpy(&d->hc0[i * 2], &h, 2);
    else {
      const float f = bf16_to_f32(h);
      memcpy(&d->hc0[i * 4], &f, 4);
    }
  }
  GEMM_CHECK_HIP(hipMalloc((void **)&d->a, na * 2));
  GEMM_CHECK_HIP(hipMalloc((void **)&d->b, nb * 2));
  GEMM_CHECK_HIP(hipMalloc(&d->c, d->c_bytes));
  GEMM_CHECK_HIP(hipMemcpy(d->a, d->ha.data(), na * 2, hipMemcpyHostToDevice));
  GEMM_CHECK_HIP(hipMemcpy(d->b, d->hb.data(), nb * 2, hipMemcpyHostToDevice));
  GEMM_CHECK_HIP(hipMemcpy(d->c, d->hc0.data(), d->c_bytes, hipMemcpyHostToDevice));
}

static void teardown(device_problem *d)
{
  GEMM_CHECK_HIP(hipFree(d->a));
  GEMM_CHECK_HIP(hipFree(d->b));
  GEMM_CHECK_HIP(hipFree(d->c));
}

/* The check: per element, |c - ref| <= bound with
 *   bound = 2 * K * 2^-24 * mag + 2^-24 * |ref| (+ 2^-8 * |ref| for bf16 output) + 2^-126
 * where mag = |alpha| * sum_k |a*b| + |beta * c0|. Products of two bf16 values
 * are exact in f32, so the f32 sum's error is at most K * 2^-24 * mag (any
 * summation order); the final alpha/beta step and the bf16 rounding (half an
 * ulp, <= 2^-8 relative) add the rest; the factor 2 is slack for the order. */
static int check(const device_problem *d, const gemm_problem *p, double *max_abs,
                 double *max_rel, double *worst_ratio, int64_t *bad_count)
{
  const int64_t mn = p->m * p->n, total = mn * p->batch;
  std::vector<double> ref((size_t)total), mag((size_t)total);
  const bool cpu = (double)p->m * p->n * p->k * p->batch <= (double)(1 << 28);
  if (cpu) {
    std::vector<double> bcol((size_t)p->k);
    for (int64_t z = 0; z < p->batch; ++z)
      for (int64_t n = 0; n < p->n; ++n) {
        const uint16_t *bz = d->hb.data() + z * b_batch_stride(p);
        for (int64_t k = 0; k < p->k; ++k)
          bcol[k] = bf16_to_f32(p->layout == LAYOUT_NT ? bz[n * p->ldb + k] : bz[k * p->ldb + n]);
        for (int64_t m = 0; m < p->m; ++m) {
          const uint16_t *ar = d->ha.data() + z * a_batch_stride(p) + m * p->lda;
          double s = 0.0, sa = 0.0;
          for (int64_t k = 0; k < p->k; ++k) {
            const double t = (double)bf16_to_f32(ar[k]) * bcol[k];
            s += t;
            sa += fabs(t);
          }
          const int64_t ci = z * c_batch_stride(p) + m * p->ldc + n;
          double cold = 0.0;
          if (p->beta != 0.0f) {
            if (p->out == OUT_BF16) {
              uint16_t h;
              memcpy(&h, &d->hc0[ci * 2], 2);
              cold = bf16_to_f32(h);
            } else {
              float f;
              memcpy(&f, &d->hc0[ci * 4], 4);
              cold = f;
            }
          }
          const int64_t o = z * mn + m * p->n + n;
          ref[o] = (double)p->alpha * s + (double)p->beta * cold;
          mag[o] = fabs((double)p->alpha) * sa + fabs((double)p->beta * cold);
        }
      }
  } else {
    double *dref, *dmag;
    void *dc0;
    GEMM_CHECK_HIP(hipMalloc((void **)&dref, (size_t)total * 8));
    GEMM_CHECK_HIP(hipMalloc((void **)&dmag, (size_t)total * 8));
    GEMM_CHECK_HIP(hipMalloc(&dc0, d->c_bytes));
    GEMM_CHECK_HIP(hipMemcpy(dc0, d->hc0.data(), d->c_bytes, hipMemcpyHostToDevice));
    dim3 grid((unsigned)((p->n + 15) / 16), (unsigned)((p->m + 15) / 16), (unsigned)p->batch);
    hipLaunchKernelGGL(gemm_reference, grid, dim3(256), 0, 0, d->a, d->b, dc0, dref, dmag, *p);
    GEMM_CHECK_HIP(hipGetLastError());
    GEMM_CHECK_HIP(hipMemcpy(ref.data(), dref, (size_t)total * 8, hipMemcpyDeviceToHost));
    GEMM_CHECK_HIP(hipMemcpy(mag.data(), dmag, (size_t)total * 8, hipMemcpyDeviceToHost));
    GEMM_CHECK_HIP(hipFree(dref));
    GEMM_CHECK_HIP(hipFree(dmag));
    GEMM_CHECK_HIP(hipFree(dc0));
  }
  std::vector<uint8_t> hc(d->c_bytes);
  GEMM_CHECK_HIP(hipMemcpy(hc.data(), d->c, d->c_bytes, hipMemcpyDeviceToHost));
  *max_abs = 0;
  *max_rel = 0;
  *worst_ratio = 0;
  *bad_count = 0;
  const double eps = ldexp(1.0, -24);
  for (int64_t z = 0; z < p->batch; ++z)
    for (int64_t m = 0; m < p->m; ++m)
      for (int64_t n = 0; n < p->n; ++n) {
        const int64_t ci = z * c_batch_stride(p) + m * p->ldc + n;
        const int64_t o = z * mn + m * p->n + n;
        double got;
        if (p->out == OUT_BF16) {
          uint16_t h;
          memcpy(&h, &hc[ci * 2], 2);
          got = bf16_to_f32(h);
        } else {
          float f;
          memcpy(&f, &hc[ci * 4], 4);
          got = f;
        }
        const double r = ref[o];
        const double err = fabs(got - r);
        double bound = 2.0 * (double)p->k * eps * mag[o] + eps * fabs(r) + ldexp(1.0, -126);
        if (p->out == OUT_BF16) bound += ldexp(1.0, -8) * fabs(r);
        const double ratio = isnan(got) ? INFINITY : err / bound;
        if (!(ratio <= 1.0)) ++*bad_count;
        if (!(err <= *max_abs)) *max_abs = isnan(got) ? INFINITY : fmax(*max_abs, err);
        if (fabs(r) > 0) *max_rel = fmax(*max_rel, err / fabs(r));
        if (!(ratio <= *worst_ratio)) *worst_ratio = ratio;
      }
  return cpu ? 0 : 1;
}

/* Whether the last time_kernel result is tksim-modeled time: tksim replaces
 * event time by the model's only when every launch in between got a modeled
 * duration, and launches run synchronously, so modeled event time is far below
 * the host's wall time while unmodeled event time is about equal to it. */
static bool g_modeled = false;

static double wall_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Times `iters` launches after `warmup` ones; returns ms per launch or < 0. */
static double time_kernel(int kernel, device_problem *d, const gemm_problem *p, int64_t iters,
                          int64_t warmup)
{
  for (int64_t i = 0; i < warmup; ++i)
    if (launch(kernel, d->a, d->b, d->c, p) != hipSuccess) return -1;
  hipEvent_t e0, e1;
  GEMM_CHECK_HIP(hipEventCreate(&e0));
  GEMM_CHECK_HIP(hipEventCreate(&e1));
  GEMM_CHECK_HIP(hipDeviceSynchronize());
  const double w0 = wall_ms();
  GEMM_CHECK_HIP(hipEventRecord(e0, 0));
  for (int64_t i = 0; i < iters; ++i)
    if (launch(kernel, d->a, d->b, d->c, p) != hipSuccess) return -1;
  GEMM_CHECK_HIP(hipEventRecord(e1, 0));
  GEMM_CHECK_HIP(hipEventSynchronize(e1));
  const double w1 = wall_ms();
  float ms = 0;
  GEMM_CHECK_HIP(hipEventElapsedTime(&ms, e0, e1));
  g_modeled = tksim_model_on() && ms < 0.5 * (w1 - w0);
  GEMM_CHECK_HIP(hipEventDestroy(e0));
  GEMM_CHECK_HIP(hipEventDestroy(e1));
  return iters > 0 ? ms / (double)iters : 0.0;
}

/* ---- PNG: stored (uncompressed) deflate blocks, RFC 1950/1951/2083 ------- */

static uint32_t crc_table[256];
static void crc_init(void)
{
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    crc_table[n] = c;
  }
}
static uint32_t crc_update(uint32_t c, const uint8_t *b, size_t n)
{
  for (size_t i = 0; i < n; ++i) c = crc_table[(c ^ b[i]) & 0xff] ^ (c >> 8);
  return c;
}
static void put_be32(std::vector<uint8_t> &v, uint32_t x)
{
  v.push_back((uint8_t)(x >> 24));
  v.push_back((uint8_t)(x >> 16));
  v.push_back((uint8_t)(x >> 8));
  v.push_back((uint8_t)x);
}
static void png_chunk(FILE *f, const char *type, const std::vector<uint8_t> &data)
{
  std::vector<uint8_t> c;
  put_be32(c, (uint32_t)data.size());
  c.insert(c.end(), type, type + 4);
  c.insert(c.end(), data.begin(), data.end());
  const uint32_t crc = crc_update(0xffffffffu, c.data() + 4, c.size() - 4) ^ 0xffffffffu;
  put_be32(c, crc);
  fwrite(c.data(), 1, c.size(), f);
}

/* Writes an 8-bit RGB image; returns false on I/O failure. */
static bool png_write(const char *path, const uint8_t *rgb, uint32_t w, uint32_t h)
{
  crc_init();
  std::vector<uint8_t> raw;
  for (uint32_t y = 0; y < h; ++y) {
    raw.push_back(0); /* filter: none */
    raw.insert(raw.end(), rgb + (size_t)y * w * 3, rgb + (size_t)(y + 1) * w * 3);
  }
  std::vector<uint8_t> z = {0x78, 0x01};
  uint32_t s1 = 1, s2 = 0;
  for (uint8_t byte : raw) {
    s1 = (s1 + byte) % 65521;
    s2 = (s2 + s1) % 65521;
  }
  for (size_t off = 0; off < raw.size() || off == 0;) {
    const size_t len = raw.size() - off > 65535 ? 65535 : raw.size() - off;
    const bool last = off + len == raw.size();
    z.push_back(last ? 1 : 0);
    z.push_back((uint8_t)len);
    z.push_back((uint8_t)(len >> 8));
    z.push_back((uint8_t)~len);
    z.push_back((uint8_t)(~len >> 8));
    z.insert(z.end(), raw.begin() + off, raw.begin() + off + len);
    off += len;
    if (last) break;
  }
  put_be32(z, (s2 << 16) | s1);
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  fwrite(sig, 1, 8, f);
  std::vector<uint8_t> ihdr;
  put_be32(ihdr, w);
  put_be32(ihdr, h);
  ihdr.push_back(8); /* bit depth */
  ihdr.push_back(2); /* RGB */
  ihdr.push_back(0);
  ihdr.push_back(0);
  ihdr.push_back(0);
  png_chunk(f, "IHDR", ihdr);
  png_chunk(f, "IDAT", z);
  png_chunk(f, "IEND", std::vector<uint8_t>());
  return fclose(f) == 0;
}

/* Bar chart: one bar per shape, height proportional to TFLOP/s; horizontal
 * grid lines every 10% of the maximum. */
static bool plot_png(const char *path, const std::vector<double> &tflops)
{
  const uint32_t w = 800, h = 400, margin = 20;
  std::vector<uint8_t> img((size_t)w * h * 3, 255);
  double mx = 0;
  for (double t : tflops) mx = fmax(mx, t);
  if (mx <= 0) mx = 1;
  auto px = [&](uint32_t x, uint32_t y, uint8_t r, uint8_t g, uint8_t b) {
    uint8_t *q = &img[((size_t)y * w + x) * 3];
    q[0] = r, q[1] = g, q[2] = b;
  };
  for (int gl = 0; gl <= 10; ++gl) {
    const uint32_t y = h - margin - (uint32_t)((h - 2 * margin) * gl / 10);
    for (uint32_t x = margin; x < w - margin; ++x) px(x, y, 210, 210, 210);
  }
  const size_t nbar = tflops.size() ? tflops.size() : 1;
  const uint32_t slot = (w - 2 * margin) / (uint32_t)nbar;
  for (size_t i = 0; i < tflops.size(); ++i) {
    const uint32_t bh = (uint32_t)((h - 2 * margin) * (tflops[i] / mx));
    const uint32_t x0 = margin + (uint32_t)i * slot + slot / 8, x1 = x0 + slot * 3 / 4;
    for (uint32_t x = x0; x < x1 && x < w - margin; ++x)
      for (uint32_t y = h - margin - bh; y < h - margin; ++y) px(x, y, 200, 40, 40);
  }
  for (uint32_t x = margin; x < w - margin; ++x) px(x, h - margin, 0, 0, 0);
  for (uint32_t y = margin; y <= h - margin; ++y) px(margin, y, 0, 0, 0);
  return png_write(path, img.data(), w, h);
}

/* ---- main ----------------------------------------------------------------- */

#ifdef TK_GEMM_HIPBLASLT
#include "vs_hipblaslt.h"
/* --vs hipblaslt: both libraries on the same inputs from the same initial C:
 * agreement of one launch each, then hipBLASLt's time next to ours. */
static int compare_hipblaslt(int kernel, device_problem *d, const gemm_problem *p, const options *o, double tk_ms)
{
  const size_t n = d->c_bytes;
  std::vector<uint8_t> ours(n), theirs(n);
  GEMM_CHECK_HIP(hipMemcpy(d->c, d->hc0.data(), n, hipMemcpyHostToDevice));
  GEMM_CHECK_HIP(launch(kernel, d->a, d->b, d->c, p));
  GEMM_CHECK_HIP(hipMemcpy(ours.data(), d->c, n, hipMemcpyDeviceToHost));
  GEMM_CHECK_HIP(hipMemcpy(d->c, d->hc0.data(), n, hipMemcpyHostToDevice));
  if (hipblaslt_time(p, d->a, d->b, d->c, 1, 0) < 0) return 1;
  GEMM_CHECK_HIP(hipDeviceSynchronize());
  GEMM_CHECK_HIP(hipMemcpy(theirs.data(), d->c, n, hipMemcpyDeviceToHost));
  double max_diff = 0, max_ref = 0;
  const size_t esz = p->out == OUT_BF16 ? 2 : 4;
  for (size_t i = 0; i + esz <= n; i += esz) {
    float x, y;
    if (esz == 2) {
      uint16_t hx, hy;
      memcpy(&hx, &ours[i], 2);
      memcpy(&hy, &theirs[i], 2);
      x = bf16_to_f32(hx);
      y = bf16_to_f32(hy);
    } else {
      memcpy(&x, &ours[i], 4);
      memcpy(&y, &theirs[i], 4);
    }
    max_diff = fmax(max_diff, fabs((double)x - y));
    max_ref = fmax(max_ref, fabs((double)y));
  }
  printf("hipblaslt: agreement max |tk - hipblaslt| = %.3e (max |hipblaslt| = %.3e; padding between rows included)\n",
         max_diff, max_ref);
  const double ms = hipblaslt_time(p, d->a, d->b, d->c, o->iters, o->warmup);
  if (ms <= 0) return 1;
  const double flops = 2.0 * p->m * p->n * p->k * p->batch;
  printf("hipblaslt: %.4f ms per iteration, %.2f TFLOP/s; tk %s: %.2f TFLOP/s; tk / hipblaslt = %.3f\n", ms,
         flops / (ms * 1e-3) / 1e12, kernel_name(kernel), flops / (tk_ms * 1e-3) / 1e12, ms / tk_ms);
  return 0;
}
#endif

static const char *timing_label(bool sim)
{
  if (!sim) return "hardware";
  if (g_modeled) return "modeled (tksim timing model)";
  return tksim_model_on() ? "emulated wall time (tksim: timing model requested but not applied; NOT hardware performance)"
                          : "emulated wall time (tksim, NOT hardware performance)";
}

static int run_one(const options *o, bool sim)
{
  const gemm_problem *p = &o->p;
  const int kernel = choose_kernel(p, o->kernel);
  printf("problem: M=%lld N=%lld K=%lld batch=%lld layout=%s out=%s alpha=%g beta=%g lda=%lld ldb=%lld ldc=%lld\n",
         (long long)p->m, (long long)p->n, (long long)p->k, (long long)p->batch,
         p->layout == LAYOUT_NT ? "nt" : "nn", p->out == OUT_BF16 ? "bf16" : "f32", p->alpha, p->beta,
         (long long)p->lda, (long long)p->ldb, (long long)p->ldc);
  printf("kernel: %s%s\n", kernel_name(kernel), o->kernel == KERNEL_AUTO ? " (auto)" : "");
  if (!kernel_available(kernel)) {
    fprintf(stderr, "gemm: kernel %s is not implemented in this build yet; see docs/gemm.md\n",
            kernel_name(kernel));
    return 3;
  }
  if (const char *why = kernel_unsupported(kernel, p)) {
    fprintf(stderr, "gemm: kernel %s cannot run this problem: %s (--kernel auto picks one that can)\n",
            kernel_name(kernel), why);
    return 3;
  }
  device_problem d;
  setup(&d, p, o->seed);
  int rc = 0;
  if (o->check) {
    GEMM_CHECK_HIP(launch(kernel, d.a, d.b, d.c, p));
    GEMM_CHECK_HIP(hipDeviceSynchronize());
    if (o->inject) { /* test hook: the check must notice one wrong element */
      const size_t esz = p->out == OUT_BF16 ? 2 : 4;
      uint8_t e[4];
      GEMM_CHECK_HIP(hipMemcpy(e, d.c, esz, hipMemcpyDeviceToHost));
      float v;
      if (esz == 2) {
        uint16_t h;
        memcpy(&h, e, 2);
        v = bf16_to_f32(h);
        v += 0.25f * fmaxf(1.0f, fabsf(v));
        h = f32_to_bf16(v);
        memcpy(e, &h, 2);
      } else {
        memcpy(&v, e, 4);
        v += 0.25f * fmaxf(1.0f, fabsf(v));
        memcpy(e, &v, 4);
      }
      GEMM_CHECK_HIP(hipMemcpy(d.c, e, esz, hipMemcpyHostToDevice));
    }
    double max_abs, max_rel, ratio;
    int64_t nbad;
    const int where = check(&d, p, &max_abs, &max_rel, &ratio, &nbad);
    printf("check: reference %s; max abs err %.3e, max rel err %.3e, worst err/bound %.3f; tolerance per element: "
           "2*K*2^-24*sum|a*b| + 2^-24*|ref|%s\n",
           where == 0 ? "CPU double" : "GPU naive double", max_abs, max_rel, ratio,
           p->out == OUT_BF16 ? " + 2^-8*|ref| (bf16 output rounding)" : "");
    if (nbad) {
      printf("check: FAILED (%lld elements past tolerance)\n", (long long)nbad);
      rc = 1;
    } else
      printf("check: PASSED\n");
    GEMM_CHECK_HIP(hipMemcpy(d.c, d.hc0.data(), d.c_bytes, hipMemcpyHostToDevice));
  }
  if (o->iters > 0) {
    const double ms = time_kernel(kernel, &d, p, o->iters, o->warmup);
    if (ms < 0) {
      fprintf(stderr, "gemm: launch failed\n");
      teardown(&d);
      return 4;
    }
    const double flops = 2.0 * p->m * p->n * p->k * p->batch;
    printf("time: %.4f ms per iteration over %lld iterations (%lld warm-up) [%s]\n", ms, (long long)o->iters,
           (long long)o->warmup, timing_label(sim));
    if (!sim || g_modeled)
      printf("throughput: %.2f TFLOP/s%s\n", flops / (ms * 1e-3) / 1e12, sim ? " (modeled)" : "");
    else
      printf("throughput: not reported (emulated without timing model; run tksim --model=mi325x for modeled figures)\n");
#ifdef TK_GEMM_HIPBLASLT
    if (o->vs && compare_hipblaslt(kernel, &d, p, o, ms) != 0) rc = rc ? rc : 4;
#endif
  }
  teardown(&d);
  return rc;
}


static bool parse_shapes(const char *s, std::vector<gemm_problem> &out, const gemm_problem *base)
{
  while (*s) {
    long long m, n, k;
    int used = 0;
    if (sscanf(s, "%lldx%lldx%lld%n", &m, &n, &k, &used) != 3 || used == 0) return false;
    gemm_problem p = *base;
    p.m = m, p.n = n, p.k = k;
    p.lda = k;
    p.ldb = p.layout == LAYOUT_NT ? k : n;
    p.ldc = n;
    if (problem_error(&p)) return false;
    out.push_back(p);
    s += used;
    if (*s == ',') ++s;
    else if (*s) return false;
  }
  return !out.empty();
}

static int run_sweep(const options *o, bool sim)
{
  static const char *def =
      "1024x1024x1024,2048x2048x2048,4096x4096x4096,8192x8192x8192,16384x16384x16384,"
      "4096x4096x14336,4096x14336x4096,8192x28672x8192,8192x8192x28672,16384x8192x1024";
  std::vector<gemm_problem> shapes;
  if (!parse_shapes(o->shapes ? o->shapes : def, shapes, &o->p)) return bad("bad --sweep-shapes list", o->shapes);
  FILE *csv = NULL;
  if (o->csv && !(csv = fopen(o->csv, "w"))) {
    fprintf(stderr, "gemm: cannot write %s\n", o->csv);
    return 2;
  }
  if (csv) fprintf(csv, "m,n,k,batch,layout,out,kernel,ms,tflops,timing\n");
  std::vector<double> tf;
  for (const gemm_problem &p : shapes) {
    double first_tflops = 0;
    for (size_t ki = 0; ki < o->kernels.size(); ++ki) {
      const int kernel = choose_kernel(&p, o->kernels[ki]);
      if (!kernel_available(kernel)) {
        fprintf(stderr, "gemm: kernel %s is not implemented in this build yet\n", kernel_name(kernel));
        if (csv) fclose(csv);
        return 3;
      }
      if (const char *why = kernel_unsupported(kernel, &p)) {
        fprintf(stderr, "gemm: kernel %s cannot run %lldx%lldx%lld: %s\n", kernel_name(kernel), (long long)p.m,
                (long long)p.n, (long long)p.k, why);
        if (csv) fclose(csv);
        return 3;
      }
      device_problem d;
      setup(&d, &p, o->seed);
      const double ms = time_kernel(kernel, &d, &p, o->iters, o->warmup);
      teardown(&d);
      if (ms < 0) {
        fprintf(stderr, "gemm: launch failed\n");
        if (csv) fclose(csv);
        return 4;
      }
      const bool report = !sim || g_modeled;
      const double t = ms > 0 ? 2.0 * p.m * p.n * p.k * p.batch / (ms * 1e-3) / 1e12 : 0;
      tf.push_back(report ? t : 0.0);
      char tfs[32] = "", rel[64] = "";
      if (report) snprintf(tfs, sizeof tfs, "%.4f", t);
      if (ki == 0) first_tflops = t;
      else if (report && t > 0)
        snprintf(rel, sizeof rel, " (%s is %.2fx this)", kernel_name(choose_kernel(&p, o->kernels[0])), first_tflops / t);
      printf("sweep: %lldx%lldx%lld kernel %s: %.4f ms, %s%s%s [%s]\n", (long long)p.m, (long long)p.n,
             (long long)p.k, kernel_name(kernel), ms, report ? tfs : "TFLOP/s not reported (emulated)",
             report ? " TFLOP/s" : "", rel, timing_label(sim));
      if (csv)
        fprintf(csv, "%lld,%lld,%lld,%lld,%s,%s,%s,%.6f,%s,%s\n", (long long)p.m, (long long)p.n, (long long)p.k,
                (long long)p.batch, p.layout == LAYOUT_NT ? "nt" : "nn", p.out == OUT_BF16 ? "bf16" : "f32",
                kernel_name(kernel), ms, tfs, !sim ? "hardware" : g_modeled ? "modeled" : "emulated");
      fflush(stdout);
    }
  }
  if (csv && fclose(csv) != 0) {
    fprintf(stderr, "gemm: error writing %s\n", o->csv);
    return 2;
  }
  if (o->png && !plot_png(o->png, tf)) {
    fprintf(stderr, "gemm: cannot write %s\n", o->png);
    return 2;
  }
  return 0;
}

int main(int argc, char **argv)
{
  options o = options(); /* value-initialized: zeros and an empty list */
  o.p.m = o.p.n = o.p.k = 256;
  o.p.batch = 1;
  o.p.lda = o.p.ldb = o.p.ldc = -1;
  o.p.layout = LAYOUT_NT;
  o.p.out = OUT_BF16;
  o.p.alpha = 1.0f;
  o.p.beta = 0.0f;
  o.kernel = KERNEL_AUTO;
  o.iters = 10;
  o.warmup = 2;
  o.seed = 1;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--check")) { o.check = true; continue; }
    if (!strcmp(a, "--sweep")) { o.sweep = true; continue; }
    if (!strcmp(a, "--inject-error")) { o.inject = true; continue; }
    if (strncmp(a, "--", 2) != 0) return bad("unexpected argument", a);
    if (i + 1 >= argc) return bad("missing value for", a);
    const char *v = argv[++i];
    int64_t x;
    if (!strcmp(a, "--m") || !strcmp(a, "--n") || !strcmp(a, "--k") || !strcmp(a, "--batch") ||
        !strcmp(a, "--lda") || !strcmp(a, "--ldb") || !strcmp(a, "--ldc") || !strcmp(a, "--iters") ||
        !strcmp(a, "--warmup") || !strcmp(a, "--seed")) {
      if (!parse_i64(v, &x)) return bad("not an integer", v);
      if (!strcmp(a, "--m")) o.p.m = x;
      else if (!strcmp(a, "--n")) o.p.n = x;
      else if (!strcmp(a, "--k")) o.p.k = x;
      else if (!strcmp(a, "--batch")) o.p.batch = x;
      else if (!strcmp(a, "--lda") || !strcmp(a, "--ldb") || !strcmp(a, "--ldc")) {
        if (x < 1) return bad("leading dimension must be >= 1", v);
        (a[4] == 'a' ? o.p.lda : a[4] == 'b' ? o.p.ldb : o.p.ldc) = x;
      } else if (!strcmp(a, "--iters")) {
        if (x < 0) return bad("--iters must be >= 0 (0: no timing)", v);
        o.iters = x, o.iters_set = true;
      } else if (!strcmp(a, "--warmup")) {
        if (x < 0) return bad("--warmup must be >= 0", v);
        o.warmup = x, o.warmup_set = true;
      } else
        o.seed = (uint64_t)x;
    } else if (!strcmp(a, "--alpha") || !strcmp(a, "--beta")) {
      if (!parse_f32(v, a[2] == 'a' ? &o.p.alpha : &o.p.beta)) return bad("not a finite number", v);
    } else if (!strcmp(a, "--layout")) {
      if (!strcmp(v, "nt")) o.p.layout = LAYOUT_NT;
      else if (!strcmp(v, "nn")) o.p.layout = LAYOUT_NN;
      else return bad("unknown layout (nt|nn)", v);
    } else if (!strcmp(a, "--out")) {
      if (!strcmp(v, "bf16")) o.p.out = OUT_BF16;
      else if (!strcmp(v, "f32")) o.p.out = OUT_F32;
      else return bad("unknown output type (bf16|f32)", v);
    } else if (!strcmp(a, "--kernel")) {
      if (!parse_kernel(v, strlen(v), &o.kernel)) return bad("unknown kernel (8wave|4wave|simple|auto)", v);
    } else if (!strcmp(a, "--sweep-kernels")) {
      o.sweep = true;
      for (const char *q = v;;) {
        const char *e = strchr(q, ',');
        const size_t len = e ? (size_t)(e - q) : strlen(q);
        int k;
        if (!parse_kernel(q, len, &k)) return bad("unknown kernel in --sweep-kernels (8wave|4wave|simple|auto)", v);
        o.kernels.push_back(k);
        if (!e) break;
        q = e + 1;
      }
    } else if (!strcmp(a, "--csv")) o.csv = v;
    else if (!strcmp(a, "--png")) o.png = v;
    else if (!strcmp(a, "--sweep-shapes")) { o.shapes = v; o.sweep = true; }
    else if (!strcmp(a, "--vs")) {
      if (strcmp(v, "hipblaslt") != 0) return bad("unknown --vs library (hipblaslt)", v);
#ifdef TK_GEMM_HIPBLASLT
      o.vs = true;
#else
      fprintf(stderr, "gemm: --vs hipblaslt: not available in this build (hipBLASLt was not found at configure time)\n");
      return 2;
#endif
    } else
      return bad("unknown option", a);
  }
  if (o.p.lda < 0) o.p.lda = o.p.k;
  if (o.p.ldb < 0) o.p.ldb = o.p.layout == LAYOUT_NT ? o.p.k : o.p.n;
  if (o.p.ldc < 0) o.p.ldc = o.p.n;
  if (const char *e = problem_error(&o.p)) return bad(e, NULL);
  if ((o.csv || o.png) && !o.sweep) return bad("--csv/--png need --sweep", NULL);
  if (o.sweep && o.check) return bad("--check and --sweep are exclusive", NULL);
  if (o.inject && !o.check) return bad("--inject-error needs --check", NULL);
  if (o.sweep && o.iters == 0) return bad("--sweep needs --iters >= 1", NULL);
  { /* tksim --model-sample runs only some workgroups: C is incomplete */
    const char *ms = getenv("TKSIM_MODEL_SAMPLE");
    if (o.check && ms && atoi(ms) > 0)
      return bad("--check is refused under tksim --model-sample (results of unsimulated workgroups are not computed)",
                 NULL);
  }

  int ndev = 0;
  if (hipGetDeviceCount(&ndev) != hipSuccess || ndev < 1) {
    fprintf(stderr, "gemm: no HIP device (run under tksim: build/bin/tksim build/bin/gemm ...)\n");
    return 4;
  }
  const bool sim = under_tksim();
  if (sim) { /* emulated launches are slow: one timed launch unless asked */
    if (!o.iters_set) o.iters = 1;
    if (!o.warmup_set) o.warmup = 0;
  }
  if (o.kernels.empty()) o.kernels.push_back(o.kernel);
  return o.sweep ? run_sweep(&o, sim) : run_one(&o, sim);
}
