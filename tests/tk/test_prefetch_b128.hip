// Device test of the ds_read_b128 prefetch (TK_PENDING_B128,
// tk_prefetch_issue_b128, tk_prefetch_wait_b128), against references that
// do not use it:
//  1. fragment contents: every (lane, fragment, element) of an A tile
//     (32x32x8 bf16 kind, 32x64) and of a B tile (16x16x16 bf16 kind, 64(K) x
//     32(N), read from the transposed LDS tile) equals the tensor element the
//     documented paired K order names: fragment kf, lane group h = l / S,
//     element i <-> K column (kf & ~1)*FK + 2*KW*h + KW*(kf & 1) + i
//     (tk/loads.h), row / column from register.h's layout;
//  2. a product: A (32 x 64) and Bt (32 x 64) both read with the b128
//     prefetch, tk_mma_ABt, compared with the CPU product in double
//     (the K order is the same for both operands, so it cancels), tolerance
//     K * 2^-24 * sum |a*b| (f32 accumulation in any order).
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include "tk/tk.h"

#define NT 256
TK_ST(st_t, tk_bf16, 64, 64, TK_LDS_SWZ);
TK_STAGE(stage_t, st_t, NT);
TK_RT(rt_a, TK_K_A_BF16_32x32x8, 32, 64);
TK_RT(rt_b, TK_K_B_BF16_16x16x16, 64, 32);
TK_PENDING_B128(pend_a, rt_a);
TK_PENDING_B128(pend_b, rt_b);

// g: 64 x 64 bf16; A = rows 0..63; B^T (N x K) = rows 32..63
__global__ void k_contents(tk_gl g, uint16_t *out_a, uint16_t *out_b) {
  __shared__ st_t s;
  const tk_rsrc rs = tk_gl_rsrc(&g);
  const uint32_t tid = threadIdx.x;
  stage_t p;
  tk_load(s, p, &g, rs, 0, 0, 0, 0, tid);
  tk_lds_barrier();
  if (tid < 64) {
    pend_a pa;
    pend_b pb;
    rt_a a;
    rt_b b;
    tk_prefetch_issue_b128(pa, s, 0, 0);
    tk_prefetch_issue_b128_rows(pb, s, 16, 0, 16);  // rows 32..: r0 16 plus a 16-row shift in the offset field
    tk_prefetch_wait_b128(a, pa, rt_b::tk_frag_count_r * rt_b::tk_frag_count_c / 2);  // pb's reads may still fly
    tk_prefetch_wait_b128(b, pb, 0);
    for (int f = 0; f < 8; f++)
      for (int i = 0; i < 4; i++) {
        out_a[(f * 4 + i) * 64 + tid] = (uint16_t)a.f[f][i];
        out_b[(f * 4 + i) * 64 + tid] = (uint16_t)b.f[f][i];
      }
  }
}

TK_ST(op_st, tk_bf16, 32, 64, TK_LDS_SWZ);
TK_STAGE(op_stage, op_st, 64);
TK_RT(op_rt, TK_K_A_BF16_32x32x8, 32, 64);
TK_PENDING_B128(op_pend, op_rt);
TK_RT(acc_rt, TK_K_C_F32_32x32, 32, 32);

// C (32 x 32 f32) = A (32 x 64) * Bt^T, Bt 32 x 64; one wave
__global__ void k_product(tk_gl ga, tk_gl gbt, tk_gl gc) {
  __shared__ op_st as, bs;
  const tk_rsrc ra = tk_gl_rsrc(&ga), rb = tk_gl_rsrc(&gbt), rc = tk_gl_rsrc(&gc);
  op_stage sa, sb;
  tk_load_issue(sa, &ga, ra, 0, 0, 0, 0, threadIdx.x);
  tk_load_issue(sb, &gbt, rb, 0, 0, 0, 0, threadIdx.x);
  tk_load_commit(as, sa, threadIdx.x, TK_STAGE_NLOADS(sb));
  tk_load_commit(bs, sb, threadIdx.x, 0);
  tk_lds_barrier();
  op_pend pa, pb;
  op_rt fa, fb;
  tk_prefetch_issue_b128(pa, as, 0, 0);
  tk_prefetch_issue_b128(pb, bs, 0, 0);
  tk_prefetch_wait_b128(fa, pa, 4);
  tk_prefetch_wait_b128(fb, pb, 0);
  acc_rt acc;
  tk_rt_zero(acc);
  tk_mma_ABt(acc, fa, fb, acc);
  tk_store_acc_f32(&gc, rc, 0, 0, 0, 0, acc, 1.0f, 0.0f);
}

#define HIPCHECK(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_)); exit(2); } } while (0)
static int bad = 0, checks = 0;
#define EXPECT(c, ...) do { checks++; if (!(c)) { if (bad++ < 10) { printf("FAIL: " __VA_ARGS__); printf("\n"); } } } while (0)

static float bf(uint16_t h) { uint32_t u = (uint32_t)h << 16; float f; __builtin_memcpy(&f, &u, 4); return f; }
// paired K order (tk/loads.h): fragment kf, lane group h, element i
static int kpair(int kf, int fk, int kw, int h, int i) { return (kf & ~1) * fk + 2 * kw * h + kw * (kf & 1) + i; }

int main(void) {
  // 1. contents
  std::vector<uint16_t> h(64 * 64);
  for (size_t i = 0; i < h.size(); i++) h[i] = (uint16_t)(1 + (i * 2654435761u >> 9) % 60000);
  uint16_t *d, *oa, *ob;
  HIPCHECK(hipMalloc(&d, h.size() * 2));
  HIPCHECK(hipMalloc(&oa, 32 * 64 * 2));
  HIPCHECK(hipMalloc(&ob, 32 * 64 * 2));
  HIPCHECK(hipMemcpy(d, h.data(), h.size() * 2, hipMemcpyHostToDevice));
  tk_gl g;
  const int64_t dims[2] = {64, 64};
  if (tk_gl_make(&g, d, 2, 2, dims, NULL) != TK_OK) { printf("tk_gl_make failed\n"); return 2; }
  hipLaunchKernelGGL(k_contents, dim3(1), dim3(NT), 0, 0, g, oa, ob);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint16_t> ha(32 * 64), hb(32 * 64);
  HIPCHECK(hipMemcpy(ha.data(), oa, ha.size() * 2, hipMemcpyDeviceToHost));
  HIPCHECK(hipMemcpy(hb.data(), ob, hb.size() * 2, hipMemcpyDeviceToHost));
  for (int l = 0; l < 64; l++)
    for (int f = 0; f < 8; f++)
      for (int i = 0; i < 4; i++) {
        // A: 1 x 8 fragments of 32 x 8; fragment (fr, kf) = f / 8, f % 8
        const int fr = f / 8, kf = f % 8;
        const int row = fr * 32 + tk_layout_a_row(32, 4, l, i);
        const int k = kpair(kf, 8, 4, l / 32, i);
        EXPECT(ha[(f * 4 + i) * 64 + l] == h[row * 64 + k], "A lane %d frag %d elem %d: got %04x want (%d,%d) %04x", l,
               f, i, ha[(f * 4 + i) * 64 + l], row, k, h[row * 64 + k]);
        // B: 4 x 2 fragments of 16(K) x 16(N); fragment (kf, fc) = f / 2, f % 2
        const int bkf = f / 2, fc = f % 2;
        const int n = fc * 16 + tk_layout_b_col(16, 4, l, i);
        const int bk = kpair(bkf, 16, 4, l / 16, i);
        EXPECT(hb[(f * 4 + i) * 64 + l] == h[(32 + n) * 64 + bk], "B lane %d frag %d elem %d: got %04x want (n %d,k %d) %04x",
               l, f, i, hb[(f * 4 + i) * 64 + l], n, bk, h[(32 + n) * 64 + bk]);
      }
  // 2. product
  std::vector<uint16_t> A(32 * 64), Bt(32 * 64);
  for (auto &v : A) v = (uint16_t)(0x3c00 + rand() % 0x300) ^ (uint16_t)((rand() & 1) << 15);
  for (auto &v : Bt) v = (uint16_t)(0x3c00 + rand() % 0x300) ^ (uint16_t)((rand() & 1) << 15);
  uint16_t *dA, *dB;
  float *dC;
  HIPCHECK(hipMalloc(&dA, A.size() * 2));
  HIPCHECK(hipMalloc(&dB, Bt.size() * 2));
  HIPCHECK(hipMalloc(&dC, 32 * 32 * 4));
  HIPCHECK(hipMemcpy(dA, A.data(), A.size() * 2, hipMemcpyHostToDevice));
  HIPCHECK(hipMemcpy(dB, Bt.data(), Bt.size() * 2, hipMemcpyHostToDevice));
  tk_gl ga, gb, gc;
  const int64_t od[2] = {32, 64}, cd[2] = {32, 32};
  if (tk_gl_make(&ga, dA, 2, 2, od, NULL) || tk_gl_make(&gb, dB, 2, 2, od, NULL) || tk_gl_make(&gc, dC, 4, 2, cd, NULL)) {
    printf("tk_gl_make failed\n");
    return 2;
  }
  hipLaunchKernelGGL(k_product, dim3(1), dim3(64), 0, 0, ga, gb, gc);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<float> C(32 * 32);
  HIPCHECK(hipMemcpy(C.data(), dC, C.size() * 4, hipMemcpyDeviceToHost));
  for (int m = 0; m < 32; m++)
    for (int n = 0; n < 32; n++) {
      double ref = 0, mag = 0;
      for (int k = 0; k < 64; k++) {
        const double t = (double)bf(A[m * 64 + k]) * bf(Bt[n * 64 + k]);
        ref += t;
        mag += fabs(t);
      }
      EXPECT(fabs(C[m * 32 + n] - ref) <= 64 * ldexp(mag, -24) + 1e-30, "C(%d,%d) = %.9g, want %.9g", m, n, C[m * 32 + n], ref);
    }
  printf("test_prefetch_b128: %d checks (A/B fragment contents in the paired K order, 32x32x64 product): %d failed\n",
         checks, bad);
  return bad ? 1 : 0;
}
