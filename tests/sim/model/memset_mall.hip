// memset_mall: a hipMemset and a device-to-device hipMemcpy leave what they
// wrote in the Infinity Cache (MALL), as a kernel's writes do: ROCm runs
// both as blit kernels on device memory (sim/runtime/memory_api.c has the
// source), so a kernel that then reads the range finds it there. Expected,
// from the documented model (workgroup g on XCD g % 8; the MALL is one
// cache for the GPU, write-allocate, carried between launches; write-back
// L2 charging each dirty 32 B sector once; docs/tksim-model.md, Memory):
//   launch 1 reads buffer a (512 KiB), just filled by hipMemset: 16 groups,
//     group g sums chunk g (32 KiB, 256 lines); every read misses its L2
//     (4096 lookups, 0.0% hits) and hits the MALL: HBM 0.001 MB, only the
//     sums' stores (each XCD's two groups write out[g] and out[g + 8], 2
//     sectors: 8 x 2 x 32 B = 512 B). Without the runtime's call into the
//     model (model v9): 524288 + 512 B = 0.525 MB.
//   launch 2 reads buffer b, a device-to-device copy of a: the same, 0.001 MB.
//   launch 3 reads buffer c, filled by a hipMemcpy from the host (not put
//     into the MALL: sim/model/NEEDS.md): 0.525 MB.
// Under --model-sample=1 (XCD 0's groups 0 and 8, 512 lookups) the fills
// cover the whole buffers, so the MB figures are the same (scaled by 16 / 2
// groups); the sums are checked only in the unsampled run.
// ctest matches the three report lines in order.
#include "model_common.h"

#define CHUNK 8192  // uint32 per chunk: 32 KiB
#define GROUPS 16
#define BYTES ((size_t)GROUPS * CHUNK * 4)

__global__ __launch_bounds__(256) void k_read(const uint32_t *buf, uint32_t *out) {
  const uint32_t *c = buf + (size_t)blockIdx.x * CHUNK;
  uint32_t s = 0;
  for (int i = threadIdx.x; i < CHUNK; i += 256) s += c[i];
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

static int sampled(void) {  // the runtime marks a sampled device's name (docs/tksim-model.md, Sampling)
  hipDeviceProp_t pr;
  CHECK_HIP(hipGetDeviceProperties(&pr, 0));
  return strstr(pr.name, "(tksim sampled)") != NULL;
}

// launch the reader on buf and check thread 0's sums: CHUNK / 256 words of `word` each
static int read_check(const uint32_t *buf, uint32_t *out, uint32_t word, int smp, const char *what) {
  hipLaunchKernelGGL(k_read, dim3(GROUPS), dim3(256), 0, 0, buf, out);
  CHECK_HIP(hipDeviceSynchronize());
  uint32_t o[GROUPS];
  CHECK_HIP(hipMemcpy(o, out, sizeof o, hipMemcpyDeviceToHost));
  int ok = 1;
  for (int g = 0; g < GROUPS && !smp; g++)
    if (o[g] != (uint32_t)(CHUNK / 256) * word) ok = 0;
  printf("memset_mall: %s: %s\n", what, smp ? "results not checked (sampled)" : ok ? "results ok" : "WRONG");
  fflush(stdout);  // before the next launch's report (stderr), which ctest matches after it
  return ok;
}

int main(void) {
  if (!getenv("TKSIM_MODEL")) { fprintf(stderr, "run under: tksim --model=mi325x PROGRAM\n"); return 2; }
  uint32_t *a, *b, *c, *out;
  CHECK_HIP(hipMalloc(&a, BYTES));
  CHECK_HIP(hipMalloc(&b, BYTES));
  CHECK_HIP(hipMalloc(&c, BYTES));
  CHECK_HIP(hipMalloc(&out, GROUPS * 4));
  uint32_t *h = (uint32_t *)malloc(BYTES);
  if (!h) return 1;
  for (size_t i = 0; i < BYTES / 4; i++) h[i] = 0x03030303u;
  int smp = sampled(), ok = 1;
  CHECK_HIP(hipMemset(a, 0x01, BYTES));
  ok &= read_check(a, out, 0x01010101u, smp, "after hipMemset");
  CHECK_HIP(hipMemsetAsync(a, 0x02, BYTES, 0));
  CHECK_HIP(hipMemcpy(b, a, BYTES, hipMemcpyDeviceToDevice));
  ok &= read_check(b, out, 0x02020202u, smp, "after a device-to-device copy");
  CHECK_HIP(hipMemcpy(c, h, BYTES, hipMemcpyHostToDevice));
  ok &= read_check(c, out, 0x03030303u, smp, "after a host-to-device copy");
  free(h);
  CHECK_HIP(hipFree(a));
  CHECK_HIP(hipFree(b));
  CHECK_HIP(hipFree(c));
  CHECK_HIP(hipFree(out));
  return ok ? 0 : 1;
}
