// tk_lds_direct_rows_x4_mat / tk_load_lds_direct_x4_rows (tk/loads.h, gfx950's
// 16-byte direct-to-LDS loads with the lane offsets held), against the layout
// docs/api-data.md and shared.h document, computed on the CPU: each block makes
// its lane offsets once for rows r0.. of a 100-row matrix (pitch 432 bytes,
// 400 bytes of data per row) and loads two stages of the tile type at two
// column offsets (the GEMM's use: one offset set, many K steps, several
// stages).  Every byte of both stages' LDS images is compared with
//   LDS byte (r, chunk p, byte b) = matrix[r0 + r][cbytes + 16 * (p ^ f(r)) + b],
//   0 for rows past the matrix (r0 + r >= rows, or r0 outside 0..rows),
// f = 0 (linear) or gfx950's swizzle of 16-byte chunks over 256-byte windows
// (W = max(1, 256 / row_bytes) rows per window, Cw = 16 / W chunks of a row in
// one, q = (r / W) % Cw, f = q rotated left by one bit within log2(Cw) bits).
// LDS is filled with 0xab first, so a zero row comes from the loads.  Tiles:
// fp8 64x128 and 128x128 swizzled (the fp8 4wave GEMM's: 2 and 4 loads per
// thread), fp8 32x256 swizzled (one row per window), bf16 64x64 linear.
// Needs a gfx950 device (tksim --arch=gfx950); a gfx942 pass of a two-target
// build gets empty kernels (the primitives are refused there at compile time).
#include <string.h>
#include "../tk_test.h"
#include "tk/loads.h"

#define NT 256
#define ROWS 100 /* the matrix: ROWS x KB bytes, PITCH bytes apart */
#define KB 400
#define PITCH 432

TK_ST(st_f8_64, tk_fp8e4, 64, 128, TK_LDS_SWZ);
TK_ST(st_f8_128, tk_fp8e4, 128, 128, TK_LDS_SWZ);
TK_ST(st_f8_wide, tk_fp8e4, 32, 256, TK_LDS_SWZ);
TK_ST(st_bf_lin, tk_bf16, 64, 64, TK_LDS_LINEAR);

/* block i: rows r0[i].., stage 0 at column byte c0[i], stage 1 at c1[i]; out:
 * the two stages' raw LDS bytes */
#if TK_HAS_GLOBAL_LOAD_LDS_X4
#define ROWS_KERNEL(name, ST)                                                                 \
  __global__ void name(tk_gl g, const int64_t *r0, const uint32_t *c0, const uint32_t *c1, uint8_t *out) { \
    __shared__ ST s[2];                                                                       \
    const uint32_t tid = threadIdx.x, n = (uint32_t)sizeof(ST);                               \
    for (uint32_t i = tid; i < 2 * n / 4; i += NT) ((uint32_t *)(void *)s)[i] = 0xabababab;  \
    tk_lds_barrier();                                                                         \
    const tk_rsrc rs = tk_gl_rsrc_mat(&g, 0, 0);                                              \
    const tk_mview mv = tk_gl_mview(&g);                                                      \
    tk_lds_direct_rows L;                                                                     \
    tk_lds_direct_rows_x4_mat(L, s[0], NT, mv, r0[blockIdx.x], tid);                          \
    tk_load_lds_direct_x4_rows(s[0], NT, rs, L, c0[blockIdx.x], tid);                         \
    tk_load_lds_direct_x4_rows(s[1], NT, rs, L, c1[blockIdx.x], tid);                         \
    TK_WAIT_VMCNT(0);                                                                         \
    tk_barrier();                                                                             \
    for (uint32_t i = tid; i < 2 * n; i += NT)                                                \
      out[(size_t)blockIdx.x * 2 * n + i] = ((const uint8_t *)(const void *)s)[i];            \
  }
#else
#define ROWS_KERNEL(name, ST)                                                                 \
  __global__ void name(tk_gl g, const int64_t *r0, const uint32_t *c0, const uint32_t *c1, uint8_t *out) { \
    (void)g, (void)r0, (void)c0, (void)c1, (void)out;                                         \
  }
#endif
ROWS_KERNEL(k_f8_64, st_f8_64)
ROWS_KERNEL(k_f8_128, st_f8_128)
ROWS_KERNEL(k_f8_wide, st_f8_wide)
ROWS_KERNEL(k_bf_lin, st_bf_lin)

/* the documented swizzle of 16-byte chunks (gfx950), written out here */
static uint32_t chunk_perm(int swz, uint32_t rb, uint32_t r) {
  if (!swz) return 0;
  const uint32_t w = rb >= 256 ? 1 : 256 / rb, cw = 16 / w, q = (r / w) % cw;
  if (cw == 1) return 0;
  uint32_t bits = 0;
  while ((1u << bits) < cw) bits++;
  return ((q << 1) | (q >> (bits - 1))) & (cw - 1);
}

typedef void (*rows_kernel)(tk_gl, const int64_t *, const uint32_t *, const uint32_t *, uint8_t *);

static void run(const char *name, rows_kernel k, uint32_t trows, uint32_t rb, int swz, int eb, const uint8_t *dm,
                const std::vector<uint8_t> &hm) {
  /* first rows: inside, crossing the last row, the last row alone, just past,
   * far past, negative, and one whose low 32 bits are inside (must not wrap) */
  const int64_t r0s[] = {0, 36, 64, 99, ROWS, 1000, -5, (1ll << 32) + 3};
  enum { NB = sizeof r0s / sizeof r0s[0] };
  std::vector<int64_t> r0(r0s, r0s + NB);
  std::vector<uint32_t> c0(NB), c1(NB);
  const uint32_t cmax = KB - rb; /* the last window inside the row (a multiple of 16) */
  for (int i = 0; i < NB; i++) c0[i] = (uint32_t)(i * 48) % (cmax + 16) / 16 * 16, c1[i] = cmax - c0[i];
  tk_gl g;
  const int64_t dims[2] = {ROWS, KB / eb}, strides[2] = {PITCH / eb, 1};
  TT_CHECK(tk_gl_make(&g, (void *)dm, eb, 2, dims, strides) == TK_OK && tk_gl_mat_ok(&g) == TK_OK, "%s: tk_gl", name);
  const size_t n = (size_t)trows * rb;
  int64_t *dr0 = tt_dev(r0);
  uint32_t *dc0 = tt_dev(c0), *dc1 = tt_dev(c1);
  uint8_t *dout = tt_dev(std::vector<uint8_t>(NB * 2 * n, 0));
  hipLaunchKernelGGL(k, dim3(NB), dim3(NT), 0, 0, g, dr0, dc0, dc1, dout);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint8_t> got = tt_host(dout, NB * 2 * n);
  for (int i = 0; i < NB; i++)
    for (int j = 0; j < 2; j++) {
      int bad = 0, first = -1;
      for (size_t o = 0; o < n; o++) {
        const uint32_t r = (uint32_t)(o / rb), p = (uint32_t)(o % rb) / 16, b = (uint32_t)(o % 16);
        const int64_t gr = r0[i] + r;
        const uint32_t col = (j ? c1[i] : c0[i]) + 16 * (p ^ chunk_perm(swz, rb, r)) + b;
        const uint8_t want = r0[i] >= 0 && r0[i] <= ROWS && gr < ROWS ? hm[(size_t)gr * PITCH + col] : 0;
        if (got[((size_t)i * 2 + j) * n + o] != want && bad++ == 0) first = (int)o;
      }
      TT_CHECK(bad == 0, "%s: r0 %lld stage %d (column byte %u): %d of %zu bytes differ, first at LDS byte %d (row %d)",
               name, (long long)r0[i], j, j ? c1[i] : c0[i], bad, n, first, first < 0 ? -1 : first / (int)rb);
    }
  HIPCHECK(hipFree(dr0)); HIPCHECK(hipFree(dc0)); HIPCHECK(hipFree(dc1)); HIPCHECK(hipFree(dout));
}

int main(void) {
  hipDeviceProp_t p;
  HIPCHECK(hipGetDeviceProperties(&p, 0));
  if (strncmp(p.gcnArchName, "gfx950", 6)) {
    printf("FAIL: needs a gfx950 device (this one is %s; under tksim: --arch=gfx950)\n", p.gcnArchName);
    return 1;
  }
  /* nonzero bytes everywhere (a 0 can only come from a row past the matrix),
   * the padding past each row's KB bytes included */
  std::vector<uint8_t> hm((size_t)ROWS * PITCH);
  for (size_t i = 0; i < hm.size(); i++) hm[i] = (uint8_t)(1 + tt_rand() % 255);
  uint8_t *dm = tt_dev(hm);
  run("fp8 64x128 swizzled", k_f8_64, 64, 128, 1, 1, dm, hm);
  run("fp8 128x128 swizzled", k_f8_128, 128, 128, 1, 1, dm, hm);
  run("fp8 32x256 swizzled", k_f8_wide, 32, 256, 1, 1, dm, hm);
  run("bf16 64x64 linear", k_bf_lin, 64, 128, 0, 2, dm, hm);
  HIPCHECK(hipFree(dm));
  return tt_finish();
}
