// lds_direct.hip: loads from global memory straight into LDS
// (global_load_lds_dword, buffer_load_dword ... lds), as CK-style kernels use
// for asynchronous tile copies. CDNA3 ISA guide ("Global/Buffer ... LDS"):
// lane l's dword goes to LDS address M0 + instruction offset + 4*l, so a wave
// fills 256 contiguous bytes; the LDS write completes with vmcnt. Written
// with inline asm (clang 19's __builtin_amdgcn_global_load_lds crashes on
// this input). Each of 4 waves fills its own 256 bytes; after a barrier every
// thread reads another wave's data; the host checks against its own copy.
#include "vtest.h"

__global__ void direct(const int *g, int *out)
{
  __shared__ int s[512];
  int t = threadIdx.x, w = t / 64;
  uint32_t base = (uint32_t)(uintptr_t)s + (uint32_t)w * 256u;
  const int *p = g + (t ^ 3);
  asm volatile("s_mov_b32 m0, %0\n\ts_nop 0\n\tglobal_load_lds_dword %1, off\n\ts_waitcnt vmcnt(0)"
               : : "s"(__builtin_amdgcn_readfirstlane(base)), "v"(p) : "memory");
  __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc((void *)g, 0, 2048, 0x00020000);
  asm volatile("s_mov_b32 m0, %0\n\ts_nop 0\n\tbuffer_load_dword %1, %2, 0 offen lds\n\ts_waitcnt vmcnt(0)"
               : : "s"(__builtin_amdgcn_readfirstlane(base + 1024u)), "v"((uint32_t)(t * 4 + 8)), "s"(r) : "memory");
  __syncthreads();
  out[2 * t] = s[(t + 64) % 256];
  out[2 * t + 1] = s[256 + (t + 128) % 256];
}

int main()
{
  std::vector<int> g(512);
  uint64_t s = 77;
  for (auto &x : g) x = (int)vt_rand(&s);
  vt_buf<int> dg(g), dout(512);
  dout.zero();
  direct<<<1, 256>>>(dg.d, dout.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto o = dout.get();
  for (int t = 0; t < 256; t++) {
    int j = (t + 64) % 256, k = (t + 128) % 256;
    vt_check_u32("global_load_lds_dword", t, (uint32_t)o[2 * t], (uint32_t)g[j ^ 3]);
    vt_check_u32("buffer_load_dword lds", t, (uint32_t)o[2 * t + 1], (uint32_t)g[k + 2]);
  }
  return vt_finish("lds_direct");
}
