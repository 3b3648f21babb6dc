/* gemm_8wave_mx_kernels.h: the 8wave MX kernels' code (gemm_8wave_mx.h
 * describes them; included only by gemm_8wave_mx.hip, GEMM_8WAVE_MX_TU):
 * the body's MX hooks (gemm_8wave_body.h) and its three instantiations
 * (mxfp8 E4M3, E5M2, mxfp4).  gfx942 device pass: empty kernels (the host
 * refuses MX there). */
#ifndef GEMM_8WAVE_MX_KERNELS_H
#define GEMM_8WAVE_MX_KERNELS_H

#if TK_HAS_MFMA_F8F6F4 || !TK_DEVICE_PASS
/* Scales go through LDS in 64-byte superchunks: a superchunk is a row's
 * scale bytes of W8_MX_P K steps (fp8: 16 steps of 4 blocks, fp4: 8 steps of
 * 8 blocks), four 16-byte chunks of W8_MX_CS steps each, fetched by four
 * adjacent lanes with one 16-byte load each.
 *
 * Why 64 bytes (mx-s37): under the model an L2 request costs a whole 128-byte
 * line whatever part of it a wave uses (sim/model/model.c h_global), and at
 * 8192^3 the fp8 loop already asks the L2 for as many lines per K step as its
 * MFMAs take cycles (1024 lines per CU and step, 32 CUs per XCD at 16 lines
 * per clock: 2048 clocks, the K step's 2048 MFMA clocks per SIMD).  One 16-byte
 * chunk per row and load (mx-s34..s36) added 128 lines per step (fp4: 256):
 * +12.5% (+25%), the measured mxfp8 0.89x.  Four lanes per row and 64 bytes
 * add 32 (fp4: 64).
 *
 * Who loads what: a wave owns 64 rows of its group's area (waves 0-1: A's GM
 * rows, 2-3: Bt's GN rows), wave row rho = 32 * f + r of row fragment
 * k = 2 * (gw % 2) + f.  In-period step tau (0 .. P-1) of a superchunk's load
 * period, the lanes l with l / W8_MX_AL == tau % CS take part (W8_MX_AL = 64 /
 * CS: 16 fp8, 32 fp4; the others go out of range, no traffic, and write a
 * dummy slot, so neither LLVM's waits nor the loop see a branch): lane index
 * a = l % AL takes chunk a % 4 of row rho = 32 * (a / 16) + 4 * tau + (a / 4) % 4,
 * so a load touches AL / 4 rows, each as one 64-byte piece of its line.
 * Every K step, in its second memory cluster, each lane writes the chunk it
 * loaded a step before and loads the next one -- one buffer_load_dwordx4 per
 * thread and step (W8_NS = 1, the body's vmcnt counts exact).  The write at
 * step t = P*j + tau goes to superchunk j + 1 (buffer (j + 1) % 2), after the
 * last read of superchunk j - 1 (same buffer, step P*j - 1) and before the
 * first read of superchunk j + 1 (step P*(j+1)), barriers between; the load at
 * step t is the write's at t + 1.  The prologue loads and writes all of
 * superchunk 0 (four loads per lane) and issues step 0's write's load.
 *
 * What the MFMA wants: v_mfma_scale_f32_32x32x64_f8f6f4 takes one scale byte
 * per lane, byte op_sel of its scale VGPR (CDNA4 ISA guide, "Matrix
 * arithmetic": OPSEL / OPSEL_HI of the scale operands pick a byte): lane
 * group h = lane / 32 of an MFMA holds block 2q + h of its 64-element K
 * slice.  So the writer splits its chunk by lane group: word (u, h) holds
 * bytes h, h+2 of chunk dwords 2u and 2u+1 as [d0.h, d1.h, d0.h+2, d1.h+2]
 * -- fp4 (dwords 2u, 2u+1 = step u's 8 blocks): byte hs + 2q is half-step
 * hs's MFMA q, a whole K step per word; fp8 (dwords 2u, 2u+1 = steps 2u,
 * 2u+1): byte 2 * hs + (step parity), two K steps per word, shifted right
 * by 8 on the odd step.  Each word lands in LDS slot (buffer, chunk) at
 *   [group][2u + h][A or Bt][r] (16 bytes: 4 row fragments)
 * A: column k (a lane's 4 A words are one ds_read_b128); Bt: the wave pair's
 * 2 fragments as one 8-byte pair (one ds_read_b64), the pairs of rows 16..31
 * exchanged so that 32 lanes' ds_read_b64 (r, r + 16) touch 64 different
 * banks.  A slot is 8 KiB + 64 bytes, so that the 4 chunks' writers of a
 * store (4 rows x 4 chunks fp8, 8 x 4 fp4) hit different banks; the dummy
 * slot sits one dword off the bank pattern for the same reason.  A lane
 * reads its 6 words once per K step in the first memory cluster (two LDS
 * reads).  Rows past M or N read row M - 1's (N - 1's) scales: they only
 * scale products of C rows/columns outside C, never stored; bytes past a
 * row's end belong to no step that runs. */
#define W8_MX
/* the gfx950 prologue that issues half-steps 0 and 1 before the first commit
 * (gemm_8wave_body.h), with the MX hooks: the MX kernels' prologue was
 * 1.1 us longer than fp8's per tile (modeled, 8192x8192x2048) */
#define W8_MX_FAST_PROLOGUE
#define W8_MX_SW (W8_MX_EPB) /* scale words per row and K step: 1 (fp8) or 2 (fp4) */
#define W8_MX_CS (4 / W8_MX_SW) /* K steps per 16-byte chunk */
#define W8_MX_P (4 * W8_MX_CS) /* K steps per 64-byte superchunk: 16 (fp8), 8 (fp4) */
#define W8_MX_AL (64 / W8_MX_CS) /* lanes of a wave loading in a step: 16 (fp8), 32 (fp4) */
#define W8_NS 1 /* one chunk load per thread and K step (second memory cluster) */
#define W8_MX_NF (W8_GM / 32 + W8_WN / 32) /* scale words per lane and K step */
/* LDS (dwords): 8 slots (buffer, chunk) of [group 2][word 4][A, Bt][r 32][4]
 * = 2048 dwords + 16 of padding (slot stride = 64 mod 256 bytes), then the
 * dummy slot one dword further */
#define W8_MX_SLOTDW 2064u
#define W8_MX_SLOT(sb, c) (((sb) * 4u + (c)) * W8_MX_SLOTDW)
#define W8_MX_IN(g, w, bt, r, col) (((((g) * 4u + (w)) * 2u + (bt)) * 32u + (r)) * 4u + (col))
#define W8_MX_DUMMY (8u * W8_MX_SLOTDW + 1u)
#define W8_MX_LDSDW (W8_MX_DUMMY + 2048u + 3u)
#define W8_MX_SETUP()                                                                    \
  const int64_t mx_kb = p.k * W8_MX_EPB / 32; /* scale bytes per row */                  \
  /* the descriptors end 3 bytes before the last row's last loop step ends: with \
   * a K tail rows are not whole dwords (K/32 bytes), chunk dwords start at any   \
   * byte, and raw buffers are range checked by a dword's start (tksim           \
   * sim/exec/mem.c, after the ISA guide), so a dword starting before the end    \
   * must not reach past the tensor; every dword a step uses starts at most 4    \
   * bytes before that end, inside; the rest read 0 */                          \
  const int64_t mx_used = kb * W8_MX_EPB / 32 + 4 * W8_MX_SW * (int64_t)ksteps - 3;       \
  const tk_rsrc mx_rsa = tk_rsrc_make((const uint8_t *)p.mx_scale_a + z * p.m * mx_kb,    \
      ksteps > 0 ? (uint32_t)((p.m - 1) * mx_kb + mx_used) : 0u);                          \
  const tk_rsrc mx_rsb = tk_rsrc_make((const uint8_t *)p.mx_scale_b + z * p.n * mx_kb,    \
      ksteps > 0 ? (uint32_t)((p.n - 1) * mx_kb + mx_used) : 0u);                          \
  TK_SHARED uint32_t mx_lds[W8_MX_LDSDW] __attribute__((aligned(16)));                   \
  static_assert(W8_GM == 128 && W8_GN == 128 && W8_WN == 64,                             \
                "gemm_8wave_mx: the scale layout is the 256x256 tile's (4 A, 2 + 2 Bt row fragments per group)"); \
  static_assert(W8_MX_LDSDW * 4 + sizeof(W8_ID(w8_smem)) <= 160 * 1024,                  \
                "gemm_8wave_mx: operand and scale LDS must fit gfx950's 160 KiB");       \
  tk_u32x4 mx_st; /* the chunk on its way (registers) */                                 \
  uint32_t mx_sc[W8_MX_NF];                                                              \
  W8_MX_K_SETUP() /* per kernel: the whole-line loads' registers (mxfp4) or nothing */
/* wave row rho of this lane's chunk at in-period step tau (above) */
#define W8_MX_RHO(a, tau) (32u * ((a) / 16u) + 4u * (uint32_t)(tau) + ((a) / 4u) % 4u)
/* load chunk a % 4 of superchunk sc of this lane's row at in-period step tau
 * if the lane takes part in tau, else nothing (out of range); the operand is
 * wave-uniform */
#define W8_MX_TAKES(tau) (_l / W8_MX_AL == (uint32_t)(tau) % W8_MX_CS) /* (inside the macros below) */
#define W8_MX_LOAD(sc, tau) W8_MX_LOAD_IF(sc, tau, W8_MX_TAKES(tau))
#define W8_MX_LOAD_IF(sc, tau, take)                                                     \
  do {                                                                                   \
    const uint32_t _l = tk_opaque(gtid) % 64u, _a = _l % W8_MX_AL;                       \
    const uint32_t _rho = W8_MX_RHO(_a, tau);                                            \
    const bool _b = gw >= 2; /* Bt's rows: per wave, a scalar choice */                  \
    const int64_t _g = (_b ? n0 + gn * grp : m0 + gm * grp) + 64u * (gw % 2u) + _rho, _lim = (_b ? p.n : p.m) - 1; \
    const uint32_t _off = (uint32_t)((_g < _lim ? _g : _lim) * mx_kb + kb * W8_MX_EPB / 32) + \
                          64u * (uint32_t)(sc) + 16u * (_a % 4u);                         \
    mx_st = tk_buffer_load_b128(_b ? mx_rsb : mx_rsa, (take) ? _off : TK_OOB_OFFSET);    \
  } while (0)
/* word (u, h) of a chunk: bytes h and h + 2 of dwords 2u, 2u+1 (above) */
#define W8_MX_SPLIT(d0, d1, h) ((((d0) >> (8 * (h))) & 0x00ff00ffu) | ((((d1) >> (8 * (h))) & 0x00ff00ffu) << 8))
/* write chunk st (registers), split, into buffer sb if this lane takes part
 * in in-period step tau (else into the dummy slot) */
#define W8_MX_COMMIT_ST(st, sb, tau) W8_MX_COMMIT_IF(st, sb, tau, W8_MX_TAKES(tau))
#define W8_MX_COMMIT_IF(st, sb, tau, take)                                               \
  do {                                                                                   \
    const uint32_t _l = tk_opaque(gtid) % 64u, _a = _l % W8_MX_AL, _bt = gw >= 2 ? 1u : 0u; \
    const uint32_t _rho = W8_MX_RHO(_a, tau), _r = _rho % 32u;                           \
    const uint32_t _k = 2u * (gw % 2u) + _rho / 32u;                                     \
    /* Bt: the wave pair's 8-byte pairs of rows 16..31 exchanged */             \
    const uint32_t _col = _bt ? (_k ^ (2u * (_r / 16u))) : _k;                           \
    const uint32_t _base = (take) ? W8_MX_SLOT(sb, _a % 4u) : W8_MX_DUMMY;              \
    uint32_t *_d = &mx_lds[_base + W8_MX_IN(grp, 0u, _bt, _r, _col)];                    \
    enum { _ps = 2 * 32 * 4 }; /* dwords between words (u, h) */                         \
    _d[0 * _ps] = W8_MX_SPLIT((st).x, (st).y, 0);                                        \
    _d[1 * _ps] = W8_MX_SPLIT((st).x, (st).y, 1);                                        \
    _d[2 * _ps] = W8_MX_SPLIT((st).z, (st).w, 0);                                        \
    _d[3 * _ps] = W8_MX_SPLIT((st).z, (st).w, 1);                                        \
  } while (0)
/* prologue: superchunk 0 whole, every lane four loads (in-period steps tau =
 * W8_MX_PTAU(lane, i), i = 0..3: all 16 (fp4 8) of them for each lane index
 * a; fp8 pairs steps 8 apart in a half wave, i.e. rows of two fragments, so
 * that its stores hit distinct banks), issued first and written before the
 * prologue's barrier, then step 0's write's load (superchunk 1, tau 0) */
#define W8_MX_PTAU(l, i) \
  (W8_MX_CS == 4 ? (uint32_t)(i) + 8u * (((l) / 16u) % 2u) + 4u * ((l) / 32u) : (l) / 32u + 2u * (uint32_t)(i))
#define W8_MX_PROLOGUE0(k)                                                               \
  tk_u32x4 mx_p0[4];                                                                     \
  do {                                                                                   \
    _Pragma("unroll") for (int _i = 0; _i < 4; _i++) {                                   \
      W8_MX_LOAD_IF(0, W8_MX_PTAU(tk_opaque(gtid) % 64u, _i), true);                     \
      mx_p0[_i] = mx_st;                                                                 \
    }                                                                                    \
    W8_MX_K_PROLOGUE0();                                                                 \
  } while (0)
#define W8_MX_PROLOGUE_WRITE()                                                           \
  do {                                                                                   \
    _Pragma("unroll") for (int _i = 0; _i < 4; _i++)                                     \
      W8_MX_COMMIT_IF(mx_p0[_i], 0u, W8_MX_PTAU(tk_opaque(gtid) % 64u, _i), true);       \
  } while (0)
/* W8_MX_EARLY_WRITE (per kernel): 1 when the kernel's prologue hook wrote
 * superchunk 0 already (mxfp4's W8_MX_WL_PROLOGUE_SWAP) */
#define W8_MX_PROLOGUE(k)                                                                \
  do {                                                                                   \
    if (!W8_MX_EARLY_WRITE) W8_MX_PROLOGUE_WRITE();                                      \
    W8_MX_LOAD(1, 0);                                                                    \
  } while (0)
/* a memory cluster: the first one reads this K step's 6 words (superchunk
 * ks / P in buffer (ks / P) % 2, chunk (ks % P) / CS, word u = ks % CS /
 * (CS / 2) of lane group h) and pins them; the second writes the chunk loaded
 * a step before (superchunk ks / P + 1, in-period step ks % P) and loads the
 * next one (for step ks + 1) */
#define W8_MX_ISSUE(cur, kload)                                                          \
  do {                                                                                   \
    if ((cur) == 0) {                                                                    \
      const uint32_t _s = W8_MX_SLOT(((uint32_t)ks / W8_MX_P) % 2u, ((uint32_t)ks % W8_MX_P) / W8_MX_CS); \
      const uint32_t _l = tk_lane_id(), _r = _l % 32u;                                   \
      const uint32_t _w = 2u * (((uint32_t)ks % W8_MX_CS) / (W8_MX_CS / 2)) + _l / 32u;  \
      /* fp8: the odd step's bytes down by 8 (byte 2 hs + parity) */            \
      const uint32_t _sh = W8_MX_SW == 1 ? 8u * ((uint32_t)ks % 2u) : 0u;                \
      /* memcpy: one 16-byte and one 8-byte LDS read of the uint32_t array */     \
      tk_u32x4 _va;                                                                      \
      tk_u32x2 _vb;                                                                      \
      __builtin_memcpy(&_va, __builtin_assume_aligned(&mx_lds[_s + W8_MX_IN(grp, _w, 0u, _r, 0u)], 16), 16); \
      __builtin_memcpy(&_vb, __builtin_assume_aligned(                                   \
          &mx_lds[_s + W8_MX_IN(gw / 2u, _w, 1u, _r, 2u * ((gw % 2u) ^ (_r / 16u)))], 8), 8); \
      mx_sc[0] = tk_opaque(_va.x >> _sh);                                                \
      mx_sc[1] = tk_opaque(_va.y >> _sh);                                                \
      mx_sc[2] = tk_opaque(_va.z >> _sh);                                                \
      mx_sc[3] = tk_opaque(_va.w >> _sh);                                                \
      mx_sc[4] = tk_opaque(_vb.x >> _sh);                                                \
      mx_sc[5] = tk_opaque(_vb.y >> _sh);                                                \
    } else {                                                                             \
      W8_MX_COMMIT_ST(mx_st, 1u - ((uint32_t)ks / W8_MX_P) % 2u, (uint32_t)ks % W8_MX_P); \
      W8_MX_LOAD((uint32_t)(ks + 1) / W8_MX_P + 1, (uint32_t)(ks + 1) % W8_MX_P);        \
    }                                                                                    \
    (void)(kload);                                                                       \
  } while (0)

/* the K tail (K a multiple of 32 but not of the K step; gemm_8wave_body.h
 * stages each remaining half-step, zero past K, into LDS buffer 0): this
 * lane's 6 scale words for the half-step at byte k0, read from global (a
 * tail runs once per tile: no chunk pipeline), in the words' byte order for
 * W8_MX_MMA(0): fp8 byte 0 = block k0/32 + h, fp4 bytes 0 and 2 = blocks
 * 2*k0/32 + h and + 2 (lane group h = lane / 32).  Blocks past K hold only
 * zero elements: they get scale 1.0 (0x7f), so a NaN cannot come from
 * padding; rows past M or N take row M-1's (N-1's), as in the loop.  The
 * problem comes from the body's fresh argument read (ka): nothing more of it
 * is held across the loop. */
#define W8_MX_TAIL_MMA(k0)                                                               \
  do {                                                                                   \
    const uint32_t _l = tk_lane_id(), _r = _l % 32u;                                     \
    const int64_t _b0 = (k0) * W8_MX_EPB / 32 + _l / 32u;                                \
    _Pragma("unroll") for (int _i = 0; _i < W8_MX_NF; _i++) {                            \
      const bool _bt = _i >= W8_GM / 32;                                                 \
      const int64_t _g = _bt ? n0 + gn * (gw / 2u) + (gw % 2u) * wn + 32 * (_i - W8_GM / 32) + _r \
                             : m0 + gm * grp + 32 * _i + _r;                             \
      const int64_t _rows = _bt ? ka->p.n : ka->p.m;                                   \
      const uint8_t *_s = (const uint8_t *)(_bt ? ka->p.mx_scale_b : ka->p.mx_scale_a) + \
                          (z * _rows + (_g < _rows - 1 ? _g : _rows - 1)) * mx_kb;       \
      uint32_t _w = 0;                                                                   \
      _Pragma("unroll") for (int _q = 0; _q < W8_MX_EPB; _q++) {                         \
        const int64_t _blk = _b0 + 2 * _q;                                               \
        _w |= (uint32_t)(_blk < mx_kb ? _s[_blk] : 0x7fu) << (16 * _q);                  \
      }                                                                                  \
      mx_sc[_i] = _w;                                                                    \
    }                                                                                    \
    W8_MX_MMA(0);                                                                        \
  } while (0)

/* gfx950's memory cluster with its addresses held across the loop
 * (gemm_8wave.h W8_MEMORY_LEAN) and the MX hooks: the scale words or the
 * chunk's write and next load after the Bt batch (W8_NS loads per thread in
 * both commits' counts, as in W8_MEMORY).  The per-cluster address
 * arithmetic of W8_MEMORY (row checks, multiplies, exec masks per load)
 * was most of the MX loop's instructions. */
#define W8_MX_MEMORY_LEAN(cur, kload) W8_MX_MEM(cur, kload) /* per kernel: _HL or _WL */
#define W8_MX_MEMORY_HL(cur, kload)                                                      \
  do {                                                                                   \
    tk_prefetch_issue_b128_at(pa, sm.buf[0].a[0], pat_a, W8_BUFB(cur));                  \
    tk_prefetch_issue_b128_at(pb, sm.buf[0].b[0], pat_b, W8_BUFB(cur));                  \
    tk_load_commit_at(sa[1 - (cur)], la, W8_BUFB(1 - (cur)), nb + na + nb + W8_NS);      \
    tk_load_issue_at(sa[1 - (cur)], rma, la, W8_KOFF(kload));                            \
    W8_B_COMMIT_AT(1 - (cur), na + nb + na + W8_NS);                                     \
    W8_B_ISSUE_AT(1 - (cur), kload);                                                     \
    W8_MX_ISSUE(cur, kload);                                                             \
    tk_prefetch_wait_b128(fa, pa, 0);                                                    \
    tk_prefetch_wait_b128(fb, pb, 0);                                                    \
  } while (0)

/* Whole-line loads of the Bt operand (mxfp4; mx-s38's design,
 * /work/notes/s38/mx.md): the half-line cluster above loads a half-step as
 * 64-byte halves of 128-byte lines (lane l of a wave: row l/4, 16-byte chunk
 * l%4 of 16 rows), the next half-step's halves one memory cluster later;
 * under the model an L2 request costs a whole line (docs/gemm.md MX), so the
 * operands ask for twice the lines they use.  Here cluster 1 loads both of
 * Bt's half-steps of a K step at once, as whole lines: per load pair, X
 * covers rows r..r+7 and Y rows r+8..r+15, lanes 0-31 bytes 0-63 (even
 * half-step), lanes 32-63 bytes 64-127 (odd half-step) of the same rows.
 * tk_permlane32_swap (gfx950's v_permlane32_swap_b32) on each dword then
 * trades X's lanes 32-63 for Y's lanes 0-31: X = the even half-step of rows
 * r..r+15 and Y = the odd one, each in the half-line layout, so the LDS
 * commits (lb) and the LDS layout stay.  X goes to LDS buffer 0 in that
 * cluster 1; Y is held (sb[1]) and goes to buffer 1 in the next cluster 0
 * (buffer 1 is read by the other group until then).  Cost: 8 VALU swaps per
 * thread and K step and one more staging set (mx_yb, 8 VGPRs: 250 in all).
 * A keeps half lines: with both operands whole (16 more VGPRs) clang spilled
 * 246 VGPRs; Bt alone takes the L2's lines per CU and K step from 1024 + 64
 * to 768 + 64 (1664 clocks at 16 lines per clock per XCD, under the 2048
 * MFMA clocks).  Step 0 differs: the body's prologue leaves half-step 1 in
 * sb[1] (already there since mx-s40's whole-line prologue, below: the
 * counts for it only wait for less) and half-step 2 in flight in sb[0] as
 * half lines, so step 0's
 * cluster 0 loads half-step 3 as half lines into mx_yb, and its cluster 1
 * commits without swapping.
 * vmcnt (loads issued after the ones waited for), steady state: [A0 2][X_b
 * Y_b 4][scale 1] (cluster 1), [A1 2] (cluster 0); step 0: [scale][a2 b2
 * (prologue)][a3 y_b (cluster 0)].  Cluster 0: A1 waits with 7 as before;
 * the held Y commits with 9 (step 0: the prologue's half-step 1 exactly;
 * later steps: nothing to wait for).  Cluster 1: A0 7 (step 0: 6), Bt's X/Y
 * after the new A0 loads 5 (step 0: 2). */
#define W8_MX_WL_SETUP()                                                                 \
  W8_ID(w8_stb) mx_yb; /* Y: rows r+8..r+15 of each X's rows (above) */                 \
  uint32_t mx_wb[nb]; /* X's byte offsets (voffset, range checked) */                    \
  const uint32_t mx_pb = tk_gl_mview(&gb).pitch;                                         \
  (void)mx_yb, (void)mx_pb; /* (the host pass's W8_MEMORY: unused) */
/* this thread's X row offsets: chunk i of the half-line layout (rows j/4,
 * chunk j%4, j = gtid + 256 i) moved up 8 rows and over 64 bytes in lanes
 * 32-63; set in the prologue (after the body's held addresses) */
#define W8_MX_WL_OFF(r0, pitch, i, hl) /* hl: 1 for the half-line offset (step 0's half-step 3) */ \
  (((r0) + (tk_opaque(gtid) + 256u * (uint32_t)(i)) / 4u - (hl ? 0u : 8u * (tk_opaque(gtid) % 64u / 32u))) * (pitch) + \
   16u * (tk_opaque(gtid) % 4u) + (hl ? 0u : 64u * (tk_opaque(gtid) % 64u / 32u)))
#define W8_MX_WL_PROLOGUE0()                                                             \
  do {                                                                                   \
    const uint32_t _rb = tk_mat_row0(tk_gl_mview(&gb), n0 + gn * (int64_t)grp);         \
    _Pragma("unroll") for (int _i = 0; _i < nb; _i++) mx_wb[_i] = W8_MX_WL_OFF(_rb, mx_pb, _i, 0); \
  } while (0)
/* the whole-line loads of K step at byte column koff (even half-step),
 * clamped to the loop's last step (its line ends at the last byte the loop
 * reads: soffset is not range checked) */
#define W8_MX_WL_KOFF(k) ((uint32_t)((k) < klast - W8_KH ? (k) : klast - W8_KH) * (uint32_t)sizeof(W8_EL))
#define W8_MX_WL_ISSUE(S, Y, rs, w, pitch, n, koff)                                      \
  do {                                                                                   \
    _Pragma("unroll") for (int _i = 0; _i < (n); _i++) {                                 \
      (S).v[_i] = __builtin_bit_cast(tk_u32x4, tk_llvm_raw_buffer_load_i32x4((rs), (int32_t)(w)[_i], (int32_t)(koff), 0)); \
      (Y).v[_i] = __builtin_bit_cast(tk_u32x4, tk_llvm_raw_buffer_load_i32x4((rs), (int32_t)((w)[_i] + 8u * (pitch)), (int32_t)(koff), 0)); \
    }                                                                                    \
  } while (0)
/* step 0's half-step 3 into Y as half lines (addresses made afresh: not held) */
#define W8_MX_WL_ISSUE_HL(Y, rs, r0, pitch, n, koff)                                     \
  do {                                                                                   \
    _Pragma("unroll") for (int _i = 0; _i < (n); _i++)                                   \
      (Y).v[_i] = __builtin_bit_cast(tk_u32x4, tk_llvm_raw_buffer_load_i32x4((rs), (int32_t)W8_MX_WL_OFF(r0, pitch, _i, 1), \
                                                                             (int32_t)(koff), 0)); \
  } while (0)
#define W8_MX_WL_SWAP(S, Y, n)                                                           \
  do {                                                                                   \
    _Pragma("unroll") for (int _i = 0; _i < (n); _i++) {                                 \
      tk_permlane32_swap((S).v[_i].x, (Y).v[_i].x);                                      \
      tk_permlane32_swap((S).v[_i].y, (Y).v[_i].y);                                      \
      tk_permlane32_swap((S).v[_i].z, (Y).v[_i].z);                                      \
      tk_permlane32_swap((S).v[_i].w, (Y).v[_i].w);                                      \
    }                                                                                    \
  } while (0)
/* the prologue's half-steps 0 and 1 of both operands as whole lines (X into
 * set 0, Y into set 1, A's rows as Bt's), then swapped into the half-line
 * layout: the loop finds half-step 1 in set 1 as before, already there.
 * Lines per CU before the first MFMA stay 512 scales + 512 operands (the
 * swap waits for both halves, which are the same lines), but half-step 1's
 * 512 lines are not asked for again after them (mx-s40). */
#define W8_MX_WL_PROLOGUE_ISSUE(k)                                                       \
  do {                                                                                   \
    const uint32_t _ra = tk_mat_row0(tk_gl_mview(&ga), m0 + gm * (int64_t)grp), _pa = tk_gl_mview(&ga).pitch; \
    uint32_t _wa[na];                                                                    \
    _Pragma("unroll") for (int _i = 0; _i < na; _i++) _wa[_i] = W8_MX_WL_OFF(_ra, _pa, _i, 0); \
    W8_MX_WL_ISSUE(sa[0], sa[1], rma, _wa, _pa, na, W8_MX_WL_KOFF(k));                  \
    W8_MX_WL_ISSUE(sb[0], sb[1], rmb, mx_wb, mx_pb, nb, W8_MX_WL_KOFF(k));               \
  } while (0)
/* the scales' superchunk 0 (loaded first: LLVM waits for those 4 loads only)
 * is split and written while the operands are still on their way, and A is
 * swapped before Bt's loads are waited for: under the model (mx-s40
 * timeline, 8192^3) group 1's waves sat 0.47 us in the old vmcnt(0) here,
 * then wrote the scales, on the path to the first MFMA (mx-s41) */
#define W8_MX_WL_PROLOGUE_SWAP()                                                         \
  do {                                                                                   \
    W8_MX_PROLOGUE_WRITE();                                                              \
    TK_WAIT_VMCNT(2 * nb);                                                               \
    W8_MX_WL_SWAP(sa[0], sa[1], na);                                                     \
    TK_WAIT_VMCNT(0);                                                                    \
    W8_MX_WL_SWAP(sb[0], sb[1], nb);                                                     \
    W8_MX_WL_PIN();                                                                      \
  } while (0)
/* the loop's fragment addresses computed before the prologue's barrier (an
 * empty asm each): clang put them after it, where group 0's first memory
 * cluster and group 1's (then longer than group 0's first compute cluster:
 * a 0.11 us MFMA gap, mx-s40 timeline) paid for them (mx-s41) */
#define W8_MX_WL_PIN()                                                                   \
  do {                                                                                   \
    _Pragma("unroll") for (int _i = 0; _i < 2; _i++) {                                   \
      pat_a.tk_addr_[_i] = tk_opaque(pat_a.tk_addr_[_i]);                                \
      pat_b.tk_addr_[_i] = tk_opaque(pat_b.tk_addr_[_i]);                                \
    }                                                                                    \
  } while (0)
#define W8_MX_MEMORY_WL(cur, kload)                                                      \
  do {                                                                                   \
    tk_prefetch_issue_b128_at(pa, sm.buf[0].a[0], pat_a, W8_BUFB(cur));                  \
    tk_prefetch_issue_b128_at(pb, sm.buf[0].b[0], pat_b, W8_BUFB(cur));                  \
    if ((cur) == 0) {                                                                    \
      tk_load_commit_at(sa[1], la, W8_BUFB(1), nb + na + nb + W8_NS);                    \
      tk_load_issue_at(sa[1], rma, la, W8_KOFF(kload));                                  \
      if (ks == 0)                                                                       \
        W8_MX_WL_ISSUE_HL(mx_yb, rmb, tk_mat_row0(tk_gl_mview(&gb), n0 + gn * (int64_t)grp), mx_pb, nb, W8_KOFF(kload)); \
      W8_B_COMMIT_AT(1, W8_NS + na + nb + na + nb);                                      \
    } else {                                                                             \
      if (ks == 0) TK_WAIT_VMCNT(nb + na + nb);                                          \
      else TK_WAIT_VMCNT(2 * nb + W8_NS + na);                                           \
      tk_load_commit_at(sa[0], la, W8_BUFB(0), 2 * (na + nb) + W8_NS);                    \
      tk_load_issue_at(sa[0], rma, la, W8_KOFF(kload));                                  \
      if (ks == 0) TK_WAIT_VMCNT(na);                                                    \
      else {                                                                             \
        TK_WAIT_VMCNT(W8_NS + 2 * na);                                                   \
        W8_MX_WL_SWAP(sb[0], mx_yb, nb);                                                 \
      }                                                                                  \
      W8_B_COMMIT_AT(0, 2 * (na + nb) + W8_NS);                                          \
      sb[1] = mx_yb;                                                                     \
      W8_MX_WL_ISSUE(sb[0], mx_yb, rmb, mx_wb, mx_pb, nb, W8_MX_WL_KOFF(kload));          \
    }                                                                                    \
    W8_MX_ISSUE(cur, kload);                                                             \
    tk_prefetch_wait_b128(fa, pa, 0);                                                    \
    tk_prefetch_wait_b128(fb, pb, 0);                                                    \
  } while (0)

#define W8_KH W8M_KH
#define W8_TM W8M_TM
#define W8_TN W8M_TN
#define W8_EL uint8_t
#define W8_TT tk_fp8e4 /* the bytes of the MX elements (fp8-kind tiles) */
#define W8_KIND TK_K_A_FP8_32x32x16
#define W8_NO_STREAM_K

/* MXFP8 (E4M3, E5M2): one MFMA per half-step and fragment pair, scale byte
 * 0 in the first half-step, 2 in the second */
#define W8_MX_EPB 1
#define W8_MX_MEM W8_MX_MEMORY_HL /* half lines: mxfp8 meets its target with them (docs/gemm.md MX) */
#define W8_MX_K_SETUP()
#define W8_MX_K_PROLOGUE0() do { } while (0)
#define W8_MX_EARLY_WRITE 0
#define W8_PF tk_prefetch_issue_b128_k4
#define W8_PF_AT tk_prefetch_at_b128_k4
#define W8_MX_MMA(h) tk_mma_ABt_mx(acc, fa, fb, acc, mx_sc, mx_sc + W8_GM / 32, W8_MX_FMT, 2 * (h))

#define W8_MX_FMT TK_F8F6F4_FP8
#define W8_ID(x) W8_CAT(x, 256x128_mxfp8)
#define W8_KERNEL gemm_8wave_mxfp8
#include "gemm_8wave_body.h"
#undef W8_ID
#undef W8_KERNEL
#undef W8_MX_FMT

#define W8_MX_FMT TK_F8F6F4_BF8
#define W8_ID(x) W8_CAT(x, 256x128_mxbf8)
#define W8_KERNEL gemm_8wave_mxbf8
#include "gemm_8wave_body.h"
#undef W8_ID
#undef W8_KERNEL
#undef W8_MX_FMT

#undef W8_MX_EPB
#undef W8_MX_MEM
#undef W8_MX_K_SETUP
#undef W8_MX_K_PROLOGUE0
#undef W8_MX_EARLY_WRITE
#undef W8_PF
#undef W8_PF_AT
#undef W8_MX_MMA

/* MXFP4: a half-step is 128 elements, two MFMAs per fragment pair: half-step
 * hs's MFMA q takes byte hs + 2q of the step's word */
#define W8_MX_EPB 2
/* whole-line operand loads (W8_MX_MEMORY_WL above); -DGEMM_MX_FP4_HALF_LINES
 * builds the half-line cluster instead, for comparison */
#ifndef GEMM_MX_FP4_HALF_LINES
#define W8_MX_MEM W8_MX_MEMORY_WL
#define W8_MX_K_SETUP() W8_MX_WL_SETUP()
#ifndef GEMM_MX_FP4_PROLOGUE_HALF_LINES
#define W8_MX_WL_PROLOGUE_ISSUE_ON 1
#define W8_MX_EARLY_WRITE 1 /* W8_MX_WL_PROLOGUE_SWAP writes superchunk 0 */
#endif
#define W8_MX_K_PROLOGUE0() W8_MX_WL_PROLOGUE0()
#else
#define W8_MX_MEM W8_MX_MEMORY_HL
#define W8_MX_K_SETUP()
#define W8_MX_K_PROLOGUE0() do { } while (0)
#endif
#ifndef W8_MX_EARLY_WRITE
#define W8_MX_EARLY_WRITE 0
#endif
#define W8_PF tk_prefetch_issue_b128
#define W8_PF_AT tk_prefetch_at_b128
#define W8_MX_MMA(h) tk_mma_ABt_mx(acc, fa, fb, acc, mx_sc, mx_sc + W8_GM / 32, W8_MX_FMT, (h))
#define W8_MX_FMT TK_F8F6F4_FP4
#define W8_ID(x) W8_CAT(x, 256x128_mxfp4)
#define W8_KERNEL gemm_8wave_mxfp4
#include "gemm_8wave_body.h"
#undef W8_ID
#undef W8_KERNEL
#undef W8_MX_FMT
#undef W8_MX_EPB
#undef W8_MX_MEM
#undef W8_MX_K_SETUP
#undef W8_MX_K_PROLOGUE0
#undef W8_MX_WL_PROLOGUE_ISSUE_ON
#undef W8_MX_EARLY_WRITE
#undef W8_PF
#undef W8_PF_AT
#undef W8_MX_MMA

#undef W8_NO_STREAM_K
#undef W8_KH
#undef W8_TM
#undef W8_TN
#undef W8_EL
#undef W8_TT
#undef W8_KIND
#undef W8_MX
#undef W8_NS
#undef W8_MX_NF
#undef W8_MX_SETUP
#undef W8_MX_RHO
#undef W8_MX_P
#undef W8_MX_AL
#undef W8_MX_SLOTDW
#undef W8_MX_SLOT
#undef W8_MX_IN
#undef W8_MX_DUMMY
#undef W8_MX_LDSDW
#undef W8_MX_LOAD
#undef W8_MX_SPLIT
#undef W8_MX_PROLOGUE
#undef W8_MX_PROLOGUE_WRITE
#undef W8_MX_PROLOGUE0
#undef W8_MX_ISSUE
#undef W8_MX_SW
#undef W8_MX_FAST_PROLOGUE
#undef W8_MX_CS
#undef W8_MX_COMMIT_ST
#undef W8_MX_COMMIT_IF
#undef W8_MX_LOAD_IF
#undef W8_MX_TAKES
#undef W8_MX_PTAU
#undef W8_MX_MEMORY_LEAN
#undef W8_MX_MEMORY_HL
#undef W8_MX_MEMORY_WL
#undef W8_MX_WL_SETUP
#undef W8_MX_WL_OFF
#undef W8_MX_WL_PROLOGUE0
#undef W8_MX_WL_KOFF
#undef W8_MX_WL_ISSUE
#undef W8_MX_WL_ISSUE_HL
#undef W8_MX_WL_SWAP
#undef W8_MX_WL_PROLOGUE_ISSUE
#undef W8_MX_WL_PROLOGUE_SWAP
#undef W8_MX_WL_PIN
#undef W8_MX_TAIL_MMA
#else
/* gfx942 device pass: no block-scaled MFMAs; the host refuses MX there */
#define W8M_EMPTY(name)                                                                        \
  __global__ __launch_bounds__(512) void name(const uint8_t *__restrict__ a, const uint8_t *__restrict__ b, void *c, \
                                              tk_gemm_problem p, float *ws, int64_t kc, gemm_sk sk)               \
  {                                                                                            \
    (void)a, (void)b, (void)c, (void)p, (void)ws, (void)kc, (void)sk;                          \
  }
W8M_EMPTY(gemm_8wave_mxfp8)
W8M_EMPTY(gemm_8wave_mxbf8)
W8M_EMPTY(gemm_8wave_mxfp4)
#undef W8M_EMPTY
#endif

#endif /* GEMM_8WAVE_MX_KERNELS_H */
