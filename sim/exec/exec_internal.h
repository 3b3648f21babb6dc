/* exec_internal.h: wave, workgroup and dispatch state shared by the engine's
 * files (exec.c: dispatch, scheduling, scalar and control flow; valu.c: vector
 * ALU, MFMA; mem.c: SMEM, DS, MUBUF, FLAT/GLOBAL/SCRATCH and the wait checker).
 *
 * Register file model (CDNA3 ISA guide ch. 3, LLVM AMDGPUUsage "Initial Kernel
 * Execution State"): scalar registers are kept by their source-operand
 * encoding (s0..s101, vcc at 106/107, ttmp at 108.., m0 124, exec 126/127);
 * each lane has a unified 512-entry VGPR file, AGPRs start at accum_offset.
 */
#ifndef TKS_EXEC_INTERNAL_H
#define TKS_EXEC_INTERNAL_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "tksim.h"
#include "decoder/decoder.h"
#include "exec/hooks.h"

#define TKS_NVGPR 512
#define TKS_MAX_WAVES 16
#define TKS_MAX_RESIDENT 8
/* The functional exec's dispatcher (exec.c worker_main): workgroups go round robin over
 * TKS_XCDS XCDs in dispatch order (gfx942 and gfx950 parts: 8 XCDs), at most TKS_XCD_FIT
 * resident on one: one per CU of the smaller XCD (MI350X/MI355X 256 CUs / 8 = 32; MI300X
 * and MI325X 38), which any kernel that launches fits (docs/tksim-exec.md) */
#define TKS_XCDS 8
#define TKS_XCD_FIT 32
#define TKS_SHARED_BASE 0x0001000000000000ull  /* flat LDS aperture (above user space) */
#define TKS_PRIVATE_BASE 0x0002000000000000ull /* flat private aperture */
#define TKS_APERTURE_SIZE 0x100000000ull

enum { TKS_WS_RUN = 0, TKS_WS_BARRIER, TKS_WS_DONE, TKS_WS_GWS };
/* wait-check domains */
enum { TKS_D_NONE = 0, TKS_D_VM, TKS_D_LDS, TKS_D_SMEM };

struct tks_ctx;
struct tks_group;

typedef struct tks_wave {
  uint32_t s[256];              /* scalar file by operand encoding */
  uint32_t scc;
  uint32_t pc;                  /* instruction index */
  int state;
  uint32_t mode;                /* HW_REG_MODE (round/denorm) */
  int ftz32, ftz16;             /* flush f32 / f16-f64 denormals */
  int gpr_idx_en;               /* VGPR index mode (s_set_gpr_idx_on): index M0[7:0], kinds M0[15:12] */
  uint32_t id;                  /* wave in group */
  struct tks_group *g;
  struct tks_ctx *c;
  uint32_t (*v)[64];            /* [TKS_NVGPR][64] */
  uint8_t *priv;                /* 64 lanes x priv_size bytes */
  uint32_t priv_size;
  uint64_t icount;              /* instructions executed */
  uint64_t gws_wait_gen;        /* ds_gws_barrier: generation waited for */
  uint32_t sleep_pc;            /* instruction index of its last s_sleep (the stall guard: a poll
                                 * sleeps at one PC, work that sleeps moves on) */
  uint32_t since_sleep;         /* instructions since its last s_sleep (ordered execution's stall
                                 * guard: a poll runs a few between two) */
  uint32_t sema_gen;            /* ds_gws_sema_p: release generation when it began to wait */
  uint8_t sema_waiting;         /* ds_gws_sema_p is waiting (retried) */
  uint8_t retry;                /* the instruction runs again later (a blocked ds_gws_sema_p) */
  uint8_t blocked;              /* it did: schedulers let the other waves go first */
  /* global allocation cache for the memory checker */
  uint64_t cache_lo, cache_hi;
  /* missing-wait checker: issue/retire counters and register tags */
  uint64_t vm_seq, vm_done, lds_seq, lds_done, sm_seq, sm_done;
  uint64_t vtag_seq[TKS_NVGPR];
  uint32_t vtag_inst[TKS_NVGPR];
  uint8_t vtag_dom[TKS_NVGPR];
  uint64_t stag_seq[128];
  uint32_t stag_inst[128];
  uint8_t stag_dom[128];
  /* scratch buffers for operand staging */
  uint32_t tmp[8][64];
  uint64_t tmp64[4][64];
  tks_wave_view view;
} tks_wave;

typedef struct tks_group {
  uint32_t id[3], linear;
  uint32_t size[3];             /* work-items per dimension in this group */
  uint32_t nwaves;
  uint8_t *lds;
  uint32_t lds_size;
  tks_wave *waves;              /* [TKS_MAX_WAVES] */
  int done;
  int slept;                    /* a wave executed s_sleep in this slice */
  int busy;                     /* this slice did more than poll: a wave ran half a quantum or a
                                 * barrier opened (the stall guard's progress, exec.c) */
  uint32_t worker;
} tks_group;

typedef struct tks_stats_local {
  tks_launch_stats s;
} tks_stats_local;

typedef struct tks_ctx {
  const tks_dispatch *d;
  const tks_options *opt;
  tks_kernel *k;
  tks_program *p;
  uint32_t ngroups[3];
  uint64_t total_groups;
  uint32_t waves_per_group;
  uint32_t lds_size;
  uint32_t priv_size;
  uint64_t budget;
  uint64_t next_group;          /* atomic */
  uint64_t insts_done;          /* atomic, budget accounting */
  int failed;                   /* atomic: stop everything */
  uint64_t gws_arrived, gws_gen; /* atomic: grid-wide (GWS) barrier of cooperative launches */
  uint32_t gws_sema[64], gws_sema_rel[64]; /* atomic: GWS semaphore counts, release_all generations */
  int error_flag;               /* atomic: a non-fatal checker error happened */
  int mem_reports;              /* atomic, to cap memory error prints */
  pthread_mutex_t err_lock;
  char err[1024];
  uint8_t *wait_reported;       /* per instruction: wait report printed */
  int hooks;
  uint32_t nworkers;
  uint32_t max_resident;        /* resident groups per worker (non-cooperative) while they run */
  uint32_t xcd_res[TKS_XCDS];   /* atomic: resident groups per XCD (non-cooperative, unordered) */
  uint32_t slot_stride;         /* a worker's execution slots (non-cooperative) */
  uint32_t nslots;              /* execution slots: one per resident group structure */
  tks_launch_stats *wstats;     /* per worker */
  tks_sched sched;              /* ordered execution (sched.slots > 0), hooks.h */
  int sched_merged;             /* its domains in one order on one worker (exec.c sched_merged) */
  uint64_t progress;            /* atomic: groups admitted, ended or busy (the stall guard, exec.c) */
  uint64_t groups_ended;        /* atomic (unordered and cooperative execution) */
  uint32_t stall_seconds;       /* tks_options.stall_seconds or its default */
} tks_ctx;

/* ---- errors */
void tks_fail(tks_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tks_soft_error(tks_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- register helpers */
static inline uint64_t tks_exec_mask(const tks_wave *w)
{
  return (uint64_t)w->s[126] | ((uint64_t)w->s[127] << 32);
}
static inline void tks_set_exec(tks_wave *w, uint64_t m)
{
  w->s[126] = (uint32_t)m; w->s[127] = (uint32_t)(m >> 32);
}
static inline uint64_t tks_vcc(const tks_wave *w)
{
  return (uint64_t)w->s[106] | ((uint64_t)w->s[107] << 32);
}
static inline uint32_t tks_sread32(const tks_wave *w, uint32_t r)
{
  if (r == 253) return w->scc;
  if (r == 251) return tks_vcc(w) == 0;
  if (r == 252) return tks_exec_mask(w) == 0;
  return w->s[r & 255];
}
static inline uint64_t tks_sread64(const tks_wave *w, uint32_t r)
{
  if (r >= 235 && r <= 238) return (uint64_t)w->s[r] << 32;
  if (r >= 251) return tks_sread32(w, r);
  return (uint64_t)w->s[r & 255] | ((uint64_t)w->s[(r + 1) & 255] << 32);
}
static inline uint32_t tks_op32(const tks_wave *w, const tks_operand *o)
{
  if (o->kind == TKS_OPK_IMM) return (uint32_t)o->imm;
  if (o->kind == TKS_OPK_SGPR) return tks_sread32(w, o->reg);
  return 0;
}
static inline uint64_t tks_op64(const tks_wave *w, const tks_operand *o)
{
  if (o->kind == TKS_OPK_IMM) return o->imm;
  if (o->kind == TKS_OPK_SGPR) return tks_sread64(w, o->reg);
  return 0;
}
static inline void tks_swrite32(tks_wave *w, uint32_t r, uint32_t v)
{
  if (r == 253) { w->scc = v & 1; return; }
  if (r < 128) w->s[r] = v;
}
static inline void tks_swrite64(tks_wave *w, uint32_t r, uint64_t v)
{
  if (r < 127) { w->s[r] = (uint32_t)v; w->s[r + 1] = (uint32_t)(v >> 32); }
}

/* ---- float helpers */
static inline float tks_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t tks_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double tks_u2d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t tks_d2u(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static inline float tks_h2f(uint16_t h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }
static inline uint16_t tks_f2h(float f) { _Float16 x = (_Float16)f; uint16_t h; memcpy(&h, &x, 2); return h; }
static inline float tks_bf2f(uint16_t b) { return tks_u2f((uint32_t)b << 16); }

/* ---- engine parts */
int tks_exec_valu(tks_wave *w, const tks_inst *in);   /* 0 ok, -1 unimplemented */
int tks_exec_mfma(tks_wave *w, const tks_inst *in);
int tks_exec_mem(tks_wave *w, const tks_inst *in);    /* SMEM, DS, VMEM */
void tks_wait_check(tks_wave *w, const tks_inst *in);
void tks_wait_retire(tks_wave *w, int vmcnt, int lgkmcnt);
static inline int tks_wait_pending(const tks_wave *w)
{
  return w->vm_seq != w->vm_done || w->lds_seq != w->lds_done || w->sm_seq != w->sm_done;
}
void tks_wait_issue(tks_wave *w, const tks_inst *in, int dom);
void tks_unimpl(tks_wave *w, const tks_inst *in);
const char *tks_text(const tks_wave *w, const tks_inst *in);

extern tks_hooks tks_hook_table[TKS_MAX_HOOKS];
extern int tks_hook_n;

static inline void tks_fill_inst_view(const tks_wave *w, const tks_inst *in, tks_inst_view *iv)
{
  iv->pc = in->pc;
  iv->index = (uint32_t)(in - w->c->p->inst);
  iv->cls = in->cls;
  iv->text = tks_inst_text(w->c->p, in);
  iv->kernel = w->c->k->name;
}

#endif
