// Device test for tk/grid.h: tk_grid_tile evaluated on the GPU (as kernels
// call it, with blockIdx.x / gridDim.x) covers every tile of the grid exactly
// once and agrees with a host reference that enumerates the grouped order in
// loop form and the XCD chunks directly.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "tk/grid.h"

__global__ void k_tiles(uint32_t tiles_m, uint32_t tiles_n, uint32_t group_m, uint32_t *out) {
  uint32_t tm, tn;
  tk_grid_tile(blockIdx.x, gridDim.x, tiles_m, tiles_n, group_m, TK_NUM_XCDS, &tm, &tn);
  if (threadIdx.x == 0) out[blockIdx.x] = tm << 16 | tn;
}

int main(void) {
  const uint32_t shapes[][3] = {{7, 5, 4}, {48, 48, 8}, {13, 1, 8}, {1, 29, 3}, {19, 23, 5}};
  int bad = 0;
  for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const uint32_t tmn = shapes[s][0], tnn = shapes[s][1], g = shapes[s][2], n = tmn * tnn;
    uint32_t *d, *h = (uint32_t *)malloc(n * 4), *ref = (uint32_t *)malloc(n * 4);
    if (hipMalloc(&d, n * 4) != hipSuccess) { fprintf(stderr, "hipMalloc failed\n"); return 1; }
    hipLaunchKernelGGL(k_tiles, dim3(n), dim3(64), 0, 0, tmn, tnn, g, d);
    if (hipDeviceSynchronize() != hipSuccess || hipMemcpy(h, d, n * 4, hipMemcpyDeviceToHost) != hipSuccess) {
      fprintf(stderr, "launch failed\n");
      return 1;
    }
    // reference: logical order by loops, then XCD x's chunk of logical ids
    uint32_t *order = (uint32_t *)malloc(n * 4), id = 0;
    for (uint32_t g0 = 0; g0 < tmn; g0 += g)
      for (uint32_t c = 0; c < tnn; c++)
        for (uint32_t m = g0; m < g0 + g && m < tmn; m++) order[id++] = m << 16 | c;
    uint32_t logical = 0;
    for (uint32_t x = 0; x < 8; x++)
      for (uint32_t w = x; w < n; w += 8) ref[w] = order[logical++];
    char *seen = (char *)calloc(n, 1);
    for (uint32_t w = 0; w < n; w++) {
      uint32_t m = h[w] >> 16, c = h[w] & 0xffff;
      if (h[w] != ref[w] && bad++ < 10) fprintf(stderr, "shape %u wg %u: (%u,%u) want (%u,%u)\n", s, w, m, c, ref[w] >> 16, ref[w] & 0xffff);
      if (m < tmn && c < tnn) {
        if (seen[m * tnn + c]++ && bad++ < 10) fprintf(stderr, "shape %u: tile (%u,%u) twice\n", s, m, c);
      } else if (bad++ < 10) fprintf(stderr, "shape %u wg %u: out of range\n", s, w);
    }
    (void)hipFree(d);
    free(h); free(ref); free(order); free(seen);
  }
  if (bad) { fprintf(stderr, "test_grid: %d errors\n", bad); return 1; }
  printf("test_grid: 5 shapes, device tile map = host reference, every tile once\n");
  return 0;
}
