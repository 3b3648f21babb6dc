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
set(TK_DEVICE_LIB_PATH "" CACHE PATH "Device-library bitcode directory with support for the targets")
# Default targets: both where the compiler knows gfx950 (clang >= 20).
if(CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 20)
  set(_tk_default_archs "gfx942;gfx950")
else()
  set(_tk_default_archs "gfx942")
endif()
set(TK_OFFLOAD_ARCH "${_tk_default_archs}" CACHE STRING "AMDGPU targets (a list: gfx942;gfx950 builds fat binaries)")
set(TK_RUN_ON "auto" CACHE STRING "Where tests run HIP programs: auto, gpu or sim")

if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "tk: HIP sources need clang (clang++-19 or clang++-22 on Debian 12); "
                      "CMAKE_CXX_COMPILER is ${CMAKE_CXX_COMPILER}")
endif()
foreach(a ${TK_OFFLOAD_ARCH})
  if(a STREQUAL "gfx950" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 20)
    message(FATAL_ERROR "tk: gfx950 needs clang 20 or later (Debian 12: clang++-22 from the "
                        "security archive); ${CMAKE_CXX_COMPILER} is ${CMAKE_CXX_COMPILER_VERSION}")
  endif()
endforeach()
list(GET TK_OFFLOAD_ARCH 0 TK_OFFLOAD_ARCH_FIRST)
get_filename_component(_tk_clang_dir "${CMAKE_CXX_COMPILER}" DIRECTORY)
string(REGEX MATCH "[0-9]+$" _tk_llvm_ver "${CMAKE_CXX_COMPILER}")
if(_tk_llvm_ver)
  set(_tk_sfx "-${_tk_llvm_ver}")
else()
  set(_tk_sfx "")
endif()
set(TK_LLVM_SUFFIX "${_tk_sfx}")
find_program(TK_LLVM_AS NAMES llvm-as${_tk_sfx} llvm-as HINTS ${_tk_clang_dir})
find_program(TK_LLVM_DIS NAMES llvm-dis${_tk_sfx} llvm-dis HINTS ${_tk_clang_dir})
find_program(TK_LLVM_LINK NAMES llvm-link${_tk_sfx} llvm-link HINTS ${_tk_clang_dir})
find_program(TK_LLVM_OBJDUMP NAMES llvm-objdump${_tk_sfx} llvm-objdump HINTS ${_tk_clang_dir})

# Extra device flags a clang newer than the device libraries needs (clang >= 20
# with Debian's HIP 5.2 / rocm-device-libs 5.2), set below.
set(_tk_compat_flags "")

# --- device libraries --------------------------------------------------------
# ISA-version constants (AMDGPUUsage processor table; device-libs' oclc_isa_version_*):
# gfx942 -> 9402, gfx950 -> 9500.
set(_tk_isa_ver_gfx942 9402)
set(_tk_isa_ver_gfx950 9500)
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
  # clang >= 20 no longer links hip.bc, whose __atomic_work_item_fence HIP
  # 5.2's __syncthreads/__threadfence call, nor oclc_daz_opt_*.bc, whose
  # __oclc_daz_opt device-libs 5.2's ocml reads (sinf, expf, powf, exp ...:
  # "undefined symbol: __oclc_daz_opt" otherwise); the ISA-version library,
  # always linked, carries both instead (as weak_odr: llvm-link drops
  # linkonce_odr definitions nobody references yet). daz off: HIP's default
  # keeps f32 denormals on gfx9 (ocml then takes its denormal-exact paths,
  # still correct under -fgpu-flush-denormals-to-zero).
  set(_tk_merge_hip OFF)
  if(CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 20 AND EXISTS "${_tk_bc_src}/hip.bc")
    set(_tk_merge_hip ON)
    if(NOT TK_LLVM_LINK)
      message(FATAL_ERROR "tk: llvm-link${_tk_sfx} needed to prepare the device libraries (install llvm${_tk_sfx})")
    endif()
  endif()
  if(NOT TK_LLVM_AS OR NOT TK_LLVM_DIS)
    message(FATAL_ERROR "tk: llvm-as/llvm-dis needed to make the ISA-version libraries (install llvm${_tk_sfx})")
  endif()
  foreach(a ${TK_OFFLOAD_ARCH})
    string(REGEX REPLACE "^gfx" "" _n "${a}")
    set(_out "${TK_DEVLIBS}/oclc_isa_version_${_n}.bc")
    if(EXISTS "${_tk_bc_src}/oclc_isa_version_${_n}.bc" AND NOT _tk_merge_hip)
      continue()
    endif()
    if(NOT DEFINED _tk_isa_ver_${a})
      if(NOT EXISTS "${_tk_bc_src}/oclc_isa_version_${_n}.bc")
        message(FATAL_ERROR "tk: no oclc_isa_version_${_n}.bc for ${a}; set TK_DEVICE_LIB_PATH")
      endif()
      set(_base "${_tk_bc_src}/oclc_isa_version_${_n}.bc")
      set(_ver "")
    else()
      # Debian's rocm-device-libs (5.2) predates gfx942 and gfx950: derive
      # their ISA-version library from gfx940's by changing the constant 9400.
      set(_base "${_tk_bc_src}/oclc_isa_version_940.bc")
      set(_ver "${_tk_isa_ver_${a}}")
    endif()
    execute_process(COMMAND ${TK_LLVM_DIS} "${_base}" -o - OUTPUT_VARIABLE _tk_ll RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "tk: could not disassemble ${_base}")
    endif()
    if(_ver)
      string(REPLACE "i32 9400" "i32 ${_ver}" _tk_ll "${_tk_ll}")
    endif()
    if(_tk_merge_hip)
      # llvm-link drops unreferenced linkonce_odr definitions: keep them
      string(REPLACE "linkonce_odr" "weak_odr" _tk_ll "${_tk_ll}")
    endif()
    file(REMOVE "${_out}")
    file(WRITE "${CMAKE_BINARY_DIR}/oclc_isa_version_${_n}.ll" "${_tk_ll}")
    execute_process(COMMAND ${TK_LLVM_AS} "${CMAKE_BINARY_DIR}/oclc_isa_version_${_n}.ll"
                    -o "${CMAKE_BINARY_DIR}/oclc_isa_version_${_n}.only.bc" RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "tk: could not assemble oclc_isa_version_${_n}.bc")
    endif()
    if(_tk_merge_hip)
      execute_process(COMMAND ${TK_LLVM_DIS} "${_tk_bc_src}/hip.bc" -o - OUTPUT_VARIABLE _tk_hip_ll RESULT_VARIABLE _rc)
      string(REPLACE "define linkonce_odr" "define weak_odr" _tk_hip_ll "${_tk_hip_ll}")
      file(WRITE "${CMAKE_BINARY_DIR}/hip_weak.ll" "${_tk_hip_ll}")
      execute_process(COMMAND ${TK_LLVM_AS} "${CMAKE_BINARY_DIR}/hip_weak.ll" -o "${CMAKE_BINARY_DIR}/hip_weak.bc"
                      RESULT_VARIABLE _rc1)
      execute_process(COMMAND ${TK_LLVM_DIS} "${_tk_bc_src}/oclc_daz_opt_off.bc" -o - OUTPUT_VARIABLE _tk_daz_ll
                      RESULT_VARIABLE _rc3)
      string(REPLACE "linkonce_odr" "weak_odr" _tk_daz_ll "${_tk_daz_ll}")
      file(WRITE "${CMAKE_BINARY_DIR}/daz_weak.ll" "${_tk_daz_ll}")
      execute_process(COMMAND ${TK_LLVM_AS} "${CMAKE_BINARY_DIR}/daz_weak.ll" -o "${CMAKE_BINARY_DIR}/daz_weak.bc"
                      RESULT_VARIABLE _rc4)
      execute_process(COMMAND ${TK_LLVM_LINK} "${CMAKE_BINARY_DIR}/oclc_isa_version_${_n}.only.bc"
                      "${CMAKE_BINARY_DIR}/hip_weak.bc" "${CMAKE_BINARY_DIR}/daz_weak.bc" -o "${_out}"
                      RESULT_VARIABLE _rc2)
      if(NOT _rc EQUAL 0 OR NOT _rc1 EQUAL 0 OR NOT _rc2 EQUAL 0 OR NOT _rc3 EQUAL 0 OR NOT _rc4 EQUAL 0)
        message(FATAL_ERROR "tk: could not merge hip.bc and oclc_daz_opt_off.bc into oclc_isa_version_${_n}.bc")
      endif()
    else()
      file(RENAME "${CMAKE_BINARY_DIR}/oclc_isa_version_${_n}.only.bc" "${_out}")
    endif()
  endforeach()
  if(CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 20)
    # HIP 5.2's headers test __AMDGCN_WAVEFRONT_SIZE, which clang >= 20 no
    # longer predefines (CDNA waves are 64 lanes); its default code object
    # version 6 wants oclc_abi_version_600.bc, which device-libs 5.2 lacks.
    list(APPEND _tk_compat_flags -D__AMDGCN_WAVEFRONT_SIZE=64)
    if(NOT EXISTS "${_tk_bc_src}/oclc_abi_version_600.bc")
      list(APPEND _tk_compat_flags -mcode-object-version=5)
    endif()
  endif()
endif()

find_library(TK_AMDHIP64 NAMES amdhip64 PATHS "${TK_ROCM_PATH}/lib" "${TK_ROCM_PATH}/lib/x86_64-linux-gnu" REQUIRED)

set(TK_OFFLOAD_ARCH_FLAGS "")
foreach(a ${TK_OFFLOAD_ARCH})
  list(APPEND TK_OFFLOAD_ARCH_FLAGS --offload-arch=${a})
endforeach()
# TK_HIP_COMPAT_FLAGS: what any -x hip compile with these device libraries
# needs besides --offload-arch (custom commands add it to their own flags);
# TK_HIP_BASE_FLAGS: everything but the targets; TK_HIP_FLAGS: all of it.
set(TK_HIP_COMPAT_FLAGS ${_tk_compat_flags})
set(TK_HIP_BASE_FLAGS -x hip --rocm-path=${TK_ROCM_PATH} --rocm-device-lib-path=${TK_DEVLIBS}
    ${_tk_compat_flags} -Wall -Wextra)
set(TK_HIP_FLAGS ${TK_HIP_BASE_FLAGS} ${TK_OFFLOAD_ARCH_FLAGS})

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

# Tests whose gfx950 run does not apply yet, each with the reason (they still
# run for gfx942). tksim refuses what it cannot run on gfx950 with the
# instruction named, so a missing entry here shows up as a failing test.
set(TK_GFX950_SKIP
  # checks gfx942's FNUZ fp8 conversions against FNUZ references (gfx950's
  # OCP conversions: tksim_isa_gfx950_cvt_fp8, tk_test_convert_gfx950)
  tksim_isa_alu_misc
  # they check the gfx942 device's properties (MI325X, 64 KiB LDS, 304 CUs;
  # occupancy from 64 KiB of LDS per CU)
  sim_rt_device_props sim_rt_occupancy
  # loads a raw gfx942 ELF with hipModuleLoad (the bundle test covers gfx950's)
  sim_rt_module)

# tk_add_hip_test(name src... [LABELS l...] [ARGS a...] [ARCHS a...]): build a
# HIP test program and register it with ctest, run through tksim when there is
# no GPU. Under tksim a program built for several targets runs once per
# target: NAME for the first of TK_OFFLOAD_ARCH, NAME_<arch> (label <arch>)
# for the others (tksim --arch=<arch>); ARCHS restricts the targets.
function(tk_add_hip_test name)
  cmake_parse_arguments(T "" "" "LABELS;ARGS;SOURCES;ARCHS" ${ARGN})
  set(srcs ${T_SOURCES} ${T_UNPARSED_ARGUMENTS})
  tk_hip_executable(${name} ${srcs})
  if(TK_RUN_ON_RESOLVED STREQUAL "sim")
    set(_where sim)
  else()
    set(_where gpu)
  endif()
  tk_add_target_tests(NAME ${name} LABELS ${_where} ${T_LABELS} TIMEOUT 900 ARCHS ${T_ARCHS}
                      COMMAND TK_RUN $<TARGET_FILE:${name}> ${T_ARGS})
endfunction()

# The timing model that goes with each target in tests (a gfx942 code object
# under a CDNA4 model, or the reverse, is refused by tksim).
set(TK_TEST_MODEL_gfx942 mi325x)
set(TK_TEST_MODEL_gfx950 mi355x)

# tk_add_target_tests(NAME name COMMAND word... [LABELS l...] [TIMEOUT s]
#                     [ARCHS a...] [PROPERTIES p v ...]): a test that runs a
# fat HIP program (an example, a tool over one), once per target, like
# tk_add_hip_test. In COMMAND the word TK_RUN stands for what goes before the
# program: under tksim `tksim --arch=<a>`, one test per TK_OFFLOAD_ARCH
# (NAME for the first registered, NAME_<a> with label <a> for the others;
# ARCHS restricts, TK_GFX950_SKIP applies); on a GPU nothing (one test, the
# device's code object). In any word @ARCH@ becomes the target and @KEY@ the
# variable TK_TEST_KEY_<a> (e.g. @MODEL@, the target's timing model, for
# commands that call tksim themselves); on a GPU, @ARCH@ is "gpu" and @KEY@
# TK_TEST_KEY_gpu (commands that need tksim are registered under tksim only).
function(tk_add_target_tests)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "COMMAND;LABELS;ARCHS;PROPERTIES" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  if(TK_RUN_ON_RESOLVED STREQUAL "sim")
    set(_archs ${TK_OFFLOAD_ARCH})
    set(_sim 1)
  else()
    set(_archs gpu) # one test: the GPU picks its own code object
    set(_sim 0)
  endif()
  set(_first 1)
  foreach(a ${_archs})
    if(_sim AND T_ARCHS AND NOT a IN_LIST T_ARCHS)
      continue()
    endif()
    if(a STREQUAL "gfx950" AND T_NAME IN_LIST TK_GFX950_SKIP)
      continue()
    endif()
    set(_cmd "")
    foreach(w ${T_COMMAND})
      if(w STREQUAL "TK_RUN")
        if(_sim)
          list(APPEND _cmd $<TARGET_FILE:tksim> --arch=${a})
        endif()
        continue()
      endif()
      string(REPLACE "@ARCH@" "${a}" w "${w}")
      string(REGEX MATCHALL "@[A-Z0-9]+@" _keys "${w}")
      foreach(k ${_keys})
        string(REPLACE "@" "" _v "${k}")
        if(NOT DEFINED TK_TEST_${_v}_${a})
          message(FATAL_ERROR "tk_add_target_tests(${T_NAME}): ${k} needs TK_TEST_${_v}_${a}")
        endif()
        string(REPLACE "${k}" "${TK_TEST_${_v}_${a}}" w "${w}")
      endforeach()
      list(APPEND _cmd "${w}")
    endforeach()
    if(_first)
      set(_n ${T_NAME})
    else()
      set(_n ${T_NAME}_${a})
    endif()
    add_test(NAME ${_n} COMMAND ${_cmd})
    set(_l ${T_LABELS})
    if(_sim)
      list(APPEND _l ${a})
    endif()
    set_tests_properties(${_n} PROPERTIES LABELS "${_l}" TIMEOUT ${T_TIMEOUT} ${T_PROPERTIES})
    set(_first 0)
  endforeach()
endfunction()
