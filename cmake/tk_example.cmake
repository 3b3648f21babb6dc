# tk_add_example(NAME n HIP a.hip... REF r.c... HEADER tk_n.h [PROGRAM p.c]):
# the shape the row-wise and attention examples share (examples/CMakeLists.txt
# says why each example is a library plus a program): libtk_n (tk::n,
# exported as tk::n) from the HIP sources (TK_HIP_FLAGS) and the C reference
# (-Wall -Wextra), its C API header installed next to the shared ones, and
# the program n over it. Called from the example's own directory: source
# properties and the header path are that directory's.
function(tk_add_example)
  cmake_parse_arguments(A "" "NAME;HEADER;PROGRAM" "HIP;REF" ${ARGN})
  if(NOT A_NAME OR NOT A_HIP OR NOT A_HEADER OR A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tk_add_example: need NAME, HIP and HEADER (unknown: ${A_UNPARSED_ARGUMENTS})")
  endif()
  if(NOT A_PROGRAM)
    set(A_PROGRAM ${A_NAME}.c)
  endif()
  set(lib tk_${A_NAME})
  add_library(${lib} STATIC ${A_HIP} ${A_REF})
  add_library(tk::${A_NAME} ALIAS ${lib})
  set_source_files_properties(${A_HIP} PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "${TK_HIP_FLAGS}")
  if(A_REF)
    set_source_files_properties(${A_REF} PROPERTIES COMPILE_OPTIONS "-Wall;-Wextra")
  endif()
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${A_NAME} CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON
                                          CXX_EXTENSIONS OFF POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${lib} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/tk_examples>)
  # the C reference includes the API header, which includes HIP's runtime API
  target_compile_definitions(${lib} PRIVATE __HIP_PLATFORM_AMD__)
  target_include_directories(${lib} PRIVATE ${TK_ROCM_PATH}/include)
  target_link_libraries(${lib} PUBLIC tk::tk tk::examples ${TK_AMDHIP64} m)
  install(TARGETS ${lib} EXPORT tkTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${A_HEADER} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tk_examples)

  add_executable(${A_NAME} ${A_PROGRAM})
  target_compile_options(${A_NAME} PRIVATE -Wall -Wextra)
  target_link_libraries(${A_NAME} PRIVATE tk::${A_NAME} tk::examples)
endfunction()
