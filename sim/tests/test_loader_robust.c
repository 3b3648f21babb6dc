/* test_loader_robust.c: the loader must return an error or load cleanly -
 * never crash, hang or read out of bounds - on (1) every file of the fuzz
 * corpus (sim/tests/corpus), (2) every truncation of real code objects and
 * bundles, (3) single-bit flips of every header byte, and (4) a fixed-seed
 * series of random byte mutations anywhere in the file. */
#define _DEFAULT_SOURCE /* mmap flags, readlink, realpath under -std=c11 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "loader/loader.h"

static long g_loaded, g_refused;

/* Loads from an exactly-sized heap copy so that AddressSanitizer or valgrind
 * would catch any read past the end. */
static void try_load(const uint8_t *d, size_t n, const char *what, size_t arg)
{
  uint8_t *copy = malloc(n ? n : 1);
  memcpy(copy, d, n);
  char err[512] = "";
  tks_code_object co;
  int r = tks_load_image(copy, n, &co, err, sizeof err);
  if (r == 0) { g_loaded++; tks_free_code_object(&co); }
  else { g_refused++; CHECK(r == -1 && err[0], "%s %zu: refused without a message", what, arg); }
  free(copy);
}

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { g_rng ^= g_rng << 13; g_rng ^= g_rng >> 7; g_rng ^= g_rng << 17; return g_rng; }

int main(int argc, char **argv)
{
  if (argc < 3) { fprintf(stderr, "usage: test_loader_robust DATA_DIR CORPUS_DIR\n"); return 2; }
  char path[2048];
  DIR *dir = opendir(argv[2]);
  int ncorpus = 0;
  if (dir) {
    struct dirent *e;
    while ((e = readdir(dir))) {
      if (e->d_name[0] == '.') continue;
      snprintf(path, sizeof path, "%s/%s", argv[2], e->d_name);
      size_t n;
      uint8_t *b = tks_test_read_file(path, &n);
      if (!b) continue;
      try_load(b, n, e->d_name, 0);
      free(b);
      ncorpus++;
    }
    closedir(dir);
  }
  printf("corpus: %d files\n", ncorpus);

  const char *inputs[] = { "kernels-gfx942.elf", "kernels-gfx942.bundle", "kernels-gfx942.ccob" };
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", argv[1], inputs[i]);
    size_t n;
    uint8_t *b = tks_test_read_file(path, &n);
    CHECK(b != NULL, "read %s", path);
    if (!b) continue;
    long before = g_loaded;
    try_load(b, n, "intact", 0);
    CHECK(g_loaded == before + 1, "%s loads intact", inputs[i]);
    /* truncations: every length in the first 8 KiB, then every 61st */
    for (size_t t = 0; t < n; t += t < 8192 ? 1 : 61) try_load(b, t, "truncated to", t);
    /* bit flips of every bit of the first 1 KiB (ELF/bundle headers) and of the last 1 KiB */
    uint8_t *m = malloc(n);
    for (size_t o = 0; o < n; o++) {
      if (o >= 1024 && o + 1024 < n) { o = n - 1024; }
      for (int bit = 0; bit < 8; bit++) {
        memcpy(m, b, n);
        m[o] ^= (uint8_t)(1u << bit);
        try_load(m, n, "bit flip at", o * 8 + (size_t)bit);
      }
    }
    /* random mutations: 1..8 bytes set to random or extreme values */
    for (int k = 0; k < 10000; k++) {
      memcpy(m, b, n);
      int nb = 1 + (int)(rnd() % 8);
      for (int j = 0; j < nb; j++) {
        size_t o = (size_t)(rnd() % n);
        uint64_t kind = rnd() % 4;
        m[o] = kind == 0 ? 0xff : kind == 1 ? 0x00 : kind == 2 ? 0x80 : (uint8_t)rnd();
      }
      try_load(m, n, "mutation", (size_t)k);
    }
    free(m);
    free(b);
  }
  printf("loaded %ld, refused %ld\n", g_loaded, g_refused);
  return CHECK_DONE();
}
