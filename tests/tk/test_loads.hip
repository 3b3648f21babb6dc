// Device test for tk/loads.h against CPU references:
//  - group loads (issue/commit) of bf16 and f32 tiles, swizzled and linear,
//    at tile positions inside and across the tensor's edges (out-of-tensor
//    elements must read 0), two batches in flight before the first commit;
//  - direct-to-LDS loads (buffer_load_dword ... lds) of the same tiles, and
//    on gfx950 the 16-byte form (buffer_load_dwordx4 ... lds), both layouts;
//  - ds_read_b64 prefetch of A and B operand tiles: every fragment element is
//    compared with the tensor element the MFMA layout (register.h's layout
//    functions, ISA guide §7) says it must hold.
// LDS contents are read back through shared.h's tk_lds_offset.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tk/loads.h"

#define NT 256
#define TR 64
#define TC 64
TK_ST(st_bf16_swz, tk_bf16, TR, TC, TK_LDS_SWZ);
TK_ST(st_bf16_lin, tk_bf16, TR, TC, TK_LDS_LINEAR);
TK_ST(st_f32_swz, float, TR, 32, TK_LDS_SWZ);
TK_STAGE(stage_bf16_swz, st_bf16_swz, NT);
TK_STAGE(stage_bf16_lin, st_bf16_lin, NT);
TK_STAGE(stage_f32_swz, st_f32_swz, NT);

// one tile per block: block (tr, tc) of the grid over the tensor, plus one
// block whose tile is entirely outside
__global__ void k_group_bf16(tk_gl g, uint16_t *out_swz, uint16_t *out_lin) {
  __shared__ st_bf16_swz sa;
  __shared__ st_bf16_lin sb;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const uint32_t tid = threadIdx.x;
  const int64_t r0 = (int64_t)blockIdx.y * TR, c0 = (int64_t)blockIdx.x * TC;
  stage_bf16_swz pa;
  stage_bf16_lin pb;
  tk_load_issue(pa, &g, rs, 0, 0, r0, c0, tid);
  tk_load_issue(pb, &g, rs, 0, 0, r0, c0, tid);
  // the swizzled tile's commit in its two steps (tk_load_commit_prep / _prepped), a
  // barrier between them as a kernel that frees the tile there would have
  tk_load_commit_prep(sa, pa, tid, TK_STAGE_NLOADS(pb));  // pb's loads may still fly
  tk_barrier();
  tk_load_commit_prepped(sa, pa, tid);
  tk_load_commit(sb, pb, tid, 0);
  tk_lds_barrier();
  const size_t tile = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
  for (uint32_t e = tid; e < TR * TC; e += NT) {
    uint32_t r = e / TC, c = e % TC;
    out_swz[tile * TR * TC + e] = *(const uint16_t *)((const char *)sa.data + tk_st_offset(st_bf16_swz, r, c));
    out_lin[tile * TR * TC + e] = *(const uint16_t *)((const char *)sb.data + tk_st_offset(st_bf16_lin, r, c));
  }
}

__global__ void k_group_f32(tk_gl g, float *out) {
  __shared__ st_f32_swz s;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const uint32_t tid = threadIdx.x;
  stage_f32_swz p;
  tk_load(s, p, &g, rs, 0, 0, (int64_t)blockIdx.y * TR, (int64_t)blockIdx.x * 32, tid);
  tk_lds_barrier();
  const size_t tile = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
  for (uint32_t e = tid; e < TR * 32; e += NT)
    out[tile * TR * 32 + e] = *(const float *)((const char *)s.data + tk_st_offset(st_f32_swz, e / 32, e % 32));
}

__global__ void k_direct_bf16(tk_gl g, uint16_t *out) {
  __shared__ st_bf16_swz s;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const uint32_t tid = threadIdx.x;
  tk_load_lds_direct(s, NT, &g, rs, 0, 0, (int64_t)blockIdx.y * TR, (int64_t)blockIdx.x * TC, tid);
  TK_WAIT_VMCNT(0);
  tk_barrier();
  const size_t tile = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
  for (uint32_t e = tid; e < TR * TC; e += NT)
    out[tile * TR * TC + e] = *(const uint16_t *)((const char *)s.data + tk_st_offset(st_bf16_swz, e / TC, e % TC));
}

// 16-byte direct-to-LDS loads (gfx950 only; on gfx942 the kernel is empty
// and the host skips the check): same tiles, swizzled and linear.
__global__ void k_direct_x4_bf16(tk_gl g, uint16_t *out_swz, uint16_t *out_lin) {
#if TK_HAS_GLOBAL_LOAD_LDS_X4
  __shared__ st_bf16_swz sa;
  __shared__ st_bf16_lin sb;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const uint32_t tid = threadIdx.x;
  const int64_t r0 = (int64_t)blockIdx.y * TR, c0 = (int64_t)blockIdx.x * TC;
  tk_load_lds_direct_x4(sa, NT, &g, rs, 0, 0, r0, c0, tid);
  tk_load_lds_direct_x4(sb, NT, &g, rs, 0, 0, r0, c0, tid);
  TK_WAIT_VMCNT(0);
  tk_barrier();
  const size_t tile = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
  for (uint32_t e = tid; e < TR * TC; e += NT) {
    out_swz[tile * TR * TC + e] = *(const uint16_t *)((const char *)sa.data + tk_st_offset(st_bf16_swz, e / TC, e % TC));
    out_lin[tile * TR * TC + e] = *(const uint16_t *)((const char *)sb.data + tk_st_offset(st_bf16_lin, e / TC, e % TC));
  }
#else
  (void)g; (void)out_swz; (void)out_lin;
#endif
}

// tk_load_lds_direct_x4_mat: the same tiles through a matrix descriptor (rows past the
// matrix read 0 in hardware; columns past it are not checked, so the host compares the
// in-matrix columns only)
__global__ void k_direct_x4_mat_bf16(tk_gl g, uint16_t *out_swz, uint16_t *out_lin) {
#if TK_HAS_GLOBAL_LOAD_LDS_X4
  __shared__ st_bf16_swz sa;
  __shared__ st_bf16_lin sb;
  const tk_rsrc rs = tk_gl_rsrc_mat(&g, 0, 0);
  const tk_mview mv = tk_gl_mview(&g);
  const uint32_t tid = threadIdx.x;
  const int64_t r0 = (int64_t)blockIdx.y * TR, c0 = (int64_t)blockIdx.x * TC;
  tk_load_lds_direct_x4_mat(sa, NT, mv, rs, r0, c0, tid);
  tk_load_lds_direct_x4_mat(sb, NT, mv, rs, r0, c0, tid);
  TK_WAIT_VMCNT(0);
  tk_barrier();
  const size_t tile = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
  for (uint32_t e = tid; e < TR * TC; e += NT) {
    out_swz[tile * TR * TC + e] = *(const uint16_t *)((const char *)sa.data + tk_st_offset(st_bf16_swz, e / TC, e % TC));
    out_lin[tile * TR * TC + e] = *(const uint16_t *)((const char *)sb.data + tk_st_offset(st_bf16_lin, e / TC, e % TC));
  }
#else
  (void)g; (void)out_swz; (void)out_lin;
#endif
}

// prefetch: A tile 64x64 (32x32x8 bf16 kind) and B tile 64(K)x32(N) in the
// 16x16x16 kind, read from the same swizzled LDS tile (B transposed).
TK_RT(rt_a, TK_K_A_BF16_32x32x8, 64, 64);
TK_RT(rt_b, TK_K_B_BF16_16x16x16, 64, 32);
TK_PENDING(pend_a, rt_a);
TK_PENDING(pend_b, rt_b);
__global__ void k_prefetch(tk_gl g, uint16_t *out_a, uint16_t *out_b) {
  __shared__ st_bf16_swz s;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const uint32_t tid = threadIdx.x;
  stage_bf16_swz p;
  tk_load(s, p, &g, rs, 0, 0, 0, 0, tid);
  tk_lds_barrier();
  if (tid < 64) {  // one wave
    pend_a pa;
    pend_b pb;
    rt_a a;
    rt_b b;
    tk_prefetch_issue(pa, s, 0, 0);
    tk_prefetch_issue(pb, s, 32, 0);  // B^T = LDS rows 32..63 (N), cols 0..63 (K)
    tk_prefetch_wait(a, pa, rt_b::tk_frag_count_r * rt_b::tk_frag_count_c);  // pb's reads may still fly
    tk_prefetch_wait(b, pb, 0);
    for (int f = 0; f < 8; f++)
      for (int i = 0; i < 4; i++) {
        out_a[(f * 4 + i) * 64 + tid] = (uint16_t)a.f[f][i];
        out_b[(f * 4 + i) * 64 + tid] = (uint16_t)b.f[f][i];
      }
  }
}
// tk_prefetch_issue_rows: B^T rows 32.. read as r0 = 16 plus a 16-row shift in
// the instructions' offset field
__global__ void k_rowshift_read(tk_gl g, uint16_t *out_c) {
  __shared__ st_bf16_swz s;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const uint32_t tid = threadIdx.x;
  stage_bf16_swz p;
  tk_load(s, p, &g, rs, 0, 0, 0, 0, tid);
  tk_lds_barrier();
  if (tid < 64) {
    pend_b pc;
    rt_b c;
    tk_prefetch_issue_rows(pc, s, 16, 0, 16);
    tk_prefetch_wait(c, pc, 0);
    for (int f = 0; f < 8; f++)
      for (int i = 0; i < 4; i++) out_c[(f * 4 + i) * 64 + tid] = (uint16_t)c.f[f][i];
  }
}
// tk_prefetch_issue_rows_frag: the same reads one fragment at a time, last fragment first
__global__ void k_rowshift_frag(tk_gl g, uint16_t *out_d) {
  __shared__ st_bf16_swz s;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const uint32_t tid = threadIdx.x;
  stage_bf16_swz p;
  tk_load(s, p, &g, rs, 0, 0, 0, 0, tid);
  tk_lds_barrier();
  if (tid < 64) {
    pend_b pd;
    rt_b d;
#pragma unroll
    for (int f = 7; f >= 0; f--) tk_prefetch_issue_rows_frag(pd, s, 16, 0, 16, f);
    tk_prefetch_wait(d, pd, 0);
    for (int f = 0; f < 8; f++)
      for (int i = 0; i < 4; i++) out_d[(f * 4 + i) * 64 + tid] = (uint16_t)d.f[f][i];
  }
}

static int bad = 0;
#define EXPECT(c, ...) do { if (!(c)) { if (bad++ < 12) { fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); } } } while (0)
#define HIPCHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_)); exit(1); } } while (0)

int main(void) {
  const int64_t R = 100, C = 136;  // neither a multiple of the tile; C*2 % 16 == 0
  const int gx = (int)((C + TC - 1) / TC) + 1, gy = (int)((R + TR - 1) / TR);  // +1: a tile fully outside
  uint16_t *h = (uint16_t *)malloc(R * C * 2);
  for (int64_t i = 0; i < R * C; i++) h[i] = (uint16_t)(1 + (i * 2654435761u >> 7) % 65000);
  float *hf = (float *)malloc(R * C * 4);
  for (int64_t i = 0; i < R * C; i++) hf[i] = (float)(i % 9973) + 0.5f;
  void *d, *df;
  HIPCHECK(hipMalloc(&d, R * C * 2));
  HIPCHECK(hipMalloc(&df, R * C * 4));
  HIPCHECK(hipMemcpy(d, h, R * C * 2, hipMemcpyHostToDevice));
  HIPCHECK(hipMemcpy(df, hf, R * C * 4, hipMemcpyHostToDevice));
  tk_gl g, gf;
  int64_t dims[2] = {R, C};
  if (tk_gl_make(&g, d, 2, 2, dims, NULL) || tk_gl_make(&gf, df, 4, 2, dims, NULL)) { fprintf(stderr, "tk_gl_make failed\n"); return 1; }
  if (!tk_load_shape_ok(&g, 0) || !tk_load_shape_ok(&gf, 0)) { fprintf(stderr, "shape not loadable\n"); return 1; }
  // bf16 group loads, swizzled + linear
  size_t ntile = (size_t)gx * gy * TR * TC;
  uint16_t *o1, *o2, *o3;
  HIPCHECK(hipMalloc(&o1, ntile * 2));
  HIPCHECK(hipMalloc(&o2, ntile * 2));
  HIPCHECK(hipMalloc(&o3, ntile * 2));
  hipLaunchKernelGGL(k_group_bf16, dim3(gx, gy), dim3(NT), 0, 0, g, o1, o2);
  hipLaunchKernelGGL(k_direct_bf16, dim3(gx, gy), dim3(NT), 0, 0, g, o3);
  HIPCHECK(hipDeviceSynchronize());
  uint16_t *h1 = (uint16_t *)malloc(ntile * 2), *h2 = (uint16_t *)malloc(ntile * 2), *h3 = (uint16_t *)malloc(ntile * 2);
  HIPCHECK(hipMemcpy(h1, o1, ntile * 2, hipMemcpyDeviceToHost));
  HIPCHECK(hipMemcpy(h2, o2, ntile * 2, hipMemcpyDeviceToHost));
  HIPCHECK(hipMemcpy(h3, o3, ntile * 2, hipMemcpyDeviceToHost));
  for (int ty = 0; ty < gy; ty++)
    for (int tx = 0; tx < gx; tx++)
      for (int r = 0; r < TR; r++)
        for (int c = 0; c < TC; c++) {
          int64_t gr = (int64_t)ty * TR + r, gc = (int64_t)tx * TC + c;
          uint16_t want = (gr < R && gc < C) ? h[gr * C + gc] : 0;
          size_t i = ((size_t)(ty * gx + tx) * TR + r) * TC + c;
          EXPECT(h1[i] == want, "group swz tile (%d,%d) elem (%d,%d): %u want %u", ty, tx, r, c, h1[i], want);
          EXPECT(h2[i] == want, "group lin tile (%d,%d) elem (%d,%d): %u want %u", ty, tx, r, c, h2[i], want);
          EXPECT(h3[i] == want, "direct tile (%d,%d) elem (%d,%d): %u want %u", ty, tx, r, c, h3[i], want);
        }
  // 16-byte direct loads, where the device has them (gfx950)
  hipDeviceProp_t prop;
  HIPCHECK(hipGetDeviceProperties(&prop, 0));
  const int has_x4 = strncmp(prop.gcnArchName, "gfx950", 6) == 0;
  if (has_x4) {
    HIPCHECK(hipMemset(o1, 0xff, ntile * 2));
    HIPCHECK(hipMemset(o2, 0xff, ntile * 2));
    hipLaunchKernelGGL(k_direct_x4_bf16, dim3(gx, gy), dim3(NT), 0, 0, g, o1, o2);
    HIPCHECK(hipDeviceSynchronize());
    HIPCHECK(hipMemcpy(h1, o1, ntile * 2, hipMemcpyDeviceToHost));
    HIPCHECK(hipMemcpy(h2, o2, ntile * 2, hipMemcpyDeviceToHost));
    for (int ty = 0; ty < gy; ty++)
      for (int tx = 0; tx < gx; tx++)
        for (int r = 0; r < TR; r++)
          for (int c = 0; c < TC; c++) {
            int64_t gr = (int64_t)ty * TR + r, gc = (int64_t)tx * TC + c;
            uint16_t want = (gr < R && gc < C) ? h[gr * C + gc] : 0;
            size_t i = ((size_t)(ty * gx + tx) * TR + r) * TC + c;
            EXPECT(h1[i] == want, "direct x4 swz tile (%d,%d) elem (%d,%d): %u want %u", ty, tx, r, c, h1[i], want);
            EXPECT(h2[i] == want, "direct x4 lin tile (%d,%d) elem (%d,%d): %u want %u", ty, tx, r, c, h2[i], want);
          }
    HIPCHECK(hipMemset(o1, 0xff, ntile * 2));
    HIPCHECK(hipMemset(o2, 0xff, ntile * 2));
    hipLaunchKernelGGL(k_direct_x4_mat_bf16, dim3(gx - 1, gy), dim3(NT), 0, 0, g, o1, o2);
    HIPCHECK(hipDeviceSynchronize());
    HIPCHECK(hipMemcpy(h1, o1, ntile * 2, hipMemcpyDeviceToHost));
    HIPCHECK(hipMemcpy(h2, o2, ntile * 2, hipMemcpyDeviceToHost));
    for (int ty = 0; ty < gy; ty++)
      for (int tx = 0; tx < gx - 1; tx++)
        for (int r = 0; r < TR; r++)
          for (int c = 0; c < TC; c++) {
            int64_t gr = (int64_t)ty * TR + r, gc = (int64_t)tx * TC + c;
            if (gc >= C) continue; /* columns past the matrix: not checked by the mat loads */
            uint16_t want = gr < R ? h[gr * C + gc] : 0;
            size_t i = ((size_t)(ty * (gx - 1) + tx) * TR + r) * TC + c;
            EXPECT(h1[i] == want, "direct x4 mat swz tile (%d,%d) elem (%d,%d): %u want %u", ty, tx, r, c, h1[i], want);
            EXPECT(h2[i] == want, "direct x4 mat lin tile (%d,%d) elem (%d,%d): %u want %u", ty, tx, r, c, h2[i], want);
          }
  }
  // f32 group loads, 64x32 tiles
  const int fx = (int)((C + 31) / 32), fy = gy;
  float *of, *hof = (float *)malloc((size_t)fx * fy * TR * 32 * 4);
  HIPCHECK(hipMalloc(&of, (size_t)fx * fy * TR * 32 * 4));
  hipLaunchKernelGGL(k_group_f32, dim3(fx, fy), dim3(NT), 0, 0, gf, of);
  HIPCHECK(hipDeviceSynchronize());
  HIPCHECK(hipMemcpy(hof, of, (size_t)fx * fy * TR * 32 * 4, hipMemcpyDeviceToHost));
  for (int ty = 0; ty < fy; ty++)
    for (int tx = 0; tx < fx; tx++)
      for (int r = 0; r < TR; r++)
        for (int c = 0; c < 32; c++) {
          int64_t gr = (int64_t)ty * TR + r, gc = (int64_t)tx * 32 + c;
          float want = (gr < R && gc < C) ? hf[gr * C + gc] : 0.0f;
          float got = hof[((size_t)(ty * fx + tx) * TR + r) * 32 + c];
          EXPECT(got == want, "f32 tile (%d,%d) elem (%d,%d): %g want %g", ty, tx, r, c, got, want);
        }
  // prefetch
  uint16_t *pa, *pb, *pc, *pd, hpa[32 * 64], hpb[32 * 64], hpc[32 * 64], hpd[32 * 64];
  HIPCHECK(hipMalloc(&pa, sizeof hpa));
  HIPCHECK(hipMalloc(&pb, sizeof hpb));
  HIPCHECK(hipMalloc(&pc, sizeof hpc));
  HIPCHECK(hipMalloc(&pd, sizeof hpd));
  hipLaunchKernelGGL(k_prefetch, dim3(1), dim3(NT), 0, 0, g, pa, pb);
  hipLaunchKernelGGL(k_rowshift_read, dim3(1), dim3(NT), 0, 0, g, pc);
  hipLaunchKernelGGL(k_rowshift_frag, dim3(1), dim3(NT), 0, 0, g, pd);
  HIPCHECK(hipDeviceSynchronize());
  HIPCHECK(hipMemcpy(hpa, pa, sizeof hpa, hipMemcpyDeviceToHost));
  HIPCHECK(hipMemcpy(hpb, pb, sizeof hpb, hipMemcpyDeviceToHost));
  HIPCHECK(hipMemcpy(hpc, pc, sizeof hpc, hipMemcpyDeviceToHost));
  HIPCHECK(hipMemcpy(hpd, pd, sizeof hpd, hipMemcpyDeviceToHost));
  for (int f = 0; f < 8; f++)
    for (int i = 0; i < 4; i++)
      for (int l = 0; l < 64; l++) {
        // A: rt_a is 64x64 of 32x8 fragments: fr = f / 8? no: fr in 0..1, fc in 0..7
        int fr = f / 8, fc = f % 8;  // f < 8: first fragment row only is stored
        int ar = fr * 32 + tk_layout_a_row(32, 4, l, i), ac = fc * 8 + tk_layout_a_col(32, 4, l, i);
        EXPECT(hpa[(f * 4 + i) * 64 + l] == h[ar * C + ac], "prefetch A frag %d lane %d i %d", f, l, i);
        // B: rt_b is 64(K)x32(N) of 16x16 fragments: fr (K) 0..3, fc (N) 0..1
        int br = f / 2, bc = f % 2;
        int k = br * 16 + tk_layout_b_row(16, 4, l, i), n = bc * 16 + tk_layout_b_col(16, 4, l, i);
        // B^T lives in tensor rows 32 + n, columns k
        EXPECT(hpb[(f * 4 + i) * 64 + l] == h[(32 + n) * C + k], "prefetch B frag %d lane %d i %d", f, l, i);
        // tk_prefetch_issue_rows(r0 = 16, RS = 16): the same rows 32 + n
        EXPECT(hpc[(f * 4 + i) * 64 + l] == h[(32 + n) * C + k], "prefetch_rows B frag %d lane %d i %d", f, l, i);
        // tk_prefetch_issue_rows_frag, fragment by fragment: the same rows 32 + n
        EXPECT(hpd[(f * 4 + i) * 64 + l] == h[(32 + n) * C + k], "prefetch_rows_frag B frag %d lane %d i %d", f, l, i);
      }
  if (bad) { fprintf(stderr, "test_loads: %d mismatches\n", bad); return 1; }
  printf("test_loads: group bf16 swz/linear + direct%s: %d tiles of %dx%d, f32 %d tiles, prefetch A/B, row-shifted B and its fragment-by-fragment reads: all match\n",
         has_x4 ? " + direct x4 swz/linear" : " (no 16-byte direct loads on this target)", gx * gy, TR, TC, fx * fy);
  return 0;
}
