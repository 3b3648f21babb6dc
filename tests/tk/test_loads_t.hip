// Device test of tk/loads.h's transposing group loads (a TK_STAGE with
// tk_load_issue_t, tk_load_commit_t): a K x N bf16 tensor (rows = K) is
// loaded window by window into N x K LDS tiles, swizzled and linear, and
// every LDS element (read back through shared.h's tk_lds_offset) must equal
// the CPU transpose: tile (n, k) = tensor (k0 + k, n0 + n), 0 where k0 + k
// is past K.  Windows cover the interior, the K edge (rows past K read 0),
// and the N edge in whole 8-column chunks.  Two batches are in flight before
// the first commit, as in a kernel that overlaps them with MFMAs; the second
// commit goes unit by unit (tk_load_commit_t_part); a third tile is issued unit by
// unit (tk_load_issue_t_part) and committed one write at a time in a scrambled
// order (tk_load_commit_t_rows).
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include "tk/loads.h"

#define NT 256
#define TN 128 /* LDS tile rows: N */
#define TK 32  /* LDS tile cols: K */
TK_ST(st_swz, tk_bf16, TN, TK, TK_LDS_SWZ);
TK_ST(st_lin, tk_bf16, TN, TK, TK_LDS_LINEAR);
TK_STAGE(stage_swz, st_swz, NT);
TK_STAGE(stage_lin, st_lin, NT);

// block (bx, by): window at K row by*TK, N column bx*TN
__global__ void k_trans(tk_gl g, uint16_t *out_swz, uint16_t *out_lin, uint16_t *out_rows) {
  __shared__ st_swz sa, sc;
  __shared__ st_lin sb;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const uint32_t tid = threadIdx.x;
  const int64_t k0 = (int64_t)blockIdx.y * TK, n0 = (int64_t)blockIdx.x * TN;
  stage_swz pa;
  stage_lin pb;
  tk_load_issue_t(pa, &g, rs, 0, 0, k0, n0, tid);
  tk_load_issue_t(pb, &g, rs, 0, 0, k0, n0, tid);
  tk_load_commit_t(sa, pa, tid, TK_STAGE_NLOADS(pb));  // pb's loads may still fly
  // the linear tile's commit in parts, last unit first (tk_load_commit_t_part)
  TK_WAIT_VMCNT(0);
  for (int u = TK_STAGE_T_UNITS(pb) - 1; u >= 0; u--) tk_load_commit_t_part(sb, pb, tid, u, 1);
  // the third tile: units issued last first, writes committed in the order 5,2,7,4,1,6,3,0
  stage_swz pc;
  for (int u = TK_STAGE_T_UNITS(pc) - 1; u >= 0; u--) tk_load_issue_t_part(pc, &g, rs, 0, 0, k0, n0, tid, u, 1);
  TK_WAIT_VMCNT(0);
  for (int q = 0; q < 8; q++)
    for (int u = 0; u < TK_STAGE_T_UNITS(pc); u++) tk_load_commit_t_rows(sc, pc, tid, u, (5 + 5 * q) % 8, 1);
  tk_lds_barrier();
  const size_t tile = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
  for (uint32_t e = tid; e < TN * TK; e += NT) {
    const uint32_t n = e / TK, k = e % TK;
    out_swz[tile * TN * TK + e] = *(const uint16_t *)((const char *)sa.data + tk_st_offset(st_swz, n, k));
    out_lin[tile * TN * TK + e] = *(const uint16_t *)((const char *)sb.data + tk_st_offset(st_lin, n, k));
    out_rows[tile * TN * TK + e] = *(const uint16_t *)((const char *)sc.data + tk_st_offset(st_swz, n, k));
  }
}

#define HIPCHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_)); exit(2); } } while (0)

int main(void) {
  int bad = 0, checked = 0;
  // K = 72 (K edge inside the third window), N = 256 + 64 (third window half
  // outside), row stride 328 (padding columns must not leak in)
  const int64_t K = 72, N = 320, LD = 328;
  std::vector<uint16_t> h((size_t)(K * LD));
  for (size_t i = 0; i < h.size(); i++) h[i] = (uint16_t)(0x3c00u + (i * 2654435761u >> 20) % 0x3ff) ^ (uint16_t)((i & 1) << 15);
  uint16_t *d;
  HIPCHECK(hipMalloc(&d, h.size() * 2));
  HIPCHECK(hipMemcpy(d, h.data(), h.size() * 2, hipMemcpyHostToDevice));
  tk_gl g;
  const int64_t dims[2] = {K, N}, strides[2] = {LD, 1};
  if (tk_gl_make(&g, d, 2, 2, dims, strides) != TK_OK) { printf("tk_gl_make failed\n"); return 1; }
  const int gx = (int)((N + TN - 1) / TN), gy = (int)((K + TK - 1) / TK) + 1;  // + one window past K
  const size_t tiles = (size_t)gx * gy, n = tiles * TN * TK;
  uint16_t *os, *ol, *orw;
  HIPCHECK(hipMalloc(&os, n * 2));
  HIPCHECK(hipMalloc(&ol, n * 2));
  HIPCHECK(hipMalloc(&orw, n * 2));
  hipLaunchKernelGGL(k_trans, dim3(gx, gy), dim3(NT), 0, 0, g, os, ol, orw);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint16_t> hs(n), hl(n), hr(n);
  HIPCHECK(hipMemcpy(hr.data(), orw, n * 2, hipMemcpyDeviceToHost));
  HIPCHECK(hipMemcpy(hs.data(), os, n * 2, hipMemcpyDeviceToHost));
  HIPCHECK(hipMemcpy(hl.data(), ol, n * 2, hipMemcpyDeviceToHost));
  for (int by = 0; by < gy; by++)
    for (int bx = 0; bx < gx; bx++)
      for (int nn = 0; nn < TN; nn++)
        for (int kk = 0; kk < TK; kk++) {
          const int64_t gk = (int64_t)by * TK + kk, gn = (int64_t)bx * TN + nn;
          const uint16_t want = (gk < K && gn < N) ? h[(size_t)(gk * LD + gn)] : 0;
          const size_t i = ((size_t)by * gx + bx) * TN * TK + (size_t)nn * TK + kk;
          checked++;
          if (hs[i] != want || hl[i] != want || hr[i] != want) {
            if (bad++ < 8)
              printf("FAIL window (%d,%d) tile (n %d, k %d): swz %04x lin %04x rows %04x want %04x\n", by, bx, nn, kk,
                     hs[i], hl[i], hr[i], want);
          }
        }
  printf("test_loads_t: %d elements of %d windows (K %lld x N %lld, ld %lld) transposed into 128x32 tiles: %s\n",
         checked, (int)tiles, (long long)K, (long long)N, (long long)LD, bad ? "MISMATCH" : "all match");
  return bad ? 1 : 0;
}
