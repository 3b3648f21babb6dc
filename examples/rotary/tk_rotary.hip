/* tk_rotary.hip: libtk_rotary's device side: problem validation, the
 * kernel for the head dim and the launch.  Kernel: rotary_fwd.h; API:
 * tk_rotary.h; docs/rowwise.md. */
#include <hip/hip_runtime.h>
#include <string.h>

#include "rotary_fwd.h"
#include "tk_rotary.h"

ROTARY_KERNEL(rot_h8, 8, 1)
ROTARY_KERNEL(rot_h16, 16, 2)
ROTARY_KERNEL(rot_h32, 32, 4)
ROTARY_KERNEL(rot_h64, 64, 8)
ROTARY_KERNEL(rot_h128, 128, 16)
ROTARY_KERNEL(rot_h256, 256, 32)
ROTARY_KERNEL(rot_h512, 512, 64)
ROTARY_KERNEL(rot_h1024, 1024, 64)
ROTARY_KERNEL(rot_h2048, 2048, 64)
ROTARY_KERNEL(rot_h4096, 4096, 64)

typedef struct rot_cfg {
  int64_t hc;
  int g;
  void (*k)(rotary_args, int);
} rot_cfg;
static const rot_cfg cfgs[] = {
    {8, 1, rot_h8},        {16, 2, rot_h16},       {32, 4, rot_h32},       {64, 8, rot_h64},
    {128, 16, rot_h128},   {256, 32, rot_h256},    {512, 64, rot_h512},    {1024, 64, rot_h1024},
    {2048, 64, rot_h2048}, {4096, 64, rot_h4096},
};

extern "C" void tk_rotary_problem_init(tk_rotary_problem *p, tk_rotary_layout layout, int64_t b, int64_t h,
                                       int64_t s, int64_t d)
{
  memset(p, 0, sizeof *p);
  p->b = b, p->h = h, p->s = s, p->d = d, p->layout = layout;
  p->xs[2] = p->os[2] = d;
  p->xs[1] = p->os[1] = s * d;
  p->xs[0] = p->os[0] = h * s * d;
}

extern "C" int64_t tk_rotary_elems(const tk_rotary_problem *p, const int64_t st[3])
{
  return (p->b - 1) * st[0] + (p->h - 1) * st[1] + (p->s - 1) * st[2] + p->d;
}

/* strides that put no two elements of a tensor at one place: ordered by
 * size, each covers the extent of the dimensions inside it */
static int strides_ok(const tk_rotary_problem *p, const int64_t st[3])
{
  int64_t n[3] = {p->b, p->h, p->s}, s[3] = {st[0], st[1], st[2]};
  for (int i = 0; i < 3; ++i)
    if (s[i] < 0 || s[i] > 0x7fffffffll) return 0;
  for (int i = 0; i < 3; ++i) /* sort by stride */
    for (int j = i + 1; j < 3; ++j)
      if (s[j] < s[i]) {
        int64_t t = s[i]; s[i] = s[j]; s[j] = t;
        t = n[i]; n[i] = n[j]; n[j] = t;
      }
  int64_t span = p->d;
  for (int i = 0; i < 3; ++i) {
    if (n[i] == 1) continue;
    if (s[i] < span) return 0;
    span = s[i] * n[i];
  }
  return 1;
}

extern "C" const char *tk_rotary_problem_error(const tk_rotary_problem *p)
{
  if (!p) return "no problem given";
  if (p->layout != TK_ROTARY_HALF && p->layout != TK_ROTARY_INTERLEAVED) return "layout must be interleaved or half";
  if (p->b <= 0 || p->h <= 0 || p->s <= 0) return "batch, heads and sequence length must be > 0";
  if (p->d <= 0) return "head dim must be > 0";
  if (p->d % 2) return "head dim must be even (rotary pairs)";
  if (p->d > TK_ROTARY_MAX_D) return "head dim must be <= 8192";
  if (p->b > 0xffffffll || p->h > 0xffffffll || p->s > 0xffffffll) return "batch, heads and sequence length must be < 2^24";
  if ((double)p->b * (double)p->h * (double)p->s > 2147483647.0) return "b * h * s must be < 2^31 rows";
  if (!strides_ok(p, p->xs)) return "x strides overlap or are negative (each must cover the dimensions inside it)";
  if (!strides_ok(p, p->os)) return "o strides overlap or are negative (each must cover the dimensions inside it)";
  if ((double)tk_rotary_elems(p, p->xs) * 2.0 > 4294967280.0 || (double)tk_rotary_elems(p, p->os) * 2.0 > 4294967280.0 ||
      (double)p->s * (double)p->d > 4294967280.0)
    return "a tensor spans more than 4 GiB - 16 bytes (one buffer descriptor)";
  return NULL;
}

extern "C" const char *tk_rotary_strerror(int err)
{
  switch (err) {
  case TK_ROTARY_OK: return "ok";
  case TK_ROTARY_ERR_PROBLEM: return "invalid problem";
  case TK_ROTARY_ERR_HIP: return "HIP error";
  case TK_ROTARY_ERR_MEMORY: return "out of host memory";
  case TK_ROTARY_ERR_ARG: return "a NULL pointer argument";
  default: return "unknown error";
  }
}

/* m, sh of rotary_div for divisor d (1 <= d < 2^31) */
static void rotary_magic(uint32_t d, uint32_t *m, uint32_t *sh)
{
  uint32_t l = 0;
  while ((1ull << l) < d) ++l;
  *m = (uint32_t)(((1ull << (31 + l)) + d - 1) / d);
  *sh = 31 + l;
}

extern "C" int tk_rotary_fwd(const tk_rotary_problem *p, const uint16_t *x, const uint16_t *cos_t,
                             const uint16_t *sin_t, uint16_t *o, hipStream_t stream)
{
  if (tk_rotary_problem_error(p)) return TK_ROTARY_ERR_PROBLEM;
  if (!x || !cos_t || !sin_t || !o) return TK_ROTARY_ERR_ARG;
  int c = 0;
  while (cfgs[c].hc < p->d / 2) ++c;
  rotary_args a;
  memset(&a, 0, sizeof a);
  a.x = x, a.c = cos_t, a.s = sin_t, a.o = o;
  a.x_bytes = (uint32_t)(tk_rotary_elems(p, p->xs) * 2);
  a.o_bytes = (uint32_t)(tk_rotary_elems(p, p->os) * 2);
  a.cs_bytes = (uint32_t)(p->s * p->d);
  a.rows = p->b * p->h * p->s, a.h = p->h, a.s_len = p->s, a.d = p->d;
  memcpy(a.xs, p->xs, sizeof a.xs);
  memcpy(a.os, p->os, sizeof a.os);
  rotary_magic((uint32_t)(p->b * p->h), &a.bh_m, &a.bh_sh);
  rotary_magic((uint32_t)p->h, &a.h_m, &a.h_sh);
  a.full = p->d / 2 == cfgs[c].hc && cfgs[c].hc % 8 == 0;
  for (int i = 0; i < 3; ++i) a.full = a.full && p->xs[i] % 8 == 0 && p->os[i] % 8 == 0;
  const int wg = ROT_WG(cfgs[c].g), rows = wg / cfgs[c].g;
  const int64_t blocks = (a.rows + rows - 1) / rows;
  if (blocks > 0x7fffffffll) return TK_ROTARY_ERR_PROBLEM;
  hipLaunchKernelGGL(cfgs[c].k, dim3((uint32_t)blocks), dim3(wg), 0, stream, a, p->layout == TK_ROTARY_INTERLEAVED);
  return hipGetLastError() == hipSuccess ? TK_ROTARY_OK : TK_ROTARY_ERR_HIP;
}
