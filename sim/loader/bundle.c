/* bundle.c: finds the code object for one target (gfx942 or gfx950) inside a
 * clang offload bundle.
 *
 * Layout (clang/lib/Driver/OffloadBundler.cpp, clang docs "Clang Offload
 * Bundler"): the 24-byte magic "__CLANG_OFFLOAD_BUNDLE__", a u64 entry count,
 * then per entry u64 offset, u64 size, u64 triple length and the triple
 * ("hipv4-amdgcn-amd-amdhsa--gfx942[:feature+...]"); all little-endian.
 * A compressed bundle ("CCOB") has a header - u16 version, u16 method
 * (0 zlib, 1 zstd), then v1: u32 uncompressed size; v2: u32 total size,
 * u32 uncompressed size; v3: u64 total size, u64 uncompressed size; each
 * followed by a u64 hash - and the compressed plain bundle after it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include "loader/loader.h"

#define BUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define BUNDLE_MAGIC_LEN 24
/* Refuse to inflate beyond this: a corrupt header must not exhaust memory. */
#define MAX_UNCOMPRESSED ((uint64_t)1 << 30)

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

int tks_is_elf(const uint8_t *data, size_t size)
{
  return size >= 4 && memcmp(data, "\177ELF", 4) == 0;
}

static int is_bundle(const uint8_t *d, size_t n)
{
  return n >= BUNDLE_MAGIC_LEN && memcmp(d, BUNDLE_MAGIC, BUNDLE_MAGIC_LEN) == 0;
}

static int is_ccob(const uint8_t *d, size_t n) { return n >= 4 && memcmp(d, "CCOB", 4) == 0; }

/* CCOB header: sizes and where the payload starts. */
static int ccob_header(const uint8_t *d, size_t n, int *method, uint64_t *total,
                       uint64_t *raw, size_t *hdr, char *err, size_t errlen)
{
  if (n < 8) { snprintf(err, errlen, "compressed bundle: truncated header"); return -1; }
  uint16_t ver = rd16(d + 4);
  *method = rd16(d + 6);
  *total = 0;
  if (ver == 1) {
    if (n < 20) goto trunc;
    *raw = rd32(d + 8); *hdr = 20;
  } else if (ver == 2) {
    if (n < 24) goto trunc;
    *total = rd32(d + 8); *raw = rd32(d + 12); *hdr = 24;
  } else if (ver == 3) {
    if (n < 32) goto trunc;
    *total = rd64(d + 8); *raw = rd64(d + 16); *hdr = 32;
  } else {
    snprintf(err, errlen, "compressed bundle: unknown version %u", ver);
    return -1;
  }
  return 0;
trunc:
  snprintf(err, errlen, "compressed bundle: truncated header");
  return -1;
}

size_t tks_image_extent(const uint8_t *d, size_t max)
{
  if (tks_is_elf(d, max)) {
    if (max < 64) return 0;
    uint64_t shoff = rd64(d + 0x28), phoff = rd64(d + 0x20);
    uint16_t phentsize = rd16(d + 0x36), phnum = rd16(d + 0x38);
    uint16_t shentsize = rd16(d + 0x3a), shnum = rd16(d + 0x3c);
    /* Offsets come from the (maybe corrupt) header: every sum is checked
     * against max before it is used, so none can wrap around. */
    uint64_t ph_bytes = (uint64_t)phentsize * phnum, sh_bytes = (uint64_t)shentsize * shnum;
    if (phoff > max || ph_bytes > max - phoff) return 0;
    if (shnum && (shoff > max || sh_bytes > max - shoff)) return 0;
    uint64_t end = 64;
    if (phoff + ph_bytes > end) end = phoff + ph_bytes;
    if (shnum && shoff + sh_bytes > end) end = shoff + sh_bytes;
    /* Segments may extend past the section table in unusual files. */
    for (uint16_t i = 0; i < phnum && phentsize >= 56; i++) {
      uint64_t o = phoff + (uint64_t)i * phentsize; /* inside [phoff, phoff + ph_bytes) */
      uint64_t off = rd64(d + o + 8), fsz = rd64(d + o + 32);
      if (off > max || fsz > max - off) return 0;
      if (off + fsz > end) end = off + fsz;
    }
    return end <= max ? (size_t)end : 0;
  }
  if (is_bundle(d, max)) {
    if (max < 32) return 0;
    uint64_t n = rd64(d + 24), pos = 32, end = 32;
    for (uint64_t i = 0; i < n; i++) {
      if (pos + 24 > max) return 0;
      uint64_t off = rd64(d + pos), sz = rd64(d + pos + 8), tl = rd64(d + pos + 16);
      pos += 24;
      if (tl > max - pos) return 0;
      pos += tl;
      if (pos > end) end = pos;
      if (off <= max && sz <= max - off && off + sz > end) end = off + sz;
    }
    return end <= max ? (size_t)end : 0;
  }
  if (is_ccob(d, max)) {
    int method; uint64_t total, raw; size_t hdr; char e[8];
    if (ccob_header(d, max, &method, &total, &raw, &hdr, e, sizeof e)) return 0;
    if (total) return total >= hdr && total <= max ? (size_t)total : 0;
    /* v1 has no total size: a zstd frame knows its own length. */
    if (method == 1) {
      size_t fs = ZSTD_findFrameCompressedSize(d + hdr, max - hdr);
      if (ZSTD_isError(fs)) return 0;
      return hdr + fs;
    }
    return 0;
  }
  return 0;
}

static int decompress(const uint8_t *d, size_t n, uint8_t **out, size_t *outn,
                      char *err, size_t errlen)
{
  int method; uint64_t total, raw; size_t hdr;
  if (ccob_header(d, n, &method, &total, &raw, &hdr, err, errlen)) return -1;
  if (total && total < hdr) {
    snprintf(err, errlen, "compressed bundle: total size %llu is smaller than its %zu-byte header",
             (unsigned long long)total, hdr);
    return -1;
  }
  if (total && total < n) n = (size_t)total;
  if (total > n) { snprintf(err, errlen, "compressed bundle: truncated (%llu of %llu bytes)",
                            (unsigned long long)n, (unsigned long long)total); return -1; }
  if (raw == 0 || raw > MAX_UNCOMPRESSED) {
    snprintf(err, errlen, "compressed bundle: implausible uncompressed size %llu", (unsigned long long)raw);
    return -1;
  }
  uint8_t *buf = malloc(raw);
  if (!buf) { snprintf(err, errlen, "compressed bundle: out of memory"); return -1; }
  if (method == 1) {
    size_t r = ZSTD_decompress(buf, raw, d + hdr, n - hdr);
    if (ZSTD_isError(r) || r != raw) {
      snprintf(err, errlen, "compressed bundle: zstd: %s",
               ZSTD_isError(r) ? ZSTD_getErrorName(r) : "size differs from the header");
      free(buf); return -1;
    }
  } else if (method == 0) {
    uLongf dl = (uLongf)raw;
    int r = uncompress(buf, &dl, d + hdr, (uLong)(n - hdr));
    if (r != Z_OK || dl != raw) {
      snprintf(err, errlen, "compressed bundle: zlib error %d", r);
      free(buf); return -1;
    }
  } else {
    snprintf(err, errlen, "compressed bundle: unknown compression method %d", method);
    free(buf); return -1;
  }
  *out = buf; *outn = (size_t)raw;
  return 0;
}

/* The processor in an offload triple "kind-arch-vendor-os-env-gpu[:feat...]",
 * e.g. "gfx942:xnack-" from "hipv4-amdgcn-amd-amdhsa--gfx942:xnack-". */
static const char *triple_gpu(const char *t)
{
  const char *p = strstr(t, "amdgcn-amd-amdhsa-");
  if (!p) return NULL;
  p += strlen("amdgcn-amd-amdhsa-");
  const char *q = strchr(p, '-'); /* skip the (usually empty) environment */
  return q ? q + 1 : NULL;
}

int tks_bundle_find_gfx942(const uint8_t *data, size_t size, const uint8_t **elf,
                           size_t *elf_size, uint8_t **owned, char *err, size_t errlen)
{
  return tks_bundle_find(data, size, TKS_ARCH_GFX942, elf, elf_size, owned, err, errlen);
}

int tks_bundle_find(const uint8_t *data, size_t size, int arch, const uint8_t **elf,
                    size_t *elf_size, uint8_t **owned, char *err, size_t errlen)
{
  const char *want = tks_arch_name(arch);
  size_t wl = strlen(want);
  *owned = NULL; *elf = NULL; *elf_size = 0;
  if (is_ccob(data, size)) {
    uint8_t *buf; size_t n;
    if (decompress(data, size, &buf, &n, err, errlen)) return -1;
    if (is_ccob(buf, n)) { snprintf(err, errlen, "compressed bundle inside a compressed bundle"); free(buf); return -1; }
    uint8_t *inner = NULL;
    int r = tks_bundle_find(buf, n, arch, elf, elf_size, &inner, err, errlen);
    if (r) { free(buf); return -1; }
    *owned = buf; /* elf points into buf */
    return 0;
  }
  if (!is_bundle(data, size)) { snprintf(err, errlen, "not a clang offload bundle (bad magic)"); return -1; }
  if (size < 32) { snprintf(err, errlen, "offload bundle: truncated header"); return -1; }
  uint64_t n = rd64(data + 24), pos = 32;
  if (n > (size - 32) / 24) { snprintf(err, errlen, "offload bundle: %llu entries cannot fit in %zu bytes",
                                       (unsigned long long)n, size); return -1; }
  char others[256] = "";
  for (uint64_t i = 0; i < n; i++) {
    if (pos + 24 > size) { snprintf(err, errlen, "offload bundle: truncated entry table"); return -1; }
    uint64_t off = rd64(data + pos), sz = rd64(data + pos + 8), tl = rd64(data + pos + 16);
    pos += 24;
    if (tl > size - pos || tl > 4096) { snprintf(err, errlen, "offload bundle: entry %llu: bad triple length", (unsigned long long)i); return -1; }
    char triple[4097];
    memcpy(triple, data + pos, tl);
    triple[tl] = 0;
    pos += tl;
    if (off > size || sz > size - off) {
      snprintf(err, errlen, "offload bundle: entry '%s' lies outside the file", triple);
      return -1;
    }
    const char *gpu = triple_gpu(triple);
    if (!gpu || (strncmp(triple, "hip", 3) != 0)) continue; /* host entry */
    if (strncmp(gpu, want, wl) == 0 && (gpu[wl] == 0 || gpu[wl] == ':')) {
      /* tksim is sramecc+ xnack- like an MI300X/MI325X/MI355X: code built for
       * the opposite setting would not load on the real device either. */
      if (strstr(gpu, "xnack+") || strstr(gpu, "sramecc-")) {
        snprintf(others + strlen(others), sizeof others - strlen(others), "%s%s", *others ? ", " : "", gpu);
        continue;
      }
      if (sz == 0) { snprintf(err, errlen, "offload bundle: entry '%s' is empty", triple); return -1; }
      *elf = data + off; *elf_size = (size_t)sz;
      return 0;
    }
    snprintf(others + strlen(others), sizeof others - strlen(others), "%s%s", *others ? ", " : "", gpu);
  }
  snprintf(err, errlen, "no %s code object in the offload bundle (it has: %s); "
           "tksim emulates %s (sramecc+:xnack-) in this run: build with --offload-arch=%s%s",
           want, *others ? others : "none", want, want,
           strstr(others, arch == TKS_ARCH_GFX942 ? "gfx950" : "gfx942")
             ? (arch == TKS_ARCH_GFX942 ? ", or run with tksim --arch=gfx950" : ", or run with tksim --arch=gfx942")
             : "");
  return -1;
}
