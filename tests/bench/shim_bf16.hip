/* bench/hipkittens/shim/hip_bf16.h against the bfloat16 format's definition
 * (upper 16 bits of IEEE-754 binary32; float -> bf16 rounds to nearest, ties
 * to even; NaN stays NaN) and hk_bit_cast.h's std::bit_cast for HIP 5.2's
 * vector types. Expected bit patterns are worked out by hand from binary32
 * encodings, not produced by the shim. Host only: no device needed. */
#include "hk_bit_cast.h"
#include <hip_bf16.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int fails = 0;
static void expect_bits(const char *what, uint32_t f_bits, uint16_t want)
{
  float f;
  memcpy(&f, &f_bits, 4);
  const uint16_t got = __float2bfloat16(f).data;
  if (got != want) {
    printf("FAIL %s: __float2bfloat16(0x%08x) = 0x%04x, want 0x%04x\n", what, f_bits, got, want);
    ++fails;
  }
}

int main(void)
{
  expect_bits("1.0", 0x3f800000u, 0x3f80);
  expect_bits("-2.0", 0xc0000000u, 0xc000);
  expect_bits("tie, even below: 1 + 2^-8", 0x3f808000u, 0x3f80);
  expect_bits("tie, odd below: 1 + 3*2^-8", 0x3f818000u, 0x3f82);
  expect_bits("just above the tie", 0x3f808001u, 0x3f81);
  expect_bits("just below the tie", 0x3f807fffu, 0x3f80);
  expect_bits("largest float rounds to +inf", 0x7f7fffffu, 0x7f80);
  expect_bits("+inf", 0x7f800000u, 0x7f80);
  expect_bits("-0", 0x80000000u, 0x8000);
  expect_bits("denormal tie, odd below", 0x00018000u, 0x0002);
  {
    float nan_f;
    const uint32_t nan_bits = 0x7f800001u; /* signalling NaN whose payload is all in the dropped half */
    memcpy(&nan_f, &nan_bits, 4);
    const uint16_t h = __float2bfloat16(nan_f).data;
    if ((h & 0x7f80) != 0x7f80 || (h & 0x007f) == 0) {
      printf("FAIL NaN: __float2bfloat16(0x7f800001) = 0x%04x is not a NaN\n", h);
      ++fails;
    }
  }
  /* bf16 -> float is exact: pi's upper half 0x4049 is 3.140625 */
  __hip_bfloat16 pi_bf;
  pi_bf.data = 0x4049;
  if (__bfloat162float(pi_bf) != 3.140625f) {
    printf("FAIL __bfloat162float(0x4049) = %.9g, want 3.140625\n", (double)__bfloat162float(pi_bf));
    ++fails;
  }
  const float2 f2 = __bfloat1622float2(__hip_bfloat162(__float2bfloat16(0.5f), __float2bfloat16(-3.0f)));
  if (f2.x != 0.5f || f2.y != -3.0f) {
    printf("FAIL __bfloat1622float2: (%g, %g), want (0.5, -3)\n", (double)f2.x, (double)f2.y);
    ++fails;
  }
  /* std::bit_cast on a HIP 5.2 vector type: the object representation */
  const float2 v = std::bit_cast<float2>((uint64_t)0xc04000003f800000ull); /* x = 1.0, y = -3.0 */
  if (v.x != 1.0f || v.y != -3.0f) {
    printf("FAIL std::bit_cast<float2>: (%g, %g), want (1, -3)\n", (double)v.x, (double)v.y);
    ++fails;
  }
  if (fails) return 1;
  printf("shim_bf16: conversions and bit_cast match the format's definition\n");
  return 0;
}
