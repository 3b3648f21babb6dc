// coverage_more.hip: instructions tksim learned from its ISA coverage list
// (docs/tksim-exec.md "ISA coverage"), each against a host model written from
// the CDNA3 ISA guide's description (the same on gfx942 and gfx950; the ctest
// runs the program under both):
//  * f16 multiply-add forms: v_mad_f16 / v_mad_legacy_f16 / v_mac_f16 /
//    v_madak_f16 / v_madmk_f16 are MADs (product rounded to f16, then the sum
//    rounded), v_fma_legacy_f16 and v_pk_fmac_f16 fused; v_div_fixup_legacy_f16
//    is S2 / S1 for ordinary operands;
//  * v_exp_legacy_f32 / v_log_legacy_f32 on exactly representable results;
//  * v_cvt_norm_{i16,u16}_f16 and v_cvt_pknorm_{i16,u16}_f16: clamp to
//    [-1,1] / [0,1], scale by 32767 / 65535, round to nearest;
//  * v_cvt_pkaccum_u8_f32: byte S1[1:0] of D = S0 rounded and clamped to u8;
//  * v_cube{id,sc,tc,ma}_f32: the OpenGL cube-map face table (major axis z,
//    then y, then x on ties; ma = 2 * the major coordinate);
//  * LDS: ds_mskor_b32 / _rtn_b32 ((old & ~DATA) | DATA2), ds_wrxchg2_rtn_b32 and
//    st64 (two exchanges), ds_wrap_rtn_b32 (old >= DATA ? old - DATA : old +
//    DATA2), ds_write/read_addtid_b32 (M0 + offset + 4 * lane),
//    ds_append / ds_consume (the counter at M0 + offset moves by the active
//    lane count; every lane gets the old value);
//  * global_load_lds_{ubyte,sbyte,ushort,sshort}: zero/sign-extended into the
//    lane's dword slot at M0 + 4 * lane (ASSUMPTION, see docs/tksim-exec.md);
//  * v_msad_u8: S2 + byte SADs, bytes whose S1 (reference) byte is 0 skipped
//    (the ISA description's "second input (known as the reference input)";
//    Mesa passes NIR msad_4x8's reference as llvm.amdgcn.msad.u8's S1);
//  * ds_gws_sema_v / _br / _p / _release_all: wave 0 waits in _p until
//    wave 1 releases (count++, count += data, or release of all waiters);
//  * s_rfe_b64 / s_rfe_restore_b64: PC = S0;
//  * scalar: s_call_b64 (return address, jump), debugger branches not taken,
//    s_wakeup / s_incperflevel / s_decperflevel / s_atc_probe without effect;
//  * typed buffers: tbuffer_load/store_format_* with the format in the
//    instruction, buffer_load/store_format_* with the format in the
//    descriptor, d16 forms; unorm/snorm/uscaled/sint/float conversions.
#include "vtest.h"

typedef _Float16 h16;
typedef uint32_t u32x4 __attribute__((ext_vector_type(4)));
typedef uint32_t u32x2 __attribute__((ext_vector_type(2)));
static inline uint16_t hb(h16 x) { uint16_t u; memcpy(&u, &x, 2); return u; }
static inline h16 bh(uint16_t u) { h16 x; memcpy(&x, &u, 2); return x; }
static inline float hf(uint32_t u) { return (float)bh((uint16_t)u); }

enum { V_MAD, V_MADL, V_MAC, V_MADAK, V_MADMK, V_FMAL, V_FIXL, V_PKFMAC, V_EXPL, V_LOGL, V_NORMI, V_NORMU,
       V_PKNI, V_PKNU, V_ACC, V_CID, V_CSC, V_CTC, V_CMA, V_MSAD, NV };
static const char *v_name[NV] = { "v_mad_f16", "v_mad_legacy_f16", "v_mac_f16", "v_madak_f16", "v_madmk_f16",
  "v_fma_legacy_f16", "v_div_fixup_legacy_f16", "v_pk_fmac_f16", "v_exp_legacy_f32", "v_log_legacy_f32",
  "v_cvt_norm_i16_f16", "v_cvt_norm_u16_f16", "v_cvt_pknorm_i16_f16", "v_cvt_pknorm_u16_f16",
  "v_cvt_pkaccum_u8_f32", "v_cubeid_f32", "v_cubesc_f32", "v_cubetc_f32", "v_cubema_f32", "v_msad_u8" };

// in: per lane 8 dwords: a, b, c (f16 pairs), e (int), lg (f32 2^n), nrm (f16 pair), x, y, z packed below
__global__ void k_valu(const uint32_t *in, uint32_t *out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t *p = in + 10 * i;
  uint32_t a = p[0], b = p[1], c = p[2], r;
  uint32_t *o = out + NV * i;
  asm volatile("v_mad_f16 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[V_MAD] = r;
  asm volatile("v_mad_legacy_f16 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[V_MADL] = r;
  r = c; asm volatile("v_mac_f16 %0, %1, %2" : "+v"(r) : "v"(a), "v"(b)); o[V_MAC] = r & 0xffff;
  asm volatile("v_madak_f16 %0, %1, %2, 0x4100" : "=v"(r) : "v"(a), "v"(b)); o[V_MADAK] = r & 0xffff; /* K = 2.5 */
  asm volatile("v_madmk_f16 %0, %1, 0xbc00, %2" : "=v"(r) : "v"(a), "v"(c)); o[V_MADMK] = r & 0xffff; /* K = -1 */
  asm volatile("v_fma_legacy_f16 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[V_FMAL] = r;
  asm volatile("v_div_fixup_legacy_f16 %0, %1, %2, %3" : "=v"(r) : "v"(a), "v"(b), "v"(c)); o[V_FIXL] = r;
  r = c; asm volatile("v_pk_fmac_f16 %0, %1, %2" : "+v"(r) : "v"(a), "v"(b)); o[V_PKFMAC] = r;
  asm volatile("v_exp_legacy_f32 %0, %1" : "=v"(r) : "v"(p[3])); o[V_EXPL] = r;
  asm volatile("v_log_legacy_f32 %0, %1" : "=v"(r) : "v"(p[4])); o[V_LOGL] = r;
  asm volatile("v_cvt_norm_i16_f16 %0, %1" : "=v"(r) : "v"(p[5])); o[V_NORMI] = r & 0xffff;
  asm volatile("v_cvt_norm_u16_f16 %0, %1" : "=v"(r) : "v"(p[5])); o[V_NORMU] = r & 0xffff;
  asm volatile("v_cvt_pknorm_i16_f16 %0, %1, %2 op_sel:[1,0,0]" : "=v"(r) : "v"(p[5]), "v"(a)); o[V_PKNI] = r;
  asm volatile("v_cvt_pknorm_u16_f16 %0, %1, %2" : "=v"(r) : "v"(p[5]), "v"(b)); o[V_PKNU] = r;
  r = 0x11223344u; asm volatile("v_cvt_pkaccum_u8_f32 %0, %1, %2" : "+v"(r) : "v"(p[6]), "v"((uint32_t)i)); o[V_ACC] = r;
  asm volatile("v_cubeid_f32 %0, %1, %2, %3" : "=v"(r) : "v"(p[7]), "v"(p[8]), "v"(p[9])); o[V_CID] = r;
  asm volatile("v_cubesc_f32 %0, %1, %2, %3" : "=v"(r) : "v"(p[7]), "v"(p[8]), "v"(p[9])); o[V_CSC] = r;
  asm volatile("v_cubetc_f32 %0, %1, %2, %3" : "=v"(r) : "v"(p[7]), "v"(p[8]), "v"(p[9])); o[V_CTC] = r;
  asm volatile("v_cubema_f32 %0, %1, %2, %3" : "=v"(r) : "v"(p[7]), "v"(p[8]), "v"(p[9])); o[V_CMA] = r;
  /* reference (S1) bytes with a zero byte, so the mask matters */
  asm volatile("v_msad_u8 %0, %1, %2, %3" : "=v"(r) : "v"(b), "v"(a & 0xff00ffffu), "v"(c)); o[V_MSAD] = r;
}

static h16 mad16(h16 x, h16 y, h16 z) { h16 pr = (h16)((float)x * (float)y); return (h16)((double)pr + (double)z); }
static h16 fma16(h16 x, h16 y, h16 z) { return (h16)((double)x * (double)y + (double)z); }
static uint32_t nrm(float x, int u)
{
  if (u) return (uint32_t)(int32_t)rint((x < 0 ? 0 : x > 1 ? 1 : x) * 65535.0) & 0xffff;
  return (uint32_t)(int32_t)rint((x < -1 ? -1 : x > 1 ? 1 : x) * 32767.0) & 0xffff;
}

static void check_valu()
{
  const int n = 256;
  std::vector<uint32_t> in(10 * n);
  uint64_t s = 12345;
  auto rh = [&](int range) { return (uint32_t)hb((h16)((float)((int)(vt_rand(&s) % (2 * range * 64 + 1)) - range * 64) / 64.0f)); };
  for (int i = 0; i < n; i++) {
    uint32_t *p = &in[10 * i];
    p[0] = rh(4) | (rh(4) << 16); p[1] = rh(4) | (rh(4) << 16); p[2] = rh(8) | (rh(8) << 16);
    if ((p[1] & 0x7fff) == 0) p[1] |= 0x3c00; /* a non-zero divisor */
    p[3] = vt_f2u((float)((int)(vt_rand(&s) % 41) - 20));
    p[4] = vt_f2u(ldexpf(1.0f, (int)(vt_rand(&s) % 61) - 30));
    p[5] = rh(2) | (rh(2) << 16);
    p[6] = vt_f2u((float)((int)(vt_rand(&s) % 3201) - 400) / 10.0f);
    for (int k = 7; k < 10; k++) p[k] = vt_f2u((float)((int)(vt_rand(&s) % 801) - 400) / 100.0f);
  }
  vt_buf<uint32_t> din(in), dout((size_t)n * NV);
  k_valu<<<n / 64, 64>>>(din.d, dout.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto o = dout.get();
  for (int i = 0; i < n; i++) {
    const uint32_t *p = &in[10 * i], *g = &o[(size_t)NV * i];
    h16 a = bh((uint16_t)p[0]), b = bh((uint16_t)p[1]), c = bh((uint16_t)p[2]);
    h16 ah = bh((uint16_t)(p[0] >> 16)), bhh = bh((uint16_t)(p[1] >> 16)), ch = bh((uint16_t)(p[2] >> 16));
    vt_check_u32(v_name[V_MAD], i, g[V_MAD], hb(mad16(a, b, c)));
    vt_check_u32(v_name[V_MADL], i, g[V_MADL], hb(mad16(a, b, c)));
    vt_check_u32(v_name[V_MAC], i, g[V_MAC], hb(mad16(a, b, c)));
    vt_check_u32(v_name[V_MADAK], i, g[V_MADAK], hb(mad16(a, b, (h16)2.5f)));
    vt_check_u32(v_name[V_MADMK], i, g[V_MADMK], hb(mad16(a, (h16)-1.0f, c)));
    vt_check_u32(v_name[V_FMAL], i, g[V_FMAL], hb(fma16(a, b, c)));
    vt_check_u32(v_name[V_FIXL], i, g[V_FIXL], hb((h16)((float)c / (float)b)));
    vt_check_u32(v_name[V_PKFMAC], i, g[V_PKFMAC], hb(fma16(a, b, c)) | ((uint32_t)hb(fma16(ah, bhh, ch)) << 16));
    vt_check_f32(v_name[V_EXPL], i, vt_u2f(g[V_EXPL]), ldexpf(1.0f, (int)vt_u2f(p[3])));
    vt_check_f32(v_name[V_LOGL], i, vt_u2f(g[V_LOGL]), (float)ilogbf(vt_u2f(p[4])));
    float nl = hf(p[5]), nh = hf(p[5] >> 16);
    vt_check_u32(v_name[V_NORMI], i, g[V_NORMI], nrm(nl, 0));
    vt_check_u32(v_name[V_NORMU], i, g[V_NORMU], nrm(nl, 1));
    vt_check_u32(v_name[V_PKNI], i, g[V_PKNI], nrm(nh, 0) | (nrm((float)a, 0) << 16));
    vt_check_u32(v_name[V_PKNU], i, g[V_PKNU], nrm(nl, 1) | (nrm((float)b, 1) << 16));
    float q = rintf(vt_u2f(p[6]));
    uint32_t u8 = q <= 0 ? 0 : q >= 255 ? 255 : (uint32_t)q, sh = 8 * (i & 3);
    vt_check_u32(v_name[V_ACC], i, g[V_ACC], (0x11223344u & ~(0xffu << sh)) | (u8 << sh));
    /* OpenGL cube-map table: +x: (sc,tc) = (-z,-y); -x: (z,-y); +y: (x,z); -y: (x,-z); +z: (x,-y); -z: (-x,-y) */
    float x = vt_u2f(p[7]), y = vt_u2f(p[8]), z = vt_u2f(p[9]), id, sc, tc, ma;
    if (fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y)) { id = z >= 0 ? 4 : 5; sc = z >= 0 ? x : -x; tc = -y; ma = z; }
    else if (fabsf(y) >= fabsf(x)) { id = y >= 0 ? 2 : 3; sc = x; tc = y >= 0 ? z : -z; ma = y; }
    else { id = x >= 0 ? 0 : 1; sc = x >= 0 ? -z : z; tc = -y; ma = x; }
    vt_check_f32(v_name[V_CID], i, vt_u2f(g[V_CID]), id);
    vt_check_f32(v_name[V_CSC], i, vt_u2f(g[V_CSC]), sc);
    vt_check_f32(v_name[V_CTC], i, vt_u2f(g[V_CTC]), tc);
    vt_check_f32(v_name[V_CMA], i, vt_u2f(g[V_CMA]), 2.0f * ma);
    /* masked SAD: bytes whose reference (S1) byte is 0 are skipped */
    uint32_t ref = p[0] & 0xff00ffffu, sad = p[2];
    for (int k = 0; k < 4; k++) { uint32_t rb = (ref >> (8 * k)) & 0xff, sb = (p[1] >> (8 * k)) & 0xff; if (rb) sad += rb > sb ? rb - sb : sb - rb; }
    vt_check_u32(v_name[V_MSAD], i, g[V_MSAD], sad);
  }
}

// ---------------------------------------------------------------- LDS
enum { L_MSKOR, L_MSKOR_RTN, L_X2_0, L_X2_1, L_X2_MEM0, L_X2_MEM1, L_X64_0, L_X64_1, L_WRAP_RTN, L_WRAP_MEM, L_ADDTID,
       L_APPEND, L_CONSUME, L_COUNTER, NL };
static const char *l_name[NL] = { "ds_mskor_b32", "ds_mskor_rtn_b32", "ds_wrxchg2_rtn_b32 old0", "ds_wrxchg2_rtn_b32 old1",
  "ds_wrxchg2_rtn_b32 mem0", "ds_wrxchg2_rtn_b32 mem1", "ds_wrxchg2st64_rtn_b32 old0", "ds_wrxchg2st64_rtn_b32 old1",
  "ds_wrap_rtn_b32", "ds_wrap_rtn_b32 mem", "ds_write/read_addtid_b32", "ds_append", "ds_consume", "append/consume counter" };

__global__ void k_lds(const uint32_t *in, uint32_t *out)
{
  __shared__ uint32_t s[64 * 4 + 64 * 64 * 2];
  int t = threadIdx.x;
  uint32_t base = (uint32_t)(uintptr_t)s;
  uint32_t d0 = in[3 * t], d1 = in[3 * t + 1], init = in[3 * t + 2], r0, r1;
  uint32_t *o = out + NL * t;
  u32x2 h2;
  /* region 0: lanes' own dwords for mskor (plain then rtn) */
  s[t] = init; s[64 + t] = init; s[128 + t] = init; s[192 + t] = init;
  __syncthreads();
  uint32_t a0 = base + 4u * (uint32_t)t, a1 = base + 256u + 4u * (uint32_t)t;
  asm volatile("ds_mskor_b32 %0, %1, %2\n\ts_waitcnt lgkmcnt(0)" : : "v"(a0), "v"(d0), "v"(d1) : "memory");
  o[L_MSKOR] = s[t];
  asm volatile("ds_mskor_rtn_b32 %0, %1, %2, %3\n\ts_waitcnt lgkmcnt(0)" : "=v"(r0) : "v"(a1), "v"(d0), "v"(d1) : "memory");
  o[L_MSKOR_RTN] = r0;
  /* wrxchg2: offsets 0 and 64 dwords from the lane's base in region 1 */
  uint32_t b2 = base + 512u + 4u * (uint32_t)t;
  s[128 + t] = init ^ 0x5555u; s[128 + 64 + t] = init ^ 0xaaaau;
  __syncthreads();
  asm volatile("ds_wrxchg2_rtn_b32 %0, %1, %2, %3 offset1:64\n\ts_waitcnt lgkmcnt(0)" : "=v"(h2) : "v"(b2), "v"(d0), "v"(d1) : "memory"); o[L_X2_0] = h2.x; o[L_X2_0 + 1] = h2.y;
  o[L_X2_MEM0] = s[128 + t]; o[L_X2_MEM1] = s[128 + 64 + t];
  /* st64: offsets 1 and 2 in units of 64 dwords past region 2 */
  uint32_t *r2 = s + 256;
  r2[64 + t] = init + 1; r2[128 + t] = init + 2;
  __syncthreads();
  asm volatile("ds_wrxchg2st64_rtn_b32 %0, %1, %2, %3 offset0:1 offset1:2\n\ts_waitcnt lgkmcnt(0)" : "=v"(h2) : "v"(base + 1024u + 4u * (uint32_t)t), "v"(d0), "v"(d1) : "memory"); o[L_X64_0] = h2.x; o[L_X64_0 + 1] = h2.y;
  /* wrap */
  s[t] = init;
  __syncthreads();
  asm volatile("ds_wrap_rtn_b32 %0, %1, %2, %3\n\ts_waitcnt lgkmcnt(0)" : "=v"(r0) : "v"(a0), "v"(d0 & 0xffff), "v"(d1 & 0xffff) : "memory");
  o[L_WRAP_RTN] = r0; o[L_WRAP_MEM] = s[t];
  __syncthreads();
  /* addtid: write d0 at M0 + 8 + 4 * lane (region 3), read it back at M0 + 4 * lane + 8 */
  asm volatile("s_mov_b32 m0, %1\n\ts_nop 0\n\tds_write_addtid_b32 %2 offset:8\n\ts_waitcnt lgkmcnt(0)\n\t"
               "ds_read_addtid_b32 %0 offset:8\n\ts_waitcnt lgkmcnt(0)"
               : "=v"(r0) : "s"(base + 2048u), "v"(d0) : "memory", "m0");
  o[L_ADDTID] = r0 ^ (s[512 + 2 + t] == d0 ? 0 : 0x80000000u);
  /* append/consume on a counter at dword 700; lanes with bit 0 of d0 set take part */
  if (t == 0) s[700] = 1000;
  __syncthreads();
  if (d0 & 1) asm volatile("s_mov_b32 m0, %1\n\ts_nop 0\n\tds_append %0 offset:4\n\ts_waitcnt lgkmcnt(0)" : "=v"(r0) : "s"(base + 2796u) : "memory", "m0");
  else r0 = 0;
  o[L_APPEND] = r0;
  if (d1 & 1) asm volatile("s_mov_b32 m0, %1\n\ts_nop 0\n\tds_consume %0 offset:4\n\ts_waitcnt lgkmcnt(0)" : "=v"(r1) : "s"(base + 2796u) : "memory", "m0");
  else r1 = 0;
  o[L_CONSUME] = r1;
  __syncthreads();
  o[L_COUNTER] = s[700];
}

static void check_lds()
{
  std::vector<uint32_t> in(3 * 64);
  uint64_t s = 99;
  for (auto &x : in) x = (uint32_t)vt_rand(&s);
  vt_buf<uint32_t> din(in), dout(64 * NL);
  k_lds<<<1, 64>>>(din.d, dout.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto o = dout.get();
  uint32_t na = 0, nc = 0;
  for (int t = 0; t < 64; t++) { na += in[3 * t] & 1; nc += in[3 * t + 1] & 1; }
  for (int t = 0; t < 64; t++) {
    uint32_t d0 = in[3 * t], d1 = in[3 * t + 1], init = in[3 * t + 2];
    const uint32_t *g = &o[NL * t];
    vt_check_u32(l_name[L_MSKOR], t, g[L_MSKOR], (init & ~d0) | d1);
    vt_check_u32(l_name[L_MSKOR_RTN], t, g[L_MSKOR_RTN], init);
    vt_check_u32(l_name[L_X2_0], t, g[L_X2_0], init ^ 0x5555u);
    vt_check_u32(l_name[L_X2_1], t, g[L_X2_1], init ^ 0xaaaau);
    vt_check_u32(l_name[L_X2_MEM0], t, g[L_X2_MEM0], d0);
    vt_check_u32(l_name[L_X2_MEM1], t, g[L_X2_MEM1], d1);
    vt_check_u32(l_name[L_X64_0], t, g[L_X64_0], init + 1);
    vt_check_u32(l_name[L_X64_1], t, g[L_X64_1], init + 2);
    uint32_t w0 = d0 & 0xffff, w1 = d1 & 0xffff;
    vt_check_u32(l_name[L_WRAP_RTN], t, g[L_WRAP_RTN], init);
    vt_check_u32(l_name[L_WRAP_MEM], t, g[L_WRAP_MEM], init >= w0 ? init - w0 : init + w1);
    vt_check_u32(l_name[L_ADDTID], t, g[L_ADDTID], d0);
    vt_check_u32(l_name[L_APPEND], t, g[L_APPEND], (d0 & 1) ? 1000u : 0u);
    vt_check_u32(l_name[L_CONSUME], t, g[L_CONSUME], (d1 & 1) ? 1000u + na : 0u);
    vt_check_u32(l_name[L_COUNTER], t, g[L_COUNTER], 1000u + na - nc);
  }
}

// ---------------------------------------------------------------- sub-dword LDS-direct loads
__global__ void k_load_lds(const uint8_t *g, uint32_t *out)
{
  __shared__ uint32_t s[4 * 64];
  int t = threadIdx.x;
  uint32_t base = (uint32_t)(uintptr_t)s;
  asm volatile("s_mov_b32 m0, %0\n\ts_nop 0\n\tglobal_load_lds_ubyte %1, off\n\ts_waitcnt vmcnt(0)"
               : : "s"(base), "v"(g + t) : "memory", "m0");
  asm volatile("s_mov_b32 m0, %0\n\ts_nop 0\n\tglobal_load_lds_sbyte %1, off\n\ts_waitcnt vmcnt(0)"
               : : "s"(base + 256u), "v"(g + t) : "memory", "m0");
  asm volatile("s_mov_b32 m0, %0\n\ts_nop 0\n\tglobal_load_lds_ushort %1, off\n\ts_waitcnt vmcnt(0)"
               : : "s"(base + 512u), "v"(g + 2 * t) : "memory", "m0");
  asm volatile("s_mov_b32 m0, %0\n\ts_nop 0\n\tglobal_load_lds_sshort %1, off\n\ts_waitcnt vmcnt(0)"
               : : "s"(base + 768u), "v"(g + 2 * t) : "memory", "m0");
  __syncthreads();
  for (int k = 0; k < 4; k++) out[4 * t + k] = s[64 * k + t];
}

static void check_load_lds()
{
  std::vector<uint8_t> g(256);
  uint64_t s = 5;
  for (auto &x : g) x = (uint8_t)vt_rand(&s);
  vt_buf<uint8_t> dg(g);
  vt_buf<uint32_t> dout(256);
  k_load_lds<<<1, 64>>>(dg.d, dout.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto o = dout.get();
  for (int t = 0; t < 64; t++) {
    uint16_t h = (uint16_t)(g[2 * t] | (g[2 * t + 1] << 8));
    vt_check_u32("global_load_lds_ubyte", t, o[4 * t], g[t]);
    vt_check_u32("global_load_lds_sbyte", t, o[4 * t + 1], (uint32_t)(int32_t)(int8_t)g[t]);
    vt_check_u32("global_load_lds_ushort", t, o[4 * t + 2], h);
    vt_check_u32("global_load_lds_sshort", t, o[4 * t + 3], (uint32_t)(int32_t)(int16_t)h);
  }
}

// ---------------------------------------------------------------- scalar
__global__ void k_scalar(uint32_t *out)
{
  uint32_t r = 0, ret_ok = 0;
  /* s_call_b64 jumps 2 dwords ahead (skipping the s_branch), stores the return
   * address; the callee sets r = 7 and returns with s_setpc_b64 */
  asm volatile("s_mov_b32 %0, 0\n\t"
               "s_call_b64 s[40:41], 1\n\t"
               "s_branch 2\n\t"
               "s_mov_b32 %0, 7\n\t"
               "s_setpc_b64 s[40:41]\n\t"
               "s_getpc_b64 s[42:43]\n\t"
               "s_sub_u32 s42, s42, s40\n\t"
               "s_mov_b32 %1, s42\n\t"
               : "=s"(r), "=s"(ret_ok) : : "s40", "s41", "s42", "s43");
  out[0] = r;
  out[1] = ret_ok; /* the return address is the s_branch's; s_getpc (2 dwords past it) gives the next PC: 16 */
  uint32_t nb = 1;
  asm volatile("s_cbranch_cdbgsys 1\n\ts_mov_b32 %0, 2\n\t" : "+s"(nb));
  asm volatile("s_cbranch_cdbguser 1\n\ts_add_u32 %0, %0, 3\n\t" : "+s"(nb) : : "scc");
  asm volatile("s_cbranch_cdbgsys_or_user 1\n\ts_add_u32 %0, %0, 4\n\t" : "+s"(nb) : : "scc");
  asm volatile("s_cbranch_cdbgsys_and_user 1\n\ts_add_u32 %0, %0, 5\n\t" : "+s"(nb) : : "scc");
  asm volatile("s_wakeup\n\ts_incperflevel 1\n\ts_decperflevel 1\n\ts_atc_probe 0, s[0:1], 0x0\n\t"
               "s_add_u32 %0, %0, 6" : "+s"(nb) : : "scc");
  out[2] = nb;
  /* s_rfe_b64 / s_rfe_restore_b64 jump to S0 (here: past the s_mov that would set 1) */
  uint32_t rf = 0;
  asm volatile("s_getpc_b64 s[40:41]\n\t"
               "s_add_u32 s40, s40, 16\n\t"
               "s_addc_u32 s41, s41, 0\n\t"
               "s_rfe_b64 s[40:41]\n\t"
               "s_mov_b32 %0, 1\n\t"
               "s_add_u32 %0, %0, 5\n\t"
               "s_getpc_b64 s[40:41]\n\t"
               "s_add_u32 s40, s40, 16\n\t"
               "s_addc_u32 s41, s41, 0\n\t"
               "s_rfe_restore_b64 s[40:41], s42\n\t"
               "s_mov_b32 %0, 50\n\t"
               "s_add_u32 %0, %0, 7\n\t"
               : "+s"(rf) : : "s40", "s41", "s42", "scc");
  out[3] = rf;
}

/* GWS semaphores: wave 0 waits (ds_gws_sema_p) for what wave 1 releases */
__global__ void k_sema(uint32_t *out)
{
  int wv = threadIdx.x / 64;
  volatile uint32_t *vo = out;
  asm volatile("s_mov_b32 m0, 0" : : : "memory");
  if (wv == 1) {
    if (threadIdx.x == 64) vo[1] = 11;
    __threadfence();
    asm volatile("s_waitcnt vmcnt(0)\n\tds_gws_sema_br %0 gds\n\ts_waitcnt lgkmcnt(0)" : : "v"(2u) : "memory");
    /* release_all frees the waves waiting at that moment: repeat it until wave 0 is through */
    while (vo[6] == 0) asm volatile("ds_gws_sema_release_all offset:3 gds\n\ts_waitcnt lgkmcnt(0)\n\ts_sleep 1" : : : "memory");
    if (threadIdx.x == 64) vo[4] = 22;
    __threadfence();
    asm volatile("s_waitcnt vmcnt(0)\n\tds_gws_sema_v offset:5 gds\n\ts_waitcnt lgkmcnt(0)" : : : "memory");
  } else {
    asm volatile("ds_gws_sema_p gds\n\ts_waitcnt lgkmcnt(0)\n\tds_gws_sema_p gds\n\ts_waitcnt lgkmcnt(0)" : : : "memory");
    uint32_t a = vo[1];
    asm volatile("ds_gws_sema_p offset:3 gds\n\ts_waitcnt lgkmcnt(0)" : : : "memory");
    if (threadIdx.x == 0) vo[6] = 1;
    __threadfence();
    asm volatile("ds_gws_sema_p offset:5 gds\n\ts_waitcnt lgkmcnt(0)" : : : "memory");
    uint32_t b = vo[4];
    if (threadIdx.x == 0) { vo[0] = a; vo[2] = 1; vo[3] = b; }
  }
}

static void check_sema()
{
  vt_buf<uint32_t> dout(8);
  dout.zero();
  k_sema<<<1, 128>>>(dout.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto o = dout.get();
  vt_check_u32("ds_gws_sema_br 2 then ds_gws_sema_p x2: saw wave 1's store", 0, o[0], 11);
  vt_check_u32("ds_gws_sema_release_all lets ds_gws_sema_p go", 0, o[2], 1);
  vt_check_u32("ds_gws_sema_v then ds_gws_sema_p: saw wave 1's store", 0, o[3], 22);
}

static void check_scalar()
{
  vt_buf<uint32_t> dout(4);
  dout.zero();
  k_scalar<<<1, 64>>>(dout.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto o = dout.get();
  vt_check_u32("s_call_b64 callee ran", 0, o[0], 7);
  vt_check_u32("s_call_b64 return address", 0, o[1], 16);
  vt_check_u32("s_cbranch_cdbg* not taken, hints without effect", 0, o[2], 2 + 3 + 4 + 5 + 6);
  vt_check_u32("s_rfe_b64 / s_rfe_restore_b64 jump to S0", 0, o[3], 5 + 7);
}

// ---------------------------------------------------------------- typed buffers
// descriptor word 3: DST_SEL [11:0], NUM_FORMAT [14:12], DATA_FORMAT [18:15]
#define W3(df, nf) ((uint32_t)(nf) << 12 | (uint32_t)(df) << 15)
enum { T_U8X4, T_S16X2, T_F32, T_F16X4_D16, T_US8X2, T_SI16X4, T_X_MISSING, T_ST_UN8, T_ST_F16, T_ST_D16, T_MB_F16X2, T_MB_ST, T_MB_D16HI, NT };

__global__ void k_typed(const uint8_t *src, uint8_t *dst, uint32_t *out)
{
  int t = threadIdx.x;
  uint32_t *o = out + 8 * NT * t;
  __amdgpu_buffer_rsrc_t rs = __builtin_amdgcn_make_buffer_rsrc((void *)src, 0, 4096, W3(4, 7));
  __amdgpu_buffer_rsrc_t rd = __builtin_amdgcn_make_buffer_rsrc((void *)dst, 0, 4096, W3(4, 7));
  uint32_t off = 8u * (uint32_t)t;
  u32x4 v;
  u32x2 h, h2;
  asm volatile("tbuffer_load_format_xyzw %0, %1, %2, 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UNORM] offen\n\ts_waitcnt vmcnt(0)" : "=v"(v) : "v"(off), "s"(rs) : "memory");
  o[8 * T_U8X4] = v.x; o[8 * T_U8X4 + 1] = v.y; o[8 * T_U8X4 + 2] = v.z; o[8 * T_U8X4 + 3] = v.w;
  asm volatile("tbuffer_load_format_xy %0, %1, %2, 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_SNORM] offen\n\ts_waitcnt vmcnt(0)" : "=v"(h2) : "v"(off), "s"(rs) : "memory"); o[8 * T_S16X2] = h2.x; o[8 * T_S16X2 + 1] = h2.y;
  asm volatile("tbuffer_load_format_x %0, %1, %2, 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen offset:4\n\ts_waitcnt vmcnt(0)" : "=v"(o[8 * T_F32]) : "v"(off), "s"(rs) : "memory");
  asm volatile("tbuffer_load_format_d16_xyzw %0, %1, %2, 0 format:[BUF_DATA_FORMAT_16_16_16_16,BUF_NUM_FORMAT_FLOAT] offen\n\ts_waitcnt vmcnt(0)" : "=v"(h) : "v"(off), "s"(rs) : "memory");
  o[8 * T_F16X4_D16] = h.x; o[8 * T_F16X4_D16 + 1] = h.y;
  asm volatile("tbuffer_load_format_xy %0, %1, %2, 0 format:[BUF_DATA_FORMAT_8_8,BUF_NUM_FORMAT_USCALED] offen\n\ts_waitcnt vmcnt(0)" : "=v"(h2) : "v"(off), "s"(rs) : "memory"); o[8 * T_US8X2] = h2.x; o[8 * T_US8X2 + 1] = h2.y;
  asm volatile("tbuffer_load_format_xyzw %0, %1, %2, 0 format:[BUF_DATA_FORMAT_16_16_16_16,BUF_NUM_FORMAT_SINT] offen\n\ts_waitcnt vmcnt(0)" : "=v"(v) : "v"(off), "s"(rs) : "memory");
  o[8 * T_SI16X4] = v.x; o[8 * T_SI16X4 + 1] = v.y; o[8 * T_SI16X4 + 2] = v.z; o[8 * T_SI16X4 + 3] = v.w;
  /* a one-component format read as xyzw: y, z = 0, w = 1.0 */
  asm volatile("tbuffer_load_format_xyzw %0, %1, %2, 0 format:[BUF_DATA_FORMAT_16,BUF_NUM_FORMAT_UNORM] offen\n\ts_waitcnt vmcnt(0)" : "=v"(v) : "v"(off), "s"(rs) : "memory");
  o[8 * T_X_MISSING] = v.x; o[8 * T_X_MISSING + 1] = v.y; o[8 * T_X_MISSING + 2] = v.z; o[8 * T_X_MISSING + 3] = v.w;
  /* stores: f32 (-0.5 .. 1.5) -> unorm8 x4 at dst + 16 t; f32 pair -> f16 pair at dst + 16 t + 4 (xy); d16 pair -> 16_16 unorm at +8 */
  uint32_t so = 16u * (uint32_t)t;
  float f0 = (float)(t % 17) / 10.0f - 0.5f, f1 = (float)(t % 5) / 3.0f, f2 = 1.25f, f3 = (float)t / 64.0f;
  u32x4 sv = {__float_as_uint(f0), __float_as_uint(f1), __float_as_uint(f2), __float_as_uint(f3)};
  asm volatile("tbuffer_store_format_xyzw %0, %1, %2, 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UNORM] offen\n\ts_waitcnt vmcnt(0)"
               : : "v"(sv), "v"(so), "s"(rd) : "memory");
  u32x2 sv2 = {__float_as_uint(f0 * 3.0f), __float_as_uint(f3 - 100.0f)};
  asm volatile("tbuffer_store_format_xy %0, %1, %2, 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT] offen offset:4\n\ts_waitcnt vmcnt(0)"
               : : "v"(sv2), "v"(so), "s"(rd) : "memory");
  asm volatile("tbuffer_store_format_d16_xy %0, %1, %2, 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_UNORM] offen offset:8\n\ts_waitcnt vmcnt(0)"
               : : "v"(0x38003c00u), "v"(so), "s"(rd) : "memory"); /* (1.0, 0.5) */
  /* MUBUF *_format_*: the format comes from the descriptor */
  __amdgpu_buffer_rsrc_t rf = __builtin_amdgcn_make_buffer_rsrc((void *)src, 0, 4096, W3(5, 7)); /* 16_16 float */
  asm volatile("buffer_load_format_xy %0, %1, %2, 0 offen\n\ts_waitcnt vmcnt(0)" : "=v"(h2) : "v"(off), "s"(rf) : "memory"); o[8 * T_MB_F16X2] = h2.x; o[8 * T_MB_F16X2 + 1] = h2.y;
  __amdgpu_buffer_rsrc_t rg = __builtin_amdgcn_make_buffer_rsrc((void *)dst, 0, 4096, W3(1, 5)); /* 8 sint */
  asm volatile("buffer_store_format_x %0, %1, %2, 0 offen offset:12\n\ts_waitcnt vmcnt(0)" : : "v"((uint32_t)(t - 32)), "v"(so), "s"(rg) : "memory");
  uint32_t keep = 0x1234u;
  asm volatile("buffer_load_format_d16_hi_x %0, %1, %2, 0 offen\n\ts_waitcnt vmcnt(0)" : "+v"(keep) : "v"(off), "s"(rf) : "memory");
  o[8 * T_MB_D16HI] = keep;
}

static void check_typed()
{
  std::vector<uint8_t> src(4096);
  uint64_t s = 31;
  for (size_t i = 0; i < src.size(); i += 2) {
    uint16_t hv = hb((h16)((float)((int)(vt_rand(&s) % 2001) - 1000) / 64.0f));
    src[i] = (uint8_t)hv; src[i + 1] = (uint8_t)(hv >> 8);
  }
  for (int t = 0; t < 64; t++) { src[8 * t + 1] = (uint8_t)(vt_rand(&s)); src[8 * t + 3] = (uint8_t)vt_rand(&s); }
  vt_buf<uint8_t> dsrc(src), ddst(4096);
  ddst.zero();
  vt_buf<uint32_t> dout(64 * 8 * NT);
  dout.zero();
  k_typed<<<1, 64>>>(dsrc.d, ddst.d, dout.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto o = dout.get();
  auto d = ddst.get();
  for (int t = 0; t < 64; t++) {
    const uint8_t *e = &src[8 * t];
    const uint32_t *g = &o[8 * NT * t];
    auto u16 = [&](int k) { return (uint32_t)(e[2 * k] | (e[2 * k + 1] << 8)); };
    for (int k = 0; k < 4; k++) vt_check_f32("tbuffer_load_format_xyzw 8_8_8_8 unorm", 4 * t + k, vt_u2f(g[8 * T_U8X4 + k]), (float)((double)e[k] / 255.0));
    for (int k = 0; k < 2; k++) {
      double f = (double)(int16_t)u16(k) / 32767.0;
      vt_check_f32("tbuffer_load_format_xy 16_16 snorm", 2 * t + k, vt_u2f(g[8 * T_S16X2 + k]), (float)(f < -1 ? -1 : f));
    }
    uint32_t w1; memcpy(&w1, e + 4, 4);
    vt_check_u32("tbuffer_load_format_x 32 float offset:4", t, g[8 * T_F32], w1);
    vt_check_u32("tbuffer_load_format_d16_xyzw 16_16_16_16 float", 2 * t, g[8 * T_F16X4_D16], u16(0) | (u16(1) << 16));
    vt_check_u32("tbuffer_load_format_d16_xyzw 16_16_16_16 float", 2 * t + 1, g[8 * T_F16X4_D16 + 1], u16(2) | (u16(3) << 16));
    for (int k = 0; k < 2; k++) vt_check_f32("tbuffer_load_format_xy 8_8 uscaled", 2 * t + k, vt_u2f(g[8 * T_US8X2 + k]), (float)e[k]);
    for (int k = 0; k < 4; k++) vt_check_u32("tbuffer_load_format_xyzw 16_16_16_16 sint", 4 * t + k, g[8 * T_SI16X4 + k], (uint32_t)(int32_t)(int16_t)u16(k));
    vt_check_f32("tbuffer_load_format_xyzw 16 unorm x", t, vt_u2f(g[8 * T_X_MISSING]), (float)((double)u16(0) / 65535.0));
    vt_check_u32("tbuffer_load_format_xyzw 16 unorm y", t, g[8 * T_X_MISSING + 1], 0);
    vt_check_u32("tbuffer_load_format_xyzw 16 unorm z", t, g[8 * T_X_MISSING + 2], 0);
    vt_check_f32("tbuffer_load_format_xyzw 16 unorm w", t, vt_u2f(g[8 * T_X_MISSING + 3]), 1.0f);
    for (int k = 0; k < 2; k++) vt_check_f32("buffer_load_format_xy (descriptor 16_16 float)", 2 * t + k, vt_u2f(g[8 * T_MB_F16X2 + k]), hf(u16(k)));
    vt_check_u32("buffer_load_format_d16_hi_x", t, g[8 * T_MB_D16HI], 0x1234u | (u16(0) << 16));
    /* stores */
    const uint8_t *q = &d[16 * t];
    float f[4] = {(float)(t % 17) / 10.0f - 0.5f, (float)(t % 5) / 3.0f, 1.25f, (float)t / 64.0f};
    for (int k = 0; k < 4; k++) {
      float c = f[k] < 0 ? 0 : f[k] > 1 ? 1 : f[k];
      vt_check_u32("tbuffer_store_format_xyzw 8_8_8_8 unorm", 4 * t + k, q[k], (uint32_t)rint((double)c * 255.0));
    }
    vt_check_u32("tbuffer_store_format_xy 16_16 float x", t, (uint32_t)(q[4] | (q[5] << 8)), hb((h16)(f[0] * 3.0f)));
    vt_check_u32("tbuffer_store_format_xy 16_16 float y", t, (uint32_t)(q[6] | (q[7] << 8)), hb((h16)(f[3] - 100.0f)));
    vt_check_u32("tbuffer_store_format_d16_xy 16_16 unorm", t, (uint32_t)(q[8] | (q[9] << 8) | (q[10] << 16) | ((uint32_t)q[11] << 24)), 0xffffu | (32768u << 16));
    vt_check_u32("buffer_store_format_x (descriptor 8 sint)", t, q[12], (uint32_t)(t - 32) & 0xff);
  }
}

int main()
{
  check_valu();
  check_lds();
  check_load_lds();
  check_scalar();
  check_sema();
  check_typed();
  return vt_finish("coverage_more");
}
