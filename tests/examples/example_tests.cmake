# Shared by the example programs' tests (tests/gemm, tests/attention,
# tests/norm, tests/rotary).
#
# tk_example_test_setup(program label run_var labels_var): run_var = how a
# test command runs the program (TK_RUN, then the program: tk_add_target_tests
# makes one test per target under tksim, one on a GPU); labels_var = the
# program's label and sim or gpu.
function(tk_example_test_setup program label run_var labels_var)
  set(${run_var} TK_RUN $<TARGET_FILE:${program}> PARENT_SCOPE)
  if(TK_RUN_ON_RESOLVED STREQUAL "sim")
    set(${labels_var} ${label} sim PARENT_SCOPE)
  else()
    set(${labels_var} ${label} gpu PARENT_SCOPE)
  endif()
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/../isa/tk_isa.cmake)

# tk_example_api_test(program labels...): the calling directory's api_test.c
# (the C API refusing bad problems without writing) built as
# <program>_api_test against tk::<program>, run as <program>_api once per
# target; passes when it prints "<program>_api_test: all ok".
function(tk_example_api_test program)
  set(t ${program}_api_test)
  add_executable(${t} api_test.c)
  target_compile_options(${t} PRIVATE -Wall -Wextra)
  target_compile_definitions(${t} PRIVATE __HIP_PLATFORM_AMD__)
  target_link_libraries(${t} PRIVATE tk::${program})
  tk_add_target_tests(NAME ${program}_api LABELS ${ARGN} TIMEOUT 120
                      COMMAND ${PROJECT_SOURCE_DIR}/tests/gemm/expect.sh 0 "${t}: all ok" -- TK_RUN $<TARGET_FILE:${t}>)
endfunction()

# tk_example_isa_nospill(program label [KERNEL k]): no kernel (or kernel k)
# of the program spills registers or uses more than 512 VGPRs, in each code
# object: <program>_isa_nospill[_k], with _<arch> after the first target.
function(tk_example_isa_nospill program label)
  cmake_parse_arguments(N "" "KERNEL" "" ${ARGN})
  set(base ${program}_isa_nospill)
  set(k "")
  if(N_KERNEL)
    set(base ${base}_${N_KERNEL})
    set(k KERNEL ${N_KERNEL})
  endif()
  foreach(a ${TK_OFFLOAD_ARCH})
    set(n ${base})
    if(NOT a STREQUAL TK_OFFLOAD_ARCH_FIRST)
      set(n ${n}_${a})
    endif()
    tk_isa_check(NAME ${n} TARGET ${program} ${k} ARCH ${a} CHECKS --no-spill --max-vgpr 512)
    set_tests_properties(${n} PROPERTIES LABELS "${label};isa;${a}")
  endforeach()
endfunction()
