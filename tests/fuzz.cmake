# Differential fuzzing with libFuzzer (docs/fuzzing.md; issue 10).
#
#   fuzz.smoke      scripts/fuzz.sh --smoke: a clang-19 build in <build>/fuzz with
#                   ALTMEM_FUZZ=ON, then each target (fuzz_mem, fuzz_uaccess,
#                   fuzz_tunables, fuzz_encode) for a fixed number of executions
#                   over its seed corpus and over its regression inputs
#                   (tests/fuzz/regress/<target>/); skipped (77) without clang-19 or
#                   libFuzzer (libclang-rt-19-dev)
#   fuzz.selftest   scripts/fuzz.sh --self-test: the harnesses can fail.  Gate
#                   (deterministic): each committed input
#                   tests/fuzz/regress/<target>/planted-* must be a finding with the
#                   target's planted bug (FUZZ_PLANT=1) and pass without it;
#                   fuzz_uaccess must count a page mapped into a hole on purpose
#                   (FUZZ_UACCESS_REFILL) instead of judging the input.  Then a
#                   bounded search from the seeds with FUZZ_PLANT=1, printed as
#                   information only (random: a miss never fails the test)
#
# In the fuzz build itself (ALTMEM_FUZZ=ON) this file builds the harnesses instead
# (tests/fuzz/CMakeLists.txt); that build is ALTMEM_NESTED, so it registers neither
# test.  Run just these: ctest -L fuzz
option(ALTMEM_FUZZ "Build the libFuzzer harnesses (clang; scripts/fuzz.sh)" OFF)
mark_as_advanced(ALTMEM_FUZZ)
if(ALTMEM_FUZZ)
  add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/fuzz ${CMAKE_CURRENT_BINARY_DIR}/fuzz-targets)
  return()
endif()
if(ALTMEM_NESTED OR ALTMEM_FREESTANDING OR CMAKE_CROSSCOMPILING)
  return()
endif()
add_test(NAME fuzz.smoke
         COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/fuzz.sh --smoke ${CMAKE_BINARY_DIR}/fuzz)
add_test(NAME fuzz.selftest
         COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/fuzz.sh --self-test ${CMAKE_BINARY_DIR}/fuzz)
# Both build the same directory: selftest after smoke, never at the same time.
set_tests_properties(fuzz.selftest PROPERTIES DEPENDS fuzz.smoke RESOURCE_LOCK altmem_fuzz_build)
set_tests_properties(fuzz.smoke PROPERTIES RESOURCE_LOCK altmem_fuzz_build)
set_tests_properties(fuzz.smoke fuzz.selftest PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77 TIMEOUT 900
                     PROCESSORS 2)
