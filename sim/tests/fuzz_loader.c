/* fuzz_loader.c: libFuzzer entry point for the loader (bundle, CCOB, ELF,
 * msgpack metadata). Build with -DTKS_BUILD_FUZZER=ON (clang, libFuzzer) and
 * run e.g. `fuzz_loader -max_total_time=600 corpus-work sim/tests/corpus`. */
#include <stdlib.h>
#include <string.h>
#include "loader/loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char err[256];
  tks_code_object co;
  if (tks_load_image(data, size, &co, err, sizeof err) == 0) {
    /* touch what a launch would touch */
    for (int i = 0; i < co.nkernels; i++) {
      volatile uint8_t x = co.kernels[i].code[0];
      (void)x;
      for (int a = 0; a < co.kernels[i].nargs; a++)
        if (co.kernels[i].args[a].offset + co.kernels[i].args[a].size > co.kernels[i].kernarg_segment_size) abort();
    }
    tks_free_code_object(&co);
  } else if (!err[0]) {
    abort(); /* every refusal carries a message */
  }
  return 0;
}
