/* check.h: a minimal assertion harness for tksim's host-side C tests. */
#ifndef TKS_TEST_CHECK_H
#define TKS_TEST_CHECK_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
static int tks_checks, tks_failures;
#define CHECK(cond, ...) do { tks_checks++; if (!(cond)) { tks_failures++; \
  fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
  fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); } } while (0)
#define CHECK_DONE() (printf("%d checks, %d failed\n", tks_checks, tks_failures), tks_failures ? 1 : 0)
/* The whole file at path in a malloc'd buffer (*n: its size), NULL if it cannot be read. */
static inline uint8_t *tks_test_read_file(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc(sz > 0 ? (size_t)sz : 1);
  if (sz > 0 && fread(b, 1, (size_t)sz, f) != (size_t)sz) { fclose(f); free(b); return NULL; }
  fclose(f);
  *n = (size_t)sz;
  return b;
}
/* dir/name, test data the build makes: exit 2 naming it when it cannot be read. */
static inline uint8_t *tks_test_read_data(const char *dir, const char *name, size_t *n)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  uint8_t *b = tks_test_read_file(path, n);
  if (!b) { fprintf(stderr, "cannot read %s\n", path); exit(2); }
  return b;
}
#endif
