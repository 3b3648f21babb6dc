/* device.c: device queries, errors and version calls of tksim's HIP runtime.
 *
 * tksim shows one device: the part its timing model models (--model=mi300x,
 * mi325x, mi350x, mi355x), or without a model an AMD Instinct MI325X (CDNA3,
 * gfx942) or under tksim --arch=gfx950 an MI355X (CDNA4, gfx950; rt.h):
 * wave64, 1024 threads per block, 4 MiB L2 per XCD, and per part the CUs,
 * peak engine clock and HBM size of its product page (parts[] below; CDNA3
 * ISA guide ch. 1). Error semantics follow the HIP 5.2
 * headers: hipGetLastError returns and clears the last error of this thread.
 */
#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include "runtime/rt.h"

static _Thread_local hipError_t g_last = hipSuccess;
static hipError_t g_sticky = hipSuccess;

hipError_t tks_rt_ret(hipError_t e)
{
  if (e != hipSuccess) g_last = e;
  return e;
}

hipError_t tks_rt_fail(hipError_t e, const char *api, const char *fmt, ...)
{
  if (!tks_get_options()->quiet) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tksim: %s: ", api);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (%s)\n", hipGetErrorName(e));
    va_end(ap);
  }
  return tks_rt_ret(e);
}

hipError_t tks_rt_take_sticky(void)
{
  hipError_t e = g_sticky;
  g_sticky = hipSuccess;
  return e;
}

void tks_rt_set_sticky(hipError_t e) { g_sticky = e; g_last = e; }

TKS_EXPORT hipError_t hipGetLastError(void)
{
  hipError_t e = g_last;
  g_last = hipSuccess;
  return e;
}

TKS_EXPORT hipError_t hipPeekAtLastError(void) { return g_last; }

TKS_EXPORT const char *hipGetErrorName(hipError_t e)
{
  switch (e) {
#define X(n) case n: return #n;
  X(hipSuccess)
  X(hipErrorInvalidValue)
  X(hipErrorOutOfMemory)
  X(hipErrorNotInitialized)
  X(hipErrorDeinitialized)
  X(hipErrorProfilerDisabled)
  X(hipErrorProfilerNotInitialized)
  X(hipErrorProfilerAlreadyStarted)
  X(hipErrorProfilerAlreadyStopped)
  X(hipErrorInvalidConfiguration)
  X(hipErrorInvalidPitchValue)
  X(hipErrorInvalidSymbol)
  X(hipErrorInvalidDevicePointer)
  X(hipErrorInvalidMemcpyDirection)
  X(hipErrorInsufficientDriver)
  X(hipErrorMissingConfiguration)
  X(hipErrorPriorLaunchFailure)
  X(hipErrorInvalidDeviceFunction)
  X(hipErrorNoDevice)
  X(hipErrorInvalidDevice)
  X(hipErrorInvalidImage)
  X(hipErrorInvalidContext)
  X(hipErrorContextAlreadyCurrent)
  X(hipErrorMapFailed)
  X(hipErrorUnmapFailed)
  X(hipErrorArrayIsMapped)
  X(hipErrorAlreadyMapped)
  X(hipErrorNoBinaryForGpu)
  X(hipErrorAlreadyAcquired)
  X(hipErrorNotMapped)
  X(hipErrorNotMappedAsArray)
  X(hipErrorNotMappedAsPointer)
  X(hipErrorECCNotCorrectable)
  X(hipErrorUnsupportedLimit)
  X(hipErrorContextAlreadyInUse)
  X(hipErrorPeerAccessUnsupported)
  X(hipErrorInvalidKernelFile)
  X(hipErrorInvalidGraphicsContext)
  X(hipErrorInvalidSource)
  X(hipErrorFileNotFound)
  X(hipErrorSharedObjectSymbolNotFound)
  X(hipErrorSharedObjectInitFailed)
  X(hipErrorOperatingSystem)
  X(hipErrorInvalidHandle)
  X(hipErrorIllegalState)
  X(hipErrorNotFound)
  X(hipErrorNotReady)
  X(hipErrorIllegalAddress)
  X(hipErrorLaunchOutOfResources)
  X(hipErrorLaunchTimeOut)
  X(hipErrorPeerAccessAlreadyEnabled)
  X(hipErrorPeerAccessNotEnabled)
  X(hipErrorSetOnActiveProcess)
  X(hipErrorContextIsDestroyed)
  X(hipErrorAssert)
  X(hipErrorHostMemoryAlreadyRegistered)
  X(hipErrorHostMemoryNotRegistered)
  X(hipErrorLaunchFailure)
  X(hipErrorCooperativeLaunchTooLarge)
  X(hipErrorNotSupported)
  X(hipErrorStreamCaptureUnsupported)
  X(hipErrorStreamCaptureInvalidated)
  X(hipErrorStreamCaptureMerge)
  X(hipErrorStreamCaptureUnmatched)
  X(hipErrorStreamCaptureUnjoined)
  X(hipErrorStreamCaptureIsolation)
  X(hipErrorStreamCaptureImplicit)
  X(hipErrorCapturedEvent)
  X(hipErrorStreamCaptureWrongThread)
  X(hipErrorGraphExecUpdateFailure)
  X(hipErrorUnknown)
  X(hipErrorRuntimeMemory)
  X(hipErrorRuntimeOther)
#undef X
  default: return "hipErrorUnknown";
  }
}

TKS_EXPORT const char *hipGetErrorString(hipError_t e)
{
  switch (e) {
  case hipSuccess: return "no error";
  case hipErrorInvalidValue: return "invalid argument";
  case hipErrorOutOfMemory: return "out of memory";
  case hipErrorInvalidConfiguration: return "invalid configuration argument";
  case hipErrorInvalidSymbol: return "invalid device symbol";
  case hipErrorInvalidDevicePointer: return "invalid device pointer";
  case hipErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
  case hipErrorInvalidDeviceFunction: return "invalid device function";
  case hipErrorInvalidDevice: return "invalid device ordinal";
  case hipErrorInvalidImage: return "device kernel image is invalid";
  case hipErrorNoBinaryForGpu: return "no kernel image is available for execution on the device";
  case hipErrorFileNotFound: return "file not found";
  case hipErrorNotFound: return "named symbol not found";
  case hipErrorNotReady: return "device not ready";
  case hipErrorInvalidHandle: return "invalid resource handle";
  case hipErrorLaunchFailure: return "unspecified launch failure";
  case hipErrorLaunchOutOfResources: return "too many resources requested for launch";
  case hipErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
  case hipErrorNotSupported: return "operation not supported";
  case hipErrorIllegalAddress: return "an illegal memory access was encountered";
  default: return hipGetErrorName(e);
  }
}

TKS_EXPORT hipError_t hipInit(unsigned int flags)
{
  if (flags) return tks_rt_fail(hipErrorInvalidValue, "hipInit", "flags must be 0");
  return hipSuccess;
}

TKS_EXPORT hipError_t hipGetDeviceCount(int *count)
{
  if (!count) return tks_rt_fail(hipErrorInvalidValue, "hipGetDeviceCount", "null pointer");
  *count = 1;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipGetDevice(int *dev)
{
  if (!dev) return tks_rt_fail(hipErrorInvalidValue, "hipGetDevice", "null pointer");
  *dev = 0;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipSetDevice(int dev)
{
  if (dev != 0) return tks_rt_fail(hipErrorInvalidDevice, "hipSetDevice", "device %d does not exist (tksim has device 0 only)", dev);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipDeviceGet(hipDevice_t *d, int ordinal)
{
  if (!d) return tks_rt_fail(hipErrorInvalidValue, "hipDeviceGet", "null pointer");
  if (ordinal != 0) return tks_rt_fail(hipErrorInvalidDevice, "hipDeviceGet", "device %d does not exist", ordinal);
  *d = 0;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipSetDeviceFlags(unsigned flags) { (void)flags; return hipSuccess; }
TKS_EXPORT hipError_t hipGetDeviceFlags(unsigned int *flags)
{
  if (!flags) return tks_rt_fail(hipErrorInvalidValue, "hipGetDeviceFlags", "null pointer");
  *flags = 0;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipDriverGetVersion(int *v)
{
  if (!v) return tks_rt_fail(hipErrorInvalidValue, "hipDriverGetVersion", "null pointer");
  *v = HIP_VERSION;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipRuntimeGetVersion(int *v)
{
  if (!v) return tks_rt_fail(hipErrorInvalidValue, "hipRuntimeGetVersion", "null pointer");
  *v = HIP_VERSION;
  return hipSuccess;
}

/* --model-sample (TKSIM_MODEL_SAMPLE > 0): unselected workgroups do not run,
 * so the device name says so and the user is told once; programs that
 * check results can refuse to (sim/model/NEEDS.md). */
static void sample_note(void)
{
  if (!tks_get_options()->quiet)
    fprintf(stderr, "tksim: --model-sample: results of unsimulated workgroups are not computed\n");
}

int tks_rt_sampled(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  if (tks_get_options()->model_sample <= 0) return 0;
  pthread_once(&once, sample_note);
  return 1;
}

/* The four parts tksim models, by SKU id (tksim.h TKS_MODEL_*): CUs, peak
 * engine clock and HBM capacity from AMD's product pages (MI300X 304 CUs,
 * 2100 MHz, 192 GB HBM3; MI325X 304, 2100, 256 GB HBM3E; MI350X 256, 2200,
 * 288 GB HBM3E; MI355X 256, 2400, 288 GB HBM3E); the model's own parameters
 * (sim/model/params.c) agree on CUs and peak clocks. */
static const tks_dev_part parts[] = {
  [TKS_MODEL_MI300X] = {"AMD Instinct MI300X (tksim)", "AMD Instinct MI300X (tksim) (tksim sampled)", 304, 2100000,
                        (size_t)192 << 30},
  [TKS_MODEL_MI325X] = {"AMD Instinct MI325X (tksim)", "AMD Instinct MI325X (tksim) (tksim sampled)", 304, 2100000,
                        (size_t)256 << 30},
  [TKS_MODEL_MI350X] = {"AMD Instinct MI350X (tksim)", "AMD Instinct MI350X (tksim) (tksim sampled)", 256, 2200000,
                        (size_t)288 << 30},
  [TKS_MODEL_MI355X] = {"AMD Instinct MI355X (tksim)", "AMD Instinct MI355X (tksim) (tksim sampled)", 256, 2400000,
                        (size_t)288 << 30},
};

/* The modeled part, else the target's default one. tksim refuses a model of
 * the other generation (a CDNA3 part timing gfx950 code), so the part's
 * generation is the target's; a mismatch here falls back to the default. */
const tks_dev_part *tks_dev_part_get(void)
{
  const tks_options *o = tks_get_options();
  const int sku = o->model;
  if (sku >= TKS_MODEL_MI300X && sku <= TKS_MODEL_MI355X && tks_model_arch(sku) == o->arch) return &parts[sku];
  return &parts[o->arch == TKS_ARCH_GFX950 ? TKS_MODEL_MI355X : TKS_MODEL_MI325X];
}

static const char *dev_name(void)
{
  return tks_rt_sampled() ? tks_dev_part_get()->sampled_name : TKS_DEV_NAME;
}

TKS_EXPORT hipError_t hipDeviceGetName(char *name, int len, hipDevice_t dev)
{
  if (!name || len <= 0) return tks_rt_fail(hipErrorInvalidValue, "hipDeviceGetName", "bad buffer");
  if (dev != 0) return tks_rt_fail(hipErrorInvalidDevice, "hipDeviceGetName", "device %d does not exist", dev);
  snprintf(name, (size_t)len, "%s", dev_name());
  return hipSuccess;
}

static void fill_props(hipDeviceProp_t *p)
{
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", dev_name());
  snprintf(p->gcnArchName, sizeof p->gcnArchName, "%s", TKS_DEV_ARCH);
  p->totalGlobalMem = TKS_DEV_MEM;
  p->sharedMemPerBlock = TKS_DEV_LDS;
  p->regsPerBlock = 512 * 64;       /* 512 VGPRs x 64 lanes per SIMD */
  p->warpSize = 64;
  p->maxThreadsPerBlock = TKS_DEV_MAX_THREADS;
  p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1024;
  p->maxGridSize[0] = p->maxGridSize[1] = p->maxGridSize[2] = 0x7fffffff;
  p->clockRate = TKS_DEV_CLOCK_KHZ;
  p->memoryClockRate = 1300000;     /* HBM3E 6.0 Gbps: 1.3 GHz x 2 x ... per data sheet bandwidth (all parts alike) */
  p->memoryBusWidth = 8192;
  p->totalConstMem = TKS_DEV_MEM;
  p->major = 9;
  p->minor = 4;
  p->multiProcessorCount = TKS_DEV_CUS;
  p->l2CacheSize = TKS_DEV_L2;
  p->maxThreadsPerMultiProcessor = 2048; /* 4 SIMDs x 8 waves x 64 lanes */
  p->clockInstructionRate = 100000; /* s_memtime ticks at 100 MHz */
  p->arch.hasGlobalInt32Atomics = 1; p->arch.hasGlobalFloatAtomicExch = 1;
  p->arch.hasSharedInt32Atomics = 1; p->arch.hasSharedFloatAtomicExch = 1;
  p->arch.hasFloatAtomicAdd = 1; p->arch.hasGlobalInt64Atomics = 1;
  p->arch.hasSharedInt64Atomics = 1; p->arch.hasDoubles = 1;
  p->arch.hasWarpVote = 1; p->arch.hasWarpBallot = 1; p->arch.hasWarpShuffle = 1;
  p->arch.hasFunnelShift = 1; p->arch.hasThreadFenceSystem = 1; p->arch.hasSyncThreadsExt = 1;
  p->arch.hasDynamicParallelism = 0; p->arch.has3dGrid = 1;
  p->concurrentKernels = 1;
  p->maxSharedMemoryPerMultiProcessor = TKS_DEV_LDS;
  p->canMapHostMemory = 1;
  p->gcnArch = TKS_DEV_GCN_ARCH;
  p->cooperativeLaunch = 1;
  p->cooperativeMultiDeviceLaunch = 0;
  p->maxTexture1DLinear = 1 << 27;
  p->maxTexture1D = 1 << 14;
  p->maxTexture2D[0] = p->maxTexture2D[1] = 1 << 14;
  p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 1 << 14;
  p->memPitch = 0x7fffffff;
  p->textureAlignment = 256;
  p->texturePitchAlignment = 256;
  p->ECCEnabled = 1;
  p->isLargeBar = 1;
  p->managedMemory = 1;
  p->directManagedMemAccessFromHost = 1;
  p->concurrentManagedAccess = 1;
  p->pageableMemoryAccess = 1;
  p->pageableMemoryAccessUsesHostPageTables = 1;
}

TKS_EXPORT hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int dev)
{
  if (!p) return tks_rt_fail(hipErrorInvalidValue, "hipGetDeviceProperties", "null pointer");
  if (dev != 0) return tks_rt_fail(hipErrorInvalidDevice, "hipGetDeviceProperties", "device %d does not exist", dev);
  fill_props(p);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipDeviceGetAttribute(int *pi, hipDeviceAttribute_t attr, int dev)
{
  if (!pi) return tks_rt_fail(hipErrorInvalidValue, "hipDeviceGetAttribute", "null pointer");
  if (dev != 0) return tks_rt_fail(hipErrorInvalidDevice, "hipDeviceGetAttribute", "device %d does not exist", dev);
  hipDeviceProp_t p;
  fill_props(&p);
  int v;
  switch (attr) {
  case hipDeviceAttributeMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
  case hipDeviceAttributeMaxBlockDimX: v = p.maxThreadsDim[0]; break;
  case hipDeviceAttributeMaxBlockDimY: v = p.maxThreadsDim[1]; break;
  case hipDeviceAttributeMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
  case hipDeviceAttributeMaxGridDimX: v = p.maxGridSize[0]; break;
  case hipDeviceAttributeMaxGridDimY: v = p.maxGridSize[1]; break;
  case hipDeviceAttributeMaxGridDimZ: v = p.maxGridSize[2]; break;
  case hipDeviceAttributeMaxSharedMemoryPerBlock: v = (int)p.sharedMemPerBlock; break;
  case hipDeviceAttributeSharedMemPerBlockOptin: v = (int)p.sharedMemPerBlock; break;
  case hipDeviceAttributeSharedMemPerMultiprocessor:
  case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: v = (int)p.maxSharedMemoryPerMultiProcessor; break;
  case hipDeviceAttributeTotalConstantMemory: v = 0x7fffffff; break;
  case hipDeviceAttributeWarpSize: v = p.warpSize; break;
  case hipDeviceAttributeMaxRegistersPerBlock: v = p.regsPerBlock; break;
  case hipDeviceAttributeMaxRegistersPerMultiprocessor: v = 4 * 512 * 64; break;
  case hipDeviceAttributeClockRate: v = p.clockRate; break;
  case hipDeviceAttributeMemoryClockRate: v = p.memoryClockRate; break;
  case hipDeviceAttributeMemoryBusWidth: v = p.memoryBusWidth; break;
  case hipDeviceAttributeMultiprocessorCount: v = p.multiProcessorCount; break;
  case hipDeviceAttributePhysicalMultiProcessorCount: v = p.multiProcessorCount; break;
  case hipDeviceAttributeComputeMode: v = 0; break;
  case hipDeviceAttributeL2CacheSize: v = p.l2CacheSize; break;
  case hipDeviceAttributeMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
  case hipDeviceAttributeMaxBlocksPerMultiProcessor: v = 32; break; /* 2048 threads / 64 */
  case hipDeviceAttributeComputeCapabilityMajor: v = p.major; break;
  case hipDeviceAttributeComputeCapabilityMinor: v = p.minor; break;
  case hipDeviceAttributeConcurrentKernels: v = 1; break;
  case hipDeviceAttributePciBusId: case hipDeviceAttributePciDeviceId: case hipDeviceAttributePciDomainID: v = 0; break;
  case hipDeviceAttributeIntegrated: v = 0; break;
  case hipDeviceAttributeCanMapHostMemory: v = 1; break;
  case hipDeviceAttributeCooperativeLaunch: v = 1; break;
  case hipDeviceAttributeCooperativeMultiDeviceLaunch: v = 0; break;
  case hipDeviceAttributeEccEnabled: v = 1; break;
  case hipDeviceAttributeManagedMemory: v = 1; break;
  case hipDeviceAttributeUnifiedAddressing: v = 1; break;
  case hipDeviceAttributeClockInstructionRate: v = p.clockInstructionRate; break;
  case hipDeviceAttributeGcnArch: v = TKS_DEV_GCN_ARCH; break;
  case hipDeviceAttributeIsLargeBar: v = 1; break;
  case hipDeviceAttributeAsicRevision: v = 0; break;
  case hipDeviceAttributeMaxPitch: v = 0x7fffffff; break;
  case hipDeviceAttributeTextureAlignment: v = 256; break;
  case hipDeviceAttributeTexturePitchAlignment: v = 256; break;
  case hipDeviceAttributeKernelExecTimeout: v = 0; break;
  case hipDeviceAttributeHostNativeAtomicSupported: v = 1; break;
  case hipDeviceAttributeConcurrentManagedAccess: v = 1; break;
  case hipDeviceAttributePageableMemoryAccess: v = 1; break;
  case hipDeviceAttributeDirectManagedMemAccessFromHost: v = 1; break;
  case hipDeviceAttributeFineGrainSupport: v = 1; break;
  case hipDeviceAttributeImageSupport: v = 0; break;
  case hipDeviceAttributeMemoryPoolsSupported: v = 0; break;
  default:
    return tks_rt_fail(hipErrorInvalidValue, "hipDeviceGetAttribute", "attribute %d is not modelled by tksim", (int)attr);
  }
  *pi = v;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipChooseDevice(int *device, const hipDeviceProp_t *prop)
{
  if (!device || !prop) return tks_rt_fail(hipErrorInvalidValue, "hipChooseDevice", "null pointer");
  *device = 0;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipDeviceSetCacheConfig(hipFuncCache_t c) { (void)c; return hipSuccess; }
TKS_EXPORT hipError_t hipDeviceGetCacheConfig(hipFuncCache_t *c)
{
  if (!c) return tks_rt_fail(hipErrorInvalidValue, "hipDeviceGetCacheConfig", "null pointer");
  *c = hipFuncCachePreferNone;
  return hipSuccess;
}
TKS_EXPORT hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig c) { (void)c; return hipSuccess; }
TKS_EXPORT hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig *c)
{
  if (!c) return tks_rt_fail(hipErrorInvalidValue, "hipDeviceGetSharedMemConfig", "null pointer");
  *c = hipSharedMemBankSizeFourByte;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipDeviceGetLimit(size_t *v, enum hipLimit_t limit)
{
  if (!v) return tks_rt_fail(hipErrorInvalidValue, "hipDeviceGetLimit", "null pointer");
  if (limit == hipLimitMallocHeapSize) { *v = 0; return hipSuccess; }
  return tks_rt_fail(hipErrorUnsupportedLimit, "hipDeviceGetLimit", "limit %d not supported", (int)limit);
}
