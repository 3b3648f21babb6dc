/* msgpack.h: a small, bounds-checked MessagePack reader for the AMDGPU
 * metadata note (AMDGPUUsage "Code Object V3+ Metadata": the NT_AMDGPU_METADATA
 * note's descriptor is one msgpack map). Format per the MessagePack spec
 * (github.com/msgpack/msgpack/blob/master/spec.md). Every read checks the
 * remaining length; a malformed stream sets err and all later reads fail.
 */
#ifndef TKS_MSGPACK_H
#define TKS_MSGPACK_H
#include <stddef.h>
#include <stdint.h>

enum tks_mp_type {
  TKS_MP_NIL, TKS_MP_BOOL, TKS_MP_UINT, TKS_MP_INT, TKS_MP_FLOAT,
  TKS_MP_STR, TKS_MP_BIN, TKS_MP_ARRAY, TKS_MP_MAP, TKS_MP_EXT
};

typedef struct tks_mp {
  const uint8_t *p, *end;
  int err;
} tks_mp;

typedef struct tks_mp_obj {
  int type;
  uint64_t u;          /* UINT, BOOL; ARRAY/MAP: element/pair count */
  int64_t i;           /* INT (and UINT when it fits) */
  double f;            /* FLOAT */
  const uint8_t *data; /* STR/BIN/EXT payload */
  uint32_t len;        /* STR/BIN/EXT payload length */
} tks_mp_obj;

void tks_mp_init(tks_mp *r, const void *data, size_t size);
/* Reads one object's header (for STR/BIN/EXT also its payload; for ARRAY/MAP
 * only the count: the elements follow). 0 or -1. */
int tks_mp_read(tks_mp *r, tks_mp_obj *o);
/* Skips one whole object including nested elements (depth-limited). 0 or -1. */
int tks_mp_skip(tks_mp *r);
/* Whether o is a STR equal to s. */
int tks_mp_streq(const tks_mp_obj *o, const char *s);
/* Reads an integer (UINT or non-negative INT) into *v. 0 or -1. */
int tks_mp_read_uint(tks_mp *r, uint64_t *v);
/* Reads a STR into buf (NUL-terminated, truncated to cap-1). 0 or -1. */
int tks_mp_read_str(tks_mp *r, char *buf, size_t cap);
#endif
