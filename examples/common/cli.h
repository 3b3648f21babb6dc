/* cli.h: argument parsing helpers for the example programs (gemm, attn,
 * norm, rotary): strict number parsing, the "name: problem: argument" + usage
 * + exit 2 convention, comma lists and AxBxC shape lists, and the loop over
 * the command line with the options every program shares (tk_cli). */
#ifndef TK_EXAMPLES_CLI_H
#define TK_EXAMPLES_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whole string is a decimal integer / a finite number: 1, else 0 (v untouched). */
int tk_cli_i64(const char *s, int64_t *v);
int tk_cli_f32(const char *s, float *v);

/* Prints "PROG: MSG[: ARG]" and the usage on stderr; returns 2, the exit
 * status for bad arguments. */
int tk_cli_bad(const char *prog, void (*usage)(FILE *), const char *msg, const char *arg);

/* Comma lists: the next item of *s (its start and length); advances *s past
 * the comma. Returns 0 at the end of the list. */
int tk_cli_list_next(const char **s, const char **item, size_t *len);

/* The rules every example program applies to its shared options: --csv/--svg
 * need --sweep, --check and --sweep exclude each other, --inject-error needs
 * --check, a sweep needs --iters >= 1, and --check is refused under tksim
 * --model-sample (TKSIM_MODEL_SAMPLE > 0: unsimulated workgroups compute
 * nothing). Returns the message for the first one broken, or NULL. */
const char *tk_cli_common_error(int check, int sweep, int inject, int64_t iters, const char *csv, const char *svg);

/* --iters / --warmup: a count >= 0 into *dst, *set = 1. Returns NULL, or the
 * message for a negative count (opt names which). */
const char *tk_cli_count(const char *opt, int64_t x, int64_t *dst, int *set);

/* "AxBxC[,AxBxC...]" with `dims` positive integers per shape, at most `max`
 * shapes, into out[shape * dims + d]. Returns the number of shapes, or -1 for
 * a malformed list, non-positive sizes or more than `max` shapes. */
int tk_cli_shapes(const char *s, int dims, int64_t *out, int max);

/* "A,B,C": exactly n comma-separated integers (each tk_cli_i64, at most 31
 * characters) into out[0..n). Returns 1, else 0 (out may be partly written). */
int tk_cli_ints(const char *s, int64_t *out, int n);

/* The command line of an example program.  The shared options: --help/-h
 * (usage on stdout, exit 0), --check, --inject-error, --iters N (default
 * 10), --warmup N (default 2); with `sweeps` also --sweep, --csv FILE and
 * --svg FILE (gemm, attn; elsewhere they stay unknown options). */
typedef struct tk_cli {
  const char *prog;
  void (*usage)(FILE *);
  int sweeps;
  int check, inject, sweep, iters_set, warmup_set;
  int64_t iters, warmup;
  const char *csv, *svg;
} tk_cli;

void tk_cli_init(tk_cli *c, const char *prog, void (*usage)(FILE *), int sweeps);

/* tk_cli_arg's answers besides an exit status (0 after --help, 2 after a bad
 * argument, message and usage printed) */
enum { TK_CLI_NEXT = -1, TK_CLI_VALUE = -2 };

/* argv[*i] in the loop `for (i = 1; i < argc; ++i)`, once the program's own
 * value-less flags are ruled out: a shared option is applied (TK_CLI_NEXT);
 * any other "--NAME VALUE" gives *val = VALUE, *i on it (TK_CLI_VALUE, the
 * program's to apply or call unknown). Refused, exit 2: a word not starting
 * with "--" ("unexpected argument"), a last option with no value ("missing
 * value for"), --iters/--warmup not an integer or negative. */
int tk_cli_arg(tk_cli *c, int argc, char **argv, int *i, const char **val);

/* tk_cli_bad with the program's name and usage: returns 2. */
int tk_cli_fail(const tk_cli *c, const char *msg, const char *arg);

/* After the loop: the problem's refusal (problem_error, NULL when none), then
 * tk_cli_common_error's rules. Returns -1 to go on, or 2 (message printed). */
int tk_cli_done(const tk_cli *c, const char *problem_error);

#ifdef __cplusplus
}
#endif
#endif
