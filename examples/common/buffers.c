/* buffers.c: see buffers.h. */
#include "buffers.h"

#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>

#include "hip_check.h"

void *tk_ex_host_alloc(const char *prog, size_t bytes)
{
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "%s: out of host memory\n", prog);
    exit(4);
  }
  return p;
}

void *tk_ex_dev_alloc(const char *prog, size_t bytes, int fill)
{
  void *p = NULL;
  TK_EXAMPLE_CHECK_HIP(prog, hipMalloc(&p, bytes ? bytes : 16));
  TK_EXAMPLE_CHECK_HIP(prog, hipMemset(p, fill, bytes ? bytes : 16));
  return p;
}

void *tk_ex_dev_copy(const char *prog, const void *h, size_t bytes)
{
  void *d = tk_ex_dev_alloc(prog, bytes, 0);
  TK_EXAMPLE_CHECK_HIP(prog, hipMemcpy(d, h, bytes, hipMemcpyHostToDevice));
  return d;
}

void *tk_ex_host_copy(const char *prog, const void *d, size_t bytes)
{
  void *h = tk_ex_host_alloc(prog, bytes);
  TK_EXAMPLE_CHECK_HIP(prog, hipMemcpy(h, d, bytes, hipMemcpyDeviceToHost));
  return h;
}

void tk_ex_dev_free(const char *prog, void *const *ptrs, size_t n)
{
  for (size_t i = 0; i < n; ++i)
    if (ptrs[i]) TK_EXAMPLE_CHECK_HIP(prog, hipFree(ptrs[i]));
}
