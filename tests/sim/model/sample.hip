/* sample: tksim --model=mi300x --model-sample=1 runs only a sample of the
 * workgroups and extrapolates (docs/tksim-model.md "Sampling").
 *
 * The kernel: GROUPS = 304 x 16 uniform groups of 256 work-items (4 waves,
 * one per SIMD), each a dependent VALU loop writing one float per work-item.
 * Expected selection, from the documented rule: the model simulates XCD 0
 * only (groups g with g % 8 == 0: CDNA3 dispatches round-robin over its 8
 * XCDs) and of those the first N rounds of its resident slots, 38 CUs x k
 * groups per CU. With 4 waves per group (1 per SIMD) and few VGPRs, k =
 * min(8 waves per SIMD / 1, 16 groups per CU) = 8 (LLVM AMDGPUUsage: 8 waves
 * per SIMD on gfx942), so XCD 0 has 304 slots and 608 groups (two rounds);
 * N = 1 runs its first 304: g % 8 == 0 and g / 8 < 304. Checked: exactly
 * those groups wrote their (correct) outputs, all others kept the sentinel;
 * the device name ends in " (tksim sampled)" and the runtime said once on
 * stderr that unsimulated groups are not computed.
 *
 * Modeled time: the groups are identical, so one round of XCD 0 times two
 * rounds must match the unsampled figure (the same program re-run as a child
 * with TKSIM_MODEL_SAMPLE=0) within 5%. */
#include "model_common.h"
#include <unistd.h>

#define GROUPS (DOC_CUS * 16)
#define THREADS 256
#define SAMPLE_K 8 /* groups per CU for this kernel, derived above */
#define XCDS 8
#define CUS_PER_XCD (DOC_CUS / XCDS)
#define SENTINEL -12345.0f

__global__ void work(float *out, int iters)
{
  float x = (float)threadIdx.x * 1e-3f, y = (float)blockIdx.x;
  for (int i = 0; i < iters; i++) { x = fmaf(x, 0.5f, y); y = fmaf(y, 0.25f, 1.0f); }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + y;
}

/* The host reference of one work-item's result (same f32 fmaf sequence). */
static float expect(int g, int t, int iters)
{
  float x = (float)t * 1e-3f, y = (float)g;
  for (int i = 0; i < iters; i++) { x = fmaf(x, 0.5f, y); y = fmaf(y, 0.25f, 1.0f); }
  return x + y;
}

static const int ITERS = 200;

/* Runs the kernel once; returns its modeled ms and fills written[g] with
 * 1 (correct result), 0 (sentinel untouched) or -1 (anything else). */
static float run(int *written)
{
  size_t n = (size_t)GROUPS * THREADS;
  float *d, *h = (float *)malloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++) h[i] = SENTINEL;
  CHECK_HIP(hipMalloc(&d, n * sizeof(float)));
  CHECK_HIP(hipMemcpy(d, h, n * sizeof(float), hipMemcpyHostToDevice));
  float ms = time_ms([&] { hipLaunchKernelGGL(work, dim3(GROUPS), dim3(THREADS), 0, 0, d, ITERS); });
  CHECK_HIP(hipMemcpy(h, d, n * sizeof(float), hipMemcpyDeviceToHost));
  for (int g = 0; g < GROUPS; g++) {
    int untouched = 1, right = 1;
    for (int t = 0; t < THREADS; t++) {
      float v = h[(size_t)g * THREADS + t];
      untouched &= v == SENTINEL;
      right &= v == expect(g, t, ITERS);
    }
    written[g] = right ? 1 : untouched ? 0 : -1;
  }
  CHECK_HIP(hipFree(d));
  free(h);
  return ms;
}

static int name_sampled(void)
{
  hipDeviceProp_t p;
  CHECK_HIP(hipGetDeviceProperties(&p, 0));
  const char *suf = " (tksim sampled)";
  size_t a = strlen(p.name), b = strlen(suf);
  printf("device name: '%s'\n", p.name);
  return a >= b && !strcmp(p.name + a - b, suf);
}

int main(int argc, char **argv)
{
  static int written[GROUPS];
  const char *m = getenv("TKSIM_MODEL"), *s = getenv("TKSIM_MODEL_SAMPLE");
  if (argc > 1 && !strcmp(argv[1], "--unsampled")) {
    /* child: every group runs */
    int ok = !name_sampled();
    float ms = run(written);
    for (int g = 0; g < GROUPS; g++) ok &= written[g] == 1;
    printf("unsampled_ms %.9g all_groups_correct %d\n", ms, ok);
    return ok ? 0 : 1;
  }
  if (!m || strcmp(m, "mi300x") || !s || atoi(s) != 1) {
    fprintf(stderr, "run under: tksim --model=mi300x --model-sample=1 PROGRAM\n");
    return 2;
  }
  /* catch the runtime's stderr note while the device is queried and used */
  char errpath[] = "/tmp/tksim_sample_errXXXXXX";
  int efd = mkstemp(errpath), saved = dup(2);
  fflush(stderr);
  dup2(efd, 2);
  int ok = name_sampled();
  float ms = run(written);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  FILE *ef = fopen(errpath, "r");
  char line[512];
  int notes = 0;
  while (ef && fgets(line, sizeof line, ef)) {
    fputs(line, stderr);
    if (strstr(line, "tksim: --model-sample: results of unsimulated workgroups are not computed")) notes++;
  }
  if (ef) fclose(ef);
  close(efd);
  unlink(errpath);
  printf("stderr notes: %d (want 1)\n", notes);
  ok &= notes == 1;

  const int first = 1 * CUS_PER_XCD * SAMPLE_K; /* N rounds of XCD 0's slots */
  int ran = 0, wrong = 0;
  for (int g = 0; g < GROUPS; g++) {
    int want = g % XCDS == 0 && g / XCDS < first;
    if (written[g] == 1) ran++;
    if (written[g] != want) {
      if (wrong++ < 5) printf("group %d: %s, expected %s\n", g, written[g] == 1 ? "ran" : written[g] ? "garbage" : "untouched",
                              want ? "ran" : "untouched");
    }
  }
  printf("groups run: %d of %d (expected %d: XCD 0's first %d); mismatches %d\n", ran, GROUPS, first, first, wrong);
  ok &= wrong == 0;

  /* the same kernel with every group simulated, in a child process */
  char cmd[4200], self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) { printf("cannot find myself\n"); return 1; }
  self[len] = 0;
  snprintf(cmd, sizeof cmd, "TKSIM_MODEL_SAMPLE=0 '%s' --unsampled", self);
  FILE *c = popen(cmd, "r");
  float full = 0;
  int child_ok = 0;
  while (c && fgets(line, sizeof line, c)) {
    fputs(line, stdout);
    sscanf(line, "unsampled_ms %f all_groups_correct %d", &full, &child_ok);
  }
  int rc = c ? pclose(c) : -1;
  ok &= rc == 0 && child_ok && full > 0;
  ok &= within("sampled vs unsampled modeled ms", ms, full, 0.05);
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
