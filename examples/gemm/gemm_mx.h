/* gemm_mx.h: the "mx" GEMM kernel: OCP Microscaling inputs (MXFP8 E4M3 or
 * E5M2, MXFP4 E2M1) with one E8M0 scale per 32 elements along K, f32
 * accumulation, the fused epilogue, bf16 or f32 C.  gfx950 only: it is built
 * on v_mfma_scale_f32_32x32x64_f8f6f4 (tk_mfma_scale_32x32x64_f8f6f4,
 * tk/mma.h), which reads 32 elements of one row (A) or column (B) per lane,
 * lane l holding row l % 32 and K elements 32*(l / 32) .. +31 of the
 * instruction's 64, and one scale byte per lane: that lane's 32 elements are
 * exactly one MX block (CDNA4 ISA guide, "Matrix arithmetic"; the OCP MX
 * spec v1.0 block size 32).  The result lane layout is the 32x32 one of every
 * MFMA: D[i][j] in lane j + 32*((i/4) % 2), register (i % 4) + 4*(i / 8).
 *
 * 4 waves, 128x128 C tile (2 x 2 waves, 2 x 2 fragments of 32x32 each), K
 * step 64; operands go from global memory straight into registers (16-byte
 * loads when a lane's 32 elements are whole and aligned, masked bytes
 * otherwise: K tails, odd leading dimensions), rows past M or N and K past
 * the end read 0 with scale 1.0 (zero blocks, no NaN from padding).  A is
 * M x K, B is N x K (nt), scale tensors M x ceil(K/32) and N x ceil(K/32)
 * bytes per batch.  No LDS and no ping-pong yet: the first, plain version
 * (docs/gemm.md "MX inputs" has its modeled speed). */
#ifndef GEMM_MX_H
#define GEMM_MX_H

#include <hip/hip_runtime.h>
#include <tk/epilogue.h>
#include <tk/mma.h>
#include <tk/types.h>

#include "gemm_mx_ref.h"
#include "gemm_tile.h"
#include "tk_gemm.h"

#define MX_TILE 128 /* C tile edge */
#define MX_KS 64    /* K per MFMA */

/* the element format (GEMM_MX_*) of an MX problem */
static inline __host__ __device__ int gemm_mx_fmt(const tk_gemm_problem *p)
{
  return p->in == TK_GEMM_IN_MXFP4 ? GEMM_MX_E2M1 : p->in == TK_GEMM_IN_MXFP8_E5M2 ? GEMM_MX_E5M2 : GEMM_MX_E4M3;
}

/* Why the mx kernel cannot take p (NULL: it can); the device check (gfx950)
 * is the host API's (tk_gemm_mx_device_ok). */
static inline const char *gemm_mx_unsupported(const tk_gemm_problem *p)
{
  if (!tk_gemm_in_is_mx(p->in)) return "the mx kernel takes MX inputs only (--in mxfp8|mxfp8-e5m2|mxfp4)";
  if (p->layout != TK_GEMM_NT) return "MX inputs need layout nt (B as N x K, scales along K for both)";
  return NULL;
}

#if TK_HAS_MFMA_F8F6F4
/* a lane's 32 elements of row r from element k (fp8: 32 bytes; fp4: 16 bytes
 * in the low half), 0 past K or past the rows; row base pointer x_row */
static __device__ inline tk_i32x8 gemm_mx_load(const uint8_t *x_row, bool row_ok, int64_t k, int64_t K, bool fp4,
                                               bool aligned)
{
  tk_i32x8 v = {0, 0, 0, 0, 0, 0, 0, 0};
  if (!row_ok || k >= K) return v;
  const int64_t valid = K - k; /* elements left in the row */
  if (fp4) {
    const uint8_t *p = x_row + k / 2;
    if (valid >= 32 && aligned) {
      const uint4 q = *(const uint4 *)p;
      v[0] = (int32_t)q.x, v[1] = (int32_t)q.y, v[2] = (int32_t)q.z, v[3] = (int32_t)q.w;
      return v;
    }
    uint32_t w[4] = {0, 0, 0, 0};
    for (int e = 0; e < 32 && e < valid; e += 2) {
      uint32_t byte = p[e / 2];
      if (e + 1 >= valid) byte &= 0xfu; /* the odd K's last nibble pairs with nothing */
      w[e / 8] |= byte << (4 * (e % 8));
    }
    v[0] = (int32_t)w[0], v[1] = (int32_t)w[1], v[2] = (int32_t)w[2], v[3] = (int32_t)w[3];
    return v;
  }
  const uint8_t *p = x_row + k;
  if (valid >= 32 && aligned) {
    const uint4 q0 = *(const uint4 *)p, q1 = *(const uint4 *)(p + 16);
    v[0] = (int32_t)q0.x, v[1] = (int32_t)q0.y, v[2] = (int32_t)q0.z, v[3] = (int32_t)q0.w;
    v[4] = (int32_t)q1.x, v[5] = (int32_t)q1.y, v[6] = (int32_t)q1.z, v[7] = (int32_t)q1.w;
    return v;
  }
  uint32_t w[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int e = 0; e < 32 && e < valid; ++e) w[e / 4] |= (uint32_t)p[e] << (8 * (e % 4));
  for (int i = 0; i < 8; ++i) v[i] = (int32_t)w[i];
  return v;
}

/* D += (A sa)(B sb) for the problem's format (uniform switch: the format is
 * an instruction field, so one constant per branch) */
static __device__ inline tk_f32x16 gemm_mx_mfma(int fmt, tk_i32x8 a, tk_i32x8 b, tk_f32x16 c, int sa, int sb)
{
  switch (fmt) {
  case GEMM_MX_E5M2: return tk_mfma_scale_32x32x64_f8f6f4(a, b, c, TK_F8F6F4_BF8, TK_F8F6F4_BF8, sa, sb);
  case GEMM_MX_E2M1: return tk_mfma_scale_32x32x64_f8f6f4(a, b, c, TK_F8F6F4_FP4, TK_F8F6F4_FP4, sa, sb);
  default: return tk_mfma_scale_32x32x64_f8f6f4(a, b, c, TK_F8F6F4_FP8, TK_F8F6F4_FP8, sa, sb);
  }
}
#endif

__global__ __launch_bounds__(256) void gemm_mx(const uint8_t *__restrict__ a, const uint8_t *__restrict__ b,
                                               const uint8_t *__restrict__ sa, const uint8_t *__restrict__ sb,
                                               void *c, tk_gemm_problem p)
{
#if TK_HAS_MFMA_F8F6F4
  const int lane = threadIdx.x % 64, wave = threadIdx.x / 64;
  int64_t m0, n0;
  gemm_tile_origin(p, MX_TILE, &m0, &n0);
  const int64_t z = blockIdx.z;
  const int fmt = gemm_mx_fmt(&p);
  const bool fp4 = fmt == GEMM_MX_E2M1;
  const int64_t kb = (p.k + GEMM_MX_BLOCK - 1) / GEMM_MX_BLOCK;
  /* bytes per row and per batch (fp4: two elements per byte, lda/ldb even) */
  const int64_t a_ld = fp4 ? p.lda / 2 : p.lda, b_ld = fp4 ? p.ldb / 2 : p.ldb;
  a += z * p.m * a_ld;
  b += z * p.n * b_ld;
  sa += z * p.m * kb;
  sb += z * p.n * kb;
  /* 16-byte loads need every row's start and the block offsets 16-aligned */
  const bool a_al = ((uintptr_t)a % 16 == 0) && a_ld % 16 == 0, b_al = ((uintptr_t)b % 16 == 0) && b_ld % 16 == 0;
  const int wm = wave / 2, wn = wave % 2; /* the wave's 64x64 block */
  const int li = lane % 32, kg = lane / 32;
  int64_t ra[2], rb[2];
  bool oka[2], okb[2];
  for (int f = 0; f < 2; ++f) {
    ra[f] = m0 + wm * 64 + f * 32 + li, oka[f] = ra[f] < p.m;
    rb[f] = n0 + wn * 64 + f * 32 + li, okb[f] = rb[f] < p.n;
  }
  tk_f32x16 acc[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int r = 0; r < 16; ++r) acc[i][j][r] = 0.0f;

  for (int64_t k0 = 0; k0 < p.k; k0 += MX_KS) {
    const int64_t k = k0 + 32 * kg, blk = k / GEMM_MX_BLOCK;
    tk_i32x8 av[2], bv[2];
    int sav[2], sbv[2];
    for (int f = 0; f < 2; ++f) {
      av[f] = gemm_mx_load(a + (oka[f] ? ra[f] : 0) * a_ld, oka[f], k, p.k, fp4, a_al);
      bv[f] = gemm_mx_load(b + (okb[f] ? rb[f] : 0) * b_ld, okb[f], k, p.k, fp4, b_al);
      /* padding (rows past the matrix, blocks past K): zeros with scale 1.0 */
      sav[f] = oka[f] && blk < kb ? sa[ra[f] * kb + blk] : 127;
      sbv[f] = okb[f] && blk < kb ? sb[rb[f] * kb + blk] : 127;
    }
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) acc[i][j] = gemm_mx_mfma(fmt, av[i], bv[j], acc[i][j], sav[i], sbv[j]);
  }

  /* epilogue per element (tk_epi: alpha * scales, beta, bias, activation);
   * a lane writes column j of 16 rows per fragment, 32 lanes a row segment */
  const tk_epi ep = gemm_epi(p);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const int64_t gn = n0 + wn * 64 + j * 32 + li;
      if (gn >= p.n) continue;
      for (int r = 0; r < 16; ++r) {
        const int64_t gm = m0 + wm * 64 + i * 32 + 8 * (r / 4) + 4 * kg + (r % 4);
        if (gm >= p.m) continue;
        const int64_t off = z * tk_gemm_c_stride(&p) + gm * p.ldc + gn;
        if (p.out == TK_GEMM_OUT_BF16) {
          uint16_t *cp = (uint16_t *)c + off;
          const float o = p.beta != 0.0f ? tk_bf16_to_f32(*cp) : 0.0f;
          *cp = tk_f32_to_bf16(tk_epi_value(&ep, acc[i][j][r], o, (uint32_t)gm, (uint32_t)gn));
        } else {
          float *cp = (float *)c + off;
          const float o = p.beta != 0.0f ? *cp : 0.0f;
          *cp = tk_epi_value(&ep, acc[i][j][r], o, (uint32_t)gm, (uint32_t)gn);
        }
      }
    }
#else
  (void)a, (void)b, (void)sa, (void)sb, (void)c, (void)p; /* gfx942: refused on the host (tk_gemm_plan) */
#endif
}

static hipError_t gemm_mx_launch(const tk_gemm_problem *p, const void *a, const void *b, void *c, hipStream_t stream)
{
  const int64_t tiles = ((p->n + MX_TILE - 1) / MX_TILE) * ((p->m + MX_TILE - 1) / MX_TILE);
  if (tiles > 0xffffffffll) return hipErrorInvalidValue;
  hipLaunchKernelGGL(gemm_mx, dim3((unsigned)tiles, 1, (unsigned)p->batch), dim3(256), 0, stream, (const uint8_t *)a,
                     (const uint8_t *)b, (const uint8_t *)p->mx_scale_a, (const uint8_t *)p->mx_scale_b, c, *p);
  return hipGetLastError();
}

#endif /* GEMM_MX_H */
