/* ROCm 6's hip_fp8.h for HipKittens' CDNA4 headers (HIP 5.2 has none): the
 * OCP E4M3FN types they name (__hip_fp8_e4m3 and its x2/x4 packs), one byte
 * per value, converting from float with round-to-nearest-even and saturation
 * to +-448 (tk's host+device reference encoder, include/tk/types.h) and to
 * float exactly. The FNUZ names exist for the CDNA3 branch of the same
 * header and are the same storage; nothing here is used by the BF16 GEMMs
 * at run time. */
#pragma once
#include <hip/hip_runtime.h>
#include <stdint.h>
#include "tk/types.h"

struct __hip_fp8_e4m3 {
  uint8_t __x;
  __hip_fp8_e4m3() = default;
  __host__ __device__ explicit __hip_fp8_e4m3(float f) : __x(tk_f32_to_ocp_e4m3_ref(f)) {}
  __host__ __device__ operator float() const { return tk_ocp_e4m3_to_f32_ref(__x); }
};
struct __hip_fp8x2_e4m3 {
  uint16_t __x;
  __hip_fp8x2_e4m3() = default;
  __host__ __device__ explicit __hip_fp8x2_e4m3(float2 f)
      : __x((uint16_t)(tk_f32_to_ocp_e4m3_ref(f.x) | (tk_f32_to_ocp_e4m3_ref(f.y) << 8))) {}
};
struct __hip_fp8x4_e4m3 {
  uint32_t __x;
  __hip_fp8x4_e4m3() = default;
  __host__ __device__ explicit __hip_fp8x4_e4m3(float4 f)
      : __x((uint32_t)tk_f32_to_ocp_e4m3_ref(f.x) | ((uint32_t)tk_f32_to_ocp_e4m3_ref(f.y) << 8) |
            ((uint32_t)tk_f32_to_ocp_e4m3_ref(f.z) << 16) | ((uint32_t)tk_f32_to_ocp_e4m3_ref(f.w) << 24)) {}
};
typedef __hip_fp8_e4m3 __hip_fp8_e4m3_fnuz;
typedef __hip_fp8x2_e4m3 __hip_fp8x2_e4m3_fnuz;
typedef __hip_fp8x4_e4m3 __hip_fp8x4_e4m3_fnuz;
