// salu.hip: scalar ALU instructions beyond what clang emits for tk's kernels,
// each against a host model written from the CDNA3 ISA guide's SOP1/SOP2
// descriptions (results and SCC). s_flbit_i32 is what clang emits for
// (float) of a uniform int64_t ("leading bits equal to the sign bit, -1 if
// all are": the guide's examples 0x40000000 -> 1, 0x0fffffff -> 4,
// 0xffff0000 -> 16, 0xfffffffe -> 31, 0 and 0xffffffff -> -1). Operands are
// made uniform with readfirstlane; the EXEC-writing ones run inside one asm
// block that restores EXEC.
#include "vtest.h"

enum {
  R_FLBIT_I32, R_FLBIT_I32_I64, R_FF0_B32, R_FF0_B64, R_BCNT0_B32, R_BCNT0_SCC, R_BREV_B64_LO, R_BREV_B64_HI,
  R_BITSET0_B64_LO, R_BITSET0_B64_HI, R_BITSET1_B64_LO, R_BITSET1_B64_HI, R_NAND, R_NOR, R_XNOR, R_XNOR_SCC,
  R_NAND_SE_D, R_NAND_SE_EXEC, R_NOR_SE_EXEC, R_XNOR_SE_EXEC, R_ORN1_SE_EXEC, R_ORN1_SE_SCC,
  R_ANDN1_WR_D, R_ANDN1_WR_EXEC, R_ANDN2_WR_D, R_ANDN2_WR_SCC, R_QUADMASK_B32, R_QUADMASK_B64, R_WQM_B32,
  R_WQM_B64_LO, R_WQM_B64_HI, R_WQM_SCC, R_BITREP_LO, R_BITREP_HI, R_MOVRELS, R_MOVRELS_B64_HI, R_MOVRELD,
  R_FLBIT_FLOAT, NR
};
static const char *r_name[NR] = {
  "s_flbit_i32", "s_flbit_i32_i64", "s_ff0_i32_b32", "s_ff0_i32_b64", "s_bcnt0_i32_b32", "s_bcnt0 scc",
  "s_brev_b64 lo", "s_brev_b64 hi", "s_bitset0_b64 lo", "s_bitset0_b64 hi", "s_bitset1_b64 lo", "s_bitset1_b64 hi",
  "s_nand_b32", "s_nor_b32", "s_xnor_b32", "s_xnor scc", "s_nand_saveexec D", "s_nand_saveexec EXEC",
  "s_nor_saveexec EXEC", "s_xnor_saveexec EXEC", "s_orn1_saveexec EXEC", "s_orn1_saveexec SCC",
  "s_andn1_wrexec D", "s_andn1_wrexec EXEC", "s_andn2_wrexec D", "s_andn2_wrexec SCC", "s_quadmask_b32",
  "s_quadmask_b64", "s_wqm_b32", "s_wqm_b64 lo", "s_wqm_b64 hi", "s_wqm scc", "s_bitreplicate lo",
  "s_bitreplicate hi", "s_movrels_b32", "s_movrels_b64 hi", "s_movreld_b32", "(float)int64 uniform" };

__device__ static uint32_t ufl(uint32_t x) { return (uint32_t)__builtin_amdgcn_readfirstlane((int)x); }
__device__ static uint64_t ufl64(uint64_t x) { return (uint64_t)ufl((uint32_t)x) | (uint64_t)ufl((uint32_t)(x >> 32)) << 32; }

__global__ void salu(const uint64_t *in, uint32_t *out, int n)
{
  for (int i = 0; i < n; i++) {
    uint64_t A = ufl64(in[2 * i]), B = ufl64(in[2 * i + 1]);
    uint32_t a = (uint32_t)A, b = (uint32_t)B;
    uint32_t r[NR];
    uint32_t t, c;
    uint64_t T, U;
    asm volatile("s_flbit_i32 %0, %1" : "=s"(t) : "s"(a)); r[R_FLBIT_I32] = t;
    asm volatile("s_flbit_i32_i64 %0, %1" : "=s"(t) : "s"(A)); r[R_FLBIT_I32_I64] = t;
    asm volatile("s_ff0_i32_b32 %0, %1" : "=s"(t) : "s"(a)); r[R_FF0_B32] = t;
    asm volatile("s_ff0_i32_b64 %0, %1" : "=s"(t) : "s"(A)); r[R_FF0_B64] = t;
    asm volatile("s_bcnt0_i32_b32 %0, %2\n s_cselect_b32 %1, 1, 0" : "=s"(t), "=s"(c) : "s"(a) : "scc");
    r[R_BCNT0_B32] = t; r[R_BCNT0_SCC] = c;
    asm volatile("s_brev_b64 %0, %1" : "=s"(T) : "s"(A)); r[R_BREV_B64_LO] = (uint32_t)T; r[R_BREV_B64_HI] = (uint32_t)(T >> 32);
    T = A; asm volatile("s_bitset0_b64 %0, %1" : "+s"(T) : "s"(b)); r[R_BITSET0_B64_LO] = (uint32_t)T; r[R_BITSET0_B64_HI] = (uint32_t)(T >> 32);
    T = A; asm volatile("s_bitset1_b64 %0, %1" : "+s"(T) : "s"(b)); r[R_BITSET1_B64_LO] = (uint32_t)T; r[R_BITSET1_B64_HI] = (uint32_t)(T >> 32);
    asm volatile("s_nand_b32 %0, %1, %2" : "=s"(t) : "s"(a), "s"(b) : "scc"); r[R_NAND] = t;
    asm volatile("s_nor_b32 %0, %1, %2" : "=s"(t) : "s"(a), "s"(b) : "scc"); r[R_NOR] = t;
    asm volatile("s_xnor_b32 %0, %2, %3\n s_cselect_b32 %1, 1, 0" : "=s"(t), "=s"(c) : "s"(a), "s"(b) : "scc");
    r[R_XNOR] = t; r[R_XNOR_SCC] = c;
    /* EXEC = B for the instruction, restored afterwards; results read inside */
#define SAVEEXEC(insn, dlo, elo, sccidx)                                                              \
    asm volatile("s_mov_b64 s[40:41], exec\n s_mov_b64 exec, %3\n " insn " %0, %2\n s_cselect_b32 %4, 1, 0\n" \
                 " s_mov_b64 %1, exec\n s_mov_b64 exec, s[40:41]"                                       \
                 : "=&s"(T), "=&s"(U), "+s"(A), "+s"(B), "=&s"(c) : : "s40", "s41", "scc");           \
    if ((dlo) >= 0) r[dlo] = (uint32_t)T;                                                             \
    if ((elo) >= 0) r[elo] = (uint32_t)U;                                                             \
    if ((sccidx) >= 0) r[sccidx] = c;
    SAVEEXEC("s_nand_saveexec_b64", R_NAND_SE_D, R_NAND_SE_EXEC, -1)
    SAVEEXEC("s_nor_saveexec_b64", -1, R_NOR_SE_EXEC, -1)
    SAVEEXEC("s_xnor_saveexec_b64", -1, R_XNOR_SE_EXEC, -1)
    SAVEEXEC("s_orn1_saveexec_b64", -1, R_ORN1_SE_EXEC, R_ORN1_SE_SCC)
    SAVEEXEC("s_andn1_wrexec_b64", R_ANDN1_WR_D, R_ANDN1_WR_EXEC, -1)
    SAVEEXEC("s_andn2_wrexec_b64", R_ANDN2_WR_D, -1, R_ANDN2_WR_SCC)
    asm volatile("s_quadmask_b32 %0, %1" : "=s"(t) : "s"(a) : "scc"); r[R_QUADMASK_B32] = t;
    asm volatile("s_quadmask_b64 %0, %1" : "=s"(T) : "s"(A) : "scc"); r[R_QUADMASK_B64] = (uint32_t)T;
    asm volatile("s_wqm_b32 %0, %1" : "=s"(t) : "s"(a) : "scc"); r[R_WQM_B32] = t;
    asm volatile("s_wqm_b64 %0, %2\n s_cselect_b32 %1, 1, 0" : "=s"(T), "=s"(c) : "s"(A) : "scc");
    r[R_WQM_B64_LO] = (uint32_t)T; r[R_WQM_B64_HI] = (uint32_t)(T >> 32); r[R_WQM_SCC] = c;
    asm volatile("s_bitreplicate_b64_b32 %0, %1" : "=s"(T) : "s"(a)); r[R_BITREP_LO] = (uint32_t)T; r[R_BITREP_HI] = (uint32_t)(T >> 32);
    /* s40..s47 = a + k; M0 = b & 7 (b & 6 for the 64-bit form); M0 is saved
     * and restored inside (the compiler reserves it) */
    uint32_t sv;
    asm volatile("s_add_u32 s40, %2, 0\n s_add_u32 s41, %2, 1\n s_add_u32 s42, %2, 2\n s_add_u32 s43, %2, 3\n"
                 " s_add_u32 s44, %2, 4\n s_add_u32 s45, %2, 5\n s_add_u32 s46, %2, 6\n s_add_u32 s47, %2, 7\n"
                 " s_mov_b32 %1, m0\n s_and_b32 m0, %3, 7\n s_movrels_b32 %0, s40\n s_mov_b32 m0, %1"
                 : "=&s"(t), "=&s"(sv) : "s"(a), "s"(b) : "s40", "s41", "s42", "s43", "s44", "s45", "s46", "s47", "scc");
    r[R_MOVRELS] = t;
    asm volatile("s_add_u32 s40, %2, 0\n s_add_u32 s41, %2, 1\n s_add_u32 s42, %2, 2\n s_add_u32 s43, %2, 3\n"
                 " s_add_u32 s44, %2, 4\n s_add_u32 s45, %2, 5\n s_add_u32 s46, %2, 6\n s_add_u32 s47, %2, 7\n"
                 " s_mov_b32 %1, m0\n s_and_b32 m0, %3, 6\n s_movrels_b64 %0, s[40:41]\n s_mov_b32 m0, %1"
                 : "=&s"(T), "=&s"(sv) : "s"(a), "s"(b) : "s40", "s41", "s42", "s43", "s44", "s45", "s46", "s47", "scc");
    r[R_MOVRELS_B64_HI] = (uint32_t)(T >> 32);
    /* s40..s47 = 0, SGPR[40 + (b & 7)] = a, then the sum of s40..s47 weighted by index+1 */
    asm volatile("s_mov_b32 s40, 0\n s_mov_b32 s41, 0\n s_mov_b32 s42, 0\n s_mov_b32 s43, 0\n"
                 " s_mov_b32 s44, 0\n s_mov_b32 s45, 0\n s_mov_b32 s46, 0\n s_mov_b32 s47, 0\n"
                 " s_mov_b32 %1, m0\n s_and_b32 m0, %3, 7\n s_movreld_b32 s40, %2\n s_mov_b32 m0, %1\n"
                 " s_mul_i32 s41, s41, 2\n s_mul_i32 s42, s42, 3\n s_mul_i32 s43, s43, 4\n s_mul_i32 s44, s44, 5\n"
                 " s_mul_i32 s45, s45, 6\n s_mul_i32 s46, s46, 7\n s_mul_i32 s47, s47, 8\n"
                 " s_add_u32 %0, s40, s41\n s_add_u32 %0, %0, s42\n s_add_u32 %0, %0, s43\n s_add_u32 %0, %0, s44\n"
                 " s_add_u32 %0, %0, s45\n s_add_u32 %0, %0, s46\n s_add_u32 %0, %0, s47"
                 : "=&s"(t), "=&s"(sv) : "s"(a), "s"(b) : "s40", "s41", "s42", "s43", "s44", "s45", "s46", "s47", "scc");
    r[R_MOVRELD] = t;
    float f = (float)(int64_t)A; /* clang: s_flbit_i32 on the high word, shifts, v_cvt_f32_u32, v_ldexp */
    r[R_FLBIT_FLOAT] = __float_as_uint(f);
    if (threadIdx.x == 0)
      for (int k = 0; k < NR; k++) out[i * NR + k] = r[k];
  }
}

/* ---- host model (CDNA3 ISA guide) */
static uint32_t clz32(uint32_t x) { uint32_t n = 0; while (n < 32 && !(x >> (31 - n) & 1)) n++; return n; }
static uint32_t clz64(uint64_t x) { uint32_t n = 0; while (n < 64 && !(x >> (63 - n) & 1)) n++; return n; }
static uint32_t ctz64(uint64_t x) { uint32_t n = 0; while (n < 64 && !(x >> n & 1)) n++; return n; }
static uint32_t popc64(uint64_t x) { uint32_t n = 0; for (int i = 0; i < 64; i++) n += (x >> i) & 1; return n; }

static void model(uint64_t A, uint64_t B, uint32_t *r)
{
  uint32_t a = (uint32_t)A, b = (uint32_t)B;
  /* same-as-sign run length: count from the MSB while the bit equals bit 31 */
  uint32_t s = a >> 31, n = 0;
  while (n < 32 && ((a >> (31 - n)) & 1) == s) n++;
  r[R_FLBIT_I32] = n == 32 ? 0xffffffffu : n;
  uint32_t S = (uint32_t)(A >> 63), N = 0;
  while (N < 64 && ((A >> (63 - N)) & 1) == S) N++;
  r[R_FLBIT_I32_I64] = N == 64 ? 0xffffffffu : N;
  r[R_FF0_B32] = a == 0xffffffffu ? 0xffffffffu : ctz64(~(uint64_t)a);
  r[R_FF0_B64] = A == ~0ull ? 0xffffffffu : ctz64(~A);
  r[R_BCNT0_B32] = 32 - popc64(a);
  r[R_BCNT0_SCC] = r[R_BCNT0_B32] != 0;
  uint64_t rev = 0;
  for (int i = 0; i < 64; i++) if ((A >> i) & 1) rev |= 1ull << (63 - i);
  r[R_BREV_B64_LO] = (uint32_t)rev; r[R_BREV_B64_HI] = (uint32_t)(rev >> 32);
  uint64_t x = A & ~(1ull << (b & 63));
  r[R_BITSET0_B64_LO] = (uint32_t)x; r[R_BITSET0_B64_HI] = (uint32_t)(x >> 32);
  x = A | (1ull << (b & 63));
  r[R_BITSET1_B64_LO] = (uint32_t)x; r[R_BITSET1_B64_HI] = (uint32_t)(x >> 32);
  r[R_NAND] = ~(a & b); r[R_NOR] = ~(a | b); r[R_XNOR] = ~(a ^ b); r[R_XNOR_SCC] = r[R_XNOR] != 0;
  /* saveexec with EXEC = B: D = old EXEC; EXEC = op(S0 = A, EXEC) */
  r[R_NAND_SE_D] = (uint32_t)B;
  r[R_NAND_SE_EXEC] = (uint32_t)~(A & B);
  r[R_NOR_SE_EXEC] = (uint32_t)~(A | B);
  r[R_XNOR_SE_EXEC] = (uint32_t)~(A ^ B);
  r[R_ORN1_SE_EXEC] = (uint32_t)(~A | B);
  r[R_ORN1_SE_SCC] = (~A | B) != 0;
  r[R_ANDN1_WR_D] = (uint32_t)(~A & B);
  r[R_ANDN1_WR_EXEC] = (uint32_t)(~A & B);
  r[R_ANDN2_WR_D] = (uint32_t)(A & ~B);
  r[R_ANDN2_WR_SCC] = (A & ~B) != 0;
  uint32_t q = 0; for (int i = 0; i < 8; i++) if ((a >> (4 * i)) & 15) q |= 1u << i;
  r[R_QUADMASK_B32] = q;
  uint32_t q64 = 0; for (int i = 0; i < 16; i++) if ((A >> (4 * i)) & 15) q64 |= 1u << i;
  r[R_QUADMASK_B64] = q64;
  uint32_t wq = 0; for (int i = 0; i < 8; i++) if ((a >> (4 * i)) & 15) wq |= 15u << (4 * i);
  r[R_WQM_B32] = wq;
  uint64_t wq64 = 0; for (int i = 0; i < 16; i++) if ((A >> (4 * i)) & 15) wq64 |= 15ull << (4 * i);
  r[R_WQM_B64_LO] = (uint32_t)wq64; r[R_WQM_B64_HI] = (uint32_t)(wq64 >> 32); r[R_WQM_SCC] = wq64 != 0;
  uint64_t rep = 0; for (int i = 0; i < 32; i++) if ((a >> i) & 1) rep |= 3ull << (2 * i);
  r[R_BITREP_LO] = (uint32_t)rep; r[R_BITREP_HI] = (uint32_t)(rep >> 32);
  r[R_MOVRELS] = a + (b & 7);
  r[R_MOVRELS_B64_HI] = a + (b & 6) + 1;
  r[R_MOVRELD] = a * ((b & 7) + 1);
  r[R_FLBIT_FLOAT] = vt_f2u((float)(int64_t)A);
  (void)clz32; (void)clz64;
}

int main()
{
  std::vector<uint64_t> in;
  const uint64_t edge[] = { 0, 1, 0x40000000u, 0x0fffffffu, 0xffff0000u, 0xfffffffeu, 0xffffffffu, 0x80000000u,
                            0x7fffffffu, ~0ull, 0x8000000000000000ull, 0x00000000ffffffffull, 0xffffffff00000000ull,
                            0x0123456789abcdefull, 0xfedcba9876543210ull, 0x4000000000000000ull, 0x00f000000f000010ull };
  const int ne = sizeof edge / sizeof edge[0];
  for (int i = 0; i < ne; i++)
    for (int j = 0; j < ne; j += 3) { in.push_back(edge[i]); in.push_back(edge[j] + (uint64_t)i * 17); }
  uint64_t s = 0x243f6a8885a308d3ull;
  for (int i = 0; i < 64; i++) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17; uint64_t x = s;
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    in.push_back(i & 1 ? x >> (i & 31) : x); in.push_back(s);
  }
  int n = (int)in.size() / 2;
  uint64_t *din; uint32_t *dout;
  VT_HIP(hipMalloc(&din, in.size() * 8));
  VT_HIP(hipMalloc(&dout, (size_t)n * NR * 4));
  VT_HIP(hipMemcpy(din, in.data(), in.size() * 8, hipMemcpyHostToDevice));
  hipLaunchKernelGGL(salu, dim3(1), dim3(64), 0, 0, din, dout, n);
  VT_HIP(hipGetLastError());
  std::vector<uint32_t> out((size_t)n * NR);
  VT_HIP(hipMemcpy(out.data(), dout, out.size() * 4, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    uint32_t want[NR];
    model(in[2 * i], in[2 * i + 1], want);
    for (int k = 0; k < NR; k++) {
      char what[96];
      snprintf(what, sizeof what, "%s(0x%llx, 0x%llx)", r_name[k], (unsigned long long)in[2 * i],
               (unsigned long long)in[2 * i + 1]);
      vt_check_u32(what, i, out[(size_t)i * NR + k], want[k]);
    }
  }
  VT_HIP(hipFree(din)); VT_HIP(hipFree(dout));
  printf("salu: %d checks, %d failures\n", vt_checks, vt_failures);
  return vt_failures ? 1 : 0;
}
