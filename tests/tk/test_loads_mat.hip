// Device test for tk/loads.h's matrix-bounded group loads against the host
// tensor: a bf16 tensor (B, H, S, D) in BSHD layout (rows of one (b, h)
// matrix are H*D elements apart, interleaved with the other heads'), read
// through tk_gl_rsrc_mat(&g, b, h) in 64-row windows at r0 = 0, 64, 128 with
// S = 70: inside, across the last row (the rows past it must read 0, not the
// next batch's rows) and wholly past it; plain (tk_load_issue_mat) and
// transposed (tk_load_issue_t_mat_part, units in reverse order), both into
// swizzled tiles.  A head index past the tensor (h = H) must read 0, and so
// must a negative r0.  tk_gl_mat_ok is checked on the host at its limit.
// tk_mat_row0 (the loads' first-row clamp) on the device for 64-bit and
// 32-bit rows: negative, inside, at and past the end, values that a 32-bit
// cast would wrap into range, row counts of 70 and 3e9 (above INT32_MAX).
// The unchecked descriptors (tk_gl_rsrc_mat_unchecked, tk_mat_heads_rsrc,
// tk_mat_rsrc_unchecked) through the same windows for heads inside the tensor
// (their contract), and tk_mat_bytes against the range's 64-bit formula.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include "tk/loads.h"

#define NT 256
#define TR 64 /* window rows (keys) */
#define TD 64 /* head dim = window columns */
TK_ST(st_rows, tk_bf16, TR, TD, TK_LDS_SWZ); /* r x d */
TK_ST(st_tr, tk_bf16, TD, TR, TK_LDS_SWZ);   /* d x r (transposed) */
TK_STAGE(stage_rows, st_rows, NT);
TK_STAGE(stage_tr, st_tr, NT);

// block (x, h, b): window rows from r0 = 64 x (x = 3: r0 = -64, reads 0);
// mode 0 tk_gl_rsrc_mat, 1 tk_gl_rsrc_mat_unchecked, 2 tk_mat_heads_rsrc,
// 3 tk_mat_rsrc_unchecked on the matrix's own pointer and shape
__global__ void k_mat(tk_gl g, int mode, uint16_t *out_rows, uint16_t *out_tr) {
  __shared__ st_rows sa;
  __shared__ st_tr sb;
  const uint32_t tid = threadIdx.x;
  const int32_t r0 = blockIdx.x == 3 ? -TR : (int32_t)blockIdx.x * TR;
  const tk_mview mv = tk_gl_mview(&g);
  const int64_t b = blockIdx.z, h = blockIdx.y;
  const tk_rsrc rs =
      mode == 0   ? tk_gl_rsrc_mat(&g, b, h)
      : mode == 1 ? tk_gl_rsrc_mat_unchecked(&g, b, h)
      : mode == 2 ? tk_mat_heads_rsrc(tk_gl_mat_heads(&g, b), h)
                  : tk_mat_rsrc_unchecked((const tk_bf16 *)g.ptr + b * g.strides[0] + h * g.strides[1], g.dims[2],
                                          g.dims[3], g.strides[2], 2);
  stage_rows pa;
  stage_tr pb;
  tk_load_issue_mat(pa, mv, rs, r0, 0, tid);
  for (int u = TK_STAGE_T_UNITS(pb) - 1; u >= 0; u--) tk_load_issue_t_mat_part(pb, mv, rs, r0, 0, tid, u, 1);
  tk_load_commit(sa, pa, tid, TK_STAGE_NLOADS(pb));
  tk_load_commit_t(sb, pb, tid, 0);
  tk_lds_barrier();
  const size_t blk = ((size_t)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  for (uint32_t e = tid; e < TR * TD; e += NT) {
    out_rows[blk * TR * TD + e] =
        *(const uint16_t *)((const char *)sa.data + tk_st_offset(st_rows, e / TD, e % TD));
    out_tr[blk * TR * TD + e] = *(const uint16_t *)((const char *)sb.data + tk_st_offset(st_tr, e / TR, e % TR));
  }
}

// tk_mat_row0 for each row r[i] (64-bit) and its 32-bit truncation
__global__ void k_row0(tk_mview mv, const int64_t *r, uint32_t *out, uint32_t *out32, int n) {
  const int i = (int)threadIdx.x;
  if (i < n) {
    out[i] = tk_mat_row0(mv, r[i]);
    out32[i] = tk_mat_row0(mv, (int32_t)r[i]); // a 32-bit caller's row
  }
}

#define HIPCHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_)); exit(2); } } while (0)

int main(void) {
  const int64_t B = 2, H = 3, S = 70, D = TD;
  std::vector<uint16_t> h((size_t)(B * S * H * D));
  for (size_t i = 0; i < h.size(); i++) h[i] = (uint16_t)(0x3c00u + (i * 2654435761u >> 20) % 0x3ff) ^ (uint16_t)((i & 1) << 15);
  uint16_t *d;
  HIPCHECK(hipMalloc(&d, h.size() * 2));
  HIPCHECK(hipMemcpy(d, h.data(), h.size() * 2, hipMemcpyHostToDevice));
  // dims (B, H, S, D) with BSHD strides: filled by hand, as examples/attention
  // does (tk_gl_make wants strides nested outermost-first)
  tk_gl g;
  g.ptr = d, g.elem_bytes = 2, g.ndim = 4;
  g.dims[0] = B, g.dims[1] = H, g.dims[2] = S, g.dims[3] = D;
  g.strides[0] = S * H * D, g.strides[1] = D, g.strides[2] = H * D, g.strides[3] = 1;
  if (tk_gl_mat_ok(&g) != TK_OK) { printf("FAIL tk_gl_mat_ok refuses the test tensor\n"); return 1; }
  int bad = 0, checked = 0;
  // tk_gl_mat_ok at its limit: (rows + TK_MAT_ROWS_PAST) * pitch must stay below 4 GiB
  {
    tk_gl big = g;
    big.dims[2] = 0xffffffffll / (big.strides[2] * 2) - TK_MAT_ROWS_PAST; // just fits
    if (tk_gl_mat_ok(&big) != TK_OK) { printf("FAIL tk_gl_mat_ok refuses a matrix that fits\n"); bad++; }
    big.dims[2] += 1;
    if (tk_gl_mat_ok(&big) != TK_ERR_TOO_LARGE) { printf("FAIL tk_gl_mat_ok accepts a matrix past its limit\n"); bad++; }
    tk_gl ovl = g; // rows overlapping (pitch below the row length): refused
    ovl.strides[2] = D / 2;
    if (tk_gl_mat_ok(&ovl) != TK_ERR_STRIDE) { printf("FAIL tk_gl_mat_ok accepts overlapping rows\n"); bad++; }
  }
  // tk_mat_row0 against the rule: r0 if 0 <= r0 <= rows, else rows
  {
    const int64_t rs[] = {0, -1, -70, INT64_MIN, 1, 69, 70, 71, INT32_MAX, (int64_t)1 << 31,
                          (int64_t)1 << 32, ((int64_t)1 << 32) + 5, -((int64_t)1 << 32) + 3, 2999999999ll,
                          3000000000ll, 3000000001ll, INT64_MAX};
    const int nr = (int)(sizeof(rs) / sizeof(rs[0]));
    int64_t *dr;
    uint32_t *dout, *dout32;
    HIPCHECK(hipMalloc(&dr, sizeof(rs)));
    HIPCHECK(hipMalloc(&dout, nr * 4));
    HIPCHECK(hipMalloc(&dout32, nr * 4));
    HIPCHECK(hipMemcpy(dr, rs, sizeof(rs), hipMemcpyHostToDevice));
    const uint32_t counts[] = {70u, 3000000000u};
    for (int ci = 0; ci < 2; ci++) {
      tk_mview mv;
      mv.pitch = 128, mv.rows = counts[ci];
      hipLaunchKernelGGL(k_row0, dim3(1), dim3(64), 0, 0, mv, dr, dout, dout32, nr);
      HIPCHECK(hipGetLastError());
      uint32_t got[64], got32[64];
      HIPCHECK(hipMemcpy(got, dout, nr * 4, hipMemcpyDeviceToHost));
      HIPCHECK(hipMemcpy(got32, dout32, nr * 4, hipMemcpyDeviceToHost));
      for (int i = 0; i < nr; i++) {
        const int64_t r32 = (int32_t)rs[i];
        const uint32_t want = rs[i] >= 0 && rs[i] <= (int64_t)counts[ci] ? (uint32_t)rs[i] : counts[ci];
        const uint32_t want32 = r32 >= 0 && r32 <= (int64_t)counts[ci] ? (uint32_t)r32 : counts[ci];
        checked += 2;
        if ((got[i] != want || got32[i] != want32) && bad++ < 8)
          printf("FAIL tk_mat_row0 rows %u r0 %lld: %u (want %u), 32-bit r0 %lld: %u (want %u)\n", counts[ci],
                 (long long)rs[i], got[i], want, (long long)r32, got32[i], want32);
      }
    }
    HIPCHECK(hipFree(dr));
    HIPCHECK(hipFree(dout));
    HIPCHECK(hipFree(dout32));
  }
  // tk_mat_bytes: ((rows - 1) * ld + cols) * elem_bytes, here and for the largest matrix tk_gl_mat_ok accepts
  {
    const int64_t rows[] = {S, 1, 0xffffffffll / (g.strides[2] * 2) - TK_MAT_ROWS_PAST};
    for (int i = 0; i < 3; i++) {
      const int64_t want = ((rows[i] - 1) * g.strides[2] + D) * 2;
      checked++;
      if ((int64_t)tk_mat_bytes(rows[i], D, g.strides[2], 2) != want && bad++ < 8)
        printf("FAIL tk_mat_bytes(%lld, %lld, %lld, 2) = %u, want %lld\n", (long long)rows[i], (long long)D,
               (long long)g.strides[2], tk_mat_bytes(rows[i], D, g.strides[2], 2), (long long)want);
    }
    const tk_rsrc_words w = tk_gl_rsrc_mat_words(&g, 1, 2);
    const tk_mat_heads m = tk_gl_mat_heads(&g, 1);
    const char *want_base = (const char *)d + (size_t)((1 * S * H + 2) * D) * 2; // element (b 1, s 0, h 2, 0)
    checked++;
    if ((m.base + 2 * m.head_bytes != want_base || m.bytes != w.w[2]) && bad++ < 8)
      printf("FAIL tk_gl_mat_heads(b 1) head 2: base +%lld bytes %u, want +%lld and %u\n",
             (long long)(m.base + 2 * m.head_bytes - (const char *)d), m.bytes,
             (long long)(want_base - (const char *)d), w.w[2]);
  }
  for (int mode = 0; mode < 4; mode++) {
    // x: r0 = 0, 64, 128, -64; y: heads (+ one past for the checked descriptor only)
    const int gx = 4, gy = (int)H + (mode == 0), gz = (int)B;
    const size_t n = (size_t)gx * gy * gz * TR * TD;
    uint16_t *orow, *otr;
    HIPCHECK(hipMalloc(&orow, n * 2));
    HIPCHECK(hipMalloc(&otr, n * 2));
    hipLaunchKernelGGL(k_mat, dim3(gx, gy, gz), dim3(NT), 0, 0, g, mode, orow, otr);
    HIPCHECK(hipGetLastError());
    HIPCHECK(hipDeviceSynchronize());
    std::vector<uint16_t> hr(n), ht(n);
    HIPCHECK(hipMemcpy(hr.data(), orow, n * 2, hipMemcpyDeviceToHost));
    HIPCHECK(hipMemcpy(ht.data(), otr, n * 2, hipMemcpyDeviceToHost));
    HIPCHECK(hipFree(orow));
    HIPCHECK(hipFree(otr));
    for (int bz = 0; bz < gz; bz++)
      for (int hy = 0; hy < gy; hy++)
        for (int bx = 0; bx < gx; bx++) {
          const int64_t r0 = bx == 3 ? -TR : (int64_t)bx * TR;
          const size_t blk = ((size_t)bz * gy + hy) * gx + bx;
          for (int r = 0; r < TR; r++)
            for (int c = 0; c < TD; c++) {
              const int64_t s = r0 + r;
              const uint16_t want = (hy < H && s >= 0 && s < S) ? h[(size_t)(((bz * S + s) * H + hy) * D + c)] : 0;
              const uint16_t got_r = hr[blk * TR * TD + (size_t)r * TD + c]; // tile (r, c)
              const uint16_t got_t = ht[blk * TR * TD + (size_t)c * TR + r]; // tile (c, r)
              checked += 2;
              if ((got_r != want || got_t != want) && bad++ < 8)
                printf("FAIL descriptor %d b %d h %d r0 %lld (r %d, c %d): rows %04x transposed %04x want %04x\n", mode,
                       bz, hy, (long long)r0, r, c, got_r, got_t, want);
            }
        }
  }
  printf("test_loads_mat: %d elements (B %lld H %lld S %lld D %lld, windows at rows 0/64/128/-64, one head past, 4 descriptors): %s\n",
         checked, (long long)B, (long long)H, (long long)S, (long long)D, bad ? "MISMATCH" : "all match");
  return bad ? 1 : 0;
}
