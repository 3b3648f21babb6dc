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
  // extent beyond a buffer descriptor: limit 4 GiB - 16 bytes (the pointer is
  // never dereferenced by tk_gl_make)
  int64_t dbig[2] = {65536, 32768}, dok[2] = {65535, 32768}, dhuge[2] = {1ll << 40, 1ll << 40};
  expect_err(TK_ERR_TOO_LARGE, buf, 2, 2, dbig, NULL, "2^31 bf16 = 4 GiB");
  expect_err(TK_ERR_TOO_LARGE, buf, 2, 2, dhuge, NULL, "2^80 elements (no overflow)");
  int64_t sbig[2] = {1ll << 33, 1};
  expect_err(TK_ERR_TOO_LARGE, buf, 2, 2, d2, sbig, "row stride 2^33");
  int64_t d1big[4] = {2, 1, 1, 1}, s1big[4] = {(1ll << 32) - 2, 1ll << 40, 1, 1};
  expect_err(TK_ERR_TOO_LARGE, buf, 4, 4, d1big, s1big, "4-byte elements 2 x 2^32 apart");
  CHECK(tk_gl_make(&g, buf, 2, 2, dok, NULL) == TK_OK, "65535 x 32768 bf16 fits (4 GiB - 64 KiB)");
  // a stride on a dimension of size 1 is never used: any value is accepted
  int64_t d1[3] = {1, 40, 60}, s1[3] = {1ll << 50, 64, 1};
  CHECK(tk_gl_make(&g, buf, 2, 3, d1, s1) == TK_OK && tk_gl_bytes(&g) == (39 * 64 + 60) * 2, "size-1 dim, odd stride");
  // 16-byte chunk paths
  CHECK(tk_gl_make(&g, buf, 2, 2, d2, s2) == TK_OK, "strided 2-d again");
  CHECK(tk_gl_check_chunks(&g, 0) == TK_ERR_CHUNK, "60 bf16 = 120 B rows are not 16-byte multiples");
  int64_t d16[2] = {40, 64};
  CHECK(tk_gl_make(&g, buf, 2, 2, d16, NULL) == TK_OK && tk_gl_check_chunks(&g, 8) == TK_OK, "64 bf16 rows, c0 8");
  CHECK(tk_gl_check_chunks(&g, 4) == TK_ERR_CHUNK, "c0 4 bf16 = 8 B");
  CHECK(tk_gl_check_chunks(NULL, 0) == TK_ERR_NULL_PTR, "null descriptor");
  int64_t s72[2] = {72, 1};
  CHECK(tk_gl_make(&g, buf, 2, 2, d16, s72) == TK_OK && tk_gl_check_chunks(&g, 0) == TK_OK, "pitch 144 B");
  int64_t s68[2] = {68, 1};
  CHECK(tk_gl_make(&g, buf, 2, 2, d16, s68) == TK_OK && tk_gl_check_chunks(&g, 0) == TK_ERR_CHUNK, "pitch 136 B");
  CHECK(tk_gl_make(&g, (char *)buf + 8, 2, 2, d16, NULL) == TK_OK && tk_gl_check_chunks(&g, 0) == TK_ERR_CHUNK,
        "base 8-byte aligned only");
  CHECK(strstr(tk_err_str(TK_ERR_CHUNK), "16") != NULL && strstr(tk_err_str(TK_ERR_GRID), "tk: ") != NULL,
        "chunk / grid messages");
  for (int e = 1; e <= 9; e++) CHECK(strcmp(tk_err_str(e), "tk: unknown error") != 0, "code %d has a message", e);
  // buffer resource words
  tk_rsrc_words w = tk_rsrc_make_words((const void *)(uintptr_t)0x00007f1234567890ull, 1000);
  CHECK(w.w[0] == 0x34567890u && w.w[1] == 0x7f12u, "base address in dwords 0-1, stride 0");
  CHECK(w.w[2] == 1000u && w.w[3] == 0x00020000u, "num_records = bytes, dword3 = 0x00020000");
  printf("%d failed\n", g_fail);
  return g_fail ? 1 : 0;
}
