/* hostcall.c: the host side of AMD's hostcall protocol, so that device printf
 * (clang's default HIP printf lowering: __ockl_printf_begin/append_args/
 * append_string_n) prints while tksim runs a kernel.
 *
 * Protocol, as the device side in ROCm's ockl (hostcall.cl, fprintf and the
 * message layer) implements it; read from Debian's ockl.bc:
 *  - buffer (hidden_hostcall_buffer): u64 headers ptr, u64 payloads ptr,
 *    u64 doorbell (an amd_signal_t address), u64 free stack, u64 ready stack,
 *    u64 index mask. Stacks hold tagged packet indices (index = value & mask);
 *    0 is the empty stack, so packet 0 is never handed out.
 *  - packet header: u64 next, u64 active lane mask, u32 service, u32 control
 *    (bit 0: ready; the host clears it when the answer is in).
 *  - payload: 64 lanes x 8 u64; the host answers in words 0 and 1 of each
 *    active lane.
 *  - a wave pops a free packet, fills it, pushes it on the ready stack, adds 1
 *    to the doorbell signal and spins until the ready bit clears.
 * Service 2 carries "messages": word 0 is a descriptor (bit 0 begin, bit 1
 * end, bits 5-7 number of data words in this packet, bits 8-63 message id
 * assigned by the host on begin); data words follow. A printf message is:
 * stream (0 stdout, 1 stderr), the format string, then each argument as one
 * 64-bit word (strings as NUL-terminated bytes packed 8 per word). The host
 * answers begin with the descriptor carrying the new id, and end with the
 * number of characters printed.
 *
 * Service 3 is device malloc's memory source (ockl dm: __ockl_devmem_request
 * (address to free, size to allocate) -> address): blocks come from the host,
 * zeroed, registered as device memory. The allocator's state lives in a
 * zeroed heap passed as hidden_heap_v1, kept for the whole process like the
 * memory it hands out.
 *
 * A service thread runs for the duration of each dispatch whose kernel has a
 * hidden_hostcall_buffer argument, polling the ready stack.
 *
 * Output order: workers finish messages in an order that depends on thread
 * timing, so finished messages are kept and printed when the dispatch ends,
 * sorted by (wave, message of that wave, lane). The wave that wrote a packet
 * comes from the engine's global-store hook (tks_hostcall_on_store, wired in
 * report/launch_hooks.c); a wave's messages begin in program order because it
 * waits for each answer before sending its next packet.
 */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "runtime/rt.h"
#include "runtime/hostcall.h"

#define NPACKETS 4096u               /* > any number of waves waiting at once */
#define SERVICE_MESSAGE 2u
#define SERVICE_DEVMEM 3u                /* device malloc's slab and large-block requests */
#define HEAP_BYTES (128u << 10)          /* ockl's heap state (about 99 KiB) */
#define DEVMEM_ALIGN ((size_t)2 << 20)   /* slab size: keep slabs naturally aligned */

typedef struct hc_header { uint64_t next, activemask; uint32_t service, control; } hc_header;
typedef struct hc_buffer { uint64_t headers, payloads, doorbell, free_stack, ready_stack, index_mask; } hc_buffer;

typedef struct message { uint64_t id; uint64_t *w; size_t n, cap; uint32_t wave, lane; uint64_t serial; } message;
/* A finished printf, printed at tks_hostcall_stop. */
typedef struct done_msg { uint32_t wave, lane; uint64_t serial; int to_stderr; char *text; size_t len; } done_msg;

static uint8_t *g_mem;               /* one mapping: buffer, signal, headers, payloads */
static size_t g_mem_size;
static hc_buffer *g_buf;
static hc_header *g_hdr;
static uint64_t (*g_pay)[64][8];
static pthread_t g_thread;
static atomic_int g_stop;
static int g_running;
static message *g_msgs;
static size_t g_nmsgs;
static uint64_t g_next_id = 1;
static uint32_t g_owner[NPACKETS];   /* wave_id + 1 of the packet's last writer, 0 unknown */
static uint64_t g_serial;            /* begin packets served so far */
static done_msg *g_done;
static size_t g_ndone, g_done_cap;

uint64_t tks_hostcall_buffer(void)
{
  if (g_buf) return (uint64_t)(uintptr_t)g_buf;
  size_t hdr_off = 4096, pay_off = hdr_off + (((size_t)NPACKETS * sizeof(hc_header) + 4095) & ~(size_t)4095);
  g_mem_size = pay_off + (size_t)NPACKETS * 64 * 8 * 8;
  void *m = mmap(NULL, g_mem_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return 0;
  g_mem = m;
  g_buf = (hc_buffer *)g_mem;
  uint64_t *signal = (uint64_t *)(g_mem + 256); /* amd_signal_t: kind, value, mailbox (0: no interrupt), ... */
  signal[0] = 1;                                /* AMD_SIGNAL_KIND_USER */
  g_hdr = (hc_header *)(g_mem + hdr_off);
  g_pay = (uint64_t (*)[64][8])(g_mem + pay_off);
  g_buf->headers = (uint64_t)(uintptr_t)g_hdr;
  g_buf->payloads = (uint64_t)(uintptr_t)g_pay;
  g_buf->doorbell = (uint64_t)(uintptr_t)signal;
  g_buf->index_mask = NPACKETS - 1;
  for (uint32_t i = 1; i < NPACKETS; i++) g_hdr[i].next = i + 1 < NPACKETS ? i + 1 : 0;
  g_buf->free_stack = 1;
  g_buf->ready_stack = 0;
  if (tks_mem_register((uint64_t)(uintptr_t)g_mem, g_mem_size, TKS_ALLOC_INTERNAL)) {
    munmap(g_mem, g_mem_size);
    g_mem = NULL; g_buf = NULL;
    return 0;
  }
  return (uint64_t)(uintptr_t)g_buf;
}

static message *find_msg(uint64_t id)
{
  for (size_t i = 0; i < g_nmsgs; i++) if (g_msgs[i].id == id) return &g_msgs[i];
  return NULL;
}

static void drop_msg(message *m)
{
  free(m->w);
  *m = g_msgs[--g_nmsgs];
}

/* Reads a NUL-terminated string packed 8 bytes per word starting at word *i. */
static void take_string(const message *m, size_t *i, char *out, size_t cap)
{
  size_t n = 0;
  int done = 0;
  while (*i < m->n && !done) {
    uint64_t w = m->w[(*i)++];
    for (int b = 0; b < 8; b++) {
      char c = (char)(w >> (8 * b));
      if (!c) { done = 1; break; }
      if (n + 1 < cap) out[n++] = c;
    }
  }
  out[n] = 0;
}

/* Formats a printf message (words after the stream word) into out. */
static size_t format_message(const message *m, char *out, size_t cap)
{
  size_t i = 1, len = 0;
  char fmt[4096];
  take_string(m, &i, fmt, sizeof fmt);
#define EMIT(...) do { int k_ = snprintf(out + len, len < cap ? cap - len : 0, __VA_ARGS__); \
                        if (k_ > 0) len += (size_t)k_; } while (0)
  for (const char *p = fmt; *p;) {
    if (*p != '%') { EMIT("%c", *p++); continue; }
    if (p[1] == '%') { EMIT("%%"); p += 2; continue; }
    /* one conversion: %[flags][width][.precision][length]conv */
    char spec[64];
    size_t s = 0;
    spec[s++] = *p++;
    int nstar = 0;
    while (*p && strchr("-+ #0", *p) && s < 40) spec[s++] = *p++;
    if (*p == '*') { nstar++; spec[s++] = *p++; } else while (*p >= '0' && *p <= '9' && s < 40) spec[s++] = *p++;
    if (*p == '.') {
      spec[s++] = *p++;
      if (*p == '*') { nstar++; spec[s++] = *p++; } else while (*p >= '0' && *p <= '9' && s < 40) spec[s++] = *p++;
    }
    /* Every argument arrives as 64 bits, but ints are zero-extended: the
     * length modifier says how many of them are meaningful. */
    int lmod = 0; /* 0 int, 1 short (h), 2 char (hh), 8 64-bit (l, ll, j, z, t, q) */
    while (*p && strchr("hlLqjzt", *p)) {
      if (*p == 'h') lmod = lmod == 1 ? 2 : 1;
      else lmod = 8;
      p++;
    }
    char conv = *p ? *p++ : 0;
    if (!conv) break;
    int a0 = 0, a1 = 0;
    if (nstar > 0) a0 = i < m->n ? (int)m->w[i++] : 0;
    if (nstar > 1) a1 = i < m->n ? (int)m->w[i++] : 0;
    uint64_t v = 0;
    char str[4096];
    if (conv == 's') take_string(m, &i, str, sizeof str);
    else if (i < m->n) v = m->w[i++];
    double d;
    memcpy(&d, &v, 8);
    switch (conv) {
    case 'd': case 'i': spec[s++] = 'l'; spec[s++] = 'l'; spec[s++] = conv; break;
    case 'u': case 'o': case 'x': case 'X': spec[s++] = 'l'; spec[s++] = 'l'; spec[s++] = conv; break;
    case 'c': case 's': case 'p': case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      spec[s++] = conv; break;
    default: /* unknown conversion: print it literally */
      spec[s] = 0;
      EMIT("%s%c", spec, conv);
      continue;
    }
    spec[s] = 0;
    /* The spec is built here from a fixed set of characters, so passing it as
     * a format is safe; the argument type matches the conversion. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#define EMIT_ARG(x) do { if (nstar == 2) EMIT(spec, a0, a1, x); else if (nstar == 1) EMIT(spec, a0, x); else EMIT(spec, x); } while (0)
    switch (conv) {
    case 'd': case 'i':
      EMIT_ARG(lmod == 8 ? (long long)v : lmod == 2 ? (long long)(signed char)v :
               lmod == 1 ? (long long)(short)v : (long long)(int)(uint32_t)v);
      break;
    case 'u': case 'o': case 'x': case 'X':
      EMIT_ARG(lmod == 8 ? (unsigned long long)v : lmod == 2 ? (unsigned long long)(unsigned char)v :
               lmod == 1 ? (unsigned long long)(unsigned short)v : (unsigned long long)(uint32_t)v);
      break;
    case 'c': EMIT_ARG((int)(unsigned char)v); break;
    case 's': EMIT_ARG(str); break;
    case 'p': EMIT_ARG((void *)(uintptr_t)v); break;
    default: EMIT_ARG(d); break;
    }
#pragma GCC diagnostic pop
  }
  return len < cap ? len : cap - 1;
#undef EMIT
#undef EMIT_ARG
}

void tks_hostcall_on_store(uint32_t wave_id, const uint64_t addr[64], uint64_t exec)
{
  if (!g_pay || !exec) return;
  uint64_t base = (uint64_t)(uintptr_t)g_pay, a = addr[__builtin_ctzll(exec)];
  if (a < base || a - base >= (uint64_t)NPACKETS * sizeof g_pay[0]) return;
  __atomic_store_n(&g_owner[(a - base) / sizeof g_pay[0]], wave_id + 1, __ATOMIC_RELAXED);
}

/* Keeps a finished message for tks_hostcall_stop. */
static void keep_done(const message *m, const char *text, size_t len, int to_stderr)
{
  if (g_ndone == g_done_cap) {
    size_t nc = g_done_cap ? 2 * g_done_cap : 64;
    done_msg *t = realloc(g_done, nc * sizeof *t);
    if (!t) return;
    g_done = t; g_done_cap = nc;
  }
  char *copy = malloc(len ? len : 1);
  if (!copy) return;
  memcpy(copy, text, len);
  g_done[g_ndone++] = (done_msg){ m->wave, m->lane, m->serial, to_stderr, copy, len };
}

static int cmp_done(const void *a, const void *b)
{
  const done_msg *x = a, *y = b;
  if (x->wave != y->wave) return x->wave < y->wave ? -1 : 1;
  if (x->serial != y->serial) return x->serial < y->serial ? -1 : 1;
  return x->lane < y->lane ? -1 : x->lane > y->lane;
}

/* One lane's packet of the message service; returns the answer word. */
static uint64_t message_packet(const uint64_t w[8], uint32_t wave, uint32_t lane, uint64_t serial)
{
  uint64_t desc = w[0];
  unsigned n = (unsigned)((desc >> 5) & 7);
  if (n > 7) n = 7;
  message *m;
  uint64_t id;
  if (desc & 1) {
    if (g_nmsgs % 64 == 0) {
      message *t = realloc(g_msgs, (g_nmsgs + 64) * sizeof *t);
      if (!t) return 0;
      g_msgs = t;
    }
    id = g_next_id++ & ((UINT64_C(1) << 56) - 1);
    m = &g_msgs[g_nmsgs++];
    memset(m, 0, sizeof *m);
    m->id = id;
    m->wave = wave; m->lane = lane; m->serial = serial;
  } else {
    id = desc >> 8;
    m = find_msg(id);
    if (!m) return 0; /* a packet for a message we never saw begin */
  }
  if (m->n + n > m->cap) {
    size_t nc = m->cap ? m->cap * 2 : 16;
    while (nc < m->n + n) nc *= 2;
    uint64_t *t = realloc(m->w, nc * sizeof *t);
    if (!t) return 0;
    m->w = t; m->cap = nc;
  }
  memcpy(m->w + m->n, w + 1, n * sizeof(uint64_t));
  m->n += n;
  if (!(desc & 2)) return id << 8;
  /* end of message: print it */
  static char out[1 << 16];
  size_t len = m->n ? format_message(m, out, sizeof out) : 0;
  keep_done(m, out, len, m->n && m->w[0] == 1);
  drop_msg(m);
  return len;
}

static uint64_t devmem_packet(const uint64_t w[8])
{
  if (w[0]) {
    const tks_alloc *a = tks_mem_find(w[0], 1);
    if (a && a->base == w[0] && a->kind == TKS_ALLOC_DEVICE) {
      tks_mem_unregister(w[0]);
      free((void *)(uintptr_t)w[0]);
    }
    return 0;
  }
  size_t n = (size_t)w[1];
  if (!n || n > TKS_DEV_MEM) return 0;
  size_t rounded = (n + 4095) & ~(size_t)4095;
  void *p = NULL;
  if (posix_memalign(&p, n >= DEVMEM_ALIGN ? DEVMEM_ALIGN : 4096, rounded)) return 0;
  memset(p, 0, rounded);
  if (tks_mem_register((uint64_t)(uintptr_t)p, n, TKS_ALLOC_DEVICE)) { free(p); return 0; }
  return (uint64_t)(uintptr_t)p;
}

uint64_t tks_device_heap(void)
{
  static void *heap;
  if (heap) return (uint64_t)(uintptr_t)heap;
  void *h = mmap(NULL, HEAP_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (h == MAP_FAILED) return 0;
  if (tks_mem_register((uint64_t)(uintptr_t)h, HEAP_BYTES, TKS_ALLOC_INTERNAL)) { munmap(h, HEAP_BYTES); return 0; }
  heap = h;
  return (uint64_t)(uintptr_t)heap;
}

static void serve_packet(uint32_t idx)
{
  hc_header *h = &g_hdr[idx];
  uint64_t mask = h->activemask;
  uint32_t service = h->service;
  static int warned;
  /* unknown writer (no hook): after every known wave, in arrival order */
  uint32_t owner = __atomic_load_n(&g_owner[idx], __ATOMIC_RELAXED);
  uint32_t wave = owner ? owner - 1 : UINT32_MAX;
  uint64_t serial = g_serial++;
  for (int lane = 0; lane < 64; lane++) {
    if (!((mask >> lane) & 1)) continue;
    uint64_t *w = g_pay[idx][lane];
    uint64_t r = 0;
    if (service == SERVICE_MESSAGE) r = message_packet(w, wave, (uint32_t)lane, serial);
    else if (service == SERVICE_DEVMEM) r = devmem_packet(w);
    else if (!warned) { warned = 1; fprintf(stderr, "tksim: hostcall service %u is not supported\n", service); }
    w[0] = r;
    w[1] = 0;
  }
  atomic_thread_fence(memory_order_release);
  __atomic_fetch_and(&h->control, ~1u, __ATOMIC_RELEASE);
}

/* Serves everything on the ready stack; returns the number of packets. */
static int drain(void)
{
  uint64_t top = __atomic_exchange_n(&g_buf->ready_stack, 0, __ATOMIC_ACQUIRE);
  if (!top) return 0;
  /* The stack is LIFO: collect, then serve oldest first. */
  uint32_t idx[NPACKETS];
  int n = 0;
  uint64_t mask = g_buf->index_mask;
  for (uint64_t p = top; p && n < (int)NPACKETS; p = g_hdr[p & mask].next) idx[n++] = (uint32_t)(p & mask);
  for (int i = n - 1; i >= 0; i--) serve_packet(idx[i]);
  return n;
}

static void *service_main(void *arg)
{
  (void)arg;
  struct timespec ts = { 0, 20000 };
  for (;;) {
    int stop = atomic_load(&g_stop);
    if (!drain()) {
      if (stop) break;
      nanosleep(&ts, NULL);
    }
  }
  return NULL;
}

int tks_hostcall_start(void)
{
  if (!tks_hostcall_buffer()) return -1;
  atomic_store(&g_stop, 0);
  if (pthread_create(&g_thread, NULL, service_main, NULL)) return -1;
  g_running = 1;
  return 0;
}

void tks_hostcall_stop(void)
{
  if (!g_running) return;
  atomic_store(&g_stop, 1);
  pthread_join(g_thread, NULL);
  g_running = 0;
  /* qsort's base must not be NULL even for 0 elements (C11 7.22.5p1) */
  if (g_ndone > 1) qsort(g_done, g_ndone, sizeof *g_done, cmp_done);
  for (size_t i = 0; i < g_ndone; i++) {
    fwrite(g_done[i].text, 1, g_done[i].len, g_done[i].to_stderr ? stderr : stdout);
    free(g_done[i].text);
  }
  g_ndone = 0;
  memset(g_owner, 0, sizeof g_owner);
  fflush(stdout);
  /* messages a failed kernel left unfinished are dropped */
  while (g_nmsgs) drop_msg(&g_msgs[g_nmsgs - 1]);
}
