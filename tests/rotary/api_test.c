/* rotary_api_test: tk_rotary_fwd refuses bad problems (odd or zero head
 * dim, zero sizes, overlapping or negative strides, a bad layout) with
 * TK_ROTARY_ERR_PROBLEM and NULL pointers with TK_ROTARY_ERR_ARG, writing
 * nothing; a good problem writes every output element (so the fill test can
 * fail), in place too. */
#include <stdio.h>
#include <string.h>

#include "tk_rotary.h"

static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { fails++; printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } } while (0)

int main(void)
{
  enum { B = 1, H = 2, S = 4, D = 64, NX = B * H * S * D };
  uint16_t host[NX], got[NX];
  uint16_t *x, *c, *s, *o;
  if (hipMalloc((void **)&x, sizeof host) || hipMalloc((void **)&c, sizeof host) ||
      hipMalloc((void **)&s, sizeof host) || hipMalloc((void **)&o, sizeof host))
    return 4;
  for (int i = 0; i < NX; ++i) host[i] = 0x3f80; /* 1.0 */
  hipMemcpy(x, host, sizeof host, hipMemcpyHostToDevice);
  hipMemcpy(c, host, sizeof host, hipMemcpyHostToDevice);
  hipMemset(s, 0, sizeof host); /* sin 0: o = x */
  struct { const char *what; tk_rotary_problem p; } bad[7];
  for (int i = 0; i < 7; ++i) tk_rotary_problem_init(&bad[i].p, TK_ROTARY_HALF, B, H, S, D);
  bad[0].what = "d = 63", bad[0].p.d = 63;
  bad[1].what = "d = 0", bad[1].p.d = 0;
  bad[2].what = "h = 0", bad[2].p.h = 0;
  bad[3].what = "s = -1", bad[3].p.s = -1;
  bad[4].what = "o rows overlap", bad[4].p.os[2] = D / 2;
  bad[5].what = "x stride negative", bad[5].p.xs[1] = -D;
  bad[6].what = "layout 5", bad[6].p.layout = 5;
  for (int i = 0; i < 7; ++i) {
    hipMemset(o, 0x55, sizeof host);
    CHECK(tk_rotary_problem_error(&bad[i].p) != NULL, "%s: no problem error", bad[i].what);
    const int e = tk_rotary_fwd(&bad[i].p, x, c, s, o, 0);
    hipDeviceSynchronize();
    CHECK(e == TK_ROTARY_ERR_PROBLEM, "%s: code %d", bad[i].what, e);
    hipMemcpy(got, o, sizeof got, hipMemcpyDeviceToHost);
    int written = 0;
    for (int j = 0; j < NX; ++j) written += got[j] != 0x5555;
    CHECK(written == 0, "%s: %d elements written", bad[i].what, written);
  }
  tk_rotary_problem p;
  tk_rotary_problem_init(&p, TK_ROTARY_INTERLEAVED, B, H, S, D);
  CHECK(tk_rotary_fwd(&p, NULL, c, s, o, 0) == TK_ROTARY_ERR_ARG, "x NULL accepted");
  CHECK(tk_rotary_fwd(&p, x, c, NULL, o, 0) == TK_ROTARY_ERR_ARG, "sin NULL accepted");
  CHECK(tk_rotary_fwd(NULL, x, c, s, o, 0) == TK_ROTARY_ERR_PROBLEM, "NULL problem accepted");
  hipMemset(o, 0x55, sizeof host);
  CHECK(tk_rotary_fwd(&p, x, c, s, o, 0) == TK_ROTARY_OK, "good problem refused");
  hipDeviceSynchronize();
  hipMemcpy(got, o, sizeof got, hipMemcpyDeviceToHost);
  int same = 0;
  for (int j = 0; j < NX; ++j) same += got[j] == 0x3f80;
  CHECK(same == NX, "good problem: %d of %d elements = x (cos 1, sin 0)", same, NX);
  /* in place */
  CHECK(tk_rotary_fwd(&p, x, c, s, x, 0) == TK_ROTARY_OK, "in place refused");
  hipDeviceSynchronize();
  hipMemcpy(got, x, sizeof got, hipMemcpyDeviceToHost);
  same = 0;
  for (int j = 0; j < NX; ++j) same += got[j] == 0x3f80;
  CHECK(same == NX, "in place: %d of %d elements kept", same, NX);
  hipFree(x), hipFree(c), hipFree(s), hipFree(o);
  if (fails) return 1;
  printf("rotary_api_test: all ok\n");
  return 0;
}
