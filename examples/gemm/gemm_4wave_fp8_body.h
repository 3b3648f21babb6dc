/* gemm_4wave_fp8_body.h: one kernel of gemm_4wave_fp8.h, included by
 * gemm_4wave_fp8.hip once per tile (no include guard on purpose) with
 *   W4F_T        the workgroup's square C tile edge (64 or 128)
 *   W4F_NS       LDS stages of one K step each (A and Bt, T x 128 fp8)
 *   W4F_KA       accumulator sets (1 or 2): part h of a step's K goes into
 *                set h % W4F_KA
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
#if TK_TARGET_GFX == 950 /* 128 KiB: gfx950 only (the kernels are empty elsewhere) */
TK_LDS_CHECK(W4F_ID(w4f_smem));
#endif
TK_RT(W4F_ID(w4f_acc), TK_K_C_F32_32x32, W4F_T / 2, W4F_T / 2);
/* A and Bt fragments of one K part: the step's 128 K in two parts of 64
 * (one 32x32x64 MFMA per fragment pair), issued part by part, so that
 * consecutive MFMAs write different accumulators: T=128's four fragments
 * per part; T=64 has one, so its two parts go into two accumulator sets
 * (W4F_KA), added at the end (else each MFMA waits for the previous one's
 * result) */
#define W4F_KP 2
TK_RT(W4F_ID(w4f_op), TK_K_A_FP8_32x32x16, W4F_T / 2, W4F_KS / W4F_KP);
TK_PENDING_B128(W4F_ID(w4f_pend), W4F_ID(w4f_op));

__global__ __launch_bounds__(256) void W4F_KERNEL(const uint8_t *__restrict__ a, const uint8_t *__restrict__ b,
                                                  void *c, tk_gemm_problem p, tk_grid_l2 l2)
{
#if TK_TARGET_GFX == 950
  enum {
    T = W4F_T, NS = W4F_NS, KS = W4F_KS, KP = W4F_KP, KA = W4F_KA,
    PER = 2 * (T * KS / (256 * 16)), /* direct loads per thread and stage (A and Bt) */
    RP = 2 * (T / 64) * (KS / KP / 32), /* ds_read_b128 per K part (A and Bt) */
    STAGE = sizeof(W4F_ID(w4f_stage)),
  };
  TK_LDS_ALLOC(W4F_ID(w4f_smem), sm);
  const uint32_t tid = threadIdx.x, wave = tk_wave_id();
  int64_t m0, n0; /* the tile from the host-made map (no division by a variable here) */
  gemm_tile_at_l2(l2, T, T, gemm_tile_lid(p, blockIdx.x, gridDim.x), &m0, &n0);
  const int64_t z = blockIdx.z;
  /* batch 0 without the two 64-bit products (~20 scalar instructions before
   * the first load); B is N x K here (layout nt): tk_gemm_b_stride's layout
   * test added a kernel-argument load, its wait and a select to this path
   * (gfx950 disassembly compared, s47) */
  const uint8_t *az = a, *bz = b;
  if (z) az += z * tk_gemm_a_stride(&p), bz += z * (p.n * p.ldb);
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

  /* this lane's offsets of its chunks of the tile's A and Bt rows (rows past
   * M or N read 0 in hardware); a step's column is the loads' scalar offset */
  tk_lds_direct_rows la, lb;
  tk_lds_direct_rows_x4_mat(la, sm.st[0].a, 256, mva, m0, tid);
  tk_lds_direct_rows_x4_mat(lb, sm.st[0].b, 256, mvb, n0, tid);
  /* K step s into stage j: each lane's 16-byte chunks straight into LDS */
#define W4F_LOAD(s, j)                                                                  \
  do {                                                                                  \
    if (!ktail || (s) + 1 < nsteps) {                                                   \
      tk_load_lds_direct_x4_rows(sm.st[j].a, 256, rma, la, (uint32_t)(s) * KS, tid);    \
      tk_load_lds_direct_x4_rows(sm.st[j].b, 256, rmb, lb, (uint32_t)(s) * KS, tid);    \
    } else {                                                                            \
      tk_gl ga, gb;                                                                     \
      gemm_gl2(&ga, (void *)az, 1, p.m, p.k, p.lda);                                    \
      gemm_gl2(&gb, (void *)bz, 1, p.n, p.k, p.ldb);                                    \
      tk_load_lds_direct_x4(sm.st[j].a, 256, &ga, rma, 0, 0, m0, (int64_t)(s) * KS, tid); \
      tk_load_lds_direct_x4(sm.st[j].b, 256, &gb, rmb, 0, 0, n0, (int64_t)(s) * KS, tid); \
    }                                                                                   \
  } while (0)

  W4F_ID(w4f_acc) acc[KA];
  W4F_ID(w4f_pend) pa[KP], pb[KP];
  /* two fragment sets: step s's (set s % 2, read by its MFMAs) and step
   * s+1's (being read from LDS meanwhile): no copies between them */
  W4F_ID(w4f_op) fa[2][KP], fb[2][KP];
  /* this lane's fragment addresses in stage 0, per K part; stage j is
   * j * STAGE bytes further (the reads' offset field).  Made after the
   * prologue's loads (W4F_AT in each path): before them they delayed the
   * first load by ~25 VALU */
  tk_prefetch_at pat_a[KP], pat_b[KP];
#define W4F_AT()                                                                        \
  do {                                                                                  \
    _Pragma("unroll") for (int h = 0; h < KP; ++h) {                                    \
      tk_prefetch_at_b128(pat_a[h], pa[h], sm.st[0].a, wm, h * (KS / KP));              \
      tk_prefetch_at_b128(pat_b[h], pb[h], sm.st[0].b, wn, h * (KS / KP));              \
    }                                                                                   \
  } while (0)

/* K part h of step s0+J's fragment reads (A and B) from stage J % NS */
#define W4F_READ_PART(J, h)                                                             \
  do {                                                                                  \
    tk_prefetch_issue_b128_at(pa[h], sm.st[0].a, pat_a[h], ((J) % NS) * STAGE);         \
    tk_prefetch_issue_b128_at(pb[h], sm.st[0].b, pat_b[h], ((J) % NS) * STAGE);         \
  } while (0)
#define W4F_READ(J)                                                                     \
  do {                                                                                  \
    _Pragma("unroll") for (int h = 0; h < KP; ++h) W4F_READ_PART(J, h);                 \
  } while (0)
#define W4F_FRAGS(SET)                                                                  \
  do {                                                                                  \
    _Pragma("unroll") for (int h = 0; h < KP; ++h) {                                    \
      tk_prefetch_wait_b128(fa[SET][h], pa[h], 0);                                      \
      tk_prefetch_wait_b128(fb[SET][h], pb[h], 0);                                      \
    }                                                                                   \
  } while (0)
  /* wait for a step with n (0 .. NS-1, a runtime value) younger steps still
   * in flight: one constant wait per case */
#define W4F_WAIT_CASE(n)                                                                \
  case n: TK_WAIT_VMCNT((n) * PER); break;
#define W4F_WAIT_YOUNGER(n)                                                             \
  do {                                                                                  \
    switch (n) {                                                                        \
      W4F_WAIT_CASE(1) W4F_WAIT_CASE(2) W4F_WAIT_CASE(3)                                \
      W4F_WAIT_CASE(4) W4F_WAIT_CASE(5) W4F_WAIT_CASE(6) W4F_WAIT_CASE(7)               \
      default: TK_WAIT_VMCNT(0); break;                                                 \
    }                                                                                   \
  } while (0)
  static_assert(NS <= 8 && NS % 2 == 0, "gemm_4wave_fp8: W4F_WAIT_YOUNGER and W4F_STEP are written out for up to 8 "
                "stages, an even number (the fragment sets alternate)");

  /* the general path's prologue: steps 0 .. NS-1 in flight (every stage),
   * then step 0's fragments */
#define W4F_PROLOGUE()                                                                  \
  do {                                                                                  \
    _Pragma("unroll") for (int j = 0; j < NS; ++j) if (j < nsteps) W4F_LOAD(j, j);      \
    W4F_AT();                                                                           \
    if (nsteps > 0) {                                                                   \
      W4F_WAIT_YOUNGER(nsteps - 1 < NS - 1 ? nsteps - 1 : NS - 1);                      \
      tk_barrier();                                                                     \
      W4F_READ(0);                                                                      \
      W4F_FRAGS(0);                                                                     \
    }                                                                                   \
  } while (0)

  /* step s (stage J = s % NS), its fragments in set J % 2: its MFMAs, then
   * wait for step s+1's loads (the younger ones stay in flight), barrier
   * (every lane's chunks of step s+1 are in LDS, and every wave has its
   * step-s fragments in registers, so stage J is free), refill stage J with
   * step s+NS, read step s+1's fragments into the other set while the MFMAs
   * run.  (MFMAs after the next step's barrier instead made them wait for
   * its loads: 0.4 us more before the first MFMA at 1024^3, modeled.) */
#define W4F_STEP(J)                                                                     \
  if ((J) < NS && s0 + (J) < nsteps) {                                                  \
    const int32_t s = s0 + (J);                                                         \
    _Pragma("unroll") for (int h = 0; h < KP; ++h)                                      \
      tk_mma_ABt(acc[h % KA], fa[(J) % 2][h], fb[(J) % 2][h], acc[h % KA]);             \
    TK_SCHED_BARRIER(0);                                                                \
    if (s + 1 < nsteps) {                                                               \
      W4F_WAIT_YOUNGER(nsteps - 2 - s < NS - 2 ? nsteps - 2 - s : NS - 2);              \
      tk_barrier();                                                                     \
      if (s + NS < nsteps) W4F_LOAD(s + NS, J);                                         \
      W4F_READ((J) + 1);                                                                \
      W4F_FRAGS(((J) + 1) % 2);                                                         \
    }                                                                                   \
  }
  /* K a multiple of NS steps (1024^3, 2048^3): the same loop without a test
   * per step, every group but the last refilling every stage with
   * (NS-2)-deep waits, the last group's waits constants (NS-2-J younger
   * steps); ~25 scalar instructions per step less than W4F_STEP's tests
   * (at 1024^3 those were ~0.5 us of a tile's 3.6, modeled) */
/* one K part of step s0+J: its fragments' wait (n younger reads may stay in
 * flight), its MFMAs */
#define W4F_FRAG_PART(J, h, n)                                                          \
  do {                                                                                  \
    tk_prefetch_wait_b128(fa[(J) % 2][h], pa[h], n);                                    \
    tk_prefetch_wait_b128(fb[(J) % 2][h], pb[h], n);                                    \
  } while (0)
#define W4F_MMA_PART(J, h)                                                              \
  do {                                                                                  \
    tk_mma_ABt(acc[(h) % KA], fa[(J) % 2][h], fb[(J) % 2][h], acc[(h) % KA]);           \
    TK_SCHED_BARRIER(0);                                                                \
  } while (0)
/* step s = s0+J (stage J; its K part 0 read half a step ago, part 1 just
 * before): part 0's MFMAs first, so that the matrix unit has work queued
 * while the wave waits for step s+1's loads and the barrier; then part 1's
 * fragments (all of stage J read before the barrier lets its refill go),
 * step s+1's part 0 reads, the refill of stage J with step s+NS among part
 * 1's MFMAs (no scheduling barrier between them: clang puts the loads' M0
 * updates in the MFMAs' issue gaps), step s+1's part 1 reads.  Each part's
 * reads land in the registers the same part's MFMAs of step s have just
 * read.  (s45 put the wait and barrier first: step s's MFMAs then waited
 * for step s+1's loads, and the wait for the part 1 reads sat between two
 * steps' MFMAs: 0.40 us per step at 2048^3, now 0.39, modeled) */
#define W4F_STEADY(J)                                                                   \
  if ((J) < NS) {                                                                       \
    W4F_FRAG_PART(J, 0, RP);                                                            \
    W4F_MMA_PART(J, 0);                                                                 \
    W4F_FRAG_PART(J, 1, 0);                                                             \
    TK_WAIT_VMCNT((NS - 2) * PER);                                                      \
    tk_barrier();                                                                       \
    W4F_READ_PART((J) + 1, 0);                                                          \
    TK_SCHED_BARRIER(0);                                                                \
    tk_load_lds_direct_x4_rows(sm.st[J].a, 256, rma, la, (uint32_t)(s0 + (J) + NS) * KS, tid); \
    tk_load_lds_direct_x4_rows(sm.st[J].b, 256, rmb, lb, (uint32_t)(s0 + (J) + NS) * KS, tid); \
    W4F_MMA_PART(J, 1);                                                                 \
    W4F_READ_PART((J) + 1, 1);                                                          \
    TK_SCHED_BARRIER(0);                                                                \
  }
/* the last group: no refills, the waits' depth shrinking to 0 */
#define W4F_LAST(J)                                                                     \
  if ((J) < NS) {                                                                       \
    W4F_FRAG_PART(J, 0, RP);                                                            \
    W4F_MMA_PART(J, 0);                                                                 \
    W4F_FRAG_PART(J, 1, 0);                                                             \
    if ((J) + 1 < NS) {                                                                 \
      TK_WAIT_VMCNT((NS - 2 - (J) > 0 ? NS - 2 - (J) : 0) * PER);                       \
      tk_barrier();                                                                     \
      W4F_READ_PART((J) + 1, 0);                                                        \
      TK_SCHED_BARRIER(0);                                                              \
    }                                                                                   \
    W4F_MMA_PART(J, 1);                                                                 \
    if ((J) + 1 < NS) W4F_READ_PART((J) + 1, 1);                                        \
    TK_SCHED_BARRIER(0);                                                                \
  }
  /* K whole groups of NS steps: its own path from the prologue on (one
   * path shared with the general loop from there made clang zero the
   * accumulators and copy step 0's fragments into the loop's registers
   * twice, after the prologue's wait: ~200 VALU, 0.6 us before the first
   * MFMA at 2048^3, modeled) */
  if (nsteps > 0 && nsteps % NS == 0 && !ktail) {
    /* (!ktail here: W4F_LOAD's range-checked branch folds away) */
#pragma unroll
    for (int j = 0; j < NS; ++j) W4F_LOAD(j, j);
    /* zeroed under the loads' latency (pinned: else clang sinks it past the wait) */
#pragma unroll
    for (int h = 0; h < KA; ++h) {
      tk_rt_zero(acc[h]);
      tk_rt_pin(acc[h]);
    }
    W4F_AT();
    TK_WAIT_VMCNT((NS - 1) * PER);
    tk_barrier();
    W4F_READ(0); /* waited for part by part in W4F_STEADY / W4F_LAST */
    int32_t s0 = 0;
    for (; s0 + NS < nsteps; s0 += NS) {
      W4F_STEADY(0) W4F_STEADY(1) W4F_STEADY(2) W4F_STEADY(3) W4F_STEADY(4) W4F_STEADY(5) W4F_STEADY(6) W4F_STEADY(7)
    }
    W4F_LAST(0) W4F_LAST(1) W4F_LAST(2) W4F_LAST(3) W4F_LAST(4) W4F_LAST(5) W4F_LAST(6) W4F_LAST(7)
  } else {
#pragma unroll
    for (int h = 0; h < KA; ++h) tk_rt_zero(acc[h]);
    W4F_PROLOGUE();
    for (int32_t s0 = 0; s0 < nsteps; s0 += NS) {
      W4F_STEP(0) W4F_STEP(1) W4F_STEP(2) W4F_STEP(3) W4F_STEP(4) W4F_STEP(5) W4F_STEP(6) W4F_STEP(7)
    }
  }
#undef W4F_STEP
#undef W4F_PROLOGUE
#undef W4F_AT
#undef W4F_STEADY
#undef W4F_LAST
#undef W4F_MMA_PART
#undef W4F_FRAG_PART
#undef W4F_READ
#undef W4F_READ_PART
#undef W4F_FRAGS
#undef W4F_WAIT_YOUNGER
#undef W4F_WAIT_CASE
#undef W4F_LOAD
#pragma unroll
  for (int h = 1; h < KA; ++h)
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
#undef W4F_KP
