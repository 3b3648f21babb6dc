/* gemm_splitk.h: split-K for the 8wave kernel, in the same launch: every
 * split of a tile writes its f32 partial to the workspace, then counts itself
 * in the tile's counter; the split that arrives last sums all partials of
 * the tile and applies the epilogue (gemm_epi: alpha, beta, bias, activation).
 *
 * Deterministic: the last split adds the partials in split order 0, 1, ...
 * (its own too, read back from the workspace), so the same inputs give the
 * same bits whichever split arrives last (the order differs from the unsplit
 * kernel's; the error bound of docs/gemm.md holds for any order).  One launch:
 * no second kernel, whose launch would cost as much as a small GEMM.
 *
 * Memory ordering (LLVM AMDGPUUsage, "Memory Model GFX942"): each thread's
 * partial stores are released at agent scope (__threadfence: the L2
 * write-back that makes them visible to the other XCDs' L2s) before the
 * workgroup barrier, after which one thread increments the counter (an
 * agent-scope atomic); the last split fences again (acquire: invalidates
 * its L2's stale lines) before reading the partials.
 *
 * Workspace (gemm_splitk_ws_bytes): batch * splits partials of M x N f32,
 * packed (batch z, split s at ((z * splits + s) * M * N) floats, gemm_tile.h
 * gemm_ws_tensor), then one uint32 counter per tile and batch.  Counters must
 * be zero before the first launch (tk_gemm_run zeroes a workspace it
 * allocates; a caller's must be zeroed once); the last split resets its
 * tile's counter, so they are zero again after every complete launch. */
#ifndef GEMM_SPLITK_H
#define GEMM_SPLITK_H

#include <hip/hip_runtime.h>
#include <tk/types.h>
#include <tk/epilogue.h>
#include <tk/sync.h>

#include "tk_gemm.h"

/* bytes of workspace for `splits` splits over `tiles` tiles per batch */
static int64_t gemm_splitk_ws_bytes(const tk_gemm_problem *p, int64_t splits, int64_t tiles)
{
  return splits > 1 ? p->batch * splits * p->m * p->n * 4 + p->batch * tiles * 4 : 0;
}

/* After this workgroup's partial of tile (m0, n0) (tm x tn) of batch z is
 * stored: count it; if it is the tile's last split, reduce and write C.
 * flag: one LDS word no wave uses any more (the caller's epilogue is done). */
#define GEMM_SPLITK_BATCH 8 /* 4-column groups per thread summed together */
static __device__ inline __attribute__((always_inline)) void gemm_splitk_finish(const tk_gemm_problem &p, float *ws,
    void *c, int64_t z, int64_t m0, int64_t n0, int tm, int tn, uint32_t *flag)
{
  const int64_t mn = p.m * p.n, splits = gridDim.y;
  uint32_t *cnt = (uint32_t *)(ws + p.batch * splits * mn) + z * gridDim.x + blockIdx.x;
  __threadfence(); /* release this thread's partial stores */
  __syncthreads();
  if (threadIdx.x == 0) *flag = atomicAdd(cnt, 1u);
  __syncthreads();
  if (*flag != (uint32_t)(splits - 1)) return; /* wave-uniform: the same word for all */
  __threadfence(); /* acquire the other splits' partials */
  /* thread t sums the 4-column groups t, t + 512, ... of the tile, 8 groups
   * at a time: all loads of a split for those 8 are issued before the first
   * is used, so the memory latency is paid once per split and 8 groups, not
   * per element (and 32 accumulators stay in registers) */
  const int groups = tm * tn / 4 / 512;
  const float *w = ws + z * splits * mn;
  const bool vec = p.n % 4 == 0; /* 16-byte aligned rows of partials */
  const bool bf16 = p.out == TK_GEMM_OUT_BF16;
  const tk_epi epi = gemm_epi(p);
  for (int g0 = 0; g0 < groups; g0 += GEMM_SPLITK_BATCH) {
    float acc[GEMM_SPLITK_BATCH][4];
#pragma unroll
    for (int i = 0; i < GEMM_SPLITK_BATCH; ++i) acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = 0.0f;
    for (int64_t k = 0; k < splits; ++k) {
      const float *wk = w + k * mn;
#pragma unroll
      for (int i = 0; i < GEMM_SPLITK_BATCH; ++i) {
        const int g = (int)threadIdx.x + (g0 + i) * 512;
        const int64_t m = m0 + (g * 4) / tn, n = n0 + (g * 4) % tn;
        if (g0 + i >= groups || m >= p.m || n >= p.n) continue;
        if (vec) {
          const float4 v = *(const float4 *)(wk + m * p.n + n);
          acc[i][0] += v.x, acc[i][1] += v.y, acc[i][2] += v.z, acc[i][3] += v.w;
        } else {
#pragma unroll
          for (int j = 0; j < 4; ++j)
            if (n + j < p.n) acc[i][j] += wk[m * p.n + n + j];
        }
      }
    }
#pragma unroll
    for (int i = 0; i < GEMM_SPLITK_BATCH; ++i) {
      const int g = (int)threadIdx.x + (g0 + i) * 512;
      const int64_t m = m0 + (g * 4) / tn, n = n0 + (g * 4) % tn;
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        if (g0 + i >= groups || m >= p.m || n + j >= p.n) continue;
        const int64_t ci = z * tk_gemm_c_stride(&p) + m * p.ldc + n + j;
        if (bf16) {
          uint16_t *cz = (uint16_t *)c;
          const float old = p.beta != 0.0f ? tk_bf16_to_f32(cz[ci]) : 0.0f;
          cz[ci] = tk_f32_to_bf16(tk_epi_value(&epi, acc[i][j], old, (uint32_t)m, (uint32_t)(n + j)));
        } else {
          float *cz = (float *)c;
          const float old = p.beta != 0.0f ? cz[ci] : 0.0f;
          cz[ci] = tk_epi_value(&epi, acc[i][j], old, (uint32_t)m, (uint32_t)(n + j));
        }
      }
    }
  }
  /* zero again for the next launch; the lane mask recomputed here, not held
   * in an SGPR pair across the reduction (spilled to a VGPR lane otherwise) */
  if (tk_opaque(threadIdx.x) == 0) atomicExch(cnt, 0u);
}

#endif /* GEMM_SPLITK_H */
