# run_checker.cmake: runs `tksim [OPTS] PROG CASE MODE` and checks the outcome.
#   -DTKSIM=... -DPROG=... -DCASE=... -DMODE=good|bad -DEXPECT=<regex> [-DOPTS=a;b]
# bad:  tksim must exit non-zero and stderr must match EXPECT.
# good: exit 0 and no checker message on stderr.
foreach(v TKSIM PROG CASE MODE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_checker.cmake: ${v} not set")
  endif()
endforeach()
string(REPLACE "," ";" _opts "${OPTS}")
execute_process(COMMAND ${TKSIM} ${_opts} ${PROG} ${CASE} ${MODE}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
message("exit status: ${rc}\n--- stdout\n${out}--- stderr\n${err}---")
set(_checker_msg "tksim: (memory error|missing s_waitcnt|LDS race)|budget|deadlock")
if(MODE STREQUAL "bad")
  if(rc EQUAL 0)
    message(FATAL_ERROR "the broken '${CASE}' kernel ran without error: the checker did not fire")
  endif()
  if(NOT err MATCHES "${EXPECT}")
    message(FATAL_ERROR "stderr does not match '${EXPECT}'")
  endif()
else()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the correct '${CASE}' kernel failed (exit ${rc})")
  endif()
  if(err MATCHES "${_checker_msg}")
    message(FATAL_ERROR "a checker fired on the correct '${CASE}' kernel")
  endif()
endif()
