/* test_hostcall.c: the runtime's hostcall service (device printf) driven by a
 * C stand-in for the device side of ROCm's ockl hostcall and printf code
 * (pop a free packet, fill the lanes' payloads, push it on the ready stack,
 * ring the doorbell, spin until the ready bit clears, return the packet).
 * Two "waves" on two threads print from several lanes at once; every line
 * must come out intact and equal to what the C library's snprintf makes of the
 * same format and arguments. */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "runtime/hostcall.h"
#include "runtime/rt.h"
#include "tksim.h"

/* Stand-in for device.c's part table (hostcall's device-malloc service bounds
 * requests by the device's memory): MI325X's 256 GiB. */
const tks_dev_part *tks_dev_part_get(void)
{
  static const tks_dev_part part = { "test", "test", 304, 2100000, (size_t)256 << 30 };
  return &part;
}

typedef struct hdr { uint64_t next, activemask; uint32_t service, control; } hdr;
typedef struct buf { uint64_t headers, payloads, doorbell, free_stack, ready_stack, index_mask; } buf;
static buf *B;

/* One hostcall from a wave: words[lane][8] for the lanes in `lanes`. */
static uint32_t g_service = 2;
static void hostcall(uint64_t lanes, uint64_t words[64][8], uint64_t resp[64])
{
  hdr *H = (hdr *)(uintptr_t)B->headers;
  uint64_t (*P)[64][8] = (uint64_t (*)[64][8])(uintptr_t)B->payloads;
  uint64_t mask = B->index_mask, f, next;
  do {
    f = __atomic_load_n(&B->free_stack, __ATOMIC_ACQUIRE);
    next = H[f & mask].next;
  } while (!__atomic_compare_exchange_n(&B->free_stack, &f, next, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
  uint64_t i = f & mask;
  H[i].service = g_service;
  H[i].activemask = lanes;
  for (int l = 0; l < 64; l++) if ((lanes >> l) & 1) memcpy(P[i][l], words[l], 64);
  __atomic_store_n(&H[i].control, 1, __ATOMIC_RELEASE);
  uint64_t old = __atomic_load_n(&B->ready_stack, __ATOMIC_RELAXED);
  do H[i].next = old; while (!__atomic_compare_exchange_n(&B->ready_stack, &old, f, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
  __atomic_fetch_add((uint64_t *)(uintptr_t)(B->doorbell + 8), 1, __ATOMIC_RELEASE);
  while (__atomic_load_n(&H[i].control, __ATOMIC_ACQUIRE) & 1) usleep(10);
  for (int l = 0; l < 64; l++) if ((lanes >> l) & 1) resp[l] = P[i][l][0];
  uint64_t nf = f + mask + 1;
  if (!nf) nf = mask + 1 + (f & mask);
  old = __atomic_load_n(&B->free_stack, __ATOMIC_RELAXED);
  do H[nf & mask].next = old; while (!__atomic_compare_exchange_n(&B->free_stack, &old, nf, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

/* The printf message sequence, as ockl's printf functions send it. */
static void begin(uint64_t lanes, uint64_t d[64])
{
  uint64_t w[64][8] = {{0}}, r[64];
  for (int l = 0; l < 64; l++) { w[l][0] = 1 | (1 << 5); w[l][1] = 0; } /* begin, 1 word: stdout */
  hostcall(lanes, w, r);
  for (int l = 0; l < 64; l++) if ((lanes >> l) & 1) d[l] = r[l];
}

static uint64_t pack(const char *s, size_t n, size_t off)
{
  uint64_t v = 0;
  for (size_t b = 0; b < 8 && off + b < n; b++) v |= (uint64_t)(unsigned char)s[off + b] << (8 * b);
  return v;
}

/* append_string_n: 56-byte chunks; strings include their NUL. */
static void append_string(uint64_t lanes, uint64_t d[64], const char *s[64], int last)
{
  size_t off[64] = {0}, len[64];
  int more = 1;
  for (int l = 0; l < 64; l++) len[l] = ((lanes >> l) & 1) ? strlen(s[l]) + 1 : 0;
  while (more) {
    uint64_t w[64][8] = {{0}}, r[64];
    more = 0;
    for (int l = 0; l < 64; l++) {
      if (!((lanes >> l) & 1)) continue;
      size_t n = len[l] - off[l] > 56 ? 56 : len[l] - off[l];
      unsigned words = (unsigned)((n + 7) / 8);
      int final = off[l] + n == len[l];
      w[l][0] = (d[l] & ~(uint64_t)0xe3) | ((uint64_t)words << 5) | (final && last ? 2 : 0);
      for (unsigned k = 0; k < words; k++) w[l][1 + k] = pack(s[l], len[l], off[l] + 8 * k);
      off[l] += n;
      if (!final) more = 1;
    }
    hostcall(lanes, w, r);
    for (int l = 0; l < 64; l++) if ((lanes >> l) & 1) d[l] = r[l];
  }
}

static void append_args(uint64_t lanes, uint64_t d[64], int n, uint64_t a[64][7], int last, uint64_t ret[64])
{
  uint64_t w[64][8] = {{0}}, r[64];
  for (int l = 0; l < 64; l++) {
    w[l][0] = (d[l] & ~(uint64_t)0xe3) | ((uint64_t)n << 5) | (last ? 2 : 0);
    for (int k = 0; k < n; k++) w[l][1 + k] = a[l][k];
  }
  hostcall(lanes, w, r);
  for (int l = 0; l < 64; l++) if ((lanes >> l) & 1) { d[l] = r[l]; if (ret) ret[l] = r[l]; }
}

static const char *FMT = "lane %d: %5.2f|%-6s|%c|%x|%llu|%e|%d|%hd|%ld|%s end\n";
static const char *LONG = "a string longer than fifty-six bytes, so it needs two packets";

static uint64_t dbl(double x) { uint64_t v; memcpy(&v, &x, 8); return v; }

static void *wave(void *arg)
{
  int base = *(int *)arg;
  uint64_t lanes = 0x8000000000000101ull; /* lanes 0, 8, 63 */
  uint64_t d[64];
  const char *fmts[64], *names[64], *longs[64];
  uint64_t a[64][7];
  for (int l = 0; l < 64; l++) { fmts[l] = FMT; names[l] = (l & 1) ? "odd" : "even"; longs[l] = LONG; }
  begin(lanes, d);
  append_string(lanes, d, fmts, 0);
  for (int l = 0; l < 64; l++) { a[l][0] = (uint64_t)(base + l); a[l][1] = dbl(l * 1.25); }
  append_args(lanes, d, 2, a, 0, NULL);
  append_string(lanes, d, names, 0);
  /* ints arrive zero-extended from 32 bits (clang's hostcall printf lowering) */
  for (int l = 0; l < 64; l++) {
    a[l][0] = 'A' + l % 26; a[l][1] = 0xbeef + l; a[l][2] = 18446744073709551615ull; a[l][3] = dbl(-3.5e-7);
    a[l][4] = (uint32_t)(-7 * l - 1); a[l][5] = (uint32_t)(int)(short)(-300 - l); a[l][6] = (uint64_t)(-5000000000ll - l);
  }
  append_args(lanes, d, 7, a, 0, NULL);
  append_string(lanes, d, longs, 1);
  return NULL;
}

int main(void)
{
  char tmpl[] = "/tmp/tksim-hostcall-XXXXXX";
  int fd = mkstemp(tmpl);
  CHECK(fd >= 0, "temp file");
  fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  B = (buf *)(uintptr_t)tks_hostcall_buffer();
  CHECK(B != NULL, "buffer");
  CHECK(tks_hostcall_start() == 0, "start");
  pthread_t t[2];
  int bases[2] = { 100, 200 };
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, wave, &bases[i]);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  tks_hostcall_stop();
  fflush(stdout);
  dup2(saved, 1);
  close(saved);

  static char got[1 << 16];
  FILE *f = fopen(tmpl, "r");
  size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
  got[n] = 0;
  if (f) fclose(f);
  unlink(tmpl);
  int lines = 0;
  for (char *p = got; *p; p++) lines += *p == '\n';
  CHECK(lines == 6, "6 lines printed, got %d:\n%s", lines, got);
  const int lanes[3] = { 0, 8, 63 };
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 3; k++) {
      int l = lanes[k];
      char want[512];
      snprintf(want, sizeof want, FMT, bases[i] + l, l * 1.25, (l & 1) ? "odd" : "even", 'A' + l % 26,
               0xbeef + l, 18446744073709551615ull, -3.5e-7, -7 * l - 1, (short)(-300 - l), -5000000000l - l, LONG);
      CHECK(strstr(got, want) != NULL, "line missing: %s--- got:\n%s", want, got);
    }

  /* device malloc's memory service (3): allocate from two lanes, then free */
  CHECK(tks_hostcall_start() == 0, "restart");
  g_service = 3;
  uint64_t w[64][8] = {{0}}, r[64] = {0};
  w[0][1] = 5000; w[1][1] = (size_t)3 << 20;
  hostcall(3, w, r);
  const tks_alloc *a0 = tks_mem_find(r[0], 5000), *a1 = tks_mem_find(r[1], (size_t)3 << 20);
  CHECK(r[0] && a0 && a0->kind == TKS_ALLOC_DEVICE && a0->size == 5000, "5000-byte block registered as device memory");
  CHECK(r[1] && a1 && (r[1] & (((uint64_t)2 << 20) - 1)) == 0, "3 MiB block, 2 MiB aligned");
  int zero = 1;
  for (size_t k = 0; r[0] && k < 5000; k++) zero &= ((unsigned char *)(uintptr_t)r[0])[k] == 0;
  CHECK(zero, "blocks are zeroed");
  memset(w, 0, sizeof w);
  w[0][0] = r[0]; w[1][0] = r[1];
  hostcall(3, w, r);
  CHECK(tks_mem_find(w[0][0], 1) == NULL && tks_mem_find(w[1][0], 1) == NULL, "freed blocks unregistered");
  tks_hostcall_stop();
  CHECK(tks_device_heap() != 0 && tks_mem_find(tks_device_heap(), 100000) != NULL, "heap state registered, >= 100000 bytes");
  return CHECK_DONE();
}
