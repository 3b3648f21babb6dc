// broken_kernels.hip: one HIP program per checker case, selected by argv:
//   broken_kernels CASE good|bad
// `good` is the correct kernel (tksim must stay quiet and the program checks
// its result), `bad` the broken one that tksim's checker must flag:
//   oob      out-of-bounds global store 4 MiB past the end (memory checker)
//   edge     out-of-bounds global store 64 bytes past the end, inside the
//            allocator's 256-byte rounding (so it is harmless with the memory
//            checker off, which the `off` test of ctest does)
//   wait     inline-asm ds_read_b64 used before s_waitcnt lgkmcnt (wait checker)
//   race     LDS written by wave 0, read by wave 1 without s_barrier (race checker)
//   deadlock wave 0 waits at a second s_barrier while wave 1, past its only
//            barrier, spins on a flag wave 0 sets after that barrier: neither
//            can proceed (barrier deadlock / budget)
//   bytes    waves 0 and 1 store single bytes into the same dwords with no
//            barrier: different bytes (good, no race) or the same bytes (bad)
//   inflight wave 0's ds_write_b32 still in flight at s_barrier (no s_waitcnt
//            lgkmcnt), read by wave 1 after the barrier (race checker)
//   loop     a loop whose exit condition never becomes true (budget)
//   stall    workgroup 0 polls a flag (tk_flag_wait_geq: s_sleep between
//            loads) that workgroup 1 releases (good) or never sets (bad):
//            tksim's stall guard, not the budget, must name it
//   trwait   gfx950 (run with --arch=gfx950): inline-asm ds_read_b64_tr_b16
//            used before s_waitcnt lgkmcnt (wait checker)
//   trrace   gfx950: LDS written by wave 0, read by wave 1 with
//            ds_read_b64_tr_b16 without s_barrier (race checker)
// trwait/trrace check their good results against the transposing read's
// rule (docs/hardware.md): lane 8-byte addresses 8l over a row-major 4 x 16
// block of halfwords per 16-lane group give lane (16g + i) element j =
// halfword 64g + 16j + i.
// The bad variants are meaningful only under tksim (on a GPU they corrupt
// memory or hang), so ctest registers them only with tksim.
#include "../isa/vtest.h"
#include <tk/flag.h>

__global__ void k_oob(int *out, int n, int extra)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * 2;
  /* bad: one lane also stores 4 MiB (extra 1) or 64 bytes (extra 2) past the
   * end of the allocation */
  if (extra && i == 5) out[n + (extra == 1 ? (1 << 20) : 16)] = 1;
}

__global__ void k_wait(unsigned long long *out, int bad)
{
  __shared__ unsigned long long lds[64];
  int t = threadIdx.x;
  lds[t] = (unsigned long long)t * 3 + 1;
  __syncthreads();
  uint32_t addr = (uint32_t)(uintptr_t)&lds[(t + 1) % 64];
  unsigned long long v;
  /* the compiler does not track inline asm's LDS access, so it inserts no
   * s_waitcnt of its own between the read and the use of v */
  if (bad) asm volatile("ds_read_b64 %0, %1" : "=v"(v) : "v"(addr) : "memory");
  else asm volatile("ds_read_b64 %0, %1\n\ts_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
  out[t] = v + 5;
}

__global__ void k_race(int *out, int bad)
{
  __shared__ int lds[64];
  int t = threadIdx.x;
  if (t < 64) lds[t] = t * 7 + 1;
  if (!bad) __syncthreads();
  if (t >= 64) out[t - 64] = lds[t - 64];
}

__global__ void k_bytes(int *out, int bad)
{
  __shared__ uint8_t lds[256];
  int t = threadIdx.x, w = t / 64, l = t % 64;
  /* wave 0 stores byte 4l, wave 1 byte 4l+1 (good) or also 4l (bad) */
  lds[4 * l + (w == 1 && !bad ? 1 : 0)] = (uint8_t)(t + 1);
  if (t < 64) { lds[4 * l + 2] = 0; lds[4 * l + 3] = 0; }
  __syncthreads();
  if (t < 64) out[t] = lds[4 * t] | lds[4 * t + 1] << 8;
}

__global__ void k_inflight(int *out, int bad)
{
  __shared__ int lds[64];
  int t = threadIdx.x;
  if (t < 64) {
    uint32_t a = (uint32_t)(uintptr_t)&lds[t];
    int v = t * 9 + 2;
    if (bad) asm volatile("ds_write_b32 %0, %1\n\ts_barrier" : : "v"(a), "v"(v) : "memory");
    else asm volatile("ds_write_b32 %0, %1\n\ts_waitcnt lgkmcnt(0)\n\ts_barrier" : : "v"(a), "v"(v) : "memory");
  } else {
    asm volatile("s_barrier" : : : "memory");
    out[t - 64] = lds[t - 64];
  }
}

__global__ void k_deadlock(int *out, int bad)
{
  __shared__ volatile int flag;
  int t = threadIdx.x, w = t / 64;
  if (t == 0) flag = 0;
  __syncthreads();
  if (bad) {
    if (w == 0) {
      asm volatile("s_barrier" ::: "memory"); /* wave 1 never reaches a second barrier */
      if (t == 0) flag = 1;
    } else {
      while (flag == 0) { } /* waits for wave 0, which waits for wave 1 */
    }
  } else {
    if (w == 0 && t == 0) flag = 1;
    __syncthreads();
    while (flag == 0) { }
  }
  out[t] = flag;
}

__global__ void k_loop(const volatile int *stop, int *out)
{
  int n = 0;
  while (*stop == 0) n++;
  out[threadIdx.x] = n + 1;
}

__global__ void k_stall(uint32_t *flag, int *out, int bad)
{
  if (blockIdx.x == 0) {
    tk_flag_wait_geq(flag, 1u);
    out[threadIdx.x] = (int)*flag;
  } else if (!bad) {
    tk_flag_release(flag, 1u);
  }
}

typedef short s4v_ __attribute__((ext_vector_type(4)));
__global__ void k_trwait(unsigned short *out, int bad)
{
  __shared__ unsigned lds[128];
  int t = threadIdx.x;
  /* the output pointer in SGPRs before the read: no s_load (and its
   * s_waitcnt lgkmcnt) between the read and the use of v */
  uintptr_t op = (uintptr_t)out;
  asm volatile("" : "+s"(op));
  lds[2 * t] = (unsigned)(4 * t) * 3 + 1 | ((unsigned)(4 * t + 1) * 3 + 1) << 16;
  lds[2 * t + 1] = (unsigned)(4 * t + 2) * 3 + 1 | ((unsigned)(4 * t + 3) * 3 + 1) << 16;
  __syncthreads();
  uint32_t addr = (uint32_t)(uintptr_t)&lds[2 * t];
  unsigned long long v = 0;
#if defined(__gfx950__)
  if (bad) asm volatile("ds_read_b64_tr_b16 %0, %1" : "=v"(v) : "v"(addr) : "memory");
  else asm volatile("ds_read_b64_tr_b16 %0, %1\n\ts_waitcnt lgkmcnt(0)" : "=v"(v) : "v"(addr) : "memory");
#else
  (void)addr; (void)bad;
#endif
  for (int j = 0; j < 4; j++) ((unsigned short *)op)[4 * t + j] = (unsigned short)(v >> (16 * j));
}

__global__ void k_trrace(unsigned short *out, int bad)
{
  __shared__ unsigned lds[128];
  int t = threadIdx.x;
  if (t < 64) {
    lds[2 * t] = (unsigned)(4 * t) * 3 + 1 | ((unsigned)(4 * t + 1) * 3 + 1) << 16;
    lds[2 * t + 1] = (unsigned)(4 * t + 2) * 3 + 1 | ((unsigned)(4 * t + 3) * 3 + 1) << 16;
  }
  if (!bad) __syncthreads();
  if (t >= 64) {
    int l = t - 64;
#if defined(__gfx950__)
    s4v_ v = __builtin_amdgcn_ds_read_tr16_b64_v4i16((__attribute__((address_space(3))) s4v_ *)&lds[2 * l]);
    for (int j = 0; j < 4; j++) out[4 * l + j] = (unsigned short)v[j];
#else
    (void)l; (void)out;
#endif
  }
}

static void check_tr(const unsigned short *h)
{
  for (int l = 0; l < 64; l++)
    for (int j = 0; j < 4; j++) {
      int g = l / 16, i = l % 16, hw = 64 * g + 16 * j + i;
      vt_check_u32("transposed halfword", 4 * l + j, h[4 * l + j], (uint32_t)(unsigned short)(hw * 3 + 1));
    }
}

int main(int argc, char **argv)
{
  if (argc < 3 || (strcmp(argv[2], "good") && strcmp(argv[2], "bad"))) {
    fprintf(stderr, "usage: %s oob|edge|wait|race|bytes|inflight|deadlock|loop|stall|trwait|trrace good|bad\n", argv[0]);
    return 2;
  }
  const char *c = argv[1];
  int bad = !strcmp(argv[2], "bad");
  hipError_t e = hipSuccess;
  if (!strcmp(c, "oob") || !strcmp(c, "edge")) {
    const int n = 1024, extra = bad ? (!strcmp(c, "oob") ? 1 : 2) : 0;
    vt_buf<int> out(n);
    /* the address the memory checker must name (run_checker.cmake) */
    if (extra) printf("expected fault address %p\n", (void *)(out.d + n + (extra == 1 ? (1 << 20) : 16)));
    k_oob<<<n / 256, 256>>>(out.d, n, extra);
    e = hipDeviceSynchronize();
    if (e == hipSuccess) {
      auto h = out.get();
      for (int i = 0; i < n; i++) vt_check_u32("out[i] = 2i", i, (uint32_t)h[i], (uint32_t)(2 * i));
    }
  } else if (!strcmp(c, "wait")) {
    vt_buf<unsigned long long> out(64);
    k_wait<<<1, 64>>>(out.d, bad);
    e = hipDeviceSynchronize();
    if (e == hipSuccess) {
      auto h = out.get();
      for (int t = 0; t < 64; t++) vt_check_u64("lds neighbour + 5", t, h[t], (uint64_t)((t + 1) % 64) * 3 + 1 + 5);
    }
  } else if (!strcmp(c, "trwait") || !strcmp(c, "trrace")) {
    vt_buf<unsigned short> out(256);
    if (c[2] == 'w') k_trwait<<<1, 64>>>(out.d, bad);
    else k_trrace<<<1, 128>>>(out.d, bad);
    e = hipDeviceSynchronize();
    if (e == hipSuccess) {
      auto h = out.get();
      check_tr(h.data());
    }
  } else if (!strcmp(c, "race")) {
    vt_buf<int> out(64);
    k_race<<<1, 128>>>(out.d, bad);
    e = hipDeviceSynchronize();
    if (e == hipSuccess) {
      auto h = out.get();
      for (int t = 0; t < 64; t++) vt_check_u32("wave 1 reads wave 0's value", t, (uint32_t)h[t], (uint32_t)(t * 7 + 1));
    }
  } else if (!strcmp(c, "bytes")) {
    vt_buf<int> out(64);
    k_bytes<<<1, 128>>>(out.d, bad);
    e = hipDeviceSynchronize();
    if (e == hipSuccess) {
      auto h = out.get();
      for (int t = 0; t < 64; t++) vt_check_u32("bytes of both waves", t, (uint32_t)h[t], (uint32_t)((t + 1) | (t + 65) << 8));
    }
  } else if (!strcmp(c, "inflight")) {
    vt_buf<int> out(64);
    k_inflight<<<1, 128>>>(out.d, bad);
    e = hipDeviceSynchronize();
    if (e == hipSuccess) {
      auto h = out.get();
      for (int t = 0; t < 64; t++) vt_check_u32("wave 1 reads wave 0's value", t, (uint32_t)h[t], (uint32_t)(t * 9 + 2));
    }
  } else if (!strcmp(c, "deadlock")) {
    vt_buf<int> out(128);
    k_deadlock<<<1, 128>>>(out.d, bad);
    e = hipDeviceSynchronize();
    if (e == hipSuccess) {
      auto h = out.get();
      for (int t = 0; t < 128; t++) vt_check_u32("flag seen", t, (uint32_t)h[t], 1);
    }
  } else if (!strcmp(c, "loop")) {
    vt_buf<int> stop(std::vector<int>(1, bad ? 0 : 1)), out(64);
    k_loop<<<1, 64>>>(stop.d, out.d);
    e = hipDeviceSynchronize();
    if (e == hipSuccess) {
      auto h = out.get();
      for (int t = 0; t < 64; t++) vt_check_u32("loop exits at once", t, (uint32_t)h[t], 1);
    }
  } else if (!strcmp(c, "stall") || !strcmp(c, "stallmodel") || !strcmp(c, "stallcoop")) {
    /* stallmodel: run under tksim --model (ordered execution); stallcoop: a cooperative launch */
    vt_buf<uint32_t> flag(std::vector<uint32_t>(1, 0u));
    vt_buf<int> out(64);
    if (!strcmp(c, "stallcoop")) {
      void *args[] = {&flag.d, &out.d, &bad};
      e = hipLaunchCooperativeKernel(reinterpret_cast<const void *>(k_stall), dim3(2), dim3(64), args, 0, 0);
    } else {
      k_stall<<<2, 64>>>(flag.d, out.d, bad);
    }
    if (e == hipSuccess) e = hipDeviceSynchronize();
    if (e == hipSuccess) {
      auto h = out.get();
      for (int t = 0; t < 64; t++) vt_check_u32("flag released by workgroup 1", t, (uint32_t)h[t], 1);
    }
  } else {
    fprintf(stderr, "unknown case %s\n", c);
    return 2;
  }
  if (e != hipSuccess) {
    printf("%s %s: kernel failed: %s\n", c, argv[2], hipGetErrorString(e));
    return 1;
  }
  char name[64];
  snprintf(name, sizeof name, "%s %s", c, argv[2]);
  return vt_finish(name);
}
