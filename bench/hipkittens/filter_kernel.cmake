# cmake -DIN=<checkout>/kernels/kernel_S.cpp -DOUT=<build>/kernel_S.cpp -P filter_kernel.cmake
# Writes HipKittens' kernel source without its Python harness (the
# `#include "pyutils/..."` line and the PYBIND11_MODULE block at the end) so a
# plain HIP main() can include it. Runs at build time: nothing of HipKittens
# is kept in tk's repository. Refuses a file that does not look like the
# fixture's kernels (README of the calibration fixture), with a clear message.
if(NOT EXISTS "${IN}")
  message(FATAL_ERROR "hipkittens: kernel source not found: ${IN}")
endif()
file(READ "${IN}" src)
foreach(need "#include \"kittens.cuh\"" "struct micro_globals" "void micro_tk(" "void dispatch_micro(" "#define M "
             "#define N " "#define K " "BLOCK_SIZE" "K_STEP")
  string(FIND "${src}" "${need}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "hipkittens: ${IN} is not a HipKittens MI325X GEMM kernel as this harness expects "
                        "(no '${need}'); see bench/hipkittens/README.md")
  endif()
endforeach()
string(REGEX REPLACE "#include \"pyutils/[^\"]*\"[^\n]*\n" "" src "${src}")
string(FIND "${src}" "PYBIND11_MODULE" at)
if(NOT at EQUAL -1)
  string(SUBSTRING "${src}" 0 ${at} src)
endif()
if(src MATCHES "pybind|pyutils|py::")
  message(FATAL_ERROR "hipkittens: ${IN}: Python harness code left after filtering (expected only an "
                      "#include \"pyutils/...\" line and a trailing PYBIND11_MODULE block)")
endif()
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by bench/hipkittens/filter_kernel.cmake: Python harness removed.\n${src}")
file(RENAME "${OUT}.tmp" "${OUT}")
