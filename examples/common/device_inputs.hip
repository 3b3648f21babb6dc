/* device_inputs.hip: see device_inputs.h. Harness code, plain HIP (no inline
 * asm, no builtins: the examples' rule, test gemm_no_asm). */
#include "device_inputs.h"

#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "hip_check.h"

/* the chunks [first[i], first[i] + count) of buffer i, as one index range:
 * buffer i's chunks are at[i] .. at[i + 1] - 1 of it */
typedef struct rewrite_args {
  uint4 *p[TK_EX_DEVICE_INPUT_MAX_BUFS];
  uint64_t first[TK_EX_DEVICE_INPUT_MAX_BUFS];
  uint64_t at[TK_EX_DEVICE_INPUT_MAX_BUFS + 1];
  int n;
} rewrite_args;

/* `zero` is 0 at run time: storing v ^ zero keeps the compiler from removing
 * a store of the value just loaded from the same place (a volatile access
 * instead would bypass the caches this is for). */
__global__ void __launch_bounds__(256) tk_ex_device_rewrite_kernel(rewrite_args a, uint32_t zero)
{
  const uint64_t nt = (uint64_t)gridDim.x * blockDim.x;
  int b = 0;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.at[a.n]; i += nt) {
    while (i >= a.at[b + 1]) ++b; /* i only grows */
    uint4 *c = a.p[b] + a.first[b] + (i - a.at[b]);
    uint4 v = *c;
    v.x ^= zero, v.y ^= zero, v.z ^= zero, v.w ^= zero;
    *c = v;
  }
}

extern "C" int tk_ex_device_rewrite(const char *prog, const tk_ex_dev_span *spans, int n, uint64_t tail_bytes)
{
  if (n < 0 || n > TK_EX_DEVICE_INPUT_MAX_BUFS) {
    fprintf(stderr, "%s: tk_ex_device_rewrite: %d buffers (at most %d)\n", prog, n, TK_EX_DEVICE_INPUT_MAX_BUFS);
    exit(4);
  }
  uint64_t total = 0;
  for (int i = 0; i < n; ++i) {
    if ((uintptr_t)spans[i].p % 16) {
      fprintf(stderr, "%s: tk_ex_device_rewrite: buffer %d is not 16-byte aligned\n", prog, i);
      exit(4);
    }
    total += spans[i].bytes;
  }
  /* bytes [from, total) of the sequence; per buffer, whole chunks only */
  const uint64_t from = total > tail_bytes ? total - tail_bytes : 0;
  rewrite_args a;
  a.n = 0, a.at[0] = 0;
  uint64_t pos = 0;
  for (int i = 0; i < n; ++i) {
    const uint64_t start = from > pos ? from - pos : 0, nchunks = spans[i].bytes / 16;
    const uint64_t first = (start + 15) / 16; /* a chunk cut by `from` stays */
    pos += spans[i].bytes;
    if (first >= nchunks) continue;
    a.p[a.n] = (uint4 *)spans[i].p, a.first[a.n] = first;
    a.at[a.n + 1] = a.at[a.n] + (nchunks - first);
    a.n++;
  }
  if (a.n == 0) return 0;
  int dev = 0;
  hipDeviceProp_t prop;
  TK_EXAMPLE_CHECK_HIP(prog, hipGetDevice(&dev));
  TK_EXAMPLE_CHECK_HIP(prog, hipGetDeviceProperties(&prop, dev));
  const uint64_t want = (a.at[a.n] + 255) / 256, cus = prop.multiProcessorCount > 0 ? prop.multiProcessorCount : 1;
  const unsigned groups = (unsigned)(want < cus ? want : cus);
  hipLaunchKernelGGL(tk_ex_device_rewrite_kernel, dim3(groups), dim3(256), 0, 0, a, 0u);
  TK_EXAMPLE_CHECK_HIP(prog, hipGetLastError());
  TK_EXAMPLE_CHECK_HIP(prog, hipDeviceSynchronize());
  return (int)groups;
}
