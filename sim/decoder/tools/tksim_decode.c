/* tksim-decode: decodes every kernel of a raw gfx942/gfx950 code object (or a
 * clang offload bundle holding one) with tksim's decoder and lists the
 * instructions tksim cannot execute, to find gaps before running a program.
 *   tksim-decode [-v] FILE...    (-v: print every decoded instruction)
 * The target is TKSIM_ARCH (gfx942 default; TKSIM_ARCH=gfx950 for gfx950).
 * Exit status: 0 all decodable, 1 some unimplemented, 2 bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tksim.h"
#include "decoder/decoder.h"

static uint8_t *read_all(const char *path, size_t *size)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = n > 0 ? malloc((size_t)n) : NULL;
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
  fclose(f);
  *size = (size_t)n;
  return b;
}

/* distinct unimplemented mnemonics over all inputs, with counts */
static struct { char name[64]; int count; } gaps[512];
static int ngaps;

static void note_gap(const char *text)
{
  char m[64];
  size_t n = strcspn(text, " ");
  if (n >= sizeof m) n = sizeof m - 1;
  memcpy(m, text, n); m[n] = 0;
  for (int i = 0; i < ngaps; i++)
    if (!strcmp(gaps[i].name, m)) { gaps[i].count++; return; }
  if (ngaps < 512) { snprintf(gaps[ngaps].name, sizeof gaps[ngaps].name, "%s", m); gaps[ngaps++].count = 1; }
}

int main(int argc, char **argv)
{
  int verbose = 0, rc = 0, files = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "-v")) { verbose = 1; continue; }
    files++;
    size_t size;
    uint8_t *data = read_all(argv[a], &size);
    if (!data) { fprintf(stderr, "tksim-decode: cannot read %s\n", argv[a]); rc = 2; continue; }
    const uint8_t *elf = data; size_t elf_size = size; uint8_t *owned = NULL;
    char err[512];
    /* a host executable: its .hip_fatbin section holds an offload bundle */
    const uint8_t *bundle = NULL;
    for (size_t o = 0; o + 24 <= size; o++)
      if ((data[o] == '_' && !memcmp(data + o, "__CLANG_OFFLOAD_BUNDLE__", 24)) ||
          (data[o] == 'C' && !memcmp(data + o, "CCOB", 4) && o > 0)) {
        if (data[o] == 'C' && (size < 4 || memcmp(data, "\x7f" "ELF", 4) || o < 64)) continue;
        bundle = data + o;
        break;
      }
    if (bundle && memcmp(data, "\x7f" "ELF", 4) == 0 && data[18] != 0xe0) {
      if (tks_bundle_find(bundle, size - (size_t)(bundle - data), tks_get_options()->arch, &elf, &elf_size, &owned, err, sizeof err)) {
        fprintf(stderr, "tksim-decode: %s: %s\n", argv[a], err); rc = 2; free(data); continue;
      }
    } else if (size >= 24 && !memcmp(data, "__CLANG_OFFLOAD_BUNDLE__", 24)) {
      if (tks_bundle_find(data, size, tks_get_options()->arch, &elf, &elf_size, &owned, err, sizeof err)) {
        fprintf(stderr, "tksim-decode: %s: %s\n", argv[a], err); rc = 2; free(data); continue;
      }
    }
    tks_code_object co;
    memset(&co, 0, sizeof co);
    if (tks_load_code_object(elf, elf_size, &co, err, sizeof err)) {
      fprintf(stderr, "tksim-decode: %s: %s\n", argv[a], err); rc = 2; free(owned); free(data); continue;
    }
    for (int i = 0; i < co.nkernels; i++) {
      tks_kernel *k = &co.kernels[i];
      tks_program *p = tks_decode_kernel(k, err, sizeof err);
      if (!p) { fprintf(stderr, "tksim-decode: %s\n", err); rc = 2; continue; }
      printf("%s: kernel %s: %u instructions, %u unimplemented\n", argv[a], k->name, p->n, p->n_unimpl);
      for (uint32_t j = 0; j < p->n; j++) {
        const tks_inst *in = &p->inst[j];
        if (verbose)
          printf("  %06x %-28s op=%-24s cls=%d ndst=%d nsrc=%d\n", in->pc, tks_inst_text(p, in),
                 tks_op_name(in->op), in->cls, in->ndst, in->nsrc);
        else if (in->op == 0) {
          printf("  unimplemented at 0x%x: %s\n", in->pc, tks_inst_text(p, in));
          note_gap(tks_inst_text(p, in));
        }
      }
      if (p->n_unimpl) rc = rc ? rc : 1;
      tks_program_free(p);
    }
    tks_free_code_object(&co);
    free(owned);
    free(data);
  }
  if (!files) { fprintf(stderr, "usage: tksim-decode [-v] FILE...\n"); return 2; }
  if (ngaps) {
    printf("unimplemented mnemonics (decoded, not necessarily reached):");
    for (int i = 0; i < ngaps; i++) printf(" %s x%d", gaps[i].name, gaps[i].count);
    printf("\n");
  }
  return rc;
}
