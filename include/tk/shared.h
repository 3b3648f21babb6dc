/* tk/shared.h: LDS tiles, a compile-time-checked LDS allocator, and the byte
 * layouts (linear and swizzled) of tiles in LDS.
 *
 * Hardware (CDNA3 ISA guide, "Local Data Share"): 64 KiB per work-group, 32
 * banks of 4 bytes; bank = (byte address / 4) % 32, so one 128-byte window
 * covers every bank once.  A wide LDS access is served in phases; lanes of
 * one phase conflict when they touch the same bank at different addresses.
 * Phase model used here (CK-tile docs "Understanding AMD GPU LDS and Bank
 * Conflicts", rocm.docs.amd.com/projects/composable_kernel, conceptual/
 * ck_tile/hardware/lds_bank_conflicts; ROCm blog "Avoiding LDS Bank
 * Conflicts on AMD GPUs Using CK-Tile Framework"; MI300 measurements of
 * SQ_LDS_BANK_CONFLICT per ds_read/ds_write width published with them):
 *   ds_write_b128: 8 phases of 8 consecutive lanes (8 × 16 B = 128 B)
 *   ds_read_b64:   4 phases of 16 consecutive lanes (16 × 8 B = 128 B)
 *   ds_read_b128:  8 phases: lanes 0-3+20-23, 4-7+16-19, 8-11+28-31,
 *                  12-15+24-27, and the same +32
 * A phase is conflict free iff its lanes cover distinct 4-byte banks.
 *
 * Layouts (tk_lds_offset(layout, cols, elem_bytes, r, c) -> byte offset):
 *  TK_LDS_LINEAR  row-major, row pitch = cols*elem_bytes.  Kept for
 *                 comparison: fragment reads of 16 rows at the same column hit
 *                 the same banks (up to 16-way conflicts with 128-byte rows).
 *  TK_LDS_SWZ     row-major rows, 8-byte units of a row permuted by
 *                 u' = u ^ f(r).  W = max(1, 128/row_bytes) rows share a
 *                 128-byte window, Uw = 16/W units of a row lie in one window;
 *                 q = (r/W) % Uw and f = ((q % (Uw/2)) << 1) | (q / (Uw/2)).
 *                 Designed for:
 *                  - ds_read_b64 fragment reads (lane l: row l%16 or l%32,
 *                    8-byte unit l/16 or l/32): 16 rows of one phase land on
 *                    16 different 8-byte slots of the window;
 *                  - ds_read_b128 fragment reads (lane l: row l%16 or l%32,
 *                    16-byte chunk l/16 or l/32) with the phases above;
 *                  - ds_write_b128 group stores (thread t writes 16-byte chunk
 *                    t % (row_bytes/16) of row t / (row_bytes/16)).
 *                 Since f's low bit equals bit 3 of the row, the two 8-byte
 *                 halves of every 16-byte chunk are swapped in rows with
 *                 (r & 8): a 16-byte writer/reader of such a row exchanges
 *                 its two 8-byte halves (tk_lds_swz_halves_swapped(r)).
 *                 Needs row_bytes a power of two >= 16.
 *                 gfx950 (64 banks): the same on 16-byte chunks over
 *                 256-byte windows, halves never exchanged (tk_lds_swz_f).
 *  TK_LDS_SWZ16   for 16-byte accesses only: whole 16-byte chunks of a row
 *                 permuted by k' = k ^ q, q = (r/W) % Cw, W = max(1,
 *                 128/row_bytes) rows per 128-byte window, Cw = 8/W chunks
 *                 of a row in one.  Conflict free for ds_write_b128 group
 *                 stores and ds_read_b128 reads of 16- and 32-row fragments
 *                 under the phases above (a phase's 8 lanes: 4 rows of one
 *                 parity, or 8 rows, whose q differ); halves are never
 *                 exchanged, so 16-byte readers and writers need no per-lane
 *                 select (TK_LDS_SWZ costs 4 v_cndmask per ds_read_b128 on
 *                 gfx942).  ds_read_b64 reads of it conflict: use TK_LDS_SWZ
 *                 for those.  gfx950: the same as TK_LDS_SWZ (already whole
 *                 16-byte chunks).
 * The host tests (tests/tk/host_swizzle.cpp) check bijection and the phase
 * model for every layout.
 */
#ifndef TK_SHARED_H
#define TK_SHARED_H

#include "target.h"

enum { TK_LDS_LINEAR = 0, TK_LDS_SWZ = 1, TK_LDS_SWZ16 = 2 };

/* gfx942 (32 banks): 8-byte units permuted over 128-byte windows, the two
 * halves of a 16-byte chunk exchanged in rows with (r & 8), so that the
 * 16-lane ds_read_b64 phases are conflict free too.
 * gfx950 (64 banks, target.h): the same construction on 16-byte chunks over
 * 256-byte windows (W = max(1, 256/row_bytes) rows per window, Cw = 16/W
 * chunks of a row in one, q = (r/W) % Cw, chunk' = chunk ^ rotl1(q)); halves
 * never exchanged, so 16-byte readers and writers need no per-lane select.
 * Conflict free under tksim's gfx950 model (docs/tksim-checkers.md) for
 * ds_write_b128 group stores, ds_read_b128 reads of 16- and 32-row fragments
 * and ds_read_b64 reads of 16-row fragments; ds_read_b64 reads of 32-row
 * fragments are 2-way there (tests/tk/host_swizzle_gfx950.cpp). */
#define TK_LDS_SWZ_HALVES (TK_LDS_BANKS == 32) /* the swizzle may exchange 8-byte halves */
TK_HDI uint32_t tk_lds_swz_f(uint32_t row_bytes, uint32_t r) {
#if TK_LDS_BANKS == 64
  uint32_t w = row_bytes >= 256 ? 1 : 256 / row_bytes;
  uint32_t cw = 16 / w, q = (r / w) % cw;
  return cw > 1 ? 2 * (((q % (cw / 2)) << 1) | (q / (cw / 2))) : 0;
#else
  uint32_t w = row_bytes >= 128 ? 1 : 128 / row_bytes;
  uint32_t uw = 16 / w, q = (r / w) % uw;
  return ((q % (uw / 2)) << 1) | (q / (uw / 2));
#endif
}
TK_HDI int tk_lds_swz_halves_swapped(uint32_t r) { return TK_LDS_SWZ_HALVES && (r & 8u) != 0; }
/* Whether a layout may exchange the 8-byte halves of a 16-byte chunk (a
 * compile-time constant for a constant layout). */
#define TK_LDS_HALVES(layout) (TK_LDS_SWZ_HALVES && (layout) == TK_LDS_SWZ)
/* TK_LDS_SWZ16's permutation of row r, in 8-byte units (always even) */
TK_HDI uint32_t tk_lds_swz16_f(uint32_t row_bytes, uint32_t r) {
#if TK_LDS_BANKS == 64
  return tk_lds_swz_f(row_bytes, r);
#else
  uint32_t w = row_bytes >= 128 ? 1 : 128 / row_bytes;
  return ((r / w) % (8 / w)) * 2;
#endif
}
/* a layout's permutation of row r's 8-byte units (0: linear) */
TK_HDI uint32_t tk_lds_swz_units(int layout, uint32_t row_bytes, uint32_t r) {
  return layout == TK_LDS_LINEAR ? 0u : layout == TK_LDS_SWZ16 ? tk_lds_swz16_f(row_bytes, r) : tk_lds_swz_f(row_bytes, r);
}

/* byte offset of element (r, c) of a tile with `cols` columns of elem_bytes */
TK_HDI uint32_t tk_lds_offset(int layout, uint32_t cols, uint32_t elem_bytes, uint32_t r, uint32_t c) {
  uint32_t rb = cols * elem_bytes, byte = c * elem_bytes;
  if (layout == TK_LDS_LINEAR) return r * rb + byte;
  uint32_t u = byte / 8, rest = byte % 8;
  return r * rb + ((u ^ tk_lds_swz_units(layout, rb, r)) * 8) + rest;
}

/* Offset of (r + dr, c + dc) from base = tk_lds_offset(layout, cols, eb, r, c),
 * valid when r % 16 and dr % 16 have no set bit in common, the 8-byte units
 * of c*eb and dc*eb have none either, and dc*eb is a multiple of 8: the
 * swizzle f only reads r % 16 and is linear over XOR (a rotation of a bit
 * slice of r), so f(r ^ dr) = f(r) ^ f(dr).  With dr, dc compile-time this is
 * one XOR and an immediate offset per element instead of the whole swizzle
 * (tk_store_acc_lds: the MFMA C layouts' lane bits of the row are disjoint
 * from the register bits; tests/tk/host_swizzle.cpp checks it). */
TK_HDI uint32_t tk_lds_offset_add(int layout, uint32_t cols, uint32_t elem_bytes, uint32_t base, uint32_t dr,
                                  uint32_t dc) {
  const uint32_t rb = cols * elem_bytes;
  if (layout == TK_LDS_LINEAR) return base + dr * rb + dc * elem_bytes;
  return (base ^ (((dc * elem_bytes / 8) ^ tk_lds_swz_units(layout, rb, dr)) * 8)) + dr * rb;
}

/* TK_ST(name, elem_t, R, C, layout): typedef an LDS tile of R×C elements.
 * R, C multiples of 16 (the MFMA fragment edge); swizzled rows a power of two
 * of at least 16 bytes. */
#define TK_ST(name, elem_t, R, C, layout)                                        \
  typedef struct {                                                               \
    static_assert((R) > 0 && (R) % 16 == 0,                                       \
      "tk: shared tile rows must be a positive multiple of 16 (the fragment size)"); \
    static_assert((C) > 0 && (C) % 16 == 0,                                       \
      "tk: shared tile cols must be a positive multiple of 16 (the fragment size)"); \
    static_assert((layout) == TK_LDS_LINEAR || (layout) == TK_LDS_SWZ || (layout) == TK_LDS_SWZ16, \
      "tk: shared tile layout must be TK_LDS_LINEAR, TK_LDS_SWZ or TK_LDS_SWZ16"); \
    static_assert((layout) == TK_LDS_LINEAR ||                                   \
                  (((C) * sizeof(elem_t)) & ((C) * sizeof(elem_t) - 1)) == 0,    \
      "tk: swizzled shared tiles need a row of a power-of-two number of bytes");  \
    enum { tk_rows = (R), tk_cols = (C), tk_elem_bytes = sizeof(elem_t),          \
           tk_layout = (layout) };                                                \
    elem_t data[(R) * (C)] __attribute__((aligned(16)));                          \
  } name

/* byte offset of (r, c) in a tile type T */
#define tk_st_offset(T, r, c) tk_lds_offset(((int)T::tk_layout), ((int)T::tk_cols), ((int)T::tk_elem_bytes), (r), (c))

/* Static LDS allocator: describe all of a kernel's LDS as one struct type
 * and check it at compile time, then declare it in the kernel:
 *   typedef struct { a_tile a[2]; b_tile b[2]; } smem_t;
 *   TK_LDS_CHECK(smem_t);
 *   __global__ void k(...) { TK_LDS_ALLOC(smem_t, sm); ... sm.a[0] ... } */
#define TK_LDS_CHECK(T)                                                           \
  static_assert(sizeof(T) <= TK_LDS_BYTES_LIMIT,                                  \
    "tk: LDS layout exceeds the target's LDS per work-group (TK_LDS_BYTES: 64 KiB on gfx942, 160 KiB on gfx950)")
#define TK_LDS_ALLOC(T, var) TK_LDS_CHECK(T); TK_SHARED T var

#endif /* TK_SHARED_H */
