// gemm_mfma.hip: C = A*B (f16 inputs, f32 accumulate) with
// v_mfma_f32_32x32x8_f16, the way a tile kernel does it: 4 waves per 64x64
// block tile, K staged through LDS 32 at a time with barriers, each wave
// accumulating a 32x32 tile over K/8 chained MFMAs. Operand and result lane
// layouts (AMD matrix instruction calculator, 32x32x8 f16): A[i][k] in lane
// i + 32*(k/4), element k%4; B[k][j] in lane j + 32*(k/4), element k%4;
// D[i][j] in lane j + 32*((i/4)%2), register (i%4) + 4*(i/8). Small-integer
// inputs keep every sum exact, so the host product is matched bit for bit.
#include "../isa/vtest.h"

typedef _Float16 h4 __attribute__((ext_vector_type(4)));
typedef float f16v __attribute__((ext_vector_type(16)));

#define BM 64
#define BN 64
#define BK 32

__global__ void gemm(const _Float16 *A, const _Float16 *B, float *C, int M, int N, int K)
{
  __shared__ _Float16 As[BM][BK + 4]; /* +4 halves: rows start on different banks */
  __shared__ _Float16 Bs[BK][BN + 4];
  int t = threadIdx.x, w = t / 64, l = t % 64;
  int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  if (row0 >= M || col0 >= N) return; /* grid larger than the matrix: nothing to do */
  int wr = (w / 2) * 32, wc = (w % 2) * 32; /* this wave's 32x32 sub-tile */
  f16v acc = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = t; e < BM * BK; e += 256) As[e / BK][e % BK] = A[(size_t)(row0 + e / BK) * K + k0 + e % BK];
    for (int e = t; e < BK * BN; e += 256) Bs[e / BN][e % BN] = B[(size_t)(k0 + e / BN) * N + col0 + e % BN];
    __syncthreads();
    for (int kk = 0; kk < BK; kk += 8) {
      int i = l % 32, kb = kk + (l / 32) * 4;
      h4 a = { As[wr + i][kb], As[wr + i][kb + 1], As[wr + i][kb + 2], As[wr + i][kb + 3] };
      h4 b = { Bs[kb][wc + i], Bs[kb + 1][wc + i], Bs[kb + 2][wc + i], Bs[kb + 3][wc + i] };
      acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, acc, 0, 0, 0);
    }
    __syncthreads();
  }
  for (int r = 0; r < 16; r++) {
    int i = 8 * (r / 4) + 4 * (l / 32) + (r % 4);
    C[(size_t)(row0 + wr + i) * N + col0 + wc + l % 32] = acc[r];
  }
}

int main()
{
  const int M = 128, N = 192, K = 96;
  std::vector<_Float16> A((size_t)M * K), B((size_t)K * N);
  std::vector<float> af(A.size()), bf(B.size());
  uint64_t s = 4096;
  for (size_t x = 0; x < A.size(); x++) { af[x] = (float)((int)(vt_rand(&s) % 9) - 4); A[x] = (_Float16)af[x]; }
  for (size_t x = 0; x < B.size(); x++) { bf[x] = (float)((int)(vt_rand(&s) % 9) - 4); B[x] = (_Float16)bf[x]; }
  vt_buf<_Float16> dA(A), dB(B);
  vt_buf<float> dC((size_t)M * N);
  dC.zero();
  gemm<<<dim3(N / BN, M / BM), 256>>>(dA.d, dB.d, dC.d, M, N, K);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto c = dC.get();
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double acc = 0;
      for (int k = 0; k < K; k++) acc += (double)af[(size_t)i * K + k] * bf[(size_t)k * N + j];
      vt_check_f32("C = A*B", i * N + j, c[(size_t)i * N + j], (float)acc);
    }
  return vt_finish("gemm_mfma");
}
