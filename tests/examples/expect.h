/* expect.h: the checks of the examples/common unit tests: EXPECT counts a
 * failed condition (printing where) and the test goes on, so one run names
 * every failure; bf() is a float's bf16 bits by truncation (exact for the
 * values the tests use). */
#ifndef TK_TESTS_EXAMPLES_EXPECT_H
#define TK_TESTS_EXAMPLES_EXPECT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define EXPECT(cond)                                         \
  do {                                                       \
    if (!(cond)) {                                           \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                            \
    }                                                        \
  } while (0)

static inline uint16_t bf(float v)
{
  uint32_t u;
  memcpy(&u, &v, 4);
  return (uint16_t)(u >> 16);
}

#endif
