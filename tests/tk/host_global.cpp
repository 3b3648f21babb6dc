// Host test of tk/global.h: descriptor construction and validation (every
// TK_ERR_* path leaves the output untouched), index math against a direct
// row-major computation, and the buffer resource words (CDNA3 V# fields).
#include <stdio.h>
#include <string.h>
#include "tk/global.h"

static int g_fail = 0;
#define CHECK(c, ...) do { if (!(c)) { g_fail++; printf("FAIL: " __VA_ARGS__); printf("\n"); } } while (0)

static void expect_err(int want, void *p, int eb, int nd, const int64_t *d, const int64_t *s, const char *what) {
  tk_gl g;
  memset(&g, 0xab, sizeof g);
  tk_gl before = g;
  int e = tk_gl_make(&g, p, eb, nd, d, s);
  CHECK(e == want, "%s: got %d (%s), want %d", what, e, tk_err_str(e), want);
  CHECK(memcmp(&g, &before, sizeof g) == 0, "%s: descriptor written on error", what);
  CHECK(strlen(tk_err_str(e)) > 3 && strncmp(tk_err_str(e), "tk: ", 4) == 0, "%s: message", what);
}

int main(void) {
  static uint16_t buf[4 * 3 * 40 * 64];
  int64_t d4[4] = {4, 3, 40, 64};
  tk_gl g;
  CHECK(tk_gl_make(&g, buf, 2, 4, d4, NULL) == TK_OK, "packed 4-d");
  for (int64_t b = 0; b < 4; b++)
    for (int64_t h = 0; h < 3; h++)
      for (int64_t r = 0; r < 40; r += 7)
        for (int64_t c = 0; c < 64; c += 5)
          CHECK(tk_gl_offset(&g, b, h, r, c) == ((b * 3 + h) * 40 + r) * 64 + c, "packed offset");
  CHECK(tk_gl_bytes(&g) == 4 * 3 * 40 * 64 * 2, "bytes");
  CHECK(tk_gl_tile_offset(&g, 1, 2, 3, 1, 8, 32) == ((1 * 3 + 2) * 40 + 24) * 64 + 32, "tile offset");
  // 2-d with padded rows: dims right-aligned, outer dims 1
  int64_t d2[2] = {40, 60}, s2[2] = {64, 1};
  CHECK(tk_gl_make(&g, buf, 2, 2, d2, s2) == TK_OK, "strided 2-d");
  CHECK(g.dims[0] == 1 && g.dims[1] == 1 && g.dims[2] == 40 && g.dims[3] == 60, "right-aligned dims");
  CHECK(tk_gl_offset(&g, 0, 0, 5, 7) == 5 * 64 + 7, "strided offset");
  CHECK(tk_gl_bytes(&g) == (39 * 64 + 60) * 2, "strided bytes");
  // errors
  expect_err(TK_ERR_NULL_PTR, NULL, 2, 2, d2, s2, "null base");
  expect_err(TK_ERR_NULL_PTR, buf, 2, 2, NULL, s2, "null dims");
  expect_err(TK_ERR_NDIM, buf, 2, 0, d2, s2, "ndim 0");
  expect_err(TK_ERR_NDIM, buf, 2, 5, d4, NULL, "ndim 5");
  int64_t dz[2] = {0, 8}, dn[2] = {4, -1};
  expect_err(TK_ERR_DIM, buf, 2, 2, dz, NULL, "zero dim");
  expect_err(TK_ERR_DIM, buf, 2, 2, dn, NULL, "negative dim");
  int64_t sshort[2] = {32, 1}, sinner[2] = {64, 2};
  expect_err(TK_ERR_STRIDE, buf, 2, 2, d2, sshort, "row stride smaller than row");
  expect_err(TK_ERR_STRIDE, buf, 2, 2, d2, sinner, "inner stride 2");
  expect_err(TK_ERR_ALIGN, (char *)buf + 1, 2, 2, d2, s2, "misaligned base");
  expect_err(TK_ERR_ELEM, buf, 3, 2, d2, s2, "element size 3");
  CHECK(tk_gl_make(NULL, buf, 2, 2, d2, s2) == TK_ERR_NULL_PTR, "null out");
  // buffer resource words
  tk_rsrc_words w = tk_rsrc_make_words((const void *)(uintptr_t)0x00007f1234567890ull, 1000);
  CHECK(w.w[0] == 0x34567890u && w.w[1] == 0x7f12u, "base address in dwords 0-1, stride 0");
  CHECK(w.w[2] == 1000u && w.w[3] == 0x00020000u, "num_records = bytes, dword3 = 0x00020000");
  printf("%d failed\n", g_fail);
  return g_fail ? 1 : 0;
}
