// module.hip: hipModuleLoad (offload bundle and raw ELF code objects built at
// build time), hipModuleLoadData, hipModuleGetFunction, hipModuleGetGlobal and
// hipModuleLaunchKernel with kernelParams and with the `extra` argument buffer.
// Usage: module BUNDLE ELF
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>
#include "rt_check.h"

static void run_saxpy(hipModule_t mod, bool use_extra, int bias_value)
{
  hipFunction_t f;
  HIP_OK(hipModuleGetFunction(&f, mod, "saxpy"));
  hipDeviceptr_t bias_ptr;
  size_t bias_size = 0;
  HIP_OK(hipModuleGetGlobal(&bias_ptr, &bias_size, mod, "bias"));
  CHECK(bias_size == sizeof(int), "bias is %zu bytes", bias_size);
  HIP_OK(hipMemcpyHtoD(bias_ptr, &bias_value, sizeof bias_value));

  const int n = 1000;
  std::vector<float> hx(n), hy(n), out(n);
  for (int i = 0; i < n; i++) { hx[i] = 0.5f * i; hy[i] = 1000.0f - i; }
  float *x, *y;
  HIP_OK(hipMalloc(&x, n * sizeof(float)));
  HIP_OK(hipMalloc(&y, n * sizeof(float)));
  HIP_OK(hipMemcpy(x, hx.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(y, hy.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float a = 3.0f;
  if (!use_extra) {
    void *params[] = { &a, &x, &y, (void *)&n };
    HIP_OK(hipModuleLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  } else {
    // explicit arguments laid out as the kernel's ABI has them
    struct { float a; int pad; const float *x; float *y; int n; } args = { a, 0, x, y, n };
    size_t size = sizeof args;
    void *extra[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END };
    HIP_OK(hipModuleLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, nullptr, extra));
  }
  HIP_OK(hipDeviceSynchronize());
  HIP_OK(hipMemcpy(out.data(), y, n * sizeof(float), hipMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; i++) ok &= out[i] == a * hx[i] + hy[i] + (float)bias_value;
  CHECK(ok, "saxpy via %s: out[10] = %g, expected %g", use_extra ? "extra" : "kernelParams", out[10],
        a * hx[10] + hy[10] + (float)bias_value);
  HIP_OK(hipFree(x));
  HIP_OK(hipFree(y));
}

int main(int argc, char **argv)
{
  if (argc < 3) { std::fprintf(stderr, "usage: module BUNDLE ELF\n"); return 2; }
  for (int file = 1; file <= 2; file++) {
    hipModule_t mod;
    HIP_OK(hipModuleLoad(&mod, argv[file]));
    hipFunction_t f;
    HIP_ERR(hipModuleGetFunction(&f, mod, "no_such_kernel"), hipErrorNotFound);
    hipDeviceptr_t p;
    size_t sz;
    HIP_FAILS(hipModuleGetGlobal(&p, &sz, mod, "no_such_global"));
    run_saxpy(mod, false, 7);
    run_saxpy(mod, true, -2);
    HIP_OK(hipModuleUnload(mod));
  }
  // the same code object from memory
  std::ifstream in(argv[2], std::ios::binary);
  std::vector<char> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(!image.empty(), "read %s", argv[2]);
  hipModule_t mod;
  HIP_OK(hipModuleLoadData(&mod, image.data()));
  run_saxpy(mod, false, 1);
  HIP_OK(hipModuleUnload(mod));

  hipModule_t bad;
  HIP_ERR(hipModuleLoad(&bad, "/nonexistent/code-object.hsaco"), hipErrorFileNotFound);
  return RT_DONE();
}
