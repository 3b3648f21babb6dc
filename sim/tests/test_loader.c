/* test_loader.c: the offload-bundle parser and ELF loader on code objects that
 * clang builds from data/kernels.hip at build time. Expected values follow
 * from the source declarations and the AMDGPU ABI (AMDGPUUsage "Code Object V5
 * Metadata": pointers are 8-byte global_buffer args, by-value args keep their
 * C size and alignment), not from the loader itself. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "loader/loader.h"

static const tks_arg *arg(const tks_kernel *k, const char *kind, int nth)
{
  for (int i = 0; i < k->nargs; i++)
    if (!strcmp(k->args[i].value_kind, kind) && nth-- == 0) return &k->args[i];
  return NULL;
}

static int has_endpgm(const tks_kernel *k)
{
  for (uint64_t o = 0; o + 4 <= k->code_size; o += 4) {
    uint32_t w;
    memcpy(&w, k->code + o, 4);
    if (w == 0xbf810000u) return 1; /* s_endpgm: SOPP opcode 1 (CDNA3 ISA guide, SOPP) */
  }
  return 0;
}

int main(int argc, char **argv)
{
  if (argc < 2) { fprintf(stderr, "usage: test_loader DATA_DIR\n"); return 2; }
  const char *dir = argv[1];
  char err[512];
  size_t n;
  uint8_t *elf = tks_test_read_data(dir, "kernels-gfx942.elf", &n);
  tks_code_object co;
  int r = tks_load_code_object(elf, n, &co, err, sizeof err);
  CHECK(r == 0, "load gfx942 code object: %s", err);
  if (r) return CHECK_DONE();
  CHECK(strstr(co.target, "gfx942") != NULL, "target %s", co.target);
  CHECK(co.nkernels == 3, "3 kernels, got %d", co.nkernels);
  const tks_alloc *a = tks_mem_find((uint64_t)(uintptr_t)co.image, co.image_size);
  CHECK(a && a->kind == TKS_ALLOC_CODE, "image registered as code");
  CHECK(((uintptr_t)co.image & 4095) == 0, "image 4 KiB aligned");

  tks_kernel *add = tks_find_kernel(&co, "add");
  CHECK(add != NULL, "kernel add");
  if (add) {
    const tks_arg *c = arg(add, "global_buffer", 0), *aa = arg(add, "global_buffer", 1),
                  *b = arg(add, "global_buffer", 2), *nn = arg(add, "by_value", 0);
    CHECK(c && c->offset == 0 && c->size == 8, "c at 0, 8 bytes");
    CHECK(aa && aa->offset == 8 && aa->size == 8, "a at 8");
    CHECK(b && b->offset == 16 && b->size == 8, "b at 16");
    CHECK(nn && nn->offset == 24 && nn->size == 4, "n at 24, 4 bytes");
    const tks_arg *bx = arg(add, "hidden_block_count_x", 0);
    CHECK(bx && bx->size == 4 && bx->offset >= 28, "hidden_block_count_x follows the explicit args");
    CHECK(add->kernarg_segment_size >= 28 + 256 - 32 && add->kernarg_segment_align == 8,
          "kernarg segment %u (align %u) holds the explicit args and the 256-byte V5 implicit block",
          add->kernarg_segment_size, add->kernarg_segment_align);
    CHECK(add->wavefront_size == 64, "wave64");
    CHECK(add->group_segment_fixed_size == 0, "no LDS");
    CHECK(add->code >= co.image && add->code + add->code_size <= co.image + co.image_size, "code inside image");
    CHECK(add->code_addr == (uint64_t)(uintptr_t)add->code, "device address == host address");
    CHECK(has_endpgm(add), "code contains s_endpgm");
    CHECK(add->vgpr_count > 0 && add->sgpr_count > 0, "register counts");
    CHECK(add->accum_offset >= 4 && add->accum_offset % 4 == 0 && add->accum_offset <= 256, "accum_offset %u", add->accum_offset);
    CHECK(add->kd.kernel_code_entry_byte_offset != 0, "descriptor entry offset");
    CHECK(add->kd.kernarg_size == add->kernarg_segment_size, "descriptor kernarg size agrees with metadata");
  }
  tks_kernel *lds = tks_find_kernel(&co, "lds_reverse");
  CHECK(lds && lds->group_segment_fixed_size == 4096, "lds_reverse: 4096 bytes static LDS");
  CHECK(lds && lds->max_flat_workgroup_size == 256, "lds_reverse: __launch_bounds__(256)");
  CHECK(lds && lds->kd.group_segment_fixed_size == 4096, "descriptor LDS size");
  CHECK(lds && has_endpgm(lds), "lds_reverse has s_endpgm");
  tks_kernel *bv = tks_find_kernel(&co, "by_value");
  if (bv) {
    const tks_arg *p = arg(bv, "by_value", 0), *ch = arg(bv, "by_value", 1), *out = arg(bv, "global_buffer", 0);
    CHECK(p && p->offset == 0 && p->size == 16, "struct pair: 16 bytes at 0");
    CHECK(ch && ch->offset == 16 && ch->size == 1, "char at 16");
    CHECK(out && out->offset == 24 && out->size == 8, "pointer at 24 (8-aligned)");
  } else CHECK(0, "kernel by_value");
  CHECK(tks_find_kernel(&co, "nope") == NULL, "unknown kernel");

  uint64_t ta, ts, ca, cs, pa, ps;
  CHECK(tks_find_global(&co, "table", &ta, &ts) == 0 && ts == 64, "table: 64 bytes");
  CHECK(tks_find_global(&co, "coeffs", &ca, &cs) == 0 && cs == 32, "coeffs: 32 bytes");
  CHECK(tks_find_global(&co, "table_ptr", &pa, &ps) == 0 && ps == 8, "table_ptr: 8 bytes");
  if (ps == 8) {
    uint64_t v;
    memcpy(&v, (void *)(uintptr_t)pa, 8);
    CHECK(v == ta + 16, "relocated table_ptr = &table[4]: 0x%llx vs 0x%llx", (unsigned long long)v, (unsigned long long)(ta + 16));
  }
  CHECK(tks_mem_find(ta, 64) != NULL, "globals lie in the registered image");
  uint64_t base = (uint64_t)(uintptr_t)co.image;
  tks_free_code_object(&co);
  CHECK(tks_mem_find(base, 1) == NULL, "image unregistered after free");

  /* bundles hold the same ELF bytes */
  const char *bundles[] = { "kernels-gfx942.bundle", "kernels-gfx942.ccob" };
  for (int i = 0; i < 2; i++) {
    size_t bn;
    uint8_t *b = tks_test_read_data(dir, bundles[i], &bn);
    const uint8_t *e; size_t en; uint8_t *owned;
    r = tks_bundle_find_gfx942(b, bn, &e, &en, &owned, err, sizeof err);
    CHECK(r == 0, "%s: %s", bundles[i], err);
    if (r == 0) CHECK(en >= n && memcmp(e, elf, n) == 0, "%s: gfx942 entry equals the raw ELF", bundles[i]);
    CHECK(tks_image_extent(b, bn) == bn, "%s: extent from the header = file size (%zu vs %zu)", bundles[i], tks_image_extent(b, bn), bn);
    free(owned);
    r = tks_load_image(b, bn, &co, err, sizeof err);
    CHECK(r == 0 && co.nkernels == 3, "%s loads: %s", bundles[i], err);
    if (r == 0) tks_free_code_object(&co);
    /* every truncation of the header/entry table fails cleanly */
    for (size_t t = 0; t < 120 && t < bn; t++) {
      owned = NULL;
      r = tks_bundle_find_gfx942(b, t, &e, &en, &owned, err, sizeof err);
      CHECK(r != 0 && err[0], "%s truncated to %zu bytes must fail", bundles[i], t);
      free(owned);
    }
    free(b);
  }
  CHECK(tks_image_extent(elf, n) <= n && tks_image_extent(elf, n) > 0, "ELF extent");

  /* other targets are refused with a message naming gfx942 */
  const char *others[] = { "kernels-gfx90a.elf", "kernels-gfx1100.elf" };
  for (int i = 0; i < 2; i++) {
    size_t on;
    uint8_t *o = tks_test_read_data(dir, others[i], &on);
    r = tks_load_code_object(o, on, &co, err, sizeof err);
    CHECK(r != 0 && strstr(err, "gfx942"), "%s refused: %s", others[i], err);
    free(o);
  }
  size_t gn;
  uint8_t *g = tks_test_read_data(dir, "kernels-gfx90a.bundle", &gn);
  const uint8_t *e; size_t en; uint8_t *owned;
  r = tks_bundle_find_gfx942(g, gn, &e, &en, &owned, err, sizeof err);
  CHECK(r != 0 && strstr(err, "gfx90a") && strstr(err, "gfx942"), "gfx90a-only bundle refused: %s", err);
  free(g);
  CHECK(tks_load_code_object((const uint8_t *)"\177ELF", 4, &co, err, sizeof err) != 0, "4-byte ELF");
  CHECK(tks_load_image(NULL, 0, &co, err, sizeof err) != 0, "null image");
  free(elf);
  return CHECK_DONE();
}
