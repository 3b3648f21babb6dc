/* test_launch.c: the runtime's launch plumbing, linked with a recording stand-in
 * for tks_exec_dispatch instead of the engine. Loads data/kernels-gfx942.elf
 * with hipModuleLoad and checks what a dispatch receives against values
 * derived from the launch parameters and AMDGPUUsage: explicit argument bytes,
 * hidden arguments (block counts, group sizes, remainders, grid dims), the
 * hsa_kernel_dispatch_packet_t fields (HSA spec: setup dims in bits 0-1,
 * kernel_object = descriptor address), allocation-table kinds during and after
 * the dispatch, the sticky error after a failed dispatch and modeled event
 * times. */
#define _DEFAULT_SOURCE /* setenv */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "runtime/rt.h"

static tks_dispatch g_d;
static uint8_t g_kernarg[1024];
static uint8_t g_packet[64];
static int g_kernarg_kind = -1, g_packet_kind = -1, g_calls, g_fail_next;
static double g_model_seconds;

int tks_exec_dispatch(const tks_dispatch *d, const tks_options *opt, tks_launch_stats *stats,
                      char *err, size_t errlen)
{
  (void)opt;
  g_calls++;
  g_d = *d;
  uint32_t n = d->k->kernarg_segment_size < sizeof g_kernarg ? d->k->kernarg_segment_size : sizeof g_kernarg;
  memcpy(g_kernarg, d->kernarg, n);
  memcpy(g_packet, d->dispatch_packet, 64);
  const tks_alloc *a = tks_mem_find((uint64_t)(uintptr_t)d->kernarg, d->k->kernarg_segment_size);
  g_kernarg_kind = a ? a->kind : -1;
  a = tks_mem_find((uint64_t)(uintptr_t)d->dispatch_packet, 64);
  g_packet_kind = a ? a->kind : -1;
  stats->modeled_seconds = g_model_seconds;
  if (g_fail_next) { g_fail_next = 0; snprintf(err, errlen, "stand-in engine: injected failure"); return -1; }
  return 0;
}

/* the engine frees its decoded programs when a module is unloaded; the
 * stand-in decodes nothing */
void tks_exec_release(tks_code_object *co) { (void)co; }

static uint64_t kv(const tks_kernel *k, const char *kind)
{
  for (int i = 0; i < k->nargs; i++)
    if (!strcmp(k->args[i].value_kind, kind)) {
      uint64_t v = 0;
      memcpy(&v, g_kernarg + k->args[i].offset, k->args[i].size);
      return v;
    }
  return UINT64_MAX;
}

int main(int argc, char **argv)
{
  if (argc < 2) { fprintf(stderr, "usage: test_launch DATA_DIR\n"); return 2; }
  setenv("TKSIM_QUIET", "1", 1);
  char path[1024];
  snprintf(path, sizeof path, "%s/kernels-gfx942.elf", argv[1]);
  hipModule_t mod;
  CHECK(hipModuleLoad(&mod, path) == hipSuccess, "load %s", path);
  hipFunction_t f;
  CHECK(hipModuleGetFunction(&f, mod, "add") == hipSuccess, "add");
  CHECK(hipModuleGetFunction(&f, mod, "missing") == hipErrorNotFound, "unknown kernel -> hipErrorNotFound");
  CHECK(hipModuleGetFunction(&f, mod, "add") == hipSuccess, "add again");

  float *c, *a, *b;
  CHECK(hipMalloc((void **)&c, 64) == 0 && hipMalloc((void **)&a, 64) == 0 && hipMalloc((void **)&b, 64) == 0, "malloc");
  int n = 77;
  void *params[] = { &c, &a, &b, &n };
  CHECK(hipModuleLaunchKernel(f, 3, 2, 1, 64, 2, 1, 128, NULL, params, NULL) == hipSuccess, "launch");
  CHECK(g_calls == 1, "dispatched once");
  const tks_kernel *k = g_d.k;
  uint64_t p0, p1, p2;
  memcpy(&p0, g_kernarg, 8); memcpy(&p1, g_kernarg + 8, 8); memcpy(&p2, g_kernarg + 16, 8);
  int32_t nn; memcpy(&nn, g_kernarg + 24, 4);
  CHECK(p0 == (uintptr_t)c && p1 == (uintptr_t)a && p2 == (uintptr_t)b && nn == 77, "explicit arguments at 0/8/16/24");
  CHECK(kv(k, "hidden_block_count_x") == 3 && kv(k, "hidden_block_count_y") == 2 && kv(k, "hidden_block_count_z") == 1, "block counts");
  CHECK(kv(k, "hidden_group_size_x") == 64 && kv(k, "hidden_group_size_y") == 2 && kv(k, "hidden_group_size_z") == 1, "group sizes");
  CHECK(kv(k, "hidden_remainder_x") == 0 && kv(k, "hidden_remainder_y") == 0 && kv(k, "hidden_remainder_z") == 0, "remainders");
  CHECK(kv(k, "hidden_grid_dims") == 2, "grid dims 2 (y > 1)");
  uint64_t off = kv(k, "hidden_global_offset_x");
  CHECK(off == 0 || off == UINT64_MAX, "global offset 0");
  CHECK(g_d.grid[0] == 192 && g_d.grid[1] == 4 && g_d.grid[2] == 1, "grid in work-items");
  CHECK(g_d.block[0] == 64 && g_d.block[1] == 2 && g_d.block[2] == 1, "block");
  CHECK(g_d.dynamic_lds == 128, "dynamic LDS");
  CHECK(g_kernarg_kind == TKS_ALLOC_KERNARG, "kernarg registered as KERNARG during the dispatch");
  CHECK(tks_mem_find((uint64_t)(uintptr_t)g_d.kernarg, 1) == NULL, "kernarg unregistered afterwards");
  CHECK(g_packet_kind == TKS_ALLOC_INTERNAL, "dispatch packet registered INTERNAL");
  CHECK(g_d.queue && tks_mem_find((uint64_t)(uintptr_t)g_d.queue, 1), "queue block registered");
  uint16_t hdr, setup, wg[3]; uint32_t gs[3], lds; uint64_t kobj, kaddr;
  memcpy(&hdr, g_packet, 2); memcpy(&setup, g_packet + 2, 2); memcpy(wg, g_packet + 4, 6);
  memcpy(gs, g_packet + 12, 12); memcpy(&lds, g_packet + 28, 4); memcpy(&kobj, g_packet + 32, 8); memcpy(&kaddr, g_packet + 40, 8);
  CHECK((hdr & 0xff) == 2, "packet type KERNEL_DISPATCH");
  CHECK((setup & 3) == 2, "setup dims 2");
  CHECK(wg[0] == 64 && wg[1] == 2 && wg[2] == 1 && gs[0] == 192 && gs[1] == 4 && gs[2] == 1, "packet sizes");
  CHECK(lds == k->group_segment_fixed_size + 128, "packet group segment size");
  CHECK(kaddr == (uintptr_t)g_d.kernarg, "packet kernarg address");
  CHECK(kobj + (uint64_t)k->kd.kernel_code_entry_byte_offset == k->code_addr, "kernel_object is the descriptor");
  uint32_t kd_kernarg; memcpy(&kd_kernarg, (const void *)(uintptr_t)(kobj + 8), 4);
  CHECK(kd_kernarg == k->kernarg_segment_size, "descriptor at kernel_object has the kernarg size");

  /* the `extra` buffer form */
  struct { float *c, *a, *b; int n; } buf = { a, b, c, 5 };
  size_t bsz = sizeof buf;
  void *extra[] = { HIP_LAUNCH_PARAM_BUFFER_POINTER, &buf, HIP_LAUNCH_PARAM_BUFFER_SIZE, &bsz, HIP_LAUNCH_PARAM_END };
  CHECK(hipModuleLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, NULL, NULL, extra) == hipSuccess, "launch with extra");
  memcpy(&p0, g_kernarg, 8); memcpy(&nn, g_kernarg + 24, 4);
  CHECK(p0 == (uintptr_t)a && nn == 5 && kv(g_d.k, "hidden_grid_dims") == 1 && kv(g_d.k, "hidden_block_count_x") == 1, "extra buffer copied");

  /* refused configurations never reach the engine */
  int before = g_calls;
  CHECK(hipModuleLaunchKernel(f, 0, 1, 1, 64, 1, 1, 0, NULL, params, NULL) == hipErrorInvalidConfiguration, "0 blocks");
  CHECK(hipModuleLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL) == hipErrorInvalidConfiguration, "2048 threads");
  CHECK(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 70 * 1024, NULL, params, NULL) == hipErrorInvalidConfiguration, "70 KiB LDS");
  CHECK(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, NULL, NULL) == hipErrorInvalidValue, "no arguments");
  CHECK(hipModuleLaunchKernel(f, 0x2000000, 1, 1, 256, 1, 1, 0, NULL, params, NULL) == hipErrorInvalidConfiguration, "2^33 work-items");
  CHECK(g_calls == before, "none dispatched");
  hipFunction_t lr;
  CHECK(hipModuleGetFunction(&lr, mod, "lds_reverse") == hipSuccess, "lds_reverse");
  CHECK(hipModuleLaunchKernel(lr, 1, 1, 1, 512, 1, 1, 0, NULL, params, NULL) == hipErrorInvalidConfiguration,
        "512 threads beyond __launch_bounds__(256)");
  CHECK(hipModuleLaunchKernel(lr, 1, 1, 1, 256, 1, 1, 61 * 1024 + 1, NULL, params, NULL) == hipErrorInvalidConfiguration,
        "4 KiB static + 61 KiB + 1 dynamic LDS");
  CHECK(hipModuleLaunchKernel(lr, 1, 1, 1, 256, 1, 1, 60 * 1024, NULL, params, NULL) == hipSuccess, "4 + 60 KiB fits");

  /* a failed dispatch: launch returns success, the next sync reports it once */
  (void)hipGetLastError();
  g_fail_next = 1;
  CHECK(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL) == hipSuccess, "failing launch returns");
  CHECK(hipDeviceSynchronize() == hipErrorLaunchFailure, "sync reports the failure");
  CHECK(hipDeviceSynchronize() == hipSuccess, "once");
  CHECK(hipGetLastError() == hipErrorLaunchFailure && hipGetLastError() == hipSuccess, "last error");

  /* modeled time replaces wall time between events when every launch has one */
  hipEvent_t e0, e1;
  CHECK(hipEventCreate(&e0) == 0 && hipEventCreate(&e1) == 0, "events");
  g_model_seconds = 0.125;
  hipEventRecord(e0, NULL);
  hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL);
  hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL);
  hipEventRecord(e1, NULL);
  float ms = 0;
  CHECK(hipEventElapsedTime(&ms, e0, e1) == hipSuccess && ms == 250.0f, "modeled 2 x 125 ms = %g ms", ms);
  g_model_seconds = 0;
  hipEventRecord(e0, NULL);
  hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL);
  hipEventRecord(e1, NULL);
  CHECK(hipEventElapsedTime(&ms, e0, e1) == hipSuccess && ms >= 0 && ms < 1000, "wall time without a model: %g", ms);

  /* occupancy from this kernel's metadata, computed here from the same rules */
  const tks_kernel *ka = g_d.k;
  uint32_t v = ka->vgpr_count ? (ka->vgpr_count + 7) / 8 * 8 : 8, s = (ka->sgpr_count + 15) / 16 * 16;
  uint32_t w = 512 / v < 8 ? 512 / v : 8;
  if (s && 800 / s < w) w = 800 / s;
  int nb = -1;
  CHECK(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&nb, f, 256, 0) == hipSuccess && nb == (int)(4 * w / 4),
        "add @256: %d blocks (vgpr %u sgpr %u)", nb, ka->vgpr_count, ka->sgpr_count);
  CHECK(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&nb, lr, 256, 0) == hipSuccess && nb <= 16, "lds_reverse: LDS 4 KiB -> at most 16");
  CHECK(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&nb, lr, 256, 28 * 1024) == hipSuccess && nb == 2,
        "lds_reverse + 28 KiB: 65536 / 32768 = 2, got %d", nb);

  CHECK(hipModuleUnload(mod) == hipSuccess, "unload");
  CHECK(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, params, NULL) != hipSuccess, "stale function handle refused");
  CHECK(hipModuleUnload(mod) != hipSuccess, "double unload refused");
  return CHECK_DONE();
}
