/* hip_bf16.h stand-in for building HipKittens with HIP 5.2 (which has no
 * hip_bf16.h; ROCm 6 does). Provides __hip_bfloat16 / __hip_bfloat162 and the
 * conversions and math the HipKittens headers name, written from the format's
 * definition: bfloat16 is the upper 16 bits of an IEEE-754 binary32 (1 sign,
 * 8 exponent, 7 mantissa bits); conversions from float round to nearest even
 * and keep NaN a (quiet) NaN. The math functions compute in float and round
 * once; the GEMM kernels never call them, HipKittens' headers only name them
 * (explicit specializations in common/base_ops.cuh), so they must exist.
 * Only for bench/hipkittens: not part of tk (include/tk has its own bf16). */
#pragma once
#include <hip/hip_runtime.h>
#include "hk_fp16_compat.h"
#include <hip/hip_fp16.h>
#include <string.h>

#define TKB_HD __host__ __device__ inline

struct __hip_bfloat16 {
  unsigned short data;
  __hip_bfloat16() = default;
  TKB_HD constexpr __hip_bfloat16(unsigned short bits, bool) : data(bits) {}
  explicit TKB_HD __hip_bfloat16(float f);
  explicit TKB_HD __hip_bfloat16(double f) : __hip_bfloat16((float)f) {}
  explicit TKB_HD __hip_bfloat16(int i) : __hip_bfloat16((float)i) {}
  TKB_HD operator float() const;
};

struct __hip_bfloat162 {
  __hip_bfloat16 x, y;
  __hip_bfloat162() = default;
  TKB_HD constexpr __hip_bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) : x(a), y(b) {}
};

static_assert(sizeof(__hip_bfloat16) == 2 && sizeof(__hip_bfloat162) == 4, "bf16 layout");

TKB_HD float __bfloat162float(__hip_bfloat16 h) {
  unsigned int u = (unsigned int)h.data << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Round to nearest even: add 0x7fff plus the lowest kept bit, then truncate.
 * NaN: truncate and force a mantissa bit so it stays NaN. */
TKB_HD __hip_bfloat16 __float2bfloat16(float f) {
#if defined(__HIP_DEVICE_COMPILE__) && defined(__gfx950__)
  /* gfx950 converts in hardware (v_cvt_pk_bf16_f32, round to nearest even;
   * LLVM selects it for a float -> __bf16 conversion), as ROCm 6 does there */
  return __hip_bfloat16(__builtin_bit_cast(unsigned short, (__bf16)f), true);
#endif
  unsigned int u;
  memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return __hip_bfloat16((unsigned short)((u >> 16) | 0x40u), true);
  u += 0x7fffu + ((u >> 16) & 1u);
  return __hip_bfloat16((unsigned short)(u >> 16), true);
}

TKB_HD __hip_bfloat16::__hip_bfloat16(float f) : data(__float2bfloat16(f).data) {}
TKB_HD __hip_bfloat16::operator float() const { return __bfloat162float(*this); }

TKB_HD __hip_bfloat16 __float2bfloat16_rn(float f) { return __float2bfloat16(f); }
/* raw bits in and out (HipKittens' CDNA4 reductions use the former) */
TKB_HD __hip_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __hip_bfloat16(u, true); }
TKB_HD unsigned short __bfloat16_as_ushort(__hip_bfloat16 h) { return h.data; }
TKB_HD float2 __bfloat1622float2(__hip_bfloat162 h) {
  return float2(__bfloat162float(h.x), __bfloat162float(h.y));
}
TKB_HD __hip_bfloat162 __float22bfloat162_rn(float2 f) {
  return __hip_bfloat162(__float2bfloat16(f.x), __float2bfloat16(f.y));
}
TKB_HD __hip_bfloat162 __float2bfloat162_rn(float f) {
  return __hip_bfloat162(__float2bfloat16(f), __float2bfloat16(f));
}
TKB_HD __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat162(a, b); }

/* Unary and binary math: one float computation, one rounding. */
#define TKB_UN(name, expr)                                                     \
  __device__ inline __hip_bfloat16 name(__hip_bfloat16 a) {                    \
    float x = __bfloat162float(a);                                             \
    return __float2bfloat16(expr);                                             \
  }
#define TKB_BIN(name, expr)                                                    \
  __device__ inline __hip_bfloat16 name(__hip_bfloat16 a_, __hip_bfloat16 b_) { \
    float a = __bfloat162float(a_), b = __bfloat162float(b_);                  \
    return __float2bfloat16(expr);                                             \
  }
TKB_UN(hexp, __expf(x))
TKB_UN(hexp2, exp2f(x))
TKB_UN(hlog, __logf(x))
TKB_UN(hlog2, log2f(x))
TKB_UN(__habs, fabsf(x))
TKB_BIN(__hadd, a + b)
TKB_BIN(__hsub, a - b)
TKB_BIN(__hmul, a * b)
TKB_BIN(__hdiv, a / b)
TKB_BIN(__hmax, fmaxf(a, b))
TKB_BIN(__hmin, fminf(a, b))
#define TKB_PAIR1(pname, name)                                                 \
  __device__ inline __hip_bfloat162 pname(__hip_bfloat162 a) {                 \
    return __hip_bfloat162(name(a.x), name(a.y));                              \
  }
#define TKB_PAIR2(pname, name)                                                 \
  __device__ inline __hip_bfloat162 pname(__hip_bfloat162 a, __hip_bfloat162 b) { \
    return __hip_bfloat162(name(a.x, b.x), name(a.y, b.y));                    \
  }
TKB_PAIR1(h2exp, hexp)
TKB_PAIR1(h2exp2, hexp2)
TKB_PAIR1(h2log, hlog)
TKB_PAIR1(h2log2, hlog2)
TKB_PAIR1(__habs2, __habs)
TKB_PAIR2(__hadd2, __hadd)
TKB_PAIR2(__hsub2, __hsub)
TKB_PAIR2(__hmul2, __hmul)
TKB_PAIR2(__h2div, __hdiv)
TKB_PAIR2(__hmax2, __hmax)
TKB_PAIR2(__hmin2, __hmin)

/* HIP 5.2's hip_fp16.h lacks __hmax/__hmin for __half (ROCm 6 has them). */
__device__ inline __half __hmax(__half a, __half b) { return __float2half(fmaxf(__half2float(a), __half2float(b))); }
__device__ inline __half __hmin(__half a, __half b) { return __float2half(fminf(__half2float(a), __half2float(b))); }
