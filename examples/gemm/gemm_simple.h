/* gemm_simple.h: the "simple" GEMM kernel: 4 waves, 64x64 C tile, K step 16,
 * A and B (bf16 or fp8 e4m3) staged as f32 in k-major LDS arrays, f32 FMAs in
 * plain HIP (no MFMA), the fused epilogue per element (tk_epi_value).
 * Takes any problem (out-of-range elements load as 0); the auto heuristic uses
 * it when M or N is at most 64, where larger tiles would be mostly padding.
 * Tiles are visited in tk's L2-grouped, XCD-remapped order (gemm_tile.h).
 *
 * Relies on: bf16 is the top half of an IEEE binary32 (tk/types.h). */
#ifndef GEMM_SIMPLE_H
#define GEMM_SIMPLE_H

#include <hip/hip_runtime.h>
#include <tk/epilogue.h>
#include <tk/types.h>

#include "gemm_tile.h"
#include "tk_gemm.h"

#define S_TILE 64 /* C tile edge */
#define S_KT 16   /* K per LDS stage */

/* element i of an input operand as f32: bf16 bits, or the device's fp8 e4m3:
 * FNUZ through the hardware conversion (v_cvt_f32_fp8, tk/types.h) on gfx942;
 * OCP decoded in software on gfx950 (tksim does not emulate gfx950's fp8
 * conversions yet, tk/types.h) */
static __device__ inline float gemm_simple_in(const void *x, int64_t i, bool fp8)
{
  if (!fp8) return tk_bf16_to_f32(((const uint16_t *)x)[i]);
#if TK_FP8_FNUZ
  return tk_fp8e4_to_f32(((const uint8_t *)x)[i]);
#else
  return tk_ocp_e4m3_to_f32_ref(((const uint8_t *)x)[i]);
#endif
}

__global__ __launch_bounds__(256) void gemm_simple(const void *__restrict__ a,
                                                   const void *__restrict__ b,
                                                   void *c, tk_gemm_problem p)
{
  /* k-major LDS tiles so the inner loop reads a row of A values and a row of B
   * values; +1 column of f32 would not help here: lanes read along n/m. */
  __shared__ float as[S_KT][S_TILE];
  __shared__ float bs[S_KT][S_TILE];
  const int tid = threadIdx.x;
  const int tx = tid % 16, ty = tid / 16;
  int64_t m0, n0;
  gemm_tile_origin(p, S_TILE, &m0, &n0);
  const int64_t z = blockIdx.z;
  const bool fp8 = p.in == TK_GEMM_IN_FP8; /* uniform */
  const int64_t ib = tk_gemm_in_elem_bytes(&p);
  a = (const char *)a + z * tk_gemm_a_stride(&p) * ib;
  b = (const char *)b + z * tk_gemm_b_stride(&p) * ib;
  float acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) acc[i][j] = 0.0f;

  for (int64_t k0 = 0; k0 < p.k; k0 += S_KT) {
    { /* A: 64 rows x 16 k, 4 consecutive k per lane */
      const int r = tid / 4, kc = (tid % 4) * 4;
      const int64_t gm = m0 + r;
      for (int q = 0; q < 4; ++q) {
        const int64_t gk = k0 + kc + q;
        as[kc + q][r] = (gm < p.m && gk < p.k) ? gemm_simple_in(a, gm * p.lda + gk, fp8) : 0.0f;
      }
    }
    if (p.layout == TK_GEMM_NT) { /* B is N x K */
      const int r = tid / 4, kc = (tid % 4) * 4;
      const int64_t gn = n0 + r;
      for (int q = 0; q < 4; ++q) {
        const int64_t gk = k0 + kc + q;
        bs[kc + q][r] = (gn < p.n && gk < p.k) ? gemm_simple_in(b, gn * p.ldb + gk, fp8) : 0.0f;
      }
    } else { /* B is K x N */
      const int kr = tid / 16, nc = (tid % 16) * 4;
      const int64_t gk = k0 + kr;
      for (int q = 0; q < 4; ++q) {
        const int64_t gn = n0 + nc + q;
        bs[kr][nc + q] = (gn < p.n && gk < p.k) ? gemm_simple_in(b, gk * p.ldb + gn, fp8) : 0.0f;
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

  /* Epilogue (tk_epi: alpha * scales, beta, bias, activation): 4 consecutive
   * columns per lane -> one 8-byte (bf16) or 16-byte (f32) store when the row
   * segment is whole and aligned; masked elements otherwise. beta == 0 never
   * reads C (BLAS convention: C may hold NaN). */
  const tk_epi ep = gemm_epi(p);
  const int64_t gn = n0 + 4 * tx;
  for (int i = 0; i < 4; ++i) {
    const int64_t gm = m0 + ty + 16 * i;
    if (gm >= p.m) continue;
    const int64_t off = z * tk_gemm_c_stride(&p) + gm * p.ldc + gn;
    const bool whole = gn + 4 <= p.n && (off % 4) == 0;
    float old[4] = {0.0f, 0.0f, 0.0f, 0.0f}, r[4];
    if (p.out == TK_GEMM_OUT_BF16) {
      uint16_t *cp = (uint16_t *)c + off;
      if (whole) {
        if (p.beta != 0.0f) {
          const uint2 o = *(const uint2 *)cp;
          old[0] = tk_bf16_to_f32((uint16_t)(o.x & 0xffff)), old[1] = tk_bf16_to_f32((uint16_t)(o.x >> 16));
          old[2] = tk_bf16_to_f32((uint16_t)(o.y & 0xffff)), old[3] = tk_bf16_to_f32((uint16_t)(o.y >> 16));
        }
        for (int j = 0; j < 4; ++j) r[j] = tk_epi_value(&ep, acc[i][j], old[j], (uint32_t)gm, (uint32_t)(gn + j));
        *(uint2 *)cp = make_uint2((uint32_t)tk_f32_to_bf16(r[0]) | ((uint32_t)tk_f32_to_bf16(r[1]) << 16),
                                  (uint32_t)tk_f32_to_bf16(r[2]) | ((uint32_t)tk_f32_to_bf16(r[3]) << 16));
      } else {
        for (int j = 0; j < 4 && gn + j < p.n; ++j) {
          const float o = p.beta != 0.0f ? tk_bf16_to_f32(cp[j]) : 0.0f;
          cp[j] = tk_f32_to_bf16(tk_epi_value(&ep, acc[i][j], o, (uint32_t)gm, (uint32_t)(gn + j)));
        }
      }
    } else {
      float *cp = (float *)c + off;
      if (whole) {
        if (p.beta != 0.0f) {
          const float4 o = *(const float4 *)cp;
          old[0] = o.x, old[1] = o.y, old[2] = o.z, old[3] = o.w;
        }
        for (int j = 0; j < 4; ++j) r[j] = tk_epi_value(&ep, acc[i][j], old[j], (uint32_t)gm, (uint32_t)(gn + j));
        *(float4 *)cp = make_float4(r[0], r[1], r[2], r[3]);
      } else {
        for (int j = 0; j < 4 && gn + j < p.n; ++j) {
          const float o = p.beta != 0.0f ? cp[j] : 0.0f;
          cp[j] = tk_epi_value(&ep, acc[i][j], o, (uint32_t)gm, (uint32_t)(gn + j));
        }
      }
    }
  }
}

static hipError_t gemm_simple_launch(const tk_gemm_problem *p, const void *a, const void *b, void *c,
                                     hipStream_t stream)
{
  const int64_t tiles = ((p->n + S_TILE - 1) / S_TILE) * ((p->m + S_TILE - 1) / S_TILE);
  if (tiles > 0xffffffffll) return hipErrorInvalidValue;
  hipLaunchKernelGGL(gemm_simple, dim3((unsigned)tiles, 1, (unsigned)p->batch), dim3(256), 0, stream, a, b, c, *p);
  return hipGetLastError();
}

#endif /* GEMM_SIMPLE_H */
