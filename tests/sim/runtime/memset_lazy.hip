// memset_lazy.hip: zero memsets of large buffers are exact, and cost no
// resident host memory. tksim backs allocations of 1 MiB and more with their
// own anonymous mapping and hands whole zeroed pages back to the kernel
// (sim/runtime/memory_api.c); here every byte is checked on the CPU around
// unaligned ends, through copies and a kernel, and the process's resident
// set (/proc/self/statm) must not grow by the buffer's size. On a GPU device
// memory is not host memory, so the resident-set checks hold there too.
#include <cstdio>
#include <cstring>
#include <vector>
#include "rt_check.h"

__global__ void plus_one(const unsigned char *in, unsigned char *out, size_t n)
{
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (unsigned char)(in[i] + 1);
}

static long long resident_bytes()
{
  FILE *f = std::fopen("/proc/self/statm", "r");
  long long size = 0, res = 0;
  if (!f || std::fscanf(f, "%lld %lld", &size, &res) != 2) res = -1;
  if (f) std::fclose(f);
  return res < 0 ? -1 : res * 4096;
}

int main()
{
  // unaligned zero memset inside a pattern: every byte
  const size_t n = (3u << 20) + 777, lo = 4095, hi_keep = 1234;
  unsigned char *d;
  HIP_OK(hipMalloc(&d, n));
  std::vector<unsigned char> h(n);
  HIP_OK(hipMemset(d, 0x5a, n));
  HIP_OK(hipMemset(d + lo, 0, n - lo - hi_keep));
  HIP_OK(hipMemcpy(h.data(), d, n, hipMemcpyDeviceToHost));
  bool ok = true;
  for (size_t i = 0; i < n; i++) ok &= h[i] == ((i < lo || i >= n - hi_keep) ? 0x5a : 0);
  CHECK(ok, "hipMemset(0) of [4095, n-1234) in a 0x5a buffer of %zu bytes", n);

  // the zeroed pages, read by a kernel, then written again
  unsigned char *o;
  HIP_OK(hipMalloc(&o, n));
  plus_one<<<(unsigned)((n + 255) / 256), 256>>>(d, o, n);
  HIP_OK(hipGetLastError());
  HIP_OK(hipMemcpy(h.data(), o, n, hipMemcpyDeviceToHost));
  ok = true;
  for (size_t i = 0; i < n; i++) ok &= h[i] == ((i < lo || i >= n - hi_keep) ? 0x5b : 1);
  CHECK(ok, "a kernel reads the zeroed pages as zeros");
  HIP_OK(hipMemsetD8(reinterpret_cast<hipDeviceptr_t>(o), 0, n));
  HIP_OK(hipMemset(o + 8192 + 3, 0x77, 5));
  HIP_OK(hipMemcpy(h.data(), o, n, hipMemcpyDeviceToHost));
  ok = true;
  for (size_t i = 0; i < n; i++) ok &= h[i] == ((i >= 8195 && i < 8200) ? 0x77 : 0);
  CHECK(ok, "hipMemsetD8(0) of the whole buffer, then 5 bytes written into a zeroed page");
  // a D2D copy out of zeroed pages, a 2D memset whose rows are contiguous
  HIP_OK(hipMemset(d, 0x33, n));
  HIP_OK(hipMemcpy(d + 100, o + 4096, n - 4096 - 100, hipMemcpyDeviceToDevice));
  HIP_OK(hipMemset2D(o, 4096, 0x0, 4096, 512));
  HIP_OK(hipMemcpy(h.data(), d, n, hipMemcpyDeviceToHost));
  ok = true;
  for (size_t i = 0; i < n; i++) {
    unsigned char want = i < 100 ? 0x33 : (i + 4096 - 100 >= 8195 && i + 4096 - 100 < 8200) ? 0x77 : 0;
    if (i >= n - 4096) want = 0x33;
    ok &= h[i] == want;
  }
  CHECK(ok, "a device-to-device copy from zeroed pages");
  HIP_OK(hipMemcpy(h.data(), o, n, hipMemcpyDeviceToHost));
  ok = true;
  for (size_t i = 0; i < n; i++) ok &= h[i] == 0;
  CHECK(ok, "hipMemset2D(0) of 512 rows of 4096 bytes, pitch 4096");
  HIP_OK(hipFree(o));
  HIP_OK(hipFree(d));

  // resident memory: a zeroed 256 MiB buffer holds none of it; zeroing a
  // written one gives it back
  const size_t big = (size_t)256 << 20;
  const long long slack = (long long)48 << 20;
  long long r0 = resident_bytes();
  unsigned char *b;
  HIP_OK(hipMalloc(&b, big));
  HIP_OK(hipMemset(b, 0, big));
  HIP_OK(hipMemcpy(h.data(), b + big / 2, 4096, hipMemcpyDeviceToHost));
  long long r1 = resident_bytes();
  CHECK(h[0] == 0 && h[4095] == 0, "a zeroed buffer reads zeros");
  CHECK(r0 > 0 && r1 - r0 < slack, "hipMalloc + hipMemset(0) of 256 MiB: resident memory grew %lld MiB",
        (r1 - r0) >> 20);
  HIP_OK(hipMemset(b, 0x11, big));
  HIP_OK(hipMemset(b, 0, big - 1));
  HIP_OK(hipMemcpy(h.data(), b + big - 4096, 4096, hipMemcpyDeviceToHost));
  long long r2 = resident_bytes();
  CHECK(h[0] == 0 && h[4094] == 0 && h[4095] == 0x11, "zeroing all but the last byte of a written buffer");
  CHECK(r2 - r0 < slack, "writing, then zeroing 256 MiB: resident memory %lld MiB above the start", (r2 - r0) >> 20);
  HIP_OK(hipFree(b));
  return RT_DONE();
}
