// Device test for tk/grid.h's host-made reciprocals: tk_udiv_q on the device
// (s_mul_hi_u32 for a wave-uniform divisor, v_mul_hi_u32 for per-lane
// numerators) against the CPU's plain division, divisors at the 2^k edges and
// small ones, numerators 0, 1, d - 1, d, d + 1, 2^31 - 1 .. 2^32 - 1 and spread
// values; tk_grid_l2_order_at with the reciprocals made on the host against the
// CPU's tk_grid_l2_order for grids up to 19 x 23 tiles, groups 1, 3 and 8
// (short last groups included).
#include "tk_test.h"
#include "tk/grid.h"

#define NPER 64 /* numerators per divisor: one per lane */

__global__ void k_udiv(const tk_udiv *v, const uint32_t *num, uint32_t *q) {
  const tk_udiv d = v[blockIdx.x]; /* wave-uniform: the SALU form */
  const uint32_t i = blockIdx.x * NPER + threadIdx.x;
  q[i] = tk_udiv_q(num[i], d);
}

__global__ void k_l2(const tk_grid_l2 *g, uint32_t n, uint32_t *out) {
  for (uint32_t id = threadIdx.x; id < n; id += blockDim.x) {
    uint32_t tm, tn;
    tk_grid_l2_order_at(&g[blockIdx.x], id, &tm, &tn);
    out[blockIdx.x * 512 + id] = tm << 16 | tn;
  }
}

int main(void) {
  const uint32_t ds[] = {1u, 2u, 3u, 5u, 7u, 8u, 9u, 24u, 100u, 641u, 65535u, 65536u, 65537u, (1u << 24) - 1,
                         1u << 24, (1u << 24) + 1, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu};
  const int nd = sizeof ds / sizeof ds[0];
  std::vector<tk_udiv> v(nd);
  std::vector<uint32_t> num(nd * NPER);
  for (int j = 0; j < nd; j++) {
    const uint32_t d = ds[j];
    v[j] = tk_udiv_make(d);
    const uint32_t edge[] = {0u, 1u, d - 1, d, d + 1, 2 * d - 1, 2 * d, 2 * d + 1, 0x7fffffffu, 0x80000000u,
                             0xfffffffeu, 0xffffffffu};
    for (int i = 0; i < NPER; i++)
      num[j * NPER + i] = i < 12 ? edge[i] : (uint32_t)(i * 2654435761u) ^ (uint32_t)(j * 40503u);
  }
  tk_udiv *dv = tt_dev(v);
  uint32_t *dn = tt_dev(num), *dq = tt_dev(std::vector<uint32_t>(nd * NPER, 0xdeadbeefu));
  hipLaunchKernelGGL(k_udiv, dim3(nd), dim3(NPER), 0, 0, dv, dn, dq);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  const std::vector<uint32_t> q = tt_host(dq, nd * NPER);
  int bad = 0;
  for (int j = 0; j < nd; j++)
    for (int i = 0; i < NPER; i++)
      if (q[j * NPER + i] != num[j * NPER + i] / ds[j]) {
        if (bad++ < 10) printf("tk_udiv_q %u / %u: %u, want %u\n", num[j * NPER + i], ds[j], q[j * NPER + i], num[j * NPER + i] / ds[j]);
      }

  /* grids: (tiles_m, tiles_n, group) with at most 512 tiles */
  const uint32_t shapes[][3] = {{1, 1, 8}, {8, 8, 8}, {19, 23, 8}, {17, 5, 8}, {9, 1, 8}, {1, 40, 8},
                                {16, 16, 1}, {7, 13, 3}, {12, 30, 8}, {23, 19, 3}};
  const int ns = sizeof shapes / sizeof shapes[0];
  std::vector<tk_grid_l2> g(ns);
  for (int s = 0; s < ns; s++) g[s] = tk_grid_l2_make(shapes[s][0], shapes[s][1], shapes[s][2]);
  tk_grid_l2 *dg = tt_dev(g);
  uint32_t *dout = tt_dev(std::vector<uint32_t>(ns * 512, 0xffffffffu));
  int badl = 0;
  /* one launch per shape (its tile count) */
  for (int s = 0; s < ns; s++) {
    const uint32_t n = shapes[s][0] * shapes[s][1];
    hipLaunchKernelGGL(k_l2, dim3(1), dim3(256), 0, 0, dg + s, n, dout + s * 512);
    HIPCHECK(hipGetLastError());
  }
  HIPCHECK(hipDeviceSynchronize());
  const std::vector<uint32_t> out = tt_host(dout, ns * 512);
  for (int s = 0; s < ns; s++)
    for (uint32_t id = 0; id < shapes[s][0] * shapes[s][1]; id++) {
      uint32_t tm, tn;
      tk_grid_l2_order(id, shapes[s][0], shapes[s][1], shapes[s][2], &tm, &tn);
      if (out[s * 512 + id] != (tm << 16 | tn) && badl++ < 10)
        printf("tk_grid_l2_order_at %u of %ux%u group %u: %u,%u want %u,%u\n", id, shapes[s][0], shapes[s][1],
               shapes[s][2], out[s * 512 + id] >> 16, out[s * 512 + id] & 0xffff, tm, tn);
    }
  if (bad || badl) {
    printf("FAIL: %d division and %d tile-map mismatches\n", bad, badl);
    return 1;
  }
  printf("PASS: tk_udiv_q %d divisors x %d numerators, tk_grid_l2_order_at %d grids\n", nd, NPER, ns);
  return 0;
}
