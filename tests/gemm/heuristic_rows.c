/* heuristic_rows.c: the heuristic tables' grid-order field (issue 26, s42).
 * Host code only (plan, no kernel launched); run under tksim per target, so
 * tk_gemm_plan reads the table of the device it runs on.
 *  1. every row of both tables has a valid grid order; a bad one is refused
 *     (tk_gemm__row_error) and a bad config order is refused with its reason;
 *  2. gfx942's table is gfx942's own: no row-major row in it (its CSV,
 *     docs/gemm-heuristic.csv, has no -rm config), while gfx950's
 *     128x4096x4096 row is row-major (docs/gemm-heuristic-gfx950.csv:
 *     8wave-128x128k128-s4-rm fastest, more than 1% over its L2 twin), and
 *     gfx942's row nearest that shape is L2 order;
 *  3. on the running device, every row whose config auto takes as swept
 *     plans its own grid order, and that order is what tk_gemm_run hands the
 *     kernels (tk_gemm__launch_order); an explicit order in the config or a
 *     row-major problem wins over the row, an explicit tile drops the row's. */
#include <stdio.h>
#include <string.h>

#include "gemm_heuristic_table.h"

static int fails;
#define EXPECT(c, ...)                                     \
  do {                                                     \
    if (!(c)) {                                            \
      fprintf(stderr, "heuristic_rows: FAIL: " __VA_ARGS__); \
      fputc('\n', stderr);                                 \
      ++fails;                                             \
    }                                                      \
  } while (0)

static int order_of_cfg(int32_t o) { return o == TK_GEMM_ORDER_ROW_MAJOR ? TK_GEMM_GRID_ROW_MAJOR : TK_GEMM_GRID_L2; }

static void tables(void)
{
  const char *names[2] = {"gfx942", "gfx950:sramecc+:xnack-"};
  size_t n[2];
  const gemm_heuristic_row *t[2] = {gemm_heuristic_rows(names[0], &n[0]), gemm_heuristic_rows(names[1], &n[1])};
  EXPECT(t[0] != t[1], "gfx942 and gfx950 devices read the same table");
  int rm[2] = {0, 0};
  for (int i = 0; i < 2; ++i)
    for (size_t j = 0; j < n[i]; ++j) {
      EXPECT(tk_gemm__row_error(&t[i][j]) == NULL, "%s row %zu: %s", names[i], j, tk_gemm__row_error(&t[i][j]));
      rm[i] += t[i][j].grid_order == TK_GEMM_GRID_ROW_MAJOR;
    }
  EXPECT(rm[0] == 0, "gfx942's table has %d row-major rows; its CSV has none", rm[0]);
  tk_gemm_problem p;
  tk_gemm_problem_init(&p, 128, 4096, 4096);
  const gemm_heuristic_row *r950 = tk_gemm__nearest_row_in(t[1], n[1], &p), *r942 = tk_gemm__nearest_row_in(t[0], n[0], &p);
  EXPECT(r950 && r950->m == 128 && r950->n == 4096 && r950->k == 4096 && r950->grid_order == TK_GEMM_GRID_ROW_MAJOR &&
             r950->split_k == 4 && r950->tile_m == 128 && r950->tile_n == 128 && r950->k_step == 128,
         "gfx950's 128x4096x4096 row is not 8wave-128x128k128-s4-rm");
  EXPECT(r942 && r942->grid_order == TK_GEMM_GRID_L2, "gfx942's row nearest 128x4096x4096 is not L2 order");
  const gemm_heuristic_row bad = {1024, 1024, 1024, TK_GEMM_8WAVE, 128, 128, 1, 128, 2};
  EXPECT(tk_gemm__row_error(&bad) != NULL && strstr(tk_gemm__row_error(&bad), "grid_order"),
         "a row with grid order 2 is not refused by name");
}

static void device(void)
{
  const char *target = tk_gemm_heuristic_target();
  size_t n;
  const gemm_heuristic_row *rows = gemm_heuristic_rows(!strcmp(target, "gfx950") ? "gfx950" : "gfx942", &n);
  int taken = 0, rm = 0;
  for (size_t i = 0; i < n; ++i) {
    const gemm_heuristic_row *r = &rows[i];
    tk_gemm_problem p;
    tk_gemm_problem_init(&p, (int64_t)r->m, (int64_t)r->n, (int64_t)r->k);
    tk_gemm_config c = {TK_GEMM_AUTO, 0, 0, 0, 0, 0, TK_GEMM_ORDER_AUTO};
    const int e = tk_gemm_plan(&p, &c);
    EXPECT(e == TK_GEMM_OK, "%s row %zu: plan %d (%s)", target, i, e, tk_gemm_config_unsupported(&p, &c));
    if (e != TK_GEMM_OK || c.kernel != r->kernel || c.tile_m != r->tile_m || c.tile_n != r->tile_n ||
        c.k_step != r->k_step)
      continue; /* auto did not take this row as swept (e.g. its split clamped): nothing to hold */
    ++taken;
    rm += r->grid_order == TK_GEMM_GRID_ROW_MAJOR;
    EXPECT(c.grid_order == (r->grid_order == TK_GEMM_GRID_ROW_MAJOR ? TK_GEMM_ORDER_ROW_MAJOR : TK_GEMM_ORDER_L2),
           "%s row %zu: planned grid order %d, the row's is %d", target, i, c.grid_order, r->grid_order);
    EXPECT(tk_gemm__launch_order(&p, &c) == (tk_gemm_grid_order)r->grid_order,
           "%s row %zu: the launch gets grid order %d, the row's is %d", target, i, tk_gemm__launch_order(&p, &c),
           r->grid_order);
    /* an explicit order in the config wins over the row's */
    tk_gemm_config x = {TK_GEMM_AUTO, 0, 0, 0, 0, 0, TK_GEMM_ORDER_L2};
    EXPECT(tk_gemm_plan(&p, &x) == TK_GEMM_OK && tk_gemm__launch_order(&p, &x) == TK_GEMM_GRID_L2,
           "%s row %zu: --grid-order l2 did not reach the launch", target, i);
    x = (tk_gemm_config){TK_GEMM_AUTO, 0, 0, 0, 0, 0, TK_GEMM_ORDER_ROW_MAJOR};
    EXPECT(tk_gemm_plan(&p, &x) == TK_GEMM_OK && tk_gemm__launch_order(&p, &x) == TK_GEMM_GRID_ROW_MAJOR,
           "%s row %zu: --grid-order row-major did not reach the launch", target, i);
    /* a row-major problem stays row-major */
    tk_gemm_problem q = p;
    q.grid_order = TK_GEMM_GRID_ROW_MAJOR;
    x = (tk_gemm_config){TK_GEMM_AUTO, 0, 0, 0, 0, 0, TK_GEMM_ORDER_AUTO};
    EXPECT(tk_gemm_plan(&q, &x) == TK_GEMM_OK && order_of_cfg(x.grid_order) == TK_GEMM_GRID_ROW_MAJOR &&
               tk_gemm__launch_order(&q, &x) == TK_GEMM_GRID_ROW_MAJOR,
           "%s row %zu: a row-major problem lost its order", target, i);
    /* an explicit tile is not the row's config: the problem's order (L2) */
    x = (tk_gemm_config){TK_GEMM_AUTO, r->tile_m, r->tile_n, r->split_k, r->k_step, 0, TK_GEMM_ORDER_AUTO};
    EXPECT(tk_gemm_plan(&p, &x) == TK_GEMM_OK && tk_gemm__launch_order(&p, &x) == TK_GEMM_GRID_L2,
           "%s row %zu: an explicit tile took the row's grid order", target, i);
  }
  EXPECT(taken > 0, "%s: auto took no row as swept", target);
  EXPECT(!strcmp(target, "gfx950") ? rm > 0 : rm == 0, "%s: %d row-major rows taken", target, rm);
  /* a config order that is none of the three: refused, with the reason */
  tk_gemm_problem p;
  tk_gemm_problem_init(&p, 256, 256, 256);
  tk_gemm_config b = {TK_GEMM_8WAVE, 0, 0, 0, 0, 0, 3};
  const int e = tk_gemm_plan(&p, &b);
  const char *why = tk_gemm_config_unsupported(&p, &b);
  EXPECT(e == TK_GEMM_ERR_UNSUPPORTED && why && strstr(why, "grid_order"), "grid_order 3: plan %d (%s)", e,
         why ? why : "no reason");
  printf("heuristic_rows: %s table, %d rows taken as swept (%d row-major)\n", target, taken, rm);
}

int main(void)
{
  tables();
  device();
  if (fails) return 1;
  printf("heuristic_rows: all ok\n");
  return 0;
}
