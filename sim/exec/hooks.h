/* hooks.h: where the execution engine lets checkers, reports and the timing
 * model observe a dispatch.
 *
 * exec owns the hook table. Providers (sim/check, sim/report, sim/model) add a
 * tks_hooks struct with tks_hooks_add() before tks_exec_dispatch() runs (the
 * runtime's launch path calls their setup); exec calls every non-NULL pointer of
 * every added struct. When no struct is added, exec's inner loop tests one
 * flag per instruction and nothing else, so the fast path stays fast.
 *
 * Threading: a workgroup runs wholly on one worker thread (its waves are
 * interleaved round-robin on that thread); a worker may keep several groups
 * resident and interleave them (spin-waits, long groups, cooperative
 * launches). Each resident group occupies one execution *slot*, numbered
 * 0..nworkers-1 (the `nworkers` given to dispatch_begin is the slot count); a
 * slot is used by one group at a time and by one thread only. Every
 * per-wave/per-group callback carries the slot (`worker`), so providers keep
 * per-slot state and need no locks. dispatch_begin and dispatch_end run on
 * the launching thread with no workers active.
 *
 * Hardware facts used by the views: a workgroup's waves are numbered in
 * work-item order (wave w holds flat work-item ids 64w..64w+63); wave w of a
 * group is placed on SIMD w % 4 (CDNA3 CU: four SIMDs, ISA guide ch. 2).
 */
#ifndef TKS_EXEC_HOOKS_H
#define TKS_EXEC_HOOKS_H

#include <stdint.h>
#include "tksim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Instruction classes (the decoder assigns one per instruction). */
enum tks_inst_class {
  TKS_CLASS_SALU = 0,  /* SOP1/SOP2/SOPK/SOPC, s_getpc... */
  TKS_CLASS_SMEM,      /* s_load_*, s_buffer_load_*, s_memtime */
  TKS_CLASS_VALU,      /* VOP1/VOP2/VOP3/VOPC/VOP3P/DPP/SDWA, v_readlane... */
  TKS_CLASS_MFMA,      /* v_mfma_* */
  TKS_CLASS_DS,        /* ds_* (LDS) */
  TKS_CLASS_VMEM,      /* buffer_* / global_* / flat_* / scratch_* */
  TKS_CLASS_BRANCH,    /* s_branch, s_cbranch_*, s_setpc/s_swappc */
  TKS_CLASS_WAITCNT,   /* s_waitcnt */
  TKS_CLASS_BARRIER,   /* s_barrier */
  TKS_CLASS_MISC,      /* s_nop, s_setprio, s_sleep, s_endpgm, ... */
  TKS_CLASS_COUNT
};

/* The wave that executes the instruction. */
typedef struct tks_wave_view {
  uint32_t worker;        /* execution slot of the group, 0..nworkers-1 (see above) */
  uint32_t wave_id;       /* dispatch-wide wave number: group_linear * waves_per_group + wave_in_group */
  uint32_t wave_in_group; /* 0..15 */
  uint32_t simd;          /* wave_in_group % 4 */
  uint32_t group_id[3];   /* workgroup id x, y, z */
  uint32_t group_linear;  /* x + y*ngx + z*ngx*ngy */
  uint32_t waves_per_group;
  uint64_t exec;          /* EXEC before the instruction */
} tks_wave_view;

/* The instruction. */
typedef struct tks_inst_view {
  uint32_t pc;            /* byte offset from the kernel's first instruction */
  uint32_t index;         /* index into the decoded program */
  int cls;                /* enum tks_inst_class */
  const char *text;       /* disassembly, e.g. "ds_read_b64 v[2:3], v1 offset:8" */
  const char *kernel;     /* kernel (mangled) name */
} tks_inst_view;

typedef struct tks_hooks {
  void *user;
  /* Once per dispatch, launching thread. */
  void (*dispatch_begin)(void *user, const tks_dispatch *d, uint32_t nworkers,
                         uint32_t waves_per_group, uint32_t lds_bytes);
  /* stats already filled by exec; providers may add (e.g. bank conflicts,
   * modeled_seconds). Return non-zero to make the dispatch fail (checker found
   * an error); err may be written with the first problem. */
  int (*dispatch_end)(void *user, const tks_dispatch *d, tks_launch_stats *stats,
                      char *err, size_t errlen);
  /* A workgroup starts/ends on a worker (its LDS is zeroed at start). */
  void (*group_begin)(void *user, uint32_t worker, const uint32_t group_id[3],
                      uint32_t group_linear, uint32_t nwaves);
  void (*group_end)(void *user, uint32_t worker, uint32_t group_linear);
  /* Every executed instruction, before it executes. */
  void (*issue)(void *user, const tks_wave_view *w, const tks_inst_view *in);
  /* An LDS access (ds_*, buffer_load ... lds, flat to the LDS aperture):
   * addr[lane] is the byte address in the group's LDS for active lanes (bit
   * lane of exec), bytes the width per lane (per address of ds_read2/write2:
   * each of the two halves is reported as a separate call). is_write: 1 store,
   * 0 load, 2 atomic (read-modify-write). */
  void (*lds_access)(void *user, const tks_wave_view *w, const tks_inst_view *in,
                     const uint32_t addr[64], uint32_t bytes, uint64_t exec, int is_write);
  /* A global/flat-global/buffer access: addr[lane] device addresses. */
  void (*global_access)(void *user, const tks_wave_view *w, const tks_inst_view *in,
                        const uint64_t addr[64], uint32_t bytes, uint64_t exec, int is_write);
  /* A wave arrives at s_barrier (arrive), and all waves of the group have
   * arrived and are released (release, once per barrier instance). */
  void (*barrier_arrive)(void *user, const tks_wave_view *w, const tks_inst_view *in);
  void (*barrier_release)(void *user, uint32_t worker, uint32_t group_linear);
  /* s_waitcnt executed: the counter values encoded in the instruction. */
  void (*waitcnt)(void *user, const tks_wave_view *w, const tks_inst_view *in,
                  int vmcnt, int lgkmcnt, int expcnt);
  /* A wave ends (s_endpgm). */
  void (*wave_end)(void *user, const tks_wave_view *w);
} tks_hooks;

/* Ordered execution. A timing provider (sim/model) may take over the order in
 * which a non-cooperative dispatch runs, so that what shares hardware in the
 * model (an XCD's L2, a CU's pipes) sees accesses in modeled-time order:
 * group gl goes to domain gl % domains (CDNA3 dispatches workgroups to the
 * XCDs round-robin), each domain keeps `slots` groups resident (CUs per XCD x
 * groups per CU) and starts the next of its groups, in dispatch order, on the
 * slot that frees; among the running waves of a domain exec always runs the
 * one whose wave_time is earliest (ties: older group, lower wave), for as long
 * as it stays within `window` cycles of the next one. Domains are independent
 * and run on the worker threads in parallel. Slot numbers are
 * domain * slots + j. Only domains 0..run_domains-1 and, per domain, the first
 * max_groups groups (0: all) run: the others compute nothing (sampling).
 * pick (NULL: k) names the domain's k-th group to run by its place in the
 * domain's list (increasing in k, below the list's length), so that a sample
 * can be spread over the list instead of being its first groups. */
typedef struct tks_sched {
  void *user;
  uint32_t domains, slots, run_domains;
  uint64_t max_groups;
  uint64_t (*pick)(void *user, uint64_t k);
  double window;
  double (*wave_time)(void *user, uint32_t slot, uint32_t wave_in_group);
} tks_sched;

/* Orders the next dispatch (copied); NULL or a zero `slots` restores exec's own
 * order. Cleared by tks_hooks_clear. */
void tks_sched_set(const tks_sched *s);
const tks_sched *tks_sched_get(void);

#define TKS_MAX_HOOKS 4

/* Adds a provider for the next dispatches (copied). -1 when full. */
int tks_hooks_add(const tks_hooks *h);
/* Removes all providers (call after the dispatch if they are per-launch). */
void tks_hooks_clear(void);
/* Number of providers added. */
int tks_hooks_count(void);

#ifdef __cplusplus
}
#endif
#endif
