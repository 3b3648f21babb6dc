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

/* bf16 bits <-> float on the host (tk/types.h's conversions, callable from C) */
float tk_ex_bf16_to_f32(uint16_t h);
uint16_t tk_ex_f32_to_bf16(float f);

#ifdef __cplusplus
}
#endif
#endif
