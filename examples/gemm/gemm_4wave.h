/* gemm_4wave.h: the "4wave" GEMM kernel, the baseline for 8wave: the same tk
 * primitives without ping-pong.
 *
 * 4 waves, 128x128 C tile, K step 32, one LDS buffer, everything in sequence:
 * load the step (tk group loads: issue, one batched wait, ds_write_b128),
 * barrier, ds_read_b64 fragments (tk prefetch + wait), 16 MFMAs, barrier.
 * Wave w owns the 64x64 quarter (w/2, w%2) as a tk accumulator tile (2x2
 * fragments of 32x32). Problems outside the group loads' rule (B as K x N, or
 * K, lda, ldb not multiples of 8) are staged element by element into the same
 * swizzled tiles (a wave-uniform branch), so this kernel takes any problem
 * whose C fits a buffer descriptor (gemm_4wave_unsupported).
 * Epilogue as in 8wave: per-wave 32x64 f32 LDS tile + tk_store_lds_global_epi
 * (alpha/beta, bias, activation).  bf16 inputs only (fp8: 8wave or simple).
 * 32 KiB of LDS: two workgroups fit on a CU (64 KiB per CU, CDNA3 ISA guide,
 * "Local data share"). */
#ifndef GEMM_4WAVE_H
#define GEMM_4WAVE_H

#include <hip/hip_runtime.h>
#include <tk/tk.h>

#include "gemm_tile.h"
#include "tk_gemm.h"

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
                                                  tk_gemm_problem p)
{
  TK_LDS_ALLOC(w4_smem_t, sm);
  const int tid = threadIdx.x;
  const uint32_t wave = tk_wave_id(), lane = tk_lane_id();
  int64_t m0, n0;
  gemm_tile_origin(p, W4_TILE, &m0, &n0);
  const int64_t z = blockIdx.z;
  a += z * tk_gemm_a_stride(&p);
  b += z * tk_gemm_b_stride(&p);
  const int wm = (wave / 2) * 64, wn = (wave % 2) * 64;
  /* wave-uniform: can the step be moved with 16-byte group loads (rows of
   * 16-byte chunks, operands within a buffer descriptor's range)? */
  const bool wide = p.layout == TK_GEMM_NT && p.k % 8 == 0 && p.lda % 8 == 0 && p.ldb % 8 == 0 &&
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
        if (gn < p.n && gk < p.k) bv = p.layout == TK_GEMM_NT ? b[gn * p.ldb + gk] : b[gk * p.ldb + gn];
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
  gemm_c_tensor(p, c, z, &gc);
  const tk_rsrc rc = tk_gl_rsrc(&gc);
#pragma unroll
  for (int fr = 0; fr < 2; ++fr) {
    w4_piece_t pc;
    pc.f[0] = acc.f[fr * 2 + 0];
    pc.f[1] = acc.f[fr * 2 + 1];
    tk_store_acc_lds(sm.ep[wave], pc, 0, 0);
    tk_store_lds_global_epi(&gc, rc, 0, 0, m0 + wm + 32 * fr, n0 + wn, sm.ep[wave], lane, 64, gemm_epi(p));
  }
}

/* Why 4wave cannot take p (NULL: it can): it writes C through a buffer
 * descriptor (tk_store_lds_global_epi); bf16 inputs. */
static const char *gemm_4wave_unsupported(const tk_gemm_problem *p)
{
  if (p->in != TK_GEMM_IN_BF16) return "4wave takes bf16 inputs only (fp8: --kernel 8wave or simple)";
  if (((p->m - 1) * p->ldc + p->n) * tk_gemm_c_elem_bytes(p) > TK_GL_MAX_BYTES)
    return "4wave needs C of a batch to span at most 4 GiB - 16 bytes (buffer descriptor)";
  return NULL;
}

static hipError_t gemm_4wave_launch(const tk_gemm_problem *p, const uint16_t *a, const uint16_t *b, void *c,
                                    hipStream_t stream)
{
  const int64_t tiles = ((p->n + W4_TILE - 1) / W4_TILE) * ((p->m + W4_TILE - 1) / W4_TILE);
  if (tiles > 0xffffffffll || gemm_4wave_unsupported(p)) return hipErrorInvalidValue;
  hipLaunchKernelGGL(gemm_4wave, dim3((unsigned)tiles, 1, (unsigned)p->batch), dim3(256), 0, stream, a, b, c, *p);
  return hipGetLastError();
}

#endif /* GEMM_4WAVE_H */
