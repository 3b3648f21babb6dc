/* test_driver.c: the `tksim` driver's command line. Runs the built driver on
 * /usr/bin/env and /bin/sh to observe what it passes on: TKSIM_* variables,
 * LD_LIBRARY_PATH starting with its lib/tksim, arguments and exit status
 * unchanged; bad options and missing programs give usage and exit 2. Also
 * checks tks_get_options' decoding of those variables (sim/common). */
#define _DEFAULT_SOURCE /* mmap flags, readlink, realpath under -std=c11 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>
#include "check.h"
#include "tksim.h"

static const char *g_tksim;

/* Runs tksim with args; returns the exit status, stdout into out. */
static int run(char *out, size_t outlen, const char *const *args)
{
  int fd[2];
  if (pipe(fd)) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    int devnull = open("/dev/null", 1);
    if (devnull >= 0) dup2(devnull, 2);
    const char *argv[32];
    int n = 0;
    argv[n++] = g_tksim;
    for (int i = 0; args[i] && n < 31; i++) argv[n++] = args[i];
    argv[n] = NULL;
    execv(g_tksim, (char *const *)argv);
    _exit(127);
  }
  close(fd[1]);
  size_t got = 0;
  ssize_t r;
  while (got + 1 < outlen && (r = read(fd[0], out + got, outlen - 1 - got)) > 0) got += (size_t)r;
  out[got] = 0;
  close(fd[0]);
  int st;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int has_line(const char *out, const char *line)
{
  size_t n = strlen(line);
  for (const char *p = out; (p = strstr(p, line)); p++)
    if ((p == out || p[-1] == '\n') && (p[n] == '\n' || p[n] == 0)) return 1;
  return 0;
}

int main(int argc, char **argv)
{
  if (argc < 2) { fprintf(stderr, "usage: test_driver PATH/TO/tksim\n"); return 2; }
  g_tksim = argv[1];
  static char out[1 << 16];

  const char *a1[] = { "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, a1) == 0, "tksim env exits 0");
  CHECK(has_line(out, "TKSIM_CHECK_MEMORY=1") && has_line(out, "TKSIM_CHECK_WAITS=1") &&
        has_line(out, "TKSIM_CHECK_RACES=1") && has_line(out, "TKSIM_REPORT=0") &&
        has_line(out, "TKSIM_THREADS=0") && has_line(out, "TKSIM_MODEL=off"), "defaults:\n%s", out);
  const char *ld = strstr(out, "\nLD_LIBRARY_PATH=");
  CHECK(ld && strstr(ld, "/lib/tksim") && strchr(ld + 1, '\n') > strstr(ld, "/lib/tksim"),
        "LD_LIBRARY_PATH starts with lib/tksim");

  const char *a2[] = { "--report=pc", "--no-check-memory", "--no-check-waits", "--no-check-races",
                       "--threads=3", "--budget=12345", "--model=mi300x", "--model-sample=7",
                       "--timeline=t.json", "--quiet", "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, a2) == 0, "all options accepted");
  CHECK(has_line(out, "TKSIM_REPORT=2") && has_line(out, "TKSIM_CHECK_MEMORY=0") &&
        has_line(out, "TKSIM_CHECK_WAITS=0") && has_line(out, "TKSIM_CHECK_RACES=0") &&
        has_line(out, "TKSIM_THREADS=3") && has_line(out, "TKSIM_BUDGET=12345") &&
        has_line(out, "TKSIM_MODEL=mi300x") && has_line(out, "TKSIM_MODEL_SAMPLE=7") &&
        has_line(out, "TKSIM_TIMELINE=t.json") && has_line(out, "TKSIM_QUIET=1"), "encoded options:\n%s", out);
  const char *a2b[] = { "--report", "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, a2b) == 0 && has_line(out, "TKSIM_REPORT=1"), "--report");

  /* arguments after the program are the program's, exit status passes through */
  const char *a3[] = { "/bin/sh", "-c", "echo \"$0|$1\"; exit 7", "--threads=9", "x y", NULL };
  CHECK(run(out, sizeof out, a3) == 7, "exit status 7 passes through");
  CHECK(has_line(out, "--threads=9|x y"), "program arguments unchanged: %s", out);
  const char *a4[] = { "sh", "-c", "exit 0", NULL };
  CHECK(run(out, sizeof out, a4) == 0, "program found on PATH");
  const char *a5[] = { "--", "/bin/sh", "-c", "kill -TERM $$", NULL };
  CHECK(run(out, sizeof out, a5) == 128 + 15, "death by signal passes through");

  /* errors: exit 2 */
  const char *b1[] = { "--bogus", "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, b1) == 2, "unknown option");
  const char *b2[] = { NULL };
  CHECK(run(out, sizeof out, b2) == 2, "no program");
  const char *b3[] = { "/nonexistent/program", NULL };
  CHECK(run(out, sizeof out, b3) == 2, "missing program");
  const char *b4[] = { "/etc/passwd", NULL };
  CHECK(run(out, sizeof out, b4) == 2, "non-executable program");
  const char *b5[] = { "/tmp", NULL };
  CHECK(run(out, sizeof out, b5) == 2, "a directory");
  const char *b6[] = { "--threads=0", "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, b6) == 2, "--threads=0");
  const char *b7[] = { "--threads=abc", "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, b7) == 2, "--threads=abc");
  const char *b8[] = { "--budget=-5", "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, b8) == 2, "--budget=-5");
  const char *b9[] = { "--model=mi250", "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, b9) == 2, "--model=mi250");
  const char *b10[] = { "--timeline=", "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, b10) == 2, "--timeline= without a file");
  const char *b11[] = { "--stall=0", "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, b11) == 2, "--stall=0");
  const char *b12[] = { "--stall=86401", "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, b12) == 2, "--stall=86401");
  const char *a6[] = { "--stall=7", "/usr/bin/env", NULL };
  CHECK(run(out, sizeof out, a6) == 0 && has_line(out, "TKSIM_STALL=7"), "--stall=7");
  const char *h[] = { "--help", NULL };
  CHECK(run(out, sizeof out, h) == 0 && strstr(out, "usage: tksim"), "--help prints usage on stdout, exit 0");

  /* tks_get_options decodes what the driver sets */
  setenv("TKSIM_CHECK_MEMORY", "0", 1); setenv("TKSIM_CHECK_WAITS", "1", 1); setenv("TKSIM_CHECK_RACES", "0", 1);
  setenv("TKSIM_THREADS", "5", 1); setenv("TKSIM_BUDGET", "99999999999", 1); setenv("TKSIM_REPORT", "2", 1);
  setenv("TKSIM_MODEL", "mi325x", 1); setenv("TKSIM_MODEL_SAMPLE", "4", 1); setenv("TKSIM_TIMELINE", "x.json", 1);
  setenv("TKSIM_QUIET", "1", 1); setenv("TKSIM_STALL", "12", 1);
  const tks_options *o = tks_get_options();
  CHECK(o->check_memory == 0 && o->check_waits == 1 && o->check_races == 0, "checks");
  CHECK(o->threads == 5 && o->inst_budget == 99999999999ull && o->report == 2, "threads/budget/report");
  CHECK(o->stall_seconds == 12, "stall");
  CHECK(o->model == TKS_MODEL_MI325X && o->model_sample == 4 && o->timeline && !strcmp(o->timeline, "x.json") && o->quiet == 1, "model/timeline/quiet");
  CHECK(tks_model_id("mi300x") == TKS_MODEL_MI300X && tks_model_id("off") == 0 && tks_model_id("h100") == -1, "model ids");
  CHECK(tks_model_id("mi350x") == TKS_MODEL_MI350X && tks_model_id("mi355x") == TKS_MODEL_MI355X, "CDNA4 model ids");
  CHECK(tks_model_arch(TKS_MODEL_MI325X) == TKS_ARCH_GFX942 && tks_model_arch(TKS_MODEL_MI355X) == TKS_ARCH_GFX950 &&
        tks_model_arch(TKS_MODEL_MI350X) == TKS_ARCH_GFX950 && tks_model_arch(0) == -1, "model generations");
  return CHECK_DONE();
}
