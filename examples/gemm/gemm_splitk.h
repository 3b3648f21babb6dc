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

#include "gemm_tile.h" /* gemm_epi */
#include "tk_gemm.h"

/* bytes of workspace for `splits` splits over `tiles` tiles per batch */
static inline int64_t gemm_splitk_ws_bytes(const tk_gemm_problem *p, int64_t splits, int64_t tiles)
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
  const int64_t cs = tk_gemm_c_stride(&p);
  const bool plain = epi.alpha == 1.0f && epi.beta == 0.0f && epi.bias_mode == TK_BIAS_NONE && epi.act == TK_ACT_NONE;
  /* a tile wholly inside C with 16-byte aligned rows of C: 16-byte (f32) or
   * 8-byte (bf16) stores, no range tests */
  const bool whole = vec && m0 + tm <= p.m && n0 + tn <= p.n && p.ldc % 4 == 0 && (uintptr_t)c % 16 == 0;
  /* A tile wholly inside C: no range tests.  Each test of the edge code
   * below is a branch around its load and add, so clang waits for every load
   * on its own (1024^3 with two splits, modeled: 16 loads one after another,
   * 0.6 us each, then 32 element stores each behind a vmcnt wait, 20 us of
   * reduction).  Here a split's loads for 8 groups are issued together, C
   * (beta != 0) is read before any store and written 16 or 8 bytes per
   * group.  (The edge code with selects instead of branches held a lane mask
   * per element in SGPRs: 52-74 SGPRs spilled in every kernel.) */
  if (whole) {
    for (int g0 = 0; g0 < groups; g0 += GEMM_SPLITK_BATCH) {
      tk_f32x4 acc[GEMM_SPLITK_BATCH];
      int64_t off[GEMM_SPLITK_BATCH]; /* the group's first element: m * N + n */
#pragma unroll
      for (int i = 0; i < GEMM_SPLITK_BATCH; ++i) {
        const int g = (int)threadIdx.x + (g0 + i) * 512;
        off[i] = (m0 + (g * 4) / tn) * p.n + n0 + (g * 4) % tn;
        acc[i] = tk_f32x4{0.0f, 0.0f, 0.0f, 0.0f};
      }
      for (int64_t k = 0; k < splits; ++k) {
        tk_f32x4 v[GEMM_SPLITK_BATCH];
#pragma unroll
        for (int i = 0; i < GEMM_SPLITK_BATCH; ++i)
          if (g0 + i < groups) v[i] = *(const tk_f32x4 *)(w + k * mn + off[i]);
#pragma unroll
        for (int i = 0; i < GEMM_SPLITK_BATCH; ++i)
          if (g0 + i < groups) acc[i] += v[i];
      }
      if (!plain) { /* wave-uniform */
        tk_f32x4 old[GEMM_SPLITK_BATCH];
#pragma unroll
        for (int i = 0; i < GEMM_SPLITK_BATCH; ++i) {
          const int g = (int)threadIdx.x + (g0 + i) * 512;
          const int64_t ci = z * cs + (m0 + (g * 4) / tn) * p.ldc + n0 + (g * 4) % tn;
          old[i] = tk_f32x4{0.0f, 0.0f, 0.0f, 0.0f};
          if (g0 + i < groups && p.beta != 0.0f) {
            if (bf16) {
              const tk_u32x2 h = *(const tk_u32x2 *)((const uint16_t *)c + ci);
              old[i] = tk_f32x4{tk_bits_f32(h.x << 16), tk_bits_f32(h.x & 0xffff0000u), tk_bits_f32(h.y << 16),
                                tk_bits_f32(h.y & 0xffff0000u)};
            } else
              old[i] = *(const tk_f32x4 *)((const float *)c + ci);
          }
        }
#pragma unroll
        for (int i = 0; i < GEMM_SPLITK_BATCH; ++i) {
          const int g = (int)threadIdx.x + (g0 + i) * 512;
          const uint32_t m = (uint32_t)(m0 + (g * 4) / tn), n = (uint32_t)(n0 + (g * 4) % tn);
#pragma unroll
          for (int j = 0; j < 4; ++j) acc[i][j] = tk_epi_value(&epi, acc[i][j], old[i][j], m, n + j);
        }
      }
#pragma unroll
      for (int i = 0; i < GEMM_SPLITK_BATCH; ++i) {
        if (g0 + i >= groups) continue;
        const int g = (int)threadIdx.x + (g0 + i) * 512;
        const int64_t ci = z * cs + (m0 + (g * 4) / tn) * p.ldc + n0 + (g * 4) % tn;
        if (bf16) /* (_rne: gfx950's v_cvt_pk_bf16_f32, the same bits as tk_pack_bf16x2's ~10 ops per pair) */
          *(tk_u32x2 *)((uint16_t *)c + ci) =
              tk_u32x2{tk_pack_bf16x2_rne(acc[i][0], acc[i][1]), tk_pack_bf16x2_rne(acc[i][2], acc[i][3])};
        else
          *(tk_f32x4 *)((float *)c + ci) = acc[i];
      }
    }
    if (tk_opaque(threadIdx.x) == 0) atomicExch(cnt, 0u);
    return;
  }
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

/* Counts this workgroup's stored partial in *cnt (release, agent scope) and
 * returns whether it was the last of `parts` (then acquired: the others'
 * partials are visible).  flag: one LDS word no wave uses any more. */
static __device__ inline __attribute__((always_inline)) bool gemm_count_part(uint32_t *cnt, int64_t parts,
                                                                            uint32_t *flag)
{
  __threadfence(); /* release this thread's partial stores */
  __syncthreads();
  if (tk_opaque(threadIdx.x) == 0) *flag = atomicAdd(cnt, 1u);
  __syncthreads();
  const bool last = *flag == (uint32_t)(parts - 1); /* wave-uniform: the same word for all */
  __syncthreads(); /* every wave has read the flag before LDS is used again */
  if (last) __threadfence(); /* acquire the other parts */
  return last;
}

/* Stream-K (docs/gemm.md, "Stream-K"): the tiles of a launch in their
 * logical order; workgroups 0 .. dp-1 compute tiles 0 .. dp-1 whole (data
 * parallel, as without stream-K), and the `groups` workgroups after them
 * share the last `tiles` tiles' K iterations evenly: SK workgroup rho (after
 * the XCD remap, so neighbouring ranges share an XCD's L2) takes iterations
 * [rho * I / groups, (rho + 1) * I / groups) of I = tiles * kt (kt
 * iterations of K step per tile, tile-major).  A range covers parts of up
 * to two tiles and whole tiles between; a whole tile is stored as usual, a
 * part goes to one of the workgroup's two slots (slot 0: its first
 * segment, slot 1: its last) and the tile's last part to arrive sums them in
 * K order (deterministic), as split-K does.  groups == 0: no stream-K.
 * Batch 1 only; the host needs tiles * kt >= groups (no empty ranges).
 * Every launch sets dp (all tiles when groups == 0; read as uint32) and
 * splits (K splits, gridDim.y): the kernels read these, not gridDim, whose
 * dispatch-packet load and division came before a workgroup's first load. */
typedef struct {
  int32_t dp, tiles, groups, splits;
  int32_t tm; /* rows between tile origins: the tile's, or 224 on the 256x256 kernel */
  /* the tile map with host-made reciprocals (gemm_tile_l2), read by the
   * gfx950 8wave kernels (bf16, fp8, MX) */
  tk_grid_l2 l2;
  /* host-made (gemm_sk_plain): C = acc in bf16, every tile wholly inside C,
   * one split, no stream-K; the one-copy 256-wide gfx950 kernels then store
   * without the epilogue's tests (gemm_8wave_body.h W8_FAST_END) */
  int32_t plain;
} gemm_sk;

/* gemm_sk.plain for problem p on tm x tn tiles with `splits` K splits and
 * `groups` stream-K groups: the device's alpha (gemm_epi: alpha * scale_a *
 * scale_b, in float, the same order) is 1, beta 0, no bias or activation */
static inline int32_t gemm_sk_plain(const tk_gemm_problem *p, int64_t tm, int64_t tn, int64_t splits, int64_t groups)
{
  const float al = p->alpha * p->scale_a * p->scale_b;
  return p->out == TK_GEMM_OUT_BF16 && al == 1.0f && p->beta == 0.0f && p->bias == TK_GEMM_BIAS_NONE &&
         p->act == TK_GEMM_ACT_NONE && splits == 1 && groups == 0 && p->m % tm == 0 && p->n % tn == 0;
}

/* bytes of stream-K workspace: 2 * groups tm x tn f32 slots, then one
 * uint32 counter per stream-K tile */
static inline int64_t gemm_sk_ws_bytes(const gemm_sk *sk, int32_t tm, int32_t tn)
{
  return sk->groups ? 2 * (int64_t)sk->groups * tm * tn * 4 + (int64_t)sk->tiles * 4 : 0;
}

/* first iteration of SK workgroup rho; the SK workgroup whose range holds
 * iteration q (the largest rho with first(rho) <= q) */
TK_HDI int64_t gemm_sk_first(int64_t rho, int64_t iters, int64_t groups) { return rho * iters / groups; }
TK_HDI int64_t gemm_sk_owner(int64_t q, int64_t iters, int64_t groups) { return ((q + 1) * groups - 1) / iters; }

/* Stream-K parts are stored in the accumulators' own register layout: wave
 * w's fragment f (of nf per wave), 16-byte piece q (floats 4q..4q+3) of lane
 * l at float offset this function gives, so that each store or load
 * instruction of a wave moves 1 KB contiguous. */
TK_HDI int64_t gemm_sk_part_off(uint32_t wave, int nf, int f, int q, uint32_t lane)
{
  return ((((int64_t)wave * nf + f) * 4 + q) * 64 + lane) * 4;
}
#define gemm_sk_part_at(part, wave, nf, f, q, lane) ((part) + gemm_sk_part_off((wave), (nf), (f), (q), (lane)))
static __device__ inline __attribute__((always_inline)) tk_f32x16 gemm_sk_part_load(const float *part, uint32_t wave,
                                                                                   int nf, int f, uint32_t lane)
{
  tk_f32x16 v;
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const tk_f32x4 x = *(const tk_f32x4 *)gemm_sk_part_at(part, wave, nf, f, q, lane);
    v[4 * q] = x[0], v[4 * q + 1] = x[1], v[4 * q + 2] = x[2], v[4 * q + 3] = x[3];
  }
  return v;
}

/* The parts of stream-K tile u: contributors c0 .. c0 + nparts - 1 (SK
 * workgroups, in K order); the first one's part at *p0 (its last segment's
 * slot when its range began in an earlier tile, else its first's), the
 * others' at *p1 + i * slot floats (their first segments). */
static __device__ inline __attribute__((always_inline)) void gemm_sk_parts(float *ws, const gemm_sk &sk, int64_t kt,
    int64_t u, int64_t slot, int64_t *c0, int64_t *nparts, const float **p0, const float **p1)
{
  const int64_t iters = (int64_t)sk.tiles * kt, g = sk.groups, q0 = u * kt;
  const int64_t r0 = gemm_sk_owner(q0, iters, g), r1 = gemm_sk_owner(q0 + kt - 1, iters, g);
  *c0 = r0, *nparts = r1 - r0 + 1;
  *p0 = ws + ((gemm_sk_first(r0, iters, g) < q0 ? g : 0) + r0) * slot;
  *p1 = ws + (r0 + 1) * slot;
}

#endif /* GEMM_SPLITK_H */
