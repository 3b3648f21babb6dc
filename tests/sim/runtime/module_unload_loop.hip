// module_unload_loop.hip: a JIT-style program that loads, launches and unloads
// a module 10 000 times (hipModuleLoadData of an image in memory, as with a
// hiprtc result). Everything a load creates - the code object's mapping, its
// allocation-table entry, the decoded program of each launched kernel - must
// go with hipModuleUnload: the resident set after the last iteration may
// exceed the one after the first 1 000 by at most 16 MiB (one decoded saxpy
// program is ~20 KiB, so a leak of it alone would be ~180 MiB). Each launch's
// result is checked against the CPU.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#define HIP_OK(c) do { hipError_t e_ = (c); if (e_ != hipSuccess) { \
  fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #c, hipGetErrorString(e_)); exit(1); } } while (0)

static long rss_kib(void)
{
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long v = -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) { v = strtol(line + 6, NULL, 10); break; }
  fclose(f);
  return v;
}

int main(int argc, char **argv)
{
  if (argc < 2) { fprintf(stderr, "usage: module_unload_loop MODULE_FILE [iterations]\n"); return 2; }
  int iters = argc > 2 ? atoi(argv[2]) : 10000;
  FILE *f = fopen(argv[1], "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", argv[1]); return 2; }
  std::vector<char> img;
  char buf[65536];
  size_t r;
  while ((r = fread(buf, 1, sizeof buf, f)) > 0) img.insert(img.end(), buf, buf + r);
  fclose(f);

  const int n = 64;
  float *x, *y;
  HIP_OK(hipMalloc(&x, n * sizeof(float)));
  HIP_OK(hipMalloc(&y, n * sizeof(float)));
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; i++) hx[i] = (float)i;
  HIP_OK(hipMemcpy(x, hx.data(), n * sizeof(float), hipMemcpyHostToDevice));
  long rss_first = 0;
  for (int it = 0; it < iters; it++) {
    hipModule_t mod;
    hipFunction_t fn;
    HIP_OK(hipModuleLoadData(&mod, img.data()));
    HIP_OK(hipModuleGetFunction(&fn, mod, "saxpy"));
    HIP_OK(hipMemset(y, 0, n * sizeof(float)));
    float a = (float)(it % 7);
    int nn = n;
    void *params[] = { &a, &x, &y, &nn };
    HIP_OK(hipModuleLaunchKernel(fn, 1, 1, 1, n, 1, 1, 0, nullptr, params, nullptr));
    HIP_OK(hipDeviceSynchronize());
    if (it % 997 == 0) {
      HIP_OK(hipMemcpy(hy.data(), y, n * sizeof(float), hipMemcpyDeviceToHost));
      for (int i = 0; i < n; i++)
        if (hy[i] != a * hx[i]) { fprintf(stderr, "iteration %d: y[%d] = %g, want %g\n", it, i, hy[i], a * hx[i]); return 1; }
    }
    HIP_OK(hipModuleUnload(mod));
    if (it == 999 || (iters <= 1000 && it == iters - 1)) rss_first = rss_kib();
  }
  long rss_last = rss_kib();
  printf("module_unload_loop: %d load/launch/unload cycles, RSS %ld KiB after 1000, %ld KiB after %d (+%ld KiB)\n",
         iters, rss_first, rss_last, iters, rss_last - rss_first);
  HIP_OK(hipFree(x));
  HIP_OK(hipFree(y));
  if (rss_first < 0 || rss_last - rss_first > 16 * 1024) {
    fprintf(stderr, "module_unload_loop: memory grows with loads (%ld KiB)\n", rss_last - rss_first);
    return 1;
  }
  return 0;
}
