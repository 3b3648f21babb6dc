/* hip_check.h: the example programs' HIP error convention: a failed HIP call
 * prints "PROG: CALL failed: REASON (FILE:LINE)" on stderr and exits 4 (each
 * program's documented exit status for a HIP error). A program defines its
 * own one-argument CHECK_HIP over it with its name. */
#ifndef TK_EXAMPLES_HIP_CHECK_H
#define TK_EXAMPLES_HIP_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define TK_EXAMPLE_CHECK_HIP(prog, x)                                                                \
  do {                                                                                               \
    hipError_t e_ = (x);                                                                             \
    if (e_ != hipSuccess) {                                                                          \
      fprintf(stderr, "%s: %s failed: %s (%s:%d)\n", prog, #x, hipGetErrorString(e_), __FILE__, __LINE__); \
      exit(4);                                                                                       \
    }                                                                                                \
  } while (0)

#endif
