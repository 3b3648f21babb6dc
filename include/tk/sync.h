/* tk/sync.h: waits, barriers, scheduling hints and wave/lane/group identity.
 *
 * Provides compile-time-encoded s_waitcnt waits (vmcnt, lgkmcnt, expcnt),
 * workgroup barriers, the compiler's scheduling barriers with named masks,
 * wave priority, register-pressure controls (tk_opaque, tk_rt_in_agpr, tk_kernarg_fresh),
 * and wave/lane/SIMD/group helpers for multi-wave schedules.
 *
 * Hardware facts relied on:
 *  - gfx9 (CDNA3) S_WAITCNT SIMM16 layout: vmcnt is 6 bits split into [3:0]
 *    and [15:14], expcnt [6:4], lgkmcnt [11:8]; a field at its maximum
 *    (63, 7, 15) means "do not wait on this counter".  Sources: AMD
 *    "CDNA3 Instruction Set Architecture" guide, section 4.4 (Data Dependency
 *    Resolution / S_WAITCNT) and the SOPP opcode table; LLVM AMDGPUUsage /
 *    AMDGPUBaseInfo.cpp (encodeWaitcnt for gfx9).
 *  - vmcnt counts outstanding vector memory (buffer/global/flat) returns in
 *    issue order; lgkmcnt counts LDS, GDS, constant (SMEM) and message ops;
 *    LDS ops return in order, SMEM may not (so lgkmcnt(n>0) is only safe for
 *    pure-LDS sequences).  Source: CDNA3 ISA guide 4.4.
 *  - A wave is 64 lanes (wave64 on gfx942).  HW_ID register (hwreg 4) holds
 *    WAVE_ID [3:0], SIMD_ID [5:4], CU_ID [11:8]; source: CDNA3 ISA guide,
 *    hardware registers table (S_GETREG_B32).
 *  - __builtin_amdgcn_sched_group_barrier(mask, size, syncid) /
 *    __builtin_amdgcn_sched_barrier(mask) mask bits: LLVM AMDGPUUsage,
 *    "llvm.amdgcn.sched_group_barrier" (0x1 ALU, 0x2 VALU, 0x4 SALU, 0x8 MFMA,
 *    0x10 VMEM, 0x20 VMEM read, 0x40 VMEM write, 0x80 DS, 0x100 DS read,
 *    0x200 DS write, 0x400 transcendental).
 *
 * Waits are macros because the s_waitcnt immediate must be an integer
 * constant expression; passing a count through a function would not be one.
 */
#ifndef TK_SYNC_H
#define TK_SYNC_H

#include <stdint.h>
#include "target.h"
#include "types.h"

/* ---- s_waitcnt immediate encoding (host- and device-usable constants) ---- */

#define TK_VMCNT_MAX 63u
#define TK_EXPCNT_MAX 7u
#define TK_LGKMCNT_MAX 15u

/* SIMM16 for "wait until vmcnt <= vm, expcnt <= ex, lgkmcnt <= lgkm". */
#define TK_WAITCNT_IMM(vm, ex, lgkm)                                  \
  ((((uint32_t)(vm) & 0xfu)) | ((((uint32_t)(vm) >> 4) & 0x3u) << 14) | \
   (((uint32_t)(ex) & 0x7u) << 4) | (((uint32_t)(lgkm) & 0xfu) << 8))

/* Decoders, used by host tests and documentation of the layout. */
#define TK_WAITCNT_VMCNT(imm) ((((uint32_t)(imm)) & 0xfu) | ((((uint32_t)(imm)) >> 14) & 0x3u) << 4)
#define TK_WAITCNT_EXPCNT(imm) ((((uint32_t)(imm)) >> 4) & 0x7u)
#define TK_WAITCNT_LGKMCNT(imm) ((((uint32_t)(imm)) >> 8) & 0xfu)

/* Counts out of range are a compile error, not a silently truncated wait. */
#define TK__WAIT_CHECK(n, max) static_assert((n) >= 0 && (n) <= (int)(max), "tk: wait count out of range")

#if TK_DEVICE_PASS
#define TK__WAITCNT(imm) __builtin_amdgcn_s_waitcnt((int)(imm))
#else
#define TK__WAITCNT(imm) ((void)(imm))
#endif

/* Wait until at most n vector-memory ops are outstanding (n: constant 0..63). */
#define TK_WAIT_VMCNT(n)                                                 \
  do {                                                                   \
    TK__WAIT_CHECK(n, TK_VMCNT_MAX);                                     \
    TK__WAITCNT(TK_WAITCNT_IMM((n), TK_EXPCNT_MAX, TK_LGKMCNT_MAX));     \
  } while (0)
/* Wait until at most n LDS/SMEM ops are outstanding (n: constant 0..15). */
#define TK_WAIT_LGKMCNT(n)                                               \
  do {                                                                   \
    TK__WAIT_CHECK(n, TK_LGKMCNT_MAX);                                   \
    TK__WAITCNT(TK_WAITCNT_IMM(TK_VMCNT_MAX, TK_EXPCNT_MAX, (n)));       \
  } while (0)
/* Both counters in one instruction. */
#define TK_WAIT_VM_LGKM(vm, lgkm)                                        \
  do {                                                                   \
    TK__WAIT_CHECK(vm, TK_VMCNT_MAX);                                    \
    TK__WAIT_CHECK(lgkm, TK_LGKMCNT_MAX);                                \
    TK__WAITCNT(TK_WAITCNT_IMM((vm), TK_EXPCNT_MAX, (lgkm)));            \
  } while (0)

/* ---- barriers and scheduling hints ---------------------------------------- */

/* Scheduling-group masks for TK_SCHED_GROUP / TK_SCHED_BARRIER. */
#define TK_SCHED_NONE 0x000
#define TK_SCHED_ALU 0x001
#define TK_SCHED_VALU 0x002
#define TK_SCHED_SALU 0x004
#define TK_SCHED_MFMA 0x008
#define TK_SCHED_VMEM 0x010
#define TK_SCHED_VMEM_READ 0x020
#define TK_SCHED_VMEM_WRITE 0x040
#define TK_SCHED_DS 0x080
#define TK_SCHED_DS_READ 0x100
#define TK_SCHED_DS_WRITE 0x200
#define TK_SCHED_TRANS 0x400

#if TK_DEVICE_PASS
/* Nothing may be scheduled across this point except the classes in mask. */
#define TK_SCHED_BARRIER(mask) __builtin_amdgcn_sched_barrier(mask)
/* Ask the scheduler for `size` instructions of class `mask` here, in pipeline
 * `syncid` (a sequence of these interleaves e.g. 1 MFMA, 2 DS reads, ...). */
#define TK_SCHED_GROUP(mask, size, syncid) __builtin_amdgcn_sched_group_barrier(mask, size, syncid)
/* Wave priority 0..3 (higher issues first among waves on a SIMD). */
#define TK_SETPRIO(p) __builtin_amdgcn_s_setprio(p)
#else
#define TK_SCHED_BARRIER(mask) ((void)0)
#define TK_SCHED_GROUP(mask, size, syncid) ((void)0)
#define TK_SETPRIO(p) ((void)0)
#endif

#if TK_HIP
/* Workgroup barrier.  s_barrier alone does not order memory: LDS writes
 * must be complete (lgkmcnt(0)) first, which __syncthreads would add; this is
 * the bare instruction for code that manages its own waits. */
TK_DI void tk_barrier(void) {
  __builtin_amdgcn_s_barrier();
}

/* LDS write -> barrier -> LDS read ordering: wait for own LDS ops, barrier. */
TK_DI void tk_lds_barrier(void) {
  TK_WAIT_LGKMCNT(0);
  __builtin_amdgcn_s_barrier();
}

/* Register-pressure control: returns v unchanged, but the compiler cannot
 * see through it, so values computed from the result (typically LDS and
 * global addresses from a thread index) are recomputed where they are
 * written instead of being hoisted out of a loop into registers that stay
 * live across all of it.  A few VALU ops per use buy back the registers. */
TK_DI uint32_t tk_opaque(uint32_t v) {
  asm volatile("" : "+v"(v));
  return v;
}
/* The same for a register pair (e.g. a packed running sum pinned to its
 * place in a schedule). */
TK_DI tk_f32x2 tk_opaque_f32x2(tk_f32x2 v) {
  asm volatile("" : "+v"(v));
  return v;
}

/* Keep register tile rt's fragments in AGPRs (the accumulation registers),
 * for an MFMA operand that stays live across a loop in a kernel that needs
 * more than 256 registers: gfx90a and later MFMAs read A and B from AGPRs
 * directly (VOP3P-MAI's ACC bits, CDNA3 ISA guide), while LLVM 22, left to
 * itself, parks such a tile in AGPRs and copies every fragment back to VGPRs
 * before its MFMA (a v_accvgpr_read per register plus an s_nop per MFMA).
 * Only for tiles that feed MFMAs (other uses need them back in VGPRs). */
#define tk_rt_in_agpr(rt)                                                        \
  do {                                                                           \
    typedef TK_TYPEOF(rt) _R;                                                    \
    _Pragma("unroll") for (int _f = 0; _f < TK_RT_NF(_R); _f++)                  \
      asm volatile("" : "+a"((rt).f[_f]));                                       \
  } while (0)

/* The kernel's argument block (its kernarg segment), through a pointer the
 * compiler cannot relate to the arguments it has already loaded: reads
 * through it are scalar loads (constant address space, uniform address)
 * issued where they are written.  Clang copies by-value kernel arguments
 * into values loaded at kernel entry, so an argument used only after a long
 * loop would otherwise hold SGPRs across all of it; reading it through this
 * pointer after the loop costs a few s_load instead.  Arguments sit in
 * declaration order, each at its natural alignment (LLVM AMDGPUUsage,
 * "Kernel Argument Layout"), i.e. where a struct of the same members in the
 * same order has them. */
TK_DI const void *tk_kernarg_fresh(void) {
  const __attribute__((address_space(4))) char *p =
      (const __attribute__((address_space(4))) char *)__builtin_amdgcn_kernarg_segment_ptr();
  asm volatile("" : "+s"(p));
  return (const void *)p;
}

/* ---- identity ------------------------------------------------------------ */

/* Lane 0..63 within the wave (mbcnt counts set exec-mask bits below us). */
TK_DI uint32_t tk_lane_id(void) {
  uint32_t l = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  TK__OPAQUE_ID("+v", l);
  return l;
}

/* 1 on every lane when p is non-zero on any active lane of the wave (a
 * wave-uniform vote: v_cmp into a 64-bit SGPR mask, LLVM's ballot) */
TK_DI int tk_wave_any(int p) {
  return __builtin_amdgcn_ballot_w64(p != 0) != 0;
}

/* Wave index within the workgroup (flat x of a 1-D block), wave-uniform (SGPR). */
TK_DI uint32_t tk_wave_id(void) {
  uint32_t w = (uint32_t)__builtin_amdgcn_readfirstlane((int)(__builtin_amdgcn_workitem_id_x() / TK_WAVE_SIZE));
  TK__OPAQUE_ID("+s", w);
  return w;
}

/* Number of waves in a 1-D workgroup. */
TK_DI uint32_t tk_num_waves(void) {
  return (uint32_t)((__builtin_amdgcn_workgroup_size_x() + TK_WAVE_SIZE - 1) / TK_WAVE_SIZE);
}

/* SIMD (0..3) of the CU this wave runs on: HW_ID[5:4].  Diagnostic only:
 * the hardware assigns it, so schedules must not depend on it. */
TK_DI uint32_t tk_simd_id(void) {
  /* s_getreg_b32 simm16 = id | offset<<6 | (size-1)<<11; HW_ID is hwreg 4. */
  return (uint32_t)__builtin_amdgcn_s_getreg(4 | (4 << 6) | ((2 - 1) << 11));
}

/* ---- groups of waves (ping-pong / producer-consumer schedules) ----------- */

/* Waves are split into groups of `waves_per_group` consecutive waves.
 * Group index of this wave (wave-uniform). */
TK_DI uint32_t tk_group_id(uint32_t waves_per_group) {
  return tk_wave_id() / waves_per_group;
}
/* Wave index inside its group. */
TK_DI uint32_t tk_group_wave(uint32_t waves_per_group) {
  return tk_wave_id() % waves_per_group;
}

/* Group-conditional barrier for ping-pong schedules: waves in group `g` pass
 * through one extra s_barrier that the other group's waves execute elsewhere
 * (e.g. at the other half of their loop), so the two groups are offset by one
 * barrier phase.  All waves of the workgroup must execute the same total
 * number of s_barrier instructions, or the workgroup deadlocks. */
TK_DI void tk_group_barrier_if(uint32_t waves_per_group,
                                                                                 uint32_t g) {
  if (tk_group_id(waves_per_group) == g) __builtin_amdgcn_s_barrier();
}
#endif /* __HIP__ */

#endif /* TK_SYNC_H */
