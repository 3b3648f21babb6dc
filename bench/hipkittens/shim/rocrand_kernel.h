/* <rocrand_kernel.h> stand-in for HipKittens' LayerNorm kernels (Debian 12
 * has no rocRAND): the three names they use, rocrand_state_philox4x32_10,
 * rocrand_init and rocrand_uniform, written from the Philox4x32-10 algorithm
 * of Salmon et al., "Parallel random numbers: as easy as 1, 2, 3" (SC11):
 * 10 rounds of two 32x32->64 multiplies (0xD2511F53, 0xCD9E8D57) and a key
 * bump by the Weyl constants (0x9E3779B9, 0xBB67AE85); four 32-bit outputs
 * per counter value. Not rocRAND's stream (its seeding and skip-ahead differ):
 * the kernels seed from clock64(), so no bit pattern can be expected anyway;
 * the cost per number (one Philox block per four) is the generator's. */
#pragma once
#include <hip/hip_runtime.h>
#include <stdint.h>

typedef struct rocrand_state_philox4x32_10 {
  uint32_t ctr[4], key[2], out[4];
  uint32_t pos; /* next unused word of out; 4: none left */
} rocrand_state_philox4x32_10;

__device__ static inline void hk_philox_block(const uint32_t c[4], const uint32_t k[2], uint32_t o[4])
{
  uint32_t x0 = c[0], x1 = c[1], x2 = c[2], x3 = c[3], k0 = k[0], k1 = k[1];
#pragma unroll
  for (int r = 0; r < 10; r++) {
    const uint64_t p0 = (uint64_t)0xD2511F53u * x0, p1 = (uint64_t)0xCD9E8D57u * x2;
    const uint32_t y0 = (uint32_t)(p1 >> 32) ^ x1 ^ k0, y1 = (uint32_t)p1;
    const uint32_t y2 = (uint32_t)(p0 >> 32) ^ x3 ^ k1, y3 = (uint32_t)p0;
    x0 = y0, x1 = y1, x2 = y2, x3 = y3;
    k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
  }
  o[0] = x0, o[1] = x1, o[2] = x2, o[3] = x3;
}

/* subsequence: the counter's upper half; offset: that many numbers skipped */
__device__ static inline void rocrand_init(unsigned long long seed, unsigned long long subsequence,
                                           unsigned long long offset, rocrand_state_philox4x32_10 *s)
{
  s->key[0] = (uint32_t)seed, s->key[1] = (uint32_t)(seed >> 32);
  const unsigned long long blk = offset / 4;
  s->ctr[0] = (uint32_t)blk, s->ctr[1] = (uint32_t)(blk >> 32);
  s->ctr[2] = (uint32_t)subsequence, s->ctr[3] = (uint32_t)(subsequence >> 32);
  hk_philox_block(s->ctr, s->key, s->out);
  s->pos = (uint32_t)(offset % 4);
}

/* uniform in (0, 1]: the 32-bit word times 2^-32, plus 2^-33 */
__device__ static inline float rocrand_uniform(rocrand_state_philox4x32_10 *s)
{
  if (s->pos == 4) {
    if (++s->ctr[0] == 0 && ++s->ctr[1] == 0 && ++s->ctr[2] == 0) ++s->ctr[3];
    hk_philox_block(s->ctr, s->key, s->out);
    s->pos = 0;
  }
  return (float)s->out[s->pos++] * 2.3283064365386963e-10f + 1.1641532182693481e-10f;
}
