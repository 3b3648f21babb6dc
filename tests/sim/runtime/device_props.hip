// device_props.hip: the device looks like a gfx942 (MI300X/MI325X-class) part:
// wave64, 1024 threads per block, 64 KiB LDS per block, gfx942 architecture
// name, and hipDeviceGetAttribute agrees with hipGetDeviceProperties.
#include <cstring>
#include "rt_check.h"

int main()
{
  int count = 0;
  HIP_OK(hipGetDeviceCount(&count));
  CHECK(count >= 1, "at least one device");
  HIP_OK(hipSetDevice(0));
  int dev = -1;
  HIP_OK(hipGetDevice(&dev));
  CHECK(dev == 0, "current device 0");
  HIP_ERR(hipSetDevice(count), hipErrorInvalidDevice);

  hipDeviceProp_t p;
  HIP_OK(hipGetDeviceProperties(&p, 0));
  CHECK(std::strncmp(p.gcnArchName, "gfx942", 6) == 0, "gcnArchName %s", p.gcnArchName);
  CHECK(std::strstr(p.name, "MI3") != nullptr || std::strstr(p.name, "gfx942") != nullptr, "name %s", p.name);
  CHECK(p.warpSize == 64, "warpSize %d", p.warpSize);
  CHECK(p.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d", p.maxThreadsPerBlock);
  CHECK(p.sharedMemPerBlock == 65536, "sharedMemPerBlock %zu", p.sharedMemPerBlock);
  CHECK(p.multiProcessorCount >= 228 && p.multiProcessorCount <= 304, "CUs %d", p.multiProcessorCount);
  CHECK(p.totalGlobalMem >= (size_t)128 << 30, "HBM %zu", p.totalGlobalMem);
  CHECK(p.clockRate >= 1000000 && p.clockRate <= 2100000, "clock %d kHz", p.clockRate);
  CHECK(p.l2CacheSize >= 4 << 20, "L2 %d", p.l2CacheSize);
  CHECK(p.maxThreadsDim[0] == 1024 && p.maxThreadsDim[1] == 1024 && p.maxThreadsDim[2] == 1024, "maxThreadsDim");
  CHECK(p.major == 9 && p.minor == 4, "compute capability %d.%d", p.major, p.minor);

  int v;
  HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, 0));
  CHECK(v == p.warpSize, "attr warp size %d", v);
  HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeMultiprocessorCount, 0));
  CHECK(v == p.multiProcessorCount, "attr CUs %d", v);
  HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeMaxThreadsPerBlock, 0));
  CHECK(v == p.maxThreadsPerBlock, "attr threads %d", v);
  HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeMaxSharedMemoryPerBlock, 0));
  CHECK(v == (int)p.sharedMemPerBlock, "attr LDS %d", v);
  HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeClockRate, 0));
  CHECK(v == p.clockRate, "attr clock %d", v);
  HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeMaxBlockDimX, 0));
  CHECK(v == 1024, "attr block dim x %d", v);
  HIP_ERR(hipGetDeviceProperties(&p, count), hipErrorInvalidDevice);
  HIP_ERR(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, count), hipErrorInvalidDevice);
  return RT_DONE();
}
