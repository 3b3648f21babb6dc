# Shared by the example programs' tests (tests/gemm, tests/attention).
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
