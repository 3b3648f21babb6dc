/* test_loader_gfx950.c: target selection in the loader, run once per device
 * target (TKSIM_ARCH=gfx942 / gfx950, argv[2] says which). The code objects
 * are clang's builds of data/kernels.hip for each target; expected values
 * follow from AMDGPUUsage (EF_AMDGPU_MACH 0x4c gfx942, 0x4f gfx950) and the
 * bundle's entry ids, not from the loader. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "loader/loader.h"

int main(int argc, char **argv)
{
  if (argc < 3) { fprintf(stderr, "usage: test_loader_gfx950 DATA_DIR gfx942|gfx950\n"); return 2; }
  const char *dir = argv[1], *want = argv[2];
  const char *other = !strcmp(want, "gfx942") ? "gfx950" : "gfx942";
  CHECK(!strcmp(tks_arch_name(tks_get_options()->arch), want), "TKSIM_ARCH gives %s", want);
  char err[512], name[64];
  size_t n;
  /* the raw ELF of the run's target loads, with the right machine */
  snprintf(name, sizeof name, "kernels-%s.elf", want);
  uint8_t *elf = tks_test_read_data(dir, name, &n);
  CHECK((elf[0x30] & 0xff) == (!strcmp(want, "gfx942") ? 0x4c : 0x4f), "%s: EF_AMDGPU_MACH 0x%02x", name, elf[0x30]);
  tks_code_object co;
  int r = tks_load_code_object(elf, n, &co, err, sizeof err);
  CHECK(r == 0, "load %s: %s", name, err);
  if (r == 0) {
    CHECK(strstr(co.target, want) != NULL, "metadata target %s", co.target);
    CHECK(co.arch == tks_arch_id(want), "co.arch %d", co.arch);
    CHECK(co.nkernels == 3, "3 kernels, got %d", co.nkernels);
    CHECK(co.nfuncs >= co.nkernels, "function symbols kept: %d", co.nfuncs);
    tks_free_code_object(&co);
  }
  free(elf);
  /* the other target's ELF is refused, naming both and the --arch to use */
  snprintf(name, sizeof name, "kernels-%s.elf", other);
  elf = tks_test_read_data(dir, name, &n);
  r = tks_load_code_object(elf, n, &co, err, sizeof err);
  char hint[32];
  snprintf(hint, sizeof hint, "--arch=%s", other);
  CHECK(r != 0 && strstr(err, other) && strstr(err, want) && strstr(err, hint), "%s refused: %s", name, err);
  free(elf);
  /* a fat bundle (gfx942 + gfx950): the run's target's entry is picked */
  uint8_t *b = tks_test_read_data(dir, "kernels-fat.bundle", &n);
  const uint8_t *e; size_t en; uint8_t *owned = NULL;
  r = tks_bundle_find(b, n, tks_get_options()->arch, &e, &en, &owned, err, sizeof err);
  CHECK(r == 0 && en > 0x34 && (e[0x30] & 0xff) == (!strcmp(want, "gfx942") ? 0x4c : 0x4f),
        "fat bundle: %s entry picked (%s)", want, r ? err : "ok");
  free(owned);
  r = tks_load_image(b, n, &co, err, sizeof err);
  CHECK(r == 0 && co.arch == tks_arch_id(want), "fat bundle loads as %s: %s", want, r ? err : "ok");
  if (r == 0) tks_free_code_object(&co);
  free(b);
  return CHECK_DONE();
}
