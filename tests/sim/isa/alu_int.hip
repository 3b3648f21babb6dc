// alu_int.hip: 32- and 64-bit integer ALU semantics against host C.
// VOP3 v_add_u32 / v_sub_u32 / v_subrev_u32 with clamp saturate to [0, 2^32-1]
// (CDNA3 ISA guide, VOP3 clamp bit for integer ops).
//
// Shifts by >= 32 go through inline asm because C leaves them undefined; the
// hardware uses the low 5 (32-bit) or 6 (64-bit) bits of the shift amount
// (CDNA3 ISA guide, VOP2/VOP3 v_lshlrev_b32, v_lshrrev_b32, v_ashrrev_i32,
// v_lshlrev_b64, v_ashrrev_i64). Division and 64-bit multiplies are compiled
// into instruction sequences, so they test many ALU ops at once.
#include "vtest.h"
#include <limits.h>

#pragma clang fp contract(off)

enum {
  OP_ADD, OP_SUB, OP_MUL, OP_MULHI_U, OP_MULHI_I, OP_SHL, OP_SHR, OP_ASHR, OP_MIN_I, OP_MAX_I,
  OP_MIN_U, OP_MAX_U, OP_POPC, OP_CLZ, OP_FFS, OP_BREV, OP_UDIV, OP_UREM, OP_IDIV, OP_IREM,
  OP_BFE, OP_MUL24, OP_ABS, OP_ADD64_LO, OP_ADD64_HI, OP_MUL64_LO, OP_MUL64_HI, OP_SHL64_LO,
  OP_SHL64_HI, OP_ASHR64_LO, OP_ASHR64_HI, OP_UDIV64_LO, OP_UDIV64_HI, OP_SUB64_HI, OP_SEXT8,
  OP_SEXT16, OP_XOR_NOT, OP_SEL, OP_PK_MAD_U16, OP_PK_MAD_U16_SEL, OP_PK_MAD_U16_CLAMP,
  OP_PK_MAD_I16_CLAMP, OP_ADD_U32_CLAMP, OP_SUB_U32_CLAMP, OP_SUBREV_U32_CLAMP, NOPS
};
static const char *op_name[NOPS] = {
  "add", "sub", "mul_lo", "mulhi_u32", "mulhi_i32", "shl(b&31)", "lshr(b&31)", "ashr(b&31)",
  "min_i32", "max_i32", "min_u32", "max_u32", "popc", "clz", "ffs", "brev", "udiv", "urem",
  "idiv", "irem", "bfe_u32(off,8)", "mul_u24", "abs", "add64_lo", "add64_hi", "mul64_lo",
  "mul64_hi", "shl64_lo", "shl64_hi", "ashr64_lo", "ashr64_hi", "udiv64_lo", "udiv64_hi",
  "sub64_hi", "sext8", "sext16", "xor_not", "select", "v_pk_mad_u16", "v_pk_mad_u16 op_sel",
  "v_pk_mad_u16 clamp", "v_pk_mad_i16 clamp", "v_add_u32 clamp", "v_sub_u32 clamp",
  "v_subrev_u32 clamp" };

__global__ void alu(const uint32_t *a, const uint32_t *b, uint32_t *out, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint32_t x = a[i], y = b[i];
  int32_t xi = (int32_t)x, yi = (int32_t)y;
  uint32_t *o = out + i;
  o[OP_ADD * n] = x + y;
  o[OP_SUB * n] = x - y;
  o[OP_MUL * n] = x * y;
  o[OP_MULHI_U * n] = __umulhi(x, y);
  o[OP_MULHI_I * n] = (uint32_t)__mulhi(xi, yi);
  uint32_t r;
  asm volatile("v_lshlrev_b32 %0, %1, %2" : "=v"(r) : "v"(y), "v"(x));
  o[OP_SHL * n] = r;
  asm volatile("v_lshrrev_b32 %0, %1, %2" : "=v"(r) : "v"(y), "v"(x));
  o[OP_SHR * n] = r;
  asm volatile("v_ashrrev_i32 %0, %1, %2" : "=v"(r) : "v"(y), "v"(x));
  o[OP_ASHR * n] = r;
  o[OP_MIN_I * n] = (uint32_t)min(xi, yi);
  o[OP_MAX_I * n] = (uint32_t)max(xi, yi);
  o[OP_MIN_U * n] = min(x, y);
  o[OP_MAX_U * n] = max(x, y);
  o[OP_POPC * n] = (uint32_t)__popc(x);
  o[OP_CLZ * n] = (uint32_t)__clz(xi);
  o[OP_FFS * n] = (uint32_t)__ffs(xi);
  o[OP_BREV * n] = __brev(x);
  uint32_t d = y | 1u;
  o[OP_UDIV * n] = x / d;
  o[OP_UREM * n] = x % d;
  int32_t di = yi | 1;
  if (di == -1) di = 3; /* INT_MIN / -1 is undefined */
  o[OP_IDIV * n] = (uint32_t)(xi / di);
  o[OP_IREM * n] = (uint32_t)(xi % di);
  o[OP_BFE * n] = __builtin_amdgcn_ubfe(x, y & 31u, 8u);
  o[OP_MUL24 * n] = __umul24(x, y);
  o[OP_ABS * n] = xi < 0 ? 0u - x : x;
  uint64_t X = ((uint64_t)x << 32) | y, Y = ((uint64_t)y << 32) | (x ^ 0x5a5a5a5au);
  uint64_t s = X + Y;
  o[OP_ADD64_LO * n] = (uint32_t)s;
  o[OP_ADD64_HI * n] = (uint32_t)(s >> 32);
  uint64_t m = X * Y;
  o[OP_MUL64_LO * n] = (uint32_t)m;
  o[OP_MUL64_HI * n] = (uint32_t)(m >> 32);
  uint64_t t;
  asm volatile("v_lshlrev_b64 %0, %1, %2" : "=v"(t) : "v"(y), "v"(X));
  o[OP_SHL64_LO * n] = (uint32_t)t;
  o[OP_SHL64_HI * n] = (uint32_t)(t >> 32);
  asm volatile("v_ashrrev_i64 %0, %1, %2" : "=v"(t) : "v"(y), "v"(X));
  o[OP_ASHR64_LO * n] = (uint32_t)t;
  o[OP_ASHR64_HI * n] = (uint32_t)(t >> 32);
  uint64_t q = X / (Y | 1u);
  o[OP_UDIV64_LO * n] = (uint32_t)q;
  o[OP_UDIV64_HI * n] = (uint32_t)(q >> 32);
  o[OP_SUB64_HI * n] = (uint32_t)((X - Y) >> 32);
  o[OP_SEXT8 * n] = (uint32_t)(int32_t)(int8_t)x;
  o[OP_SEXT16 * n] = (uint32_t)(int32_t)(int16_t)x;
  o[OP_XOR_NOT * n] = ~(x ^ y);
  o[OP_SEL * n] = xi < yi ? x * 3u : y + 7u;
  // packed 16-bit multiply-add (clang-22 emits v_pk_mad_u16 for 16-bit index math)
  uint32_t z = x ^ (y >> 3);
  asm volatile("v_pk_mad_u16 %0, %1, %2, %3" : "=v"(r) : "v"(x), "v"(y), "v"(z));
  o[OP_PK_MAD_U16 * n] = r;
  asm volatile("v_pk_mad_u16 %0, %1, %2, %3 op_sel:[1,0,1] op_sel_hi:[0,1,0]" : "=v"(r) : "v"(x), "v"(y), "v"(z));
  o[OP_PK_MAD_U16_SEL * n] = r;
  asm volatile("v_pk_mad_u16 %0, %1, %2, %3 clamp" : "=v"(r) : "v"(x), "v"(y), "v"(z));
  o[OP_PK_MAD_U16_CLAMP * n] = r;
  asm volatile("v_pk_mad_i16 %0, %1, %2, %3 clamp" : "=v"(r) : "v"(x), "v"(y), "v"(z));
  o[OP_PK_MAD_I16_CLAMP * n] = r;
  // VOP3 unsigned adds with clamp saturate (LLVM's usub.sat / uadd.sat on gfx9)
  asm volatile("v_add_u32_e64 %0, %1, %2 clamp" : "=v"(r) : "v"(x), "v"(y));
  o[OP_ADD_U32_CLAMP * n] = r;
  asm volatile("v_sub_u32_e64 %0, %1, %2 clamp" : "=v"(r) : "v"(x), "v"(y));
  o[OP_SUB_U32_CLAMP * n] = r;
  asm volatile("v_subrev_u32_e64 %0, %1, %2 clamp" : "=v"(r) : "v"(x), "v"(y));
  o[OP_SUBREV_U32_CLAMP * n] = r;
}

// v_pk_mad_{u,i}16 (CDNA3 ISA guide, VOP3P): per half h, a*b+c of the halves
// op_sel (h = 0) / op_sel_hi (h = 1) pick; 16-bit wrap, or saturation with clamp
static uint32_t pk_mad(uint32_t x, uint32_t y, uint32_t z, int sel, int selhi, int sgn, int clamp)
{
  uint32_t r = 0;
  for (int h = 0; h < 2; h++) {
    int s = h ? selhi : sel;
    uint32_t a = (x >> (16 * (s & 1))) & 0xffff, b = (y >> (16 * (s >> 1 & 1))) & 0xffff, c = (z >> (16 * (s >> 2 & 1))) & 0xffff;
    int64_t t = sgn ? (int64_t)(int16_t)a * (int16_t)b + (int16_t)c : (int64_t)a * b + c;
    if (clamp) t = sgn ? (t > 32767 ? 32767 : t < -32768 ? -32768 : t) : (t > 65535 ? 65535 : t);
    r |= ((uint32_t)t & 0xffffu) << (16 * h);
  }
  return r;
}

static uint32_t ref(int op, uint32_t x, uint32_t y)
{
  int32_t xi = (int32_t)x, yi = (int32_t)y;
  uint64_t X = ((uint64_t)x << 32) | y, Y = ((uint64_t)y << 32) | (x ^ 0x5a5a5a5au);
  int32_t di = yi | 1;
  if (di == -1) di = 3;
  switch (op) {
  case OP_ADD: return x + y;
  case OP_SUB: return x - y;
  case OP_MUL: return x * y;
  case OP_MULHI_U: return (uint32_t)(((uint64_t)x * y) >> 32);
  case OP_MULHI_I: return (uint32_t)(((int64_t)xi * yi) >> 32);
  case OP_SHL: return x << (y & 31);
  case OP_SHR: return x >> (y & 31);
  case OP_ASHR: return (uint32_t)(xi >> (y & 31));
  case OP_MIN_I: return (uint32_t)(xi < yi ? xi : yi);
  case OP_MAX_I: return (uint32_t)(xi > yi ? xi : yi);
  case OP_MIN_U: return x < y ? x : y;
  case OP_MAX_U: return x > y ? x : y;
  case OP_POPC: { uint32_t c = 0; for (int k = 0; k < 32; k++) c += (x >> k) & 1; return c; }
  case OP_CLZ: { uint32_t c = 0; for (int k = 31; k >= 0 && !((x >> k) & 1); k--) c++; return c; }
  case OP_FFS: { for (int k = 0; k < 32; k++) if ((x >> k) & 1) return (uint32_t)k + 1; return 0; }
  case OP_BREV: { uint32_t r = 0; for (int k = 0; k < 32; k++) r |= ((x >> k) & 1u) << (31 - k); return r; }
  case OP_UDIV: return x / (y | 1u);
  case OP_UREM: return x % (y | 1u);
  case OP_IDIV: return (uint32_t)(xi / di);
  case OP_IREM: return (uint32_t)(xi % di);
  case OP_BFE: return (uint32_t)(((uint64_t)x >> (y & 31)) & 0xffu);
  case OP_MUL24: return (x & 0xffffffu) * (y & 0xffffffu);
  case OP_ABS: return xi < 0 ? 0u - x : x;
  case OP_ADD64_LO: return (uint32_t)(X + Y);
  case OP_ADD64_HI: return (uint32_t)((X + Y) >> 32);
  case OP_MUL64_LO: return (uint32_t)(X * Y);
  case OP_MUL64_HI: return (uint32_t)((X * Y) >> 32);
  case OP_SHL64_LO: return (uint32_t)(X << (y & 63));
  case OP_SHL64_HI: return (uint32_t)((X << (y & 63)) >> 32);
  case OP_ASHR64_LO: return (uint32_t)(uint64_t)((int64_t)X >> (y & 63));
  case OP_ASHR64_HI: return (uint32_t)((uint64_t)((int64_t)X >> (y & 63)) >> 32);
  case OP_UDIV64_LO: return (uint32_t)(X / (Y | 1u));
  case OP_UDIV64_HI: return (uint32_t)((X / (Y | 1u)) >> 32);
  case OP_SUB64_HI: return (uint32_t)((X - Y) >> 32);
  case OP_SEXT8: return (uint32_t)(int32_t)(int8_t)(x & 0xff);
  case OP_SEXT16: return (uint32_t)(int32_t)(int16_t)(x & 0xffff);
  case OP_XOR_NOT: return ~(x ^ y);
  case OP_SEL: return xi < yi ? x * 3u : y + 7u;
  case OP_PK_MAD_U16: return pk_mad(x, y, x ^ (y >> 3), 0, 7, 0, 0);
  case OP_PK_MAD_U16_SEL: return pk_mad(x, y, x ^ (y >> 3), 5, 2, 0, 0);
  case OP_PK_MAD_U16_CLAMP: return pk_mad(x, y, x ^ (y >> 3), 0, 7, 0, 1);
  case OP_PK_MAD_I16_CLAMP: return pk_mad(x, y, x ^ (y >> 3), 0, 7, 1, 1);
  case OP_ADD_U32_CLAMP: return (uint64_t)x + y > 0xffffffffu ? 0xffffffffu : x + y;
  case OP_SUB_U32_CLAMP: return y > x ? 0u : x - y;
  case OP_SUBREV_U32_CLAMP: return x > y ? 0u : y - x;
  }
  return 0;
}

int main()
{
  const uint32_t edge[] = { 0u, 1u, 2u, 31u, 32u, 33u, 63u, 64u, 65u, 0x7fffffffu, 0x80000000u,
                            0x80000001u, 0xffffffffu, 0xfffffffeu, 0x00ffffffu, 0x01000000u,
                            0xdeadbeefu, 0x12345678u };
  const int ne = (int)(sizeof edge / sizeof edge[0]);
  const int n = 1000; /* not a multiple of 64: the last wave is partial */
  std::vector<uint32_t> a(n), b(n);
  uint64_t s = 12345;
  for (int i = 0; i < n; i++) {
    if (i < ne * ne) { a[i] = edge[i / ne]; b[i] = edge[i % ne]; }
    else { a[i] = (uint32_t)vt_rand(&s); b[i] = (uint32_t)(vt_rand(&s) >> 7); }
    if (i % 5 == 4) b[i] &= 0x7f; /* small shift amounts and divisors */
  }
  vt_buf<uint32_t> da(a), db(b), dout((size_t)n * NOPS);
  dout.zero();
  alu<<<(n + 255) / 256, 256>>>(da.d, db.d, dout.d, n);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  std::vector<uint32_t> out = dout.get();
  for (int op = 0; op < NOPS; op++)
    for (int i = 0; i < n; i++) vt_check_u32(op_name[op], i, out[(size_t)op * n + i], ref(op, a[i], b[i]));
  return vt_finish("alu_int");
}
