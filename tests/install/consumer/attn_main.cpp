// Plain host C++ linking the installed tk::attn (tk_attn.h from the installed
// tk_examples headers): the deterministic backward's dQ partial count
// (tk_attn_bwd_dq_partials) against the documented workspace size (deltas and
// P partials of b*hq*ceil64(sq)*d*4 bytes, docs/attention.md "Deterministic
// backward") and an invalid problem's -1, then a deterministic backward with
// P > 1 partials run twice: dQ, dK, dV within the library's CPU double
// reference check (tk_attn_check_bwd) and bit for bit the same both times.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_attn.h"

#define HIP_OK(x)                                                   \
  do {                                                              \
    if ((x) != hipSuccess) {                                        \
      fprintf(stderr, "consumer_attn: %s failed\n", #x);            \
      return 1;                                                     \
    }                                                               \
  } while (0)

static uint16_t bf16_of(float f) {  // round to nearest even (finite inputs)
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

int main() {
  // 1 batch, 2 query heads on 1 kv head, 64 queries, 640 keys (5 key blocks of 128), d 64, causal
  tk_attn_problem p;
  tk_attn_problem_init(&p, 1, 2, 1, 64, 640, 64, 1);
  const int np = tk_attn_bwd_dq_partials(&p);
  if (np < 1 || np > 8) {
    fprintf(stderr, "consumer_attn: tk_attn_bwd_dq_partials = %d, want 1..8\n", np);
    return 1;
  }
  const size_t delta = ((size_t)(p.b * p.hq * p.sq) * 4 + 15) & ~(size_t)15;
  const size_t part = (size_t)(p.b * p.hq * ((p.sq + 63) / 64 * 64) * p.d) * 4;
  const size_t ws = tk_attn_bwd_workspace_bytes_flags(&p, TK_ATTN_BWD_DETERMINISTIC);
  if (ws != delta + (size_t)np * part) {
    fprintf(stderr, "consumer_attn: deterministic workspace %zu bytes, want %zu + %d x %zu\n", ws, delta, np, part);
    return 1;
  }
  tk_attn_problem bad = p;
  bad.d = 32;
  if (tk_attn_bwd_dq_partials(&bad) != -1) {
    fprintf(stderr, "consumer_attn: tk_attn_bwd_dq_partials of a head dim 32 problem is not -1\n");
    return 1;
  }

  const int64_t nq = tk_attn_elems(&p, TK_ATTN_Q), nk = tk_attn_elems(&p, TK_ATTN_K), nl = tk_attn_lse_elems(&p);
  uint16_t *h = (uint16_t *)malloc((size_t)(2 * nq + 2 * nk) * 2);
  uint16_t *g = (uint16_t *)malloc((size_t)(2 * (nq + 2 * nk)) * 2);
  if (!h || !g) return 1;
  uint16_t *hq = h, *hdo = h + nq, *hk = h + 2 * nq, *hv = hk + nk;
  uint32_t s = 12345u;
  for (int64_t i = 0; i < 2 * nq + 2 * nk; i++) {  // q, dO, k, v
    s = s * 1664525u + 1013904223u;
    const float x = (float)((s >> 8) & 0xffff) / 32768.0f - 1.0f;  // [-1, 1)
    if (i < 2 * nq) h[i] = bf16_of(x);
    else hk[i - 2 * nq] = bf16_of(x);
  }
  void *d[8], *dws;
  const int64_t n[8] = {nq, nk, nk, nq, nq, nq, nk, nk};  // q k v o dO dq dk dv
  for (int i = 0; i < 8; i++) HIP_OK(hipMalloc(&d[i], (size_t)n[i] * 2));
  float *dl;
  HIP_OK(hipMalloc((void **)&dl, (size_t)nl * 4));
  HIP_OK(hipMalloc(&dws, ws));
  HIP_OK(hipMemcpy(d[0], hq, (size_t)nq * 2, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(d[1], hk, (size_t)nk * 2, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(d[2], hv, (size_t)nk * 2, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(d[4], hdo, (size_t)nq * 2, hipMemcpyHostToDevice));
  int rc = tk_attn_fwd(&p, (uint16_t *)d[0], (uint16_t *)d[1], (uint16_t *)d[2], (uint16_t *)d[3], dl, NULL);
  for (int run = 0; run < 2 && rc == TK_ATTN_OK; run++) {
    rc = tk_attn_bwd_flags(&p, (uint16_t *)d[0], (uint16_t *)d[1], (uint16_t *)d[2], (uint16_t *)d[3],
                           (uint16_t *)d[4], dl, (uint16_t *)d[5], (uint16_t *)d[6], (uint16_t *)d[7], dws,
                           TK_ATTN_BWD_DETERMINISTIC, NULL);
    uint16_t *out = g + run * (nq + 2 * nk);
    HIP_OK(hipDeviceSynchronize());
    HIP_OK(hipMemcpy(out, d[5], (size_t)nq * 2, hipMemcpyDeviceToHost));
    HIP_OK(hipMemcpy(out + nq, d[6], (size_t)nk * 2, hipMemcpyDeviceToHost));
    HIP_OK(hipMemcpy(out + nq + nk, d[7], (size_t)nk * 2, hipMemcpyDeviceToHost));
  }
  if (rc != TK_ATTN_OK) {
    fprintf(stderr, "consumer_attn: %s\n", tk_attn_strerror(rc));
    return 1;
  }
  tk_attn_cmp cmp[3];
  if (tk_attn_check_bwd(&p, hq, hk, hv, hdo, g, g + nq, g + nq + nk, cmp) != TK_ATTN_OK) return 1;
  for (int i = 0; i < 3; i++)
    if (cmp[i].nbad || cmp[i].n == 0) {
      fprintf(stderr, "consumer_attn: d%c: %lld of %lld past the bound (worst |err| %g)\n", "QKV"[i],
              (long long)cmp[i].nbad, (long long)cmp[i].n, cmp[i].max_abs);
      return 1;
    }
  if (memcmp(g, g + nq + 2 * nk, (size_t)(nq + 2 * nk) * 2) != 0) {
    fprintf(stderr, "consumer_attn: the deterministic backward differs between two runs\n");
    return 1;
  }
  for (int i = 0; i < 8; i++) hipFree(d[i]);
  hipFree(dl);
  hipFree(dws);
  free(h);
  free(g);
  printf("consumer_attn: deterministic backward through %d dQ partials matches the CPU reference, "
         "bitwise repeatable\n", np);
  return 0;
}
