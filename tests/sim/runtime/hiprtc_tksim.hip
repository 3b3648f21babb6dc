// hiprtc_tksim.hip (run under tksim only): what tksim's hiprtc does beyond the
// API contract - the compiler it runs (TKSIM_HIPRTC_CLANG), device libraries,
// and bad input: a missing or failing compiler, options it refuses, unsafe
// include names, bad handles, an invalid name expression, a compiler that
// hangs (argv[1]: hiprtc_hang.sh), a program that ignores SIGCHLD. Each must come back
// as the hiprtcResult docs/tksim-runtime.md gives, with a log saying why,
// never a crash.
#include <hip/hiprtc.h>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "rt_check.h"

#define RTC_OK(call) do { hiprtcResult r_ = (call); if (r_ != HIPRTC_SUCCESS) { \
  std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, hiprtcGetErrorString(r_)); \
  std::exit(1); } } while (0)
#define RTC_ERR(call, want) do { hiprtcResult r_ = (call); rt_checks++; if (r_ != (want)) { rt_failures++; \
  std::fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #call, \
               hiprtcGetErrorString(r_), hiprtcGetErrorString(want)); } } while (0)

static const char *small_src = "extern \"C\" __global__ void k(float *p) { p[threadIdx.x] = 1.0f; }\n";

static std::string program_log(hiprtcProgram prog)
{
  size_t n = 0;
  RTC_OK(hiprtcGetProgramLogSize(prog, &n));
  std::string log(n, '\0');
  RTC_OK(hiprtcGetProgramLog(prog, &log[0]));
  log.resize(n ? n - 1 : 0);
  return log;
}

static bool has(const std::string &log, const char *what) { return log.find(what) != std::string::npos; }

// Compiles small_src with the given options; returns the result and the log.
static hiprtcResult compile(int n, const char **opts, std::string *log, const char *name = "small.hip")
{
  hiprtcProgram prog;
  RTC_OK(hiprtcCreateProgram(&prog, small_src, name, 0, nullptr, nullptr));
  hiprtcResult r = hiprtcCompileProgram(prog, n, opts);
  *log = program_log(prog);
  size_t size = 1;
  if (r != HIPRTC_SUCCESS) {
    RTC_ERR(hiprtcGetCodeSize(prog, &size), HIPRTC_ERROR_INVALID_PROGRAM);
    CHECK(size == 0, "no code after a failed compile (size %zu)", size);
  }
  RTC_OK(hiprtcDestroyProgram(&prog));
  return r;
}

static const char *hang_script;

static void compiler_selection()
{
  std::string log;
  setenv("TKSIM_HIPRTC_CLANG", "/nonexistent/clang++", 1);
  RTC_ERR(compile(0, nullptr, &log), HIPRTC_ERROR_INTERNAL_ERROR);
  CHECK(has(log, "cannot run the compiler '/nonexistent/clang++'") && has(log, "TKSIM_HIPRTC_CLANG"),
        "missing compiler log:\n%s", log.c_str());
  // a "compiler" that fails without a word, and one that succeeds without output
  setenv("TKSIM_HIPRTC_CLANG", "false", 1);
  RTC_ERR(compile(0, nullptr, &log), HIPRTC_ERROR_COMPILATION);
  CHECK(has(log, "false exited with status 1"), "failing compiler log:\n%s", log.c_str());
  setenv("TKSIM_HIPRTC_CLANG", "true", 1);
  RTC_ERR(compile(0, nullptr, &log), HIPRTC_ERROR_COMPILATION);
  CHECK(has(log, "produced no AMDGPU code object"), "silent compiler log:\n%s", log.c_str());
  // a compiler that never finishes is killed after TKSIM_HIPRTC_TIMEOUT seconds
  setenv("TKSIM_HIPRTC_CLANG", hang_script, 1);
  setenv("TKSIM_HIPRTC_TIMEOUT", "0.5", 1);
  RTC_ERR(compile(0, nullptr, &log), HIPRTC_ERROR_COMPILATION);
  CHECK(has(log, "did not finish within 0.5 s"), "hanging compiler log:\n%s", log.c_str());
  unsetenv("TKSIM_HIPRTC_TIMEOUT");
  unsetenv("TKSIM_HIPRTC_CLANG");
  // a program that ignores SIGCHLD (no exit status to wait for) still gets its code
  signal(SIGCHLD, SIG_IGN);
  // (the program's name is that of tksim's own output file: no clash)
  RTC_OK(compile(0, nullptr, &log, "out.co"));
  CHECK(has(log, "could not get the exit status"), "SIGCHLD ignored log:\n%s", log.c_str());
  signal(SIGCHLD, SIG_DFL);
  // a device library that does not exist: clang's own message comes back
  setenv("TKSIM_HIPRTC_DEVICE_LIB_PATH", "/nonexistent/bitcode", 1);
  RTC_ERR(compile(0, nullptr, &log), HIPRTC_ERROR_COMPILATION);
  CHECK(has(log, "/nonexistent/bitcode"), "missing device libraries log:\n%s", log.c_str());
  unsetenv("TKSIM_HIPRTC_DEVICE_LIB_PATH");
}

static void refused_options()
{
  std::string log;
  const char *arch90a[] = { "--gpu-architecture=gfx90a" };
  RTC_ERR(compile(1, arch90a, &log), HIPRTC_ERROR_INVALID_OPTION);
  CHECK(has(log, "gfx90a") && has(log, "this tksim run emulates"), "gfx90a log:\n%s", log.c_str());
  const char *split[] = { "-arch", "gfx942" };
  RTC_ERR(compile(2, split, &log), HIPRTC_ERROR_INVALID_OPTION);
  CHECK(has(log, "-arch=gfx9"), "split -arch log (names the form -arch=<run target>):\n%s", log.c_str());
  const char *out[] = { "-O2", "-o", "/tmp/elsewhere" };
  RTC_ERR(compile(3, out, &log), HIPRTC_ERROR_INVALID_OPTION);
  CHECK(has(log, "'-o'"), "-o log:\n%s", log.c_str());
  const char *rdc[] = { "-fgpu-rdc" };
  RTC_ERR(compile(1, rdc, &log), HIPRTC_ERROR_INVALID_OPTION);
  const char *input[] = { "other.cpp" };
  RTC_ERR(compile(1, input, &log), HIPRTC_ERROR_INVALID_OPTION);
  CHECK(has(log, "'other.cpp' is not an option"), "non-option log:\n%s", log.c_str());
  const char *with_null[] = { "-O2", nullptr };
  RTC_ERR(compile(2, with_null, &log), HIPRTC_ERROR_INVALID_INPUT);
  RTC_ERR(compile(-1, nullptr, &log), HIPRTC_ERROR_INVALID_INPUT);
  RTC_ERR(compile(2, nullptr, &log), HIPRTC_ERROR_INVALID_INPUT);
  // clang refuses an option it does not know: its message is in the log
  const char *unknown[] = { "--no-such-clang-option" };
  RTC_ERR(compile(1, unknown, &log), HIPRTC_ERROR_COMPILATION);
  CHECK(has(log, "no-such-clang-option"), "unknown option log:\n%s", log.c_str());
}

static void bad_programs()
{
  hiprtcProgram prog = nullptr;
  const char *hdr[] = { "int x;" };
  const char *up[] = { "../escape.h" }, *abs[] = { "/etc/abs.h" }, *dot[] = { "a/./b.h" };
  RTC_ERR(hiprtcCreateProgram(&prog, small_src, "p", 1, hdr, up), HIPRTC_ERROR_INVALID_INPUT);
  RTC_ERR(hiprtcCreateProgram(&prog, small_src, "p", 1, hdr, abs), HIPRTC_ERROR_INVALID_INPUT);
  RTC_ERR(hiprtcCreateProgram(&prog, small_src, "p", 1, hdr, dot), HIPRTC_ERROR_INVALID_INPUT);
  std::string long_name(2000, 'h');
  const char *longn[] = { long_name.c_str() };
  RTC_ERR(hiprtcCreateProgram(&prog, small_src, "p", 1, hdr, longn), HIPRTC_ERROR_INVALID_INPUT);
  RTC_ERR(hiprtcCreateProgram(&prog, small_src, "p", 1, nullptr, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_ERR(hiprtcCreateProgram(&prog, small_src, "p", -1, nullptr, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  CHECK(prog == nullptr, "no program from bad input");

  // handles that are not live programs: freed, or garbage
  RTC_OK(hiprtcCreateProgram(&prog, small_src, nullptr, 0, nullptr, nullptr));
  hiprtcProgram stale = prog;
  RTC_OK(hiprtcDestroyProgram(&prog));
  size_t n;
  RTC_ERR(hiprtcCompileProgram(stale, 0, nullptr), HIPRTC_ERROR_INVALID_PROGRAM);
  RTC_ERR(hiprtcGetProgramLogSize(stale, &n), HIPRTC_ERROR_INVALID_PROGRAM);
  RTC_ERR(hiprtcDestroyProgram(&stale), HIPRTC_ERROR_INVALID_PROGRAM);
  hiprtcProgram garbage = reinterpret_cast<hiprtcProgram>(static_cast<uintptr_t>(0x1234));
  RTC_ERR(hiprtcGetCodeSize(garbage, &n), HIPRTC_ERROR_INVALID_PROGRAM);
  RTC_ERR(hiprtcAddNameExpression(garbage, "k"), HIPRTC_ERROR_INVALID_PROGRAM);

  // before compiling: no code; NULL out-pointers
  RTC_OK(hiprtcCreateProgram(&prog, small_src, "p", 0, nullptr, nullptr));
  char buf[16];
  RTC_ERR(hiprtcGetCode(prog, buf), HIPRTC_ERROR_INVALID_PROGRAM);
  RTC_ERR(hiprtcGetCodeSize(prog, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_ERR(hiprtcGetProgramLog(prog, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_ERR(hiprtcGetProgramLogSize(prog, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_ERR(hiprtcAddNameExpression(prog, "k; int y"), HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID);
  // a name expression that names nothing fails the compile, and says where
  RTC_OK(hiprtcAddNameExpression(prog, "no_such_kernel<int>"));
  RTC_ERR(hiprtcCompileProgram(prog, 0, nullptr), HIPRTC_ERROR_COMPILATION);
  std::string log = program_log(prog);
  CHECK(has(log, "name expression 0") && has(log, "no_such_kernel"), "bad name expression log:\n%s", log.c_str());
  RTC_OK(hiprtcDestroyProgram(&prog));
  RTC_ERR(hiprtcVersion(nullptr, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  CHECK(!std::strcmp(hiprtcGetErrorString(static_cast<hiprtcResult>(99)), "Invalid HIPRTC error code"), "unknown code");
}

// Device-library functions (ocml) link: sqrtf and expf against the CPU, within
// 1 ulp (hiprtc compiles with -O3, clang's HIP defaults otherwise).
static void device_libraries()
{
  const char *src = "extern \"C\" __global__ void m(float *v, int n)\n"
                    "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) v[i] = sqrtf(v[i]) + expf(-v[i]); }\n";
  hiprtcProgram prog;
  RTC_OK(hiprtcCreateProgram(&prog, src, "math.hip", 0, nullptr, nullptr));
  const char *opts[] = { "-O1", "-std=c++17" };
  hiprtcResult r = hiprtcCompileProgram(prog, 2, opts);
  if (r != HIPRTC_SUCCESS) std::fprintf(stderr, "log:\n%s\n", program_log(prog).c_str());
  RTC_OK(r);
  size_t size;
  RTC_OK(hiprtcGetCodeSize(prog, &size));
  std::vector<char> code(size);
  RTC_OK(hiprtcGetCode(prog, code.data()));
  RTC_OK(hiprtcDestroyProgram(&prog));
  hipModule_t mod;
  HIP_OK(hipModuleLoadData(&mod, code.data()));
  hipFunction_t f;
  HIP_OK(hipModuleGetFunction(&f, mod, "m"));
  const int n = 128;
  std::vector<float> h(n), o(n);
  for (int i = 0; i < n; i++) h[i] = 0.125f * (float)i;
  float *d;
  HIP_OK(hipMalloc(&d, n * sizeof(float)));
  HIP_OK(hipMemcpy(d, h.data(), n * sizeof(float), hipMemcpyHostToDevice));
  int nn = n;
  void *params[] = { &d, &nn };
  HIP_OK(hipModuleLaunchKernel(f, 2, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  HIP_OK(hipMemcpy(o.data(), d, n * sizeof(float), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    double want = std::sqrt((double)h[i]) + std::exp(-(double)h[i]);
    if (std::fabs(o[i] - want) > 2.0 * std::nextafter((float)want, INFINITY) - 2.0 * (float)want) bad++;
  }
  CHECK(bad == 0, "sqrtf+expf: %d of %d beyond 2 ulp (v[3] = %.9g, expected %.9g)", bad, n, o[3],
        std::sqrt(0.375) + std::exp(-0.375));
  HIP_OK(hipFree(d));
  HIP_OK(hipModuleUnload(mod));
}

int main(int argc, char **argv)
{
  if (argc < 2) { std::fprintf(stderr, "usage: hiprtc_tksim HANG_SCRIPT\n"); return 2; }
  hang_script = argv[1];
  compiler_selection();
  refused_options();
  bad_programs();
  device_libraries();
  return RT_DONE();
}
