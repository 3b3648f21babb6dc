// gemm.hip: C = A*B + C for M x N x K = 100 x 70 x 50, naive (one thread per
// element) and LDS-tiled (16x16 tiles), float with small integer inputs so
// every sum is exact in f32 and the check against the host product is exact.
#include "../isa/vtest.h"

__global__ void gemm_naive(const float *A, const float *B, float *C, int M, int N, int K)
{
  int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M || j >= N) return;
  float acc = C[i * N + j];
  for (int k = 0; k < K; k++) acc += A[i * K + k] * B[k * N + j];
  C[i * N + j] = acc;
}

#define T 16
__global__ void gemm_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
  __shared__ float As[T][T], Bs[T][T];
  int ty = threadIdx.y, tx = threadIdx.x;
  int i = blockIdx.y * T + ty, j = blockIdx.x * T + tx;
  float acc = (i < M && j < N) ? C[i * N + j] : 0.0f;
  for (int k0 = 0; k0 < K; k0 += T) {
    As[ty][tx] = (i < M && k0 + tx < K) ? A[i * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = (k0 + ty < K && j < N) ? B[(k0 + ty) * N + j] : 0.0f;
    __syncthreads();
    for (int k = 0; k < T; k++) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (i < M && j < N) C[i * N + j] = acc;
}

int main()
{
  const int M = 100, N = 70, K = 50;
  std::vector<float> A(M * K), B(K * N), C(M * N);
  uint64_t s = 8;
  for (auto &v : A) v = (float)((int)(vt_rand(&s) % 17) - 8);
  for (auto &v : B) v = (float)((int)(vt_rand(&s) % 17) - 8);
  for (auto &v : C) v = (float)((int)(vt_rand(&s) % 201) - 100);
  std::vector<float> want(M * N);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double acc = C[i * N + j];
      for (int k = 0; k < K; k++) acc += (double)A[i * K + k] * B[k * N + j];
      want[i * N + j] = (float)acc;
    }
  vt_buf<float> dA(A), dB(B), dC1(C), dC2(C);
  dim3 block(T, T), grid((N + T - 1) / T, (M + T - 1) / T);
  gemm_naive<<<grid, block>>>(dA.d, dB.d, dC1.d, M, N, K);
  VT_HIP(hipGetLastError());
  gemm_tiled<<<grid, block>>>(dA.d, dB.d, dC2.d, M, N, K);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto c1 = dC1.get(), c2 = dC2.get();
  for (int x = 0; x < M * N; x++) {
    vt_check_f32("naive gemm", x, c1[x], want[x]);
    vt_check_f32("tiled gemm", x, c2[x], want[x]);
  }
  return vt_finish("gemm");
}
