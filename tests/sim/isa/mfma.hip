// mfma.hip: one wave runs ONE MFMA instruction; the host checks every element
// of D = A*B + C against its own matrix product. `mfma CASE` runs one case
// (ctest registers one test per instruction), `mfma all` runs them all.
//
// Lane layouts (AMD matrix instruction calculator, CDNA3 / gfx942, and the
// CDNA3 ISA guide "Dependent Matrix Instructions" register layout), for the
// single-block MxNxK instructions tested here (M == N), with KPL = K*M/64
// elements of A (and of B) per lane:
//   A[i][k]  -> lane i + M*(k / KPL), element k % KPL of the lane's operand
//   B[k][j]  -> lane j + N*(k / KPL), element k % KPL
//   D[i][j] (and C), 16x16: lane j + 16*(i/4),        register i % 4
//   D[i][j] (and C), 32x32: lane j + 32*((i/4) % 2),  register (i%4) + 4*(i/8)
// KPL: 4 for 16-bit inputs (16x16x16, 32x32x8), 8 for fp8/bf8/i8 (16x16x32,
// 32x32x16), 1 for f32 (16x16x4, 32x32x2). Elements within an operand are
// packed low to high. FP8/BF8 are gfx942's E4M3FNUZ/E5M2FNUZ (fpconv.h).
//
// Inputs are chosen so every product and partial sum is exact in f32
// (small-mantissa values), so the check is bit-exact for every summation
// order the hardware may use.
#include "vtest.h"
#include "fpconv.h"

typedef short s4 __attribute__((ext_vector_type(4)));
typedef _Float16 h4 __attribute__((ext_vector_type(4)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef float f16v __attribute__((ext_vector_type(16)));
typedef int i4v __attribute__((ext_vector_type(4)));
typedef int i16v __attribute__((ext_vector_type(16)));

enum elem_kind { E_BF16, E_F16, E_FP8, E_BF8, E_I8, E_F32 };

/* Row of D/C held in register r of lane l (inverse of the layout above). */
__host__ __device__ static inline int out_row(int mn, int l, int r)
{
  return mn == 16 ? 4 * (l / 16) + r : 8 * (r / 4) + 4 * (l / 32) + (r % 4);
}

/* Loads the lane's A and B operands (KPL elements of ESZ bytes each) from
 * row-major A (MxK) and B (KxN), and its accumulator registers from
 * row-major C; stores D the same way. */
#define MFMA_KERNEL(NAME, MN, K, KPL, ESZ, AT, CT, CE, NREG, CALL)                            \
  __global__ void k_##NAME(const uint8_t *A, const uint8_t *B, const CE *C, CE *D)            \
  {                                                                                           \
    int l = threadIdx.x;                                                                      \
    int i = l % MN, j = l % MN, k0 = (l / MN) * KPL;                                          \
    uint8_t ab[KPL * ESZ], bb[KPL * ESZ];                                                     \
    for (int e = 0; e < KPL; e++)                                                             \
      for (int x = 0; x < ESZ; x++) {                                                         \
        ab[e * ESZ + x] = A[(i * K + k0 + e) * ESZ + x];                                      \
        bb[e * ESZ + x] = B[((k0 + e) * MN + j) * ESZ + x];                                   \
      }                                                                                       \
    AT a, b;                                                                                  \
    __builtin_memcpy(&a, ab, sizeof a);                                                       \
    __builtin_memcpy(&b, bb, sizeof b);                                                       \
    CT c;                                                                                     \
    for (int r = 0; r < NREG; r++) c[r] = C[out_row(MN, l, r) * MN + j];                      \
    CT d = CALL;                                                                              \
    for (int r = 0; r < NREG; r++) D[out_row(MN, l, r) * MN + j] = d[r];                      \
  }

MFMA_KERNEL(f32_16x16x16_bf16, 16, 16, 4, 2, s4, f4, float, 4, __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_32x32x8_bf16, 32, 8, 4, 2, s4, f16v, float, 16, __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_16x16x16_f16, 16, 16, 4, 2, h4, f4, float, 4, __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_32x32x8_f16, 32, 8, 4, 2, h4, f16v, float, 16, __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_16x16x32_fp8_fp8, 16, 32, 8, 1, long, f4, float, 4, __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_16x16x32_fp8_bf8, 16, 32, 8, 1, long, f4, float, 4, __builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_16x16x32_bf8_fp8, 16, 32, 8, 1, long, f4, float, 4, __builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_16x16x32_bf8_bf8, 16, 32, 8, 1, long, f4, float, 4, __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_32x32x16_fp8_fp8, 32, 16, 8, 1, long, f16v, float, 16, __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_32x32x16_fp8_bf8, 32, 16, 8, 1, long, f16v, float, 16, __builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_32x32x16_bf8_fp8, 32, 16, 8, 1, long, f16v, float, 16, __builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_32x32x16_bf8_bf8, 32, 16, 8, 1, long, f16v, float, 16, __builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(a, b, c, 0, 0, 0))
MFMA_KERNEL(i32_16x16x32_i8, 16, 32, 8, 1, long, i4v, int, 4, __builtin_amdgcn_mfma_i32_16x16x32_i8(a, b, c, 0, 0, 0))
MFMA_KERNEL(i32_32x32x16_i8, 32, 16, 8, 1, long, i16v, int, 16, __builtin_amdgcn_mfma_i32_32x32x16_i8(a, b, c, 0, 0, 0))
/* gfx950's doubled-K i8 shapes (KPL 16: the same layout rule); on gfx942 the
 * kernels hold no MFMA and these cases are run only under --arch=gfx950 */
#if defined(__gfx950__)
#define MFMA_I8_16X64(a, b, c) __builtin_amdgcn_mfma_i32_16x16x64_i8(a, b, c, 0, 0, 0)
#define MFMA_I8_32X32(a, b, c) __builtin_amdgcn_mfma_i32_32x32x32_i8(a, b, c, 0, 0, 0)
#else
#define MFMA_I8_16X64(a, b, c) (c)
#define MFMA_I8_32X32(a, b, c) (c)
#endif
MFMA_KERNEL(i32_16x16x64_i8, 16, 64, 16, 1, i4v, i4v, int, 4, MFMA_I8_16X64(a, b, c))
MFMA_KERNEL(i32_32x32x32_i8, 32, 32, 16, 1, i4v, i16v, int, 16, MFMA_I8_32X32(a, b, c))
MFMA_KERNEL(f32_16x16x4_f32, 16, 4, 1, 4, float, f4, float, 4, __builtin_amdgcn_mfma_f32_16x16x4f32(a, b, c, 0, 0, 0))
MFMA_KERNEL(f32_32x32x2_f32, 32, 2, 1, 4, float, f16v, float, 16, __builtin_amdgcn_mfma_f32_32x32x2f32(a, b, c, 0, 0, 0))

typedef void (*kfn_f)(const uint8_t *, const uint8_t *, const float *, float *);
typedef void (*kfn_i)(const uint8_t *, const uint8_t *, const int *, int *);

struct mcase {
  const char *name;
  int mn, k, ea, eb; /* element kinds of A and B */
  kfn_f kf;
  kfn_i ki;
};

#define CF(n, mn, k, ea, eb) { #n, mn, k, ea, eb, k_##n, nullptr }
static const mcase cases[] = {
  CF(f32_16x16x16_bf16, 16, 16, E_BF16, E_BF16), CF(f32_32x32x8_bf16, 32, 8, E_BF16, E_BF16),
  CF(f32_16x16x16_f16, 16, 16, E_F16, E_F16), CF(f32_32x32x8_f16, 32, 8, E_F16, E_F16),
  CF(f32_16x16x32_fp8_fp8, 16, 32, E_FP8, E_FP8), CF(f32_16x16x32_fp8_bf8, 16, 32, E_FP8, E_BF8),
  CF(f32_16x16x32_bf8_fp8, 16, 32, E_BF8, E_FP8), CF(f32_16x16x32_bf8_bf8, 16, 32, E_BF8, E_BF8),
  CF(f32_32x32x16_fp8_fp8, 32, 16, E_FP8, E_FP8), CF(f32_32x32x16_fp8_bf8, 32, 16, E_FP8, E_BF8),
  CF(f32_32x32x16_bf8_fp8, 32, 16, E_BF8, E_FP8), CF(f32_32x32x16_bf8_bf8, 32, 16, E_BF8, E_BF8),
  { "i32_16x16x32_i8", 16, 32, E_I8, E_I8, nullptr, k_i32_16x16x32_i8 },
  { "i32_32x32x16_i8", 32, 16, E_I8, E_I8, nullptr, k_i32_32x32x16_i8 },
  CF(f32_16x16x4_f32, 16, 4, E_F32, E_F32), CF(f32_32x32x2_f32, 32, 2, E_F32, E_F32),
  /* gfx950 only (not part of "all") */
  { "i32_16x16x64_i8", 16, 64, E_I8, E_I8, nullptr, k_i32_16x16x64_i8 },
  { "i32_32x32x32_i8", 32, 32, E_I8, E_I8, nullptr, k_i32_32x32x32_i8 },
};
static int gfx950_only(const char *n) { return !strcmp(n, "i32_16x16x64_i8") || !strcmp(n, "i32_32x32x32_i8"); }

static int esize(int e) { return e == E_BF16 || e == E_F16 ? 2 : e == E_F32 ? 4 : 1; }

/* a random value of kind e whose products and sums stay exact; writes its
 * encoding to p and returns its value */
static double make_value(int e, uint64_t *s, uint8_t *p)
{
  uint64_t r = vt_rand(s);
  switch (e) {
  case E_BF16: case E_F16: {
    float v = (float)((int)(r % 33) - 16) / 4.0f; /* quarters in [-4, 4] */
    uint16_t h = e == E_BF16 ? fc_f2bf(v) : fc_f2h(v);
    memcpy(p, &h, 2);
    return v;
  }
  case E_FP8: {
    uint8_t b = (uint8_t)(((r & 1) << 7) | ((6 + (r >> 1) % 5) << 3) | ((r >> 8) & 7));
    *p = b;
    return fc_fp8_to_f(b);
  }
  case E_BF8: {
    uint8_t b = (uint8_t)(((r & 1) << 7) | ((14 + (r >> 1) % 5) << 2) | ((r >> 8) & 3));
    *p = b;
    return fc_bf8_to_f(b);
  }
  case E_I8: {
    int8_t v = (int8_t)(r & 0xff);
    memcpy(p, &v, 1);
    return v;
  }
  default: {
    float v = (float)((int)(r % 65) - 32) / 8.0f;
    memcpy(p, &v, 4);
    return v;
  }
  }
}

static int run_case(const mcase &c)
{
  int before = vt_failures;
  const int mn = c.mn, K = c.k;
  uint64_t s = 0x1234 + (uint64_t)mn * 77 + (uint64_t)K;
  std::vector<uint8_t> A((size_t)mn * K * esize(c.ea)), B((size_t)K * mn * esize(c.eb));
  std::vector<double> av((size_t)mn * K), bv((size_t)K * mn);
  for (int x = 0; x < mn * K; x++) av[x] = make_value(c.ea, &s, &A[(size_t)x * esize(c.ea)]);
  for (int x = 0; x < K * mn; x++) bv[x] = make_value(c.eb, &s, &B[(size_t)x * esize(c.eb)]);
  vt_buf<uint8_t> dA(A), dB(B);
  if (c.kf) {
    std::vector<float> C((size_t)mn * mn);
    for (auto &v : C) v = (float)((int)(vt_rand(&s) % 257) - 128) / 4.0f;
    vt_buf<float> dC(C), dD((size_t)mn * mn);
    dD.zero();
    c.kf<<<1, 64>>>(dA.d, dB.d, dC.d, dD.d);
    VT_HIP(hipGetLastError());
    VT_SYNC();
    auto D = dD.get();
    for (int i = 0; i < mn; i++)
      for (int j = 0; j < mn; j++) {
        double acc = C[(size_t)i * mn + j];
        for (int k = 0; k < K; k++) acc += av[(size_t)i * K + k] * bv[(size_t)k * mn + j];
        vt_check_f32(c.name, i * mn + j, D[(size_t)i * mn + j], (float)acc);
      }
  } else {
    std::vector<int> C((size_t)mn * mn);
    for (auto &v : C) v = (int)(vt_rand(&s) % 200001) - 100000;
    vt_buf<int> dC(C), dD((size_t)mn * mn);
    dD.zero();
    c.ki<<<1, 64>>>(dA.d, dB.d, dC.d, dD.d);
    VT_HIP(hipGetLastError());
    VT_SYNC();
    auto D = dD.get();
    for (int i = 0; i < mn; i++)
      for (int j = 0; j < mn; j++) {
        int64_t acc = C[(size_t)i * mn + j];
        for (int k = 0; k < K; k++) acc += (int64_t)av[(size_t)i * K + k] * (int64_t)bv[(size_t)k * mn + j];
        vt_check_u32(c.name, i * mn + j, (uint32_t)D[(size_t)i * mn + j], (uint32_t)acc);
      }
  }
  printf("  %-24s %s\n", c.name, vt_failures == before ? "ok" : "FAILED");
  return vt_failures == before;
}

int main(int argc, char **argv)
{
  const char *want = argc > 1 ? argv[1] : "all";
  int ran = 0;
  for (const mcase &c : cases)
    if ((!strcmp(want, "all") && !gfx950_only(c.name)) || !strcmp(want, c.name)) { run_case(c); ran++; }
  if (!ran) {
    fprintf(stderr, "mfma: unknown case '%s'; cases:", want);
    for (const mcase &c : cases) fprintf(stderr, " %s", c.name);
    fprintf(stderr, " all\n");
    return 2;
  }
  return vt_finish("mfma");
}
