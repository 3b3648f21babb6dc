/* isa_coverage.c: measured instruction coverage of tksim for gfx942 and
 * gfx950.
 *
 * The instruction list comes from LLVM itself: every opcode value of every
 * encoding (CDNA3/CDNA4 ISA guides, "Microcode Formats": SOP2, SOPK, SOP1,
 * SOPC, SOPP, SMEM, VOP2, VOP1, VOPC, VOP3, VOP3P, DS, MUBUF, MTBUF, FLAT /
 * SCRATCH / GLOBAL, and the graphics-only MIMG, EXP, VINTRP) is given to the
 * same LLVM AMDGPU disassembler tksim decodes with, for the target's CPU; each
 * distinct mnemonic (without _e32/_e64/_sdwa/_dpp) it accepts is one
 * instruction. For each one:
 *   decoded  - tksim's decoder turns it into a record (not TKS_OP_UNIMPL);
 *   executed - a one-wave dispatch of [prologue, it, s_endpgm] finishes or
 *              stops for any reason but "unimplemented instruction" (memory
 *              operands point at a live 64 KiB buffer, LDS is 64 KiB).
 *
 *   isa_coverage [--arch gfx942|gfx950] [--list] [--markdown]
 *                [--expect FILE]        (ctest: fail if a class drops below)
 * --expect FILE: lines "ARCH CLASS EXECUTED"; exit 1 when any class of ARCH
 * executes fewer instructions than recorded, and "ARCH floor N": exit 1 when
 * less than N/10 % of the non-graphics instructions execute
 * (docs/tksim-exec.md, "ISA coverage", says how to update it).
 *
 *   isa_coverage --arch A --emitted OBJ...
 * What clang emits: every function (kernels and the functions they call) of
 * the raw code objects OBJ is decoded by tksim's decoder; each distinct instruction form
 * (mnemonic as printed, _e32/_e64/_sdwa/_dpp kept, plus the names of its
 * name:value modifiers and flag words, e.g. "v_mov_b32_dpp row_shr
 * bound_ctrl") must decode, and its first occurrence's own bytes must
 * execute in the one-wave dispatch above. Exit 1 and a list when any fails.
 * ISA_COVERAGE_TRACE=1 prints each form before running it.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>
#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>
#include "decoder/decoder.h"
#include "loader/loader.h"

void LLVMInitializeAMDGPUTargetInfo(void);
void LLVMInitializeAMDGPUTargetMC(void);
void LLVMInitializeAMDGPUDisassembler(void);

/* Register choices: v[0:1] and s[0:1] hold the buffer's address, s[0:3] a
 * buffer descriptor over it, v2 = 0 (DS address / MUBUF offset), data and
 * destinations v4.., s4.. */
enum { V = 256 /* source-operand code of v0 */ };

typedef struct enc {
  const char *cls;
  int graphics;          /* graphics-only encoding (no compute use) */
  int words, opmax;
  uint32_t (*w0)(uint32_t op, int var);
  uint32_t (*w1)(uint32_t op, int var);
  int nvar;              /* variants of w0's own flag bits */
  uint64_t zero[4];      /* operand fields tried both as set and as 0 (LLVM
                            refuses encodings whose unused fields are not 0) */
} enc;

static uint32_t sop2(uint32_t op, int v) { (void)v; return 0x80000000u | op << 23 | 4u << 16 | 6u << 8 | 8u; }
static uint32_t sopk(uint32_t op, int v) { (void)v; return 0xb0000000u | op << 23 | 4u << 16 | 1u; }
static uint32_t sop1(uint32_t op, int v) { (void)v; return 0xbe800000u | 4u << 16 | op << 8 | 6u; }
static uint32_t sopc(uint32_t op, int v) { (void)v; return 0xbf000000u | op << 16 | 6u << 8 | 4u; }
static uint32_t sopp(uint32_t op, int v) { (void)v; return 0xbf800000u | op << 16; }
static uint32_t smem0(uint32_t op, int v) { return 0xc0000000u | op << 18 | 1u << 17 | (v ? 1u << 16 : 0) | 4u << 6; }
static uint32_t smem1(uint32_t op, int v) { (void)op; (void)v; return 0; }
static uint32_t vop2(uint32_t op, int v) { (void)v; return op << 25 | 4u << 17 | 6u << 9 | (V + 8); }
static uint32_t vop1(uint32_t op, int v) { (void)v; return 0x7e000000u | 4u << 17 | op << 9 | (V + 6); }
static uint32_t vopc(uint32_t op, int v) { (void)v; return 0x7c000000u | op << 17 | 6u << 9 | (V + 4); }
static uint32_t vop3_0(uint32_t op, int v) { (void)v; return 0xd0000000u | op << 16 | 4u; }
static uint32_t vop3_1(uint32_t op, int v) { (void)op; (void)v; return (V + 6) | (V + 8) << 9 | (uint32_t)(V + 10) << 18; }
static uint32_t vop3p0(uint32_t op, int v) { (void)v; return 0xd3800000u | op << 16 | 8u; }
static uint32_t vop3p1(uint32_t op, int v) { (void)op; (void)v; return (V + 16) | (V + 24) << 9 | (uint32_t)(V + 32) << 18; }
static uint32_t ds0(uint32_t op, int v) { return 0xd8000000u | op << 17 | (v ? 1u << 16 : 0); }
static uint32_t ds1(uint32_t op, int v) { (void)op; (void)v; return 2u | 4u << 8 | 6u << 16 | 8u << 24; }
static uint32_t mubuf0(uint32_t op, int v) { return 0xe0000000u | op << 18 | (v ? 1u << 16 : 0); }
static uint32_t mubuf1(uint32_t op, int v) { (void)op; (void)v; return 2u | 4u << 8 | 0u << 16 | 0x80u << 24; }
static uint32_t mtbuf0(uint32_t op, int v) { (void)v; return 0xe8000000u | op << 15 | 4u << 19 | 7u << 23; }
static uint32_t flat0s(uint32_t op, int v, uint32_t seg) { return 0xdc000000u | op << 18 | seg << 14 | (v ? 1u << 13 : 0); }
static uint32_t flat0(uint32_t op, int v) { return flat0s(op, v, 0); }
static uint32_t scratch0(uint32_t op, int v) { return flat0s(op, v, 1); }
static uint32_t global0(uint32_t op, int v) { return flat0s(op, v, 2); }
static uint32_t flat1(uint32_t op, int v) { (void)op; (void)v; return 0u | 4u << 8 | 0x7fu << 16 | 8u << 24; }
static uint32_t scratch1(uint32_t op, int v) { (void)op; (void)v; return 2u | 4u << 8 | 0x7fu << 16 | 8u << 24; }
static uint32_t mimg0(uint32_t op, int v) { (void)v; return 0xf0000000u | op << 18 | 0xfu << 8; }
static uint32_t zero1(uint32_t op, int v) { (void)op; (void)v; return 0; }
static uint32_t exp0(uint32_t op, int v) { (void)v; return 0xc4000000u | (op & 0x3f) << 4 | 0xf; }
static uint32_t vintrp(uint32_t op, int v) { (void)v; return 0xd4000000u | 4u << 18 | op << 16; }

#define HI(m) ((uint64_t)(m) << 32)
static const enc g_enc[] = {
  { "SOP2", 0, 1, 0x5f, sop2, NULL, 1, { 0xff, 0xff00, 0x7f0000 } },
  { "SOPK", 0, 1, 0x1c, sopk, NULL, 1, { 0x7f0000, 0xffff } },
  { "SOP1", 0, 1, 0xff, sop1, NULL, 1, { 0xff, 0x7f0000 } },
  { "SOPC", 0, 1, 0x7f, sopc, NULL, 1, { 0xff, 0xff00 } },
  { "SOPP", 0, 1, 0x7f, sopp, NULL, 1, { 0 } },
  { "SMEM", 0, 2, 0xff, smem0, smem1, 2, { 0x1fc0, 0x3f } },
  { "VOP2", 0, 1, 0x3d, vop2, NULL, 1, { 0 } },
  { "VOP1", 0, 1, 0xff, vop1, NULL, 1, { 0x1ff, 0x1fe0000 } },
  { "VOPC", 0, 1, 0xff, vopc, NULL, 1, { 0 } },
  /* op 0x380.. of the VOP3 field is VOP3P's encoding */
  { "VOP3", 0, 2, 0x37f, vop3_0, vop3_1, 1, { HI(0x7fc0000), HI(0x3fe00), HI(0x1ff), 0xff } },
  { "VOP3P", 0, 2, 0x7f, vop3p0, vop3p1, 1, { HI(0x7fc0000), HI(0x3fe00), 0xff } },
  { "DS", 0, 2, 0xff, ds0, ds1, 2, { HI(0xff000000), HI(0xff0000), HI(0xff00), HI(0xff) } },
  { "MUBUF", 0, 2, 0x7f, mubuf0, mubuf1, 2, { HI(0xff00), HI(0xff) } },
  { "MTBUF", 0, 2, 0xf, mtbuf0, mubuf1, 1, { HI(0xff00), HI(0xff) } },
  { "FLAT", 0, 2, 0x7f, flat0, flat1, 2, { HI(0xff000000), HI(0x7f0000), HI(0xff00) } },
  { "SCRATCH", 0, 2, 0x7f, scratch0, scratch1, 2, { HI(0xff000000), HI(0xff00), HI(0xff) } },
  { "GLOBAL", 0, 2, 0x7f, global0, flat1, 2, { HI(0xff000000), HI(0xff00) } },
  { "MIMG", 1, 2, 0x7f, mimg0, zero1, 1, { 0 } },
  { "EXP", 1, 2, 0, exp0, zero1, 1, { 0 } },
  { "VINTRP", 1, 1, 3, vintrp, NULL, 1, { 0 } },
};
#define NENC ((int)(sizeof g_enc / sizeof g_enc[0]))

/* The decoder treats these as invalid without asking LLVM (it crashes on
 * them); the enumeration must not ask either. */
static int llvm_unsafe(const uint8_t *b)
{
  uint32_t w0, w1;
  memcpy(&w0, b, 4); memcpy(&w1, b + 4, 4);
  if (((w0 >> 26) == 0x38 || (w0 >> 26) == 0x3a) && (w1 >> 24) == 0xff) return 1;
  return (w0 >> 26) == 0x34 && ((w1 & 0x1ff) == 0xff || ((w1 >> 9) & 0x1ff) == 0xff || ((w1 >> 18) & 0x1ff) == 0xff);
}

#define MAXV 8 /* encodings kept per instruction (operand choices differ) */
typedef struct inst {
  char name[64];
  int cls;
  uint8_t bytes[MAXV][16];
  int len[MAXV], nv;
  int decoded, executed;
  char why[160];
} inst;

static inst *g_inst;
static int g_n, g_cap;

static int find(const char *name)
{
  for (int i = 0; i < g_n; i++) if (!strcmp(g_inst[i].name, name)) return i;
  return -1;
}

static void mnemonic(const char *text, char *out, size_t cap)
{
  while (*text == ' ' || *text == '\t') text++;
  size_t n = strcspn(text, " \t");
  if (n >= cap) n = cap - 1;
  memcpy(out, text, n); out[n] = 0;
  static const char *suf[] = { "_e32", "_e64", "_sdwa", "_dpp" };
  for (int i = 0; i < 4; i++) {
    size_t L = strlen(out), s = strlen(suf[i]);
    if (L > s && !strcmp(out + L - s, suf[i])) { out[L - s] = 0; break; }
  }
}

static void enumerate(const char *cpu)
{
  LLVMDisasmContextRef dc = LLVMCreateDisasmCPU("amdgcn-amd-amdhsa", cpu, NULL, 0, NULL, NULL);
  if (!dc) { fprintf(stderr, "isa_coverage: no LLVM disassembler for %s\n", cpu); exit(2); }
  for (int c = 0; c < NENC; c++) {
    const enc *e = &g_enc[c];
    int nz = 0;
    while (nz < 4 && e->zero[nz]) nz++;
    for (uint32_t op = 0; op <= (uint32_t)e->opmax; op++)
      for (int v = 0; v < e->nvar; v++)
        for (int z = 0; z < (1 << nz); z++) {
          uint64_t w = e->w0(op, v) | (uint64_t)(e->w1 ? e->w1(op, v) : 0) << 32;
          for (int f = 0; f < nz; f++) if (z >> f & 1) w &= ~e->zero[f];
          uint8_t b[16] = {0};
          memcpy(b, &w, 8);
          if (e->words == 1) memset(b + 4, 0, 4);
          if (llvm_unsafe(b)) continue;
          char text[256];
          size_t len = LLVMDisasmInstruction(dc, b, sizeof b, 0x1000, text, sizeof text);
          if (!len) continue;
          /* a different class's encoding (SOP2's high opcodes are SOPK's, ...) */
          if ((int)len < e->words * 4) continue;
          char m[64];
          mnemonic(text, m, sizeof m);
          if (!m[0] || m[0] == '.') continue;
          int at = find(m);
          inst *in;
          if (at >= 0) {
            in = &g_inst[at];
            if (in->cls != c || in->nv == MAXV) continue;
          } else {
            if (g_n == g_cap) { g_cap = g_cap ? 2 * g_cap : 512; g_inst = realloc(g_inst, (size_t)g_cap * sizeof *g_inst); }
            in = &g_inst[g_n++];
            memset(in, 0, sizeof *in);
            snprintf(in->name, sizeof in->name, "%s", m);
            in->cls = c;
          }
          memcpy(in->bytes[in->nv], b, len);
          in->len[in->nv++] = (int)len;
        }
  }
  LLVMDisasmDispose(dc);
}

/* ---------------------------------------------------------------- running */
static uint8_t *g_buf;               /* the operands' memory */
#define BUF_BYTES (64u << 10)

static int put(uint8_t *p, uint32_t w) { memcpy(p, &w, 4); return 4; }

/* s_mov_b32 sN, lit / v_mov_b32 vN, lit (LLVM: 0xbe8000ff | N << 16, 0x7e0002ff | N << 17) */
static int prologue(uint8_t *p)
{
  uint64_t a = (uint64_t)(uintptr_t)g_buf;
  int n = 0;
  const uint32_t s[4] = { (uint32_t)a, (uint32_t)(a >> 32), BUF_BYTES, 0x00027000u };
  for (uint32_t r = 0; r < 4; r++) { n += put(p + n, 0xbe8000ffu | r << 16); n += put(p + n, s[r]); }
  n += put(p + n, 0xbefc0080u);                         /* s_mov_b32 m0, 0 (LDS base of load_lds) */
  n += put(p + n, 0x7e0002ffu); n += put(p + n, (uint32_t)a);
  n += put(p + n, 0x7e0202ffu); n += put(p + n, (uint32_t)(a >> 32));
  n += put(p + n, 0x7e040280u);                         /* v_mov_b32 v2, 0 */
  return n;
}

static void run1(inst *in, int vi, int arch)
{
  /* image: prologue, the instruction, s_endpgm; page-aligned */
  size_t isz = 4096;
  uint8_t *img = mmap(NULL, isz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  int n = prologue(img);
  int at = n;
  memcpy(img + n, in->bytes[vi], (size_t)in->len[vi]); n += in->len[vi];
  n += put(img + n, 0xbf810000u);                       /* s_endpgm */
  for (int i = n; i + 4 <= (int)isz; i += 4) put(img + i, 0xbf810000u);
  tks_mem_register((uint64_t)(uintptr_t)img, isz, TKS_ALLOC_CODE);
  tks_code_object co;
  memset(&co, 0, sizeof co);
  co.image = img; co.image_size = isz; co.arch = arch;
  tks_kernel k;
  memset(&k, 0, sizeof k);
  snprintf(k.name, sizeof k.name, "cov_%s", in->name);
  k.code = img; k.code_size = (uint64_t)n; k.code_addr = (uint64_t)(uintptr_t)img; k.co = &co;
  k.group_segment_fixed_size = 65536; k.kd.group_segment_fixed_size = 65536;
  k.private_segment_fixed_size = 256;
  k.accum_offset = 256; k.wavefront_size = 64; k.kernarg_segment_align = 8;
  k.kd.compute_pgm_rsrc1 = 0xf << 16 | 0x3f; /* denormals on, most VGPRs */
  co.kernels = &k; co.nkernels = 1;
  char err[1024] = "";
  tks_program *p = tks_decode_kernel(&k, err, sizeof err);
  if (!p) { snprintf(in->why, sizeof in->why, "decoder: %s", err); goto out; }
  int32_t idx = tks_program_index(p, k.code_addr + (uint64_t)at);
  in->decoded = idx >= 0 && p->inst[idx].op != TKS_OP_UNIMPL;
  if (!in->decoded) {
    snprintf(in->why, sizeof in->why, "not decoded: '%s'", idx >= 0 ? tks_inst_text(p, &p->inst[idx]) : "?");
    tks_program_free(p);
    goto out;
  }
  tks_program_free(p);
  {
    uint8_t kernarg[256] = {0}, packet[64] = {0}, queue[256] = {0};
    tks_dispatch d;
    memset(&d, 0, sizeof d);
    d.k = &k; d.grid[0] = d.grid[1] = d.grid[2] = 1; d.grid[0] = 64;
    d.block[0] = 64; d.block[1] = d.block[2] = 1;
    d.kernarg = kernarg; d.dispatch_packet = packet; d.queue = queue;
    tks_options opt = {.check_memory = 1, .inst_budget = 20000, .threads = 1, .quiet = 1, .arch = arch};
    tks_launch_stats st;
    memset(g_buf, 0, BUF_BYTES);
    err[0] = 0;
    int r = tks_exec_dispatch(&d, &opt, &st, err, sizeof err);
    in->executed = !(r && strstr(err, "unimplemented"));
    if (!in->executed) snprintf(in->why, sizeof in->why, "%s", err);
    tks_exec_release(&co);
  }
out:
  tks_mem_unregister((uint64_t)(uintptr_t)img);
  munmap(img, isz);
}

/* decoded/executed if any of its encodings is */
static void run(inst *in, int arch)
{
  int dec = 0;
  for (int v = 0; v < in->nv; v++) {
    run1(in, v, arch);
    dec |= in->decoded;
    if (in->executed) break;
  }
  in->decoded = dec;
}

/* Graphics-only instructions of compute encodings, left out of the
 * "non-graphics" figures like the graphics encodings: the rule is "no
 * meaning in a compute dispatch" - pixel-shader program end and kill mask
 * (s_endpgm_ordered_ps_done, s_setkill) and the rasteriser's screen
 * partitioning (v_screen_partition_4se_b32). docs/tksim-exec.md lists them. */
static int graphics_inst(const inst *in)
{
  static const char *names[] = {"s_endpgm_ordered_ps_done", "s_setkill", "v_screen_partition_4se_b32"};
  if (g_enc[in->cls].graphics) return 1;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(in->name, names[i])) return 1;
  return 0;
}

/* Why an instruction is left out, for the ones tksim does not execute. */
static const char *reason(const inst *in)
{
  const char *m = in->name;
  if (g_enc[in->cls].graphics) return "graphics-only encoding";
  if (graphics_inst(in)) return "graphics-only (not counted in non-graphics)";
  if (strstr(m, "_format_") || !strncmp(m, "tbuffer_", 8)) return "typed (format) buffer access: graphics/texture path";
  if (strstr(m, "interp") || strstr(m, "cube")) return "graphics interpolation / cube maps";
  if (!strncmp(m, "ds_gws", 6) || strstr(m, "_gws_")) return "global wave sync: driver-managed";
  if (strstr(m, "wqm") || strstr(m, "quadmask") || !strcmp(m, "s_setkill")) return "pixel-shader masks";
  if (strstr(m, "sendmsghalt") || strstr(m, "ttrace") || strstr(m, "cdbg") || strstr(m, "_dbg")) return "debugger/trace";
  if (strstr(m, "_ordered_") || strstr(m, "_append") || strstr(m, "_consume")) return "graphics ordered/append counters";
  if (!strncmp(m, "s_atc_", 6) || strstr(m, "_atc")) return "ATC probes: no address translation cache in tksim";
  return "not used by clang for HIP code so far";
}

/* ------------------------------------------------------- what clang emits */
typedef struct form {
  char key[160];
  char text[96], where[96];
  int count;
} form;

static int bare_flag(const char *t)
{
  static const char *w[] = { "glc", "slc", "nt", "sc0", "sc1", "offen", "idxen", "lds", "clamp", "gds", "tfe",
                             "lwe", "row_mirror", "row_half_mirror", "d16", "vcc", "off" };
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) if (!strcmp(t, w[i])) return 1;
  return 0;
}

/* "v_add_f32_dpp v1, v2, v3 row_shr:1 bank_mask:0xf" -> "v_add_f32_dpp row_shr bank_mask" */
static void form_key(const char *text, char *key, size_t cap)
{
  char buf[256];
  snprintf(buf, sizeof buf, "%s", text);
  size_t n = 0;
  key[0] = 0;
  for (char *t = strtok(buf, " ,\t"); t; t = strtok(NULL, " ,\t")) {
    char part[64];
    const char *c = strchr(t, ':');
    if (n == 0) snprintf(part, sizeof part, "%s", t);
    else if (c && t[0] != '[' && !strchr(t, '[') && (size_t)(c - t) < sizeof part - 1) snprintf(part, sizeof part, " %.*s", (int)(c - t), t);
    else if (bare_flag(t)) snprintf(part, sizeof part, " %s", t);
    else continue;
    if (n + strlen(part) + 1 < cap) { strcpy(key + n, part); n += strlen(part); }
  }
}

static int emitted(int arch, char **files, int nfiles)
{
  form *f = NULL;
  int nf = 0, cap = 0, nk = 0, nfn = 0, rc = 0;
  /* forms by hash of the key (open addressing): millions of instructions at -O0 */
  enum { HB = 1 << 14 };
  static int hidx[HB];
  memset(hidx, -1, sizeof hidx);
  long ninst = 0;
  for (int a = 0; a < nfiles; a++) {
    FILE *fp = fopen(files[a], "rb");
    if (!fp) { fprintf(stderr, "isa_coverage: cannot read %s\n", files[a]); return 2; }
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *data = size > 0 ? malloc((size_t)size) : NULL;
    if (!data || fread(data, 1, (size_t)size, fp) != (size_t)size) { fprintf(stderr, "isa_coverage: cannot read %s\n", files[a]); return 2; }
    fclose(fp);
    tks_code_object co;
    memset(&co, 0, sizeof co);
    char err[1024];
    if (tks_load_code_object(data, (size_t)size, &co, err, sizeof err)) { fprintf(stderr, "isa_coverage: %s: %s\n", files[a], err); return 2; }
    if (co.arch != arch) { fprintf(stderr, "isa_coverage: %s is not a %s code object\n", files[a], tks_arch_name(arch)); return 2; }
    /* every function of the code object (kernels are functions too) once,
     * on its own: a copy of the code object without image or function list
     * keeps the decoder from following calls, so -O0 code whose calls it
     * cannot resolve statically (addresses spilled to VGPR lanes) does not
     * decode every function again for each kernel */
    tks_code_object alone = co;
    alone.funcs = NULL; alone.nfuncs = 0; alone.image_size = 0;
    nk += co.nkernels;
    const int nrange = co.nfuncs ? co.nfuncs : co.nkernels; /* no symbol table: the kernels */
    for (int fi = 0; fi < nrange; fi++) {
      tks_kernel fk;
      memset(&fk, 0, sizeof fk);
      snprintf(fk.name, sizeof fk.name, "function %d", fi);
      fk.code = co.nfuncs ? (const uint8_t *)(uintptr_t)co.funcs[fi].addr : co.kernels[fi].code;
      fk.code_size = co.nfuncs ? co.funcs[fi].size : co.kernels[fi].code_size;
      fk.code_addr = co.nfuncs ? co.funcs[fi].addr : co.kernels[fi].code_addr;
      fk.co = &alone;
      tks_kernel *k = &fk;
      nfn++;
      tks_program *p = tks_decode_kernel(k, err, sizeof err);
      if (!p) { fprintf(stderr, "isa_coverage: %s: %s\n", files[a], err); return 2; }
      for (uint32_t j = 0; j < p->n; j++) {
        const tks_inst *in = &p->inst[j];
        const char *text = tks_inst_text(p, in);
        if (text[0] == '.') continue;           /* .long: data between functions */
        ninst++;
        char key[160];
        form_key(text, key, sizeof key);
        uint32_t h = 2166136261u;
        for (const char *c = key; *c; c++) h = (h ^ (uint8_t)*c) * 16777619u;
        int at = -1;
        for (h &= HB - 1; hidx[h] >= 0; h = (h + 1) & (HB - 1))
          if (!strcmp(f[hidx[h]].key, key)) { at = hidx[h]; break; }
        if (at >= 0) { f[at].count++; continue; }
        if (nf >= HB / 2) { fprintf(stderr, "isa_coverage: more than %d instruction forms\n", HB / 2); return 2; }
        hidx[h] = nf;
        if (nf == cap) { cap = cap ? 2 * cap : 512; f = realloc(f, (size_t)cap * sizeof *f); }
        form *x = &f[nf++];
        memset(x, 0, sizeof *x);
        snprintf(x->key, sizeof x->key, "%s", key);
        snprintf(x->text, sizeof x->text, "%s", text);
        snprintf(x->where, sizeof x->where, "%s +0x%llx", strrchr(files[a], '/') ? strrchr(files[a], '/') + 1 : files[a],
                 (unsigned long long)(k->code_addr + in->pc - (uint64_t)(uintptr_t)co.image));
        x->count = 1;
        /* run the form's own bytes: decoded and executed as in the table */
        inst t;
        memset(&t, 0, sizeof t);
        snprintf(t.name, sizeof t.name, "%s", key);
        t.len[0] = (int)(in->len <= 16 ? in->len : 16);
        memcpy(t.bytes[0], k->code + (int64_t)(int32_t)in->pc, (size_t)t.len[0]);
        t.nv = 1;
        /* the forms' memory operands point anywhere: tksim's memory-error
         * lines would bury the list */
        if (getenv("ISA_COVERAGE_TRACE")) { printf("  running '%s' (%s)\n", text, x->where); fflush(stdout); }
        fflush(stderr);
        int saved = dup(2), null = open("/dev/null", O_WRONLY);
        if (null >= 0) { dup2(null, 2); close(null); }
        run1(&t, 0, arch);
        fflush(stderr);
        if (saved >= 0) { dup2(saved, 2); close(saved); }
        if (!t.decoded || !t.executed) {
          printf("  missing %s: '%s' (%s): %s\n", tks_arch_name(arch), text, x->where, t.why);
          rc = 1;
        }
      }
      tks_program_free(p);
    }
    tks_free_code_object(&co);
    free(data);
  }
  printf("isa_coverage: %s: %d kernels, %d functions, %ld instructions, %d distinct forms: %s\n", tks_arch_name(arch), nk, nfn,
         ninst, nf,
         rc ? "some NOT decoded/executed (listed above)" : "every one decoded and executed");
  free(f);
  return rc;
}

int main(int argc, char **argv)
{
  const char *arch_name = "gfx942", *expect = NULL;
  int list = 0, markdown = 0, emit_at = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--arch") && i + 1 < argc) arch_name = argv[++i];
    else if (!strcmp(argv[i], "--list")) list = 1;
    else if (!strcmp(argv[i], "--markdown")) markdown = 1;
    else if (!strcmp(argv[i], "--expect") && i + 1 < argc) expect = argv[++i];
    else if (!strcmp(argv[i], "--emitted")) { emit_at = i + 1; break; }
    else { fprintf(stderr, "usage: isa_coverage [--arch gfx942|gfx950] [--list] [--markdown] [--expect FILE] | --emitted OBJ...\n"); return 2; }
  }
  /* the loader checks code objects against the emulated target */
  if (emit_at) setenv("TKSIM_ARCH", arch_name, 1);
  int arch = tks_arch_id(arch_name);
  if (arch < 0) { fprintf(stderr, "isa_coverage: unknown target %s\n", arch_name); return 2; }
  LLVMInitializeAMDGPUTargetInfo();
  LLVMInitializeAMDGPUTargetMC();
  LLVMInitializeAMDGPUDisassembler();
  g_buf = mmap(NULL, BUF_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  tks_mem_register((uint64_t)(uintptr_t)g_buf, BUF_BYTES, TKS_ALLOC_DEVICE);
  if (emit_at) {
    if (emit_at >= argc) { fprintf(stderr, "isa_coverage: --emitted needs code objects\n"); return 2; }
    return emitted(arch, argv + emit_at, argc - emit_at);
  }
  enumerate(arch_name);
  for (int i = 0; i < g_n; i++) run(&g_inst[i], arch);

  int tot[3] = {0}, totc[3] = {0};
  int cnt[NENC][3];
  memset(cnt, 0, sizeof cnt);
  for (int i = 0; i < g_n; i++) {
    cnt[g_inst[i].cls][0]++; cnt[g_inst[i].cls][1] += g_inst[i].decoded; cnt[g_inst[i].cls][2] += g_inst[i].executed;
    if (!graphics_inst(&g_inst[i])) { totc[0]++; totc[1] += g_inst[i].decoded; totc[2] += g_inst[i].executed; }
  }
  if (markdown) printf("| %s class | LLVM 22 | decoded | executed | executed %% |\n|---|---:|---:|---:|---:|\n", arch_name);
  for (int c = 0; c < NENC; c++) {
    int *x = cnt[c];
    for (int j = 0; j < 3; j++) tot[j] += x[j];
    if (!x[0]) continue;
    if (markdown)
      printf("| %s%s | %d | %d | %d | %.1f |\n", g_enc[c].cls, g_enc[c].graphics ? " (graphics)" : "", x[0], x[1], x[2], 100.0 * x[2] / x[0]);
    else
      printf("%s %-8s %4d instructions, %4d decoded, %4d executed (%.1f%%)%s\n", arch_name, g_enc[c].cls, x[0], x[1], x[2],
             100.0 * x[2] / x[0], g_enc[c].graphics ? "  [graphics]" : "");
  }
  if (markdown) {
    printf("| all but graphics | %d | %d | %d | %.1f |\n", totc[0], totc[1], totc[2], 100.0 * totc[2] / totc[0]);
    printf("| all | %d | %d | %d | %.1f |\n", tot[0], tot[1], tot[2], 100.0 * tot[2] / tot[0]);
  } else {
    printf("%s non-graphics: %d instructions, %d decoded, %d executed (%.1f%%)\n", arch_name, totc[0], totc[1], totc[2], 100.0 * totc[2] / totc[0]);
    printf("%s all: %d instructions, %d decoded, %d executed (%.1f%%)\n", arch_name, tot[0], tot[1], tot[2], 100.0 * tot[2] / tot[0]);
  }
  if (list)
    for (int i = 0; i < g_n; i++)
      if (!g_inst[i].executed)
        printf("  missing %s %-8s %-36s %s%s%s\n", arch_name, g_enc[g_inst[i].cls].cls, g_inst[i].name, reason(&g_inst[i]),
               g_inst[i].why[0] ? " | " : "", g_inst[i].why);
  int rc = 0;
  if (expect) {
    FILE *f = fopen(expect, "r");
    if (!f) { fprintf(stderr, "isa_coverage: cannot read %s\n", expect); return 2; }
    char line[256], a[32], c[32];
    int want, seen = 0;
    while (fgets(line, sizeof line, f)) {
      if (line[0] == '#' || sscanf(line, "%31s %31s %d", a, c, &want) != 3 || strcmp(a, arch_name)) continue;
      int got = -1;
      if (!strcmp(c, "non-graphics")) got = totc[2];
      /* "ARCH floor P": the non-graphics executed share, in tenths of a percent */
      if (!strcmp(c, "floor")) {
        seen++;
        int per_mille = (int)(1000.0 * totc[2] / totc[0]);
        if (per_mille < want) { fprintf(stderr, "isa_coverage: %s: %.1f%% of non-graphics instructions executed, below the floor %.1f%%\n", a, per_mille / 10.0, want / 10.0); rc = 1; }
        continue;
      }
      for (int k = 0; k < NENC; k++) if (!strcmp(g_enc[k].cls, c)) got = cnt[k][2];
      seen++;
      if (got < want) { fprintf(stderr, "isa_coverage: %s %s: %d executed, below the recorded %d\n", a, c, got, want); rc = 1; }
    }
    fclose(f);
    if (!seen) { fprintf(stderr, "isa_coverage: no %s figures in %s\n", arch_name, expect); rc = 1; }
    printf("isa_coverage: %s %s the recorded coverage\n", arch_name, rc ? "is BELOW" : "meets");
  }
  return rc;
}
