# cmake -DIN=<checkout>/kernels/gemm/fp8fp32/FP8_4wave/4_wave.cu -DOUT=<build>/fp8_4wave.cpp -P filter_fp8_4wave_kernel.cmake
# Writes HipKittens' CDNA4 FP8 4-wave GEMM (upstream commit f09e968, the file
# whose matmul_device_1024 -- 64x64 tiles, 4 waves, 256 groups at 1024^3 --
# is the kernel behind the published 1024^3 FP8 figure; docs/tksim-model.md
# "Session 43") without its host program: the source up to its "Rotating
# buffer" host section, without <omp.h> and profile_utils.cpp; its device
# helpers (utils.cpp) are included from the checkout by absolute path.
# Nothing of HipKittens is kept in tk's repository. Refuses a file that does
# not look as expected.
if(NOT EXISTS "${IN}")
  message(FATAL_ERROR "hipkittens: fp8 4-wave kernel source not found: ${IN}")
endif()
file(READ "${IN}" src)
foreach(need "#include \"kittens.cuh\"" "void matmul_device_1024(" "// Rotating buffer configuration" "#include \"utils.cpp\"")
  string(FIND "${src}" "${need}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "hipkittens: ${IN} is not HipKittens' CDNA4 fp8 4-wave kernel as fp8_harness.hip expects "
                        "(no '${need}')")
  endif()
endforeach()
string(FIND "${src}" "// Rotating buffer configuration" at)
string(SUBSTRING "${src}" 0 ${at} src)
get_filename_component(_dir "${IN}" DIRECTORY)
string(REPLACE "#include <omp.h>" "" src "${src}")
string(REPLACE "#include \"../profile_utils.cpp\"" "" src "${src}")
string(REPLACE "#include \"utils.cpp\"" "#include \"${_dir}/utils.cpp\"" src "${src}")
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by bench/hipkittens/filter_fp8_4wave_kernel.cmake: host program removed.\n${src}")
file(RENAME "${OUT}.tmp" "${OUT}")
