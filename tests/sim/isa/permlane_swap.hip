// permlane_swap.hip: gfx950's v_permlane32_swap_b32 and v_permlane16_swap_b32
// under tksim --arch=gfx950, against the documented lane exchange (LLVM's
// llvm.amdgcn.permlane{32,16}_swap: the first operand's rows 2-3 (lanes 32-63)
// trade places with the second's rows 0-1; for the 16 form, the first's odd
// 16-lane rows with the second's even rows). Each lane starts with distinct
// values, so any other exchange (or none) shows.
#include <hip/hip_runtime.h>
#include <stdio.h>

#define CHECK_HIP(x) do { hipError_t e_ = (x); if (e_ != hipSuccess) { \
  printf("permlane_swap: %s: %s\n", #x, hipGetErrorString(e_)); return 1; } } while (0)

__global__ void k_swap(unsigned *o) {
  const unsigned l = threadIdx.x;
  auto a = __builtin_amdgcn_permlane32_swap(1000 + l, 2000 + l, false, false);
  auto b = __builtin_amdgcn_permlane16_swap(1000 + l, 2000 + l, false, false);
  o[l] = a[0]; o[64 + l] = a[1]; o[128 + l] = b[0]; o[192 + l] = b[1];
}

int main(void) {
  unsigned *d, h[256];
  CHECK_HIP(hipMalloc(&d, sizeof h));
  hipLaunchKernelGGL(k_swap, dim3(1), dim3(64), 0, 0, d);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  int bad = 0;
  for (unsigned l = 0; l < 64; l++) {
    // 32: first = (lanes 0-31 its own, 32-63 the second's lanes 0-31); second = (first's lanes 32-63, its own)
    const unsigned f32 = l < 32 ? 1000 + l : 2000 + (l - 32), s32 = l < 32 ? 1000 + l + 32 : 2000 + l;
    // 16: first's odd rows get the second's even rows (row r+1 <- r), second's even rows the first's odd ones
    const unsigned row = l / 16, f16 = row & 1 ? 2000 + l - 16 : 1000 + l, s16 = row & 1 ? 2000 + l : 1000 + l + 16;
    if (h[l] != f32 || h[64 + l] != s32 || h[128 + l] != f16 || h[192 + l] != s16) {
      if (bad++ < 4)
        printf("permlane_swap: lane %u: 32-swap (%u, %u) want (%u, %u); 16-swap (%u, %u) want (%u, %u)\n", l, h[l],
               h[64 + l], f32, s32, h[128 + l], h[192 + l], f16, s16);
    }
  }
  printf(bad ? "permlane_swap: FAILED (%d lanes)\n" : "permlane_swap: ok%.0d\n", bad);
  return bad ? 1 : 0;
}
