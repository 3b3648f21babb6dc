// grid_ids.hip: work-item and workgroup ids in 3-D grids with partial edge
// blocks, 1024-thread (16-wave) blocks with dynamic LDS and repeated
// barriers, and hidden-argument built-ins (blockDim, gridDim). Every output
// is recomputed on the host.
#include "../isa/vtest.h"

__global__ void ids(uint32_t *out, int nx, int ny, int nz)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= nx || y >= ny || z >= nz) return;
  size_t i = ((size_t)z * ny + y) * nx + x;
  out[4 * i + 0] = (uint32_t)(threadIdx.x | threadIdx.y << 10 | threadIdx.z << 20);
  out[4 * i + 1] = (uint32_t)(blockIdx.x | blockIdx.y << 10 | blockIdx.z << 20);
  out[4 * i + 2] = (uint32_t)(blockDim.x | blockDim.y << 10 | blockDim.z << 20);
  out[4 * i + 3] = (uint32_t)(gridDim.x | gridDim.y << 10 | gridDim.z << 20);
}

/* 16 waves rotate values through dynamic LDS, one barrier per round */
__global__ void rotate(const int *in, int *out, int rounds)
{
  extern __shared__ int buf[];
  int t = threadIdx.x, n = blockDim.x;
  buf[t] = in[blockIdx.x * n + t];
  __syncthreads();
  for (int r = 0; r < rounds; r++) {
    int v = buf[(t + 65) % n];
    __syncthreads();
    buf[t] = v + r;
    __syncthreads();
  }
  out[blockIdx.x * n + t] = buf[t];
}

int main()
{
  const int nx = 37, ny = 19, nz = 5;
  dim3 block(8, 4, 2), grid((nx + 7) / 8, (ny + 3) / 4, (nz + 1) / 2);
  vt_buf<uint32_t> o((size_t)4 * nx * ny * nz);
  o.zero();
  ids<<<grid, block>>>(o.d, nx, ny, nz);
  VT_HIP(hipGetLastError());
  const int nb = 3, nt = 1024, rounds = 9;
  std::vector<int> in(nb * nt);
  for (int i = 0; i < nb * nt; i++) in[i] = i * 7 - 100;
  vt_buf<int> din(in), dout(nb * nt);
  rotate<<<nb, nt, nt * sizeof(int)>>>(din.d, dout.d, rounds);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto h = o.get();
  for (int z = 0; z < nz; z++)
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++) {
        size_t i = ((size_t)z * ny + y) * nx + x;
        uint32_t tid = (uint32_t)(x % 8 | (y % 4) << 10 | (z % 2) << 20);
        uint32_t bid = (uint32_t)(x / 8 | (y / 4) << 10 | (z / 2) << 20);
        vt_check_u32("threadIdx", (int)i, h[4 * i], tid);
        vt_check_u32("blockIdx", (int)i, h[4 * i + 1], bid);
        vt_check_u32("blockDim", (int)i, h[4 * i + 2], 8u | 4u << 10 | 2u << 20);
        vt_check_u32("gridDim", (int)i, h[4 * i + 3], grid.x | grid.y << 10 | grid.z << 20);
      }
  auto r = dout.get();
  for (int b = 0; b < nb; b++) {
    std::vector<int> buf(in.begin() + b * nt, in.begin() + (b + 1) * nt), nxt(nt);
    for (int k = 0; k < rounds; k++) {
      for (int t = 0; t < nt; t++) nxt[t] = buf[(t + 65) % nt] + k;
      buf = nxt;
    }
    for (int t = 0; t < nt; t++) vt_check_u32("16-wave LDS rotation", b * nt + t, (uint32_t)r[b * nt + t], (uint32_t)buf[t]);
  }
  return vt_finish("grid_ids");
}
