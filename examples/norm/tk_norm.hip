/* tk_norm.hip: libtk_norm's device side: problem validation, the choice of
 * kernel (capacity and threads per row) and the launch.  Kernel: norm_fwd.h;
 * semantics and API: tk_norm.h; docs/rowwise.md. */
#include <hip/hip_runtime.h>
#include <string.h>

#include "norm_fwd.h"
#include "tk_norm.h"

/* capacity CAP (the longest row) and threads per row G, smallest first:
 * short rows share a wave (16 or 32 lanes each), up to 2048 a wave per row
 * (up to 32 f32 per lane), longer rows a workgroup (up to 32 per thread:
 * 65536 would need 64 of the 128 VGPRs a 1024-thread workgroup leaves a
 * thread, and spilled) */
NORM_KERNEL(norm_k128_16, 128, 16)
NORM_KERNEL(norm_k256_32, 256, 32)
NORM_KERNEL(norm_k512_64, 512, 64)
NORM_KERNEL(norm_k1024_64, 1024, 64)
NORM_KERNEL(norm_k2048_64, 2048, 64)
NORM_KERNEL(norm_k4096_256, 4096, 256)
NORM_KERNEL(norm_k8192_512, 8192, 512)
NORM_KERNEL(norm_k16384_1024, 16384, 1024)
NORM_KERNEL(norm_k32768_1024, 32768, 1024)

typedef struct norm_cfg {
  int64_t cap;
  int g;
  void (*k)(norm_args);
} norm_cfg;
static const norm_cfg cfgs[] = {
    {128, 16, norm_k128_16},         {256, 32, norm_k256_32},         {512, 64, norm_k512_64},
    {1024, 64, norm_k1024_64},       {2048, 64, norm_k2048_64},       {4096, 256, norm_k4096_256},
    {8192, 512, norm_k8192_512},     {16384, 1024, norm_k16384_1024},   {32768, 1024, norm_k32768_1024},
};

extern "C" void tk_norm_problem_init(tk_norm_problem *p, tk_norm_op op, int64_t m, int64_t n)
{
  memset(p, 0, sizeof *p);
  p->op = op;
  p->m = m, p->n = n;
  p->eps = 1e-5f;
  p->ld_x = p->ld_res = p->ld_out = p->ld_res_out = n;
}

extern "C" int64_t tk_norm_elems(const tk_norm_problem *p, int64_t ld)
{
  return p->m <= 0 || p->n <= 0 ? 0 : (p->m - 1) * ld + p->n;
}

extern "C" const char *tk_norm_problem_error(const tk_norm_problem *p)
{
  if (!p) return "no problem given";
  if (p->op != TK_NORM_LAYERNORM && p->op != TK_NORM_RMSNORM) return "op must be layernorm or rmsnorm";
  if (p->m <= 0) return "m (rows) must be > 0";
  if (p->n <= 0) return "n (columns) must be > 0";
  if (p->n > TK_NORM_MAX_N) return "n (columns) must be <= 32768";
  if (p->m > 0x7fffffffll) return "m (rows) must be < 2^31";
  if (!(p->dropout >= 0.0f && p->dropout < 1.0f)) return "dropout probability must be in [0, 1)";
  if (!(p->eps > 0.0f) || p->eps != p->eps || p->eps > 1e30f) return "eps must be a positive finite number";
  const int64_t lds[4] = {p->ld_x, p->ld_res, p->ld_out, p->ld_res_out};
  for (int i = 0; i < 4; ++i) {
    if (i % 2 == 1 && !p->residual) continue;
    if (lds[i] < p->n) return "row pitch (ld) must be >= n";
    if (lds[i] > 0x7fffffffll) return "row pitch (ld) must be < 2^31";
    /* one buffer descriptor per tensor: offsets are 32-bit bytes */
    if ((double)tk_norm_elems(p, lds[i]) * 2.0 > (double)TK_GL_MAX_BYTES)
      return "a tensor spans more than 4 GiB - 16 bytes (one buffer descriptor)";
  }
  return NULL;
}

extern "C" const char *tk_norm_strerror(int err)
{
  switch (err) {
  case TK_NORM_OK: return "ok";
  case TK_NORM_ERR_PROBLEM: return "invalid problem";
  case TK_NORM_ERR_HIP: return "HIP error";
  case TK_NORM_ERR_MEMORY: return "out of host memory";
  case TK_NORM_ERR_ARG: return "a required pointer is NULL";
  default: return "unknown error";
  }
}

extern "C" int tk_norm_fwd(const tk_norm_problem *p, const uint16_t *x, const uint16_t *residual,
                           const uint16_t *weight, const uint16_t *bias, uint16_t *out, uint16_t *res_out,
                           hipStream_t stream)
{
  if (tk_norm_problem_error(p)) return TK_NORM_ERR_PROBLEM;
  if (!x || !weight || !out || (p->op == TK_NORM_LAYERNORM && !bias) || (p->residual && (!residual || !res_out)))
    return TK_NORM_ERR_ARG;
  int c = 0;
  while (cfgs[c].cap < p->n) ++c;
  norm_args a;
  memset(&a, 0, sizeof a);
  a.x = x, a.res = residual, a.w = weight, a.b = bias, a.out = out, a.res_out = res_out;
  a.x_bytes = (uint32_t)(tk_norm_elems(p, p->ld_x) * 2);
  a.out_bytes = (uint32_t)(tk_norm_elems(p, p->ld_out) * 2);
  if (p->residual) {
    a.res_bytes = (uint32_t)(tk_norm_elems(p, p->ld_res) * 2);
    a.res_out_bytes = (uint32_t)(tk_norm_elems(p, p->ld_res_out) * 2);
  }
  a.m = p->m, a.n = p->n;
  a.ld_x = p->ld_x, a.ld_res = p->ld_res, a.ld_out = p->ld_out, a.ld_res_out = p->ld_res_out;
  a.seed = p->seed;
  a.thr = tk_norm_threshold(p->dropout);
  a.scale = 1.0f / (1.0f - p->dropout);
  a.eps = p->eps;
  a.rms = p->op == TK_NORM_RMSNORM;
  a.has_res = p->residual != 0;
  a.has_drop = p->dropout > 0.0f;
  a.full = p->n == cfgs[c].cap && p->ld_x % 8 == 0 && p->ld_out % 8 == 0 &&
           (!p->residual || (p->ld_res % 8 == 0 && p->ld_res_out % 8 == 0));
  const int wg = NORM_WG(cfgs[c].g), rows = wg / cfgs[c].g;
  const int64_t blocks = (p->m + rows - 1) / rows;
  hipLaunchKernelGGL(cfgs[c].k, dim3((uint32_t)blocks), dim3(wg), 0, stream, a);
  return hipGetLastError() == hipSuccess ? TK_NORM_OK : TK_NORM_ERR_HIP;
}
