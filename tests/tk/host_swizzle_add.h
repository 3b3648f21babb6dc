// Shared by host_swizzle.cpp (gfx942) and host_swizzle_gfx950.cpp: checks
// tk_lds_offset_add (shared.h) against tk_lds_offset for every (r, dr, c, dc)
// inside a tile that meets its precondition (r % 16 and dr % 16 without a
// common bit, likewise the 8-byte units of c and dc, dc * eb a multiple of 8),
// and that the precondition is needed (some pair breaking it differs).
static void check_offset_add(int layout, int rows, int cols, int eb) {
  int bad = 0, broken_differs = 0;
  for (int r = 0; r < rows; r++)
    for (int dr = 0; r + dr < rows; dr++)
      for (int c = 0; c < cols; c++)
        for (int dc = 0; c + dc < cols; dc += 8 / eb > 0 ? 8 / eb : 1) {
          if ((dc * eb) % 8) continue;
          const uint32_t w2 = tk_lds_offset(layout, cols, eb, r + dr, c + dc);
          const uint32_t got = tk_lds_offset_add(layout, cols, eb, tk_lds_offset(layout, cols, eb, r, c), dr, dc);
          const int ok = ((r % 16) & (dr % 16)) == 0 && (((c * eb) / 8) & ((dc * eb) / 8)) == 0;
          if (ok && got != w2) bad++;
          if (!ok && got != w2) broken_differs = 1;
        }
  CHECK(bad == 0, "tk_lds_offset_add: %d wrong offsets (layout %d, %dx%d eb%d)", bad, layout, rows, cols, eb);
  if (layout == TK_LDS_SWZ)
    CHECK(broken_differs, "tk_lds_offset_add: the precondition is never needed (layout %d, %dx%d eb%d)?", layout,
          rows, cols, eb);
}
