// tk/shared.h layouts used on the device: a 64x64 bf16 tile is stored to LDS
// with 16-byte row-major group stores (ds_write_b128) at tk_lds_offset
// addresses, read back as MFMA A fragments with 8-byte (ds_read_b64) and
// 16-byte (ds_read_b128) fragment reads, and every value is compared with
// the source matrix through the documented A layout; for both the linear and
// the swizzled layout (the swizzle must not change the data, only where it
// lives).  Run with `tksim --report` to compare LDS bank conflicts.
#include "tk_test.h"
#include "tk/shared.h"
#include "tk/register.h"

#define R 64
#define C 64
#define LAYOUT_KERNEL(name, layout)                                               \
  __global__ void name(const uint16_t *src, uint16_t *out64, uint16_t *out128) {   \
    TK_ST(st_t, uint16_t, R, C, layout);                                          \
    typedef struct { st_t t; } smem_t;                                            \
    TK_LDS_ALLOC(smem_t, sm);                                                     \
    char *base = (char *)sm.t.data;                                               \
    int l = (int)threadIdx.x;                                                     \
    /* group store: thread t writes 16-byte chunk t % 8 of row t / 8 */           \
    for (int j = 0; j < R * C * 2 / 16 / 64; j++) {                               \
      int t = j * 64 + l, r = t / 8, ch = t % 8;                                  \
      tk_u32x4 v = *(const tk_u32x4 *)(src + r * C + ch * 8);                     \
      uint32_t o0 = tk_st_offset(st_t, r, ch * 8), o1 = tk_st_offset(st_t, r, ch * 8 + 4); \
      tk_u32x4 w = o0 < o1 ? v : v.zwxy; /* halves swapped in this row */         \
      *(tk_u32x4 *)(base + (o0 < o1 ? o0 : o1)) = w;                              \
    }                                                                             \
    __syncthreads();                                                              \
    /* ds_read_b64: A fragment 16x16 (lane: row l%16, k 4*(l/16)..+3) */          \
    for (int fr = 0; fr < R / 16; fr++)                                           \
      for (int fk = 0; fk < C / 16; fk++) {                                       \
        int r = fr * 16 + tk_layout_a_row(16, 4, l, 0), c = fk * 16 + tk_layout_a_col(16, 4, l, 0); \
        tk_u32x2 v = *(const tk_u32x2 *)(base + tk_st_offset(st_t, r, c));        \
        *(tk_u32x2 *)(out64 + r * C + c) = v;                                     \
      }                                                                           \
    /* ds_read_b128: lane: row l%16, 8 elements from k 8*(l/16) */                \
    for (int fr = 0; fr < R / 16; fr++)                                           \
      for (int fk = 0; fk < C / 32; fk++) {                                       \
        int r = fr * 16 + l % 16, c = fk * 32 + 8 * (l / 16);                     \
        uint32_t o0 = tk_st_offset(st_t, r, c), o1 = tk_st_offset(st_t, r, c + 4); \
        tk_u32x4 v = *(const tk_u32x4 *)(base + (o0 < o1 ? o0 : o1));            \
        *(tk_u32x4 *)(out128 + r * C + c) = o0 < o1 ? v : v.zwxy;                 \
      }                                                                           \
  }
LAYOUT_KERNEL(k_linear, TK_LDS_LINEAR)
LAYOUT_KERNEL(k_swz, TK_LDS_SWZ)

static void run(const char *what, void (*k)(const uint16_t *, uint16_t *, uint16_t *)) {
  std::vector<uint16_t> src(R * C);
  for (auto &v : src) v = (uint16_t)tt_rand();
  uint16_t *ds = tt_dev(src), *d64 = tt_dev(std::vector<uint16_t>(R * C, 0)), *d128 = tt_dev(std::vector<uint16_t>(R * C, 0));
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, ds, d64, d128);
  HIPCHECK(hipGetLastError());
  HIPCHECK(hipDeviceSynchronize());
  std::vector<uint16_t> g64 = tt_host(d64, R * C), g128 = tt_host(d128, R * C);
  int b64 = 0, b128 = 0;
  for (int i = 0; i < R * C; i++) { b64 += g64[i] != src[i]; b128 += g128[i] != src[i]; }
  TT_CHECK(b64 == 0, "%s: ds_write_b128 + ds_read_b64 fragments: %d of %d wrong", what, b64, R * C);
  TT_CHECK(b128 == 0, "%s: ds_write_b128 + ds_read_b128 fragments: %d of %d wrong", what, b128, R * C);
}

int main(void) {
  run("linear", k_linear);
  run("swizzled", k_swz);
  return tt_finish();
}
