/* bench/hipkittens/hk_common.h's device input generator (hk_gen_add, hk_gen_run):
 * every value the kernel writes equals an independent host evaluation of the
 * documented formula (murmur3 fmix32 of i * 0x9e3779b1 + (i >> 32) *
 * 0x7feb352d + key; the four bytes' sum - 510; fmaf(s, scale / sqrt(21845),
 * add); bf16 round-to-nearest-even), for bf16 and f32 outputs and lengths
 * that end inside a 16-byte step, with the host writing the inputs' start
 * (HK_GEN_DEVICE_BYTES) or not; and the values are normal-ish: mean,
 * standard deviation, range and the share within one sigma. Run with
 * --model-sample too, where only XCD 0's groups of the generator run and the
 * host writes every value first: the values must still all be the formula's.
 * Exit 0 ok, 1 failure. */
#include "../../bench/hipkittens/hk_common.h"

static uint32_t ref_fmix32(uint32_t h)
{
  h ^= h >> 16;
  h *= 2246822507u; /* murmur3 fmix32 constants */
  h ^= h >> 13;
  h *= 3266489909u;
  h ^= h >> 16;
  return h;
}
static float ref_value(uint64_t i, uint32_t key, double scale, double add)
{
  const uint32_t x = (uint32_t)(i & 0xffffffffu) * 2654435761u + (uint32_t)(i >> 32) * 2146121005u + key;
  const uint32_t h = ref_fmix32(x);
  int s = -510;
  for (int b = 0; b < 4; ++b) s += (int)((h >> (8 * b)) & 255u);
  return fmaf((float)s, (float)(scale / sqrt(21845.0)), (float)add);
}
static uint16_t ref_bf16(float f)
{
  uint32_t u;
  memcpy(&u, &f, 4);
  const uint32_t lsb = (u >> 16) & 1u;
  return (uint16_t)((u + 0x7fffu + lsb) >> 16);
}

/* one buffer's values against the formula (key: the stream's draw), and
 * its statistics; 0 ok */
static int check_buf(const void *h, size_t n, int f32, double scale, double add, uint32_t key, const char *what)
{
  size_t bad = 0, in1 = 0;
  double sum = 0, sum2 = 0, mx = 0;
  for (size_t i = 0; i < n; ++i) {
    const float r = ref_value(i, key, scale, add);
    float got;
    int same;
    if (f32) {
      got = ((const float *)h)[i];
      same = memcmp(&got, &r, 4) == 0;
    } else {
      const uint16_t g = ((const uint16_t *)h)[i];
      same = g == ref_bf16(r);
      got = hk_bf16_to_f32(g);
    }
    if (!same && bad++ < 5)
      printf("FAIL: %s %s n=%zu element %zu: got %.9g, formula %.9g\n", what, f32 ? "f32" : "bf16", n, i, got, r);
    const double z = ((double)got - add) / scale;
    sum += z, sum2 += z * z;
    if (fabs(z) > mx) mx = fabs(z);
    in1 += fabs(z) < 1;
  }
  const double mean = sum / n, sd = sqrt(sum2 / n - mean * mean), p1 = (double)in1 / n;
  printf("%s %s n=%zu scale %g add %g: %zu mismatches; mean %+.4f sd %.4f max |z| %.3f, within 1 sd %.4f\n", what,
         f32 ? "f32 " : "bf16", n, scale, add, bad, mean, sd, mx, p1);
  /* mean 0, sd 1; Irwin-Hall(4) of bytes bounds |z| by 510/sqrt(21845) =
   * 3.45 and puts 66.83% within one sd (a normal: 68.27%), counted over
   * all 2^32 byte tuples */
  const int ok = bad == 0 && fabs(mean) < 0.01 && fabs(sd - 1) < 0.01 && mx <= 3.46 && mx > 3.0 &&
                 fabs(p1 - 0.6683) < 0.005;
  if (!ok && !bad) printf("FAIL: not normal-ish\n");
  return !ok;
}

/* two buffers in one hk_gen_run: A (n values, f32 or bf16, scale, add),
 * then B (n / 3 + 5 bf16 values, scale 1); dev_bytes: HK_GEN_DEVICE_BYTES
 * (NULL: the default), which decides where the host part ends */
static int run(size_t n, int f32, double scale, double add, uint64_t seed, const char *dev_bytes)
{
  if (dev_bytes) setenv("HK_GEN_DEVICE_BYTES", dev_bytes, 1);
  else unsetenv("HK_GEN_DEVICE_BYTES");
  const size_t nb = n / 3 + 5;
  void *da = NULL, *db = NULL;
  HK_CHECK_HIP(hipMalloc(&da, n * 4));
  HK_CHECK_HIP(hipMalloc(&db, nb * 2));
  HK_CHECK_HIP(hipMemset(da, 0xff, n * 4));
  HK_CHECK_HIP(hipMemset(db, 0xff, nb * 2));
  void *ha = malloc(n * 4), *hb = malloc(nb * 2), *ca = malloc(n * 4), *cb = malloc(nb * 2);
  uint64_t st = seed, st2 = seed;
  const uint32_t ka = (uint32_t)hk_rng_next(&st2), kb = (uint32_t)hk_rng_next(&st2); /* documented keys */
  hk_gen_add(da, n, &st, scale, add, f32, ha);
  hk_gen_add(db, nb, &st, 1.0, 0.0, 0, hb);
  if (!ha || !hb || !ca || !cb || hk_gen_run()) return 1;
  printf("HK_GEN_DEVICE_BYTES=%s\n", dev_bytes ? dev_bytes : "(default)");
  int rc = 0;
  if (st != st2) { printf("FAIL: not exactly one draw of the stream per buffer\n"); rc = 1; }
  /* the host copies (keep) and the device buffers both hold the formula */
  HK_CHECK_HIP(hipMemcpy(ca, da, n * (f32 ? 4 : 2), hipMemcpyDeviceToHost));
  HK_CHECK_HIP(hipMemcpy(cb, db, nb * 2, hipMemcpyDeviceToHost));
  rc |= check_buf(ca, n, f32, scale, add, ka, "device A");
  rc |= check_buf(cb, nb, 0, 1.0, 0.0, kb, "device B");
  if (memcmp(ca, ha, n * (f32 ? 4 : 2)) || memcmp(cb, hb, nb * 2)) {
    printf("FAIL: the host copy differs from the device buffer\n");
    rc = 1;
  }
  free(ha), free(hb), free(ca), free(cb);
  HK_CHECK_HIP(hipFree(da));
  HK_CHECK_HIP(hipFree(db));
  return rc;
}

int main(void)
{
  hk_prog = "hk_gen_check";
  int rc = 0;
  rc |= run(1000003, 0, 1.0, 0.0, 1, NULL);     /* all on the device; 16-byte steps and a 3-element tail */
  rc |= run(262147, 1, 0.5, 7.0, 2, NULL);      /* f32 around an offset (the backward's L) */
  rc |= run(200000, 0, 0.1, 0.0, 3, "300001");  /* host part ending inside A (the backward's O) */
  rc |= run(262147, 1, 0.5, 7.0, 4, "100000");  /* A from the host, B split */
  rc |= run(300000, 0, 1.0, 0.0, 5, "0");       /* all from the host */
  printf(rc ? "hk_gen_check: FAILED\n" : "hk_gen_check: PASSED\n");
  return rc;
}
