/* cli.h: argument parsing helpers for the example programs (gemm, and the
 * next ones): strict number parsing, the "name: problem: argument" + usage +
 * exit 2 convention, comma lists and AxBxC shape lists. */
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

#ifdef __cplusplus
}
#endif
#endif
