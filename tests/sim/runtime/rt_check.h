// rt_check.h: assertion helpers for the HIP runtime tests (plain HIP programs
// that must pass on a real gfx942 GPU and under tksim alike).
#pragma once
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>

static int rt_checks, rt_failures;
#define CHECK(cond, ...) do { rt_checks++; if (!(cond)) { rt_failures++; \
  std::fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
  std::fprintf(stderr, __VA_ARGS__); std::fprintf(stderr, "\n"); } } while (0)
// A call that must succeed; the test cannot go on without it.
#define HIP_OK(call) do { hipError_t e_ = (call); if (e_ != hipSuccess) { \
  std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, hipGetErrorName(e_)); \
  std::exit(1); } } while (0)
// A call that must fail with the given error.
#define HIP_ERR(call, want) do { hipError_t e_ = (call); rt_checks++; if (e_ != (want)) { rt_failures++; \
  std::fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call, \
               hipGetErrorName(e_), hipGetErrorName(want)); } } while (0)
// A call that must fail (the exact code differs between HIP versions).
#define HIP_FAILS(call) do { hipError_t e_ = (call); rt_checks++; if (e_ == hipSuccess) { rt_failures++; \
  std::fprintf(stderr, "%s:%d: %s succeeded but must fail\n", __FILE__, __LINE__, #call); } } while (0)
#define RT_DONE() (std::printf("%d checks, %d failed\n", rt_checks, rt_failures), rt_failures ? 1 : 0)
