// clang_emits.hip: ordinary HIP device code - the ocml math library for float,
// double and _Float16, integer arithmetic of every width on uniform (SALU)
// and divergent (VALU) values, int64 <-> float conversions, lane operations,
// LDS and global atomics, bf16 conversions. Compiled at -O0 and -O3 for gfx942
// and gfx950,
// tksim must decode every instruction clang emits for it
// (ctest tksim_decode_clang_emits_*). Device code only, never run.
#include <hip/hip_runtime.h>
#include <stdint.h>
#define F1(f) o[k++] = (double)f(x);
extern "C" __global__ void mathf(const float *in, double *o0, int n)
{
  int i = threadIdx.x; float x = in[i], y = in[i + 64]; double *o = o0 + i * 128; int k = 0;
  F1(sinf) F1(cosf) F1(tanf) F1(asinf) F1(acosf) F1(atanf) F1(sinhf) F1(coshf) F1(tanhf) F1(asinhf) F1(acoshf) F1(atanhf)
  F1(expf) F1(exp2f) F1(exp10f) F1(expm1f) F1(logf) F1(log2f) F1(log10f) F1(log1pf) F1(sqrtf) F1(rsqrtf) F1(cbrtf)
  F1(erff) F1(erfcf) F1(erfinvf) F1(lgammaf) F1(tgammaf) F1(roundf) F1(rintf) F1(truncf) F1(floorf) F1(ceilf) F1(logbf) F1(ilogbf)
  F1(j0f) F1(j1f) F1(y0f) F1(y1f) F1(normcdff) F1(erfcxf) F1(sinpif) F1(cospif) F1(fabsf) F1(nearbyintf) F1(lrintf) F1(llroundf)
  o[k++] = powf(x, y); o[k++] = fmodf(x, y); o[k++] = remainderf(x, y); o[k++] = atan2f(x, y); o[k++] = hypotf(x, y);
  o[k++] = fmaf(x, y, x); o[k++] = fdimf(x, y); o[k++] = copysignf(x, y); o[k++] = nextafterf(x, y); o[k++] = ldexpf(x, (int)y);
  int e; o[k++] = frexpf(x, &e) + e; float ip; o[k++] = modff(x, &ip) + ip; o[k++] = x / y; o[k++] = __fdividef(x, y);
  o[k++] = __expf(x) + __logf(y) + __sinf(x) + __powf(x, y); o[k++] = rhypotf(x, y); o[k++] = norm3df(x, y, x);
}
extern "C" __global__ void mathd(const double *in, double *o0, int n)
{
  int i = threadIdx.x; double x = in[i], y = in[i + 64]; double *o = o0 + i * 128; int k = 0;
  F1(sin) F1(cos) F1(tan) F1(asin) F1(acos) F1(atan) F1(sinh) F1(cosh) F1(tanh) F1(asinh) F1(acosh) F1(atanh)
  F1(exp) F1(exp2) F1(exp10) F1(expm1) F1(log) F1(log2) F1(log10) F1(log1p) F1(sqrt) F1(rsqrt) F1(cbrt)
  F1(erf) F1(erfc) F1(erfinv) F1(lgamma) F1(tgamma) F1(round) F1(rint) F1(trunc) F1(floor) F1(ceil) F1(logb) F1(ilogb)
  F1(j0) F1(j1) F1(y0) F1(y1) F1(normcdf) F1(sinpi) F1(cospi) F1(fabs) F1(lrint) F1(llround)
  o[k++] = pow(x, y); o[k++] = fmod(x, y); o[k++] = remainder(x, y); o[k++] = atan2(x, y); o[k++] = hypot(x, y);
  o[k++] = fma(x, y, x); o[k++] = x / y; int e; o[k++] = frexp(x, &e) + e; o[k++] = ldexp(x, (int)y); o[k++] = nextafter(x, y);
}
extern "C" __global__ void mathh(const _Float16 *in, _Float16 *o0, int n)
{
  int i = threadIdx.x; _Float16 x = in[i], y = in[i + 64]; _Float16 *o = o0 + i * 64; int k = 0;
  o[k++] = x + y; o[k++] = x * y; o[k++] = x / y; o[k++] = __builtin_fmaf16(x, y, x); o[k++] = __builtin_sqrtf16(x);
  o[k++] = __builtin_floorf16(x); o[k++] = __builtin_ceilf16(x); o[k++] = __builtin_truncf16(x); o[k++] = __builtin_rintf16(x);
  o[k++] = __builtin_fabsf16(x); o[k++] = __builtin_fmaxf16(x, y); o[k++] = __builtin_fminf16(x, y); o[k++] = __builtin_copysignf16(x, y);
  o[k++] = (_Float16)(int)i; o[k++] = (_Float16)(short)i; o[k++] = (_Float16)(unsigned short)i; o[k++] = (_Float16)((short)x + (int)y + (long)x);
  o[k++] = (_Float16)__builtin_sinf((float)x); o[k++] = x < y ? x : y; o[k++] = (_Float16)(x == y); o[k++] = (_Float16)__builtin_isnan(x);
  int e; o[k++] = (_Float16)__builtin_frexpf((float)x, &e) + (_Float16)e; o[k++] = __builtin_ldexpf16(x, i);
  typedef _Float16 h2 __attribute__((ext_vector_type(2))); h2 a = {x, y}, b = {y, x}; a = a * b + a; o[k++] = a.x + a.y;
}
template <typename T> __device__ void ints(T a, T b, T *o)
{
  int k = 0;
  o[k++] = a + b; o[k++] = a - b; o[k++] = a * b; o[k++] = b ? a / b : 0; o[k++] = b ? a % b : 0; o[k++] = a << (b & 7);
  o[k++] = a >> (b & 7); o[k++] = a & b; o[k++] = a | b; o[k++] = a ^ b; o[k++] = ~a; o[k++] = a < b ? a : b; o[k++] = a > b ? a : b;
  o[k++] = (T)(a == b) + (T)(a < b) + (T)(a >= b); o[k++] = (T)__builtin_popcountll((unsigned long long)a);
  o[k++] = (T)(a ? __builtin_clzll((unsigned long long)a) : 0) + (T)(a ? __builtin_ctzll((unsigned long long)a) : 0);
  o[k++] = (T)(float)a + (T)(double)b; o[k++] = (T)__builtin_bitreverse64((uint64_t)a); o[k++] = a < 0 ? -a : a;
  o[k++] = (T)~(a & b) + (T)~(a | b) + (T)~(a ^ b);
}
template <typename T> __global__ void intk(const T *in, T *o, int uniform)
{
  T a = uniform ? in[0] : in[threadIdx.x], b = uniform ? in[1] : in[threadIdx.x + 64];
  ints<T>(a, b, o + threadIdx.x * 32);
  if (uniform) { float f = (float)(int64_t)a; double d = (double)(uint64_t)b; o[0] += (T)f + (T)d; o[1] += (T)(float)(uint64_t)a; }
}
template __global__ void intk<int8_t>(const int8_t *, int8_t *, int);
template __global__ void intk<uint8_t>(const uint8_t *, uint8_t *, int);
template __global__ void intk<int16_t>(const int16_t *, int16_t *, int);
template __global__ void intk<uint16_t>(const uint16_t *, uint16_t *, int);
template __global__ void intk<int32_t>(const int32_t *, int32_t *, int);
template __global__ void intk<uint32_t>(const uint32_t *, uint32_t *, int);
template __global__ void intk<int64_t>(const int64_t *, int64_t *, int);
template __global__ void intk<uint64_t>(const uint64_t *, uint64_t *, int);
extern "C" __global__ void conv(const int64_t *in, float *o)
{
  int64_t s = in[0]; uint64_t u = (uint64_t)in[1];
  o[0] = (float)s; o[1] = (float)u; o[2] = (double)s; o[3] = (double)u; o[4] = (float)in[threadIdx.x]; o[5] = (float)(uint64_t)in[threadIdx.x];
  _Float16 h = (_Float16)(float)s; o[6] = (float)h; o[7] = (float)(_Float16)(int)s; o[8] = (float)(int16_t)(_Float16)(float)in[threadIdx.x];
}
extern "C" __global__ void lanes(const int *in, int *o, int n)
{
  __shared__ int sh[256];
  int v = in[threadIdx.x];
  sh[threadIdx.x] = v; __syncthreads();
  int idx = in[threadIdx.x + 64] & 63;
  int arr[16]; for (int j = 0; j < 16; j++) arr[j] = in[j * 3 + threadIdx.x];
  o[threadIdx.x] = __shfl(v, idx) + __shfl_xor(v, 3) + __shfl_down(v, 1) + __ballot(v > 3) + __popcll(__ballot(v)) + arr[idx & 15]
                   + atomicAdd(&sh[idx], 1) + atomicMax(&sh[idx], v) + atomicCAS(&sh[idx], v, 2) + __any(v) + __all(v);
  atomicAdd(o + 100, 1.5f); atomicAdd((double *)o + 200, 2.0); atomicExch(o + 300, v);

}
extern "C" __global__ void bf16(const __bf16 *in, float *o)
{
  int i = threadIdx.x;
  o[i] = (float)in[i] * 2.0f;
  o[i + 64] = (float)(__bf16)(o[i] + 1.0f);
  o[i + 128] = __builtin_fmaxf(__builtin_fmaxf(o[i], o[i + 1]), o[i + 2]);
}
// A kernel name of 400 bytes: rocPRIM's mangled kernel names reach ~500, and
// tksim's loader kept 255 (their descriptor symbols were not found).
extern "C" __global__ void long_name_abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij(int *o) { o[threadIdx.x] = (int)threadIdx.x; }
