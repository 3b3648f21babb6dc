/* tk/flag.h: flags between workgroups: a 32-bit counter in global memory that
 * one workgroup's wave releases (its earlier global stores and atomics
 * visible before the new value) and another's waits for (its later accesses
 * after it), for ordering work across workgroups (e.g. adding into one tile
 * in a fixed order: attention's deterministic backward, attn_bwd_dqo.h).
 *
 * Provides tk_flag_wait_geq (poll with s_sleep until the counter reaches a
 * value, then an agent-scope acquire), tk_flag_peek + tk_flag_wait_geq_seen
 * (read the counter early, under other work, and poll only if that value was
 * short: the read's memory latency off the critical path) and
 * tk_flag_wait_geq_seen_rmw (the same without the acquire fence, for waves that then only
 * do atomic read-modify-writes in the releaser's L2) and
 * tk_flag_release (agent-scope release store).  Every lane of the wave may call them with the same flag:
 * the poll's loads then read one value per instruction, so the loop stays
 * uniform; the release store writes the same value from each lane.
 *
 * Hardware facts relied on:
 *  - LLVM AMDGPUUsage, "Memory Model GFX942" (gfx950 follows it): an
 *    agent-scope load atomic acquire is the load with sc1, s_waitcnt
 *    vmcnt(0) and buffer_inv sc1; a store atomic release is buffer_wbl2 sc1,
 *    s_waitcnt vmcnt(0) (earlier stores and atomics complete) and the store
 *    with sc1.  The compiler emits these from the scoped atomics below; a
 *    release fence limited to the global address space (an MMRA on
 *    __builtin_amdgcn_fence) leaves out the lgkmcnt(0) LDS wait.
 *  - s_sleep N idles the wave about 64 N clocks, leaving the SIMD to others
 *    (CDNA3 ISA guide, S_SLEEP).
 *  - Forward progress: a wave that waits only for workgroups dispatched
 *    before its own never deadlocks, because the dispatcher starts
 *    workgroups in order and a started one runs to its end (the caller's
 *    argument; tksim admits further groups while one sleeps: docs/tksim-exec.md).
 */
#ifndef TK_FLAG_H
#define TK_FLAG_H

#include <stdint.h>
#include "target.h"

/* (device code: the scoped atomics and fences; the host pass compiles empty bodies) */
#if TK_DEVICE_PASS
#define TK__FLAG_LOAD(f) __hip_atomic_load((f), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT)
#define TK__FLAG_SLEEP() __builtin_amdgcn_s_sleep(1)
#define TK__FLAG_ACQUIRE() __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "agent")
/* the release as a fence on global memory only, then a relaxed store: the release store's own
 * fence also waited for the wave's LDS reads (lgkmcnt(0)), which no other workgroup sees (MI355X
 * b16 h16 s1024 d128 kvdqo 466.5 -> 451.1 us, modeled v10) */
#define TK__FLAG_STORE(f, v)                                                                      \
  do {                                                                                            \
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "agent", "global");                                  \
    __hip_atomic_store((f), (v), __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);                     \
  } while (0)
#define TK__FLAG_COMPILER_ORDER() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#else
#define TK__FLAG_LOAD(f) (*(f))
#define TK__FLAG_SLEEP() ((void)0)
#define TK__FLAG_ACQUIRE() ((void)0)
#define TK__FLAG_STORE(f, v) ((void)(f), (void)(v))
#define TK__FLAG_COMPILER_ORDER() ((void)0)
#endif

/* the poll the waits share: sleep until *f >= v (unsigned), skipped when `seen` (an earlier read
 * of f) reached v already; no ordering of its own */
TK_DI void tk__flag_poll_geq(const uint32_t *f, uint32_t v, uint32_t seen)
{
  if (seen < v)
    while (TK__FLAG_LOAD(f) < v) TK__FLAG_SLEEP();
}
/* wait until *f >= v (unsigned), then order this wave's later memory accesses after that
 * (agent-scope acquire: it sees what the releasing wave wrote before its release) */
TK_DI void tk_flag_wait_geq(const uint32_t *f, uint32_t v)
{
  tk__flag_poll_geq(f, v, 0u);
  TK__FLAG_ACQUIRE();
}
/* the counter's value now (relaxed agent-scope load: no ordering; issue it early, use it in
 * tk_flag_wait_geq_seen) */
TK_DI uint32_t tk_flag_peek(const uint32_t *f) { return TK__FLAG_LOAD(f); }
/* tk_flag_wait_geq given `seen`, a tk_flag_peek of f issued earlier: no poll when it reaches v
 * already (the acquire fence after the relaxed load that saw the release synchronizes with it) */
TK_DI void tk_flag_wait_geq_seen(const uint32_t *f, uint32_t v, uint32_t seen)
{
  tk__flag_poll_geq(f, v, seen);
  TK__FLAG_ACQUIRE();
}
/* tk_flag_wait_geq_seen for a wave whose later accesses to what the releaser wrote are only
 * atomic read-modify-writes performed in the L2 the releaser's went to (both workgroups on one
 * XCD): no acquire fence.  RMWs bypass L1 (AMDGPUUsage, "Memory Model GFX942"), so the fence's
 * L1 invalidate orders nothing for them, and its vmcnt(0) would wait for every load in flight.
 * The releaser's RMWs were complete (its release's vmcnt(0)) before its flag store; this wave
 * issues in order and cannot pass the wait's branch before the load that saw the flag returned.
 * A compiler-only fence keeps the later RMWs after the wait in the code. */
TK_DI void tk_flag_wait_geq_seen_rmw(const uint32_t *f, uint32_t v, uint32_t seen)
{
  tk__flag_poll_geq(f, v, seen);
  TK__FLAG_COMPILER_ORDER();
}
/* *f = v after this wave's earlier global stores and atomics are complete and visible at agent
 * scope (agent-scope release fence for the global address space, then the store; the wave's LDS
 * operations are not waited for) */
TK_DI void tk_flag_release(uint32_t *f, uint32_t v) { TK__FLAG_STORE(f, v); }

#endif /* TK_FLAG_H */
