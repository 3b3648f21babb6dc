// Kernels with known machine-code properties, so tk-isa-check's own checks are
// tested both ways (a check that should pass passes, one that should fail
// fails), and tk/sync.h's waits are checked as the assembler prints them.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include "tk/sync.h"

// A loop whose loads the compiler must wait for inside the loop.
__global__ void isa_loop_wait(float *o, const float *a, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += a[i * 64 + threadIdx.x] * a[i];
  o[threadIdx.x] = s;
}

// tk/sync.h waits and hints.  Adjacent s_waitcnt instructions are merged by
// LLVM (SIInsertWaitcnts), so each wait is separated by a store.
__global__ void isa_sync_waits(uint32_t *o) {
  o[threadIdx.x + 64] = 1;
  TK_WAIT_VMCNT(3);
  o[threadIdx.x + 128] = 2;
  TK_WAIT_LGKMCNT(0);
  o[threadIdx.x + 192] = 3;
  TK_WAIT_VM_LGKM(17, 2);
  o[threadIdx.x + 256] = 4;
  TK_WAIT_VMCNT(63);
  TK_SETPRIO(2);
  tk_barrier();
  o[threadIdx.x] = tk_lane_id();
}

int main(void) {
  // compiled for its code object only; running it launches nothing
  printf("isa_selftest: code object holder\n");
  return 0;
}
