/* launch.c: kernel launches, function attributes and occupancy for tksim's
 * HIP runtime.
 *
 * The kernarg segment is built from the kernel's metadata .args (AMDGPUUsage
 * "Code Object V5 Metadata"): explicit arguments are copied from the caller's
 * argument pointers (or the HIP_LAUNCH_PARAM_BUFFER_POINTER buffer), hidden
 * arguments are filled by their .value_kind. The dispatch pointer points at a
 * 64-byte hsa_kernel_dispatch_packet_t (HSA Platform System Architecture
 * spec, "Kernel Dispatch Packet"). Launches run to completion inside the call,
 * so stream order holds by construction.
 *
 * Occupancy follows the CDNA3 ISA guide ch. 2-3 and LLVM AMDGPUUsage: a CU has
 * 4 SIMDs, each with 512 unified VGPRs (arch VGPRs + AGPRs, allocated in
 * granules of 8) per lane, at most 8 waves per SIMD, 800 SGPRs per SIMD
 * (granule 16, as ROCm's CLR occupancy code counts them) and 64 KiB of LDS
 * per CU allocated in 512-byte granules (AMDGPUUsage, GFX9 LDS_SIZE units of
 * 128 dwords).
 */
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "runtime/rt.h"
#include "runtime/hostcall.h"
#include "memory/memory.h"

/* Optional providers (tksim.h "runtime hooks"): weak, so absent ones are
 * skipped; tksim_core is linked whole-archive so present ones are found. */
__attribute__((weak)) void tks_launch_begin(const tks_dispatch *d, const tks_options *opt);
__attribute__((weak)) void tks_launch_end(const tks_dispatch *d, const tks_launch_stats *stats,
                                          const tks_options *opt, int failed);
__attribute__((weak)) void tks_process_end(const tks_options *opt);

__attribute__((destructor)) static void at_exit_hook(void)
{
  if (tks_process_end) tks_process_end(tks_get_options());
}

typedef struct dispatch_packet {
  uint16_t header, setup;
  uint16_t workgroup_size_x, workgroup_size_y, workgroup_size_z, reserved0;
  uint32_t grid_size_x, grid_size_y, grid_size_z;
  uint32_t private_segment_size, group_segment_size;
  uint64_t kernel_object;
  uint64_t kernarg_address;
  uint64_t reserved2;
  uint64_t completion_signal;
} dispatch_packet;
_Static_assert(sizeof(dispatch_packet) == 64, "hsa_kernel_dispatch_packet_t is 64 bytes");

/* One packet and queue block, registered once: launches are serialised. */
static dispatch_packet *g_packet;
static uint8_t *g_queue;
static pthread_mutex_t g_launch_lock = PTHREAD_MUTEX_INITIALIZER;

static void put(uint8_t *ka, const tks_arg *a, uint64_t v)
{
  uint32_t n = a->size < 8 ? a->size : 8;
  memcpy(ka + a->offset, &v, n); /* little-endian: low bytes first */
}

/* Value of a hidden argument, by AMDGPUUsage's .value_kind names. */
static int hidden_value(const char *kind, const tks_dispatch *d, const uint32_t blocks[3], uint64_t *v)
{
  static const char *dims = "xyz";
  size_t n = strlen(kind);
  int dim = n > 2 && kind[n - 2] == '_' && strchr(dims, kind[n - 1]) ? (int)(strchr(dims, kind[n - 1]) - dims) : -1;
  if (!strncmp(kind, "hidden_block_count_", 19) && dim >= 0) { *v = blocks[dim]; return 1; }
  if (!strncmp(kind, "hidden_group_size_", 18) && dim >= 0) { *v = d->block[dim]; return 1; }
  if (!strncmp(kind, "hidden_remainder_", 17) && dim >= 0) { *v = d->grid[dim] % d->block[dim]; return 1; }
  if (!strncmp(kind, "hidden_global_offset_", 21)) { *v = 0; return 1; }
  if (!strcmp(kind, "hidden_grid_dims")) {
    *v = (d->grid[2] > 1 || d->block[2] > 1) ? 3 : (d->grid[1] > 1 || d->block[1] > 1) ? 2 : 1;
    return 1;
  }
  if (!strcmp(kind, "hidden_dynamic_lds_size")) { *v = d->dynamic_lds; return 1; }
  if (!strcmp(kind, "hidden_queue_ptr")) { *v = (uint64_t)(uintptr_t)d->queue; return 1; }
  if (!strcmp(kind, "hidden_hostcall_buffer")) { *v = tks_hostcall_buffer(); return 1; }
  if (!strcmp(kind, "hidden_heap_v1")) { *v = tks_device_heap(); return 1; }
  /* printf buffer (buffered printf does not link with Debian's device
   * libraries), multigrid sync, default queue, completion action,
   * apertures: no service behind them, so null. */
  *v = 0;
  return 1;
}

static int is_hidden(const tks_arg *a) { return strncmp(a->value_kind, "hidden_", 7) == 0; }

hipError_t tks_rt_launch(const char *api, tks_kernel *k, const uint32_t blocks[3],
                         const uint32_t threads[3], void **args, const void *argbuf,
                         size_t argbuf_size, size_t dyn_lds, hipStream_t stream, int cooperative)
{
  if (!k) return tks_rt_fail(hipErrorInvalidDeviceFunction, api, "no %s kernel for this function", tks_arch_name(tks_get_options()->arch));
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, api, "invalid stream");
  hipError_t st = tks_rt_take_sticky();
  if (st != hipSuccess) return tks_rt_ret(st);
  for (int i = 0; i < 3; i++) {
    if (blocks[i] == 0 || threads[i] == 0)
      return tks_rt_fail(hipErrorInvalidConfiguration, api, "kernel %s: zero grid or block dimension (grid %ux%ux%u, block %ux%ux%u)",
                         k->name, blocks[0], blocks[1], blocks[2], threads[0], threads[1], threads[2]);
    if ((uint64_t)blocks[i] * threads[i] > UINT32_MAX)
      return tks_rt_fail(hipErrorInvalidConfiguration, api, "kernel %s: grid dimension %d has more than 2^32-1 work-items", k->name, i);
  }
  uint64_t nthreads = (uint64_t)threads[0] * threads[1] * threads[2];
  uint32_t maxwg = k->max_flat_workgroup_size ? k->max_flat_workgroup_size : TKS_DEV_MAX_THREADS;
  if (maxwg > TKS_DEV_MAX_THREADS) maxwg = TKS_DEV_MAX_THREADS;
  if (nthreads > maxwg)
    return tks_rt_fail(hipErrorInvalidConfiguration, api, "kernel %s: %llu threads per block exceeds the limit of %u",
                       k->name, (unsigned long long)nthreads, maxwg);
  if ((uint64_t)k->group_segment_fixed_size + dyn_lds > TKS_DEV_LDS)
    return tks_rt_fail(hipErrorInvalidConfiguration, api, "kernel %s: %u bytes of static + %zu of dynamic LDS exceed 64 KiB",
                       k->name, k->group_segment_fixed_size, dyn_lds);

  /* kernarg segment */
  uint32_t ksize = k->kernarg_segment_size;
  size_t explicit_end = 0;
  for (int i = 0; i < k->nargs; i++)
    if (!is_hidden(&k->args[i]) && k->args[i].offset + k->args[i].size > explicit_end)
      explicit_end = k->args[i].offset + k->args[i].size;
  if (argbuf && argbuf_size > ksize)
    return tks_rt_fail(hipErrorInvalidValue, api, "kernel %s: argument buffer of %zu bytes exceeds the %u-byte kernarg segment",
                       k->name, argbuf_size, ksize);
  if (argbuf && argbuf_size < explicit_end)
    return tks_rt_fail(hipErrorInvalidValue, api, "kernel %s: argument buffer of %zu bytes is smaller than the %zu bytes of explicit arguments",
                       k->name, argbuf_size, explicit_end);
  if (!argbuf && !args && explicit_end > 0)
    return tks_rt_fail(hipErrorInvalidValue, api, "kernel %s takes arguments but none were passed", k->name);
  size_t kalloc = ((size_t)(ksize ? ksize : 1) + 255) & ~(size_t)255;
  uint8_t *ka = aligned_alloc(256, kalloc);
  if (!ka) return tks_rt_fail(hipErrorOutOfMemory, api, "out of memory for the kernarg segment");
  memset(ka, 0, kalloc);
  if (argbuf) memcpy(ka, argbuf, argbuf_size);

  pthread_mutex_lock(&g_launch_lock);
  if (!g_packet) {
    g_packet = aligned_alloc(64, 64);
    g_queue = aligned_alloc(64, 256);
    memset(g_packet, 0, 64);
    memset(g_queue, 0, 256);
    tks_mem_register((uint64_t)(uintptr_t)g_packet, 64, TKS_ALLOC_INTERNAL);
    tks_mem_register((uint64_t)(uintptr_t)g_queue, 256, TKS_ALLOC_INTERNAL);
  }
  tks_dispatch d;
  memset(&d, 0, sizeof d);
  d.k = k;
  for (int i = 0; i < 3; i++) { d.grid[i] = blocks[i] * threads[i]; d.block[i] = threads[i]; }
  d.kernarg = ka;
  d.dynamic_lds = (uint32_t)dyn_lds;
  d.dispatch_packet = g_packet;
  d.queue = g_queue;
  d.cooperative = cooperative;

  int ex = 0;
  for (int i = 0; i < k->nargs; i++) {
    const tks_arg *a = &k->args[i];
    if (is_hidden(a)) {
      uint64_t v;
      hidden_value(a->value_kind, &d, blocks, &v);
      put(ka, a, v);
    } else {
      if (args && !argbuf) {
        if (!args[ex]) {
          pthread_mutex_unlock(&g_launch_lock);
          free(ka);
          return tks_rt_fail(hipErrorInvalidValue, api, "kernel %s: argument %d pointer is null", k->name, ex);
        }
        memcpy(ka + a->offset, args[ex], a->size);
      }
      ex++;
    }
  }

  dispatch_packet *p = g_packet;
  memset(p, 0, sizeof *p);
  p->header = 2 /* HSA_PACKET_TYPE_KERNEL_DISPATCH */ | (1 << 8) /* barrier */ |
              (2 << 9) /* acquire system */ | (2 << 11) /* release system */;
  p->setup = (uint16_t)((d.grid[2] > 1 || d.block[2] > 1) ? 3 : (d.grid[1] > 1 || d.block[1] > 1) ? 2 : 1);
  p->workgroup_size_x = (uint16_t)threads[0];
  p->workgroup_size_y = (uint16_t)threads[1];
  p->workgroup_size_z = (uint16_t)threads[2];
  p->grid_size_x = d.grid[0]; p->grid_size_y = d.grid[1]; p->grid_size_z = d.grid[2];
  p->private_segment_size = k->private_segment_fixed_size;
  p->group_segment_size = k->group_segment_fixed_size + (uint32_t)dyn_lds;
  p->kernel_object = k->code_addr - (uint64_t)k->kd.kernel_code_entry_byte_offset;
  p->kernarg_address = (uint64_t)(uintptr_t)ka;

  tks_mem_register((uint64_t)(uintptr_t)ka, ksize ? ksize : 1, TKS_ALLOC_KERNARG);
  const tks_options *opt = tks_get_options();
  tks_rt_sampled(); /* says once that sampled launches leave outputs uncomputed */
  tks_launch_stats stats;
  memset(&stats, 0, sizeof stats);
  char err[1024] = "";
  /* Device printf goes through hostcall: serve it while the kernel runs. */
  int hostcall = 0;
  for (int i = 0; i < k->nargs; i++)
    if (!strcmp(k->args[i].value_kind, "hidden_hostcall_buffer")) hostcall = 1;
  if (hostcall && tks_hostcall_start())
    fprintf(stderr, "tksim: could not start the hostcall service; device printf will hang\n");
  if (tks_launch_begin) tks_launch_begin(&d, opt);
  tks_mem_dispatch_begin();
  int r = tks_exec_dispatch(&d, opt, &stats, err, sizeof err);
  if (hostcall) tks_hostcall_stop();
  tks_mem_dispatch_end(); /* the workers and the service thread are done */
  tks_mem_unregister((uint64_t)(uintptr_t)ka);
  if (tks_launch_end) tks_launch_end(&d, &stats, opt, r != 0);
  pthread_mutex_unlock(&g_launch_lock);
  free(ka);
  if (r != 0) {
    fprintf(stderr, "%s%s\n", strncmp(err, "tksim:", 6) ? "tksim: " : "", err[0] ? err : "kernel failed");
    tks_rt_set_sticky(hipErrorLaunchFailure);
    tks_rt_note_launch(0);
    return hipSuccess; /* like a GPU fault: reported by the next sync */
  }
  tks_rt_note_launch(stats.modeled_seconds);
  return hipSuccess;
}

/* ------------------------------------------------------ launch entry points */
typedef struct call_config { dim3 grid, block; size_t shmem; hipStream_t stream; } call_config;
static _Thread_local call_config g_cfg[16];
static _Thread_local int g_ncfg;

TKS_EXPORT hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, hipStream_t stream)
{
  if (g_ncfg >= 16) return tks_rt_fail(hipErrorInvalidConfiguration, "__hipPushCallConfiguration", "too deeply nested");
  call_config c = { gridDim, blockDim, sharedMem, stream };
  g_cfg[g_ncfg++] = c;
  return hipSuccess;
}

TKS_EXPORT hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem, hipStream_t *stream)
{
  if (g_ncfg <= 0) return tks_rt_fail(hipErrorMissingConfiguration, "__hipPopCallConfiguration", "no pushed configuration");
  call_config c = g_cfg[--g_ncfg];
  *gridDim = c.grid; *blockDim = c.block; *sharedMem = c.shmem; *stream = c.stream;
  return hipSuccess;
}

static hipError_t launch_common(const char *api, const void *f, dim3 g, dim3 b, void **args,
                                size_t shmem, hipStream_t stream, int coop)
{
  tks_kernel *k = tks_rt_kernel(f);
  if (!k) return tks_rt_fail(hipErrorInvalidDeviceFunction, api, "%p is not a registered kernel with %s code", f, tks_arch_name(tks_get_options()->arch));
  uint32_t blocks[3] = { g.x, g.y, g.z }, threads[3] = { b.x, b.y, b.z };
  return tks_rt_launch(api, k, blocks, threads, args, NULL, 0, shmem, stream, coop);
}

TKS_EXPORT hipError_t hipLaunchKernel(const void *f, dim3 numBlocks, dim3 dimBlocks, void **args,
                                      size_t sharedMemBytes, hipStream_t stream)
{
  return launch_common("hipLaunchKernel", f, numBlocks, dimBlocks, args, sharedMemBytes, stream, 0);
}

TKS_EXPORT hipError_t hipLaunchCooperativeKernel(const void *f, dim3 gridDim, dim3 blockDimX, void **kernelParams,
                                                 unsigned int sharedMemBytes, hipStream_t stream)
{
  int per_cu = 0;
  hipError_t e = hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, f, (int)((uint64_t)blockDimX.x * blockDimX.y * blockDimX.z), sharedMemBytes);
  if (e == hipSuccess && (uint64_t)gridDim.x * gridDim.y * gridDim.z > (uint64_t)per_cu * TKS_DEV_CUS)
    return tks_rt_fail(hipErrorCooperativeLaunchTooLarge, "hipLaunchCooperativeKernel",
                       "%llu blocks cannot all be resident (at most %d per CU x %d CUs)",
                       (unsigned long long)gridDim.x * gridDim.y * gridDim.z, per_cu, TKS_DEV_CUS);
  return launch_common("hipLaunchCooperativeKernel", f, gridDim, blockDimX, kernelParams, sharedMemBytes, stream, 1);
}

TKS_EXPORT hipError_t hipExtLaunchKernel(const void *f, dim3 numBlocks, dim3 dimBlocks, void **args,
                                         size_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent,
                                         hipEvent_t stopEvent, int flags)
{
  (void)flags;
  if (startEvent) hipEventRecord(startEvent, stream);
  hipError_t e = launch_common("hipExtLaunchKernel", f, numBlocks, dimBlocks, args, sharedMemBytes, stream, 0);
  if (stopEvent) hipEventRecord(stopEvent, stream);
  return e;
}

/* ---------------------------------------------------- function attributes */
TKS_EXPORT hipError_t hipFuncGetAttributes(struct hipFuncAttributes *attr, const void *func)
{
  if (!attr) return tks_rt_fail(hipErrorInvalidValue, "hipFuncGetAttributes", "null pointer");
  tks_kernel *k = tks_rt_kernel(func);
  if (!k) return tks_rt_fail(hipErrorInvalidDeviceFunction, "hipFuncGetAttributes", "%p is not a kernel", func);
  memset(attr, 0, sizeof *attr);
  attr->binaryVersion = 94;
  attr->localSizeBytes = k->private_segment_fixed_size;
  attr->sharedSizeBytes = k->group_segment_fixed_size;
  attr->maxDynamicSharedSizeBytes = (int)(TKS_DEV_LDS - k->group_segment_fixed_size);
  attr->maxThreadsPerBlock = (int)(k->max_flat_workgroup_size ? k->max_flat_workgroup_size : TKS_DEV_MAX_THREADS);
  attr->numRegs = (int)k->vgpr_count;
  attr->ptxVersion = 94;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipFuncSetAttribute(const void *func, hipFuncAttribute attr, int value)
{
  tks_kernel *k = tks_rt_kernel(func);
  if (!k) return tks_rt_fail(hipErrorInvalidDeviceFunction, "hipFuncSetAttribute", "%p is not a kernel", func);
  if (attr == hipFuncAttributeMaxDynamicSharedMemorySize &&
      (value < 0 || (uint64_t)value + k->group_segment_fixed_size > TKS_DEV_LDS))
    return tks_rt_fail(hipErrorInvalidValue, "hipFuncSetAttribute", "kernel %s: %d bytes of dynamic LDS do not fit in 64 KiB",
                       k->name, value);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipFuncSetCacheConfig(const void *func, hipFuncCache_t config)
{
  (void)config;
  if (!tks_rt_kernel(func)) return tks_rt_fail(hipErrorInvalidDeviceFunction, "hipFuncSetCacheConfig", "%p is not a kernel", func);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipFuncSetSharedMemConfig(const void *func, hipSharedMemConfig config)
{
  (void)config;
  if (!tks_rt_kernel(func)) return tks_rt_fail(hipErrorInvalidDeviceFunction, "hipFuncSetSharedMemConfig", "%p is not a kernel", func);
  return hipSuccess;
}

/* ------------------------------------------------------------- occupancy */
static uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

/* Blocks of `threads` threads resident per CU; 0 if one block cannot fit. */
static int blocks_per_cu(const tks_kernel *k, uint32_t threads, size_t dyn_lds)
{
  if (threads == 0) return 0;
  uint32_t waves_per_block = (threads + 63) / 64;
  /* .vgpr_count is the unified count (arch VGPRs aligned to 4, then AGPRs) on
   * gfx90a+; the allocation granule is 8 registers. */
  uint32_t vgprs = k->vgpr_count;
  if (k->agpr_count && vgprs < k->accum_offset + k->agpr_count) vgprs = k->accum_offset + k->agpr_count;
  uint32_t waves_simd = 8;
  if (vgprs) { uint32_t w = 512 / align_up(vgprs, 8); if (w < waves_simd) waves_simd = w; }
  if (k->sgpr_count) { uint32_t w = 800 / align_up(k->sgpr_count, 16); if (w < waves_simd) waves_simd = w; }
  uint32_t waves_cu = 4 * waves_simd;
  int n = (int)(waves_cu / waves_per_block);
  uint32_t lds = align_up(k->group_segment_fixed_size + (uint32_t)dyn_lds, 512);
  if (lds) { int l = (int)(TKS_DEV_LDS / lds); if (l < n) n = l; }
  return n;
}

TKS_EXPORT hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *f, int blockSize,
                                                                  size_t dynSharedMemPerBlk)
{
  if (!numBlocks) return tks_rt_fail(hipErrorInvalidValue, "hipOccupancyMaxActiveBlocksPerMultiprocessor", "null pointer");
  tks_kernel *k = tks_rt_kernel(f);
  if (!k) return tks_rt_fail(hipErrorInvalidDeviceFunction, "hipOccupancyMaxActiveBlocksPerMultiprocessor", "%p is not a kernel", f);
  if (blockSize <= 0 || blockSize > TKS_DEV_MAX_THREADS)
    return tks_rt_fail(hipErrorInvalidValue, "hipOccupancyMaxActiveBlocksPerMultiprocessor", "block size %d out of range", blockSize);
  *numBlocks = blocks_per_cu(k, (uint32_t)blockSize, dynSharedMemPerBlk);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *f, int blockSize,
                                                                           size_t dynSharedMemPerBlk, unsigned int flags)
{
  (void)flags;
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, f, blockSize, dynSharedMemPerBlk);
}

TKS_EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, hipFunction_t f, int blockSize,
                                                                        size_t dynSharedMemPerBlk)
{
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)f, blockSize, dynSharedMemPerBlk);
}

TKS_EXPORT hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, hipFunction_t f, int blockSize,
                                                                                 size_t dynSharedMemPerBlk, unsigned int flags)
{
  (void)flags;
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)f, blockSize, dynSharedMemPerBlk);
}

TKS_EXPORT hipError_t hipOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, const void *f,
                                                        size_t dynSharedMemPerBlk, int blockSizeLimit)
{
  if (!gridSize || !blockSize) return tks_rt_fail(hipErrorInvalidValue, "hipOccupancyMaxPotentialBlockSize", "null pointer");
  tks_kernel *k = tks_rt_kernel(f);
  if (!k) return tks_rt_fail(hipErrorInvalidDeviceFunction, "hipOccupancyMaxPotentialBlockSize", "%p is not a kernel", f);
  int limit = (int)(k->max_flat_workgroup_size ? k->max_flat_workgroup_size : TKS_DEV_MAX_THREADS);
  if (limit > TKS_DEV_MAX_THREADS) limit = TKS_DEV_MAX_THREADS;
  if (blockSizeLimit > 0 && blockSizeLimit < limit) limit = blockSizeLimit;
  /* The largest block size (multiple of the wave size) with the most
   * resident threads per CU. */
  int best_threads = 0, best_bs = 0, best_blocks = 0;
  for (int bs = limit / 64 * 64; bs >= 64; bs -= 64) {
    int nb = blocks_per_cu(k, (uint32_t)bs, dynSharedMemPerBlk);
    if (nb * bs > best_threads) { best_threads = nb * bs; best_bs = bs; best_blocks = nb; }
  }
  if (!best_bs && limit < 64) { best_bs = limit; best_blocks = blocks_per_cu(k, (uint32_t)limit, dynSharedMemPerBlk); }
  *blockSize = best_bs;
  *gridSize = best_blocks * TKS_DEV_CUS;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSize(int *gridSize, int *blockSize, hipFunction_t f,
                                                              size_t dynSharedMemPerBlk, int blockSizeLimit)
{
  return hipOccupancyMaxPotentialBlockSize(gridSize, blockSize, (const void *)f, dynSharedMemPerBlk, blockSizeLimit);
}

TKS_EXPORT hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int *gridSize, int *blockSize, hipFunction_t f,
                                                                       size_t dynSharedMemPerBlk, int blockSizeLimit,
                                                                       unsigned int flags)
{
  (void)flags;
  return hipOccupancyMaxPotentialBlockSize(gridSize, blockSize, (const void *)f, dynSharedMemPerBlk, blockSizeLimit);
}
