/* bank_model_test.c: host unit test of tksim's LDS bank-conflict model
 * (sim/check/banks.c).
 *
 * Two kinds of reference, neither calls the model's own table:
 *  - hand-computed patterns (stride-1, stride-32 dwords, broadcast, the
 *    ds_read_b128 lane grouping, 64-bit quarter waves, sub-dword sharing);
 *  - an independent brute-force cost written here from the lane groups as the
 *    sources state them (CK-tile docs for b128, AMD OpenCL guide for b64/b32),
 *    compared with the model on random address patterns.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "check/banks.h"
#include "tksim.h"

static int g_fail;

static void expect(const char *what, uint32_t bytes, int is_write, const uint32_t addr[64],
                   uint64_t exec, uint32_t want_phases, uint32_t want_cycles)
{
  tks_lds_cost c = tks_lds_access_cost(addr, exec, bytes, is_write);
  int ok = c.phases == want_phases && c.cycles == want_cycles;
  printf("%-4s %-58s phases %2u cycles %3u (want %2u, %3u)\n", ok ? "ok" : "FAIL", what,
         c.phases, c.cycles, want_phases, want_cycles);
  if (!ok) g_fail++;
}

/* ---- independent reference: the phase of a lane, from the cited sources */
static int ref_phase(uint32_t lane, uint32_t bytes, int is_write)
{
  if (bytes <= 4) return (int)(lane / 32);        /* half waves */
  if (bytes <= 8) return (int)(lane / 16);        /* quarter waves */
  if (is_write == 1) return (int)(lane / 8);      /* ds_write_b128: 8 consecutive lanes */
  /* ds_read_b128: 0-3 with 20-23, 4-7 with 16-19, 8-11 with 28-31, 12-15 with
   * 24-27, then the same +32. Numbered by the first quad of each group. */
  uint32_t half = lane / 32, q = (lane % 32) / 4;
  static const int quad_group[8] = { 0, 1, 2, 3, 1, 0, 3, 2 };
  return (int)(half * 4 + (uint32_t)quad_group[q]);
}

static int cmp_u64(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static tks_lds_cost ref_cost(const uint32_t addr[64], uint64_t exec, uint32_t bytes, int is_write)
{
  tks_lds_cost c = { 0, 0 };
  for (int p = 0; p < 8; p++) {
    /* all (bank, dword) pairs of the phase, sorted, then count distinct
     * dwords per bank */
    uint64_t key[64 * 5];
    int n = 0, any = 0;
    for (uint32_t l = 0; l < 64; l++) {
      if (!((exec >> l) & 1) || ref_phase(l, bytes, is_write) != p) continue;
      any = 1;
      for (uint32_t byte = addr[l]; byte < addr[l] + bytes; byte += 1) {
        uint64_t dword = byte >> 2;
        key[n++] = ((dword & 31) << 40) | dword;
      }
    }
    if (!any) continue;
    qsort(key, (size_t)n, sizeof key[0], cmp_u64);
    uint32_t worst = 0, run = 0;
    for (int i = 0; i < n; i++) {
      if (i > 0 && key[i] == key[i - 1]) continue;           /* same dword: broadcast */
      if (i > 0 && (key[i] >> 40) == (key[i - 1] >> 40)) run++;
      else run = 1;
      if (run > worst) worst = run;
    }
    c.phases++;
    c.cycles += worst;
  }
  return c;
}

/* gfx950: the same, with 64 banks and its phases written out directly */
static void expect9(const tks_lds_bank_model *m, const char *what, uint32_t bytes, int is_write,
                    const uint32_t addr[64], uint64_t exec, uint32_t want_phases, uint32_t want_cycles)
{
  tks_lds_cost c = tks_lds_access_cost_on(m, addr, exec, bytes, is_write);
  int ok = c.phases == want_phases && c.cycles == want_cycles;
  printf("%-4s %-58s phases %2u cycles %3u (want %2u, %3u)\n", ok ? "ok" : "FAIL", what,
         c.phases, c.cycles, want_phases, want_cycles);
  if (!ok) g_fail++;
}

static int ref_phase9(uint32_t lane, uint32_t bytes, int is_write)
{
  if (is_write) return bytes <= 4 ? (int)(lane / 32) : bytes <= 8 ? (int)(lane / 16) : (int)(lane / 8);
  if (bytes <= 4) return 0;
  if (bytes <= 8) return (int)(lane / 32);
  /* b128 reads: per half wave, quads 0, 2, 5, 7 (lanes 0-3, 8-11, 20-23,
   * 28-31) and quads 1, 3, 4, 6 */
  uint32_t q = (lane % 32) / 4;
  return (int)(2 * (lane / 32) + !(q == 0 || q == 2 || q == 5 || q == 7));
}

static tks_lds_cost ref_cost9(const uint32_t addr[64], uint64_t exec, uint32_t bytes, int is_write)
{
  tks_lds_cost c = { 0, 0 };
  for (int p = 0; p < 8; p++) {
    uint64_t key[64 * 5];
    int n = 0, any = 0;
    for (uint32_t l = 0; l < 64; l++) {
      if (!((exec >> l) & 1) || ref_phase9(l, bytes, is_write) != p) continue;
      any = 1;
      for (uint32_t byte = addr[l]; byte < addr[l] + bytes; byte += 1) {
        uint64_t dword = byte >> 2;
        key[n++] = ((dword & 63) << 40) | dword;
      }
    }
    if (!any) continue;
    qsort(key, (size_t)n, sizeof key[0], cmp_u64);
    uint32_t worst = 0, run = 0;
    for (int i = 0; i < n; i++) {
      if (i > 0 && key[i] == key[i - 1]) continue;
      if (i > 0 && (key[i] >> 40) == (key[i - 1] >> 40)) run++;
      else run = 1;
      if (run > worst) worst = run;
    }
    c.phases++;
    c.cycles += worst;
  }
  return c;
}

int main(void)
{
  uint32_t a[64];
  const uint64_t all = ~0ull;

  for (int l = 0; l < 64; l++) a[l] = 4u * l;
  expect("b32 stride 1 dword: conflict free", 4, 0, a, all, 2, 2);
  for (int l = 0; l < 64; l++) a[l] = 128u * l;
  expect("b32 stride 32 dwords: 32-way per half wave", 4, 0, a, all, 2, 64);
  expect("b32 stride 32 dwords as a write", 4, 1, a, all, 2, 64);
  for (int l = 0; l < 64; l++) a[l] = 0;
  expect("b32 all lanes one dword: broadcast", 4, 0, a, all, 2, 2);
  for (int l = 0; l < 64; l++) a[l] = 8u * l;
  expect("b32 stride 2 dwords: 2-way", 4, 0, a, all, 2, 4);
  for (int l = 0; l < 64; l++) a[l] = 2u * l;
  expect("u16 stride 2 bytes: lane pairs share a dword", 2, 0, a, all, 2, 2);
  for (int l = 0; l < 64; l++) a[l] = 128u * l;
  expect("b32 stride 32 dwords, lanes 0 and 32 only", 4, 0, a, (1ull << 32) | 1ull, 2, 2);
  expect("no active lane", 4, 0, a, 0, 0, 0);

  for (int l = 0; l < 64; l++) a[l] = 8u * l;
  expect("b64 stride 1 (8 B): 16 lanes fill 32 banks", 8, 0, a, all, 4, 4);
  for (int l = 0; l < 64; l++) a[l] = 16u * l;
  expect("b64 stride 16 B: 2-way per quarter wave", 8, 1, a, all, 4, 8);

  for (int l = 0; l < 64; l++) a[l] = 16u * l;
  expect("b128 write stride 16 B: conflict free", 16, 1, a, all, 8, 8);
  expect("b128 read stride 16 B: conflict free", 16, 0, a, all, 8, 8);
  for (int l = 0; l < 64; l++) a[l] = 512u * l;
  expect("b128 read stride 512 B: every lane on banks 0-3", 16, 0, a, all, 8, 64);
  /* Quads 0-3 of each half use banks 0-15, quads 4-7 banks 16-31, all at
   * distinct dwords: the read groups (quad 0 with 5, 1 with 4, 2 with 7, 3
   * with 6) pair one low and one high quad -> conflict free; consecutive
   * 8-lane phases pair two low or two high quads -> 2-way. */
  for (int l = 0; l < 64; l++) {
    uint32_t q = (uint32_t)(l / 4) % 8;
    a[l] = 16u * (l % 4) + 64u * (q >= 4) + 128u * (uint32_t)(l / 4);
  }
  expect("b128 read, quads split by CK-tile read groups: free", 16, 0, a, all, 8, 8);
  expect("b128 write, same addresses, consecutive lanes: 2-way", 16, 1, a, all, 8, 16);

  /* random patterns against the independent reference */
  uint64_t s = 0x9e3779b97f4a7c15ull;
  int mism = 0;
  const uint32_t widths[] = { 1, 2, 4, 8, 12, 16 };
  for (int t = 0; t < 20000; t++) {
    uint32_t bytes = widths[t % 6];
    int is_write = (t / 6) % 2;
    uint64_t exec = 0;
    uint32_t span = 1u << (6 + (t % 9)); /* from 64 B to 16 KiB of LDS */
    for (int l = 0; l < 64; l++) {
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;
      uint32_t align = bytes >= 4 ? 4 : bytes;
      a[l] = (uint32_t)(s % span) / align * align;
      if ((s >> 40) % 8) exec |= 1ull << l;
    }
    tks_lds_cost m = tks_lds_access_cost(a, exec, bytes, is_write);
    tks_lds_cost r = ref_cost(a, exec, bytes, is_write);
    if (m.phases != r.phases || m.cycles != r.cycles) {
      if (mism++ < 5)
        printf("FAIL random pattern %d (bytes %u, %s): model %u/%u, reference %u/%u\n", t, bytes,
               is_write ? "write" : "read", m.phases, m.cycles, r.phases, r.cycles);
    }
  }
  printf("%-4s 20000 random patterns against the independent reference (%d mismatches)\n",
         mism ? "FAIL" : "ok", mism);
  if (mism) g_fail++;

  /* ---- gfx950: 64 banks; read phases of 256 B (b128 16 lanes, b64 32, b32
   * 64), write phases as gfx942's (banks.h / banks.c) */
  const tks_lds_bank_model *g9 = tks_lds_model_for(TKS_ARCH_GFX950);
  if (g9->banks != 64) { printf("FAIL gfx950 model has %u banks, want 64\n", g9->banks); g_fail++; }
  if (tks_lds_model_for(TKS_ARCH_GFX942)->banks != 32) { printf("FAIL gfx942 model banks\n"); g_fail++; }
  for (int l = 0; l < 64; l++) a[l] = 16u * l;
  expect9(g9, "gfx950 b128 read stride 16 B: 4 phases, free", 16, 0, a, all, 4, 4);
  expect9(g9, "gfx950 b128 write stride 16 B: 8 phases, free", 16, 1, a, all, 8, 8);
  /* 16 rows of 64 B (16x16x32 bf16 operand, unswizzled: lane l row l % 16,
   * chunk l / 16): phase 0 = rows 0-3 and 8-11 at chunk 0 (banks 0-3, 16-19,
   * 32-35, 48-51 twice) and rows 4-7, 12-15 at chunk 1 -> 2-way; 16
   * consecutive lanes would be 4-way (rows 0, 4, 8, 12 on one bank group) */
  for (int l = 0; l < 64; l++) a[l] = 64u * (uint32_t)(l % 16) + 16u * (uint32_t)(l / 16);
  expect9(g9, "gfx950 b128 read 16 rows x 64 B: 2-way", 16, 0, a, all, 4, 8);
  expect("gfx942 b128 read 16 rows x 64 B: 2-way", 16, 0, a, all, 8, 16);
  /* the same rows with chunk' = chunk ^ rotl1((r / 4) % 4): free */
  for (int l = 0; l < 64; l++) {
    uint32_t r = (uint32_t)(l % 16), ch = (uint32_t)(l / 16), q = r / 4;
    a[l] = 64u * r + 16u * (ch ^ (((q & 1u) << 1) | (q >> 1)));
  }
  expect9(g9, "gfx950 b128 read 16 rows x 64 B swizzled: free", 16, 0, a, all, 4, 4);
  /* 16 consecutive lanes on 16 distinct 16-byte slots of one 256-byte
   * window, but lanes 0-3 and 4-7 swapped with 8-11/12-15: still free (the
   * phase sets are what matters, not the lane order) */
  for (int l = 0; l < 64; l++) a[l] = 16u * (uint32_t)(l ^ 8);
  expect9(g9, "gfx950 b128 read stride 16 B, quads permuted: free", 16, 0, a, all, 4, 4);
  /* lanes 0-3 and 4-7 on the same banks (rows 0-3 and 4-7 of 256-byte rows):
   * different phases under the inferred grouping -> free; lanes 0-3 and
   * 8-11 the same way -> 2-way */
  for (int l = 0; l < 64; l++) a[l] = 256u * (uint32_t)((l / 4) % 2) + 16u * (uint32_t)(l % 4) + 64u * (uint32_t)(l / 8);
  expect9(g9, "gfx950 b128 read, quads 0/1 share banks: free", 16, 0, a, all, 4, 4);
  for (int l = 0; l < 64; l++) a[l] = 256u * (uint32_t)((l / 8) % 2) + 16u * (uint32_t)(l % 8) + 128u * (uint32_t)(l / 16);
  expect9(g9, "gfx950 b128 read, quads 0/2 share banks: 2-way", 16, 0, a, all, 4, 8);
  for (int l = 0; l < 64; l++) a[l] = 128u * l;
  expect9(g9, "gfx950 b32 stride 32 dwords: banks 0 and 32, 32-way", 4, 0, a, all, 1, 32);
  for (int l = 0; l < 64; l++) a[l] = 4u * l;
  expect9(g9, "gfx950 b32 read stride 1: one phase", 4, 0, a, all, 1, 1);
  expect9(g9, "gfx950 b32 write stride 1: half waves", 4, 1, a, all, 2, 2);
  for (int l = 0; l < 64; l++) a[l] = 8u * l;
  expect9(g9, "gfx950 b64 read stride 8 B: 2 phases, free", 8, 0, a, all, 2, 2);
  mism = 0;
  for (int t = 0; t < 20000; t++) {
    uint32_t bytes = widths[t % 6];
    int is_write = (t / 6) % 2;
    uint64_t exec = 0;
    uint32_t span = 1u << (6 + (t % 9));
    for (int l = 0; l < 64; l++) {
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;
      uint32_t align = bytes >= 4 ? 4 : bytes;
      a[l] = (uint32_t)(s % span) / align * align;
      if ((s >> 40) % 8) exec |= 1ull << l;
    }
    tks_lds_cost m = tks_lds_access_cost_on(g9, a, exec, bytes, is_write);
    tks_lds_cost r = ref_cost9(a, exec, bytes, is_write);
    if (m.phases != r.phases || m.cycles != r.cycles) {
      if (mism++ < 5)
        printf("FAIL gfx950 random pattern %d (bytes %u, %s): model %u/%u, reference %u/%u\n", t, bytes,
               is_write ? "write" : "read", m.phases, m.cycles, r.phases, r.cycles);
    }
  }
  printf("%-4s gfx950: 20000 random patterns against the independent reference (%d mismatches)\n",
         mism ? "FAIL" : "ok", mism);
  if (mism) g_fail++;

  printf("%s: %d failure(s)\n", g_fail ? "FAILED" : "PASSED", g_fail);
  return g_fail ? 1 : 0;
}
