// bad_input_messages.hip (tksim only): every kind of bad input named in the
// tksim issue gives its exact hipError, and (checked by
// check_messages.cmake) a `tksim: API: ...` line naming the problem. Before
// each case the program writes "== case NAME" to stderr.
// Usage: bad_input_messages GFX942_ELF GFX90A_ELF GFX1100_ELF GFX90A_BUNDLE
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>
#include <unistd.h>
#include "rt_check.h"

__global__ void mark(int *flag) { if (threadIdx.x == 0 && blockIdx.x == 0) *flag = 1234; }
extern __shared__ int dyn[];
__global__ void mark_dyn(int *flag) { dyn[threadIdx.x] = 1; __syncthreads(); if (threadIdx.x == 0) *flag = dyn[0] + 4320; }

static void marker(const char *name) { std::fprintf(stderr, "== case %s\n", name); std::fflush(stderr); }

static std::vector<char> slurp(const char *path)
{
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

static std::string write_tmp(const std::vector<char> &bytes)
{
  char path[] = "/tmp/tksim-badimg-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || write(fd, bytes.data(), bytes.size()) != (ssize_t)bytes.size()) { std::perror("temp file"); std::exit(1); }
  close(fd);
  return path;
}

int main(int argc, char **argv)
{
  if (argc < 5) { std::fprintf(stderr, "usage: bad_input_messages GFX942_ELF GFX90A_ELF GFX1100_ELF GFX90A_BUNDLE\n"); return 2; }
  const size_t bytes = 1024;
  std::vector<char> host(2 * bytes, 7);
  char *d, *gone;
  int *flag;
  HIP_OK(hipMalloc(&d, bytes));
  HIP_OK(hipMalloc(&gone, bytes));
  // flag first: allocated after the free it could reuse gone's block
  HIP_OK(hipMalloc(&flag, sizeof(int)));
  HIP_OK(hipFree(gone));
  HIP_OK(hipMemset(flag, 0, sizeof(int)));
  hipStream_t s;
  HIP_OK(hipStreamCreate(&s));

  marker("null");
  HIP_ERR(hipMemcpy(nullptr, host.data(), 16, hipMemcpyHostToDevice), hipErrorInvalidValue);
  marker("null-async");
  HIP_ERR(hipMemcpyAsync(host.data(), nullptr, 16, hipMemcpyDeviceToHost, s), hipErrorInvalidValue);
  marker("freed");
  HIP_ERR(hipMemcpy(gone, host.data(), 16, hipMemcpyHostToDevice), hipErrorInvalidValue);
  marker("freed-memset-async");
  HIP_ERR(hipMemsetAsync(gone, 0, 16, s), hipErrorInvalidValue);
  marker("past-end");
  HIP_ERR(hipMemcpy(d, host.data(), bytes + 1, hipMemcpyHostToDevice), hipErrorInvalidValue);
  marker("past-end-async");
  HIP_ERR(hipMemcpyAsync(d + 512, d, 513, hipMemcpyDeviceToDevice, s), hipErrorInvalidValue);
  marker("past-end-memset");
  HIP_ERR(hipMemset(d + 1000, 1, 25), hipErrorInvalidValue);
  HIP_OK(hipStreamSynchronize(s));
  (void)hipGetLastError();

  marker("zero-blocks");
  hipLaunchKernelGGL(mark, dim3(0), dim3(64), 0, 0, flag);
  HIP_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  marker("threads");
  hipLaunchKernelGGL(mark, dim3(1), dim3(1025), 0, 0, flag);
  HIP_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  marker("lds");
  hipLaunchKernelGGL(mark_dyn, dim3(1), dim3(64), 64 * 1024 + 4, 0, flag);
  HIP_ERR(hipGetLastError(), hipErrorInvalidConfiguration);
  marker("set-attribute");
  HIP_ERR(hipFuncSetAttribute(reinterpret_cast<const void *>(mark_dyn), hipFuncAttributeMaxDynamicSharedMemorySize,
                              65 * 1024), hipErrorInvalidValue);
  HIP_OK(hipFuncSetAttribute(reinterpret_cast<const void *>(mark_dyn), hipFuncAttributeMaxDynamicSharedMemorySize,
                             48 * 1024));
  marker("not-a-kernel");
  HIP_ERR(hipFuncSetAttribute(reinterpret_cast<const void *>(&marker), hipFuncAttributeMaxDynamicSharedMemorySize, 0),
          hipErrorInvalidDeviceFunction);
  (void)hipGetLastError(); /* the refused calls above left their error */
  HIP_OK(hipDeviceSynchronize());
  int v = -1;
  HIP_OK(hipMemcpy(&v, flag, sizeof v, hipMemcpyDeviceToHost));
  CHECK(v == 0, "no refused launch ran (flag %d)", v);
  // a valid launch with 48 KiB of dynamic LDS after hipFuncSetAttribute allowed it
  hipLaunchKernelGGL(mark_dyn, dim3(1), dim3(64), 48 * 1024, 0, flag);
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  HIP_OK(hipMemcpy(&v, flag, sizeof v, hipMemcpyDeviceToHost));
  CHECK(v == 4321, "48 KiB dynamic LDS launch (flag %d)", v);

  hipModule_t m;
  marker("gfx90a");
  HIP_ERR(hipModuleLoad(&m, argv[2]), hipErrorNoBinaryForGpu);
  marker("gfx1100");
  HIP_ERR(hipModuleLoad(&m, argv[3]), hipErrorNoBinaryForGpu);
  marker("gfx90a-bundle");
  HIP_ERR(hipModuleLoad(&m, argv[4]), hipErrorNoBinaryForGpu);
  std::vector<char> good = slurp(argv[1]);
  CHECK(good.size() > 4096, "read %s", argv[1]);
  marker("truncated");
  std::string t = write_tmp(std::vector<char>(good.begin(), good.begin() + good.size() / 2));
  HIP_ERR(hipModuleLoad(&m, t.c_str()), hipErrorInvalidImage);
  unlink(t.c_str());
  marker("corrupt");
  std::vector<char> bad = good;
  std::memset(bad.data() + 16, 0xff, 48); /* ELF header from e_type on: garbage */
  t = write_tmp(bad);
  HIP_ERR(hipModuleLoad(&m, t.c_str()), hipErrorInvalidImage);
  unlink(t.c_str());
  marker("not-an-image");
  std::vector<char> text(good.size(), 'x');
  HIP_ERR(hipModuleLoadData(&m, text.data()), hipErrorInvalidImage);
  marker("unknown-kernel");
  HIP_OK(hipModuleLoad(&m, argv[1]));
  hipFunction_t f;
  HIP_ERR(hipModuleGetFunction(&f, m, "no_such_kernel"), hipErrorNotFound);
  HIP_OK(hipModuleUnload(m));
  marker("end");

  HIP_OK(hipStreamDestroy(s));
  HIP_OK(hipFree(flag));
  HIP_OK(hipFree(d));
  return RT_DONE();
}
