// Shared helpers of the tk device tests: HIP error checks, a counter of
// failures and the closing "N passed, N failed" line.
#ifndef TK_TEST_H
#define TK_TEST_H
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <math.h>
#include <vector>

#define HIPCHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
  fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #x, hipGetErrorString(e_)); exit(2); } } while (0)

static int tt_pass = 0, tt_fail = 0;
#define TT_CHECK(c, ...) do { if (c) tt_pass++; else { if (tt_fail++ < 30) { printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } } while (0)
static inline int tt_finish(void) { printf("%d passed, %d failed\n", tt_pass, tt_fail); return tt_fail ? 1 : 0; }

static uint64_t tt_seed = 88172645463325252ull;
static inline uint32_t tt_rand(void) { tt_seed ^= tt_seed << 13; tt_seed ^= tt_seed >> 7; tt_seed ^= tt_seed << 17; return (uint32_t)(tt_seed >> 11); }

template <typename T> static T *tt_dev(const std::vector<T> &h) {
  T *d; HIPCHECK(hipMalloc((void **)&d, h.size() * sizeof(T)));
  HIPCHECK(hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice));
  return d;
}
template <typename T> static std::vector<T> tt_host(const T *d, size_t n) {
  std::vector<T> h(n); HIPCHECK(hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost)); return h;
}
#endif
