/* timeline.h: Chrome/Perfetto trace-event JSON writer for --timeline.
 * Format: Google's "Trace Event Format" (JSON object with a traceEvents
 * array of "X" complete events, ts/dur in microseconds), which
 * chrome://tracing and ui.perfetto.dev open. Single-threaded use. */
#ifndef TKS_MODEL_TIMELINE_H
#define TKS_MODEL_TIMELINE_H

#include <stdint.h>

/* Opens FILE (once per process; later calls reuse it). 0 or -1. */
int tks_timeline_open(const char *path);
/* A new process track for a dispatch, named `name`, starting at ts_us. */
void tks_timeline_dispatch(const char *name, double ts_us);
/* A span on thread track tid of the current dispatch. tid 0..15 waves,
 * 100+s SIMD s's MFMA pipe, 200+w wave w's LDS ops, 300+w its VMEM ops. */
void tks_timeline_span(uint32_t tid, const char *name, const char *cat, double ts_us, double dur_us);
/* Writes the closing bracket and closes the file. */
void tks_timeline_close(void);
/* Spans written so far (the writer stops at a cap to keep files openable). */
uint64_t tks_timeline_count(void);

#endif
