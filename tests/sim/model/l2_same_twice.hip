/* l2_same_twice [--host-pad BYTES]: a kernel whose modeled time depends on
 * which L2 sets its lines fall in: pairs of groups on one XCD read the same
 * 64 lines 64 KiB apart (the second finds them if no conflict evicted them),
 * 4096 groups over a 32 MiB buffer. Under tksim the buffer is host memory at
 * an address ASLR (and --host-pad: a host allocation made between the two
 * hipMallocs) moves; the model indexes its L2 by the device address the
 * runtime assigns (tks_alloc.dva), so every run prints the same modeled time
 * (same_runs.sh compares them). The sums are checked against the CPU. */
#include "model_common.h"

#define STRIDE_F (64 * 1024 / 4) /* 64 KiB in floats */
#define LINES 64
#define GROUPS 4096

__host__ __device__ static inline size_t column(unsigned g) { return g % 8 + 8 * (g / 16); }

__global__ void reread(const float *src, float *out)
{
  /* one wave per group; lane l reads line l of the group's column; groups
   * g and g + 8 (same XCD, dispatched one round apart) share a column */
  size_t col = column(blockIdx.x) * 32; /* 128 B apart per column */
  out[blockIdx.x * LINES + threadIdx.x] = src[col + (size_t)threadIdx.x * STRIDE_F];
}

int main(int argc, char **argv)
{
  require_model();
  const int groups = GROUPS;
  size_t pad = argc == 3 && !strcmp(argv[1], "--host-pad") ? strtoull(argv[2], NULL, 0) : 0;
  const size_t n = (size_t)LINES * STRIDE_F + (size_t)groups * 32;
  float *src, *out;
  CHECK_HIP(hipMalloc(&out, (size_t)groups * LINES * sizeof(float)));
  void *hp = pad ? malloc(pad) : NULL; /* moves the next host mapping, not the device address */
  if (hp) memset(hp, 1, pad);
  CHECK_HIP(hipMalloc(&src, n * sizeof(float)));
  float *h = (float *)malloc(n * sizeof(float)), *g = (float *)malloc((size_t)groups * LINES * sizeof(float));
  for (size_t i = 0; i < n; i++) h[i] = (float)(i % 1000);
  CHECK_HIP(hipMemcpy(src, h, n * sizeof(float), hipMemcpyHostToDevice));
  float ms = time_ms([&] { hipLaunchKernelGGL(reread, dim3(groups), dim3(LINES), 0, 0, src, out); });
  CHECK_HIP(hipMemcpy(g, out, (size_t)groups * LINES * sizeof(float), hipMemcpyDeviceToHost));
  int ok = 1;
  for (int b = 0; b < groups && ok; b++)
    for (int l = 0; l < LINES; l++)
      if (g[b * LINES + l] != h[column(b) * 32 + (size_t)l * STRIDE_F]) { ok = 0; break; }
  printf("l2_same_twice: modeled %.6f ms; sums %s\n", ms, ok ? "ok" : "WRONG");
  free(h);
  free(g);
  free(hp);
  CHECK_HIP(hipFree(src));
  CHECK_HIP(hipFree(out));
  return ok ? 0 : 1;
}
