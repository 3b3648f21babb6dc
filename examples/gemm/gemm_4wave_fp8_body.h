/* gemm_4wave_fp8_body.h: one kernel of gemm_4wave_fp8.h, included by
 * gemm_4wave_fp8.hip once per tile (no include guard on purpose) with
 *   W4F_T        the workgroup's square C tile edge (64 or 128)
 *   W4F_NS       LDS stages of one K step each (A and Bt, T x 128 fp8)
 *   W4F_KP       accumulators per wave block, one per part of a step's K
 *   W4F_ID(x)    x with the tile's suffix (type names)
 *   W4F_KERNEL   the kernel's name
 * gemm_4wave_fp8.h's header comment describes the schedule. */

TK_ST(W4F_ID(w4f_st), tk_fp8e4, W4F_T, W4F_KS, TK_LDS_SWZ); /* 128-byte rows */
typedef struct {
  W4F_ID(w4f_st) a, b; /* A rows m0.., Bt (N x K) rows n0.. of one K step */
} W4F_ID(w4f_stage);
typedef struct {
  W4F_ID(w4f_stage) st[W4F_NS];
} W4F_ID(w4f_smem);
TK_LDS_CHECK(W4F_ID(w4f_smem));
TK_RT(W4F_ID(w4f_acc), TK_K_C_F32_32x32, W4F_T / 2, W4F_T / 2);
/* A and Bt fragments of one K part: the step's 128 K split into W4F_KP parts,
 * each into its own accumulator (T=64: a wave's one 32x32 fragment would
 * otherwise take the step's two MFMAs one after the other, each waiting for
 * the other's result) */
TK_RT(W4F_ID(w4f_op), TK_K_A_FP8_32x32x16, W4F_T / 2, W4F_KS / W4F_KP);
TK_PENDING_B128(W4F_ID(w4f_pend), W4F_ID(w4f_op));

__global__ __launch_bounds__(256) void W4F_KERNEL(const uint8_t *__restrict__ a, const uint8_t *__restrict__ b,
                                                  void *c, tk_gemm_problem p, tk_grid_l2 l2)
{
#if TK_TARGET_GFX == 950
  enum {
    T = W4F_T, NS = W4F_NS, KS = W4F_KS, KP = W4F_KP,
    PER = 2 * (T * KS / (256 * 16)), /* direct loads per thread and stage (A and Bt) */
    STAGE = sizeof(W4F_ID(w4f_stage)),
    RD = sizeof(((W4F_ID(w4f_pend) *)0)->tk_pending4_) / 16, /* ds_read_b128 per operand and part */
  };
  TK_LDS_ALLOC(W4F_ID(w4f_smem), sm);
  const uint32_t tid = threadIdx.x, wave = tk_wave_id();
  int64_t m0, n0; /* the tile from the host-made map (no division by a variable here) */
  gemm_tile_at_l2(l2, T, T, gemm_tile_lid(p, blockIdx.x, gridDim.x), &m0, &n0);
  const int64_t z = blockIdx.z;
  const uint8_t *az = a + z * tk_gemm_a_stride(&p), *bz = b + z * tk_gemm_b_stride(&p);
  /* matrix-bounded descriptors (gemm_4wave_fp8_unsupported checked the
   * spans): rows past M or N read 0 in hardware, one add per load */
  const tk_rsrc rma = tk_mat_rsrc_unchecked(az, p.m, p.k, p.lda, 1), rmb = tk_mat_rsrc_unchecked(bz, p.n, p.k, p.ldb, 1);
  tk_mview mva, mvb;
  mva.pitch = (uint32_t)p.lda, mva.rows = (uint32_t)p.m;
  mvb.pitch = (uint32_t)p.ldb, mvb.rows = (uint32_t)p.n;
  const uint32_t wm = (wave / 2) * (T / 2), wn = (wave % 2) * (T / 2);
  /* < 2^31 steps: K < 2^32 (the span limits) */
  const int32_t nsteps = (int32_t)(((uint64_t)p.k + KS - 1) / KS);
  /* a last step past K: its chunks beyond K must read 0, which the matrix
   * descriptors do not check (columns), so that one step takes the
   * range-checked loads */
  const bool ktail = p.k % KS != 0;

  /* K step s into stage j: each lane's 16-byte chunk straight into LDS */
#define W4F_LOAD(s, j)                                                                  \
  do {                                                                                  \
    if (!ktail || (s) + 1 < nsteps) {                                                   \
      tk_load_lds_direct_x4_mat(sm.st[j].a, 256, mva, rma, m0, (uint32_t)(s) * KS, tid); \
      tk_load_lds_direct_x4_mat(sm.st[j].b, 256, mvb, rmb, n0, (uint32_t)(s) * KS, tid); \
    } else {                                                                            \
      tk_gl ga, gb;                                                                     \
      gemm_gl2(&ga, (void *)az, 1, p.m, p.k, p.lda);                                    \
      gemm_gl2(&gb, (void *)bz, 1, p.n, p.k, p.ldb);                                    \
      tk_load_lds_direct_x4(sm.st[j].a, 256, &ga, rma, 0, 0, m0, (int64_t)(s) * KS, tid); \
      tk_load_lds_direct_x4(sm.st[j].b, 256, &gb, rmb, 0, 0, n0, (int64_t)(s) * KS, tid); \
    }                                                                                   \
  } while (0)

  W4F_ID(w4f_acc) acc[KP];
#pragma unroll
  for (int h = 0; h < KP; ++h) tk_rt_zero(acc[h]);
  W4F_ID(w4f_pend) pa[KP], pb[KP];
  W4F_ID(w4f_op) fa[KP], fb[KP];
  /* this lane's fragment addresses in stage 0, per K part; stage j is
   * j * STAGE bytes further (the reads' offset field) */
  tk_prefetch_at pat_a[KP], pat_b[KP];
#pragma unroll
  for (int h = 0; h < KP; ++h) {
    tk_prefetch_at_b128(pat_a[h], pa[h], sm.st[0].a, wm, h * (KS / KP));
    tk_prefetch_at_b128(pat_b[h], pb[h], sm.st[0].b, wn, h * (KS / KP));
  }

  /* prologue: steps 0 .. NS-2 in flight */
#pragma unroll
  for (int j = 0; j < NS - 1; ++j)
    if (j < nsteps) W4F_LOAD(j, j);

  /* step s: wait for its loads (NS-2 younger steps may stay in flight, none
   * in the last NS-1 steps), barrier (every lane's chunks are in LDS, and
   * every wave has read step s-1's stage), refill that stage with step
   * s+NS-1, read this step's fragments, its MFMAs.  W4F_STEP(J) is the
   * step in stage J: a constant, so the reads' stage offsets are
   * immediates. */
#define W4F_STEP(J)                                                                     \
  if ((J) < NS && s0 + (J) < nsteps) {                                                  \
    const int32_t s = s0 + (J);                                                         \
    const bool refill = s + NS - 1 < nsteps;                                            \
    if (refill) TK_WAIT_VMCNT((NS - 2) * PER);                                          \
    else W4F_WAIT_YOUNGER(nsteps - 1 - s);                                              \
    tk_barrier();                                                                       \
    if (refill) W4F_LOAD(s + NS - 1, ((J) + NS - 1) % NS);                              \
    _Pragma("unroll") for (int h = 0; h < KP; ++h) {                                    \
      tk_prefetch_issue_b128_at(pa[h], sm.st[0].a, pat_a[h], ((J) % NS) * STAGE);       \
      tk_prefetch_issue_b128_at(pb[h], sm.st[0].b, pat_b[h], ((J) % NS) * STAGE);       \
    }                                                                                   \
    W4F_MMA_PART(0);                                                                    \
    W4F_MMA_PART1();                                                                    \
  }
  /* part H's fragments (the reads complete in order: only those issued
   * after its own may stay pending) and MFMAs */
#define W4F_MMA_PART(H)                                                                 \
  do {                                                                                  \
    tk_prefetch_wait_b128(fa[H], pa[H], (2 * KP - 2 * (H) - 1) * RD);                   \
    tk_prefetch_wait_b128(fb[H], pb[H], (2 * KP - 2 * (H) - 2) * RD);                   \
    tk_mma_ABt(acc[H], fa[H], fb[H], acc[H]);                                           \
  } while (0)
  /* in the last NS-1 steps: wait for step s with the n < NS-1 younger
   * steps still in flight (a constant per case) */
#define W4F_WAIT_CASE(n)                                                                \
  case n: TK_WAIT_VMCNT((n) * PER); break;
#define W4F_WAIT_YOUNGER(n)                                                             \
  do {                                                                                  \
    static_assert(NS <= 8, "gemm_4wave_fp8: W4F_WAIT_YOUNGER is written out for up to 8 stages"); \
    switch ((n) < NS - 2 ? (n) : NS - 2) {                                              \
      W4F_WAIT_CASE(1) W4F_WAIT_CASE(2) W4F_WAIT_CASE(3)                                \
      W4F_WAIT_CASE(4) W4F_WAIT_CASE(5) W4F_WAIT_CASE(6)                                \
      default: TK_WAIT_VMCNT(0); break;                                                 \
    }                                                                                   \
  } while (0)
#if W4F_KP == 2
#define W4F_MMA_PART1() W4F_MMA_PART(1)
#else
#define W4F_MMA_PART1() do { } while (0)
#endif
  static_assert(KP == 1 || KP == 2, "gemm_4wave_fp8: W4F_MMA_PART is written out for 1 or 2 K parts");
  static_assert(NS <= 8, "gemm_4wave_fp8: W4F_STEP is written out for up to 8 stages");
  for (int32_t s0 = 0; s0 < nsteps; s0 += NS) {
    W4F_STEP(0) W4F_STEP(1) W4F_STEP(2) W4F_STEP(3) W4F_STEP(4) W4F_STEP(5) W4F_STEP(6) W4F_STEP(7)
  }
#undef W4F_STEP
#undef W4F_MMA_PART
#undef W4F_MMA_PART1
#undef W4F_WAIT_YOUNGER
#undef W4F_WAIT_CASE
#undef W4F_LOAD
#pragma unroll
  for (int h = 1; h < KP; ++h)
#pragma unroll
    for (int f = 0; f < (int)(sizeof acc[0].f / sizeof acc[0].f[0]); ++f)
#pragma unroll
      for (int i = 0; i < (int)(sizeof acc[0].f[0] / sizeof acc[0].f[0][0]); ++i) acc[0].f[f][i] += acc[h].f[f][i];

  /* straight from the registers, with the problem's epilogue (alpha *
   * scale_a * scale_b, beta, bias, activation; bf16 or f32); range-checked
   * stores where the wave's block crosses C's edge */
  tk_gl gc;
  gemm_c_tensor(p, c, z, &gc);
  tk_store_acc_epi(&gc, tk_gl_rsrc(&gc), 0, 0, m0 + wm, n0 + wn, acc[0], gemm_epi(p));
#else
  (void)a, (void)b, (void)c, (void)p, (void)l2; /* gfx942: never launched (gemm_4wave_fp8_unsupported) */
#endif
}
