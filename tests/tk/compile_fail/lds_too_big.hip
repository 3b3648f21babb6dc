// EXPECT: tk: LDS layout exceeds the target's LDS per work-group
// Two 128x128 bf16 tiles plus one more are 96 KiB, beyond gfx942's 64 KiB.
#include "tk/shared.h"
TK_ST(tile_t, uint16_t, 128, 128, TK_LDS_SWZ);
typedef struct { tile_t a[2]; tile_t b; } smem_t;
__global__ void k(float *out) { TK_LDS_ALLOC(smem_t, sm); sm.b.data[threadIdx.x] = 1; out[0] = sm.a[0].data[0]; }
