/* hostcall.h: host side of the hostcall protocol (device printf); see hostcall.c. */
#ifndef TKS_HOSTCALL_H
#define TKS_HOSTCALL_H
#include <stdint.h>
/* The device address of the hostcall buffer (allocated on first use), or 0. */
uint64_t tks_hostcall_buffer(void);
/* The device-malloc heap state for hidden_heap_v1 (allocated on first use), or 0. */
uint64_t tks_device_heap(void);
/* Starts / stops the service thread around one dispatch. stop drains every
 * pending request first. */
int tks_hostcall_start(void);
void tks_hostcall_stop(void);
/* The engine's global-store hook: wave wave_id (dispatch-wide) stored to
 * addr[] (lanes of exec); stores into a packet's payload make it that wave's. */
void tks_hostcall_on_store(uint32_t wave_id, const uint64_t addr[64], uint64_t exec);
#endif
