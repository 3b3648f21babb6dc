// Device test for tk/sync.h: lane/wave/group identity against threadIdx
// arithmetic, SIMD id in range, and tk_lds_barrier ordering LDS writes of one
// wave before another wave's reads (each wave reads the next wave's values).
#include <hip/hip_runtime.h>
#include <stdio.h>
#include "tk/sync.h"

#define NT 256
__global__ void k_ident(uint32_t *out) {
  __shared__ uint32_t lds[NT];
  uint32_t t = threadIdx.x;
  uint32_t *o = out + (blockIdx.x * NT + t) * 8;
  o[0] = tk_lane_id();
  o[1] = tk_wave_id();
  o[2] = tk_num_waves();
  o[3] = tk_simd_id();
  o[4] = tk_group_id(2) | tk_group_wave(2) << 8;
  lds[t] = t * 3u + blockIdx.x;
  tk_lds_barrier();
  o[5] = lds[(t + TK_WAVE_SIZE) % NT];
  // group-conditional barriers: each group passes one s_barrier here,
  // the other at its own call; totals match so no deadlock.
  tk_group_barrier_if(2, 0);
  tk_group_barrier_if(2, 1);
  o[6] = 0x600d;
}

int main(void) {
  const int blocks = 3, n = blocks * NT * 8;
  uint32_t *d, *h = (uint32_t *)malloc(n * 4);
  if (hipMalloc(&d, n * 4) != hipSuccess) { fprintf(stderr, "hipMalloc failed\n"); return 1; }
  if (hipMemset(d, 0xff, n * 4) != hipSuccess) return 1;
  hipLaunchKernelGGL(k_ident, dim3(blocks), dim3(NT), 0, 0, d);
  if (hipDeviceSynchronize() != hipSuccess || hipMemcpy(h, d, n * 4, hipMemcpyDeviceToHost) != hipSuccess) {
    fprintf(stderr, "launch/copy failed\n");
    return 1;
  }
  int bad = 0;
  for (int b = 0; b < blocks; b++)
    for (uint32_t t = 0; t < NT; t++) {
      uint32_t *o = h + (b * NT + t) * 8;
      uint32_t w = t / 64;
      uint32_t want[7] = {t % 64, w, NT / 64, 0, (w / 2) | (w % 2) << 8, ((t + 64) % NT) * 3u + b, 0x600d};
      for (int i = 0; i < 7; i++) {
        if (i == 3) {
          if (o[3] > 3) { if (bad++ < 10) fprintf(stderr, "block %d thread %u: simd id %u > 3\n", b, t, o[3]); }
          continue;
        }
        if (o[i] != want[i] && bad++ < 10)
          fprintf(stderr, "block %d thread %u field %d: got %u want %u\n", b, t, i, o[i], want[i]);
      }
    }
  (void)hipFree(d);
  free(h);
  if (bad) { fprintf(stderr, "test_sync: %d mismatches\n", bad); return 1; }
  printf("test_sync: %d threads checked\n", blocks * NT);
  return 0;
}
