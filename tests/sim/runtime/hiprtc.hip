// hiprtc.hip: runtime compilation as a HIP program uses it (the shape of AMD's
// rocm-examples runtime_compilation): a saxpy source string with two headers
// given to hiprtcCreateProgram is compiled at run time, loaded with
// hipModuleLoadData, launched with hipModuleLaunchKernel and checked against a
// CPU saxpy. Then a template kernel and a templated __device__ variable reached
// through name expressions and lowered names, a source with a compile error
// (HIPRTC_ERROR_COMPILATION, the compiler's message in the log), and the
// documented results for NULL arguments. Passes on a GPU and under tksim.
#include <hip/hiprtc.h>
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

static const char *saxpy_src = R"(
#include "test_header.h"
#include "sub/test_header1.h"
extern "C" __global__ void saxpy_kernel(const real a, const realptr x, realptr y, const unsigned int n)
{
  const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i] + BIAS;
}
)";
static const char *header_src = "typedef float real;\n";
static const char *header1_src = "typedef float *realptr;\n";

static std::string program_log(hiprtcProgram prog)
{
  size_t n = 0;
  RTC_OK(hiprtcGetProgramLogSize(prog, &n));
  CHECK(n >= 1, "log size %zu counts the terminating NUL", n);
  std::string log(n, '\0');
  RTC_OK(hiprtcGetProgramLog(prog, &log[0]));
  CHECK(log[n - 1] == '\0', "log is NUL-terminated");
  log.resize(n ? n - 1 : 0);
  return log;
}

static std::vector<char> compiled_code(hiprtcProgram prog)
{
  size_t n = 0;
  RTC_OK(hiprtcGetCodeSize(prog, &n));
  CHECK(n > 64, "code object of %zu bytes", n);
  std::vector<char> code(n);
  RTC_OK(hiprtcGetCode(prog, code.data()));
  CHECK(n >= 4 && !std::memcmp(code.data(), "\x7f" "ELF", 4), "hiprtcGetCode gives an ELF code object");
  return code;
}

static void saxpy()
{
  hiprtcProgram prog;
  const char *headers[] = { header_src, header1_src };
  const char *names[] = { "test_header.h", "sub/test_header1.h" };
  RTC_OK(hiprtcCreateProgram(&prog, saxpy_src, "saxpy.cu", 2, headers, names));
  hipDeviceProp_t props;
  HIP_OK(hipGetDeviceProperties(&props, 0));
  std::string arch = std::string("--gpu-architecture=") + props.gcnArchName;
  const char *opts[] = { arch.c_str(), "-DBIAS=0.25f" };
  hiprtcResult r = hiprtcCompileProgram(prog, 2, opts);
  std::string log = program_log(prog);
  if (r != HIPRTC_SUCCESS) std::fprintf(stderr, "compile log:\n%s\n", log.c_str());
  RTC_OK(r);
  std::vector<char> code = compiled_code(prog);
  RTC_OK(hiprtcDestroyProgram(&prog));
  CHECK(prog == nullptr, "hiprtcDestroyProgram clears the handle");

  hipModule_t mod;
  HIP_OK(hipModuleLoadData(&mod, code.data()));
  hipFunction_t f;
  HIP_OK(hipModuleGetFunction(&f, mod, "saxpy_kernel"));
  const unsigned int n = 4099;
  std::vector<float> hx(n), hy(n), out(n);
  for (unsigned int i = 0; i < n; i++) { hx[i] = 0.25f * (float)i - 100.0f; hy[i] = (float)(i % 17) * 1.5f; }
  float *x, *y;
  HIP_OK(hipMalloc(&x, n * sizeof(float)));
  HIP_OK(hipMalloc(&y, n * sizeof(float)));
  HIP_OK(hipMemcpy(x, hx.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(y, hy.data(), n * sizeof(float), hipMemcpyHostToDevice));
  float a = 2.5f;
  // the argument buffer packed by hand at the kernel's ABI offsets (a at 0,
  // pointers 8-aligned at 8 and 16, n at 24), ending at the last argument
  // (28 bytes), via `extra`
  char args[32] = {};
  std::memcpy(args + 0, &a, 4);
  std::memcpy(args + 8, &x, 8);
  std::memcpy(args + 16, &y, 8);
  std::memcpy(args + 24, &n, 4);
  size_t size = 28;
  void *extra[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END };
  HIP_OK(hipModuleLaunchKernel(f, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, nullptr, extra));
  HIP_OK(hipDeviceSynchronize());
  HIP_OK(hipMemcpy(out.data(), y, n * sizeof(float), hipMemcpyDeviceToHost));
  int bad = 0;
  for (unsigned int i = 0; i < n; i++) {
    float want = a * hx[i] + hy[i] + 0.25f; // fma contraction is exact here: a*x has few bits
    if (out[i] != want && bad++ < 5) std::fprintf(stderr, "y[%u] = %g, expected %g\n", i, out[i], want);
  }
  CHECK(bad == 0, "runtime-compiled saxpy matches the CPU (%d of %u wrong)", bad, n);
  HIP_OK(hipFree(x));
  HIP_OK(hipFree(y));
  HIP_OK(hipModuleUnload(mod));
}

static const char *template_src = R"(
namespace tkt {
template <typename T> __device__ T table[4] = { 1, 2, 3, 4 };
template <typename T, int S> __global__ void scale(T *v, T a, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * a + (T)S + table<T>[i % 4];
}
}
)";

// Name expressions: two instantiations of a template kernel and a templated
// device variable; their lowered names must be the Itanium-mangled symbols.
static void templates()
{
  hiprtcProgram prog;
  RTC_OK(hiprtcCreateProgram(&prog, template_src, "templates.hip", 0, nullptr, nullptr));
  RTC_OK(hiprtcAddNameExpression(prog, "tkt::scale<float, 3>"));
  RTC_OK(hiprtcAddNameExpression(prog, "&tkt::scale<int, -2>"));
  RTC_OK(hiprtcAddNameExpression(prog, "&tkt::table<int>"));
  const char *lowered = nullptr;
  RTC_ERR(hiprtcGetLoweredName(prog, "tkt::scale<float, 3>", &lowered), HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  hiprtcResult r = hiprtcCompileProgram(prog, 0, nullptr);
  if (r != HIPRTC_SUCCESS) std::fprintf(stderr, "compile log:\n%s\n", program_log(prog).c_str());
  RTC_OK(r);
  RTC_ERR(hiprtcAddNameExpression(prog, "tkt::scale<double, 1>"), HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION);
  RTC_ERR(hiprtcGetLoweredName(prog, "tkt::scale<double, 1>", &lowered), HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID);
  const char *lf = nullptr, *li = nullptr, *lt = nullptr;
  RTC_OK(hiprtcGetLoweredName(prog, "tkt::scale<float, 3>", &lf));
  RTC_OK(hiprtcGetLoweredName(prog, "&tkt::scale<int, -2>", &li));
  RTC_OK(hiprtcGetLoweredName(prog, "&tkt::table<int>", &lt));
  // Itanium C++ ABI: void tkt::scale<float, 3>(float*, float, int), <int, -2>, tkt::table<int>
  CHECK(!std::strcmp(lf, "_ZN3tkt5scaleIfLi3EEEvPT_S1_i"), "lowered name of scale<float, 3> is %s", lf);
  CHECK(!std::strcmp(li, "_ZN3tkt5scaleIiLin2EEEvPT_S1_i"), "lowered name of scale<int, -2> is %s", li);
  CHECK(!std::strcmp(lt, "_ZN3tkt5tableIiEE"), "lowered name of table<int> is %s", lt);
  std::vector<char> code = compiled_code(prog);

  hipModule_t mod;
  HIP_OK(hipModuleLoadData(&mod, code.data()));
  hipFunction_t ff, fi;
  HIP_OK(hipModuleGetFunction(&ff, mod, lf));
  HIP_OK(hipModuleGetFunction(&fi, mod, li));
  hipDeviceptr_t table;
  size_t table_size = 0;
  HIP_OK(hipModuleGetGlobal(&table, &table_size, mod, lt));
  CHECK(table_size == 4 * sizeof(int), "table<int> is %zu bytes", table_size);
  int newtab[4] = { 10, 20, 30, 40 };
  HIP_OK(hipMemcpyHtoD(table, newtab, sizeof newtab));
  const int n = 300;
  std::vector<float> hf(n), of(n);
  std::vector<int> hi(n), oi(n);
  for (int i = 0; i < n; i++) { hf[i] = 0.5f * (float)i; hi[i] = i - 150; }
  float *df;
  int *di;
  HIP_OK(hipMalloc(&df, n * sizeof(float)));
  HIP_OK(hipMalloc(&di, n * sizeof(int)));
  HIP_OK(hipMemcpy(df, hf.data(), n * sizeof(float), hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(di, hi.data(), n * sizeof(int), hipMemcpyHostToDevice));
  float af = 2.0f;
  int ai = 3, nn = n;
  void *pf[] = { &df, &af, &nn };
  void *pi[] = { &di, &ai, &nn };
  HIP_OK(hipModuleLaunchKernel(ff, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, pf, nullptr));
  HIP_OK(hipModuleLaunchKernel(fi, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, pi, nullptr));
  HIP_OK(hipDeviceSynchronize());
  HIP_OK(hipMemcpy(of.data(), df, n * sizeof(float), hipMemcpyDeviceToHost));
  HIP_OK(hipMemcpy(oi.data(), di, n * sizeof(int), hipMemcpyDeviceToHost));
  int badf = 0, badi = 0;
  for (int i = 0; i < n; i++) {
    badf += of[i] != hf[i] * 2.0f + 3.0f + 1.0f + (float)(i % 4); // table<float> keeps its initialiser
    badi += oi[i] != hi[i] * 3 - 2 + newtab[i % 4];                // table<int> was overwritten
  }
  CHECK(badf == 0, "scale<float, 3>: %d of %d wrong (v[5] = %g)", badf, n, of[5]);
  CHECK(badi == 0, "scale<int, -2>: %d of %d wrong (v[5] = %d)", badi, n, oi[5]);
  HIP_OK(hipFree(df));
  HIP_OK(hipFree(di));
  HIP_OK(hipModuleUnload(mod));
  RTC_OK(hiprtcDestroyProgram(&prog));
}

// A compile error comes back as HIPRTC_ERROR_COMPILATION with the compiler's
// message (naming the undeclared identifier) in the log, and no code.
static void compile_error()
{
  const char *src = "extern \"C\" __global__ void broken(float *p) { p[0] = undeclared_thing; }\n";
  hiprtcProgram prog;
  RTC_OK(hiprtcCreateProgram(&prog, src, "broken.hip", 0, nullptr, nullptr));
  RTC_ERR(hiprtcCompileProgram(prog, 0, nullptr), HIPRTC_ERROR_COMPILATION);
  std::string log = program_log(prog);
  CHECK(log.find("undeclared_thing") != std::string::npos && log.find("error") != std::string::npos,
        "the log names the error; it is:\n%s", log.c_str());
  CHECK(log.find("broken.hip") != std::string::npos, "the log names the program; it is:\n%s", log.c_str());
  RTC_OK(hiprtcDestroyProgram(&prog));
}

// The results hiprtc.h documents for bad arguments.
static void null_arguments()
{
  hiprtcProgram prog = nullptr;
  RTC_ERR(hiprtcCreateProgram(nullptr, "int x;", "p", 0, nullptr, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_ERR(hiprtcCreateProgram(&prog, nullptr, "p", 0, nullptr, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_ERR(hiprtcDestroyProgram(nullptr), HIPRTC_ERROR_INVALID_INPUT);
  RTC_OK(hiprtcCreateProgram(&prog, "int x;", "p", 0, nullptr, nullptr));
  RTC_ERR(hiprtcAddNameExpression(prog, nullptr), HIPRTC_ERROR_INVALID_INPUT);
  const char *lowered;
  RTC_ERR(hiprtcGetLoweredName(prog, nullptr, &lowered), HIPRTC_ERROR_INVALID_INPUT);
  RTC_OK(hiprtcDestroyProgram(&prog));
  int major = -1, minor = -1;
  RTC_OK(hiprtcVersion(&major, &minor));
  CHECK(major >= 5 && minor >= 0, "hiprtcVersion %d.%d", major, minor);
  CHECK(!std::strcmp(hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION), "HIPRTC_ERROR_COMPILATION"),
        "error string %s", hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION));
}

int main()
{
  null_arguments();
  saxpy();
  templates();
  compile_error();
  return RT_DONE();
}
