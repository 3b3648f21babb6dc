/* extent.c: how many bytes an image handed over by pointer alone may occupy.
 *
 * __hipRegisterFatBinary and hipModuleLoadData receive a pointer and no size;
 * the image's own headers say how long it is, but a corrupt header (an
 * offload-bundle entry at offset 2^63, an ELF section table past the end)
 * would make the loader read unmapped memory and die. So the headers are
 * believed only up to the end of the readable mappings that contain the
 * pointer (/proc/self/maps, proc(5)): whatever an image claims beyond them is
 * refused as truncated instead of read.
 */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "loader/loader.h"

size_t tks_readable_extent(const void *ptr)
{
  uint64_t p = (uint64_t)(uintptr_t)ptr, end = 0;
  if (!ptr) return 0;
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return 0;
  char line[512];
  /* mappings are listed in address order: find the one holding p, then
   * extend across directly adjacent readable ones */
  while (fgets(line, sizeof line, f)) {
    unsigned long long lo, hi;
    char perms[8];
    if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perms) != 3) continue;
    int readable = perms[0] == 'r';
    if (!end) {
      if (p >= lo && p < hi) {
        if (!readable) break;
        end = hi;
      }
    } else if (lo == end && readable) {
      end = hi;
    } else if (lo >= end) {
      break;
    }
    /* a line longer than the buffer: skip its rest */
    if (!strchr(line, '\n')) {
      int c;
      while ((c = fgetc(f)) != EOF && c != '\n') {}
    }
  }
  fclose(f);
  return end > p ? (size_t)(end - p) : 0;
}

size_t tks_image_extent_at(const uint8_t *data)
{
  size_t avail = tks_readable_extent(data);
  return avail ? tks_image_extent(data, avail) : 0;
}
