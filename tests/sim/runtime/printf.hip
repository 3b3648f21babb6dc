// printf.hip: device printf from several lanes and two waves, with integer,
// floating-point, character, pointer-free string and width/precision
// conversions. The program sends its own stdout to a file, runs the kernel,
// and compares every line with what the C library's snprintf makes of the
// same format and arguments. A launch whose printf is never reached comes
// first: the service starts and stops with nothing to print (tksim's hostcall
// once sorted a NULL list there, a UBSan report under the sanitize label).
#include <cstring>
#include <string>
#include <unistd.h>
#include "rt_check.h"

#define FMT "tid %3d: %d %.3f %-5s|%c|%x %s\n"

__global__ void hello(int bias)
{
  int t = threadIdx.x;
  if (t % 37 == 0 && bias != 0)  // lanes 0 and 37 of wave 0, lanes 10 and 47 of wave 1
    printf(FMT, t, t * bias, t * 0.5, (t & 1) ? "odd" : "even", 'a' + t % 26, 0xc0de + t,
           "and a string long enough to need more than one hostcall packet");
}

int main()
{
  char path[] = "/tmp/tk-printf-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0, "temp file");
  std::fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  hipLaunchKernelGGL(hello, dim3(1), dim3(128), 0, 0, 0); /* prints nothing */
  HIP_OK(hipDeviceSynchronize());
  hipLaunchKernelGGL(hello, dim3(1), dim3(128), 0, 0, -3);
  hipError_t e1 = hipGetLastError(), e2 = hipDeviceSynchronize();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  HIP_OK(e1);
  HIP_OK(e2);

  std::string got;
  FILE *f = std::fopen(path, "r");
  char buf[4096];
  size_t n;
  while (f && (n = std::fread(buf, 1, sizeof buf, f)) > 0) got.append(buf, n);
  if (f) std::fclose(f);
  unlink(path);
  int lines = 0;
  for (char c : got) lines += c == '\n';
  CHECK(lines == 4, "4 lines, got %d:\n%s", lines, got.c_str());
  for (int t = 0; t < 128; t += 37) {
    char want[512];
    std::snprintf(want, sizeof want, FMT, t, t * -3, t * 0.5, (t & 1) ? "odd" : "even", 'a' + t % 26, 0xc0de + t,
                  "and a string long enough to need more than one hostcall packet");
    CHECK(got.find(want) != std::string::npos, "missing line: %s", want);
  }
  return RT_DONE();
}
