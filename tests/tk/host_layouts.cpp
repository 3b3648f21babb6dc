// Host test of tk/register.h's fragment layout functions against the MFMA
// operand layouts documented in the CDNA3 ISA guide §7 and printed by AMD's
// matrix instruction calculator (--detail-instruction).  Two independent
// checks: (1) table entries transcribed from the calculator, (2) every
// layout is a bijection (lane, i) <-> (row, col) over the fragment.
#include <stdio.h>
#include <vector>
#include "tk/register.h"

static int g_fail = 0;
#define CHECK(c, ...) do { if (!(c)) { g_fail++; printf("FAIL: " __VA_ARGS__); printf("\n"); } } while (0)

struct entry { int lane, i, row, col; };

int main(void) {
  // Calculator rows "A[i][k]: lane, GPR" and "D[i][j]: lane, GPR"
  // v_mfma_f32_16x16x16_bf16: A[i][k] in lane i + 16*(k/4), element k%4
  const entry a16[] = {{0, 0, 0, 0}, {1, 0, 1, 0}, {15, 3, 15, 3}, {16, 0, 0, 4}, {17, 2, 1, 6},
                       {48, 3, 0, 15}, {63, 3, 15, 15}};
  for (const entry &e : a16) {
    CHECK(tk_layout_a_row(16, 4, e.lane, e.i) == e.row && tk_layout_a_col(16, 4, e.lane, e.i) == e.col,
          "A 16x16x16 lane %d i %d", e.lane, e.i);
    // B is the transpose: B[k][j] in lane j + 16*(k/4)
    CHECK(tk_layout_b_row(16, 4, e.lane, e.i) == e.col && tk_layout_b_col(16, 4, e.lane, e.i) == e.row,
          "B 16x16x16 lane %d i %d", e.lane, e.i);
  }
  // 16x16 accumulator: D[i][j] in lane j + 16*(i/4), register i%4
  const entry c16[] = {{0, 0, 0, 0}, {0, 3, 3, 0}, {5, 1, 1, 5}, {16, 0, 4, 0}, {47, 2, 10, 15}, {63, 3, 15, 15}};
  for (const entry &e : c16)
    CHECK(tk_layout_c_row(16, e.lane, e.i) == e.row && tk_layout_c_col(16, e.lane, e.i) == e.col,
          "C 16x16 lane %d i %d", e.lane, e.i);
  // 32x32 accumulator (v_mfma_f32_32x32x8_*): D[i][j] in lane j + 32*((i/4)%2),
  // register 4*(i/8) + i%4
  const entry c32[] = {{0, 0, 0, 0}, {0, 3, 3, 0}, {32, 0, 4, 0}, {0, 4, 8, 0}, {33, 5, 13, 1},
                       {31, 15, 27, 31}, {63, 15, 31, 31}, {40, 9, 21, 8}};
  for (const entry &e : c32)
    CHECK(tk_layout_c_row(32, e.lane, e.i) == e.row && tk_layout_c_col(32, e.lane, e.i) == e.col,
          "C 32x32 lane %d i %d", e.lane, e.i);
  // 32x32x8 A: A[i][k] in lane i + 32*(k/4), element k%4
  const entry a32[] = {{0, 0, 0, 0}, {31, 3, 31, 3}, {32, 0, 0, 4}, {63, 3, 31, 7}};
  for (const entry &e : a32)
    CHECK(tk_layout_a_row(32, 4, e.lane, e.i) == e.row && tk_layout_a_col(32, 4, e.lane, e.i) == e.col,
          "A 32x32x8 lane %d i %d", e.lane, e.i);
  // fp8/i8 16x16x32: A[i][k] in lane i + 16*(k/8), byte k%8
  const entry a16x32[] = {{0, 7, 0, 7}, {16, 0, 0, 8}, {63, 7, 15, 31}};
  for (const entry &e : a16x32)
    CHECK(tk_layout_a_row(16, 8, e.lane, e.i) == e.row && tk_layout_a_col(16, 8, e.lane, e.i) == e.col,
          "A 16x16x32 lane %d i %d", e.lane, e.i);
  // fp8 32x32x16: A[i][k] in lane i + 32*(k/8)
  const entry a32x16[] = {{0, 7, 0, 7}, {32, 0, 0, 8}, {63, 7, 31, 15}};
  for (const entry &e : a32x16)
    CHECK(tk_layout_a_row(32, 8, e.lane, e.i) == e.row && tk_layout_a_col(32, 8, e.lane, e.i) == e.col,
          "A 32x32x16 lane %d i %d", e.lane, e.i);

  // bijections over each fragment
  const int ab[][2] = {{16, 4}, {32, 4}, {16, 8}, {32, 8}};  // (shape, kw)
  for (const auto &s : ab) {
    int sh = s[0], kw = s[1], K = 64 / sh * kw;
    std::vector<int> ha(sh * K, 0), hb(sh * K, 0);
    for (int l = 0; l < 64; l++)
      for (int i = 0; i < kw; i++) {
        int r = tk_layout_a_row(sh, kw, l, i), c = tk_layout_a_col(sh, kw, l, i);
        CHECK(r >= 0 && r < sh && c >= 0 && c < K, "A out of range");
        if (r >= 0 && r < sh && c >= 0 && c < K) ha[r * K + c]++;
        int kr = tk_layout_b_row(sh, kw, l, i), n = tk_layout_b_col(sh, kw, l, i);
        CHECK(kr >= 0 && kr < K && n >= 0 && n < sh, "B out of range");
        if (kr >= 0 && kr < K && n >= 0 && n < sh) hb[kr * sh + n]++;
      }
    for (int x = 0; x < sh * K; x++) CHECK(ha[x] == 1 && hb[x] == 1, "A/B %d kw%d not a bijection at %d", sh, kw, x);
  }
  for (int sh = 16; sh <= 32; sh += 16) {
    int nreg = sh * sh / 64;
    std::vector<int> hc(sh * sh, 0);
    for (int l = 0; l < 64; l++)
      for (int i = 0; i < nreg; i++) {
        int r = tk_layout_c_row(sh, l, i), c = tk_layout_c_col(sh, l, i);
        if (r >= 0 && r < sh && c >= 0 && c < sh) hc[r * sh + c]++;
        else CHECK(0, "C out of range");
      }
    for (int x = 0; x < sh * sh; x++) CHECK(hc[x] == 1, "C %d not a bijection at %d", sh, x);
  }
  printf("%d failed\n", g_fail);
  return g_fail ? 1 : 0;
}
