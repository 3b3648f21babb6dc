# ctest driver (cmake -P): install tk from the build tree BUILD into a fresh
# prefix under WORK, check every public header was installed, then configure,
# build and run tests/tk/consumer, which uses find_package(tk) and tk::tk.
set(root "${WORK}/install-check")
file(REMOVE_RECURSE "${root}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD}" --prefix "${root}/prefix"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed:\n${out}${err}")
endif()
file(GLOB hdrs RELATIVE "${SRC}/include/tk" "${SRC}/include/tk/*.h")
foreach(h ${hdrs})
  if(NOT EXISTS "${root}/prefix/include/tk/${h}")
    message(FATAL_ERROR "tk/${h} was not installed")
  endif()
endforeach()
file(GLOB_RECURSE cfg "${root}/prefix/*/tkConfig.cmake")
if(NOT cfg)
  message(FATAL_ERROR "no tkConfig.cmake under ${root}/prefix")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SRC}/tests/tk/consumer" -B "${root}/build"
                        "-DCMAKE_PREFIX_PATH=${root}/prefix" "-DCMAKE_CXX_COMPILER=${CXX}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer configure (find_package(tk)) failed:\n${out}${err}")
endif()
message(STATUS "${out}")
execute_process(COMMAND ${CMAKE_COMMAND} --build "${root}/build"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer build failed:\n${out}${err}")
endif()
execute_process(COMMAND "${root}/build/consumer" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer failed:\n${out}${err}")
endif()
message(STATUS "${out}")
