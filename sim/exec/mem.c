/* mem.c: scalar memory, LDS (ds_*), buffer (MUBUF), global/flat/scratch
 * instructions, the memory checker and the missing-s_waitcnt checker.
 *
 * Hardware facts relied on (CDNA3 ISA guide, chapters "Scalar Memory
 * Operations", "Vector Memory Buffer Instructions", "Flat Memory
 * Instructions", "Data Share Operations"; LLVM AMDGPUUsage "Memory Model
 * GFX942"):
 *  - buffer resource: base [47:0], stride [61:48], num_records dword 2,
 *    ADD_TID_ENABLE dword3 bit 23. Raw buffers (stride 0) are range checked
 *    per dword on inst_offset + vgpr_offset (soffset is not part of the
 *    check); out-of-range loads return 0 and stores are dropped.
 *  - buffer/global loads with `lds`: each active lane's dword goes to LDS at
 *    M0 + instruction offset + lane*4.
 *  - flat addresses inside the shared/private apertures go to LDS/private.
 *  - vmcnt counts vector loads and stores, returned in issue order;
 *    lgkmcnt counts LDS (in order among themselves) and SMEM (any order).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "exec/exec_internal.h"

/* ------------------------------------------------------------------ wait checker */
static void tag_dsts(tks_wave *w, const tks_inst *in, int dom, uint64_t seq)
{
  uint32_t idx = (uint32_t)(in - w->c->p->inst);
  for (int d = 0; d < in->ndst; d++) {
    const tks_operand *o = &in->dst[d];
    for (int i = 0; i < o->n; i++) {
      uint32_t r = o->reg + i;
      if (o->kind == TKS_OPK_VGPR && r < TKS_NVGPR) {
        w->vtag_dom[r] = (uint8_t)dom; w->vtag_seq[r] = seq; w->vtag_inst[r] = idx;
      } else if (o->kind == TKS_OPK_SGPR && r < 128) {
        w->stag_dom[r] = (uint8_t)dom; w->stag_seq[r] = seq; w->stag_inst[r] = idx;
      }
    }
  }
}

void tks_wait_issue(tks_wave *w, const tks_inst *in, int dom)
{
  uint64_t seq;
  if (dom == TKS_D_VM) seq = ++w->vm_seq;
  else if (dom == TKS_D_LDS) seq = ++w->lds_seq;
  else seq = ++w->sm_seq;
  if (w->c->opt->check_waits) tag_dsts(w, in, dom, seq);
}

void tks_wait_retire(tks_wave *w, int vmcnt, int lgkmcnt)
{
  if (w->vm_seq > (uint64_t)vmcnt && w->vm_seq - (uint64_t)vmcnt > w->vm_done) w->vm_done = w->vm_seq - (uint64_t)vmcnt;
  if (w->lds_seq > (uint64_t)lgkmcnt && w->lds_seq - (uint64_t)lgkmcnt > w->lds_done) w->lds_done = w->lds_seq - (uint64_t)lgkmcnt;
  if (vmcnt == 0) w->vm_done = w->vm_seq;
  if (lgkmcnt == 0) { w->lds_done = w->lds_seq; w->sm_done = w->sm_seq; }
}

static int pending(const tks_wave *w, int dom, uint64_t seq)
{
  if (dom == TKS_D_VM) return seq > w->vm_done;
  if (dom == TKS_D_LDS) return seq > w->lds_done;
  if (dom == TKS_D_SMEM) return seq > w->sm_done;
  return 0;
}

static void reg_name(const tks_wave *w, int vgpr, uint32_t r, char *buf, size_t n)
{
  if (vgpr) {
    const tks_kernel *k = w->c->k;
    if (k->agpr_count && r >= k->accum_offset) snprintf(buf, n, "a%u", r - k->accum_offset);
    else snprintf(buf, n, "v%u", r);
  } else if (r == 106) snprintf(buf, n, "vcc_lo");
  else if (r == 107) snprintf(buf, n, "vcc_hi");
  else if (r == 124) snprintf(buf, n, "m0");
  else snprintf(buf, n, "s%u", r);
}

static void report_wait(tks_wave *w, const tks_inst *in, int vgpr, uint32_t r, int dom, uint64_t seq,
                        uint32_t load_idx, int is_write)
{
  tks_ctx *c = w->c;
  uint32_t idx = (uint32_t)(in - c->p->inst);
  if (__atomic_exchange_n(&c->wait_reported[idx], 1, __ATOMIC_RELAXED)) return;
  const tks_inst *ld = &c->p->inst[load_idx];
  char rn[16], need[64];
  reg_name(w, vgpr, r, rn, sizeof rn);
  if (dom == TKS_D_VM) snprintf(need, sizeof need, "vmcnt needs <= %llu", (unsigned long long)(w->vm_seq - seq));
  else if (dom == TKS_D_LDS) snprintf(need, sizeof need, "lgkmcnt needs <= %llu", (unsigned long long)(w->lds_seq - seq));
  else snprintf(need, sizeof need, "lgkmcnt needs 0: scalar loads return out of order");
  char msg[TKS_NAME_MAX + 1024]; /* kernel names reach TKS_NAME_MAX - 1 */
  snprintf(msg, sizeof msg, "tksim: missing s_waitcnt: kernel %s, PC 0x%x '%s' %s %s loaded by PC 0x%x '%s' (%s)",
           c->k->name, in->pc, tks_text(w, in), is_write ? "overwrites" : "reads", rn, ld->pc,
           tks_text(w, ld), need);
  fprintf(stderr, "%s\n", msg);
  tks_soft_error(c, "%s", msg);
  c->wstats[w->g->worker].errors_reported++;
}

static void check_operand(tks_wave *w, const tks_inst *in, const tks_operand *o, int is_write)
{
  for (int i = 0; i < o->n; i++) {
    uint32_t r = o->reg + i;
    if (o->kind == TKS_OPK_VGPR && r < TKS_NVGPR) {
      if (w->vtag_dom[r] && pending(w, w->vtag_dom[r], w->vtag_seq[r])) {
        report_wait(w, in, 1, r, w->vtag_dom[r], w->vtag_seq[r], w->vtag_inst[r], is_write);
        w->vtag_dom[r] = 0;
      }
    } else if (o->kind == TKS_OPK_SGPR && r < 128) {
      if (w->stag_dom[r] && pending(w, w->stag_dom[r], w->stag_seq[r])) {
        report_wait(w, in, 0, r, w->stag_dom[r], w->stag_seq[r], w->stag_inst[r], is_write);
        w->stag_dom[r] = 0;
      }
    }
  }
}

void tks_wait_check(tks_wave *w, const tks_inst *in)
{
  for (int i = 0; i < in->nsrc; i++) check_operand(w, in, &in->src[i], 0);
  /* destinations: a non-memory write racing an outstanding load to the same register;
   * sources that are also destinations (fmac, readlane lanes) were checked above */
  if (in->cls != TKS_CLASS_VMEM && in->cls != TKS_CLASS_DS && in->cls != TKS_CLASS_SMEM)
    for (int i = 0; i < in->ndst; i++) check_operand(w, in, &in->dst[i], 1);
}

/* ------------------------------------------------------------------ memory checks */
static int mem_error(tks_wave *w, const tks_inst *in, int lane, uint64_t addr, uint32_t bytes, const char *what)
{
  tks_ctx *c = w->c;
  int n = __atomic_fetch_add(&c->mem_reports, 1, __ATOMIC_RELAXED);
  char msg[TKS_NAME_MAX + 768];
  snprintf(msg, sizeof msg, "tksim: memory error: kernel %s, PC 0x%x, '%s', lane %d, address 0x%llx, %u bytes (%s)",
           c->k->name, in->pc, tks_text(w, in), lane, (unsigned long long)addr, bytes, what);
  if (n < 20) fprintf(stderr, "%s\n", msg);
  else if (n == 20) fprintf(stderr, "tksim: further memory errors of this dispatch are not printed\n");
  tks_soft_error(c, "%s", msg);
  c->wstats[w->g->worker].errors_reported++;
  return -1;
}

static inline int gcheck(tks_wave *w, const tks_inst *in, int lane, uint64_t addr, uint32_t bytes)
{
  if (!w->c->opt->check_memory) return 0;
  if (addr >= w->cache_lo && addr + bytes <= w->cache_hi) return 0;
  const tks_alloc *a = tks_mem_find(addr, bytes);
  if (a) { w->cache_lo = a->base; w->cache_hi = a->base + a->size; return 0; }
  return mem_error(w, in, lane, addr, bytes, "outside every allocation");
}

/* n <= 16 bytes, the common sizes as fixed-size copies: a run-time size
 * compiles to `rep movs`, slow to start, and this runs once per lane */
static inline void copy_lane(void *d, const void *s, uint32_t n)
{
  switch (n) {
  case 4: memcpy(d, s, 4); break;
  case 8: memcpy(d, s, 8); break;
  case 16: memcpy(d, s, 16); break;
  default: memcpy(d, s, n); break;
  }
}

static inline uint8_t *lds_ptr(tks_wave *w, const tks_inst *in, int lane, uint32_t addr, uint32_t bytes)
{
  tks_group *g = w->g;
  if ((uint64_t)addr + bytes > g->lds_size) {
    char what[96];
    snprintf(what, sizeof what, "outside the workgroup's %u bytes of LDS", g->lds_size);
    mem_error(w, in, lane, addr, bytes, what);
    return NULL;
  }
  return g->lds + addr;
}

static inline uint8_t *priv_ptr(tks_wave *w, const tks_inst *in, int lane, uint64_t off, uint32_t bytes)
{
  if (off + bytes > w->priv_size) {
    char what[96];
    snprintf(what, sizeof what, "outside the lane's %u bytes of private (scratch) memory", w->priv_size);
    mem_error(w, in, lane, off, bytes, what);
    return NULL;
  }
  return w->priv + (size_t)lane * w->priv_size + off;
}

/* ------------------------------------------------------------------ lane data */
static inline void write_dst_lane(tks_wave *w, const tks_inst *in, uint32_t reg, int l, const uint8_t *src)
{
  uint32_t nb = in->mem_bytes;
  if (nb >= 4) {
    for (uint32_t i = 0; i < nb / 4; i++) {
      uint32_t x; memcpy(&x, src + 4 * i, 4);
      if (reg + i < TKS_NVGPR) w->v[reg + i][l] = x;
    }
    return;
  }
  uint32_t x = nb == 1 ? src[0] : (uint32_t)src[0] | ((uint32_t)src[1] << 8);
  int sext = in->mem_ext & TKS_MX_SEXT;
  if (sext) x = nb == 1 ? (uint32_t)(int32_t)(int8_t)x : (uint32_t)(int32_t)(int16_t)x;
  uint32_t old = w->v[reg][l];
  if (in->mem_ext & TKS_MX_D16) x = (old & 0xffff0000u) | (x & 0xffff);
  else if (in->mem_ext & TKS_MX_D16_HI) x = (old & 0xffffu) | (x << 16);
  w->v[reg][l] = x;
}

static inline void read_data_lane(const tks_wave *w, const tks_inst *in, uint32_t reg, int l, uint8_t *dst)
{
  uint32_t nb = in->mem_bytes;
  if (nb >= 4) {
    for (uint32_t i = 0; i < nb / 4; i++) { uint32_t x = w->v[(reg + i) & (TKS_NVGPR - 1)][l]; memcpy(dst + 4 * i, &x, 4); }
    return;
  }
  uint32_t x = w->v[reg][l];
  if (in->mem_ext & TKS_MX_D16_HI) x >>= 16;
  dst[0] = (uint8_t)x;
  if (nb == 2) dst[1] = (uint8_t)(x >> 8);
}

static void lds_hook(tks_wave *w, const tks_inst *in, const uint32_t *addr, uint32_t bytes, uint64_t m, int wr)
{
  tks_inst_view iv; tks_fill_inst_view(w, in, &iv);
  w->view.exec = tks_exec_mask(w);
  for (int h = 0; h < tks_hook_n; h++)
    if (tks_hook_table[h].lds_access) tks_hook_table[h].lds_access(tks_hook_table[h].user, &w->view, &iv, addr, bytes, m, wr);
}

static void global_hook(tks_wave *w, const tks_inst *in, const uint64_t *addr, uint32_t bytes, uint64_t m, int wr)
{
  tks_inst_view iv; tks_fill_inst_view(w, in, &iv);
  w->view.exec = tks_exec_mask(w);
  for (int h = 0; h < tks_hook_n; h++)
    if (tks_hook_table[h].global_access) tks_hook_table[h].global_access(tks_hook_table[h].user, &w->view, &iv, addr, bytes, m, wr);
}

/* ------------------------------------------------------------------ atomics */
static uint16_t f32_to_bf16_rne(float f)
{
  uint32_t u = tks_f2u(f);
  if ((u & 0x7fffffff) > 0x7f800000) return (uint16_t)((u >> 16) | 0x40);
  u += 0x7fff + ((u >> 16) & 1);
  return (uint16_t)(u >> 16);
}

/* Applies atomic `at` to 4 or 8 bytes at p; data[0..1] (cmpswap: new, cmp). Returns old. */
static uint64_t atomic_apply(void *p, int at, uint32_t bytes, uint64_t src, uint64_t cmp, int shared)
{
  if (bytes == 4) {
    uint32_t *q = p, s = (uint32_t)src;
    switch (at) {
    case TKS_AT_ADD: return __atomic_fetch_add(q, s, __ATOMIC_SEQ_CST);
    case TKS_AT_SUB: return __atomic_fetch_sub(q, s, __ATOMIC_SEQ_CST);
    case TKS_AT_AND: return __atomic_fetch_and(q, s, __ATOMIC_SEQ_CST);
    case TKS_AT_OR: return __atomic_fetch_or(q, s, __ATOMIC_SEQ_CST);
    case TKS_AT_XOR: return __atomic_fetch_xor(q, s, __ATOMIC_SEQ_CST);
    case TKS_AT_SWAP: return __atomic_exchange_n(q, s, __ATOMIC_SEQ_CST);
    default: break;
    }
    uint32_t old = __atomic_load_n(q, __ATOMIC_SEQ_CST), nw;
    for (;;) {
      switch (at) {
      case TKS_AT_CMPSWAP: nw = old == (uint32_t)cmp ? s : old; break;
      case TKS_AT_RSUB: nw = s - old; break;
      case TKS_AT_MSKOR: nw = (old & ~s) | (uint32_t)cmp; break;
      case TKS_AT_WRAP: nw = old >= s ? old - s : old + (uint32_t)cmp; break;
      case TKS_AT_SMIN: nw = (int32_t)s < (int32_t)old ? s : old; break;
      case TKS_AT_UMIN: nw = s < old ? s : old; break;
      case TKS_AT_SMAX: nw = (int32_t)s > (int32_t)old ? s : old; break;
      case TKS_AT_UMAX: nw = s > old ? s : old; break;
      case TKS_AT_INC: nw = old >= s ? 0 : old + 1; break;
      case TKS_AT_DEC: nw = (old == 0 || old > s) ? s : old - 1; break;
      case TKS_AT_ADD_F32: nw = tks_f2u(tks_u2f(old) + tks_u2f(s)); break;
      case TKS_AT_MIN_F32: nw = tks_f2u(fminf(tks_u2f(old), tks_u2f(s))); break;
      case TKS_AT_MAX_F32: nw = tks_f2u(fmaxf(tks_u2f(old), tks_u2f(s))); break;
      case TKS_AT_PK_ADD_F16:
        nw = (uint32_t)tks_f2h(tks_h2f((uint16_t)old) + tks_h2f((uint16_t)s)) |
             ((uint32_t)tks_f2h(tks_h2f((uint16_t)(old >> 16)) + tks_h2f((uint16_t)(s >> 16))) << 16);
        break;
      case TKS_AT_PK_ADD_BF16:
        nw = (uint32_t)f32_to_bf16_rne(tks_bf2f((uint16_t)old) + tks_bf2f((uint16_t)s)) |
             ((uint32_t)f32_to_bf16_rne(tks_bf2f((uint16_t)(old >> 16)) + tks_bf2f((uint16_t)(s >> 16))) << 16);
        break;
      default: nw = old; break;
      }
      if (!shared) { *q = nw; return old; }
      if (__atomic_compare_exchange_n(q, &old, nw, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
    }
  }
  uint64_t *q = p, s = src;
  switch (at) {
  case TKS_AT_ADD: return __atomic_fetch_add(q, s, __ATOMIC_SEQ_CST);
  case TKS_AT_SUB: return __atomic_fetch_sub(q, s, __ATOMIC_SEQ_CST);
  case TKS_AT_AND: return __atomic_fetch_and(q, s, __ATOMIC_SEQ_CST);
  case TKS_AT_OR: return __atomic_fetch_or(q, s, __ATOMIC_SEQ_CST);
  case TKS_AT_XOR: return __atomic_fetch_xor(q, s, __ATOMIC_SEQ_CST);
  case TKS_AT_SWAP: return __atomic_exchange_n(q, s, __ATOMIC_SEQ_CST);
  default: break;
  }
  uint64_t old = __atomic_load_n(q, __ATOMIC_SEQ_CST), nw;
  for (;;) {
    switch (at) {
    case TKS_AT_CMPSWAP: nw = old == cmp ? s : old; break;
    case TKS_AT_RSUB: nw = s - old; break;
    case TKS_AT_MSKOR: nw = (old & ~s) | cmp; break;
    case TKS_AT_SMIN: nw = (int64_t)s < (int64_t)old ? s : old; break;
    case TKS_AT_UMIN: nw = s < old ? s : old; break;
    case TKS_AT_SMAX: nw = (int64_t)s > (int64_t)old ? s : old; break;
    case TKS_AT_UMAX: nw = s > old ? s : old; break;
    case TKS_AT_INC: nw = old >= s ? 0 : old + 1; break;
    case TKS_AT_DEC: nw = (old == 0 || old > s) ? s : old - 1; break;
    case TKS_AT_ADD_F64: nw = tks_d2u(tks_u2d(old) + tks_u2d(s)); break;
    case TKS_AT_MIN_F64: nw = tks_d2u(fmin(tks_u2d(old), tks_u2d(s))); break;
    case TKS_AT_MAX_F64: nw = tks_d2u(fmax(tks_u2d(old), tks_u2d(s))); break;
    default: nw = old; break;
    }
    if (!shared) { *q = nw; return old; }
    if (__atomic_compare_exchange_n(q, &old, nw, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return old;
  }
}

static inline uint64_t vreg64(const tks_wave *w, uint32_t r, int l)
{
  return (uint64_t)w->v[r][l] | ((uint64_t)w->v[(r + 1) & (TKS_NVGPR - 1)][l] << 32);
}

/* ------------------------------------------------------------------ SMEM */
static int exec_smem(tks_wave *w, const tks_inst *in)
{
  if (in->op == TKS_OP_S_MEMTIME || in->op == TKS_OP_S_MEMREALTIME) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t t = (uint64_t)ts.tv_sec * 100000000ull + (uint64_t)ts.tv_nsec / 10; /* 100 MHz */
    tks_swrite64(w, in->dst[0].reg, t);
    tks_wait_issue(w, in, TKS_D_SMEM);
    return 0;
  }
  uint32_t n = in->mem_bytes / 4;
  uint32_t vals[16];
  memset(vals, 0, sizeof vals);
  int64_t off = in->src[1].kind == TKS_OPK_IMM ? (int64_t)(int32_t)(uint32_t)in->src[1].imm
                                               : (int64_t)tks_op32(w, &in->src[1]);
  if (in->src[1].kind == TKS_OPK_SGPR) off += in->offset;
  if (in->op == TKS_OP_S_STORE || in->op == TKS_OP_S_BUFFER_STORE || in->op == TKS_OP_S_ATOMIC ||
      in->op == TKS_OP_S_BUFFER_ATOMIC) {
    /* address: SBASE + offset, or the buffer descriptor's base + offset
     * within NUM_RECORDS (out of range: the store is dropped, the atomic
     * returns 0) */
    uint64_t addr;
    int in_range = 1;
    uint32_t bytes = in->mem_bytes;
    if (in->op == TKS_OP_S_STORE || in->op == TKS_OP_S_ATOMIC) {
      addr = (tks_sread64(w, in->src[0].reg) + (uint64_t)off) & ~3ull;
    } else {
      uint32_t r = in->src[0].reg;
      uint64_t base = (uint64_t)w->s[r] | ((uint64_t)(w->s[r + 1] & 0xffff) << 32);
      uint64_t o = (uint64_t)off & ~3ull;
      in_range = o + bytes <= w->s[r + 2];
      addr = base + o;
    }
    uint32_t d = in->dst[0].reg;
    if (in->op == TKS_OP_S_STORE || in->op == TKS_OP_S_BUFFER_STORE) {
      if (in_range && gcheck(w, in, 0, addr, bytes) == 0)
        for (uint32_t i = 0; i < n; i++) memcpy((void *)(uintptr_t)(addr + 4 * i), &w->s[d + i], 4);
      return 0;
    }
    uint64_t src = bytes == 8 ? tks_sread64(w, d) : w->s[d];
    uint64_t cmp = in->sub == TKS_AT_CMPSWAP ? (bytes == 8 ? tks_sread64(w, d + 2) : w->s[d + 1]) : 0;
    uint64_t old = 0;
    if (in_range && gcheck(w, in, 0, addr & ~(uint64_t)(bytes - 1), bytes) == 0)
      old = atomic_apply((void *)(uintptr_t)(addr & ~(uint64_t)(bytes - 1)), in->sub, bytes, src, cmp, 1);
    if (in->flags & (TKS_F_GLC | TKS_F_SC0)) {
      if (bytes == 8) tks_swrite64(w, d, old); else tks_swrite32(w, d, (uint32_t)old);
      tks_wait_issue(w, in, TKS_D_SMEM);
    }
    return 0;
  }
  if (in->op == TKS_OP_S_LOAD) {
    uint64_t addr = (tks_sread64(w, in->src[0].reg) + (uint64_t)off) & ~3ull;
    uint32_t nb = n * 4;
    if (w->c->opt->check_memory && !tks_mem_find(addr, nb)) {
      /* the compiler widens scalar loads over the padding after the last
       * kernel argument: accept a load whose first dword is in an allocation
       * and read only the allocation's bytes (the rest reads 0) */
      const tks_alloc *a = tks_mem_find(addr, 4);
      if (!a || addr + nb > a->base + ((a->size + 63) & ~63ull)) { gcheck(w, in, 0, addr, nb); nb = 0; }
      else nb = (uint32_t)(a->base + a->size - addr) & ~3u;
    }
    if (nb) memcpy(vals, (const void *)(uintptr_t)addr, nb);
  } else {
    uint32_t r = in->src[0].reg;
    uint64_t base = (uint64_t)w->s[r] | ((uint64_t)(w->s[r + 1] & 0xffff) << 32);
    uint32_t num = w->s[r + 2];
    for (uint32_t i = 0; i < n; i++) {
      uint64_t o = ((uint64_t)off & ~3ull) + 4 * i;
      if (o >= num) continue;
      if (gcheck(w, in, 0, base + o, 4) == 0) memcpy(&vals[i], (const void *)(uintptr_t)(base + o), 4);
    }
  }
  for (uint32_t i = 0; i < n; i++) tks_swrite32(w, in->dst[0].reg + i, vals[i]);
  tks_wait_issue(w, in, TKS_D_SMEM);
  return 0;
}

/* ------------------------------------------------------------------ DS */
static int exec_ds(tks_wave *w, const tks_inst *in)
{
  tks_launch_stats *st = &w->c->wstats[w->g->worker];
  uint64_t m = tks_exec_mask(w);
  uint32_t addr[64];
  const uint32_t *va = in->nsrc > 0 && in->src[0].kind == TKS_OPK_VGPR ? w->v[in->src[0].reg] : NULL;
  int hooks = w->c->hooks;
  st->lds_accesses += (uint64_t)__builtin_popcountll(m);
  switch (in->op) {
  case TKS_OP_DS_NOP: return 0;
  case TKS_OP_DS_GWS_INIT: tks_wait_issue(w, in, TKS_D_LDS); return 0;
  case TKS_OP_DS_GWS_BARRIER: {
    /* global wave sync (grid sync of cooperative launches): the data is the
     * number of waves that take part minus one */
    tks_ctx *c = w->c;
    if (!c->d->cooperative) {
      tks_fail(c, "kernel %s: '%s' at PC 0x%x: a grid-wide barrier (ds_gws_barrier) needs a "
               "cooperative launch (hipLaunchCooperativeKernel)", c->k->name, tks_text(w, in), in->pc);
      w->state = TKS_WS_DONE;
      return 0;
    }
    int fl = m ? __builtin_ctzll(m) : 0;
    uint64_t target = (uint64_t)w->v[in->src[0].reg][fl] + 1;
    uint64_t gen = __atomic_load_n(&c->gws_gen, __ATOMIC_ACQUIRE);
    uint64_t n = __atomic_add_fetch(&c->gws_arrived, 1, __ATOMIC_ACQ_REL);
    if (n >= target) {
      __atomic_store_n(&c->gws_arrived, 0, __ATOMIC_RELEASE);
      __atomic_add_fetch(&c->gws_gen, 1, __ATOMIC_ACQ_REL);
    }
    w->gws_wait_gen = gen;
    w->state = TKS_WS_GWS;
    tks_wait_issue(w, in, TKS_D_LDS);
    return 0;
  }
  case TKS_OP_DS_READ: case TKS_OP_DS_WRITE: {
    int wr = in->op == TKS_OP_DS_WRITE;
    uint32_t nb = in->mem_bytes;
    for (int l = 0; l < 64; l++) addr[l] = va ? va[l] + (uint32_t)in->offset : 0;
    if (hooks) lds_hook(w, in, addr, nb, m, wr);
    for (int l = 0; l < 64; l++) {
      if (!(m >> l & 1)) continue;
      uint8_t *p = lds_ptr(w, in, l, addr[l], nb);
      if (wr) { if (p) read_data_lane(w, in, in->src[1].reg, l, p); }
      else {
        uint8_t z[16] = {0};
        write_dst_lane(w, in, in->dst[0].reg, l, p ? p : z);
      }
    }
    if (wr) st->lds_write++; else st->lds_read++;
    tks_wait_issue(w, in, TKS_D_LDS);
    return 0;
  }
  case TKS_OP_DS_READ_TR: {
    /* gfx950 ds_read_b64_tr_b16 / _tr_b8 (sources: docs/hardware.md): every
     * lane reads 8 bytes (E = 4 or 8 elements) at its own address; within each
     * 16-lane group, lane i's result element j is element i % E of what lane
     * j * (16 / E) + i / E read. The ISA requires EXEC all ones: refuse else. */
    if (m != ~0ull) {
      tks_fail(w->c, "kernel %s: '%s' at PC 0x%x: transposing LDS read with EXEC 0x%016llx, not all ones "
               "(CDNA4 ISA guide: EXEC must be all 1's for these instructions; the result is undefined)",
               w->c->k->name, tks_text(w, in), in->pc, (unsigned long long)m);
      w->state = TKS_WS_DONE;
      return 0;
    }
    uint32_t eb = in->sub, E = 64 / eb, per = 16 / E;
    uint8_t raw[64][8];
    for (int l = 0; l < 64; l++) addr[l] = va ? va[l] + (uint32_t)in->offset : 0;
    if (hooks) lds_hook(w, in, addr, 8, m, 0);
    for (int l = 0; l < 64; l++) {
      uint8_t *p = lds_ptr(w, in, l, addr[l], 8);
      if (p) memcpy(raw[l], p, 8); else memset(raw[l], 0, 8);
    }
    uint32_t r = in->dst[0].reg;
    for (int l = 0; l < 64; l++) {
      int g = l & ~15, i = l & 15;
      uint64_t v = 0;
      for (uint32_t j = 0; j < E; j++) {
        const uint8_t *s = raw[g + (int)(j * per) + i / (int)E];
        uint32_t e = (uint32_t)i % E;
        uint64_t x = eb == 16 ? (uint64_t)s[2 * e] | ((uint64_t)s[2 * e + 1] << 8) : s[e];
        v |= x << (j * eb);
      }
      if (r < TKS_NVGPR) w->v[r][l] = (uint32_t)v;
      if (r + 1 < TKS_NVGPR) w->v[r + 1][l] = (uint32_t)(v >> 32);
    }
    st->lds_read++;
    tks_wait_issue(w, in, TKS_D_LDS);
    return 0;
  }
  case TKS_OP_DS_READ2: case TKS_OP_DS_WRITE2: {
    int wr = in->op == TKS_OP_DS_WRITE2;
    uint32_t nb = in->mem_bytes, scale = nb * (in->mem_ext == 8 ? 64 : 1);
    uint32_t addr1[64];
    for (int l = 0; l < 64; l++) {
      uint32_t b = va ? va[l] : 0;
      addr[l] = b + (uint32_t)in->offset * scale;
      addr1[l] = b + (uint32_t)in->offset1 * scale;
    }
    if (hooks) { lds_hook(w, in, addr, nb, m, wr); lds_hook(w, in, addr1, nb, m, wr); }
    tks_inst tmp = *in;
    tmp.mem_ext = 0;
    for (int l = 0; l < 64; l++) {
      if (!(m >> l & 1)) continue;
      uint8_t *p0 = lds_ptr(w, in, l, addr[l], nb), *p1 = lds_ptr(w, in, l, addr1[l], nb);
      if (wr) {
        if (p0) read_data_lane(w, &tmp, in->src[1].reg, l, p0);
        if (p1) read_data_lane(w, &tmp, in->src[2].reg, l, p1);
      } else {
        uint8_t z[16] = {0};
        write_dst_lane(w, &tmp, in->dst[0].reg, l, p0 ? p0 : z);
        write_dst_lane(w, &tmp, in->dst[0].reg + nb / 4, l, p1 ? p1 : z);
      }
    }
    if (wr) st->lds_write++; else st->lds_read++;
    tks_wait_issue(w, in, TKS_D_LDS);
    return 0;
  }
  case TKS_OP_DS_ATOMIC: {
    uint32_t nb = in->mem_bytes;
    for (int l = 0; l < 64; l++) addr[l] = va ? va[l] + (uint32_t)in->offset : 0;
    if (hooks) lds_hook(w, in, addr, nb, m, 2);
    for (int l = 0; l < 64; l++) {
      if (!(m >> l & 1)) continue;
      uint8_t *p = lds_ptr(w, in, l, addr[l], nb);
      uint64_t d0 = nb == 8 ? vreg64(w, in->src[1].reg, l) : w->v[in->src[1].reg][l];
      uint64_t d1 = in->nsrc > 2 ? (nb == 8 ? vreg64(w, in->src[2].reg, l) : w->v[in->src[2].reg][l]) : 0;
      uint64_t old = 0;
      if (p) {
        /* ds_cmpst: DATA0 is the compare value, DATA1 the new value */
        if (in->sub == TKS_AT_CMPSWAP) old = atomic_apply(p, in->sub, nb, d1, d0, 0);
        else old = atomic_apply(p, in->sub, nb, d0, d1, 0); /* mskor, wrap: DATA2 second */
      }
      if (in->flags & TKS_F_RTN) {
        w->v[in->dst[0].reg][l] = (uint32_t)old;
        if (nb == 8) w->v[in->dst[0].reg + 1][l] = (uint32_t)(old >> 32);
      }
    }
    st->lds_write++;
    tks_wait_issue(w, in, TKS_D_LDS);
    return 0;
  }
  case TKS_OP_DS_GWS_SEMA_V: case TKS_OP_DS_GWS_SEMA_BR: case TKS_OP_DS_GWS_SEMA_P: case TKS_OP_DS_GWS_SEMA_RELEASE_ALL: {
    tks_ctx *c = w->c;
    uint32_t id = (((w->s[124] >> 16) & 63) + ((uint32_t)in->offset & 63)) & 63;
    int fl = m ? __builtin_ctzll(m) : 0;
    switch (in->op) {
    case TKS_OP_DS_GWS_SEMA_V: __atomic_add_fetch(&c->gws_sema[id], 1, __ATOMIC_ACQ_REL); break;
    case TKS_OP_DS_GWS_SEMA_BR: {
      uint32_t n = in->nsrc > 0 && in->src[0].kind == TKS_OPK_VGPR ? w->v[in->src[0].reg][fl] : 0;
      __atomic_add_fetch(&c->gws_sema[id], n, __ATOMIC_ACQ_REL);
      break;
    }
    case TKS_OP_DS_GWS_SEMA_RELEASE_ALL: __atomic_add_fetch(&c->gws_sema_rel[id], 1, __ATOMIC_ACQ_REL); break;
    default: { /* P */
      uint32_t rel = __atomic_load_n(&c->gws_sema_rel[id], __ATOMIC_ACQUIRE);
      if (w->sema_waiting && rel != w->sema_gen) { w->sema_waiting = 0; break; } /* released */
      uint32_t cur = __atomic_load_n(&c->gws_sema[id], __ATOMIC_ACQUIRE);
      int got = 0;
      while (cur > 0 && !(got = __atomic_compare_exchange_n(&c->gws_sema[id], &cur, cur - 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))) {}
      if (got) { w->sema_waiting = 0; break; }
      if (!w->sema_waiting) { w->sema_waiting = 1; w->sema_gen = rel; }
      w->retry = 1;
      return 0;
    }
    }
    tks_wait_issue(w, in, TKS_D_LDS);
    return 0;
  }
  case TKS_OP_DS_WRXCHG2: {
    /* two exchanges per lane at ADDR + offset0/1 * size (x64 for st64):
     * the old values return in vdst (first) and vdst + size/4 (second) */
    uint32_t nb = in->mem_bytes, scale = nb * (in->mem_ext == 8 ? 64 : 1);
    uint32_t addr1[64];
    for (int l = 0; l < 64; l++) {
      uint32_t b = va ? va[l] : 0;
      addr[l] = b + (uint32_t)in->offset * scale;
      addr1[l] = b + (uint32_t)in->offset1 * scale;
    }
    if (hooks) { lds_hook(w, in, addr, nb, m, 2); lds_hook(w, in, addr1, nb, m, 2); }
    uint32_t d = in->dst[0].reg;
    for (int l = 0; l < 64; l++) {
      if (!(m >> l & 1)) continue;
      for (int k = 0; k < 2; k++) {
        uint8_t *p = lds_ptr(w, in, l, k ? addr1[l] : addr[l], nb);
        uint64_t nw = nb == 8 ? vreg64(w, in->src[1 + k].reg, l) : w->v[in->src[1 + k].reg][l], old = 0;
        if (p) { memcpy(&old, p, nb); memcpy(p, &nw, nb); }
        uint32_t r = d + (uint32_t)k * nb / 4;
        w->v[r & (TKS_NVGPR - 1)][l] = (uint32_t)old;
        if (nb == 8) w->v[(r + 1) & (TKS_NVGPR - 1)][l] = (uint32_t)(old >> 32);
      }
    }
    st->lds_write++;
    tks_wait_issue(w, in, TKS_D_LDS);
    return 0;
  }
  case TKS_OP_DS_ADDTID: {
    /* lane l reads/writes the dword at M0 + offset + 4 * l (no address VGPR) */
    int wr = in->sub;
    for (int l = 0; l < 64; l++) addr[l] = w->s[124] + (uint32_t)in->offset + 4u * (uint32_t)l;
    if (hooks) lds_hook(w, in, addr, 4, m, wr);
    for (int l = 0; l < 64; l++) {
      if (!(m >> l & 1)) continue;
      uint8_t *p = lds_ptr(w, in, l, addr[l], 4);
      if (wr) { if (p) memcpy(p, &w->v[in->src[0].reg][l], 4); }
      else { uint32_t x = 0; if (p) memcpy(&x, p, 4); w->v[in->dst[0].reg][l] = x; }
    }
    if (wr) st->lds_write++; else st->lds_read++;
    tks_wait_issue(w, in, TKS_D_LDS);
    return 0;
  }
  case TKS_OP_DS_APPEND: case TKS_OP_DS_CONSUME: {
    /* the LDS counter at M0[15:0] + offset grows (append) or shrinks
     * (consume) by the number of active lanes; every active lane gets the
     * value before (a lane adds its v_mbcnt for its own slot) */
    uint32_t a = (w->s[124] & 0xffff) + (uint32_t)in->offset, n = (uint32_t)__builtin_popcountll(m), old = 0;
    for (int l = 0; l < 64; l++) addr[l] = a;
    if (hooks) lds_hook(w, in, addr, 4, m, 2);
    int fl = m ? __builtin_ctzll(m) : 0;
    uint8_t *p = m ? lds_ptr(w, in, fl, a, 4) : NULL;
    if (p) {
      memcpy(&old, p, 4);
      uint32_t nw = in->op == TKS_OP_DS_APPEND ? old + n : old - n;
      memcpy(p, &nw, 4);
    }
    for (int l = 0; l < 64; l++) if (m >> l & 1) w->v[in->dst[0].reg][l] = old;
    st->lds_write++;
    tks_wait_issue(w, in, TKS_D_LDS);
    return 0;
  }
  case TKS_OP_DS_BPERMUTE_B32: case TKS_OP_DS_PERMUTE_B32: {
    const uint32_t *data = w->v[in->src[1].reg];
    uint32_t res[64];
    memset(res, 0, sizeof res);
    for (int l = 0; l < 64; l++) {
      if (!(m >> l & 1)) continue;
      uint32_t sl = ((va[l] + (uint32_t)in->offset) >> 2) & 63;
      if (in->op == TKS_OP_DS_BPERMUTE_B32) res[l] = (m >> sl & 1) ? data[sl] : 0;
      else res[sl] = data[l];
    }
    uint32_t *d = w->v[in->dst[0].reg];
    for (int l = 0; l < 64; l++) if (m >> l & 1) d[l] = res[l];
    tks_wait_issue(w, in, TKS_D_LDS);
    return 0;
  }
  case TKS_OP_DS_SWIZZLE_B32: {
    const uint32_t *data = w->v[in->src[0].reg];
    uint32_t off = (uint32_t)in->offset & 0xffff, res[64];
    for (int l = 0; l < 64; l++) {
      int sl;
      if (off & 0x8000) sl = (l & ~3) | (int)((off >> (2 * (l & 3))) & 3);
      else {
        uint32_t andm = off & 31, orm = (off >> 5) & 31, xorm = (off >> 10) & 31;
        sl = (l & 32) | (int)((((uint32_t)l & andm) | orm) ^ xorm);
      }
      res[l] = (m >> sl & 1) ? data[sl] : 0;
    }
    uint32_t *d = w->v[in->dst[0].reg];
    for (int l = 0; l < 64; l++) if (m >> l & 1) d[l] = res[l];
    tks_wait_issue(w, in, TKS_D_LDS);
    return 0;
  }
  default: return -1;
  }
}

/* ------------------------------------------------------------------ VMEM */
enum { SP_GLOBAL = 0, SP_LDS, SP_PRIV };

static int exec_vmem(tks_wave *w, const tks_inst *in)
{
  tks_launch_stats *st = &w->c->wstats[w->g->worker];
  uint64_t m = tks_exec_mask(w);
  int op = in->op;
  int is_load = op == TKS_OP_GLOBAL_LOAD || op == TKS_OP_FLAT_LOAD || op == TKS_OP_SCRATCH_LOAD || op == TKS_OP_BUFFER_LOAD;
  int is_atomic = op == TKS_OP_GLOBAL_ATOMIC || op == TKS_OP_FLAT_ATOMIC || op == TKS_OP_BUFFER_ATOMIC;
  uint32_t nb = in->mem_bytes;
  uint64_t addr[64];
  uint8_t space[64];
  uint64_t oob = 0;  /* buffer lanes out of range (loads read 0, stores dropped) */
  uint64_t oob_dw[64];
  memset(space, SP_GLOBAL, sizeof space);
  const tks_operand *data_op = NULL;
  int64_t ioff = in->offset;
  if (op == TKS_OP_GLOBAL_LOAD || op == TKS_OP_GLOBAL_STORE || op == TKS_OP_GLOBAL_ATOMIC) {
    int si = op == TKS_OP_GLOBAL_LOAD ? 1 : 2;
    if (op != TKS_OP_GLOBAL_LOAD) data_op = &in->src[1];
    if (in->flags & TKS_F_SADDR) {
      uint64_t base = tks_sread64(w, in->src[si].reg);
      const uint32_t *vo = in->src[0].kind == TKS_OPK_VGPR ? w->v[in->src[0].reg] : NULL;
      for (int l = 0; l < 64; l++) addr[l] = base + (vo ? vo[l] : 0) + (uint64_t)ioff;
    } else {
      for (int l = 0; l < 64; l++) addr[l] = vreg64(w, in->src[0].reg, l) + (uint64_t)ioff;
    }
  } else if (op == TKS_OP_FLAT_LOAD || op == TKS_OP_FLAT_STORE || op == TKS_OP_FLAT_ATOMIC) {
    if (op != TKS_OP_FLAT_LOAD) data_op = &in->src[1];
    for (int l = 0; l < 64; l++) {
      uint64_t a = vreg64(w, in->src[0].reg, l) + (uint64_t)ioff;
      uint32_t hi = (uint32_t)(a >> 32);
      if (hi == w->s[235]) { space[l] = SP_LDS; a = (uint32_t)a; }
      else if (hi == w->s[237]) { space[l] = SP_PRIV; a = (uint32_t)a; }
      addr[l] = a;
    }
  } else if (op == TKS_OP_SCRATCH_LOAD || op == TKS_OP_SCRATCH_STORE) {
    const tks_operand *vo = &in->src[0];
    const tks_operand *so = op == TKS_OP_SCRATCH_LOAD ? &in->src[1] : &in->src[2];
    if (op == TKS_OP_SCRATCH_STORE) data_op = &in->src[1];
    uint32_t sb = so->kind == TKS_OPK_SGPR ? tks_sread32(w, so->reg) : 0;
    for (int l = 0; l < 64; l++) {
      uint32_t v = vo->kind == TKS_OPK_VGPR ? w->v[vo->reg][l] : 0;
      addr[l] = (uint32_t)(v + sb + (uint32_t)ioff);
      space[l] = SP_PRIV;
    }
  } else { /* buffer */
    const tks_operand *vo, *rs, *so;
    if (op == TKS_OP_BUFFER_LOAD) { vo = &in->src[0]; rs = &in->src[1]; so = &in->src[2]; }
    else { data_op = &in->src[0]; vo = &in->src[1]; rs = &in->src[2]; so = &in->src[3]; }
    uint32_t r = rs->reg;
    uint64_t base = (uint64_t)w->s[r] | ((uint64_t)(w->s[r + 1] & 0xffff) << 32);
    uint32_t stride = (w->s[r + 1] >> 16) & 0x3fff, num = w->s[r + 2];
    int add_tid = (w->s[r + 3] >> 23) & 1;
    uint32_t soff = tks_op32(w, so);
    for (int l = 0; l < 64; l++) {
      uint32_t idx = 0, voff = 0;
      if (vo->kind == TKS_OPK_VGPR) {
        if ((in->flags & TKS_F_IDXEN) && (in->flags & TKS_F_OFFEN)) { idx = w->v[vo->reg][l]; voff = w->v[vo->reg + 1][l]; }
        else if (in->flags & TKS_F_IDXEN) idx = w->v[vo->reg][l];
        else if (in->flags & TKS_F_OFFEN) voff = w->v[vo->reg][l];
      }
      if (add_tid) idx += (uint32_t)l;
      uint64_t off = (uint64_t)voff + (uint64_t)(uint32_t)ioff;
      addr[l] = base + soff + off + (uint64_t)idx * stride;
      oob_dw[l] = 0;
      if (stride == 0) {
        uint32_t ndw = nb >= 4 ? nb / 4 : 1;
        for (uint32_t i = 0; i < ndw; i++)
          if (off + 4 * i >= num) oob_dw[l] |= 1ull << i;
        if (oob_dw[l] == (1ull << ndw) - 1) oob |= 1ull << l;
      } else if (idx >= num) {
        oob |= 1ull << l; oob_dw[l] = ~0ull;
      }
    }
  }
  uint64_t act = m;
  if (w->c->hooks) {
    uint64_t gm = 0;
    for (int l = 0; l < 64; l++) if ((m >> l & 1) && space[l] == SP_GLOBAL && !(oob >> l & 1)) gm |= 1ull << l;
    if (gm) global_hook(w, in, addr, nb, gm, is_atomic ? 2 : !is_load);
  }
  /* loads into LDS */
  if (in->flags & TKS_F_LDS) {
    /* 4 bytes per lane; gfx950 also 12 and 16 (global_load_lds_dwordx3/x4),
     * lane l's bytes at M0 + offset + nb * l (CDNA4 ISA guide) */
    const int gfx950 = w->c->k->co && w->c->k->co->arch == TKS_ARCH_GFX950;
    if (nb != 4 && nb != 1 && nb != 2 && !(gfx950 && (nb == 12 || nb == 16))) return -1;
    /* ubyte/sbyte/ushort/sshort: the value zero/sign-extended to a dword in
     * the lane's dword slot (LDS DMA writes dwords: M0 + offset + 4 * lane) */
    uint32_t lb = nb < 4 ? 4 : nb;
    uint32_t lbase = w->s[124] + (uint32_t)ioff, la[64];
    for (int l = 0; l < 64; l++) la[l] = lbase + lb * (uint32_t)l;
    if (w->c->hooks) lds_hook(w, in, la, lb, m, 1);
    for (int l = 0; l < 64; l++) {
      if (!(act >> l & 1)) continue;
      uint8_t v[16] = {0};
      if (space[l] == SP_PRIV) { const uint8_t *q = priv_ptr(w, in, l, addr[l], nb); if (q) memcpy(v, q, nb); }
      else if (!(oob >> l & 1) && gcheck(w, in, l, addr[l], nb) == 0) copy_lane(v, (const void *)(uintptr_t)addr[l], nb);
      if (nb < 4 && (in->mem_ext & TKS_MX_SEXT) && (v[nb - 1] & 0x80)) memset(v + nb, 0xff, 4 - nb);
      uint8_t *p = lds_ptr(w, in, l, la[l], lb);
      if (p) copy_lane(p, v, lb);
    }
    st->vmem_load++;
    st->global_bytes_read += (uint64_t)nb * (uint64_t)__builtin_popcountll(m);
    tks_wait_issue(w, in, TKS_D_VM);
    return 0;
  }
  uint64_t gbytes = 0;
  for (int l = 0; l < 64; l++) {
    if (!(act >> l & 1)) continue;
    uint8_t *p = NULL;
    int isbuf = op == TKS_OP_BUFFER_LOAD || op == TKS_OP_BUFFER_STORE || op == TKS_OP_BUFFER_ATOMIC;
    uint32_t chk = nb;
    if (isbuf && (oob >> l & 1)) p = NULL;
    else if (space[l] == SP_GLOBAL) {
      if (isbuf && oob_dw[l]) { chk = 4u * (uint32_t)__builtin_ctzll(oob_dw[l]); }
      if (gcheck(w, in, l, addr[l], chk) == 0) p = (uint8_t *)(uintptr_t)addr[l];
      gbytes += nb;
    } else if (space[l] == SP_LDS) p = lds_ptr(w, in, l, (uint32_t)addr[l], nb);
    else p = priv_ptr(w, in, l, addr[l], nb);
    if (is_load) {
      uint8_t buf[16] = {0};
      if (p) copy_lane(buf, p, chk < nb ? chk : nb);
      write_dst_lane(w, in, in->dst[0].reg, l, buf);
    } else if (is_atomic) {
      if (!p) { if (in->flags & TKS_F_RTN) { w->v[in->dst[0].reg][l] = 0; if (nb == 8) w->v[in->dst[0].reg + 1][l] = 0; } continue; }
      uint64_t src = nb == 8 ? vreg64(w, data_op->reg, l) : w->v[data_op->reg][l];
      uint64_t cmp = 0;
      if (in->sub == TKS_AT_CMPSWAP) cmp = nb == 8 ? vreg64(w, data_op->reg + 2, l) : w->v[data_op->reg + 1][l];
      uint64_t old = atomic_apply(p, in->sub, nb, src, cmp, space[l] == SP_GLOBAL);
      if (in->flags & TKS_F_RTN) {
        w->v[in->dst[0].reg][l] = (uint32_t)old;
        if (nb == 8) w->v[in->dst[0].reg + 1][l] = (uint32_t)(old >> 32);
      }
    } else if (p) {
      uint8_t buf[16];
      read_data_lane(w, in, data_op->reg, l, buf);
      copy_lane(p, buf, chk < nb ? chk : nb);
    }
  }
  if (is_load) { st->vmem_load++; st->global_bytes_read += gbytes; }
  else if (is_atomic) { st->vmem_store++; st->global_bytes_read += gbytes; st->global_bytes_written += gbytes; }
  else { st->vmem_store++; st->global_bytes_written += gbytes; }
  tks_wait_issue(w, in, TKS_D_VM);
  return 0;
}

/* ------------------------------------------------------------------ typed buffers */
/* CDNA3 ISA guide, "Buffer Instructions" / "MTBUF": DATA_FORMAT gives the
 * element's components and their widths, NUM_FORMAT how each converts to a
 * 32-bit register value. Formats whose components all have one width (8, 16
 * or 32 bits) are implemented; the packed 10/11/2-bit ones stop the dispatch
 * with a message. */
enum { NF_UNORM = 0, NF_SNORM, NF_USCALED, NF_SSCALED, NF_UINT, NF_SINT, NF_RESERVED6, NF_FLOAT };

static int typed_format(uint32_t dfmt, uint32_t *ncomp, uint32_t *bits)
{
  static const uint8_t nc[16] = {0, 1, 1, 2, 1, 2, 0, 0, 0, 0, 4, 2, 4, 3, 4, 0};
  static const uint8_t bw[16] = {0, 8, 16, 8, 32, 16, 0, 0, 0, 0, 8, 32, 16, 32, 32, 0};
  if (dfmt > 15 || !nc[dfmt]) return -1;
  *ncomp = nc[dfmt]; *bits = bw[dfmt];
  return 0;
}

/* one component (raw bits v of width b) to its 32-bit register value */
static uint32_t typed_to_reg(uint32_t v, uint32_t b, uint32_t nf)
{
  uint32_t top = b == 32 ? 0xffffffffu : (1u << b) - 1;
  int32_t sx = b == 32 ? (int32_t)v : (int32_t)(v << (32 - b)) >> (32 - b);
  switch (nf) {
  case NF_UNORM: return tks_f2u((float)((double)v / top));
  case NF_SNORM: { double f = (double)sx / (double)(top >> 1); return tks_f2u((float)(f < -1.0 ? -1.0 : f)); }
  case NF_USCALED: return tks_f2u((float)v);
  case NF_SSCALED: return tks_f2u((float)sx);
  case NF_UINT: return v;
  case NF_SINT: return (uint32_t)sx;
  default: return b == 16 ? tks_f2u(tks_h2f((uint16_t)v)) : v; /* FLOAT: f16 or f32 */
  }
}

/* a register value to the component's raw bits (stores) */
static uint32_t typed_from_reg(uint32_t r, uint32_t b, uint32_t nf)
{
  uint32_t top = b == 32 ? 0xffffffffu : (1u << b) - 1;
  float f = tks_u2f(r);
  double d = isnan(f) ? 0.0 : (double)f;
  switch (nf) {
  case NF_UNORM: d = d < 0 ? 0 : d > 1 ? 1 : d; return (uint32_t)rint(d * top) & top;
  case NF_SNORM: { d = d < -1 ? -1 : d > 1 ? 1 : d; return (uint32_t)(int64_t)rint(d * (double)(top >> 1)) & top; }
  case NF_USCALED: d = rint(d); d = d < 0 ? 0 : d > (double)top ? (double)top : d; return (uint32_t)d & top;
  case NF_SSCALED: { double lim = (double)(top >> 1); d = rint(d); d = d < -lim - 1 ? -lim - 1 : d > lim ? lim : d; return (uint32_t)(int64_t)d & top; }
  case NF_UINT: case NF_SINT: return r & top;
  default: return b == 16 ? tks_f2h(f) : r;
  }
}

static int exec_typed(tks_wave *w, const tks_inst *in)
{
  tks_launch_stats *st = &w->c->wstats[w->g->worker];
  uint64_t m = tks_exec_mask(w);
  const int load = in->op == TKS_OP_BUFFER_LOAD_FORMAT || in->op == TKS_OP_TBUFFER_LOAD_FORMAT;
  const tks_operand *vo, *rs, *so, *data = NULL;
  if (load) { vo = &in->src[0]; rs = &in->src[1]; so = &in->src[2]; }
  else { data = &in->src[0]; vo = &in->src[1]; rs = &in->src[2]; so = &in->src[3]; }
  uint32_t r = rs->reg;
  uint32_t dfmt, nf;
  if (in->op == TKS_OP_TBUFFER_LOAD_FORMAT || in->op == TKS_OP_TBUFFER_STORE_FORMAT) { dfmt = in->sub & 15; nf = (uint32_t)in->sub >> 4; }
  else { dfmt = (w->s[r + 3] >> 15) & 15; nf = (w->s[r + 3] >> 12) & 7; }
  uint32_t nc, bits;
  if (typed_format(dfmt, &nc, &bits) || nf == NF_RESERVED6 || (nf == NF_FLOAT && bits == 8)) {
    tks_fail(w->c, "kernel %s: '%s' at PC 0x%x: buffer data format %u / number format %u is not supported by tksim "
             "(packed 10/11/2-bit, 8-bit float and reserved formats)", w->c->k->name, tks_text(w, in), in->pc, dfmt, nf);
    w->state = TKS_WS_DONE;
    return 0;
  }
  uint64_t base = (uint64_t)w->s[r] | ((uint64_t)(w->s[r + 1] & 0xffff) << 32);
  uint32_t stride = (w->s[r + 1] >> 16) & 0x3fff, num = w->s[r + 2];
  int add_tid = (w->s[r + 3] >> 23) & 1;
  uint32_t soff = tks_op32(w, so), eb = nc * bits / 8, cb = bits / 8;
  const int d16 = (in->mem_ext & (TKS_MX_D16 | TKS_MX_D16_HI)) != 0, hi = (in->mem_ext & TKS_MX_D16_HI) != 0;
  const uint32_t ncomp = in->mem_bytes; /* components the instruction moves */
  uint64_t addr[64];
  for (int l = 0; l < 64; l++) {
    uint32_t idx = 0, voff = 0;
    if (vo->kind == TKS_OPK_VGPR) {
      if ((in->flags & TKS_F_IDXEN) && (in->flags & TKS_F_OFFEN)) { idx = w->v[vo->reg][l]; voff = w->v[(vo->reg + 1) & (TKS_NVGPR - 1)][l]; }
      else if (in->flags & TKS_F_IDXEN) idx = w->v[vo->reg][l];
      else if (in->flags & TKS_F_OFFEN) voff = w->v[vo->reg][l];
    }
    if (add_tid) idx += (uint32_t)l;
    uint64_t off = (uint64_t)voff + (uint64_t)(uint32_t)in->offset;
    /* out of range (raw: offset + element past NUM_RECORDS; structured:
     * index >= NUM_RECORDS): loads read 0, stores are dropped */
    int oob = stride == 0 ? off + eb > num : idx >= num;
    addr[l] = oob ? 0 : base + soff + off + (uint64_t)idx * stride;
  }
  if (w->c->hooks) global_hook(w, in, addr, eb, m, !load);
  for (int l = 0; l < 64; l++) {
    if (!(m >> l & 1)) continue;
    uint8_t buf[16] = {0};
    uint8_t *p = NULL;
    if (addr[l] && gcheck(w, in, l, addr[l], eb) == 0) p = (uint8_t *)(uintptr_t)addr[l];
    if (load) {
      if (p) memcpy(buf, p, eb);
      for (uint32_t c = 0; c < ncomp; c++) {
        uint32_t v, raw = 0;
        if (c < nc) {
          raw = 0;
          memcpy(&raw, buf + c * cb, cb);
          v = typed_to_reg(raw, bits, nf);
        } else v = c == 3 ? (nf == NF_UINT || nf == NF_SINT ? 1u : 0x3f800000u) : 0; /* missing: (0, 0, 0, 1) */
        if (!d16) { w->v[(in->dst[0].reg + c) & (TKS_NVGPR - 1)][l] = v; continue; }
        /* d16: float formats give f16 (16-bit floats as stored), integer formats their low 16 bits */
        uint32_t h = (nf == NF_UINT || nf == NF_SINT) ? (v & 0xffff) : (nf == NF_FLOAT && bits == 16 && c < nc) ? raw : tks_f2h(tks_u2f(v));
        uint32_t *reg = &w->v[(in->dst[0].reg + c / 2) & (TKS_NVGPR - 1)][l];
        int upper = hi || (c & 1);
        *reg = upper ? (*reg & 0xffffu) | (h << 16) : (*reg & 0xffff0000u) | h;
      }
    } else if (p) {
      for (uint32_t c = 0; c < ncomp && c < nc; c++) {
        uint32_t v;
        if (!d16) v = w->v[(data->reg + c) & (TKS_NVGPR - 1)][l];
        else {
          uint32_t x = w->v[(data->reg + c / 2) & (TKS_NVGPR - 1)][l];
          uint32_t h = (hi || (c & 1)) ? x >> 16 : x & 0xffff;
          if (nf == NF_FLOAT && bits == 16) { memcpy(p + c * cb, &h, 2); continue; }
          v = (nf == NF_UINT || nf == NF_SINT) ? h : tks_f2u(tks_h2f((uint16_t)h));
        }
        uint32_t raw = typed_from_reg(v, bits, nf);
        memcpy(p + c * cb, &raw, cb);
      }
    }
  }
  if (load) { st->vmem_load++; st->global_bytes_read += (uint64_t)eb * (uint64_t)__builtin_popcountll(m); }
  else { st->vmem_store++; st->global_bytes_written += (uint64_t)eb * (uint64_t)__builtin_popcountll(m); }
  tks_wait_issue(w, in, TKS_D_VM);
  return 0;
}

int tks_exec_mem(tks_wave *w, const tks_inst *in)
{
  if (in->op >= TKS_OP_BUFFER_LOAD_FORMAT && in->op <= TKS_OP_TBUFFER_STORE_FORMAT) return exec_typed(w, in);
  if (in->cls == TKS_CLASS_SMEM) return exec_smem(w, in);
  if (in->cls == TKS_CLASS_DS) return exec_ds(w, in);
  return exec_vmem(w, in);
}
