/* params.h: every number tksim's timing model uses, in one table per SKU
 * (params.c), each with its source or marked as an assumption.
 *
 * Sources: AMD CDNA3 white paper and MI300X/MI325X product pages (CU count,
 * clock, HBM bandwidth, peak matrix rates), CDNA3 ISA guide (4 SIMDs per CU,
 * MFMA dependency wait states, s_nop), AMD matrix instruction calculator
 * (MFMA execution cycles = FLOPs / (FLOPs/CU/cycle / 4)); for CDNA4
 * (MI350X/MI355X, gfx950) the MI350 series product pages and AMD's ISSCC 2026
 * MI355X paper (params.c has each figure).
 */
#ifndef TKS_MODEL_PARAMS_H
#define TKS_MODEL_PARAMS_H

#include <stdint.h>

typedef struct tks_model_params {
  const char *name;
  /* whole GPU */
  uint32_t cus;              /* compute units */
  double clock_hz;           /* engine clock the model runs at: under MFMA load */
  double peak_clock_hz;      /* documented peak engine clock (the peak rates' basis) */
  double hbm_bytes_per_s;    /* peak HBM bandwidth */
  uint32_t xcds;             /* accelerator dies, each with its own L2 */
  /* per CU */
  uint32_t simds;
  uint32_t max_waves_per_simd;
  uint32_t vgprs_per_simd_lane; /* unified VGPR+AGPR file, registers per lane */
  uint32_t lds_bytes;
  uint32_t max_groups_per_cu;
  /* issue and pipes (cycles) */
  double issue_cycles;       /* a wave issues at most once per this many clocks */
  double valu_cycles;        /* wave64 VALU op on a 16-lane SIMD */
  double valu_slow_cycles;   /* f64 / transcendental VALU */
  /* VALU instructions a SIMD issues per issue cycle (issue_cycles clocks),
   * each from a different wave: 2 on CDNA3/CDNA4 (VALU dual issue, params.c).
   * A wave still issues at most one instruction per issue cycle. */
  double valu_per_issue;
  /* 1: a wave's MFMA holds its next VALU ops (gfx942/gfx950, params.c):
   * XDL MFMAs for 1 + (widest A/B source bytes) / 16 issue slots, and
   * v_pk_{add,fma,mul}_f32 / v_pk_mov_b32 / dot ops until passes + 2 slots;
   * f32/f64 MFMAs every VALU op until passes + 2. 0: no hold. */
  int mfma_valu_hold;
  double salu_cycles;
  double nop_wait_state_cycles;
  double mfma_flops_per_simd_clk[7]; /* by input type, see enum below */
  /* CDNA4 doubles the rate of its new shapes only (16x16x32 / 32x32x16
   * f16/bf16, 16x16x64 / 32x32x32 i8, f8f6f4); the CDNA3 shapes it keeps run
   * at this rate (CDNA3 parts: the same as above). */
  double mfma_legacy_flops_per_simd_clk[7];
  double mfma_min_cycles;
  double mfma_dep_tail_cycles; /* extra latency before a non-SrcC read of an MFMA result */
  double lds_bytes_per_clk;  /* per CU */
  double lds_latency;
  double smem_latency;
  double l2_hit_latency;     /* load-to-use of an L2 hit, clocks */
  double hbm_latency_s;      /* load-to-use of an L2 and MALL miss (HBM), seconds: the model converts at clock_hz */
  double cu_bytes_per_clk;   /* a CU's vector-memory request path (L1/TA) */
  double l2_bytes_per_clk_per_xcd;
  uint32_t l2_bytes_per_xcd, l2_ways, line_bytes;
  /* An L2 miss reads only the sectors of the line the access needs, in
   * units of this many bytes (params.c); 0: whole lines. */
  uint32_t l2_sector_bytes;
  /* Infinity Cache (MALL): memory-side cache in front of HBM (model.c) */
  uint64_t mall_bytes;       /* whole GPU; 0: none */
  uint32_t mall_ways;
  double mall_bytes_per_s;   /* peak, whole GPU */
  double mall_latency_s;     /* load-to-use latency of a MALL hit */
  double barrier_cycles;
  double launch_overhead_s;
} tks_model_params;

/* TKS_MT_F4: gfx950 f8f6f4 MFMAs whose A and B are both fp6/bf6/fp4 (one
 * fp8/bf8 operand makes the instruction run at the fp8 rate). */
enum { TKS_MT_F16 = 0, TKS_MT_F32, TKS_MT_XF32, TKS_MT_F64, TKS_MT_I8, TKS_MT_F8, TKS_MT_F4 };

/* The table for a SKU id (TKS_MODEL_MI300X ... TKS_MODEL_MI355X), or NULL. */
const tks_model_params *tks_model_params_for(int sku);

#endif
