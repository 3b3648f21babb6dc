/* test_extrapolate: the model's whole-GPU arithmetic against hand-derived
 * figures. Occupancy: gfx942 has a unified 512-register VGPR+AGPR file per
 * SIMD lane and at most 8 waves per SIMD (AMDGPUUsage), 64 KiB LDS per CU;
 * a wave uses accum_offset + AGPRs registers in granules of 8. Rounds: a CU
 * running n groups k at a time needs ceil(n/k) rounds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "model/sample.h"

static int fails;
#define EXPECT(c, ...)                                   \
  do {                                                   \
    if (!(c)) { printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); fails++; } \
  } while (0)

int main(void)
{
  const tks_model_params *p = tks_model_params_for(TKS_MODEL_MI300X), *q = tks_model_params_for(TKS_MODEL_MI325X);
  EXPECT(p && q, "both SKUs have tables");
  EXPECT(!tks_model_params_for(0) && !tks_model_params_for(99), "unknown SKU ids give NULL");
  /* product pages: 1307.4 TFLOP/s dense bf16 = 304 CUs x 2.1 GHz x 2048 */
  double peak = p->cus * p->peak_clock_hz * p->simds * p->mfma_flops_per_simd_clk[TKS_MT_F16];
  EXPECT(fabs(peak / 1307.4e12 - 1) < 0.001, "bf16 peak %.1f TFLOP/s", peak / 1e12);
  /* the model runs below the peak clock: AMD's measured 1207 MHz (MI300X),
   * 1340 MHz fitted (MI325X), docs/tksim-model.md */
  EXPECT(p->clock_hz == 1207e6 && q->clock_hz == 1340e6 && q->peak_clock_hz == 2100e6, "clocks");
  /* achievable HBM: AMD's measured 4017 GB/s on MI300X (of 5.3 TB/s), the
   * same share of MI325X's 6 TB/s */
  EXPECT(fabs(p->hbm_bytes_per_s - 4.017e12) < 1e6 && fabs(q->hbm_bytes_per_s - 6.0e12 * 4017 / 5300) < 1e6,
         "HBM bandwidths %.4g %.4g", p->hbm_bytes_per_s, q->hbm_bytes_per_s);

  /* CDNA4 (MI355X / MI350X product pages): 256 CUs in 8 XCDs; dense BF16
   * 2516.6 / 2306.9, FP8 5033.2 / 4613.7, MXFP4 10066.3 / 9227.5 TFLOP/s at
   * 2400 / 2200 MHz; 8 TB/s HBM3E; 4 MB L2 per XCD; 160 KB LDS per CU */
  const tks_model_params *x5 = tks_model_params_for(TKS_MODEL_MI355X), *x0 = tks_model_params_for(TKS_MODEL_MI350X);
  EXPECT(x5 && x0, "both CDNA4 SKUs have tables");
  if (x5 && x0) {
    const tks_model_params *c4[2] = {x5, x0};
    const double bf16[2] = {2516.6e12, 2306.9e12}, fp8[2] = {5033.2e12, 4613.7e12}, fp4[2] = {10066.3e12, 9227.5e12};
    for (int i = 0; i < 2; i++) {
      const tks_model_params *c = c4[i];
      double per = c->cus * c->peak_clock_hz * c->simds;
      EXPECT(fabs(per * c->mfma_flops_per_simd_clk[TKS_MT_F16] / bf16[i] - 1) < 0.001, "%s bf16 peak", c->name);
      EXPECT(fabs(per * c->mfma_flops_per_simd_clk[TKS_MT_F8] / fp8[i] - 1) < 0.001, "%s fp8 peak", c->name);
      EXPECT(fabs(per * c->mfma_flops_per_simd_clk[TKS_MT_F4] / fp4[i] - 1) < 0.001, "%s fp4 peak", c->name);
      EXPECT(c->cus == 256 && c->xcds == 8 && c->lds_bytes == 160 * 1024 && c->l2_bytes_per_xcd == 4u << 20,
             "%s die facts", c->name);
      /* assumption (docs/tksim-model.md): MI325X's measured clock share
       * (1447/2100) under MFMA load; HBM fitted (model v7, docs/tksim-model.md
       * "Model v7"): 4.0 TB/s; Infinity Cache 256 MB (product page) */
      EXPECT(fabs(c->clock_hz / c->peak_clock_hz - 1447.0 / 2100) < 1e-9, "%s clock", c->name);
      EXPECT(fabs(c->hbm_bytes_per_s - 4.0e12) < 1e6, "%s HBM", c->name);
      EXPECT(c->mall_bytes == 256ull << 20, "%s Infinity Cache", c->name);
    }
    EXPECT(x5->peak_clock_hz == 2400e6 && x0->peak_clock_hz == 2200e6, "CDNA4 peak clocks");
    /* 160 KiB of LDS: two 64 KiB groups fit where gfx942 fits one */
    tks_kernel k4;
    memset(&k4, 0, sizeof k4);
    k4.vgpr_count = 32;
    EXPECT(tks_model_groups_per_cu(x5, &k4, 4, 64 * 1024) == 2, "MI355X LDS-limited: %u",
           tks_model_groups_per_cu(x5, &k4, 4, 64 * 1024));
  }

  tks_kernel k;
  memset(&k, 0, sizeof k);
  /* 128 VGPRs + 128 AGPRs -> 256 registers -> 2 waves/SIMD; 4-wave groups
   * put 1 wave on each SIMD -> 2 groups per CU */
  k.vgpr_count = 128; k.agpr_count = 128; k.accum_offset = 128;
  EXPECT(tks_model_groups_per_cu(p, &k, 4, 0) == 2, "256 regs, 4 waves: %u", tks_model_groups_per_cu(p, &k, 4, 0));
  /* 8-wave groups: 2 waves per SIMD -> 1 group */
  EXPECT(tks_model_groups_per_cu(p, &k, 8, 0) == 1, "256 regs, 8 waves");
  /* LDS 48 KiB of 64 -> 1 group even with few registers */
  k.vgpr_count = 32; k.agpr_count = 0;
  EXPECT(tks_model_groups_per_cu(p, &k, 4, 48 * 1024) == 1, "LDS-limited");
  /* 32 VGPRs -> 16 by registers, capped at 8 waves/SIMD -> 8 groups of 4 waves */
  EXPECT(tks_model_groups_per_cu(p, &k, 4, 0) == 8, "wave-limited: %u", tks_model_groups_per_cu(p, &k, 4, 0));
  /* 30 VGPRs round up to 32 */
  k.vgpr_count = 100; /* -> 104 -> 4 waves/SIMD */
  EXPECT(tks_model_groups_per_cu(p, &k, 4, 0) == 4, "100 VGPRs: %u", tks_model_groups_per_cu(p, &k, 4, 0));

  /* --model-sample (docs/tksim-model.md "Sampling"): XCD 0's first rounds
   * are simulated and scaled by whole rounds of its slots. 38 slots, 128
   * groups on the XCD (8192^3 8wave: 1024 tiles / 8) = 4 rounds; one round
   * simulated ending at 1000 cycles -> 4000. */
  EXPECT(tks_model_sampled_cycles(1000, 38, 128, 38) == 4000, "one of four rounds");
  /* two rounds simulated (76 groups) of 4 -> x2 */
  EXPECT(tks_model_sampled_cycles(1500, 76, 128, 38) == 3000, "two of four rounds");
  /* everything simulated: the figure as is */
  EXPECT(tks_model_sampled_cycles(1234, 128, 128, 38) == 1234, "all simulated");
  EXPECT(tks_model_sampled_cycles(1234, 0, 128, 38) == 1234, "nothing simulated: no scaling");
  /* the list-scheduled form: equal groups give the round-scaled figure */
  {
    double sf[38], d[38];
    for (int i = 0; i < 38; i++) sf[i] = 1000, d[i] = 1000;
    EXPECT(tks_model_sampled_cycles_list(sf, 38, d, 38, 128) == 4000, "list: one of four rounds");
    /* 2 slots, a repeating pattern 1,3 (sampled: slot 0 ran 1, slot 1 ran 3):
     * groups 2..5 last 1,3,1,3; slot 0 frees at 1 -> 2 (g2), 2 -> 5 (g3),
     * slot 1 frees at 3 -> 4 (g4), 4 -> 7 (g5): 7, where whole rounds at the
     * longest would give 3 x 3 = 9 */
    double sf2[2] = {1, 3}, d2[2] = {1, 3};
    EXPECT(tks_model_sampled_cycles_list(sf2, 2, d2, 2, 6) == 7, "list: unequal groups");
    double sf3[2] = {5, 6}, d3[2] = {5, 6};
    EXPECT(tks_model_sampled_cycles_list(sf3, 2, d3, 2, 2) == 6, "list: all simulated");
  }
  /* --model-spread (sim/model/sample.c): chunks of `slots` places, the first
   * at 0, the last at period - slots, evenly spaced; places between take the
   * chunks' means interpolated linearly between their centres; the list is
   * list-scheduled from 0. */
  {
    tks_spread sp;
    EXPECT(tks_spread_period_x(1024, 8) == 128 && tks_spread_period_x(12, 8) == 3 && tks_spread_period_x(0, 8) == 0,
           "period in XCD 0's list: lcm(G, 8) / 8");
    EXPECT(!tks_spread_plan(&sp, 256, 0, 38, 7), "7 rounds of 38 cover 256 places: no spreading");
    EXPECT(!tks_spread_plan(&sp, 2048, 128, 32, 4), "4 rounds of 32 cover a period of 128: no spreading");
    EXPECT(tks_spread_plan(&sp, 256, 0, 38, 3) && sp.period == 256 && sp.chunks == 3, "3 chunks over 256 places");
    EXPECT(tks_spread_pick(&sp, 0) == 0 && tks_spread_pick(&sp, 37) == 37 && tks_spread_pick(&sp, 38) == 109 &&
           tks_spread_pick(&sp, 75) == 146 && tks_spread_pick(&sp, 76) == 218 && tks_spread_pick(&sp, 113) == 255,
           "chunks start at 0, (256-38)/2 = 109, 218");
    /* 10 places on 2 slots, chunks {0,1} of 4 cycles and {8,9} of 2: places
     * 2..7 interpolate between 4 at 0.5 and 2 at 8.5: 3.625 3.375 3.125 2.875
     * 2.625 2.375. Slots: 4|4, 7.625 (g2, slot 0) 7.375 (g3, 1), 10.5 (g4, 1)
     * 10.5 (g5, 0), 13.125 (g6, 0: tie, lower slot), 12.875 (g7, 1), 14.875
     * (g8, 1), 15.125 (g9, 0) */
    EXPECT(tks_spread_plan(&sp, 10, 0, 2, 2), "2 chunks over 10 places");
    uint64_t pos[4] = {9, 0, 8, 1};
    double dur[4] = {2, 4, 2, 4};
    EXPECT(tks_spread_cycles(&sp, pos, dur, 4) == 15.125, "spread composition %g", tks_spread_cycles(&sp, pos, dur, 4));
    uint64_t bad[4] = {9, 0, 7, 1};
    EXPECT(tks_spread_cycles(&sp, bad, dur, 4) < 0, "a place outside the chunks is refused");
    /* a period of 4 places in a list of 12: places 4..11 repeat 0..3 */
    EXPECT(tks_spread_plan(&sp, 12, 4, 1, 2) && sp.period == 4, "period 4 of 12");
    uint64_t pp[2] = {0, 3};
    double pd[2] = {3, 1};
    /* one slot: 3 + (3 - 2/3) + (3 - 4/3) + 1 = 8, three periods: 24 */
    EXPECT(fabs(tks_spread_cycles(&sp, pp, pd, 2) - 24) < 1e-12, "periodic composition %g",
           tks_spread_cycles(&sp, pp, pd, 2));
  }
  printf("%s\n", fails ? "FAILED" : "PASSED");
  return fails != 0;
}
