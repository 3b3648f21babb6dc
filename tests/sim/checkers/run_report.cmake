# run_report.cmake: `tksim --report=pc PROG` must succeed and its report must
# contain every regex in EXPECT (a ';'-separated list, passed with '|;|'
# replaced by ',,,' to survive the command line). Optional: OPTS (tksim
# options) and PARGS (program arguments), ','-separated.
string(REPLACE "," ";" _opts "${OPTS}")
string(REPLACE "," ";" _pargs "${PARGS}")
execute_process(COMMAND ${TKSIM} ${_opts} --report=pc ${PROG} ${_pargs}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
message("exit status: ${rc}\n--- stdout\n${out}--- stderr\n${err}---")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "program failed under tksim --report=pc")
endif()
string(REPLACE ",,," ";" _expect "${EXPECT}")
foreach(re ${_expect})
  if(NOT err MATCHES "${re}")
    message(FATAL_ERROR "report lacks a line matching '${re}'")
  endif()
endforeach()
