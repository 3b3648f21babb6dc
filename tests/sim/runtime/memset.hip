// memset.hip: hipMemset, hipMemsetAsync and hipMemsetD8/D16/D32 fill exactly
// the requested range with the requested pattern (checked on the CPU,
// including the untouched bytes around it).
#include <cstring>
#include <vector>
#include "rt_check.h"

int main()
{
  const size_t bytes = 4096;
  unsigned char *d;
  HIP_OK(hipMalloc(&d, bytes));
  std::vector<unsigned char> h(bytes);

  HIP_OK(hipMemset(d, 0x11, bytes));
  HIP_OK(hipMemset(d + 100, 0xab, 37));
  HIP_OK(hipMemcpy(h.data(), d, bytes, hipMemcpyDeviceToHost));
  bool ok = true;
  for (size_t i = 0; i < bytes; i++) ok &= h[i] == ((i >= 100 && i < 137) ? 0xab : 0x11);
  CHECK(ok, "hipMemset of 37 bytes at offset 100");

  HIP_OK(hipMemset(d, 0, bytes));
  HIP_OK(hipMemsetD32(reinterpret_cast<hipDeviceptr_t>(d + 64), 0x12345678, 10));
  HIP_OK(hipMemsetD16(reinterpret_cast<hipDeviceptr_t>(d + 200), 0xbeef, 3));
  HIP_OK(hipMemsetD8(reinterpret_cast<hipDeviceptr_t>(d + 300), 0x5a, 5));
  HIP_OK(hipMemcpy(h.data(), d, bytes, hipMemcpyDeviceToHost));
  ok = true;
  for (size_t i = 0; i < bytes; i++) {
    unsigned char want = 0;
    if (i >= 64 && i < 104) { const unsigned char p[4] = {0x78, 0x56, 0x34, 0x12}; want = p[(i - 64) % 4]; }
    if (i >= 200 && i < 206) want = (i % 2 == 0) ? 0xef : 0xbe;
    if (i >= 300 && i < 305) want = 0x5a;
    ok &= h[i] == want;
  }
  CHECK(ok, "hipMemsetD32/D16/D8 write little-endian patterns and nothing else");

  hipStream_t s;
  HIP_OK(hipStreamCreate(&s));
  HIP_OK(hipMemsetAsync(d, 0x7f, bytes, s));
  HIP_OK(hipMemsetD32Async(reinterpret_cast<hipDeviceptr_t>(d), -1, 2, s));
  HIP_OK(hipStreamSynchronize(s));
  HIP_OK(hipMemcpy(h.data(), d, bytes, hipMemcpyDeviceToHost));
  ok = true;
  for (size_t i = 0; i < bytes; i++) ok &= h[i] == (i < 8 ? 0xff : 0x7f);
  CHECK(ok, "async memsets apply in stream order");
  HIP_OK(hipMemset(d, 0x33, 0));
  HIP_OK(hipMemcpy(h.data(), d, 1, hipMemcpyDeviceToHost));
  CHECK(h[0] == 0xff, "a zero-byte memset writes nothing");
  HIP_OK(hipStreamDestroy(s));
  HIP_OK(hipFree(d));
  return RT_DONE();
}
