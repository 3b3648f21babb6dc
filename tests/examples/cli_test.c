/* cli_test: the example programs' shared command-line loop (examples/common
 * cli.h: tk_cli_arg, tk_cli_done, tk_cli_ints), buffers' neighbours
 * (tk_ex_bf16_perturb) and the bandwidth report (timing.h), driven the way a
 * program drives them: exit status, the fields set, and the exact text on
 * stderr / stdout (captured to files in the directory given). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "expect.h"
#include "inputs.h"
#include "timing.h"

static const char *dir = ".";
static int usage_calls = 0;
static void usage(FILE *f)
{
  ++usage_calls;
  fprintf(f, "usage: t [options]\n");
}

/* runs fn with file descriptor fd (1 or 2) sent to a file; its text in out */
static void capture(int fd, void (*fn)(void *), void *arg, char *out, size_t n)
{
  char path[512];
  snprintf(path, sizeof path, "%s/cli_test_%d.txt", dir, fd);
  fflush(stdout), fflush(stderr);
  const int saved = dup(fd), f = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
  dup2(f, fd);
  close(f);
  fn(arg);
  fflush(stdout), fflush(stderr);
  dup2(saved, fd);
  close(saved);
  out[0] = 0;
  FILE *fp = fopen(path, "r");
  if (fp) {
    out[fread(out, 1, n - 1, fp)] = 0;
    fclose(fp);
  }
}

/* A program's loop over a command line given as one string: its own option
 * --m N (an integer) and anything else unknown, like examples/norm. */
typedef struct parse {
  const char *line;
  int sweeps;
  tk_cli c;
  int64_t m;
  int rc;
  char buf[256]; /* the words, which c.csv/c.svg point into */
} parse;

static void parse_run(void *v)
{
  parse *p = v;
  char *argv[16];
  int argc = 0;
  snprintf(p->buf, sizeof p->buf, "t %s", p->line);
  for (char *t = strtok(p->buf, " "); t && argc < 16; t = strtok(NULL, " ")) argv[argc++] = t;
  tk_cli_init(&p->c, "t", usage, p->sweeps);
  p->m = -1;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *val = NULL;
    const int k = tk_cli_arg(&p->c, argc, argv, &i, &val);
    if (k == TK_CLI_NEXT) continue;
    if (k != TK_CLI_VALUE) {
      p->rc = k;
      return;
    }
    if (!strcmp(a, "--m")) {
      if (!tk_cli_i64(val, &p->m)) {
        p->rc = tk_cli_fail(&p->c, "not an integer", val);
        return;
      }
    } else {
      p->rc = tk_cli_fail(&p->c, "unknown option", a);
      return;
    }
  }
  p->rc = tk_cli_done(&p->c, p->m == 0 ? "m (rows) must be > 0" : NULL);
}

/* parses line; err gets stderr's text; returns the status (-1: go on) */
static int parse_line(parse *p, const char *line, int sweeps, char *err, size_t n)
{
  memset(p, 0, sizeof *p);
  p->line = line, p->sweeps = sweeps;
  capture(2, parse_run, p, err, n);
  return p->rc;
}

typedef struct help {
  parse *p;
  const char *line;
  char *err;
  int rc;
} help;
static void help_run(void *v)
{
  help *h = v;
  h->rc = parse_line(h->p, h->line, 0, h->err, 1024);
}

typedef struct bw {
  double ms, bytes;
  tk_timing kind;
} bw;
static void bw_run(void *v)
{
  const bw *b = v;
  tk_timing_print_bandwidth(b->ms, 3, 1, b->kind, b->bytes);
}

/* a launch that fails in the first warm-up, before any HIP call */
static int launches = 0;
static int failing_launch(void *ctx)
{
  (void)ctx;
  ++launches;
  return 7;
}
typedef struct report {
  double ms;
  int rc;
} report;
static void report_run(void *v)
{
  report *r = v;
  const tk_work w = {1e9, 0, NULL};
  r->rc = tk_time_report("t", failing_launch, NULL, 5, 2, &w, &r->ms);
}

int main(int argc, char **argv)
{
  if (argc > 1) dir = argv[1];
  unsetenv("TKSIM_MODEL_SAMPLE");
  unsetenv("TKSIM_MODEL");
  parse p;
  char err[1024];

  /* the defaults, and the shared options set */
  EXPECT(parse_line(&p, "", 0, err, sizeof err) == -1 && !err[0]);
  EXPECT(p.c.iters == 10 && p.c.warmup == 2 && !p.c.iters_set && !p.c.warmup_set && !p.c.check && !p.c.inject);
  EXPECT(parse_line(&p, "--check --iters 0 --m 5 --warmup 7 --inject-error", 0, err, sizeof err) == -1 && !err[0]);
  EXPECT(p.c.check && p.c.inject && p.c.iters == 0 && p.c.iters_set && p.c.warmup == 7 && p.c.warmup_set && p.m == 5);

  /* --help: the usage on stdout, exit 0, nothing after it read */
  usage_calls = 0;
  help h = {&p, "--help --frobnicate", err, -1};
  char out[1024];
  capture(1, help_run, &h, out, sizeof out);
  EXPECT(h.rc == 0 && !err[0] && usage_calls == 1 && !strcmp(out, "usage: t [options]\n"));
  h.line = "-h";
  capture(1, help_run, &h, out, sizeof out);
  EXPECT(h.rc == 0 && usage_calls == 2 && !strcmp(out, "usage: t [options]\n"));

  /* bad input: exit 2, "t: MESSAGE: ARGUMENT" then the usage on stderr */
  usage_calls = 0;
  EXPECT(parse_line(&p, "--iters", 0, err, sizeof err) == 2);
  EXPECT(!strcmp(err, "t: missing value for: --iters\nusage: t [options]\n") && usage_calls == 1);
  EXPECT(parse_line(&p, "--m 3 --warmup", 0, err, sizeof err) == 2 && !strcmp(err, "t: missing value for: --warmup\nusage: t [options]\n"));
  EXPECT(parse_line(&p, "--iters ten", 0, err, sizeof err) == 2 && !strncmp(err, "t: not an integer: ten\n", 23));
  EXPECT(parse_line(&p, "--iters 1.5", 0, err, sizeof err) == 2 && !strncmp(err, "t: not an integer: 1.5\n", 23));
  /* out of int64 range */
  EXPECT(parse_line(&p, "--warmup 99999999999999999999", 0, err, sizeof err) == 2 &&
         !strncmp(err, "t: not an integer: 99999999999999999999\n", 40));
  EXPECT(parse_line(&p, "--iters -1", 0, err, sizeof err) == 2 &&
         !strncmp(err, "t: --iters must be >= 0 (0: no timing): -1\n", 43) && !p.c.iters_set && p.c.iters == 10);
  EXPECT(parse_line(&p, "--warmup -3", 0, err, sizeof err) == 2 && !strncmp(err, "t: --warmup must be >= 0: -3\n", 29));
  EXPECT(parse_line(&p, "5", 0, err, sizeof err) == 2 && !strncmp(err, "t: unexpected argument: 5\n", 26));
  /* a value that looks like an option is still the value */
  EXPECT(parse_line(&p, "--m --check", 0, err, sizeof err) == 2 && !strncmp(err, "t: not an integer: --check\n", 27) &&
         !p.c.check);
  EXPECT(parse_line(&p, "--m 4x", 0, err, sizeof err) == 2 && !strncmp(err, "t: not an integer: 4x\n", 22));
  EXPECT(parse_line(&p, "--frobnicate 1", 0, err, sizeof err) == 2 && !strncmp(err, "t: unknown option: --frobnicate\n", 32));

  /* after the loop: the problem's refusal first, then the shared rules */
  EXPECT(parse_line(&p, "--m 0 --inject-error", 0, err, sizeof err) == 2 && !strncmp(err, "t: m (rows) must be > 0\n", 24));
  EXPECT(parse_line(&p, "--inject-error", 0, err, sizeof err) == 2 && !strncmp(err, "t: --inject-error needs --check\n", 32));
  setenv("TKSIM_MODEL_SAMPLE", "1", 1);
  EXPECT(parse_line(&p, "--check", 0, err, sizeof err) == 2 && strstr(err, "--check is refused under tksim --model-sample"));
  unsetenv("TKSIM_MODEL_SAMPLE");

  /* sweeps: --sweep/--csv/--svg shared only when the program has sweeps */
  EXPECT(parse_line(&p, "--sweep --csv a.csv --svg a.svg --iters 2", 1, err, sizeof err) == -1 && !err[0]);
  EXPECT(p.c.sweep && !strcmp(p.c.csv, "a.csv") && !strcmp(p.c.svg, "a.svg"));
  EXPECT(parse_line(&p, "--sweep --m 1", 0, err, sizeof err) == 2 && !strncmp(err, "t: unknown option: --sweep\n", 27));
  EXPECT(parse_line(&p, "--csv a.csv", 0, err, sizeof err) == 2 && !strncmp(err, "t: unknown option: --csv\n", 25));
  EXPECT(parse_line(&p, "--csv a.csv", 1, err, sizeof err) == 2 && !strncmp(err, "t: --csv/--svg need --sweep\n", 28));
  EXPECT(parse_line(&p, "--sweep --check", 1, err, sizeof err) == 2 &&
         !strncmp(err, "t: --check and --sweep are exclusive\n", 37));
  EXPECT(parse_line(&p, "--sweep --iters 0", 1, err, sizeof err) == 2 && !strncmp(err, "t: --sweep needs --iters >= 1\n", 30));

  /* exactly n comma-separated integers */
  int64_t s3[3] = {0, 0, 0};
  EXPECT(tk_cli_ints("7680,-128,384", s3, 3) && s3[0] == 7680 && s3[1] == -128 && s3[2] == 384);
  EXPECT(!tk_cli_ints("1,2", s3, 3) && !tk_cli_ints("1,2,3,4", s3, 3) && !tk_cli_ints("1,,3", s3, 3));
  EXPECT(!tk_cli_ints("1,2,x", s3, 3) && !tk_cli_ints("", s3, 3));
  EXPECT(!tk_cli_ints("1,2,12345678901234567890123456789012", s3, 3)); /* an item past 31 characters */
  EXPECT(tk_cli_ints("5", s3, 1) && s3[0] == 5);

  /* --inject-error's corruption: v + 0.25 * max(1, |v|) */
  EXPECT(tk_ex_bf16_perturb(bf(1.0f)) == bf(1.25f) && tk_ex_bf16_perturb(bf(-4.0f)) == bf(-3.0f));
  EXPECT(tk_ex_bf16_perturb(bf(0.0f)) == bf(0.25f) && tk_ex_bf16_perturb(bf(0.5f)) == bf(0.75f));

  /* the bandwidth report: 3e9 bytes in 1.5 ms = 2000 GB/s (modeled); none
   * derived from emulated wall time */
  bw b = {1.5, 3e9, TK_TIMING_MODELED};
  capture(1, bw_run, &b, out, sizeof out);
  EXPECT(!strcmp(out, "time: 1.5000 ms per iteration over 3 iterations (1 warm-up) [modeled (tksim timing model)]\n"
                      "bandwidth: 2000.0 GB/s (modeled; 3e+09 bytes = reads + writes, launch overhead included)\n"
                      "bytes: 3000000000\n"));
  b.kind = TK_TIMING_EMULATED;
  capture(1, bw_run, &b, out, sizeof out);
  EXPECT(strstr(out, "[emulated wall time (tksim, NOT hardware performance)]\nbandwidth: not reported") &&
         strstr(out, "bytes: 3000000000\n"));

  /* a failed launch: exit status 4 (the programs' HIP error), "PROG: launch
   * failed", nothing more launched, *ms untouched */
  report rep = {-1.0, 0};
  capture(2, report_run, &rep, err, sizeof err);
  EXPECT(rep.rc == 4 && !strcmp(err, "t: launch failed\n") && launches == 1 && rep.ms == -1.0);

  printf(failures ? "cli_test: %d failures\n" : "cli_test: all ok\n", failures);
  return failures ? 1 : 0;
}
