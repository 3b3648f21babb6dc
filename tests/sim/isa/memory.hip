// memory.hip: load/store widths 8..128 bits to global memory and LDS, flat
// accesses to both, scalar loads, and raw buffer loads/stores in and out of
// range, each against the host's own copy of the data.
//
// Raw buffers (CDNA3 ISA guide, "Buffer Instructions", range checking with
// stride 0): an access whose offset + size exceeds num_records is out of range;
// out-of-range loads return 0 and out-of-range stores are dropped. The third
// resource dword 0x00020000 is the gfx9 raw-buffer format CK uses for gfx94x.
// Only wholly-in or wholly-out accesses are tested (partial ones differ by
// generation). Narrow stores must leave neighbouring bytes untouched, checked
// with sentinels.
#include "vtest.h"

typedef int i3 __attribute__((ext_vector_type(3)));
typedef int i4 __attribute__((ext_vector_type(4)));

#define N 256

struct out_t {
  int8_t s8[N]; uint8_t u8[N]; int16_t s16[N]; uint16_t u16[N];
  int32_t sext8[N], zext8[N], sext16[N], zext16[N];
  long long b64[N];
  i4 b96[N];   /* .w must keep its sentinel */
  i4 b128[N];
  int lds_u8[N], lds_s8[N], lds_u16[N], lds_s16[N], lds_b32[N];
  long long lds_b64[N];
  i4 lds_b96[N];
  i4 lds_b128[N];
  int flat_g[N], flat_l[N];
  int scalar_sum[N];
};

/* flat_load through inline asm: the compiler would otherwise infer the
 * address space and emit global_/ds_ instructions */
__device__ int flat_read(const int *p, int i)
{
  int v;
  asm volatile("flat_load_dword %0, %1\n\ts_waitcnt vmcnt(0) lgkmcnt(0)" : "=v"(v) : "v"(p + i) : "memory");
  return v * 3 + 1;
}

/* widths the compiler does not pick on its own here: ds_read_u8, ds_read_i16,
 * ds_read_b96/ds_write_b96 (LDS byte addresses) */
__device__ uint32_t lds_u8(const void *p)
{
  uint32_t v, a = (uint32_t)(uintptr_t)p;
  asm volatile("ds_read_u8 %0, %1\n\ts_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(a) : "memory");
  return v;
}
__device__ int32_t lds_i16(const void *p)
{
  int32_t v;
  uint32_t a = (uint32_t)(uintptr_t)p;
  asm volatile("ds_read_i16 %0, %1\n\ts_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(a) : "memory");
  return v;
}
__device__ i3 lds_b96(const void *p)
{
  i3 v;
  uint32_t a = (uint32_t)(uintptr_t)p;
  asm volatile("ds_read_b96 %0, %1\n\ts_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(a) : "memory");
  return v;
}
__device__ void lds_w96(void *p, i3 v)
{
  uint32_t a = (uint32_t)(uintptr_t)p;
  asm volatile("ds_write_b96 %0, %1\n\ts_waitcnt lgkmcnt(0)" : : "v"(a), "v"(v) : "memory");
}

__global__ void widths(const uint8_t *bytes, const int *words, const int *consts, int nconst,
                       out_t *o)
{
  __shared__ uint8_t l8[N];
  __shared__ uint16_t l16[N];
  __shared__ int l32[N];
  __shared__ long long l64[N];
  __shared__ i3 l96[N];
  __shared__ i4 l128[N];
  int t = threadIdx.x;
  int r = (t * 37 + 11) % N; /* a permutation: threads read others' data */
  /* global, sub-dword loads with sign/zero extension and narrow stores */
  int8_t sb = ((const int8_t *)bytes)[t];
  uint8_t ub = bytes[t];
  int16_t ss = ((const int16_t *)bytes)[t];
  uint16_t us = ((const uint16_t *)bytes)[t];
  o->sext8[t] = sb;
  o->zext8[t] = ub;
  o->sext16[t] = ss;
  o->zext16[t] = us;
  if (t % 2 == 0) { o->s8[t] = (int8_t)(sb + 1); o->u8[t] = (uint8_t)(ub ^ 0x5a); }
  if (t % 3 == 0) { o->s16[t] = (int16_t)(ss - 3); o->u16[t] = (uint16_t)(us * 5); }
  /* 64/96/128-bit */
  const long long *w64 = (const long long *)words;
  o->b64[t] = w64[r] + 1;
  i3 v3 = ((const i3 *)words)[r]; /* 16-byte stride, 12 bytes loaded */
  i3 v3p = v3 + 1;
  __builtin_memcpy(&o->b96[t], &v3p, 12);
  i4 v4 = ((const i4 *)words)[r];
  o->b128[t] = v4 * 2;
  /* LDS: every width written by one thread, read by another */
  l8[t] = bytes[t];
  l16[t] = ((const uint16_t *)bytes)[t];
  l32[t] = words[t];
  l64[t] = w64[t];
  lds_w96(&l96[t], ((const i3 *)words)[t]);
  l128[t] = ((const i4 *)words)[t];
  __syncthreads();
  o->lds_u8[t] = (int)lds_u8(&l8[r]);
  o->lds_s8[t] = (int8_t)l8[r];
  o->lds_u16[t] = l16[r];
  o->lds_s16[t] = lds_i16(&l16[r]);
  o->lds_b32[t] = l32[r];
  o->lds_b64[t] = l64[r];
  i3 x3 = lds_b96(&l96[r]);
  i4 x4 = { x3.x, x3.y, x3.z, 0 };
  o->lds_b96[t] = x4;
  o->lds_b128[t] = l128[r];
  /* flat: one function, called with a global and an LDS pointer */
  o->flat_g[t] = flat_read(words, r);
  o->flat_l[t] = flat_read(l32, r);
  /* scalar loads: a uniform walk over a read-only buffer */
  int sum = 0;
  for (int k = 0; k < nconst; k++) sum += consts[k] * (k + 1);
  o->scalar_sum[t] = sum + t;
}

/* raw buffer loads of every width: lanes below nin are in range */
__global__ void buf_loads(const uint8_t *src, int nbytes, uint32_t *o8, uint32_t *o16,
                          uint32_t *o32, uint64_t *o64, i4 *o96, i4 *o128)
{
  int t = threadIdx.x;
  __amdgpu_buffer_rsrc_t rs = __builtin_amdgcn_make_buffer_rsrc((void *)src, 0, nbytes, 0x00020000);
  o8[t] = __builtin_amdgcn_raw_buffer_load_b8(rs, t, 0, 0);
  o16[t] = __builtin_amdgcn_raw_buffer_load_b16(rs, t * 2, 0, 0);
  o32[t] = __builtin_amdgcn_raw_buffer_load_b32(rs, t * 4, 0, 0);
  o64[t] = __builtin_bit_cast(uint64_t, __builtin_amdgcn_raw_buffer_load_b64(rs, t * 8, 0, 0));
  auto v3 = __builtin_amdgcn_raw_buffer_load_b96(rs, t * 12, 0, 0);
  i4 w3 = { (int)v3[0], (int)v3[1], (int)v3[2], 0x777 };
  o96[t] = w3;
  auto v4 = __builtin_amdgcn_raw_buffer_load_b128(rs, t * 16, 0, 0);
  i4 w4 = { (int)v4[0], (int)v4[1], (int)v4[2], (int)v4[3] };
  o128[t] = w4;
}

/* raw buffer stores: dst holds 2*nbytes, the resource only nbytes */
__global__ void buf_stores(uint8_t *dst8, uint8_t *dst32, uint8_t *dst128, int nbytes)
{
  int t = threadIdx.x;
  __amdgpu_buffer_rsrc_t r8 = __builtin_amdgcn_make_buffer_rsrc(dst8, 0, nbytes, 0x00020000);
  __amdgpu_buffer_rsrc_t r32 = __builtin_amdgcn_make_buffer_rsrc(dst32, 0, nbytes, 0x00020000);
  __amdgpu_buffer_rsrc_t r128 = __builtin_amdgcn_make_buffer_rsrc(dst128, 0, nbytes, 0x00020000);
  __builtin_amdgcn_raw_buffer_store_b8((uint8_t)(t + 1), r8, t, 0, 0);
  __builtin_amdgcn_raw_buffer_store_b32((uint32_t)(t * 1000 + 7), r32, t * 4, 0, 0);
  typedef unsigned u4 __attribute__((ext_vector_type(4)));
  u4 v = { (unsigned)t, (unsigned)t + 1, (unsigned)t + 2, (unsigned)t + 3 };
  __builtin_amdgcn_raw_buffer_store_b128(v, r128, t * 16, 0, 0);
}

int main()
{
  uint64_t s = 4242;
  std::vector<uint8_t> bytes(N * 2);
  for (auto &b : bytes) b = (uint8_t)vt_rand(&s);
  std::vector<int> words(N * 4);
  for (auto &w : words) w = (int)vt_rand(&s);
  std::vector<int> consts(40);
  for (auto &c : consts) c = (int)(vt_rand(&s) % 1000) - 500;
  vt_buf<uint8_t> dbytes(bytes);
  vt_buf<int> dwords(words), dconsts(consts);
  out_t *dout;
  VT_HIP(hipMalloc((void **)&dout, sizeof(out_t)));
  VT_HIP(hipMemset(dout, 0xEE, sizeof(out_t)));
  widths<<<1, N>>>(dbytes.d, dwords.d, dconsts.d, (int)consts.size(), dout);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  out_t *o = (out_t *)malloc(sizeof(out_t));
  VT_HIP(hipMemcpy(o, dout, sizeof(out_t), hipMemcpyDeviceToHost));
  const int8_t *sb = (const int8_t *)bytes.data();
  const int16_t *ss = (const int16_t *)bytes.data();
  const uint16_t *us = (const uint16_t *)bytes.data();
  const long long *w64 = (const long long *)words.data();
  int csum = 0;
  for (int k = 0; k < (int)consts.size(); k++) csum += consts[k] * (k + 1);
  for (int t = 0; t < N; t++) {
    int r = (t * 37 + 11) % N;
    vt_check_u32("global_load_sbyte", t, (uint32_t)o->sext8[t], (uint32_t)(int32_t)sb[t]);
    vt_check_u32("global_load_ubyte", t, (uint32_t)o->zext8[t], bytes[t]);
    vt_check_u32("global_load_sshort", t, (uint32_t)o->sext16[t], (uint32_t)(int32_t)ss[t]);
    vt_check_u32("global_load_ushort", t, (uint32_t)o->zext16[t], us[t]);
    vt_check_u32("global_store_byte s8", t, (uint8_t)o->s8[t], t % 2 == 0 ? (uint8_t)(sb[t] + 1) : 0xEE);
    vt_check_u32("global_store_byte u8", t, o->u8[t], t % 2 == 0 ? (uint8_t)(bytes[t] ^ 0x5a) : 0xEE);
    vt_check_u32("global_store_short s16", t, (uint16_t)o->s16[t], t % 3 == 0 ? (uint16_t)(ss[t] - 3) : 0xEEEE);
    vt_check_u32("global_store_short u16", t, o->u16[t], t % 3 == 0 ? (uint16_t)(us[t] * 5) : 0xEEEE);
    vt_check_u64("global b64", t, (uint64_t)o->b64[t], (uint64_t)(w64[r] + 1));
    for (int k = 0; k < 3; k++)
      vt_check_u32("global b96", t * 4 + k, (uint32_t)o->b96[t][k], (uint32_t)(words[r * 4 + k] + 1));
    vt_check_u32("global b96 store leaves dword 3", t, (uint32_t)o->b96[t][3], 0xEEEEEEEEu);
    for (int k = 0; k < 4; k++)
      vt_check_u32("global b128", t * 4 + k, (uint32_t)o->b128[t][k], (uint32_t)(words[r * 4 + k] * 2));
    vt_check_u32("lds u8", t, (uint32_t)o->lds_u8[t], bytes[r]);
    vt_check_u32("lds i8", t, (uint32_t)o->lds_s8[t], (uint32_t)(int32_t)sb[r]);
    vt_check_u32("lds u16", t, (uint32_t)o->lds_u16[t], us[r]);
    vt_check_u32("lds i16", t, (uint32_t)o->lds_s16[t], (uint32_t)(int32_t)ss[r]);
    vt_check_u32("lds b32", t, (uint32_t)o->lds_b32[t], (uint32_t)words[r]);
    vt_check_u64("lds b64", t, (uint64_t)o->lds_b64[t], (uint64_t)w64[r]);
    for (int k = 0; k < 3; k++)
      vt_check_u32("lds b96", t * 4 + k, (uint32_t)o->lds_b96[t][k], (uint32_t)words[r * 4 + k]);
    for (int k = 0; k < 4; k++)
      vt_check_u32("lds b128", t * 4 + k, (uint32_t)o->lds_b128[t][k], (uint32_t)words[r * 4 + k]);
    vt_check_u32("flat load (global)", t, (uint32_t)o->flat_g[t], (uint32_t)(words[r] * 3 + 1));
    vt_check_u32("flat load (lds)", t, (uint32_t)o->flat_l[t], (uint32_t)(words[r] * 3 + 1));
    vt_check_u32("scalar loads", t, (uint32_t)o->scalar_sum[t], (uint32_t)(csum + t));
  }
  free(o);
  VT_HIP(hipFree(dout));

  /* buffer loads: 64 lanes, resource covers the first 100 bytes of src */
  const int nb = 100;
  std::vector<uint8_t> src(nb);
  for (auto &b : src) b = (uint8_t)vt_rand(&s);
  vt_buf<uint8_t> dsrc(src);
  vt_buf<uint32_t> o8(64), o16(64), o32(64);
  vt_buf<uint64_t> o64(64);
  vt_buf<i4> o96(64), o128(64);
  buf_loads<<<1, 64>>>(dsrc.d, nb, o8.d, o16.d, o32.d, o64.d, o96.d, o128.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto h8 = o8.get(), h16 = o16.get(), h32 = o32.get();
  auto h64 = o64.get();
  auto h96 = o96.get(), h128 = o128.get();
  auto le = [&](int off, int n) { uint64_t v = 0; for (int k = n - 1; k >= 0; k--) v = (v << 8) | src[off + k]; return v; };
  for (int t = 0; t < 64; t++) {
    vt_check_u32("buffer_load_ubyte (oob -> 0)", t, h8[t], t + 1 <= nb ? (uint32_t)le(t, 1) : 0);
    vt_check_u32("buffer_load_ushort (oob -> 0)", t, h16[t], t * 2 + 2 <= nb ? (uint32_t)le(t * 2, 2) : 0);
    vt_check_u32("buffer_load_dword (oob -> 0)", t, h32[t], t * 4 + 4 <= nb ? (uint32_t)le(t * 4, 4) : 0);
    if (t * 8 + 8 <= nb || t * 8 >= nb)
      vt_check_u64("buffer_load_dwordx2 (oob -> 0)", t, h64[t], t * 8 + 8 <= nb ? le(t * 8, 8) : 0);
    if (t * 12 + 12 <= nb || t * 12 >= nb)
      for (int k = 0; k < 3; k++)
        vt_check_u32("buffer_load_dwordx3 (oob -> 0)", t * 3 + k, (uint32_t)h96[t][k],
                     t * 12 + 12 <= nb ? (uint32_t)le(t * 12 + 4 * k, 4) : 0);
    if (t * 16 + 16 <= nb || t * 16 >= nb)
      for (int k = 0; k < 4; k++)
        vt_check_u32("buffer_load_dwordx4 (oob -> 0)", t * 4 + k, (uint32_t)h128[t][k],
                     t * 16 + 16 <= nb ? (uint32_t)le(t * 16 + 4 * k, 4) : 0);
  }

  /* buffer stores: resource covers 128 bytes of a 2 KiB buffer of 0xCD */
  const int ns = 128;
  std::vector<uint8_t> fill(2048, 0xCD);
  vt_buf<uint8_t> d8(fill), d32(fill), d128(fill);
  buf_stores<<<1, 64>>>(d8.d, d32.d, d128.d, ns);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto g8 = d8.get(), g32 = d32.get(), g128 = d128.get();
  for (int b = 0; b < 2048; b++) {
    int t = b;
    vt_check_u32("buffer_store_byte (oob dropped)", b, g8[b], (b < 64 && b < ns) ? (uint32_t)(t + 1) : 0xCD);
    uint32_t w32 = 0xCD;
    if (b < 256 && (b / 4) * 4 + 4 <= ns) w32 = (uint32_t)(((b / 4) * 1000 + 7) >> (8 * (b % 4))) & 0xff;
    vt_check_u32("buffer_store_dword (oob dropped)", b, g32[b], w32);
    uint32_t w128 = 0xCD;
    if (b < 1024 && (b / 16) * 16 + 16 <= ns) {
      uint32_t lane = (uint32_t)(b / 16), k = (uint32_t)((b % 16) / 4);
      w128 = ((lane + k) >> (8 * (b % 4))) & 0xff;
    }
    vt_check_u32("buffer_store_dwordx4 (oob dropped)", b, g128[b], w128);
  }
  return vt_finish("memory");
}
