/* tk/global.h: descriptors of tensors in global memory, and AMD buffer
 * resource descriptors built from them.
 *
 * tk_gl: pointer, element size, up to 4 dims (outermost first, the last is
 * the contiguous row) and strides in elements.  Tile coordinates map to
 * element offsets with tk_gl_offset / tk_gl_tile_offset.
 * Buffer resource (V#, CDNA3 ISA guide "Buffer Resource Descriptor"; LLVM
 * AMDGPUUsage): dword0-1 = 48-bit base address, stride (bits 61:48) = 0,
 * dword2 = num_records (bytes, with stride 0), dword3 = dst_sel/format word
 * (TK_BUFFER_RSRC_DWORD3).  With a raw buffer (offen, stride 0) the hardware
 * range-checks each byte offset against num_records: loads beyond it return 0
 * and stores beyond it are dropped (ISA guide "Buffer addressing", range
 * checking).
 * Validation: tk_gl_make returns a TK_ERR_* code and leaves *out untouched on
 * bad input (null, ndim, dims, strides, alignment, element size, extent past
 * TK_GL_MAX_BYTES); tk_gl_check_chunks checks the 16-byte paths' rules;
 * tk_err_str gives a message.
 */
#ifndef TK_GLOBAL_H
#define TK_GLOBAL_H

#include "types.h"

enum {
  TK_OK = 0,
  TK_ERR_NULL_PTR = 1,       /* base pointer (or an output) is NULL */
  TK_ERR_NDIM = 2,           /* ndim not in 1..4 */
  TK_ERR_DIM = 3,            /* a dimension <= 0 */
  TK_ERR_STRIDE = 4,         /* inner stride != 1, or a stride smaller than the span it steps over */
  TK_ERR_ALIGN = 5,          /* base not aligned to the element size / 4 bytes */
  TK_ERR_ELEM = 6,           /* element size not 1, 2, 4 or 8 */
  TK_ERR_TOO_LARGE = 7,      /* byte extent beyond TK_GL_MAX_BYTES (a buffer descriptor's range) */
  TK_ERR_CHUNK = 8,          /* 16-byte paths: row bytes, pitch, column origin or base not 16-byte multiples */
  TK_ERR_GRID = 9,           /* grid mapping: zero tiles or workgroup count != tile count */
};

/* Largest tensor extent in bytes: num_records is 32 bits, and loads.h sends
 * out-of-tensor accesses to offset 0xfffffff0, which must stay out of range. */
#define TK_GL_MAX_BYTES 0xfffffff0ll

TK_HDI const char *tk_err_str(int e) {
  switch (e) {
  case TK_OK: return "ok";
  case TK_ERR_NULL_PTR: return "tk: null pointer";
  case TK_ERR_NDIM: return "tk: number of dimensions must be 1..4";
  case TK_ERR_DIM: return "tk: every dimension must be > 0";
  case TK_ERR_STRIDE: return "tk: innermost stride must be 1 and each stride must cover the dimensions inside it";
  case TK_ERR_ALIGN: return "tk: base pointer is not aligned to the element size (and 4 bytes)";
  case TK_ERR_ELEM: return "tk: element size must be 1, 2, 4 or 8 bytes";
  case TK_ERR_TOO_LARGE: return "tk: tensor spans more than 4 GiB - 16 bytes, beyond a buffer descriptor";
  case TK_ERR_CHUNK: return "tk: 16-byte loads/stores need the base 16-byte aligned and row bytes, row pitch and column origin multiples of 16 bytes";
  case TK_ERR_GRID: return "tk: grid needs tiles_m, tiles_n > 0 and one workgroup per tile";
  default: return "tk: unknown error";
  }
}

typedef struct {
  void *ptr;
  int32_t elem_bytes;
  int32_t ndim;          /* dims beyond ndim are 1 */
  int64_t dims[4];       /* dims[0] outermost, dims[3] contiguous (aligned right) */
  int64_t strides[4];    /* in elements; strides[3] == 1 */
} tk_gl;

/* Build a descriptor: dims/strides given outermost first, ndim of them;
 * strides may be NULL for a packed tensor. */
TK_HDI int tk_gl_make(tk_gl *out, void *ptr, int elem_bytes, int ndim,
                      const int64_t *dims, const int64_t *strides) {
  if (!out || !ptr || !dims) return TK_ERR_NULL_PTR;
  if (ndim < 1 || ndim > 4) return TK_ERR_NDIM;
  if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4 && elem_bytes != 8) return TK_ERR_ELEM;
  int64_t d[4] = {1, 1, 1, 1}, s[4];
  for (int i = 0; i < ndim; i++) {
    if (dims[i] <= 0) return TK_ERR_DIM;
    d[4 - ndim + i] = dims[i];
  }
  int64_t span = 1;  /* elements covered by one step of the next-outer dim */
  uint64_t last = 0; /* element offset of the last element */
  for (int i = 3; i >= 0; i--) {
    int gi = i - (4 - ndim);
    int64_t st = (strides && gi >= 0) ? strides[gi] : span;
    if (i == 3 && st != 1) return TK_ERR_STRIDE;
    if (st < span && d[i] > 1) return TK_ERR_STRIDE;
    /* 2^32 bounds keep every product below 2^64: no overflow on the way */
    if (d[i] > 0xffffffffll || (d[i] > 1 && st > 0xffffffffll)) return TK_ERR_TOO_LARGE;
    if (d[i] > 1) last += (uint64_t)(d[i] - 1) * (uint64_t)st;
    if (last > (uint64_t)TK_GL_MAX_BYTES) return TK_ERR_TOO_LARGE;
    s[i] = st;
    span = d[i] > 1 ? st * d[i] : span;
  }
  if ((last + 1) * (uint64_t)elem_bytes > (uint64_t)TK_GL_MAX_BYTES) return TK_ERR_TOO_LARGE;
  uintptr_t a = (uintptr_t)ptr;
  uintptr_t al = elem_bytes < 4 ? (uintptr_t)elem_bytes : 4u;
  if (a % al) return TK_ERR_ALIGN;
  for (int i = 0; i < 4; i++) { out->dims[i] = d[i]; out->strides[i] = s[i]; }
  out->ptr = ptr;
  out->elem_bytes = elem_bytes;
  out->ndim = ndim;
  return TK_OK;
}

/* element offset of (i0, i1, i2, i3) (all four coordinates, outermost first) */
TK_HDI int64_t tk_gl_offset(const tk_gl *g, int64_t i0, int64_t i1, int64_t i2, int64_t i3) {
  return i0 * g->strides[0] + i1 * g->strides[1] + i2 * g->strides[2] + i3 * g->strides[3];
}
/* element offset of the top-left of tile (tr, tc) of size th×tw in the
 * matrix (b, h, :, :) */
TK_HDI int64_t tk_gl_tile_offset(const tk_gl *g, int64_t b, int64_t h, int64_t tr, int64_t tc,
                                 int64_t th, int64_t tw) {
  return tk_gl_offset(g, b, h, tr * th, tc * tw);
}
/* bytes from ptr to one past the last element */
TK_HDI int64_t tk_gl_bytes(const tk_gl *g) {
  int64_t last = 0;
  for (int i = 0; i < 4; i++) last += (g->dims[i] - 1) * g->strides[i];
  return (last + 1) * g->elem_bytes;
}

/* Host check for the 16-byte chunk paths (group loads, LDS -> global
 * stores) of a window starting at column c0: TK_OK or TK_ERR_CHUNK (also
 * TK_ERR_NULL_PTR).  Same rule as tk_load_shape_ok, with an error code. */
TK_HDI int tk_gl_check_chunks(const tk_gl *g, int64_t c0) {
  if (!g || !g->ptr) return TK_ERR_NULL_PTR;
  if ((g->dims[3] * g->elem_bytes) % 16 != 0 || (g->strides[2] * g->elem_bytes) % 16 != 0 ||
      (c0 * g->elem_bytes) % 16 != 0 || ((uintptr_t)g->ptr % 16) != 0)
    return TK_ERR_CHUNK;
  return TK_OK;
}

/* --- buffer resource descriptor ------------------------------------------- */
typedef struct { uint32_t w[4]; } tk_rsrc_words;

/* the four dwords of a raw-buffer V# over [base, base + bytes) */
TK_HDI tk_rsrc_words tk_rsrc_make_words(const void *base, uint32_t bytes) {
  uint64_t a = (uint64_t)(uintptr_t)base;
  tk_rsrc_words r;
  r.w[0] = (uint32_t)a;
  r.w[1] = (uint32_t)(a >> 32) & 0xffffu;  /* stride 0 in bits 61:48 */
  r.w[2] = bytes;
  r.w[3] = TK_BUFFER_RSRC_DWORD3;
  return r;
}
/* V# over the whole tensor; 0 records (all accesses dropped) if too large */
TK_HDI tk_rsrc_words tk_gl_rsrc_words(const tk_gl *g) {
  int64_t b = tk_gl_bytes(g);
  return tk_rsrc_make_words(g->ptr, b > 0xffffffffll ? 0u : (uint32_t)b);
}

#if TK_HIP
typedef int32_t tk_rsrc __attribute__((ext_vector_type(4)));

TK_DI tk_rsrc tk_rsrc_make(const void *base, uint32_t bytes) {
  tk_rsrc_words w = tk_rsrc_make_words(base, bytes);
  tk_rsrc r = {(int32_t)w.w[0], (int32_t)w.w[1], (int32_t)w.w[2], (int32_t)w.w[3]};
  /* the descriptor must live in SGPRs: make it wave-uniform */
  r.x = __builtin_amdgcn_readfirstlane(r.x);
  r.y = __builtin_amdgcn_readfirstlane(r.y);
  r.z = __builtin_amdgcn_readfirstlane(r.z);
  r.w = __builtin_amdgcn_readfirstlane(r.w);
  return r;
}
TK_DI tk_rsrc tk_gl_rsrc(const tk_gl *g) {
  int64_t b = tk_gl_bytes(g);
  return tk_rsrc_make(g->ptr, b > 0xffffffffll ? 0u : (uint32_t)b);
}

/* raw buffer access through LLVM's raw.buffer intrinsics (stable since LLVM
 * 11, what Composable Kernel uses); voffset in bytes, aux = glc/slc bits */
TK_DEV int32_t tk_llvm_raw_buffer_load_i32(tk_rsrc rsrc, int32_t voffset, int32_t soffset, int32_t aux)
    __asm("llvm.amdgcn.raw.buffer.load.i32");
TK_DEV tk_i32x4 tk_llvm_raw_buffer_load_i32x4(tk_rsrc rsrc, int32_t voffset, int32_t soffset, int32_t aux)
    __asm("llvm.amdgcn.raw.buffer.load.v4i32");
TK_DEV void tk_llvm_raw_buffer_store_i32(int32_t v, tk_rsrc rsrc, int32_t voffset, int32_t soffset, int32_t aux)
    __asm("llvm.amdgcn.raw.buffer.store.i32");
TK_DEV tk_u32x2 tk_llvm_raw_buffer_load_u32x2(tk_rsrc rsrc, int32_t voffset, int32_t soffset, int32_t aux)
    __asm("llvm.amdgcn.raw.buffer.load.v2i32");
TK_DEV void tk_llvm_raw_buffer_store_u32x2(tk_u32x2 v, tk_rsrc rsrc, int32_t voffset, int32_t soffset, int32_t aux)
    __asm("llvm.amdgcn.raw.buffer.store.v2i32");
TK_DEV void tk_llvm_raw_buffer_store_i32x4(tk_i32x4 v, tk_rsrc rsrc, int32_t voffset, int32_t soffset, int32_t aux)
    __asm("llvm.amdgcn.raw.buffer.store.v4i32");

TK_DI uint32_t tk_buffer_load_b32(tk_rsrc r, uint32_t byte_off) {
  return (uint32_t)tk_llvm_raw_buffer_load_i32(r, (int32_t)byte_off, 0, 0);
}
TK_DI tk_u32x4 tk_buffer_load_b128(tk_rsrc r, uint32_t byte_off) {
  return __builtin_bit_cast(tk_u32x4, tk_llvm_raw_buffer_load_i32x4(r, (int32_t)byte_off, 0, 0));
}
TK_DI tk_u32x2 tk_buffer_load_b64(tk_rsrc r, uint32_t byte_off) {
  return tk_llvm_raw_buffer_load_u32x2(r, (int32_t)byte_off, 0, 0);
}
TK_DI void tk_buffer_store_b64(tk_rsrc r, uint32_t byte_off, tk_u32x2 v) {
  tk_llvm_raw_buffer_store_u32x2(v, r, (int32_t)byte_off, 0, 0);
}
TK_DI void tk_buffer_store_b32(tk_rsrc r, uint32_t byte_off, uint32_t v) {
  tk_llvm_raw_buffer_store_i32((int32_t)v, r, (int32_t)byte_off, 0, 0);
}
TK_DI void tk_buffer_store_b128(tk_rsrc r, uint32_t byte_off, tk_u32x4 v) {
  tk_llvm_raw_buffer_store_i32x4(__builtin_bit_cast(tk_i32x4, v), r, (int32_t)byte_off, 0, 0);
}
/* f32 atomic add without return (buffer_atomic_add_f32, gfx90a and later: CDNA3 ISA guide
 * "MUBUF Instructions" BUFFER_ATOMIC_ADD_F32; LLVM selects the no-return form when the result is
 * unused): mem[byte_off] += v in the L2, an access past num_records is dropped like a store.
 * Sums of several waves land in any order: not bitwise reproducible. */
TK_DEV float tk_llvm_raw_buffer_atomic_fadd_f32(float v, tk_rsrc rsrc, int32_t voffset, int32_t soffset, int32_t aux)
    __asm("llvm.amdgcn.raw.buffer.atomic.fadd.f32");
TK_DI void tk_buffer_atomic_add_f32(tk_rsrc r, uint32_t byte_off, float v) {
  (void)tk_llvm_raw_buffer_atomic_fadd_f32(v, r, (int32_t)byte_off, 0, 0);
}
/* 16-bit accesses (bf16 elements at the edges of a tile, bf16 vectors) */
TK_DEV void tk_llvm_raw_buffer_store_i16(int16_t v, tk_rsrc rsrc, int32_t voffset, int32_t soffset, int32_t aux)
    __asm("llvm.amdgcn.raw.buffer.store.i16");
TK_DEV int16_t tk_llvm_raw_buffer_load_i16(tk_rsrc rsrc, int32_t voffset, int32_t soffset, int32_t aux)
    __asm("llvm.amdgcn.raw.buffer.load.i16");

TK_DI void tk_buffer_store_b16(tk_rsrc r, uint32_t byte_off, uint16_t v) {
  tk_llvm_raw_buffer_store_i16((int16_t)v, r, (int32_t)byte_off, 0, 0);
}
TK_DI uint16_t tk_buffer_load_b16(tk_rsrc r, uint32_t byte_off) {
  return (uint16_t)tk_llvm_raw_buffer_load_i16(r, (int32_t)byte_off, 0, 0);
}
#endif

#endif /* TK_GLOBAL_H */
