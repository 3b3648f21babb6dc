// Plain host C++ (no HIP flags: tk_add_hip_library compiles only .hip
// sources as HIP) calling the library's device math; the host's libm is the
// reference: expf 1 ulp, erff 4, pow 1 (HIP's documented bounds) plus one
// for the reference, i.e. within 2^-20 relative to the largest term.
#include <math.h>
#include <stdio.h>

extern "C" int consumer_mathlib(const float *x, double *y, int n);

int main() {
  enum { N = 200 };
  float x[N];
  double y[N];
  for (int i = 0; i < N; i++) x[i] = 0.02f * (float)i;  // [0, 4)
  if (consumer_mathlib(x, y, N)) {
    fprintf(stderr, "consumer_lib: a HIP call failed\n");
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
    fprintf(stderr, "consumer_lib: %d of %d past the bound\n", bad, N);
    return 1;
  }
  printf("consumer_lib: expf + erff + pow on the device match the host's libm (%d inputs)\n", N);
  return 0;
}
