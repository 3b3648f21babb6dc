/* tk/loads.h: moving tiles global -> LDS (group loads) and LDS -> registers
 * (ds_read_b64 prefetch with an explicit, unforgettable wait).
 *
 * 1. Group loads, split in two halves so a kernel can overlap the next tile's
 *    global loads with MFMA work:
 *      TK_STAGE(stage_t, smem_tile_t, NT);        staging registers, NT threads
 *      tk_load_issue(stage, gl, rsrc, b, h, r0, c0, tid);   global -> registers
 *      ... MFMAs on the previous tile ...
 *      tk_load_commit(smem_tile, stage, tid, n_after);      wait + ds_write_b128
 *    issue emits every buffer_load_dwordx4 of the batch back to back (no wait
 *    between them: tests/isa checks the disassembly); commit emits ONE
 *    s_waitcnt vmcnt(n_after), n_after = vector-memory ops issued after this
 *    batch that may stay in flight (e.g. the other operand's batch), then the
 *    ds_write_b128s into the tile's (swizzled) layout.  The loads are compiler
 *    intrinsics, so LLVM still tracks them: a too-large n_after costs a
 *    compiler-inserted wait, never a wrong result.
 *    Thread tid (0..NT-1) moves 16-byte chunks tid, tid+NT, ...; chunk j is
 *    row j / (row_bytes/16), bytes 16*(j % (row_bytes/16)) of that row.
 *    For loops: tk_load_at_mat computes a thread's addresses once, then
 *    tk_load_issue_at / tk_load_commit_at issue and commit with no address
 *    arithmetic (column offset in the loads' SGPR offset, another buffer's
 *    distance in the LDS writes' offset field).
 * 2. Direct-to-LDS loads (tk_load_lds_direct): buffer_load_dword ... lds,
 *    4 bytes per lane straight into LDS at M0 + lane*4 (no VGPR staging; the
 *    global address of each lane is permuted so any LDS layout works).  For
 *    comparison with 1 (four times the instructions).  On gfx950,
 *    tk_load_lds_direct_x4 moves 16 bytes per lane (buffer_load_dwordx4 ... lds).
 *    tk_load_lds_dword: one dword per lane from any offset (gathers);
 *    tk_lds_read_u32_issue / _wait read such words back without the
 *    compiler's vmcnt waits for unrelated direct loads.
 * 3. ds_read_b64 prefetch of MFMA operand fragments (8 bytes per lane for every
 *    A/B kind of register.h):
 *      TK_PENDING(pend_t, reg_tile_t);
 *      tk_prefetch_issue(pend, smem_tile, r0, c0);  inline-asm ds_read_b64s
 *      ... other work ...
 *      tk_prefetch_wait(reg_tile, pend, n);         s_waitcnt lgkmcnt(n) + move
 *    The reads are inline asm, invisible to LLVM's wait insertion, so their
 *    results are only reachable through tk_prefetch_wait, whose asm both
 *    waits and is an input/output dependency of every pending register: the
 *    compiler cannot read a pending register before the wait.  n = LDS ops
 *    issued after this batch that may stay pending (0..15); use n > 0 only
 *    when no scalar (SMEM) load is in flight, since those return out of order.
 *    ds_read_b128 variant (TK_PENDING_B128, tk_prefetch_issue_b128,
 *    tk_prefetch_wait_b128): in the MFMA layouts a lane's K fragments kf and
 *    kf+1 are a whole fragment apart in K, so a 16-byte read cannot fill both
 *    with the natural K order.  A product does not depend on the order of K,
 *    as long as A and B use the same one: this variant reads K fragment pair
 *    (2j, 2j+1) of lane group h (= l / S) from the 2*KW contiguous elements
 *    at K column 2j*FK + 2*KW*h, i.e. fragment kf's element i is K column
 *    (kf & ~1)*FK + 2*KW*h + KW*(kf & 1) + i (FK = K per fragment).  Read
 *    both operands of a product with it; half the LDS instructions.
 *    tk_prefetch_at_b128 + tk_prefetch_issue_b128_at: the same reads with
 *    the lane addresses computed once and reused (e.g. for each buffer).
 *
 * Hardware facts (CDNA3 ISA guide: "Vector Memory Buffer Instructions"
 * (MUBUF, LDS bit, range checking), "Data Share Operations" (DS_WRITE_B128,
 * DS_READ_B64), 4.4 "S_WAITCNT"; LLVM AMDGPUUsage: llvm.amdgcn.raw.buffer.*
 * intrinsics, buffer resource): raw buffer accesses beyond num_records return
 * 0 / are dropped, so out-of-tensor rows and column chunks are sent to offset
 * TK_OOB_OFFSET instead of branching; vmcnt and LDS lgkmcnt retire in issue
 * order; the LDS form of buffer_load_dword writes lane l's dword to
 * M0 + inst_offset + 4*l (gfx942: 4 bytes per lane; clang-19 has no
 * __builtin_amdgcn_raw_buffer_load_lds, so the llvm.amdgcn.raw.buffer.load.lds
 * intrinsic is called by name, as global.h does for the other buffer ops).
 * Requirement: the tensor's contiguous row length in bytes (and the column
 * origin c0 * elem_bytes) must be a multiple of 16, so each 16-byte chunk is
 * entirely inside or outside the tensor (checked on the host with
 * tk_load_shape_ok).
 */
#ifndef TK_LOADS_H
#define TK_LOADS_H

#include "global.h"
#include "shared.h"
#include "register.h"
#include "sync.h"

/* byte offset beyond any buffer's num_records (tensors < 4 GiB - 16) */
#define TK_OOB_OFFSET 0xfffffff0u

/* A 2-D window of a tk_gl tensor starting at (b, h, r0, c0): byte offsets of
 * in-range elements, TK_OOB_OFFSET for out-of-range ones. */
typedef struct {
  uint32_t base;    /* byte offset of (r0, c0) from the tensor's pointer */
  uint32_t pitch;   /* bytes between rows */
  int32_t rows;     /* rows left in the tensor from r0 (<= 0: none) */
  int32_t cols;     /* columns left from c0 */
  uint32_t eb;      /* element bytes */
} tk_gview;

TK_HDI tk_gview tk_gview_make(const tk_gl *g, int64_t b, int64_t h, int64_t r0, int64_t c0) {
  tk_gview v;
  int64_t rl = g->dims[2] - r0, cl = g->dims[3] - c0;
  v.base = (uint32_t)(tk_gl_offset(g, b, h, r0, c0) * g->elem_bytes);
  v.pitch = (uint32_t)(g->strides[2] * g->elem_bytes);
  v.rows = (int32_t)(rl < 0 ? 0 : rl > 0x7fffffff ? 0x7fffffff : rl);
  v.cols = (int32_t)(cl < 0 ? 0 : cl > 0x7fffffff ? 0x7fffffff : cl);
  /* an out-of-range batch/head index: the whole window is outside */
  if (b >= g->dims[0] || h >= g->dims[1] || b < 0 || h < 0 || r0 < 0 || c0 < 0) v.rows = 0;
  v.eb = (uint32_t)g->elem_bytes;
  return v;
}
/* byte offset of (r, c) of the window, or TK_OOB_OFFSET (branch-free select) */
TK_HDI uint32_t tk_gview_off(const tk_gview *v, uint32_t r, uint32_t c) {
  uint32_t off = v->base + r * v->pitch + c * v->eb;
  return ((int32_t)r < v->rows && (int32_t)c < v->cols) ? off : TK_OOB_OFFSET;
}
/* Host check of the 16-byte chunk requirement for a tensor and column origin. */
TK_HDI int tk_load_shape_ok(const tk_gl *g, int64_t c0) {
  return (g->dims[3] * g->elem_bytes) % 16 == 0 && (g->strides[2] * g->elem_bytes) % 16 == 0 &&
         (c0 * g->elem_bytes) % 16 == 0 && ((uintptr_t)g->ptr % 16) == 0;
}

/* Matrix-bounded loads: a descriptor whose range is one (b, h) matrix of a
 * tensor (tk_gl_rsrc_mat) checks the rows in hardware.  Rows do not overlap
 * (tk_gl_make: each stride covers the dimensions inside it; tk_gl_mat_ok
 * checks a tk_gl filled by hand), so a row past
 * the matrix's last one starts past num_records and reads 0 -- the loads
 * need no per-lane row select and no 64-bit window arithmetic per call
 * (tk_load_issue_mat, tk_load_issue_t_mat_part).  Columns are not checked:
 * the window's columns must lie inside the matrix.  A load's first row r0
 * is clamped to the matrix's row count, so offsets stay below
 * (rows + TK_MAT_ROWS_PAST) * pitch, which tk_gl_mat_ok keeps below 4 GiB. */
typedef struct {
  uint32_t pitch; /* bytes between rows */
  uint32_t rows;  /* rows of the matrix (dims[2]) */
} tk_mview;
#define TK_MAT_ROWS_PAST 256 /* rows a matrix-bounded load may reach past the matrix */

TK_HDI tk_mview tk_gl_mview(const tk_gl *g) {
  tk_mview v;
  v.pitch = (uint32_t)(g->strides[2] * g->elem_bytes);
  v.rows = (uint32_t)g->dims[2];
  return v;
}
/* First row of a matrix-bounded load: r0, or the row count when r0 is
 * negative or past it (the load then reads 0 everywhere).  64-bit r0, so a
 * caller's 64-bit row is never truncated into range (a 32-bit one widens
 * exactly).  Tested as two 32-bit words (high word 0, low word <= rows):
 * scalar units have no 64-bit ordered compare, and for a widened 32-bit r0
 * clang folds the high-word test into r0 < 0. */
TK_HDI uint32_t tk_mat_row0(tk_mview mv, int64_t r0) {
  return ((uint64_t)r0 >> 32) != 0 || (uint32_t)r0 > mv.rows ? mv.rows : (uint32_t)r0;
}
/* Host check of the row limit alone, for a matrix given as rows and row
 * stride ld (elements of elem_bytes) rather than a tk_gl (the GEMM launches'
 * operands): nonzero when a matrix-bounded load's offsets, up to
 * (rows + TK_MAT_ROWS_PAST) * ld * elem_bytes, stay below 4 GiB. */
TK_HDI int tk_mat_rows_ok(int64_t rows, int64_t ld, int64_t elem_bytes) {
  return (rows + TK_MAT_ROWS_PAST) * ld * elem_bytes <= 0xffffffffll;
}
/* Host check: matrix-bounded loads of g are exact (TK_OK), or its rows
 * overlap (TK_ERR_STRIDE: row pitch below the row length; tk_gl_make never
 * builds such a tensor, a tk_gl filled by hand might) or its matrices come
 * within TK_MAT_ROWS_PAST rows of 4 GiB (TK_ERR_TOO_LARGE, tk_mat_rows_ok). */
TK_HDI int tk_gl_mat_ok(const tk_gl *g) {
  if (!g) return TK_ERR_NULL_PTR;
  if (g->dims[2] > 1 && g->strides[2] < g->dims[3]) return TK_ERR_STRIDE;
  return tk_mat_rows_ok(g->dims[2], g->strides[2], g->elem_bytes) ? TK_OK : TK_ERR_TOO_LARGE;
}
/* V# over matrix (b, h): from element (b, h, 0, 0) to the end of its last
 * row; 0 records (every access reads 0) when (b, h) is outside the tensor or
 * tk_gl_mat_ok fails. */
TK_HDI tk_rsrc_words tk_gl_rsrc_mat_words(const tk_gl *g, int64_t b, int64_t h) {
  if (b < 0 || h < 0 || b >= g->dims[0] || h >= g->dims[1] || tk_gl_mat_ok(g) != TK_OK)
    return tk_rsrc_make_words(g->ptr, 0u);
  const char *base = (const char *)g->ptr + tk_gl_offset(g, b, h, 0, 0) * g->elem_bytes;
  return tk_rsrc_make_words(base, (uint32_t)((g->dims[2] - 1) * g->strides[2] * g->elem_bytes +
                                             g->dims[3] * g->elem_bytes));
}
#if TK_HIP
TK_DI tk_rsrc tk_gl_rsrc_mat(const tk_gl *g, int64_t b, int64_t h) {
  const tk_rsrc_words w = tk_gl_rsrc_mat_words(g, b, h);
  tk_rsrc r = {(int32_t)w.w[0], (int32_t)w.w[1], (int32_t)w.w[2], (int32_t)w.w[3]};
  r.x = __builtin_amdgcn_readfirstlane(r.x); /* the descriptor lives in SGPRs */
  r.y = __builtin_amdgcn_readfirstlane(r.y);
  r.z = __builtin_amdgcn_readfirstlane(r.z);
  r.w = __builtin_amdgcn_readfirstlane(r.w);
  return r;
}
#endif

/* Unchecked matrix-bounded descriptors: tk_gl_rsrc_mat's range without its
 * device checks, for a tensor the host passed through tk_gl_mat_ok (or a
 * matrix it validated the same way) and a (b, h) known inside, e.g. from the
 * grid.  Branch-free, so the kernel arguments they read issue as one batch of
 * scalar loads (tk_gl_rsrc_mat's checks put them in series behind branches:
 * ~0.9 us of every attention workgroup, modeled), and 32-bit: a matrix
 * tk_gl_mat_ok accepts ends below 4 GiB, so the wrapped products are exact.
 * Outside that contract the range is wrong (use tk_gl_rsrc_mat). */
TK_HDI uint32_t tk_mat_bytes(int64_t rows, int64_t cols, int64_t ld, uint32_t elem_bytes) {
  return ((uint32_t)rows - 1u) * (uint32_t)ld * elem_bytes + (uint32_t)cols * elem_bytes;
}
/* The heads of one batch b of a tensor: matrix (b, h)'s descriptor is a base
 * and a stride away (5 scalars, where a loop over heads would otherwise keep
 * a copy of the tk_gl: 20 SGPRs). */
typedef struct {
  const char *base;   /* matrix (b, 0) */
  int64_t head_bytes; /* bytes between heads (strides[1]) */
  uint32_t bytes;     /* one matrix, to its last row's end */
} tk_mat_heads;
TK_HDI tk_mat_heads tk_gl_mat_heads(const tk_gl *g, int64_t b) {
  tk_mat_heads m;
  m.base = (const char *)g->ptr + b * g->strides[0] * g->elem_bytes;
  m.head_bytes = g->strides[1] * g->elem_bytes;
  m.bytes = tk_mat_bytes(g->dims[2], g->dims[3], g->strides[2], (uint32_t)g->elem_bytes);
  return m;
}
#if TK_HIP
TK_DI tk_rsrc tk_mat_heads_rsrc(tk_mat_heads m, int64_t h) {
  return tk_rsrc_make(m.base + h * m.head_bytes, m.bytes);
}
TK_DI tk_rsrc tk_gl_rsrc_mat_unchecked(const tk_gl *g, int64_t b, int64_t h) {
  return tk_mat_heads_rsrc(tk_gl_mat_heads(g, b), h);
}
/* a rows x cols matrix at ptr, row stride ld elements of elem_bytes */
TK_DI tk_rsrc tk_mat_rsrc_unchecked(const void *ptr, int64_t rows, int64_t cols, int64_t ld, uint32_t elem_bytes) {
  return tk_rsrc_make(ptr, tk_mat_bytes(rows, cols, ld, elem_bytes));
}
#endif

/* ---- 1. group loads ---------------------------------------------------------- */

/* Staging registers for loading LDS tile type ST with NT threads. */
#define TK_STAGE(name, ST, NT)                                                      \
  typedef struct {                                                                  \
    static_assert(((((int)ST::tk_rows) * ((int)ST::tk_cols) * ((int)ST::tk_elem_bytes)) / 16) % (NT) == 0, \
      "tk: a group load needs the tile's 16-byte chunk count to be a multiple of the thread count"); \
    enum { tk_nt = (NT), tk_rows = ((int)ST::tk_rows), tk_cols = ((int)ST::tk_cols),              \
           tk_elem_bytes = ((int)ST::tk_elem_bytes),                                        \
           tk_cpr = ((int)ST::tk_cols) * ((int)ST::tk_elem_bytes) / 16, /* chunks per row */       \
           tk_epc = 16 / ((int)ST::tk_elem_bytes),               /* elements per chunk */   \
           tk_per = ((int)ST::tk_rows) * ((int)ST::tk_cols) * ((int)ST::tk_elem_bytes) / 16 / (NT) };     \
    tk_u32x4 v[((int)ST::tk_rows) * ((int)ST::tk_cols) * ((int)ST::tk_elem_bytes) / 16 / (NT)];            \
  } name

/* Number of buffer loads one thread issues for a stage type / object: what a
 * later batch adds to the n_after of an earlier batch's commit. */
#define TK_STAGE_NLOADS(S) ((int)(sizeof((S).v) / sizeof((S).v[0])))

#if TK_HIP
/* global -> registers: all of this thread's buffer_load_dwordx4, no wait.
 * gl: const tk_gl *, rsrc: tk_gl_rsrc(gl) (make it once per kernel), (b, h,
 * r0, c0): element coordinates of the tile's top-left corner. */
#define tk_load_issue(S, gl, rsrc, b, h, r0, c0, tid)                              \
  do {                                                                             \
    typedef TK_TYPEOF(S) _S;                                                       \
    const tk_gview _gv = tk_gview_make((gl), (b), (h), (r0), (c0));                \
    _Pragma("unroll") for (int _i = 0; _i < ((int)_S::tk_per); _i++) {                    \
      const uint32_t _j = (uint32_t)(tid) + (uint32_t)_i * ((int)_S::tk_nt);              \
      (S).v[_i] = tk_buffer_load_b128((rsrc),                                      \
          tk_gview_off(&_gv, _j / ((int)_S::tk_cpr), (_j % ((int)_S::tk_cpr)) * ((int)_S::tk_epc)));    \
    }                                                                              \
  } while (0)

/* registers -> LDS tile: one s_waitcnt vmcnt(n_after), then ds_write_b128s.
 * Swizzled layouts keep 8-byte units whole: a chunk lands in one aligned
 * 16-byte slot with its halves exchanged when the layout says so. */
#define tk_load_commit(sm, S, tid, n_after)                                        \
  do {                                                                             \
    tk_load_commit_prep(sm, S, tid, n_after);                                      \
    tk_load_commit_prepped(sm, S, tid);                                            \
  } while (0)

/* tk_load_commit in two steps, so the register work can run before the LDS
 * tile is free (e.g. before the barrier that frees it):
 * prep: the s_waitcnt vmcnt(n_after), then the stage's chunks put in sm's
 * order in place (halves exchanged where the swizzle says; nothing for linear
 * layouts or gfx950's swizzle), no LDS access;
 * prepped: the ds_write_b128s of a prepped stage, nothing else. */
#define tk_load_commit_prep(sm, S, tid, n_after)                                   \
  do {                                                                             \
    typedef TK_TYPEOF(S) _S;                                                       \
    typedef TK_TYPEOF(sm) _T;                                                      \
    static_assert(((int)_S::tk_rows) == ((int)_T::tk_rows) && ((int)_S::tk_cols) == ((int)_T::tk_cols) &&      \
                  ((int)_S::tk_elem_bytes) == ((int)_T::tk_elem_bytes),                          \
                  "tk: stage and LDS tile have different shapes");                 \
    TK_WAIT_VMCNT(n_after);                                                        \
    _Pragma("unroll") for (int _i = 0; _i < ((int)_S::tk_per); _i++) {                    \
      asm volatile("" : "+v"((S).v[_i])); /* no use of the loads above the wait */ \
      if (TK_LDS_HALVES((int)_T::tk_layout) && (tk__load_slot(_T, _S, tid, _i) & 8u)) (S).v[_i] = (S).v[_i].zwxy; \
      asm volatile("" : "+v"((S).v[_i])); /* the exchange happens here, not where it is written */ \
    }                                                                              \
  } while (0)
#define tk_load_commit_prepped(sm, S, tid)                                         \
  do {                                                                             \
    typedef TK_TYPEOF(S) _S;                                                       \
    typedef TK_TYPEOF(sm) _T;                                                      \
    _Pragma("unroll") for (int _i = 0; _i < ((int)_S::tk_per); _i++)                      \
      *(tk_u32x4 *)((char *)(sm).data + (tk__load_slot(_T, _S, tid, _i) & ~15u)) = (S).v[_i]; \
  } while (0)
/* LDS byte offset of chunk _i of thread tid, LDS tile type _T, stage type _S
 * (bit 3 set: the chunk's halves are exchanged) */
#define tk__load_slot(_T, _S, tid, _i)                                             \
  tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), ((int)_T::tk_elem_bytes), \
                ((uint32_t)(tid) + (uint32_t)(_i) * ((int)_S::tk_nt)) / ((int)_S::tk_cpr), \
                (((uint32_t)(tid) + (uint32_t)(_i) * ((int)_S::tk_nt)) % ((int)_S::tk_cpr)) * ((int)_S::tk_epc))

/* Both halves at once (no overlap): issue, wait for this batch, write LDS. */
#define tk_load(sm, S, gl, rsrc, b, h, r0, c0, tid)                                \
  do {                                                                             \
    tk_load_issue(S, gl, rsrc, b, h, r0, c0, tid);                                 \
    tk_load_commit(sm, S, tid, 0);                                                 \
  } while (0)

/* tk_load_issue through a matrix descriptor (mv = tk_gl_mview(&g), rsrc =
 * tk_gl_rsrc_mat(&g, b, h)): the window at (r0, c0) of that matrix; rows past
 * it read 0 (hardware range check), columns must be inside.  Same staging and
 * commit as tk_load_issue. */
#define tk_load_issue_mat(S, mv, rsrc, r0, c0, tid)                                \
  do {                                                                             \
    typedef TK_TYPEOF(S) _S;                                                       \
    const uint32_t _r0 = tk_mat_row0(mv, r0);                                      \
    _Pragma("unroll") for (int _i = 0; _i < ((int)_S::tk_per); _i++) {            \
      const uint32_t _j = (uint32_t)(tid) + (uint32_t)_i * ((int)_S::tk_nt);       \
      (S).v[_i] = tk_buffer_load_b128((rsrc), (_r0 + _j / ((int)_S::tk_cpr)) * (mv).pitch + \
          ((uint32_t)(c0) + (_j % ((int)_S::tk_cpr)) * ((int)_S::tk_epc)) * ((int)_S::tk_elem_bytes)); \
    }                                                                              \
  } while (0)

/* Transposing group loads, for an operand stored K-major in global memory
 * (e.g. B as K x N row-major) that the MFMA fragments want K-contiguous:
 * LDS tile ST is R x C = N x K (16-bit elements); the global window at
 * (b, h, r0, c0) is its transpose, C rows (K) x R columns (N).  The staging
 * registers are an ordinary TK_STAGE(S, ST, NT) (same register count), so one
 * stage variable can serve both directions.  A unit is two 16-byte chunks of
 * the same 8 columns in rows 2p and 2p+1; thread tid moves units tid,
 * tid+NT, ...; unit j has p = j % (C/2) (consecutive lanes take consecutive
 * row pairs: their LDS writes fill one LDS row, conflict free) and column
 * chunk j / (C/2).  Commit: one s_waitcnt vmcnt(n_after), then 8
 * ds_write_b32 per unit, each the pair (row 2p, row 2p+1) of one column,
 * i.e. 2 K-consecutive elements of one LDS row; chunks that share a 32-lane
 * write phase take their 8 LDS rows in different orders, so a phase is bank
 * conflict free (32-bit accesses served per half-wave, docs/hardware.md).  Out-of-window chunks read 0
 * (buffer range check), so rows beyond K are zero. */
#define TK__STAGE_T_CHECK(_S)                                                       \
  static_assert(((int)_S::tk_elem_bytes) == 2 && ((int)_S::tk_rows) % 8 == 0 &&      \
                ((int)_S::tk_cols) % 2 == 0 && ((int)_S::tk_per) % 2 == 0,            \
    "tk: transposing loads need 16-bit elements, rows % 8 == 0, cols even and an even number of chunks per thread")

/* global (K x N window at (b, h, r0 = first K row, c0 = first N column)) ->
 * registers of a TK_STAGE for the N x K tile: 2 buffer_load_dwordx4 per
 * unit, no wait */
#define tk_load_issue_t(S, gl, rsrc, b, h, r0, c0, tid)                            \
  tk_load_issue_t_part(S, gl, rsrc, b, h, r0, c0, tid, 0, TK_STAGE_T_UNITS(S))
/* Units u0 .. u0+nu-1 of tk_load_issue_t (2 loads each): a unit's loads may go
 * out as soon as that unit is committed (tk_load_commit_t_rows), before the
 * rest of the stage is. */
#define tk_load_issue_t_part(S, gl, rsrc, b, h, r0, c0, tid, u0, nu)              \
  do {                                                                             \
    typedef TK_TYPEOF(S) _S;                                                       \
    TK__STAGE_T_CHECK(_S);                                                         \
    const tk_gview _gv = tk_gview_make((gl), (b), (h), (r0), (c0));                \
    _Pragma("unroll") for (int _i = (u0); _i < (u0) + (nu) && _i < ((int)_S::tk_per) / 2; _i++) { \
      const uint32_t _j = (uint32_t)(tid) + (uint32_t)_i * ((int)_S::tk_nt);       \
      const uint32_t _p = _j % (((int)_S::tk_cols) / 2), _n = (_j / (((int)_S::tk_cols) / 2)) * 8u; \
      (S).v[2 * _i] = tk_buffer_load_b128((rsrc), tk_gview_off(&_gv, 2u * _p, _n)); \
      (S).v[2 * _i + 1] = tk_buffer_load_b128((rsrc), tk_gview_off(&_gv, 2u * _p + 1u, _n)); \
    }                                                                              \
  } while (0)

/* Units u0 .. u0+nu-1 of a transposing load through a matrix descriptor
 * (as tk_load_issue_mat: the window's K rows from r0 may run past the
 * matrix and read 0; its N columns c0 .. c0 + tile rows must be inside). */
#define tk_load_issue_t_mat_part(S, mv, rsrc, r0, c0, tid, u0, nu)                 \
  do {                                                                             \
    typedef TK_TYPEOF(S) _S;                                                       \
    TK__STAGE_T_CHECK(_S);                                                         \
    const uint32_t _r0 = tk_mat_row0(mv, r0);                                      \
    _Pragma("unroll") for (int _i = (u0); _i < (u0) + (nu) && _i < ((int)_S::tk_per) / 2; _i++) { \
      const uint32_t _j = (uint32_t)(tid) + (uint32_t)_i * ((int)_S::tk_nt);       \
      const uint32_t _p = _j % (((int)_S::tk_cols) / 2), _n = (_j / (((int)_S::tk_cols) / 2)) * 8u; \
      const uint32_t _o = (_r0 + 2u * _p) * (mv).pitch + ((uint32_t)(c0) + _n) * 2u; \
      (S).v[2 * _i] = tk_buffer_load_b128((rsrc), _o);                             \
      (S).v[2 * _i + 1] = tk_buffer_load_b128((rsrc), _o + (mv).pitch);            \
    }                                                                              \
  } while (0)
#define tk_load_issue_t_mat(S, mv, rsrc, r0, c0, tid)                              \
  tk_load_issue_t_mat_part(S, mv, rsrc, r0, c0, tid, 0, TK_STAGE_T_UNITS(S))

/* Group loads with the per-lane addresses held across a loop (gfx950's 8wave
 * GEMM: there its memory cluster sets the ping-pong step, and re-deriving
 * every address from the thread id in each cluster was most of it):
 *   tk_load_at la;  tk_load_at_mat(la, S, sm, mv, r0, tid);   (once)
 *   tk_load_issue_at(S, rsrc, la, soff);      buffer_load_dwordx4s, no VALU
 *   tk_load_commit_at(S, la, OFF, n_after);   wait + ds_write_b128s
 * at: chunk i's row offset in the matrix (rows from r0, clamped as
 * tk_load_issue_mat: rows past the matrix read 0) and its LDS address in
 * tile sm.  issue_at: each load's offset is that register (voffset, range
 * checked) plus soff, a wave-uniform byte offset (the columns: c0 * element
 * bytes) in the instruction's SGPR offset, which the hardware does not range
 * check (CDNA3 ISA guide, "Vector Memory Buffer Instructions": soffset is
 * outside the bounds check; tksim likewise): the caller keeps soff + the
 * tile's row bytes inside the matrix's rows (e.g. clamps loads beyond the
 * last K step it uses).  commit_at: the writes at those LDS addresses plus
 * OFF bytes (a constant: the same tile of another buffer), which LLVM puts
 * in the offset field.  Needs a layout that keeps 16-byte chunks whole. */
#define TK_LOAD_AT_MAX 8
typedef struct {
  uint32_t tk_goff_[TK_LOAD_AT_MAX]; /* chunk i: byte offset of its row and column in the matrix */
  uint32_t tk_lds_[TK_LOAD_AT_MAX];  /* chunk i: its LDS byte address */
} tk_load_at;
#define tk_load_at_mat(L, S, sm, mv, r0, tid)                                      \
  do {                                                                             \
    typedef TK_TYPEOF(S) _S;                                                       \
    typedef TK_TYPEOF(sm) _T;                                                      \
    static_assert(((int)_S::tk_rows) == ((int)_T::tk_rows) && ((int)_S::tk_cols) == ((int)_T::tk_cols) && \
                  ((int)_S::tk_elem_bytes) == ((int)_T::tk_elem_bytes), "tk: stage and LDS tile have different shapes"); \
    static_assert(((int)_S::tk_per) <= TK_LOAD_AT_MAX, "tk: tk_load_at holds up to 8 chunks per thread"); \
    static_assert(!TK_LDS_HALVES((int)_T::tk_layout),                              \
                  "tk: tk_load_at needs a layout that keeps 16-byte chunks whole (linear, TK_LDS_SWZ16, gfx950's swizzle)"); \
    const uint32_t _r0 = tk_mat_row0(mv, r0);                                      \
    _Pragma("unroll") for (int _i = 0; _i < ((int)_S::tk_per); _i++) {            \
      const uint32_t _j = (uint32_t)(tid) + (uint32_t)_i * ((int)_S::tk_nt);       \
      (L).tk_goff_[_i] = (_r0 + _j / ((int)_S::tk_cpr)) * (mv).pitch + (_j % ((int)_S::tk_cpr)) * 16u; \
      (L).tk_lds_[_i] = tk_lds_addr((sm).data) + (tk__load_slot(_T, _S, tid, _i) & ~15u); \
    }                                                                              \
  } while (0)
#define tk_load_issue_at(S, rsrc, L, soff)                                         \
  do {                                                                             \
    typedef TK_TYPEOF(S) _S;                                                       \
    _Pragma("unroll") for (int _i = 0; _i < ((int)_S::tk_per); _i++)              \
      (S).v[_i] = __builtin_bit_cast(tk_u32x4, tk_llvm_raw_buffer_load_i32x4((rsrc), (int32_t)(L).tk_goff_[_i], \
                                                                               (int32_t)(soff), 0)); \
  } while (0)
#define tk_load_commit_at(S, L, OFF, n_after)                                      \
  do {                                                                             \
    typedef TK_TYPEOF(S) _S;                                                       \
    TK_WAIT_VMCNT(n_after);                                                        \
    _Pragma("unroll") for (int _i = 0; _i < ((int)_S::tk_per); _i++) {            \
      asm volatile("" : "+v"((S).v[_i])); /* no use of the loads above the wait */ \
      *(__attribute__((address_space(3))) tk_u32x4 *)(uintptr_t)((L).tk_lds_[_i] + (uint32_t)(OFF)) = (S).v[_i]; \
    }                                                                              \
  } while (0)

/* the 16-bit halves h (0 low, 1 high) of a and b as one dword, a's in the low
 * half: one v_perm_b32 (CDNA3 ISA guide VOP3 V_PERM_B32: byte selectors 0-3
 * pick the second source's bytes, 4-7 the first's) instead of two ops */
#if TK_DEVICE_PASS
#define TK__PACK_HALVES(a, b, h) __builtin_amdgcn_perm((b), (a), (h) ? 0x07060302u : 0x05040100u)
#else
#define TK__PACK_HALVES(a, b, h) \
  ((h) ? (((a) >> 16) | ((b) & 0xffff0000u)) : (((a) & 0xffffu) | ((b) << 16)))
#endif
/* registers -> LDS tile (N x K), transposed: one wait, 8 ds_write_b32 per unit */
#define tk_load_commit_t(sm, S, tid, n_after)                                      \
  do {                                                                             \
    TK_WAIT_VMCNT(n_after);                                                        \
    tk_load_commit_t_part(sm, S, tid, 0, TK_STAGE_T_UNITS(S));                     \
  } while (0)
/* Units per thread of a transposing stage (TK_STAGE_NLOADS(S) / 2). */
#define TK_STAGE_T_UNITS(S) (TK_STAGE_NLOADS(S) / 2)
/* Units u0 .. u0+nu-1 of this thread's transposing commit, without a wait:
 * the caller has waited for the stage's loads (TK_WAIT_VMCNT).  Spreading a
 * commit over several places lets its VALU work fill the issue slots between
 * MFMAs; all parts together write what tk_load_commit_t writes. */
#define tk_load_commit_t_part(sm, S, tid, u0, nu)                                  \
  do {                                                                             \
    _Pragma("unroll") for (int _u = (u0); _u < (u0) + (nu) && _u < TK_STAGE_T_UNITS(S); _u++) \
      tk_load_commit_t_rows(sm, S, tid, _u, 0, 8);                                 \
  } while (0)
/* The finest grain: writes e0 .. e0+ne-1 (of 8: one ds_write_b32 each) of unit
 * u of this thread's transposing commit, without a wait, so a commit can go
 * one or two writes per MFMA; all writes of all units together write what
 * tk_load_commit_t writes (in any order).  Write e of a unit stores the pair
 * of rows (2p, 2p+1) of column _n + (e ^ _sw), see below. */
#define tk_load_commit_t_rows(sm, S, tid, u, e0, ne)                               \
  do {                                                                             \
    typedef TK_TYPEOF(S) _S;                                                       \
    typedef TK_TYPEOF(sm) _T;                                                      \
    static_assert(((int)_S::tk_rows) == ((int)_T::tk_rows) && ((int)_S::tk_cols) == ((int)_T::tk_cols) && \
                  ((int)_T::tk_elem_bytes) == 2, "tk: stage and LDS tile have different shapes"); \
    TK__STAGE_T_CHECK(_S);                                                         \
    const int _i = (u);                                                            \
    if (_i < ((int)_S::tk_per) / 2) {                                              \
      const uint32_t _j = (uint32_t)(tid) + (uint32_t)_i * ((int)_S::tk_nt);       \
      const uint32_t _p = _j % (((int)_S::tk_cols) / 2), _n = (_j / (((int)_S::tk_cols) / 2)) * 8u; \
      /* no use of the loads above the wait; the stage registers themselves are \
       * pinned, so calls for parts of one unit need no copies of them */       \
      asm volatile("" : "+v"((S).v[2 * _i]), "+v"((S).v[2 * _i + 1]));           \
      const tk_u32x4 _x0 = (S).v[2 * _i], _x1 = (S).v[2 * _i + 1];                 \
      const uint32_t _w0[4] = {_x0.x, _x0.y, _x0.z, _x0.w}, _w1[4] = {_x1.x, _x1.y, _x1.z, _x1.w}; \
      /* element e of row 2p in the low half, of row 2p+1 in the high half */      \
      uint32_t _v[8];                                                              \
      _Pragma("unroll") for (int _e = 0; _e < 8; _e++)                             \
        _v[_e] = TK__PACK_HALVES(_w0[_e / 2], _w1[_e / 2], _e & 1);                \
      /* lanes of one 32-lane write phase cover _g column chunks whose rows start \
       * 8 rows apart, i.e. on the same banks: each chunk writes its 8 rows in   \
       * the order e ^ (chunk % _g), so the phase's rows start in _g different   \
       * bank windows (a swap network of selects, no dynamic indexing; the       \
       * values a call does not write are dead code) */                          \
      enum { _g = ((int)_S::tk_cols) < 64 ? 64 / ((int)_S::tk_cols) : 1 };         \
      const uint32_t _sw = (_j / (((int)_S::tk_cols) / 2)) % (uint32_t)_g;         \
      _Pragma("unroll") for (int _bit = 1; _bit < _g && _bit < 8; _bit <<= 1)      \
        _Pragma("unroll") for (int _e = 0; _e < 8; _e++)                           \
          if (!(_e & _bit)) {                                                      \
            const uint32_t _a = _v[_e], _b = _v[_e | _bit];                        \
            _v[_e] = (_sw & (uint32_t)_bit) ? _b : _a;                             \
            _v[_e | _bit] = (_sw & (uint32_t)_bit) ? _a : _b;                      \
          }                                                                        \
      _Pragma("unroll") for (int _e = (e0); _e < (e0) + (ne) && _e < 8; _e++) {    \
        *(uint32_t *)((char *)(sm).data + tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), 2, \
                                                      _n + ((uint32_t)_e ^ _sw), 2u * _p)) = _v[_e]; \
      }                                                                            \
    }                                                                              \
  } while (0)

/* ---- 2. direct-to-LDS loads ------------------------------------------------------ */

TK_DEV void tk_llvm_raw_buffer_load_lds(tk_rsrc rsrc, __attribute__((address_space(3))) void *lds, int32_t size,
                                 int32_t voffset, int32_t soffset, int32_t offset, int32_t aux)
    __asm("llvm.amdgcn.raw.buffer.load.lds");

/* One direct-to-LDS dword per lane, for gathers no tile type describes (e.g.
 * one word per row of a strided tensor): lane l's 4 bytes at byte offset off
 * of the buffer (TK_OOB_OFFSET: 0) land at LDS address lds + 4*l; lds must
 * be wave-uniform (it goes to M0).  Counted by vmcnt like any load; the
 * caller waits and barriers before reading. */
#define tk_load_lds_dword(lds, rsrc, off)                                          \
  tk_llvm_raw_buffer_load_lds((rsrc), (__attribute__((address_space(3))) void *)(lds), 4, (int32_t)(off), 0, 0, 0)

/* Reading words that direct-to-LDS loads wrote: LLVM's wait insertion
 * cannot tell which LDS a buffer_load ... lds writes, so before any plain
 * LDS read it waits (vmcnt) for the newest such load, even one issued a
 * moment ago for another buffer (the 8wave MX kernel: a global-memory
 * latency per K step).  These reads are inline asm, invisible to it:
 * tk_lds_read_u32_issue(v, p) issues ds_read_b32 of the dword at LDS
 * pointer p into v; tk_lds_read_u32_wait(v) (after every issue of the
 * batch) waits lgkmcnt(0) and makes v usable.  The caller orders the reads
 * after the loads that filled the words (vmcnt wait + barrier) itself. */
#define tk_lds_read_u32_issue(v, p)                                                \
  asm volatile("ds_read_b32 %0, %1" : "=v"(v) : "v"(tk_lds_addr(p)) : "memory")
#define tk_lds_read_u32_wait(v)                                                    \
  do {                                                                             \
    asm volatile("s_waitcnt lgkmcnt(0)" ::: "memory");                             \
    asm volatile("" : "+v"(v));                                                    \
  } while (0)

/* Load LDS tile sm from the tensor window with buffer_load_dword ... lds.
 * Each wave writes 256 contiguous LDS bytes per instruction (lane l: dword l);
 * lane l loads the global dword whose element belongs at that LDS position
 * (inverse of the layout), so swizzled layouts work too.  NT threads (whole
 * waves), tid = 0..NT-1.  The caller waits (TK_WAIT_VMCNT) and barriers
 * before reading sm. */
#define tk_load_lds_direct(sm, NT, gl, rsrc, b, h, r0, c0, tid)                    \
  do {                                                                             \
    typedef TK_TYPEOF(sm) _T;                                                      \
    enum { _bytes = ((int)_T::tk_rows) * ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes),                 \
           _rb = ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes) };                                \
    static_assert(_bytes % ((NT) * 4) == 0 && (NT) % 64 == 0,                      \
                  "tk: direct loads need whole waves and a tile of a multiple of NT*4 bytes"); \
    const tk_gview _gv = tk_gview_make((gl), (b), (h), (r0), (c0));                \
    const uint32_t _wave0 = (uint32_t)__builtin_amdgcn_readfirstlane((int)((uint32_t)(tid) / 64u)) * 256u;                        \
    _Pragma("unroll") for (int _i = 0; _i < _bytes / ((NT) * 4); _i++) {           \
      const uint32_t _wbase = _wave0 + (uint32_t)_i * (NT) * 4u; /* wave-uniform */ \
      const uint32_t _p = _wbase + ((uint32_t)(tid) % 64u) * 4u;                   \
      const uint32_t _r = _p / _rb;                                                \
      const uint32_t _u = (_p % _rb) / 8u;                                         \
      const uint32_t _uu = _u ^ tk_lds_swz_units(((int)_T::tk_layout), _rb, _r);    \
      const uint32_t _byte = _uu * 8u + _p % 8u;                                   \
      const uint32_t _go = tk_gview_off(&_gv, _r, _byte / ((int)_T::tk_elem_bytes));      \
      tk_llvm_raw_buffer_load_lds((rsrc),                                          \
          (__attribute__((address_space(3))) void *)((char *)(sm).data + _wbase),  \
          4, (int32_t)(_go == TK_OOB_OFFSET ? _go : _go + _byte % ((int)_T::tk_elem_bytes)), 0, 0, 0); \
    }                                                                              \
  } while (0)

/* The same with 16 bytes per lane (gfx950's buffer_load_dwordx4 ... lds:
 * lane l's 16 bytes land at M0 + 16*l, CDNA4 ISA guide; LLVM 22 accepts size
 * 16 in llvm.amdgcn.raw.buffer.load.lds on gfx950 only): a quarter of the
 * instructions of tk_load_lds_direct.  Each lane moves one whole 16-byte chunk,
 * so the layout must keep chunks whole: linear, or gfx950's swizzle (which
 * permutes 16-byte chunks and never exchanges their halves, shared.h). */
#define tk_load_lds_direct_x4(sm, NT, gl, rsrc, b, h, r0, c0, tid)                 \
  do {                                                                             \
    const tk_gview _gv = tk_gview_make((gl), (b), (h), (r0), (c0));                \
    TK__LDS_DIRECT_X4(tk_load_lds_direct_x4, sm, NT, rsrc, tid,                    \
                      tk_gview_off(&_gv, _r, _byte / ((int)_T::tk_elem_bytes)));   \
  } while (0)

/* tk_load_lds_direct_x4 through a matrix descriptor (mv = tk_gl_mview(&g), rsrc =
 * tk_gl_rsrc_mat(&g, b, h); the same contract as tk_load_issue_mat): the window at
 * (r0, c0) of that matrix, rows past it read 0 in hardware, columns must be inside.
 * No per-lane row select: a lane's offset is its chunk's (constant) place plus the
 * wave-uniform r0 * pitch, so a kernel that loads many tiles keeps the lane part in
 * one register and pays one add per instruction. */
#define tk_load_lds_direct_x4_mat(sm, NT, mv, rsrc, r0, c0, tid)                   \
  do {                                                                             \
    typedef TK_TYPEOF(sm) _Tm;                                                     \
    const uint32_t _roff = tk_mat_row0(mv, r0) * (mv).pitch + (uint32_t)(c0) * ((int)_Tm::tk_elem_bytes); \
    TK__LDS_DIRECT_X4(tk_load_lds_direct_x4_mat, sm, NT, rsrc, tid, _roff + _r * (mv).pitch + _byte); \
  } while (0)

/* The loop both share (written once): wave w's instruction i fills the 1 KiB
 * of LDS at w*1024 + i*NT*16 of tile sm, lane l its 16-byte chunk; GOFF, the
 * caller's expression for the chunk's global byte offset, sees the chunk's
 * LDS row _r and the byte _byte of that row whose data belongs there (the
 * layout's swizzle inverted), and _T, sm's type.  NAME: the public macro,
 * for the messages. */
#define TK__LDS_DIRECT_X4(NAME, sm, NT, rsrc, tid, GOFF)                           \
  do {                                                                             \
    typedef TK_TYPEOF(sm) _T;                                                      \
    enum { _bytes = ((int)_T::tk_rows) * ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes), \
           _rb = ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes) };                  \
    static_assert(TK_HAS_GLOBAL_LOAD_LDS_X4, "tk: " #NAME                          \
                  " needs 16-byte direct LDS loads (gfx950); this pass targets a device without them (gfx942: use tk_load_lds_direct)"); \
    static_assert(!TK_LDS_HALVES((int)_T::tk_layout),                               \
                  "tk: 16-byte direct loads need a layout that keeps 16-byte chunks whole"); \
    static_assert(_bytes % ((NT) * 16) == 0 && (NT) % 64 == 0,                     \
                  "tk: 16-byte direct loads need whole waves and a tile of a multiple of NT*16 bytes"); \
    const uint32_t _wave0 = (uint32_t)__builtin_amdgcn_readfirstlane((int)((uint32_t)(tid) / 64u)) * 1024u; \
    _Pragma("unroll") for (int _i = 0; _i < _bytes / ((NT) * 16); _i++) {          \
      const uint32_t _wbase = _wave0 + (uint32_t)_i * (NT) * 16u; /* wave-uniform */ \
      const uint32_t _p = _wbase + ((uint32_t)(tid) % 64u) * 16u;                  \
      const uint32_t _r = _p / _rb;                                                \
      const uint32_t _u = (_p % _rb) / 8u; /* even: the chunk's first 8-byte unit */ \
      const uint32_t _byte = (_u ^ tk_lds_swz_units(((int)_T::tk_layout), _rb, _r)) * 8u; \
      tk_llvm_raw_buffer_load_lds((rsrc),                                          \
          (__attribute__((address_space(3))) void *)((char *)(sm).data + _wbase),  \
          16, (int32_t)(GOFF), 0, 0, 0);                                           \
    }                                                                              \
  } while (0)

/* tk_load_lds_direct_x4_mat with the lane offsets held, for a loop that
 * loads the same rows of a matrix at many columns (a GEMM's K loop):
 *   tk_lds_direct_rows L;
 *   tk_lds_direct_rows_x4_mat(L, sm, NT, mv, r0, tid);       (once)
 *   tk_load_lds_direct_x4_rows(sm2, NT, rsrc, L, cbytes, tid); (per load)
 * The first makes each instruction's lane offset (rows r0.. of the matrix,
 * the layout's chunk); the second issues the loads into sm2 (a tile of sm's
 * type) with the column's byte offset cbytes (wave-uniform) as the scalar
 * offset: no VALU per load.  Rows past the matrix read 0 (their lane
 * offsets are past its descriptor's range); the scalar offset is not range
 * checked (CDNA4 ISA guide, buffer addressing: the check takes the VGPR
 * offset), so the window's columns must lie inside the matrix. */
#define TK_LDS_DIRECT_ROWS_MAX 8 /* instructions per thread */
typedef struct {
  uint32_t tk_off_[TK_LDS_DIRECT_ROWS_MAX];
} tk_lds_direct_rows;
#define tk_lds_direct_rows_x4_mat(L, sm, NT, mv, r0, tid)                          \
  do {                                                                             \
    typedef TK_TYPEOF(sm) _T;                                                      \
    enum { _bytes = ((int)_T::tk_rows) * ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes), \
           _rb = ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes) };                  \
    static_assert(_bytes / ((NT) * 16) <= TK_LDS_DIRECT_ROWS_MAX,                  \
                  "tk: tk_lds_direct_rows holds up to 8 loads per thread");        \
    const uint32_t _roff = tk_mat_row0(mv, r0) * (mv).pitch;                       \
    const uint32_t _wave0 = (uint32_t)((uint32_t)(tid) / 64u) * 1024u;             \
    _Pragma("unroll") for (int _i = 0; _i < _bytes / ((NT) * 16); _i++) {          \
      const uint32_t _p = _wave0 + (uint32_t)_i * (NT) * 16u + ((uint32_t)(tid) % 64u) * 16u; \
      const uint32_t _r = _p / _rb, _u = (_p % _rb) / 8u;                          \
      (L).tk_off_[_i] = _roff + _r * (mv).pitch + (_u ^ tk_lds_swz_units(((int)_T::tk_layout), _rb, _r)) * 8u; \
    }                                                                              \
  } while (0)
#define tk_load_lds_direct_x4_rows(sm, NT, rsrc, L, cbytes, tid)                   \
  do {                                                                             \
    typedef TK_TYPEOF(sm) _T;                                                      \
    enum { _bytes = ((int)_T::tk_rows) * ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes) }; \
    static_assert(TK_HAS_GLOBAL_LOAD_LDS_X4, "tk: tk_load_lds_direct_x4_rows needs 16-byte direct LDS loads (gfx950)"); \
    static_assert(!TK_LDS_HALVES((int)_T::tk_layout),                               \
                  "tk: 16-byte direct loads need a layout that keeps 16-byte chunks whole"); \
    static_assert(_bytes % ((NT) * 16) == 0 && (NT) % 64 == 0,                     \
                  "tk: 16-byte direct loads need whole waves and a tile of a multiple of NT*16 bytes"); \
    const uint32_t _wave0 = (uint32_t)__builtin_amdgcn_readfirstlane((int)((uint32_t)(tid) / 64u)) * 1024u; \
    _Pragma("unroll") for (int _i = 0; _i < _bytes / ((NT) * 16); _i++)           \
      tk_llvm_raw_buffer_load_lds((rsrc),                                          \
          (__attribute__((address_space(3))) void *)((char *)(sm).data + _wave0 + (uint32_t)_i * (NT) * 16u), \
          16, (int32_t)(L).tk_off_[_i], (int32_t)(cbytes), 0, 0);                  \
  } while (0)

/* ---- 3. ds_read_b64 prefetch ----------------------------------------------------- */

/* LDS byte address of a generic pointer into __shared__ memory: the low 32
 * bits of a flat LDS address are the LDS offset (shared aperture in the high
 * half; AMDGPUUsage "Address Spaces"). */
TK_DI uint32_t tk_lds_addr(const void *p) { return (uint32_t)(uintptr_t)p; }

/* Pending results of a prefetch into register tile type RT (any A/B kind:
 * 8 bytes per lane per fragment).  Opaque: only tk_prefetch_wait reads it. */
#define TK_PENDING(name, RT)                                                        \
  typedef struct {                                                                  \
    static_assert(((int)RT::tk_op) == TK_OP_A || ((int)RT::tk_op) == TK_OP_B,                    \
                  "tk: prefetch fills A or B operand tiles");                      \
    enum { tk_nf = ((int)RT::tk_frag_count_r) * ((int)RT::tk_frag_count_c), tk_frag_count_r = ((int)RT::tk_frag_count_r), tk_frag_count_c = ((int)RT::tk_frag_count_c),     \
           tk_frag_rows = ((int)RT::tk_frag_rows), tk_frag_cols = ((int)RT::tk_frag_cols), tk_op = ((int)RT::tk_op),      \
           tk_n = ((int)RT::tk_n), tk_rows = ((int)RT::tk_rows), tk_cols = ((int)RT::tk_cols),           \
           tk_dt = ((int)RT::tk_dt) };                                                      \
    tk_u32x2 tk_pending_[((int)RT::tk_frag_count_r) * ((int)RT::tk_frag_count_c)];                                      \
  } name

TK_DI tk_u32x2 tk_ds_read_b64_asm(uint32_t addr) {
  tk_u32x2 v;
  /* "memory": LDS written by ordinary stores before this must stay before it */
#if defined(__OPTIMIZE__)
  asm volatile("ds_read_b64 %0, %1" : "=v"(v) : "v"(addr) : "memory");
#else
  /* -O0 copies every asm result to the stack at once, before any wait could
   * run (tksim's wait checker reports it): wait inside the asm instead. */
  asm volatile("ds_read_b64 %0, %1\n\ts_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
#endif
  return v;
}

/* one ds_read_b64 at addr + off (off: constant 0..65535, the instruction's
 * offset field), as a switch case so a loop index can pick the constant */
#if defined(__OPTIMIZE__)
#define TK__DSR64(v, addr, off) asm volatile("ds_read_b64 %0, %1 offset:%2" : "=v"(v) : "v"(addr), "n"(off) : "memory")
#else
#define TK__DSR64(v, addr, off)                                                    \
  asm volatile("ds_read_b64 %0, %1 offset:%2\n\ts_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr), "n"(off) : "memory")
#endif
/* the read of LDS row-fragment r (0..7) at addr + r*step: the constant goes
 * into the offset field when every row fragment's fits (imm), through a
 * switch so an unrolled loop index can pick it (cases beyond 16 bits are
 * dead, emitted as 0 for -O0); otherwise added to the address */
#define TK__DSR_CASE(DSR, v, addr, k, step, o)                                     \
  case k: DSR(v, addr, (k) * (step) + (o) < 65536 ? (k) * (step) + (o) : 0); break;
#define TK__DSR_ROW(DSR, v, addr, r, step, imm, o)                                  \
  do {                                                                             \
    if (imm) {                                                                     \
      switch (r) {                                                                 \
        TK__DSR_CASE(DSR, v, addr, 0, step, o) TK__DSR_CASE(DSR, v, addr, 1, step, o) \
        TK__DSR_CASE(DSR, v, addr, 2, step, o) TK__DSR_CASE(DSR, v, addr, 3, step, o) \
        TK__DSR_CASE(DSR, v, addr, 4, step, o) TK__DSR_CASE(DSR, v, addr, 5, step, o) \
        TK__DSR_CASE(DSR, v, addr, 6, step, o) TK__DSR_CASE(DSR, v, addr, 7, step, o) \
      }                                                                            \
    } else {                                                                       \
      DSR(v, (addr) + (uint32_t)(r) * (step) + (uint32_t)(o), 0);                  \
    }                                                                              \
  } while (0)
/* fragment geometry of pending type _P read from LDS tile type _T */
#define TK__PREFETCH_GEOM(_P, _T) TK__PREFETCH_GEOM_O(_P, _T, 0)
#define TK__PREFETCH_GEOM_O(_P, _T, _o)                                            \
  enum { _a = ((int)_P::tk_op) == TK_OP_A,                                         \
         _nrow = _a ? ((int)_P::tk_frag_count_r) : ((int)_P::tk_frag_count_c),  /* fragments along LDS rows */ \
         _nk = _a ? ((int)_P::tk_frag_count_c) : ((int)_P::tk_frag_count_r),    /* fragments along K */ \
         _s = _a ? ((int)_P::tk_frag_rows) : ((int)_P::tk_frag_cols), /* rows per fragment */ \
         _kw = _a ? ((int)_P::tk_frag_cols) : ((int)_P::tk_frag_rows), /* K per fragment */ \
         _step = _s * ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes),               \
         _imm = (_nrow - 1) * _step + (_o) < 65536 };                             \
  static_assert(_nrow <= 8, "tk: prefetch handles up to 8 fragments along the LDS rows")

/* Issue one ds_read_b64 per fragment of P's tile type from LDS tile sm.
 * A tiles (M x K): fragment (fr, fc) is sm rows r0 + fr*FR.., cols c0 + fc*FC..
 * B tiles (K x N) are read from sm holding B transposed (N x K, K contiguous):
 * fragment (fr, fc) is sm rows r0 + fc*FC.., cols c0 + fr*FR..
 * Lane l reads row l % S, K elements KW*(l/S) .. +KW-1 (S: 16 or 32, the M or
 * N edge of the MFMA; KW = N elements per lane), 8 contiguous bytes.
 * Addressing: fragments that differ only in their LDS row (by FR or FC rows,
 * multiples of the swizzle's 16-row period) differ by a constant byte
 * distance, which goes into the instruction's offset field; only fragments
 * that differ in K get their own address register (the swizzle permutes
 * those per row).  So a 4x4-fragment tile needs 4 address VGPRs, not 16. */
#define tk_prefetch_issue(P, sm, r0, c0) tk_prefetch_issue_rows(P, sm, r0, c0, 0)
/* the checks and fragment geometry shared by the row-shifted prefetch issues (_P, _T) */
#define TK__PREFETCH_ROWS_PRE(P, sm, RS)                                           \
    typedef TK_TYPEOF(P) _P;                                                       \
    typedef TK_TYPEOF(sm) _T;                                                      \
    static_assert(((int)_T::tk_elem_bytes) * ((int)_P::tk_n) == 8, "tk: LDS tile element type does not match the fragment"); \
    static_assert((RS) >= 0 && (RS) % 16 == 0, "tk: a prefetch row shift must be a multiple of 16 rows"); \
    TK__PREFETCH_GEOM_O(_P, _T, (RS) * ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes));
/* The same, RS rows further down (RS: an integer constant expression, a
 * multiple of 16, the swizzle's row period, so the shift is a constant byte
 * distance): the shift goes into the instructions' offset field, so reads of
 * several row blocks of one tile, or of consecutive tiles of one type in an
 * array (rows beyond the tile continue into the next), share their address
 * registers.  Rows r0 + RS.. must lie in LDS laid out as tile type sm. */
#define tk_prefetch_issue_rows(P, sm, r0, c0, RS)                                  \
  do {                                                                             \
    TK__PREFETCH_ROWS_PRE(P, sm, RS);                                              \
    const uint32_t _l = tk_lane_id();                                              \
    const uint32_t _base = tk_lds_addr((sm).data);                                 \
    _Pragma("unroll") for (int _k = 0; _k < _nk; _k++) {                           \
      const uint32_t _addr = _base + tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), \
          ((int)_T::tk_elem_bytes), (uint32_t)(r0) + _l % _s,                      \
          (uint32_t)(c0) + _k * _kw + ((int)_P::tk_n) * (_l / _s));                \
      _Pragma("unroll") for (int _r = 0; _r < _nrow; _r++) {                       \
        tk_u32x2 *_dst = &(P).tk_pending_[_a ? _r * ((int)_P::tk_frag_count_c) + _k : _k * ((int)_P::tk_frag_count_c) + _r]; \
        TK__DSR_ROW(TK__DSR64, *_dst, _addr, _r, _step, _imm,                      \
                    (RS) * ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes));         \
      }                                                                            \
    }                                                                              \
  } while (0)

/* tk_prefetch_issue_rows for one fragment of P only: index F of P's (and the register
 * tile's) fragments (F: a constant after unrolling, e.g. a loop index), so a tile's reads can
 * go one per MFMA into issue slots that are free anyway instead of a burst; its
 * tk_prefetch_wait comes after every read of P was issued (n counts LDS ops issued after the
 * last read the wait needs).  Same addresses and offset fields as the whole tile's reads. */
#define tk_prefetch_issue_rows_frag(P, sm, r0, c0, RS, F)                          \
  do {                                                                             \
    TK__PREFETCH_ROWS_PRE(P, sm, RS);                                              \
    const int _f = (F), _fc = ((int)_P::tk_frag_count_c);                          \
    const int _r = _a ? _f / _fc : _f % _fc, _k = _a ? _f % _fc : _f / _fc;        \
    const uint32_t _l = tk_lane_id();                                              \
    const uint32_t _addr = tk_lds_addr((sm).data) +                                \
        tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), ((int)_T::tk_elem_bytes), (uint32_t)(r0) + _l % _s, \
                      (uint32_t)(c0) + _k * _kw + ((int)_P::tk_n) * (_l / _s));    \
    TK__DSR_ROW(TK__DSR64, (P).tk_pending_[_f], _addr, _r, _step, _imm,            \
                (RS) * ((int)_T::tk_cols) * ((int)_T::tk_elem_bytes));             \
  } while (0)

/* Wait until at most n LDS ops are outstanding (0..15, constant) and move the
 * prefetched fragments into register tile D.  The wait asm takes every
 * pending register as "+v" operand, so no use can be scheduled above it. */
#define tk_prefetch_wait(D, P, n)                                                  \
  do {                                                                             \
    typedef TK_TYPEOF(P) _P;                                                       \
    typedef TK_TYPEOF(D) _D;                                                       \
    static_assert(((int)_P::tk_rows) == ((int)_D::tk_rows) && ((int)_P::tk_cols) == ((int)_D::tk_cols) &&      \
                  ((int)_P::tk_op) == ((int)_D::tk_op) && ((int)_P::tk_dt) == ((int)_D::tk_dt) && ((int)_P::tk_frag_rows) == ((int)_D::tk_frag_rows), \
                  "tk: pending prefetch and destination tile differ");             \
    static_assert((n) >= 0 && (n) <= 15, "tk: lgkmcnt wait count must be 0..15"); \
    asm volatile("s_waitcnt lgkmcnt(%0)" ::"n"(n) : "memory");                     \
    _Pragma("unroll") for (int _f = 0; _f < ((int)_P::tk_nf); _f++) {                     \
      asm volatile("" : "+v"((P).tk_pending_[_f]));                                \
      (D).f[_f] = __builtin_bit_cast(TK_TYPEOF((D).f[0]), (P).tk_pending_[_f]);    \
    }                                                                              \
  } while (0)

/* Pending results of a ds_read_b128 prefetch (pairs of K fragments). */
#define TK_PENDING_B128(name, RT)                                                   \
  typedef struct {                                                                  \
    static_assert(((int)RT::tk_op) == TK_OP_A || ((int)RT::tk_op) == TK_OP_B,        \
                  "tk: prefetch fills A or B operand tiles");                      \
    static_assert((((int)RT::tk_op) == TK_OP_A ? ((int)RT::tk_frag_count_c) : ((int)RT::tk_frag_count_r)) % 2 == 0, \
                  "tk: ds_read_b128 prefetch needs an even number of K fragments"); \
    enum { tk_nf = ((int)RT::tk_frag_count_r) * ((int)RT::tk_frag_count_c), tk_frag_count_r = ((int)RT::tk_frag_count_r), tk_frag_count_c = ((int)RT::tk_frag_count_c), \
           tk_frag_rows = ((int)RT::tk_frag_rows), tk_frag_cols = ((int)RT::tk_frag_cols), tk_op = ((int)RT::tk_op), \
           tk_n = ((int)RT::tk_n), tk_rows = ((int)RT::tk_rows), tk_cols = ((int)RT::tk_cols), \
           tk_dt = ((int)RT::tk_dt) };                                              \
    tk_u32x4 tk_pending4_[((int)RT::tk_frag_count_r) * ((int)RT::tk_frag_count_c) / 2];                 \
    uint32_t tk_swapped_; /* swizzled rows hold 16-byte chunks with halves exchanged */ \
  } name

#if defined(__OPTIMIZE__)
#define TK__DSR128(v, addr, off) asm volatile("ds_read_b128 %0, %1 offset:%2" : "=v"(v) : "v"(addr), "n"(off) : "memory")
#else
#define TK__DSR128(v, addr, off)                                                   \
  asm volatile("ds_read_b128 %0, %1 offset:%2\n\ts_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr), "n"(off) : "memory")
#endif

/* Like tk_prefetch_issue, one ds_read_b128 per pair of K fragments, in the
 * paired K order above; pending slot (row fragment r, pair j) holds
 * fragments 2j and 2j+1.  The 16-byte reads need the tile's rows 16-byte
 * aligned at every K pair (c0 a multiple of 2*FK).  In a swizzled tile, rows
 * with bit 3 set hold each 16-byte chunk with its 8-byte halves exchanged
 * (shared.h); fragment shifts are multiples of 16 rows, so one per-lane flag
 * covers the tile and the wait puts the halves back. */
#define tk_prefetch_issue_b128(P, sm, r0, c0) tk_prefetch_issue_b128_rows(P, sm, r0, c0, 0)
/* The same, RS rows further down (as tk_prefetch_issue_rows: RS a constant multiple of 16,
 * the shift in the offset field, so reads of consecutive tiles of an array of one tile type
 * share their address registers) */
#define tk_prefetch_issue_b128_rows(P, sm, r0, c0, RS)                             \
  do {                                                                             \
    typedef TK_TYPEOF(sm) _Tr;                                                     \
    static_assert((RS) >= 0 && (RS) % 16 == 0, "tk: a prefetch row shift must be a multiple of 16 rows"); \
    tk_prefetch_at _pat;                                                           \
    tk_prefetch_at_b128(_pat, P, sm, r0, c0);                                      \
    tk_prefetch_issue_b128_at(P, sm, _pat, (RS) * ((int)_Tr::tk_cols) * ((int)_Tr::tk_elem_bytes)); \
  } while (0)

/* tk_prefetch_issue_b128 in two steps, so a loop that reads the same place of
 * several buffers keeps the lane addresses in registers instead of deriving
 * them from the lane id each time (gfx950's 8wave GEMM: its memory cluster
 * sets the ping-pong step there):
 *   tk_prefetch_at pat;  tk_prefetch_at_b128(pat, P, sm, r0, c0);   (once)
 *   tk_prefetch_issue_b128_at(P, sm2, pat, OFF);                     (each time)
 * at: this lane's address per K pair and the halves flag of (r0, c0) of sm;
 * issue_at: the reads at those addresses plus OFF bytes (an integer constant
 * expression, into the offset field: e.g. the distance to the same tile of
 * another buffer, or RS rows down as tk_prefetch_issue_b128_rows), sm2 a
 * tile of sm's type (only its type is used). */
typedef struct {
  uint32_t tk_addr_[8]; /* per K pair (at most 8: 16 K fragments) */
  uint32_t tk_swapped_;
} tk_prefetch_at;
#define tk_prefetch_at_b128(A, P, sm, r0, c0)                                      \
  do {                                                                             \
    typedef TK_TYPEOF(P) _P;                                                       \
    typedef TK_TYPEOF(sm) _T;                                                      \
    TK__PREFETCH_GEOM(_P, _T);                                                     \
    static_assert(_nk / 2 <= 8, "tk: tk_prefetch_at holds up to 8 K pairs");       \
    const uint32_t _l = tk_lane_id();                                              \
    const uint32_t _base = tk_lds_addr((sm).data);                                 \
    _Pragma("unroll") for (int _k = 0; _k < _nk / 2; _k++) {                       \
      const uint32_t _o = tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols), \
          ((int)_T::tk_elem_bytes), (uint32_t)(r0) + _l % _s,                      \
          (uint32_t)(c0) + 2 * _k * _kw + 2 * ((int)_P::tk_n) * (_l / _s));        \
      (A).tk_addr_[_k] = _base + (_o & ~15u);                                      \
      if (_k == 0) (A).tk_swapped_ = TK_LDS_HALVES((int)_T::tk_layout) ? (_o & 8u) : 0u; \
    }                                                                              \
  } while (0)
#define tk_prefetch_issue_b128_at(P, sm, A, OFF)                                   \
  do {                                                                             \
    typedef TK_TYPEOF(P) _P;                                                       \
    typedef TK_TYPEOF(sm) _T;                                                      \
    static_assert(((int)_T::tk_elem_bytes) * ((int)_P::tk_n) == 8, "tk: LDS tile element type does not match the fragment"); \
    static_assert((OFF) >= 0, "tk: a prefetch offset is a non-negative constant"); \
    TK__PREFETCH_GEOM_O(_P, _T, (OFF));                                            \
    (P).tk_swapped_ = (A).tk_swapped_;                                             \
    _Pragma("unroll") for (int _k = 0; _k < _nk / 2; _k++) {                       \
      _Pragma("unroll") for (int _r = 0; _r < _nrow; _r++) {                       \
        tk_u32x4 *_dst = &(P).tk_pending4_[_r * (_nk / 2) + _k];                   \
        TK__DSR_ROW(TK__DSR128, *_dst, (A).tk_addr_[_k], _r, _step, _imm, (OFF));  \
      }                                                                            \
    }                                                                              \
  } while (0)

/* The same reads in the MX order (gfx950 block-scaled products,
 * tk_mma_ABt_mx): K fragment quad (4q .. 4q+3) of lane group h is the 4*KW
 * contiguous elements at K column 4q*FK + 4*KW*h, so a lane's 32 fp8 of one
 * 32x32x64 MFMA are one 32-element MX block (the paired order above splits
 * them over two blocks); pending slots as above (pair j = fragments 2j,
 * 2j+1, at column 4(j/2)*FK + 4*KW*h + 2*KW*(j%2)).  Needs a multiple of 4
 * K fragments and tk_prefetch_wait_b128. */
/* LDS byte offset of lane L's K pair k in the MX (k4) order, before the
 * 16-byte alignment; one definition for the issue and the held-address
 * forms so the two cannot drift apart (needs TK__PREFETCH_GEOM's _s, _kw) */
#define TK__PF_K4_OFFSET(_P, _T, r0, c0, L, k)                                    \
  tk_lds_offset(((int)_T::tk_layout), ((int)_T::tk_cols),                          \
      ((int)_T::tk_elem_bytes), (uint32_t)(r0) + (L) % _s,                         \
      (uint32_t)(c0) + 4 * ((k) / 2) * _kw + 4 * ((int)_P::tk_n) * ((L) / _s) +     \
          2 * ((int)_P::tk_n) * ((k) % 2))
#define tk_prefetch_issue_b128_k4(P, sm, r0, c0)                                   \
  do {                                                                             \
    typedef TK_TYPEOF(P) _P;                                                       \
    typedef TK_TYPEOF(sm) _T;                                                      \
    static_assert(((int)_T::tk_elem_bytes) * ((int)_P::tk_n) == 8, "tk: LDS tile element type does not match the fragment"); \
    TK__PREFETCH_GEOM(_P, _T);                                                     \
    static_assert(_nk % 4 == 0, "tk: the MX (k4) prefetch order needs a multiple of 4 K fragments"); \
    const uint32_t _l = tk_lane_id();                                              \
    const uint32_t _base = tk_lds_addr((sm).data);                                 \
    _Pragma("unroll") for (int _k = 0; _k < _nk / 2; _k++) {                       \
      const uint32_t _o = TK__PF_K4_OFFSET(_P, _T, r0, c0, _l, _k);              \
      const uint32_t _addr = _base + (_o & ~15u);                                  \
      if (_k == 0) (P).tk_swapped_ = TK_LDS_HALVES((int)_T::tk_layout) ? (_o & 8u) : 0u;                     \
      _Pragma("unroll") for (int _r = 0; _r < _nrow; _r++) {                       \
        tk_u32x4 *_dst = &(P).tk_pending4_[_r * (_nk / 2) + _k];                   \
        TK__DSR_ROW(TK__DSR128, *_dst, _addr, _r, _step, _imm, 0);                 \
      }                                                                            \
    }                                                                              \
  } while (0)

/* tk_prefetch_at_b128 in the MX order of tk_prefetch_issue_b128_k4: this
 * lane's address per K pair of those reads, for tk_prefetch_issue_b128_at
 * (the gfx950 8wave MX GEMM holds them across its loop) */
#define tk_prefetch_at_b128_k4(A, P, sm, r0, c0)                                   \
  do {                                                                             \
    typedef TK_TYPEOF(P) _P;                                                       \
    typedef TK_TYPEOF(sm) _T;                                                      \
    TK__PREFETCH_GEOM(_P, _T);                                                     \
    static_assert(_nk / 2 <= 8, "tk: tk_prefetch_at holds up to 8 K pairs");       \
    static_assert(_nk % 4 == 0, "tk: the MX (k4) prefetch order needs a multiple of 4 K fragments"); \
    const uint32_t _l = tk_lane_id();                                              \
    const uint32_t _base = tk_lds_addr((sm).data);                                 \
    _Pragma("unroll") for (int _k = 0; _k < _nk / 2; _k++) {                       \
      const uint32_t _o = TK__PF_K4_OFFSET(_P, _T, r0, c0, _l, _k);              \
      (A).tk_addr_[_k] = _base + (_o & ~15u);                                      \
      if (_k == 0) (A).tk_swapped_ = TK_LDS_HALVES((int)_T::tk_layout) ? (_o & 8u) : 0u; \
    }                                                                              \
  } while (0)

/* Wait (lgkmcnt(n)) and move a ds_read_b128 prefetch into register tile D. */
#define tk_prefetch_wait_b128(D, P, n)                                             \
  do {                                                                             \
    typedef TK_TYPEOF(P) _P;                                                       \
    typedef TK_TYPEOF(D) _D;                                                       \
    static_assert(((int)_P::tk_rows) == ((int)_D::tk_rows) && ((int)_P::tk_cols) == ((int)_D::tk_cols) && \
                  ((int)_P::tk_op) == ((int)_D::tk_op) && ((int)_P::tk_dt) == ((int)_D::tk_dt) && ((int)_P::tk_frag_rows) == ((int)_D::tk_frag_rows), \
                  "tk: pending prefetch and destination tile differ");             \
    static_assert((n) >= 0 && (n) <= 15, "tk: lgkmcnt wait count must be 0..15"); \
    enum { _a = ((int)_P::tk_op) == TK_OP_A, _nk = _a ? ((int)_P::tk_frag_count_c) : ((int)_P::tk_frag_count_r), \
           _nrow = _a ? ((int)_P::tk_frag_count_r) : ((int)_P::tk_frag_count_c) };                    \
    asm volatile("s_waitcnt lgkmcnt(%0)" ::"n"(n) : "memory");                     \
    _Pragma("unroll") for (int _r = 0; _r < _nrow; _r++)                           \
    _Pragma("unroll") for (int _k = 0; _k < _nk / 2; _k++) {                       \
      asm volatile("" : "+v"((P).tk_pending4_[_r * (_nk / 2) + _k]));              \
      const tk_u32x4 _v = (P).tk_pending4_[_r * (_nk / 2) + _k];                   \
      const tk_u32x2 _lo = (TK_LDS_SWZ_HALVES && (P).tk_swapped_) ? _v.zw : _v.xy;                      \
      const tk_u32x2 _hi = (TK_LDS_SWZ_HALVES && (P).tk_swapped_) ? _v.xy : _v.zw;                      \
      const int _f0 = _a ? _r * ((int)_P::tk_frag_count_c) + 2 * _k : (2 * _k) * ((int)_P::tk_frag_count_c) + _r; \
      const int _f1 = _a ? _f0 + 1 : _f0 + ((int)_P::tk_frag_count_c);                       \
      (D).f[_f0] = __builtin_bit_cast(TK_TYPEOF((D).f[0]), _lo);                   \
      (D).f[_f1] = __builtin_bit_cast(TK_TYPEOF((D).f[0]), _hi);                   \
    }                                                                              \
  } while (0)
#endif /* TK_HIP */

#endif /* TK_LOADS_H */
