/* buffers_test: examples/common/buffers.h on a device (tksim, or a GPU): a
 * byte pattern survives host -> device -> host; tk_ex_dev_alloc's fill is in
 * every byte; a zero-byte request still gives a pointer to free; NULL entries
 * are skipped by tk_ex_dev_free. With "oom": an impossible device allocation
 * must exit 4 naming the program and the call (run by ctest through
 * expect.sh). */
#include <hip/hip_runtime_api.h>
#include <stdint.h>
#include <stdlib.h>

#include "buffers.h"
#include "expect.h"

int main(int argc, char **argv)
{
  if (argc > 1 && !strcmp(argv[1], "oom")) {
    tk_ex_dev_alloc("buffers_test", (size_t)1 << 62, 0);
    printf("buffers_test: the impossible allocation returned\n");
    return 0;
  }
  enum { N = 1000 };
  uint8_t pat[N];
  for (int i = 0; i < N; ++i) pat[i] = (uint8_t)(i * 37 + 11);
  void *d = tk_ex_dev_copy("buffers_test", pat, N);
  uint8_t *back = tk_ex_host_copy("buffers_test", d, N);
  EXPECT(memcmp(back, pat, N) == 0);
  free(back);

  void *f = tk_ex_dev_alloc("buffers_test", N, 0xff);
  uint8_t *fb = tk_ex_host_copy("buffers_test", f, N);
  int all = 1;
  for (int i = 0; i < N; ++i) all &= fb[i] == 0xff;
  EXPECT(all);
  free(fb);

  void *z = tk_ex_dev_alloc("buffers_test", 0, 0);
  void *hz = tk_ex_host_alloc("buffers_test", 0);
  EXPECT(z != NULL && hz != NULL);
  free(hz);
  void *all_dev[] = {d, NULL, f, z};
  tk_ex_dev_free("buffers_test", all_dev, 4);

  printf(failures ? "buffers_test: %d failures\n" : "buffers_test: all ok\n", failures);
  return failures ? 1 : 0;
}
