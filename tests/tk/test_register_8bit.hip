// Register-tile ops on the 8-bit kinds (fp8 and i8 MFMA operands pack 8
// values per lane in one int64): tk_rt_fill / tk_rt_zero on every 8-bit A/B
// kind, tk_rt_add/sub/mul on i8 tiles element by element (wrapping int8), and
// fill/zero on the 16-bit and accumulator kinds, each read back per element
// through the documented layout and compared with a CPU reference.  Then an
// i8 MFMA on filled tiles vs the CPU dot product (K * a * b).
#include "tk_test.h"
#include "tk/tk.h"

TK_RT(fp8a16_t, TK_K_A_FP8_16x16x32, 32, 64);
TK_RT(fp8b16_t, TK_K_B_FP8_16x16x32, 64, 32);
TK_RT(fp8a32_t, TK_K_A_FP8_32x32x16, 32, 32);
TK_RT(fp8b32_t, TK_K_B_FP8_32x32x16, 32, 64);
TK_RT(i8a_t, TK_K_A_I8_16x16x32, 16, 64);
TK_RT(i8b_t, TK_K_B_I8_16x16x32, 64, 16);
TK_RT(bf16a_t, TK_K_A_BF16_16x16x16, 16, 32);
TK_RT(f16b_t, TK_K_B_F16_32x32x8, 16, 32);
TK_RT(acc32_t, TK_K_C_F32_32x32, 32, 32);
TK_RT(acci_t, TK_K_C_I32_16x16, 16, 16);

// per lane: every byte of every fragment of the tile, in order
#define DUMP_BYTES(T, x, out, lane)                                              \
  do { const uint8_t *p_ = (const uint8_t *)&(x);                               \
       for (int b_ = 0; b_ < (int)sizeof(T); b_++) (out)[(lane) * (int)sizeof(T) + b_] = p_[b_]; } while (0)

// out layout: fp8 a16 | fp8 b16 | fp8 a32 | fp8 b32 | i8 fill | i8 add | i8 sub | i8 mul | i8 zero | bf16 | f16 | acc | i8 mfma
#define OFF_A16 0
#define OFF_B16 (OFF_A16 + 64 * (int)sizeof(fp8a16_t))
#define OFF_A32 (OFF_B16 + 64 * (int)sizeof(fp8b16_t))
#define OFF_B32 (OFF_A32 + 64 * (int)sizeof(fp8a32_t))
#define OFF_I8 (OFF_B32 + 64 * (int)sizeof(fp8b32_t))
#define I8B (64 * (int)sizeof(i8a_t))
#define OFF_BF (OFF_I8 + 5 * I8B)
#define OFF_F16 (OFF_BF + 64 * (int)sizeof(bf16a_t))
#define OFF_ACC (OFF_F16 + 64 * (int)sizeof(f16b_t))
#define OFF_MM (OFF_ACC + 64 * (int)sizeof(acc32_t))
#define TOTAL (OFF_MM + 64 * (int)sizeof(acci_t))

__global__ void k_fill(uint8_t *out, const int64_t *ia, const int64_t *ib) {
  const int l = (int)threadIdx.x;
  fp8a16_t a16; fp8b16_t b16; fp8a32_t a32; fp8b32_t b32;
  tk_rt_fill(a16, 0x38);   // fp8 e4m3 bits of 1.0
  tk_rt_fill(b16, 0xc4);
  tk_rt_fill(a32, 0x7f);
  tk_rt_zero(b32);
  DUMP_BYTES(fp8a16_t, a16, out + OFF_A16, l);
  DUMP_BYTES(fp8b16_t, b16, out + OFF_B16, l);
  DUMP_BYTES(fp8a32_t, a32, out + OFF_A32, l);
  DUMP_BYTES(fp8b32_t, b32, out + OFF_B32, l);
  i8a_t x, y, z;
  for (int f = 0; f < TK_RT_NF(i8a_t); f++) { x.f[f] = ia[l * TK_RT_NF(i8a_t) + f]; y.f[f] = ib[l * TK_RT_NF(i8a_t) + f]; }
  tk_rt_fill(z, -3);
  DUMP_BYTES(i8a_t, z, out + OFF_I8 + 0 * I8B, l);
  tk_rt_add(z, x, y); DUMP_BYTES(i8a_t, z, out + OFF_I8 + 1 * I8B, l);
  tk_rt_sub(z, x, y); DUMP_BYTES(i8a_t, z, out + OFF_I8 + 2 * I8B, l);
  tk_rt_mul(z, x, y); DUMP_BYTES(i8a_t, z, out + OFF_I8 + 3 * I8B, l);
  tk_rt_zero(z);      DUMP_BYTES(i8a_t, z, out + OFF_I8 + 4 * I8B, l);
  bf16a_t hb; f16b_t hf; acc32_t acc;
  tk_rt_fill(hb, 0x3fc0);  // bf16 bits of 1.5
  tk_rt_fill(hf, -2.25f);
  tk_rt_fill(acc, 0.375f);
  DUMP_BYTES(bf16a_t, hb, out + OFF_BF, l);
  DUMP_BYTES(f16b_t, hf, out + OFF_F16, l);
  DUMP_BYTES(acc32_t, acc, out + OFF_ACC, l);
  // i8 MFMA on filled tiles: every output = 64 * (5 * -7)
  i8a_t ma; i8b_t mb; acci_t mc;
  tk_rt_fill(ma, 5); tk_rt_fill(mb, -7); tk_rt_zero(mc);
  tk_mma_AB(mc, ma, mb, mc);
  DUMP_BYTES(acci_t, mc, out + OFF_MM, l);
}

static int check_bytes(const char *what, const std::vector<uint8_t> &o, int off, int n, uint8_t want) {
  int bad = 0;
  for (int i = 0; i < n; i++) bad += o[off + i] != want;
  TT_CHECK(bad == 0, "%s: %d of %d bytes differ from 0x%02x", what, bad, n, want);
  return bad;
}

int main(void) {
  const int nf = TK_RT_NF(i8a_t);
  std::vector<int64_t> ha(64 * nf), hb(64 * nf);
  for (auto &v : ha) v = (int64_t)(((uint64_t)tt_rand() << 32) | tt_rand());
  for (auto &v : hb) v = (int64_t)(((uint64_t)tt_rand() << 32) | tt_rand());
  uint8_t *d = tt_dev(std::vector<uint8_t>(TOTAL, 0xaa));
  int64_t *da = tt_dev(ha), *db = tt_dev(hb);
  hipLaunchKernelGGL(k_fill, dim3(1), dim3(64), 0, 0, d, da, db);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint8_t> o = tt_host(d, TOTAL);
  check_bytes("fill fp8 A 16x16x32", o, OFF_A16, OFF_B16 - OFF_A16, 0x38);
  check_bytes("fill fp8 B 16x16x32", o, OFF_B16, OFF_A32 - OFF_B16, 0xc4);
  check_bytes("fill fp8 A 32x32x16", o, OFF_A32, OFF_B32 - OFF_A32, 0x7f);
  check_bytes("zero fp8 B 32x32x16", o, OFF_B32, OFF_I8 - OFF_B32, 0x00);
  check_bytes("fill i8 -3", o, OFF_I8, I8B, 0xfd);
  check_bytes("zero i8", o, OFF_I8 + 4 * I8B, I8B, 0x00);
  // i8 elementwise, wrapping int8 arithmetic per byte (CPU reference)
  int bad[3] = {0, 0, 0};
  for (int i = 0; i < 64 * nf * 8; i++) {
    int8_t x = (int8_t)((const uint8_t *)ha.data())[i], y = (int8_t)((const uint8_t *)hb.data())[i];
    bad[0] += (int8_t)o[OFF_I8 + 1 * I8B + i] != (int8_t)(uint8_t)(x + y);
    bad[1] += (int8_t)o[OFF_I8 + 2 * I8B + i] != (int8_t)(uint8_t)(x - y);
    bad[2] += (int8_t)o[OFF_I8 + 3 * I8B + i] != (int8_t)(uint8_t)(x * y);
  }
  TT_CHECK(bad[0] == 0, "i8 add: %d of %d elements wrong", bad[0], 64 * nf * 8);
  TT_CHECK(bad[1] == 0, "i8 sub: %d of %d elements wrong", bad[1], 64 * nf * 8);
  TT_CHECK(bad[2] == 0, "i8 mul: %d of %d elements wrong", bad[2], 64 * nf * 8);
  // 16-bit and f32 fills, element by element
  int bb = 0, bf = 0, bc = 0;
  for (int i = 0; i < 64 * (int)sizeof(bf16a_t) / 2; i++) {
    uint16_t v; memcpy(&v, &o[OFF_BF + 2 * i], 2); bb += v != 0x3fc0;
  }
  for (int i = 0; i < 64 * (int)sizeof(f16b_t) / 2; i++) {
    uint16_t v; memcpy(&v, &o[OFF_F16 + 2 * i], 2); bf += v != 0xc080;  // IEEE half -2.25
  }
  for (int i = 0; i < 64 * (int)sizeof(acc32_t) / 4; i++) {
    float v; memcpy(&v, &o[OFF_ACC + 4 * i], 4); bc += v != 0.375f;
  }
  TT_CHECK(bb == 0, "fill bf16 bits: %d wrong", bb);
  TT_CHECK(bf == 0, "fill f16 value: %d wrong", bf);
  TT_CHECK(bc == 0, "fill f32 accumulator: %d wrong", bc);
  int bm = 0;
  for (int i = 0; i < 64 * (int)sizeof(acci_t) / 4; i++) {
    int32_t v; memcpy(&v, &o[OFF_MM + 4 * i], 4); bm += v != 64 * 5 * -7;
  }
  TT_CHECK(bm == 0, "i8 MFMA on filled tiles: %d of %d outputs differ from %d", bm, 64 * (int)sizeof(acci_t) / 4, 64 * 5 * -7);
  return tt_finish();
}
