// printf_order.hip (tksim only): device printf output comes out in the same
// order on every run, whatever the worker threads do: by workgroup, wave,
// message of that wave, lane. 12 workgroups of 2 waves, two lanes per wave
// print two messages each (one long enough for several hostcall packets);
// ctest runs this with --threads=2. A GPU gives no such order guarantee, so
// this test is registered only under tksim.
#include <cstring>
#include <string>
#include <unistd.h>
#include "rt_check.h"

#define LONG "and a string long enough to need more than one hostcall packet, surely"

__global__ void chatter(int rounds)
{
  int t = threadIdx.x;
  if (t % 64 == 3 || t % 64 == 40)
    for (int r = 0; r < rounds; r++) {
      printf("block %d thread %d round %d: %s\n", (int)blockIdx.x, t, r, LONG);
      printf("block %d thread %d round %d: short\n", (int)blockIdx.x, t, r);
    }
}

int main()
{
  const int blocks = 12, rounds = 2;
  char path[] = "/tmp/tk-printf-order-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0, "temp file");
  std::fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  hipLaunchKernelGGL(chatter, dim3(blocks), dim3(128), 0, 0, rounds);
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

  // wave order: block, then wave in block; within a wave its messages in
  // program order (round, long then short), lanes 3 and 40 of each message
  std::string want;
  char line[256];
  for (int b = 0; b < blocks; b++)
    for (int w = 0; w < 2; w++)
      for (int r = 0; r < rounds; r++)
        for (int msg = 0; msg < 2; msg++)
          for (int lane : { 3, 40 }) {
            int t = 64 * w + lane;
            if (msg == 0) std::snprintf(line, sizeof line, "block %d thread %d round %d: %s\n", b, t, r, LONG);
            else std::snprintf(line, sizeof line, "block %d thread %d round %d: short\n", b, t, r);
            want += line;
          }
  CHECK(got == want, "output in (block, wave, message, lane) order; got:\n%s", got.c_str());
  return RT_DONE();
}
