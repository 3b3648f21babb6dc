/* inputs.h: reproducible random inputs for the examples: xorshift64*
 * (Marsaglia 2003; Vigna 2016's multiplier) seeded from a user seed, bf16
 * values uniform in [-1, 1). The same seed gives the same values on any host. */
#ifndef TK_EXAMPLES_INPUTS_H
#define TK_EXAMPLES_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_rng { uint64_t s; } tk_rng;

void tk_rng_seed(tk_rng *r, uint64_t seed);
uint64_t tk_rng_next(tk_rng *r);
/* uniform in [-1, 1), rounded to bf16 (round to nearest even) */
uint16_t tk_rng_bf16(tk_rng *r);
void tk_rng_fill_bf16(tk_rng *r, uint16_t *out, size_t n);

/* fp8 e4m3 in one of two encodings (tk/types.h): ocp 0 = FNUZ (gfx942: bias
 * 8, no -0, 0x80 NaN, max 240), ocp 1 = OCP E4M3FN (gfx950: bias 7, -0 is
 * 0x80, NaN 0x7f/0xff, max 448).
 * uniform in [-1, 1), rounded to nearest even by a bit-exact host encoder
 * (small values become subnormals or 0; OCP: negative ones -0) */
uint8_t tk_rng_fp8e4(tk_rng *r, int ocp);
/* n such values; edges != 0: every 4th element instead cycles through the
 * encoder's edge cases (tk_fp8e4_edges) */
void tk_rng_fill_fp8e4(tk_rng *r, uint8_t *out, size_t n, int edges, int ocp);
/* The edge inputs, as the f32 values given to the encoder.  FNUZ: -0 (no
 * -0: must encode to +0, not to 0x80 = NaN), the smallest and largest
 * subnormals 2^-10 and 7*2^-10 (both signs), a tie between subnormals
 * (1.5*2^-10 -> 2^-9), the smallest normal 2^-7, the largest finite +-240,
 * 245 (rounds down to 240), and values below half the smallest subnormal
 * (-> 0).  OCP: the same cases one binade up (subnormals 2^-9 and 7*2^-9,
 * tie 1.5*2^-9 -> 2^-8, smallest normal 2^-6), -0 (-> 0x80), largest finite
 * +-448, 460 (rounds down to 448), and +-2^-11 (-> +0 and -0).  Returns the
 * count; *vals points to a static table. */
int tk_fp8e4_edges(const float **vals, int ocp);
/* the encoder used for OCP inputs: tk_f32_to_ocp_e4m3_ref's results (tested
 * against it), by binary search instead of its 127-code scan */
uint8_t tk_ex_f32_to_ocp_e4m3(float f);
/* bf16 bits <-> float on the host (tk/types.h's conversions, callable from C) */
float tk_ex_bf16_to_f32(uint16_t h);
uint16_t tk_ex_f32_to_bf16(float f);
/* The programs' --inject-error corruption of one bf16 output: v + 0.25 *
 * max(1, |v|), far past every check's tolerance (a check must then fail). */
uint16_t tk_ex_bf16_perturb(uint16_t h);

#ifdef __cplusplus
}
#endif
#endif
