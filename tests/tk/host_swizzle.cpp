// Host test of the LDS layouts in tk/shared.h: every layout is a bijection of
// a tile's elements onto its bytes; the swizzled layout is bank-conflict free
// for the three access patterns it was designed for (phase model in
// shared.h's header comment), and the linear layout demonstrably is not.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "tk/shared.h"

static int g_fail = 0;
#define CHECK(c, ...) do { if (!(c)) { g_fail++; printf("FAIL: " __VA_ARGS__); printf("\n"); } } while (0)
#include "host_swizzle_add.h"

struct access { uint32_t addr, bytes; };

// worst-case number of distinct addresses sharing one bank within a phase
// (1 = conflict free); each access covers bytes/4 consecutive banks.
static int phase_ways(const std::vector<access> &ph) {
  int worst = 1;
  for (int bank = 0; bank < 32; bank++) {
    std::vector<uint32_t> words;
    for (const access &a : ph)
      for (uint32_t b = 0; b < a.bytes; b += 4) {
        uint32_t w = (a.addr + b) / 4;
        if ((int)(w % 32) == bank) {
          bool seen = false;
          for (uint32_t x : words) seen |= (x == w);
          if (!seen) words.push_back(w);
        }
      }
    if ((int)words.size() > worst) worst = (int)words.size();
  }
  return worst;
}

// b128 phases (shared.h): lanes 0-3+20-23, 4-7+16-19, 8-11+28-31, 12-15+24-27, +32
static const int b128_phase_base[4][2] = {{0, 20}, {4, 16}, {8, 28}, {12, 24}};

// Returns the worst conflict degree over all patterns; prints per pattern.
// returns the worst ways of the 16-byte accesses (b128 writes and reads);
// the ds_read_b64 fragment reads' worst goes to *r64
static int check_layout(int layout, int rows, int cols, int eb, int verbose, int *r64) {
  uint32_t rb = cols * eb, total = rows * rb;
  // bijection: every (r, c) to a distinct element slot inside the tile
  std::vector<int> hit(total, 0);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      uint32_t o = tk_lds_offset(layout, cols, eb, r, c);
      CHECK(o + eb <= total, "layout %d %dx%d eb%d: (%d,%d) -> %u outside tile", layout, rows, cols, eb, r, c, o);
      if (o + eb > total) return 99;
      CHECK(o % eb == 0, "misaligned element");
      for (int b = 0; b < eb; b++) hit[o + b]++;
      // elements of an 8-byte unit stay contiguous (so 8/16-byte accesses are whole)
      if ((c * eb) % 8 != 0) {
        uint32_t prev = tk_lds_offset(layout, cols, eb, r, c - 1);
        CHECK(prev + eb == o, "8-byte unit split at (%d,%d)", r, c);
      }
    }
  for (uint32_t i = 0; i < total; i++) CHECK(hit[i] == 1, "byte %u hit %d times (layout %d %dx%d)", i, hit[i], layout, rows, cols);
  int worst_w = 1, worst_r64 = 1, worst_r128 = 1;
  // ds_write_b128 group store: thread t writes 16-byte chunk t%(rb/16) of row t/(rb/16); phases of 8 threads
  int cpr = rb / 16;
  for (int t0 = 0; t0 < rows * cpr; t0 += 8) {
    std::vector<access> ph;
    for (int t = t0; t < t0 + 8 && t < rows * cpr; t++) {
      int r = t / cpr, ch = t % cpr;
      // a 16-byte chunk: its two 8-byte units are found via the layout
      uint32_t a0 = tk_lds_offset(layout, cols, eb, r, ch * 16 / eb);
      uint32_t a1 = tk_lds_offset(layout, cols, eb, r, (ch * 16 + 8) / eb);
      CHECK((a0 ^ a1) == 8 && (a0 & ~15u) == (a1 & ~15u), "16-byte chunk not contiguous");
      if (layout == TK_LDS_SWZ16) CHECK(a1 == a0 + 8, "TK_LDS_SWZ16 exchanged the halves of a chunk (row %d)", r);
      ph.push_back({a0 & ~15u, 16});
    }
    int w = phase_ways(ph);
    if (w > worst_w) worst_w = w;
  }
  // fragment reads: lanes read row l%FR (FR = 16, 32) at a unit/chunk l/FR,
  // for every fragment row block and every k position of the tile
  for (int fr = 16; fr <= 32; fr *= 2) {
    if (rows % fr) continue;
    for (int rb0 = 0; rb0 < rows; rb0 += fr) {
      int units = rb / 8;
      for (int u0 = 0; u0 + 64 / fr <= units; u0 += 64 / fr) {
        for (int p = 0; p < 4; p++) {  // b64: 4 phases of 16 lanes
          std::vector<access> ph;
          for (int l = 16 * p; l < 16 * p + 16; l++) {
            int r = rb0 + l % fr, u = u0 + l / fr;
            ph.push_back({tk_lds_offset(layout, cols, eb, r, u * 8 / eb), 8});
          }
          int w = phase_ways(ph);
          if (w > worst_r64) worst_r64 = w;
        }
      }
      int chunks = rb / 16;
      for (int c0 = 0; c0 + 64 / fr <= chunks; c0 += 64 / fr) {
        for (int p = 0; p < 8; p++) {  // b128: 8 phases
          std::vector<access> ph;
          for (int half = 0; half < 2; half++)
            for (int j = 0; j < 4; j++) {
              int l = b128_phase_base[p % 4][half] + j + 32 * (p / 4);
              int r = rb0 + l % fr, ch = c0 + l / fr;
              uint32_t a0 = tk_lds_offset(layout, cols, eb, r, ch * 16 / eb);
              ph.push_back({a0 & ~15u, 16});
            }
          int w = phase_ways(ph);
          if (w > worst_r128) worst_r128 = w;
        }
      }
    }
  }
  if (verbose)
    printf("layout %-6s %3dx%-3d eb%d: worst ways write_b128 %d, read_b64 %d, read_b128 %d\n",
           layout == TK_LDS_SWZ16 ? "swz16" : layout ? "swz" : "linear", rows, cols, eb, worst_w, worst_r64, worst_r128);
  *r64 = worst_r64;
  return worst_w > worst_r128 ? worst_w : worst_r128;
}

int main(void) {
  // (rows, cols, elem bytes): bf16/f16 tiles of 32..256-byte rows, fp8 tiles
  const int shapes[][3] = {{16, 16, 2}, {32, 32, 2}, {64, 64, 2}, {128, 64, 2}, {64, 128, 2},
                           {32, 16, 2}, {64, 32, 2}, {32, 64, 1}, {64, 128, 1}, {128, 32, 1},
                           {32, 32, 4}, {64, 256, 1}};
  int n = (int)(sizeof shapes / sizeof shapes[0]);
  for (int i = 0; i < n; i++) {
    int R = shapes[i][0], C = shapes[i][1], eb = shapes[i][2];
    int r64 = 0;
    int ws = check_layout(TK_LDS_SWZ, R, C, eb, 1, &r64);
    CHECK(ws == 1 && r64 == 1, "swizzled %dx%d eb%d has %d-way bank conflicts", R, C, eb, ws > r64 ? ws : r64);
    int wl = check_layout(TK_LDS_LINEAR, R, C, eb, 1, &r64);
    if (C * eb >= 64) CHECK(wl > 1, "linear %dx%d eb%d shows no conflict: the phase model would be vacuous", R, C, eb);
    // the 16-byte swizzle: conflict free for b128 writes and reads (b64 reads are not its use)
    int w16 = check_layout(TK_LDS_SWZ16, R, C, eb, 1, &r64);
    CHECK(w16 == 1, "TK_LDS_SWZ16 %dx%d eb%d has %d-way conflicts on 16-byte accesses", R, C, eb, w16);
  }
  // the half-swap rule documented in shared.h: swapped iff row bit 3 is set
  for (int r = 0; r < 64; r++) {
    uint32_t a = tk_lds_offset(TK_LDS_SWZ, 64, 2, r, 0), b = tk_lds_offset(TK_LDS_SWZ, 64, 2, r, 4);
    CHECK((a > b) == (tk_lds_swz_halves_swapped(r) != 0), "half swap rule wrong at row %d", r);
  }
  // tk_lds_offset_add: f32 / bf16 / fp8 tiles of 32..256-byte rows, every layout
  const int add_shapes[][3] = {{32, 64, 4}, {32, 32, 4}, {32, 128, 2}, {64, 64, 2}, {32, 16, 2}, {64, 128, 1}, {32, 8, 4}};
  for (int i = 0; i < (int)(sizeof add_shapes / sizeof add_shapes[0]); i++)
    for (int layout = 0; layout < 3; layout++) check_offset_add(layout, add_shapes[i][0], add_shapes[i][1], add_shapes[i][2]);
  printf("%d failed\n", g_fail);
  return g_fail ? 1 : 0;
}
