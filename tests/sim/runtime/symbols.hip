// symbols.hip: device globals through hipMemcpyToSymbol/FromSymbol,
// hipGetSymbolAddress/Size (with offsets and __constant__ memory), and a kernel
// that reads and writes them.
#include <cstring>
#include "rt_check.h"

__device__ int counters[32];
__constant__ float weights[4];
__device__ double scalar;

__global__ void use_symbols(float *out)
{
  int i = threadIdx.x;
  if (i < 4) out[i] = weights[i] * (float)counters[i];
  if (i == 0) scalar = 2.5;
  if (i < 32) counters[i] += 1;
}

int main()
{
  size_t sz = 0;
  HIP_OK(hipGetSymbolSize(&sz, HIP_SYMBOL(counters)));
  CHECK(sz == sizeof(int) * 32, "counters: %zu bytes", sz);
  HIP_OK(hipGetSymbolSize(&sz, HIP_SYMBOL(weights)));
  CHECK(sz == sizeof(float) * 4, "weights: %zu bytes", sz);
  HIP_OK(hipGetSymbolSize(&sz, HIP_SYMBOL(scalar)));
  CHECK(sz == sizeof(double), "scalar: %zu bytes", sz);

  int h[32];
  for (int i = 0; i < 32; i++) h[i] = 100 + i;
  HIP_OK(hipMemcpyToSymbol(HIP_SYMBOL(counters), h, sizeof h));
  int patch[2] = {-1, -2};
  HIP_OK(hipMemcpyToSymbol(HIP_SYMBOL(counters), patch, sizeof patch, 10 * sizeof(int), hipMemcpyHostToDevice));
  int back[32];
  HIP_OK(hipMemcpyFromSymbol(back, HIP_SYMBOL(counters), sizeof back));
  bool ok = true;
  for (int i = 0; i < 32; i++) ok &= back[i] == (i == 10 ? -1 : i == 11 ? -2 : 100 + i);
  CHECK(ok, "to/from symbol with an offset");
  int part[3];
  HIP_OK(hipMemcpyFromSymbol(part, HIP_SYMBOL(counters), sizeof part, 9 * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(part[0] == 109 && part[1] == -1 && part[2] == -2, "partial read at offset 9");

  // the symbol's address is device memory usable with hipMemcpy
  void *addr = nullptr;
  HIP_OK(hipGetSymbolAddress(&addr, HIP_SYMBOL(counters)));
  CHECK(addr != nullptr, "symbol address");
  int v = 0;
  HIP_OK(hipMemcpy(&v, static_cast<int *>(addr) + 5, sizeof v, hipMemcpyDeviceToHost));
  CHECK(v == 105, "read through the symbol address: %d", v);
  int *dev_buf;
  HIP_OK(hipMalloc(&dev_buf, sizeof h));
  HIP_OK(hipMemcpy(dev_buf, h, sizeof h, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpyToSymbol(HIP_SYMBOL(counters), dev_buf, sizeof h, 0, hipMemcpyDeviceToDevice));
  HIP_OK(hipMemcpyFromSymbol(back, HIP_SYMBOL(counters), sizeof back));
  CHECK(std::memcmp(back, h, sizeof h) == 0, "device-to-device into a symbol");

  // past the end of the symbol: refused
  HIP_FAILS(hipMemcpyToSymbol(HIP_SYMBOL(counters), h, sizeof h, 4, hipMemcpyHostToDevice));
  HIP_ERR(hipGetLastError(), hipErrorInvalidValue);

  // a kernel reads the constants and updates the globals
  const float w[4] = {0.5f, 1.0f, 2.0f, -1.0f};
  HIP_OK(hipMemcpyToSymbol(HIP_SYMBOL(weights), w, sizeof w));
  float *out;
  HIP_OK(hipMalloc(&out, 4 * sizeof(float)));
  hipLaunchKernelGGL(use_symbols, dim3(1), dim3(64), 0, 0, out);
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  float ho[4];
  HIP_OK(hipMemcpy(ho, out, sizeof ho, hipMemcpyDeviceToHost));
  ok = true;
  for (int i = 0; i < 4; i++) ok &= ho[i] == w[i] * (float)h[i];
  CHECK(ok, "kernel read weights x counters: %g %g %g %g", ho[0], ho[1], ho[2], ho[3]);
  HIP_OK(hipMemcpyFromSymbol(back, HIP_SYMBOL(counters), sizeof back));
  ok = true;
  for (int i = 0; i < 32; i++) ok &= back[i] == h[i] + 1;
  CHECK(ok, "kernel incremented every counter");
  double sc = 0;
  HIP_OK(hipMemcpyFromSymbol(&sc, HIP_SYMBOL(scalar), sizeof sc));
  CHECK(sc == 2.5, "kernel wrote scalar: %g", sc);
  HIP_OK(hipFree(out));
  HIP_OK(hipFree(dev_buf));
  return RT_DONE();
}
