// vector_add.hip: c = a + b over a length that is not a multiple of the block
// size, with a grid-stride loop, checked element by element on the host.
#include "../isa/vtest.h"

__global__ void vadd(const float *a, const float *b, float *c, int n)
{
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    c[i] = a[i] + b[i];
}

int main()
{
  const int n = 100003;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; i++) { a[i] = (float)i * 0.5f; b[i] = 1.0f / (float)(i + 1); }
  vt_buf<float> da(a), db(b), dc(n);
  dc.zero();
  vadd<<<64, 256>>>(da.d, db.d, dc.d, n);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  std::vector<float> c = dc.get();
  for (int i = 0; i < n; i++) vt_check_f32("c = a + b", i, c[i], a[i] + b[i]);
  return vt_finish("vector_add");
}
