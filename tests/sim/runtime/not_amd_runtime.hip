// not_amd_runtime.hip (run under tksim only): the libamdhip64.so.5 mapped into
// the process is tksim's (from its lib/tksim directory), not AMD's.
#include <cstring>
#include <fstream>
#include <string>
#include "rt_check.h"

int main()
{
  int n = 0;
  HIP_OK(hipGetDeviceCount(&n)); // make sure the runtime is in use
  std::ifstream maps("/proc/self/maps");
  std::string line;
  int ours = 0, theirs = 0;
  while (std::getline(maps, line)) {
    if (line.find("libamdhip64") == std::string::npos) continue;
    if (line.find("/lib/tksim/") != std::string::npos) ours++; else theirs++;
    if (line.find("/lib/tksim/") == std::string::npos) std::fprintf(stderr, "foreign mapping: %s\n", line.c_str());
  }
  CHECK(ours > 0, "tksim's libamdhip64 is mapped");
  CHECK(theirs == 0, "AMD's libamdhip64 is not mapped");
  std::ifstream maps2("/proc/self/maps");
  bool hsa = false;
  while (std::getline(maps2, line)) hsa |= line.find("libhsa-runtime64") != std::string::npos;
  CHECK(!hsa, "no HSA runtime loaded");
  return RT_DONE();
}
