/* The second translation unit of the attention-backward harness
 * (attn_bwd_harness.hip): HipKittens' attn_bkwd_prep.cpp (delta = rowsum(dO
 * ∘ O), and the dQ shuffle from the backward kernel's (B, H, N, D)
 * accumulation layout to (B, N, H, D)), filtered of its Python harness into
 * HK_PREP_FILE. Its tile types and shape constants clash with the backward
 * kernel's file, so it is compiled on its own; these two functions launch
 * its kernels for the harness. */
#include <hip/hip_runtime.h>
#include HK_PREP_FILE

void hk_bwd_prep(void *o, void *d_o, float *delta)
{
  using G4 = gl<bf16, -1, -1, -1, -1>;
  attn_prep_globals<ATTN_D> g{G4{(bf16 *)o, ATTN_B, ATTN_N, ATTN_H, ATTN_D},
                              G4{(bf16 *)d_o, ATTN_B, ATTN_N, ATTN_H, ATTN_D},
                              gl<float, -1, -1, -1, -1>{delta, ATTN_B, ATTN_H, 1, ATTN_N}, 0};
  dispatch_prep<ATTN_D>(g);
}

void hk_bwd_dq_shuffle(void *dq_in, void *dq_out)
{
  using G4 = gl<bf16, -1, -1, -1, -1>;
  attn_dq_shuffle_globals<ATTN_D> g{G4{(bf16 *)dq_in, ATTN_B, ATTN_H, ATTN_N, ATTN_D},
                                    G4{(bf16 *)dq_out, ATTN_B, ATTN_N, ATTN_H, ATTN_D}, 0};
  dispatch_dq_shuffle<ATTN_D>(g);
}
