// reduction.hip: sum of 2^20 integers: each wave reduces with DPP
// (row_shr, row_bcast via __builtin_amdgcn_update_dpp) and __shfl_xor
// variants, waves combine through LDS, blocks through atomicAdd. Integer sums
// are exact, so the result must equal the host's sum exactly.
#include "../isa/vtest.h"

/* wave sum with __shfl_xor butterflies */
__device__ int wave_sum_shfl(int v)
{
  for (int m = 32; m >= 1; m >>= 1) v += __shfl_xor(v, m);
  return v;
}

/* wave sum with DPP row shifts, then row broadcasts (the classic GCN
 * reduction: result complete in lane 63) */
__device__ int wave_sum_dpp(int v)
{
  v += __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, true); /* row_shr:1 */
  v += __builtin_amdgcn_update_dpp(0, v, 0x112, 0xf, 0xf, true); /* row_shr:2 */
  v += __builtin_amdgcn_update_dpp(0, v, 0x114, 0xf, 0xf, true); /* row_shr:4 */
  v += __builtin_amdgcn_update_dpp(0, v, 0x118, 0xf, 0xf, true); /* row_shr:8 */
  v += __builtin_amdgcn_update_dpp(0, v, 0x142, 0xa, 0xf, false); /* row_bcast:15 */
  v += __builtin_amdgcn_update_dpp(0, v, 0x143, 0xc, 0xf, false); /* row_bcast:31 */
  return __builtin_amdgcn_readlane(v, 63);
}

__global__ void reduce(const int *x, int n, long long *out_shfl, long long *out_dpp)
{
  __shared__ int part_s[16], part_d[16];
  int t = threadIdx.x, w = t / 64, nw = blockDim.x / 64;
  int acc = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) acc += x[i];
  int s = wave_sum_shfl(acc), d = wave_sum_dpp(acc);
  if (t % 64 == 0) { part_s[w] = s; part_d[w] = d; }
  __syncthreads();
  if (t == 0) {
    long long bs = 0, bd = 0;
    for (int k = 0; k < nw; k++) { bs += part_s[k]; bd += part_d[k]; }
    atomicAdd((unsigned long long *)out_shfl, (unsigned long long)bs);
    atomicAdd((unsigned long long *)out_dpp, (unsigned long long)bd);
  }
}

int main()
{
  const int n = 1 << 20;
  std::vector<int> x(n);
  uint64_t s = 5;
  long long want = 0;
  for (int i = 0; i < n; i++) { x[i] = (int)(vt_rand(&s) % 2001) - 1000; want += x[i]; }
  vt_buf<int> dx(x);
  vt_buf<long long> r1(1), r2(1);
  r1.zero(); r2.zero();
  reduce<<<40, 256>>>(dx.d, n, r1.d, r2.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  vt_check_u64("sum via __shfl_xor", 0, (uint64_t)r1.get()[0], (uint64_t)want);
  vt_check_u64("sum via DPP", 0, (uint64_t)r2.get()[0], (uint64_t)want);
  return vt_finish("reduction");
}
