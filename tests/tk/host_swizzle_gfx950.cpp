// Host test of tk's gfx950 LDS layouts (tk/shared.h with TK_TARGET_GFX950:
// 64 banks of 4 bytes, target.h): every layout is a bijection; the swizzled
// layout never exchanges 8-byte halves and is conflict free for the accesses
// it is designed for under the gfx950 phase model (docs/tksim-checkers.md:
// 64 banks; read phases of 256 B: b128 16 lanes, lanes 0-3, 8-11, 20-23,
// 28-31 and 4-7, 12-15, 16-19, 24-27 (and +32), b64 32 consecutive lanes;
// ds_write_b128 phases of 8 lanes); the linear layout is not.
// The phase model here is written from that table, not from tksim's code.
#define TK_TARGET_GFX950 1
#include <stdio.h>
#include <vector>
#include "tk/shared.h"

static_assert(TK_LDS_BANKS == 64, "the host pass must see gfx950's facts here");

static int g_fail = 0;
#define CHECK(c, ...) do { if (!(c)) { g_fail++; printf("FAIL: " __VA_ARGS__); printf("\n"); } } while (0)
#include "host_swizzle_add.h"

struct access { uint32_t addr, bytes; };

// largest number of distinct dwords one of the 64 banks serves in a phase
static int phase_ways(const std::vector<access> &ph) {
  int worst = 1;
  for (int bank = 0; bank < 64; bank++) {
    std::vector<uint32_t> words;
    for (const access &a : ph)
      for (uint32_t b = 0; b < a.bytes; b += 4) {
        uint32_t w = (a.addr + b) / 4;
        if ((int)(w % 64) != bank) continue;
        bool seen = false;
        for (uint32_t x : words) seen |= (x == w);
        if (!seen) words.push_back(w);
      }
    if ((int)words.size() > worst) worst = (int)words.size();
  }
  return worst;
}

// worst ways over: b128 group writes (8 lanes), b128 fragment reads (16
// lanes: rows l%FR at chunk l/FR), b64 fragment reads of 16-row fragments
// (32 lanes: rows l%16 at unit l/16); bijection and no half exchange checked
// on the way
static int check_layout(int layout, int rows, int cols, int eb) {
  uint32_t rb = cols * eb, total = rows * rb;
  std::vector<int> hit(total, 0);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      uint32_t o = tk_lds_offset(layout, cols, eb, r, c);
      if (o + eb > total) { CHECK(0, "(%d,%d) -> %u outside the tile", r, c, o); return 99; }
      for (int b = 0; b < eb; b++) hit[o + b]++;
      // 16-byte chunks stay whole and in order: byte k of a chunk at k
      uint32_t o0 = tk_lds_offset(layout, cols, eb, r, (c * eb / 16) * 16 / eb);
      CHECK(o - o0 == (uint32_t)(c * eb % 16), "chunk of (%d,%d) not in order (layout %d)", r, c, layout);
    }
  for (uint32_t i = 0; i < total; i++) CHECK(hit[i] == 1, "byte %u hit %d times", i, hit[i]);
  int worst = 1, cpr = rb / 16;
  for (int t0 = 0; t0 < rows * cpr; t0 += 8) {
    std::vector<access> ph;
    for (int t = t0; t < t0 + 8 && t < rows * cpr; t++)
      ph.push_back({tk_lds_offset(layout, cols, eb, t / cpr, (t % cpr) * 16 / eb), 16});
    int w = phase_ways(ph);
    if (w > worst) worst = w;
  }
  for (int fr = 16; fr <= 32; fr *= 2) {
    if (rows % fr) continue;
    for (int r0 = 0; r0 < rows; r0 += fr)
      for (int c0 = 0; c0 + 64 / fr <= cpr; c0 += 64 / fr)
        for (int p = 0; p < 4; p++) {
          std::vector<access> ph;
          for (int l = 0; l < 64; l++) {
            // phase of lane l: half wave, then whether its quad is 0, 2, 5 or 7
            int q = (l % 32) / 4, ph_l = 2 * (l / 32) + !(q == 0 || q == 2 || q == 5 || q == 7);
            if (ph_l == p)
              ph.push_back({tk_lds_offset(layout, cols, eb, r0 + l % fr, (c0 + l / fr) * 16 / eb), 16});
          }
          int w = phase_ways(ph);
          if (w > worst) worst = w;
        }
  }
  for (int r0 = 0; r0 + 16 <= rows; r0 += 16)
    for (int u0 = 0; u0 + 4 <= (int)(rb / 8); u0 += 4)
      for (int p = 0; p < 2; p++) {
        std::vector<access> ph;
        for (int l = 32 * p; l < 32 * p + 32; l++)
          ph.push_back({tk_lds_offset(layout, cols, eb, r0 + l % 16, (u0 + l / 16) * 8 / eb), 8});
        int w = phase_ways(ph);
        if (w > worst) worst = w;
      }
  return worst;
}

int main(void) {
  const int shapes[][3] = {{16, 16, 2}, {32, 32, 2}, {64, 64, 2}, {128, 64, 2}, {64, 128, 2}, {128, 32, 2},
                           {32, 16, 2}, {64, 32, 2}, {32, 64, 1}, {64, 128, 1}, {128, 32, 1}, {32, 32, 4},
                           {64, 256, 1}, {256, 32, 2}};
  for (const auto &s : shapes) {
    int ws = check_layout(TK_LDS_SWZ, s[0], s[1], s[2]);
    int wl = check_layout(TK_LDS_LINEAR, s[0], s[1], s[2]);
    printf("gfx950 %3dx%-3d eb%d: worst ways swizzled %d, linear %d\n", s[0], s[1], s[2], ws, wl);
    CHECK(ws == 1, "swizzled %dx%d eb%d has %d-way conflicts", s[0], s[1], s[2], ws);
    if (s[1] * s[2] >= 64) CHECK(wl > 1, "linear %dx%d eb%d shows no conflict: the check would be vacuous", s[0], s[1], s[2]);
  }
  for (int r = 0; r < 256; r++) CHECK(!tk_lds_swz_halves_swapped(r), "gfx950 swizzle exchanges halves at row %d", r);
  // TK_LDS_SWZ16 is TK_LDS_SWZ on gfx950 (shared.h)
  for (const auto &s : shapes)
    for (int r = 0; r < s[0]; r++)
      for (int c = 0; c < s[1]; c++)
        CHECK(tk_lds_offset(TK_LDS_SWZ16, s[1], s[2], r, c) == tk_lds_offset(TK_LDS_SWZ, s[1], s[2], r, c),
              "TK_LDS_SWZ16 differs from TK_LDS_SWZ on gfx950 at (%d, %d)", r, c);
  // the known limit (shared.h): ds_read_b64 of a 32-row fragment (32 lanes:
  // rows 0-31 at one 8-byte unit) is 2-way, since only 16 chunk positions
  // exist per 256-byte window and halves are never exchanged
  {
    std::vector<access> ph;
    for (int l = 0; l < 32; l++) ph.push_back({tk_lds_offset(TK_LDS_SWZ, 32, 2, l, 0), 8});
    int w = phase_ways(ph);
    printf("gfx950 64x32 eb2 b64 read of a 32-row fragment: %d-way\n", w);
    CHECK(w == 2, "32-row b64 fragment read is %d-way, documented as 2-way", w);
  }
  // tk_lds_offset_add: f32 / bf16 / fp8 tiles of 32..256-byte rows, both layouts
  const int add_shapes[][3] = {{32, 64, 4}, {32, 32, 4}, {32, 128, 2}, {64, 64, 2}, {32, 16, 2}, {64, 128, 1}, {32, 8, 4}};
  for (int i = 0; i < (int)(sizeof add_shapes / sizeof add_shapes[0]); i++)
    for (int layout = 0; layout < 3; layout++) check_offset_add(layout, add_shapes[i][0], add_shapes[i][1], add_shapes[i][2]);
  printf("%d failed\n", g_fail);
  return g_fail ? 1 : 0;
}
