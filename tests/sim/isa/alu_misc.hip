// alu_misc.hip: the less common VALU/SALU instructions, through clang's
// AMDGPU builtins and vector types, against host models written from the
// CDNA3 ISA guide's instruction descriptions:
//   v_perm_b32: byte i of D = selector byte i of S2 picking from {S0,S1}
//     (values 0-3: bytes of S1, 4-7: bytes of S0, 8-11: sign bits
//     S1[15],S1[31],S0[15],S0[31] replicated, 12: 0x00, >=13: 0xFF)
//   v_alignbit_b32 / v_alignbyte_b32: ({S0,S1} >> shift)[31:0]
//   v_med3_f32, v_sad_u8 (sum |a.byte-b.byte| + c), v_dot4_i32_i8,
//   v_dot4_u32_u8, v_dot2_i32_i16, v_dot2_f32_f16 (no clamp),
//   v_cvt_pkrtz_f16_f32 (round toward zero), v_cvt_pk_u16_u32 /
//   v_cvt_pk_i16_i32 (saturate), v_frexp_mant/exp_f32, v_fract_f32,
//   v_cvt_f32_fp8/bf8 and v_cvt_pk_f32_fp8 (exact widening, fpconv.h),
//   v_cvt_pk_fp8_f32 / v_cvt_pk_bf8_f32 (nearest even, in-range inputs only:
//   overflow behaviour differs with the clamp bit), packed VOP3P
//   (v_pk_add_u16, v_pk_max_i16, v_pk_mul_lo_u16, v_pk_fma_f16, v_pk_fma_f32,
//   v_pk_mul_f32, v_pk_add_f32), v_cmp_class_f32 via isinf/isnan/isnormal,
//   v_cvt_f32_ubyteN, and scalar ALU ops on uniform kernel arguments.
// Hardware approximations (v_rcp_f32, v_rsq_f32, v_exp_f32 = 2^x, v_log_f32 =
// log2, v_sin_f32 = sin(2*pi*x)) are checked to a stated tolerance (1e-6
// relative, plus 1e-7 absolute for sin near zero).
#include "vtest.h"
#include "fpconv.h"

#pragma clang fp contract(off)

typedef short s2 __attribute__((ext_vector_type(2)));
typedef unsigned short u2 __attribute__((ext_vector_type(2)));
typedef _Float16 h2 __attribute__((ext_vector_type(2)));
typedef float f2 __attribute__((ext_vector_type(2)));

enum {
  M_PERM, M_ALIGNBIT, M_ALIGNBYTE, M_MED3, M_SAD, M_SDOT4, M_UDOT4, M_SDOT2, M_FDOT2, M_PKRTZ,
  M_PK_U16, M_PK_I16, M_FREXP_MANT, M_FREXP_EXP, M_FRACT, M_FP8_TO_F, M_BF8_TO_F, M_PK_FP8_LO,
  M_PK_FP8_HI, M_F_TO_FP8, M_F_TO_BF8, M_PK_ADD_U16, M_PK_MAX_I16, M_PK_MUL_U16, M_PK_FMA_F16,
  M_PK_FMA_F32_X, M_PK_FMA_F32_Y, M_PK_MUL_F32_X, M_PK_ADD_F32_Y, M_CLASS, M_UBYTE, M_RCP, M_RSQ,
  M_EXP2, M_LOG2, M_SIN, NM
};
static const char *mname[NM] = {
  "v_perm_b32", "v_alignbit_b32", "v_alignbyte_b32", "v_med3_f32", "v_sad_u8", "v_dot4_i32_i8",
  "v_dot4_u32_u8", "v_dot2_i32_i16", "v_dot2_f32_f16", "v_cvt_pkrtz_f16_f32", "v_cvt_pk_u16_u32",
  "v_cvt_pk_i16_i32", "v_frexp_mant_f32", "v_frexp_exp_i32_f32", "v_fract_f32", "v_cvt_f32_fp8",
  "v_cvt_f32_bf8", "v_cvt_pk_f32_fp8 lo", "v_cvt_pk_f32_fp8 hi", "v_cvt_pk_fp8_f32",
  "v_cvt_pk_bf8_f32", "v_pk_add_u16", "v_pk_max_i16", "v_pk_mul_lo_u16", "v_pk_fma_f16",
  "v_pk_fma_f32 x", "v_pk_fma_f32 y", "v_pk_mul_f32 x", "v_pk_add_f32 y", "v_cmp_class_f32",
  "v_cvt_f32_ubyte", "v_rcp_f32", "v_rsq_f32", "v_exp_f32", "v_log_f32", "v_sin_f32" };

/* uniform-argument scalar results */
enum { S_POPC, S_FF1, S_FLBIT, S_BREV, S_BFE, S_MUL_HI, S_ABSDIFF, S_MIN, S_LSHL64_LO, S_LSHL64_HI, NS };
static const char *sname[NS] = { "s_bcnt1", "s_ff1", "s_flbit", "s_brev", "s_bfe_u32", "s_mul_hi_u32",
                                 "s_absdiff_i32", "s_min_i32", "s_lshl_b64 lo", "s_lshl_b64 hi" };

__global__ void misc(const uint32_t *A, const uint32_t *B, const uint32_t *C, const float *F,
                     const float *G, uint32_t *out, int n, uint32_t ua, uint32_t ub, uint32_t *sout)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) { /* scalar ALU on uniform values */
    sout[S_POPC] = (uint32_t)__popc(ua);
    sout[S_FF1] = (uint32_t)(__ffs((int)ua) - 1);
    sout[S_FLBIT] = (uint32_t)__clz((int)ub);
    sout[S_BREV] = __brev(ua);
    sout[S_BFE] = (ua >> (ub & 15)) & 0x3ffu;
    sout[S_MUL_HI] = (uint32_t)(((uint64_t)ua * ub) >> 32);
    int d = (int)ua - (int)ub;
    sout[S_ABSDIFF] = (uint32_t)(d < 0 ? -d : d);
    sout[S_MIN] = (uint32_t)min((int)ua, (int)ub);
    uint64_t w = ((uint64_t)ub << 32 | ua) << (ua & 31);
    sout[S_LSHL64_LO] = (uint32_t)w;
    sout[S_LSHL64_HI] = (uint32_t)(w >> 32);
  }
  if (i >= n) return;
  uint32_t a = A[i], b = B[i], c = C[i];
  float f = F[i], g = G[i];
  uint32_t *o = out + i;
  o[M_PERM * n] = __builtin_amdgcn_perm(a, b, c);
  o[M_ALIGNBIT * n] = __builtin_amdgcn_alignbit(a, b, c);
  o[M_ALIGNBYTE * n] = __builtin_amdgcn_alignbyte(a, b, c);
  o[M_MED3 * n] = __float_as_uint(__builtin_amdgcn_fmed3f(f, g, __uint_as_float(c & 0x80ffffffu)));
  o[M_SAD * n] = __builtin_amdgcn_sad_u8(a, b, c & 0xffff);
  o[M_SDOT4 * n] = (uint32_t)__builtin_amdgcn_sdot4((int)a, (int)b, (int)(c & 0xffff), false);
  o[M_UDOT4 * n] = __builtin_amdgcn_udot4(a, b, c & 0xffff, false);
  s2 sa = __builtin_bit_cast(s2, a), sb = __builtin_bit_cast(s2, b);
  o[M_SDOT2 * n] = (uint32_t)__builtin_amdgcn_sdot2(sa, sb, (int)(c & 0xfffff), false);
  /* small-integer halves: every product and sum exact */
  h2 ha = { (_Float16)(int)(a % 17 - 8), (_Float16)(int)((a >> 8) % 17 - 8) };
  h2 hb = { (_Float16)(int)(b % 17 - 8), (_Float16)(int)((b >> 8) % 17 - 8) };
  o[M_FDOT2 * n] = __float_as_uint(__builtin_amdgcn_fdot2(ha, hb, (float)(int)(c % 1001 - 500), false));
  o[M_PKRTZ * n] = __builtin_bit_cast(uint32_t, __builtin_amdgcn_cvt_pkrtz(f, g));
  o[M_PK_U16 * n] = __builtin_bit_cast(uint32_t, __builtin_amdgcn_cvt_pk_u16(a, b));
  o[M_PK_I16 * n] = __builtin_bit_cast(uint32_t, __builtin_amdgcn_cvt_pk_i16((int)a >> (c & 31), (int)b >> 12));
  o[M_FREXP_MANT * n] = __float_as_uint(__builtin_amdgcn_frexp_mantf(f));
  o[M_FREXP_EXP * n] = (uint32_t)__builtin_amdgcn_frexp_expf(f);
  o[M_FRACT * n] = __float_as_uint(__builtin_amdgcn_fractf(f));
  o[M_FP8_TO_F * n] = __float_as_uint(__builtin_amdgcn_cvt_f32_fp8((int)a, 2));
  o[M_BF8_TO_F * n] = __float_as_uint(__builtin_amdgcn_cvt_f32_bf8((int)a, 1));
  f2 pk = __builtin_amdgcn_cvt_pk_f32_fp8((int)b, true); /* bytes 2 and 3 */
  o[M_PK_FP8_LO * n] = __float_as_uint(pk.x);
  o[M_PK_FP8_HI * n] = __float_as_uint(pk.y);
  /* in-range values for the narrowing conversions */
  float fa = (float)(int)(a % 4001 - 2000) / 64.0f, fb = (float)(int)(b % 4001 - 2000) / 256.0f;
  o[M_F_TO_FP8 * n] = (uint32_t)__builtin_amdgcn_cvt_pk_fp8_f32(fa, fb, (int)0x5a5a0000, false);
  o[M_F_TO_BF8 * n] = (uint32_t)__builtin_amdgcn_cvt_pk_bf8_f32(fa, fb * 16.0f, (int)0x0000a5a5, true);
  u2 ua2 = __builtin_bit_cast(u2, a), ub2 = __builtin_bit_cast(u2, b);
  o[M_PK_ADD_U16 * n] = __builtin_bit_cast(uint32_t, ua2 + ub2);
  o[M_PK_MAX_I16 * n] = __builtin_bit_cast(uint32_t, __builtin_elementwise_max(sa, sb));
  o[M_PK_MUL_U16 * n] = __builtin_bit_cast(uint32_t, ua2 * ub2);
  h2 hc = { (_Float16)((float)(int)(c % 65 - 32) / 16.0f), (_Float16)((float)(int)((c >> 8) % 65 - 32) / 16.0f) };
  o[M_PK_FMA_F16 * n] = __builtin_bit_cast(uint32_t, __builtin_elementwise_fma(ha, hb, hc));
  f2 x2 = { f, g }, y2 = { g, __uint_as_float(c) }, z2 = { __uint_as_float(a), f };
  f2 r2 = __builtin_elementwise_fma(x2, y2, z2);
  o[M_PK_FMA_F32_X * n] = __float_as_uint(r2.x);
  o[M_PK_FMA_F32_Y * n] = __float_as_uint(r2.y);
  f2 m2 = x2 * y2, s2v = x2 + y2;
  o[M_PK_MUL_F32_X * n] = __float_as_uint(m2.x);
  o[M_PK_ADD_F32_Y * n] = __float_as_uint(s2v.y);
  o[M_CLASS * n] = (uint32_t)(__builtin_isinf(f) | __builtin_isnan(f) << 1 | __builtin_isnormal(f) << 2 |
                              __builtin_signbit(f) << 3 | (__builtin_fpclassify(0, 1, 2, 3, 4, f) << 4));
  o[M_UBYTE * n] = __float_as_uint((float)(a & 0xff) + (float)((a >> 8) & 0xff) * 2.0f +
                                   (float)((a >> 16) & 0xff) * 4.0f + (float)(a >> 24) * 8.0f);
  o[M_RCP * n] = __float_as_uint(__builtin_amdgcn_rcpf(f));
  o[M_RSQ * n] = __float_as_uint(__builtin_amdgcn_rsqf(fabsf(f)));
  o[M_EXP2 * n] = __float_as_uint(__builtin_amdgcn_exp2f(g));
  o[M_LOG2 * n] = __float_as_uint(__builtin_amdgcn_logf(fabsf(f)));
  o[M_SIN * n] = __float_as_uint(__builtin_amdgcn_sinf(g));
}

/* ---------------------------------------------------------------- host */
static uint32_t perm_ref(uint32_t s0, uint32_t s1, uint32_t sel)
{
  uint64_t v = ((uint64_t)s0 << 32) | s1;
  uint32_t r = 0;
  for (int k = 0; k < 4; k++) {
    uint32_t s = (sel >> (8 * k)) & 0xff, b;
    if (s < 8) b = (uint32_t)(v >> (8 * s)) & 0xff;
    else if (s == 8) b = (s1 >> 15) & 1 ? 0xff : 0;
    else if (s == 9) b = (s1 >> 31) & 1 ? 0xff : 0;
    else if (s == 10) b = (s0 >> 15) & 1 ? 0xff : 0;
    else if (s == 11) b = (s0 >> 31) & 1 ? 0xff : 0;
    else if (s == 12) b = 0;
    else b = 0xff;
    r |= b << (8 * k);
  }
  return r;
}

/* f32 -> binary16 rounding toward zero */
static uint16_t f2h_rtz(float f)
{
  uint32_t u = fc_bits(f);
  uint16_t s = (uint16_t)((u >> 16) & 0x8000);
  if (isnan(f)) return (uint16_t)(s | 0x7e00);
  if (isinf(f)) return (uint16_t)(s | 0x7c00);
  float a = fabsf(f);
  if (a >= 65536.0f) return (uint16_t)(s | 0x7bff); /* toward zero: largest finite */
  if (a < ldexpf(1.0f, -14)) return (uint16_t)(s | (uint16_t)truncf(a * 16777216.0f));
  int e;
  frexpf(a, &e);
  uint32_t mant = (uint32_t)truncf(ldexpf(a, 11 - e));
  int ee = e - 1 + 15;
  if (ee >= 31) return (uint16_t)(s | 0x7bff);
  return (uint16_t)(s | (uint16_t)(ee << 10) | (uint16_t)(mant - 1024));
}

/* nearest-even encoding into FP8 (E4M3FNUZ) / BF8 (E5M2FNUZ) for in-range
 * values: pick the nearest of all finite encodings, ties to even mantissa */
static uint8_t to_f8(float x, bool bf8)
{
  uint8_t best = 0;
  double bd = INFINITY;
  for (int v = 0; v < 256; v++) {
    if (v == 0x80) continue;
    double y = bf8 ? fc_bf8_to_f((uint8_t)v) : fc_fp8_to_f((uint8_t)v);
    double d = fabs(y - (double)x);
    if (d < bd || (d == bd && (v & 1) == 0 && (best & 1) == 1)) { bd = d; best = (uint8_t)v; }
  }
  if (x == 0.0f) return 0; /* FNUZ has one zero; -0 encodes as 0 */
  return best;
}

static float fdot2_ref(uint32_t a, uint32_t b, uint32_t c)
{
  double r = (double)(int)(a % 17 - 8) * (int)(b % 17 - 8) + (double)(int)((a >> 8) % 17 - 8) * (int)((b >> 8) % 17 - 8) +
             (double)(int)(c % 1001 - 500);
  return (float)r;
}

int main()
{
  const int n = 2048;
  std::vector<uint32_t> A(n), B(n), C(n);
  std::vector<float> F(n), G(n);
  uint64_t s = 606;
  const float fedge[] = { 0.0f, -0.0f, 1.0f, -1.5f, 3.75f, 1e-40f, -2.5e-39f, INFINITY, -INFINITY, NAN,
                          65519.0f, 65520.0f, -70000.0f, 1e-7f, 123.456f, -0.3f };
  for (int i = 0; i < n; i++) {
    A[i] = (uint32_t)vt_rand(&s); B[i] = (uint32_t)vt_rand(&s); C[i] = (uint32_t)vt_rand(&s);
    if (i % 4 == 1) C[i] = (uint32_t)(vt_rand(&s) % 16) * 0x01010101u + (uint32_t)(i % 13); /* selector bytes 0..15 */
    if (A[i] % 0x80 == 0) A[i] ^= 1;
    uint32_t uf = (uint32_t)vt_rand(&s), ug = (uint32_t)vt_rand(&s);
    F[i] = i < 16 ? fedge[i] : vt_u2f((uf & 0x87ffffffu) | 0x38000000u); /* |f| in [2^-15, 2^16) */
    G[i] = i < 16 ? fedge[(i * 5) % 16] : vt_u2f((ug & 0x83ffffffu) | 0x3c000000u);
    if (i % 7 == 3 && i >= 16) F[i] = vt_u2f(uf & 0x807fffffu); /* denormals */
  }
  const uint32_t ua = 0x8003f0a0u, ub = 0x0001234fu;
  vt_buf<uint32_t> dA(A), dB(B), dC(C), dout((size_t)n * NM), dsout(NS);
  vt_buf<float> dF(F), dG(G);
  dout.zero();
  misc<<<(n + 255) / 256, 256>>>(dA.d, dB.d, dC.d, dF.d, dG.d, dout.d, n, ua, ub, dsout.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto o = dout.get();
  auto so = dsout.get();
  auto got = [&](int op, int i) { return o[(size_t)op * n + i]; };
  auto gotf = [&](int op, int i) { return vt_u2f(o[(size_t)op * n + i]); };

  int d = (int)ua - (int)ub;
  uint64_t w = ((uint64_t)ub << 32 | ua) << (ua & 31);
  uint32_t sref[NS] = { (uint32_t)__builtin_popcount(ua), (uint32_t)__builtin_ctz(ua), (uint32_t)__builtin_clz(ub),
                        0, (ua >> (ub & 15)) & 0x3ffu, (uint32_t)(((uint64_t)ua * ub) >> 32),
                        (uint32_t)(d < 0 ? -d : d), (uint32_t)((int)ua < (int)ub ? (int)ua : (int)ub),
                        (uint32_t)w, (uint32_t)(w >> 32) };
  for (int k = 0; k < 32; k++) sref[3] |= ((ua >> k) & 1u) << (31 - k);
  for (int k = 0; k < NS; k++) vt_check_u32(sname[k], k, so[k], sref[k]);

  for (int i = 0; i < n; i++) {
    uint32_t a = A[i], b = B[i], c = C[i];
    float f = F[i], g = G[i];
    vt_check_u32(mname[M_PERM], i, got(M_PERM, i), perm_ref(a, b, c));
    vt_check_u32(mname[M_ALIGNBIT], i, got(M_ALIGNBIT, i), (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)));
    vt_check_u32(mname[M_ALIGNBYTE], i, got(M_ALIGNBYTE, i), (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3))));
    float h = vt_u2f(c & 0x80ffffffu);
    if (!isnan(f) && !isnan(g)) {
      float med = fmaxf(fminf(f, g), fminf(fmaxf(f, g), h));
      if (med == 0.0f) vt_check_u32("v_med3_f32 (zero of either sign)", i, got(M_MED3, i) & 0x7fffffffu, 0);
      else vt_check_f32(mname[M_MED3], i, gotf(M_MED3, i), med);
    }
    uint32_t sad = c & 0xffff;
    for (int k = 0; k < 4; k++) sad += (uint32_t)abs((int)((a >> 8 * k) & 0xff) - (int)((b >> 8 * k) & 0xff));
    vt_check_u32(mname[M_SAD], i, got(M_SAD, i), sad);
    int sd = (int)(c & 0xffff);
    uint32_t udt = c & 0xffff;
    for (int k = 0; k < 4; k++) {
      sd += (int)(int8_t)(a >> 8 * k) * (int)(int8_t)(b >> 8 * k);
      udt += ((a >> 8 * k) & 0xff) * ((b >> 8 * k) & 0xff);
    }
    vt_check_u32(mname[M_SDOT4], i, got(M_SDOT4, i), (uint32_t)sd);
    vt_check_u32(mname[M_UDOT4], i, got(M_UDOT4, i), udt);
    int64_t sd2 = (int64_t)(c & 0xfffff) + (int64_t)(int16_t)a * (int16_t)b + (int64_t)(int16_t)(a >> 16) * (int16_t)(b >> 16);
    vt_check_u32(mname[M_SDOT2], i, got(M_SDOT2, i), (uint32_t)(uint64_t)sd2); /* no clamp: wraps */
    vt_check_f32(mname[M_FDOT2], i, gotf(M_FDOT2, i), fdot2_ref(a, b, c));
    uint32_t rtz = f2h_rtz(f) | (uint32_t)f2h_rtz(g) << 16;
    if (!isnan(f) && !isnan(g)) vt_check_u32(mname[M_PKRTZ], i, got(M_PKRTZ, i), rtz);
    vt_check_u32(mname[M_PK_U16], i, got(M_PK_U16, i), (a > 0xffff ? 0xffffu : a) | (b > 0xffff ? 0xffffu : b) << 16);
    int x = (int)a >> (c & 31), y = (int)b >> 12;
    x = x < -32768 ? -32768 : x > 32767 ? 32767 : x;
    y = y < -32768 ? -32768 : y > 32767 ? 32767 : y;
    vt_check_u32(mname[M_PK_I16], i, got(M_PK_I16, i), ((uint32_t)x & 0xffff) | ((uint32_t)y & 0xffff) << 16);
    if (isfinite(f)) {
      int e = 0;
      float m = frexpf(f, &e);
      vt_check_f32(mname[M_FREXP_MANT], i, gotf(M_FREXP_MANT, i), m);
      vt_check_u32(mname[M_FREXP_EXP], i, got(M_FREXP_EXP, i), (uint32_t)e);
      float fr = f - floorf(f);
      if (fr >= 1.0f) fr = vt_u2f(0x3f7fffffu); /* clamped below 1 */
      if (f != 0.0f) vt_check_f32(mname[M_FRACT], i, gotf(M_FRACT, i), fr); /* sign of fract(+-0) unchecked */
    }
    vt_check_f32(mname[M_FP8_TO_F], i, gotf(M_FP8_TO_F, i), fc_fp8_to_f((uint8_t)(a >> 16)));
    vt_check_f32(mname[M_BF8_TO_F], i, gotf(M_BF8_TO_F, i), fc_bf8_to_f((uint8_t)(a >> 8)));
    vt_check_f32(mname[M_PK_FP8_LO], i, gotf(M_PK_FP8_LO, i), fc_fp8_to_f((uint8_t)(b >> 16)));
    vt_check_f32(mname[M_PK_FP8_HI], i, gotf(M_PK_FP8_HI, i), fc_fp8_to_f((uint8_t)(b >> 24)));
    float fa = (float)(int)(a % 4001 - 2000) / 64.0f, fb = (float)(int)(b % 4001 - 2000) / 256.0f;
    vt_check_u32(mname[M_F_TO_FP8], i, got(M_F_TO_FP8, i),
                 0x5a5a0000u | to_f8(fa, false) | (uint32_t)to_f8(fb, false) << 8);
    vt_check_u32(mname[M_F_TO_BF8], i, got(M_F_TO_BF8, i),
                 0x0000a5a5u | (uint32_t)to_f8(fa, true) << 16 | (uint32_t)to_f8(fb * 16.0f, true) << 24);
    uint32_t pa = ((a + b) & 0xffff) | (((a >> 16) + (b >> 16)) & 0xffff) << 16;
    vt_check_u32(mname[M_PK_ADD_U16], i, got(M_PK_ADD_U16, i), pa);
    int16_t m0 = (int16_t)a > (int16_t)b ? (int16_t)a : (int16_t)b;
    int16_t m1 = (int16_t)(a >> 16) > (int16_t)(b >> 16) ? (int16_t)(a >> 16) : (int16_t)(b >> 16);
    vt_check_u32(mname[M_PK_MAX_I16], i, got(M_PK_MAX_I16, i), (uint16_t)m0 | (uint32_t)(uint16_t)m1 << 16);
    uint32_t pm = ((a & 0xffff) * (b & 0xffff) & 0xffff) | (((a >> 16) * (b >> 16)) & 0xffff) << 16;
    vt_check_u32(mname[M_PK_MUL_U16], i, got(M_PK_MUL_U16, i), pm);
    double hf0 = (double)(int)(a % 17 - 8) * (int)(b % 17 - 8) + (double)(int)(c % 65 - 32) / 16.0;
    double hf1 = (double)(int)((a >> 8) % 17 - 8) * (int)((b >> 8) % 17 - 8) + (double)(int)((c >> 8) % 65 - 32) / 16.0;
    vt_check_u32(mname[M_PK_FMA_F16], i, got(M_PK_FMA_F16, i), fc_f2h((float)hf0) | (uint32_t)fc_f2h((float)hf1) << 16);
    vt_check_f32(mname[M_PK_FMA_F32_X], i, gotf(M_PK_FMA_F32_X, i), fmaf(f, g, vt_u2f(a)));
    vt_check_f32(mname[M_PK_FMA_F32_Y], i, gotf(M_PK_FMA_F32_Y, i), fmaf(g, vt_u2f(c), f));
    vt_check_f32(mname[M_PK_MUL_F32_X], i, gotf(M_PK_MUL_F32_X, i), f * g);
    vt_check_f32(mname[M_PK_ADD_F32_Y], i, gotf(M_PK_ADD_F32_Y, i), g + vt_u2f(c));
    int cls = fpclassify(f);
    int cidx = cls == FP_NAN ? 0 : cls == FP_INFINITE ? 1 : cls == FP_NORMAL ? 2 : cls == FP_SUBNORMAL ? 3 : 4;
    uint32_t cref = (uint32_t)(!!isinf(f) | (!!isnan(f)) << 1 | (!!isnormal(f)) << 2 | (!!signbit(f)) << 3 | cidx << 4);
    vt_check_u32(mname[M_CLASS], i, got(M_CLASS, i), cref);
    float ub4 = (float)(a & 0xff) + (float)((a >> 8) & 0xff) * 2.0f + (float)((a >> 16) & 0xff) * 4.0f + (float)(a >> 24) * 8.0f;
    vt_check_f32(mname[M_UBYTE], i, gotf(M_UBYTE, i), ub4);
    if (isnormal(f) && fabsf(f) < 1e30f) {
      vt_check_near(mname[M_RCP], i, gotf(M_RCP, i), 1.0 / f, 1e-6, 0);
      vt_check_near(mname[M_RSQ], i, gotf(M_RSQ, i), 1.0 / sqrt(fabs((double)f)), 1e-6, 0);
      vt_check_near(mname[M_LOG2], i, gotf(M_LOG2, i), log2(fabs((double)f)), 1e-6, 1e-7);
    }
    if (isfinite(g) && fabsf(g) < 100.0f) {
      vt_check_near(mname[M_EXP2], i, gotf(M_EXP2, i), exp2((double)g), 1e-6, 0);
      if (fabsf(g) < 256.0f) vt_check_near(mname[M_SIN], i, gotf(M_SIN, i), sin(2 * M_PI * (double)g), 1e-5, 2e-6);
    }
  }
  return vt_finish("alu_misc");
}
