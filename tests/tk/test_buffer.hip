// Buffer resource descriptors of tk/global.h on the device: through a V#
// whose num_records covers only part of an allocation, loads beyond
// num_records return 0 and stores beyond it are dropped (CDNA3 ISA guide,
// buffer range checking), for 4- and 16-byte accesses; and a V# built from a
// tk_gl descriptor covers exactly the tensor's bytes.
#include "tk_test.h"
#include "tk/global.h"

#define ALLOC_BYTES 4096
#define NREC 1504   /* bytes visible through the descriptor (multiple of 16) */

__global__ void k_load(const uint32_t *buf, uint32_t *out32, uint32_t *out128) {
  int t = threadIdx.x;  /* 256 threads: dword t*4 .. */
  tk_rsrc r = tk_rsrc_make(buf, NREC);
  for (int j = 0; j < ALLOC_BYTES / 4 / 256; j++) {
    uint32_t off = (uint32_t)(j * 256 + t) * 4;
    out32[j * 256 + t] = tk_buffer_load_b32(r, off);
  }
  tk_u32x4 v = tk_buffer_load_b128(r, (uint32_t)t * 16);
  for (int i = 0; i < 4; i++) out128[t * 4 + i] = v[i];
}
__global__ void k_store(uint32_t *buf, uint32_t *buf2) {
  int t = threadIdx.x;
  tk_rsrc r = tk_rsrc_make(buf, NREC);
  for (int j = 0; j < ALLOC_BYTES / 4 / 256; j++) {
    uint32_t off = (uint32_t)(j * 256 + t) * 4;
    tk_buffer_store_b32(r, off, 0xa0000000u + off);
  }
  tk_rsrc r2 = tk_rsrc_make(buf2, NREC);
  tk_u32x4 v = {(uint32_t)t, 1u, 2u, 3u};
  tk_buffer_store_b128(r2, (uint32_t)t * 16, v);
}
/* a 10x16 f32 tensor with padded rows (stride 20): V# over 9*20+16 floats */
__global__ void k_gl(tk_gl g, uint32_t *out) {
  int t = threadIdx.x;
  tk_rsrc r = tk_gl_rsrc(&g);
  out[t] = tk_buffer_load_b32(r, (uint32_t)t * 4);
}

int main(void) {
  std::vector<uint32_t> init(ALLOC_BYTES / 4);
  for (size_t i = 0; i < init.size(); i++) init[i] = 0x10000u + (uint32_t)i;
  uint32_t *dbuf = tt_dev(init), *dbuf2 = tt_dev(init);
  uint32_t *o32 = tt_dev(std::vector<uint32_t>(ALLOC_BYTES / 4, 0xdeadbeef));
  uint32_t *o128 = tt_dev(std::vector<uint32_t>(1024, 0xdeadbeef));
  hipLaunchKernelGGL(k_load, dim3(1), dim3(256), 0, 0, dbuf, o32, o128);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint32_t> g32 = tt_host(o32, ALLOC_BYTES / 4), g128 = tt_host(o128, 1024);
  int bad = 0;
  for (int i = 0; i < ALLOC_BYTES / 4; i++) {
    uint32_t want = i * 4 < NREC ? init[i] : 0u;
    if (g32[i] != want && bad++ < 5) printf("  load_b32 @%d = %08x, want %08x\n", i * 4, g32[i], want);
  }
  TT_CHECK(bad == 0, "buffer_load_b32: in-range data, 0 beyond num_records (%d wrong)", bad);
  bad = 0;
  for (int i = 0; i < 1024; i++) {
    uint32_t want = i * 4 < NREC ? init[i] : 0u;
    if (g128[i] != want && bad++ < 5) printf("  load_b128 dword %d = %08x, want %08x\n", i, g128[i], want);
  }
  TT_CHECK(bad == 0, "buffer_load_b128: in-range data, 0 beyond num_records (%d wrong)", bad);

  hipLaunchKernelGGL(k_store, dim3(1), dim3(256), 0, 0, dbuf, dbuf2);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint32_t> s1 = tt_host(dbuf, ALLOC_BYTES / 4), s2 = tt_host(dbuf2, ALLOC_BYTES / 4);
  bad = 0;
  for (int i = 0; i < ALLOC_BYTES / 4; i++) {
    uint32_t want = i * 4 < NREC ? 0xa0000000u + i * 4 : init[i];
    if (s1[i] != want && bad++ < 5) printf("  after store_b32 @%d = %08x, want %08x\n", i * 4, s1[i], want);
  }
  TT_CHECK(bad == 0, "buffer_store_b32: written in range, dropped beyond (%d wrong)", bad);
  bad = 0;
  for (int i = 0; i < ALLOC_BYTES / 4; i++) {
    uint32_t want = (i * 4 < NREC && i < 1024) ? (i % 4 == 0 ? (uint32_t)(i / 4) : (uint32_t)(i % 4)) : init[i];
    if (s2[i] != want && bad++ < 5) printf("  after store_b128 dword %d = %08x, want %08x\n", i, s2[i], want);
  }
  TT_CHECK(bad == 0, "buffer_store_b128: written in range, dropped beyond (%d wrong)", bad);

  // descriptor from a tk_gl
  tk_gl g;
  int64_t dims[2] = {10, 16}, strides[2] = {20, 1};
  TT_CHECK(tk_gl_make(&g, dbuf, 4, 2, dims, strides) == TK_OK, "tk_gl_make");
  uint32_t *og = tt_dev(std::vector<uint32_t>(256, 0xdeadbeef));
  hipLaunchKernelGGL(k_gl, dim3(1), dim3(256), 0, 0, g, og);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint32_t> gg = tt_host(og, 256);
  bad = 0;
  for (int i = 0; i < 256; i++) {
    uint32_t want = i < 9 * 20 + 16 ? s1[i] : 0u;
    if (gg[i] != want && bad++ < 5) printf("  gl rsrc dword %d = %08x, want %08x\n", i, gg[i], want);
  }
  TT_CHECK(bad == 0, "tk_gl_rsrc covers exactly the tensor's %d bytes (%d wrong)", (9 * 20 + 16) * 4, bad);
  return tt_finish();
}
