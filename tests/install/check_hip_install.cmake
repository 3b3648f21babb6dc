# ctest driver (cmake -P): cmake --install the build tree BUILD into a fresh
# prefix under WORK, check that tksim, its runtime, the device libraries and
# tkHip.cmake were installed, configure and build tests/install/consumer with
# only CMAKE_PREFIX_PATH and the compiler tk names, and run its programs
# under the installed tksim for every target in ARCHS (a |-separated list).
set(root "${WORK}/hip-install")
file(REMOVE_RECURSE "${root}")
set(prefix "${root}/prefix")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD}" --prefix "${prefix}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed:\n${out}${err}")
endif()
foreach(f bin/tksim lib/tksim/libamdhip64.so.5)
  if(NOT EXISTS "${prefix}/${f}")
    message(FATAL_ERROR "${f} was not installed")
  endif()
endforeach()
file(GLOB_RECURSE hipcfg "${prefix}/*/tkHip.cmake")
file(GLOB_RECURSE isa "${prefix}/*/tk/devlibs/oclc_isa_version_94*.bc")
file(GLOB_RECURSE ocml "${prefix}/*/tk/devlibs/ocml.bc")
if(NOT hipcfg OR NOT isa OR NOT ocml)
  message(FATAL_ERROR "tkHip.cmake (${hipcfg}), the ISA-version libraries (${isa}) or ocml.bc (${ocml}) not installed")
endif()
# the consumer reads the compiler from tk's package: what a user is told to pass
file(STRINGS "${hipcfg}" cxx_line REGEX "^set\\(TK_HIP_CXX_COMPILER \"")
string(REGEX REPLACE "^set\\(TK_HIP_CXX_COMPILER \"([^\"]*)\"\\)$" "\\1" cxx "${cxx_line}")
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SRC}/tests/install/consumer" -B "${root}/build"
                        "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_CXX_COMPILER=${cxx}" -DCMAKE_BUILD_TYPE=Release
                        "-DTK_TEST_SOURCES=${SRC}/tests"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer configure failed:\n${out}${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${root}/build" -j 2
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer build failed:\n${out}${err}")
endif()
string(REPLACE "|" ";" archs "${ARCHS}")
foreach(a ${archs})
  foreach(p consumer_tk consumer_math consumer_lib)
    execute_process(COMMAND "${prefix}/bin/tksim" --arch=${a} "${root}/build/${p}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${p} under the installed tksim --arch=${a} failed (${rc}):\n${out}${err}")
    endif()
    string(REGEX MATCH "[^\n]*\n?$" last "${out}")
    message(STATUS "${a} ${p}: ${last}")
  endforeach()
endforeach()
