/* Force-included (-include) into the HipKittens CDNA4 attention, LayerNorm
 * and rotary programs (cdna4_kernels.cmake), after hk_bit_cast.h: what ROCm 6
 * has and HIP 5.2 lacks, beyond hip_bf16.h's functions:
 *  - arithmetic and comparison operators on __hip_bfloat16 (ROCm 6's
 *    hip_bf16.h defines them as the __hadd/__hsub/__hmul/__hdiv functions:
 *    one float operation, rounded to bf16); the LayerNorm kernels use them;
 *  - __shfl_down_sync / __shfl_xor_sync / __shfl_sync (ROCm 6.2 under
 *    HIP_ENABLE_WARP_SYNC_BUILTINS): the mask names lanes that take part;
 *    HipKittens passes all 64, so they are the unmasked shuffles.
 * The GEMM programs do not include it (their builds stay as they were). */
#pragma once
#include <hip/hip_runtime.h>
#include <hip_bf16.h>

__device__ inline __hip_bfloat16 operator+(__hip_bfloat16 a, __hip_bfloat16 b) { return __hadd(a, b); }
__device__ inline __hip_bfloat16 operator-(__hip_bfloat16 a, __hip_bfloat16 b) { return __hsub(a, b); }
__device__ inline __hip_bfloat16 operator*(__hip_bfloat16 a, __hip_bfloat16 b) { return __hmul(a, b); }
__device__ inline __hip_bfloat16 operator/(__hip_bfloat16 a, __hip_bfloat16 b) { return __hdiv(a, b); }

template <typename MaskT, typename T>
__device__ inline T __shfl_down_sync(MaskT, T var, unsigned int delta, int width = 64)
{
  return __shfl_down(var, delta, width);
}
template <typename MaskT, typename T>
__device__ inline T __shfl_xor_sync(MaskT, T var, int lane_mask, int width = 64)
{
  return __shfl_xor(var, lane_mask, width);
}
template <typename MaskT, typename T>
__device__ inline T __shfl_sync(MaskT, T var, int src, int width = 64)
{
  return __shfl(var, src, width);
}
