// Device test for tk/sync.h: lane/wave/group identity against threadIdx
// arithmetic, SIMD id in range, and tk_lds_barrier ordering LDS writes of one
// wave before another wave's reads (each wave reads the next wave's values);
// tk_kernarg_fresh reading mixed-alignment arguments back through a struct of
// the same members (the kernarg layout, LLVM AMDGPUUsage), after a loop.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <string.h>
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

typedef struct { int64_t x; float y; int32_t z; } kstruct;
typedef struct { uint32_t *out; uint8_t c8; kstruct s; double d; uint16_t u; int32_t n; } kargs;
__global__ void k_kernarg(uint32_t *out, uint8_t c8, kstruct s, double d, uint16_t u, int32_t n) {
  (void)out, (void)c8, (void)s, (void)d, (void)u;
  uint32_t acc = 0;
  for (int32_t i = 0; i < n; ++i) acc += (uint32_t)i * threadIdx.x; // arguments read after a loop
  const kargs *ka = (const kargs *)tk_kernarg_fresh();
  uint32_t *o = ka->out + threadIdx.x * 8;
  o[0] = ka->c8;
  o[1] = (uint32_t)ka->s.x;
  o[2] = (uint32_t)(ka->s.x >> 32);
  o[3] = __float_as_uint(ka->s.y);
  o[4] = (uint32_t)ka->s.z;
  o[5] = (uint32_t)(ka->d * 4.0);
  o[6] = ka->u;
  // tk_opaque / tk_opaque_f32x2 return their argument (identity through the asm barrier)
  const tk_f32x2 v2 = tk_opaque_f32x2((tk_f32x2){(float)threadIdx.x, 3.0f});
  o[7] = tk_opaque(acc) + (uint32_t)v2[0] + (uint32_t)v2[1];
}

/* tk_kernarg_fresh: the arguments' values come back field by field (and the
 * tk_opaque identities in the last one) */
static int check_kernarg(void) {
  const int nt = 64, n = nt * 8;
  uint32_t *d, h[64 * 8];
  if (hipMalloc(&d, n * 4) != hipSuccess || hipMemset(d, 0xff, n * 4) != hipSuccess) return 1;
  const kstruct s = {-0x123456789abll, 2.5f, -7};
  hipLaunchKernelGGL(k_kernarg, dim3(1), dim3(nt), 0, 0, d, (uint8_t)0xa5, s, 10.25, (uint16_t)0xbeef, 5);
  if (hipDeviceSynchronize() != hipSuccess || hipMemcpy(h, d, n * 4, hipMemcpyDeviceToHost) != hipSuccess) {
    fprintf(stderr, "kernarg launch/copy failed\n");
    return 1;
  }
  (void)hipFree(d);
  int bad = 0;
  for (uint32_t t = 0; t < (uint32_t)nt; t++) {
    float y = 2.5f;
    uint32_t yb;
    memcpy(&yb, &y, 4);
    const uint64_t x = (uint64_t)-0x123456789abll;
    const uint32_t want[8] = {0xa5, (uint32_t)x, (uint32_t)(x >> 32), yb, (uint32_t)-7, 41, 0xbeef, 10 * t + t + 3};
    for (int i = 0; i < 8; i++)
      if (h[t * 8 + i] != want[i] && bad++ < 10)
        fprintf(stderr, "kernarg thread %u field %d: got %#x want %#x\n", t, i, h[t * 8 + i], want[i]);
  }
  if (bad) fprintf(stderr, "test_sync: tk_kernarg_fresh %d mismatches\n", bad);
  return bad != 0;
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
  if (check_kernarg()) return 1;
  printf("test_sync: %d threads checked, tk_kernarg_fresh ok\n", blocks * NT);
  return 0;
}
