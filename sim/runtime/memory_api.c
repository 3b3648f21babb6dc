/* memory_api.c: allocation, copy, set and symbol calls of tksim's HIP runtime.
 *
 * Device memory is host memory (tksim.h): hipMalloc returns a 256-byte aligned
 * host block registered in the allocation table with its exact requested size,
 * so the memory checker flags accesses past it. Copies and sets validate every
 * device-side range against the table before touching a byte: a null, freed or
 * foreign pointer, or a range running past its allocation, is refused with a
 * "tksim: ..." message and the HIP error the HIP 5.2 API documents.
 *
 * Allocations of LAZY_MIN bytes and more get their own anonymous mapping, so
 * resident memory follows what is written: the kernel supplies a page's zeros
 * on its first touch, and a zero memset returns whole pages to it
 * (MADV_DONTNEED: a private anonymous page reads as zeros afterwards) instead
 * of writing them. A sampled run's buffers are mostly never touched (at
 * N = 16384 an attention backward's zeroed dQ accumulator is 3.75 GB).
 */
#define _DEFAULT_SOURCE /* madvise, MAP_ANONYMOUS under -std=c11 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "runtime/rt.h"

#define ALIGN 256
#define LAZY_MIN ((size_t)1 << 20)

/* The mapped allocations (base, mapped length), unsorted: looked up by
 * hipFree and zero memsets only, never on a kernel's access path. */
typedef struct { uintptr_t base; size_t len; } mapping;
static mapping *g_maps;
static size_t g_nmaps, g_capmaps;
static pthread_mutex_t g_maps_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t page_size(void)
{
  static size_t ps;
  if (!ps) ps = (size_t)sysconf(_SC_PAGESIZE);
  return ps;
}

/* A zeroed mapping of at least size bytes, recorded; NULL on failure. */
static void *map_alloc(size_t size)
{
  size_t len = (size + page_size() - 1) & ~(page_size() - 1);
  void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  pthread_mutex_lock(&g_maps_lock);
  if (g_nmaps == g_capmaps) {
    size_t c = g_capmaps ? 2 * g_capmaps : 64;
    mapping *m = realloc(g_maps, c * sizeof *m);
    if (!m) { pthread_mutex_unlock(&g_maps_lock); munmap(p, len); return NULL; }
    g_maps = m; g_capmaps = c;
  }
  g_maps[g_nmaps++] = (mapping){ (uintptr_t)p, len };
  pthread_mutex_unlock(&g_maps_lock);
  return p;
}

/* The mapped length of the mapping at base (0: not one of ours); remove
 * drops it from the record. */
static size_t map_len(uintptr_t base, int remove)
{
  size_t len = 0;
  pthread_mutex_lock(&g_maps_lock);
  for (size_t i = 0; i < g_nmaps; i++)
    if (g_maps[i].base == base) {
      len = g_maps[i].len;
      if (remove) g_maps[i] = g_maps[--g_nmaps];
      break;
    }
  pthread_mutex_unlock(&g_maps_lock);
  return len;
}

static hipError_t alloc(void **ptr, size_t size, int kind, const char *api)
{
  if (!ptr) return tks_rt_fail(hipErrorInvalidValue, api, "null result pointer");
  *ptr = NULL;
  if (size == 0) return hipSuccess; /* HIP returns a null pointer for 0 bytes */
  if (size > TKS_DEV_MEM) return tks_rt_fail(hipErrorOutOfMemory, api, "%zu bytes exceed the device's %zu GiB", size,
                                     TKS_DEV_MEM >> 30);
  size_t rounded = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
  int mapped = rounded >= LAZY_MIN;
  void *p = mapped ? map_alloc(rounded) : aligned_alloc(ALIGN, rounded);
  if (!p) return tks_rt_fail(hipErrorOutOfMemory, api, "host allocation of %zu bytes failed", size);
  if (tks_mem_register((uint64_t)(uintptr_t)p, size, kind)) {
    if (mapped) munmap(p, map_len((uintptr_t)p, 1));
    else free(p);
    return tks_rt_fail(hipErrorOutOfMemory, api, "allocation table full");
  }
  *ptr = p;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipMalloc(void **ptr, size_t size) { return alloc(ptr, size, TKS_ALLOC_DEVICE, "hipMalloc"); }
TKS_EXPORT hipError_t hipExtMallocWithFlags(void **ptr, size_t size, unsigned int flags)
{
  (void)flags;
  return alloc(ptr, size, TKS_ALLOC_DEVICE, "hipExtMallocWithFlags");
}
TKS_EXPORT hipError_t hipMallocManaged(void **ptr, size_t size, unsigned int flags)
{
  (void)flags;
  return alloc(ptr, size, TKS_ALLOC_DEVICE, "hipMallocManaged");
}
TKS_EXPORT hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags)
{
  (void)flags;
  return alloc(ptr, size, TKS_ALLOC_HOST, "hipHostMalloc");
}
TKS_EXPORT hipError_t hipMallocHost(void **ptr, size_t size) { return alloc(ptr, size, TKS_ALLOC_HOST, "hipMallocHost"); }
TKS_EXPORT hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags)
{
  (void)flags;
  return alloc(ptr, size, TKS_ALLOC_HOST, "hipHostAlloc");
}
TKS_EXPORT hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
  if (!pitch) return tks_rt_fail(hipErrorInvalidValue, "hipMallocPitch", "null pitch pointer");
  *pitch = (width + ALIGN - 1) & ~(size_t)(ALIGN - 1);
  return alloc(ptr, *pitch * height, TKS_ALLOC_DEVICE, "hipMallocPitch");
}

static hipError_t release(void *ptr, const char *api)
{
  if (!ptr) return hipSuccess; /* freeing null is a no-op, as in HIP */
  const tks_alloc *a = tks_mem_find((uint64_t)(uintptr_t)ptr, 1);
  if (!a || a->base != (uint64_t)(uintptr_t)ptr || (a->kind != TKS_ALLOC_DEVICE && a->kind != TKS_ALLOC_HOST))
    return tks_rt_fail(hipErrorInvalidValue, api, "%p is not the start of a live allocation (already freed?)", ptr);
  tks_mem_unregister(a->base);
  size_t len = map_len((uintptr_t)ptr, 1);
  if (len) munmap(ptr, len);
  else free(ptr);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipFree(void *ptr)
{
  hipError_t st = tks_rt_take_sticky(); /* hipFree synchronises */
  if (st != hipSuccess) return tks_rt_ret(st);
  return release(ptr, "hipFree");
}
TKS_EXPORT hipError_t hipHostFree(void *ptr) { return release(ptr, "hipHostFree"); }
TKS_EXPORT hipError_t hipFreeHost(void *ptr) { return release(ptr, "hipFreeHost"); }

TKS_EXPORT hipError_t hipMemGetInfo(size_t *free_b, size_t *total)
{
  if (!free_b || !total) return tks_rt_fail(hipErrorInvalidValue, "hipMemGetInfo", "null pointer");
  *total = TKS_DEV_MEM;
  *free_b = TKS_DEV_MEM; /* host memory backs it; no meaningful figure */
  return hipSuccess;
}

TKS_EXPORT hipError_t hipMemPtrGetInfo(void *ptr, size_t *size)
{
  if (!ptr || !size) return tks_rt_fail(hipErrorInvalidValue, "hipMemPtrGetInfo", "null pointer");
  const tks_alloc *a = tks_mem_find((uint64_t)(uintptr_t)ptr, 1);
  if (!a) return tks_rt_fail(hipErrorInvalidValue, "hipMemPtrGetInfo", "%p is not in a live allocation", ptr);
  *size = (size_t)a->size;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipHostGetDevicePointer(void **devPtr, void *hstPtr, unsigned int flags)
{
  (void)flags;
  if (!devPtr || !hstPtr) return tks_rt_fail(hipErrorInvalidValue, "hipHostGetDevicePointer", "null pointer");
  if (!tks_mem_find((uint64_t)(uintptr_t)hstPtr, 1))
    return tks_rt_fail(hipErrorInvalidValue, "hipHostGetDevicePointer", "%p is not hipHostMalloc memory", hstPtr);
  *devPtr = hstPtr;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags)
{
  (void)flags;
  if (!hostPtr || !sizeBytes) return tks_rt_fail(hipErrorInvalidValue, "hipHostRegister", "null pointer or zero size");
  if (tks_mem_register((uint64_t)(uintptr_t)hostPtr, sizeBytes, TKS_ALLOC_HOST))
    return tks_rt_fail(hipErrorHostMemoryAlreadyRegistered, "hipHostRegister", "%p overlaps a registered range", hostPtr);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipHostUnregister(void *hostPtr)
{
  const tks_alloc *a = tks_mem_find((uint64_t)(uintptr_t)hostPtr, 1);
  if (!hostPtr || !a || a->base != (uint64_t)(uintptr_t)hostPtr || a->kind != TKS_ALLOC_HOST)
    return tks_rt_fail(hipErrorHostMemoryNotRegistered, "hipHostUnregister", "%p is not registered", hostPtr);
  tks_mem_unregister(a->base);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attr, const void *ptr)
{
  if (!attr || !ptr) return tks_rt_fail(hipErrorInvalidValue, "hipPointerGetAttributes", "null pointer");
  const tks_alloc *a = tks_mem_find((uint64_t)(uintptr_t)ptr, 1);
  if (!a) return tks_rt_fail(hipErrorInvalidValue, "hipPointerGetAttributes", "%p is not in a live allocation", ptr);
  memset(attr, 0, sizeof *attr);
  attr->memoryType = a->kind == TKS_ALLOC_HOST ? hipMemoryTypeHost : hipMemoryTypeDevice;
  attr->device = 0;
  attr->devicePointer = (void *)ptr;
  attr->hostPointer = (void *)ptr;
  attr->isManaged = 0;
  attr->allocationFlags = 0;
  return hipSuccess;
}

/* The timing model, when linked (sim/model/model.h; weak, as
 * sim/report/launch_hooks.c reaches it): a fill or a same-device copy is a
 * kernel on the GPU (ROCm/clr rocclr/device/rocm/rocblit.cpp:
 * KernelBlitManager::fillBuffer and copyBuffer run blit kernels on device
 * memory), so its writes go into the modeled Infinity Cache as a kernel's
 * do. Host-to-device copies do not (sim/model/NEEDS.md says why). */
__attribute__((weak)) void tks_model_mem_write(uint64_t addr, uint64_t bytes);
static void model_write(const void *dst, size_t n)
{
  if (tks_model_mem_write && n) tks_model_mem_write((uint64_t)(uintptr_t)dst, n);
}

/* Device-side range check: [p, p+n) must lie in one live allocation. */
static hipError_t check_dev(const void *p, size_t n, const char *what, const char *api)
{
  if (!p) return tks_rt_fail(hipErrorInvalidValue, api, "%s is a null pointer", what);
  const tks_alloc *a = tks_mem_find((uint64_t)(uintptr_t)p, 1);
  if (!a) return tks_rt_fail(hipErrorInvalidValue, api, "%s %p is not in any live device allocation (freed, or a host pointer?)", what, p);
  uint64_t end = (uint64_t)(uintptr_t)p + n;
  if (end < (uint64_t)(uintptr_t)p || end > a->base + a->size)
    return tks_rt_fail(hipErrorInvalidValue, api, "%s range [%p, +%zu) runs %llu bytes past its %llu-byte allocation at %p",
                       what, p, n, (unsigned long long)(end - (a->base + a->size)), (unsigned long long)a->size,
                       (void *)(uintptr_t)a->base);
  return hipSuccess;
}

/* Host-side check: non-null, and if the pointer is inside a registered
 * allocation the range must stay inside it. */
static hipError_t check_host(const void *p, size_t n, const char *what, const char *api)
{
  if (!p) return tks_rt_fail(hipErrorInvalidValue, api, "%s is a null pointer", what);
  if (tks_mem_find((uint64_t)(uintptr_t)p, 1)) return check_dev(p, n, what, api);
  return hipSuccess;
}

static hipError_t copy(void *dst, const void *src, size_t n, hipMemcpyKind kind, const char *api)
{
  hipError_t st = tks_rt_take_sticky(); /* a synchronous copy waits for prior work */
  if (st != hipSuccess) return tks_rt_ret(st);
  if ((int)kind < hipMemcpyHostToHost || (int)kind > hipMemcpyDefault)
    return tks_rt_fail(hipErrorInvalidMemcpyDirection, api, "unknown copy kind %d", (int)kind);
  if (n == 0) return hipSuccess;
  hipError_t e;
  int dst_dev = kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice;
  int src_dev = kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice;
  e = dst_dev ? check_dev(dst, n, "destination", api) : check_host(dst, n, "destination", api);
  if (e) return e;
  e = src_dev ? check_dev(src, n, "source", api) : check_host(src, n, "source", api);
  if (e) return e;
  memmove(dst, src, n);
  /* device to device: hipMemcpyDeviceToDevice, or hipMemcpyDefault between
   * two device allocations */
  if (kind == hipMemcpyDeviceToDevice ||
      (kind == hipMemcpyDefault && tks_mem_find((uint64_t)(uintptr_t)dst, 1) && tks_mem_find((uint64_t)(uintptr_t)src, 1)))
    model_write(dst, n);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t n, hipMemcpyKind kind) { return copy(dst, src, n, kind, "hipMemcpy"); }
TKS_EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, hipMemcpyKind kind, hipStream_t stream)
{
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, "hipMemcpyAsync", "invalid stream");
  return copy(dst, src, n, kind, "hipMemcpyAsync");
}
TKS_EXPORT hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t n, hipMemcpyKind kind, hipStream_t stream)
{
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, "hipMemcpyWithStream", "invalid stream");
  return copy(dst, src, n, kind, "hipMemcpyWithStream");
}
TKS_EXPORT hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t n) { return copy(dst, src, n, hipMemcpyHostToDevice, "hipMemcpyHtoD"); }
TKS_EXPORT hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t n) { return copy(dst, src, n, hipMemcpyDeviceToHost, "hipMemcpyDtoH"); }
TKS_EXPORT hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t n) { return copy(dst, src, n, hipMemcpyDeviceToDevice, "hipMemcpyDtoD"); }
TKS_EXPORT hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t n, hipStream_t s) { (void)s; return copy(dst, src, n, hipMemcpyHostToDevice, "hipMemcpyHtoDAsync"); }
TKS_EXPORT hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t n, hipStream_t s) { (void)s; return copy(dst, src, n, hipMemcpyDeviceToHost, "hipMemcpyDtoHAsync"); }
TKS_EXPORT hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t n, hipStream_t s) { (void)s; return copy(dst, src, n, hipMemcpyDeviceToDevice, "hipMemcpyDtoDAsync"); }
TKS_EXPORT hipError_t hipMemcpyPeer(void *dst, int dd, const void *src, int sd, size_t n)
{
  if (dd != 0 || sd != 0) return tks_rt_fail(hipErrorInvalidDevice, "hipMemcpyPeer", "tksim has device 0 only");
  return copy(dst, src, n, hipMemcpyDeviceToDevice, "hipMemcpyPeer");
}

TKS_EXPORT hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                  size_t height, hipMemcpyKind kind)
{
  if (width > dpitch || width > spitch) return tks_rt_fail(hipErrorInvalidPitchValue, "hipMemcpy2D", "width exceeds a pitch");
  if (height == 0 || width == 0) return hipSuccess;
  int dst_dev = kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToDevice;
  int src_dev = kind == hipMemcpyDeviceToHost || kind == hipMemcpyDeviceToDevice;
  size_t dspan = dpitch * (height - 1) + width, sspan = spitch * (height - 1) + width;
  hipError_t e = dst_dev ? check_dev(dst, dspan, "destination", "hipMemcpy2D") : check_host(dst, dspan, "destination", "hipMemcpy2D");
  if (e) return e;
  e = src_dev ? check_dev(src, sspan, "source", "hipMemcpy2D") : check_host(src, sspan, "source", "hipMemcpy2D");
  if (e) return e;
  for (size_t r = 0; r < height; r++) {
    memmove((uint8_t *)dst + r * dpitch, (const uint8_t *)src + r * spitch, width);
    if (kind == hipMemcpyDeviceToDevice) model_write((uint8_t *)dst + r * dpitch, width);
  }
  return hipSuccess;
}
TKS_EXPORT hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                       size_t height, hipMemcpyKind kind, hipStream_t stream)
{
  (void)stream;
  return hipMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

/* memset, but zeros over whole pages of one of our mappings go back to the
 * kernel (they read as zeros and hold no memory until written again); the
 * partial pages at either end are written. */
static void fill_bytes(uint8_t *d, uint8_t v, size_t n)
{
  const tks_alloc *a = v == 0 && n >= LAZY_MIN ? tks_mem_find((uint64_t)(uintptr_t)d, n) : NULL;
  size_t len = a ? map_len((uintptr_t)a->base, 0) : 0;
  if (len) {
    uintptr_t ps = page_size(), lo = ((uintptr_t)d + ps - 1) & ~(ps - 1), hi = ((uintptr_t)d + n) & ~(ps - 1);
    if (hi > lo && madvise((void *)lo, hi - lo, MADV_DONTNEED) == 0) {
      memset(d, 0, lo - (uintptr_t)d);
      memset((void *)hi, 0, (uintptr_t)d + n - hi);
      return;
    }
  }
  memset(d, v, n);
}

static hipError_t set(void *dst, const void *val, size_t elem, size_t count, const char *api)
{
  hipError_t st = tks_rt_take_sticky();
  if (st != hipSuccess) return tks_rt_ret(st);
  if (count == 0) return hipSuccess;
  if (count > SIZE_MAX / elem) return tks_rt_fail(hipErrorInvalidValue, api, "size overflows");
  hipError_t e = check_dev(dst, count * elem, "destination", api);
  if (e) return e;
  uint8_t *d = dst;
  if (elem == 1) fill_bytes(d, *(const uint8_t *)val, count);
  else for (size_t i = 0; i < count; i++) memcpy(d + i * elem, val, elem);
  model_write(d, count * elem);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipMemset(void *dst, int value, size_t n) { uint8_t v = (uint8_t)value; return set(dst, &v, 1, n, "hipMemset"); }
TKS_EXPORT hipError_t hipMemsetAsync(void *dst, int value, size_t n, hipStream_t stream)
{
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, "hipMemsetAsync", "invalid stream");
  uint8_t v = (uint8_t)value;
  return set(dst, &v, 1, n, "hipMemsetAsync");
}
TKS_EXPORT hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) { return set(dst, &value, 1, count, "hipMemsetD8"); }
TKS_EXPORT hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t s) { (void)s; return set(dst, &value, 1, count, "hipMemsetD8Async"); }
TKS_EXPORT hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count) { return set(dst, &value, 2, count, "hipMemsetD16"); }
TKS_EXPORT hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t s) { (void)s; return set(dst, &value, 2, count, "hipMemsetD16Async"); }
TKS_EXPORT hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) { return set(dst, &value, 4, count, "hipMemsetD32"); }
TKS_EXPORT hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t s) { (void)s; return set(dst, &value, 4, count, "hipMemsetD32Async"); }
TKS_EXPORT hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height)
{
  if (width > pitch) return tks_rt_fail(hipErrorInvalidPitchValue, "hipMemset2D", "width exceeds the pitch");
  if (!width || !height) return hipSuccess;
  hipError_t e = check_dev(dst, pitch * (height - 1) + width, "destination", "hipMemset2D");
  if (e) return e;
  if (width == pitch) { fill_bytes(dst, (uint8_t)value, pitch * height); model_write(dst, pitch * height); } /* one contiguous range */
  else for (size_t r = 0; r < height; r++) { memset((uint8_t *)dst + r * pitch, value, width); model_write((uint8_t *)dst + r * pitch, width); }
  return hipSuccess;
}

/* ------------------------------------------------------------- symbols */
static hipError_t symbol(const void *sym, uint64_t *addr, uint64_t *size, const char *api)
{
  if (!sym) return tks_rt_fail(hipErrorInvalidSymbol, api, "null symbol");
  if (tks_rt_symbol(sym, addr, size)) return tks_rt_fail(hipErrorInvalidSymbol, api, "%p is not a registered __device__ variable with %s code", sym, tks_arch_name(tks_get_options()->arch));
  return hipSuccess;
}

TKS_EXPORT hipError_t hipGetSymbolAddress(void **devPtr, const void *sym)
{
  if (!devPtr) return tks_rt_fail(hipErrorInvalidValue, "hipGetSymbolAddress", "null pointer");
  uint64_t a, s;
  hipError_t e = symbol(sym, &a, &s, "hipGetSymbolAddress");
  if (e) return e;
  *devPtr = (void *)(uintptr_t)a;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipGetSymbolSize(size_t *size, const void *sym)
{
  if (!size) return tks_rt_fail(hipErrorInvalidValue, "hipGetSymbolSize", "null pointer");
  uint64_t a, s;
  hipError_t e = symbol(sym, &a, &s, "hipGetSymbolSize");
  if (e) return e;
  *size = (size_t)s;
  return hipSuccess;
}

static hipError_t sym_copy(const void *sym, void *host, size_t n, size_t offset, hipMemcpyKind kind, int to, const char *api)
{
  uint64_t a, s;
  hipError_t e = symbol(sym, &a, &s, api);
  if (e) return e;
  if (offset > s || n > s - offset)
    return tks_rt_fail(hipErrorInvalidValue, api, "%zu bytes at offset %zu exceed the %llu-byte symbol", n, offset, (unsigned long long)s);
  void *dev = (uint8_t *)(uintptr_t)a + offset;
  if (to) {
    if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
      return tks_rt_fail(hipErrorInvalidMemcpyDirection, api, "kind %d cannot copy to a symbol", (int)kind);
    return copy(dev, host, n, kind == hipMemcpyDefault ? hipMemcpyDefault : kind == hipMemcpyHostToDevice ? hipMemcpyHostToHost : hipMemcpyDeviceToDevice, api);
  }
  if (kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return tks_rt_fail(hipErrorInvalidMemcpyDirection, api, "kind %d cannot copy from a symbol", (int)kind);
  return copy(host, dev, n, kind == hipMemcpyDefault ? hipMemcpyDefault : kind == hipMemcpyDeviceToHost ? hipMemcpyHostToHost : hipMemcpyDeviceToDevice, api);
}

TKS_EXPORT hipError_t hipMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t offset, hipMemcpyKind kind)
{
  return sym_copy(sym, (void *)src, n, offset, kind, 1, "hipMemcpyToSymbol");
}
TKS_EXPORT hipError_t hipMemcpyToSymbolAsync(const void *sym, const void *src, size_t n, size_t offset, hipMemcpyKind kind, hipStream_t s)
{
  (void)s;
  return sym_copy(sym, (void *)src, n, offset, kind, 1, "hipMemcpyToSymbolAsync");
}
TKS_EXPORT hipError_t hipMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t offset, hipMemcpyKind kind)
{
  return sym_copy(sym, dst, n, offset, kind, 0, "hipMemcpyFromSymbol");
}
TKS_EXPORT hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t offset, hipMemcpyKind kind, hipStream_t s)
{
  (void)s;
  return sym_copy(sym, dst, n, offset, kind, 0, "hipMemcpyFromSymbolAsync");
}
