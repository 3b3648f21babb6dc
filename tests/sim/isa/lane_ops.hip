// lane_ops.hip: cross-lane operations against host models of their documented
// semantics: __shfl family, ballot/any/all, readlane/readfirstlane, DPP
// (__builtin_amdgcn_update_dpp / mov_dpp), ds_swizzle, ds_bpermute/ds_permute.
//
// DPP (CDNA3 ISA guide, "DPP" and the dpp_ctrl table; LLVM AMDGPUUsage DPP
// syntax): lanes form rows of 16 and banks of 4 lanes within a row; quad_perm
// selects within groups of 4, row_shl/shr:n read lane i+n / i-n of the same
// row, row_ror:n reads (i-n) mod 16 in the row, row_mirror 15-i, half_mirror
// 7-i within 8, wave_shr:1 lane i-1, wave_rol:1 lane i+1 mod 64, row_bcast:15
// gives row r lane 16r-1, row_bcast:31 gives rows 2,3 lane 31. A lane whose
// source is out of range writes 0 with bound_ctrl, else keeps `old`; lanes of
// rows/banks cleared in row_mask/bank_mask keep `old`.
// ds_swizzle (ISA guide DS_SWIZZLE_B32): offset bit 15 set = quad permute
// (2 bits per lane of the quad), else bit-mask mode within 32 lanes:
// src = ((lane & and) | or) ^ xor, masks in offset[4:0], [9:5], [14:10].
// ds_bpermute: lane i reads lane (addr[i] / 4) mod 64; ds_permute: lane
// (addr[i] / 4) mod 64 receives lane i's value.
#include "vtest.h"

#define NT 128
enum {
  L_SHFL, L_SHFL_W16, L_XOR5, L_UP3, L_DOWN5, L_BALLOT_LO, L_BALLOT_HI, L_ANY, L_ALL, L_READLANE,
  L_FIRST_DIV, L_LANEID, L_QPERM, L_SHR1_BC, L_SHR3_OLD, L_SHL2_OLD, L_ROR4, L_MIRROR, L_HMIRROR,
  L_SHR1_ROWMASK, L_QPERM_BANKMASK, L_WSHR1, L_WROL1, L_BCAST15, L_BCAST31, L_MOVDPP_SHR2,
  L_SWZ_QUAD, L_SWZ_SWAP1, L_SWZ_BCAST3, L_SWZ_XOR16, L_BPERM, L_BPERM_WRAP, L_PERM, NL
};
static const char *lname[NL] = {
  "shfl(7l+3)", "shfl(3,w16)", "shfl_xor 5", "shfl_up 3", "shfl_down 5", "ballot lo", "ballot hi",
  "any", "all", "readlane 37", "readfirstlane divergent", "lane id", "dpp quad_perm[3,2,1,0]",
  "dpp row_shr:1 bound_ctrl", "dpp row_shr:3 old", "dpp row_shl:2 old", "dpp row_ror:4",
  "dpp row_mirror", "dpp row_half_mirror", "dpp row_shr:1 row_mask 0x5",
  "dpp quad_perm bank_mask 0x3", "dpp wave_shr:1", "dpp wave_rol:1", "dpp row_bcast:15 mask 0xa",
  "dpp row_bcast:31 mask 0xc", "mov_dpp row_shr:2 bound_ctrl", "ds_swizzle quad[1,0,3,2]",
  "ds_swizzle swap1", "ds_swizzle bcast lane 3 of 8", "ds_swizzle xor 16", "ds_bpermute",
  "ds_bpermute addr>=256", "ds_permute" };

__global__ void lanes(const uint32_t *in, uint32_t *out)
{
  int t = threadIdx.x;
  int lane = t & 63;
  uint32_t v = in[t];
  uint32_t old = 0xAAAA0000u + (uint32_t)t;
  uint32_t *o = out + t;
  o[L_SHFL * NT] = (uint32_t)__shfl((int)v, (lane * 7 + 3) % 64);
  o[L_SHFL_W16 * NT] = (uint32_t)__shfl((int)v, 3, 16);
  o[L_XOR5 * NT] = (uint32_t)__shfl_xor((int)v, 5);
  o[L_UP3 * NT] = (uint32_t)__shfl_up((int)v, 3);
  o[L_DOWN5 * NT] = (uint32_t)__shfl_down((int)v, 5);
  unsigned long long bal = __ballot(v & 1);
  o[L_BALLOT_LO * NT] = (uint32_t)bal;
  o[L_BALLOT_HI * NT] = (uint32_t)(bal >> 32);
  o[L_ANY * NT] = (uint32_t)__any(v % 97 == 5);
  o[L_ALL * NT] = (uint32_t)__all(v != 0x12345678u);
  o[L_READLANE * NT] = (uint32_t)__builtin_amdgcn_readlane((int)v, 37);
  uint32_t f = 0xFFFFFFFFu;
  if (lane >= 10 && lane % 3 == 0) f = (uint32_t)__builtin_amdgcn_readfirstlane((int)v);
  o[L_FIRST_DIV * NT] = f;
  o[L_LANEID * NT] = __lane_id();
  int iv = (int)v, io = (int)old;
  o[L_QPERM * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x1B, 0xf, 0xf, false);
  o[L_SHR1_BC * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x111, 0xf, 0xf, true);
  o[L_SHR3_OLD * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x113, 0xf, 0xf, false);
  o[L_SHL2_OLD * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x102, 0xf, 0xf, false);
  o[L_ROR4 * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x124, 0xf, 0xf, false);
  o[L_MIRROR * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x140, 0xf, 0xf, false);
  o[L_HMIRROR * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x141, 0xf, 0xf, false);
  o[L_SHR1_ROWMASK * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x111, 0x5, 0xf, true);
  o[L_QPERM_BANKMASK * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x1B, 0xf, 0x3, false);
  o[L_WSHR1 * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x138, 0xf, 0xf, true);
  o[L_WROL1 * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x134, 0xf, 0xf, false);
  o[L_BCAST15 * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x142, 0xa, 0xf, false);
  o[L_BCAST31 * NT] = (uint32_t)__builtin_amdgcn_update_dpp(io, iv, 0x143, 0xc, 0xf, false);
  o[L_MOVDPP_SHR2 * NT] = (uint32_t)__builtin_amdgcn_mov_dpp(iv, 0x112, 0xf, 0xf, true);
  o[L_SWZ_QUAD * NT] = (uint32_t)__builtin_amdgcn_ds_swizzle(iv, 0x80B1);
  o[L_SWZ_SWAP1 * NT] = (uint32_t)__builtin_amdgcn_ds_swizzle(iv, 0x041F);
  o[L_SWZ_BCAST3 * NT] = (uint32_t)__builtin_amdgcn_ds_swizzle(iv, 0x0078);
  o[L_SWZ_XOR16 * NT] = (uint32_t)__builtin_amdgcn_ds_swizzle(iv, 0x401F);
  o[L_BPERM * NT] = (uint32_t)__builtin_amdgcn_ds_bpermute(((lane * 5 + 1) % 64) * 4, iv);
  o[L_BPERM_WRAP * NT] = (uint32_t)__builtin_amdgcn_ds_bpermute(((lane + 9) % 64) * 4 + 256, iv);
  o[L_PERM * NT] = (uint32_t)__builtin_amdgcn_ds_permute(((lane * 13 + 7) % 64) * 4, iv);
}

/* host model; v: this wave's 64 inputs, old: the 'old' operands */
static uint32_t dpp(const uint32_t *v, const uint32_t *old, int lane, int ctrl, int row_mask,
                    int bank_mask, bool bc)
{
  int row = lane / 16, in_row = lane % 16, bank = in_row / 4;
  if (!((row_mask >> row) & 1) || !((bank_mask >> bank) & 1)) return old[lane];
  int src = -1;
  if (ctrl <= 0xFF) src = (lane & ~3) + ((ctrl >> (2 * (lane & 3))) & 3);
  else if (ctrl >= 0x101 && ctrl <= 0x10F) src = in_row + (ctrl & 15) < 16 ? lane + (ctrl & 15) : -1;
  else if (ctrl >= 0x111 && ctrl <= 0x11F) src = in_row >= (ctrl & 15) ? lane - (ctrl & 15) : -1;
  else if (ctrl >= 0x121 && ctrl <= 0x12F) src = row * 16 + ((in_row - (ctrl & 15)) & 15);
  else if (ctrl == 0x140) src = row * 16 + 15 - in_row;
  else if (ctrl == 0x141) src = (lane & ~7) + 7 - (lane & 7);
  else if (ctrl == 0x138) src = lane >= 1 ? lane - 1 : -1;
  else if (ctrl == 0x134) src = (lane + 1) % 64;
  else if (ctrl == 0x142) src = row >= 1 ? row * 16 - 1 : -1;
  else if (ctrl == 0x143) src = row >= 2 ? 31 : -1;
  if (src < 0) return bc ? 0u : old[lane];
  return v[src];
}

int main()
{
  std::vector<uint32_t> in(NT);
  uint64_t s = 99;
  for (int i = 0; i < NT; i++) in[i] = (uint32_t)vt_rand(&s);
  in[70] = 0x12345678u; /* wave 1: __all is false */
  vt_buf<uint32_t> din(in), dout((size_t)NT * NL);
  dout.zero();
  lanes<<<1, NT>>>(din.d, dout.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  std::vector<uint32_t> o = dout.get();
  for (int w = 0; w < NT / 64; w++) {
    const uint32_t *v = &in[w * 64];
    uint32_t old[64];
    for (int l = 0; l < 64; l++) old[l] = 0xAAAA0000u + (uint32_t)(w * 64 + l);
    uint64_t bal = 0;
    int any = 0, all = 1;
    for (int l = 0; l < 64; l++) {
      bal |= (uint64_t)(v[l] & 1) << l;
      any |= v[l] % 97 == 5;
      all &= v[l] != 0x12345678u;
    }
    uint32_t want[NL][64];
    for (int l = 0; l < 64; l++) {
      want[L_SHFL][l] = v[(l * 7 + 3) % 64];
      want[L_SHFL_W16][l] = v[(l & ~15) + 3];
      want[L_XOR5][l] = v[l ^ 5];
      want[L_UP3][l] = l >= 3 ? v[l - 3] : v[l];
      want[L_DOWN5][l] = l + 5 < 64 ? v[l + 5] : v[l];
      want[L_BALLOT_LO][l] = (uint32_t)bal;
      want[L_BALLOT_HI][l] = (uint32_t)(bal >> 32);
      want[L_ANY][l] = (uint32_t)any;
      want[L_ALL][l] = (uint32_t)all;
      want[L_READLANE][l] = v[37];
      want[L_FIRST_DIV][l] = (l >= 10 && l % 3 == 0) ? v[12] : 0xFFFFFFFFu;
      want[L_LANEID][l] = (uint32_t)l;
      want[L_QPERM][l] = dpp(v, old, l, 0x1B, 0xf, 0xf, false);
      want[L_SHR1_BC][l] = dpp(v, old, l, 0x111, 0xf, 0xf, true);
      want[L_SHR3_OLD][l] = dpp(v, old, l, 0x113, 0xf, 0xf, false);
      want[L_SHL2_OLD][l] = dpp(v, old, l, 0x102, 0xf, 0xf, false);
      want[L_ROR4][l] = dpp(v, old, l, 0x124, 0xf, 0xf, false);
      want[L_MIRROR][l] = dpp(v, old, l, 0x140, 0xf, 0xf, false);
      want[L_HMIRROR][l] = dpp(v, old, l, 0x141, 0xf, 0xf, false);
      want[L_SHR1_ROWMASK][l] = dpp(v, old, l, 0x111, 0x5, 0xf, true);
      want[L_QPERM_BANKMASK][l] = dpp(v, old, l, 0x1B, 0xf, 0x3, false);
      want[L_WSHR1][l] = dpp(v, old, l, 0x138, 0xf, 0xf, true);
      want[L_WROL1][l] = dpp(v, old, l, 0x134, 0xf, 0xf, false);
      want[L_BCAST15][l] = dpp(v, old, l, 0x142, 0xa, 0xf, false);
      want[L_BCAST31][l] = dpp(v, old, l, 0x143, 0xc, 0xf, false);
      want[L_MOVDPP_SHR2][l] = dpp(v, old, l, 0x112, 0xf, 0xf, true);
      int q[4] = { 1, 0, 3, 2 };
      want[L_SWZ_QUAD][l] = v[(l & ~3) + q[l & 3]];
      want[L_SWZ_SWAP1][l] = v[(l & 32) + (((l & 31) & 0x1f) ^ 1)];
      want[L_SWZ_BCAST3][l] = v[(l & 32) + (((l & 31) & 0x18) | 3)];
      want[L_SWZ_XOR16][l] = v[(l & 32) + ((l & 31) ^ 16)];
      want[L_BPERM][l] = v[(l * 5 + 1) % 64];
      want[L_BPERM_WRAP][l] = v[(l + 9) % 64];
      want[L_PERM][(l * 13 + 7) % 64] = v[l];
    }
    for (int op = 0; op < NL; op++)
      for (int l = 0; l < 64; l++) {
        char what[96];
        snprintf(what, sizeof what, "%s (wave %d)", lname[op], w);
        vt_check_u32(what, l, o[(size_t)op * NT + w * 64 + l], want[op][l]);
      }
  }
  return vt_finish("lane_ops");
}
