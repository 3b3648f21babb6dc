/* rt.h: shared state of tksim's HIP runtime replacement (libamdhip64.so.5).
 * Types and prototypes come from Debian's HIP 5.2 headers so every exported
 * function has the exact signature (and struct layouts: hipDeviceProp_t,
 * hipFuncAttributes, dim3) that programs compiled against them expect.
 */
#ifndef TKS_RT_H
#define TKS_RT_H
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include "tksim.h"

#define TKS_EXPORT __attribute__((visibility("default")))

/* Every API call returns through this, which also records the error that
 * hipGetLastError/hipPeekAtLastError report. */
hipError_t tks_rt_ret(hipError_t e);
/* Prints "tksim: <api>: <message>" on stderr (unless --quiet) and returns e
 * via tks_rt_ret. */
hipError_t tks_rt_fail(hipError_t e, const char *api, const char *fmt, ...)
  __attribute__((format(printf, 3, 4)));
/* The sticky launch failure, returned once by the next sync/launch call. */
hipError_t tks_rt_take_sticky(void);
void tks_rt_set_sticky(hipError_t e);

/* Kernels: resolves a host stub pointer (registered with __hipRegisterFunction)
 * or a hipFunction_t to its loaded kernel, loading the module on demand. */
tks_kernel *tks_rt_kernel(const void *f);
/* Device global registered for a host shadow variable (__hipRegisterVar). */
int tks_rt_symbol(const void *host_var, uint64_t *addr, uint64_t *size);

/* Launch core shared by hipLaunchKernel, hipModuleLaunchKernel, ... */
hipError_t tks_rt_launch(const char *api, tks_kernel *k, const uint32_t blocks[3],
                         const uint32_t threads[3], void **args, const void *argbuf,
                         size_t argbuf_size, size_t dyn_lds, hipStream_t stream, int cooperative);

/* Streams: whether s is the null stream or a live stream. */
int tks_rt_stream_ok(hipStream_t s);
/* Modeled-time bookkeeping for hipEventElapsedTime. */
void tks_rt_note_launch(double modeled_seconds);

/* 1 under --model-sample (TKSIM_MODEL_SAMPLE > 0); the first call prints that
 * unsimulated workgroups compute nothing. */
int tks_rt_sampled(void);

/* Device facts: MI325X-shaped for gfx942 (304 CUs, 2.1 GHz), MI355X-shaped for
 * gfx950 (256 CUs, 2.4 GHz: AMD's MI355X product page); the target is
 * tksim --arch (TKSIM_ARCH). LDS per workgroup: tks_arch_lds_bytes. */
#define TKS_DEV_IS_GFX950 (tks_get_options()->arch == TKS_ARCH_GFX950)
#define TKS_DEV_NAME (TKS_DEV_IS_GFX950 ? "AMD Instinct MI355X (tksim)" : "AMD Instinct MI325X (tksim)")
#define TKS_DEV_ARCH (TKS_DEV_IS_GFX950 ? "gfx950:sramecc+:xnack-" : "gfx942:sramecc+:xnack-")
#define TKS_DEV_GCN_ARCH (TKS_DEV_IS_GFX950 ? 950 : 942)
#define TKS_DEV_CUS (TKS_DEV_IS_GFX950 ? 256 : 304)
#define TKS_DEV_LDS tks_arch_lds_bytes(tks_get_options()->arch)
#define TKS_DEV_MAX_THREADS 1024
#define TKS_DEV_CLOCK_KHZ (TKS_DEV_IS_GFX950 ? 2400000 : 2100000)
#define TKS_DEV_MEM ((size_t)256 << 30)
#define TKS_DEV_L2 (4 << 20)
#endif
