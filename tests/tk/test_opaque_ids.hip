// Device test for TK_OPAQUE_IDS (tk/target.h): with it, tk_lane_id, tk_lane
// and tk_wave_id are recomputed at each use; their values must not change.
// Each thread records them in every iteration of a loop (the situation the
// switch is for) and the host compares with threadIdx arithmetic.
#define TK_OPAQUE_IDS
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "tk/tk.h"

#define NT 256
#define ITERS 3
__global__ void k_ids(uint32_t *out, int iters) {
  for (int i = 0; i < iters; ++i) {
    uint32_t *o = out + ((blockIdx.x * ITERS + i) * NT + threadIdx.x) * 3;
    o[0] = tk_lane_id();
    o[1] = (uint32_t)tk_lane();
    o[2] = tk_wave_id();
  }
}

int main(void) {
  const int blocks = 2, n = blocks * ITERS * NT * 3;
  uint32_t *d, *h = (uint32_t *)malloc(n * 4);
  if (!h || hipMalloc(&d, n * 4) != hipSuccess || hipMemset(d, 0xff, n * 4) != hipSuccess) {
    fprintf(stderr, "test_opaque_ids: allocation failed\n");
    return 1;
  }
  hipLaunchKernelGGL(k_ids, dim3(blocks), dim3(NT), 0, 0, d, ITERS);
  if (hipDeviceSynchronize() != hipSuccess || hipMemcpy(h, d, n * 4, hipMemcpyDeviceToHost) != hipSuccess) {
    fprintf(stderr, "test_opaque_ids: launch/copy failed\n");
    return 1;
  }
  int bad = 0;
  for (int b = 0; b < blocks; b++)
    for (int i = 0; i < ITERS; i++)
      for (uint32_t t = 0; t < NT; t++) {
        const uint32_t *o = h + ((b * ITERS + i) * NT + t) * 3;
        const uint32_t want[3] = {t % 64, t % 64, t / 64};
        for (int f = 0; f < 3; f++)
          if (o[f] != want[f] && bad++ < 10)
            fprintf(stderr, "block %d iteration %d thread %u field %d: got %u want %u\n", b, i, t, f, o[f], want[f]);
      }
  (void)hipFree(d);
  free(h);
  if (bad) { fprintf(stderr, "test_opaque_ids: %d mismatches\n", bad); return 1; }
  printf("test_opaque_ids: %d ids checked\n", blocks * ITERS * NT * 3);
  return 0;
}
