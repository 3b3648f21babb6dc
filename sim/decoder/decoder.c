/* decoder.c: turns a gfx942 or gfx950 kernel's machine code into tks_inst
 * records.
 *
 * LLVM's AMDGPU disassembler (LLVM-C, "amdgcn-amd-amdhsa", CPU gfx942 or
 * gfx950 as the code object says) gives
 * each instruction's length and text; the text is parsed once here. Fields the
 * text prints symbolically or ambiguously are read from the encoding instead
 * (CDNA3 ISA guide, "Microcode Formats"): SOPP/SOPK simm16, DS offset0/offset1,
 * the DPP control dword. Inline constants follow the ISA guide's source
 * operand table: integers -16..64, floats +-0.5, +-1, +-2, +-4 and 1/(2*pi),
 * materialised for the operand's type (f16/f32/f64); 32-bit literals are used
 * as is for 32-bit operands, as the high half of f64 operands and zero-extended
 * for 64-bit integer operands (what LLVM assumes when it emits them).
 */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include <llvm/Config/llvm-config.h>
#define TKS_LLVM_VERSION_STRING LLVM_VERSION_STRING

#include "decoder/decoder.h"
#include "exec/hooks.h"

void LLVMInitializeAMDGPUTargetInfo(void);
void LLVMInitializeAMDGPUTargetMC(void);
void LLVMInitializeAMDGPUDisassembler(void);

static const struct { const char *name; int cls; int ty; } op_info[TKS_OP_COUNT] = {
#define TKS_OP(e, nm, c, t) {nm, TKS_CLASS_##c, TKS_TY_##t},
#include "decoder/ops.def"
#undef TKS_OP
};

static const char *const op_enum_names[TKS_OP_COUNT] = {
#define TKS_OP(e, nm, c, t) #e,
#include "decoder/ops.def"
#undef TKS_OP
};
const char *tks_op_name(int op) { return op >= 0 && op < TKS_OP_COUNT ? op_enum_names[op] : "?"; }
int tks_op_class(int op) { return op_info[op].cls; }

/* ------------------------------------------------------------ name lookup */
static int name_sorted[TKS_OP_COUNT];
static int name_count;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static int cmp_name(const void *a, const void *b)
{
  return strcmp(op_info[*(const int *)a].name, op_info[*(const int *)b].name);
}

static void init_tables(void)
{
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTargetMC();
  LLVMInitializeAMDGPUDisassembler();
  for (int i = 0; i < TKS_OP_COUNT; i++)
    if (op_info[i].name[0]) name_sorted[name_count++] = i;
  qsort(name_sorted, name_count, sizeof(int), cmp_name);
}

static int lookup_name(const char *s)
{
  int lo = 0, hi = name_count - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    int c = strcmp(s, op_info[name_sorted[mid]].name);
    if (!c) return name_sorted[mid];
    if (c < 0) hi = mid - 1; else lo = mid + 1;
  }
  return -1;
}

/* ------------------------------------------------------------ constants */
static uint16_t f32_to_f16_bits(float f)
{
  /* exact for the inline constants (all representable in f16) */
  uint32_t x; memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t e = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  uint32_t m = x & 0x7fffff;
  if (f == 0) return (uint16_t)sign;
  if (e <= 0) return (uint16_t)sign; /* not needed for inline constants */
  return (uint16_t)(sign | (e << 10) | (m >> 13));
}

static uint64_t const_bits(int is_float, double fv, int64_t iv, int literal, int ty, int packed)
{
  if (is_float) {
    if (ty == TKS_TY_F64 || ty == TKS_TY_B64) { uint64_t b; memcpy(&b, &fv, 8); return b; }
    float f = (float)fv;
    if (fabs(fv - 0.15915494309189535) < 1e-7) {
      if (ty == TKS_TY_F16) return 0x3118u;
      return 0x3e22f983u;
    }
    /* packed (VOP3P) f16: the constant is the low half, the high half is 0
     * (LLVM uses op_sel_hi:0 when it wants the value in both halves) */
    if (ty == TKS_TY_F16) { (void)packed; return f32_to_f16_bits(f); }
    uint32_t b; memcpy(&b, &f, 4); return b;
  }
  if (literal) {
    uint64_t v = (uint32_t)iv;
    if (ty == TKS_TY_F64) return v << 32;
    return v;
  }
  return (uint64_t)iv;
}

/* ------------------------------------------------------------ operand parsing */
static int parse_range(const char *s, int *first, int *count)
{
  /* "12" or "[2:17]" */
  if (*s == '[') {
    char *e; long a = strtol(s + 1, &e, 10);
    if (*e != ':') return -1;
    long b = strtol(e + 1, &e, 10);
    if (*e != ']' || b < a) return -1;
    *first = (int)a; *count = (int)(b - a + 1);
    return 0;
  }
  if (!isdigit((unsigned char)*s)) return -1;
  char *e; long a = strtol(s, &e, 10);
  if (*e) return -1;
  *first = (int)a; *count = 1;
  return 0;
}

static const struct { const char *name; int reg, n; } specials[] = {
  {"vcc", 106, 2}, {"vcc_lo", 106, 1}, {"vcc_hi", 107, 1},
  {"exec", 126, 2}, {"exec_lo", 126, 1}, {"exec_hi", 127, 1},
  {"m0", 124, 1}, {"flat_scratch", 102, 2}, {"flat_scratch_lo", 102, 1},
  {"flat_scratch_hi", 103, 1}, {"xnack_mask", 104, 2}, {"xnack_mask_lo", 104, 1},
  {"xnack_mask_hi", 105, 1}, {"scc", 253, 1}, {"src_scc", 253, 1}, {"vccz", 251, 1},
  {"src_vccz", 251, 1}, {"execz", 252, 1}, {"src_execz", 252, 1},
  {"src_shared_base", 235, 1}, {"src_shared_limit", 236, 1}, {"src_private_base", 237, 1},
  {"src_private_limit", 238, 1}, {"src_pops_exiting_wave_id", 239, 1},
};

/* Parses one operand; returns 0 or -1 (unknown syntax). */
static int parse_operand(char *s, tks_operand *o, int ty, int packed, uint32_t accum_offset)
{
  memset(o, 0, sizeof *o);
  size_t L = strlen(s);
  /* modifiers: -x, |x|, -|x|, neg(x), abs(x), sext(x) */
  if (!strncmp(s, "neg(", 4) && s[L - 1] == ')') { s[L - 1] = 0; int r = parse_operand(s + 4, o, ty, packed, accum_offset); o->neg = 1; return r; }
  if (!strncmp(s, "abs(", 4) && s[L - 1] == ')') { s[L - 1] = 0; int r = parse_operand(s + 4, o, ty, packed, accum_offset); o->abs = 1; return r; }
  if (!strncmp(s, "sext(", 5) && s[L - 1] == ')') { s[L - 1] = 0; int r = parse_operand(s + 5, o, ty, packed, accum_offset); o->abs |= 2; return r; }
  if (s[0] == '-' && (s[1] == '|' || isalpha((unsigned char)s[1]))) {
    int r = parse_operand(s + 1, o, ty, packed, accum_offset); o->neg = 1; return r;
  }
  if (s[0] == '|' && L > 2 && s[L - 1] == '|') {
    s[L - 1] = 0; int r = parse_operand(s + 1, o, ty, packed, accum_offset); o->abs = 1; return r;
  }
  int first, count;
  if (!strncmp(s, "hwreg(", 6)) return 0; /* s_getreg/s_setreg: simm16 from the encoding */
  if (!strncmp(s, "gpr_idx(", 8)) { /* VGPR index mode operand kinds: SRC0=1 SRC1=2 SRC2=4 DST=8 */
    o->kind = TKS_OPK_IMM;
    o->imm = (strstr(s, "SRC0") ? 1u : 0) | (strstr(s, "SRC1") ? 2u : 0) | (strstr(s, "SRC2") ? 4u : 0) |
             (strstr(s, "DST") ? 8u : 0);
    return 0;
  }
  if (s[0] == 'v' && !parse_range(s + 1, &first, &count)) {
    o->kind = TKS_OPK_VGPR; o->reg = (uint16_t)first; o->n = (uint8_t)count; return 0;
  }
  if (s[0] == 'a' && !parse_range(s + 1, &first, &count)) {
    o->kind = TKS_OPK_VGPR; o->reg = (uint16_t)(accum_offset + first); o->n = (uint8_t)count;
    o->is_agpr = 1; return 0;
  }
  if (s[0] == 's' && !parse_range(s + 1, &first, &count)) {
    o->kind = TKS_OPK_SGPR; o->reg = (uint16_t)first; o->n = (uint8_t)count; return 0;
  }
  if (!strncmp(s, "ttmp", 4) && !parse_range(s + 4, &first, &count)) {
    o->kind = TKS_OPK_SGPR; o->reg = (uint16_t)(108 + first); o->n = (uint8_t)count; return 0;
  }
  if (!strcmp(s, "off")) { o->kind = TKS_OPK_OFF; return 0; }
  for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
    if (!strcmp(s, specials[i].name)) {
      o->kind = TKS_OPK_SGPR; o->reg = (uint16_t)specials[i].reg; o->n = (uint8_t)specials[i].n;
      return 0;
    }
  /* numbers; LLVM >= 20 prints a literal that could be mistaken for an
   * inline constant as lit(0x...): always the 32-bit literal encoding */
  char *e;
  if (!strncmp(s, "lit(", 4) && s[L - 1] == ')') {
    s[L - 1] = 0;
    const char *d = s + 4, *neg = "";
    if (*d == '-') { neg = "-"; d++; }
    unsigned long long v = (d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) ? strtoull(d, &e, 16) : strtoull(d, &e, 10);
    if (*e || e == d) return -1;
    int64_t iv = *neg ? -(int64_t)v : (int64_t)v;
    o->kind = TKS_OPK_IMM; o->imm = const_bits(0, 0, iv, 1, ty, packed); return 0;
  }
  if (s[0] == '-' || isdigit((unsigned char)s[0])) {
    const char *d = s[0] == '-' ? s + 1 : s;
    if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X')) {
      unsigned long long v = strtoull(d, &e, 16);
      if (*e) return -1;
      int64_t iv = s[0] == '-' ? -(int64_t)v : (int64_t)v;
      o->kind = TKS_OPK_IMM; o->imm = const_bits(0, 0, iv, 1, ty, packed); return 0;
    }
    if (strchr(s, '.') || strchr(s, 'e')) {
      double fv = strtod(s, &e);
      if (*e) return -1;
      o->kind = TKS_OPK_IMM; o->imm = const_bits(1, fv, 0, 0, ty, packed); return 0;
    }
    long long v = strtoll(s, &e, 10);
    if (*e) return -1;
    o->kind = TKS_OPK_IMM;
    o->imm = const_bits(0, 0, v, v < -16 || v > 64, ty, packed);
    return 0;
  }
  return -1;
}

/* ------------------------------------------------------------ families */
static int mem_size(const char *t, uint8_t *bytes, uint8_t *ext)
{
  static const struct { const char *s; int b, x; } tab[] = {
    {"dword", 4, 0}, {"dwordx2", 8, 0}, {"dwordx3", 12, 0}, {"dwordx4", 16, 0},
    {"ubyte", 1, 0}, {"sbyte", 1, TKS_MX_SEXT}, {"ushort", 2, 0}, {"sshort", 2, TKS_MX_SEXT},
    {"byte", 1, 0}, {"short", 2, 0},
    {"short_d16", 2, TKS_MX_D16}, {"short_d16_hi", 2, TKS_MX_D16_HI},
    {"ubyte_d16", 1, TKS_MX_D16}, {"ubyte_d16_hi", 1, TKS_MX_D16_HI},
    {"sbyte_d16", 1, TKS_MX_D16 | TKS_MX_SEXT}, {"sbyte_d16_hi", 1, TKS_MX_D16_HI | TKS_MX_SEXT},
    {"byte_d16_hi", 1, TKS_MX_D16_HI},
    {"b8", 1, 0}, {"b16", 2, 0}, {"b32", 4, 0}, {"b64", 8, 0}, {"b96", 12, 0}, {"b128", 16, 0},
    {"u8", 1, 0}, {"i8", 1, TKS_MX_SEXT}, {"u16", 2, 0}, {"i16", 2, TKS_MX_SEXT},
    {"u8_d16", 1, TKS_MX_D16}, {"u8_d16_hi", 1, TKS_MX_D16_HI},
    {"i8_d16", 1, TKS_MX_D16 | TKS_MX_SEXT}, {"i8_d16_hi", 1, TKS_MX_D16_HI | TKS_MX_SEXT},
    {"u16_d16", 2, TKS_MX_D16}, {"u16_d16_hi", 2, TKS_MX_D16_HI},
    {"b8_d16_hi", 1, TKS_MX_D16_HI}, {"b16_d16_hi", 2, TKS_MX_D16_HI},
  };
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (!strcmp(t, tab[i].s)) { *bytes = (uint8_t)tab[i].b; *ext = (uint8_t)tab[i].x; return 0; }
  return -1;
}

static int atomic_op(const char *t, uint8_t *at, uint8_t *bytes)
{
  static const struct { const char *s; int a; } tab[] = {
    {"add", TKS_AT_ADD}, {"sub", TKS_AT_SUB}, {"rsub", TKS_AT_RSUB}, {"swap", TKS_AT_SWAP},
    {"wrxchg", TKS_AT_SWAP}, {"cmpswap", TKS_AT_CMPSWAP}, {"cmpst", TKS_AT_CMPSWAP},
    {"smin", TKS_AT_SMIN}, {"umin", TKS_AT_UMIN}, {"smax", TKS_AT_SMAX}, {"umax", TKS_AT_UMAX},
    {"and", TKS_AT_AND}, {"or", TKS_AT_OR}, {"xor", TKS_AT_XOR}, {"inc", TKS_AT_INC},
    {"dec", TKS_AT_DEC}, {"add_f32", TKS_AT_ADD_F32}, {"add_f64", TKS_AT_ADD_F64},
    {"min_f64", TKS_AT_MIN_F64}, {"max_f64", TKS_AT_MAX_F64}, {"pk_add_f16", TKS_AT_PK_ADD_F16},
    {"pk_add_bf16", TKS_AT_PK_ADD_BF16},
  };
  char buf[64];
  snprintf(buf, sizeof buf, "%s", t);
  *bytes = 4;
  size_t L = strlen(buf);
  if (L > 3 && !strcmp(buf + L - 3, "_x2")) { buf[L - 3] = 0; *bytes = 8; }
  if (!strcmp(buf, "add_f64") || !strcmp(buf, "min_f64") || !strcmp(buf, "max_f64")) *bytes = 8;
  for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
    if (!strcmp(buf, tab[i].s)) { *at = (uint8_t)tab[i].a; return 0; }
  return -1;
}

/* ds_<op>[_rtn]_<type> */
static int ds_atomic(const char *t, tks_inst *in)
{
  char buf[64];
  snprintf(buf, sizeof buf, "%s", t);
  char *ty = strrchr(buf, '_');
  if (!ty) return -1;
  *ty++ = 0;
  size_t L = strlen(buf);
  if (L > 4 && !strcmp(buf + L - 4, "_rtn")) { buf[L - 4] = 0; in->flags |= TKS_F_RTN; }
  int a = -1;
  int is64 = !strcmp(ty, "u64") || !strcmp(ty, "i64") || !strcmp(ty, "b64") || !strcmp(ty, "f64");
  if (!strcmp(buf, "add")) a = !strcmp(ty, "f32") ? TKS_AT_ADD_F32 : !strcmp(ty, "f64") ? TKS_AT_ADD_F64 : TKS_AT_ADD;
  else if (!strcmp(buf, "sub")) a = TKS_AT_SUB;
  else if (!strcmp(buf, "rsub")) a = TKS_AT_RSUB;
  else if (!strcmp(buf, "inc")) a = TKS_AT_INC;
  else if (!strcmp(buf, "dec")) a = TKS_AT_DEC;
  else if (!strcmp(buf, "min"))
    a = ty[0] == 'i' ? TKS_AT_SMIN : ty[0] == 'u' ? TKS_AT_UMIN : !strcmp(ty, "f32") ? TKS_AT_MIN_F32 : TKS_AT_MIN_F64;
  else if (!strcmp(buf, "max"))
    a = ty[0] == 'i' ? TKS_AT_SMAX : ty[0] == 'u' ? TKS_AT_UMAX : !strcmp(ty, "f32") ? TKS_AT_MAX_F32 : TKS_AT_MAX_F64;
  else if (!strcmp(buf, "and")) a = TKS_AT_AND;
  else if (!strcmp(buf, "or")) a = TKS_AT_OR;
  else if (!strcmp(buf, "xor")) a = TKS_AT_XOR;
  else if (!strcmp(buf, "wrxchg")) a = TKS_AT_SWAP;
  else if (!strcmp(buf, "cmpst")) a = TKS_AT_CMPSWAP;
  else if (!strcmp(buf, "mskor")) a = TKS_AT_MSKOR;
  else if (!strcmp(buf, "wrap")) a = TKS_AT_WRAP;
  else if (!strcmp(buf, "pk_add") && !strcmp(ty, "f16")) a = TKS_AT_PK_ADD_F16;
  else if (!strcmp(buf, "pk_add") && !strcmp(ty, "bf16")) a = TKS_AT_PK_ADD_BF16;
  if (a < 0) return -1;
  in->sub = (uint8_t)a;
  in->mem_bytes = is64 ? 8 : 4;
  return 0;
}

static int cmp_cond(const char *c)
{
  static const char *names[] = {"f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge",
                                "nlg", "ngt", "nle", "neq", "nlt", "tru", "class"};
  for (int i = 0; i < 17; i++)
    if (!strcmp(c, names[i])) return i;
  if (!strcmp(c, "ne")) return TKS_CMP_LG;
  if (!strcmp(c, "t")) return TKS_CMP_TRU;
  return -1;
}

static int cmp_type(const char *t)
{
  static const char *names[] = {"f16", "f32", "f64", "i16", "u16", "i32", "u32", "i64", "u64"};
  for (int i = 0; i < 9; i++)
    if (!strcmp(t, names[i])) return i;
  return -1;
}

/* Classifies a (suffix-stripped) mnemonic. Returns the op or -1. */
static int classify(const char *m, tks_inst *in)
{
  int op = lookup_name(m);
  if (op >= 0) return op;
  char buf[64];
  snprintf(buf, sizeof buf, "%s", m);
  if (!strncmp(m, "v_cmp_", 6) || !strncmp(m, "v_cmpx_", 7)) {
    const char *r = m + (m[5] == 'x' ? 7 : 6);
    in->cmpx = m[5] == 'x';
    snprintf(buf, sizeof buf, "%s", r);
    char *ty = strrchr(buf, '_');
    if (!ty) return -1;
    *ty++ = 0;
    int c = cmp_cond(buf), t = cmp_type(ty);
    if (c < 0 || t < 0) return -1;
    in->sub = (uint8_t)c; in->sub_ty = (uint8_t)t;
    return TKS_OP_V_CMP;
  }
  if (!strncmp(m, "s_cmp_", 6) || !strncmp(m, "s_cmpk_", 7)) {
    snprintf(buf, sizeof buf, "%s", m + (m[5] == 'k' ? 7 : 6));
    char *ty = strrchr(buf, '_');
    if (!ty) return -1;
    *ty++ = 0;
    int c = cmp_cond(buf), t = cmp_type(ty);
    if (c < 0 || t < TKS_CT_I32 || c > TKS_CMP_GE) return -1;
    in->sub = (uint8_t)c; in->sub_ty = (uint8_t)t;
    if (m[5] == 'k') in->cmpx = 2; /* SOPK form: immediate in simm16 */
    return TKS_OP_S_CMP;
  }
  /* scalar stores and atomics (CDNA3 ISA guide, "Scalar Memory Operations") */
  if (!strncmp(m, "s_store_", 8) || !strncmp(m, "s_buffer_store_", 15)) {
    const char *t = m + (m[2] == 's' ? 8 : 15);
    if (mem_size(t, &in->mem_bytes, &in->mem_ext) || in->mem_ext || in->mem_bytes < 4) return -1;
    return m[2] == 's' ? TKS_OP_S_STORE : TKS_OP_S_BUFFER_STORE;
  }
  if (!strncmp(m, "s_atomic_", 9) || !strncmp(m, "s_buffer_atomic_", 16)) {
    const char *t = m + (m[2] == 'a' ? 9 : 16);
    if (atomic_op(t, &in->sub, &in->mem_bytes)) return -1;
    return m[2] == 'a' ? TKS_OP_S_ATOMIC : TKS_OP_S_BUFFER_ATOMIC;
  }
  if (!strncmp(m, "s_load_", 7) || !strncmp(m, "s_buffer_load_", 14)) {
    const char *t = m + (m[2] == 'l' ? 7 : 14);
    if (mem_size(t, &in->mem_bytes, &in->mem_ext) || in->mem_ext || in->mem_bytes < 4) {
      if (!strcmp(t, "dwordx8")) in->mem_bytes = 32;
      else if (!strcmp(t, "dwordx16")) in->mem_bytes = 64;
      else return -1;
    }
    return m[2] == 'l' ? TKS_OP_S_LOAD : TKS_OP_S_BUFFER_LOAD;
  }
  if (!strncmp(m, "ds_", 3)) {
    const char *t = m + 3;
    if (!strncmp(t, "read2st64_", 10) || !strncmp(t, "write2st64_", 11)) {
      in->mem_ext = 8; /* st64: offsets scale by 64 elements */
      if (mem_size(t + (t[0] == 'r' ? 10 : 11), &in->mem_bytes, &in->mem_ext) < 0) return -1;
      in->mem_ext = 8;
      return t[0] == 'r' ? TKS_OP_DS_READ2 : TKS_OP_DS_WRITE2;
    }
    if (!strncmp(t, "read2_", 6) || !strncmp(t, "write2_", 7)) {
      if (mem_size(t + (t[0] == 'r' ? 6 : 7), &in->mem_bytes, &in->mem_ext) < 0) return -1;
      return t[0] == 'r' ? TKS_OP_DS_READ2 : TKS_OP_DS_WRITE2;
    }
    /* gfx950 transposing reads (semantics: docs/hardware.md "ds_read_b64_tr_b16");
     * tr_b4 and b96_tr_b6 stay unimplemented (refused by name) */
    if (!strcmp(t, "read_b64_tr_b16") || !strcmp(t, "read_b64_tr_b8")) {
      in->mem_bytes = 8; in->mem_ext = 0; in->sub = (uint8_t)(t[13] == '1' ? 16 : 8);
      return TKS_OP_DS_READ_TR;
    }
    /* ds_wrxchg2[st64]_rtn_b32/b64: exchange at two offsets (scaled like read2/write2) */
    if (!strcmp(t, "wrxchg2_rtn_b32") || !strcmp(t, "wrxchg2_rtn_b64") ||
        !strcmp(t, "wrxchg2st64_rtn_b32") || !strcmp(t, "wrxchg2st64_rtn_b64")) {
      in->mem_bytes = t[strlen(t) - 2] == '6' ? 8 : 4;
      in->mem_ext = t[7] == 's' ? 8 : 0;
      return TKS_OP_DS_WRXCHG2;
    }
    /* ds_read/write_addtid_b32: lane l at M0 + offset + 4 * l */
    if (!strcmp(t, "read_addtid_b32") || !strcmp(t, "write_addtid_b32")) {
      in->mem_bytes = 4;
      in->sub = t[0] == 'w';
      return TKS_OP_DS_ADDTID;
    }
    if (!strncmp(t, "read_", 5) && !mem_size(t + 5, &in->mem_bytes, &in->mem_ext)) return TKS_OP_DS_READ;
    if (!strncmp(t, "write_", 6) && !mem_size(t + 6, &in->mem_bytes, &in->mem_ext)) return TKS_OP_DS_WRITE;
    if (!ds_atomic(t, in)) return TKS_OP_DS_ATOMIC;
    return -1;
  }
  /* [t]buffer_{load,store}_format_[d16_[hi_]]{x,xy,xyz,xyzw} */
  {
    int tb = m[0] == 't', ld = -1;
    const char *t = m + tb;
    if (!strncmp(t, "buffer_load_format_", 19)) { ld = 1; t += 19; }
    else if (!strncmp(t, "buffer_store_format_", 20)) { ld = 0; t += 20; }
    if (ld >= 0) {
      in->mem_ext = 0;
      if (!strncmp(t, "d16_hi_", 7)) { in->mem_ext = TKS_MX_D16_HI; t += 7; }
      else if (!strncmp(t, "d16_", 4)) { in->mem_ext = TKS_MX_D16; t += 4; }
      if (!strcmp(t, "x")) in->mem_bytes = 1;
      else if (!strcmp(t, "xy")) in->mem_bytes = 2;
      else if (!strcmp(t, "xyz")) in->mem_bytes = 3;
      else if (!strcmp(t, "xyzw")) in->mem_bytes = 4;
      else return -1;
      if (tb) return ld ? TKS_OP_TBUFFER_LOAD_FORMAT : TKS_OP_TBUFFER_STORE_FORMAT;
      return ld ? TKS_OP_BUFFER_LOAD_FORMAT : TKS_OP_BUFFER_STORE_FORMAT;
    }
  }
  static const struct { const char *p; int load, store, atomic; } fam[] = {
    {"global_", TKS_OP_GLOBAL_LOAD, TKS_OP_GLOBAL_STORE, TKS_OP_GLOBAL_ATOMIC},
    {"flat_", TKS_OP_FLAT_LOAD, TKS_OP_FLAT_STORE, TKS_OP_FLAT_ATOMIC},
    {"scratch_", TKS_OP_SCRATCH_LOAD, TKS_OP_SCRATCH_STORE, -1},
    {"buffer_", TKS_OP_BUFFER_LOAD, TKS_OP_BUFFER_STORE, TKS_OP_BUFFER_ATOMIC},
  };
  for (int f = 0; f < 4; f++) {
    size_t pl = strlen(fam[f].p);
    if (strncmp(m, fam[f].p, pl)) continue;
    const char *t = m + pl;
    if (!strncmp(t, "load_lds_", 9)) {
      if (mem_size(t + 9, &in->mem_bytes, &in->mem_ext)) return -1;
      in->flags |= TKS_F_LDS;
      return fam[f].load;
    }
    if (!strncmp(t, "load_", 5)) return mem_size(t + 5, &in->mem_bytes, &in->mem_ext) ? -1 : fam[f].load;
    if (!strncmp(t, "store_", 6)) return mem_size(t + 6, &in->mem_bytes, &in->mem_ext) ? -1 : fam[f].store;
    if (!strncmp(t, "atomic_", 7) && fam[f].atomic >= 0)
      return atomic_op(t + 7, &in->sub, &in->mem_bytes) ? -1 : fam[f].atomic;
    return -1;
  }
  return -1;
}

static int sdwa_sel(const char *v)
{
  static const char *n[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"};
  for (int i = 0; i < 7; i++)
    if (!strcmp(v, n[i])) return i;
  return 6;
}

static _Thread_local int op_sel_count; /* elements of the last op_sel list parsed */

static uint8_t bit_list_n(const char *v, int *n)
{
  /* "[0,1,0]" -> bits */
  uint8_t r = 0; int i = 0;
  for (const char *p = v; *p; p++) {
    if (*p == '0' || *p == '1') { if (*p == '1') r |= (uint8_t)(1u << i); i++; }
  }
  if (n) *n = i;
  return r;
}
static uint8_t bit_list(const char *v) { return bit_list_n(v, NULL); }

static void parse_modifier(tks_inst *in, const char *tok)
{
  const char *c = strchr(tok, ':');
  char key[32];
  size_t kl = c ? (size_t)(c - tok) : strlen(tok);
  if (kl >= sizeof key) kl = sizeof key - 1;
  memcpy(key, tok, kl); key[kl] = 0;
  const char *v = c ? c + 1 : "";
  if (!strcmp(key, "clamp")) in->flags |= TKS_F_CLAMP;
  else if (!strcmp(key, "glc")) in->flags |= TKS_F_GLC;
  else if (!strcmp(key, "slc")) in->flags |= TKS_F_SLC;
  else if (!strcmp(key, "sc0")) in->flags |= TKS_F_SC0;
  else if (!strcmp(key, "sc1")) in->flags |= TKS_F_SC1;
  else if (!strcmp(key, "nt")) in->flags |= TKS_F_NT;
  else if (!strcmp(key, "offen")) in->flags |= TKS_F_OFFEN;
  else if (!strcmp(key, "idxen")) in->flags |= TKS_F_IDXEN;
  else if (!strcmp(key, "lds")) in->flags |= TKS_F_LDS;
  else if (!strcmp(key, "offset")) in->offset = (int32_t)strtol(v, NULL, 0);
  else if (!strcmp(key, "offset0")) in->offset = (int32_t)strtol(v, NULL, 0);
  else if (!strcmp(key, "offset1")) in->offset1 = (int32_t)strtol(v, NULL, 0);
  else if (!strcmp(key, "mul")) in->omod = strtol(v, NULL, 0) == 2 ? 1 : 2;
  else if (!strcmp(key, "div")) in->omod = 3;
  else if (!strcmp(key, "op_sel")) in->op_sel = bit_list_n(v, &op_sel_count);
  else if (!strcmp(key, "op_sel_hi")) in->op_sel_hi = bit_list(v);
  else if (!strcmp(key, "neg_lo")) in->neg_lo = bit_list(v);
  else if (!strcmp(key, "neg")) in->neg_lo = bit_list(v); /* f64 MFMAs: negate A, B, C */
  else if (!strcmp(key, "neg_hi")) in->neg_hi = bit_list(v);
  else if (!strcmp(key, "cbsz")) in->cbsz = (uint8_t)strtol(v, NULL, 0);
  else if (!strcmp(key, "abid")) in->abid = (uint8_t)strtol(v, NULL, 0);
  else if (!strcmp(key, "blgp")) in->blgp = (uint8_t)strtol(v, NULL, 0);
  else if (!strcmp(key, "bitop3")) in->offset = (int32_t)strtol(v, NULL, 0); /* gfx950 v_bitop3_* */
  else if (!strcmp(key, "dst_sel")) in->sdwa_dst_sel = (uint8_t)sdwa_sel(v);
  else if (!strcmp(key, "dst_unused"))
    in->sdwa_dst_unused = !strcmp(v, "UNUSED_SEXT") ? 1 : !strcmp(v, "UNUSED_PRESERVE") ? 2 : 0;
  else if (!strcmp(key, "src0_sel")) in->sdwa_src_sel[0] = (uint8_t)sdwa_sel(v);
  else if (!strcmp(key, "src1_sel")) in->sdwa_src_sel[1] = (uint8_t)sdwa_sel(v);
  /* DPP fields come from the encoding; others (e.g. wave-level cache hints) are ignored */
}

static int ndst_of(int op, const tks_inst *in, int nops)
{
  int cls = op_info[op].cls;
  switch (op) {
  case TKS_OP_V_ADD_CO_U32: case TKS_OP_V_SUB_CO_U32: case TKS_OP_V_SUBREV_CO_U32:
  case TKS_OP_V_ADDC_CO_U32: case TKS_OP_V_SUBB_CO_U32: case TKS_OP_V_SUBBREV_CO_U32:
  case TKS_OP_V_DIV_SCALE_F32: case TKS_OP_V_DIV_SCALE_F64:
  case TKS_OP_V_MAD_U64_U32: case TKS_OP_V_MAD_I64_I32:
    return 2;
  case TKS_OP_S_CMP: case TKS_OP_S_BITCMP0_B32: case TKS_OP_S_BITCMP1_B32:
  case TKS_OP_S_BITCMP0_B64: case TKS_OP_S_BITCMP1_B64: case TKS_OP_S_SETPC_B64:
  case TKS_OP_S_SETREG_B32: case TKS_OP_S_SETREG_IMM32_B32: case TKS_OP_V_NOP:
  case TKS_OP_S_SET_GPR_IDX_ON: case TKS_OP_S_SET_GPR_IDX_OFF: case TKS_OP_S_SET_GPR_IDX_IDX:
  case TKS_OP_S_SET_GPR_IDX_MODE:
    return 0;
  case TKS_OP_S_GETREG_B32: case TKS_OP_S_SWAPPC_B64:
    return 1;
  case TKS_OP_S_RFE_B64: case TKS_OP_S_RFE_RESTORE_B64:
    return 0;
  default: break;
  }
  if (cls == TKS_CLASS_SALU || cls == TKS_CLASS_VALU || cls == TKS_CLASS_MFMA) return nops > 0 ? 1 : 0;
  if (op == TKS_OP_S_MEMTIME || op == TKS_OP_S_MEMREALTIME) return 1;
  return 0;
}

/* Splits "mn a, b, c mod1 mod2" into mnemonic, operands and modifiers (in place). */
static int split_text(char *t, char **mn, char **ops, int maxops, char **mods, int *nmods)
{
  int nops = 0; *nmods = 0;
  while (*t == ' ' || *t == '\t') t++;
  *mn = t;
  char *sp = strchr(t, ' ');
  if (!sp) return 0;
  *sp = 0;
  char *p = sp + 1;
  /* operands are separated by ", "; the last one ends at the first space */
  for (;;) {
    while (*p == ' ') p++;
    if (!*p) break;
    /* ", " and " " outside parentheses: hwreg(HW_REG_MODE, 4, 2) is one operand */
    char *comma = NULL, *space = NULL;
    int depth = 0;
    for (char *q = p; *q; q++) {
      if (*q == '(') depth++;
      else if (*q == ')') depth--;
      else if (depth == 0 && *q == ',' && q[1] == ' ' && !comma) comma = q;
      else if (depth == 0 && *q == ' ' && !space) space = q;
      if (comma && space) break;
    }
    if (comma && (!space || comma <= space)) {
      *comma = 0;
      if (nops < maxops) ops[nops++] = p;
      p = comma + 2;
      continue;
    }
    /* last operand, then modifiers */
    if (space) *space = 0;
    char *colon = strchr(p, ':'), *brack = strchr(p, '[');
    if ((colon && (!brack || colon < brack)) || !strcmp(p, "offen") || !strcmp(p, "idxen") || !strcmp(p, "glc") ||
        !strcmp(p, "slc") || !strcmp(p, "sc0") || !strcmp(p, "sc1") || !strcmp(p, "nt") ||
        !strcmp(p, "lds") || !strcmp(p, "clamp") || !strcmp(p, "gds")) {
      if (*nmods < 16) mods[(*nmods)++] = p;
    } else if (nops < maxops) ops[nops++] = p;
    if (!space) break;
    p = space + 1;
    while (*p) {
      while (*p == ' ') p++;
      if (!*p) break;
      char *e = strchr(p, ' ');
      if (e) *e = 0;
      if (*nmods < 16) mods[(*nmods)++] = p;
      if (!e) break;
      p = e + 1;
    }
    break;
  }
  return nops;
}

static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

/* Fills in from text; returns 0, or -1 when unimplemented. */
static int decode_one(tks_inst *in, const char *text, const uint8_t *bytes, const tks_kernel *k)
{
  char buf[512], *mn, *ops[8], *mods[16];
  int nmods;
  snprintf(buf, sizeof buf, "%s", text);
  /* drop trailing comments */
  char *cm = strstr(buf, " //");
  if (cm) *cm = 0;
  int nops = split_text(buf, &mn, ops, 8, mods, &nmods);
  size_t L = strlen(mn);
  char m[64];
  snprintf(m, sizeof m, "%s", mn);
  if (L > 4 && !strcmp(m + L - 4, "_e32")) m[L - 4] = 0;
  else if (L > 4 && !strcmp(m + L - 4, "_e64")) { m[L - 4] = 0; in->flags |= TKS_F_E64; }
  else if (L > 4 && !strcmp(m + L - 4, "_dpp")) { m[L - 4] = 0; in->flags |= TKS_F_DPP; }
  else if (L > 5 && !strcmp(m + L - 5, "_sdwa")) { m[L - 5] = 0; in->flags |= TKS_F_SDWA; }
  in->sdwa_dst_sel = in->sdwa_src_sel[0] = in->sdwa_src_sel[1] = 6;
  int op = classify(m, in);
  if (op < 0) return -1;
  in->op = (uint16_t)op;
  in->cls = (uint8_t)op_info[op].cls;
  /* VOP3P: LLVM omits op_sel_hi when it is the default (all ones; zero for fma_mix) */
  if (!strncmp(m, "v_pk_", 5) || !strncmp(m, "v_dot", 5)) in->op_sel_hi = 0x7;
  /* v_mfma_scale_*: op_sel_hi defaults to all ones too (LLVM prints
   * op_sel_hi:[0,0,0] when it is not); it picks the scale bytes */
  if (op == TKS_OP_MFMA_SCALE_F32_16X16X128_F8F6F4 || op == TKS_OP_MFMA_SCALE_F32_32X32X64_F8F6F4)
    in->op_sel_hi = 0x7;
  op_sel_count = 0;
  for (int i = 0; i < nmods; i++) parse_modifier(in, mods[i]);
  uint32_t w0 = rd32(bytes);
  /* encoding-derived fields */
  int cls = in->cls;
  /* v_cvt_scalef32_*: op_sel straight from the VOP3 encoding (OPSEL [14:11]):
   * their byte/half selects use bits 2-3 whatever the source count */
  if (op >= TKS_OP_V_CVT_SCALEF32_F32_FP8 && op <= TKS_OP_V_CVT_SCALEF32_SR_PK32_BF6_BF16) in->op_sel = (uint8_t)((w0 >> 11) & 15);
  /* MTBUF: DFMT [22:19], NFMT [25:23] (CDNA3 ISA guide, "MTBUF") */
  if (op == TKS_OP_TBUFFER_LOAD_FORMAT || op == TKS_OP_TBUFFER_STORE_FORMAT)
    in->sub = (uint8_t)(((w0 >> 19) & 15) | (((w0 >> 23) & 7) << 4));
  if (cls == TKS_CLASS_BRANCH || cls == TKS_CLASS_WAITCNT || cls == TKS_CLASS_BARRIER ||
      (cls == TKS_CLASS_MISC && op != TKS_OP_UNIMPL && strncmp(m, "buffer_", 7)))
    in->offset = (int16_t)(w0 & 0xffff);
  if (op == TKS_OP_S_MOVK_I32 || op == TKS_OP_S_ADDK_I32 || op == TKS_OP_S_MULK_I32 ||
      op == TKS_OP_S_CMOVK_I32 || op == TKS_OP_S_GETREG_B32 || op == TKS_OP_S_SETREG_B32 ||
      op == TKS_OP_S_SETREG_IMM32_B32 || (op == TKS_OP_S_CMP && in->cmpx == 2))
    in->offset = (int32_t)(w0 & 0xffff);
  if (in->cls == TKS_CLASS_DS) {
    in->offset = (int32_t)(w0 & 0xff);
    in->offset1 = (int32_t)((w0 >> 8) & 0xff);
    if (op != TKS_OP_DS_READ2 && op != TKS_OP_DS_WRITE2 && op != TKS_OP_DS_WRXCHG2) { in->offset = (int32_t)(w0 & 0xffff); in->offset1 = 0; }
  }
  if (in->flags & TKS_F_DPP) {
    uint32_t w1 = rd32(bytes + 4);
    in->dpp_ctrl = (uint16_t)((w1 >> 8) & 0x1ff);
    if (w1 & (1u << 19)) in->flags |= TKS_F_BOUND_CTRL;
    in->dpp_bank_mask = (uint8_t)((w1 >> 24) & 0xf);
    in->dpp_row_mask = (uint8_t)((w1 >> 28) & 0xf);
  }
  /* SOPP-style instructions: everything needed came from the encoding */
  if (cls == TKS_CLASS_WAITCNT || cls == TKS_CLASS_BARRIER || cls == TKS_CLASS_MISC ||
      (cls == TKS_CLASS_BRANCH && op != TKS_OP_S_SETPC_B64 && op != TKS_OP_S_SWAPPC_B64 && op != TKS_OP_S_CALL_B64 &&
       op != TKS_OP_S_RFE_B64 && op != TKS_OP_S_RFE_RESTORE_B64))
    nops = 0;
  if (op == TKS_OP_S_CALL_B64 && nops > 1) nops = 1; /* the label: simm16 from the encoding */
  /* operands */
  if (nops > 8) return -1;
  int ty = op_info[op].ty;
  int packed = !strncmp(m, "v_pk_", 5) || !strncmp(m, "v_dot", 5);
  int nd = ndst_of(op, in, nops);
  /* memory families: explicit layouts (see decoder.h header comment in exec) */
  tks_operand tmp[8];
  for (int i = 0; i < nops; i++) {
    int t = ty;
    if (op == TKS_OP_V_LDEXP_F32 || op == TKS_OP_V_LDEXP_F64 || op == TKS_OP_V_LDEXP_F16 ||
        (op == TKS_OP_V_CMP && in->sub == TKS_CMP_CLASS))
      t = i == nops - 1 ? TKS_TY_B32 : ty;
    if (op == TKS_OP_V_CMP)
      t = in->sub_ty == TKS_CT_F16 ? TKS_TY_F16 : in->sub_ty == TKS_CT_F32 ? TKS_TY_F32 :
          in->sub_ty == TKS_CT_F64 ? TKS_TY_F64 : (in->sub_ty >= TKS_CT_I64 ? TKS_TY_B64 : TKS_TY_B32);
    if (op == TKS_OP_V_CMP && in->sub == TKS_CMP_CLASS && i == nops - 1) t = TKS_TY_B32;
    if (parse_operand(ops[i], &tmp[i], t, packed, k->accum_offset)) return -1;
  }
  switch (op) {
  case TKS_OP_GLOBAL_ATOMIC: case TKS_OP_FLAT_ATOMIC: {
    int rtn = (in->flags & (TKS_F_GLC | TKS_F_SC0)) != 0;
    int base = 0;
    if (rtn) { in->dst[0] = tmp[0]; in->ndst = 1; base = 1; in->flags |= TKS_F_RTN; }
    in->nsrc = (uint8_t)(nops - base);
    for (int i = 0; i < in->nsrc && i < 4; i++) in->src[i] = tmp[base + i];
    if (op == TKS_OP_GLOBAL_ATOMIC && in->nsrc >= 3 && tmp[base + 2].kind == TKS_OPK_SGPR) in->flags |= TKS_F_SADDR;
    return 0;
  }
  case TKS_OP_GLOBAL_LOAD: case TKS_OP_FLAT_LOAD: case TKS_OP_SCRATCH_LOAD:
  case TKS_OP_BUFFER_LOAD: case TKS_OP_BUFFER_LOAD_FORMAT: case TKS_OP_TBUFFER_LOAD_FORMAT: {
    int base = 0;
    if (nops > 0 && tmp[0].kind == TKS_OPK_VGPR && !((in->flags & TKS_F_LDS) && op == TKS_OP_BUFFER_LOAD && nops == 3)
        && !((in->flags & TKS_F_LDS) && op == TKS_OP_GLOBAL_LOAD && nops == 2)) {
      in->dst[0] = tmp[0]; in->ndst = 1; base = 1;
    }
    if ((in->flags & TKS_F_LDS)) { in->ndst = 0; base = (op == TKS_OP_BUFFER_LOAD ? nops - 3 : nops - 2); if (base < 0) return -1; }
    in->nsrc = (uint8_t)(nops - base);
    for (int i = 0; i < in->nsrc && i < 4; i++) in->src[i] = tmp[base + i];
    if ((op == TKS_OP_GLOBAL_LOAD || op == TKS_OP_SCRATCH_LOAD) && in->nsrc >= 2 && tmp[base + 1].kind == TKS_OPK_SGPR)
      in->flags |= TKS_F_SADDR;
    return 0;
  }
  case TKS_OP_GLOBAL_STORE: case TKS_OP_SCRATCH_STORE:
    if (nops >= 3 && tmp[2].kind == TKS_OPK_SGPR) in->flags |= TKS_F_SADDR;
    /* fallthrough */
  case TKS_OP_FLAT_STORE: case TKS_OP_BUFFER_STORE: case TKS_OP_DS_WRITE: case TKS_OP_DS_WRITE2:
  case TKS_OP_BUFFER_STORE_FORMAT: case TKS_OP_TBUFFER_STORE_FORMAT:
    in->nsrc = (uint8_t)nops;
    for (int i = 0; i < nops && i < 4; i++) in->src[i] = tmp[i];
    return 0;
  case TKS_OP_BUFFER_ATOMIC:
    in->nsrc = (uint8_t)nops;
    for (int i = 0; i < nops && i < 4; i++) in->src[i] = tmp[i];
    if (in->flags & (TKS_F_GLC | TKS_F_SC0)) { in->flags |= TKS_F_RTN; in->dst[0] = tmp[0]; in->ndst = 1; }
    return 0;
  case TKS_OP_DS_WRXCHG2: case TKS_OP_DS_APPEND: case TKS_OP_DS_CONSUME:
    if (nops < 1) return -1;
    in->dst[0] = tmp[0]; in->ndst = 1;
    in->nsrc = (uint8_t)(nops - 1);
    for (int i = 0; i < in->nsrc && i < 4; i++) in->src[i] = tmp[1 + i];
    return 0;
  case TKS_OP_DS_ADDTID:
    if (nops != 1) return -1;
    if (in->sub) { in->src[0] = tmp[0]; in->nsrc = 1; } else { in->dst[0] = tmp[0]; in->ndst = 1; }
    return 0;
  case TKS_OP_S_CALL_B64:
    if (nops < 1) return -1;
    in->dst[0] = tmp[0]; in->ndst = 1;
    return 0;
  case TKS_OP_DS_ATOMIC: {
    int base = (in->flags & TKS_F_RTN) ? 1 : 0;
    if (base) { in->dst[0] = tmp[0]; in->ndst = 1; }
    in->nsrc = (uint8_t)(nops - base);
    for (int i = 0; i < in->nsrc && i < 4; i++) in->src[i] = tmp[base + i];
    return 0;
  }
  case TKS_OP_DS_READ: case TKS_OP_DS_READ2: case TKS_OP_DS_READ_TR: case TKS_OP_DS_BPERMUTE_B32: case TKS_OP_DS_PERMUTE_B32:
  case TKS_OP_DS_SWIZZLE_B32: case TKS_OP_S_LOAD: case TKS_OP_S_BUFFER_LOAD:
  case TKS_OP_S_STORE: case TKS_OP_S_BUFFER_STORE: case TKS_OP_S_ATOMIC: case TKS_OP_S_BUFFER_ATOMIC:
    /* stores and atomics: dst[0] is the data (and an atomic's return) */
    nd = 1;
    break;
  default: break;
  }
  if (nd > nops) nd = nops;
  if (nd > 2 || nops - nd > 5 || (nops - nd > 4 && cls != TKS_CLASS_MFMA)) return -1;
  in->ndst = (uint8_t)nd;
  in->nsrc = (uint8_t)(nops - nd);
  /* VOP3 op_sel lists one element per source and, last, the destination:
   * keep the destination's bit at bit 3 whatever the source count */
  if (op_sel_count == in->nsrc + 1 && in->nsrc < 3 && !(op >= TKS_OP_V_CVT_SCALEF32_F32_FP8 && op <= TKS_OP_V_CVT_SCALEF32_SR_PK32_BF6_BF16) && op != TKS_OP_V_CVT_F32_FP8 && op != TKS_OP_V_CVT_F32_BF8 &&
      op != TKS_OP_V_CVT_PK_F32_FP8 && op != TKS_OP_V_CVT_PK_F32_BF8) {
    uint8_t dbit = (uint8_t)((in->op_sel >> in->nsrc) & 1);
    in->op_sel = (uint8_t)((in->op_sel & ((1u << in->nsrc) - 1)) | (dbit << 3));
  }
  for (int i = 0; i < nd; i++) in->dst[i] = tmp[i];
  for (int i = nd; i < nops; i++) in->src[i - nd] = tmp[i];
  /* SOPK immediates: the simm16 is the source */
  if (op == TKS_OP_S_MOVK_I32 || op == TKS_OP_S_CMOVK_I32) {
    in->nsrc = 1; in->src[0].kind = TKS_OPK_IMM; in->src[0].imm = (uint64_t)(int64_t)(int16_t)in->offset;
  }
  return 0;
}

static int is_branch_op(int op)
{
  return (op >= TKS_OP_S_BRANCH && op <= TKS_OP_S_CBRANCH_EXECNZ) || op == TKS_OP_S_CALL_B64 ||
         (op >= TKS_OP_S_CBRANCH_CDBGSYS && op <= TKS_OP_S_CBRANCH_CDBGSYS_AND_USER);
}

/* Encodings on which LLVM 22's AMDGPU disassembler itself crashes (found by
 * bench/fuzz-tksim; reproduce with llvm-mc --disassemble -mcpu=gfx942):
 * MUBUF/MTBUF with SOFFSET 255 (a literal, which the CDNA3 ISA guide's
 * "MUBUF" / "MTBUF" fields do not allow: an SGPR, M0 or inline constant),
 * and VOP3/VOP3P with a source field of 255 (a literal; VOP3 literals are
 * GFX10+).
 * They are invalid, so decoding them as such loses nothing. */
static int llvm_crashes_on(const uint8_t *b, uint64_t avail)
{
  if (avail < 8) return 0; /* callers pad to 16 bytes */
  uint32_t w0 = rd32(b), w1 = rd32(b + 4);
  uint32_t enc = w0 >> 26;
  if ((enc == 0x38 /* MUBUF */ || enc == 0x3a /* MTBUF */) && (w1 >> 24) == 0xff) return 1;
  /* VOP3/VOP3P with a source of 255 (a literal: gfx9 VOP3 has none) */
  if (enc == 0x34 && ((w1 & 0x1ff) == 0xff || ((w1 >> 9) & 0x1ff) == 0xff || ((w1 >> 18) & 0x1ff) == 0xff)) return 1;
  return 0;
}

/* Decodes [host, host+size) at device address addr as a new region. */
static int decode_range(tks_program *p, LLVMDisasmContextRef dc, const tks_kernel *k,
                        const uint8_t *host, uint64_t addr, uint64_t size, int stop_at_end,
                        uint32_t *cap, uint32_t *tcap, uint32_t *tlen)
{
  tks_region *rg;
  /* within the budget: the map below is sized by what can be decoded */
  if (size > p->budget - p->decoded_bytes) size = p->budget - p->decoded_bytes;
  p->regions = realloc(p->regions, (p->nregions + 1) * sizeof *p->regions);
  rg = &p->regions[p->nregions++];
  rg->addr = addr;
  rg->size = (uint32_t)size;
  rg->map = malloc(sizeof(int32_t) * (size / 4 + 1));
  for (uint64_t i = 0; i <= size / 4; i++) rg->map[i] = -1;
  uint64_t pc = 0;
  char text[512];
  while (pc + 4 <= size && p->decoded_bytes + pc < p->budget) {
    if (p->n == *cap) { *cap *= 2; p->inst = realloc(p->inst, *cap * sizeof(tks_inst)); }
    tks_inst *in = &p->inst[p->n];
    memset(in, 0, sizeof *in);
    /* LLVM 22 also crashes on an instruction whose literal is cut off by the
     * end of the buffer (llvm-mc: "0x00,0xff,0x00,0x81"): near the end, give
     * it a zero-padded copy and refuse what would reach past the region */
    const uint8_t *at = host + pc;
    uint8_t tail[32];
    if (size - pc < 16) {
      memset(tail, 0, sizeof tail);
      memcpy(tail, host + pc, (size_t)(size - pc));
      at = tail;
    }
    size_t len = llvm_crashes_on(at, 16) ? 0 : LLVMDisasmInstruction(dc, (uint8_t *)at, at == tail ? sizeof tail : size - pc,
                                                                      addr + pc, text, sizeof text);
    if (len > size - pc) len = 0;
    const char *t = text;
    while (*t == '\t' || *t == ' ') t++;
    int bad = len == 0;
    if (bad) { len = 4; snprintf(text, sizeof text, ".long 0x%08x", rd32(host + pc)); t = text; }
    in->pc = (uint32_t)(addr + pc - k->code_addr);
    in->len = (uint32_t)len;
    in->target = -1;
    char clean[512]; size_t ci = 0;
    for (const char *q = t; *q && ci < sizeof clean - 1; q++) clean[ci++] = (*q == '\t') ? ' ' : *q;
    clean[ci] = 0;
    size_t tl = strlen(clean) + 1;
    while (*tlen + tl > *tcap) { *tcap *= 2; p->text = realloc(p->text, *tcap); }
    memcpy(p->text + *tlen, clean, tl);
    in->text = *tlen;
    *tlen += (uint32_t)tl;
    if (bad || decode_one(in, clean, host + pc, k)) {
      uint32_t keep_pc = in->pc, keep_len = in->len, keep_text = in->text;
      memset(in, 0, sizeof *in);
      in->pc = keep_pc; in->len = keep_len; in->text = keep_text;
      in->op = TKS_OP_UNIMPL; in->cls = TKS_CLASS_MISC; in->target = -1;
      p->n_unimpl++;
    }
    rg->map[pc / 4] = (int32_t)p->n;
    p->n++;
    pc += len;
    if (stop_at_end && (bad || in->op == TKS_OP_S_CODE_END)) break;
  }
  rg->size = (uint32_t)pc;
  p->decoded_bytes += pc;
  return 0;
}

int32_t tks_program_index(const tks_program *p, uint64_t addr)
{
  for (uint32_t r = 0; r < p->nregions; r++) {
    const tks_region *rg = &p->regions[r];
    if (addr >= rg->addr && addr < rg->addr + rg->size && !((addr - rg->addr) & 3))
      return rg->map[(addr - rg->addr) / 4];
  }
  return -1;
}

/* Static call targets: s_getpc_b64 s[a:b]; s_add_u32 sa, sa, lo; s_addc_u32 sb, sb, hi
 * (PC-relative, resolved by the linker), optionally followed by a GOT load. */
static int call_target(const tks_program *p, uint32_t i, const tks_kernel *k, uint64_t *out)
{
  const tks_inst *g = &p->inst[i];
  if (g->op != TKS_OP_S_GETPC_B64 || i + 2 >= p->n) return 0;
  const tks_inst *a = &p->inst[i + 1], *c = &p->inst[i + 2];
  uint32_t r = g->dst[0].reg;
  if (a->op != TKS_OP_S_ADD_U32 || c->op != TKS_OP_S_ADDC_U32 || a->dst[0].reg != r || c->dst[0].reg != r + 1 ||
      a->src[1].kind != TKS_OPK_IMM || c->src[1].kind != TKS_OPK_IMM)
    return 0;
  uint64_t base = k->code_addr + (uint64_t)(int64_t)(int32_t)g->pc + g->len;
  uint64_t t = base + ((uint64_t)(uint32_t)a->src[1].imm | ((uint64_t)(uint32_t)c->src[1].imm << 32));
  const tks_code_object *co = k->co;
  uint32_t creg = r, j = i + 3;
  if (i + 3 < p->n && p->inst[i + 3].op == TKS_OP_S_LOAD && p->inst[i + 3].src[0].reg == r && p->inst[i + 3].mem_bytes == 8) {
    /* GOT entry: the loader applied the code object's relocations */
    /* bounds on integer addresses: a wild t must not form a wild pointer */
    if (!co) return 0;
    uint64_t ib = (uint64_t)(uintptr_t)co->image;
    if (t < ib || co->image_size < 8 || t - ib > co->image_size - 8) return 0;
    memcpy(&t, co->image + (t - ib), 8);
    creg = p->inst[i + 3].dst[0].reg;
    j = i + 4;
  }
  /* only a call or jump through the register makes it code (getpc also
   * addresses constant data) */
  for (uint32_t e = j; e < p->n && e < j + 64; e++) {
    const tks_inst *x = &p->inst[e];
    if ((x->op == TKS_OP_S_SWAPPC_B64 || x->op == TKS_OP_S_SETPC_B64) && x->src[0].reg == creg) {
      *out = t;
      return (t & 3) == 0;
    }
    if (x->op == TKS_OP_S_ENDPGM) break;
  }
  return 0;
}

tks_program *tks_decode_kernel(const tks_kernel *k, char *err, size_t errlen)
{
  pthread_once(&init_once, init_tables);
  /* the code object's own target: gfx950 encodings differ from gfx942's
   * (new opcodes, f8f6f4 operand widths), so decode with that CPU */
  const char *cpu = tks_arch_name(k->co && k->co->arch ? k->co->arch : TKS_ARCH_GFX942);
  LLVMDisasmContextRef dc = LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", cpu, NULL, 0, NULL, NULL);
  if (!dc) {
    snprintf(err, errlen, "tksim: cannot create the LLVM AMDGPU disassembler for %s (LLVM %s; gfx950 needs LLVM >= 20)",
             cpu, TKS_LLVM_VERSION_STRING);
    return NULL;
  }
  uint64_t size = k->code_size;
  if (!k->code || size == 0 || size > (1u << 30)) {
    LLVMDisasmDispose(dc);
    snprintf(err, errlen, "tksim: kernel %s has no code (size %llu)", k->name, (unsigned long long)size);
    return NULL;
  }
  tks_program *p = calloc(1, sizeof *p);
  uint32_t cap = 1024, tcap = 65536, tlen = 0;
  p->inst = calloc(cap, sizeof(tks_inst));
  p->text = malloc(tcap);
  p->code_size = (uint32_t)size;
  p->budget = tks_decode_budget(k->co ? (k->co->file_bytes ? k->co->file_bytes : k->co->image_size) : size);
  if (p->budget < size) p->budget = size; /* the kernel's own code always decodes */
  decode_range(p, dc, k, k->code, k->code_addr, size, 0, &cap, &tcap, &tlen);
  /* functions reached through static calls, transitively */
  for (uint32_t i = 0; i < p->n && p->nregions < 256 && p->decoded_bytes < p->budget; i++) {
    uint64_t t;
    if (!call_target(p, i, k, &t) || tks_program_index(p, t) >= 0) continue;
    const tks_code_object *co = k->co;
    if (!co) continue;
    uint64_t ib = (uint64_t)(uintptr_t)co->image;
    if (t < ib || t - ib >= co->image_size) continue;
    const uint8_t *h = co->image + (t - ib); /* device address == host address */
    uint64_t avail = co->image_size - (t - ib);
    /* a function symbol says where the callee ends; without one, decode
     * until s_code_end or bad bytes */
    int sized = 0;
    for (int f = 0; f < co->nfuncs; f++)
      if (co->funcs[f].addr == t && co->funcs[f].size <= avail) { avail = co->funcs[f].size; sized = 1; break; }
    if (avail > (1u << 20)) avail = 1u << 20;
    decode_range(p, dc, k, h, t, avail, !sized, &cap, &tcap, &tlen);
  }
  /* an s_swappc/s_setpc whose target no static sequence gave (a call
   * through a function-pointer table): every function of the code object
   * may be its target, so decode them all as regions too */
  const tks_code_object *co = k->co;
  int indirect = 0;
  for (uint32_t i = 0; i < p->n && !indirect; i++)
    if (p->inst[i].op == TKS_OP_S_SWAPPC_B64) {
      int known = 0;
      for (uint32_t j = i > 64 ? i - 64 : 0; j < i && !known; j++) {
        uint64_t t;
        if (call_target(p, j, k, &t) && tks_program_index(p, t) >= 0) known = 1;
      }
      indirect = !known;
    }
  for (int f = 0; indirect && co && f < co->nfuncs && p->nregions < 256 && p->decoded_bytes < p->budget; f++) {
    uint64_t a = co->funcs[f].addr;
    if (tks_program_index(p, a) >= 0 || (a >= k->code_addr && a < k->code_addr + size)) continue;
    uint64_t ib = (uint64_t)(uintptr_t)co->image;
    if (a < ib || a - ib > co->image_size || co->funcs[f].size > co->image_size - (a - ib)) continue;
    const uint8_t *h = co->image + (a - ib);
    decode_range(p, dc, k, h, a, co->funcs[f].size, 0, &cap, &tcap, &tlen);
  }
  p->pc_to_index = p->regions[0].map;
  /* resolve branch targets: simm16 counts dwords from the next instruction */
  for (uint32_t i = 0; i < p->n; i++) {
    tks_inst *in = &p->inst[i];
    if (!is_branch_op(in->op)) continue;
    uint64_t a = k->code_addr + (uint64_t)(int64_t)(int32_t)in->pc + 4 + (uint64_t)((int64_t)in->offset * 4);
    in->target = tks_program_index(p, a);
  }
  LLVMDisasmDispose(dc);
  return p;
}

void tks_program_free(tks_program *p)
{
  if (!p) return;
  for (uint32_t r = 0; r < p->nregions; r++) free(p->regions[r].map);
  free(p->regions); free(p->inst); free(p->text); free(p);
}
