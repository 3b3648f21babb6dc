/* banks.h: tksim's models of LDS bank conflicts, one per target.
 *
 * gfx942 LDS has 32 banks of 4 bytes; the bank of a byte address is
 * (address / 4) mod 32, and lanes reading the same dword get it by broadcast
 * (CK-tile docs "Understanding AMD GPU LDS and Bank Conflicts"; AMD APP
 * OpenCL Programming Guide, LDS optimization). The LDS serves a wave's access
 * in phases, each phase a fixed set of lanes that depends on the access width;
 * banks.c holds that assignment in one table (tks_lds_rules) with the source
 * of every row. One phase costs as many cycles as the largest number of
 * distinct dwords any bank must deliver in it.
 *
 * gfx950 (CDNA4) has 64 banks of 4 bytes (Modular's MAX docs for MI355X,
 * make_mma_swizzle: "64 LDS banks x 4 bytes each"; CK-tile docs: "32 or 64
 * banks depending on the hardware architecture") and twice gfx942's LDS read
 * bandwidth (AMD's CDNA4 announcement); its phase table (banks.c) serves 256
 * bytes per read phase and keeps gfx942's write phases. Which lanes share a
 * gfx950 phase is not documented anywhere tksim can cite: banks.c marks it.
 */
#ifndef TKS_CHECK_BANKS_H
#define TKS_CHECK_BANKS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TKS_LDS_BANKS 32      /* gfx942 */
#define TKS_LDS_BANK_BYTES 4
#define TKS_LDS_MAX_BANKS 64  /* gfx950 */

/* One row of the phase table: which accesses it covers and which lanes the
 * LDS serves together. Phase p serves lanes order[p*lanes_per_phase ..
 * (p+1)*lanes_per_phase - 1]. */
typedef struct tks_lds_rule {
  const char *name;          /* e.g. "ds_read_b128" */
  uint32_t min_bytes, max_bytes; /* per-lane width this row covers */
  int access;                /* 0 read, 1 write, -1 either (atomics count as either) */
  uint32_t lanes_per_phase;
  uint8_t order[64];
  int confirmed_gfx942;      /* 0: carried over from older GCN docs, not measured on gfx942 */
  const char *source;
} tks_lds_rule;

/* gfx942's table (the default model) */
extern const tks_lds_rule tks_lds_rules[];
extern const int tks_lds_nrules;
/* One line naming the model, for reports. */
extern const char tks_lds_model_name[];

/* A target's bank model: bank count, phase table, a line for reports. */
typedef struct tks_lds_bank_model {
  const char *name;
  uint32_t banks;
  const tks_lds_rule *rules;
  int nrules;
} tks_lds_bank_model;

/* The model for TKS_ARCH_GFX942 / TKS_ARCH_GFX950 (anything else: gfx942's). */
const tks_lds_bank_model *tks_lds_model_for(int arch);

/* The rule for a per-lane width (1..16 bytes) and direction (is_write: 0 read,
 * 1 write, 2 atomic), or NULL for a width the table does not cover. */
const tks_lds_rule *tks_lds_rule_for(uint32_t bytes, int is_write);

typedef struct tks_lds_cost {
  uint32_t phases;   /* phases with at least one active lane */
  uint32_t cycles;   /* sum over those phases of the worst bank's distinct dwords */
} tks_lds_cost;

/* Cost of one wave-wide LDS access under gfx942's model: addr[lane] byte
 * addresses of the lanes set in exec, each touching `bytes` consecutive
 * bytes. Conflict cycles are cycles - phases. */
tks_lds_cost tks_lds_access_cost(const uint32_t addr[64], uint64_t exec, uint32_t bytes,
                                 int is_write);
/* The same under a given target's model. */
tks_lds_cost tks_lds_access_cost_on(const tks_lds_bank_model *m, const uint32_t addr[64], uint64_t exec,
                                    uint32_t bytes, int is_write);
const tks_lds_rule *tks_lds_rule_on(const tks_lds_bank_model *m, uint32_t bytes, int is_write);

#ifdef __cplusplus
}
#endif
#endif
