# cmake -DIN=<kernel file> -DOUT=<build>/fp8_<kind>.cpp [-DKIND=8wave|4wave] -P filter_fp8_kernel.cmake
# Writes one of HipKittens' CDNA4 FP8 GEMM files without its host program: the
# source up to its "Rotating buffer" host section (benchmark main, OpenMP),
# without <omp.h> and profile_utils.cpp; its device helpers (utils.cpp) are
# included from the checkout by absolute path. KIND 8wave (default): the
# fixture's kernels/fp8_8wave/8_wave.cu; 4wave: upstream's
# kernels/gemm/fp8fp32/FP8_4wave/4_wave.cu (f09e968), whose matmul_device_1024
# and _2048 produced the published small-size figures (docs/tksim-model-history.md
# "Session 43"). Nothing of HipKittens is kept in tk's repository. Refuses a
# file that does not look as expected.
if(NOT EXISTS "${IN}")
  message(FATAL_ERROR "hipkittens: fp8 kernel source not found: ${IN}")
endif()
if(NOT KIND OR KIND STREQUAL "8wave")
  set(_fn "void matmul_device(")
  set(_utils "#include \"./utils.cpp\"")
elseif(KIND STREQUAL "4wave")
  set(_fn "void matmul_device_1024(")
  set(_utils "#include \"utils.cpp\"")
else()
  message(FATAL_ERROR "hipkittens: filter_fp8_kernel.cmake: KIND=${KIND} is not 8wave or 4wave")
endif()
file(READ "${IN}" src)
foreach(need "#include \"kittens.cuh\"" "${_fn}" "// Rotating buffer configuration" "${_utils}")
  string(FIND "${src}" "${need}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "hipkittens: ${IN} is not HipKittens' CDNA4 fp8 ${KIND} kernel file as fp8_harness.hip "
                        "expects (no '${need}')")
  endif()
endforeach()
string(FIND "${src}" "// Rotating buffer configuration" at)
string(SUBSTRING "${src}" 0 ${at} src)
get_filename_component(_dir "${IN}" DIRECTORY)
string(REPLACE "#include <omp.h>" "" src "${src}")
string(REPLACE "#include \"../profile_utils.cpp\"" "" src "${src}")
string(REPLACE "${_utils}" "#include \"${_dir}/utils.cpp\"" src "${src}")
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by bench/hipkittens/filter_fp8_kernel.cmake: host program removed.\n${src}")
file(RENAME "${OUT}.tmp" "${OUT}")
