/* exec.c: tksim's dispatch engine: workgroups over worker threads, waves of a
 * workgroup interleaved round-robin on one thread, the initial wave state,
 * scalar ALU, control flow, s_waitcnt and s_barrier.
 *
 * Hardware facts relied on:
 *  - initial SGPR/VGPR state from the kernel descriptor (LLVM AMDGPUUsage,
 *    "Kernel Descriptor" and "Initial Kernel Execution State"): user SGPRs in
 *    the order private segment buffer, dispatch ptr, queue ptr, kernarg ptr,
 *    dispatch id, flat scratch init, private segment size, then preloaded
 *    kernargs (gfx940+), then from USER_SGPR_COUNT the workgroup ids x/y/z,
 *    workgroup info and private segment wave offset as enabled in rsrc2;
 *    v0 = x | y << 10 | z << 20 (packed work-item ids, gfx90a+).
 *  - s_barrier waits for the waves of the group that have not ended (CDNA3
 *    ISA guide, S_BARRIER: terminated waves are not waited for).
 *  - scalar semantics: CDNA3 ISA guide ch. 4 (SOP1/SOP2/SOPK/SOPC/SOPP).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>

#include "exec/exec_internal.h"

#define TKS_QUANTUM 64
#define TKS_SLICE (1u << 20)  /* instructions before a worker admits another group */
#define TKS_STALL_SECONDS 30u /* the stall guard's default (tks_options.stall_seconds) */

/* ------------------------------------------------------------------ errors */
void tks_fail(tks_ctx *c, const char *fmt, ...)
{
  pthread_mutex_lock(&c->err_lock);
  if (!c->failed && !c->err[0]) {
    va_list ap; va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
  }
  __atomic_store_n(&c->failed, 1, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&c->err_lock);
}

void tks_soft_error(tks_ctx *c, const char *fmt, ...)
{
  pthread_mutex_lock(&c->err_lock);
  if (!c->err[0]) {
    va_list ap; va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
  }
  __atomic_store_n(&c->error_flag, 1, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&c->err_lock);
}

const char *tks_text(const tks_wave *w, const tks_inst *in) { return tks_inst_text(w->c->p, in); }

void tks_unimpl(tks_wave *w, const tks_inst *in)
{
  tks_fail(w->c, "unimplemented instruction '%s' in kernel %s at PC 0x%x", tks_text(w, in),
           w->c->k->name, in->pc);
  w->state = TKS_WS_DONE;
}

/* ------------------------------------------------------------------ scalar ALU */
static inline void s_dst32(tks_wave *w, const tks_inst *in, uint32_t v) { tks_swrite32(w, in->dst[0].reg, v); }
static inline void s_dst64(tks_wave *w, const tks_inst *in, uint64_t v)
{
  if (in->dst[0].reg == 126 || in->dst[0].reg < 126) tks_swrite64(w, in->dst[0].reg, v);
}

static uint32_t hwreg_read(tks_wave *w, uint32_t simm)
{
  uint32_t id = simm & 63, off = (simm >> 6) & 31, size = ((simm >> 11) & 31) + 1;
  uint32_t v = 0;
  if (id == 1) v = w->mode;                       /* HW_REG_MODE */
  else if (id == 4) v = (w->id & 15) | ((w->id & 3) << 8) | ((w->g->worker & 15) << 4); /* HW_REG_HW_ID (approx.) */
  uint32_t mask = size >= 32 ? 0xffffffffu : ((1u << size) - 1);
  return (v >> off) & mask;
}

static void hwreg_write(tks_wave *w, uint32_t simm, uint32_t val)
{
  uint32_t id = simm & 63, off = (simm >> 6) & 31, size = ((simm >> 11) & 31) + 1;
  uint32_t mask = size >= 32 ? 0xffffffffu : ((1u << size) - 1);
  if (id == 1) {
    w->mode = (w->mode & ~(mask << off)) | ((val & mask) << off);
    w->ftz32 = ((w->mode >> 4) & 3) != 3;
    w->ftz16 = ((w->mode >> 6) & 3) != 3;
  }
}

static int exec_salu(tks_wave *w, const tks_inst *in)
{
  const tks_operand *s0 = &in->src[0], *s1 = &in->src[1];
  uint32_t a, b, r;
  uint64_t A, B, R;
  switch (in->op) {
#define A32 a = tks_op32(w, s0)
#define B32 b = tks_op32(w, s1)
#define A64 A = tks_op64(w, s0)
#define B64 B = tks_op64(w, s1)
  case TKS_OP_S_MOV_B32: case TKS_OP_S_MOVK_I32: A32; s_dst32(w, in, a); break;
  case TKS_OP_S_MOV_B64: A64; s_dst64(w, in, A); break;
  case TKS_OP_S_CMOV_B32: case TKS_OP_S_CMOVK_I32: A32; if (w->scc) s_dst32(w, in, a); break;
  case TKS_OP_S_CMOV_B64: A64; if (w->scc) s_dst64(w, in, A); break;
  case TKS_OP_S_CSELECT_B32: A32; B32; s_dst32(w, in, w->scc ? a : b); break;
  case TKS_OP_S_CSELECT_B64: A64; B64; s_dst64(w, in, w->scc ? A : B); break;
  case TKS_OP_S_NOT_B32: A32; r = ~a; w->scc = r != 0; s_dst32(w, in, r); break;
  case TKS_OP_S_NOT_B64: A64; R = ~A; w->scc = R != 0; s_dst64(w, in, R); break;
  case TKS_OP_S_BREV_B32: A32; r = 0; for (int i = 0; i < 32; i++) r |= ((a >> i) & 1u) << (31 - i); s_dst32(w, in, r); break;
#define LOG32(e) A32; B32; r = (e); w->scc = r != 0; s_dst32(w, in, r); break;
#define LOG64(e) A64; B64; R = (e); w->scc = R != 0; s_dst64(w, in, R); break;
  case TKS_OP_S_AND_B32: LOG32(a & b)
  case TKS_OP_S_OR_B32: LOG32(a | b)
  case TKS_OP_S_XOR_B32: LOG32(a ^ b)
  case TKS_OP_S_ANDN2_B32: LOG32(a & ~b)
  case TKS_OP_S_ORN2_B32: LOG32(a | ~b)
  case TKS_OP_S_AND_B64: LOG64(A & B)
  case TKS_OP_S_OR_B64: LOG64(A | B)
  case TKS_OP_S_XOR_B64: LOG64(A ^ B)
  case TKS_OP_S_ANDN2_B64: LOG64(A & ~B)
  case TKS_OP_S_ORN2_B64: LOG64(A | ~B)
  case TKS_OP_S_NAND_B64: LOG64(~(A & B))
  case TKS_OP_S_NOR_B64: LOG64(~(A | B))
  case TKS_OP_S_XNOR_B64: LOG64(~(A ^ B))
  case TKS_OP_S_AND_SAVEEXEC_B64: case TKS_OP_S_OR_SAVEEXEC_B64: case TKS_OP_S_XOR_SAVEEXEC_B64:
  case TKS_OP_S_ANDN2_SAVEEXEC_B64: case TKS_OP_S_ORN2_SAVEEXEC_B64: case TKS_OP_S_ANDN1_SAVEEXEC_B64: {
    A64;
    uint64_t e = tks_exec_mask(w);
    s_dst64(w, in, e);
    switch (in->op) {
    case TKS_OP_S_AND_SAVEEXEC_B64: R = A & e; break;
    case TKS_OP_S_OR_SAVEEXEC_B64: R = A | e; break;
    case TKS_OP_S_XOR_SAVEEXEC_B64: R = A ^ e; break;
    case TKS_OP_S_ANDN2_SAVEEXEC_B64: R = A & ~e; break;
    case TKS_OP_S_ORN2_SAVEEXEC_B64: R = A | ~e; break;
    default: R = ~A & e; break;
    }
    tks_set_exec(w, R);
    w->scc = R != 0;
    break;
  }
  case TKS_OP_S_ADD_U32: A32; B32; R = (uint64_t)a + b; w->scc = (R >> 32) != 0; s_dst32(w, in, (uint32_t)R); break;
  case TKS_OP_S_ADDC_U32: A32; B32; R = (uint64_t)a + b + w->scc; w->scc = (R >> 32) != 0; s_dst32(w, in, (uint32_t)R); break;
  case TKS_OP_S_SUB_U32: A32; B32; w->scc = b > a; s_dst32(w, in, a - b); break;
  case TKS_OP_S_SUBB_U32: A32; B32; { uint64_t t = (uint64_t)b + w->scc; w->scc = t > a; s_dst32(w, in, (uint32_t)(a - t)); } break;
  case TKS_OP_S_ADD_I32: A32; B32; r = a + b; w->scc = ((~(a ^ b) & (a ^ r)) >> 31) & 1; s_dst32(w, in, r); break;
  case TKS_OP_S_SUB_I32: A32; B32; r = a - b; w->scc = (((a ^ b) & (a ^ r)) >> 31) & 1; s_dst32(w, in, r); break;
  case TKS_OP_S_ADDK_I32: a = tks_op32(w, &in->dst[0]); b = (uint32_t)(int32_t)(int16_t)in->offset; r = a + b;
    w->scc = ((~(a ^ b) & (a ^ r)) >> 31) & 1; s_dst32(w, in, r); break;
  case TKS_OP_S_MULK_I32: a = tks_op32(w, &in->dst[0]); s_dst32(w, in, a * (uint32_t)(int32_t)(int16_t)in->offset); break;
  case TKS_OP_S_MUL_I32: A32; B32; s_dst32(w, in, a * b); break;
  case TKS_OP_S_MUL_HI_U32: A32; B32; s_dst32(w, in, (uint32_t)(((uint64_t)a * b) >> 32)); break;
  case TKS_OP_S_MUL_HI_I32: A32; B32; s_dst32(w, in, (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32)); break;
  case TKS_OP_S_LSHL_B32: LOG32(a << (b & 31))
  case TKS_OP_S_LSHR_B32: LOG32(a >> (b & 31))
  case TKS_OP_S_ASHR_I32: LOG32((uint32_t)((int32_t)a >> (b & 31)))
  case TKS_OP_S_LSHL_B64: A64; b = tks_op32(w, s1); R = A << (b & 63); w->scc = R != 0; s_dst64(w, in, R); break;
  case TKS_OP_S_LSHR_B64: A64; b = tks_op32(w, s1); R = A >> (b & 63); w->scc = R != 0; s_dst64(w, in, R); break;
  case TKS_OP_S_ASHR_I64: A64; b = tks_op32(w, s1); R = (uint64_t)((int64_t)A >> (b & 63)); w->scc = R != 0; s_dst64(w, in, R); break;
  case TKS_OP_S_LSHL1_ADD_U32: case TKS_OP_S_LSHL2_ADD_U32: case TKS_OP_S_LSHL3_ADD_U32: case TKS_OP_S_LSHL4_ADD_U32: {
    A32; B32;
    int sh = 1 + (in->op - TKS_OP_S_LSHL1_ADD_U32);
    R = ((uint64_t)a << sh) + b;
    w->scc = (R >> 32) != 0;
    s_dst32(w, in, (uint32_t)R);
    break;
  }
  case TKS_OP_S_BFE_U32: case TKS_OP_S_BFE_I32: {
    A32; B32;
    uint32_t off = b & 31, wd = (b >> 16) & 127;
    if (wd == 0) r = 0;
    else {
      if (wd > 32) wd = 32;
      uint64_t v = (uint64_t)a >> off;
      v &= wd >= 32 ? 0xffffffffull : ((1ull << wd) - 1);
      if (in->op == TKS_OP_S_BFE_I32 && wd < 32 && (v >> (wd - 1) & 1)) v |= ~((1ull << wd) - 1);
      r = (uint32_t)v;
    }
    w->scc = r != 0; s_dst32(w, in, r);
    break;
  }
  case TKS_OP_S_BFE_U64: case TKS_OP_S_BFE_I64: {
    A64; b = tks_op32(w, s1);
    uint32_t off = b & 63, wd = (b >> 16) & 127;
    if (wd == 0) R = 0;
    else {
      if (wd > 64) wd = 64;
      R = A >> off;
      if (wd < 64) {
        R &= (1ull << wd) - 1;
        if (in->op == TKS_OP_S_BFE_I64 && (R >> (wd - 1) & 1)) R |= ~((1ull << wd) - 1);
      }
    }
    w->scc = R != 0; s_dst64(w, in, R);
    break;
  }
  case TKS_OP_S_BFM_B32: A32; B32; s_dst32(w, in, (uint32_t)(((1ull << (a & 31)) - 1) << (b & 31))); break;
  case TKS_OP_S_BFM_B64: A32; B32; s_dst64(w, in, ((a & 63) == 0 ? 0 : ((a & 63) >= 64 ? ~0ull : ((1ull << (a & 63)) - 1))) << (b & 63)); break;
  case TKS_OP_S_MIN_I32: A32; B32; w->scc = (int32_t)a < (int32_t)b; s_dst32(w, in, w->scc ? a : b); break;
  case TKS_OP_S_MIN_U32: A32; B32; w->scc = a < b; s_dst32(w, in, w->scc ? a : b); break;
  case TKS_OP_S_MAX_I32: A32; B32; w->scc = (int32_t)a > (int32_t)b; s_dst32(w, in, w->scc ? a : b); break;
  case TKS_OP_S_MAX_U32: A32; B32; w->scc = a > b; s_dst32(w, in, w->scc ? a : b); break;
  case TKS_OP_S_ABS_I32: A32; r = (int32_t)a < 0 ? 0u - a : a; w->scc = r != 0; s_dst32(w, in, r); break;
  case TKS_OP_S_ABSDIFF_I32: A32; B32; r = (uint32_t)((int32_t)a - (int32_t)b); if ((int32_t)r < 0) r = 0u - r; w->scc = r != 0; s_dst32(w, in, r); break;
  case TKS_OP_S_SEXT_I32_I8: A32; s_dst32(w, in, (uint32_t)(int32_t)(int8_t)a); break;
  case TKS_OP_S_SEXT_I32_I16: A32; s_dst32(w, in, (uint32_t)(int32_t)(int16_t)a); break;
  case TKS_OP_S_FF1_I32_B32: A32; s_dst32(w, in, a ? (uint32_t)__builtin_ctz(a) : 0xffffffffu); break;
  case TKS_OP_S_FF1_I32_B64: A64; s_dst32(w, in, A ? (uint32_t)__builtin_ctzll(A) : 0xffffffffu); break;
  case TKS_OP_S_FLBIT_I32_B32: A32; s_dst32(w, in, a ? (uint32_t)__builtin_clz(a) : 0xffffffffu); break;
  case TKS_OP_S_FLBIT_I32_B64: A64; s_dst32(w, in, A ? (uint32_t)__builtin_clzll(A) : 0xffffffffu); break;
  case TKS_OP_S_BCNT1_I32_B32: A32; r = (uint32_t)__builtin_popcount(a); w->scc = r != 0; s_dst32(w, in, r); break;
  case TKS_OP_S_BCNT1_I32_B64: A64; r = (uint32_t)__builtin_popcountll(A); w->scc = r != 0; s_dst32(w, in, r); break;
  case TKS_OP_S_BCNT0_I32_B64: A64; r = 64u - (uint32_t)__builtin_popcountll(A); w->scc = r != 0; s_dst32(w, in, r); break;
  case TKS_OP_S_BITSET0_B32: A32; r = tks_op32(w, &in->dst[0]) & ~(1u << (a & 31)); s_dst32(w, in, r); break;
  case TKS_OP_S_BITSET1_B32: A32; r = tks_op32(w, &in->dst[0]) | (1u << (a & 31)); s_dst32(w, in, r); break;
  case TKS_OP_S_PACK_LL_B32_B16: A32; B32; s_dst32(w, in, (a & 0xffff) | (b << 16)); break;
  case TKS_OP_S_PACK_LH_B32_B16: A32; B32; s_dst32(w, in, (a & 0xffff) | (b & 0xffff0000u)); break;
  case TKS_OP_S_PACK_HH_B32_B16: A32; B32; s_dst32(w, in, (a >> 16) | (b & 0xffff0000u)); break;
  case TKS_OP_S_BITCMP0_B32: A32; B32; w->scc = ((a >> (b & 31)) & 1) == 0; break;
  case TKS_OP_S_BITCMP1_B32: A32; B32; w->scc = ((a >> (b & 31)) & 1) == 1; break;
  case TKS_OP_S_BITCMP0_B64: A64; b = tks_op32(w, s1); w->scc = ((A >> (b & 63)) & 1) == 0; break;
  case TKS_OP_S_BITCMP1_B64: A64; b = tks_op32(w, s1); w->scc = ((A >> (b & 63)) & 1) == 1; break;
  case TKS_OP_S_CMP: {
    int64_t x, y;
    if (in->cmpx == 2) { /* s_cmpk: SSRC is the register, simm16 the constant */
      a = tks_op32(w, s0);
      b = in->sub_ty == TKS_CT_I32 ? (uint32_t)(int32_t)(int16_t)in->offset : (uint32_t)(in->offset & 0xffff);
    } else if (in->sub_ty >= TKS_CT_I64) {
      A64; B64;
      x = (int64_t)A; y = (int64_t)B;
      w->scc = in->sub == TKS_CMP_EQ ? A == B : A != B;
      break;
    } else { A32; B32; }
    if (in->sub_ty == TKS_CT_I32) { x = (int32_t)a; y = (int32_t)b; } else { x = a; y = b; }
    switch (in->sub) {
    case TKS_CMP_EQ: w->scc = x == y; break;
    case TKS_CMP_LG: w->scc = x != y; break;
    case TKS_CMP_GT: w->scc = x > y; break;
    case TKS_CMP_GE: w->scc = x >= y; break;
    case TKS_CMP_LT: w->scc = x < y; break;
    case TKS_CMP_LE: w->scc = x <= y; break;
    default: return -1;
    }
    break;
  }
  case TKS_OP_S_GETPC_B64:
    s_dst64(w, in, w->c->k->code_addr + (uint64_t)(int64_t)(int32_t)in->pc + in->len);
    break;
  case TKS_OP_S_GETREG_B32: s_dst32(w, in, hwreg_read(w, (uint32_t)in->offset)); break;
  /* VGPR indexing (CDNA3 ISA guide, S_SET_GPR_IDX_*): the index and the operand
   * kinds it applies to live in M0[7:0] and M0[15:12] */
  case TKS_OP_S_SET_GPR_IDX_ON:
    w->gpr_idx_en = 1;
    w->s[124] = (w->s[124] & ~0xf0ffu) | (tks_op32(w, s0) & 0xff) | ((tks_op32(w, s1) & 15) << 12);
    break;
  case TKS_OP_S_SET_GPR_IDX_OFF: w->gpr_idx_en = 0; break;
  case TKS_OP_S_SET_GPR_IDX_IDX: w->s[124] = (w->s[124] & ~0xffu) | (tks_op32(w, s0) & 0xff); break;
  case TKS_OP_S_SET_GPR_IDX_MODE: w->s[124] = (w->s[124] & ~0xf000u) | ((tks_op32(w, s0) & 15) << 12); break;
  case TKS_OP_S_SETREG_B32: case TKS_OP_S_SETREG_IMM32_B32:
    /* the text's first operand is hwreg(...) (taken from simm16), the value follows */
    hwreg_write(w, (uint32_t)in->offset, tks_op32(w, in->nsrc > 1 ? s1 : s0));
    break;
  /* s_flbit_i32: leading bits equal to the sign bit, -1 for 0 and -1 (CDNA3
   * ISA guide, S_FLBIT_I32: 0x40000000 -> 1, 0xffff0000 -> 16) */
  case TKS_OP_S_FLBIT_I32: A32; r = a ^ (uint32_t)((int32_t)a >> 31); s_dst32(w, in, r ? (uint32_t)__builtin_clz(r) : 0xffffffffu); break;
  case TKS_OP_S_FLBIT_I32_I64: A64; R = A ^ (uint64_t)((int64_t)A >> 63); s_dst32(w, in, R ? (uint32_t)__builtin_clzll(R) : 0xffffffffu); break;
  case TKS_OP_S_FF0_I32_B32: A32; s_dst32(w, in, ~a ? (uint32_t)__builtin_ctz(~a) : 0xffffffffu); break;
  case TKS_OP_S_FF0_I32_B64: A64; s_dst32(w, in, ~A ? (uint32_t)__builtin_ctzll(~A) : 0xffffffffu); break;
  case TKS_OP_S_BCNT0_I32_B32: A32; r = 32u - (uint32_t)__builtin_popcount(a); w->scc = r != 0; s_dst32(w, in, r); break;
  case TKS_OP_S_BREV_B64: A64; R = 0; for (int i = 0; i < 64; i++) R |= ((A >> i) & 1ull) << (63 - i); s_dst64(w, in, R); break;
  case TKS_OP_S_BITSET0_B64: A32; R = tks_op64(w, &in->dst[0]) & ~(1ull << (a & 63)); s_dst64(w, in, R); break;
  case TKS_OP_S_BITSET1_B64: A32; R = tks_op64(w, &in->dst[0]) | (1ull << (a & 63)); s_dst64(w, in, R); break;
  case TKS_OP_S_NAND_B32: LOG32(~(a & b))
  case TKS_OP_S_NOR_B32: LOG32(~(a | b))
  case TKS_OP_S_XNOR_B32: LOG32(~(a ^ b))
  /* D = old EXEC, EXEC = f(S0, EXEC), SCC = EXEC != 0 */
  case TKS_OP_S_NAND_SAVEEXEC_B64: case TKS_OP_S_NOR_SAVEEXEC_B64: case TKS_OP_S_XNOR_SAVEEXEC_B64:
  case TKS_OP_S_ORN1_SAVEEXEC_B64: {
    A64;
    uint64_t e = tks_exec_mask(w);
    s_dst64(w, in, e);
    R = in->op == TKS_OP_S_NAND_SAVEEXEC_B64 ? ~(A & e) : in->op == TKS_OP_S_NOR_SAVEEXEC_B64 ? ~(A | e)
      : in->op == TKS_OP_S_XNOR_SAVEEXEC_B64 ? ~(A ^ e) : (~A | e);
    tks_set_exec(w, R);
    w->scc = R != 0;
    break;
  }
  /* EXEC = f(S0, EXEC), D = the new EXEC, SCC = EXEC != 0 */
  case TKS_OP_S_ANDN1_WREXEC_B64: case TKS_OP_S_ANDN2_WREXEC_B64: {
    A64;
    uint64_t e = tks_exec_mask(w);
    R = in->op == TKS_OP_S_ANDN1_WREXEC_B64 ? (~A & e) : (A & ~e);
    tks_set_exec(w, R);
    s_dst64(w, in, R);
    w->scc = R != 0;
    break;
  }
  case TKS_OP_S_QUADMASK_B32: A32; r = 0; for (int i = 0; i < 8; i++) r |= (uint32_t)(((a >> (4 * i)) & 15) != 0) << i;
    w->scc = r != 0; s_dst32(w, in, r); break;
  case TKS_OP_S_QUADMASK_B64: A64; R = 0; for (int i = 0; i < 16; i++) R |= (uint64_t)(((A >> (4 * i)) & 15) != 0) << i;
    w->scc = R != 0; s_dst64(w, in, R); break;
  case TKS_OP_S_WQM_B32: A32; r = 0; for (int i = 0; i < 8; i++) if ((a >> (4 * i)) & 15) r |= 15u << (4 * i);
    w->scc = r != 0; s_dst32(w, in, r); break;
  case TKS_OP_S_WQM_B64: A64; R = 0; for (int i = 0; i < 16; i++) if ((A >> (4 * i)) & 15) R |= 15ull << (4 * i);
    w->scc = R != 0; s_dst64(w, in, R); break;
  case TKS_OP_S_BITREPLICATE_B64_B32: A32; R = 0; for (int i = 0; i < 32; i++) if ((a >> i) & 1) R |= 3ull << (2 * i);
    s_dst64(w, in, R); break;
  /* SGPR[addr + M0]: relative addressing of the scalar register file (S0 or D
   * must be an SGPR; the result must stay within s0..s101) */
  case TKS_OP_S_MOVRELS_B32: case TKS_OP_S_MOVRELS_B64: case TKS_OP_S_MOVRELD_B32: case TKS_OP_S_MOVRELD_B64: {
    int d64 = in->op == TKS_OP_S_MOVRELS_B64 || in->op == TKS_OP_S_MOVRELD_B64;
    int rel_src = in->op == TKS_OP_S_MOVRELS_B32 || in->op == TKS_OP_S_MOVRELS_B64;
    const tks_operand *rel = rel_src ? s0 : &in->dst[0];
    uint32_t idx = rel->reg + w->s[124];
    if (rel->kind != TKS_OPK_SGPR || idx + (uint32_t)d64 > 101) {
      tks_fail(w->c, "kernel %s: '%s' at PC 0x%x addresses s%u (M0 = %u) outside s0..s101", w->c->k->name,
               tks_text(w, in), in->pc, idx, w->s[124]);
      w->state = TKS_WS_DONE;
      return 0;
    }
    if (rel_src) {
      tks_operand o = *s0; o.reg = (uint16_t)idx;
      if (d64) s_dst64(w, in, tks_op64(w, &o)); else s_dst32(w, in, tks_op32(w, &o));
    } else if (d64) {
      A64; tks_swrite64(w, (uint16_t)idx, A);
    } else {
      A32; tks_swrite32(w, (uint16_t)idx, a);
    }
    break;
  }
  default: return -1;
#undef A32
#undef B32
#undef A64
#undef B64
#undef LOG32
#undef LOG64
  }
  return 0;
}

/* Jumps to a device address (s_setpc/s_swappc). */
static int jump_to(tks_wave *w, const tks_inst *in, uint64_t addr)
{
  int32_t idx = tks_program_index(w->c->p, addr);
  if (idx < 0) {
    tks_fail(w->c, "kernel %s: '%s' at PC 0x%x jumps to 0x%llx, which is not decoded code of this "
             "kernel or of a function it calls statically (indirect calls are not supported)",
             w->c->k->name, tks_text(w, in), in->pc, (unsigned long long)addr);
    w->state = TKS_WS_DONE;
    return -1;
  }
  w->pc = (uint32_t)idx;
  return 0;
}

/* ------------------------------------------------------------------ waves */
static void fill_view(tks_wave *w)
{
  tks_group *g = w->g;
  w->view.worker = g->worker;
  w->view.wave_in_group = w->id;
  w->view.simd = w->id & 3;
  w->view.group_id[0] = g->id[0]; w->view.group_id[1] = g->id[1]; w->view.group_id[2] = g->id[2];
  w->view.group_linear = g->linear;
  w->view.waves_per_group = w->c->waves_per_group;
  w->view.wave_id = g->linear * w->c->waves_per_group + w->id;
}

static void init_wave(tks_ctx *c, tks_group *g, tks_wave *w, uint32_t id)
{
  const tks_dispatch *d = c->d;
  const tks_kernel *k = c->k;
  memset(w->s, 0, sizeof w->s);
  w->scc = 0; w->pc = 0; w->state = TKS_WS_RUN; w->id = id; w->g = g; w->c = c;
  w->icount = 0; w->cache_lo = w->cache_hi = 0; w->gpr_idx_en = 0;
  w->sleep_pc = UINT32_MAX;
  w->since_sleep = 0;
  w->vm_seq = w->vm_done = w->lds_seq = w->lds_done = w->sm_seq = w->sm_done = 0;
  memset(w->vtag_dom, 0, sizeof w->vtag_dom);
  memset(w->stag_dom, 0, sizeof w->stag_dom);
  uint32_t rsrc1 = k->kd.compute_pgm_rsrc1, rsrc2 = k->kd.compute_pgm_rsrc2;
  /* MODE: round nearest, denorm fields from rsrc1 [19:16] */
  w->mode = ((rsrc1 >> 12) & 0xff);
  w->ftz32 = ((w->mode >> 4) & 3) != 3;
  w->ftz16 = ((w->mode >> 6) & 3) != 3;
  w->s[235] = (uint32_t)(TKS_SHARED_BASE >> 32);
  w->s[236] = (uint32_t)((TKS_SHARED_BASE + TKS_APERTURE_SIZE - 1) >> 32);
  w->s[237] = (uint32_t)(TKS_PRIVATE_BASE >> 32);
  w->s[238] = (uint32_t)((TKS_PRIVATE_BASE + TKS_APERTURE_SIZE - 1) >> 32);
  uint32_t props = k->kd.kernel_code_properties;
  uint32_t sg = 0;
  if (props & 1) { /* private segment buffer: a V# nobody should use on gfx942 */
    w->s[sg] = 0; w->s[sg + 1] = 0; w->s[sg + 2] = c->priv_size * 64; w->s[sg + 3] = 0x00027000; sg += 4;
  }
  if (props & 2) { uint64_t p = (uint64_t)(uintptr_t)d->dispatch_packet; w->s[sg] = (uint32_t)p; w->s[sg + 1] = (uint32_t)(p >> 32); sg += 2; }
  if (props & 4) { uint64_t p = (uint64_t)(uintptr_t)d->queue; w->s[sg] = (uint32_t)p; w->s[sg + 1] = (uint32_t)(p >> 32); sg += 2; }
  if (props & 8) { uint64_t p = (uint64_t)(uintptr_t)d->kernarg; w->s[sg] = (uint32_t)p; w->s[sg + 1] = (uint32_t)(p >> 32); sg += 2; }
  if (props & 16) { w->s[sg] = 0; w->s[sg + 1] = 0; sg += 2; }
  if (props & 32) { w->s[sg] = 0; w->s[sg + 1] = c->priv_size; sg += 2; }
  if (props & 64) { w->s[sg] = c->priv_size; sg += 1; }
  uint32_t preload_len = k->kd.kernarg_preload & 0x7f, preload_off = (k->kd.kernarg_preload >> 7) & 0x1ff;
  for (uint32_t i = 0; i < preload_len && sg < 102; i++) {
    uint32_t off = (preload_off + i) * 4;
    if (d->kernarg && off + 4 <= k->kernarg_segment_size + 256) memcpy(&w->s[sg], d->kernarg + off, 4);
    sg++;
  }
  sg = (rsrc2 >> 1) & 31; /* USER_SGPR_COUNT */
  if (rsrc2 & (1u << 7)) w->s[sg++] = g->id[0];
  if (rsrc2 & (1u << 8)) w->s[sg++] = g->id[1];
  if (rsrc2 & (1u << 9)) w->s[sg++] = g->id[2];
  if (rsrc2 & (1u << 10)) w->s[sg++] = 0;  /* workgroup info */
  if (rsrc2 & 1) w->s[sg++] = 0;           /* private segment wave offset */
  /* work-item ids and EXEC */
  uint32_t bx = g->size[0], by = g->size[1], bz = g->size[2];
  uint32_t nthreads = bx * by * bz;
  uint64_t exec = 0;
  for (uint32_t l = 0; l < 64; l++) {
    uint32_t f = id * 64 + l;
    uint32_t x = 0, y = 0, z = 0;
    if (f < nthreads) {
      exec |= 1ull << l;
      x = f % bx; y = (f / bx) % by; z = f / (bx * by);
    }
    w->v[0][l] = x | (y << 10) | (z << 20);
  }
  tks_set_exec(w, exec);
  fill_view(w);
}

/* ------------------------------------------------------------------ stepping */
static void do_waitcnt(tks_wave *w, const tks_inst *in)
{
  uint32_t simm = (uint32_t)in->offset & 0xffff;
  int vm = (int)((simm & 15) | ((simm >> 14) & 3) << 4);
  int exp = (int)((simm >> 4) & 7);
  int lgkm = (int)((simm >> 8) & 15);
  if (w->c->opt->check_waits) tks_wait_retire(w, vm, lgkm);
  if (w->c->hooks)
    for (int h = 0; h < tks_hook_n; h++)
      if (tks_hook_table[h].waitcnt) {
        tks_inst_view iv; tks_fill_inst_view(w, in, &iv);
        w->view.exec = tks_exec_mask(w);
        tks_hook_table[h].waitcnt(tks_hook_table[h].user, &w->view, &iv, vm, lgkm, exp);
      }
}

/* Runs up to n instructions of w. Returns instructions executed. */
static uint64_t run_wave(tks_wave *w, uint64_t n, tks_launch_stats *st)
{
  tks_ctx *c = w->c;
  const tks_program *p = c->p;
  const int check_waits = c->opt->check_waits;
  const int hooks = c->hooks;
  uint64_t done = 0;
  while (done < n && w->state == TKS_WS_RUN) {
    if (w->pc >= p->n) {
      tks_fail(c, "kernel %s: execution ran past the end of the code (PC 0x%x)", c->k->name, p->code_size);
      w->state = TKS_WS_DONE;
      break;
    }
    const tks_inst *in = &p->inst[w->pc];
    done++;
    if (hooks) {
      tks_inst_view iv; tks_fill_inst_view(w, in, &iv);
      w->view.exec = tks_exec_mask(w);
      for (int h = 0; h < tks_hook_n; h++)
        if (tks_hook_table[h].issue) tks_hook_table[h].issue(tks_hook_table[h].user, &w->view, &iv);
    }
    if (check_waits && tks_wait_pending(w)) tks_wait_check(w, in);
    uint32_t next = w->pc + 1;
    int rc = 0;
    switch (in->cls) {
    case TKS_CLASS_SALU:
      st->salu++;
      rc = exec_salu(w, in);
      break;
    case TKS_CLASS_VALU:
      st->valu++;
      st->lane_instructions += (uint64_t)__builtin_popcountll(tks_exec_mask(w));
      if (w->gpr_idx_en) {
        /* index mode: offset the enabled VGPR operands by M0[7:0] */
        tks_inst t = *in;
        uint32_t idx = w->s[124] & 0xff, kinds = (w->s[124] >> 12) & 15;
        for (int i = 0; i < 3; i++)
          if ((kinds >> i & 1) && t.src[i].kind == TKS_OPK_VGPR) t.src[i].reg = (uint16_t)((t.src[i].reg + idx) & (TKS_NVGPR - 1));
        if ((kinds & 8) && t.dst[0].kind == TKS_OPK_VGPR) t.dst[0].reg = (uint16_t)((t.dst[0].reg + idx) & (TKS_NVGPR - 1));
        rc = tks_exec_valu(w, &t);
      } else
        rc = tks_exec_valu(w, in);
      break;
    case TKS_CLASS_MFMA:
      st->mfma++;
      st->lane_instructions += 64;
      rc = tks_exec_mfma(w, in);
      break;
    case TKS_CLASS_SMEM: case TKS_CLASS_DS: case TKS_CLASS_VMEM:
      if (in->cls == TKS_CLASS_SMEM) st->smem++;
      rc = tks_exec_mem(w, in);
      /* a blocked ds_gws_sema_p: run it again after the others had a turn */
      if (__builtin_expect(w->retry, 0)) { w->retry = 0; w->blocked = 1; w->g->slept = 1; return done; }
      break;
    case TKS_CLASS_WAITCNT:
      st->waitcnt++;
      do_waitcnt(w, in);
      break;
    case TKS_CLASS_BARRIER:
      st->barrier++;
      if (hooks) {
        tks_inst_view iv; tks_fill_inst_view(w, in, &iv);
        for (int h = 0; h < tks_hook_n; h++)
          if (tks_hook_table[h].barrier_arrive) tks_hook_table[h].barrier_arrive(tks_hook_table[h].user, &w->view, &iv);
      }
      w->state = TKS_WS_BARRIER;
      break;
    case TKS_CLASS_BRANCH: {
      st->branch++;
      int take = 0;
      switch (in->op) {
      case TKS_OP_S_BRANCH: take = 1; break;
      case TKS_OP_S_CBRANCH_SCC0: take = w->scc == 0; break;
      case TKS_OP_S_CBRANCH_SCC1: take = w->scc != 0; break;
      case TKS_OP_S_CBRANCH_VCCZ: take = tks_vcc(w) == 0; break;
      case TKS_OP_S_CBRANCH_VCCNZ: take = tks_vcc(w) != 0; break;
      case TKS_OP_S_CBRANCH_EXECZ: take = tks_exec_mask(w) == 0; break;
      case TKS_OP_S_CBRANCH_EXECNZ: take = tks_exec_mask(w) != 0; break;
      case TKS_OP_S_SETPC_B64: case TKS_OP_S_RFE_B64: case TKS_OP_S_RFE_RESTORE_B64: {
        uint64_t a = tks_op64(w, &in->src[0]);
        if (jump_to(w, in, a) == 0) next = w->pc;
        else return done;
        break;
      }
      /* debugger branches: taken only while a debugger is attached (never here) */
      case TKS_OP_S_CBRANCH_CDBGSYS: case TKS_OP_S_CBRANCH_CDBGUSER:
      case TKS_OP_S_CBRANCH_CDBGSYS_OR_USER: case TKS_OP_S_CBRANCH_CDBGSYS_AND_USER: break;
      case TKS_OP_S_CALL_B64:
        tks_swrite64(w, in->dst[0].reg, c->k->code_addr + (uint64_t)(int64_t)(int32_t)in->pc + 4);
        take = 1;
        break;
      case TKS_OP_S_SWAPPC_B64: {
        uint64_t a = tks_op64(w, &in->src[0]);
        tks_swrite64(w, in->dst[0].reg, c->k->code_addr + (uint64_t)(int64_t)(int32_t)in->pc + in->len);
        if (jump_to(w, in, a) == 0) next = w->pc;
        else return done;
        break;
      }
      default: rc = -1;
      }
      if (take) {
        if (in->target < 0) {
          tks_fail(c, "kernel %s: branch '%s' at PC 0x%x leaves the kernel's code", c->k->name,
                   tks_text(w, in), in->pc);
          w->state = TKS_WS_DONE;
          return done;
        }
        next = (uint32_t)in->target;
      }
      break;
    }
    case TKS_CLASS_MISC:
      switch (in->op) {
      case TKS_OP_S_ENDPGM: case TKS_OP_S_ENDPGM_SAVED:
        w->state = TKS_WS_DONE;
        if (hooks)
          for (int h = 0; h < tks_hook_n; h++)
            if (tks_hook_table[h].wave_end) tks_hook_table[h].wave_end(tks_hook_table[h].user, &w->view);
        break;
      case TKS_OP_S_NOP: case TKS_OP_S_SETPRIO: case TKS_OP_S_ICACHE_INV: case TKS_OP_S_DCACHE_INV:
      case TKS_OP_S_DCACHE_WB: case TKS_OP_S_DCACHE_DISCARD: case TKS_OP_S_DCACHE_DISCARD_X2: case TKS_OP_S_TTRACEDATA: case TKS_OP_BUFFER_WBL2: case TKS_OP_BUFFER_INV:
      case TKS_OP_BUFFER_WBINVL1: case TKS_OP_BUFFER_WBINVL1_VOL: case TKS_OP_S_SENDMSG:
      case TKS_OP_S_WAKEUP: case TKS_OP_S_INCPERFLEVEL: case TKS_OP_S_DECPERFLEVEL:
      case TKS_OP_S_ATC_PROBE: case TKS_OP_S_ATC_PROBE_BUFFER:
        break;
      case TKS_OP_S_SLEEP:
        /* a spin-wait: let the other waves and resident groups run */
        if (w->sleep_pc != w->pc) w->g->busy = 1, w->sleep_pc = w->pc;
        w->pc = next;
        w->g->slept = 1;
        return done;
      case TKS_OP_S_SETHALT: case TKS_OP_S_TRAP: case TKS_OP_S_SENDMSGHALT: {
        char where[64];
        if ((int32_t)in->pc < 0 || in->pc >= p->code_size)
          snprintf(where, sizeof where, "address 0x%llx (a called function)",
                   (unsigned long long)(c->k->code_addr + (uint64_t)(int64_t)(int32_t)in->pc));
        else snprintf(where, sizeof where, "PC 0x%x", in->pc);
        tks_fail(c, "kernel %s: '%s' at %s (wave %u of workgroup (%u,%u,%u)): the kernel "
                 "trapped or halted (assert/abort/__trap?)", c->k->name, tks_text(w, in), where,
                 w->id, w->g->id[0], w->g->id[1], w->g->id[2]);
      }
        w->state = TKS_WS_DONE;
        return done;
      case TKS_OP_S_CODE_END:
        tks_fail(c, "kernel %s: executed s_code_end padding at PC 0x%x", c->k->name, in->pc);
        w->state = TKS_WS_DONE;
        return done;
      default:
        rc = -1;
      }
      break;
    default:
      rc = -1;
    }
    if (rc) { tks_unimpl(w, in); return done; }
    w->pc = next;
  }
  return done;
}

/* ------------------------------------------------------------------ groups */
/* --model-sample: the timing model (sim/model, optional) names the groups a
 * sampled dispatch runs; weak so exec links without it (NEEDS.md). */
__attribute__((weak)) int tks_model_group_selected(uint32_t group_linear);

typedef struct worker_ctx {
  tks_ctx *c;
  uint32_t index;
  tks_launch_stats *st;
} worker_ctx;

static void group_setup(tks_ctx *c, tks_group *g, uint64_t gl, uint32_t slot)
{
  uint32_t gx = (uint32_t)(gl % c->ngroups[0]);
  uint32_t gy = (uint32_t)((gl / c->ngroups[0]) % c->ngroups[1]);
  uint32_t gz = (uint32_t)(gl / ((uint64_t)c->ngroups[0] * c->ngroups[1]));
  g->id[0] = gx; g->id[1] = gy; g->id[2] = gz;
  g->linear = (uint32_t)gl;
  g->worker = slot;
  for (int dmn = 0; dmn < 3; dmn++) {
    uint32_t gid = g->id[dmn];
    uint64_t start = (uint64_t)gid * c->d->block[dmn];
    uint64_t rem = c->d->grid[dmn] - start;
    g->size[dmn] = (uint32_t)(rem < c->d->block[dmn] ? rem : c->d->block[dmn]);
  }
  uint32_t nthreads = g->size[0] * g->size[1] * g->size[2];
  g->nwaves = (nthreads + 63) / 64;
  memset(g->lds, 0, g->lds_size);
  g->done = 0;
  g->slept = 0;
  for (uint32_t i = 0; i < g->nwaves; i++) init_wave(c, g, &g->waves[i], i);
  if (c->hooks)
    for (int h = 0; h < tks_hook_n; h++)
      if (tks_hook_table[h].group_begin) tks_hook_table[h].group_begin(tks_hook_table[h].user, slot, g->id, g->linear, g->nwaves);
}

/* Runs g for about `slice` instructions; returns 1 when the group finished, 2 when a wave
 * slept (s_sleep: it waits on another group), 0 otherwise. */
static int group_slice(tks_ctx *c, tks_group *g, uint64_t slice, tks_launch_stats *st)
{
  uint64_t ran = 0;
  g->busy = 0;
  while (ran < slice) {
    if (__atomic_load_n(&c->failed, __ATOMIC_RELAXED)) return 1;
    uint64_t pass = 0;
    uint32_t alive = 0, at_barrier = 0;
    for (uint32_t i = 0; i < g->nwaves; i++) {
      tks_wave *w = &g->waves[i];
      if (w->state == TKS_WS_GWS && __atomic_load_n(&c->gws_gen, __ATOMIC_ACQUIRE) != w->gws_wait_gen)
        w->state = TKS_WS_RUN;
      if (w->state == TKS_WS_RUN) {
        uint64_t r = run_wave(w, TKS_QUANTUM, st);
        pass += r;
        g->busy |= r >= TKS_QUANTUM / 2; /* more than a poll loop's few instructions before s_sleep */
      }
      if (w->state != TKS_WS_DONE) alive++;
      if (w->state == TKS_WS_BARRIER) at_barrier++;
    }
    ran += pass;
    st->instructions += pass;
    if (alive == 0) {
      if (c->hooks)
        for (int h = 0; h < tks_hook_n; h++)
          if (tks_hook_table[h].group_end) tks_hook_table[h].group_end(tks_hook_table[h].user, g->worker, g->linear);
      return 1;
    }
    if (at_barrier == alive) {
      g->busy = 1;
      for (uint32_t i = 0; i < g->nwaves; i++)
        if (g->waves[i].state == TKS_WS_BARRIER) g->waves[i].state = TKS_WS_RUN;
      if (c->hooks)
        for (int h = 0; h < tks_hook_n; h++)
          if (tks_hook_table[h].barrier_release) tks_hook_table[h].barrier_release(tks_hook_table[h].user, g->worker, g->linear);
    }
    uint64_t total = __atomic_add_fetch(&c->insts_done, pass, __ATOMIC_RELAXED);
    if (total > c->budget) {
      /* name the likely barrier deadlock: waves parked at s_barrier while
       * others keep looping (e.g. spinning on a flag the parked waves set) */
      char extra[512] = "";
      if (at_barrier && at_barrier < alive) {
        uint32_t wb = 0, wr = 0, bpc = 0, rpc = 0;
        int have_b = 0, have_r = 0;
        for (uint32_t i = 0; i < g->nwaves; i++) {
          tks_wave *w = &g->waves[i];
          if (w->state == TKS_WS_BARRIER && !have_b) { wb = i; bpc = c->p->inst[w->pc ? w->pc - 1 : 0].pc; have_b = 1; }
          if (w->state == TKS_WS_RUN && !have_r) { wr = i; rpc = w->pc < c->p->n ? c->p->inst[w->pc].pc : 0; have_r = 1; }
        }
        snprintf(extra, sizeof extra, "; barrier deadlock? in workgroup (%u,%u,%u) %u of %u live waves wait "
                 "at s_barrier (wave %u, PC 0x%x) while wave %u keeps running (now at PC 0x%x)",
                 g->id[0], g->id[1], g->id[2], at_barrier, alive, wb, bpc, wr, rpc);
      }
      tks_fail(c, "kernel %s: instruction budget of %llu wave-instructions exceeded (infinite loop or "
               "spin-wait that cannot finish? raise it with tksim --budget=N)%s",
               c->k->name, (unsigned long long)c->budget, extra);
      return 1;
    }
    if (g->slept) { g->slept = 0; return 2; }
    if (pass == 0 && at_barrier != alive) return 0; /* waves wait on a grid barrier */
  }
  return 0;
}

/* The next workgroup to admit in dispatch order, as the hardware dispatcher: UINT64_MAX while
 * its XCD (gl mod TKS_XCDS) holds TKS_XCD_FIT groups (the dispatcher waits there: in order),
 * total_groups and past when none are left; counted resident on its XCD */
static uint64_t take_group(tks_ctx *c)
{
  uint64_t n = __atomic_load_n(&c->next_group, __ATOMIC_RELAXED);
  for (;;) {
    if (n >= c->total_groups) return n;
    uint32_t *r = &c->xcd_res[n % TKS_XCDS];
    if (__atomic_load_n(r, __ATOMIC_ACQUIRE) >= TKS_XCD_FIT) return UINT64_MAX;
    if (__atomic_compare_exchange_n(&c->next_group, &n, n + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      __atomic_add_fetch(r, 1, __ATOMIC_ACQ_REL);
      return n;
    }
  }
}
static void drop_group(tks_ctx *c, uint64_t gl) { __atomic_sub_fetch(&c->xcd_res[gl % TKS_XCDS], 1, __ATOMIC_ACQ_REL); }

static tks_group *alloc_group(tks_ctx *c)
{
  tks_group *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->lds_size = c->lds_size;
  g->lds = calloc(1, c->lds_size ? c->lds_size : 4);
  g->waves = calloc(c->waves_per_group, sizeof(tks_wave));
  if (!g->lds || !g->waves) return NULL;
  for (uint32_t i = 0; i < c->waves_per_group; i++) {
    g->waves[i].v = malloc(sizeof(uint32_t) * 64 * TKS_NVGPR);
    g->waves[i].priv_size = c->priv_size;
    g->waves[i].priv = c->priv_size ? calloc(64, c->priv_size) : NULL;
    if (!g->waves[i].v || (c->priv_size && !g->waves[i].priv)) return NULL;
    memset(g->waves[i].v, 0, sizeof(uint32_t) * 64 * TKS_NVGPR);
  }
  return g;
}

static void free_group(tks_ctx *c, tks_group *g)
{
  if (!g) return;
  if (g->waves)
    for (uint32_t i = 0; i < c->waves_per_group; i++) { free(g->waves[i].v); free(g->waves[i].priv); }
  free(g->waves); free(g->lds); free(g);
}

/* The stall guard's clock (worker_main, ordered_domains, the cooperative loop): a worker calls
 * stall_idle once per round (or pop) in which nothing progressed and resets rounds when something
 * did; the clock is read every 256 idle rounds, so a busy worker never pays for it. Returns 1 once
 * the idle rounds have lasted stall_seconds of wall time. */
typedef struct stall_clock { uint64_t rounds; struct timespec since; } stall_clock;

static int stall_idle(const tks_ctx *c, stall_clock *k)
{
  if (++k->rounds % 256) return 0;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (k->rounds == 256) { k->since = now; return 0; }
  return now.tv_sec - k->since.tv_sec > (time_t)c->stall_seconds;
}

/* The stall guard's failure: the dispatch, how far it got, and the first resident groups' waves
 * (where each polls or waits) */
static void stall_fail(tks_ctx *c, tks_group **res, uint32_t nres, uint64_t dispatched, uint64_t total,
                       uint64_t ended)
{
  char groups[640] = "";
  size_t n = 0;
  for (uint32_t i = 0, shown = 0; i < nres && shown < 3 && n < sizeof groups - 96; i++) {
    const tks_group *g = res[i];
    if (!g) continue; /* a slot ordered execution never needed */
    uint32_t live = 0;
    for (uint32_t j = 0; j < g->nwaves; j++) live += g->waves[j].state != TKS_WS_DONE;
    if (!live) continue; /* an ended group whose slot took no successor (ordered execution) */
    n += (size_t)snprintf(groups + n, sizeof groups - n, "%s group (%u,%u,%u):", shown++ ? ";" : "", g->id[0], g->id[1], g->id[2]);
    for (uint32_t j = 0; j < g->nwaves && n < sizeof groups - 48; j++) {
      const tks_wave *w = &g->waves[j];
      const char *what = w->state == TKS_WS_RUN ? "polls near" : w->state == TKS_WS_BARRIER ? "at s_barrier" : NULL;
      if (!what) continue;
      const uint32_t at = w->state == TKS_WS_BARRIER && w->pc ? w->pc - 1 : w->pc;
      n += (size_t)snprintf(groups + n, sizeof groups - n, " wave %u %s PC 0x%x", j, what,
                            at < c->p->n ? c->p->inst[at].pc : 0u);
    }
  }
  tks_fail(c, "kernel %s: no workgroup progressed for %u s: each resident one only polls (s_sleep spin-wait) "
           "or waits at s_barrier, for a flag no running workgroup will set (its producer never dispatched, "
           "or waits in a cycle; a kernel that waits for the host: tksim --stall=SECONDS); %llu of %llu "
           "workgroups dispatched, %llu ended;%s",
           c->k->name, c->stall_seconds, (unsigned long long)dispatched, (unsigned long long)total,
           (unsigned long long)ended, groups);
}

/* ------------------------------------------------------- ordered execution */
/* hooks.h "Ordered execution": a binary heap of the domain's runnable waves
 * keyed by modeled time, then age (group start order, wave number). */
typedef struct oent { double t; uint64_t age; uint32_t slot, wave; } oent;
typedef struct oheap { oent *e; uint32_t n; } oheap;

static int oless(const oent *a, const oent *b) { return a->t < b->t || (a->t == b->t && a->age < b->age); }

static void opush(oheap *h, oent x)
{
  uint32_t i = h->n++;
  while (i) {
    uint32_t p = (i - 1) / 2;
    if (!oless(&x, &h->e[p])) break;
    h->e[i] = h->e[p];
    i = p;
  }
  h->e[i] = x;
}

static oent opop(oheap *h)
{
  oent top = h->e[0], x = h->e[--h->n];
  uint32_t i = 0;
  for (;;) {
    uint32_t l = 2 * i + 1, r = l + 1, m = i;
    const oent *best = &x;
    if (l < h->n && oless(&h->e[l], best)) { m = l; best = &h->e[l]; }
    if (r < h->n && oless(&h->e[r], best)) m = r;
    if (m == i) break;
    h->e[i] = h->e[m];
    i = m;
  }
  if (h->n) h->e[i] = x;
  return top;
}

/* Releases g's barrier when every live wave waits at it (terminated waves are
 * not waited for); pushes the released waves. Returns 1 when released. */
static int ordered_barrier(tks_ctx *c, tks_group *g, uint32_t slot, uint64_t age0, oheap *h)
{
  uint32_t alive = 0, at = 0;
  for (uint32_t i = 0; i < g->nwaves; i++) {
    if (g->waves[i].state != TKS_WS_DONE) alive++;
    if (g->waves[i].state == TKS_WS_BARRIER) at++;
  }
  if (!at || at != alive) return 0;
  for (uint32_t i = 0; i < g->nwaves; i++)
    if (g->waves[i].state == TKS_WS_BARRIER) g->waves[i].state = TKS_WS_RUN;
  if (c->hooks)
    for (int k = 0; k < tks_hook_n; k++)
      if (tks_hook_table[k].barrier_release) tks_hook_table[k].barrier_release(tks_hook_table[k].user, g->worker, g->linear);
  for (uint32_t i = 0; i < g->nwaves; i++)
    if (g->waves[i].state == TKS_WS_RUN)
      opush(h, (oent){ c->sched.wave_time(c->sched.user, slot, i), age0 + i, slot, i });
  return 1;
}

/* The place in its domain's list of a domain's k-th group to run (hooks.h). */
static inline uint64_t sched_place(const tks_sched *sc, uint64_t k) { return sc->pick ? sc->pick(sc->user, k) : k; }

/* Runs the groups of domains dom0 .. dom0 + ndom - 1 (domain d: gl = d,
 * d + domains, ...) on their slots, all in one modeled-time order: ndom is 1,
 * or every domain when the dispatch's groups talk to each other (see
 * sched_merged). gs and gage hold ndom * slots entries. */
static void ordered_domains(tks_ctx *c, tks_group **gs, uint64_t *gage, oheap *h, uint32_t dom0, uint32_t ndom,
                            tks_launch_stats *st)
{
  const tks_sched *sc = &c->sched;
  uint64_t *ngr = calloc(ndom, sizeof *ngr), *next = calloc(ndom, sizeof *next), started = 0;
  if (!ngr || !next) { tks_fail(c, "tksim: out of memory for ordered execution"); free(ngr); free(next); return; }
  for (uint32_t d = 0; d < ndom; d++) {
    uint32_t dom = dom0 + d;
    ngr[d] = c->total_groups > dom ? (c->total_groups - dom + sc->domains - 1) / sc->domains : 0;
    if (sc->max_groups && ngr[d] > sc->max_groups) ngr[d] = sc->max_groups;
  }
  uint32_t base = dom0 * sc->slots;
  uint64_t ended = 0;
  /* the stall guard, as worker_main's: a pop progresses when a group starts or ends, a barrier
   * opens, or its wave ran half a quantum between two s_sleeps or slept at a new PC */
  stall_clock idle = {0, {0, 0}};
  int progressed = 1;
  h->n = 0;
  /* fill the slots in order: slot j's first group is its domain's j-th
   * (domains interleaved, in dispatch order) */
  for (uint32_t j = 0; j < sc->slots; j++)
    for (uint32_t d = 0; d < ndom; d++) {
      if (next[d] >= ngr[d]) continue;
      uint32_t li = d * sc->slots + j;
      if (!gs[li] && !(gs[li] = alloc_group(c))) { /* slots are allocated as a domain first needs them */
        tks_fail(c, "tksim: out of memory for %u resident workgroups of one XCD", j + 1);
        goto out;
      }
      tks_group *g = gs[li];
      group_setup(c, g, dom0 + d + sched_place(sc, next[d]) * sc->domains, base + li);
      next[d]++;
      st->waves += g->nwaves;
      gage[li] = (started++) * TKS_MAX_WAVES;
      for (uint32_t i = 0; i < g->nwaves; i++)
        opush(h, (oent){ sc->wave_time(sc->user, base + li, i), gage[li] + i, base + li, i });
    }
  while (h->n) {
    if (__atomic_load_n(&c->failed, __ATOMIC_RELAXED)) goto out;
    if (progressed) { progressed = 0; idle.rounds = 0; }
    else if (stall_idle(c, &idle)) {
      uint64_t dispatched = 0, total = 0;
      for (uint32_t d = 0; d < ndom; d++) { dispatched += next[d]; total += ngr[d]; }
      stall_fail(c, gs, ndom * sc->slots, dispatched, total, ended);
      goto out;
    }
    oent e = opop(h);
    uint32_t li = e.slot - base, d = li / sc->slots;
    tks_group *g = gs[li];
    tks_wave *w = &g->waves[e.wave];
    if (w->state == TKS_WS_GWS) {
      if (__atomic_load_n(&c->gws_gen, __ATOMIC_ACQUIRE) != w->gws_wait_gen) w->state = TKS_WS_RUN;
      else { e.t += 256; opush(h, e); continue; } /* grid barrier: nothing to order by */
    }
    double lim = h->n ? h->e[0].t + sc->window : 1e300;
    uint64_t ran = 0;
    g->busy = 0;
    while (w->state == TKS_WS_RUN && ran < 1024 && !w->blocked) {
      const uint64_t r = run_wave(w, 1, st);
      ran += r;
      /* a wave's instructions between two s_sleeps, over pops: a window may cut a poll loop */
      if (g->slept) g->slept = 0, w->since_sleep = 0;
      else if ((w->since_sleep += (uint32_t)r) >= TKS_QUANTUM / 2) progressed = 1, w->since_sleep = TKS_QUANTUM;
      if (sc->wave_time(sc->user, e.slot, e.wave) > lim) break;
    }
    progressed |= g->busy; /* slept at a new PC */
    g->slept = 0;
    /* blocked (ds_gws_sema_p): the others go first, as for the grid barrier */
    if (w->blocked) {
      w->blocked = 0;
      st->instructions += ran;
      if (__atomic_add_fetch(&c->insts_done, ran, __ATOMIC_RELAXED) > c->budget) {
        tks_fail(c, "kernel %s: instruction budget of %llu wave-instructions exceeded (a ds_gws_sema_p that is "
                 "never released?)", c->k->name, (unsigned long long)c->budget);
        goto out;
      }
      e.t += 256;
      opush(h, e);
      continue;
    }
    st->instructions += ran;
    uint64_t total = __atomic_add_fetch(&c->insts_done, ran, __ATOMIC_RELAXED);
    if (total > c->budget) {
      tks_fail(c, "kernel %s: instruction budget of %llu wave-instructions exceeded (infinite loop or "
               "spin-wait that cannot finish? raise it with tksim --budget=N)", c->k->name,
               (unsigned long long)c->budget);
      goto out;
    }
    if (w->state == TKS_WS_RUN || w->state == TKS_WS_GWS) {
      e.t = sc->wave_time(sc->user, e.slot, e.wave);
      opush(h, e);
      continue;
    }
    if (w->state == TKS_WS_BARRIER) { progressed |= ordered_barrier(c, g, e.slot, gage[li], h); continue; }
    /* the wave ended: the group ends with its last wave, or its barrier may
     * now be complete without it */
    uint32_t alive = 0;
    for (uint32_t i = 0; i < g->nwaves; i++) alive += g->waves[i].state != TKS_WS_DONE;
    if (alive) { progressed |= ordered_barrier(c, g, e.slot, gage[li], h); continue; }
    ended++;
    progressed = 1;
    if (c->hooks)
      for (int k = 0; k < tks_hook_n; k++)
        if (tks_hook_table[k].group_end) tks_hook_table[k].group_end(tks_hook_table[k].user, g->worker, g->linear);
    if (next[d] < ngr[d]) { /* the freed slot takes its domain's next group */
      group_setup(c, g, dom0 + d + sched_place(sc, next[d]) * sc->domains, e.slot);
      next[d]++;
      st->waves += g->nwaves;
      gage[li] = (started++) * TKS_MAX_WAVES;
      for (uint32_t i = 0; i < g->nwaves; i++)
        opush(h, (oent){ sc->wave_time(sc->user, e.slot, i), gage[li] + i, e.slot, i });
    }
  }
out:
  free(ngr); free(next);
}

static void *ordered_worker(void *arg)
{
  worker_ctx *wc = arg;
  tks_ctx *c = wc->c;
  const tks_sched *sc = &c->sched;
  uint32_t ndom = c->sched_merged ? sc->run_domains : 1;
  tks_group **gs = calloc((size_t)sc->slots * ndom, sizeof *gs);
  uint64_t *gage = calloc((size_t)sc->slots * ndom, sizeof *gage);
  oheap h = { calloc((size_t)sc->slots * ndom * TKS_MAX_WAVES, sizeof(oent)), 0 };
  if (!gs || !gage || !h.e) { tks_fail(c, "tksim: out of memory for ordered execution"); goto out; }
  if (c->sched_merged) ordered_domains(c, gs, gage, &h, 0, ndom, wc->st);
  else
    for (uint32_t dom = wc->index; dom < sc->run_domains; dom += c->nworkers)
      ordered_domains(c, gs, gage, &h, dom, 1, wc->st);
out:
  if (gs)
    for (uint32_t j = 0; j < sc->slots * ndom; j++) free_group(c, gs[j]);
  free(gs); free(gage); free(h.e);
  return NULL;
}

/* A dispatch whose workgroups exchange data while they run (an atomic whose
 * returned value steers the code, as split-K's "last split reduces"
 * counter; a spin-wait with s_sleep on another group's flag) gives modeled
 * times that depend on which group reached the exchange first. Domains run
 * on parallel threads would decide that by emulation-thread interleaving,
 * so such a dispatch runs all its domains on one thread in one modeled-time
 * order: the same result for any --threads. */
static int sched_merged(const tks_program *p)
{
  for (uint32_t i = 0; i < p->n; i++) {
    const tks_inst *in = &p->inst[i];
    if (in->op == TKS_OP_S_SLEEP) return 1;
    if ((in->op == TKS_OP_GLOBAL_ATOMIC || in->op == TKS_OP_FLAT_ATOMIC || in->op == TKS_OP_BUFFER_ATOMIC) &&
        (in->flags & TKS_F_RTN))
      return 1;
  }
  return 0;
}

static void *worker_main(void *arg)
{
  worker_ctx *wc = arg;
  tks_ctx *c = wc->c;
  if (c->sched.slots) return ordered_worker(arg);
  if (!c->d->cooperative) {
    /* Workgroups are taken as the hardware dispatcher starts them: in
     * dispatch order, round robin over the XCDs, and while the next one's
     * XCD holds TKS_XCD_FIT groups, none (take_group). A group that sleeps
     * (s_sleep: a spin-wait, e.g. on a flag another group sets) or runs for
     * a whole slice lets the worker admit the next group and round-robin the
     * resident ones, as a GPU keeps many groups resident; so producer/consumer
     * schemes between groups (stream-K fix-up flags) make progress. Up to
     * max_resident per worker (memory); when all of them slept in a round
     * and none ended (each waits on another group), more, up to the XCDs'
     * fit: a group that waits on one dispatched before it, or on a later
     * one that fits beside it on the hardware, always progresses. */
    const uint32_t hard = c->slot_stride;
    tks_group **res = calloc(hard, sizeof *res), **pool = calloc(hard, sizeof *pool);
    uint32_t nres = 0, npool = 0, cap = c->max_resident, nalloc = 0;
    int exhausted = 0, want_more = 1, stuck = 0, admitted = 0;
    uint64_t seen_progress = UINT64_MAX;
    stall_clock idle = {0, {0, 0}};
    if (!res || !pool) { tks_fail(c, "tksim: out of memory for the resident workgroups"); free(res); free(pool); return NULL; }
    for (;;) {
      if (__atomic_load_n(&c->failed, __ATOMIC_RELAXED)) break;
      admitted = 0;
      if (!exhausted && (nres == 0 || (want_more && nres < cap) || (stuck && nres < hard))) {
        uint64_t gl = take_group(c);
        if (gl == UINT64_MAX) { /* its XCD is full: the others' groups end first */
          if (nres == 0) { sched_yield(); continue; }
        } else if (gl >= c->total_groups) exhausted = 1;
        else if (tks_model_group_selected && !tks_model_group_selected((uint32_t)gl)) {
          drop_group(c, gl);
          continue; /* not sampled: no execution, no hooks; its outputs stay untouched */
        } else {
          /* each group structure owns one execution slot for its lifetime:
           * hook providers keep per-slot state */
          uint32_t slot = 0;
          tks_group *g;
          if (npool) { g = pool[--npool]; slot = g->worker; }
          else { g = alloc_group(c); slot = wc->index * hard + nalloc++; }
          if (!g) { tks_fail(c, "tksim: out of memory for a workgroup"); break; }
          group_setup(c, g, gl, slot);
          wc->st->waves += g->nwaves;
          res[nres++] = g;
          admitted = 1;
        }
      }
      if (nres == 0) break;
      want_more = 0;
      uint32_t slept = 0, ended = 0, ran = nres, busy = 0;
      for (uint32_t i = 0; i < nres;) {
        int r = group_slice(c, res[i], TKS_SLICE, wc->st);
        if (r == 1) {
          drop_group(c, res[i]->linear);
          ended++;
          __atomic_add_fetch(&c->groups_ended, 1, __ATOMIC_RELAXED);
          pool[npool++] = res[i]; res[i] = res[--nres];
          continue;
        }
        slept += r == 2;
        busy |= res[i]->busy;
        want_more = 1;
        i++;
      }
      stuck = !ended && slept == ran;
      /* the stall guard: no group of any worker admitted, ended or more than polling for
       * stall_seconds of wall time (checked every 256 idle rounds: a descheduled worker's busy
       * group counts when it runs), so a spin-wait no running group will satisfy fails, named,
       * instead of polling through the instruction budget */
      if (ended || admitted || busy) __atomic_add_fetch(&c->progress, 1, __ATOMIC_RELAXED);
      else sched_yield(); /* only polls here: a worker with a busy group (or another process) goes first */
      const uint64_t pr = __atomic_load_n(&c->progress, __ATOMIC_RELAXED);
      if (pr != seen_progress) {
        seen_progress = pr;
        idle.rounds = 0;
      } else if (nres && stall_idle(c, &idle)) {
        const uint64_t next = __atomic_load_n(&c->next_group, __ATOMIC_RELAXED);
        stall_fail(c, res, nres, next < c->total_groups ? next : c->total_groups, c->total_groups,
                   __atomic_load_n(&c->groups_ended, __ATOMIC_RELAXED));
        break;
      }
    }
    for (uint32_t i = 0; i < nres; i++) free_group(c, res[i]);
    for (uint32_t i = 0; i < npool; i++) free_group(c, pool[i]);
    free(res); free(pool);
    return NULL;
  }
  /* cooperative: every group resident at once; this worker owns gl = index mod nworkers
   * and round-robins them so spin-waits on other groups make progress */
  uint64_t mine = 0;
  for (uint64_t gl = wc->index; gl < c->total_groups; gl += c->nworkers) mine++;
  tks_group **gs = calloc(mine ? mine : 1, sizeof *gs);
  uint64_t i = 0;
  for (uint64_t gl = wc->index; gl < c->total_groups; gl += c->nworkers, i++) {
    gs[i] = alloc_group(c);
    if (!gs[i]) { tks_fail(c, "tksim: out of memory for %llu resident workgroups of a cooperative launch", (unsigned long long)c->total_groups); break; }
    group_setup(c, gs[i], gl, (uint32_t)gl); /* one slot per group */
    wc->st->waves += gs[i]->nwaves;
  }
  uint64_t left = mine;
  uint64_t seen = ~0ull, seen_progress = ~0ull;
  struct timespec stall_since = {0, 0};
  stall_clock idle = {0, {0, 0}};
  while (left && !__atomic_load_n(&c->failed, __ATOMIC_RELAXED)) {
    int busy = 0;
    for (i = 0; i < mine; i++) {
      if (!gs[i] || gs[i]->done) continue;
      if (group_slice(c, gs[i], 4096, wc->st) == 1) {
        gs[i]->done = 1; left--; busy = 1;
        __atomic_add_fetch(&c->groups_ended, 1, __ATOMIC_RELAXED);
      }
      else busy |= gs[i]->busy;
    }
    /* the stall guard, as worker_main's: every group of every worker only polls */
    if (busy) __atomic_add_fetch(&c->progress, 1, __ATOMIC_RELAXED);
    const uint64_t pr = __atomic_load_n(&c->progress, __ATOMIC_RELAXED);
    if (pr != seen_progress) { seen_progress = pr; idle.rounds = 0; }
    else if (left && stall_idle(c, &idle)) {
      stall_fail(c, gs, (uint32_t)mine, c->total_groups, c->total_groups,
                 __atomic_load_n(&c->groups_ended, __ATOMIC_RELAXED));
      break;
    }
    /* no instruction anywhere for 2 s: every wave waits at a barrier that
     * can no longer be satisfied */
    uint64_t now = __atomic_load_n(&c->insts_done, __ATOMIC_RELAXED);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if (now != seen) { seen = now; stall_since = ts; }
    else if ((ts.tv_sec - stall_since.tv_sec) * 1000000000ll + (ts.tv_nsec - stall_since.tv_nsec) > 2000000000ll) {
      tks_fail(c, "kernel %s: cooperative launch deadlocked: no wave made progress for 2 s (grid "
               "barrier waiting for waves that ended or never arrive?)", c->k->name);
      break;
    } else sched_yield();
  }
  for (i = 0; i < mine; i++) free_group(c, gs[i]);
  free(gs);
  return NULL;
}

/* ------------------------------------------------------------------ dispatch */
static pthread_mutex_t decode_lock = PTHREAD_MUTEX_INITIALIZER;

void tks_exec_release(tks_code_object *co)
{
  if (!co) return;
  pthread_mutex_lock(&decode_lock);
  for (int i = 0; i < co->nkernels; i++) {
    tks_program_free(co->kernels[i].prog);
    co->kernels[i].prog = NULL;
  }
  pthread_mutex_unlock(&decode_lock);
}

int tks_exec_dispatch(const tks_dispatch *d, const tks_options *opt,
                      tks_launch_stats *stats, char *err, size_t errlen)
{
  tks_kernel *k = d->k;
  static const tks_options default_opt = {.check_memory = 1, .check_waits = 1, .arch = TKS_ARCH_GFX942};
  if (!opt) opt = &default_opt;
  if (stats) memset(stats, 0, sizeof *stats);
  pthread_mutex_lock(&decode_lock);
  if (!k->prog) {
    k->prog = tks_decode_kernel(k, err, errlen);
    if (!k->prog) { pthread_mutex_unlock(&decode_lock); return -1; }
  }
  pthread_mutex_unlock(&decode_lock);
  for (int dmn = 0; dmn < 3; dmn++)
    if (d->block[dmn] == 0 || d->grid[dmn] == 0) {
      snprintf(err, errlen, "tksim: kernel %s: empty grid or block (%u,%u,%u)/(%u,%u,%u)", k->name,
               d->grid[0], d->grid[1], d->grid[2], d->block[0], d->block[1], d->block[2]);
      return -1;
    }
  uint64_t bthreads = (uint64_t)d->block[0] * d->block[1] * d->block[2];
  if (bthreads > 1024) {
    snprintf(err, errlen, "tksim: kernel %s: workgroup of %llu work-items exceeds 1024", k->name,
             (unsigned long long)bthreads);
    return -1;
  }
  tks_ctx *c = calloc(1, sizeof *c);
  c->d = d; c->opt = opt; c->k = k; c->p = k->prog;
  pthread_mutex_init(&c->err_lock, NULL);
  for (int dmn = 0; dmn < 3; dmn++) c->ngroups[dmn] = (d->grid[dmn] + d->block[dmn] - 1) / d->block[dmn];
  c->total_groups = (uint64_t)c->ngroups[0] * c->ngroups[1] * c->ngroups[2];
  c->waves_per_group = (uint32_t)((bthreads + 63) / 64);
  uint32_t lds_static = k->kd.group_segment_fixed_size > k->group_segment_fixed_size ?
                        k->kd.group_segment_fixed_size : k->group_segment_fixed_size;
  c->lds_size = lds_static + d->dynamic_lds;
  int arch = k->co ? k->co->arch : TKS_ARCH_GFX942;
  if (c->lds_size > tks_arch_lds_bytes(arch)) {
    snprintf(err, errlen, "tksim: kernel %s: %u bytes of LDS requested (static %u + dynamic %u), "
             "%s has %u KiB per workgroup", k->name, c->lds_size, lds_static, d->dynamic_lds,
             tks_arch_name(arch), tks_arch_lds_bytes(arch) / 1024);
    pthread_mutex_destroy(&c->err_lock); free(c);
    return -1;
  }
  uint32_t priv = k->kd.private_segment_fixed_size > k->private_segment_fixed_size ?
                  k->kd.private_segment_fixed_size : k->private_segment_fixed_size;
  if (k->uses_dynamic_stack || (k->kd.kernel_code_properties & (1u << 11))) priv += 16384;
  c->priv_size = (priv + 15) & ~15u;
  c->budget = opt && opt->inst_budget ? opt->inst_budget : (1ull << 34);
  c->stall_seconds = opt && opt->stall_seconds ? opt->stall_seconds : TKS_STALL_SECONDS;
  c->wait_reported = calloc(c->p->n + 1, 1);
  c->hooks = tks_hook_n > 0;
  uint32_t nw = opt && opt->threads > 0 ? (uint32_t)opt->threads : (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
  if (nw < 1) nw = 1;
  if (nw > 256) nw = 256;
  if (!d->cooperative && nw > c->total_groups) nw = (uint32_t)c->total_groups;
  if (d->cooperative && nw > c->total_groups) nw = (uint32_t)c->total_groups;
  c->nworkers = nw;
  {
    uint64_t gbytes = (uint64_t)c->waves_per_group * (64ull * 4 * TKS_NVGPR + 64ull * c->priv_size) + c->lds_size;
    uint64_t capm = (256ull << 20) / (gbytes ? gbytes : 1);
    c->max_resident = (uint32_t)(capm < 1 ? 1 : capm > TKS_MAX_RESIDENT ? TKS_MAX_RESIDENT : capm);
  }
  /* a worker's slots: its resident groups up to every XCD's fit (worker_main) */
  c->slot_stride = TKS_XCDS * TKS_XCD_FIT > c->max_resident ? TKS_XCDS * TKS_XCD_FIT : c->max_resident;
  c->nslots = d->cooperative ? (uint32_t)c->total_groups : nw * c->slot_stride;
  const tks_sched *sched = tks_sched_get();
  if (sched && !d->cooperative) { /* ordered execution: slots per domain, a domain per worker at a time */
    c->sched = *sched;
    if (c->sched.run_domains == 0 || c->sched.run_domains > c->sched.domains) c->sched.run_domains = c->sched.domains;
    if (c->sched.run_domains > c->total_groups) c->sched.run_domains = (uint32_t)c->total_groups;
    nw = opt && opt->threads > 0 ? (uint32_t)opt->threads : (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
    if (nw < 1) nw = 1;
    if (nw > c->sched.run_domains) nw = c->sched.run_domains;
    c->sched_merged = c->sched.run_domains > 1 && sched_merged(c->p);
    if (c->sched_merged) nw = 1;
    c->nworkers = nw;
    c->nslots = c->sched.domains * c->sched.slots;
  }
  if (c->hooks)
    for (int h = 0; h < tks_hook_n; h++)
      if (tks_hook_table[h].dispatch_begin)
        tks_hook_table[h].dispatch_begin(tks_hook_table[h].user, d, c->nslots, c->waves_per_group, c->lds_size);
  c->wstats = calloc(c->nslots, sizeof(tks_launch_stats));
  worker_ctx *wcs = calloc(nw, sizeof *wcs);
  pthread_t *th = calloc(nw, sizeof *th);
  /* a worker's own counters live in a slot it alone uses */
  for (uint32_t i = 0; i < nw; i++) {
    wcs[i].c = c; wcs[i].index = i;
    wcs[i].st = &c->wstats[d->cooperative || c->sched.slots ? i : i * c->slot_stride];
  }
  if (nw == 1) worker_main(&wcs[0]);
  else {
    uint32_t started = 0;
    for (uint32_t i = 0; i < nw; i++) {
      if (pthread_create(&th[i], NULL, worker_main, &wcs[i])) break;
      started++;
    }
    if (started == 0) worker_main(&wcs[0]);
    for (uint32_t i = 0; i < started; i++) pthread_join(th[i], NULL);
    if (started && started < nw && d->cooperative)
      tks_fail(c, "tksim: could not start worker threads for a cooperative launch");
  }
  tks_launch_stats sum;
  memset(&sum, 0, sizeof sum);
  for (uint32_t i = 0; i < c->nslots; i++) {
    tks_launch_stats *s = &c->wstats[i];
    sum.waves += s->waves; sum.instructions += s->instructions; sum.lane_instructions += s->lane_instructions;
    sum.salu += s->salu; sum.valu += s->valu; sum.smem += s->smem; sum.vmem_load += s->vmem_load;
    sum.vmem_store += s->vmem_store; sum.lds_read += s->lds_read; sum.lds_write += s->lds_write;
    sum.mfma += s->mfma; sum.branch += s->branch; sum.waitcnt += s->waitcnt; sum.barrier += s->barrier;
    sum.mfma_flops += s->mfma_flops; sum.lds_accesses += s->lds_accesses;
    sum.global_bytes_read += s->global_bytes_read; sum.global_bytes_written += s->global_bytes_written;
    sum.errors_reported += s->errors_reported;
  }
  int rc = (c->failed || c->error_flag) ? -1 : 0;
  if (c->hooks)
    for (int h = 0; h < tks_hook_n; h++)
      if (tks_hook_table[h].dispatch_end) {
        char herr[512] = "";
        if (tks_hook_table[h].dispatch_end(tks_hook_table[h].user, d, &sum, herr, sizeof herr)) {
          if (!rc && herr[0]) snprintf(c->err, sizeof c->err, "%s", herr);
          rc = -1;
        }
      }
  if (stats) *stats = sum;
  if (rc) snprintf(err, errlen, "%s", c->err[0] ? c->err : "tksim: dispatch failed");
  free(wcs); free(th); free(c->wstats); free(c->wait_reported);
  pthread_mutex_destroy(&c->err_lock);
  free(c);
  return rc;
}
