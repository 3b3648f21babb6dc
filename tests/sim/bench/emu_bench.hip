// emu_bench.hip: tksim's speed, with and without the timing model. Run as
// `tksim --report emu_bench [SCALE]`: the program re-runs itself twice as a
// child (TKSIM_MODEL=off, then TKSIM_MODEL=mi300x or the --model given),
// each child measures the wall time of launch + synchronize per kernel and
// reads that launch's figures from tksim's report (redirected to a temporary
// file through TKSIM_REPORT_FILE); the parent prints both sets of emulated
// wave-instructions, lane-instructions and MFMAs per second and the
// model-on / model-off wall-time ratio per kernel and in total (the model's
// budget is 3x). Kernels: an MFMA chain (v_mfma_f32_32x32x8_f16), a VALU FMA
// loop, and an LDS read/write loop. Without tksim it runs the kernels once and
// prints wall times only. Built, not registered as a ctest (timings depend on
// the machine).
#include "../isa/vtest.h"
#include <chrono>
#include <time.h>
#include <string>
#include <unistd.h>

typedef _Float16 h4 __attribute__((ext_vector_type(4)));
typedef float f16v __attribute__((ext_vector_type(16)));

__global__ void k_mfma(float *out, int iters)
{
  int l = threadIdx.x % 64;
  h4 a = { (_Float16)(l % 3), (_Float16)1, (_Float16)0.5f, (_Float16)(l % 5) };
  h4 b = { (_Float16)1, (_Float16)(l % 7), (_Float16)2, (_Float16)0.25f };
  f16v c = {};
  for (int i = 0; i < iters; i++) c = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, c, 0, 0, 0);
  float s = 0;
  for (int r = 0; r < 16; r++) s += c[r];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void k_valu(float *out, int iters)
{
  float x = (float)threadIdx.x * 1e-3f, y = 1.0001f, z = 0.5f;
  for (int i = 0; i < iters; i++) { x = fmaf(x, y, z); z = fmaf(z, 0.999f, x * 1e-6f); }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x + z;
}

__global__ void k_lds(float *out, int iters)
{
  __shared__ float s[1024];
  int t = threadIdx.x;
  s[t] = (float)t;
  __syncthreads();
  float acc = 0;
  for (int i = 0; i < iters; i++) {
    acc += s[(t * 33 + i) % 1024];
    __syncthreads(); /* reads of this round before anyone overwrites */
    s[(t + i) % 1024] = acc;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = acc;
}

static std::string g_report;

static bool figures(uint64_t *insts, uint64_t *lanes, uint64_t *mfma)
{
  if (g_report.empty()) return false;
  FILE *f = fopen(g_report.c_str(), "r");
  if (!f) return false;
  char line[1024];
  bool got = false;
  while (fgets(line, sizeof line, f)) {
    unsigned long long a, b;
    if (sscanf(line, "  instructions %llu (lane-instructions %llu)", &a, &b) == 2) { *insts = a; *lanes = b; got = true; }
    if (sscanf(line, "  mfma %llu,", &a) == 1) *mfma = a;
  }
  fclose(f);
  remove(g_report.c_str()); /* the next launch starts a fresh file */
  return got;
}

static double cpu_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Rates are per wall second; the CPU seconds of all worker threads are shown
 * too, since they vary less when other jobs share the machine. */
template <typename F> static void bench(const char *name, F launch)
{
  auto t0 = std::chrono::steady_clock::now();
  double c0 = cpu_seconds();
  launch();
  VT_HIP(hipGetLastError());
  VT_HIP(hipDeviceSynchronize());
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double cpu = cpu_seconds() - c0;
  uint64_t insts = 0, lanes = 0, mfma = 0;
  if (figures(&insts, &lanes, &mfma))
    printf("%-6s wall %8.3f s cpu %8.3f s  %12llu wave-insts (%7.2f M/s)  %14llu lane-insts (%8.2f M/s)  %10llu MFMAs (%8.3f M/s)\n",
           name, s, cpu, (unsigned long long)insts, insts / s / 1e6, (unsigned long long)lanes, lanes / s / 1e6,
           (unsigned long long)mfma, mfma / s / 1e6);
  else
    printf("%-6s wall %8.3f s cpu %8.3f s  (no tksim report: run as `tksim --report emu_bench`)\n", name, s, cpu);
}

static int run_kernels(int scale)
{
  const char *rep = getenv("TKSIM_REPORT");
  if (rep && atoi(rep) > 0 && !getenv("TKSIM_REPORT_FILE")) {
    g_report = "/tmp/tksim_bench_report_" + std::to_string(getpid());
    setenv("TKSIM_REPORT_FILE", g_report.c_str(), 1);
    remove(g_report.c_str());
  }
  const int blocks = 64 * scale, threads = 256;
  vt_buf<float> out((size_t)blocks * threads);
  setvbuf(stdout, nullptr, _IOLBF, 0);
  bench("mfma", [&] { k_mfma<<<blocks, threads>>>(out.d, 256); });
  bench("valu", [&] { k_valu<<<blocks, threads>>>(out.d, 512); });
  bench("lds", [&] { k_lds<<<blocks, threads>>>(out.d, 128); });
  return 0;
}

/* Runs this program as a child with TKSIM_MODEL=model; echoes its lines and
 * collects each kernel's wall seconds. */
static int run_child(const char *self, int scale, const char *model, double wall[3], double cpu[3])
{
  char cmd[4400];
  snprintf(cmd, sizeof cmd, "TKSIM_MODEL=%s TKSIM_MODEL_SAMPLE=0 '%s' --child %d", model, self, scale);
  FILE *f = popen(cmd, "r");
  if (!f) return -1;
  static const char *const names[3] = {"mfma", "valu", "lds"};
  char line[1024];
  int got = 0;
  while (fgets(line, sizeof line, f)) {
    printf("  %s", line);
    char nm[16];
    double s, c;
    if (sscanf(line, "%15s wall %lf s cpu %lf", nm, &s, &c) == 3)
      for (int i = 0; i < 3; i++)
        if (!strcmp(nm, names[i])) { wall[i] = s; cpu[i] = c; got++; }
  }
  return pclose(f) == 0 && got == 3 ? 0 : -1;
}

int main(int argc, char **argv)
{
  int child = argc > 1 && !strcmp(argv[1], "--child");
  int scale = argc > 1 + child ? atoi(argv[1 + child]) : 1;
  if (scale < 1) scale = 1;
  if (child || !getenv("TKSIM_ACTIVE")) return run_kernels(scale);
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) { fprintf(stderr, "emu_bench: cannot find /proc/self/exe\n"); return 1; }
  self[n] = 0;
  const char *m = getenv("TKSIM_MODEL");
  const char *model = m && *m && strcmp(m, "off") ? m : "mi300x";
  double off[3] = {0, 0, 0}, on[3] = {0, 0, 0}, coff[3] = {0, 0, 0}, con[3] = {0, 0, 0};
  setvbuf(stdout, nullptr, _IOLBF, 0);
  printf("model off:\n");
  if (run_child(self, scale, "off", off, coff)) { fprintf(stderr, "emu_bench: model-off run failed\n"); return 1; }
  printf("model on (%s):\n", model);
  if (run_child(self, scale, model, on, con)) { fprintf(stderr, "emu_bench: model-on run failed\n"); return 1; }
  static const char *const names[3] = {"mfma", "valu", "lds"};
  double toff = 0, ton = 0, tcoff = 0, tcon = 0;
  for (int i = 0; i < 3; i++) {
    printf("%-6s model on / off: wall %5.2fx (%.3f s / %.3f s)  cpu %5.2fx (%.3f s / %.3f s)\n", names[i],
           on[i] / off[i], on[i], off[i], con[i] / coff[i], con[i], coff[i]);
    toff += off[i]; ton += on[i]; tcoff += coff[i]; tcon += con[i];
  }
  printf("total  model on / off: wall %5.2fx (%.3f s / %.3f s)  cpu %5.2fx (%.3f s / %.3f s); budget 3x\n",
         ton / toff, ton, toff, tcon / tcoff, tcon, tcoff);
  return 0;
}
