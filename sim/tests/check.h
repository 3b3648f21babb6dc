/* check.h: a minimal assertion harness for tksim's host-side C tests. */
#ifndef TKS_TEST_CHECK_H
#define TKS_TEST_CHECK_H
#include <stdio.h>
static int tks_checks, tks_failures;
#define CHECK(cond, ...) do { tks_checks++; if (!(cond)) { tks_failures++; \
  fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
  fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); } } while (0)
#define CHECK_DONE() (printf("%d checks, %d failed\n", tks_checks, tks_failures), tks_failures ? 1 : 0)
#endif
