/* gemm_4wave_fp8.h: gfx950's small-problem fp8 GEMM ("4wave" with --in fp8):
 * 4 waves, 64x64 or 128x128 C tiles, so that 1024^3 and 2048^3 give every
 * one of an MI355X's 256 CUs a workgroup (256 tiles each; the fp8 8wave
 * kernel's 128x128 tiles leave 3/4 of them idle at 1024^3), and a deep LDS
 * pipeline, so that a CU's few K steps are in flight at once instead of one
 * memory latency after another.
 *
 * Schedule: a K step is 128 fp8 of A's T rows and Bt's T rows (B as N x K),
 * T x 128 bytes each in LDS; NS stages (T=64: 8 x 16 KiB, T=128: 4 x 32 KiB,
 * 128 KiB of gfx950's 160 KiB) with NS-1 steps in flight.  Loads are gfx950's
 * 16-byte direct-to-LDS loads (tk_load_lds_direct_x4: buffer_load_dwordx4 ...
 * lds, no staging registers, so the depth costs no VGPRs).  Per step: one
 * vmcnt wait, one barrier, the refill of the stage read one step earlier,
 * ds_read_b128 fragments, MFMAs (tk_mma: v_mfma_f32_32x32x64_f8f6f4); where
 * K is whole groups of NS steps (own path from the prologue on), the step's
 * K part 0 MFMAs go before the wait and barrier, and each K part's MFMAs
 * are followed by that part's reads of the next step, so the reads and the
 * barrier go under the MFMAs.
 * Wave w owns the (T/2)x(T/2) quarter (w/2, w%2): T=64 one 32x32 fragment,
 * T=128 2x2.  Epilogue straight from the registers (tk_store_acc_epi, the
 * problem's fused epilogue).  Tile walk: gemm_tile_origin (XCD remap + L2
 * groups).
 *
 * Why (HipKittens' FP8_4wave/4_wave.cu, f09e968, read for its tiles and grid:
 * matmul_device_1024 / _2048, 64x64 / 128x128 tiles of 4 waves, 256
 * workgroups, two LDS buffers): its published 1024^3 figure came from those
 * kernels (docs/tksim-model-history.md, "Session 43").  This one is tk's own: tk
 * primitives, a deeper pipeline, 32x32 fragments.
 *
 * Hardware facts: 160 KiB of LDS per workgroup and the 16-byte LDS form of
 * buffer_load_dwordx4 (CDNA4 ISA guide; tk/target.h TK_LDS_BYTES,
 * TK_HAS_GLOBAL_LOAD_LDS_X4); vmcnt counts those loads, retired in order
 * (tk/loads.h).  gfx950 only: on gfx942 the kernels are empty and refused
 * (gemm_4wave_fp8_unsupported).
 *
 * Requirements: fp8 inputs, B as N x K (nt), K, lda, ldb multiples of 16
 * (whole 16-byte chunks), each operand of a batch within a buffer
 * descriptor (< 4 GiB).  Any M, N, K otherwise (range-checked loads and
 * stores). */
#ifndef GEMM_4WAVE_FP8_H
#define GEMM_4WAVE_FP8_H

#include <hip/hip_runtime.h>
#include <string.h>
#include <tk/tk.h>

#include "gemm_tile.h"
#include "tk_gemm.h"

#define W4F_KS 128   /* fp8 per row and K step */
#define W4F_SMALL 64 /* the two tiles */
#define W4F_BIG 128

__global__ void gemm_4wave_fp8_64(const uint8_t *__restrict__ a, const uint8_t *__restrict__ b, void *c,
                                  tk_gemm_problem p, tk_grid_l2 l2);
__global__ void gemm_4wave_fp8_128(const uint8_t *__restrict__ a, const uint8_t *__restrict__ b, void *c,
                                   tk_gemm_problem p, tk_grid_l2 l2);

/* Why the fp8 4wave kernel cannot take a problem (NULL: it can); `gfx950`:
 * the device is one (the kernels exist there only). */
static inline const char *gemm_4wave_fp8_unsupported(const tk_gemm_problem *p, int gfx950)
{
  const int64_t lim = TK_GL_MAX_BYTES;
  if (p->in != TK_GEMM_IN_FP8) return "4wave with fp8 inputs only here (bf16: gemm_4wave)";
  if (!gfx950) return "4wave with fp8 inputs needs a gfx950 (CDNA4) device (16-byte direct-to-LDS loads, 160 KiB of LDS)";
  if (p->layout != TK_GEMM_NT) return "4wave fp8 needs B as N x K (layout nt)";
  if (p->k % 16 || p->lda % 16 || p->ldb % 16)
    return "4wave with fp8 inputs needs K, lda and ldb to be multiples of 16 (16-byte direct loads)";
  if ((p->m - 1) * p->lda + p->k > lim || (p->n - 1) * p->ldb + p->k > lim ||
      ((p->m - 1) * p->ldc + p->n) * tk_gemm_c_elem_bytes(p) > lim || !tk_mat_rows_ok(p->m, p->lda, 1) ||
      !tk_mat_rows_ok(p->n, p->ldb, 1)) /* matrix-bounded loads' row limit */
    return "4wave needs each operand of a batch to span less than 4 GiB (buffer descriptors)";
  return NULL;
}

/* the 4wave fp8 tile for p on a device with `cus` CUs: 128x128 while those
 * tiles fill at least half the CUs, else 64x64.  Modeled MI355X (v10,
 * tiles of 64 vs 128, TFLOP/s; docs/gemm-tuning.md): 1536^3 (144 tiles of
 * 128) 370.5 vs 528.8, 1024x4096x1024 (256) 504.0 vs 769.6, 1024^3 (64)
 * 294.5 vs -, 128x4096x4096 (32) 331.7 vs 166.4, 512^3 (16) 39.8 vs 32.5
 * (s44; s45's interleaved reads: 128 at 1536^3 605.9, 1024x4096x1024 863.2). */
static inline int32_t gemm_4wave_fp8_tile(const tk_gemm_problem *p, int64_t cus)
{
  const int64_t tiles = ((p->n + W4F_BIG - 1) / W4F_BIG) * ((p->m + W4F_BIG - 1) / W4F_BIG) * p->batch;
  return 2 * tiles >= cus ? W4F_BIG : W4F_SMALL;
}

static inline hipError_t gemm_4wave_fp8_launch(const tk_gemm_problem *p, int32_t tile, const uint8_t *a, const uint8_t *b,
                                        void *c, hipStream_t stream)
{
  const int64_t tiles = ((p->n + tile - 1) / tile) * ((p->m + tile - 1) / tile);
  if ((tile != W4F_SMALL && tile != W4F_BIG) || tiles > 0xffffffffll || gemm_4wave_fp8_unsupported(p, 1))
    return hipErrorInvalidValue;
  hipLaunchKernelGGL(tile == W4F_SMALL ? gemm_4wave_fp8_64 : gemm_4wave_fp8_128, dim3((unsigned)tiles, 1, (unsigned)p->batch),
                     dim3(256), 0, stream, a, b, c, *p, gemm_tile_l2(p, tile, tile));
  return hipGetLastError();
}

#endif /* GEMM_4WAVE_FP8_H */
