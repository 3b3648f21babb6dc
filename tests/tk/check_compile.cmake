# ctest driver for compile checks (cmake -P).
#  MODE=fail:   compile SRC; pass iff it fails AND the output contains the text
#               after "// EXPECT: " on SRC's first line.
#  MODE=header: compile a one-line file including HEADER; pass iff it compiles.
#  MODE=compile: run CXX FLAGS SRC as given; pass iff it succeeds.
# FLAGS is a |-separated list (ctest cannot pass ; through -D).
string(REPLACE "|" ";" flags "${FLAGS}")
if(MODE STREQUAL "fail")
  file(STRINGS "${SRC}" first LIMIT_COUNT 1)
  string(REGEX MATCH "// EXPECT: (.*)" m "${first}")
  set(expect "${CMAKE_MATCH_1}")
  if(expect STREQUAL "")
    message(FATAL_ERROR "${SRC}: first line must be // EXPECT: <message>")
  endif()
  execute_process(COMMAND ${CXX} ${flags} --cuda-device-only -fsyntax-only "${SRC}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${SRC} compiled, but must not")
  endif()
  string(FIND "${out}${err}" "${expect}" pos)
  if(pos EQUAL -1)
    message(FATAL_ERROR "${SRC} failed to compile without the expected message '${expect}':\n${err}")
  endif()
  message(STATUS "failed as expected with: ${expect}")
elseif(MODE STREQUAL "header")
  get_filename_component(n "${HEADER}" NAME_WE)
  get_filename_component(e "${HEADER}" EXT)
  string(REPLACE "." "_" e "${e}")
  set(src "${WORK}/hdr_${n}${e}.hip")
  file(WRITE "${src}" "#include \"${HEADER}\"\n")
  # both passes: device (gfx942) and host
  execute_process(COMMAND ${CXX} ${flags} -fsyntax-only "${src}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${HEADER} does not compile standalone:\n${err}")
  endif()
elseif(MODE STREQUAL "compile")
  execute_process(COMMAND ${CXX} ${flags} "${SRC}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SRC} does not compile with ${flags}:\n${err}")
  endif()
  message(STATUS "compiled: ${SRC}")
else()
  message(FATAL_ERROR "MODE must be fail, header or compile")
endif()
