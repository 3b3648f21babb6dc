# CDNA4: HipKittens' MI355X BF16 GEMM kernels (kernels/bf16/kernel_<S>.cpp of
# the checkout TK_HIPKITTENS_CDNA4_PATH, default ../shared/calibration/
# hipkittens-cdna4), compiled with KITTENS_CDNA4 for gfx950 only, as
# hk4_gemm_<S>; the same harness and shim (the shim adds hip_fp8.h). Only
# hk4_gemm_1024 (the ctest's) is built by default; bench/validate-model
# --fixture cdna4 builds the others it needs (docs/tksim-model.md "CDNA4
# parameters").
get_filename_component(_hk4_default "${PROJECT_SOURCE_DIR}/../shared/calibration/hipkittens-cdna4" ABSOLUTE)
if(NOT DEFINED TK_HIPKITTENS_CDNA4_PATH AND EXISTS "${_hk4_default}/include/kittens.cuh")
  set(_hk4_init "${_hk4_default}")
else()
  set(_hk4_init "")
endif()
set(TK_HIPKITTENS_CDNA4_PATH "${_hk4_init}" CACHE PATH
    "HipKittens checkout with CDNA4 kernels (include/, kernels/bf16/kernel_<S>.cpp); empty: none")
# the configured checkout for bench/validate-model --no-build (empty: none)
set(TK_HIPKITTENS_CDNA4_DIR "" CACHE INTERNAL "absolute TK_HIPKITTENS_CDNA4_PATH (empty: none), for tests/bench")
set(_hk4_stamp "${CMAKE_CURRENT_BINARY_DIR}/hipkittens-cdna4-path.txt")
file(WRITE "${_hk4_stamp}" "")
if(TK_HIPKITTENS_CDNA4_PATH AND "gfx950" IN_LIST TK_OFFLOAD_ARCH)
  get_filename_component(_hk4 "${TK_HIPKITTENS_CDNA4_PATH}" ABSOLUTE)
  file(GLOB _hk4_kernels "${_hk4}/kernels/bf16/kernel_*.cpp")
  if(NOT EXISTS "${_hk4}/include/kittens.cuh" OR NOT _hk4_kernels)
    message(FATAL_ERROR "bench/hipkittens: TK_HIPKITTENS_CDNA4_PATH=${TK_HIPKITTENS_CDNA4_PATH} has no "
                        "include/kittens.cuh and kernels/bf16/kernel_<S>.cpp (set it to such a checkout, or empty)")
  endif()
  set(_sizes4 "")
  foreach(k ${_hk4_kernels})
    get_filename_component(_name "${k}" NAME_WE)
    string(REGEX REPLACE "^kernel_" "" s "${_name}")
    if(NOT s MATCHES "^[0-9]+$")
      continue()
    endif()
    list(APPEND _sizes4 ${s})
    set(_gen "${CMAKE_CURRENT_BINARY_DIR}/gen4/kernel_${s}.cpp")
    add_custom_command(OUTPUT "${_gen}"
      COMMAND ${CMAKE_COMMAND} -DIN=${k} -DOUT=${_gen} -P ${CMAKE_CURRENT_SOURCE_DIR}/filter_kernel.cmake
      DEPENDS "${k}" ${CMAKE_CURRENT_SOURCE_DIR}/filter_kernel.cmake
      COMMENT "HipKittens CDNA4 kernel_${s}.cpp without its Python harness")
    add_custom_target(hk4_kernel_${s} DEPENDS "${_gen}")
    add_executable(hk4_gemm_${s} harness.hip)
    set_source_files_properties(harness.hip PROPERTIES LANGUAGE CXX)
    add_dependencies(hk4_gemm_${s} hk4_kernel_${s})
    # gfx950 only: HipKittens' CDNA4 code uses gfx950 instructions throughout;
    # its nodiscard HIP calls and memcpy of HIP vector types warn (not tk code)
    target_compile_options(hk4_gemm_${s} PRIVATE ${TK_HIP_BASE_FLAGS} --offload-arch=gfx950
                           -include "${_hk_shim}/hk_bit_cast.h" -Wno-unused-result -Wno-unused-value
                           -Wno-nontrivial-memcall)
    target_link_libraries(hk4_gemm_${s} PRIVATE tk::tk ${TK_AMDHIP64})
    target_compile_definitions(hk4_gemm_${s} PRIVATE KITTENS_CDNA4 "HK_KERNEL_FILE=\"${_gen}\"")
    target_include_directories(hk4_gemm_${s} BEFORE PRIVATE "${_hk_shim}")
    target_include_directories(hk4_gemm_${s} SYSTEM PRIVATE "${_hk4}/include")
    set_target_properties(hk4_gemm_${s} PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
    if(NOT s STREQUAL "1024")
      set_target_properties(hk4_gemm_${s} PROPERTIES EXCLUDE_FROM_ALL ON)
    endif()
  endforeach()
  file(WRITE "${_hk4_stamp}" "${_hk4}\n")
  set(TK_HIPKITTENS_CDNA4_DIR "${_hk4}" CACHE INTERNAL "absolute TK_HIPKITTENS_CDNA4_PATH (empty: none), for tests/bench")
  # HipKittens' CDNA4 FP8 GEMMs, timing (and --check) only (fp8_harness.hip),
  # for the modeled MI355X FP8 figures. _hk4_fp8_gen: SRC (a kernel file of
  # kind 8wave or 4wave) without its host program, as GEN; _hk4_fp8_program:
  # one program at SIZE³ around it (ARGN: the kernel's HK_FP8_* definitions).
  function(_hk4_fp8_gen src gen kind target)
    add_custom_command(OUTPUT "${gen}"
      COMMAND ${CMAKE_COMMAND} -DIN=${src} -DOUT=${gen} -DKIND=${kind} -P ${CMAKE_CURRENT_SOURCE_DIR}/filter_fp8_kernel.cmake
      DEPENDS "${src}" ${CMAKE_CURRENT_SOURCE_DIR}/filter_fp8_kernel.cmake
      COMMENT "HipKittens CDNA4 fp8 ${kind} kernel without its host program")
    add_custom_target(${target} DEPENDS "${gen}")
  endfunction()
  function(_hk4_fp8_program target gen gen_target size)
    add_executable(${target} fp8_harness.hip)
    set_source_files_properties(fp8_harness.hip PROPERTIES LANGUAGE CXX)
    add_dependencies(${target} ${gen_target})
    target_compile_options(${target} PRIVATE ${TK_HIP_BASE_FLAGS} --offload-arch=gfx950
                           -include "${_hk_shim}/hk_bit_cast.h" -Wno-unused-result -w)
    target_link_libraries(${target} PRIVATE tk::tk ${TK_AMDHIP64})
    target_compile_definitions(${target} PRIVATE KITTENS_CDNA4 HK_FP8_SIZE=${size} "HK_KERNEL_FILE=\"${gen}\"" ${ARGN})
    target_include_directories(${target} BEFORE PRIVATE "${_hk_shim}")
    target_include_directories(${target} SYSTEM PRIVATE "${_hk4}/include")
    set_target_properties(${target} PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
  endfunction()
  # The fixture's 8-wave kernel (kernels/fp8_8wave/8_wave.cu, 256x256 tiles):
  # hk4_fp8_gemm_<S> (bench/validate-model --kernel gemm_fp8); none built by default
  set(_fp8_src "${_hk4}/kernels/fp8_8wave/8_wave.cu")
  if(EXISTS "${_fp8_src}")
    set(_gen "${CMAKE_CURRENT_BINARY_DIR}/gen4/fp8_8wave.cpp")
    _hk4_fp8_gen("${_fp8_src}" "${_gen}" 8wave hk4_fp8_kernel)
    foreach(s 1024 2048 4096 8192 16384)
      _hk4_fp8_program(hk4_fp8_gemm_${s} "${_gen}" hk4_fp8_kernel ${s})
      set_target_properties(hk4_fp8_gemm_${s} PROPERTIES EXCLUDE_FROM_ALL ON)
    endforeach()
  endif()
  # HipKittens' 4-wave FP8 file (upstream kernels/gemm/fp8fp32/FP8_4wave,
  # commit f09e968; not in the fixture), whose per-size kernels produced the
  # published FP8 figures (docs/tksim-model-history.md "Session 43").
  # TK_HIPKITTENS_FP8_4WAVE_PATH: that folder of a checkout (4_wave.cu,
  # utils.cpp); it is compiled against the fixture's include/ (identical at
  # f09e968). Targets hk4_fp8_4wave_gemm_<S> (bench/validate-model --kernel
  # gemm_fp8 --hk-fp8 4wave); only 1024 (the ctest's) built by default.
  set(TK_HIPKITTENS_FP8_4WAVE_PATH "" CACHE PATH
      "HipKittens checkout's kernels/gemm/fp8fp32/FP8_4wave (commit f09e968); empty: none")
  if(TK_HIPKITTENS_FP8_4WAVE_PATH)
    get_filename_component(_fp8w4 "${TK_HIPKITTENS_FP8_4WAVE_PATH}/4_wave.cu" ABSOLUTE)
    if(NOT EXISTS "${_fp8w4}")
      message(FATAL_ERROR "bench/hipkittens: TK_HIPKITTENS_FP8_4WAVE_PATH=${TK_HIPKITTENS_FP8_4WAVE_PATH} has no 4_wave.cu")
    endif()
    set(_gen "${CMAKE_CURRENT_BINARY_DIR}/gen4/fp8_4wave.cpp")
    _hk4_fp8_gen("${_fp8w4}" "${_gen}" 4wave hk4_fp8_4wave_kernel)
    # the file's own choice per size (its host code: 64x64 tiles at 1024, 128x128 at 2048, else 256x256)
    foreach(cfg "1024;matmul_device_1024;64" "2048;matmul_device_2048;128" "4096;matmul_device;256"
                "8192;matmul_device;256" "16384;matmul_device;256")
      list(GET cfg 0 s)
      list(GET cfg 1 fn)
      list(GET cfg 2 tile)
      _hk4_fp8_program(hk4_fp8_4wave_gemm_${s} "${_gen}" hk4_fp8_4wave_kernel ${s} HK_FP8_KERNEL=${fn}
                       HK_FP8_TILE=${tile} HK_FP8_THREADS=256 "HK_FP8_NAME=\"4-wave ${fn}\"")
      if(NOT s STREQUAL "1024") # 1024: the ctest's (hipkittens_cdna4_fp8_4wave_gemm_1024_check)
        set_target_properties(hk4_fp8_4wave_gemm_${s} PROPERTIES EXCLUDE_FROM_ALL ON)
      endif()
    endforeach()
  endif()
  include(${CMAKE_CURRENT_SOURCE_DIR}/cdna4_kernels.cmake) # attention, LayerNorm, rotary
  list(SORT _sizes4 COMPARE NATURAL)
  message(STATUS "bench/hipkittens: HipKittens CDNA4 at ${_hk4}: hk4_gemm_{${_sizes4}} (1024 built by default)")
endif()
