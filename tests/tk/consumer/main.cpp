// Host side of tk from an installed copy: descriptor validation and grid map.
#include <stdio.h>
#include <tk/tk.h>

int main(void) {
  static uint16_t buf[64 * 64];
  int64_t dims[2] = {64, 64};
  tk_gl g;
  int e = tk_gl_make(&g, buf, 2, 2, dims, NULL);
  if (e != TK_OK || tk_gl_bytes(&g) != 64 * 64 * 2) { printf("tk_gl_make: %s\n", tk_err_str(e)); return 1; }
  uint32_t tm, tn;
  tk_grid_tile(9, 16, 4, 4, 2, TK_NUM_XCDS, &tm, &tn);
  if (tk_grid_check(16, 4, 4) != TK_OK || tm >= 4 || tn >= 4) { printf("grid\n"); return 1; }
  printf("consumer ok: %s, tile %u,%u\n", TK_TARGET_NAME, tm, tn);
  return 0;
}
