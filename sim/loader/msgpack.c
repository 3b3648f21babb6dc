/* msgpack.c: the MessagePack reader declared in msgpack.h. Type bytes per the
 * MessagePack spec: fixint/fixmap/fixarray/fixstr ranges, 0xc0..0xdf typed
 * forms, 0xe0..0xff negative fixint. Multi-byte values are big-endian.
 */
#include <string.h>
#include "loader/msgpack.h"

#define TKS_MP_MAX_DEPTH 64

void tks_mp_init(tks_mp *r, const void *data, size_t size)
{
  r->p = data;
  r->end = r->p + size;
  r->err = 0;
}

static int need(tks_mp *r, size_t n)
{
  if (r->err || (size_t)(r->end - r->p) < n) { r->err = 1; return -1; }
  return 0;
}

static uint64_t be(const uint8_t *p, int n)
{
  uint64_t v = 0;
  for (int k = 0; k < n; k++) v = (v << 8) | p[k];
  return v;
}

static int take_uint(tks_mp *r, int n, uint64_t *v)
{
  if (need(r, (size_t)n)) return -1;
  *v = be(r->p, n);
  r->p += n;
  return 0;
}

static int take_payload(tks_mp *r, tks_mp_obj *o, uint64_t len)
{
  if (need(r, len)) return -1;
  o->data = r->p;
  o->len = (uint32_t)len;
  r->p += len;
  return 0;
}

int tks_mp_read(tks_mp *r, tks_mp_obj *o)
{
  memset(o, 0, sizeof *o);
  if (need(r, 1)) return -1;
  uint8_t b = *r->p++;
  uint64_t v;
  if (b <= 0x7f) { o->type = TKS_MP_UINT; o->u = b; o->i = b; return 0; }
  if (b >= 0xe0) { o->type = TKS_MP_INT; o->i = (int8_t)b; return 0; }
  if ((b & 0xf0) == 0x80) { o->type = TKS_MP_MAP; o->u = b & 0x0f; return 0; }
  if ((b & 0xf0) == 0x90) { o->type = TKS_MP_ARRAY; o->u = b & 0x0f; return 0; }
  if ((b & 0xe0) == 0xa0) { o->type = TKS_MP_STR; return take_payload(r, o, b & 0x1f); }
  switch (b) {
  case 0xc0: o->type = TKS_MP_NIL; return 0;
  case 0xc2: case 0xc3: o->type = TKS_MP_BOOL; o->u = b & 1; return 0;
  case 0xc4: case 0xc5: case 0xc6:
    if (take_uint(r, 1 << (b - 0xc4), &v)) return -1;
    o->type = TKS_MP_BIN; return take_payload(r, o, v);
  case 0xc7: case 0xc8: case 0xc9:
    if (take_uint(r, 1 << (b - 0xc7), &v) || need(r, 1)) return -1;
    r->p++; /* ext type byte */
    o->type = TKS_MP_EXT; return take_payload(r, o, v);
  case 0xca: {
    if (take_uint(r, 4, &v)) return -1;
    uint32_t w = (uint32_t)v; float f; memcpy(&f, &w, 4);
    o->type = TKS_MP_FLOAT; o->f = f; return 0;
  }
  case 0xcb: {
    if (take_uint(r, 8, &v)) return -1;
    double d; memcpy(&d, &v, 8);
    o->type = TKS_MP_FLOAT; o->f = d; return 0;
  }
  case 0xcc: case 0xcd: case 0xce: case 0xcf:
    if (take_uint(r, 1 << (b - 0xcc), &v)) return -1;
    o->type = TKS_MP_UINT; o->u = v; o->i = (int64_t)v; return 0;
  case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
    int n = 1 << (b - 0xd0);
    if (take_uint(r, n, &v)) return -1;
    /* sign-extend from n bytes */
    if (n < 8 && (v >> (8 * n - 1)) & 1) v |= ~(uint64_t)0 << (8 * n);
    o->type = TKS_MP_INT; o->i = (int64_t)v; return 0;
  }
  case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
    if (need(r, 1)) return -1;
    r->p++;
    o->type = TKS_MP_EXT; return take_payload(r, o, 1u << (b - 0xd4));
  case 0xd9: case 0xda: case 0xdb:
    if (take_uint(r, 1 << (b - 0xd9), &v)) return -1;
    o->type = TKS_MP_STR; return take_payload(r, o, v);
  case 0xdc: case 0xdd:
    if (take_uint(r, 2 << (b - 0xdc), &v)) return -1;
    o->type = TKS_MP_ARRAY; o->u = v; return 0;
  case 0xde: case 0xdf:
    if (take_uint(r, 2 << (b - 0xde), &v)) return -1;
    o->type = TKS_MP_MAP; o->u = v; return 0;
  default: /* 0xc1 is "never used" */
    r->err = 1;
    return -1;
  }
}

static int skip_depth(tks_mp *r, int depth)
{
  tks_mp_obj o;
  if (depth > TKS_MP_MAX_DEPTH) { r->err = 1; return -1; }
  if (tks_mp_read(r, &o)) return -1;
  if (o.type == TKS_MP_ARRAY || o.type == TKS_MP_MAP) {
    uint64_t n = o.type == TKS_MP_MAP ? o.u * 2 : o.u;
    /* Each element takes at least one byte: a count beyond the remaining bytes
     * is corrupt, and checking it up front bounds the loop. */
    if (n > (uint64_t)(r->end - r->p)) { r->err = 1; return -1; }
    for (uint64_t k = 0; k < n; k++)
      if (skip_depth(r, depth + 1)) return -1;
  }
  return 0;
}

int tks_mp_skip(tks_mp *r) { return skip_depth(r, 0); }

int tks_mp_streq(const tks_mp_obj *o, const char *s)
{
  size_t n = strlen(s);
  return o->type == TKS_MP_STR && o->len == n && memcmp(o->data, s, n) == 0;
}

int tks_mp_read_uint(tks_mp *r, uint64_t *v)
{
  tks_mp_obj o;
  if (tks_mp_read(r, &o)) return -1;
  if (o.type == TKS_MP_UINT) { *v = o.u; return 0; }
  if (o.type == TKS_MP_INT && o.i >= 0) { *v = (uint64_t)o.i; return 0; }
  return -1;
}

int tks_mp_read_str(tks_mp *r, char *buf, size_t cap)
{
  tks_mp_obj o;
  if (tks_mp_read(r, &o) || o.type != TKS_MP_STR || cap == 0) return -1;
  size_t n = o.len < cap - 1 ? o.len : cap - 1;
  memcpy(buf, o.data, n);
  buf[n] = 0;
  return 0;
}
