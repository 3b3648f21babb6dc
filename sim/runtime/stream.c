/* stream.c: streams, events and synchronisation for tksim's HIP runtime.
 *
 * Every launch and copy completes inside its call, so streams only need to
 * exist (for handle validation) and synchronisation only reports the sticky
 * error of a failed launch. Events record host wall time; when the timing
 * model (sim/model) gave every launch between two events a modeled duration,
 * hipEventElapsedTime reports the modeled sum instead.
 */
#define _DEFAULT_SOURCE /* mmap flags, readlink, realpath under -std=c11 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "runtime/rt.h"

#define STREAM_MAGIC 0x7374726du
#define EVENT_MAGIC 0x65766e74u

struct ihipStream_t { uint32_t magic; unsigned flags; int priority; struct ihipStream_t *next; };
struct ihipEvent_t {
  uint32_t magic; unsigned flags; int recorded;
  double wall;                  /* seconds, CLOCK_MONOTONIC */
  double modeled;               /* modeled seconds of all launches so far */
  uint64_t launches, unmodeled; /* launch counters at record time */
  struct ihipEvent_t *next;
};

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ihipStream_t *g_streams;
static struct ihipEvent_t *g_events;
static double g_modeled;
static uint64_t g_launches, g_unmodeled;

void tks_rt_note_launch(double modeled_seconds)
{
  pthread_mutex_lock(&g_lock);
  g_launches++;
  if (modeled_seconds > 0) g_modeled += modeled_seconds; else g_unmodeled++;
  pthread_mutex_unlock(&g_lock);
}

int tks_rt_stream_ok(hipStream_t s)
{
  if (!s || s == hipStreamPerThread) return 1;
  int ok = 0;
  pthread_mutex_lock(&g_lock);
  for (struct ihipStream_t *p = g_streams; p; p = p->next) if (p == s) { ok = 1; break; }
  pthread_mutex_unlock(&g_lock);
  return ok;
}

static int event_ok(hipEvent_t e)
{
  int ok = 0;
  if (!e) return 0;
  pthread_mutex_lock(&g_lock);
  for (struct ihipEvent_t *p = g_events; p; p = p->next) if (p == e) { ok = 1; break; }
  pthread_mutex_unlock(&g_lock);
  return ok;
}

static hipError_t sync_result(void)
{
  hipError_t st = tks_rt_take_sticky();
  return st != hipSuccess ? tks_rt_ret(st) : hipSuccess;
}

TKS_EXPORT hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags, int priority)
{
  if (!stream) return tks_rt_fail(hipErrorInvalidValue, "hipStreamCreate", "null pointer");
  struct ihipStream_t *s = calloc(1, sizeof *s);
  if (!s) return tks_rt_fail(hipErrorOutOfMemory, "hipStreamCreate", "out of memory");
  s->magic = STREAM_MAGIC; s->flags = flags; s->priority = priority;
  pthread_mutex_lock(&g_lock);
  s->next = g_streams; g_streams = s;
  pthread_mutex_unlock(&g_lock);
  *stream = s;
  return hipSuccess;
}
TKS_EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags) { return hipStreamCreateWithPriority(stream, flags, 0); }
TKS_EXPORT hipError_t hipStreamCreate(hipStream_t *stream) { return hipStreamCreateWithPriority(stream, 0, 0); }

TKS_EXPORT hipError_t hipStreamDestroy(hipStream_t stream)
{
  pthread_mutex_lock(&g_lock);
  for (struct ihipStream_t **pp = &g_streams; *pp; pp = &(*pp)->next)
    if (*pp == stream) {
      *pp = stream->next;
      pthread_mutex_unlock(&g_lock);
      stream->magic = 0;
      free(stream);
      return hipSuccess;
    }
  pthread_mutex_unlock(&g_lock);
  return tks_rt_fail(hipErrorInvalidHandle, "hipStreamDestroy", "%p is not a live stream", (void *)stream);
}

TKS_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream)
{
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, "hipStreamSynchronize", "invalid stream");
  return sync_result();
}

TKS_EXPORT hipError_t hipStreamQuery(hipStream_t stream)
{
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, "hipStreamQuery", "invalid stream");
  return sync_result();
}

TKS_EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags)
{
  (void)flags;
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, "hipStreamWaitEvent", "invalid stream");
  if (!event_ok(event)) return tks_rt_fail(hipErrorInvalidHandle, "hipStreamWaitEvent", "invalid event");
  return hipSuccess;
}

TKS_EXPORT hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags)
{
  if (!flags) return tks_rt_fail(hipErrorInvalidValue, "hipStreamGetFlags", "null pointer");
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, "hipStreamGetFlags", "invalid stream");
  *flags = (stream && stream != hipStreamPerThread) ? stream->flags : 0;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipStreamGetPriority(hipStream_t stream, int *priority)
{
  if (!priority) return tks_rt_fail(hipErrorInvalidValue, "hipStreamGetPriority", "null pointer");
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, "hipStreamGetPriority", "invalid stream");
  *priority = (stream && stream != hipStreamPerThread) ? stream->priority : 0;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipDeviceGetStreamPriorityRange(int *least, int *greatest)
{
  if (least) *least = 0;
  if (greatest) *greatest = 0;
  return hipSuccess;
}

TKS_EXPORT hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void *userData, unsigned int flags)
{
  (void)flags;
  if (!callback) return tks_rt_fail(hipErrorInvalidValue, "hipStreamAddCallback", "null callback");
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, "hipStreamAddCallback", "invalid stream");
  callback(stream, tks_rt_take_sticky(), userData); /* all prior work is done */
  return hipSuccess;
}

TKS_EXPORT hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *userData)
{
  if (!fn) return tks_rt_fail(hipErrorInvalidValue, "hipLaunchHostFunc", "null function");
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, "hipLaunchHostFunc", "invalid stream");
  fn(userData);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipDeviceSynchronize(void) { return sync_result(); }
TKS_EXPORT hipError_t hipCtxSynchronize(void) { return sync_result(); }

TKS_EXPORT hipError_t hipDeviceReset(void)
{
  tks_rt_take_sticky();
  return hipSuccess;
}

/* ---------------------------------------------------------------- events */
static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

TKS_EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags)
{
  if (!event) return tks_rt_fail(hipErrorInvalidValue, "hipEventCreate", "null pointer");
  struct ihipEvent_t *e = calloc(1, sizeof *e);
  if (!e) return tks_rt_fail(hipErrorOutOfMemory, "hipEventCreate", "out of memory");
  e->magic = EVENT_MAGIC; e->flags = flags;
  pthread_mutex_lock(&g_lock);
  e->next = g_events; g_events = e;
  pthread_mutex_unlock(&g_lock);
  *event = e;
  return hipSuccess;
}
TKS_EXPORT hipError_t hipEventCreate(hipEvent_t *event) { return hipEventCreateWithFlags(event, 0); }

TKS_EXPORT hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream)
{
  if (!event_ok(event)) return tks_rt_fail(hipErrorInvalidHandle, "hipEventRecord", "invalid event");
  if (!tks_rt_stream_ok(stream)) return tks_rt_fail(hipErrorInvalidHandle, "hipEventRecord", "invalid stream");
  pthread_mutex_lock(&g_lock);
  event->recorded = 1;
  event->wall = now();
  event->modeled = g_modeled;
  event->launches = g_launches;
  event->unmodeled = g_unmodeled;
  pthread_mutex_unlock(&g_lock);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipEventSynchronize(hipEvent_t event)
{
  if (!event_ok(event)) return tks_rt_fail(hipErrorInvalidHandle, "hipEventSynchronize", "invalid event");
  return sync_result();
}

TKS_EXPORT hipError_t hipEventQuery(hipEvent_t event)
{
  if (!event_ok(event)) return tks_rt_fail(hipErrorInvalidHandle, "hipEventQuery", "invalid event");
  return hipSuccess; /* recorded work is always complete */
}

TKS_EXPORT hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop)
{
  if (!ms) return tks_rt_fail(hipErrorInvalidValue, "hipEventElapsedTime", "null pointer");
  if (!event_ok(start) || !event_ok(stop)) return tks_rt_fail(hipErrorInvalidHandle, "hipEventElapsedTime", "invalid event");
  if (!start->recorded || !stop->recorded)
    return tks_rt_fail(hipErrorInvalidHandle, "hipEventElapsedTime", "event was never recorded");
  if ((start->flags | stop->flags) & hipEventDisableTiming)
    return tks_rt_fail(hipErrorInvalidHandle, "hipEventElapsedTime", "event created with hipEventDisableTiming");
  uint64_t launches = stop->launches > start->launches ? stop->launches - start->launches : 0;
  int modeled = launches > 0 && stop->unmodeled == start->unmodeled;
  double s = modeled ? stop->modeled - start->modeled : stop->wall - start->wall;
  *ms = (float)(s * 1e3);
  return hipSuccess;
}

TKS_EXPORT hipError_t hipEventDestroy(hipEvent_t event)
{
  pthread_mutex_lock(&g_lock);
  for (struct ihipEvent_t **pp = &g_events; *pp; pp = &(*pp)->next)
    if (*pp == event) {
      *pp = event->next;
      pthread_mutex_unlock(&g_lock);
      event->magic = 0;
      free(event);
      return hipSuccess;
    }
  pthread_mutex_unlock(&g_lock);
  return tks_rt_fail(hipErrorInvalidHandle, "hipEventDestroy", "%p is not a live event", (void *)event);
}
