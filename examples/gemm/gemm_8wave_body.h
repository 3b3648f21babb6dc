/* gemm_8wave_body.h: the 8-wave ping-pong kernel body for one output tile
 * shape and input type, included by gemm_8wave.h once per bf16 shape and by
 * gemm_8wave_fp8.h for fp8 (no include guard on purpose) with
 *   W8_TM, W8_TN   the workgroup's C tile (TM, TN in {128, 256})
 *   W8_KH          K per half-step: 32 bf16 or 64 fp8 (64 bytes per row)
 *   W8_EL, W8_TT   A/B element storage (uint16_t, uint8_t) and tk type
 *                  (tk_bf16, tk_fp8e4)
 *   W8_KIND        the operand fragment kind (TK_K_A_BF16_32x32x8,
 *                  TK_K_A_FP8_32x32x16: same registers per K half-step)
 *   W8_ID(x)       x with the shape's suffix (type and function names)
 *   W8_KERNEL      the kernel's name; W8_KERNEL_NN the K x N B variant's
 *                  (bf16 with TN = 256 only, see below)
 *   W8_ROWSKIP     (optional; TM = 256 only) the kernel also runs tiles of
 *                  224 rows (gemm_sk.tm): group 1 issues no MFMAs for its
 *                  last 32 rows and stores none of them, so a CU's work is
 *                  7/8 of a 256x256 tile (4096^3: 19 x 16 = 304 tiles, one
 *                  per CU of an MI325X, instead of 256 with 48 CUs idle)
 * so every tile shape and both input types run the same loop (gemm_8wave.h
 * describes it): the byte traffic per half-step is the same for both.
 *
 * Geometry: group g (waves 4g..4g+3) owns C rows g*TM/2 .. and stages those
 * A rows and Bt rows g*TN/2 .. (two (TM/2) x 32 and two (TN/2) x 32 swizzled
 * tiles per half-step buffer); wave (g, i) owns the (TM/2) x (TN/4) block at
 * columns i*TN/4, read as A fragments from a[g] and Bt fragments from
 * b[i / 2] rows (i % 2) * TN/4.  LDS: 2 buffers of (TM + TN) * 64 bytes.
 * The transposing B loads (nn) need an even number of 16-byte chunks per
 * thread, i.e. TN/2 = 128 Bt rows per group: only TN = 256 has an nn kernel. */

#define W8_GM (W8_TM / 2) /* A rows per group, C rows per wave */
#define W8_GN (W8_TN / 2) /* Bt rows per group */
#define W8_WN (W8_TN / 4) /* C columns per wave */
/* rows between tile origins (gemm_tile_at), and whether this wave's group
 * is the one that drops its last 32 rows (224-row tiles) */
#ifdef W8_ROWSKIP
static_assert(W8_TM == 256 && W8_WN != 32, "gemm_8wave_body: 224-row tiles are the 256x256 kernel's (LDS epilogue)");
#define W8_ROWS(sk) ((int64_t)(sk).tm)
#define W8_SHORT(sk) ((sk).tm < W8_TM && grp == 1)
/* after the loop: the test made again (held across the loop, its lane mask
 * was spilled) */
#define W8_SHORT_AFTER(sk) ((sk).tm < W8_TM && tk_opaque(grp) == 1)
#else
#define W8_ROWS(sk) ((int64_t)W8_TM)
#define W8_SHORT(sk) false
#define W8_SHORT_AFTER(sk) false
#endif

/* half-step tiles: only 16-byte accesses (ds_write_b128 commits, ds_read_b128
 * fragment reads), so the 16-byte swizzle: no per-lane half exchange after
 * each read on gfx942 (4 v_cndmask per ds_read_b128, 48 per memory cluster
 * of the 256x256 tile: what made group 0's memory cluster outlast group 1's
 * 24-MFMA compute cluster in 224-row tiles) */
TK_ST(W8_ID(w8_ha), W8_TT, W8_GM, W8_KH, TK_LDS_SWZ16);
TK_ST(W8_ID(w8_hb), W8_TT, W8_GN, W8_KH, TK_LDS_SWZ16);
typedef struct {
  W8_ID(w8_ha) a[2]; /* A rows 0.., TM/2.. */
  W8_ID(w8_hb) b[2]; /* Bt (N x K) rows 0.., TN/2.. */
} W8_ID(w8_buf);
TK_ST(W8_ID(w8_ep), float, 32, W8_WN, TK_LDS_SWZ); /* epilogue: one per wave */
typedef union {
  W8_ID(w8_buf) buf[2];
  W8_ID(w8_ep) ep[8];
} W8_ID(w8_smem);
TK_LDS_CHECK(W8_ID(w8_smem));

TK_STAGE(W8_ID(w8_sta), W8_ID(w8_ha), 256); /* one group's 256 threads */
TK_STAGE(W8_ID(w8_stb), W8_ID(w8_hb), 256);
TK_RT(W8_ID(w8_acc), TK_K_C_F32_32x32, W8_GM, W8_WN);
#define W8_RT_(name, kind, r, c) TK_RT(name, kind, r, c) /* expands W8_KIND before TK_RT pastes it */
W8_RT_(W8_ID(w8_fa), W8_KIND, W8_GM, W8_KH);
W8_RT_(W8_ID(w8_fb), W8_KIND, W8_WN, W8_KH); /* Bt in the A kind */
#undef W8_RT_
TK_PENDING_B128(W8_ID(w8_pa), W8_ID(w8_fa));
TK_PENDING_B128(W8_ID(w8_pb), W8_ID(w8_fb));
TK_RT(W8_ID(w8_piece), TK_K_C_F32_32x32, 32, W8_WN);

/* the MX kernels' hooks (gemm_8wave_mx.h defines them with W8_MX) */
#ifndef W8_MX
#define W8_PF tk_prefetch_issue_b128
#define W8_PF_AT tk_prefetch_at_b128 /* W8_PF's addresses for the held-address cluster */
#define W8_NS 0
#define W8_MX_ISSUE(cur, kload) do { } while (0)
#define W8_MX_PROLOGUE(k) do { } while (0)
#define W8_MX_PROLOGUE0(k) do { } while (0)
#define W8_MX_SETUP() do { } while (0)
#endif

/* B's share of a group's staging: Bt rows from an N x K B (nt), or the same
 * rows transposed out of a K x N B (nn, tk's transposing group loads: same
 * staging registers, pairs of K rows -> ds_write_b32); the transposing code
 * exists only for shapes with an nn kernel */
#ifdef W8_KERNEL_NN
#define W8_B_COMMIT(tile, st, n_after)                                                  \
  do {                                                                                  \
    if (nn) tk_load_commit_t(tile, st, tid_, n_after);                                  \
    else tk_load_commit(tile, st, tid_, n_after);                                       \
  } while (0)
#define W8_B_ISSUE(st, k)                                                               \
  do {                                                                                  \
    if (nn) tk_load_issue_t(st, &gb, rb, 0, 0, (k), n0 + gn * grp, tid_);               \
    else tk_load_issue(st, &gb, rb, 0, 0, n0 + gn * grp, (k), tid_);                    \
  } while (0)
#else
#define W8_B_COMMIT(tile, st, n_after) tk_load_commit(tile, st, tid_, n_after)
#define W8_B_ISSUE(st, k) tk_load_issue(st, &gb, rb, 0, 0, n0 + gn * grp, (k), tid_)
#endif

/* gfx950: the memory cluster with its addresses held across the loop
 * (gemm_8wave.h W8_MEMORY_LEAN); gfx942 and the MX kernels keep W8_MEMORY.
 * B's part of it: as W8_B_COMMIT / W8_B_ISSUE with staging set `set` into
 * buffer `set` (the transposing nn loads keep their per-cluster addresses). */
#if TK_TARGET_GFX == 950 && !defined(W8_MX)
#define W8_LEAN 1
#define W8_MEM W8_MEMORY_LEAN
#elif TK_TARGET_GFX == 950 && defined(W8_MX_MEMORY_LEAN)
#define W8_LEAN 1
#define W8_MEM W8_MX_MEMORY_LEAN /* gemm_8wave_mx_kernels.h: the same with the MX hooks */
#else
#define W8_LEAN 0
#define W8_MEM W8_MEMORY
#endif
#define W8_B_COMMIT_NT_AT(set, n_after) tk_load_commit_at(sb[set], lb, W8_BUFB(set), n_after)
#define W8_B_ISSUE_NT_AT(set, k) tk_load_issue_at(sb[set], rmb, lb, W8_KOFF(k))
#ifdef W8_KERNEL_NN
#define W8_B_COMMIT_AT(set, n_after)                                                    \
  do {                                                                                  \
    if (nn) tk_load_commit_t(sm.buf[set].b[grp], sb[set], tk_opaque(gtid), n_after);    \
    else W8_B_COMMIT_NT_AT(set, n_after);                                               \
  } while (0)
#define W8_B_ISSUE_AT(set, k)                                                           \
  do {                                                                                  \
    if (nn) tk_load_issue_t(sb[set], &gb, rb, 0, 0, (k), n0 + gn * grp, tk_opaque(gtid)); \
    else W8_B_ISSUE_NT_AT(set, k);                                                      \
  } while (0)
#else
#define W8_B_COMMIT_AT(set, n_after) W8_B_COMMIT_NT_AT(set, n_after)
#define W8_B_ISSUE_AT(set, k) W8_B_ISSUE_NT_AT(set, k)
#endif
/* a half-step's column byte offset for the held-address loads: K columns
 * past the last half-step the loop uses read that one again (the loads run
 * up to two half-steps ahead; what they fetch there is never used, and the
 * SGPR offset is not range checked, so they must stay inside the rows) */
#define W8_KOFF(k) (((uint32_t)(k) < klast_u ? (uint32_t)(k) : klast_u) * (uint32_t)sizeof(W8_EL))
/* (in 32 bits, klast_u: K < 2^32 (the launches' span limits), so one s_min_u32
 * where the 64-bit test took a VALU compare and its mask back to SALU) */

/* the kernel body for one segment: K range [kb, ke) of the tile with
 * logical id lid; nn (B as K x N) is a compile-time constant in each kernel.
 * dest: W8_TO_C (C with the problem's epilogue), W8_TO_SPLIT (this split's
 * f32 partial in the split-K workspace), or a stream-K slot index >= 0
 * (side * groups + rho, gemm_splitk.h: the part goes there, and the tile's
 * last part sums them all into C). */
static __device__ inline __attribute__((always_inline)) void W8_ID(w8_body)(
    const W8_EL *__restrict__ a, const W8_EL *__restrict__ b, const tk_gemm_problem &p, int64_t kc, const gemm_sk &sk,
    int32_t seg, const bool skp, const bool nn, W8_ID(w8_smem) &sm)
{
  const gemm_seg sg0 = gemm_8wave_seg(p, kc, sk, seg, 2 * W8_KH, skp);
  const int64_t kb = sg0.kb, ke = sg0.ke;
  enum {
    gm = W8_GM, gn = W8_GN, wn = W8_WN,
    na = sizeof(((W8_ID(w8_sta) *)0)->v) / sizeof(tk_u32x4), /* loads per thread and batch */
    nb = sizeof(((W8_ID(w8_stb) *)0)->v) / sizeof(tk_u32x4),
  };
  const uint32_t wave = tk_wave_id(), grp = tk_group_id(4), gw = tk_group_wave(4);
  const uint32_t gtid = tk_opaque(threadIdx.x) % 256; /* thread index inside the group (opaque: not shared between segments) */
  int64_t m0, n0;
  /* gfx950 bf16/fp8/MX (W8_GEO): what the host already computed or checked
   * is read, not redone before the first loads (1024^3: those waited ~0.8 us
   * for two divisions by variables and 64-bit extent tests): the tile from
   * sk.l2 (tk_grid_l2, reciprocals made by the launch), the matrix-bounded
   * descriptors and the 16-byte-row test without the span tests (the launch
   * refused spans past the descriptors' range, gemm_8wave_unsupported_tile,
   * gemm_8wave_fp8_unsupported, gemm_8wave_mx_unsupported).  gfx942 and the
   * 256x256 bf16 kernels with stream-K keep the checks (in those, with their
   * two stream-K copies of the body, clang spilled 11 SGPRs:
   * gemm_isa_8wave_resources_gfx950); gemm_8wave_dp, one copy, takes it. */
#if TK_TARGET_GFX == 950 && !defined(W8_ROWSKIP)
#define W8_GEO 1
  gemm_tile_at_l2(sk.l2, W8_ROWS(sk), W8_TN, sg0.lid, &m0, &n0);
#else
#define W8_GEO 0
  gemm_tile_at(p, W8_ROWS(sk), W8_TN, sg0.lid, &m0, &n0);
#endif
  const int64_t z = blockIdx.z;
  /* a wave-uniform vote, so the choice of loop below is a scalar branch:
   * with TK_OPAQUE_IDS clang cannot see that grp is uniform, ran both loops
   * one after the other under exec masks, and the waitcnt pass then carried
   * the full loop's loads into the short loop (vmcnt waits inside it) */
  const bool shortg = tk_wave_any(W8_SHORT(sk));
  (void)shortg;

  /* this batch's A (M x K) and B (N x K, or K x N for nn) */
  const W8_EL *az = a + z * tk_gemm_a_stride(&p), *bz = b + z * tk_gemm_b_stride(&p);
  tk_gl ga, gb;
  gemm_gl2(&ga, (void *)az, sizeof(W8_EL), p.m, p.k, p.lda);
  gemm_gl2(&gb, (void *)bz, sizeof(W8_EL), nn ? p.k : p.n, nn ? p.n : p.k, p.ldb);
  const tk_rsrc ra = tk_gl_rsrc(&ga), rb = tk_gl_rsrc(&gb);
  /* wave-uniform: 16-byte group loads need 16-byte rows (gemm_8wave_wide);
   * otherwise the whole range goes through the masked tail below */
  const bool wide = W8_GEO ? gemm_8wave_wide_rows(&p) : gemm_8wave_wide(&p);
  /* < 2^31: K < 2^31 (buffer limits); ke >= kb, so an unsigned shift (the signed division took 5 SALU) */
  const int32_t ksteps = wide ? (int32_t)((uint64_t)(ke - kb) / (2 * W8_KH)) : 0;
  /* K left for the masked tail below: one bit held across the loop, so that
   * without a tail (the usual case) nothing of the segment is read again */
  const bool ktail = kb + (int64_t)ksteps * 2 * W8_KH < ke;

  W8_ID(w8_sta) sa[2]; /* two sets: half-steps s+1 and s+2 in flight */
  W8_ID(w8_stb) sb[2];
  W8_ID(w8_pa) pa;
  W8_ID(w8_pb) pb;
  W8_ID(w8_fa) fa;
  W8_ID(w8_fb) fb;
  W8_ID(w8_acc) acc;
  tk_rt_zero(acc);
  /* the zeros made where this is used (gfx950's prologue, under the first
   * loads' latency): an empty asm per fragment that clang cannot move them
   * past */
#define W8_ZERO_ACC_PINNED()                                                            \
  do {                                                                                  \
    tk_rt_zero(acc);                                                                    \
    tk_rt_pin(acc);                                                                     \
  } while (0)
  W8_MX_SETUP(); /* MX kernels: scale tensors and this lane's scale rows */

#if W8_LEAN
  /* the held addresses (W8_MEMORY_LEAN): matrix-bounded descriptors (rows
   * past M or N read 0 in hardware; gemm_8wave_unsupported_tile keeps the
   * matrices inside their range), this thread's chunk rows and LDS slots,
   * this lane's fragment addresses, the last half-step the loop reads */
#if W8_GEO
  const tk_rsrc rma = tk_mat_rsrc_unchecked(az, p.m, p.k, p.lda, sizeof(W8_EL)),
                rmb = tk_mat_rsrc_unchecked(bz, nn ? p.k : p.n, nn ? p.n : p.k, p.ldb, sizeof(W8_EL));
#else
  const tk_rsrc rma = tk_gl_rsrc_mat(&ga, 0, 0), rmb = tk_gl_rsrc_mat(&gb, 0, 0);
#endif
  tk_load_at la, lb;
  tk_load_at_mat(la, sa[0], sm.buf[0].a[grp], tk_gl_mview(&ga), m0 + gm * grp, gtid);
  if (!nn) tk_load_at_mat(lb, sb[0], sm.buf[0].b[grp], tk_gl_mview(&gb), n0 + gn * grp, gtid);
  else lb = la; /* unused: nn's B loads keep W8_B_ISSUE's addresses */
  (void)ra, (void)rb; /* (rb: the nn loads') */
  tk_prefetch_at pat_a, pat_b;
  W8_PF_AT(pat_a, pa, sm.buf[0].a[grp], 0, 0);
  W8_PF_AT(pat_b, pb, sm.buf[0].b[gw / 2], (gw % 2) * wn, 0);
  const int64_t klast = kb + (2 * (int64_t)ksteps - 1) * W8_KH;
  const uint32_t klast_u = (uint32_t)klast; /* W8_KOFF's (used only when ksteps > 0: then klast >= 0) */
#if (!defined(W8_MX) || defined(W8_MX_FAST_PROLOGUE)) && !defined(GEMM_8WAVE_256_TU)
  /* (not in the 256x256 bf16 kernels with stream-K: with their two copies
   * of the body this prologue made clang spill 624 VGPRs on gfx950;
   * gemm_8wave_dp has one)
   * half-steps 0 and 1 issued into both staging sets before the first
   * commit, which waits for set 0 only: the two batches' latencies overlap
   * instead of following each other; the accumulators are zeroed while they
   * are in flight (pinned there: clang otherwise sinks the ~GM*WN/64 v_mov to
   * the loop entry, after the barrier, where nothing overlaps them).  The
   * loop's first cluster finds what it expects: set 1 = half-step 1 and set
   * 0 = half-step 2 in flight, in that order. */
  if (ksteps > 0) {
    W8_MX_PROLOGUE0(kb); /* MX (W8_MX_FAST_PROLOGUE): the first scales' loads, oldest */
#ifdef W8_MX_WL_PROLOGUE_ISSUE_ON
    /* mxfp4: half-steps 0 and 1 as whole lines into sets 0 and 1 (W8_MX_WL_PROLOGUE_ISSUE) */
    W8_MX_WL_PROLOGUE_ISSUE(kb);
    W8_ZERO_ACC_PINNED();
    W8_MX_WL_PROLOGUE_SWAP();
    tk_load_commit_at(sa[0], la, 0, 0);
    W8_B_COMMIT_AT(0, 0);
#else
    tk_load_issue_at(sa[0], rma, la, W8_KOFF(kb));
    W8_B_ISSUE_AT(0, kb);
    tk_load_issue_at(sa[1], rma, la, W8_KOFF(kb + W8_KH));
    W8_B_ISSUE_AT(1, kb + W8_KH);
    W8_ZERO_ACC_PINNED();
    tk_load_commit_at(sa[0], la, 0, nb + na + nb);
    W8_B_COMMIT_AT(0, na + nb);
#endif
    W8_MX_PROLOGUE(kb); /* MX: scales written, step 0's scale load between half-steps 1 and 2 (the loop's vmcnt order) */
    tk_load_issue_at(sa[0], rma, la, W8_KOFF(kb + 2 * W8_KH));
    W8_B_ISSUE_AT(0, kb + 2 * W8_KH);
    tk_lds_barrier();
  }
#else
  if (ksteps > 0) {
    W8_MX_PROLOGUE0(kb); /* MX: as in the prologue below */
    tk_load_issue_at(sa[0], rma, la, W8_KOFF(kb));
    W8_B_ISSUE_AT(0, kb);
    tk_load_commit_at(sa[0], la, 0, nb);
    W8_B_COMMIT_AT(0, 0);
    tk_load_issue_at(sa[1], rma, la, W8_KOFF(kb + W8_KH));
    W8_B_ISSUE_AT(1, kb + W8_KH);
    W8_MX_PROLOGUE(kb);
    tk_load_issue_at(sa[0], rma, la, W8_KOFF(kb + 2 * W8_KH));
    W8_B_ISSUE_AT(0, kb + 2 * W8_KH);
    tk_lds_barrier();
  }
#endif
#else
  /* prologue: half-step 0 into buffer 0, half-steps 1 and 2 in flight into
   * staging sets 1 and 0 */
  if (ksteps > 0) {
    const uint32_t tid_ = gtid;
    W8_MX_PROLOGUE0(kb); /* MX: the first K step's scales, done with the first commit */
    tk_load_issue(sa[0], &ga, ra, 0, 0, m0 + gm * grp, kb, tid_);
    W8_B_ISSUE(sb[0], kb);
    tk_load_commit(sm.buf[0].a[grp], sa[0], tid_, nb);
    W8_B_COMMIT(sm.buf[0].b[grp], sb[0], 0);
    tk_load_issue(sa[1], &ga, ra, 0, 0, m0 + gm * grp, kb + W8_KH, tid_);
    W8_B_ISSUE(sb[1], kb + W8_KH);
    W8_MX_PROLOGUE(kb); /* MX: the second K step's scales, where W8_MEMORY expects a step's */
    tk_load_issue(sa[0], &ga, ra, 0, 0, m0 + gm * grp, kb + 2 * W8_KH, tid_);
    W8_B_ISSUE(sb[0], kb + 2 * W8_KH);
    tk_lds_barrier();
  }
#endif
  tk_group_barrier_if(4, 1); /* group 1 starts half a phase late */

  /* the main loop; group 1 of a 224-row tile runs it without the MFMAs of
   * its last row fragment: a second copy of the loop (a branch inside the
   * compute cluster made clang copy the accumulators and spill ~1200 VGPRs) */
#ifdef W8_MX
#define W8_MMA_ALL(h) W8_MX_MMA(h)
#else
#define W8_MMA_ALL(h) tk_mma_ABt(acc, fa, fb, acc)
#endif
#define W8_MMA_SHORT(h) tk_mma_ABt_rows(acc, fa, fb, acc, W8_GM / 32 - 1)
#define W8_LOOP(mma) /* mma: ALL or SHORT */                                            \
  for (int32_t ks = 0; ks < ksteps; ++ks) {                                             \
    const int64_t k0 = kb + (int64_t)ks * 2 * W8_KH;                                    \
    W8_MEM(0, k0 + 3 * W8_KH);                                                          \
    W8_BARRIER();                                                                       \
    W8_COMPUTE(mma, 0);                                                                 \
    W8_BARRIER();                                                                       \
    W8_MEM(1, k0 + 4 * W8_KH);                                                          \
    W8_BARRIER();                                                                       \
    W8_COMPUTE(mma, 1);                                                                 \
    if (ks + 1 < ksteps || grp == 0) W8_BARRIER(); /* see below */                      \
  }
#ifdef W8_ROWSKIP
  if (shortg) {
    W8_LOOP(SHORT)
  } else {
    W8_LOOP(ALL)
  }
#else
  W8_LOOP(ALL)
#endif
#undef W8_LOOP
#undef W8_MMA_ALL
#undef W8_MMA_SHORT
  /* the loop's last barrier: group 1 skips its last one and group 0 the
   * closing one below (same count for both): group 0's last one pairs with
   * group 1's after its last memory cluster, so every LDS read of the loop is
   * done once a group leaves the loop; what follows (tail, LDS epilogue,
   * split-K) has its own barriers.  Group 0 no longer waits for group 1's
   * last compute cluster before its epilogue. */
  if (ksteps == 0) tk_group_barrier_if(4, 0); /* pairs with group 1's extra barrier */

  /* the segment again, from a fresh read of the arguments: nothing of it
   * beyond what the loop used is held across the loop; the tail and the
   * epilogue below read the same copy */
  const gemm_8wave_kargs *ka = (const gemm_8wave_kargs *)tk_kernarg_fresh();

  /* masked K tail: what the 64-wide steps left of [kb, ke) (K % 64, or all
   * of it without 16-byte rows), one half-step of 32 at a time, staged element
   * by element into buffer 0 by all 512 threads (zero beyond ke, M and N) */
#ifndef W8_MX
#define W8_TAIL_MMA(k0) tk_mma_ABt(acc, fa, fb, acc)
#else /* MX: K a multiple of 32; each half-step's block scales read from global (gemm_8wave_mx_kernels.h) */
#define W8_TAIL_MMA(k0) W8_MX_TAIL_MMA(k0)
#endif
  if (ktail) {
    const gemm_seg st = gemm_8wave_seg_ka(ka, seg, 2 * W8_KH, skp);
    for (int64_t k0 = st.kb + (int64_t)ksteps * 2 * W8_KH; k0 < st.ke; k0 += W8_KH) {
      for (int e = tk_opaque(threadIdx.x); e < W8_TM * W8_KH; e += 512) {
        const int r = e / W8_KH, kk = e % W8_KH;
        const int64_t gk = k0 + kk, gr = m0 + r;
        W8_LDS_AT(sm.buf[0].a[r / gm], r % gm, kk) = (gr < p.m && gk < st.ke) ? az[gr * p.lda + gk] : (W8_EL)0;
      }
      for (int e = tk_opaque(threadIdx.x); e < W8_TN * W8_KH; e += 512) {
        const int r = e / W8_KH, kk = e % W8_KH;
        const int64_t gk = k0 + kk, gr = n0 + r;
        W8_EL v = 0;
        if (gr < p.n && gk < st.ke) v = nn ? bz[gk * p.ldb + gr] : bz[gr * p.ldb + gk];
        W8_LDS_AT(sm.buf[0].b[r / gn], r % gn, kk) = v;
      }
      tk_lds_barrier();
      W8_PF(pa, sm.buf[0].a[grp], 0, 0);
      W8_PF(pb, sm.buf[0].b[gw / 2], (gw % 2) * wn, 0);
      tk_prefetch_wait_b128(fa, pa, 0);
      tk_prefetch_wait_b128(fb, pb, 0);
      W8_TAIL_MMA(k0);
      tk_barrier(); /* fragments are in registers: buffer 0 may be refilled */
    }
  }
#undef W8_TAIL_MMA
  /* the one-copy 256-wide kernels on gfx950 (gemm_8wave_dp, fp8, MX): when
   * the launch found C = acc in bf16 with every tile inside C and one split
   * (gemm_sk.plain), the registers go straight to the stores.  The general
   * path below reads the arguments in three dependent rounds and tests the
   * segment, the epilogue and the block's extent first: 0.64 us from the
   * last MFMA to the first store at 4096^3 (modeled), the tile's end. */
#if W8_GEO && defined(W8_NO_STREAM_K) && W8_WN != 32
#define W8_FAST_END 1
#else
#define W8_FAST_END 0
#endif
  if (W8_FAST_END && ka->sk.plain) {
    const tk_gemm_problem &pf = ka->p;
    tk_gl gf;
    gemm_gl2(&gf, (void *)((uint16_t *)ka->c + z * tk_gemm_c_stride(&pf)), 2, pf.m, pf.n, pf.ldc);
    tk_store_acc_epi(&gf, tk_gl_rsrc(&gf), 0, 0, m0 + gm * grp, n0 + wn * gw, acc, tk_epi_ab(1.0f, 0.0f));
    return;
  }
  const gemm_seg sg = gemm_8wave_seg_ka(ka, seg, 2 * W8_KH, skp); /* without stream-K only dest is used */
  const bool shorte = W8_SHORT_AFTER(ka->sk); /* rows 224.. of a 224-row tile are the next tile's: not stored */
  (void)shorte;
  int32_t dest = sg.dest;

  /* epilogue: TM/64 pieces of 32 x TN/4 through this wave's LDS tile; with
   * split-K the f32 partial goes to the workspace as is, and the tile's last
   * split reduces (gemm_splitk.h) */
  /* C, the workspace and the problem again, read from the kernel's argument
   * block only now (gemm_8wave_kargs): what the epilogue needs holds no
   * SGPRs across the loop (otherwise spilled to VGPR lanes) */
  const tk_gemm_problem &pe = ka->p;
  void *const c = ka->c;
  float *const ws = ka->ws;
#ifndef W8_NO_STREAM_K
  if (skp && dest >= 0) {
    /* stream-K part: the accumulators as they are to this workgroup's slot
     * (gemm_sk_part_at: 16-byte pieces, each store 1 KB contiguous), then
     * counted; the tile's last part to arrive adds every part in K order
     * (its own read back: kept in registers across the count, the
     * accumulators made clang spill ~700 VGPRs) and stores C below; the
     * others are done */
    const uint32_t lane = tk_lane_id();
    float *const own = ws + (int64_t)dest * (W8_TM * W8_TN);
#pragma unroll
    for (int f = 0; f < W8_GM / 32 * (W8_WN / 32); ++f)
#pragma unroll
      for (int q = 0; q < 4; ++q)
        *(tk_f32x4 *)gemm_sk_part_at(own, wave, W8_GM / 32 * (W8_WN / 32), f, q, lane) =
            tk_f32x4{acc.f[f][4 * q], acc.f[f][4 * q + 1], acc.f[f][4 * q + 2], acc.f[f][4 * q + 3]};
    const gemm_sk &ks = ka->sk;
    const int64_t kt = (pe.k + 2 * W8_KH - 1) / (2 * W8_KH), u = (int64_t)sg.lid - ks.dp;
    int64_t c0, nparts;
    const float *p0, *p1;
    gemm_sk_parts(ws, ks, kt, u, W8_TM * W8_TN, &c0, &nparts, &p0, &p1);
    (void)c0;
    if (!gemm_count_part((uint32_t *)(ws + 2 * (int64_t)ks.groups * (W8_TM * W8_TN)) + u, nparts,
                         (uint32_t *)&sm))
      return;
    /* the sum in contributor order 0, 1, ..., this workgroup's own part read
     * back like the others (the same bits whichever part arrives last); four
     * fragments' loads of a part in flight at once */
    enum { nf = W8_GM / 32 * (W8_WN / 32) };
#pragma unroll
    for (int f0 = 0; f0 < nf; f0 += 4) {
      tk_f32x16 t[4];
#pragma unroll
      for (int j = 0; j < 4 && f0 + j < nf; ++j) t[j] = gemm_sk_part_load(p0, wave, nf, f0 + j, lane);
      for (int64_t i = 1; i < nparts; ++i) {
        tk_f32x16 v[4];
#pragma unroll
        for (int j = 0; j < 4 && f0 + j < nf; ++j)
          v[j] = gemm_sk_part_load(p1 + (i - 1) * (W8_TM * W8_TN), wave, nf, f0 + j, lane);
#pragma unroll
        for (int j = 0; j < 4 && f0 + j < nf; ++j) t[j] += v[j];
      }
#pragma unroll
      for (int j = 0; j < 4 && f0 + j < nf; ++j) acc.f[f0 + j] = t[j];
    }
    if (tk_opaque(threadIdx.x) == 0) atomicExch((uint32_t *)(ws + 2 * (int64_t)ks.groups * (W8_TM * W8_TN)) + u, 0u);
    dest = W8_TO_C; /* the sum goes to C with the problem's epilogue */
  }
#endif
  tk_gl gc;
  tk_epi epi;
  if (dest == W8_TO_SPLIT) {
    gemm_ws_tensor(pe, ws, z, ka->sk.splits, &gc);
    epi = tk_epi_ab(1.0f, 0.0f); /* the raw partial; the last split applies gemm_epi */
  } else {
    gemm_c_tensor(pe, c, z, &gc);
    epi = gemm_epi(pe);
  }
  const tk_rsrc rc = tk_gl_rsrc(&gc);
  const int64_t wr0 = m0 + gm * grp, wc0 = n0 + wn * gw; /* this wave's GM x WN block */
  const tk_gview wv = tk_gview_make(&gc, 0, 0, wr0, wc0);
  const bool inside = !shorte && wv.rows >= gm && wv.cols >= wn;
  /* the plain product out = acc (alpha 1 after the input scales, beta 0, no
   * bias or activation) or a split-K partial; only the 256-wide tiles on
   * gfx950 (W8_PLAIN_DIRECT) test it */
#if TK_TARGET_GFX == 950 && W8_WN != 32
#define W8_PLAIN_DIRECT 1
#else
#define W8_PLAIN_DIRECT 0
#endif
#ifdef W8_ROWSKIP
  const bool plain_nn = !nn; /* 256x256 nn: the path made clang spill 2 SGPRs (gemm_isa_8wave_resources_gfx950) */
#else
  const bool plain_nn = true;
#endif
  const bool plain = W8_PLAIN_DIRECT && plain_nn && epi.alpha == 1.0f && epi.beta == 0.0f &&
                     epi.bias_mode == TK_BIAS_NONE && epi.act == TK_ACT_NONE;
  if (W8_WN == 32 && inside) {
    /* wave-uniform: a block wholly inside C (or the workspace) goes straight
     * from the accumulators, no LDS round trip.  Tiles 128 wide in N: any
     * epilogue; in the 256-wide ones (two fragment columns) the general
     * epilogue made clang spill 4-77 SGPRs (gemm_isa_resources, s39) */
    tk_store_acc_epi(&gc, rc, 0, 0, wr0, wc0, acc, epi);
  } else if (W8_PLAIN_DIRECT && plain && inside) {
    /* gfx950, 256-wide tiles, the plain product: the registers straight to
     * global_store (HipKittens' epilogue; 128 ds_write_b32 and the LDS
     * read-back fewer per wave), the epilogue a constant so its general code
     * folds away and holds no SGPRs; the other epilogues go through LDS */
    tk_store_acc_epi(&gc, rc, 0, 0, wr0, wc0, acc, tk_epi_ab(1.0f, 0.0f));
  } else {
    /* edge blocks: through LDS, wide stores where the rows allow */
    const uint32_t lane = tk_lane_id();
    /* the pieces written out (at most 4): constant fragment indices keep acc
     * in registers, whatever clang's unrolling limits */
#define W8_EPI_PIECE(fr)                                                                \
  if ((fr) < W8_GM / 32 && !((fr) == W8_GM / 32 - 1 && shorte)) {                      \
    W8_ID(w8_piece) pc;                                                                 \
    _Pragma("unroll") for (int j = 0; j < W8_WN / 32; ++j) pc.f[j] =                    \
        acc.f[((fr) % (W8_GM / 32)) * (W8_WN / 32) + j];                                \
    tk_store_acc_lds(sm.ep[wave], pc, 0, 0);                                            \
    tk_store_lds_global_epi(&gc, rc, 0, 0, wr0 + 32 * (fr), wc0, sm.ep[wave], lane, 64, epi); \
  }
    static_assert(W8_GM / 32 <= 4, "gemm_8wave_body: at most 4 epilogue pieces");
    W8_EPI_PIECE(0)
    W8_EPI_PIECE(1)
    W8_EPI_PIECE(2)
    W8_EPI_PIECE(3)
#undef W8_EPI_PIECE
  }
}

/* the kernel: its segments (one tile's K range, or a stream-K range's
 * parts of up to two tiles and whole tiles between, gemm_splitk.h) one after
 * another through the body, each part counted and reduced by its tile's
 * last contributor */
static __device__ inline __attribute__((always_inline)) void W8_ID(w8_run)(
    const W8_EL *__restrict__ a, const W8_EL *__restrict__ b, const tk_gemm_problem &p, int64_t kc, const gemm_sk &sk,
    const bool nn)
{
  TK_LDS_ALLOC(W8_ID(w8_smem), sm);
#if defined(W8_NO_STREAM_K) && TK_TARGET_GFX == 950
  /* every workgroup is a data-parallel tile (the launches make sk.dp the
   * grid): no test, whose kernel-argument load and wait came before every
   * other (one scalar-load round trip, ~0.05 us, modeled; gfx942 unchanged) */
  (void)sk.dp;
  {
#else
  if (blockIdx.x < (uint32_t)sk.dp) {
#endif
    /* a whole tile, or its split blockIdx.y of sk.splits: one segment */
    W8_ID(w8_body)(a, b, p, kc, sk, 0, false, nn, sm);
    if (((const gemm_8wave_kargs *)tk_kernarg_fresh())->sk.splits > 1) {
      const gemm_8wave_kargs *kf = (const gemm_8wave_kargs *)tk_kernarg_fresh();
      int64_t m0, n0;
      /* (224-row tiles take no split-K, gemm_8wave_unsupported_tile: the
       * tile height as a variable made the reduction spill 30 SGPRs) */
      gemm_tile_at(kf->p, W8_TM, W8_TN, gemm_8wave_seg_ka(kf, 0, 2 * W8_KH, false).lid, &m0, &n0);
      gemm_splitk_finish(kf->p, kf->ws, kf->c, blockIdx.z, m0, n0, W8_TM, W8_TN, (uint32_t *)&sm);
    }
    return;
  }
#ifndef W8_NO_STREAM_K
  /* a stream-K range: one or two segments (gemm_8wave_sk_plan keeps ranges
   * under one tile), written out rather than looped: around a loop clang
   * hoists invariant arithmetic out of it and holds it across the body's
   * main loop (spills); TK_OPAQUE_IDS (tk_gemm.hip) keeps lane and wave ids
   * from being shared between the two copies */
  W8_ID(w8_body)(a, b, p, kc, sk, 0, true, nn, sm);
  const gemm_8wave_kargs *ka = (const gemm_8wave_kargs *)tk_kernarg_fresh();
  if (gemm_8wave_seg_ka(ka, 1, 2 * W8_KH, true).n > 1) {
    __syncthreads(); /* the first segment's LDS reads are done */
    W8_ID(w8_body)((const W8_EL *)ka->a, (const W8_EL *)ka->b, ka->p, ka->kc, ka->sk, 1, true, nn, sm);
  }
#endif
}

/* the arguments as gemm_8wave_kargs lays them out (the epilogue reads c, p
 * and ws from there) */
__global__ __launch_bounds__(512) void W8_KERNEL(const W8_EL *__restrict__ a, const W8_EL *__restrict__ b, void *c,
                                                 tk_gemm_problem p, float *ws, int64_t kc, gemm_sk sk)
{
  (void)c, (void)ws;
#if defined(W8_GFX950_ONLY) && TK_TARGET_GFX != 950
  (void)a, (void)b, (void)p, (void)kc, (void)sk; /* launched on gfx950 only: no code elsewhere */
#else
  W8_ID(w8_run)(a, b, p, kc, sk, false);
#endif
}
#ifdef W8_KERNEL_NN
/* B as K x N: B is transposed on its way into LDS */
__global__ __launch_bounds__(512) void W8_KERNEL_NN(const W8_EL *__restrict__ a, const W8_EL *__restrict__ b, void *c,
                                                    tk_gemm_problem p, float *ws, int64_t kc, gemm_sk sk)
{
  (void)c, (void)ws;
  W8_ID(w8_run)(a, b, p, kc, sk, true);
}
#endif

#undef W8_B_COMMIT
#undef W8_B_ISSUE
#undef W8_B_COMMIT_AT
#undef W8_B_ISSUE_AT
#undef W8_B_COMMIT_NT_AT
#undef W8_B_ISSUE_NT_AT
#undef W8_KOFF
#undef W8_LEAN
#undef W8_PLAIN_DIRECT
#undef W8_FAST_END
#undef W8_GEO
#undef W8_MEM
#undef W8_ROWS
#undef W8_SHORT
#undef W8_SHORT_AFTER
#undef W8_ZERO_ACC_PINNED
#undef W8_GM
#undef W8_GN
#undef W8_WN
#ifndef W8_MX
#undef W8_PF
#undef W8_PF_AT
#undef W8_NS
#undef W8_MX_ISSUE
#undef W8_MX_PROLOGUE
#undef W8_MX_PROLOGUE0
#undef W8_MX_SETUP
#endif
