# copy_user / clear_user (issue 5; docs/uaccess.md).  Each test program checks every
# runnable variant, straight from the variant table, and the public entry points.
#
#   uaccess.holes        test_uaccess: the inaccessible page (PROT_NONE, unmapped,
#                        read-only destination) at every position relative to the
#                        buffers, both sides at once, wild pointers, large sizes,
#                        SIGBUS from a truncated file mapping: exact r, exact dst
#   uaccess.selftest     ... its checker against broken implementations
#
# Under an emulator (cross builds) --quick narrows the ranges.
# Run just these: ctest -L uaccess
set(_ua_quick "")
if(CMAKE_CROSSCOMPILING)
  set(_ua_quick --quick)
endif()
set(_ua_lib ${CMAKE_CURRENT_SOURCE_DIR}/uaccess/ua_lib.c)
# UndefinedBehaviorSanitizer builds (scripts/sanitize.sh) meet a known bug that
# plain builds do not show; see "Known bugs" below.
set(_ua_ubsan OFF)
if(ALTMEM_SANITIZE MATCHES "undefined")
  set(_ua_ubsan ON)
endif()

altmem_test_exe(test_uaccess test_uaccess.c ${_ua_lib})
if(_ua_ubsan)
  target_compile_definitions(test_uaccess PRIVATE UA_UBSAN=1)
endif()
add_test(NAME uaccess.holes COMMAND test_uaccess ${_ua_quick})
add_test(NAME uaccess.selftest COMMAND test_uaccess --self-test)
set_tests_properties(uaccess.holes uaccess.selftest PROPERTIES LABELS uaccess TIMEOUT 900)

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

find_package(Threads REQUIRED)
altmem_test_exe(test_uaccess_threads test_uaccess_threads.c ${_ua_lib})
target_link_libraries(test_uaccess_threads PRIVATE Threads::Threads)
foreach(_part first_use threads signal signal_nodefer altstack)
  add_test(NAME uaccess.${_part} COMMAND test_uaccess_threads ${_ua_quick} --part ${_part})
  set_tests_properties(uaccess.${_part} PROPERTIES LABELS uaccess TIMEOUT 600)
endforeach()
add_test(NAME uaccess.threads_selftest COMMAND test_uaccess_threads --self-test)
set_tests_properties(uaccess.threads_selftest PROPERTIES LABELS uaccess TIMEOUT 600)

# ---- Known bugs in src/ (found by these tests; docs/uaccess.md, "Known bugs") ------------
# Each runs a part or scenario that the default runs leave out because it fails today.
# WILL_FAIL: they pass while the bug is there.  When one starts to fail, the bug is
# fixed: delete its WILL_FAIL here and the part's "known bug" mark in the program.
#   known_bug_shrink_race    when the source shrinks during the call (another thread
#                            mprotects a page of it; another process truncates the
#                            file), a faulting copy_user can write past the prefix it
#                            reports: the fix-up restarts at byte 0 rather than where
#                            the fast path stopped, and may stop earlier than that
#   known_bug_ubsan_null     (UBSan builds) copy/clear with NULL, and with pointers like 1
#   known_bug_ubsan_wild     or the last page: the variants and the fix-up do C pointer
#                            arithmetic on the caller's bad pointers (NULL + i, 1 - 1,
#                            past the end of the address space), undefined behaviour
#                            that UBSan reports
# Fixed since, and now ordinary tests: copy from NULL (uaccess.holes, part null_src),
# the missing SA_NODEFER (uaccess.signal_nodefer), the handler's function type under
# UBSan (uaccess.chain_chain_to_us).
add_test(NAME uaccess.known_bug_shrink_race COMMAND test_uaccess_threads ${_ua_quick} --part shrink_race)
set(_ua_bugs uaccess.known_bug_shrink_race)
if(_ua_ubsan)
  add_test(NAME uaccess.known_bug_ubsan_null COMMAND test_uaccess --part null_dst)
  add_test(NAME uaccess.known_bug_ubsan_null_src COMMAND test_uaccess --part null_src)
  list(APPEND _ua_bugs uaccess.known_bug_ubsan_null_src)
  add_test(NAME uaccess.known_bug_ubsan_wild COMMAND test_uaccess --part wild)
  list(APPEND _ua_bugs uaccess.known_bug_ubsan_null uaccess.known_bug_ubsan_wild)
endif()
set_tests_properties(${_ua_bugs} PROPERTIES LABELS "uaccess;known-bug" WILL_FAIL TRUE TIMEOUT 300)

# The overhead benchmark runs (bench/uaccess, docs/uaccess.md); its timings are not
# asserted, but --fault checks that every faulting call returned r == 1.
if(TARGET altmem_uaccess_bench)
  add_test(NAME uaccess.bench_smoke COMMAND altmem_uaccess_bench --quick --reps 1 --sample-us 5)
  add_test(NAME uaccess.bench_fault COMMAND altmem_uaccess_bench --fault --quick)
  set_tests_properties(uaccess.bench_smoke uaccess.bench_fault PROPERTIES LABELS "uaccess;bench" TIMEOUT 300)
endif()
