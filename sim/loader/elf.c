/* elf.c: loads a gfx942 or gfx950 AMDGPU code object (ELF64, EM_AMDGPU 0xe0) into host
 * memory the emulated device can address.
 *
 * Sources: LLVM AMDGPUUsage - "ELF Code Object" (EF_AMDGPU_MACH, OS ABI
 * ELFOSABI_AMDGPU_HSA, ABI versions 2/3/4 = code object V4/V5/V6), "Note
 * Records" (NT_AMDGPU_METADATA = 32, owner "AMDGPU", msgpack map), "Code
 * Object V5 Metadata", "Kernel Descriptor" (64 bytes at symbol NAME.kd) and
 * "Relocation Records" (R_AMDGPU_ABS64 = 3, R_AMDGPU_RELATIVE64 = 13).
 * PT_LOAD segments are copied into one fresh 4 KiB-aligned buffer, so a
 * segment's address is image + (vaddr - vaddr_base). Every offset read from
 * the file is bounds-checked: corrupt input gets an error, never a crash.
 */
#define _DEFAULT_SOURCE /* mmap flags, readlink, realpath under -std=c11 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "loader/loader.h"
#include "loader/msgpack.h"

#define EM_AMDGPU 0xe0
#define PT_LOAD 1
#define PT_NOTE 4
#define SHT_SYMTAB 2
#define SHT_RELA 4
#define SHT_NOTE 7
#define SHT_DYNSYM 11
#define STT_OBJECT 1
#define STT_FUNC 2
#define STB_LOCAL 0
#define R_AMDGPU_NONE 0
#define R_AMDGPU_ABS64 3
#define R_AMDGPU_RELATIVE64 13
#define NT_AMDGPU_METADATA 32
/* Images beyond this are refused rather than allocated (a corrupt p_memsz). */
#define MAX_IMAGE ((uint64_t)1 << 30)
#define MAX_KERNELS 65536
#define MAX_ARGS 1024

typedef struct elf_in {
  const uint8_t *d;
  size_t n;
  char *err;
  size_t errlen;
} elf_in;

static int fail(elf_in *f, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int k = snprintf(f->err, f->errlen, "code object: ");
  if (k < 0 || (size_t)k >= f->errlen) k = 0;
  vsnprintf(f->err + k, f->errlen - (size_t)k, fmt, ap);
  va_end(ap);
  return -1;
}

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

/* Whether [off, off+len) lies in the file. */
static int in_file(const elf_in *f, uint64_t off, uint64_t len)
{
  return off <= f->n && len <= f->n - off;
}

typedef struct shdr { uint32_t name, type; uint64_t flags, addr, off, size; uint32_t link, info; uint64_t entsize; } shdr;

static void get_shdr(const uint8_t *p, shdr *s)
{
  s->name = rd32(p); s->type = rd32(p + 4); s->flags = rd64(p + 8); s->addr = rd64(p + 16);
  s->off = rd64(p + 24); s->size = rd64(p + 32); s->link = rd32(p + 40); s->info = rd32(p + 44);
  s->entsize = rd64(p + 56);
}

typedef struct symtab {
  const uint8_t *syms; uint64_t nsyms;
  const char *str; uint64_t strsize;
} symtab;

typedef struct sym { const char *name; uint64_t value, size; uint8_t type, bind; uint16_t shndx; } sym;

static int get_sym(const symtab *t, uint64_t i, sym *s)
{
  const uint8_t *p = t->syms + i * 24;
  uint32_t nm = rd32(p);
  s->type = p[4] & 0xf; s->bind = p[4] >> 4; s->shndx = rd16(p + 6);
  s->value = rd64(p + 8); s->size = rd64(p + 16);
  if (nm >= t->strsize) return -1;
  /* the name must be NUL-terminated inside the string table */
  if (!memchr(t->str + nm, 0, t->strsize - nm)) return -1;
  s->name = t->str + nm;
  return 0;
}

static int find_sym(const symtab *t, const char *name, sym *out)
{
  int found = 0;
  for (uint64_t i = 1; i < t->nsyms; i++) {
    sym s;
    if (get_sym(t, i, &s) || strcmp(s.name, name) || s.shndx == 0) continue;
    if (!found || (out->bind == STB_LOCAL && s.bind != STB_LOCAL)) { *out = s; found = 1; }
  }
  return found ? 0 : -1;
}

/* Host pointer for [vaddr, vaddr+len) inside the loaded image, or NULL. */
static uint8_t *img_ptr(tks_code_object *co, uint64_t vaddr, uint64_t len)
{
  if (vaddr < co->vaddr_base) return NULL;
  uint64_t o = vaddr - co->vaddr_base;
  if (o > co->image_size || len > co->image_size - o) return NULL;
  return co->image + o;
}

/* --- metadata ----------------------------------------------------------- */
static int read_arg(tks_mp *r, tks_arg *a)
{
  tks_mp_obj m;
  if (tks_mp_read(r, &m) || m.type != TKS_MP_MAP) return -1;
  memset(a, 0, sizeof *a);
  for (uint64_t i = 0; i < m.u; i++) {
    tks_mp_obj key;
    uint64_t v;
    if (tks_mp_read(r, &key) || key.type != TKS_MP_STR) return -1;
    if (tks_mp_streq(&key, ".offset")) { if (tks_mp_read_uint(r, &v) || v > UINT32_MAX) return -1; a->offset = (uint32_t)v; }
    else if (tks_mp_streq(&key, ".size")) { if (tks_mp_read_uint(r, &v) || v > UINT32_MAX) return -1; a->size = (uint32_t)v; }
    else if (tks_mp_streq(&key, ".value_kind")) { if (tks_mp_read_str(r, a->value_kind, sizeof a->value_kind)) return -1; }
    else if (tks_mp_streq(&key, ".name")) { if (tks_mp_read_str(r, a->name, sizeof a->name)) return -1; }
    else if (tks_mp_skip(r)) return -1;
  }
  return 0;
}

static int read_u32(tks_mp *r, uint32_t *out)
{
  uint64_t v;
  if (tks_mp_read_uint(r, &v) || v > UINT32_MAX) return -1;
  *out = (uint32_t)v;
  return 0;
}

/* One entry of amdhsa.kernels. The kernel's .symbol name goes into k->name
 * temporarily (with ".kd"); the caller resolves it. */
/* a name string that must fit whole (a cut-off kernel name would not match
 * its symbol or the host's registration) */
static int read_name(tks_mp *r, char *buf, size_t cap)
{
  tks_mp saved = *r;
  tks_mp_obj o;
  if (tks_mp_read(r, &o) || o.type != TKS_MP_STR) return -1;
  if (o.len >= cap) return -2;
  *r = saved;
  return tks_mp_read_str(r, buf, cap);
}

static int read_kernel(tks_mp *r, tks_kernel *k, char *sym_name, size_t symcap, elf_in *f)
{
  tks_mp_obj m;
  if (tks_mp_read(r, &m) || m.type != TKS_MP_MAP) return fail(f, "metadata: kernel entry is not a map");
  memset(k, 0, sizeof *k);
  sym_name[0] = 0;
  for (uint64_t i = 0; i < m.u; i++) {
    tks_mp_obj key;
    if (tks_mp_read(r, &key) || key.type != TKS_MP_STR) return fail(f, "metadata: bad kernel key");
    int bad = 0;
    if (tks_mp_streq(&key, ".name")) bad = read_name(r, k->name, sizeof k->name);
    else if (tks_mp_streq(&key, ".symbol")) bad = read_name(r, sym_name, symcap);
    else if (tks_mp_streq(&key, ".kernarg_segment_size")) bad = read_u32(r, &k->kernarg_segment_size);
    else if (tks_mp_streq(&key, ".kernarg_segment_align")) bad = read_u32(r, &k->kernarg_segment_align);
    else if (tks_mp_streq(&key, ".group_segment_fixed_size")) bad = read_u32(r, &k->group_segment_fixed_size);
    else if (tks_mp_streq(&key, ".private_segment_fixed_size")) bad = read_u32(r, &k->private_segment_fixed_size);
    else if (tks_mp_streq(&key, ".sgpr_count")) bad = read_u32(r, &k->sgpr_count);
    else if (tks_mp_streq(&key, ".vgpr_count")) bad = read_u32(r, &k->vgpr_count);
    else if (tks_mp_streq(&key, ".agpr_count")) bad = read_u32(r, &k->agpr_count);
    else if (tks_mp_streq(&key, ".sgpr_spill_count")) bad = read_u32(r, &k->sgpr_spill_count);
    else if (tks_mp_streq(&key, ".vgpr_spill_count")) bad = read_u32(r, &k->vgpr_spill_count);
    else if (tks_mp_streq(&key, ".max_flat_workgroup_size")) bad = read_u32(r, &k->max_flat_workgroup_size);
    else if (tks_mp_streq(&key, ".wavefront_size")) bad = read_u32(r, &k->wavefront_size);
    else if (tks_mp_streq(&key, ".uses_dynamic_stack")) {
      tks_mp_obj b;
      bad = tks_mp_read(r, &b) || b.type != TKS_MP_BOOL;
      k->uses_dynamic_stack = (int)b.u;
    } else if (tks_mp_streq(&key, ".args")) {
      tks_mp_obj arr;
      if (k->args) return fail(f, "metadata: kernel %s has .args twice", k->name);
      if (tks_mp_read(r, &arr) || arr.type != TKS_MP_ARRAY || arr.u > MAX_ARGS)
        return fail(f, "metadata: bad .args");
      k->args = arr.u ? calloc(arr.u, sizeof *k->args) : NULL;
      if (arr.u && !k->args) return fail(f, "out of memory");
      k->nargs = (int)arr.u;
      for (uint64_t a = 0; a < arr.u; a++)
        if (read_arg(r, &k->args[a])) return fail(f, "metadata: bad argument %llu of kernel %s", (unsigned long long)a, k->name);
    } else bad = tks_mp_skip(r);
    if (bad == -2)
      return fail(f, "metadata: %.*s longer than %d bytes", (int)key.len, (const char *)key.data, TKS_NAME_MAX - 1);
    if (bad) return fail(f, "metadata: bad value for %.*s", (int)key.len, (const char *)key.data);
  }
  if (!k->name[0] || !sym_name[0]) return fail(f, "metadata: kernel without .name or .symbol");
  /* Every argument must lie inside the kernarg segment. */
  for (int a = 0; a < k->nargs; a++)
    if ((uint64_t)k->args[a].offset + k->args[a].size > k->kernarg_segment_size)
      return fail(f, "metadata: kernel %s argument %d (offset %u size %u) is outside its %u-byte kernarg segment",
                  k->name, a, k->args[a].offset, k->args[a].size, k->kernarg_segment_size);
  return 0;
}

static int parse_metadata(const uint8_t *desc, uint32_t len, tks_code_object *co,
                          char (**symnames)[TKS_NAME_MAX], elf_in *f)
{
  tks_mp r;
  tks_mp_obj top;
  tks_mp_init(&r, desc, len);
  if (tks_mp_read(&r, &top) || top.type != TKS_MP_MAP) return fail(f, "metadata: not a msgpack map");
  int have_kernels = 0;
  for (uint64_t i = 0; i < top.u; i++) {
    tks_mp_obj key;
    if (tks_mp_read(&r, &key) || key.type != TKS_MP_STR) return fail(f, "metadata: bad key");
    if (tks_mp_streq(&key, "amdhsa.target")) {
      if (tks_mp_read_str(&r, co->target, sizeof co->target)) return fail(f, "metadata: bad amdhsa.target");
    } else if (tks_mp_streq(&key, "amdhsa.kernels")) {
      tks_mp_obj arr;
      if (have_kernels) return fail(f, "metadata: amdhsa.kernels twice");
      if (tks_mp_read(&r, &arr) || arr.type != TKS_MP_ARRAY) return fail(f, "metadata: bad amdhsa.kernels");
      if (arr.u > MAX_KERNELS || arr.u > len) return fail(f, "metadata: implausible kernel count %llu", (unsigned long long)arr.u);
      have_kernels = 1;
      co->kernels = arr.u ? calloc(arr.u, sizeof *co->kernels) : NULL;
      *symnames = arr.u ? calloc(arr.u, sizeof **symnames) : NULL;
      if (arr.u && (!co->kernels || !*symnames)) return fail(f, "out of memory");
      for (uint64_t k = 0; k < arr.u; k++) {
        co->nkernels = (int)k + 1; /* so a failure frees what was read */
        if (read_kernel(&r, &co->kernels[k], (*symnames)[k], TKS_NAME_MAX, f)) return -1;
        co->kernels[k].co = co;
      }
    } else if (tks_mp_skip(&r)) return fail(f, "metadata: malformed msgpack");
  }
  return 0;
}

/* --- the loader ---------------------------------------------------------- */
/* Target names for the refusal message, so a user sees "gfx90a" rather than a
 * number (values: AMDGPUUsage "AMDGPU EF_AMDGPU_MACH Values"). */
static const char *mach_name(uint32_t mach)
{
  static const struct { uint32_t v; const char *n; } t[] = {
    { 0x2c, "gfx900" }, { 0x2f, "gfx906" }, { 0x30, "gfx908" }, { 0x36, "gfx1030" },
    { 0x3f, "gfx90a" }, { 0x40, "gfx940" }, { 0x41, "gfx1100" }, { 0x46, "gfx1101" },
    { 0x47, "gfx1102" }, { 0x48, "gfx1200" }, { 0x4b, "gfx941" }, { 0x4c, "gfx942" },
    { 0x4e, "gfx1201" }, { 0x4f, "gfx950" },
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (t[i].v == mach) return t[i].n;
  return "another GPU";
}

static int load(elf_in *f, tks_code_object *co)
{
  const uint8_t *d = f->d;
  if (f->n < 64 || memcmp(d, "\177ELF", 4)) return fail(f, "not an ELF file");
  if (d[4] != 2 || d[5] != 1) return fail(f, "not a little-endian ELF64 file");
  if (rd16(d + 0x12) != EM_AMDGPU) return fail(f, "not an AMDGPU ELF (e_machine 0x%x)", rd16(d + 0x12));
  uint32_t flags = rd32(d + 0x30);
  uint32_t mach = flags & TKS_EF_AMDGPU_MACH_MASK;
  int arch = tks_get_options()->arch;
  if (mach != tks_arch_mach(arch)) {
    int other = arch == TKS_ARCH_GFX942 ? TKS_ARCH_GFX950 : TKS_ARCH_GFX942;
    if (mach == tks_arch_mach(other))
      return fail(f, "built for %s (EF_AMDGPU_MACH 0x%02x); this tksim run emulates %s (0x%02x): "
                  "run with tksim --arch=%s, or build with --offload-arch=%s",
                  mach_name(mach), mach, tks_arch_name(arch), tks_arch_mach(arch), tks_arch_name(other),
                  tks_arch_name(arch));
    return fail(f, "built for %s (EF_AMDGPU_MACH 0x%02x); tksim emulates gfx942 (0x4c) and gfx950 (0x4f), "
                "this run %s: build with --offload-arch=%s", mach_name(mach), mach, tks_arch_name(arch),
                tks_arch_name(arch));
  }
  co->arch = arch;
  uint64_t phoff = rd64(d + 0x20), shoff = rd64(d + 0x28);
  uint16_t phentsize = rd16(d + 0x36), phnum = rd16(d + 0x38);
  uint16_t shentsize = rd16(d + 0x3a), shnum = rd16(d + 0x3c);
  if (phnum == 0 || phentsize < 56 || !in_file(f, phoff, (uint64_t)phentsize * phnum))
    return fail(f, "truncated or missing program headers");
  if (shnum && (shentsize < 64 || !in_file(f, shoff, (uint64_t)shentsize * shnum)))
    return fail(f, "truncated section headers");

  /* Span of the PT_LOAD segments. */
  uint64_t lo = UINT64_MAX, hi = 0;
  for (uint16_t i = 0; i < phnum; i++) {
    const uint8_t *p = d + phoff + (uint64_t)i * phentsize;
    if (rd32(p) != PT_LOAD) continue;
    uint64_t off = rd64(p + 8), va = rd64(p + 16), fsz = rd64(p + 32), msz = rd64(p + 40);
    if (fsz > msz || !in_file(f, off, fsz)) return fail(f, "PT_LOAD segment %u lies outside the file", i);
    if (va > MAX_IMAGE || msz > MAX_IMAGE) return fail(f, "PT_LOAD segment %u is implausibly large", i);
    if (va < lo) lo = va;
    if (va + msz > hi) hi = va + msz;
  }
  if (lo == UINT64_MAX || hi <= lo) return fail(f, "no loadable segments");
  lo &= ~(uint64_t)4095;
  co->vaddr_base = lo;
  co->image_size = (hi - lo + 4095) & ~(uint64_t)4095;
  /* mmap: page-aligned, zero-filled, and untouched pages of a large (maybe
   * corrupt) p_memsz cost nothing. */
  void *img = mmap(NULL, co->image_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (img == MAP_FAILED) return fail(f, "out of memory for a %llu-byte image", (unsigned long long)co->image_size);
  co->image = img;
  for (uint16_t i = 0; i < phnum; i++) {
    const uint8_t *p = d + phoff + (uint64_t)i * phentsize;
    if (rd32(p) != PT_LOAD) continue;
    uint64_t off = rd64(p + 8), va = rd64(p + 16), fsz = rd64(p + 32);
    memcpy(co->image + (va - lo), d + off, fsz);
    co->file_bytes += fsz;
  }
  uint64_t load_bias = (uint64_t)(uintptr_t)co->image - lo; /* vaddr + bias = host address */

  /* Symbol tables and relocations from the section headers. */
  symtab st = {0}, dyn = {0};
  shdr sh;
  for (uint16_t i = 0; i < shnum; i++) {
    get_shdr(d + shoff + (uint64_t)i * shentsize, &sh);
    if (sh.type != SHT_SYMTAB && sh.type != SHT_DYNSYM) continue;
    shdr strh;
    if (sh.link >= shnum) return fail(f, "symbol table %u links to a missing string table", i);
    get_shdr(d + shoff + (uint64_t)sh.link * shentsize, &strh);
    if (!in_file(f, sh.off, sh.size) || !in_file(f, strh.off, strh.size) || strh.size == 0)
      return fail(f, "symbol table %u lies outside the file", i);
    symtab *t = sh.type == SHT_SYMTAB ? &st : &dyn;
    t->syms = d + sh.off; t->nsyms = sh.size / 24;
    t->str = (const char *)d + strh.off; t->strsize = strh.size;
  }
  const symtab *syms = st.nsyms ? &st : &dyn;
  if (!syms->nsyms) return fail(f, "no symbol table");

  for (uint16_t i = 0; i < shnum; i++) {
    get_shdr(d + shoff + (uint64_t)i * shentsize, &sh);
    if (sh.type != SHT_RELA || !(sh.flags & 2 /* SHF_ALLOC */)) continue;
    if (!in_file(f, sh.off, sh.size)) return fail(f, "relocation section %u lies outside the file", i);
    symtab rt = dyn;
    if (sh.link && sh.link < shnum) {
      shdr lh, strh;
      get_shdr(d + shoff + (uint64_t)sh.link * shentsize, &lh);
      if (lh.link < shnum) {
        get_shdr(d + shoff + (uint64_t)lh.link * shentsize, &strh);
        if (in_file(f, lh.off, lh.size) && in_file(f, strh.off, strh.size) && strh.size) {
          rt.syms = d + lh.off; rt.nsyms = lh.size / 24;
          rt.str = (const char *)d + strh.off; rt.strsize = strh.size;
        }
      }
    }
    for (uint64_t r = 0; r + 24 <= sh.size; r += 24) {
      const uint8_t *p = d + sh.off + r;
      uint64_t off = rd64(p), info = rd64(p + 8);
      int64_t add = (int64_t)rd64(p + 16);
      uint32_t type = (uint32_t)info, si = (uint32_t)(info >> 32);
      if (type == R_AMDGPU_NONE) continue;
      uint8_t *where = img_ptr(co, off, 8);
      if (!where) return fail(f, "relocation at 0x%llx is outside the image", (unsigned long long)off);
      uint64_t v;
      if (type == R_AMDGPU_RELATIVE64) {
        v = load_bias + (uint64_t)add;
      } else if (type == R_AMDGPU_ABS64) {
        sym s;
        if (si == 0 || si >= rt.nsyms || get_sym(&rt, si, &s)) return fail(f, "relocation with a bad symbol index %u", si);
        if (s.shndx == 0) return fail(f, "relocation against undefined symbol %s", s.name);
        v = s.value + load_bias + (uint64_t)add;
      } else {
        return fail(f, "unsupported relocation type %u at 0x%llx", type, (unsigned long long)off);
      }
      memcpy(where, &v, 8);
    }
  }

  /* The metadata note: from PT_NOTE segments (or SHT_NOTE sections). */
  const uint8_t *md = NULL;
  uint32_t mdlen = 0;
  for (int pass = 0; pass < 2 && !md; pass++) {
    int count = pass == 0 ? phnum : shnum;
    for (int i = 0; i < count && !md; i++) {
      uint64_t off, size;
      if (pass == 0) {
        const uint8_t *p = d + phoff + (uint64_t)i * phentsize;
        if (rd32(p) != PT_NOTE) continue;
        off = rd64(p + 8); size = rd64(p + 32);
      } else {
        get_shdr(d + shoff + (uint64_t)i * shentsize, &sh);
        if (sh.type != SHT_NOTE) continue;
        off = sh.off; size = sh.size;
      }
      if (!in_file(f, off, size)) return fail(f, "note lies outside the file");
      uint64_t pos = 0;
      while (pos + 12 <= size) {
        const uint8_t *n = d + off + pos;
        uint32_t namesz = rd32(n), descsz = rd32(n + 4), type = rd32(n + 8);
        uint64_t nameal = ((uint64_t)namesz + 3) & ~(uint64_t)3, descal = ((uint64_t)descsz + 3) & ~(uint64_t)3;
        if (12 + nameal + (uint64_t)descsz > size - pos) return fail(f, "truncated note");
        if (type == NT_AMDGPU_METADATA && namesz == 7 && memcmp(n + 12, "AMDGPU", 7) == 0) {
          md = n + 12 + nameal; mdlen = descsz;
          break;
        }
        if (12 + nameal + descal > size - pos) break;
        pos += 12 + nameal + descal;
      }
    }
  }
  if (!md) return fail(f, "no NT_AMDGPU_METADATA note (code object V2/V3 or not a HIP code object)");

  char (*symnames)[TKS_NAME_MAX] = NULL;
  int rc = parse_metadata(md, mdlen, co, &symnames, f);
  if (rc) { free(symnames); return -1; }
  if (co->target[0]) {
    const char *g = strstr(co->target, "--");
    const char *an = tks_arch_name(arch);
    if (!g || strncmp(g + 2, an, 6) || (g[8] && g[8] != ':')) {
      free(symnames);
      return fail(f, "metadata target is %s; the ELF header says %s", co->target, an);
    }
  }

  for (int i = 0; i < co->nkernels; i++) {
    tks_kernel *k = &co->kernels[i];
    sym kd;
    if (find_sym(syms, symnames[i], &kd) && find_sym(&dyn, symnames[i], &kd)) {
      fail(f, "kernel %s: descriptor symbol %s not found", k->name, symnames[i]);
      free(symnames); return -1;
    }
    const uint8_t *p = img_ptr(co, kd.value, 64);
    if (!p) { fail(f, "kernel %s: descriptor outside the image", k->name); free(symnames); return -1; }
    tks_kernel_descriptor *D = &k->kd;
    D->group_segment_fixed_size = rd32(p);
    D->private_segment_fixed_size = rd32(p + 4);
    D->kernarg_size = rd32(p + 8);
    D->kernel_code_entry_byte_offset = (int64_t)rd64(p + 16);
    D->compute_pgm_rsrc3 = rd32(p + 44);
    D->compute_pgm_rsrc1 = rd32(p + 48);
    D->compute_pgm_rsrc2 = rd32(p + 52);
    D->kernel_code_properties = rd16(p + 56);
    D->kernarg_preload = rd16(p + 58);
    uint64_t entry = kd.value + (uint64_t)D->kernel_code_entry_byte_offset;
    const uint8_t *code = img_ptr(co, entry, 4);
    if (!code) { fail(f, "kernel %s: code entry outside the image", k->name); free(symnames); return -1; }
    k->code = code;
    k->code_addr = (uint64_t)(uintptr_t)code;
    /* The kernel's function symbol gives the code size; without one the code
     * runs to the end of the file bytes of its segment (a corrupt p_memsz
     * must not make megabytes of zeros "code"), at worst the image end. */
    sym fn;
    uint64_t avail = co->image_size - (uint64_t)(code - co->image);
    int in_file_part = 0;
    for (uint16_t s = 0; s < phnum && !in_file_part; s++) {
      const uint8_t *ph = d + phoff + (uint64_t)s * phentsize;
      uint64_t sva = rd64(ph + 16), sfsz = rd64(ph + 32);
      if (rd32(ph) == PT_LOAD && entry >= sva && entry - sva < sfsz) {
        uint64_t left = sfsz - (entry - sva);
        if (left < avail) avail = left;
        in_file_part = 1;
      }
    }
    if (!in_file_part && avail > 4096) avail = 4096; /* zeros, not code: a page at most */
    if (avail < 4) avail = 4;
    k->code_size = avail;
    if ((!find_sym(syms, k->name, &fn) || !find_sym(&dyn, k->name, &fn)) && fn.value == entry && fn.size && fn.size <= avail)
      k->code_size = fn.size;
    /* gfx90a+: COMPUTE_PGM_RSRC3 bits 5:0 ACCUM_OFFSET, in units of 4 VGPRs
     * minus one (AMDGPUUsage "compute_pgm_rsrc3 for GFX90A, GFX942"). */
    k->accum_offset = ((D->compute_pgm_rsrc3 & 0x3f) + 1) * 4;
    if (k->wavefront_size == 0) k->wavefront_size = 64;
    if (k->kernarg_segment_align == 0) k->kernarg_segment_align = 8;
  }
  free(symnames);

  /* Device globals: defined data objects other than kernel descriptors. */
  int cap = 0;
  for (uint64_t i = 1; i < syms->nsyms; i++) {
    sym s;
    if (get_sym(syms, i, &s) || s.type != STT_OBJECT || s.shndx == 0 || !s.name[0]) continue;
    size_t nl = strlen(s.name);
    if (nl >= 3 && !strcmp(s.name + nl - 3, ".kd")) continue;
    if (nl >= sizeof co->globals[0].name) continue;
    const uint8_t *p = img_ptr(co, s.value, s.size);
    if (!p) continue; /* not in a loaded segment */
    if (co->nglobals == cap) {
      cap = cap ? cap * 2 : 16;
      void *g = realloc(co->globals, (size_t)cap * sizeof *co->globals);
      if (!g) return fail(f, "out of memory");
      co->globals = g;
    }
    strcpy(co->globals[co->nglobals].name, s.name);
    co->globals[co->nglobals].addr = (uint64_t)(uintptr_t)p;
    co->globals[co->nglobals].size = s.size;
    co->nglobals++;
  }
  /* Functions, for indirect calls (function-pointer tables). */
  cap = 0;
  for (uint64_t i = 1; i < syms->nsyms; i++) {
    sym s;
    if (get_sym(syms, i, &s) || s.type != STT_FUNC || s.shndx == 0 || !s.size) continue;
    const uint8_t *p = img_ptr(co, s.value, s.size);
    if (!p) continue;
    if (co->nfuncs == cap) {
      cap = cap ? cap * 2 : 16;
      void *g = realloc(co->funcs, (size_t)cap * sizeof *co->funcs);
      if (!g) return fail(f, "out of memory");
      co->funcs = g;
    }
    co->funcs[co->nfuncs].addr = (uint64_t)(uintptr_t)p;
    co->funcs[co->nfuncs].size = s.size;
    co->nfuncs++;
  }
  return 0;
}

int tks_load_code_object(const uint8_t *elf, size_t size, tks_code_object *out,
                         char *err, size_t errlen)
{
  elf_in f = { elf, size, err, errlen };
  memset(out, 0, sizeof *out);
  if (!elf) return fail(&f, "no data");
  if (load(&f, out)) { tks_free_code_object(out); return -1; }
  if (tks_mem_register((uint64_t)(uintptr_t)out->image, out->image_size, TKS_ALLOC_CODE)) {
    fail(&f, "could not register the image in the allocation table");
    tks_free_code_object(out);
    return -1;
  }
  return 0;
}

void tks_free_code_object(tks_code_object *co)
{
  if (!co) return;
  if (co->image) {
    const tks_alloc *a = tks_mem_find((uint64_t)(uintptr_t)co->image, 1);
    if (a && a->base == (uint64_t)(uintptr_t)co->image && a->kind == TKS_ALLOC_CODE)
      tks_mem_unregister(a->base);
  }
  for (int i = 0; i < co->nkernels; i++) free(co->kernels[i].args);
  free(co->kernels);
  free(co->globals);
  free(co->funcs);
  if (co->image) munmap(co->image, co->image_size);
  memset(co, 0, sizeof *co);
}

int tks_load_image(const uint8_t *data, size_t size, tks_code_object *out, char *err, size_t errlen)
{
  memset(out, 0, sizeof *out);
  if (!data || size == 0) { snprintf(err, errlen, "code object: no data"); return -1; }
  if (tks_is_elf(data, size)) return tks_load_code_object(data, size, out, err, errlen);
  const uint8_t *elf; size_t n; uint8_t *owned = NULL;
  if (tks_bundle_find(data, size, tks_get_options()->arch, &elf, &n, &owned, err, errlen)) return -1;
  int r = tks_load_code_object(elf, n, out, err, errlen);
  free(owned);
  return r;
}

tks_kernel *tks_find_kernel(tks_code_object *co, const char *name)
{
  for (int i = 0; i < co->nkernels; i++)
    if (!strcmp(co->kernels[i].name, name)) return &co->kernels[i];
  return NULL;
}

int tks_find_global(const tks_code_object *co, const char *name, uint64_t *addr, uint64_t *size)
{
  for (int i = 0; i < co->nglobals; i++)
    if (!strcmp(co->globals[i].name, name)) { *addr = co->globals[i].addr; *size = co->globals[i].size; return 0; }
  return -1;
}
