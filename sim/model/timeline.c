/* timeline.c: the --timeline writer (see timeline.h). Events are streamed to
 * the file as they come; thread names are emitted the first time a track of
 * a dispatch is used. Capped at TL_MAX spans so the file stays loadable. */
#include <stdio.h>
#include <string.h>

#include "model/timeline.h"

#define TL_MAX 2000000

static FILE *g_f;
static int g_failed;
static uint64_t g_n;
static int g_pid;
static uint8_t g_named[512];

int tks_timeline_open(const char *path)
{
  if (g_f) return 0;
  if (g_failed) return -1;
  g_f = fopen(path, "w");
  if (!g_f) {
    fprintf(stderr, "tksim: cannot write timeline '%s'\n", path);
    g_failed = 1;
    return -1;
  }
  fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", g_f);
  fputs("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"tksim model\"}}", g_f);
  return 0;
}

static void json_str(const char *s)
{
  fputc('"', g_f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', g_f);
    if ((unsigned char)*s >= 0x20) fputc(*s, g_f);
  }
  fputc('"', g_f);
}

void tks_timeline_dispatch(const char *name, double ts_us)
{
  if (!g_f) return;
  g_pid++;
  memset(g_named, 0, sizeof g_named);
  fprintf(g_f, ",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":", g_pid);
  json_str(name);
  fputs("}}", g_f);
}

static void name_thread(uint32_t tid)
{
  char nm[64];
  if (tid < 100) snprintf(nm, sizeof nm, "wave %u (SIMD %u)", tid, tid % 4);
  else if (tid < 200) snprintf(nm, sizeof nm, "SIMD %u MFMA pipe", tid - 100);
  else if (tid < 300) snprintf(nm, sizeof nm, "wave %u LDS", tid - 200);
  else snprintf(nm, sizeof nm, "wave %u VMEM", tid - 300);
  fprintf(g_f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"args\":{\"name\":\"%s\"}}",
          g_pid, tid, nm);
  fprintf(g_f, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"args\":{\"sort_index\":%u}}",
          g_pid, tid, tid < 100 ? tid * 4 : tid < 200 ? 1000 + tid : (tid % 100) * 4 + tid / 100);
}

void tks_timeline_span(uint32_t tid, const char *name, const char *cat, double ts_us, double dur_us)
{
  if (!g_f || g_n >= TL_MAX) return;
  if (tid < sizeof g_named && !g_named[tid]) { g_named[tid] = 1; name_thread(tid); }
  fprintf(g_f, ",\n{\"ph\":\"X\",\"pid\":%d,\"tid\":%u,\"ts\":%.4f,\"dur\":%.4f,\"cat\":\"%s\",\"name\":", g_pid,
          tid, ts_us, dur_us, cat);
  json_str(name);
  fputc('}', g_f);
  g_n++;
}

uint64_t tks_timeline_count(void) { return g_n; }

void tks_timeline_close(void)
{
  if (!g_f) return;
  fputs("\n]}\n", g_f);
  fclose(g_f);
  g_f = NULL;
}
