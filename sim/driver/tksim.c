/* tksim.c: the `tksim` driver. `tksim [options] PROGRAM [ARGS...]` runs a HIP
 * program on the gfx942/gfx950 emulator: it puts tksim's libamdhip64.so.5
 * (<prefix>/lib/tksim, found from /proc/self/exe as ../lib/tksim) first on
 * LD_LIBRARY_PATH, encodes the options as TKSIM_* environment variables (read
 * by tks_get_options in sim/common/options.c) and execv's the program, so its
 * stdout, stderr and exit status pass through unchanged.
 */
#define _DEFAULT_SOURCE /* mmap flags, readlink, realpath under -std=c11 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tksim.h"

static const char usage_text[] =
  "usage: tksim [options] PROGRAM [ARGS...]\n"
  "Runs a HIP program built for gfx942 or gfx950 on tksim, the CPU emulator of AMD\n"
  "CDNA3 and CDNA4.\n"
  "\n"
  "options:\n"
  "  --arch=gfx942|gfx950  the emulated device (default gfx942, an MI325X; gfx950:\n"
  "                      an MI355X); a fat binary's code object for it is run\n"
  "  --report            print per-launch statistics to stderr\n"
  "  --report=pc         also print per-instruction (PC) statistics\n"
  "  --no-check-memory   do not check global accesses against live allocations\n"
  "  --no-check-waits    do not check s_waitcnt before use of load results\n"
  "  --no-check-races    do not check LDS races between waves\n"
  "  --threads=N         worker threads for workgroups (default: all cores)\n"
  "  --budget=N          instruction budget per dispatch (hang guard)\n"
  "  --stall=SECONDS     fail a dispatch whose workgroups all only poll (s_sleep\n"
  "                      spin-waits) or wait at barriers this long (default 30)\n"
  "  --model=mi300x|mi325x|mi350x|mi355x  estimate kernel time with the timing\n"
  "                      model (mi300x/mi325x: --arch=gfx942; mi350x/mi355x:\n"
  "                      --arch=gfx950)\n"
  "  --model-sample=N    with --model: run only N x occupancy workgroups per launch\n"
  "                      and extrapolate (the others compute nothing)\n"
  "  --timeline=FILE.json  write a Chrome-trace timeline of the launches\n"
  "  --quiet             no diagnostics for failed HIP calls (the program still\n"
  "                      gets the error codes); kernel failures are still shown\n"
  "  --help              show this text\n";

static int usage(const char *fmt, const char *arg)
{
  if (fmt) {
    fprintf(stderr, "tksim: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
  }
  fputs(usage_text, stderr);
  return 2;
}

/* Parses a positive decimal integer; 0 on success. */
static int parse_count(const char *s, unsigned long long *v)
{
  if (!s || !*s || *s == '-' || *s == '+') return -1;
  char *end;
  errno = 0;
  *v = strtoull(s, &end, 10);
  if (errno || *end || *v == 0) return -1;
  return 0;
}

int main(int argc, char **argv)
{
  int report = 0, quiet = 0, chk_mem = 1, chk_waits = 1, chk_races = 1;
  unsigned long long threads = 0, budget = 0, sample = 0, spread = 0, stall = 0;
  int spread_grid = 0;
  const char *model = NULL, *timeline = NULL, *arch = "gfx942";
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) { i++; break; }
    if (strncmp(a, "--", 2)) break; /* the program */
    if (!strcmp(a, "--help")) { fputs(usage_text, stdout); return 0; }
    else if (!strcmp(a, "--report")) report = 1;
    else if (!strcmp(a, "--report=pc")) report = 2;
    else if (!strcmp(a, "--no-check-memory")) chk_mem = 0;
    else if (!strcmp(a, "--no-check-waits")) chk_waits = 0;
    else if (!strcmp(a, "--no-check-races")) chk_races = 0;
    else if (!strcmp(a, "--quiet")) quiet = 1;
    else if (!strncmp(a, "--arch=", 7)) {
      arch = a + 7;
      if (tks_arch_id(arch) < 0) return usage("unknown target in '%s' (use gfx942 or gfx950)", a);
    }
    else if (!strncmp(a, "--threads=", 10)) {
      if (parse_count(a + 10, &threads) || threads > 4096) return usage("bad thread count in '%s'", a);
    } else if (!strncmp(a, "--budget=", 9)) {
      if (parse_count(a + 9, &budget)) return usage("bad instruction budget in '%s'", a);
    } else if (!strncmp(a, "--stall=", 8)) {
      if (parse_count(a + 8, &stall) || stall > 86400) return usage("bad stall time in '%s' (1..86400 seconds)", a);
    } else if (!strncmp(a, "--model=", 8)) {
      model = a + 8;
      if (tks_model_id(model) <= 0) return usage("unknown model in '%s' (use mi300x, mi325x, mi350x or mi355x)", a);
    } else if (!strncmp(a, "--model-sample=", 15)) {
      if (parse_count(a + 15, &sample) || sample > 1000000) return usage("bad sample count in '%s'", a);
    } else if (!strcmp(a, "--model-spread")) {
      spread_grid = 1;
    } else if (!strncmp(a, "--model-spread=", 15)) {
      if (parse_count(a + 15, &spread)) return usage("bad workgroup period in '%s'", a);
    } else if (!strncmp(a, "--timeline=", 11)) {
      timeline = a + 11;
      if (!*timeline) return usage("'%s' needs a file name", a);
    } else if (!strcmp(a, "--timeline")) {
      if (i + 1 >= argc) return usage("'%s' needs a file name", a);
      timeline = argv[++i];
    } else return usage("unknown option '%s'", a);
  }
  if (i >= argc) return usage("no program given%s", "");
  /* sampling skips workgroups only for the model's sake: without it the run
   * would just compute wrong results */
  if (sample && !model) return usage("--model-sample needs --model=NAME%s", "");
  if ((spread || spread_grid) && !sample) return usage("--model-spread needs --model-sample=N%s", "");
  /* a SKU's parameters describe one generation: timing another's code with
   * them would pass off e.g. CDNA3 figures as a gfx950's */
  if (model && tks_model_arch(tks_model_id(model)) != tks_arch_id(arch)) {
    int ma = tks_model_arch(tks_model_id(model));
    fprintf(stderr, "tksim: --model=%s is a %s (%s) part but the emulated target is %s; use --arch=%s%s\n", model,
            tks_arch_name(ma), ma == TKS_ARCH_GFX950 ? "CDNA4" : "CDNA3", arch, tks_arch_name(ma),
            ma == TKS_ARCH_GFX950 ? " (the default target is gfx942)" : "");
    return 2;
  }

  char prog[PATH_MAX];
  if (tks_find_executable(argv[i], prog, sizeof prog)) return usage("'%s' is not an executable program", argv[i]);

  /* <prefix>/bin/tksim -> <prefix>/lib/tksim */
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) { fprintf(stderr, "tksim: cannot read /proc/self/exe: %s\n", strerror(errno)); return 2; }
  self[n] = 0;
  char *slash = strrchr(self, '/');
  if (slash) *slash = 0;
  char libdir[PATH_MAX + 32], probe[PATH_MAX + 64];
  snprintf(libdir, sizeof libdir, "%s/../lib/tksim", self);
  snprintf(probe, sizeof probe, "%s/libamdhip64.so.5", libdir);
  if (access(probe, R_OK)) {
    fprintf(stderr, "tksim: the tksim HIP runtime is missing (%s): build the tksim_hip target\n", probe);
    return 2;
  }
  char resolved[PATH_MAX];
  if (realpath(libdir, resolved)) snprintf(libdir, sizeof libdir, "%s", resolved);

  const char *old = getenv("LD_LIBRARY_PATH");
  size_t len = strlen(libdir) + (old ? strlen(old) : 0) + 2;
  char *ldp = malloc(len);
  if (!ldp) return 2;
  snprintf(ldp, len, "%s%s%s", libdir, old && *old ? ":" : "", old && *old ? old : "");
  char num[32];
  int ok = setenv("LD_LIBRARY_PATH", ldp, 1) == 0;
  ok &= setenv("TKSIM_REPORT", report == 2 ? "2" : report ? "1" : "0", 1) == 0;
  ok &= setenv("TKSIM_CHECK_MEMORY", chk_mem ? "1" : "0", 1) == 0;
  ok &= setenv("TKSIM_CHECK_WAITS", chk_waits ? "1" : "0", 1) == 0;
  ok &= setenv("TKSIM_CHECK_RACES", chk_races ? "1" : "0", 1) == 0;
  ok &= setenv("TKSIM_QUIET", quiet ? "1" : "0", 1) == 0;
  ok &= setenv("TKSIM_ARCH", arch, 1) == 0;
  snprintf(num, sizeof num, "%llu", threads);
  ok &= setenv("TKSIM_THREADS", num, 1) == 0;
  snprintf(num, sizeof num, "%llu", budget);
  ok &= setenv("TKSIM_BUDGET", num, 1) == 0;
  snprintf(num, sizeof num, "%llu", stall);
  ok &= setenv("TKSIM_STALL", num, 1) == 0;
  snprintf(num, sizeof num, "%llu", sample);
  ok &= setenv("TKSIM_MODEL_SAMPLE", num, 1) == 0;
  snprintf(num, sizeof num, "%llu", spread);
  ok &= setenv("TKSIM_MODEL_SPREAD", spread_grid ? "grid" : num, 1) == 0;
  ok &= setenv("TKSIM_MODEL", model ? model : "off", 1) == 0;
  if (timeline) ok &= setenv("TKSIM_TIMELINE", timeline, 1) == 0;
  else unsetenv("TKSIM_TIMELINE");
  ok &= setenv("TKSIM_ACTIVE", "1", 1) == 0;
  if (!ok) { fprintf(stderr, "tksim: cannot set the environment\n"); return 2; }
  free(ldp);

  execv(prog, argv + i);
  fprintf(stderr, "tksim: cannot execute %s: %s\n", prog, strerror(errno));
  return 2;
}
