/* gemm_demo.h: what libtk_gemm has instead of the kernels a
 * -DTK_GEMM_DEMO_ONLY=ON build leaves out (.ci/build --first, README's first
 * command).  Compiling every kernel's device code takes minutes of CPU per
 * target; the first command's demo needs one: 8wave 256x256 (also its
 * 224x256 tiles), B as N x K, bf16, K step 64, no stream-K (gemm_8wave.h
 * drops the nn variant and the stream-K copies of the body there).  The
 * stand-ins below keep tk_gemm.hip's host code as it is; none is reached,
 * because tk_gemm_config_not_built refuses every other configuration first
 * with GEMM_DEMO_WHY, which names the option (the gemm CLI exits 2).
 * The same names and signatures as gemm_4wave.h, gemm_4wave_fp8.h, gemm_8wave_fp8.h,
 * gemm_mx.h, gemm_8wave_mx.h and gemm_simple.h: tests/gemm's demo-build test compiles this. */
#ifndef GEMM_DEMO_H
#define GEMM_DEMO_H

#include <hip/hip_runtime.h>

#include "tk_gemm.h"

#define GEMM_DEMO_WHY                                                                                          \
  "this gemm was built with -DTK_GEMM_DEMO_ONLY=ON (README's first command): only --kernel 8wave, bf16, "    \
  "layout nt, tile 256x256 or 224x256, K step 64, no stream-K; configure the build with "                   \
  "-DTK_GEMM_DEMO_ONLY=OFF (or run .ci/build) for every kernel"

#define W4_TILE 128
#define W4_KS 32
#define W8F_TILE 256
#define W8F_SMALL 128
#define W8F_KH 64
#define MX_TILE 128
#define MX_KS 64
#define W8M_TM 256
#define W8M_TN 256
#define W8M_KH 64
#define W4F_KS 128
#define W4F_SMALL 64
#define W4F_BIG 128

static inline const char *gemm_4wave_unsupported(const tk_gemm_problem *p) { return (void)p, GEMM_DEMO_WHY; }
static inline const char *gemm_8wave_fp8_unsupported(const tk_gemm_problem *p) { return (void)p, GEMM_DEMO_WHY; }
static inline const char *gemm_mx_unsupported(const tk_gemm_problem *p) { return (void)p, GEMM_DEMO_WHY; }
static inline const char *gemm_8wave_mx_unsupported(const tk_gemm_problem *p) { return (void)p, GEMM_DEMO_WHY; }
static inline const char *gemm_4wave_fp8_unsupported(const tk_gemm_problem *p, int gfx950)
{
  return (void)p, (void)gfx950, GEMM_DEMO_WHY;
}
static inline int32_t gemm_4wave_fp8_tile(const tk_gemm_problem *p, int64_t cus) { return (void)p, (void)cus, W4F_SMALL; }
static inline int gemm_mx_fmt(const tk_gemm_problem *p) { return (void)p, 0; }
static inline int32_t gemm_8wave_fp8_tile(const tk_gemm_problem *p, int gfx950, int64_t cus)
{
  return (void)p, (void)gfx950, (void)cus, W8F_TILE;
}

static inline hipError_t gemm_4wave_launch(const tk_gemm_problem *p, const uint16_t *a, const uint16_t *b, void *c,
                                           hipStream_t stream)
{
  (void)p, (void)a, (void)b, (void)c, (void)stream;
  return hipErrorInvalidDeviceFunction;
}
static inline hipError_t gemm_8wave_fp8_launch(const tk_gemm_problem *p, int32_t tile, const uint8_t *a,
                                               const uint8_t *b, void *c, hipStream_t stream)
{
  (void)p, (void)tile, (void)a, (void)b, (void)c, (void)stream;
  return hipErrorInvalidDeviceFunction;
}
static inline hipError_t gemm_4wave_fp8_launch(const tk_gemm_problem *p, int32_t tile, const uint8_t *a,
                                               const uint8_t *b, void *c, hipStream_t stream)
{
  (void)p, (void)tile, (void)a, (void)b, (void)c, (void)stream;
  return hipErrorInvalidDeviceFunction;
}
static inline hipError_t gemm_mx_launch(const tk_gemm_problem *p, const void *a, const void *b, void *c,
                                        hipStream_t stream)
{
  (void)p, (void)a, (void)b, (void)c, (void)stream;
  return hipErrorInvalidDeviceFunction;
}
static inline hipError_t gemm_8wave_mx_launch(const tk_gemm_problem *p, const void *a, const void *b, void *c,
                                              hipStream_t stream)
{
  (void)p, (void)a, (void)b, (void)c, (void)stream;
  return hipErrorInvalidDeviceFunction;
}
static inline hipError_t gemm_simple_launch(const tk_gemm_problem *p, const void *a, const void *b, void *c,
                                            hipStream_t stream)
{
  (void)p, (void)a, (void)b, (void)c, (void)stream;
  return hipErrorInvalidDeviceFunction;
}

#endif /* GEMM_DEMO_H */
