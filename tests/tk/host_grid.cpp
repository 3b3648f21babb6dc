// Host test for tk/grid.h: both index maps are bijections on [0, tiles) for
// every shape in a broad sweep, their inverses agree, and the locality they
// promise holds, checked against brute-force counting over the tile sets.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "tk/grid.h"

static int failures = 0;
#define CHECK(c, ...)                                   \
  do {                                                  \
    if (!(c)) {                                         \
      if (failures < 20) {                              \
        fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                   \
        fprintf(stderr, "\n");                          \
      }                                                 \
      failures++;                                       \
    }                                                   \
  } while (0)

// Distinct tile rows and cols touched by a set of (m, n) tiles.
static void distinct(const std::vector<uint32_t> &ms, const std::vector<uint32_t> &ns, uint32_t tiles_m,
                     uint32_t tiles_n, uint32_t *rows, uint32_t *cols) {
  std::vector<char> r(tiles_m, 0), c(tiles_n, 0);
  *rows = *cols = 0;
  for (size_t i = 0; i < ms.size(); i++) {
    if (!r[ms[i]]) { r[ms[i]] = 1; ++*rows; }
    if (!c[ns[i]]) { c[ns[i]] = 1; ++*cols; }
  }
}

static void test_l2_bijection(void) {
  long shapes = 0;
  for (uint32_t tm = 1; tm <= 40; tm++)
    for (uint32_t tn = 1; tn <= 40; tn++)
      for (uint32_t g = 0; g <= 12; g++) {
        uint32_t n = tm * tn;
        std::vector<char> seen(n, 0);
        for (uint32_t id = 0; id < n; id++) {
          uint32_t m, c;
          tk_grid_l2_order(id, tm, tn, g, &m, &c);
          if (m >= tm || c >= tn) { CHECK(0, "l2 %ux%u g=%u id %u -> (%u,%u) out of range", tm, tn, g, id, m, c); continue; }
          CHECK(!seen[m * tn + c], "l2 %ux%u g=%u: tile (%u,%u) hit twice", tm, tn, g, m, c);
          seen[m * tn + c] = 1;
          CHECK(tk_grid_l2_index(m, c, tm, tn, g) == id, "l2 inverse %ux%u g=%u id %u", tm, tn, g, id);
        }
        shapes++;
      }
  printf("l2_order: bijection + inverse on %ld shapes\n", shapes);
}

// Reference for the grouped order written differently: enumerate groups,
// columns, rows in loop order and compare with the closed form.
static void test_l2_reference(void) {
  for (uint32_t tm = 1; tm <= 23; tm++)
    for (uint32_t tn = 1; tn <= 23; tn++)
      for (uint32_t g = 1; g <= 9; g++) {
        uint32_t id = 0;
        for (uint32_t g0 = 0; g0 < tm; g0 += g)
          for (uint32_t c = 0; c < tn; c++)
            for (uint32_t m = g0; m < g0 + g && m < tm; m++, id++) {
              uint32_t om, oc;
              tk_grid_l2_order(id, tm, tn, g, &om, &oc);
              CHECK(om == m && oc == c, "l2 %ux%u g=%u id %u: got (%u,%u) want (%u,%u)", tm, tn, g, id, om, oc, m, c);
            }
      }
  printf("l2_order: matches loop-order reference\n");
}

static void test_xcd_bijection(void) {
  long shapes = 0;
  for (uint32_t x = 0; x <= 9; x++)
    for (uint32_t n = 1; n <= 1500; n++) {
      std::vector<char> seen(n, 0);
      for (uint32_t w = 0; w < n; w++) {
        uint32_t l = tk_grid_xcd_remap(w, n, x);
        if (l >= n) { CHECK(0, "xcd n=%u x=%u wg %u -> %u out of range", n, x, w, l); continue; }
        CHECK(!seen[l], "xcd n=%u x=%u logical %u hit twice", n, x, l);
        seen[l] = 1;
        CHECK(tk_grid_xcd_unmap(l, n, x) == w, "xcd unmap n=%u x=%u wg %u", n, x, w);
      }
      shapes++;
    }
  printf("xcd_remap: bijection + inverse on %ld shapes\n", shapes);
}

// Locality: (1) the workgroups one XCD receives (wg % 8 == x) get a
// contiguous range of logical ids, so the first `window` of them (running
// concurrently) are consecutive tiles; (2) with the grouped order, the A rows
// plus B cols one XCD touches in a window are fewer than with neither map,
// and equal the brute-force count of the contiguous range.
static void test_locality(void) {
  const uint32_t X = TK_NUM_XCDS;
  for (uint32_t n = 8; n <= 1200; n += 7) {
    for (uint32_t x = 0; x < X; x++) {
      uint32_t lo = 0xffffffffu, hi = 0, cnt = 0;
      for (uint32_t w = x; w < n; w += X) {
        uint32_t l = tk_grid_xcd_remap(w, n, X);
        lo = l < lo ? l : lo;
        hi = l > hi ? l : hi;
        cnt++;
        // consecutive hardware ids on one XCD get consecutive logical ids
        if (w + X < n) CHECK(tk_grid_xcd_remap(w + X, n, X) == l + 1, "xcd n=%u wg %u not followed", n, w);
      }
      CHECK(cnt == 0 || hi - lo + 1 == cnt, "xcd n=%u x=%u: range [%u,%u] for %u tiles", n, x, lo, hi, cnt);
    }
  }
  // A 48x48 tile grid (e.g. 12288^2 with 256x256 tiles) on a 304-CU MI300X:
  // one wave of 304 workgroups, 38 per XCD.
  const uint32_t tm = 48, tn = 48, g = 8, window = 304, n = tm * tn;
  uint32_t sum_opt = 0, sum_naive = 0;
  for (uint32_t x = 0; x < X; x++) {
    std::vector<uint32_t> om, on, nm, nn;
    for (uint32_t w = x; w < window; w += X) {
      uint32_t m, c;
      tk_grid_tile(w, n, tm, tn, g, X, &m, &c);
      om.push_back(m);
      on.push_back(c);
      tk_grid_l2_order(w, tm, tn, g, &m, &c);  // grouped order, no XCD remap
      nm.push_back(m);
      nn.push_back(c);
    }
    uint32_t r1, c1, r2, c2;
    distinct(om, on, tm, tn, &r1, &c1);
    distinct(nm, nn, tm, tn, &r2, &c2);
    // independent expectation: the XCD's tiles are logical ids
    // [start, start + 38) of the grouped order: count them by enumeration
    uint32_t start = tk_grid_xcd_remap(x, n, X);
    std::vector<uint32_t> em, en;
    for (uint32_t l = start; l < start + (uint32_t)om.size(); l++) {
      uint32_t m, c;
      tk_grid_l2_order(l, tm, tn, g, &m, &c);
      em.push_back(m);
      en.push_back(c);
    }
    uint32_t r3, c3;
    distinct(em, en, tm, tn, &r3, &c3);
    CHECK(r1 == r3 && c1 == c3, "xcd %u: rows/cols %u/%u, expected %u/%u", x, r1, c1, r3, c3);
    // 38 consecutive grouped tiles span <= 8 rows and <= ceil(38/8)+1 cols
    CHECK(r1 <= g && c1 <= (38 + g - 1) / g + 1, "xcd %u: %u rows %u cols", x, r1, c1);
    sum_opt += r1 + c1;
    sum_naive += r2 + c2;
  }
  CHECK(sum_opt < sum_naive, "grouped+xcd touches %u panels, grouped without remap %u", sum_opt, sum_naive);
  printf("locality: per-XCD panels in first 304 workgroups: grouped+xcd %u, grouped without XCD remap %u\n", sum_opt, sum_naive);
}

// Bad launch shapes are rejected with an error code and a message.
static void test_check(void) {
  CHECK(tk_grid_check(12, 3, 4) == TK_OK, "3x4 tiles, 12 workgroups");
  CHECK(tk_grid_check(0, 0, 4) == TK_ERR_GRID, "zero tile rows");
  CHECK(tk_grid_check(0, 4, 0) == TK_ERR_GRID, "zero tile cols");
  CHECK(tk_grid_check(11, 3, 4) == TK_ERR_GRID, "fewer workgroups than tiles");
  CHECK(tk_grid_check(13, 3, 4) == TK_ERR_GRID, "more workgroups than tiles");
  CHECK(tk_grid_check(0, 65536, 65536) == TK_ERR_GRID, "2^32 tiles do not wrap to 0");
  CHECK(strncmp(tk_err_str(TK_ERR_GRID), "tk: grid", 8) == 0, "message");
}

// tk_udiv against plain division: every divisor below 70 000 on its
// multiples and their neighbours, and divisors at the 2^k edges on edge
// numerators and a million spread ones; tk_grid_l2_order_at against
// tk_grid_l2_order on every id of the bijection sweep's shapes.
static void test_udiv(void) {
  long checks = 0;
  for (uint32_t d = 1; d < 70000; d++) {
    const tk_udiv v = tk_udiv_make(d);
    for (uint32_t x = 0; x < 3 * d + 5; x += d > 100 ? d / 7 + 1 : 1, checks++)
      CHECK(tk_udiv_q(x, v) == x / d, "tk_udiv %u / %u", x, d);
    CHECK(tk_udiv_q(0xffffffffu, v) == 0xffffffffu / d, "tk_udiv max / %u", d);
  }
  const uint32_t ds[] = {1u, 2u, 3u, 7u, 8u, 641u, 65535u, 65536u, 65537u, (1u << 24) - 1, 1u << 24, (1u << 24) + 1,
                         0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu};
  for (uint32_t d : ds) {
    const tk_udiv v = tk_udiv_make(d);
    const uint32_t ns[] = {0u, 1u, d - 1, d, d + 1, 2 * d - 1, 2 * d, 2 * d + 1, 0x7fffffffu, 0x80000000u,
                           0xfffffffeu, 0xffffffffu};
    for (uint32_t x : ns) CHECK(tk_udiv_q(x, v) == x / d, "tk_udiv %u / %u", x, d);
    for (uint64_t k = 0; k < 1000000; k++, checks++) {
      const uint32_t x = (uint32_t)(k * 2654435761u + d);
      CHECK(tk_udiv_q(x, v) == x / d, "tk_udiv %u / %u", x, d);
    }
  }
  CHECK(tk_udiv_q(12345u, tk_udiv_make(0)) == 12345u, "tk_udiv_make(0) is division by 1");
  for (uint32_t tm = 1; tm <= 40; tm++)
    for (uint32_t tn = 1; tn <= 40; tn++)
      for (uint32_t g = 0; g <= 12; g++) {
        const tk_grid_l2 l2 = tk_grid_l2_make(tm, tn, g);
        for (uint32_t id = 0; id < tm * tn; id++, checks++) {
          uint32_t am, an, bm, bn;
          tk_grid_l2_order(id, tm, tn, g, &am, &an);
          tk_grid_l2_order_at(&l2, id, &bm, &bn);
          CHECK(am == bm && an == bn, "tk_grid_l2_order_at %u of %ux%u group %u", id, tm, tn, g);
        }
      }
  printf("host_grid: tk_udiv / tk_grid_l2_order_at: %ld checks\n", checks);
}

int main(void) {
  test_check();
  test_l2_bijection();
  test_l2_reference();
  test_xcd_bijection();
  test_locality();
  test_udiv();
  if (failures) {
    fprintf(stderr, "host_grid: %d failures\n", failures);
    return 1;
  }
  printf("host_grid: all passed\n");
  return 0;
}
