# HipKittens' MI355X attention (and, below, LayerNorm and rotary) kernels of
# the CDNA4 checkout _hk4 (included from cdna4.cmake when it is configured),
# each behind a plain HIP harness: compile-time shapes, as the fixture's
# Makefiles pass them (-DATTN_B/H/H_KV/N/D), one program per kernel and shape.
# Only the small shapes the ctests run are built by default; bench/
# validate-model builds the others it needs. Nothing of HipKittens is copied:
# sources are filtered from the checkout into the build directory.

# hk4_program(<target> <harness> <generated source> [defines...])
function(hk4_program name harness gen)
  add_executable(${name} ${harness})
  set_source_files_properties(${harness} PROPERTIES LANGUAGE CXX)
  get_filename_component(_g "${gen}" NAME_WE)
  add_dependencies(${name} hk4_src_${_g})
  # -ffast-math: the fixture's Makefiles compile these kernels with it
  target_compile_options(${name} PRIVATE ${TK_HIP_BASE_FLAGS} --offload-arch=gfx950 -O3 -ffast-math
                         "SHELL:-include ${_hk_shim}/hk_bit_cast.h" "SHELL:-include ${_hk_shim}/hk_rocm6_compat.h"
                         -Wno-unused-result -w)
  target_link_libraries(${name} PRIVATE tk::tk ${TK_AMDHIP64})
  target_compile_definitions(${name} PRIVATE KITTENS_CDNA4 "HK_KERNEL_FILE=\"${gen}\"" ${ARGN})
  target_include_directories(${name} BEFORE PRIVATE "${_hk_shim}" "${CMAKE_CURRENT_SOURCE_DIR}")
  target_include_directories(${name} SYSTEM PRIVATE "${_hk4}/include")
  set_target_properties(${name} PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
endfunction()

# hk4_filtered(<checkout file> <what> <needs...>): the file without its Python
# harness as gen4/<name>.cpp (target hk4_src_<name>); sets _gen.
function(hk4_filtered src what)
  get_filename_component(_n "${src}" NAME_WE)
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/gen4/${_n}.cpp")
  string(REPLACE ";" "@@" _need "${ARGN}") # one argument; filter_pybind splits it
  add_custom_command(OUTPUT "${_out}"
    COMMAND ${CMAKE_COMMAND} -DIN=${src} -DOUT=${_out} "-DNEED=${_need}" "-DWHAT=${what}"
            -P ${CMAKE_CURRENT_SOURCE_DIR}/filter_pybind.cmake
    DEPENDS "${src}" ${CMAKE_CURRENT_SOURCE_DIR}/filter_pybind.cmake
    COMMENT "HipKittens ${_n}.cpp without its Python harness" VERBATIM)
  add_custom_target(hk4_src_${_n} DEPENDS "${_out}")
  set(_gen "${_out}" PARENT_SCOPE)
endfunction()

# --- attention forward: kernels/attn/fwd/attn_fwd_{non_causal,causal}[_d64].cpp
# Variants <mha|gqa>_<d128|d64>_<causal|noncausal>; shapes as the fixture's
# benchmark scripts: MHA B 16, H 16; GQA B 16, H 64, H_KV 8; at N 16384 B 15
# for GQA and the MHA causal forward (the scripts' B 16 for the MHA
# non-causal forward and the MHA backward).
# "small": B 1, MHA H 2, GQA H 4 / H_KV 2 (GROUP_SIZE^2 = H, which the
# kernel's head order needs), N 512, for the ctests' --check.
set(TK_HK4_ATTN_FWD "" CACHE INTERNAL "hk4_attn_fwd_<variant>_<N> programs configured")
# each attention program's name and compile definitions as generated, for the
# test of their shapes and grid orders (hk4_attn_programs.txt, end of file)
set(_attn_defs "")
set(_fwd_dir "${_hk4}/kernels/attn/fwd")
if(EXISTS "${_fwd_dir}/attn_fwd_non_causal.cpp")
  set(_progs "")
  foreach(d 128 64)
    foreach(c noncausal causal)
      if(c STREQUAL "causal")
        set(_file attn_fwd_causal)
        set(_cflag 1)
      else()
        set(_file attn_fwd_non_causal)
        set(_cflag 0)
      endif()
      if(d EQUAL 64)
        set(_file ${_file}_d64)
      endif()
      if(NOT EXISTS "${_fwd_dir}/${_file}.cpp")
        continue()
      endif()
      hk4_filtered("${_fwd_dir}/${_file}.cpp" "HipKittens' CDNA4 attention forward"
                   "#include \"kittens.cuh\"" "struct attn_globals" "void dispatch_micro(" "ATTN_H_KV")
      foreach(kind mha gqa)
        foreach(n small 1024 2048 4096 8192 16384)
          if(kind STREQUAL "mha")
            set(_h 16)
            set(_hkv 16)
          else()
            set(_h 64)
            set(_hkv 8)
          endif()
          set(_b 16)
          set(_n ${n})
          if(n STREQUAL "small")
            set(_b 1)
            set(_n 512)
            if(kind STREQUAL "mha")
              set(_h 2)
              set(_hkv 2)
            else()
              set(_h 4)
              set(_hkv 2)
            endif()
          elseif(n EQUAL 16384 AND (kind STREQUAL "gqa" OR c STREQUAL "causal"))
            set(_b 15)
          endif()
          set(_t hk4_attn_fwd_${kind}_d${d}_${c}_${n})
          hk4_program(${_t} attn_fwd_harness.hip "${_gen}" ATTN_B=${_b} ATTN_H=${_h} ATTN_H_KV=${_hkv}
                      ATTN_N=${_n} ATTN_D=${d} HK_ATTN_CAUSAL=${_cflag})
          # built by default: what the ctests run (tests/bench/CMakeLists.txt)
          if(NOT (_t STREQUAL "hk4_attn_fwd_mha_d128_noncausal_small" OR _t STREQUAL "hk4_attn_fwd_gqa_d128_causal_small"
                  OR _t STREQUAL "hk4_attn_fwd_mha_d128_noncausal_1024"))
            set_target_properties(${_t} PROPERTIES EXCLUDE_FROM_ALL ON)
          endif()
          list(APPEND _progs ${_t})
          string(APPEND _attn_defs "${_t} $<JOIN:$<TARGET_PROPERTY:${_t},COMPILE_DEFINITIONS>, >\n")
        endforeach()
      endforeach()
    endforeach()
  endforeach()
  set(TK_HK4_ATTN_FWD "${_progs}" CACHE INTERNAL "hk4_attn_fwd_<variant>_<N> programs configured")
endif()

# --- rotary and LayerNorm: kernels/<family>/kernel_<N>.cpp, shape constants
# in the file; one program hk4_<family>_<N> behind <family>_harness.hip, only
# N = 1024 in the default build.  ARGN: the lines the filter must find (@N@
# stands for N).  LayerNorm takes rocrand from the shim.
function(hk4_per_n_family family)
  set(_progs "")
  file(GLOB _srcs "${_hk4}/kernels/${family}/kernel_*.cpp")
  foreach(k ${_srcs})
    get_filename_component(_nm "${k}" NAME_WE)
    string(REGEX REPLACE "^kernel_" "" n "${_nm}")
    if(NOT n MATCHES "^[0-9]+$")
      continue()
    endif()
    string(REPLACE "@N@" "${n}" _need "${ARGN}")
    string(REPLACE ";" "@@" _need "${_need}") # one argument; filter_pybind splits it
    set(_out "${CMAKE_CURRENT_BINARY_DIR}/gen4/${family}_${n}.cpp")
    add_custom_command(OUTPUT "${_out}"
      COMMAND ${CMAKE_COMMAND} -DIN=${k} -DOUT=${_out} "-DNEED=${_need}"
              "-DWHAT=HipKittens' CDNA4 ${family} kernel for N = ${n}" -P ${CMAKE_CURRENT_SOURCE_DIR}/filter_pybind.cmake
      DEPENDS "${k}" ${CMAKE_CURRENT_SOURCE_DIR}/filter_pybind.cmake
      COMMENT "HipKittens ${family} kernel_${n}.cpp without its Python harness" VERBATIM)
    add_custom_target(hk4_src_${family}_${n} DEPENDS "${_out}")
    hk4_program(hk4_${family}_${n} ${family}_harness.hip "${_out}")
    if(NOT n STREQUAL "1024")
      set_target_properties(hk4_${family}_${n} PROPERTIES EXCLUDE_FROM_ALL ON)
    endif()
    list(APPEND _progs hk4_${family}_${n})
  endforeach()
  string(TOUPPER "${family}" _f)
  set(TK_HK4_${_f} "${_progs}" CACHE INTERNAL "hk4_${family}_<N> programs configured")
endfunction()
hk4_per_n_family(rotary "#include \"kittens.cuh\"" "struct rotary_globals" "void dispatch_rotary("
                 "constexpr int ATTN_N = @N@;")
hk4_per_n_family(layernorm "#include \"kittens.cuh\"" "struct norm_globals" "void dispatch_micro("
                 "constexpr int N = @N@;" "DROPOUT_P")

# --- attention backward: kernels/attn/bkwd: attn_bkwd_prep.cpp (its own
# translation unit, attn_bwd_prep_tu.hip) + attn_bkwd_{non_causal,causal}_
# {HBN,HNB}.cpp (per shape as the benchmark script, below; they differ only in grid
# order). D = 128. Shapes as the forward's, but B 16 for MHA at N 16384 (the
# script's); "small": B 1, N 512.
set(TK_HK4_ATTN_BWD "" CACHE INTERNAL "hk4_attn_bwd_<variant>_<N> programs configured")
set(_bwd_dir "${_hk4}/kernels/attn/bkwd")
# Grid order per shape: bwd_order.txt (<mha|gqa> <causal|noncausal> HBN_MAX_N),
# which bench/validate-model's bwd_order() reads too.
set(_bwd_order_file "${CMAKE_CURRENT_SOURCE_DIR}/bwd_order.txt")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_bwd_order_file}")
file(STRINGS "${_bwd_order_file}" _bwd_order_lines REGEX "^[a-z]")
foreach(_l ${_bwd_order_lines})
  if(NOT _l MATCHES "^(mha|gqa) (causal|noncausal) ([0-9]+)$")
    message(FATAL_ERROR "${_bwd_order_file}: bad line '${_l}' (want: <mha|gqa> <causal|noncausal> HBN_MAX_N)")
  endif()
  set(_hbn_max_${CMAKE_MATCH_1}_${CMAKE_MATCH_2} ${CMAKE_MATCH_3})
endforeach()
if(EXISTS "${_bwd_dir}/attn_bkwd_prep.cpp")
  set(_progs "")
  hk4_filtered("${_bwd_dir}/attn_bkwd_prep.cpp" "HipKittens' CDNA4 attention backward prep"
               "#include \"kittens.cuh\"" "struct attn_prep_globals" "void dispatch_prep(" "void dispatch_dq_shuffle(")
  set(_gen_prep "${_gen}")
  foreach(kind mha gqa)
    foreach(c noncausal causal)
      set(_cname non_causal)
      set(_cflag 0)
      if(c STREQUAL "causal")
        set(_cname causal)
        set(_cflag 1)
      endif()
      foreach(n small 1024 2048 4096 8192 16384)
        # Grid order per shape from bwd_order.txt ("small" as N 1024)
        set(_nn ${n})
        if(n STREQUAL "small")
          set(_nn 1024)
        endif()
        if(NOT DEFINED _hbn_max_${kind}_${c})
          message(FATAL_ERROR "${_bwd_order_file} has no line for ${kind} ${c}")
        endif()
        set(_order HNB)
        if(_nn LESS_EQUAL _hbn_max_${kind}_${c})
          set(_order HBN)
        endif()
        set(_file "${_bwd_dir}/attn_bkwd_${_cname}_${_order}.cpp")
        if(NOT EXISTS "${_file}")
          continue()
        endif()
        get_filename_component(_fn "${_file}" NAME_WE)
        if(NOT TARGET hk4_src_${_fn})
          hk4_filtered("${_file}" "HipKittens' CDNA4 attention backward"
                       "#include \"kittens.cuh\"" "struct attn_bwd_combined_globals" "void dispatch_bwd_combined(")
        endif()
        set(_gen "${CMAKE_CURRENT_BINARY_DIR}/gen4/${_fn}.cpp")
        if(kind STREQUAL "mha")
          set(_h 16)
          set(_hkv 16)
        else()
          set(_h 64)
          set(_hkv 8)
        endif()
        set(_b 16)
        set(_n ${n})
        if(n STREQUAL "small")
          set(_b 1)
          set(_n 512)
          if(kind STREQUAL "mha")
            set(_h 2)
            set(_hkv 2)
          else()
            set(_h 4)
            set(_hkv 2)
          endif()
        elseif(n EQUAL 16384 AND kind STREQUAL "gqa")
          set(_b 15)
        endif()
        set(_t hk4_attn_bwd_${kind}_d128_${c}_${n})
        hk4_program(${_t} attn_bwd_harness.hip "${_gen}" ATTN_B=${_b} ATTN_H=${_h} ATTN_H_KV=${_hkv} ATTN_N=${_n}
                    HK_ATTN_CAUSAL=${_cflag} "HK_PREP_FILE=\"${_gen_prep}\"")
        target_sources(${_t} PRIVATE attn_bwd_prep_tu.hip)
        # The fixture builds prep/dQ-shuffle as their own program with hipcc,
        # whose default is -O3 (hipcc: "Set default optimization level to -O3");
        # the -O1 below is for the dQ/dK/dV kernel only. A source option comes
        # after the target's, so this -O3 wins for the prep translation unit.
        set_source_files_properties(attn_bwd_prep_tu.hip PROPERTIES LANGUAGE CXX COMPILE_OPTIONS -O3)
        add_dependencies(${_t} hk4_src_attn_bkwd_prep)
        target_include_directories(${_t} PRIVATE "${_bwd_dir}") # its #include "utils.cpp"
        # Debian's clang-22 reads the dQ/dK/dV kernel's amdgpu_num_vgpr(30)
        # as "no VGPR for the compiler" ("no registers from class available to
        # allocate"): a force-included header restates the limit as upstream
        # LLVM counts it, and -O1 keeps clang-22's own values out of the
        # kernel's hand-placed AGPRs (why: shim/hk_bwd_vgpr.h). A header and a
        # flag rather than a patched copy: the fixture's text compiles as is.
        target_compile_options(${_t} PRIVATE -O1 "SHELL:-include ${_hk_shim}/hk_bwd_vgpr.h")
        # built on request (validate-model --kernel attn_bwd, attn-vs-peers),
        # but for the small MHA one the ctest checks
        if(NOT _t STREQUAL "hk4_attn_bwd_mha_d128_noncausal_small")
          set_target_properties(${_t} PROPERTIES EXCLUDE_FROM_ALL ON)
        endif()
        list(APPEND _progs ${_t})
        string(APPEND _attn_defs "${_t} $<JOIN:$<TARGET_PROPERTY:${_t},COMPILE_DEFINITIONS>, >\n")
      endforeach()
    endforeach()
  endforeach()
  set(TK_HK4_ATTN_BWD "${_progs}" CACHE INTERNAL "hk4_attn_bwd_<variant>_<N> programs configured")
endif()
# one line per configured hk4_attn_{fwd,bwd}_* program: its name, then its
# compile definitions (ATTN_B=... HK_KERNEL_FILE="...") as the build uses them
# (test model_validation_hipkittens_cdna4_bwd_order)
file(GENERATE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/hk4_attn_programs.txt" CONTENT "${_attn_defs}")
