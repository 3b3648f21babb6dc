/* vtest.h: helpers of tksim's validation programs (tests/sim/{isa,programs,
 * checkers,bench}). Plain HIP: the programs must pass on a real gfx942 too.
 * Every check compares a device result with a reference the host computes on
 * its own; failures print what, where, got and want, and main returns 1.
 */
#ifndef TKS_VTEST_H
#define TKS_VTEST_H

#include <hip/hip_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <vector>

static int vt_failures = 0;
static int vt_checks = 0;

#define VT_HIP(call)                                                                         \
  do {                                                                                       \
    hipError_t e_ = (call);                                                                  \
    if (e_ != hipSuccess) {                                                                  \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

/* Report at most this many mismatches per check group, then just count. */
#define VT_MAX_PRINT 8

static inline uint32_t vt_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float vt_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t vt_d2u(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

/* Exact comparison of 32-bit patterns (floats compared bitwise, NaN==NaN of
 * the same kind only via vt_same_f32). */
static inline bool vt_check_u32(const char *what, int idx, uint32_t got, uint32_t want)
{
  vt_checks++;
  if (got == want) return true;
  if (vt_failures++ < 40)
    fprintf(stderr, "FAIL %s [%d]: got 0x%08x (%d), want 0x%08x (%d)\n", what, idx, got, (int)got,
            want, (int)want);
  return false;
}

static inline bool vt_check_u64(const char *what, int idx, uint64_t got, uint64_t want)
{
  vt_checks++;
  if (got == want) return true;
  if (vt_failures++ < 40)
    fprintf(stderr, "FAIL %s [%d]: got 0x%016llx, want 0x%016llx\n", what, idx,
            (unsigned long long)got, (unsigned long long)want);
  return false;
}

/* Bitwise float check where any NaN matches any NaN (hardware NaN payloads
 * are not specified by IEEE). */
static inline bool vt_check_f32(const char *what, int idx, float got, float want)
{
  vt_checks++;
  if (isnan(got) && isnan(want)) return true;
  if (vt_f2u(got) == vt_f2u(want)) return true;
  if (vt_failures++ < 40)
    fprintf(stderr, "FAIL %s [%d]: got %.9g (0x%08x), want %.9g (0x%08x)\n", what, idx, got,
            vt_f2u(got), want, vt_f2u(want));
  return false;
}

static inline bool vt_check_f64(const char *what, int idx, double got, double want)
{
  vt_checks++;
  if (isnan(got) && isnan(want)) return true;
  if (vt_d2u(got) == vt_d2u(want)) return true;
  if (vt_failures++ < 40)
    fprintf(stderr, "FAIL %s [%d]: got %.17g, want %.17g\n", what, idx, got, want);
  return false;
}

/* |got - want| <= atol + rtol*|want| */
static inline bool vt_check_near(const char *what, int idx, double got, double want, double rtol,
                                 double atol)
{
  vt_checks++;
  if (fabs(got - want) <= atol + rtol * fabs(want)) return true;
  if (vt_failures++ < 40)
    fprintf(stderr, "FAIL %s [%d]: got %.9g, want %.9g (rtol %g, atol %g)\n", what, idx, got, want,
            rtol, atol);
  return false;
}

static inline int vt_finish(const char *name)
{
  if (vt_failures) {
    printf("%s: FAILED %d of %d checks\n", name, vt_failures, vt_checks);
    return 1;
  }
  if (vt_checks == 0) {
    printf("%s: FAILED: no checks ran\n", name);
    return 1;
  }
  printf("%s: PASSED %d checks\n", name, vt_checks);
  return 0;
}

/* xorshift64 for reproducible test data */
static inline uint64_t vt_rand(uint64_t *s)
{
  uint64_t x = *s;
  x ^= x << 13; x ^= x >> 7; x ^= x << 17;
  return *s = x;
}

template <typename T> struct vt_buf {
  T *d = nullptr;
  size_t n = 0;
  explicit vt_buf(size_t count) : n(count) { VT_HIP(hipMalloc((void **)&d, count * sizeof(T) + 1)); }
  vt_buf(const std::vector<T> &h) : n(h.size()) {
    VT_HIP(hipMalloc((void **)&d, n * sizeof(T) + 1));
    VT_HIP(hipMemcpy(d, h.data(), n * sizeof(T), hipMemcpyHostToDevice));
  }
  ~vt_buf() { (void)hipFree(d); }
  std::vector<T> get() const {
    std::vector<T> h(n);
    VT_HIP(hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost));
    return h;
  }
  void zero() { VT_HIP(hipMemset(d, 0, n * sizeof(T))); }
  vt_buf(const vt_buf &) = delete;
  vt_buf &operator=(const vt_buf &) = delete;
};

#define VT_SYNC() VT_HIP(hipDeviceSynchronize())

#endif
