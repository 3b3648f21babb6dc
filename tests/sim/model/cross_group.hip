/* cross_group: workgroups that exchange data while they run are modeled in
 * modeled-time order, whatever the emulation threads do. Two groups of one
 * wave: group 0 (XCD 0) runs L0 = 200 iterations of a loop, group 1 (XCD 1)
 * L1 = 10, then each counts itself in a global counter (atomicAdd, returned
 * value used) and the group that arrives last runs E = 100 more iterations
 * ("the last split reduces", as split-K's counter). The loop is 32
 * v_add_f32 plus 3 scalar ops: 35 issue cycles of 4 clocks = 140 clocks per
 * iteration for one wave (tksim_model_valu_rate). In modeled time group 1
 * arrives first (1400 clocks against 28000), so group 0 is last and the
 * dispatch takes (L0 + E) x 140 = 42000 clocks plus the counter's round trip
 * (an L2 atomic, 300-clock latency: under 2%). Tolerance 4%.
 * A tksim that runs the XCDs on threads of their own lets whichever thread
 * gets there first be "last": with --threads=1 XCD 0 runs to its end before
 * XCD 1 starts, group 1 is last and the dispatch models at max(L0, L1 + E)
 * x 140 = 28000 clocks (33% short); with --threads=2 either. The program also
 * checks that exactly one group was last (its flag) and the counter. */
#include "model_common.h"

#define R4(x) x x x x
#define R32(x) R4(R4(x)) R4(x) R4(x) R4(x) R4(x)

static __device__ float spin(float x, int iters)
{
  int cnt;
  asm volatile("s_mov_b32 %0, %2\n"
               "1:\n" R32("v_add_f32 %1, %1, %1\n") "s_sub_u32 %0, %0, 1\n"
               "s_cmp_lg_u32 %0, 0\n"
               "s_cbranch_scc1 1b\n"
               : "=&s"(cnt), "+v"(x)
               : "s"(iters)
               : "scc");
  return x;
}

__global__ void last_one_reduces(unsigned *counter, int *last, float *out)
{
  float x = (float)threadIdx.x * 1e-30f;
  x = spin(x, blockIdx.x == 0 ? 200 : 10);
  __shared__ unsigned old;
  if (threadIdx.x == 0) old = atomicAdd(counter, 1u);
  __syncthreads();
  if (old == 1) { /* the last of the two */
    x = spin(x, 100);
    if (threadIdx.x == 0) last[blockIdx.x] = 1;
  }
  out[blockIdx.x * 64 + threadIdx.x] = x;
}

int main()
{
  require_model();
  unsigned *counter;
  int *last;
  float *out;
  CHECK_HIP(hipMalloc(&counter, sizeof(unsigned)));
  CHECK_HIP(hipMalloc(&last, 2 * sizeof(int)));
  CHECK_HIP(hipMalloc(&out, 128 * sizeof(float)));
  CHECK_HIP(hipMemset(counter, 0, sizeof(unsigned)));
  CHECK_HIP(hipMemset(last, 0, 2 * sizeof(int)));
  float ms = time_ms([&] { hipLaunchKernelGGL(last_one_reduces, dim3(2), dim3(64), 0, 0, counter, last, out); });
  unsigned c = 0;
  int l[2] = {0, 0};
  CHECK_HIP(hipMemcpy(&c, counter, sizeof c, hipMemcpyDeviceToHost));
  CHECK_HIP(hipMemcpy(l, last, sizeof l, hipMemcpyDeviceToHost));
  int ok = 1;
  if (c != 2 || l[0] + l[1] != 1) {
    printf("counter %u (want 2), last flags %d %d (want exactly one): WRONG\n", c, l[0], l[1]);
    ok = 0;
  }
  printf("group %d reduced (modeled-time order: group 0)\n", l[0] ? 0 : 1);
  ok &= within("last group reduces: seconds", ms * 1e-3, (200 + 100) * 140.0 / DOC_CLOCK_HZ, 0.04);
  CHECK_HIP(hipFree(counter));
  CHECK_HIP(hipFree(last));
  CHECK_HIP(hipFree(out));
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
