/* misc.c: the remaining non-hipError_t entry points of libamdhip64 that
 * programs may reach: half-precision conversion helpers (IEEE 754 binary16),
 * kernel-name queries and the C++-mangled hipExtModuleLaunchKernel.
 */
#include <string.h>
#include "runtime/rt.h"

/* float -> binary16 bits, round to nearest even (IEEE 754-2008 3.6). */
TKS_EXPORT unsigned short __gnu_f2h_ieee(float f)
{
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xff, m = x & 0x7fffff;
  if (e == 0xff) return (unsigned short)(sign | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
  int exp = (int)e - 127 + 15;
  if (exp >= 31) return (unsigned short)(sign | 0x7c00);
  if (exp <= 0) {
    if (exp < -10) return (unsigned short)sign;
    m |= 0x800000;
    int shift = 14 - exp;
    uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (unsigned short)(sign | h);
  }
  uint32_t h = ((uint32_t)exp << 10) | (m >> 13), rem = m & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++; /* may carry into the exponent: correct */
  return (unsigned short)(sign | h);
}

TKS_EXPORT float __gnu_h2f_ieee(unsigned short h)
{
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff, x;
  if (e == 0x1f) x = sign | 0x7f800000 | (m << 13);
  else if (e) x = sign | ((e - 15 + 127) << 23) | (m << 13);
  else if (!m) x = sign;
  else { /* subnormal: normalise */
    int s = 0;
    while (!(m & 0x400)) { m <<= 1; s++; }
    x = sign | ((uint32_t)(127 - 15 + 1 - s) << 23) | ((m & 0x3ff) << 13);
  }
  float f;
  memcpy(&f, &x, 4);
  return f;
}

TKS_EXPORT hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, enum hipChannelFormatKind f)
{
  hipChannelFormatDesc d = { x, y, z, w, f };
  return d;
}

TKS_EXPORT const char *hipKernelNameRef(const hipFunction_t f)
{
  tks_kernel *k = tks_rt_kernel((const void *)f);
  return k ? k->name : NULL;
}

TKS_EXPORT const char *hipKernelNameRefByPtr(const void *hostFunction, hipStream_t stream)
{
  (void)stream;
  tks_kernel *k = tks_rt_kernel(hostFunction);
  return k ? k->name : NULL;
}

TKS_EXPORT int hipGetStreamDeviceId(hipStream_t stream) { return tks_rt_stream_ok(stream) ? 0 : -1; }

TKS_EXPORT const char *hipApiName(uint32_t id) { (void)id; return "unknown"; }

TKS_EXPORT void __hipGetPCH(const char **pch, unsigned int *size)
{
  if (pch) *pch = NULL;
  if (size) *size = 0;
}

/* hipExtModuleLaunchKernel(hipFunction_t, globalWorkSize x/y/z, localWorkSize
 * x/y/z, sharedMemBytes, stream, kernelParams, extra, startEvent, stopEvent,
 * flags): sizes in work-items, not blocks; partial blocks are allowed. */
TKS_EXPORT hipError_t tks_ext_module_launch(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz,
                                            uint32_t lx, uint32_t ly, uint32_t lz, size_t shmem,
                                            hipStream_t stream, void **kernelParams, void **extra,
                                            hipEvent_t start, hipEvent_t stop, uint32_t flags)
  __asm__("_Z24hipExtModuleLaunchKernelP18ihipModuleSymbol_tjjjjjjmP12ihipStream_tPPvS4_P11ihipEvent_tS6_j");
hipError_t tks_ext_module_launch(hipFunction_t f, uint32_t gx, uint32_t gy, uint32_t gz,
                                 uint32_t lx, uint32_t ly, uint32_t lz, size_t shmem,
                                 hipStream_t stream, void **kernelParams, void **extra,
                                 hipEvent_t start, hipEvent_t stop, uint32_t flags)
{
  (void)flags;
  if (!lx || !ly || !lz || gx % lx || gy % ly || gz % lz)
    return tks_rt_fail(hipErrorInvalidValue, "hipExtModuleLaunchKernel",
                       "global sizes must be non-zero multiples of the local sizes under tksim");
  if (start) hipEventRecord(start, stream);
  hipError_t e = hipModuleLaunchKernel(f, gx / lx, gy / ly, gz / lz, lx, ly, lz, (unsigned)shmem, stream, kernelParams, extra);
  if (stop) hipEventRecord(stop, stream);
  return e;
}
