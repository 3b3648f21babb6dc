/* params.c: the timing model's parameter table (one row per SKU), each value
 * with its source. "ASSUMPTION" marks values not taken from a document; they
 * are round figures of the order public microbenchmarks report and are the
 * first thing to recalibrate against a real MI300X/MI325X.
 *
 * Peak rates (CDNA3 white paper, "AMD Instinct MI300X" product page): dense
 * FP16/BF16 matrix 1307.4 TFLOP/s, FP8/INT8 2614.9, TF32 653.7, FP32 matrix
 * 163.4, FP64 matrix 163.4, at 304 CUs x 2100 MHz. Divided by 304 x 2.1e9 x 4
 * SIMDs these give 512/1024/256/64/64 FLOP per SIMD per clock, which is what
 * the AMD matrix instruction calculator lists per instruction (e.g. CDNA3
 * v_mfma_f32_16x16x32_fp8_fp8: 16384 FLOPs, 16 execution cycles, 4096
 * FLOPs/CU/cycle).
 */
#include "model/params.h"
#include "tksim.h"

#define MIB (1024u * 1024u)

static const tks_model_params g_mi300x = {
  .name = "mi300x",
  .cus = 304,                 /* CDNA3 white paper: 8 XCDs x 38 active CUs */
  /* The engine clock under MFMA load, not the 2100 MHz peak: AMD measured a
   * median of 1207 MHz during MI300X's max-achievable BF16 GEMM (hipblaslt-bench,
   * 750 W; ROCm blog "Measuring max-achievable FLOPs, part 2"). */
  .clock_hz = 1207e6,
  .peak_clock_hz = 2100e6,    /* MI300X/MI325X product pages: peak engine clock */
  /* Achievable, not the 5.3 TB/s peak: AMD measured 4017 GB/s with a copy
   * kernel in SPX/NPS1 (ROCm blog "compute and memory modes"), 75.8%. */
  .hbm_bytes_per_s = 4.017e12,
  .xcds = 8,                  /* CDNA3 white paper */
  .simds = 4,                 /* CDNA3 ISA guide ch. 2: four SIMD units per CU */
  .max_waves_per_simd = 8,    /* LLVM AMDGPUUsage / GCNSubtarget: gfx90a/gfx942 max 8 waves per EU */
  .vgprs_per_simd_lane = 512, /* AMDGPUUsage: gfx90a+ unified 512 VGPR+AGPR per lane */
  .lds_bytes = 64 * 1024,     /* CDNA3 ISA guide: 64 KiB LDS per CU */
  .max_groups_per_cu = 16,    /* ASSUMPTION: gfx9 limit of 16 workgroups per CU */
  .issue_cycles = 4,          /* GCN/CDNA: each SIMD gets an issue slot every 4 clocks (GCN white paper) */
  .valu_cycles = 4,           /* 16-lane SIMD, wave64: 81.7 TFLOP/s FP32 vector = 128 FLOP/clk/CU */
  .valu_slow_cycles = 16,     /* transcendentals quarter rate (LLVM SISchedule.td WriteTrans32); f64 ASSUMPTION */
  /* VALU dual issue: a SIMD can issue two VALU instructions (from two waves)
   * in one quad-cycle. AMD documents it for gfx940-gfx950: rocprofiler-compute
   * FAQ ("the GPU can co-issue two VALU instructions in the same clock cycle",
   * VALU utilization up to 200% of the single-issue peak); the MI350 counter
   * SQ_ACTIVE_INST_VALU2 ("number of quad-cycles when two VALU instructions
   * are issued", per SIMD; ROCm MI350 performance-counter list); and the
   * gfx940/941/942/950 VALU peak doubled for it (ROCm/rocm-systems PR 1765).
   * ASSUMPTION: AMD says "in specific circumstances" without listing them;
   * the model pairs any two VALU ops of different waves. */
  .valu_per_issue = 2,
  /* How long a wave's MFMA holds the wave's next VALU ops (model v7),
   * counted in 4-clock issue slots from the MFMA's issue: an XDL MFMA holds
   * any VALU op (transcendentals and packed 16-bit ops included) until slot
   * 1 + (widest A/B source in bytes) / 16, and v_pk_{add,fma,mul}_f32,
   * v_pk_mov_b32 and dot ops until slot passes + 2 (+1 for an A source of
   * 16 B or more); f32 and f64 MFMAs (not XDL) hold every VALU op until
   * passes + 2. Source: llvm-project PR #233721 (AMD, "Add MFMA VALU and
   * packed-VALU issue cycle helpers", getVALUIssueCycle /
   * getPackedVALUIssueCycle), whose rules "fit ATT thread traces taken on
   * MI308X (gfx942 ...) and MI350X (gfx950) for every MFMA family"; the
   * 2-slot VALU hold of a 16 B-source XDL MFMA is also llvm-project PR
   * #184084's ("VALU cannot co-execute with MFMA during its first two
   * passes"). This replaces v6's reading of LLVM's isNeverCoissue (every
   * transcendental, packed, dot, cvt_pk_fp8 and qsad op waits for the
   * MFMA's end): isNeverCoissue is a compiler-side list whose one use
   * (SIPreEmitPeephole, PR #157968) is to decide which v_pk_*_f32 ops inside
   * an MFMA's shadow to unpack -- exactly the PK_F32 ops the traces show
   * held; it does not say transcendentals wait. ASSUMPTION: per wave (the
   * helpers count from the issuing stream's MFMA); another wave's MFMA on
   * the SIMD does not hold a wave's VALU ops. */
  .mfma_valu_hold = 1,
  .salu_cycles = 4,           /* one SALU issue per SIMD slot */
  .nop_wait_state_cycles = 4, /* ASSUMPTION: one wait state = one issue slot */
  /* f16/bf16, f32, xf32, f64, i8, fp8: from the peak rates above */
  .mfma_flops_per_simd_clk = {512, 64, 256, 64, 1024, 1024, 1024 /* no fp4/fp6 MFMA on gfx942 */},
  .mfma_legacy_flops_per_simd_clk = {512, 64, 256, 64, 1024, 1024, 1024},
  .mfma_min_cycles = 8,       /* ASSUMPTION: 2 passes minimum (4x4 block MFMAs) */
  .mfma_dep_tail_cycles = 8,  /* CDNA3 ISA guide MFMA hazards: VALU read of XDL result needs passes+2 wait states */
  .lds_bytes_per_clk = 128,   /* CDNA3 white paper: LDS 128 B/clk per CU (32 banks x 4 B) */
  .lds_latency = 64,          /* ASSUMPTION: order of published LDS latency measurements */
  .smem_latency = 100,        /* ASSUMPTION */
  /* Load-to-use latencies (model v9), from the mt4g pointer-chase
   * microbenchmarks' published MI300X run (caps-tum/mt4g,
   * sample_results/"AMD Instinct MI300X VF"/README.md, commit 231c5bc;
   * one wave, timed with s_memtime, the shader-clock counter): an L2 hit
   * 287.5 cycles mean (p50 288); a load that bypasses every cache to HBM
   * p50 876 cycles (mean 899.7, p95 1114.8: the tail is TLB misses of its
   * 1 GiB random chase). The cycles are the shader clock the chase ran
   * at, taken to be the 2100 MHz peak (ASSUMPTION: one wave on an idle
   * GPU). Cross-check: mt4g's L2 miss into a 16 MB array (a MALL hit),
   * 287.5 + 208.9 = 496.4 cycles = 236 ns at 2.1 GHz, against Chips and
   * Cheese's 218 ns MALL hit. So HBM = 876 / 2.1 GHz = 417 ns, a fixed
   * time (HBM and fabric clocks), converted at the model's clock (503
   * clocks at 1207 MHz); the L2 (on the XCD, shader clock) stays in
   * clocks. v8 and before: 300 and 800 clocks, ASSUMPTION. */
  .l2_hit_latency = 288,
  .hbm_latency_s = 417e-9,
  .cu_bytes_per_clk = 128,   /* CDNA3 white paper: 128 B L1 lines, request/fill paths doubled from CDNA2's 64 B/clk */
  .l2_bytes_per_clk_per_xcd = 2048, /* CDNA3 white paper: L2 128 B/clk per channel, 16 channels per XCD */
  .l2_bytes_per_xcd = 4 * MIB,/* CDNA3 white paper: 4 MB L2 per XCD */
  .l2_ways = 16,              /* CDNA3 white paper: 16-way L2 */
  .line_bytes = 128,          /* CDNA3 white paper: 128 B L2 cache line */
  /* The L2 reads memory in 32, 64 and 128 B requests, not whole lines:
   * rocprofiler-compute counts HBM read bytes on gfx942/gfx950 as
   * 128 x TCC_BUBBLE + 64 x (TCC_EA0_RDREQ - TCC_BUBBLE - TCC_EA0_RDREQ_32B)
   * + 32 x TCC_EA0_RDREQ_32B (its roofline HBM-bytes formula; the counters'
   * descriptions: 32-byte and 128-byte read requests to memory). Modeled as
   * 32 B sectors: a miss reads the sectors the access needs; a later access
   * to the line's other sectors reads those (model v7; v6 read the whole
   * line on every miss, so partial lines evicted between a wave's accesses
   * were read twice: HipKittens' rotary N = 1024 moved 1.76x its tensors). */
  .l2_sector_bytes = 32,
  /* Infinity Cache: 256 MB, 17.2 TB/s peak (AMD's MI300X launch slides,
   * ServeTheHome "AMD Instinct MI300X GPU and MI300A APUs launched"; CDNA3
   * white paper). Achievable, as for HBM: Chips and Cheese ("Testing AMD's
   * Giant MI300X") measured 11.9 TB/s and a hit at about 218 ns. Ways:
   * ASSUMPTION (16, as the L2). */
  .mall_bytes = 256ull * MIB,
  .mall_ways = 16,
  .mall_bytes_per_s = 11.9e12,
  .mall_latency_s = 218e-9,
  .barrier_cycles = 16,       /* ASSUMPTION */
  /* FITTED (model v10, refit once for the part on v9's sourced latencies):
   * 14.9 us per launch, so that HipKittens' MI325X 1024^3 kernel models at
   * its measured 60.2 TFLOP/s (35.67 us; 20.80 us modeled without it on v9).
   * v1-v9: 11 us, fitted the same way on v8's assumed 300/800-clock L2/HBM
   * latencies (24.5 us without it); v9's sourced latencies made the kernel
   * 3.7 us shorter and the row 1.12. AMD's TransferBench reports 4.04 us for
   * an empty kernel timed with hipEvents; the rest stands for what the model
   * does not see at small sizes (clock ramp, cold TLBs and instruction
   * caches, dispatch) and for how the figures were timed. */
  .launch_overhead_s = 14.9e-6,
};

static tks_model_params g_mi325x;

/* MI355X (CDNA4, gfx950). Peak rates from AMD's MI355X product page: dense
 * FP16/BF16 matrix 2516.6 TFLOP/s, FP8 and INT8 5033.2, MXFP6/MXFP4 10066.3,
 * FP32 matrix 157.3, FP64 matrix 78.6, at 256 CUs x 2400 MHz. Divided by
 * 256 x 2.4e9 x 4 SIMDs: 1024/2048/4096/64/32 FLOP per SIMD per clock; AMD's
 * ISSCC 2026 MI355X paper states the same per-CU FP8 figure (8192 FLOP/clk,
 * twice CDNA3's 4096). So v_mfma_f32_16x16x32_bf16 (16384 FLOPs) takes 16
 * cycles like CDNA3's 16x16x16, and v_mfma_f32_16x16x128_f8f6f4 32 cycles
 * with an fp8/bf8 operand and 16 with fp6/fp4 operands only (LLVM's gfx950
 * scheduling test llvm-mca/AMDGPU/gfx950.s gives both operand kinds the
 * 16x16x32_bf16 throughput, with a FIXME that fp8 operands should differ). */
static const tks_model_params g_mi355x_base = {
  .name = "mi355x",
  .cus = 256,                 /* MI355X product page; ISSCC 2026: 8 XCDs x 32 active CUs */
  /* ASSUMPTION: no clock under MFMA load is published for MI350X/MI355X.
   * MI325X's measured 1447 of 2100 MHz (68.9%, ROCm blog "Measuring
   * max-achievable FLOPs, part 2") applied to 2400 MHz. HipKittens' measured
   * 1610 TFLOP/s BF16 GEMM at 8192^3 needs at least 1535 MHz even at 100%
   * MFMA use, so the clock cannot be much lower. */
  .clock_hz = 2400e6 * (1447.0 / 2100.0),
  .peak_clock_hz = 2400e6,    /* MI355X product page: peak engine clock */
  /* FITTED (model v7; refit once after the sectored-L2 change), for the
   * part, with the model in the loop: the achievable HBM bandwidth that
   * minimises the largest miss over HipKittens' published MI355X streaming
   * figures modeled (rotary N = 1024 / 4096 / 16384, fused LayerNorm N =
   * 1024 / 4096). Modeled/measured at 4.2 TB/s: rotary 1.25 / 1.19 / 1.20,
   * LayerNorm 0.86 / 1.11; at 3.6 TB/s: rotary 1.09 / 1.03, LayerNorm 0.80
   * / 1.00. The two N = 1024 rows bound it from both sides (rotary's ratio
   * goes as the bandwidth^0.88, LayerNorm's as ^0.47): no bandwidth puts
   * both within 15% (rotary needs <= 3.86, LayerNorm >= 4.1 TB/s); 4.0
   * balances them (about +19% / -16%). 50% of the 8 TB/s peak (product
   * page). v6: 4.2 TB/s, fitted while the model moved 1.76x rotary N = 1024's
   * tensor bytes through HBM; v5: 6.06 TB/s, ASSUMPTION. */
  .hbm_bytes_per_s = 4.0e12,
  .xcds = 8,                  /* MI350 series product pages / CDNA4 white paper: 8 XCDs */
  .simds = 4,                 /* CDNA4 ISA guide: four SIMDs per CU, as CDNA3 */
  .max_waves_per_simd = 8,    /* LLVM AMDGPUUsage / GCNSubtarget: gfx950 max 8 waves per EU */
  .vgprs_per_simd_lane = 512, /* AMDGPUUsage: gfx90a+ (incl. gfx950) unified 512 VGPR+AGPR per lane */
  .lds_bytes = 160 * 1024,    /* MI355X product page / CDNA4 white paper: 160 KB LDS per CU */
  .max_groups_per_cu = 16,    /* ASSUMPTION: gfx9 limit, as for CDNA3 */
  .issue_cycles = 4,          /* as CDNA3 (GCN issue model; no CDNA4 change documented) */
  .valu_cycles = 4,
  .valu_slow_cycles = 16,     /* ASSUMPTION, as CDNA3 */
  .valu_per_issue = 2,        /* VALU dual issue, as CDNA3 (sources at g_mi300x; SQ_ACTIVE_INST_VALU2 is an MI350 counter) */
  .mfma_valu_hold = 1,        /* gfx950 too: PR #233721's traces include MI350X (source at g_mi300x) */
  .salu_cycles = 4,
  .nop_wait_state_cycles = 4, /* ASSUMPTION, as CDNA3 */
  /* f16/bf16, f32, xf32 (gfx950 has no xf32 MFMA: f32's rate, unused), f64,
   * i8, fp8/bf8, fp6/bf6/fp4: from the peak rates above */
  .mfma_flops_per_simd_clk = {1024, 64, 64, 32, 2048, 2048, 4096},
  /* The CDNA3 shapes gfx950 keeps (v_mfma_f32_16x16x16_bf16, 32x32x8,
   * 16x16x32_fp8, 16x16x32_i8, ...) take as many cycles as on CDNA3, i.e. half
   * the new shapes' rate: LLVM's gfx950 scheduling model gives
   * v_mfma_f32_16x16x16_bf16 and v_mfma_f32_16x16x32_bf16 the same
   * throughput (llvm-mca test AMDGPU/gfx950.s), as it does 16x16x32_i8 and
   * 16x16x64_i8. */
  .mfma_legacy_flops_per_simd_clk = {512, 64, 64, 32, 1024, 1024, 1024},
  .mfma_min_cycles = 8,       /* ASSUMPTION, as CDNA3 */
  .mfma_dep_tail_cycles = 8,  /* as CDNA3 (LLVM: gfx950 adds one wait state to some XDL hazards) */
  /* 64 banks x 4 B (Modular's MI355X docs; CK-tile: 32 or 64 banks by
   * architecture) = 256 B/clk, twice CDNA3's, which is the doubled LDS read
   * bandwidth of AMD's CDNA4 announcement; writes stay at 128 B/clk through
   * the bank model's write phases (check/banks.c, ASSUMPTION) */
  .lds_bytes_per_clk = 256,
  .lds_latency = 64,          /* ASSUMPTION, as CDNA3 */
  .smem_latency = 100,        /* ASSUMPTION */
  .l2_hit_latency = 288,      /* ASSUMPTION: CDNA3's measured figure (g_mi300x) */
  .hbm_latency_s = 417e-9,    /* ASSUMPTION: CDNA3's measured HBM3 figure (g_mi300x); none published for HBM3E/MI355X */
  .cu_bytes_per_clk = 128,    /* ASSUMPTION: CDNA3's 128 B/clk request path */
  .l2_bytes_per_clk_per_xcd = 2048, /* ASSUMPTION: CDNA3's 16 channels x 128 B/clk */
  .l2_bytes_per_xcd = 4 * MIB,/* MI355X product page / CDNA4 white paper: 4 MB L2 per XCD */
  .l2_ways = 16,              /* ASSUMPTION: as CDNA3 */
  .line_bytes = 128,          /* ASSUMPTION: as CDNA3 */
  .l2_sector_bytes = 32,      /* as CDNA3 (the same counters and formula on gfx950; source at g_mi300x) */
  /* Infinity Cache: 256 MB (MI355X product page); bandwidth, latency and
   * ways: MI300X's measured ones (ASSUMPTION; no CDNA4 figure is published) */
  .mall_bytes = 256ull * MIB,
  .mall_ways = 16,
  .mall_bytes_per_s = 11.9e12,
  .mall_latency_s = 218e-9,
  .barrier_cycles = 16,       /* ASSUMPTION */
  /* AMD's TransferBench: 4.04 us for an empty kernel timed with hipEvents
   * (an MI300X figure; ASSUMPTION that CDNA4 is alike). MI325X's fitted 11 us
   * put HipKittens' MI355X 1024^3 GEMM at 0.68 of its measurement (the fit
   * absorbed CDNA3 effects that do not carry over); nothing is fitted here. */
  .launch_overhead_s = 4.04e-6,
};

static tks_model_params g_mi350x;

const tks_model_params *tks_model_params_for(int sku)
{
  if (sku == TKS_MODEL_MI300X) return &g_mi300x;
  if (sku == TKS_MODEL_MI325X) {
    /* MI325X product page: same CDNA3 compute die (304 CUs, 2100 MHz peak),
     * HBM3E 6 TB/s. Under MFMA load (1000 W) AMD measured a median 1447 MHz
     * (same blog as above); achievable HBM: MI300X's measured 75.8% of peak
     * applied to 6 TB/s (no MI325X copy figure is published). */
    g_mi325x = g_mi300x;
    g_mi325x.name = "mi325x";
    /* FITTED: 1340 MHz, 7% below AMD's 1447 MHz (hipBLASLt on trig_float
     * inputs; the blog shows the clock falls with the inputs' toggle rate),
     * so that HipKittens' measured 713.7 (4096^3) and 714.3 TFLOP/s (16384^3)
     * are both within 15% (docs/tksim-model.md, "Validation"). */
    g_mi325x.clock_hz = 1340e6;
    g_mi325x.hbm_bytes_per_s = 6.0e12 * (4017.0 / 5300.0);
    return &g_mi325x;
  }
  if (sku == TKS_MODEL_MI355X) return &g_mi355x_base;
  if (sku == TKS_MODEL_MI350X) {
    /* MI350X product page: the same CDNA4 part (256 CUs, 8 TB/s HBM3E, 4 MB
     * L2 per XCD) at 2200 MHz peak (1000 W air-cooled vs MI355X's 1400 W):
     * dense BF16 2306.9 TFLOP/s = 256 x 2.2e9 x 4096. Clock under load:
     * the same ASSUMPTION as MI355X (68.9% of peak). */
    g_mi350x = g_mi355x_base;
    g_mi350x.name = "mi350x";
    g_mi350x.peak_clock_hz = 2200e6;
    g_mi350x.clock_hz = 2200e6 * (1447.0 / 2100.0);
    return &g_mi350x;
  }
  return 0;
}
