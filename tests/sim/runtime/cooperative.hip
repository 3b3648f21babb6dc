// cooperative.hip: hipLaunchCooperativeKernel with a grid-wide barrier
// (__ockl_grid_sync, what cooperative_groups::this_grid().sync() calls; Debian's
// HIP 5.2 cooperative-groups header does not compile with clang 19): every
// block writes its slot, the
// grid synchronises, then every block reads its neighbour's slot - correct
// only if the barrier held across all blocks. A grid larger than what can be
// resident at once must be refused with hipErrorCooperativeLaunchTooLarge.
#include <vector>
#include "rt_check.h"

extern "C" __device__ void __ockl_grid_sync(void);

__global__ void ring(int *slots, int *out, int rounds)
{
  int b = blockIdx.x, n = gridDim.x;
  for (int r = 0; r < rounds; r++) {
    if (threadIdx.x == 0) slots[b] = b * 100 + r;
    __ockl_grid_sync();
    if (threadIdx.x == 0) out[r * n + b] = slots[(b + 1) % n];
    __ockl_grid_sync();
  }
}

int main()
{
  const int blocks = 8, rounds = 3;
  int *slots, *out;
  HIP_OK(hipMalloc(&slots, blocks * sizeof(int)));
  HIP_OK(hipMalloc(&out, blocks * rounds * sizeof(int)));
  HIP_OK(hipMemset(out, 0xff, blocks * rounds * sizeof(int)));
  int r = rounds;
  void *args[] = { &slots, &out, &r };
  HIP_OK(hipLaunchCooperativeKernel(reinterpret_cast<const void *>(ring), dim3(blocks), dim3(64), args, 0, 0));
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> h(blocks * rounds);
  HIP_OK(hipMemcpy(h.data(), out, h.size() * sizeof(int), hipMemcpyDeviceToHost));
  bool ok = true;
  for (int k = 0; k < rounds; k++)
    for (int b = 0; b < blocks; b++) ok &= h[k * blocks + b] == ((b + 1) % blocks) * 100 + k;
  CHECK(ok, "every block saw its neighbour's value of the same round (h[0] = %d)", h[0]);

  // far more blocks than can be resident at once
  int per_cu = 0;
  HIP_OK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_cu, reinterpret_cast<const void *>(ring), 1024, 0));
  hipDeviceProp_t p;
  HIP_OK(hipGetDeviceProperties(&p, 0));
  unsigned too_many = (unsigned)(per_cu * p.multiProcessorCount + 1);
  HIP_ERR(hipLaunchCooperativeKernel(reinterpret_cast<const void *>(ring), dim3(too_many), dim3(1024), args, 0, 0),
          hipErrorCooperativeLaunchTooLarge);
  (void)hipGetLastError();
  HIP_OK(hipFree(slots));
  HIP_OK(hipFree(out));
  return RT_DONE();
}
