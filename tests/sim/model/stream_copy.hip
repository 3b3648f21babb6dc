/* stream_copy: a float4 copy over many groups (a multiple of 304 so every CU
 * gets the same number) must be bounded by HBM bandwidth: the MI325X product
 * page gives 6 TB/s, so moving R bytes read + W bytes written takes at least
 * (R+W) / 6e12 s; with enough loads in flight the model should get close
 * (>= 85% of peak). The copy's result is checked against the source. */
#include "model_common.h"

__global__ void copy4(const float4 *src, float4 *dst, int per_thread)
{
  size_t base = (size_t)blockIdx.x * blockDim.x * per_thread + threadIdx.x;
  float4 v[8];
  for (int i = 0; i < per_thread; i++) v[i] = src[base + (size_t)i * blockDim.x];
  for (int i = 0; i < per_thread; i++) dst[base + (size_t)i * blockDim.x] = v[i];
}

int main()
{
  require_model();
  const int groups = DOC_CUS * 8, threads = 256, per_thread = 8;
  const size_t n = (size_t)groups * threads * per_thread;
  float4 *src, *dst;
  CHECK_HIP(hipMalloc(&src, n * sizeof(float4)));
  CHECK_HIP(hipMalloc(&dst, n * sizeof(float4)));
  float4 *h = (float4 *)malloc(n * sizeof(float4));
  for (size_t i = 0; i < n; i++) h[i] = make_float4((float)i, 1.f, 2.f, (float)(i % 7));
  CHECK_HIP(hipMemcpy(src, h, n * sizeof(float4), hipMemcpyHostToDevice));
  float ms = time_ms([&] { hipLaunchKernelGGL(copy4, dim3(groups), dim3(threads), 0, 0, src, dst, per_thread); });
  double bytes = 2.0 * n * sizeof(float4);
  double bw = bytes / (ms * 1e-3);
  printf("copy of %.1f MB: modeled %.4f ms = %.3f TB/s; achievable HBM bandwidth %.2f TB/s (parameter table)\n", bytes / 1e6, ms, bw / 1e12,
         DOC_HBM_BYTES_PER_S / 1e12);
  int ok = bw <= DOC_HBM_BYTES_PER_S * 1.001 && bw >= 0.85 * DOC_HBM_BYTES_PER_S;
  float4 *g = (float4 *)malloc(n * sizeof(float4));
  CHECK_HIP(hipMemcpy(g, dst, n * sizeof(float4), hipMemcpyDeviceToHost));
  if (memcmp(g, h, n * sizeof(float4))) { printf("copy result differs from the source\n"); ok = 0; }
  free(g);
  free(h);
  CHECK_HIP(hipFree(src));
  CHECK_HIP(hipFree(dst));
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
