// probe.hip: host side of the --report and unimplemented-instruction tests
// (tksim only; check_probe.cmake compares tksim's output with llvm-objdump's
// disassembly of the same code object).
//   probe counts ELF   k_counts with 1 and then 3 workgroups; results checked
//   probe unimpl ELF   k_unimpl without, then with the unimplemented MFMA: the
//                      second launch must fail with hipErrorLaunchFailure and
//                      leave the output buffer untouched
#include "../isa/vtest.h"

static hipFunction_t get(hipModule_t m, const char *name)
{
  hipFunction_t f;
  VT_HIP(hipModuleGetFunction(&f, m, name));
  return f;
}

static int counts(hipModule_t m)
{
  hipFunction_t f = get(m, "k_counts");
  for (int groups : { 1, 3 }) {
    const int n = 256 * groups;
    std::vector<float> in(n);
    for (int i = 0; i < n; i++) in[i] = (float)(i * 3 - 100);
    vt_buf<float> din(in), dout(n);
    void *args[] = { &din.d, &dout.d };
    VT_HIP(hipModuleLaunchKernel(f, groups, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
    VT_HIP(hipDeviceSynchronize());
    auto h = dout.get();
    /* out = the next thread's input (within the block) + two MFMA outputs,
     * each a sum of 8 products 1 x 1 */
    for (int i = 0; i < n; i++) {
      int b = i / 256, t = i % 256;
      vt_check_f32("k_counts", i, h[i], in[b * 256 + (t + 1) % 256] + 16.0f);
    }
  }
  return vt_finish("probe counts");
}

static int unimpl(hipModule_t m)
{
  hipFunction_t f = get(m, "k_unimpl");
  const int n = 64;
  std::vector<double> x(n);
  for (int i = 0; i < n; i++) x[i] = i + 0.5;
  vt_buf<double> d(x);
  int use = 0;
  void *args[] = { &d.d, &use };
  VT_HIP(hipModuleLaunchKernel(f, 1, 1, 1, n, 1, 1, 0, nullptr, args, nullptr));
  VT_HIP(hipDeviceSynchronize());
  auto h = d.get();
  for (int i = 0; i < n; i++) vt_check_u64("2x without the MFMA", i, vt_d2u(h[i]), vt_d2u(2 * x[i]));
  use = 1;
  VT_HIP(hipModuleLaunchKernel(f, 1, 1, 1, n, 1, 1, 0, nullptr, args, nullptr));
  hipError_t e = hipDeviceSynchronize();
  vt_check_u32("hipDeviceSynchronize after the unimplemented MFMA", 0, (uint32_t)e, (uint32_t)hipErrorLaunchFailure);
  /* the wave stopped at the MFMA: its store never happened */
  auto h2 = d.get();
  for (int i = 0; i < n; i++) vt_check_u64("output untouched", i, vt_d2u(h2[i]), vt_d2u(2 * x[i]));
  return vt_finish("probe unimpl");
}

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: %s counts|unimpl CODE_OBJECT\n", argv[0]);
    return 2;
  }
  hipModule_t m;
  VT_HIP(hipModuleLoad(&m, argv[2]));
  if (!strcmp(argv[1], "counts")) return counts(m);
  if (!strcmp(argv[1], "unimpl")) return unimpl(m);
  fprintf(stderr, "unknown mode %s\n", argv[1]);
  return 2;
}
