/* banks.c: the gfx942 and gfx950 LDS bank-conflict models (see banks.h).
 *
 * Facts used, each with its source in the table below:
 *  - 32 banks x 4 bytes, bank = (byte address / 4) mod 32, same dword in one
 *    phase = broadcast (CK-tile docs, "Understanding AMD GPU LDS and Bank
 *    Conflicts", rocm.docs.amd.com/projects/composable_kernel, conceptual/
 *    ck_tile/hardware/lds_bank_conflicts; AMD APP OpenCL Programming Guide,
 *    "Local Memory (LDS) Optimization": bank = address bits 6:2).
 *  - which lanes share a phase depends on the instruction width (table).
 * A lane's multi-dword access occupies consecutive banks, so a 128-bit lane
 * covers 4 banks and 8 lanes fill all 32 banks in one phase.
 */
#include <string.h>
#include "check/banks.h"
#include "tksim.h"

#define SEQ8(b) b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7
#define SEQ64 SEQ8(0), SEQ8(8), SEQ8(16), SEQ8(24), SEQ8(32), SEQ8(40), SEQ8(48), SEQ8(56)
#define Q(b) b, b + 1, b + 2, b + 3

const tks_lds_rule tks_lds_rules[] = {
  { "ds_write_b128 / ds_write_b96", 9, 16, 1, 8, { SEQ64 }, 1,
    "CK-tile docs, Understanding AMD GPU LDS and Bank Conflicts: ds_write_b128 is served in "
    "8 phases of 8 consecutive lanes (0-7, 8-15, ..., 56-63); b96 assumed to follow b128" },
  { "ds_read_b128 / ds_read_b96", 9, 16, 0, 8,
    { Q(0), Q(20), Q(4), Q(16), Q(8), Q(28), Q(12), Q(24),
      Q(32), Q(52), Q(36), Q(48), Q(40), Q(60), Q(44), Q(56) }, 1,
    "CK-tile docs (same page, read access pattern) and AMD's CK-tile LDS bank-conflict blog "
    "(rocm.blogs.amd.com, 2025): ds_read_b128 lane groups 0-3+20-23, 4-7+16-19, 8-11+28-31, "
    "12-15+24-27 and the same +32; b96 assumed to follow b128" },
  { "ds_read_b64 / ds_write_b64 (and each half of read2/write2_b64)", 5, 8, -1, 16, { SEQ64 }, 0,
    "AMD APP OpenCL Programming Guide (GCN), LDS optimization: 64-bit accesses are checked per "
    "quarter wave (16 consecutive lanes); not measured on gfx942" },
  { "32-bit and narrower (b32/u16/u8, atomics, each half of read2/write2_b32)", 1, 4, -1, 32, { SEQ64 }, 0,
    "AMD APP OpenCL Programming Guide (GCN), LDS optimization: conflicts are checked per half "
    "wave (lanes 0-31, 32-63); not confirmed on gfx942" },
};
const int tks_lds_nrules = (int)(sizeof tks_lds_rules / sizeof tks_lds_rules[0]);

const char tks_lds_model_name[] =
  "gfx942 LDS: 32 banks x 4 B, same-dword broadcast; phases b128 write 8x8 lanes, b128 read "
  "CK-tile lane groups, b64 4x16 lanes, b32 2x32 lanes (see docs/tksim-checkers.md)";

/* gfx950: 64 banks x 4 B (banks.h has the sources). A read phase serves 256
 * bytes, twice gfx942's (the doubled read bandwidth); write phases stay
 * gfx942's (no source says writes got wider). Which lanes share a read phase
 * is not documented; the ds_read_b128 grouping below is inferred: it serves
 * two of gfx942's 8-lane read groups together (0-3+20-23 with 8-11+28-31,
 * 4-7+16-19 with 12-15+24-27, the same +32), the least change from gfx942
 * that makes all 256 distinct ds_read_b128 access patterns of HipKittens'
 * MI355X BF16 GEMM (8192^3, tuned on the hardware) conflict free, while 16
 * consecutive lanes, or groups 0 with 1, leave each of them 2-way
 * conflicted (docs/tksim-checkers.md). b64/b32 read groupings: assumed. */
#define G95_(b) Q(b), Q(b + 8), Q(b + 20), Q(b + 28), Q(b + 4), Q(b + 12), Q(b + 16), Q(b + 24)
static const tks_lds_rule g_gfx950_rules[] = {
  { "ds_write_b128 / ds_write_b96", 9, 16, 1, 8, { SEQ64 }, 0,
    "ASSUMPTION: gfx942's write phases (8 x 8 consecutive lanes, 128 B each) on 64 banks" },
  { "ds_read_b128 / ds_read_b96", 9, 16, 0, 16, { G95_(0), G95_(32) }, 0,
    "INFERRED: 4 phases of 16 lanes (256 B each: 64 banks x 4 B, doubled read bandwidth per AMD's "
    "CDNA4 announcement): gfx942's read groups 0+2 and 1+3 of each half wave, the grouping under "
    "which HipKittens' MI355X GEMM reads are conflict free" },
  { "ds_read_b64 (and each half of read2_b64)", 5, 8, 0, 32, { SEQ64 }, 0,
    "ASSUMPTION: 2 phases of 32 consecutive lanes (256 B each)" },
  { "ds_write_b64 (and each half of write2_b64)", 5, 8, 1, 16, { SEQ64 }, 0,
    "ASSUMPTION: gfx942's quarter waves" },
  { "32-bit and narrower reads", 1, 4, 0, 64, { SEQ64 }, 0,
    "ASSUMPTION: one phase of 64 lanes (256 B)" },
  { "32-bit and narrower writes and atomics", 1, 4, 1, 32, { SEQ64 }, 0,
    "ASSUMPTION: gfx942's half waves" },
};

static const tks_lds_bank_model g_gfx942_model = { tks_lds_model_name, 32, tks_lds_rules,
                                                   (int)(sizeof tks_lds_rules / sizeof tks_lds_rules[0]) };
static const tks_lds_bank_model g_gfx950_model = {
  "gfx950 LDS: 64 banks x 4 B, same-dword broadcast; read phases 256 B (b128 4x16 lanes: gfx942's "
  "groups 0+2, 1+3; b64 2x32, b32 1x64), write phases as gfx942's; groupings inferred/assumed (see "
  "docs/tksim-checkers.md)",
  64, g_gfx950_rules, (int)(sizeof g_gfx950_rules / sizeof g_gfx950_rules[0]) };

const tks_lds_bank_model *tks_lds_model_for(int arch)
{
  return arch == TKS_ARCH_GFX950 ? &g_gfx950_model : &g_gfx942_model;
}

const tks_lds_rule *tks_lds_rule_on(const tks_lds_bank_model *m, uint32_t bytes, int is_write)
{
  /* atomics (2) read and write: they take the write phases */
  int dir = is_write ? 1 : 0;
  for (int i = 0; i < m->nrules; i++) {
    const tks_lds_rule *r = &m->rules[i];
    if (bytes < r->min_bytes || bytes > r->max_bytes) continue;
    if (r->access >= 0 && r->access != dir) continue;
    return r;
  }
  return NULL;
}

const tks_lds_rule *tks_lds_rule_for(uint32_t bytes, int is_write)
{
  return tks_lds_rule_on(&g_gfx942_model, bytes, is_write);
}

tks_lds_cost tks_lds_access_cost(const uint32_t addr[64], uint64_t exec, uint32_t bytes,
                                 int is_write)
{
  return tks_lds_access_cost_on(&g_gfx942_model, addr, exec, bytes, is_write);
}

tks_lds_cost tks_lds_access_cost_on(const tks_lds_bank_model *m, const uint32_t addr[64], uint64_t exec,
                                    uint32_t bytes, int is_write)
{
  tks_lds_cost c = { 0, 0 };
  if (!exec || !bytes) return c;
  if (bytes > 16) bytes = 16; /* no LDS access is wider per lane */
  const tks_lds_rule *r = tks_lds_rule_on(m, bytes, is_write);
  if (!r) r = bytes > 16 ? &m->rules[0] : &m->rules[m->nrules - 1];
  uint32_t lpp = r->lanes_per_phase;
  const uint32_t nb = m->banks;
  /* Per phase, the distinct dwords each bank must deliver: at most one per
   * lane (a lane's <= 5 dwords are consecutive, so in distinct banks). */
  uint32_t dw[TKS_LDS_MAX_BANKS][64];
  uint32_t n[TKS_LDS_MAX_BANKS];
  for (uint32_t p = 0; p < 64 / lpp; p++) {
    memset(n, 0, nb * sizeof n[0]);
    uint32_t worst = 0;
    int any = 0;
    for (uint32_t i = 0; i < lpp; i++) {
      uint32_t lane = r->order[p * lpp + i];
      if (!((exec >> lane) & 1)) continue;
      any = 1;
      uint32_t first = addr[lane] / TKS_LDS_BANK_BYTES;
      uint32_t last = (addr[lane] + bytes - 1) / TKS_LDS_BANK_BYTES;
      for (uint32_t d = first; d <= last; d++) {
        uint32_t b = d % nb, k;
        for (k = 0; k < n[b]; k++)
          if (dw[b][k] == d) break;
        if (k < n[b]) continue; /* broadcast */
        dw[b][n[b]++] = d;
        if (n[b] > worst) worst = n[b];
      }
    }
    if (any) {
      c.phases++;
      c.cycles += worst;
    }
  }
  return c;
}
