// transpose.hip: out = in^T for a 1000 x 777 matrix through a padded 32x33
// LDS tile (blocks of 32x8 threads, each thread moving 4 elements), with edge
// tiles partially outside the matrix.
#include "../isa/vtest.h"

#define TILE 32
__global__ void transpose(const float *in, float *out, int rows, int cols)
{
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += 8)
    if (x < cols && y + k < rows) tile[threadIdx.y + k][threadIdx.x] = in[(size_t)(y + k) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int k = 0; k < TILE; k += 8)
    if (x < rows && y + k < cols) out[(size_t)(y + k) * rows + x] = tile[threadIdx.x][threadIdx.y + k];
}

int main()
{
  const int rows = 1000, cols = 777;
  std::vector<float> in((size_t)rows * cols);
  for (size_t i = 0; i < in.size(); i++) in[i] = (float)i;
  vt_buf<float> din(in), dout(in.size());
  VT_HIP(hipMemset(dout.d, 0xff, in.size() * sizeof(float)));
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), block(TILE, 8);
  transpose<<<grid, block>>>(din.d, dout.d, rows, cols);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  std::vector<float> out = dout.get();
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++)
      vt_check_f32("out[c][r] = in[r][c]", c * rows + r, out[(size_t)c * rows + r], in[(size_t)r * cols + c]);
  return vt_finish("transpose");
}
