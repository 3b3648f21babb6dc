# ctest driver (cmake -P): cmake --install the build tree BUILD into a fresh
# prefix under WORK, check that tksim, its runtime, the device libraries and
# tkHip.cmake were installed, configure and build tests/install/consumer with
# only CMAKE_PREFIX_PATH and the compiler tk names, and run its programs
# under the installed tksim for every target in ARCHS (a |-separated list).
# Then the prefix is moved and, with the build tree's device libraries
# (DEVLIBS, empty when tk used a given TK_DEVICE_LIB_PATH) hidden under an
# empty tmpfs in a private mount namespace (unshare), consumer_rtc's hiprtc
# compile must still work under the moved prefix's tksim, and must fail under
# the build tree's (the control that the hiding works).
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
  foreach(p consumer_tk consumer_math consumer_lib consumer_rtc consumer_attn)
    execute_process(COMMAND "${prefix}/bin/tksim" --arch=${a} "${root}/build/${p}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${p} under the installed tksim --arch=${a} failed (${rc}):\n${out}${err}")
    endif()
    string(REGEX MATCH "[^\n]*\n?$" last "${out}")
    message(STATUS "${a} ${p}: ${last}")
  endforeach()
endforeach()

# hiprtc's device libraries: the installed ones, found relative to the moved
# prefix's runtime library, with the build tree's out of sight
set(moved "${root}/moved")
file(RENAME "${prefix}" "${moved}")
list(GET archs 0 a)
find_program(UNSHARE unshare)
if(DEVLIBS AND UNSHARE)
  execute_process(COMMAND ${UNSHARE} -rm true RESULT_VARIABLE ns_rc OUTPUT_QUIET ERROR_QUIET)
endif()
if(NOT DEVLIBS)
  message(STATUS "hiprtc uses the given TK_DEVICE_LIB_PATH (nothing installed to find): moved prefix only")
  set(hide)
elseif(NOT UNSHARE OR NOT ns_rc EQUAL 0)
  message(STATUS "no private mount namespace here (unshare -rm): the build tree's device libraries stay visible")
  set(hide)
else()
  # sh -c 'mount ... && exec tksim ...' inside the new namespace
  set(hide ${UNSHARE} -rm sh -c "mount -t tmpfs tk-hidden \"$0\" && exec \"$@\"" "${DEVLIBS}")
endif()
execute_process(COMMAND ${hide} "${moved}/bin/tksim" --arch=${a} "${root}/build/consumer_rtc"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer_rtc under the moved prefix's tksim --arch=${a} failed (${rc}):\n${out}${err}")
endif()
if(hide)
  set(how "build tree's device libraries hidden")
else()
  set(how "build tree's device libraries visible")
endif()
message(STATUS "${a} consumer_rtc, moved prefix, ${how}: ${out}")
if(hide)
  execute_process(COMMAND ${hide} "${BUILD}/bin/tksim" --arch=${a} "${root}/build/consumer_rtc"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "has no oclc_isa_version_942.bc")
    message(FATAL_ERROR "control: the build tree's tksim should not find device libraries with ${DEVLIBS} "
                        "hidden, yet (${rc}):\n${out}${err}")
  endif()
  message(STATUS "control: the build tree's tksim fails with its device libraries hidden (as it should)")
endif()
