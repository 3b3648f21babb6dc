/* tksim's vectorized dense bf16/f16 MFMA path (sim/exec/mfma.c) against its
 * general path (the same file built with TKS_MFMA_GENERAL_ONLY, whose results
 * the tksim_isa_* MFMA tests check against host references): every output
 * register bit-identical, on random register files of four kinds - any bits
 * (NaN inputs: the general path takes over), finite values with denormals,
 * values near 1, and finite values with some infinities (inf*0, inf-inf
 * make NaNs inside) - for all eight dense bf16/f16 shapes of gfx950,
 * accumulator in VGPRs (aliasing the destination or not) or an inline
 * constant. */
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec_internal.h"

int tks_exec_mfma_general(tks_wave *w, const tks_inst *in);

static uint64_t rs = 1;
static uint32_t rnd(void)
{
  rs = rs * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rs >> 32);
}
static uint32_t val(int kind)
{
  uint32_t r = rnd();
  switch (kind) {
  case 0: return r;
  case 1: return r & 0xbfffbfffu; /* bit 14 (and 30) clear: no bf16/f16/f32 inf or NaN */
  case 2: return (r & 0x807f807fu) | 0x3c003c00u;
  default: {
    uint32_t x = r & 0xbfffbfffu, t = rnd() % 64;
    if (t == 0) x = (x & 0xffff0000u) | 0x7f80u;      /* bf16 +inf */
    else if (t == 1) x = (x & 0xffffu) | 0xff800000u; /* bf16 -inf */
    else if (t == 2) x = (x & 0xffff0000u) | 0xfc00u; /* f16 -inf */
    else if (t == 3) x = 0x7f800000u;                  /* f32 +inf */
    return x;
  }
  }
}

int main(void)
{
  const int ops[] = {TKS_OP_MFMA_F32_32X32X8_BF16, TKS_OP_MFMA_F32_16X16X16_BF16, TKS_OP_MFMA_F32_32X32X8_F16,
                     TKS_OP_MFMA_F32_16X16X16_F16, TKS_OP_MFMA_F32_16X16X32_BF16, TKS_OP_MFMA_F32_16X16X32_F16,
                     TKS_OP_MFMA_F32_32X32X16_BF16, TKS_OP_MFMA_F32_32X32X16_F16};
  static tks_code_object co;
  static tks_kernel k;
  static tks_launch_stats ws[1];
  static tks_ctx c;
  static tks_group g;
  static tks_wave w1, w2;
  co.arch = TKS_ARCH_GFX950;
  k.co = &co;
  c.k = &k;
  c.wstats = ws;
  w1.c = w2.c = &c;
  w1.g = w2.g = &g;
  w1.v = calloc(TKS_NVGPR, sizeof *w1.v);
  w2.v = calloc(TKS_NVGPR, sizeof *w2.v);
  if (!w1.v || !w2.v) return 1;
  long bad = 0, words = 0, nan_out = 0;
  for (int it = 0; it < 2000; it++) {
    tks_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)ops[it % 8];
    in.cls = TKS_CLASS_MFMA;
    in.nsrc = 3;
    in.ndst = 1;
    in.src[0].kind = in.src[1].kind = in.dst[0].kind = TKS_OPK_VGPR;
    in.src[0].reg = (uint16_t)(rnd() % 512);
    in.src[1].reg = (uint16_t)(rnd() % 512);
    in.dst[0].reg = (uint16_t)(rnd() % 512);
    const int kind = (it / 8) % 4;
    if (rnd() % 4 == 0) {
      in.src[2].kind = TKS_OPK_IMM;
      in.src[2].imm = rnd() % 2 ? 0 : val(kind);
    } else {
      in.src[2].kind = TKS_OPK_VGPR;
      in.src[2].reg = (uint16_t)(rnd() % 4 ? in.dst[0].reg : rnd() % 512);
    }
    for (int r = 0; r < TKS_NVGPR; r++)
      for (int l = 0; l < 64; l++) w1.v[r][l] = w2.v[r][l] = val(kind);
    const int a = tks_exec_mfma_general(&w1, &in), b = tks_exec_mfma(&w2, &in);
    if (a != 0 || b != 0) {
      printf("FAIL: op %d returned %d (general) / %d (fast)\n", in.op, a, b);
      return 1;
    }
    for (int r = 0; r < TKS_NVGPR; r++)
      for (int l = 0; l < 64; l++) {
        const uint32_t x = w1.v[r][l], y = w2.v[r][l];
        nan_out += (x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu) && r == in.dst[0].reg;
        if (x != y && bad++ < 5)
          printf("FAIL: op %d kind %d (iteration %d): v%d lane %d general 0x%08x fast 0x%08x\n", in.op, kind, it, r,
                 l, x, y);
        words++;
      }
  }
  printf("%ld register words compared after 2000 MFMAs, %ld differ (%ld NaN results in first destination "
         "registers)\n", words, bad, nan_out);
  return bad != 0 || nan_out == 0;
}
