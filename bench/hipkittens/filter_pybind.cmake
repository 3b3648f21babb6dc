# cmake -DIN=<checkout file> -DOUT=<build file> "-DNEED=a@@b@@c" -DWHAT=<description> -P filter_pybind.cmake
# Writes one of HipKittens' CDNA4 attention/LayerNorm/rotary kernel sources
# without its Python harness (the `#include "pyutils/..."` line and the
# trailing PYBIND11_MODULE block), so a plain HIP main() can include it.
# Runs at build time: nothing of HipKittens is kept in tk's repository.
# Refuses, naming it, a file without one of the NEED strings (the pieces the
# harness uses), or with Python code left after filtering.
if(NOT EXISTS "${IN}")
  message(FATAL_ERROR "hipkittens: kernel source not found: ${IN}")
endif()
file(READ "${IN}" src)
string(REPLACE "@@" ";" NEED "${NEED}") # the caller's list separator
foreach(need ${NEED})
  string(FIND "${src}" "${need}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "hipkittens: ${IN} is not ${WHAT} as bench/hipkittens expects (no '${need}'); "
                        "see bench/hipkittens/README.md")
  endif()
endforeach()
string(REGEX REPLACE "#include \"pyutils/[^\"]*\"[^\n]*\n" "" src "${src}")
string(FIND "${src}" "PYBIND11_MODULE" at)
if(NOT at EQUAL -1)
  string(SUBSTRING "${src}" 0 ${at} src)
endif()
if(src MATCHES "pybind|pyutils|py::")
  message(FATAL_ERROR "hipkittens: ${IN}: Python harness code left after filtering (expected only an "
                      "#include \"pyutils/...\" line and a trailing PYBIND11_MODULE block)")
endif()
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by bench/hipkittens/filter_pybind.cmake: Python harness removed.\n${src}")
file(RENAME "${OUT}.tmp" "${OUT}")
