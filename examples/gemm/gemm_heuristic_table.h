/* gemm_heuristic_table.h: PLACEHOLDER until bench/gemm-heuristic writes it. */
#ifndef GEMM_HEURISTIC_TABLE_H
#define GEMM_HEURISTIC_TABLE_H
typedef struct {
  double m, n, k;                          /* M*batch, N, K of the swept shape */
  int32_t kernel, tile_m, tile_n, split_k, k_step; /* the fastest modeled config */
} gemm_heuristic_row;
static const gemm_heuristic_row gemm_heuristic_table[] = {
    {4096, 4096, 4096, TK_GEMM_8WAVE, 256, 256, 1, 64},
};
#endif
