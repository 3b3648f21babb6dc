/* test_extrapolate: the model's whole-GPU arithmetic against hand-derived
 * figures. Occupancy: gfx942 has a unified 512-register VGPR+AGPR file per
 * SIMD lane and at most 8 waves per SIMD (AMDGPUUsage), 64 KiB LDS per CU;
 * a wave uses accum_offset + AGPRs registers in granules of 8. Rounds: a CU
 * running n groups k at a time needs ceil(n/k) rounds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"

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
  printf("%s\n", fails ? "FAILED" : "PASSED");
  return fails != 0;
}
