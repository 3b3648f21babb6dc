/* attn_bwd_dqp.h: the deterministic backward's dQ through ordered partial
 * sums (TK_ATTN_BWD_DETERMINISTIC): no float atomics, bitwise repeatable, and
 * no recomputation of S, P, dP, dS for dQ.
 *  - attn_bwd_d*_kvdqp: the fused dK/dV/dQ kernel of attn_bwd.h (FQ 2) over
 *    units (key block kb, kv group g = batch * hkv + kv head) in chunks of P
 *    key blocks (AB_DQP_UNIT); a launch runs W consecutive units (1-D grid,
 *    first unit a.kb0).  Unit (kb, g) adds its dQ blocks to partial kb % P
 *    (f32 [b][hq][sq][d]) with a plain load, add, store instead of an atomic.
 *    W <= P * G, so a launch holds at most P consecutive key blocks of a kv
 *    group: every partial element has one writer per launch; launches on a
 *    stream run in order, so partial x sums key blocks x, x + P, x + 2P, ...
 *    in that order whatever W is (the result depends on P only).  W: whole
 *    rounds of the device's CUs (attn_bwd_dqp_width), so every launch but the
 *    last fills the machine.  A key block below P stores without loading (its
 *    loads have no records: they read 0, no traffic): nothing is zeroed.
 *  - attn_bwd_dqp_sum1..8: dQ = scale * (partial 0 + partial 1 + ...), in that
 *    order, to bf16; a causal partial x has rows only from its first block's
 *    first query tile (the dkdv kernel's qs): the rows above read as 0.
 * The hooks (AB_DQP_*) are used inside AB_DKDV_KERNEL; attn_bwd.h includes
 * this header before it instantiates its kernels.  Memory: P partials of
 * b*hq*sq*d*4 bytes (attn_bwd_dqp_parts; each under one buffer descriptor's
 * 4 GiB, else the recomputing dq kernel of attn_bwd_dq.h runs).
 * Hardware facts: stream order between kernel launches (HIP: launches on one
 * stream run in issue order, each seeing the previous one's stores); buffer
 * loads past num_records return 0 and stores there are dropped (CDNA3 ISA
 * guide, "Buffer Instructions", range checking); one kvdqp workgroup per CU
 * (its registers), so a launch of k * CUs workgroups is k whole rounds. */
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

/* the current device's CUs (0: unknown) */
static inline int attn_bwd_dqp_cus(void)
{
  int dev = 0, cus = 0;
  if (hipGetDevice(&dev) != hipSuccess || hipDeviceGetAttribute(&cus, hipDeviceAttributeMultiprocessorCount, dev) != hipSuccess)
    cus = 0;
  return cus;
}
/* units per launch for P partials and G kv groups on `cus` CUs: the most whole rounds within P * G
 * (fewer when P * G is below one round; capped so the grid stays small) */
static inline int64_t attn_bwd_dqp_width(int64_t g, int parts, int cus)
{
  int64_t m = (int64_t)parts * g;
  if (m > ((int64_t)1 << 22)) m = (int64_t)1 << 22;
  return cus <= 0 || m <= cus ? m : (m / cus) * cus;
}
static inline int64_t attn_bwd_dqp_bytes(int64_t b, int64_t hq, int64_t sq, int64_t d) /* one partial's */
{
  return b * hq * AB_DQP_SQ(sq) * d * 4;
}
/* rounds (R) and launches (L) added by `u` units in launches of at most w on `cus` CUs */
static inline void attn_bwd_dqp_count(int64_t u, int64_t w, int cus, int64_t *r, int64_t *l)
{
  *r += (u / w) * ((w + cus - 1) / cus) + (u % w ? (u % w + cus - 1) / cus : 0);
  *l += (u + w - 1) / w;
}
/* gfx950 (CDNA4) kvdqp unit costs in 1/32 of a round of units that load, share Q and dO 3+ ways
 * (about 90 us at b16 h16 s1024 d128 on MI355X, modeled v7), by the units of a kv group in the
 * chunk that share its Q and dO reads (pp: 1, 2, 3+) and whether they load (a key block below P
 * only stores); and the sum's read of one partial.  The double-rate MFMAs leave these rounds
 * bound by HBM (measured, modeled v7, b16 h16 s1024 d128 MI355X, P forced 1..8: store-only
 * rounds 88.7 / 68.5 / 65 us, loading rounds 121 / 96 / 89.5 us, the sum 39-44 us a partial) */
static inline int64_t attn_bwd_dqp_cost4(int64_t pp, int load)
{
  static const int64_t st[3] = {32, 24, 23}, ld[3] = {43, 34, 32};
  const int i = pp >= 3 ? 2 : (int)pp - 1;
  return load ? ld[i] : st[i];
}
/* the cost of launching `u` units (first unit u0) of P = n partials, W per launch on `cus` CUs,
 * gfx950 weights: per launch, its rounds times its units' mean cost, plus 4 (a launch's ramp) */
static inline int64_t attn_bwd_dqp_cost4_units(int64_t u0, int64_t u, int64_t w, int cus, int64_t g, int64_t n,
                                              int64_t nkb)
{
  int64_t c = 0;
  const int64_t full = nkb / n * n * g, rem = nkb - nkb / n * n;
  for (int64_t k = u0; k < u0 + u; k += w) {
    const int64_t e = k + w < u0 + u ? k + w : u0 + u, m = e - k;
    /* units in [k, e): store-only below n * g (the first chunk), the remainder chunk's share rem */
    const int64_t s_ = (e < n * g ? e : n * g) - (k < n * g ? k : n * g), f_ = (e < full ? e : full) - (k < full ? k : full);
    const int64_t l_ = f_ - (s_ > 0 ? s_ : 0), r_ = m - f_;
    const int64_t sum = (s_ > 0 ? s_ : 0) * attn_bwd_dqp_cost4(n, 0) + l_ * attn_bwd_dqp_cost4(n, 1) +
                        (r_ ? r_ * attn_bwd_dqp_cost4(rem, 1) : 0);
    c += ((m + cus - 1) / cus) * sum / m + 4;
  }
  return c;
}
/* partials P (1..8) for a device of `cus` CUs (0: unknown): the least modeled cost.  gfx942
 * (cdna4 0), in sixteenths of a round: 16 per round of the launches (W = attn_bwd_dqp_width
 * units each; one workgroup per CU; 15 for P > 1: a kv group's P units share its Q and dO reads,
 * AB_DQP_UNIT), 3 per partial (the sum reads each: b*hq*sq*d*4 bytes), 2 per launch (MI325X's
 * launch overhead, ramp and drain).  Weights from model v10, MI325X b16 h16 d128, P forced: a
 * round ~120 us at s1024, a launch ~15 us, the sum ~15 us a partial at s1024 (partials partly in
 * the Infinity Cache) and ~67 at s2048 (a round ~240 us): deterministic s1024 P 2 / 4 1.0460 /
 * 1.0125 ms, s2048 P 2 / 4 / 8 3.4969 / 3.4806 / 3.6857 ms; both pick 4 (v7's 8 per partial and 1
 * per launch picked 2).  gfx950 (cdna4 1): its kvdqp rounds are
 * bound by HBM, so rounds that only store (the first chunk) cost less than rounds that load, and
 * more sharing of Q and dO pays: attn_bwd_dqp_cost4's weights per unit, 14 (in 1/32 of a round)
 * per partial, 4 per launch.  The fewest partials on a tie.  The launches stop at the last whole
 * chunk of P key blocks (AB_DQP_LAUNCH).  E.g. b16 h16 d128 (G = 256): s2048 on 304 CUs (gfx942):
 * 4 (4 launches of 912 units and one of 448: 14 rounds, where P = 2 takes 14 launches); s1024 on 256
 * CUs (gfx950): 4 (two launches of 1024 units, 0.772 ms of kvdqp and sum where P = 2 took 0.801,
 * modeled v7); at most 4 GiB in all; 0 when one partial passes AB_DQP_NONE or the units pass
 * 2^31 (then the dq kernel) */
static inline int attn_bwd_dqp_parts(int64_t b, int64_t hq, int64_t hkv, int64_t sq, int64_t skv, int64_t d, int cus,
                                     int cdna4)
{
  const int64_t part = attn_bwd_dqp_bytes(b, hq, sq, d), nkb = (skv + AB_BK - 1) / AB_BK, g = b * hkv;
  if (part <= 0 || part > (int64_t)AB_DQP_NONE || nkb <= 0 || nkb * g >= ((int64_t)1 << 31)) return 0;
  int64_t nmax = nkb < 8 ? nkb : 8;
  while (nmax > 1 && nmax * part > ((int64_t)4 << 30)) --nmax;
  if (cus <= 0) return (int)nmax;
  int best = 1;
  int64_t cbest = -1;
  for (int64_t n = 1; n <= nmax; ++n) {
    const int64_t w = attn_bwd_dqp_width(g, (int)n, cus), full = nkb / n * n * g;
    int64_t c;
    if (cdna4) {
      c = attn_bwd_dqp_cost4_units(0, full, w, cus, g, n, nkb) + 14 * n;
      if (nkb * g > full) c += attn_bwd_dqp_cost4_units(full, nkb * g - full, w, cus, g, n, nkb);
    } else {
      int64_t r = 0, l = 0;
      attn_bwd_dqp_count(full, w, cus, &r, &l);
      if (nkb * g > full) attn_bwd_dqp_count(nkb * g - full, w, cus, &r, &l);
      c = (n > 1 ? 15 : 16) * r + 3 * n + 2 * l;
    }
    if (cbest < 0 || c < cbest) cbest = c, best = (int)n;
  }
  return best;
}
/* the current device is a gfx950 (its gcnArchName), for attn_bwd_dqp_parts */
static inline int attn_bwd_dqp_cdna4(void)
{
  int dev = 0;
  hipDeviceProp_t prop;
  if (hipGetDevice(&dev) != hipSuccess || hipGetDeviceProperties(&prop, dev) != hipSuccess) return 0;
  return !strncmp(prop.gcnArchName, "gfx950", 6);
}

/* inside AB_DKDV_KERNEL (FQ 2): this workgroup's unit u = a.kb0 + blockIdx.x as its key block KB,
 * kv head HK and batch B.  Units go by chunks of P key blocks (the last chunk: the rest, r); in a
 * chunk by blocks of 8 kv groups (g = batch * hkv + kv head; the last block: the rest), in a
 * block key block by key block: a kv group's P units are 8 apart, on one XCD (workgroups go round
 * robin over 8), and share its Q, dO reads in that L2.  A unit and the next of its kv group and
 * partial are G P apart (G = batch * hkv): a launch of W <= P G units never holds both.  M:
 * OR-ed into its partial loads' offsets, AB_DQP_NONE for a key block below P (its partial starts
 * here: the loads pass num_records, read 0, no traffic), else 0; held in a VGPR (tk_opaque: an
 * SGPR held through the loop spilled one) */
#define AB_DQP_UNIT(KB, HK, B, M)                                                                 \
  do {                                                                                            \
    const int hkv_ = (int)a.k.dims[1], g_ = (int)a.k.dims[0] * hkv_, u_ = a.kb0 + (int)blockIdx.x; \
    const int np_ = a.nparts, cf_ = (a.skv + AB_BK - 1) / AB_BK / np_, full_ = cf_ * g_ * np_;     \
    const int c_ = u_ < full_ ? u_ / (g_ * np_) : cf_;                                            \
    const int pp_ = u_ < full_ ? np_ : (a.skv + AB_BK - 1) / AB_BK - cf_ * np_;                   \
    const int r_ = u_ - c_ * g_ * np_;                                                            \
    const int j_ = r_ / (8 * pp_), q_ = r_ - j_ * 8 * pp_;                                        \
    const int gb_ = g_ - 8 * j_ < 8 ? g_ - 8 * j_ : 8;                                           \
    const int p_ = q_ / gb_, gi_ = 8 * j_ + (q_ - p_ * gb_);                                      \
    (KB) = c_ * np_ + p_;                                                                         \
    (B) = gi_ / hkv_;                                                                             \
    (HK) = gi_ - (B) * hkv_;                                                                      \
    (M) = tk_opaque((KB) >= np_ ? 0u : AB_DQP_NONE);                                              \
  } while (0)
/* inside AB_DKDV_KERNEL (FQ 2): this workgroup's partial (its key block mod P) */
#define AB_DQP_BASE() (a.dqa + (int64_t)((kv0 / AB_BK) % a.nparts) * (int64_t)(a.dqa_bytes / 4u))

/* inside AB_DKDV_KERNEL (FQ 2): a wave's 32 x 32 dQ block (rows R0.., columns C0.. of query head
 * H, head dim DD) in the partial, as AB_DQ_ATOMIC's: the lane's first element's offset (OR M) in a
 * VGPR (through tk_opaque: recomputed at each use, no per-element values kept live), element i's a
 * constant from it (at most 15 * 32 * DD * 4 bytes: past AB_DQP_NONE stays below 2^32) */
#define AB_DQP_ACCESS(H, R0, C0, DD, M, BODY)                                                     \
  do {                                                                                            \
    const uint32_t l_ = tk_opaque(lane);                                                          \
    const uint32_t s_ = (uint32_t)((((int64_t)b * a.hq + (H)) * AB_DQP_SQ(a.sq) + (R0)) * (DD) + (C0)) * 4u; \
    const uint32_t lo_ = tk_opaque((s_ + (uint32_t)(tk_layout_c_row(32, (int)l_, 0) * (DD) + (int)(l_ % 32)) * 4u) | (M)); \
    _Pragma("unroll") for (int i = 0; i < 16; ++i) {                                              \
      const uint32_t o_ = lo_ + (uint32_t)(tk_layout_c_row(32, 0, i) * (DD)) * 4u;                \
      BODY;                                                                                       \
    }                                                                                             \
  } while (0)
/* the block's sums so far into Y[16] (issued a tile ahead of their use); none for key blocks
 * below P (dqpm_, AB_DQP_UNIT) */
#define AB_DQP_LOAD(Y, H, R0, C0, DD) AB_DQP_ACCESS(H, R0, C0, DD, dqpm_, Y[i] = tk_buffer_load_b32(rdqa, o_))
/* Y + X (the block's dQ of this key block: the accumulator tile X) back into the partial */
#define AB_DQP_STORE(X, Y, H, R0, C0, DD)                                                         \
  AB_DQP_ACCESS(H, R0, C0, DD, 0u, tk_buffer_store_b32(rdqa, o_, tk_f32_bits(tk_bits_f32(Y[i]) + (X).f[0][i])))

/* dQ = scale * sum of the NP partials, partial 0 first (8 elements per thread; grid and rows as
 * attn_bwd_pre); bq: the dkdv kernel's query tile (AB_BQ of d, a power of 2).  One kernel per NP
 * (1..8): buffer loads of exactly NP partials, all issued before the first add; rows a partial
 * does not hold read 0 (offset past its records: no traffic).  (One kernel for every P, flat loads
 * under per-partial branches, was 1900 instructions and 70 VGPRs: 98.7 us at b16 h16 s2048 d128
 * P 1 on MI325X, modeled, where attn_bwd_dq_cvt moves the same bytes in 64.9) */
#define AB_DQP_SUM_KERNEL(NP)                                                                     \
  __global__ __launch_bounds__(256) void attn_bwd_dqp_sum##NP(attn_bwd_args a, int bq)            \
  {                                                                                               \
    const int cpr = (int)a.q.dims[3] / 8;                                                         \
    const int tid = (int)threadIdx.x, c = tid % cpr;                                              \
    const int i = (int)blockIdx.x * (256 / cpr) + tid / cpr, h = (int)blockIdx.y, b = (int)blockIdx.z; \
    const int off = a.skv - a.sq;                                                                 \
    const uint32_t o = (uint32_t)(((((int64_t)b * a.hq + h) * AB_DQP_SQ(a.sq) + i) * (8 * cpr) + 8 * c) * 4); \
    tk_u32x4 x0[NP], x1[NP];                                                                      \
    _Pragma("unroll") for (int p = 0; p < (NP); ++p) {                                            \
      const int f = p * AB_BK - off; /* causal: partial p's first row: key block p's qs */        \
      const int qs = a.causal && f > 0 ? (f & -bq) : 0;                                           \
      const uint32_t op = i < a.sq && i >= qs ? o : AB_DQP_NONE;                                  \
      const tk_rsrc r = tk_rsrc_make(a.dqa + (int64_t)p * (int64_t)(a.dqa_bytes / 4u), a.dqa_bytes); \
      x0[p] = tk_buffer_load_b128(r, op);                                                         \
      x1[p] = tk_buffer_load_b128(r, op + 16u);                                                   \
    }                                                                                             \
    float s[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};                                \
    _Pragma("unroll") for (int p = 0; p < (NP); ++p) /* partial 0 first: a fixed order */         \
    _Pragma("unroll") for (int e = 0; e < 4; ++e) {                                               \
      s[e] += tk_bits_f32(x0[p][e]);                                                              \
      s[e + 4] += tk_bits_f32(x1[p][e]);                                                          \
    }                                                                                             \
    if (i >= a.sq) return;                                                                        \
    tk_u32x4 y;                                                                                   \
    _Pragma("unroll") for (int e = 0; e < 4; ++e)                                                 \
      y[e] = (uint32_t)tk_f32_to_bf16(a.scale * s[2 * e]) | ((uint32_t)tk_f32_to_bf16(a.scale * s[2 * e + 1]) << 16); \
    tk_buffer_store_b128(tk_gl_rsrc(&a.dq), (uint32_t)(tk_gl_offset(&a.dq, b, h, i, 8 * c) * 2), y); \
  }
AB_DQP_SUM_KERNEL(1)
AB_DQP_SUM_KERNEL(2)
AB_DQP_SUM_KERNEL(3)
AB_DQP_SUM_KERNEL(4)
AB_DQP_SUM_KERNEL(5)
AB_DQP_SUM_KERNEL(6)
AB_DQP_SUM_KERNEL(7)
AB_DQP_SUM_KERNEL(8)

/* the deterministic mode's kernels after attn_bwd_pre: kvdqp over all units, W per launch, then
 * the sum; a->dqa: the partials, a->dqa_bytes: bytes of one, a->nparts: P */
#define AB_DQP_LAUNCH(KVDQP, a, d, b, hkv, stream)                                                \
  do {                                                                                            \
    const int64_t g_ = (int64_t)(b) * (hkv), u_ = ((a)->skv + AB_BK - 1) / AB_BK * g_;           \
    const int64_t w_ = attn_bwd_dqp_width(g_, (a)->nparts, attn_bwd_dqp_cus());                   \
    const int64_t f_ = ((a)->skv + AB_BK - 1) / AB_BK / (a)->nparts * (a)->nparts * g_; /* whole chunks */ \
    attn_bwd_args p_ = *(a);                                                                      \
    for (int64_t k_ = 0; k_ < u_;) { /* a launch boundary at f_ (AB_DQP_UNIT) */                 \
      const int64_t e_ = k_ < f_ ? f_ : u_, n_ = e_ - k_ < w_ ? e_ - k_ : w_;                     \
      p_.kb0 = (int32_t)k_;                                                                       \
      hipLaunchKernelGGL(KVDQP, dim3((unsigned)n_), dim3(256), 0, stream, p_);                    \
      k_ += n_;                                                                                   \
    }                                                                                             \
    p_.kb0 = 0;                                                                                   \
    const dim3 gs_((unsigned)(((a)->sq + AB_PRE_ROWS(d) - 1) / AB_PRE_ROWS(d)), (unsigned)(a)->hq, (unsigned)(b)); \
    const int bq_ = (d) == 64 ? 64 : 32;                                                          \
    switch ((a)->nparts) {                                                                        \
    case 1: hipLaunchKernelGGL(attn_bwd_dqp_sum1, gs_, dim3(256), 0, stream, p_, bq_); break;    \
    case 2: hipLaunchKernelGGL(attn_bwd_dqp_sum2, gs_, dim3(256), 0, stream, p_, bq_); break;    \
    case 3: hipLaunchKernelGGL(attn_bwd_dqp_sum3, gs_, dim3(256), 0, stream, p_, bq_); break;    \
    case 4: hipLaunchKernelGGL(attn_bwd_dqp_sum4, gs_, dim3(256), 0, stream, p_, bq_); break;    \
    case 5: hipLaunchKernelGGL(attn_bwd_dqp_sum5, gs_, dim3(256), 0, stream, p_, bq_); break;    \
    case 6: hipLaunchKernelGGL(attn_bwd_dqp_sum6, gs_, dim3(256), 0, stream, p_, bq_); break;    \
    case 7: hipLaunchKernelGGL(attn_bwd_dqp_sum7, gs_, dim3(256), 0, stream, p_, bq_); break;    \
    default: hipLaunchKernelGGL(attn_bwd_dqp_sum8, gs_, dim3(256), 0, stream, p_, bq_); break;   \
    }                                                                                             \
  } while (0)

#endif /* ATTN_BWD_DQP_H */
