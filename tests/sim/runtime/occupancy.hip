// occupancy.hip: hipOccupancyMaxActiveBlocksPerMultiprocessor and
// hipOccupancyMaxPotentialBlockSize against figures computed by hand with the
// CDNA3 rules (CDNA3 ISA guide ch. 2-3; LLVM AMDGPUUsage): a CU has 4 SIMDs
// with 512 VGPRs per lane each (arch VGPRs + AGPRs, granule 8), at most 8 waves
// per SIMD, and 64 KiB of LDS.
//  - lds20k: 20480 B static LDS -> floor(65536 / 20480) = 3 blocks of 256 threads.
//  - v128 (v0..v127 clobbered: 128 VGPRs): 512/128 = 4 waves/SIMD = 16 waves/CU
//    -> 4 blocks of 256 threads (4 waves each), 1 block of 1024.
//  - a64 (v0..v63 and a0..a63: accum_offset 64 + 64 AGPRs = 128 unified):
//    same as v128: 4 blocks of 256.
//  - tiny (few registers, no LDS): 8 waves/SIMD = 32 waves/CU -> 8 blocks of 256,
//    2 of 1024; with 16 KiB dynamic LDS -> 4 blocks.
#include "rt_check.h"

__global__ void __launch_bounds__(1024) lds20k(float *x)
{
  __shared__ float buf[5120];
  for (int i = threadIdx.x; i < 5120; i += blockDim.x) buf[i] = x[i];
  __syncthreads();
  x[threadIdx.x] = buf[5119 - threadIdx.x];
}

#define CLOBBER8(p, b) #p #b "0", #p #b "1", #p #b "2", #p #b "3", #p #b "4", #p #b "5", #p #b "6", #p #b "7"
__global__ void __launch_bounds__(1024) v128(float *x)
{
  asm volatile("" ::: CLOBBER8(v, ), CLOBBER8(v, 1), CLOBBER8(v, 2), CLOBBER8(v, 3), CLOBBER8(v, 4),
               CLOBBER8(v, 5), CLOBBER8(v, 6), CLOBBER8(v, 7), CLOBBER8(v, 8), CLOBBER8(v, 9),
               CLOBBER8(v, 10), CLOBBER8(v, 11), CLOBBER8(v, 12), "v120", "v121", "v122", "v123",
               "v124", "v125", "v126", "v127");
  x[threadIdx.x] = 1.0f;
}

__global__ void __launch_bounds__(1024) a64(float *x)
{
  asm volatile("" ::: CLOBBER8(v, ), CLOBBER8(v, 1), CLOBBER8(v, 2), CLOBBER8(v, 3), CLOBBER8(v, 4),
               CLOBBER8(v, 5), "v60", "v61", "v62", "v63");
  asm volatile("" ::: CLOBBER8(a, ), CLOBBER8(a, 1), CLOBBER8(a, 2), CLOBBER8(a, 3), CLOBBER8(a, 4),
               CLOBBER8(a, 5), "a60", "a61", "a62", "a63");
  x[threadIdx.x] = 2.0f;
}

__global__ void __launch_bounds__(1024) tiny(float *x) { x[threadIdx.x] = 3.0f; }

static int blocks(const void *f, int bs, size_t dyn)
{
  int n = -1;
  HIP_OK(hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, bs, dyn));
  return n;
}

int main()
{
  hipDeviceProp_t p;
  HIP_OK(hipGetDeviceProperties(&p, 0));
  hipFuncAttributes fa;
  HIP_OK(hipFuncGetAttributes(&fa, reinterpret_cast<const void *>(lds20k)));
  CHECK(fa.sharedSizeBytes == 20480, "lds20k static LDS %zu", fa.sharedSizeBytes);
  CHECK(fa.maxThreadsPerBlock == 1024, "lds20k max threads %d", fa.maxThreadsPerBlock);

  int n;
  CHECK((n = blocks(reinterpret_cast<const void *>(lds20k), 256, 0)) == 3, "lds20k @256: %d", n);
  CHECK((n = blocks(reinterpret_cast<const void *>(v128), 256, 0)) == 4, "v128 @256: %d", n);
  CHECK((n = blocks(reinterpret_cast<const void *>(v128), 1024, 0)) == 1, "v128 @1024: %d", n);
  CHECK((n = blocks(reinterpret_cast<const void *>(a64), 256, 0)) == 4, "a64 @256: %d", n);
  CHECK((n = blocks(reinterpret_cast<const void *>(tiny), 256, 0)) == 8, "tiny @256: %d", n);
  CHECK((n = blocks(reinterpret_cast<const void *>(tiny), 1024, 0)) == 2, "tiny @1024: %d", n);
  CHECK((n = blocks(reinterpret_cast<const void *>(tiny), 256, 16384)) == 4, "tiny @256 + 16 KiB dynamic LDS: %d", n);
  CHECK((n = blocks(reinterpret_cast<const void *>(tiny), 64, 0)) == 32, "tiny @64: %d", n);

  // Max potential block size: for lds20k, 1024 threads give 2 blocks (32 waves / 16)
  // = 2048 threads per CU, more than 512 x 3 (LDS-bound) = 1536.
  int grid = 0, bs = 0;
  HIP_OK(hipOccupancyMaxPotentialBlockSize(&grid, &bs, reinterpret_cast<const void *>(lds20k), 0, 0));
  CHECK(bs == 1024 && grid == 2 * p.multiProcessorCount, "lds20k: block %d grid %d", bs, grid);
  // For every kernel the suggestion must reach the best occupancy over all block sizes.
  const void *ks[] = { reinterpret_cast<const void *>(v128), reinterpret_cast<const void *>(a64),
                       reinterpret_cast<const void *>(tiny) };
  for (const void *k : ks) {
    int best = 0;
    for (int b = 64; b <= 1024; b += 64) { int nb = blocks(k, b, 0); if (nb * b > best) best = nb * b; }
    HIP_OK(hipOccupancyMaxPotentialBlockSize(&grid, &bs, k, 0, 0));
    int nb = blocks(k, bs, 0);
    CHECK(bs > 0 && bs % 64 == 0 && nb * bs == best && grid == nb * p.multiProcessorCount,
          "suggested block %d (x%d blocks) reaches %d threads/CU; grid %d", bs, nb, best, grid);
  }
  HIP_OK(hipOccupancyMaxPotentialBlockSize(&grid, &bs, reinterpret_cast<const void *>(tiny), 0, 256));
  CHECK(bs <= 256 && bs > 0, "block size limit honoured: %d", bs);
  return RT_DONE();
}
