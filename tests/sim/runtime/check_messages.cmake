# check_messages.cmake: runs `tksim PROG ARGS` (bad_input_messages.hip); the
# program must pass its own error-code checks, and the stderr of each case
# ("== case NAME" markers) must hold the tksim message given for it below.
#   -DTKSIM=... -DPROG=... -DARGS=a,b,c
string(REPLACE "," ";" _args "${ARGS}")
execute_process(COMMAND ${TKSIM} ${PROG} ${_args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
message("exit status: ${rc}\n--- stdout\n${out}--- stderr\n${err}---")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bad_input_messages failed")
endif()
set(_expect
  "null|tksim: hipMemcpy: .*null.*\\(hipErrorInvalidValue\\)"
  "null-async|tksim: hipMemcpyAsync: .*null.*\\(hipErrorInvalidValue\\)"
  "freed|tksim: hipMemcpy: .*(freed|not .*allocat|unknown).*\\(hipErrorInvalidValue\\)"
  "freed-memset-async|tksim: hipMemsetAsync: .*\\(hipErrorInvalidValue\\)"
  "past-end|tksim: hipMemcpy: .*1025.*\\(hipErrorInvalidValue\\)"
  "past-end-async|tksim: hipMemcpyAsync: .*513.*\\(hipErrorInvalidValue\\)"
  "past-end-memset|tksim: hipMemset: .*25.*\\(hipErrorInvalidValue\\)"
  "zero-blocks|tksim: [a-zA-Z]+: kernel .*mark.*zero grid or block dimension.*\\(hipErrorInvalidConfiguration\\)"
  "threads|tksim: [a-zA-Z]+: kernel .*mark.*1025 threads per block exceeds the limit of 1024.*\\(hipErrorInvalidConfiguration\\)"
  "lds|tksim: [a-zA-Z]+: kernel .*mark_dyn.*65540 of dynamic LDS exceed 64 KiB.*\\(hipErrorInvalidConfiguration\\)"
  "set-attribute|tksim: hipFuncSetAttribute: kernel .*mark_dyn.*66560 bytes of dynamic LDS do not fit in 64 KiB.*\\(hipErrorInvalidValue\\)"
  "not-a-kernel|tksim: hipFuncSetAttribute: .*is not a kernel.*\\(hipErrorInvalidDeviceFunction\\)"
  "gfx90a|tksim: hipModuleLoad: .*gfx90a.*gfx942.*\\(hipErrorNoBinaryForGpu\\)"
  "gfx1100|tksim: hipModuleLoad: .*gfx1100.*gfx942.*\\(hipErrorNoBinaryForGpu\\)"
  "gfx90a-bundle|tksim: hipModuleLoad: .*gfx90a.*gfx942.*\\(hipErrorNoBinaryForGpu\\)"
  "truncated|tksim: hipModuleLoad: .*\\(hipErrorInvalidImage\\)"
  "corrupt|tksim: hipModuleLoad: .*\\(hipErrorInvalidImage\\)"
  "not-an-image|tksim: hipModuleLoadData: .*neither an AMDGPU ELF nor an offload bundle.*\\(hipErrorInvalidImage\\)"
  "unknown-kernel|tksim: hipModuleGetFunction: .*no_such_kernel.*\\(hipErrorNotFound\\)")
string(REPLACE ";" "," err "${err}")
foreach(e ${_expect})
  string(FIND "${e}" "|" bar)
  string(SUBSTRING "${e}" 0 ${bar} name)
  math(EXPR bar "${bar} + 1")
  string(SUBSTRING "${e}" ${bar} -1 re)
  string(FIND "${err}" "== case ${name}\n" at)
  if(at LESS 0)
    message(FATAL_ERROR "no output section for case ${name}")
  endif()
  string(SUBSTRING "${err}" ${at} -1 section)
  string(LENGTH "== case ${name}\n" skip)
  string(SUBSTRING "${section}" ${skip} -1 section)
  string(FIND "${section}" "== case " end)
  string(SUBSTRING "${section}" 0 ${end} section)
  if(NOT section MATCHES "${re}")
    message(FATAL_ERROR "case ${name}: stderr '${section}' does not match '${re}'")
  endif()
endforeach()
