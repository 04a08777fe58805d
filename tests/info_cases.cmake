# Runs `altmem info` with one ALTMEM_TUNABLES value and checks exit status,
# stdout and stderr separately (CTest's PASS_REGULAR_EXPRESSION would ignore the
# exit status and merge the two streams).
#
#   cmake -DALTMEM=path/to/altmem -DCASE=name -DTUNABLES=value|<unset>
#         -DEXPECT_OUT=regex -DEXPECT_ERR=regex|"" -P info_cases.cmake
#
# EXPECT_ERR "" means stderr must be empty: a valid value must not warn.

foreach(v ALTMEM CASE EXPECT_OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "info_cases.cmake: ${v} not set")
  endif()
endforeach()

if(TUNABLES STREQUAL "<unset>")
  unset(ENV{ALTMEM_TUNABLES})
  set(shown "unset")
else()
  set(ENV{ALTMEM_TUNABLES} "${TUNABLES}")
  set(shown "'${TUNABLES}'")
endif()

# In a cross build the CLI runs under the emulator: tests/cross.cmake gives every
# test ALTMEM_TEST_EMULATOR (CTest applies CMAKE_CROSSCOMPILING_EMULATOR only to
# commands that name a target).
set(emulator "")
if(DEFINED ENV{ALTMEM_TEST_EMULATOR})
  separate_arguments(emulator UNIX_COMMAND "$ENV{ALTMEM_TEST_EMULATOR}")
endif()
execute_process(COMMAND ${emulator} "${ALTMEM}" info
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)

set(failed 0)
message("info ${CASE}: ALTMEM_TUNABLES ${shown}")
if(NOT rc STREQUAL "0")
  message("info ${CASE}: FAIL: exit status ${rc}, expected 0")
  set(failed 1)
else()
  message("info ${CASE}: ok: exit status 0")
endif()
if(out MATCHES "${EXPECT_OUT}")
  message("info ${CASE}: ok: stdout matches the expected bindings")
else()
  message("info ${CASE}: FAIL: stdout does not match:\n---- expected (regex)\n${EXPECT_OUT}\n---- got\n${out}----")
  set(failed 1)
endif()
if(EXPECT_ERR STREQUAL "")
  if(err STREQUAL "")
    message("info ${CASE}: ok: stderr empty")
  else()
    message("info ${CASE}: FAIL: unexpected stderr:\n${err}")
    set(failed 1)
  endif()
elseif(err MATCHES "${EXPECT_ERR}")
  message("info ${CASE}: ok: stderr as expected:\n${err}")
else()
  message("info ${CASE}: FAIL: stderr does not match:\n---- expected (regex)\n${EXPECT_ERR}\n---- got\n${err}----")
  set(failed 1)
endif()

if(failed)
  message(FATAL_ERROR "info ${CASE}: FAILED")
endif()
message("info ${CASE}: passed")
