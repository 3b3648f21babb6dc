// clang_emits_rocprim.hip: rocPRIM (librocprim-dev) device code - block, warp
// and device-wide scan, reduce, radix sort, merge sort, histogram, select /
// partition / unique, adjacent difference, discontinuity, exchange, shuffle,
// reduce by key, segmented reduce, merge, binary search, transform - over
// int, unsigned, float, double, 64- and 8-bit keys. Compiled for gfx942 and
// gfx950 at -O0 to -O3; every instruction clang emits for it must be one
// tksim decodes and executes (ctest tksim_isa_clang_emits_rocprim_*).
// Device code only, never run: the host functions below exist so that the
// device compile instantiates the kernels of each device-wide algorithm.
#include <hip/hip_runtime.h>
#include <stdint.h>
// Debian's HIP 5.2 fp16 header (included by rocPRIM) calls these two; clang
// <= 19 declared them in its HIP wrapper, clang >= 20 no longer does.
#if defined(__clang__) && __clang_major__ >= 20
typedef _Float16 ce_2f16 __attribute__((ext_vector_type(2)));
__device__ inline _Float16 __llvm_amdgcn_rcp_f16(_Float16 x) { return (_Float16)1.0f / x; }
__device__ inline ce_2f16 __llvm_amdgcn_rcp_2f16(ce_2f16 x) { return (ce_2f16)1.0f / x; }
#endif
#include <rocprim/rocprim.hpp>
#include <rocprim/block/block_shuffle.hpp>

#define BS 256
#define IPT 4

template <class T>
__global__ void block_prims(const T *in, T *out, unsigned *hist)
{
  using load_t = rocprim::block_load<T, BS, IPT, rocprim::block_load_method::block_load_transpose>;
  using store_t = rocprim::block_store<T, BS, IPT, rocprim::block_store_method::block_store_vectorize>;
  using scan_t = rocprim::block_scan<T, BS>;
  using rscan_t = rocprim::block_scan<T, BS, rocprim::block_scan_algorithm::reduce_then_scan>;
  using red_t = rocprim::block_reduce<T, BS>;
  using rred_t = rocprim::block_reduce<T, BS, rocprim::block_reduce_algorithm::raking_reduce>;
  using adj_t = rocprim::block_adjacent_difference<T, BS>;
  using disc_t = rocprim::block_discontinuity<T, BS>;
  using exch_t = rocprim::block_exchange<T, BS, IPT>;
  using shuf_t = rocprim::block_shuffle<T, BS>;
  __shared__ union {
    typename load_t::storage_type load;
    typename store_t::storage_type store;
    typename scan_t::storage_type scan;
    typename rscan_t::storage_type rscan;
    typename red_t::storage_type red;
    typename rred_t::storage_type rred;
    typename adj_t::storage_type adj;
    typename disc_t::storage_type disc;
    typename exch_t::storage_type exch;
    typename shuf_t::storage_type shuf;
  } s;
  const unsigned base = blockIdx.x * BS * IPT;
  T v[IPT], w[IPT];
  load_t().load(in + base, v, s.load);
  __syncthreads();
  scan_t().inclusive_scan(v, w, s.scan);
  __syncthreads();
  T agg;
  rscan_t().exclusive_scan(w, v, T(1), agg, s.rscan, rocprim::maximum<T>());
  __syncthreads();
  T r;
  red_t().reduce(v, r, s.red);
  __syncthreads();
  T r2;
  rred_t().reduce(w, r2, s.rred, rocprim::minimum<T>());
  __syncthreads();
  adj_t().subtract_left(v, w, rocprim::minus<T>(), s.adj);
  __syncthreads();
  bool flags[IPT];
  disc_t().flag_heads(flags, w, rocprim::not_equal_to<T>(), s.disc);
  __syncthreads();
  exch_t().blocked_to_striped(w, v, s.exch);
  __syncthreads();
  T nb;
  shuf_t().offset(threadIdx.x, v[0], nb, 1, s.shuf);
  for (int i = 0; i < IPT; i++) v[i] += flags[i] ? nb : T(0);
  v[0] += r + r2 + agg;
  store_t().store(out + base, v, s.store);
  if (threadIdx.x == 0) hist[0] = (unsigned)flags[1];
}

template <class K>
__global__ void block_sorts(const K *in, K *out, unsigned *vals, unsigned *hist)
{
  using rsort_t = rocprim::block_radix_sort<K, BS, IPT, unsigned>;
  using msort_t = rocprim::block_sort<K, BS, IPT, unsigned>;
  using hist_t = rocprim::block_histogram<unsigned char, BS, IPT, 256>;
  using shist_t = rocprim::block_histogram<unsigned char, BS, IPT, 256, rocprim::block_histogram_algorithm::using_sort>;
  __shared__ union {
    typename rsort_t::storage_type rsort;
    typename msort_t::storage_type msort;
    typename hist_t::storage_type hist;
    typename shist_t::storage_type shist;
  } s;
  __shared__ unsigned bins[256];
  const unsigned base = blockIdx.x * BS * IPT;
  K k[IPT];
  unsigned v[IPT];
  unsigned char c[IPT];
  rocprim::block_load_direct_blocked(threadIdx.x, in + base, k);
  rocprim::block_load_direct_striped<BS>(threadIdx.x, vals + base, v);
  for (int i = 0; i < IPT; i++) c[i] = (unsigned char)v[i];
  rsort_t().sort(k, v, s.rsort);
  __syncthreads();
  rsort_t().sort_desc_to_striped(k, v, s.rsort, 3, 7 * (int)sizeof(K));
  __syncthreads();
  msort_t().sort(k, v, s.msort);
  __syncthreads();
  hist_t().histogram(c, bins, s.hist);
  __syncthreads();
  shist_t().composite(c, bins, s.shist);
  __syncthreads();
  rocprim::block_store_direct_warp_striped(threadIdx.x, out + base, k);
  rocprim::block_store_direct_blocked(threadIdx.x, vals + base, v);
  hist[threadIdx.x] = bins[threadIdx.x];
}

template <class T>
__global__ void warp_prims(const T *in, T *out)
{
  using wscan_t = rocprim::warp_scan<T, 64>;
  using wscan16_t = rocprim::warp_scan<T, 16>;
  using wred_t = rocprim::warp_reduce<T, 64>;
  using wred8_t = rocprim::warp_reduce<T, 8>;
  using wsort_t = rocprim::warp_sort<T, 16, unsigned>;
  __shared__ union {
    typename wscan_t::storage_type scan;
    typename wscan16_t::storage_type scan16;
    typename wred_t::storage_type red;
    typename wred8_t::storage_type red8;
  } s[BS / 64];
  const unsigned w = threadIdx.x / 64, i = blockIdx.x * BS + threadIdx.x;
  T x = in[i], y, z, r;
  wscan_t().inclusive_scan(x, y, s[w].scan);
  wscan16_t().exclusive_scan(y, z, T(0), s[w].scan16, rocprim::maximum<T>());
  wred_t().reduce(z, r, s[w].red);
  T seg;
  wred8_t().head_segmented_reduce(x, seg, (threadIdx.x & 5) == 0, s[w].red8);
  unsigned v = threadIdx.x;
  wsort_t().sort(x, v);
  out[i] = x + y + z + r + seg + (T)v;
}

template __global__ void block_prims<int>(const int *, int *, unsigned *);
template __global__ void block_prims<float>(const float *, float *, unsigned *);
template __global__ void block_prims<double>(const double *, double *, unsigned *);
template __global__ void block_prims<long long>(const long long *, long long *, unsigned *);
template __global__ void block_sorts<unsigned>(const unsigned *, unsigned *, unsigned *, unsigned *);
template __global__ void block_sorts<float>(const float *, float *, unsigned *, unsigned *);
template __global__ void block_sorts<unsigned long long>(const unsigned long long *, unsigned long long *, unsigned *, unsigned *);
template __global__ void block_sorts<unsigned char>(const unsigned char *, unsigned char *, unsigned *, unsigned *);
template __global__ void warp_prims<int>(const int *, int *);
template __global__ void warp_prims<float>(const float *, float *);
template __global__ void warp_prims<double>(const double *, double *);

struct is_odd {
  __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

// Device-wide algorithms: their kernels are instantiated by these calls.
hipError_t device_algorithms(void *tmp, size_t bytes, int *i0, int *i1, float *f0, float *f1, double *d0,
                             unsigned *u0, unsigned *u1, unsigned long long *k0, unsigned long long *k1,
                             unsigned char *c0, unsigned *sel, unsigned *count, int *offs, size_t n)
{
  hipError_t e = hipSuccess;
  e = rocprim::inclusive_scan(tmp, bytes, i0, i1, n, rocprim::plus<int>());
  e = rocprim::exclusive_scan(tmp, bytes, f0, f1, 0.0f, n, rocprim::plus<float>());
  e = rocprim::inclusive_scan_by_key(tmp, bytes, u0, d0, d0, n, rocprim::plus<double>());
  e = rocprim::reduce(tmp, bytes, d0, d0, n, rocprim::plus<double>());
  e = rocprim::radix_sort_keys(tmp, bytes, f0, f1, n);
  e = rocprim::radix_sort_pairs(tmp, bytes, k0, k1, u0, u1, n);
  e = rocprim::merge_sort(tmp, bytes, i0, i1, n, rocprim::less<int>());
  e = rocprim::histogram_even(tmp, bytes, f0, (unsigned)n, sel, 33, 0.0f, 1.0f);
  e = rocprim::select(tmp, bytes, i0, c0, i1, count, n);
  e = rocprim::unique(tmp, bytes, f0, f1, count, n);
  e = rocprim::partition(tmp, bytes, i0, i1, count, n, is_odd());
  e = rocprim::adjacent_difference(tmp, bytes, i0, i1, n, rocprim::minus<int>());
  e = rocprim::reduce_by_key(tmp, bytes, u0, f0, n, u1, f1, count, rocprim::plus<float>());
  e = rocprim::segmented_reduce(tmp, bytes, f0, f1, 16, offs, offs + 1, rocprim::plus<float>(), 0.0f);
  e = rocprim::merge(tmp, bytes, i0, i1, offs, n, n, rocprim::less<int>());
  e = rocprim::lower_bound(tmp, bytes, f0, f1, sel, n, n);
  e = rocprim::transform(i0, f1, n, [] __device__ (int x) { return (float)x * 0.5f; });
  return e;
}
