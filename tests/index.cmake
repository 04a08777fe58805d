# `altmem index` and `altmem compare` (tools/index.c, tools/compare.c; docs/index.md).
# Label: index (ctest -L index).
#
#   index.measure          the signed-rank statistics both report on, against the published
#                          critical values (n = 6..20), exact p-values and the edges
#   index.quick            `altmem index --quick` at 1 and 2 copies: CSV, JSON and text checked
#                          (tests/test_index.sh: every test x implementation x copies, index =
#                          100 x result / baseline, score = geometric mean, the seed's layout)
#   index.rejects_*        negative controls: damaged copies of that output must fail the check
#   index.options          bad options: one line, exit 2; help index = index --help
#   index.emulated         cross builds only: the quick run under qemu-user, checked the same
#                          way, must say that emulated timings are not speed
#   compare.*              tests/test_compare.sh on tests/compare_helper.c, a program that
#                          sleeps a known percentage longer in the altmem arm only:
#                          a 5% difference in 10 pairs detected both ways, with the true ratio
#                          inside the interval; an A/A run not distinguishable, and its negative
#                          control (the same pattern with a real shift) distinguishable; 3 pairs
#                          never distinguishable; --cmd-b (two programs, no preload) detects a
#                          20% slower arm B; a failing run reported and left out; stdin,
#                          stdout, stderr, environment of each arm, exit statuses, bad options
if(CMAKE_CROSSCOMPILING AND TARGET altmem_cli AND CMAKE_CROSSCOMPILING_EMULATOR)
  # The smoke test of the index on another architecture: under qemu-user it runs,
  # its output is well-formed, and it says its timings are not speed (loongarch64
  # has no C library in Debian 12, so no altmem executable to run: docs/index.md).
  add_test(NAME index.emulated
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_index.sh emulated ${CMAKE_CURRENT_BINARY_DIR}/index-emulated
                   ${CMAKE_CROSSCOMPILING_EMULATOR} $<TARGET_FILE:altmem_cli>)
  set_tests_properties(index.emulated PROPERTIES LABELS "index;cross" TIMEOUT 600)
endif()
if(CMAKE_CROSSCOMPILING OR NOT TARGET altmem_cli)
  return()
endif()

add_executable(test_measure test_measure.c ${PROJECT_SOURCE_DIR}/tools/measure.c)
target_include_directories(test_measure PRIVATE ${PROJECT_SOURCE_DIR}/tools)
target_link_libraries(test_measure PRIVATE altmem_benchlib m)
add_test(NAME index.measure COMMAND test_measure)
set_tests_properties(index.measure PROPERTIES LABELS index TIMEOUT 30)

set(_index_dir ${CMAKE_CURRENT_BINARY_DIR}/index-quick)
add_test(NAME index.quick COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_index.sh run $<TARGET_FILE:altmem_cli> ${_index_dir})
set_tests_properties(index.quick PROPERTIES LABELS index TIMEOUT 120 FIXTURES_SETUP altmem_index_out)
foreach(_damage missing_row zero index score header json text)
  add_test(NAME index.rejects_${_damage}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_index.sh check ${_index_dir} ${_damage})
  set_tests_properties(index.rejects_${_damage} PROPERTIES WILL_FAIL TRUE LABELS index TIMEOUT 30
                       FIXTURES_REQUIRED altmem_index_out)
endforeach()
add_test(NAME index.options COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_index.sh options $<TARGET_FILE:altmem_cli>)
set_tests_properties(index.options PROPERTIES LABELS index TIMEOUT 30)

if(TARGET altmem_preload)
  add_executable(compare_helper compare_helper.c)
  foreach(_case detect_slower detect_faster cmd_b aa aa_shifted few_pairs failing_run io output_differs env status)
    if(ALTMEM_SANITIZE AND NOT _case MATCHES "^(aa|cmd_b|status)$")
      # These run the altmem arm, which preloads libaltmem-preload.so: sanitized,
      # it needs the sanitizer runtime first in the program, which the helper
      # does not have (as the dropin tests; the plain build runs them).
      add_test(NAME compare.${_case} COMMAND sh -c "echo 'SKIPPED: sanitized build (ALTMEM_SANITIZE=${ALTMEM_SANITIZE}): a sanitized libaltmem-preload.so cannot be preloaded into a program without the sanitizer runtime; the plain build runs this test'; exit 77")
      set_tests_properties(compare.${_case} PROPERTIES LABELS index SKIP_RETURN_CODE 77)
      continue()
    endif()
    add_test(NAME compare.${_case}
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_compare.sh $<TARGET_FILE:altmem_cli>
                     $<TARGET_FILE:compare_helper> ${_case})
    set_tests_properties(compare.${_case} PROPERTIES LABELS index TIMEOUT 120)
  endforeach()
endif()
