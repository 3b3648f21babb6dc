// Device test for tk/flag.h (odd waves through tk_flag_peek + tk_flag_wait_geq_seen): 24 workgroups of 4 waves, in the order k = 4 (g / 4) + 3 - g % 4 (in
// each run of 4 groups the last dispatched goes first, so that the dispatch order alone cannot pass
// the test): wave w of group g
// waits (tk_flag_wait_geq) until flag w reaches k, then applies x = 3 x + (k + 1) (lane + 1) to its
// 64 words with plain loads and stores (not commutative: only the order k = 0, 1, 2, ... gives the
// CPU's value), and releases k + 1 (tk_flag_release).  (Waiting for later groups needs them
// co-resident: 4 groups fit any device and tksim, which keeps 8 per worker; kernels wait only for
// earlier ones, flag.h.)  A float row
// takes ordered plain adds of values whose f32 sum depends on the order: bit for bit the CPU's.
// Then the same turns through tk_flag_peek + tk_flag_wait_geq_seen_rmw with the adds as RMW
// atomics (tk_buffer_atomic_add_f32), by every 8th workgroup only, so that all run on one XCD
// (round robin over 8 XCDs, grid.h) as the primitive's premise asks: bit for bit the CPU's sum.
#include "tk_test.h"
#include "tk/flag.h"
#include "tk/global.h"
#include "tk/sync.h"

#define GROUPS 24 /* a multiple of 4 */
#define WAVES 4

__global__ void k_ordered(uint32_t *flags, uint32_t *x, float *y, const float *v) {
  const int g = 4 * ((int)blockIdx.x / 4) + 3 - (int)blockIdx.x % 4, w = (int)tk_wave_id(), l = (int)tk_lane_id();
  if (w & 1) { /* odd waves: the value read early, polling only if it was short */
    const uint32_t seen = tk_flag_peek(flags + w);
    tk_flag_wait_geq_seen(flags + w, (uint32_t)g, seen);
  } else
    tk_flag_wait_geq(flags + w, (uint32_t)g);
  uint32_t *p = x + w * 64 + l;
  float *q = y + w * 64 + l;
  *p = *p * 3u + (uint32_t)((g + 1) * (l + 1));
  *q = *q + v[g * 64 + l];
  tk_flag_release(flags + w, (uint32_t)g + 1u);
}

/* k_ordered's f32 adds as RMW atomics after the fence-free wait; workgroups 8 j take turn j */
__global__ void k_ordered_rmw(uint32_t *flags, float *y, const float *v) {
  if (blockIdx.x % 8 != 0) return;
  const int j = (int)blockIdx.x / 8, g = 4 * (j / 4) + 3 - j % 4, w = (int)tk_wave_id(), l = (int)tk_lane_id();
  const uint32_t seen = tk_flag_peek(flags + w);
  tk_flag_wait_geq_seen_rmw(flags + w, (uint32_t)g, seen);
  tk_buffer_atomic_add_f32(tk_rsrc_make(y, WAVES * 64 * 4), (uint32_t)(w * 64 + l) * 4u, v[g * 64 + l]);
  tk_flag_release(flags + w, (uint32_t)g + 1u);
}

int main(void) {
  std::vector<uint32_t> f0(WAVES, 0u), x0(WAVES * 64);
  std::vector<float> y0(WAVES * 64), v(GROUPS * 64);
  /* large and small values of both signs: their f32 sum depends on the order */
  for (int g = 0; g < GROUPS; g++)
    for (int l = 0; l < 64; l++)
      v[g * 64 + l] = (g % 3 == 0 ? 1.0e7f : 1.0f) * (float)(l + 1) * (g % 2 ? -1.0f : 1.0f) + 0.3f * (float)g;
  for (int i = 0; i < WAVES * 64; i++) x0[i] = (uint32_t)i * 2654435761u, y0[i] = 0.1f * (float)i;
  uint32_t *df = tt_dev(f0), *dx = tt_dev(x0);
  float *dy = tt_dev(y0), *dv = tt_dev(v);
  hipLaunchKernelGGL(k_ordered, dim3(GROUPS), dim3(64 * WAVES), 0, 0, df, dx, dy, dv);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint32_t> f = tt_host(df, WAVES), x = tt_host(dx, WAVES * 64);
  std::vector<float> y = tt_host(dy, WAVES * 64);
  int bad = 0, badf = 0;
  for (int w = 0; w < WAVES; w++)
    for (int l = 0; l < 64; l++) {
      uint32_t want = x0[w * 64 + l];
      float wf = y0[w * 64 + l];
      for (int g = 0; g < GROUPS; g++) {
        want = want * 3u + (uint32_t)((g + 1) * (l + 1));
        wf = wf + v[g * 64 + l];
      }
      if (x[w * 64 + l] != want && bad++ < 5) printf("  wave %d lane %d: %u, want %u\n", w, l, x[w * 64 + l], want);
      if (memcmp(&y[w * 64 + l], &wf, 4) && badf++ < 5) printf("  wave %d lane %d: %.9g, want %.9g\n", w, l, y[w * 64 + l], wf);
    }
  for (int w = 0; w < WAVES; w++) TT_CHECK(f[w] == GROUPS, "flag %d ends at %u (want %d)", w, f[w], GROUPS);
  TT_CHECK(bad == 0, "ordered read-modify-write in group order: %d words differ from the CPU's", bad);
  TT_CHECK(badf == 0, "ordered f32 adds bit for bit the CPU's sum in group order: %d differ", badf);
  /* the RMW variant: fresh flags and sums */
  uint32_t *df2 = tt_dev(f0);
  float *dy2 = tt_dev(y0);
  hipLaunchKernelGGL(k_ordered_rmw, dim3(8 * GROUPS), dim3(64 * WAVES), 0, 0, df2, dy2, dv);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint32_t> f2 = tt_host(df2, WAVES);
  std::vector<float> y2 = tt_host(dy2, WAVES * 64);
  int badr = 0;
  for (int w = 0; w < WAVES; w++)
    for (int l = 0; l < 64; l++) {
      float wf = y0[w * 64 + l];
      for (int g = 0; g < GROUPS; g++) wf = wf + v[g * 64 + l];
      if (memcmp(&y2[w * 64 + l], &wf, 4) && badr++ < 5) printf("  rmw wave %d lane %d: %.9g, want %.9g\n", w, l, y2[w * 64 + l], wf);
    }
  for (int w = 0; w < WAVES; w++) TT_CHECK(f2[w] == GROUPS, "rmw: flag %d ends at %u (want %d)", w, f2[w], GROUPS);
  TT_CHECK(badr == 0, "tk_flag_wait_geq_seen_rmw + RMW f32 atomics bit for bit the CPU's sum in group order: %d differ", badr);
  return tt_finish();
}
