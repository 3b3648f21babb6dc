// tk_buffer_atomic_add_f32 (tk/global.h) on the device: 8 workgroups of 256
// threads each add the value (thread t, group g) -> small integers times
// 2^-4 (exact in f32 whatever the order) into 512 floats through a V#
// covering 1504 bytes (376 floats), several threads per element; the sums
// must equal a CPU sum of the same values, elements past num_records must
// be untouched (the adds dropped, like stores).
#include "tk_test.h"
#include "tk/global.h"

#define N 512
#define NREC 1504
#define GROUPS 8

__device__ static inline float val(int t, int g) { return (float)((t * 7 + g * 3) % 29 - 11) * 0.0625f; }

__global__ void k_add(float *buf) {
  const int t = threadIdx.x, g = blockIdx.x;
  tk_rsrc r = tk_rsrc_make(buf, NREC);
  // element e = (t * 5 + g) % N gets several adds from different threads and groups
  for (int j = 0; j < 3; j++) {
    const int e = (t * 5 + g + 97 * j) % N;
    tk_buffer_atomic_add_f32(r, (uint32_t)e * 4u, val(t + j, g));
  }
}

int main(void) {
  std::vector<float> init(N);
  for (int i = 0; i < N; i++) init[i] = (float)(i % 13) * 0.5f;
  float *d = tt_dev(init);
  hipLaunchKernelGGL(k_add, dim3(GROUPS), dim3(256), 0, 0, d);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> got = tt_host(d, N);
  std::vector<double> want(init.begin(), init.end());
  for (int g = 0; g < GROUPS; g++)
    for (int t = 0; t < 256; t++)
      for (int j = 0; j < 3; j++) {
        const int e = (t * 5 + g + 97 * j) % N;
        if (e * 4 < NREC) want[e] += (double)((((t + j) * 7 + g * 3) % 29 - 11) * 0.0625);
      }
  int bad = 0, touched = 0;
  for (int i = 0; i < N; i++) {
    if (i * 4 < NREC && (double)got[i] != (double)init[i]) touched++;
    if ((double)got[i] != want[i] && bad++ < 5) printf("  element %d = %g, want %g\n", i, got[i], want[i]);
  }
  TT_CHECK(bad == 0, "buffer_atomic_add_f32: in-range sums exact, adds past num_records dropped (%d wrong)", bad);
  TT_CHECK(touched > N / 2, "the adds changed most in-range elements (%d)", touched);
  return tt_finish();
}
