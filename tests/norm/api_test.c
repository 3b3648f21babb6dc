/* norm_api_test: tk_norm_fwd refuses bad problems (zero and negative sizes,
 * N past the limit, dropout outside [0, 1), row pitches below N, NaN eps)
 * with TK_NORM_ERR_PROBLEM and missing pointers with TK_NORM_ERR_ARG, and
 * writes nothing then (the output keeps its fill); a good problem does
 * write it (so the fill test can fail). */
#include <stdio.h>
#include <string.h>

#include "tk_norm.h"

static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { fails++; printf("FAIL: "); printf(__VA_ARGS__); printf("\n"); } } while (0)

int main(void)
{
  enum { M = 4, N = 64 };
  uint16_t host[M * N];
  uint16_t *x, *r, *w, *b, *o, *ro;
  void **bufs[6] = {(void **)&x, (void **)&r, (void **)&w, (void **)&b, (void **)&o, (void **)&ro};
  for (int i = 0; i < 6; ++i)
    if (hipMalloc(bufs[i], sizeof host) != hipSuccess) return 4;
  for (int i = 0; i < M * N; ++i) host[i] = 0x3f80; /* 1.0 */
  hipMemcpy(x, host, sizeof host, hipMemcpyHostToDevice);
  hipMemcpy(r, host, sizeof host, hipMemcpyHostToDevice);
  hipMemcpy(w, host, sizeof host, hipMemcpyHostToDevice);
  hipMemcpy(b, host, sizeof host, hipMemcpyHostToDevice);
  struct { const char *what; tk_norm_problem p; } bad[9];
  for (int i = 0; i < 9; ++i) {
    tk_norm_problem_init(&bad[i].p, TK_NORM_LAYERNORM, M, N);
    bad[i].p.residual = 1;
  }
  bad[0].what = "m = 0", bad[0].p.m = 0;
  bad[1].what = "n = -1", bad[1].p.n = -1;
  bad[2].what = "n = 32769", bad[2].p.n = 32769, bad[2].p.ld_x = bad[2].p.ld_out = bad[2].p.ld_res = bad[2].p.ld_res_out = 32769;
  bad[3].what = "dropout 1", bad[3].p.dropout = 1.0f;
  bad[4].what = "dropout -0.5", bad[4].p.dropout = -0.5f;
  bad[5].what = "ld_out < n", bad[5].p.ld_out = N - 1;
  bad[6].what = "ld_res < n", bad[6].p.ld_res = 3;
  bad[7].what = "eps NaN", bad[7].p.eps = __builtin_nanf("");
  bad[8].what = "op 7", bad[8].p.op = 7;
  for (int i = 0; i < 9; ++i) {
    hipMemset(o, 0x55, sizeof host);
    hipMemset(ro, 0x55, sizeof host);
    CHECK(tk_norm_problem_error(&bad[i].p) != NULL, "%s: no problem error", bad[i].what);
    const int e = tk_norm_fwd(&bad[i].p, x, r, w, b, o, ro, 0);
    hipDeviceSynchronize();
    CHECK(e == TK_NORM_ERR_PROBLEM, "%s: code %d, wanted TK_NORM_ERR_PROBLEM", bad[i].what, e);
    uint16_t got[M * N], got2[M * N];
    hipMemcpy(got, o, sizeof got, hipMemcpyDeviceToHost);
    hipMemcpy(got2, ro, sizeof got2, hipMemcpyDeviceToHost);
    int written = 0;
    for (int j = 0; j < M * N; ++j) written += got[j] != 0x5555 || got2[j] != 0x5555;
    CHECK(written == 0, "%s: %d elements written", bad[i].what, written);
  }
  tk_norm_problem p;
  tk_norm_problem_init(&p, TK_NORM_LAYERNORM, M, N);
  p.residual = 1;
  CHECK(tk_norm_fwd(&p, x, NULL, w, b, o, ro, 0) == TK_NORM_ERR_ARG, "residual NULL accepted");
  CHECK(tk_norm_fwd(&p, x, r, w, NULL, o, ro, 0) == TK_NORM_ERR_ARG, "layernorm bias NULL accepted");
  CHECK(tk_norm_fwd(&p, x, r, w, b, NULL, ro, 0) == TK_NORM_ERR_ARG, "out NULL accepted");
  CHECK(tk_norm_fwd(NULL, x, r, w, b, o, ro, 0) == TK_NORM_ERR_PROBLEM, "NULL problem accepted");
  hipMemset(o, 0x55, sizeof host);
  CHECK(tk_norm_fwd(&p, x, r, w, b, o, ro, 0) == TK_NORM_OK, "good problem refused");
  hipDeviceSynchronize();
  uint16_t got[M * N];
  hipMemcpy(got, o, sizeof got, hipMemcpyDeviceToHost);
  int written = 0;
  for (int j = 0; j < M * N; ++j) written += got[j] != 0x5555;
  /* x + r = 2 everywhere: var 0, out = bias = 1.0 */
  CHECK(written == M * N && got[0] == 0x3f80, "good problem: %d of %d written, out[0] = %04x", written, M * N, got[0]);
  for (int i = 0; i < 6; ++i) hipFree(*bufs[i]);
  if (fails) return 1;
  printf("norm_api_test: all ok\n");
  return 0;
}
