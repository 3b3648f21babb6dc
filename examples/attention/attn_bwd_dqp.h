/* attn_bwd_dqp.h: the deterministic backward's dQ through ordered partial
 * sums (TK_ATTN_BWD_DETERMINISTIC): no float atomics, bitwise repeatable, and
 * no recomputation of S, P, dP, dS for dQ.
 *  - attn_bwd_d*_kvdqp: the fused dK/dV/dQ kernel of attn_bwd.h (FQ 2), over
 *    the key blocks kb0 .. kb0 + gridDim.x - 1 of one launch; block kb0 + x
 *    adds its dQ blocks to partial x (f32 [b][hq][sq][d]) with a plain load,
 *    add, store instead of an atomic: within a launch every partial element
 *    has one writer, and launches on a stream run in order, so partial x sums
 *    key blocks x, x + P, x + 2P, ... in that order (P partials, launches of
 *    P key blocks each).  The first launch stores (its loads have no records:
 *    they read 0, no traffic), so nothing is zeroed beforehand.
 *  - attn_bwd_dqp_sum: dQ = scale * (partial 0 + partial 1 + ...), in that
 *    order, to bf16; a causal partial x has rows only from its first block's
 *    first query tile (AB_DQP_QS): the rows above read as 0.
 * The hooks (AB_DQP_*) are used inside AB_DKDV_KERNEL; attn_bwd.h includes
 * this header before it instantiates its kernels.  Memory: P partials of
 * b*hq*sq*d*4 bytes (attn_bwd_dqp_parts; each under one buffer descriptor's
 * 4 GiB, else the recomputing dq kernel of attn_bwd_dq.h runs).
 * Hardware facts: stream order between kernel launches (HIP: launches on one
 * stream run in issue order, each seeing the previous one's stores); buffer
 * loads past num_records return 0 and stores there are dropped (CDNA3 ISA
 * guide, "Buffer Instructions", range checking). */
#ifndef ATTN_BWD_DQP_H
#define ATTN_BWD_DQP_H

#ifndef ATTN_BWD_H
#error "attn_bwd_dqp.h is included by attn_bwd.h, not on its own"
#endif

/* rows per query head in a partial: sq rounded up to the dkdv kernel's query tiles (64 at most),
 * so that a wave's 32-row blocks never leave their head: no per-row checks (the rows past sq are
 * written and never read) */
#define AB_DQP_SQ(sq) (((sq) + 63) & ~63)
/* first offset past any partial (a partial is smaller): the base of the first launch's loads */
#define AB_DQP_NONE 0xf0000000u

/* key blocks (AB_BK keys) per launch = partials, for a device of `cus` CUs (0: unknown), among
 * 1..8: the fewest rounds of one workgroup per CU (kvdqp's registers allow one) plus half a round
 * per partial (the sum reads each: b*hq*sq*d*4 bytes, about half a round's time on MI325X and
 * MI355X at d 128, modeled): e.g. 8 key blocks of 256 (batch, kv head) pairs on 256 CUs: 1 (eight
 * launches of one round each); 16 on 304 CUs: 1 (16 rounds; 7 take 14 + 3.5); 32 on 304: 7 (28
 * rounds + 3.5; 1 takes 32 + 0.5); at most 4 GiB in all; 0 when one partial passes AB_DQP_NONE
 * (then the dq kernel) */
static inline int64_t attn_bwd_dqp_bytes(int64_t b, int64_t hq, int64_t sq, int64_t d) /* one partial's */
{
  return b * hq * AB_DQP_SQ(sq) * d * 4;
}
static inline int attn_bwd_dqp_parts(int64_t b, int64_t hq, int64_t hkv, int64_t sq, int64_t skv, int64_t d, int cus)
{
  const int64_t part = attn_bwd_dqp_bytes(b, hq, sq, d), nkb = (skv + AB_BK - 1) / AB_BK, g = b * hkv;
  if (part <= 0 || part > (int64_t)AB_DQP_NONE || nkb <= 0) return 0;
  int64_t nmax = nkb < 8 ? nkb : 8;
  while (nmax > 1 && nmax * part > ((int64_t)4 << 30)) --nmax;
  if (cus <= 0) return (int)nmax;
  int best = 1;
  int64_t rbest = -1;
  for (int64_t n = 1; n <= nmax; ++n) { /* rounds of the launches of n key blocks (the last: the rest) */
    const int64_t full = nkb / n, rest = nkb % n;
    const int64_t r = full * ((n * g + cus - 1) / cus) + (rest ? (rest * g + cus - 1) / cus : 0);
    if (rbest < 0 || 2 * r + n < rbest) rbest = 2 * r + n, best = (int)n; /* a partial ~ half a round */
  }
  return best;
}

/* the first query row (a multiple of the tile, BQ) whose dQ partial x holds: its first key block's
 * first query tile (the dkdv kernel's qs) */
#define AB_DQP_QS(x, causal, off, BQ)                                                             \
  ((causal) && (x) * AB_BK - (off) > 0 ? (((x) * AB_BK - (off)) / (BQ)) * (BQ) : 0)

/* inside AB_DKDV_KERNEL (FQ 2): this workgroup's partial (blockIdx.x) */
#define AB_DQP_BASE() (a.dqa + (int64_t)blockIdx.x * (int64_t)(a.dqa_bytes / 4u))

/* inside AB_DKDV_KERNEL (FQ 2): a wave's 32 x 32 dQ block (rows R0.., columns C0.. of query head
 * H, head dim DD) in the partial, as AB_DQ_ATOMIC's: the lane's first element's offset in a VGPR
 * (through tk_opaque: recomputed at each use, no per-element values kept live), element i's a
 * constant from it; V false: from AB_DQP_NONE (loads past num_records read 0, no traffic) */
#define AB_DQP_ACCESS(H, R0, C0, DD, V, BODY)                                                     \
  do {                                                                                            \
    const uint32_t l_ = tk_opaque(lane);                                                          \
    const uint32_t s_ = (V) ? (uint32_t)((((int64_t)b * a.hq + (H)) * AB_DQP_SQ(a.sq) + (R0)) * (DD) + (C0)) * 4u \
                            : AB_DQP_NONE;                                                        \
    const uint32_t lo_ = tk_opaque(s_ + (uint32_t)(tk_layout_c_row(32, (int)l_, 0) * (DD) + (int)(l_ % 32)) * 4u); \
    _Pragma("unroll") for (int i = 0; i < 16; ++i) {                                              \
      const uint32_t o_ = lo_ + (uint32_t)(tk_layout_c_row(32, 0, i) * (DD)) * 4u;                \
      BODY;                                                                                       \
    }                                                                                             \
  } while (0)
/* the block's sums so far into Y[16] (issued a tile ahead of their use); none in the first
 * launch (kb0 0: the partial starts there; kb0 read from the argument block here: an SGPR held
 * through the loop spilled one) */
#define AB_DQP_LOAD(Y, H, R0, C0, DD)                                                             \
  AB_DQP_ACCESS(H, R0, C0, DD, ((const attn_bwd_args *)tk_kernarg_fresh())->kb0 > 0,              \
                Y[i] = tk_buffer_load_b32(rdqa, o_))
/* Y + X (the block's dQ of this key block: the accumulator tile X) back into the partial */
#define AB_DQP_STORE(X, Y, H, R0, C0, DD)                                                         \
  AB_DQP_ACCESS(H, R0, C0, DD, true, tk_buffer_store_b32(rdqa, o_, tk_f32_bits(tk_bits_f32(Y[i]) + (X).f[0][i])))

/* dQ = scale * sum of the partials, partial 0 first (8 elements per thread; grid and rows as
 * attn_bwd_pre); bq: the dkdv kernel's query tile (AB_BQ of d) */
__global__ __launch_bounds__(256) void attn_bwd_dqp_sum(attn_bwd_args a, int bq)
{
  const int cpr = (int)a.q.dims[3] / 8;
  const int tid = (int)threadIdx.x, c = tid % cpr;
  const int i = (int)blockIdx.x * (256 / cpr) + tid / cpr, h = (int)blockIdx.y, b = (int)blockIdx.z;
  if (i >= a.sq) return;
  const int64_t part = (int64_t)(a.dqa_bytes / 4u), off = a.skv - a.sq;
  const float *x = a.dqa + (((int64_t)b * a.hq + h) * AB_DQP_SQ(a.sq) + i) * (8 * cpr) + 8 * c;
  float s[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  tk_u32x4 x0[8], x1[8]; /* every partial's loads issued before the first add (not one at a time) */
  _Pragma("unroll") for (int p = 0; p < 8; ++p) {
    const bool in = p < a.nparts && i >= AB_DQP_QS((int64_t)p, a.causal, off, bq);
    x0[p] = in ? ((const tk_u32x4 *)(x + p * part))[0] : tk_u32x4{0u, 0u, 0u, 0u};
    x1[p] = in ? ((const tk_u32x4 *)(x + p * part))[1] : tk_u32x4{0u, 0u, 0u, 0u};
  }
  _Pragma("unroll") for (int p = 0; p < 8; ++p) /* partial 0 first: a fixed order */
  _Pragma("unroll") for (int e = 0; e < 4; ++e) {
    s[e] += tk_bits_f32(x0[p][e]);
    s[e + 4] += tk_bits_f32(x1[p][e]);
  }
  tk_u32x4 y;
  _Pragma("unroll") for (int e = 0; e < 4; ++e)
    y[e] = (uint32_t)tk_f32_to_bf16(a.scale * s[2 * e]) | ((uint32_t)tk_f32_to_bf16(a.scale * s[2 * e + 1]) << 16);
  tk_buffer_store_b128(tk_gl_rsrc(&a.dq), (uint32_t)(tk_gl_offset(&a.dq, b, h, i, 8 * c) * 2), y);
}

/* the deterministic mode's kernels after attn_bwd_pre: kvdqp over a->nparts key blocks per
 * launch, then the sum; a->dqa: the partials, a->dqa_bytes: bytes of one */
#define AB_DQP_LAUNCH(KVDQP, a, d, b, hkv, stream)                                                \
  do {                                                                                            \
    const int nkb_ = (int)(((a)->skv + AB_BK - 1) / AB_BK);                                       \
    attn_bwd_args p_ = *(a);                                                                      \
    for (int k_ = 0; k_ < nkb_; k_ += p_.nparts) {                                                \
      p_.kb0 = k_;                                                                                \
      const int n_ = nkb_ - k_ < p_.nparts ? nkb_ - k_ : p_.nparts;                               \
      hipLaunchKernelGGL(KVDQP, dim3((unsigned)n_, (unsigned)(hkv), (unsigned)(b)), dim3(256), 0, stream, p_); \
    }                                                                                             \
    p_.kb0 = 0;                                                                                   \
    hipLaunchKernelGGL(attn_bwd_dqp_sum, dim3((unsigned)(((a)->sq + AB_PRE_ROWS(d) - 1) / AB_PRE_ROWS(d)), \
                                              (unsigned)(a)->hq, (unsigned)(b)),                  \
                       dim3(256), 0, stream, p_, (d) == 64 ? 64 : 32);                            \
  } while (0)

#endif /* ATTN_BWD_DQP_H */
