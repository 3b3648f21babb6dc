/* buffers.h: host and device buffers for the example programs, under the
 * programs' convention for failures (hip_check.h): "PROG: ..." on stderr and
 * exit 4.  Zero-byte requests get a small real buffer, so an empty tensor
 * still has a valid pointer to pass and free. */
#ifndef TK_EXAMPLES_BUFFERS_H
#define TK_EXAMPLES_BUFFERS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* malloc, or "PROG: out of host memory" and exit 4 */
void *tk_ex_host_alloc(const char *prog, size_t bytes);
/* hipMalloc with every byte set to `fill` (0xff makes unwritten bf16 outputs
 * NaN, so a kernel that skips an element fails the check) */
void *tk_ex_dev_alloc(const char *prog, size_t bytes, int fill);
/* a device buffer holding a copy of the `bytes` at host pointer h */
void *tk_ex_dev_copy(const char *prog, const void *h, size_t bytes);
/* a host buffer holding a copy of the `bytes` at device pointer d */
void *tk_ex_host_copy(const char *prog, const void *d, size_t bytes);
/* hipFree of each non-NULL pointer of ptrs[0..n) */
void tk_ex_dev_free(const char *prog, void *const *ptrs, size_t n);

#ifdef __cplusplus
}
#endif
#endif
