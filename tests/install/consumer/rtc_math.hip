// hiprtc under an installed tksim: a kernel calling expf, erff and the double
// pow (ocml, so hiprtc must find device libraries) compiled at run time with
// no options, loaded, launched and compared with the host's libm (HIP's
// documented bounds: expf 1 ulp, erff 4, pow 1; plus one for the reference).
// check_hip_install.cmake runs it with the build tree's device libraries out
// of sight, so it passes only if the installed tksim finds the installed ones.
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src = R"(
extern "C" __global__ void rtc_math(const float *x, double *y, int n)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = (double)expf(x[i]) + (double)erff(x[i]) + pow((double)x[i], 1.5);
}
)";

int main() {
  hiprtcProgram prog;
  if (hiprtcCreateProgram(&prog, src, "rtc_math.cu", 0, NULL, NULL) != HIPRTC_SUCCESS) {
    fprintf(stderr, "consumer_rtc: hiprtcCreateProgram failed\n");
    return 1;
  }
  const hiprtcResult cr = hiprtcCompileProgram(prog, 0, NULL);
  size_t log_n = 0;
  if (hiprtcGetProgramLogSize(prog, &log_n) == HIPRTC_SUCCESS && log_n > 1) {
    char *log = (char *)malloc(log_n);
    if (log && hiprtcGetProgramLog(prog, log) == HIPRTC_SUCCESS) fprintf(stderr, "program log:\n%s\n", log);
    free(log);
  }
  if (cr != HIPRTC_SUCCESS) {
    fprintf(stderr, "consumer_rtc: hiprtcCompileProgram failed: %s\n", hiprtcGetErrorString(cr));
    return 1;
  }
  size_t code_n = 0;
  char *code = NULL;
  if (hiprtcGetCodeSize(prog, &code_n) != HIPRTC_SUCCESS || !(code = (char *)malloc(code_n)) ||
      hiprtcGetCode(prog, code) != HIPRTC_SUCCESS) {
    fprintf(stderr, "consumer_rtc: no code from hiprtc\n");
    return 1;
  }
  enum { N = 200 };
  float x[N];
  double y[N];
  for (int i = 0; i < N; i++) x[i] = 0.02f * (float)i;  // [0, 4)
  hipModule_t mod;
  hipFunction_t fn;
  float *dx;
  double *dy;
  int n = N;
  if (hipModuleLoadData(&mod, code) != hipSuccess || hipModuleGetFunction(&fn, mod, "rtc_math") != hipSuccess ||
      hipMalloc(&dx, sizeof x) != hipSuccess || hipMalloc(&dy, sizeof y) != hipSuccess ||
      hipMemcpy(dx, x, sizeof x, hipMemcpyHostToDevice) != hipSuccess) {
    fprintf(stderr, "consumer_rtc: loading the code object or allocating failed\n");
    return 1;
  }
  void *args[] = {&dx, &dy, &n};
  if (hipModuleLaunchKernel(fn, (N + 63) / 64, 1, 1, 64, 1, 1, 0, 0, args, NULL) != hipSuccess ||
      hipMemcpy(y, dy, sizeof y, hipMemcpyDeviceToHost) != hipSuccess) {
    fprintf(stderr, "consumer_rtc: the launch or the copy back failed\n");
    return 1;
  }
  int bad = 0;
  for (int i = 0; i < N; i++) {
    const double e = expf(x[i]), f = erff(x[i]), p = pow((double)x[i], 1.5);
    const double tol = (fabs(e) + fabs(f)) * 0x1p-20 + fabs(p) * 0x1p-50;
    if (!(fabs(y[i] - (e + f + p)) <= tol) && bad++ < 5)
      fprintf(stderr, "x = %a: device %.17g, host %.17g\n", x[i], y[i], e + f + p);
  }
  if (bad) {
    fprintf(stderr, "consumer_rtc: %d of %d past the bound\n", bad, N);
    return 1;
  }
  printf("consumer_rtc: hiprtc-compiled expf + erff + pow match the host's libm (%d inputs)\n", N);
  return 0;
}
