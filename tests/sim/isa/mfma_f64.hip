// mfma_f64.hip: v_mfma_f64_16x16x4_f64 (CDNA3 and CDNA4) against a host
// matrix product. Lane layout (AMD matrix instruction calculator; the 16x16xK
// rule of mfma.hip with one f64, a register pair, per lane in A and B):
//   A[i][k] -> lane i + 16k;  B[k][j] -> lane j + 16k;
//   D[i][j] (and C) -> lane j + 16*(i/4), element i % 4 of the lane's double4.
// The BLGP argument of the f64 builtin is the instruction's neg:[A,B,C]
// (LLVM prints BLGP 5 as neg:[1,0,1]): the second case negates A and C.
// Inputs are eighths in [-4, 4], so every product and sum is exact in f64 and
// the check is bit-exact whatever the summation order.
#include "vtest.h"

typedef double d4 __attribute__((ext_vector_type(4)));

__global__ void k_f64(const double *A, const double *B, const double *C, double *D, double *Dn)
{
  int l = threadIdx.x, j = l % 16, k = l / 16;
  double a = A[(l % 16) * 4 + k], b = B[k * 16 + j];
  d4 c;
  for (int r = 0; r < 4; r++) c[r] = C[(4 * (l / 16) + r) * 16 + j];
  d4 d = __builtin_amdgcn_mfma_f64_16x16x4f64(a, b, c, 0, 0, 0);
  d4 dn = __builtin_amdgcn_mfma_f64_16x16x4f64(a, b, c, 0, 0, 5);
  for (int r = 0; r < 4; r++) {
    D[(4 * (l / 16) + r) * 16 + j] = d[r];
    Dn[(4 * (l / 16) + r) * 16 + j] = dn[r];
  }
}

int main()
{
  uint64_t s = 64;
  std::vector<double> A(16 * 4), B(4 * 16), C(16 * 16);
  for (auto &v : A) v = (double)((int)(vt_rand(&s) % 65) - 32) / 8.0;
  for (auto &v : B) v = (double)((int)(vt_rand(&s) % 65) - 32) / 8.0;
  for (auto &v : C) v = (double)((int)(vt_rand(&s) % 257) - 128) / 8.0;
  vt_buf<double> dA(A), dB(B), dC(C), dD(256), dDn(256);
  dD.zero();
  dDn.zero();
  k_f64<<<1, 64>>>(dA.d, dB.d, dC.d, dD.d, dDn.d);
  VT_HIP(hipGetLastError());
  VT_SYNC();
  auto D = dD.get(), Dn = dDn.get();
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) {
      double acc = C[i * 16 + j], accn = -C[i * 16 + j];
      for (int k = 0; k < 4; k++) {
        acc += A[i * 4 + k] * B[k * 16 + j];
        accn += -A[i * 4 + k] * B[k * 16 + j];
      }
      vt_check_f64("v_mfma_f64_16x16x4_f64", i * 16 + j, D[i * 16 + j], acc);
      vt_check_f64("v_mfma_f64_16x16x4_f64 neg:[1,0,1]", i * 16 + j, Dn[i * 16 + j], accn);
    }
  return vt_finish("mfma_f64");
}
