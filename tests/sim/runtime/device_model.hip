// device_model.hip: the device tksim shows is the part its timing model
// models. Args: NAME CUS CLOCK_KHZ MEM_GIB, the part's product-page figures
// (tests/sim/runtime/CMakeLists.txt passes them per --model); the name, the
// properties and hipDeviceGetAttribute/hipMemGetInfo must all say that part.
#include <cstdlib>
#include <cstring>
#include "rt_check.h"

int main(int argc, char **argv)
{
  if (argc != 5) {
    std::fprintf(stderr, "usage: device_model NAME CUS CLOCK_KHZ MEM_GIB\n");
    return 2;
  }
  const char *name = argv[1];
  const int cus = std::atoi(argv[2]), clock = std::atoi(argv[3]);
  const size_t mem = (size_t)std::atoll(argv[4]) << 30;
  hipDeviceProp_t p;
  HIP_OK(hipGetDeviceProperties(&p, 0));
  CHECK(std::strstr(p.name, name) != nullptr, "name %s, expected %s", p.name, name);
  CHECK(p.multiProcessorCount == cus, "CUs %d, expected %d", p.multiProcessorCount, cus);
  CHECK(p.clockRate == clock, "clock %d kHz, expected %d", p.clockRate, clock);
  CHECK(p.totalGlobalMem == mem, "HBM %zu B, expected %zu", p.totalGlobalMem, mem);
  char dn[256];
  HIP_OK(hipDeviceGetName(dn, sizeof dn, 0));
  CHECK(std::strcmp(dn, p.name) == 0, "hipDeviceGetName %s vs %s", dn, p.name);
  int v;
  HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeMultiprocessorCount, 0));
  CHECK(v == cus, "attr CUs %d", v);
  HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeClockRate, 0));
  CHECK(v == clock, "attr clock %d", v);
  size_t fr = 0, total = 0;
  HIP_OK(hipMemGetInfo(&fr, &total));
  CHECK(total == mem, "hipMemGetInfo total %zu", total);
  return RT_DONE();
}
