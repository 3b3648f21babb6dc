/* device_inputs.h: leaves input buffers the way a device kernel leaves what
 * it has just written (as attention's inputs are on hardware, written by the
 * QKV projection before): the last `tail_bytes` of a sequence of buffers
 * are loaded and stored back, unchanged, by one ordinary kernel launch, so
 * the timed launch after it finds them in the L2 and the Infinity Cache (MALL)
 * as far as they fit, where hipMemcpy from the host leaves them in neither
 * (tksim does not model copies). bench/hipkittens/hk_common.h (hk_gen_run)
 * does the same for HipKittens' harnesses, so side-by-side runs are fair.
 * Failures: "PROG: ..." on stderr and exit 4 (hip_check.h). */
#ifndef TK_EXAMPLES_DEVICE_INPUTS_H
#define TK_EXAMPLES_DEVICE_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* hk_gen_run's figure: MI355X holds 8 x 4 MB of L2 and 256 MB of Infinity
 * Cache, 288 MB, so bytes before the last 384 MiB cannot be in any cache when
 * the timed launch starts (MI300X/MI325X: 8 x 4 MB + 256 MB, the same) */
#define TK_EX_DEVICE_INPUT_BYTES ((uint64_t)384 << 20)

/* at most this many buffers per call */
#define TK_EX_DEVICE_INPUT_MAX_BUFS 8

/* One device buffer: start (16-byte aligned, as hipMalloc's are) and size. */
typedef struct tk_ex_dev_span {
  void *p;
  size_t bytes;
} tk_ex_dev_span;

/* Rewrites in place the last tail_bytes of spans[0..n) taken one after the
 * other (the order in which the producer wrote them): every whole 16-byte
 * chunk there is loaded and stored back by one launch of one 256-thread
 * group per CU (grid-stride), then the device is synchronised. A buffer's
 * last bytes that do not fill a chunk (bytes % 16) stay as they are: they
 * share a cache line with the chunk before them. Values never change. Under
 * tksim --model-sample only XCD 0's groups of the launch run, which is what
 * the sampled timed launch (XCD 0 alone) can find in its caches, as in
 * hk_gen_run. Returns the number of groups launched (0: nothing to do). */
int tk_ex_device_rewrite(const char *prog, const tk_ex_dev_span *spans, int n, uint64_t tail_bytes);

#ifdef __cplusplus
}
#endif
#endif
