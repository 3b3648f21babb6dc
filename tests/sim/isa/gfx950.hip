// gfx950.hip: gfx950 (CDNA4) semantics under tksim --arch=gfx950, each checked
// against the host's own computation. `gfx950 CASE`:
//   fp8_ocp   v_mfma_f32_16x16x32_fp8_fp8 reads OCP E4M3FN on gfx950 (bias 7:
//             codes for 448 and 2^-9 that mean other values, or NaN, in FNUZ)
//   cvt_bf16  v_cvt_pk_bf16_f32: two f32 -> bf16, round to nearest even
//   lds160    160 KiB of dynamic LDS per workgroup: written, read back reversed
//   lds_x4    global_load_lds_dwordx4: 16 bytes per lane straight into LDS
//   fp6       v_mfma_scale_f32_16x16x128_f8f6f4 with fp6 E2M3 A and bf6 E3M2 B
//             (cbsz 2, blgp 3) and 32x32x64 with bf6 A, fp6 B, E8M0 scales
//             125..129: every D element against a CPU product of the values
//             placed by the documented layout (docs/hardware.md "f8f6f4
//             packing": lane l holds row/column l % M, k = 32 (l / M) + e,
//             element e at bits 6e..6e+5 of its 6 registers, straddling)
//   tr_banks  two ds_read_b64_tr_b16, lane addresses 8 B apart (conflict free)
//             and 256 B apart (every lane on banks 0-1); ctest matches
//             tksim --report=pc's bank figures (gfx950 model: 2 read phases of
//             32 lanes: 0 and 2 x 31 = 62 conflict cycles), values checked here
//   tr_b4     ds_read_b64_tr_b4: tksim refuses it naming the instruction
//             (ctest matches the message)
//   read_tr16 ds_read_b64_tr_b16 / read_tr8 ds_read_b64_tr_b8: each lane
//             gives a scattered 8-byte LDS address; every result element is
//             checked against the documented rule (docs/hardware.md): in each
//             16-lane group, lane i's element j is element i % E of the 8 bytes
//             lane j * (16 / E) + i / E addressed (E = 4 16-bit or 8 8-bit)
//   read_tr_exec  the same read with half the lanes off: refused (the ISA
//             requires EXEC all ones)
//   cvt_fp8   gfx950's fp8 conversions use the OCP formats: v_cvt_pk_fp8_f32 /
//             _bf8_f32 (no clamp: LLVM 22 neither assembles nor prints one for
//             them) on every f32 of the bf16 grid
//             and its neighbours one ulp up and down (every fp8 tie, boundary
//             and overflow), v_cvt_f32_fp8 / _bf8 (byte select) and
//             v_cvt_pk_f32_fp8 / _bf8 (word select) on all 256 codes, against
//             tk/types.h's OCP host references (tk_host_conversions checks
//             those against the OCP spec's tables)
// The program checks the device is a gfx950 first.
#include "vtest.h"
#include "tk/types.h"

typedef float f4v __attribute__((ext_vector_type(4)));
typedef int i8v __attribute__((ext_vector_type(8)));

// One wave: lane l gives A row l%16, k 8*(l/16)..+7 (one fp8 per byte), B the
// same for column l%16; D row 4*(l/16)+i, column l%16 (CDNA3/4 layout rule).
__global__ void k_fp8(const long *a, const long *b, float *d) {
  int l = threadIdx.x;
  f4v c = {0, 0, 0, 0};
#if defined(__gfx950__)
  c = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a[l], b[l], c, 0, 0, 0);
#else
  (void)a; (void)b;
#endif
  for (int i = 0; i < 4; i++) d[l * 4 + i] = c[i];
}
__global__ void k_cvt(const float *x, const float *y, unsigned *o) {
  int l = threadIdx.x;
#if defined(__gfx950__)
  typedef __bf16 b2 __attribute__((ext_vector_type(2)));
  b2 v = {(__bf16)x[l], (__bf16)y[l]};
  o[l] = __builtin_bit_cast(unsigned, v);
#else
  (void)x; (void)y;
  o[l] = 0;
#endif
}
__global__ void k_lds(unsigned *o, int n) {
  extern __shared__ unsigned s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = (unsigned)i * 2654435761u;
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) o[i] = s[n - 1 - i];
}

// LDS holds a hash of i in word i (4096 B); lane l reads 8 bytes at
// tr_addr(l) + 16 (the offset field).
__host__ __device__ static unsigned tr_addr(int l) { return 8u * (unsigned)((l * 37 + 11) % 400); }
typedef short s4v __attribute__((ext_vector_type(4)));
typedef int i2v __attribute__((ext_vector_type(2)));
__global__ void k_read_tr(unsigned *o, int bits, int half) {
  __shared__ unsigned w[1024];
  const unsigned short *s = (const unsigned short *)w;
  int l = threadIdx.x;
  for (int i = l; i < 1024; i += 64) w[i] = (unsigned)i * 2654435761u + 12345u;
  __syncthreads();
  unsigned lo = 0, hi = 0;
#if defined(__gfx950__)
  if (!half || l < 32) {
    const unsigned short *p = s + (tr_addr(l) + 16) / 2;
    if (bits == 16) {
      s4v v = __builtin_amdgcn_ds_read_tr16_b64_v4i16((__attribute__((address_space(3))) s4v *)p);
      lo = (unsigned short)v[0] | ((unsigned)(unsigned short)v[1] << 16);
      hi = (unsigned short)v[2] | ((unsigned)(unsigned short)v[3] << 16);
    } else {
      i2v v = __builtin_amdgcn_ds_read_tr8_b64_v2i32((__attribute__((address_space(3))) i2v *)p);
      lo = (unsigned)v[0]; hi = (unsigned)v[1];
    }
  }
#else
  (void)bits; (void)half; (void)s;
#endif
  o[2 * l] = lo; o[2 * l + 1] = hi;
}

__global__ void k_fp6(const i8v *a, const i8v *b, const int *sa, const int *sb, float *d, int m32) {
  int l = threadIdx.x;
#if defined(__gfx950__)
  if (!m32) {
    f4v c = {0, 0, 0, 0};
    c = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a[l], b[l], c, 2, 3, 0, sa[l], 0, sb[l]);
    for (int i = 0; i < 4; i++) d[l * 16 + i] = c[i];
  } else {
    typedef float f16v __attribute__((ext_vector_type(16)));
    f16v c;
    for (int i = 0; i < 16; i++) c[i] = 0;
    c = __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a[l], b[l], c, 3, 2, 0, sa[l], 0, sb[l]);
    for (int i = 0; i < 16; i++) d[l * 16 + i] = c[i];
  }
#else
  (void)a; (void)b; (void)sa; (void)sb; (void)d; (void)m32; (void)l;
#endif
}
__global__ void k_tr_banks(unsigned *o) {
  __shared__ unsigned w[64 * 64];
  int l = threadIdx.x;
  for (int i = l; i < 64 * 64; i += 64) w[i] = (unsigned)i * 2654435761u + 12345u;
  __syncthreads();
  unsigned long long x = 0, y = 0;
#if defined(__gfx950__)
  uint32_t base = (uint32_t)(uintptr_t)w, a8 = base + 8u * (uint32_t)l, a256 = base + 256u * (uint32_t)l;
  asm volatile("ds_read_b64_tr_b16 %0, %1\n\ts_waitcnt lgkmcnt(0)" : "=v"(x) : "v"(a8) : "memory");
  asm volatile("ds_read_b64_tr_b16 %0, %1\n\ts_waitcnt lgkmcnt(0)" : "=v"(y) : "v"(a256) : "memory");
#endif
  o[4 * l] = (unsigned)x; o[4 * l + 1] = (unsigned)(x >> 32);
  o[4 * l + 2] = (unsigned)y; o[4 * l + 3] = (unsigned)(y >> 32);
}
__global__ void k_tr_b4(unsigned *o) {
  __shared__ unsigned s[128];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
#if defined(__gfx950__)
  i2v v = __builtin_amdgcn_ds_read_tr4_b64_v2i32((__attribute__((address_space(3))) i2v *)(s + 2 * (threadIdx.x % 32)));
  o[threadIdx.x] = (unsigned)v[0] ^ (unsigned)v[1];
#else
  o[threadIdx.x] = 0;
#endif
}

// fp8 conversions: x[i] -> 2 codes (e4m3 byte 0, e5m2 byte 1) in enc[i]; codes c = i (< 256) decoded in dec[4 i + 0..3] (fp8 byte select,
// bf8, pk fp8 word 1 lo, pk bf8 word 1 hi)
typedef float f2v __attribute__((ext_vector_type(2)));
__global__ void k_cvt_fp8(const float *x, unsigned *enc, float *dec, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(__gfx950__)
  if (i < n) {
    float v = x[i];
    unsigned a = (unsigned)__builtin_amdgcn_cvt_pk_fp8_f32(v, 0.0f, 0, false) & 0xff;
    unsigned b = (unsigned)__builtin_amdgcn_cvt_pk_bf8_f32(0.0f, v, 0, true) >> 24 & 0xff;
    enc[i] = a | b << 8;
  }
  if (i < 256) {
    unsigned w = (unsigned)i << (8 * (i % 4));
    float f = i % 4 == 0 ? __builtin_amdgcn_cvt_f32_fp8((int)w, 0) : i % 4 == 1 ? __builtin_amdgcn_cvt_f32_fp8((int)w, 1)
            : i % 4 == 2 ? __builtin_amdgcn_cvt_f32_fp8((int)w, 2) : __builtin_amdgcn_cvt_f32_fp8((int)w, 3);
    dec[4 * i] = f;
    dec[4 * i + 1] = __builtin_amdgcn_cvt_f32_bf8(i, 0);
    f2v p = __builtin_amdgcn_cvt_pk_f32_fp8((int)((unsigned)i << 16 | 0x3838u), true);
    f2v q = __builtin_amdgcn_cvt_pk_f32_bf8((int)((unsigned)i << 24 | 0x3c3c00u), true);
    dec[4 * i + 2] = p[0];
    dec[4 * i + 3] = q[1];
  }
#else
  (void)x; (void)enc; (void)dec; (void)n; (void)i;
#endif
}

// global_load_lds_dwordx4 (gfx950): lane l's 16 bytes go to LDS M0 + 16*l;
// lane l loads row l ^ 5 of g (4 ints a row); each thread then reads back
// its own 4 LDS ints from another lane's slot.
__global__ void k_lds_x4(const int *g, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  for (int i = 0; i < 4; i++) s[4 * t + i] = -1;
  __syncthreads();
#if defined(__gfx950__)
  uint32_t base = (uint32_t)(uintptr_t)s;
  const int *p = g + 4 * (t ^ 5);
  asm volatile("s_mov_b32 m0, %0\n\ts_nop 0\n\tglobal_load_lds_dwordx4 %1, off\n\ts_waitcnt vmcnt(0)"
               : : "s"(__builtin_amdgcn_readfirstlane(base)), "v"(p) : "memory");
#else
  (void)g;
#endif
  __syncthreads();
  for (int i = 0; i < 4; i++) out[4 * t + i] = s[4 * ((t + 17) % 64) + i];
}

// OCP E4M3FN value of a code (bias 7, S.1111.111 NaN)
static double ocp_e4m3(unsigned v) {
  int s = v >> 7, e = (v >> 3) & 15, m = v & 7;
  if (e == 15 && m == 7) return NAN;
  double r = e ? ldexp(1.0 + m / 8.0, e - 7) : ldexp(m / 8.0, -6);
  return s ? -r : r;
}
static uint16_t bf16_rne(float f) {
  uint32_t u = vt_f2u(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40);
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

int main(int argc, char **argv) {
  const char *c = argc > 1 ? argv[1] : "";
  hipDeviceProp_t p;
  VT_HIP(hipGetDeviceProperties(&p, 0));
  if (strncmp(p.gcnArchName, "gfx950", 6)) {
    fprintf(stderr, "FAIL: needs a gfx950 device (this one is %s; tksim --arch=gfx950)\n", p.gcnArchName);
    return 1;
  }
  if (!strcmp(c, "fp8_ocp")) {
    // codes whose OCP and FNUZ meanings differ: 0x7e = 448 (FNUZ 240), 0x01 = 2^-9
    // (FNUZ 2^-10), 0xfe = -448, 0x38 = 1.0 (FNUZ 0.5); the rest small values
    // (A never holds 2^-9 and B never holds 448, so every sum is exact in f32)
    static const unsigned acodes[] = {0x7e, 0xfe, 0x38, 0x40, 0xb8, 0x30, 0x00};
    static const unsigned bcodes[] = {0x01, 0x81, 0x38, 0xb8, 0x30, 0x00, 0x38};
    std::vector<unsigned char> A(16 * 32), B(32 * 16);
    for (int i = 0; i < 16 * 32; i++) A[i] = (unsigned char)acodes[(i * 5 + i / 32) % 7];
    for (int i = 0; i < 32 * 16; i++) B[i] = (unsigned char)bcodes[(i * 3 + 1) % 7];
    std::vector<long> pa(64), pb(64);
    for (int l = 0; l < 64; l++) {
      uint64_t wa = 0, wb = 0;
      for (int e = 0; e < 8; e++) {
        int k = 8 * (l / 16) + e;
        wa |= (uint64_t)A[(l % 16) * 32 + k] << (8 * e);
        wb |= (uint64_t)B[k * 16 + l % 16] << (8 * e);
      }
      pa[l] = (long)wa; pb[l] = (long)wb;
    }
    long *da, *db; float *dd;
    VT_HIP(hipMalloc(&da, 64 * 8)); VT_HIP(hipMalloc(&db, 64 * 8)); VT_HIP(hipMalloc(&dd, 256 * 4));
    VT_HIP(hipMemcpy(da, pa.data(), 64 * 8, hipMemcpyHostToDevice));
    VT_HIP(hipMemcpy(db, pb.data(), 64 * 8, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(k_fp8, dim3(1), dim3(64), 0, 0, da, db, dd);
    VT_HIP(hipDeviceSynchronize());
    std::vector<float> d(256);
    VT_HIP(hipMemcpy(d.data(), dd, 256 * 4, hipMemcpyDeviceToHost));
    for (int l = 0; l < 64; l++)
      for (int i = 0; i < 4; i++) {
        int r = 4 * (l / 16) + i, col = l % 16;
        double ref = 0;
        for (int k = 0; k < 32; k++) ref += ocp_e4m3(A[r * 32 + k]) * ocp_e4m3(B[k * 16 + col]);
        vt_check_f32("fp8_ocp D", r * 16 + col, d[l * 4 + i], (float)ref);
      }
  } else if (!strcmp(c, "cvt_bf16")) {
    std::vector<float> x(64), y(64);
    for (int l = 0; l < 64; l++) {
      x[l] = vt_u2f(0x3f800000u + (uint32_t)l * 0x4321u + (l & 1 ? 0x8000u : 0x7fffu));  // near ties
      y[l] = l == 0 ? NAN : l == 1 ? -INFINITY : vt_u2f(0xc0490fdbu ^ ((uint32_t)l << 3));
    }
    float *dx, *dy; unsigned *d_o;
    VT_HIP(hipMalloc(&dx, 256)); VT_HIP(hipMalloc(&dy, 256)); VT_HIP(hipMalloc(&d_o, 256));
    VT_HIP(hipMemcpy(dx, x.data(), 256, hipMemcpyHostToDevice));
    VT_HIP(hipMemcpy(dy, y.data(), 256, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(k_cvt, dim3(1), dim3(64), 0, 0, dx, dy, d_o);
    VT_HIP(hipDeviceSynchronize());
    std::vector<unsigned> o(64);
    VT_HIP(hipMemcpy(o.data(), d_o, 256, hipMemcpyDeviceToHost));
    for (int l = 0; l < 64; l++) {
      unsigned want = bf16_rne(x[l]) | ((unsigned)bf16_rne(y[l]) << 16);
      if (l == 0) { vt_check_u32("cvt_bf16 hi NaN", l, (o[l] >> 16 & 0x7f80) == 0x7f80 && (o[l] >> 16 & 0x7f), 1); continue; }
      vt_check_u32("cvt_bf16", l, o[l], want);
    }
  } else if (!strcmp(c, "lds160")) {
    const int n = 160 * 1024 / 4;
    unsigned *d_o;
    VT_HIP(hipMalloc(&d_o, n * 4));
    hipLaunchKernelGGL(k_lds, dim3(1), dim3(256), n * 4, 0, d_o, n);
    VT_HIP(hipGetLastError());
    VT_HIP(hipDeviceSynchronize());
    std::vector<unsigned> o(n);
    VT_HIP(hipMemcpy(o.data(), d_o, n * 4, hipMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) vt_check_u32("lds160", i, o[i], (unsigned)(n - 1 - i) * 2654435761u);
    // one dword more than 160 KiB must be refused
    hipLaunchKernelGGL(k_lds, dim3(1), dim3(256), n * 4 + 4, 0, d_o, n + 1);
    hipError_t e = hipGetLastError();
    if (e == hipSuccess) e = hipDeviceSynchronize();
    vt_check_u32("lds160: 160 KiB + 4 B refused", 0, e != hipSuccess, 1);
  } else if (!strcmp(c, "lds_x4")) {
    std::vector<int> g(256);
    for (int i = 0; i < 256; i++) g[i] = (int)(0x9e3779b9u * (unsigned)(i + 1));
    int *dg, *d_o;
    VT_HIP(hipMalloc(&dg, 1024)); VT_HIP(hipMalloc(&d_o, 1024));
    VT_HIP(hipMemcpy(dg, g.data(), 1024, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(k_lds_x4, dim3(1), dim3(64), 0, 0, dg, d_o);
    VT_HIP(hipGetLastError());
    VT_HIP(hipDeviceSynchronize());
    std::vector<int> o(256);
    VT_HIP(hipMemcpy(o.data(), d_o, 1024, hipMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++)
      for (int i = 0; i < 4; i++) {
        int slot = (t + 17) % 64;  // LDS slot read by thread t, filled by lane slot from row slot ^ 5
        vt_check_u32("global_load_lds_dwordx4", 4 * t + i, (uint32_t)o[4 * t + i], (uint32_t)g[4 * (slot ^ 5) + i]);
      }
  } else if (!strcmp(c, "fp6")) {
    // OCP MX: fp6 E2M3 bias 1, bf6 E3M2 bias 3, no inf/NaN
    auto fp6 = [](unsigned v) { int e = (v >> 3) & 3, m = v & 7; double r = e ? ldexp(1 + m / 8.0, e - 1) : m / 8.0; return v & 32 ? -r : r; };
    auto bf6 = [](unsigned v) { int e = (v >> 2) & 7, m = v & 3; double r = e ? ldexp(1 + m / 4.0, e - 3) : ldexp(m / 4.0, -2); return v & 32 ? -r : r; };
    for (int m32 = 0; m32 < 2; m32++) {
      const int M = m32 ? 32 : 16, K = m32 ? 64 : 128, G = 64 / M;
      std::vector<unsigned> ca(M * K), cb(K * M);   // codes: A[i][k], B[k][j]
      uint32_t seed = 12345u + (uint32_t)m32;
      for (auto &v : ca) { seed = seed * 1664525u + 1013904223u; v = seed >> 26; }
      for (auto &v : cb) { seed = seed * 1664525u + 1013904223u; v = seed >> 26; }
      std::vector<int> sa(64), sb(64);
      std::vector<uint32_t> pa(64 * 8, 0), pb(64 * 8, 0);
      for (int l = 0; l < 64; l++) {
        sa[l] = 125 + (l * 7) % 5; sb[l] = 126 + (l * 3) % 3;
        for (int e = 0; e < 32; e++) {
          int k = 32 * (l / M) + e, bit = 6 * e;
          uint64_t va = ca[(l % M) * K + k], vb = cb[k * M + l % M];
          // element e at bits 6e..6e+5 of the lane's dwords, straddling dword boundaries
          pa[l * 8 + bit / 32] |= (uint32_t)(va << (bit % 32)); if (bit % 32 > 26) pa[l * 8 + bit / 32 + 1] |= (uint32_t)(va >> (32 - bit % 32));
          pb[l * 8 + bit / 32] |= (uint32_t)(vb << (bit % 32)); if (bit % 32 > 26) pb[l * 8 + bit / 32 + 1] |= (uint32_t)(vb >> (32 - bit % 32));
        }
      }
      uint32_t *da, *db; int *dsa, *dsb; float *dd;
      VT_HIP(hipMalloc(&da, 64 * 32)); VT_HIP(hipMalloc(&db, 64 * 32)); VT_HIP(hipMalloc(&dsa, 256)); VT_HIP(hipMalloc(&dsb, 256));
      VT_HIP(hipMalloc(&dd, 64 * 16 * 4));
      VT_HIP(hipMemcpy(da, pa.data(), 64 * 32, hipMemcpyHostToDevice)); VT_HIP(hipMemcpy(db, pb.data(), 64 * 32, hipMemcpyHostToDevice));
      VT_HIP(hipMemcpy(dsa, sa.data(), 256, hipMemcpyHostToDevice)); VT_HIP(hipMemcpy(dsb, sb.data(), 256, hipMemcpyHostToDevice));
      hipLaunchKernelGGL(k_fp6, dim3(1), dim3(64), 0, 0, (const i8v *)da, (const i8v *)db, dsa, dsb, dd, m32);
      VT_HIP(hipGetLastError());
      VT_HIP(hipDeviceSynchronize());
      std::vector<float> d(64 * 16);
      VT_HIP(hipMemcpy(d.data(), dd, 64 * 16 * 4, hipMemcpyDeviceToHost));
      int bad = 0;
      for (int l = 0; l < 64; l++)
        for (int r = 0; r < M * M / 64; r++) {
          int j = l % M, i = M == 32 ? 8 * (r / 4) + 4 * (l / 32) + r % 4 : 4 * (l / 16) + r;
          double ref = 0, mag = 0;
          for (int k = 0; k < K; k++) {
            // the scales of A row i's / B column j's k block come from the lanes that hold them
            double t = (m32 ? bf6(ca[i * K + k]) : fp6(ca[i * K + k])) * (m32 ? fp6(cb[k * M + j]) : bf6(cb[k * M + j])) *
                       ldexp(1.0, sa[i + M * (k / 32)] - 127) * ldexp(1.0, sb[j + M * (k / 32)] - 127);
            ref += t; mag += fabs(t);
          }
          (void)G;
          float got = d[l * 16 + r];
          vt_checks++;
          if (fabs(got - ref) > 1e-6 * mag + 1e-30 && bad++ < 6)
            printf("  %s D[%d][%d] = %.9g, want %.9g\n", m32 ? "32x32x64 bf6*fp6" : "16x16x128 fp6*bf6", i, j, got, ref);
        }
      vt_failures += bad;
    }
  } else if (!strcmp(c, "tr_banks")) {
    unsigned *d_o;
    VT_HIP(hipMalloc(&d_o, 1024));
    hipLaunchKernelGGL(k_tr_banks, dim3(1), dim3(64), 0, 0, d_o);
    VT_HIP(hipGetLastError());
    VT_HIP(hipDeviceSynchronize());
    std::vector<unsigned> o(256);
    VT_HIP(hipMemcpy(o.data(), d_o, 1024, hipMemcpyDeviceToHost));
    auto hw = [](unsigned byte) { unsigned v = (byte / 4) * 2654435761u + 12345u; return (v >> (8 * (byte % 4))) & 0xffff; };
    for (int l = 0; l < 64; l++)
      for (int j = 0; j < 4; j++) {
        int g = l & ~15, i = l & 15, src = g + 4 * j + i / 4;
        unsigned got8 = (o[4 * l + j / 2] >> (16 * (j % 2))) & 0xffff, got256 = (o[4 * l + 2 + j / 2] >> (16 * (j % 2))) & 0xffff;
        vt_check_u32("tr_b16, 8 B stride", 4 * l + j, got8, hw(8u * src + 2u * (i % 4)));
        vt_check_u32("tr_b16, 256 B stride", 4 * l + j, got256, hw(256u * src + 2u * (i % 4)));
      }
  } else if (!strcmp(c, "tr_b4")) {
    unsigned *d_o;
    VT_HIP(hipMalloc(&d_o, 256));
    hipLaunchKernelGGL(k_tr_b4, dim3(1), dim3(64), 0, 0, d_o);
    hipError_t e = hipDeviceSynchronize();
    printf("tr_b4 launch: %s\n", hipGetErrorString(e));
    return e == hipSuccess ? 1 : 0;
  } else if (!strcmp(c, "read_tr16") || !strcmp(c, "read_tr8") || !strcmp(c, "read_tr_exec")) {
    int bits = c[7] == '8' ? 8 : 16, half = !strcmp(c, "read_tr_exec");
    unsigned *d_o;
    VT_HIP(hipMalloc(&d_o, 512));
    hipLaunchKernelGGL(k_read_tr, dim3(1), dim3(64), 0, 0, d_o, bits, half);
    hipError_t e = hipDeviceSynchronize();
    if (half) { printf("read_tr_exec launch: %s\n", hipGetErrorString(e)); return e == hipSuccess ? 1 : 0; }
    VT_HIP(e);
    std::vector<unsigned> o(128);
    VT_HIP(hipMemcpy(o.data(), d_o, 512, hipMemcpyDeviceToHost));
    // host LDS image and the documented rule, byte by byte
    std::vector<unsigned char> lds(4096);
    for (int i = 0; i < 1024; i++) {
      unsigned v = (unsigned)i * 2654435761u + 12345u;
      memcpy(&lds[4 * i], &v, 4);
    }
    int E = 64 / bits, eb = bits / 8;
    for (int l = 0; l < 64; l++) {
      unsigned char got[8], want[8];
      memcpy(got, &o[2 * l], 4); memcpy(got + 4, &o[2 * l + 1], 4);
      int g = l & ~15, i = l & 15;
      for (int j = 0; j < E; j++) {
        int src = g + j * (16 / E) + i / E;
        memcpy(want + j * eb, &lds[tr_addr(src) + 16 + (unsigned)(i % E) * eb], eb);
      }
      for (int b = 0; b < 8; b += 2)
        vt_check_u32(bits == 16 ? "ds_read_b64_tr_b16" : "ds_read_b64_tr_b8", l * 4 + b / 2,
                     got[b] | got[b + 1] << 8, want[b] | want[b + 1] << 8);
    }
  } else if (!strcmp(c, "cvt_fp8")) {
    std::vector<float> x;
    for (uint32_t u = 0; u < 65536; u++)
      for (int d = -1; d <= 1; d++) x.push_back(vt_u2f((u << 16) + (uint32_t)d));
    int n = (int)x.size();
    float *dx, *dd; unsigned *de;
    VT_HIP(hipMalloc(&dx, n * 4)); VT_HIP(hipMalloc(&de, n * 4)); VT_HIP(hipMalloc(&dd, 1024 * 4));
    VT_HIP(hipMemcpy(dx, x.data(), n * 4, hipMemcpyHostToDevice));
    hipLaunchKernelGGL(k_cvt_fp8, dim3((n + 255) / 256), dim3(256), 0, 0, dx, de, dd, n);
    VT_HIP(hipGetLastError());
    VT_HIP(hipDeviceSynchronize());
    std::vector<unsigned> e(n);
    std::vector<float> dc(1024);
    VT_HIP(hipMemcpy(e.data(), de, n * 4, hipMemcpyDeviceToHost));
    VT_HIP(hipMemcpy(dc.data(), dd, 1024 * 4, hipMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
      float v = x[i];
      unsigned want = (unsigned)tk_f32_to_ocp_e4m3_ref(v) | (unsigned)tk_f32_to_ocp_e5m2_ref(v) << 8;
      if (e[i] != want && bad++ < 8) printf("  cvt %a: got %04x want %04x (e4m3 low byte, e5m2 high)\n", v, e[i], want);
      vt_checks++;
    }
    vt_failures += bad;
    for (int code = 0; code < 256; code++) {
      float w4 = tk_ocp_e4m3_to_f32_ref((uint8_t)code), w5 = tk_ocp_e5m2_to_f32_ref((uint8_t)code);
      vt_check_f32("v_cvt_f32_fp8 (byte sel)", code, dc[4 * code], w4);
      vt_check_f32("v_cvt_f32_bf8", code, dc[4 * code + 1], w5);
      vt_check_f32("v_cvt_pk_f32_fp8 (word 1, lo)", code, dc[4 * code + 2], w4);
      vt_check_f32("v_cvt_pk_f32_bf8 (word 1, hi)", code, dc[4 * code + 3], w5);
    }
  } else {
    fprintf(stderr, "usage: gfx950 fp8_ocp|cvt_bf16|lds160|lds_x4|fp6|read_tr16|read_tr8|read_tr_exec|cvt_fp8|tr_banks|tr_b4\n");
    return 2;
  }
  printf("%d checks, %d failures\n", vt_checks, vt_failures);
  return vt_failures ? 1 : 0;
}
