/* Plain HIP main() around HipKittens' MI355X attention backward (kernels/
 * attn/bkwd of the CDNA4 fixture): attn_bkwd_prep.cpp's delta kernel, the
 * combined dQ/dK/dV kernel (attn_bkwd_{non_causal,causal}_{HBN,HNB}.cpp,
 * HK_KERNEL_FILE, filtered of its Python harness) and the prep file's dQ
 * shuffle, launched in that order and timed together, as the fixture's
 * test_python.py times them. The prep file is its own translation unit
 * (attn_bwd_prep_tu.hip). Shapes are compile-time (-DATTN_B/H/H_KV/N; D =
 * 128); HK_ATTN_CAUSAL says which file it is.
 *
 * Layouts (test_python.py): Q, dO, O, dQ (B, N, H, D); K, V, dK, dV (B, N,
 * H_KV, D), bf16; L and delta (B, H, 1, N) f32 (L: the forward's natural-log
 * log-sum-exp of the scaled scores); dQ is accumulated in (B, H, N, D) by
 * bf16 atomics, then shuffled. FLOPs = 2.5 x the forward's 4·B·N²·H·D
 * (halved for causal).
 *
 *   hk4_attn_bwd_<variant>_<shape> [--check] [--iters N] [--seed S] [--dump FILE]
 *
 * --check computes O and L on the CPU (double) as the backward's inputs and
 * compares dQ, dK, dV with a CPU double reference (every element; small
 * shapes only). Without --check, O and L are seeded values of the right
 * magnitude: the kernels' instruction streams do not depend on them (no
 * data-dependent branches), so timing runs need no forward pass.
 * Exit: 0 ok, 1 failure, 2 usage. */
#include <hip/hip_runtime.h>
#include HK_KERNEL_FILE

#include "hk_common.h"

#ifndef HK_ATTN_CAUSAL
#error "HK_ATTN_CAUSAL (0 or 1) must say whether HK_KERNEL_FILE is a causal kernel"
#endif

void hk_bwd_prep(void *o, void *d_o, float *delta);
void hk_bwd_dq_shuffle(void *dq_in, void *dq_out);

static const int64_t hb = ATTN_B, hh = ATTN_H, hkv = ATTN_H_KV, hn = ATTN_N, hd = ATTN_D;
static const int hcausal = HK_ATTN_CAUSAL;

static int usage(const char *msg, const char *arg)
{
  if (msg) fprintf(stderr, "%s: %s%s%s\n", hk_prog, msg, arg ? ": " : "", arg ? arg : "");
  fprintf(stderr,
          "usage: %s [--check] [--iters N] [--seed S] [--dump FILE]\n"
          "  HipKittens' MI355X attention backward (prep + dQ/dK/dV + dQ shuffle), B=%lld N=%lld H=%lld H_KV=%lld "
          "D=%lld %s\n"
          "  --check     CPU forward for O and L, then dQ, dK, dV against a CPU reference (every element;\n"
          "              B*H*N <= 8192 only); refused under tksim --model-sample\n"
          "  --iters N   timed backward passes (default 1)   --seed S  input seed (default 1)\n"
          "  --dump FILE write dQ, dK, dV's bytes to FILE (comparing tksim builds)\n",
          hk_prog, (long long)hb, (long long)hn, (long long)hh, (long long)hkv, (long long)hd,
          hcausal ? "causal" : "non-causal");
  return 2;
}

static double bfd(uint16_t h) { return hk_bf16_to_f32(h); }

/* relative L2 error of got (bf16) against ref (double), n values */
static double rel_l2(const uint16_t *got, const double *ref, size_t n)
{
  double e = 0, r = 0;
  for (size_t i = 0; i < n; ++i) {
    const double d = bfd(got[i]) - ref[i];
    e += d * d;
    r += ref[i] * ref[i];
  }
  return sqrt(e / (r > 0 ? r : 1));
}

int main(int argc, char **argv)
{
  hk_prog = argv[0] && strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : "hk4_attn_bwd";
  int check = 0;
  const char *dump = NULL;
  int64_t iters = 1, seed = 1;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--check")) check = 1;
    else if (!strcmp(a, "--dump")) {
      if (i + 1 >= argc) return usage("missing value after", a);
      dump = argv[++i];
    }
    else if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(NULL, NULL), 0;
    else if (!strcmp(a, "--iters") || !strcmp(a, "--seed")) {
      if (i + 1 >= argc) return usage("missing value after", a);
      if (!hk_parse_int(argv[++i], !strcmp(a, "--iters") ? 1 : 0, !strcmp(a, "--iters") ? &iters : &seed))
        return usage("bad number", argv[i]);
    } else
      return usage("unknown option", a);
  }
  if (check && hk_sampled()) {
    fprintf(stderr, "%s: --check is refused under tksim --model-sample (unsimulated workgroups compute nothing)\n",
            hk_prog);
    return 2;
  }
  if (check && hb * hh * hn > 8192) {
    fprintf(stderr, "%s: --check is for small shapes (B*H*N <= 8192; this one has %lld rows): the CPU reference "
                    "is quadratic in N\n", hk_prog, (long long)(hb * hh * hn));
    return 2;
  }
  const double flops = 2.5 * 4.0 * hb * (double)hn * hn * hh * hd / (hcausal ? 2 : 1);
  printf("kernel: HipKittens attn_bwd B=%lld N=%lld H=%lld H_KV=%lld D=%lld causal=%d\n", (long long)hb,
         (long long)hn, (long long)hh, (long long)hkv, (long long)hd, hcausal);
  const size_t nq = (size_t)hb * hn * hh * hd, nkv = (size_t)hb * hn * hkv * hd, nl = (size_t)hb * hh * hn;
  /* host copies of the inputs and gradients only for --check: Q, K, V, dO
   * (and, for timing, O and L) are written on the device (hk_gen_run),
   * which at N = 16384 saves 5-8 GB of host memory */
  uint16_t *q = NULL, *k = NULL, *v = NULL, *dout = NULL, *o = NULL, *dq = NULL, *dk = NULL, *dv = NULL;
  float *l = NULL;
  if (check) {
    l = (float *)malloc(nl * 4);
    q = (uint16_t *)malloc(nq * 2), k = (uint16_t *)malloc(nkv * 2), v = (uint16_t *)malloc(nkv * 2);
    dout = (uint16_t *)malloc(nq * 2), o = (uint16_t *)malloc(nq * 2), dq = (uint16_t *)malloc(nq * 2);
    dk = (uint16_t *)malloc(nkv * 2), dv = (uint16_t *)malloc(nkv * 2);
  }
  if (check && (!l || !q || !k || !v || !dout || !o || !dq || !dk || !dv)) {
    fprintf(stderr, "%s: out of host memory\n", hk_prog);
    return 1;
  }
  bf16 *d_q, *d_k, *d_v, *d_do, *d_o, *d_dqin, *d_dq, *d_dk, *d_dv;
  float *d_l, *d_delta;
  HK_CHECK_HIP(hipMalloc((void **)&d_q, nq * 2));
  HK_CHECK_HIP(hipMalloc((void **)&d_k, nkv * 2));
  HK_CHECK_HIP(hipMalloc((void **)&d_v, nkv * 2));
  HK_CHECK_HIP(hipMalloc((void **)&d_do, nq * 2));
  HK_CHECK_HIP(hipMalloc((void **)&d_o, nq * 2));
  HK_CHECK_HIP(hipMalloc((void **)&d_dqin, nq * 2));
  HK_CHECK_HIP(hipMalloc((void **)&d_dq, nq * 2));
  HK_CHECK_HIP(hipMalloc((void **)&d_dk, nkv * 2));
  HK_CHECK_HIP(hipMalloc((void **)&d_dv, nkv * 2));
  HK_CHECK_HIP(hipMalloc((void **)&d_l, nl * 4));
  HK_CHECK_HIP(hipMalloc((void **)&d_delta, nl * 4));
  uint64_t st = (uint64_t)seed;
  /* written on the device, as the fixture's torch.randn (hk_gen_run) */
  hk_gen_add(d_q, nq, &st, 1.0, 0.0, 0, q);
  hk_gen_add(d_k, nkv, &st, 1.0, 0.0, 0, k);
  hk_gen_add(d_v, nkv, &st, 1.0, 0.0, 0, v);
  hk_gen_add(d_do, nq, &st, 1.0, 0.0, 0, dout);
  if (!check) {
    /* timing only: O of the size a softmax average has, L about ln N; on the
     * device, as the fixture's forward writes them */
    hk_gen_add(d_o, nq, &st, 0.1, 0.0, 0, NULL);
    hk_gen_add(d_l, nl, &st, 0.5, log((double)hn), 1, NULL);
  }
  if (hk_gen_run()) return 1;
  const double scale = 1.0 / sqrt((double)hd);
  const int64_t grp = hh / hkv;
  double *p = NULL; /* check: P for every (b, h) matrix, row-major N x N */
  if (check) {
    /* the forward in double: O (rounded to bf16, as the forward stores it) and L */
    p = (double *)malloc((size_t)hb * hh * hn * hn * sizeof(double));
    if (!p) { fprintf(stderr, "%s: out of host memory\n", hk_prog); return 1; }
    for (int64_t b = 0; b < hb; ++b)
      for (int64_t h = 0; h < hh; ++h)
        for (int64_t i = 0; i < hn; ++i) {
          double *pr = p + (((size_t)b * hh + h) * hn + i) * hn, m = -INFINITY, sum = 0;
          for (int64_t j = 0; j < hn; ++j) {
            if (hcausal && j > i) { pr[j] = -INFINITY; continue; }
            double acc = 0;
            for (int64_t d = 0; d < hd; ++d)
              acc += bfd(q[((b * hn + i) * hh + h) * hd + d]) * bfd(k[((b * hn + j) * hkv + h / grp) * hd + d]);
            pr[j] = acc * scale;
            if (pr[j] > m) m = pr[j];
          }
          for (int64_t j = 0; j < hn; ++j) sum += (pr[j] = (hcausal && j > i) ? 0 : exp(pr[j] - m));
          for (int64_t j = 0; j < hn; ++j) pr[j] /= sum;
          l[(b * hh + h) * hn + i] = (float)(m + log(sum));
          for (int64_t d = 0; d < hd; ++d) {
            double acc = 0;
            for (int64_t j = 0; j < hn; ++j) acc += pr[j] * bfd(v[((b * hn + j) * hkv + h / grp) * hd + d]);
            o[((b * hn + i) * hh + h) * hd + d] = hk_f32_to_bf16((float)acc);
          }
        }
    HK_CHECK_HIP(hipMemcpy(d_o, o, nq * 2, hipMemcpyHostToDevice));
    HK_CHECK_HIP(hipMemcpy(d_l, l, nl * 4, hipMemcpyHostToDevice));
  }
  /* dQ accumulates by atomics from zero. test_python.py zeroes dQ_in, dQ,
   * dK, dV and delta (torch.zeros_like) right before every timed pass: ~270
   * MB of device writes that, under tksim's model, also push the inputs out
   * of the 256 MB Infinity Cache, as on the MI355X the figures were timed on
   * (hipMemset's writes go into the modeled cache). Unwritten outputs are
   * NaN for --check and --dump instead; zero fills cost no host memory
   * (sim/runtime/memory_api.c). */
  HK_CHECK_HIP(hipMemset(d_dqin, 0, nq * 2));
  const int fill = check || dump ? 0xff : 0;
  HK_CHECK_HIP(hipMemset(d_dq, fill, nq * 2));
  HK_CHECK_HIP(hipMemset(d_dk, fill, nkv * 2));
  HK_CHECK_HIP(hipMemset(d_dv, fill, nkv * 2));
  if (!check && !dump) HK_CHECK_HIP(hipMemset(d_delta, 0, nl * 4));

  using G4 = gl<bf16, -1, -1, -1, -1>;
  using F4 = gl<float, -1, -1, -1, -1>;
  attn_bwd_combined_globals<ATTN_D> g{G4{d_q, (int)hb, (int)hn, (int)hh, (int)hd},
                                      G4{d_k, (int)hb, (int)hn, (int)hkv, (int)hd},
                                      G4{d_v, (int)hb, (int)hn, (int)hkv, (int)hd},
                                      G4{d_do, (int)hb, (int)hn, (int)hh, (int)hd},
                                      G4{d_dqin, (int)hb, (int)hh, (int)hn, (int)hd},
                                      G4{d_dk, (int)hb, (int)hn, (int)hkv, (int)hd},
                                      G4{d_dv, (int)hb, (int)hn, (int)hkv, (int)hd},
                                      F4{d_l, (int)hb, (int)hh, 1, (int)hn},
                                      F4{d_delta, (int)hb, (int)hh, 1, (int)hn}, 0};
  const dim3 grid = g.grid(), block = g.block();
  printf("launch: dQ/dK/dV kernel grid %u x %u x %u groups, %u threads, %zu B dynamic LDS (+ prep and dQ shuffle)\n",
         grid.x, grid.y, grid.z, block.x, g.dynamic_shared_memory());
  hipEvent_t e0, e1;
  HK_CHECK_HIP(hipEventCreate(&e0));
  HK_CHECK_HIP(hipEventCreate(&e1));
  const double w0 = hk_wall_ms();
  HK_CHECK_HIP(hipEventRecord(e0, 0));
  for (int64_t i = 0; i < iters; ++i) {
    if (i) HK_CHECK_HIP(hipMemsetAsync(d_dqin, 0, nq * 2, 0));
    hk_bwd_prep(d_o, d_do, d_delta);
    dispatch_bwd_combined<ATTN_D>(g);
    hk_bwd_dq_shuffle(d_dqin, d_dq);
  }
  HK_CHECK_HIP(hipGetLastError());
  HK_CHECK_HIP(hipEventRecord(e1, 0));
  HK_CHECK_HIP(hipEventSynchronize(e1));
  const double w1 = hk_wall_ms();
  float ev_ms = 0;
  HK_CHECK_HIP(hipEventElapsedTime(&ev_ms, e0, e1));
  HK_CHECK_HIP(hipDeviceSynchronize());
  if (dump) {
    const void *const bufs[] = {d_dq, d_dk, d_dv};
    const size_t sizes[] = {nq * 2, nkv * 2, nkv * 2};
    if (hk_dump(dump, 3, bufs, sizes)) return 1;
  }
  int rc = hk_report_time(ev_ms, w1 - w0, iters, 0, flops, "TFLOP/s");

  if (check) {
    HK_CHECK_HIP(hipMemcpy(dq, d_dq, nq * 2, hipMemcpyDeviceToHost));
    HK_CHECK_HIP(hipMemcpy(dk, d_dk, nkv * 2, hipMemcpyDeviceToHost));
    HK_CHECK_HIP(hipMemcpy(dv, d_dv, nkv * 2, hipMemcpyDeviceToHost));
    double *rq = (double *)calloc(nq, sizeof(double)), *rk = (double *)calloc(nkv, sizeof(double)),
           *rv = (double *)calloc(nkv, sizeof(double));
    if (!rq || !rk || !rv) { fprintf(stderr, "%s: out of host memory\n", hk_prog); return 1; }
    /* dV_j = Σ_i P_ij dO_i; dP_ij = dO_i·V_j; dS_ij = P_ij (dP_ij − Δ_i),
     * Δ_i = dO_i·O_i (with the bf16 O the kernel reads); dQ_i = scale Σ_j
     * dS_ij K_j; dK_j = scale Σ_i dS_ij Q_i (GQA: summed over the group) */
    for (int64_t b = 0; b < hb; ++b)
      for (int64_t h = 0; h < hh; ++h) {
        const int64_t kh = h / grp;
        for (int64_t i = 0; i < hn; ++i) {
          const double *pr = p + (((size_t)b * hh + h) * hn + i) * hn;
          const size_t qi = ((b * hn + i) * hh + h) * hd;
          double delta = 0;
          for (int64_t d = 0; d < hd; ++d) delta += bfd(dout[qi + d]) * bfd(o[qi + d]);
          for (int64_t j = 0; j < hn; ++j) {
            if (pr[j] == 0) continue;
            const size_t kj = ((b * hn + j) * hkv + kh) * hd;
            double dp = 0;
            for (int64_t d = 0; d < hd; ++d) dp += bfd(dout[qi + d]) * bfd(v[kj + d]);
            const double ds = pr[j] * (dp - delta);
            for (int64_t d = 0; d < hd; ++d) {
              rv[kj + d] += pr[j] * bfd(dout[qi + d]);
              rq[qi + d] += scale * ds * bfd(k[kj + d]);
              rk[kj + d] += scale * ds * bfd(q[qi + d]);
            }
          }
        }
      }
    /* bf16 results (2^-8 each) of f32 sums; dQ's partial sums, one per KV
     * block of 256, are added in bf16 by atomics (2^-8 per addition): limits
     * on the relative L2 error, 2^-6 for dK and dV, 2^-5 for dQ; a wrong
     * gradient (layout, head, mask, scale) errs by order 1 */
    const double eq = rel_l2(dq, rq, nq), ek = rel_l2(dk, rk, nkv), ev = rel_l2(dv, rv, nkv);
    const int ok = eq <= 1.0 / 32 && ek <= 1.0 / 64 && ev <= 1.0 / 64;
    printf("check: dQ, dK, dV (all %zu + %zu + %zu elements) against a CPU double reference (forward on the CPU); "
           "relative L2 error dQ %.2e (limit 2^-5), dK %.2e, dV %.2e (limit 2^-6)\n", nq, nkv, nkv, eq, ek, ev);
    printf("check: %s\n", ok ? "PASSED" : "FAILED");
    if (!ok) rc = 1;
    free(rq), free(rk), free(rv);
  }
  free(p);
  HK_CHECK_HIP(hipFree(d_q));
  HK_CHECK_HIP(hipFree(d_k));
  HK_CHECK_HIP(hipFree(d_v));
  HK_CHECK_HIP(hipFree(d_do));
  HK_CHECK_HIP(hipFree(d_o));
  HK_CHECK_HIP(hipFree(d_dqin));
  HK_CHECK_HIP(hipFree(d_dq));
  HK_CHECK_HIP(hipFree(d_dk));
  HK_CHECK_HIP(hipFree(d_dv));
  HK_CHECK_HIP(hipFree(d_l));
  HK_CHECK_HIP(hipFree(d_delta));
  free(q), free(k), free(v), free(dout), free(o), free(dq), free(dk), free(dv), free(l);
  return rc;
}
