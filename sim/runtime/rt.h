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

/* Device facts: those of the modeled part under --model (MI300X, MI325X,
 * MI350X, MI355X: name, CUs, peak clock, HBM size; device.c has the sources),
 * else of the target's default part: MI325X-shaped for gfx942, MI355X-shaped
 * for gfx950; the target is tksim --arch (TKSIM_ARCH). LDS per workgroup:
 * tks_arch_lds_bytes. */
typedef struct tks_dev_part {
  const char *name, *sampled_name;
  uint32_t cus, clock_khz;
  size_t mem;
} tks_dev_part;
const tks_dev_part *tks_dev_part_get(void);
#define TKS_DEV_IS_GFX950 (tks_get_options()->arch == TKS_ARCH_GFX950)
#define TKS_DEV_NAME (tks_dev_part_get()->name)
#define TKS_DEV_ARCH (TKS_DEV_IS_GFX950 ? "gfx950:sramecc+:xnack-" : "gfx942:sramecc+:xnack-")
#define TKS_DEV_GCN_ARCH (TKS_DEV_IS_GFX950 ? 950 : 942)
#define TKS_DEV_CUS (tks_dev_part_get()->cus)
#define TKS_DEV_LDS tks_arch_lds_bytes(tks_get_options()->arch)
#define TKS_DEV_MAX_THREADS 1024
#define TKS_DEV_CLOCK_KHZ (tks_dev_part_get()->clock_khz)
#define TKS_DEV_MEM (tks_dev_part_get()->mem)
#define TKS_DEV_L2 (4 << 20)
#endif
