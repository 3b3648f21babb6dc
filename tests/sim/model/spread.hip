/* spread: tksim --model=mi300x --model-sample=3 --model-spread runs three
 * round-sized chunks spread over XCD 0's groups of a grid whose groups do
 * unequal work, and composes the whole dispatch from them (sim/model/
 * sample.c, docs/tksim-model.md "Emulation speed").
 *
 * The kernel is shaped like a causal attention backward in HipKittens' HBN
 * order: grid (H 8, B 8, NK 32), group (h, b, kb) does (NK - kb) x ITERS
 * dependent VALU steps (the key block's share of the causal triangle), so
 * work falls linearly along the dispatch order. One 64-thread wave per group
 * and 64 KiB of dynamic LDS: one group per CU on gfx942 (64 KiB of LDS per
 * CU, LLVM AMDGPUUsage), 38 CUs per XCD = 38 slots per XCD.
 *
 * Expected selection, from the documented rule: XCD 0 holds the groups with
 * linear id g % 8 == 0 (CDNA3 hands workgroups to its 8 XCDs round-robin),
 * place i = g / 8 in its list of 256; the 3 chunks of 38 start at
 * c x (256 - 38) / 2 = 0, 109, 218. Checked: exactly those groups wrote
 * their (correct) outputs, all others kept the sentinel.
 *
 * Modeled time: the independent reference is the same program with every
 * group simulated (a child run with TKSIM_MODEL_SAMPLE=0); the spread sample
 * must be within 5% of it. The first three rounds alone (the same sample
 * size without --model-spread, another child) must be off by more than 5%:
 * otherwise this kernel's work is too even to tell the methods apart. */
#include "model_common.h"
#include <unistd.h>

#define H 8
#define B 8
#define NK 32
#define GROUPS (H * B * NK)
#define THREADS 64
#define XCDS 8
#define SLOTS 38 /* CUs per XCD x 1 group per CU, derived above */
#define CHUNKS 3
#define LIST (GROUPS / XCDS)
#define ITERS 48
#define SENTINEL -12345.0f

__global__ void tri(float *out)
{
  extern __shared__ float lds[];
  const int kb = blockIdx.z, g = blockIdx.x + H * (blockIdx.y + B * blockIdx.z);
  float x = (float)threadIdx.x * 1e-3f, y = (float)g;
  for (int i = 0; i < (NK - kb) * ITERS; i++) { x = fmaf(x, 0.5f, y); y = fmaf(y, 0.25f, 1.0f); }
  lds[threadIdx.x] = x + y;
  __syncthreads();
  out[g * THREADS + threadIdx.x] = lds[threadIdx.x];
}

/* The host reference of one work-item's result (same f32 fmaf sequence). */
static float expect(int g, int t)
{
  const int kb = g / (H * B);
  float x = (float)t * 1e-3f, y = (float)g;
  for (int i = 0; i < (NK - kb) * ITERS; i++) { x = fmaf(x, 0.5f, y); y = fmaf(y, 0.25f, 1.0f); }
  return x + y;
}

/* Runs the kernel once; returns its modeled ms and fills written[g] with
 * 1 (correct result), 0 (sentinel untouched) or -1 (anything else). */
static float run(int *written)
{
  size_t n = (size_t)GROUPS * THREADS;
  float *d, *h = (float *)malloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) h[i] = SENTINEL;
  CHECK_HIP(hipMalloc(&d, n * sizeof(float)));
  CHECK_HIP(hipMemcpy(d, h, n * sizeof(float), hipMemcpyHostToDevice));
  float ms = time_ms([&] { hipLaunchKernelGGL(tri, dim3(H, B, NK), dim3(THREADS), 65536, 0, d); });
  CHECK_HIP(hipMemcpy(h, d, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int g = 0; g < GROUPS; g++) {
    int untouched = 1, right = 1;
    for (int t = 0; t < THREADS; t++) {
      float v = h[(size_t)g * THREADS + t];
      untouched &= v == SENTINEL;
      right &= v == expect(g, t);
    }
    written[g] = right ? 1 : untouched ? 0 : -1;
  }
  CHECK_HIP(hipFree(d));
  free(h);
  return ms;
}

/* The program re-run with env (TKSIM_* overrides) and --child: its modeled ms. */
static float child(const char *env, int *child_ok)
{
  char cmd[4400], self[4096], line[512];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) return -1;
  self[len] = 0;
  snprintf(cmd, sizeof cmd, "%s '%s' --child", env, self);
  FILE *c = popen(cmd, "r");
  float ms = -1;
  *child_ok = 0;
  while (c && fgets(line, sizeof line, c)) {
    fputs(line, stdout);
    sscanf(line, "child_ms %f ok %d", &ms, child_ok);
  }
  if (!c || pclose(c) != 0) *child_ok = 0;
  return ms;
}

int main(int argc, char **argv)
{
  static int written[GROUPS];
  if (argc > 1 && !strcmp(argv[1], "--child")) {
    /* unsampled: every group correct; first rounds: some ran, none wrong */
    const char *s = getenv("TKSIM_MODEL_SAMPLE");
    int all = !s || atoi(s) == 0, ok = 1, ran = 0;
    float ms = run(written);
    for (int g = 0; g < GROUPS; g++) {
      ok &= all ? written[g] == 1 : written[g] >= 0;
      ran += written[g] == 1;
    }
    printf("child_ms %.9g ok %d (%d groups ran)\n", ms, ok, ran);
    return ok ? 0 : 1;
  }
  const char *m = getenv("TKSIM_MODEL"), *s = getenv("TKSIM_MODEL_SAMPLE"), *sp = getenv("TKSIM_MODEL_SPREAD");
  if (!m || strcmp(m, "mi300x") || !s || atoi(s) != CHUNKS || !sp || strcmp(sp, "grid")) {
    fprintf(stderr, "run under: tksim --model=mi300x --model-sample=%d --model-spread PROGRAM\n", CHUNKS);
    return 2;
  }
  float ms = run(written);
  int ok = 1, ran = 0, wrong = 0, want_ran = 0;
  for (int g = 0; g < GROUPS; g++) {
    int i = g / XCDS, want = 0;
    for (int c = 0; c < CHUNKS; c++) {
      int s0 = c * (LIST - SLOTS) / (CHUNKS - 1);
      want |= g % XCDS == 0 && i >= s0 && i < s0 + SLOTS;
    }
    want_ran += want;
    ran += written[g] == 1;
    if (written[g] != want && wrong++ < 5)
      printf("group %d: %s, expected %s\n", g, written[g] == 1 ? "ran" : written[g] ? "garbage" : "untouched",
             want ? "ran" : "untouched");
  }
  printf("groups run: %d of %d (expected %d: XCD 0's places 0-37, 109-146, 218-255); mismatches %d\n", ran, GROUPS,
         want_ran, wrong);
  ok &= wrong == 0;

  int full_ok = 0, first_ok = 0;
  float full = child("TKSIM_MODEL_SAMPLE=0 TKSIM_MODEL_SPREAD=0", &full_ok);
  float first = child("TKSIM_MODEL_SPREAD=0", &first_ok);
  ok &= full_ok && first_ok && full > 0 && first > 0;
  double rel = ms / full - 1, off = first / full - 1;
  printf("spread sample: modeled %.4g ms, every group simulated: %.4g ms (%+.2f%%, tolerance 5%%)\n", ms, full,
         100 * rel);
  ok &= fabs(rel) <= 0.05;
  printf("first %d rounds only (no --model-spread): modeled %.4g ms, %+.1f%% of every group simulated "
         "(must be off by more than 5%% for this test to tell the methods apart)\n", CHUNKS, first, 100 * off);
  ok &= fabs(off) > 0.05;
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
