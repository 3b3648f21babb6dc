// atomics.hip: global and LDS atomics from many waves and workgroups.
//
// Final values are order-independent (integer sums, min/max, bit ops; float
// sums of small integers are exact in any order), and for the returning
// atomics the set of returned old values is checked too: atomicAdd(p, 1)
// from n threads must return each of 0..n-1 exactly once, and atomicInc with
// a limit wraps as the ISA defines (old >= limit ? 0 : old + 1; CDNA3 ISA
// guide, *_ATOMIC_INC).
#include "vtest.h"
#include <algorithm>

#define NB 8
#define NT 256
#define NTOT (NB * NT)

struct acc_t {
  int add, sub, smin, smax, band, bor, bxor, exch_count, cas_count;
  unsigned umin, umax, inc, dec;
  float fadd;
  double dadd;
  unsigned long long add64, max64;
  int lds_add[NB], lds_min[NB], lds_max[NB], lds_cas[NB];
  float lds_fadd[NB];
};

__global__ void atom(acc_t *a, int *ret_add, int *exch_slot)
{
  __shared__ int s_add, s_min, s_max, s_cas;
  __shared__ float s_fadd;
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  if (t == 0) { s_add = 0; s_min = 1 << 30; s_max = -(1 << 30); s_cas = 0; s_fadd = 0.0f; }
  __syncthreads();
  int v = (g * 7919) % 1000 - 500;
  ret_add[g] = atomicAdd(&a->add, 1);
  atomicSub(&a->sub, g);
  atomicMin(&a->smin, v);
  atomicMax(&a->smax, v);
  atomicMin(&a->umin, (unsigned)(g * 2654435761u));
  atomicMax(&a->umax, (unsigned)(g * 2654435761u));
  atomicAnd(&a->band, ~(1 << (g % 31)));
  atomicOr(&a->bor, 1 << (g % 29));
  atomicXor(&a->bxor, g);
  __builtin_amdgcn_atomic_inc32(&a->inc, 99u, __ATOMIC_RELAXED, "agent"); /* HIP 5.2 atomicInc names a removed intrinsic */
  __builtin_amdgcn_atomic_dec32(&a->dec, 1000u, __ATOMIC_RELAXED, "agent");
  atomicAdd(&a->fadd, (float)(g % 17));
  atomicAdd(&a->dadd, (double)(g % 13) * 0.5);
  atomicAdd(&a->add64, (unsigned long long)g << 20);
  atomicMax(&a->max64, (unsigned long long)(g % 300) << 33);
  /* exchange: every thread deposits its id; the final value is someone's */
  int prev = atomicExch(exch_slot, g);
  if (prev >= 0) atomicAdd(&a->exch_count, 1);
  /* CAS loop increment */
  int old = a->cas_count, assumed;
  do {
    assumed = old;
    old = atomicCAS(&a->cas_count, assumed, assumed + 1);
  } while (old != assumed);
  /* LDS */
  atomicAdd(&s_add, t + 1);
  atomicMin(&s_min, v);
  atomicMax(&s_max, v);
  atomicAdd(&s_fadd, (float)(t % 5));
  int o2 = s_cas, a2;
  do {
    a2 = o2;
    o2 = atomicCAS(&s_cas, a2, a2 + 2);
  } while (o2 != a2);
  __syncthreads();
  if (t == 0) {
    a->lds_add[blockIdx.x] = s_add;
    a->lds_min[blockIdx.x] = s_min;
    a->lds_max[blockIdx.x] = s_max;
    a->lds_cas[blockIdx.x] = s_cas;
    a->lds_fadd[blockIdx.x] = s_fadd;
  }
}

int main()
{
  acc_t init;
  memset(&init, 0, sizeof init);
  init.smin = 1 << 30; init.smax = -(1 << 30);
  init.umin = 0xffffffffu; init.umax = 0;
  init.band = -1; init.bor = 0; init.bxor = 0;
  init.inc = 0; init.dec = 5;
  acc_t *da;
  VT_HIP(hipMalloc((void **)&da, sizeof(acc_t)));
  VT_HIP(hipMemcpy(da, &init, sizeof init, hipMemcpyHostToDevice));
  vt_buf<int> ret(NTOT), slot(std::vector<int>(1, -1));
  atom<<<NB, NT>>>(da, ret.d, slot.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  acc_t r;
  VT_HIP(hipMemcpy(&r, da, sizeof r, hipMemcpyDeviceToHost));
  VT_HIP(hipFree(da));

  int sub = 0, smin = 1 << 30, smax = -(1 << 30), band = -1, bor = 0, bxor = 0;
  unsigned umin = 0xffffffffu, umax = 0, inc = 0, dec = 5;
  float fadd = 0;
  double dadd = 0;
  unsigned long long add64 = 0, max64 = 0;
  for (int g = 0; g < NTOT; g++) {
    int v = (g * 7919) % 1000 - 500;
    sub -= g;
    smin = std::min(smin, v); smax = std::max(smax, v);
    unsigned u = (unsigned)(g * 2654435761u);
    umin = std::min(umin, u); umax = std::max(umax, u);
    band &= ~(1 << (g % 31)); bor |= 1 << (g % 29); bxor ^= g;
    inc = inc >= 99u ? 0 : inc + 1;
    dec = (dec == 0 || dec > 1000u) ? 1000u : dec - 1;
    fadd += (float)(g % 17);
    dadd += (double)(g % 13) * 0.5;
    add64 += (unsigned long long)g << 20;
    max64 = std::max(max64, (unsigned long long)(g % 300) << 33);
  }
  vt_check_u32("atomicAdd final", 0, (uint32_t)r.add, NTOT);
  vt_check_u32("atomicSub", 0, (uint32_t)r.sub, (uint32_t)sub);
  vt_check_u32("atomicMin i32", 0, (uint32_t)r.smin, (uint32_t)smin);
  vt_check_u32("atomicMax i32", 0, (uint32_t)r.smax, (uint32_t)smax);
  vt_check_u32("atomicMin u32", 0, r.umin, umin);
  vt_check_u32("atomicMax u32", 0, r.umax, umax);
  vt_check_u32("atomicAnd", 0, (uint32_t)r.band, (uint32_t)band);
  vt_check_u32("atomicOr", 0, (uint32_t)r.bor, (uint32_t)bor);
  vt_check_u32("atomicXor", 0, (uint32_t)r.bxor, (uint32_t)bxor);
  vt_check_u32("atomicInc wrap 99", 0, r.inc, inc);
  vt_check_u32("atomicDec wrap 1000", 0, r.dec, dec);
  vt_check_f32("atomicAdd f32", 0, r.fadd, fadd);
  vt_check_f64("atomicAdd f64", 0, r.dadd, dadd);
  vt_check_u64("atomicAdd u64", 0, r.add64, add64);
  vt_check_u64("atomicMax u64", 0, r.max64, max64);
  vt_check_u32("atomicExch: all but the first saw a previous id", 0, (uint32_t)r.exch_count, NTOT - 1);
  vt_check_u32("atomicCAS loop", 0, (uint32_t)r.cas_count, NTOT);
  std::vector<int> rv = ret.get();
  std::sort(rv.begin(), rv.end());
  for (int i = 0; i < NTOT; i++) vt_check_u32("atomicAdd returns each old value once", i, (uint32_t)rv[i], (uint32_t)i);
  int final_slot = slot.get()[0];
  vt_check_u32("atomicExch final is a thread id", 0, final_slot >= 0 && final_slot < NTOT, 1);
  for (int b = 0; b < NB; b++) {
    int lmin = 1 << 30, lmax = -(1 << 30);
    float lf = 0;
    for (int t = 0; t < NT; t++) {
      int v = ((b * NT + t) * 7919) % 1000 - 500;
      lmin = std::min(lmin, v); lmax = std::max(lmax, v);
      lf += (float)(t % 5);
    }
    vt_check_u32("ds_add", b, (uint32_t)r.lds_add[b], NT * (NT + 1) / 2);
    vt_check_u32("ds_min_i32", b, (uint32_t)r.lds_min[b], (uint32_t)lmin);
    vt_check_u32("ds_max_i32", b, (uint32_t)r.lds_max[b], (uint32_t)lmax);
    vt_check_u32("ds_cmpst loop", b, (uint32_t)r.lds_cas[b], 2 * NT);
    vt_check_f32("ds_add_f32", b, r.lds_fadd[b], lf);
  }
  return vt_finish("atomics");
}
