# HIP toolchain glue for tk: device libraries, compile flags, and how tests run.
#
#  TK_ROCM_PATH         where HIP headers and libamdhip64 live (/usr on Debian,
#                       /opt/rocm for a ROCm install).
#  TK_DEVICE_LIB_PATH   a directory of AMD device-library bitcode that already has
#                       oclc_isa_version_942.bc (ROCm has it). Empty: tk builds
#                       one from Debian's rocm-device-libs.
#  TK_RUN_ON            gpu | sim | auto: where ctest runs HIP programs. auto
#                       picks gpu when /dev/kfd exists, tksim otherwise.

set(TK_ROCM_PATH "/usr" CACHE PATH "ROCm/HIP installation prefix")
set(TK_DEVICE_LIB_PATH "" CACHE PATH "Device-library bitcode directory with gfx942 support")
set(TK_OFFLOAD_ARCH "gfx942" CACHE STRING "AMDGPU target")
set(TK_RUN_ON "auto" CACHE STRING "Where tests run HIP programs: auto, gpu or sim")

if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "tk: HIP sources need clang (clang++-19 on Debian 12); "
                      "CMAKE_CXX_COMPILER is ${CMAKE_CXX_COMPILER}")
endif()
get_filename_component(_tk_clang_dir "${CMAKE_CXX_COMPILER}" DIRECTORY)
string(REGEX MATCH "[0-9]+$" _tk_llvm_ver "${CMAKE_CXX_COMPILER}")
if(_tk_llvm_ver)
  set(_tk_sfx "-${_tk_llvm_ver}")
else()
  set(_tk_sfx "")
endif()
find_program(TK_LLVM_AS NAMES llvm-as${_tk_sfx} llvm-as HINTS ${_tk_clang_dir})
find_program(TK_LLVM_DIS NAMES llvm-dis${_tk_sfx} llvm-dis HINTS ${_tk_clang_dir})
find_program(TK_LLVM_OBJDUMP NAMES llvm-objdump${_tk_sfx} llvm-objdump HINTS ${_tk_clang_dir})

# --- device libraries --------------------------------------------------------
if(TK_DEVICE_LIB_PATH)
  set(TK_DEVLIBS "${TK_DEVICE_LIB_PATH}")
else()
  set(_tk_bc_src "")
  foreach(d "${TK_ROCM_PATH}/lib/x86_64-linux-gnu/amdgcn/bitcode" "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
            "${TK_ROCM_PATH}/amdgcn/bitcode" "${TK_ROCM_PATH}/lib/llvm/lib/clang/amdgcn/bitcode")
    if(EXISTS "${d}/ockl.bc")
      set(_tk_bc_src "${d}")
      break()
    endif()
  endforeach()
  if(NOT _tk_bc_src)
    message(FATAL_ERROR "tk: no AMD device libraries found (install rocm-device-libs, or set TK_DEVICE_LIB_PATH)")
  endif()
  set(TK_DEVLIBS "${CMAKE_BINARY_DIR}/devlibs")
  file(MAKE_DIRECTORY "${TK_DEVLIBS}")
  file(GLOB _tk_bcs "${_tk_bc_src}/*.bc")
  foreach(bc ${_tk_bcs})
    get_filename_component(n "${bc}" NAME)
    file(CREATE_LINK "${bc}" "${TK_DEVLIBS}/${n}" SYMBOLIC)
  endforeach()
  if(NOT EXISTS "${TK_DEVLIBS}/oclc_isa_version_942.bc")
    # Debian's rocm-device-libs (5.2) predates gfx942: derive its ISA-version
    # library from gfx940's by changing the constant 9400 -> 9402.
    if(NOT TK_LLVM_AS OR NOT TK_LLVM_DIS)
      message(FATAL_ERROR "tk: llvm-as/llvm-dis needed to make oclc_isa_version_942.bc (install llvm-19)")
    endif()
    execute_process(COMMAND ${TK_LLVM_DIS} "${_tk_bc_src}/oclc_isa_version_940.bc" -o -
                    OUTPUT_VARIABLE _tk_ll RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "tk: could not disassemble oclc_isa_version_940.bc")
    endif()
    string(REPLACE "i32 9400" "i32 9402" _tk_ll "${_tk_ll}")
    file(WRITE "${CMAKE_BINARY_DIR}/oclc_isa_version_942.ll" "${_tk_ll}")
    execute_process(COMMAND ${TK_LLVM_AS} "${CMAKE_BINARY_DIR}/oclc_isa_version_942.ll"
                    -o "${TK_DEVLIBS}/oclc_isa_version_942.bc" RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "tk: could not assemble oclc_isa_version_942.bc")
    endif()
  endif()
endif()

find_library(TK_AMDHIP64 NAMES amdhip64 PATHS "${TK_ROCM_PATH}/lib" "${TK_ROCM_PATH}/lib/x86_64-linux-gnu" REQUIRED)

set(TK_HIP_FLAGS -x hip --offload-arch=${TK_OFFLOAD_ARCH} --rocm-path=${TK_ROCM_PATH}
    --rocm-device-lib-path=${TK_DEVLIBS} -Wall -Wextra)

# tk_hip_executable(name src...): a HIP program linked against libamdhip64.
function(tk_hip_executable name)
  add_executable(${name} ${ARGN})
  foreach(src ${ARGN})
    if(src MATCHES "\\.hip$")
      set_source_files_properties(${src} PROPERTIES LANGUAGE CXX)
    endif()
  endforeach()
  target_compile_options(${name} PRIVATE ${TK_HIP_FLAGS})
  target_link_libraries(${name} PRIVATE tk::tk ${TK_AMDHIP64})
  set_target_properties(${name} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
endfunction()

# --- where HIP programs run under ctest ---------------------------------------
if(TK_RUN_ON STREQUAL "auto")
  if(EXISTS "/dev/kfd" AND NOT DEFINED ENV{TK_FORCE_SIM})
    set(TK_RUN_ON_RESOLVED gpu)
  else()
    set(TK_RUN_ON_RESOLVED sim)
  endif()
else()
  set(TK_RUN_ON_RESOLVED ${TK_RUN_ON})
endif()
message(STATUS "tk: HIP programs under ctest run on: ${TK_RUN_ON_RESOLVED}")

# tk_add_hip_test(name src... [LABELS l...] [ARGS a...]): build a HIP test
# program and register it with ctest, run through tksim when there is no GPU.
function(tk_add_hip_test name)
  cmake_parse_arguments(T "" "" "LABELS;ARGS;SOURCES" ${ARGN})
  set(srcs ${T_SOURCES} ${T_UNPARSED_ARGUMENTS})
  tk_hip_executable(${name} ${srcs})
  if(TK_RUN_ON_RESOLVED STREQUAL "sim")
    add_test(NAME ${name} COMMAND $<TARGET_FILE:tksim> $<TARGET_FILE:${name}> ${T_ARGS})
    set(_labels sim ${T_LABELS})
  else()
    add_test(NAME ${name} COMMAND $<TARGET_FILE:${name}> ${T_ARGS})
    set(_labels gpu ${T_LABELS})
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${_labels}" TIMEOUT 900)
endfunction()
