# Correctness of every variant of memcpy, memmove and memset (and of the public
# entry points): test_<routine> checks, `test_<routine> --self-test` runs the
# same checker against broken implementations and fails unless each is caught.

# The reference loops in testlib.c must stay byte loops: without these the
# compiler may turn them into calls to the C library's memcpy/memset.
set(altmem_testlib_flags -fno-builtin)
if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
  list(APPEND altmem_testlib_flags -fno-tree-loop-distribute-patterns)
endif()
set_source_files_properties(testlib.c PROPERTIES COMPILE_OPTIONS "${altmem_testlib_flags}")

# The ranges: ALTMEM_TEST_SWEEP (tests/CMakeLists.txt).
set(_altmem_quick ${_altmem_sweep_arg})
foreach(routine memcpy memmove memset)
  altmem_test_exe(test_${routine} test_${routine}.c testlib.c)
  add_test(NAME ${routine}_variants COMMAND test_${routine} ${_altmem_quick})
  # The checker against broken implementations at the full ranges: in the main build
  # only.  In the nested ones (under qemu it was the slowest test of each suite:
  # riscv64 memmove_selftest 200 s) the --reduced one below proves that build of the
  # checker catches every planted bug.
  if(NOT ALTMEM_NESTED)
    add_test(NAME ${routine}_selftest COMMAND test_${routine} --self-test)
    set_tests_properties(${routine}_selftest PROPERTIES TIMEOUT 600 LABELS routines)
  endif()
  # --reduced (the CPU-model matrix) still catches the bugs at the boundaries it
  # claims, and the planted ones there (testlib.h).
  add_test(NAME ${routine}_selftest_reduced COMMAND test_${routine} --self-test --reduced)
  set_tests_properties(${routine}_variants ${routine}_selftest_reduced PROPERTIES TIMEOUT 600
                       LABELS routines)
endforeach()

# Every x86_64 variant copied into the static entry (src/arch/x86_64/copy.h),
# swept through altmem_<routine> itself: the copy's relocated branches and
# operands, its jump back, at every size class.  A variant this CPU cannot run is
# refused by the pin, and the entry holds the bound one's copy instead.
# Not in the sanitizer build: its instrumented variants open with a frame
# (push %rbp), which a copy never takes, so their entries keep the branch.
if(ALTMEM_BIND_MODE EQUAL 1 AND ALTMEM_ARCH STREQUAL "x86_64" AND NOT ALTMEM_SANITIZE)
  foreach(routine memcpy memmove memset)
    foreach(_w avx512 avx512_halves evex avx2 sse2 ual generic)
      if(_w STREQUAL "evex" AND NOT routine STREQUAL "memset")
        continue()
      endif()
      add_test(NAME entry_copied.${routine}.${_w} COMMAND test_${routine} --only altmem_${routine} ${_altmem_quick})
      set_tests_properties(entry_copied.${routine}.${_w} PROPERTIES LABELS "routines;alternatives" TIMEOUT 600
                           ENVIRONMENT "ALTMEM_TUNABLES=${routine}=${_w};ALTMEM_TEST_BOUND_BY=copied")
    endforeach()
  endforeach()
endif()

# The 32-byte memsets' path from their threshold test to the ret after their loop in
# two 64-byte lines, the loop in one (x86_vec_set.h, vset_loop_inline): a speed
# property of GCC's layout, measured with GCC 12 (docs/perf/intel-family6-model167.md,
# "Two callers"), so checked in the main build when it is GCC's Release build (the one
# measured; instrumented or other-optimised code is laid out otherwise), against objdump.
# The control moves each ret a line later and must fail for both.
if(ALTMEM_ARCH STREQUAL "x86_64" AND CMAKE_C_COMPILER_ID STREQUAL "GNU" AND CMAKE_BUILD_TYPE STREQUAL "Release"
   AND NOT ALTMEM_SANITIZE AND NOT ALTMEM_NESTED AND NOT CMAKE_CROSSCOMPILING AND TARGET altmem_shared)
  find_program(ALTMEM_OBJDUMP objdump)
  find_program(ALTMEM_PYTHON3 python3)
  if(ALTMEM_OBJDUMP AND ALTMEM_PYTHON3)
    add_test(NAME memset_loop_lines
             COMMAND ${ALTMEM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/check_memset_loop_lines.py $<TARGET_FILE:altmem_shared>)
    add_test(NAME memset_loop_lines_control
             COMMAND ${ALTMEM_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/check_memset_loop_lines.py $<TARGET_FILE:altmem_shared>
                     --control)
    set_tests_properties(memset_loop_lines memset_loop_lines_control PROPERTIES LABELS routines)
  endif()
endif()
