// probe_kernels.hip: device code loaded at run time by probe.hip (built as a
// raw gfx942 code object, so check_probe.cmake can disassemble exactly what
// tksim runs).
//  k_counts  straight-line (no branch): every instruction runs once per wave,
//            so the --report figures follow from the disassembly and the source
//  k_unimpl  a v_mfma_f64_4x4x4_4b_f64 (not implemented by tksim) behind a
//            uniform flag: the kernel runs with the flag off and must stop with
//            an error naming the instruction, kernel and PC with it on
#include <hip/hip_runtime.h>

typedef short bf16x4 __attribute__((ext_vector_type(4)));
typedef float f32x16 __attribute__((ext_vector_type(16)));

extern "C" __global__ void __launch_bounds__(256) k_counts(const float *in, float *out)
{
  __shared__ float lds[256];
  unsigned t = threadIdx.x, g = blockIdx.x * 256 + t;
  lds[t] = in[g];
  __syncthreads();
  float w = lds[(t + 1) & 255];
  const short one = 0x3f80;
  bf16x4 a = { one, one, one, one };
  f32x16 acc = {};
  acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, a, acc, 0, 0, 0);
  out[g] = w + acc[0] + acc[15];
}

extern "C" __global__ void k_unimpl(double *out, int use_mfma)
{
  double x = out[threadIdx.x];
  if (use_mfma) {
    double acc = __builtin_amdgcn_mfma_f64_4x4x4f64(x, x, 0.0, 0, 0, 0);
    out[threadIdx.x] = acc;
  } else {
    out[threadIdx.x] = 2 * x;
  }
}
