/* test_msgpack.c: the msgpack reader against byte strings encoded by hand
 * from the MessagePack spec (fixmap 0x8N, fixstr 0xaN, uint16 0xcd, int8 0xd0,
 * array16 0xdc, str8 0xd9, float64 0xcb, true 0xc3, ...). */
#include <string.h>
#include "check.h"
#include "loader/msgpack.h"

int main(void)
{
  /* {"a": 1, "bc": [300, -2, true], "s": "xyz", "f": 1.5} */
  static const uint8_t doc[] = {
    0x84,
    0xa1, 'a', 0x01,
    0xa2, 'b', 'c', 0x93, 0xcd, 0x01, 0x2c, 0xfe, 0xc3,
    0xa1, 's', 0xa3, 'x', 'y', 'z',
    0xa1, 'f', 0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0,
  };
  tks_mp r;
  tks_mp_obj o;
  uint64_t v;
  char buf[8];
  tks_mp_init(&r, doc, sizeof doc);
  CHECK(tks_mp_read(&r, &o) == 0 && o.type == TKS_MP_MAP && o.u == 4, "top map");
  CHECK(tks_mp_read(&r, &o) == 0 && tks_mp_streq(&o, "a"), "key a");
  CHECK(tks_mp_read_uint(&r, &v) == 0 && v == 1, "a = 1");
  CHECK(tks_mp_read(&r, &o) == 0 && tks_mp_streq(&o, "bc") && !tks_mp_streq(&o, "b"), "key bc");
  CHECK(tks_mp_read(&r, &o) == 0 && o.type == TKS_MP_ARRAY && o.u == 3, "array of 3");
  CHECK(tks_mp_read_uint(&r, &v) == 0 && v == 300, "uint16 300, got %llu", (unsigned long long)v);
  CHECK(tks_mp_read(&r, &o) == 0 && o.type == TKS_MP_INT && o.i == -2, "negative fixint -2");
  CHECK(tks_mp_read(&r, &o) == 0 && o.type == TKS_MP_BOOL && o.u == 1, "true");
  CHECK(tks_mp_read(&r, &o) == 0 && tks_mp_streq(&o, "s"), "key s");
  CHECK(tks_mp_read_str(&r, buf, sizeof buf) == 0 && !strcmp(buf, "xyz"), "str xyz");
  CHECK(tks_mp_read(&r, &o) == 0 && tks_mp_streq(&o, "f"), "key f");
  CHECK(tks_mp_read(&r, &o) == 0 && o.type == TKS_MP_FLOAT && o.f == 1.5, "float64 1.5");
  CHECK(tks_mp_read(&r, &o) != 0 && r.err, "reading past the end fails");

  /* skip() over the whole document consumes it exactly */
  tks_mp_init(&r, doc, sizeof doc);
  CHECK(tks_mp_skip(&r) == 0 && r.p == r.end, "skip consumes the document");

  /* every truncation of the document fails cleanly in skip() */
  for (size_t n = 0; n < sizeof doc; n++) {
    tks_mp_init(&r, doc, n);
    CHECK(tks_mp_skip(&r) != 0, "truncated to %zu bytes must fail", n);
  }

  /* int8/16/32 sign extension; uint64; str8; array16 */
  static const uint8_t ints[] = { 0xd0, 0x80, 0xd1, 0xff, 0x00, 0xd2, 0x80, 0, 0, 0,
                                  0xcf, 0x80, 0, 0, 0, 0, 0, 0, 1,
                                  0xd9, 2, 'h', 'i', 0xdc, 0x00, 0x02, 0xc0, 0xc2 };
  tks_mp_init(&r, ints, sizeof ints);
  CHECK(tks_mp_read(&r, &o) == 0 && o.i == -128, "int8 -128");
  CHECK(tks_mp_read(&r, &o) == 0 && o.i == -256, "int16 -256");
  CHECK(tks_mp_read(&r, &o) == 0 && o.i == INT32_MIN, "int32 min");
  CHECK(tks_mp_read(&r, &o) == 0 && o.type == TKS_MP_UINT && o.u == 0x8000000000000001ull, "uint64");
  CHECK(tks_mp_read(&r, &o) == 0 && tks_mp_streq(&o, "hi"), "str8");
  CHECK(tks_mp_read(&r, &o) == 0 && o.type == TKS_MP_ARRAY && o.u == 2, "array16");
  CHECK(tks_mp_read(&r, &o) == 0 && o.type == TKS_MP_NIL, "nil");
  CHECK(tks_mp_read(&r, &o) == 0 && o.type == TKS_MP_BOOL && o.u == 0, "false");

  /* a count larger than the data, the reserved byte 0xc1, a huge str32 */
  static const uint8_t bad1[] = { 0xdd, 0xff, 0xff, 0xff, 0xff, 0x01 };
  tks_mp_init(&r, bad1, sizeof bad1);
  CHECK(tks_mp_skip(&r) != 0, "array32 with 4G elements in 1 byte fails");
  static const uint8_t bad2[] = { 0xc1 };
  tks_mp_init(&r, bad2, 1);
  CHECK(tks_mp_read(&r, &o) != 0, "0xc1 is never used");
  static const uint8_t bad3[] = { 0xdb, 0xff, 0xff, 0xff, 0xf0, 'a' };
  tks_mp_init(&r, bad3, sizeof bad3);
  CHECK(tks_mp_read(&r, &o) != 0, "str32 longer than the data fails");

  /* nesting deeper than the limit fails instead of recursing without bound */
  uint8_t deep[4096];
  memset(deep, 0x91, sizeof deep); /* [[[[...]]]] */
  deep[sizeof deep - 1] = 0x01;
  tks_mp_init(&r, deep, sizeof deep);
  CHECK(tks_mp_skip(&r) != 0, "4095-deep nesting is refused");

  return CHECK_DONE();
}
