/* test_image_bounds.c: images the runtime receives by pointer alone
 * (__hipRegisterFatBinary's wrapper, hipModuleLoadData) whose headers claim
 * bytes that are not there. Each image is placed so that it ends right at an
 * inaccessible page, as a fat binary ends at the end of its mapped segment:
 * reading one byte too far kills the test. A corrupt image must give
 * hipErrorInvalidImage (hipModuleLoadData) or a refused registration (the
 * kernel does not resolve), never a crash. Cases: offload-bundle entries with
 * offset/size all ones or 2^62, an entry count and a triple length of all
 * ones, ELF program/section header offsets and counts past the end, a CCOB
 * whose total size is smaller than its header, and every truncation of the
 * bundle's header and entry table. Runs the runtime with a stand-in engine. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "check.h"
#include "loader/loader.h"
#include "runtime/rt.h"

void tks_exec_release(tks_code_object *co) { (void)co; }
int tks_exec_dispatch(const tks_dispatch *d, const tks_options *opt, tks_launch_stats *stats,
                      char *err, size_t errlen)
{
  (void)d; (void)opt; (void)stats;
  snprintf(err, errlen, "not used");
  return -1;
}

void **__hipRegisterFatBinary(const void *data);
void __hipUnregisterFatBinary(void **handle);
void __hipRegisterFunction(void **modules, const void *hostFunction, char *deviceFunction,
                           const char *deviceName, unsigned int threadLimit, void *tid,
                           void *bid, dim3 *blockDim, dim3 *gridDim, int *wSize);

/* n bytes ending at a PROT_NONE page; free with unguard */
static uint8_t *guarded(const uint8_t *d, size_t n, size_t *maplen)
{
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  size_t len = (n + pg - 1) / pg * pg + pg;
  uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) { perror("mmap"); exit(2); }
  mprotect(m + len - pg, pg, PROT_NONE);
  *maplen = len;
  uint8_t *p = m + len - pg - n;
  memcpy(p, d, n);
  return p;
}
static void unguard(uint8_t *p, size_t n, size_t len)
{
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  munmap(p + n + pg - len, len);
}

static char g_kname[] = "add";
/* one host stub address per registration (a stale one would shadow it) */
static char g_stubs[8192];
static int g_nstub;

/* 1 if the image loads through both pointer-only paths, 0 if both refuse it
 * properly; a mixed outcome or a wrong error code fails a check. */
static int try_image(const uint8_t *d, size_t n, const char *what, size_t arg)
{
  size_t len;
  uint8_t *p = guarded(d, n, &len);
  hipModule_t mod = NULL;
  hipError_t e = hipModuleLoadData(&mod, p);
  CHECK(e == hipSuccess || e == hipErrorInvalidImage || e == hipErrorNoBinaryForGpu,
        "%s %zu: hipModuleLoadData returned %d", what, arg, (int)e);
  if (e == hipSuccess) hipModuleUnload(mod);
  /* the fat-binary wrapper: {magic "HIPF", version, bundle pointer, unused} */
  struct { uint32_t magic, version; const void *bin; void *unused; } w = { 0x48495046u, 1, p, NULL };
  void **h = __hipRegisterFatBinary(&w);
  CHECK(h != NULL, "%s %zu: registration returned no handle", what, arg);
  const void *stub = &g_stubs[g_nstub++ % (int)sizeof g_stubs];
  __hipRegisterFunction(h, stub, g_kname, g_kname, 0, NULL, NULL, NULL, NULL, NULL);
  tks_kernel *k = tks_rt_kernel(stub);
  CHECK((k != NULL) == (e == hipSuccess), "%s %zu: registration %s but hipModuleLoadData %d", what, arg,
        k ? "resolved the kernel" : "refused", (int)e);
  __hipUnregisterFatBinary(h);
  unguard(p, n, len);
  return e == hipSuccess;
}

static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

int main(int argc, char **argv)
{
  if (argc < 2) { fprintf(stderr, "usage: test_image_bounds DATA_DIR\n"); return 2; }
  setenv("TKSIM_QUIET", "1", 1);
  char path[1024];
  size_t bn, en, cn;
  snprintf(path, sizeof path, "%s/kernels-gfx942.bundle", argv[1]);
  uint8_t *bundle = tks_test_read_file(path, &bn);
  snprintf(path, sizeof path, "%s/kernels-gfx942.elf", argv[1]);
  uint8_t *elf = tks_test_read_file(path, &en);
  snprintf(path, sizeof path, "%s/kernels-gfx942.ccob", argv[1]);
  uint8_t *ccob = tks_test_read_file(path, &cn);
  if (!bundle || !elf || !ccob) { fprintf(stderr, "test_image_bounds: cannot read the data files\n"); return 2; }

  CHECK(try_image(bundle, bn, "intact bundle", 0) == 1, "the intact bundle loads");
  CHECK(try_image(elf, en, "intact ELF", 0) == 1, "the intact ELF loads");
  CHECK(try_image(ccob, cn, "intact CCOB", 0) == 1, "the intact CCOB loads");

  /* bundle entries (24 + 8 + per entry: offset, size, triple length, triple) */
  uint64_t nent = get64(bundle + 24);
  CHECK(nent == 2, "the bundle has host + gfx942 entries (%llu)", (unsigned long long)nent);
  const uint64_t bad[] = { ~0ull, ~0ull - 7, 1ull << 62, 1ull << 63, (uint64_t)bn, (uint64_t)bn - 1 };
  uint8_t *m = malloc(bn);
  size_t pos = 32;
  for (uint64_t e = 0; e < nent; e++) {
    for (int field = 0; field < 3; field++)
      for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        memcpy(m, bundle, bn);
        put64(m + pos + 8 * (size_t)field, bad[b]);
        int loaded = try_image(m, bn, "bundle entry field", e * 100 + (uint64_t)field * 10 + b);
        /* with a bad offset, size or triple length the gfx942 entry never loads
         * (the host entry's may not matter) */
        if (e == 1) CHECK(!loaded, "gfx942 entry field %d = 0x%llx loaded", field, (unsigned long long)bad[b]);
      }
    pos += 24 + get64(bundle + pos + 16);
  }
  /* both offset and size all ones, the reproducer */
  memcpy(m, bundle, bn);
  put64(m + 32 + 24 + get64(bundle + 32 + 16), ~0ull);
  put64(m + 32 + 24 + get64(bundle + 32 + 16) + 8, ~0ull);
  CHECK(!try_image(m, bn, "gfx942 entry offset and size all ones", 0), "refused");
  memcpy(m, bundle, bn);
  put64(m + 24, ~0ull);
  CHECK(!try_image(m, bn, "entry count all ones", 0), "refused");
  /* every truncation of the header and entry table: the image's end is the guard */
  for (size_t t = 1; t < pos + 64 && t < bn; t++) try_image(bundle, t, "bundle truncated to", t);
  free(m);

  /* ELF header fields (e_phoff 0x20, e_shoff 0x28, e_phnum 0x38, e_shnum 0x3c) */
  m = malloc(en);
  const struct { int off, w; uint64_t v; } ef[] = {
    { 0x20, 8, ~0ull }, { 0x20, 8, ~0ull - 55 }, { 0x28, 8, ~0ull }, { 0x28, 8, ~0ull - 63 },
    { 0x20, 8, 1ull << 62 }, { 0x28, 8, 1ull << 62 }, { 0x38, 2, 0xffff }, { 0x3c, 2, 0xffff },
    { 0x36, 2, 0xffff }, { 0x3a, 2, 0xffff },
  };
  for (size_t i = 0; i < sizeof ef / sizeof ef[0]; i++) {
    memcpy(m, elf, en);
    memcpy(m + ef[i].off, &ef[i].v, (size_t)ef[i].w);
    CHECK(!try_image(m, en, "ELF header field", (size_t)ef[i].off), "ELF header 0x%x = 0x%llx refused", ef[i].off,
          (unsigned long long)ef[i].v);
  }
  /* program header offsets/sizes all ones */
  uint64_t phoff = get64(elf + 0x20);
  uint16_t phnum; memcpy(&phnum, elf + 0x38, 2);
  for (uint16_t i = 0; i < phnum; i++)
    for (int fo = 8; fo <= 40; fo += 8) {
      memcpy(m, elf, en);
      put64(m + phoff + (uint64_t)i * 56 + (uint64_t)fo, ~0ull);
      try_image(m, en, "program header field", (size_t)i * 100 + (size_t)fo);
    }
  free(m);

  /* CCOB v2 with a total size below its header (fuzzer-found) */
  m = malloc(cn);
  memcpy(m, ccob, cn);
  uint16_t ver; memcpy(&ver, ccob + 4, 2);
  if (ver == 2) { uint32_t one = 1; memcpy(m + 8, &one, 4); }
  else if (ver == 3) put64(m + 8, 1);
  CHECK(!try_image(m, cn, "CCOB total size 1", 0), "refused");
  free(m);

  free(bundle); free(elf); free(ccob);
  return CHECK_DONE();
}
