/* fuzz_loader.c: the code-object path of tksim as the HIP runtime drives it,
 * for libFuzzer (clang -fsanitize=fuzzer) and as a plain replay program.
 *
 * One input is one image as __hipRegisterFatBinary / hipModuleLoadData /
 * a hiprtc result hands it over: offload bundle (plain or CCOB) or raw ELF
 * -> ELF loader -> NT_AMDGPU_METADATA msgpack -> decoder of every kernel.
 * The bytes are placed so that they end exactly at an inaccessible page:
 * any read past the image faults (a crash, found) even without ASan. Both
 * ways the runtime sizes an image are taken:
 *   - by pointer alone (tks_image_extent_at: registration, hipModuleLoadData);
 *   - with a known size (hipModuleLoad of a file).
 * Every refusal must carry a message; a loaded image must hold only kernels
 * whose code lies in the image and whose arguments fit their kernarg segment.
 * The target is TKSIM_ARCH (gfx942 default; run again with gfx950).
 *
 * libFuzzer:  bench/fuzz-tksim --minutes N   (or fuzz_loader DIR... directly)
 * replay:     fuzz_loader_replay FILE_OR_DIR...   (ctest tksim_fuzz_corpus_*)
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "decoder/decoder.h"
#include "loader/loader.h"

/* A reusable region whose last page before the guard holds the image's end. */
static uint8_t *g_region;
static size_t g_region_size, g_page;

static uint8_t *guarded_copy(const uint8_t *data, size_t size)
{
  if (!g_page) g_page = (size_t)sysconf(_SC_PAGESIZE);
  size_t need = (size + g_page - 1) / g_page * g_page + g_page; /* + guard */
  if (need < 2 * g_page) need = 2 * g_page;
  if (need > g_region_size) {
    if (g_region) munmap(g_region, g_region_size);
    g_region = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g_region == MAP_FAILED) { perror("fuzz_loader: mmap"); abort(); }
    g_region_size = need;
    if (mprotect(g_region + need - g_page, g_page, PROT_NONE)) { perror("fuzz_loader: mprotect"); abort(); }
  }
  uint8_t *end = g_region + g_region_size - g_page;
  /* the region before the image is readable too: make it unlike any header */
  memset(g_region, 0xa5, (size_t)(end - g_region) - size);
  memcpy(end - size, data, size);
  return end - size;
}

static void check_loaded(tks_code_object *co)
{
  for (int i = 0; i < co->nkernels; i++) {
    tks_kernel *k = &co->kernels[i];
    if (k->code < co->image || k->code_size > co->image_size ||
        (uint64_t)(k->code - co->image) > co->image_size - k->code_size) {
      fprintf(stderr, "fuzz_loader: kernel %s code outside the image\n", k->name);
      abort();
    }
    for (int a = 0; a < k->nargs; a++)
      if ((uint64_t)k->args[a].offset + k->args[a].size > k->kernarg_segment_size) abort();
    /* what the first launch does: decode the kernel and what it calls */
    char err[512] = "";
    tks_program *p = tks_decode_kernel(k, err, sizeof err);
    if (!p) {
      if (!err[0]) { fprintf(stderr, "fuzz_loader: decode failed without a message\n"); abort(); }
      continue;
    }
    for (uint32_t j = 0; j < p->n; j++) {
      const tks_inst *in = &p->inst[j];
      if (in->len == 0 || in->op >= TKS_OP_COUNT || (in->target != -1 && (uint32_t)in->target >= p->n)) {
        fprintf(stderr, "fuzz_loader: bad decoded instruction %u\n", j);
        abort();
      }
    }
    tks_program_free(p);
  }
}

static void load_one(const uint8_t *img, size_t n)
{
  char err[512] = "";
  tks_code_object co;
  if (tks_load_image(img, n, &co, err, sizeof err) == 0) {
    check_loaded(&co);
    tks_free_code_object(&co);
  } else if (!err[0]) {
    fprintf(stderr, "fuzz_loader: refusal without a message\n");
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0) return 0;
  uint8_t *img = guarded_copy(data, size);
  /* __hipRegisterFatBinary / hipModuleLoadData: only a pointer. They call
   * tks_image_extent_at = tks_image_extent(p, tks_readable_extent(p)); the
   * readable extent of the guarded copy is its size by construction, so
   * reading /proc/self/maps (slow under ASan) is checked only now and then */
  static unsigned long calls;
  if (calls++ % 4096 == 0 && tks_readable_extent(img) != size) {
    fprintf(stderr, "fuzz_loader: readable extent %zu, want %zu\n", tks_readable_extent(img), size);
    abort();
  }
  size_t n = tks_image_extent(img, size);
  if (n > size) { fprintf(stderr, "fuzz_loader: extent %zu beyond the %zu readable bytes\n", n, size); abort(); }
  if (n) load_one(img, n);
  /* hipModuleLoad: the file's size */
  if (n != size) load_one(img, size);
  return 0;
}

#ifdef TKS_FUZZ_REPLAY
/* Replays files (or every file of directories) through the fuzz target:
 * the corpus regression test. Exit 0 when nothing aborted or faulted. */
static long g_files;

static void replay_path(const char *path)
{
  struct stat st;
  if (stat(path, &st)) { fprintf(stderr, "fuzz_loader_replay: cannot stat %s\n", path); exit(2); }
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    if (!d) { fprintf(stderr, "fuzz_loader_replay: cannot open %s\n", path); exit(2); }
    struct dirent *e;
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char sub[4096];
      snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
      replay_path(sub);
    }
    closedir(d);
    return;
  }
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "fuzz_loader_replay: cannot read %s\n", path); exit(2); }
  uint8_t *b = malloc(st.st_size > 0 ? (size_t)st.st_size : 1);
  size_t n = fread(b, 1, (size_t)st.st_size, f);
  fclose(f);
  LLVMFuzzerTestOneInput(b, n);
  free(b);
  g_files++;
}

int main(int argc, char **argv)
{
  if (argc < 2) { fprintf(stderr, "usage: fuzz_loader_replay FILE_OR_DIR...\n"); return 2; }
  for (int i = 1; i < argc; i++) replay_path(argv[i]);
  printf("fuzz_loader_replay: %ld inputs replayed (target %s), no crash\n", g_files,
         tks_arch_name(tks_get_options()->arch));
  return g_files ? 0 : 1;
}
#endif
