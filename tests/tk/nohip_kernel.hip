// Compiled (not run) by ctest with -nogpuinc -nogpulib: no HIP runtime
// header, no device library.  tk must build from clang's own HIP mode alone,
// so nothing in it can depend on a HIP-header version (Debian's HIP 5.2 vs
// ROCm 6/7).  The kernel touches every header's device API: group and direct
// loads, prefetch, all four tile products, register ops, stores, sync, grid.
// Only the two keywords a kernel file itself needs are spelled out here.
#include "tk/tk.h"

#define KERNEL extern "C" __attribute__((global))

TK_ST(a_smem, tk_bf16, 32, 64, TK_LDS_SWZ);
TK_ST(b_smem, tk_bf16, 32, 64, TK_LDS_LINEAR);
TK_ST(c_smem, float, 32, 32, TK_LDS_LINEAR);
typedef struct { a_smem a; b_smem b; c_smem c; } smem_t;
TK_STAGE(a_stage, a_smem, 64);
TK_RT(a_reg, TK_K_A_BF16_32x32x8, 32, 64);
TK_RT(b_reg, TK_K_B_BF16_32x32x8, 64, 32);
TK_RT(at_reg, TK_K_B_BF16_32x32x8, 64, 32);
TK_RT(acc_reg, TK_K_C_F32_32x32, 32, 32);
TK_RT(fp8_a, TK_K_A_FP8_16x16x32, 16, 32);
TK_RT(fp8_b, TK_K_B_FP8_16x16x32, 32, 16);
TK_RT(acc16, TK_K_C_F32_16x16, 16, 16);
TK_RT(i8_a, TK_K_A_I8_16x16x32, 16, 32);
TK_RT(i8_b, TK_K_B_I8_16x16x32, 32, 16);
TK_RT(acci, TK_K_C_I32_16x16, 16, 16);
TK_PENDING(a_pend, a_reg);

KERNEL void nohip_kernel(tk_gl a, tk_gl c, uint32_t wg, uint32_t n_wg, float *out) {
  TK_LDS_ALLOC(smem_t, sm);
  const tk_rsrc ra = tk_gl_rsrc(&a), rc = tk_gl_rsrc(&c);
  const uint32_t tid = tk_lane_id() + 64u * tk_wave_id();
  uint32_t tm, tn;
  tk_grid_tile(wg, n_wg, 4, 4, 2, TK_NUM_XCDS, &tm, &tn);
  a_stage sa;
  tk_load_issue(sa, &a, ra, 0, 0, tm * 32, 0, tid);
  tk_load_commit(sm.a, sa, tid, 0);
  tk_load_lds_direct(sm.b, 64, &a, ra, 0, 0, tn * 32, 0, tid);
  TK_WAIT_VMCNT(0);
  tk_lds_barrier();
  a_pend pa;
  a_reg fa, fbt;
  tk_prefetch_issue(pa, sm.a, 0, 0);
  tk_prefetch_wait(fa, pa, 0);
  tk_prefetch_issue(pa, sm.b, 0, 0);
  tk_prefetch_wait(fbt, pa, 0);
  b_reg fb;
  at_reg fat;
  tk_rt_fill(fb, 0x3f80);
  tk_rt_fill(fat, 0x3f80);
  acc_reg acc, acc2;
  tk_rt_zero(acc);
  tk_mma_ABt(acc, fa, fbt, acc);
  tk_mma_AB(acc, fa, fb, acc);
  tk_mma_AtB(acc, fat, fb, acc);
  tk_mma_AtBt(acc, fat, fbt, acc);
  fp8_a f8a; fp8_b f8b; acc16 a16; i8_a ia; i8_b ib; acci ai;
  tk_rt_fill(f8a, (int64_t)tk_cvt_pk4_fp8e4(1.0f, 2.0f, 0.5f, -1.0f));
  tk_rt_fill(f8b, (int64_t)tk_cvt_pk4_fp8e5(1.0f, 2.0f, 0.5f, -1.0f));
  tk_rt_zero(a16);
  tk_mma_AB(a16, f8a, f8b, a16);
  tk_rt_fill(ia, 0x0101010101010101ll); tk_rt_fill(ib, 0x0202020202020202ll); tk_rt_zero(ai);
  tk_mma_AB(ai, ia, ib, ai);
  tk_rt_exp2(acc2, acc);
  tk_rt_max(acc2, acc2, acc);
  tk_rt_scale(acc2, acc2, 0.5f);
  tk_rt_sub(acc2, acc2, acc);
  float rv[TK_RT_ROWV(acc_reg)], cv[TK_RT_COLV(acc_reg)];
  tk_rt_row_max(rv, acc2);
  tk_rt_col_sum(cv, acc2);
  tk_rt_row_bcast(acc2, acc2, rv, -);
  tk_rt_col_bcast(acc2, acc2, cv, *);
  TK_SCHED_GROUP(TK_SCHED_MFMA, 1, 0);
  TK_SCHED_BARRIER(TK_SCHED_NONE);
  TK_SETPRIO(1);
  tk_store_acc_f32(&c, rc, 0, 0, tm * 32, tn * 32, acc2, 1.0f, 0.5f);
  tk_store_acc_bf16(&c, rc, 0, 0, 0, 0, acc, 1.0f, 0.0f);
  tk_store_acc_lds(sm.c, acc, 0, 0);
  tk_lds_barrier();
  tk_store_lds_global(&c, rc, 0, 0, 0, 0, sm.c, tid, 64);
  /* vec.h: row vectors, reductions, fences */
  TK_RV(nohip_rv, 512, 64);
  nohip_rv v;
  float mean, var;
  tk_rv_load_bf16(v, rc, 0u, 100, (int)tid);
  tk_rv_mean_var(v, (int)tid, 100, (float *)0, mean, var);
  tk_rv_sub_mul_s(v, v, mean, var);
  tk_rv_store_bf16(v, rc, 0u, 100, (int)tid);
  tk_fence_workgroup();
  rv[0] += tk_wave_sum(mean) + tk_lanes_max(var, 16);
  out[tid] = a16.f[0][0] + (float)ai.f[0][0] + tk_fp8e4_to_f32(tk_f32_to_fp8e4(rv[0])) +
             tk_bf16_to_f32(tk_f32_to_bf16(cv[0])) + (float)tk_simd_id() + (float)tk_group_id(2);
}
