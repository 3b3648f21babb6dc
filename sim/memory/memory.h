/* memory.h: allocation-table calls beyond tksim.h, for the runtime. */
#ifndef TKS_MEMORY_H
#define TKS_MEMORY_H
#include "tksim.h"
/* Bracket a dispatch: while one runs, registrations (device malloc's memory
 * service) publish a fresh table instead of changing the one the engine's
 * workers are reading; replaced tables are freed by the end call. */
void tks_mem_dispatch_begin(void);
void tks_mem_dispatch_end(void);
#endif
