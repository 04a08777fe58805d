# copy_user / clear_user (issue 5; docs/uaccess.md).  Each test program checks every
# runnable variant, straight from the variant table, and the public entry points.
#
#   uaccess.holes        test_uaccess: the inaccessible page (PROT_NONE, unmapped,
#                        read-only destination) at every position relative to the
#                        buffers, both sides at once, wild pointers, large sizes,
#                        SIGBUS from a truncated file mapping: exact r, exact dst
#   uaccess.selftest     ... its checker against broken implementations
#   uaccess.selftest_reduced  ... at the --reduced ranges, planted boundary bugs too
#   uaccess.holes_nt     ... with the non-temporal threshold at 0 (streaming loops)
#   uaccess.holes_nt_split  ... the 64-byte copy_user handing its streaming to the
#                        32-byte variant (src and dst apart mod 64; amd-zen5)
#
# The ranges follow ALTMEM_TEST_SWEEP (tests/CMakeLists.txt).
# Run just these: ctest -L uaccess
set(_ua_quick "")
# The hole sweeps: ALTMEM_TEST_SWEEP (tests/CMakeLists.txt); --reduced still hits
# every fault position class (the boundaries it claims).  The threads parts take
# --quick wherever the sweeps are not full.
set(_ua_holes ${_altmem_sweep_arg})
if(NOT ALTMEM_TEST_SWEEP STREQUAL "full")
  set(_ua_quick --quick)
endif()
set(_ua_lib ${CMAKE_CURRENT_SOURCE_DIR}/uaccess/ua_lib.c)
# UndefinedBehaviorSanitizer builds (scripts/sanitize.sh) also run the parts with
# NULL and wild pointers on their own (see "Known bugs" below).
set(_ua_ubsan OFF)
if(ALTMEM_SANITIZE MATCHES "undefined")
  set(_ua_ubsan ON)
endif()

altmem_test_exe(test_uaccess test_uaccess.c ${_ua_lib})
add_test(NAME uaccess.holes COMMAND test_uaccess ${_ua_holes})
add_test(NAME uaccess.selftest COMMAND test_uaccess --self-test)
# ... and at the --reduced ranges (the CPU-model matrix), with bugs planted at the
# fault points those claim.
add_test(NAME uaccess.selftest_reduced COMMAND test_uaccess --self-test --reduced)
# The same with non-temporal stores from 0 bytes: every size that reaches a loop
# streams (the default threshold is above every size of uaccess.holes).
# holes_nt with the 64-byte variant's own streaming loop, holes_nt_split with its
# hand-over to the 32-byte variant, whichever this CPU's rules choose.
add_test(NAME uaccess.holes_nt COMMAND test_uaccess ${_ua_holes} --nt 0 --split-streaming 0)
add_test(NAME uaccess.holes_nt_split COMMAND test_uaccess ${_ua_holes} --nt 0 --split-streaming 1)
set_tests_properties(uaccess.holes uaccess.selftest uaccess.selftest_reduced uaccess.holes_nt uaccess.holes_nt_split
                     PROPERTIES LABELS uaccess TIMEOUT 900)

# One process per scenario: altmem installs its handler once per process.
altmem_test_exe(test_uaccess_chain test_uaccess_chain.c ${_ua_lib})
set(_ua_chain lazy siginfo_before handler_before resethand no_handler kill_ign kill_dfl kill_handler
              replace_after blocked_limit chain_to_us)
foreach(_sc IN LISTS _ua_chain)
  add_test(NAME uaccess.chain_${_sc} COMMAND test_uaccess_chain ${_sc})
  list(APPEND _ua_tests uaccess.chain_${_sc})
endforeach()
add_test(NAME uaccess.chain_selftest COMMAND test_uaccess_chain --self-test)
set_tests_properties(${_ua_tests} uaccess.chain_selftest PROPERTIES LABELS uaccess TIMEOUT 300
                     SKIP_RETURN_CODE 77)

# The fix-up after a store that faulted part-way through, the state a race leaves
# made by hand (uaccess.shrink_race finds it only by racing); its self-test runs the
# same cases without the kept fault address, and the three that need it must fail.
altmem_test_exe(test_uaccess_partial test_uaccess_partial.c)
add_test(NAME uaccess.partial_store COMMAND test_uaccess_partial)
add_test(NAME uaccess.partial_store_selftest COMMAND test_uaccess_partial --self-test)
set_tests_properties(uaccess.partial_store uaccess.partial_store_selftest PROPERTIES LABELS uaccess TIMEOUT 120)

# The register decoding of a faulting FEAT_MOPS sequence (option A and option B
# formats made by hand; qemu implements only option A), on any host.
altmem_test_exe(test_uaccess_mops test_uaccess_mops.c)
add_test(NAME uaccess.mops_decode COMMAND test_uaccess_mops)
add_test(NAME uaccess.mops_decode_selftest COMMAND test_uaccess_mops --self-test)
set_tests_properties(uaccess.mops_decode uaccess.mops_decode_selftest PROPERTIES LABELS uaccess TIMEOUT 120)

find_package(Threads REQUIRED)
altmem_test_exe(test_uaccess_threads test_uaccess_threads.c ${_ua_lib})
target_link_libraries(test_uaccess_threads PRIVATE Threads::Threads)
foreach(_part first_use threads signal signal_nodefer altstack shrink_race)
  add_test(NAME uaccess.${_part} COMMAND test_uaccess_threads ${_ua_quick} --part ${_part})
  set_tests_properties(uaccess.${_part} PROPERTIES LABELS uaccess TIMEOUT 600)
endforeach()
add_test(NAME uaccess.threads_selftest COMMAND test_uaccess_threads --self-test)
set_tests_properties(uaccess.threads_selftest PROPERTIES LABELS uaccess TIMEOUT 600)

# ---- Known bugs in src/ (found by these tests; docs/uaccess.md, "Known bugs") ------------
# None open.  A known bug gets a test here that runs the failing part or scenario
# with WILL_FAIL and LABELS "uaccess;known-bug"; when it starts to fail, the bug is
# fixed: make it an ordinary test.
# Fixed since, and now ordinary tests: copy from NULL (uaccess.holes, part null_src),
# the missing SA_NODEFER (uaccess.signal_nodefer), the handler's function type under
# UBSan (uaccess.chain_chain_to_us), writes past the reported prefix when the source
# (destination) shrinks during the call (uaccess.shrink_race: the fix-up resumes from
# the fast path's progress; its self-test keeps the old restart-from-0 fix-up as a
# negative control), UBSan's reports of pointer arithmetic on NULL and wild pointers
# (uaccess.holes; in UBSan builds also uaccess.ubsan_null_dst, _null_src, _wild).
if(_ua_ubsan)
  foreach(_part null_dst null_src wild)
    add_test(NAME uaccess.ubsan_${_part} COMMAND test_uaccess --part ${_part})
    set_tests_properties(uaccess.ubsan_${_part} PROPERTIES LABELS uaccess TIMEOUT 300)
  endforeach()
endif()

# The overhead benchmark runs (bench/uaccess, docs/uaccess.md); its timings are not
# asserted, but --fault checks that every faulting call returned r == 1.
if(TARGET altmem_uaccess_bench)
  add_test(NAME uaccess.bench_smoke COMMAND altmem_uaccess_bench --quick --reps 1 --sample-us 5)
  add_test(NAME uaccess.bench_fault COMMAND altmem_uaccess_bench --fault --quick)
  set_tests_properties(uaccess.bench_smoke uaccess.bench_fault PROPERTIES LABELS "uaccess;bench" TIMEOUT 300)
endif()

# uaccess.ops_progress_W  test_ops_progress: every size class of src/ops/ under the
#                         recording access operation, at every size, dst offset and
#                         fault point: exact coverage, no access after a fault,
#                         progress = the prefix stored (vectors of 16 and 64 bytes;
#                         _block16: the ual variants' two-word block)
# uaccess.ops_progress_selftest  ... its check fails on a class with a wrong progress
foreach(_w 16 64)
  altmem_test_exe(test_ops_progress_${_w} test_ops_progress.c)
  target_compile_definitions(test_ops_progress_${_w} PRIVATE TEST_W=${_w})
  add_test(NAME uaccess.ops_progress_${_w} COMMAND test_ops_progress_${_w})
  set_tests_properties(uaccess.ops_progress_${_w} PROPERTIES LABELS uaccess)
endforeach()
altmem_test_exe(test_ops_progress_block16 test_ops_progress.c)
target_compile_definitions(test_ops_progress_block16 PRIVATE TEST_W=16 TEST_BLOCK16=1)
add_test(NAME uaccess.ops_progress_block16 COMMAND test_ops_progress_block16)
set_tests_properties(uaccess.ops_progress_block16 PROPERTIES LABELS uaccess)
add_test(NAME uaccess.ops_progress_selftest COMMAND test_ops_progress_16 --self-test)
set_tests_properties(uaccess.ops_progress_selftest PROPERTIES LABELS uaccess)

# uaccess.extable_search   test_uaccess_extable: the exception table's sort and binary
#                          search (src/uaccess/handler.c) on synthetic tables of up to
#                          10 003 PC-relative entries (duplicates, adjacent, gaps,
#                          sorted, reversed, far apart), decoded and sorted, and this
#                          program's real table against a linear search;
#                          prints the table's size and its sort's cost
# uaccess.extable_search_selftest  ... its checker must find misses on unsorted tables
altmem_test_exe(test_uaccess_extable test_uaccess_extable.c)
add_test(NAME uaccess.extable_search COMMAND test_uaccess_extable)
add_test(NAME uaccess.extable_search_selftest COMMAND test_uaccess_extable --self-test)
set_tests_properties(uaccess.extable_search uaccess.extable_search_selftest PROPERTIES LABELS uaccess TIMEOUT 120)
