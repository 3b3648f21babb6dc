// tk_permlane32_swap (tk/register.h, gfx950's v_permlane32_swap_b32) against
// a CPU model of the documented lane exchange (CDNA4 ISA guide, VOP1
// V_PERMLANE32_SWAP_B32; LLVM llvm.amdgcn.permlane32.swap): per wave, x's
// lanes 32-63 trade places with y's lanes 0-31, so afterwards
//   x'[l] = l < 32 ? x[l] : y[l - 32],   y'[l] = l < 32 ? x[l + 32] : y[l].
// Every input word is random and distinct per lane and wave, so any other
// exchange (none, the other half, across waves, x and y mixed up) shows.
//  1. plain uint32_t values, 4 waves;
//  2. components of tk_u32x4 vectors, as the MX GEMM's whole-line operand
//     loads use it: a.c with b.c for each c, and the mixed pair (a.x, b.w);
//  3. two swaps in a row restore the inputs (the exchange is its own
//     inverse), each step against the model.
// Needs a gfx950 device (tksim --arch=gfx950); gfx942 refuses the primitive
// at compile time (tests/tk/compile_fail/permlane32_swap_gfx942.hip).
#include "../tk_test.h"
#include "tk/tk.h"

/* a two-target build compiles this file for gfx942 too, where the primitive is refused: that
 * pass gets kernels without the swaps (the test runs on gfx950 only, ARCHS gfx950) */
#if TK_HAS_PERMLANE_SWAP || !TK_DEVICE_PASS
#define SWAP(a, b) tk_permlane32_swap(a, b)
#else
#define SWAP(a, b) ((void)(a), (void)(b))
#endif

#define NWAVE 4
#define NT (64 * NWAVE)

/* the CPU model: one wave's x, y (64 words each) -> after the swap */
static void model_swap(const uint32_t *x, const uint32_t *y, uint32_t *xo, uint32_t *yo) {
  for (int l = 0; l < 64; l++) {
    xo[l] = l < 32 ? x[l] : y[l - 32];
    yo[l] = l < 32 ? x[l + 32] : y[l];
  }
}

/* ---- 1. scalars ---- */
__global__ void k_scalar(const uint32_t *x, const uint32_t *y, uint32_t *xo, uint32_t *yo) {
  const uint32_t t = threadIdx.x;
  uint32_t a = x[t], b = y[t];
  SWAP(a, b);
  xo[t] = a;
  yo[t] = b;
}

static void test_scalar(void) {
  std::vector<uint32_t> x(NT), y(NT);
  for (int i = 0; i < NT; i++) x[i] = tt_rand(), y[i] = tt_rand();
  uint32_t *dx = tt_dev(x), *dy = tt_dev(y);
  uint32_t *dxo = tt_dev(std::vector<uint32_t>(NT, 0)), *dyo = tt_dev(std::vector<uint32_t>(NT, 0));
  hipLaunchKernelGGL(k_scalar, dim3(1), dim3(NT), 0, 0, dx, dy, dxo, dyo);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint32_t> xo = tt_host(dxo, NT), yo = tt_host(dyo, NT);
  int bad = 0;
  for (int w = 0; w < NWAVE; w++) {
    uint32_t wx[64], wy[64];
    model_swap(&x[64 * w], &y[64 * w], wx, wy);
    for (int l = 0; l < 64; l++)
      if (xo[64 * w + l] != wx[l] || yo[64 * w + l] != wy[l]) {
        if (bad++ < 4)
          printf("  scalar: wave %d lane %d: (x, y) = (%08x, %08x), want (%08x, %08x)\n", w, l, xo[64 * w + l],
                 yo[64 * w + l], wx[l], wy[l]);
      }
  }
  TT_CHECK(bad == 0, "tk_permlane32_swap on uint32_t: %d lanes differ from the model", bad);
  HIPCHECK(hipFree(dx)); HIPCHECK(hipFree(dy)); HIPCHECK(hipFree(dxo)); HIPCHECK(hipFree(dyo));
}

/* ---- 2. vector components ---- */
/* in: words [c][t] of a (c 0..3) then of b; out: a's 4 then b's 4 after
 * the swaps (a.x, b.x), (a.y, b.y), (a.z, b.z), then the mixed pair (a.x,
 * b.w); a.w is never swapped */
__global__ void k_vec(const uint32_t *in, uint32_t *out) {
  const uint32_t t = threadIdx.x;
  tk_u32x4 a = {in[0 * NT + t], in[1 * NT + t], in[2 * NT + t], in[3 * NT + t]};
  tk_u32x4 b = {in[4 * NT + t], in[5 * NT + t], in[6 * NT + t], in[7 * NT + t]};
  SWAP(a.x, b.x);
  SWAP(a.y, b.y);
  SWAP(a.z, b.z);
  SWAP(a.x, b.w); /* a.x already swapped once; b.w untouched */
  out[0 * NT + t] = a.x; out[1 * NT + t] = a.y; out[2 * NT + t] = a.z; out[3 * NT + t] = a.w;
  out[4 * NT + t] = b.x; out[5 * NT + t] = b.y; out[6 * NT + t] = b.z; out[7 * NT + t] = b.w;
}

static void test_vec(void) {
  std::vector<uint32_t> in(8 * NT);
  for (auto &v : in) v = tt_rand();
  uint32_t *din = tt_dev(in), *dout = tt_dev(std::vector<uint32_t>(8 * NT, 0));
  hipLaunchKernelGGL(k_vec, dim3(1), dim3(NT), 0, 0, din, dout);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint32_t> got = tt_host(dout, 8 * NT);
  int bad = 0;
  for (int w = 0; w < NWAVE; w++) {
    uint32_t r[8][64]; /* the model's registers a.x..a.w, b.x..b.w of this wave */
    for (int c = 0; c < 8; c++)
      for (int l = 0; l < 64; l++) r[c][l] = in[c * NT + 64 * w + l];
    uint32_t tx[64], ty[64];
    const int pairs[4][2] = {{0, 4}, {1, 5}, {2, 6}, {0, 7}};
    for (int p = 0; p < 4; p++) {
      model_swap(r[pairs[p][0]], r[pairs[p][1]], tx, ty);
      for (int l = 0; l < 64; l++) r[pairs[p][0]][l] = tx[l], r[pairs[p][1]][l] = ty[l];
    }
    for (int c = 0; c < 8; c++)
      for (int l = 0; l < 64; l++)
        if (got[c * NT + 64 * w + l] != r[c][l]) {
          if (bad++ < 4)
            printf("  vec: wave %d lane %d component %c.%c: %08x, want %08x\n", w, l, c < 4 ? 'a' : 'b', "xyzw"[c % 4],
                   got[c * NT + 64 * w + l], r[c][l]);
        }
  }
  TT_CHECK(bad == 0, "tk_permlane32_swap on tk_u32x4 components: %d words differ from the model", bad);
  HIPCHECK(hipFree(din)); HIPCHECK(hipFree(dout));
}

/* ---- 3. twice: the inputs again, once: the model ---- */
__global__ void k_twice(const uint32_t *x, const uint32_t *y, uint32_t *o) {
  const uint32_t t = threadIdx.x;
  uint32_t a = x[t], b = y[t];
  SWAP(a, b);
  o[0 * NT + t] = a;
  o[1 * NT + t] = b;
  SWAP(a, b);
  o[2 * NT + t] = a;
  o[3 * NT + t] = b;
}

static void test_twice(void) {
  std::vector<uint32_t> x(NT), y(NT);
  for (int i = 0; i < NT; i++) x[i] = tt_rand(), y[i] = tt_rand();
  uint32_t *dx = tt_dev(x), *dy = tt_dev(y), *dout = tt_dev(std::vector<uint32_t>(4 * NT, 0));
  hipLaunchKernelGGL(k_twice, dim3(1), dim3(NT), 0, 0, dx, dy, dout);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint32_t> got = tt_host(dout, 4 * NT);
  int bad1 = 0, bad2 = 0;
  for (int w = 0; w < NWAVE; w++) {
    uint32_t wx[64], wy[64];
    model_swap(&x[64 * w], &y[64 * w], wx, wy);
    for (int l = 0; l < 64; l++) {
      const int t = 64 * w + l;
      bad1 += got[0 * NT + t] != wx[l] || got[1 * NT + t] != wy[l];
      bad2 += got[2 * NT + t] != x[t] || got[3 * NT + t] != y[t];
    }
  }
  TT_CHECK(bad1 == 0, "first of two swaps: %d lanes differ from the model", bad1);
  TT_CHECK(bad2 == 0, "second of two swaps: %d lanes do not hold the inputs again", bad2);
  HIPCHECK(hipFree(dx)); HIPCHECK(hipFree(dy)); HIPCHECK(hipFree(dout));
}

int main(void) {
  test_scalar();
  test_vec();
  test_twice();
  return tt_finish();
}
