/* decoder.h: a kernel's machine code decoded once into compact records that
 * the execution engine runs without parsing anything.
 *
 * Lengths and operand text come from LLVM's AMDGPU disassembler (LLVM-C,
 * target: the code object's, gfx942 or gfx950); fields the text prints in macro form (DS offsets, DPP/SDWA
 * control words, s_waitcnt counters, SOPP immediates) are taken from the
 * encoding itself (CDNA3 ISA guide, "Microcode Formats"). Register numbering
 * of scalar operands follows the hardware source-operand encoding: s0..s101,
 * 102/103 flat_scratch, 104/105 xnack_mask, 106/107 vcc, 108..123 ttmp0..15,
 * 124 m0, 126/127 exec, 235..238 shared/private base/limit, 251 vccz,
 * 252 execz, 253 scc (ISA guide "Scalar ALU operands").
 */
#ifndef TKS_DECODER_H
#define TKS_DECODER_H

#include <stdint.h>
#include "tksim.h"

enum tks_op {
#define TKS_OP(e, name, cls, ty) TKS_OP_##e,
#include "decoder/ops.def"
#undef TKS_OP
  TKS_OP_COUNT
};

/* operand kinds */
enum { TKS_OPK_NONE = 0, TKS_OPK_SGPR, TKS_OPK_VGPR, TKS_OPK_IMM, TKS_OPK_OFF };

/* source data types of an opcode (how an inline constant is materialised) */
enum { TKS_TY_B32 = 0, TKS_TY_F32, TKS_TY_B64, TKS_TY_F64, TKS_TY_F16, TKS_TY_NONE };

/* compare conditions (integer ne == lg, t == tru) and types */
enum { TKS_CMP_F = 0, TKS_CMP_LT, TKS_CMP_EQ, TKS_CMP_LE, TKS_CMP_GT, TKS_CMP_LG, TKS_CMP_GE,
       TKS_CMP_O, TKS_CMP_U, TKS_CMP_NGE, TKS_CMP_NLG, TKS_CMP_NGT, TKS_CMP_NLE, TKS_CMP_NEQ,
       TKS_CMP_NLT, TKS_CMP_TRU, TKS_CMP_CLASS };
enum { TKS_CT_F16 = 0, TKS_CT_F32, TKS_CT_F64, TKS_CT_I16, TKS_CT_U16, TKS_CT_I32, TKS_CT_U32,
       TKS_CT_I64, TKS_CT_U64 };
/* atomic operations */
enum { TKS_AT_ADD = 0, TKS_AT_SUB, TKS_AT_SWAP, TKS_AT_CMPSWAP, TKS_AT_SMIN, TKS_AT_UMIN,
       TKS_AT_SMAX, TKS_AT_UMAX, TKS_AT_AND, TKS_AT_OR, TKS_AT_XOR, TKS_AT_INC, TKS_AT_DEC,
       TKS_AT_ADD_F32, TKS_AT_ADD_F64, TKS_AT_MIN_F64, TKS_AT_MAX_F64, TKS_AT_PK_ADD_F16,
       TKS_AT_PK_ADD_BF16, TKS_AT_MIN_F32, TKS_AT_MAX_F32, TKS_AT_RSUB,
       TKS_AT_MSKOR /* (old & ~DATA) | DATA2 */, TKS_AT_WRAP /* old >= DATA ? old - DATA : old + DATA2 */ };
/* memory data extension: plain, sign-extend, d16 low half, d16 high half,
 * and their sign-extending d16 forms */
enum { TKS_MX_NONE = 0, TKS_MX_SEXT = 1, TKS_MX_D16 = 2, TKS_MX_D16_HI = 4 };

typedef struct tks_operand {
  uint8_t kind;     /* TKS_OPK_* */
  uint8_t n;        /* registers (dwords) */
  uint8_t neg, abs; /* VOP3 float input modifiers; sext for SDWA in abs */
  uint16_t reg;     /* SGPR encoding, or unified VGPR index (a[n] -> accum_offset + n) */
  uint16_t is_agpr;
  uint64_t imm;     /* constants: the bit pattern for the op's source type */
} tks_operand;

/* modifier flags */
enum {
  TKS_F_CLAMP = 1u << 0, TKS_F_GLC = 1u << 1, TKS_F_SLC = 1u << 2, TKS_F_NT = 1u << 3,
  TKS_F_OFFEN = 1u << 4, TKS_F_IDXEN = 1u << 5, TKS_F_LDS = 1u << 6, TKS_F_E64 = 1u << 7,
  TKS_F_DPP = 1u << 8, TKS_F_SDWA = 1u << 9, TKS_F_SADDR = 1u << 10, TKS_F_SC0 = 1u << 11,
  TKS_F_SC1 = 1u << 12, TKS_F_BOUND_CTRL = 1u << 13, TKS_F_RTN = 1u << 14
};

typedef struct tks_inst {
  uint16_t op;        /* enum tks_op */
  uint8_t cls;        /* enum tks_inst_class (exec/hooks.h) */
  uint8_t ndst, nsrc;
  uint8_t omod;       /* 0 none, 1 mul:2, 2 mul:4, 3 div:2 */
  uint8_t op_sel, op_sel_hi, neg_lo, neg_hi; /* bit i = source i (bit 3 of op_sel: dst) */
  uint8_t cbsz, abid, blgp;
  uint8_t sub;        /* V_CMP/S_CMP: TKS_CMP_*; atomics: TKS_AT_* */
  uint8_t sub_ty;     /* V_CMP/S_CMP: TKS_CT_* */
  uint8_t mem_bytes;  /* memory ops: bytes per lane (per address for ds_*2) */
  uint8_t mem_ext;    /* TKS_MX_* */
  uint8_t cmpx;       /* v_cmpx: also writes EXEC */
  uint8_t dpp_row_mask, dpp_bank_mask;
  uint8_t sdwa_dst_sel, sdwa_dst_unused, sdwa_src_sel[2];
  uint16_t dpp_ctrl;
  uint32_t flags;
  uint32_t pc;        /* byte offset from the kernel entry */
  uint32_t len;       /* bytes */
  int32_t offset;     /* offset:/offset0:, SOPP/SOPK simm16, SMEM offset */
  int32_t offset1;    /* ds offset1 */
  int32_t target;     /* branch target instruction index, -1 none */
  uint32_t text;      /* offset of the disassembly text in prog->text */
  tks_operand dst[2];
  tks_operand src[5];  /* 5: v_mfma_scale_* (A, B, C, scale A, scale B) */
} tks_inst;

/* A decoded address range: the kernel itself, then functions it calls. */
typedef struct tks_region {
  uint64_t addr;         /* device address of the first byte */
  uint32_t size;
  int32_t *map;          /* ((addr' - addr) / 4) -> instruction index or -1 */
} tks_region;

typedef struct tks_program {
  tks_inst *inst;
  uint32_t n;
  tks_region *regions;
  uint32_t nregions;
  char *text;            /* all instruction texts, NUL separated */
  int32_t *pc_to_index;  /* (pc/4) -> index or -1, for the kernel's own range */
  uint32_t code_size;
  uint32_t n_unimpl;     /* instructions decoded as TKS_OP_UNIMPL */
  uint64_t decoded_bytes, budget; /* over all regions; limit (tks_decode_budget) */
} tks_program;

/* Code decoded per kernel, callees included: at most twice the bytes its
 * code object loaded from the file (PT_LOAD p_filesz) plus 64 KiB, and 8 MiB (tk's largest gemm kernels are
 * ~100 KiB). Real code decodes each byte about once (callees end at their
 * symbol's size); a corrupt image (a huge zero-filled p_memsz, a symbol-less
 * kernel running to the image end, hundreds of unsized call targets) then
 * costs a second, not minutes. Code past the budget stays undecoded: running
 * into it is reported as running into undecoded code. */
#define TKS_DECODE_MAX_BYTES ((uint64_t)8 << 20)
static inline uint64_t tks_decode_budget(uint64_t image_size)
{
  uint64_t b = 2 * image_size + (64u << 10);
  return b < TKS_DECODE_MAX_BYTES ? b : TKS_DECODE_MAX_BYTES;
}

/* Decodes the kernel's code (k->code, k->code_size). NULL with err on failure
 * (bad bytes are decoded as UNIMPL instructions, not failures). */
tks_program *tks_decode_kernel(const tks_kernel *k, char *err, size_t errlen);
/* Instruction index at device address addr, or -1 (not decoded code). */
int32_t tks_program_index(const tks_program *p, uint64_t addr);
void tks_program_free(tks_program *p);
const char *tks_op_name(int op);
int tks_op_class(int op);
static inline const char *tks_inst_text(const tks_program *p, const tks_inst *in)
{
  return p->text + in->text;
}

#endif
