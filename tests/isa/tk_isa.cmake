# tk_isa_check(NAME <test> TARGET <hip target> [KERNEL <substr>] [WILL_FAIL]
#              CHECKS <tk-isa-check options...>)
# Registers a ctest test that runs tests/isa/tk-isa-check on the gfx942 code
# embedded in <hip target> (any tk_hip_executable / tk_add_hip_test target).
# Include this file from any CMakeLists.txt:
#   include(${PROJECT_SOURCE_DIR}/tests/isa/tk_isa.cmake)
set(TK_ISA_CHECK ${CMAKE_CURRENT_LIST_DIR}/tk-isa-check CACHE INTERNAL "")
function(tk_isa_check)
  cmake_parse_arguments(I "WILL_FAIL" "NAME;TARGET;KERNEL;ARCH" "CHECKS" ${ARGN})
  if(NOT I_NAME OR NOT I_TARGET)
    message(FATAL_ERROR "tk_isa_check: NAME and TARGET are required")
  endif()
  set(k "")
  if(I_KERNEL)
    set(k --kernel ${I_KERNEL})
  endif()
  add_test(NAME ${I_NAME} COMMAND ${TK_ISA_CHECK} ${k} ${I_CHECKS} $<TARGET_FILE:${I_TARGET}>)
  # the LLVM tools of the compiler that built the code (tk-isa-check: TK_LLVM_SUFFIX)
  # ARCH: which code object of a fat binary to check (default gfx942)
  set(_env "TK_LLVM_SUFFIX=${TK_LLVM_SUFFIX}")
  if(I_ARCH)
    list(APPEND _env "TK_ISA_ARCH=${I_ARCH}")
  endif()
  set_tests_properties(${I_NAME} PROPERTIES LABELS "isa" TIMEOUT 120 ENVIRONMENT "${_env}")
  if(I_WILL_FAIL)
    # a failing check exits 1; usage/input errors exit 2 and must not count
    set_tests_properties(${I_NAME} PROPERTIES PASS_REGULAR_EXPRESSION "^FAIL|\nFAIL")
  endif()
endfunction()
