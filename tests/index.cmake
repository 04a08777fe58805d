# `altmem index` and `altmem compare` (tools/index.c, tools/compare.c; docs/index.md).
# Label: index (ctest -L index).
#
#   index.stats            the signed-rank statistics both report on (bench/stats.c), against
#                          the published critical values (n = 6..20), exact p-values and the edges
#   index.quick            `altmem index --quick` at 1 and 2 copies: CSV, JSON and text checked
#                          (tests/test_index.sh: every test x implementation x copies, index =
#                          100 x result / baseline, score = geometric mean, the seed's layout)
#   index.rejects_*        negative controls: damaged copies of that output must fail the check
#   index.options          bad options: one line, exit 2; help index = index --help
#   index.emulated         cross builds only: the quick run under qemu-user, checked the same
#                          way, must say that emulated timings are not speed
#   compare.*              tests/test_compare.sh on tests/compare_helper.c, a program that
#                          logs which arm ran it.  The statistics are checked on wall times
#                          given through compare's testing hook (ALTMEM_COMPARE_TEST_DURATIONS),
#                          never on measured ones, which load can turn: a 5% slower and a 5%
#                          faster altmem arm, an A/A pattern, a shifted A/A pattern, --cmd-b
#                          and 3 vs 6 pairs, each with the exact verdict, estimate, interval
#                          and p computed in the script; the real runs' ABBA order; a failing
#                          run left out; the hook's bad input and its AT_SECURE refusal;
#                          stdin, stdout, stderr, environment of each arm, exit statuses, bad
#                          options; one real-clock smoke test of the report's structure only
#   compare.adaptive_*     the adaptive mode (--until, --max-pairs) on seeded lognormal times,
#                          its stopping rule computed in the script: a 5% slower and faster
#                          altmem found at the rule's look, a width stop, a --max-pairs stop,
#                          each with the exact figures at level 0.05/K and the real runs in
#                          ABBA order; 200 A/A sets stopping with a verdict of difference at
#                          most at the documented 5% rate (plus a binomial margin), 200 sets
#                          5% apart found in 90% at least; bad option values
#   compare.rejects_*      negative controls: the checks above on wrong data (equal arms, the
#                          other direction, +10%, the cut a rank off, ABAB order, a shifted
#                          A/A, equal --cmd-b arms; the look off by one, equal arms under the
#                          adaptive check, alpha not split over the looks) must fail, with
#                          the right check's message
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

add_executable(test_stats test_stats.c)
target_link_libraries(test_stats PRIVATE altmem_benchlib m)
add_test(NAME index.stats COMMAND test_stats)
set_tests_properties(index.stats PROPERTIES LABELS index TIMEOUT 30)

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
  foreach(_case detect_slower detect_faster cmd_b aa aa_shifted few_pairs failing_run io output_differs env status
                smoke hook_errors hook_secure rejects_equal rejects_direction rejects_ratio rejects_interval
                rejects_order rejects_aa rejects_cmd_b
                adaptive_slower adaptive_faster adaptive_width adaptive_max adaptive_aa_rate adaptive_power
                adaptive_options rejects_adaptive_look rejects_adaptive_equal rejects_adaptive_unsplit)
    if(ALTMEM_SANITIZE AND NOT _case MATCHES "^(aa|aa_shifted|rejects_aa|cmd_b|rejects_cmd_b|status|hook_errors|hook_secure|adaptive_width|adaptive_aa_rate|adaptive_power|adaptive_options|rejects_adaptive_unsplit)$")
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
    # 77: hook_secure without root or setpriv
    set_tests_properties(compare.${_case} PROPERTIES LABELS index TIMEOUT 60 SKIP_RETURN_CODE 77)
  endforeach()
endif()
