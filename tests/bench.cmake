# `altmem bench` smoke test (docs/performance.md).
#
# bench_scalar_effect runs `altmem bench --scalar-effect` for one short round.
#
# bench_no_progress_in_logs and bench_progress_on_terminal: the progress line on
# stderr is there on a terminal only.
#
# bench_quick_csv runs `altmem bench --quick --csv <file>` and checks the CSV
# with bench/check_csv.cmake: exact header, 18 fields a row, positive numbers
# with min <= median <= max, and every runnable variant (as `altmem info`
# lists them), the byte loop and libc in every cell.  The bench also exits
# non-zero if any implementation returned a wrong result.
#
# The bench_csv_rejects_* tests feed the same checker damaged copies of that
# CSV and must fail (WILL_FAIL): they show the check can fail.  They need the
# CSV from bench_quick_csv (a fixture); if damaging is impossible the script
# exits 0, which WILL_FAIL reports as a failure, never as a pass.
if(TARGET altmem_cli)
  set(_bench_csv ${CMAKE_CURRENT_BINARY_DIR}/bench_quick.csv)
  set(_bench_check ${PROJECT_SOURCE_DIR}/bench/check_csv.cmake)
  add_test(NAME bench_quick_csv
           COMMAND ${CMAKE_COMMAND} -DALTMEM=$<TARGET_FILE:altmem_cli> -DCSV=${_bench_csv} -DRUN=1
                   -DJSON=${CMAKE_CURRENT_BINARY_DIR}/bench_quick.json -P ${_bench_check})
  # Under sanitizers the quick run takes seconds rather than a fraction of one.
  set_tests_properties(bench_quick_csv PROPERTIES FIXTURES_SETUP altmem_bench_csv TIMEOUT 300
                       LABELS bench)
  foreach(_damage truncated truncated_rows grid_only empty zero text minmax header missing_impl missing_control)
    add_test(NAME bench_csv_rejects_${_damage}
             COMMAND ${CMAKE_COMMAND} -DALTMEM=$<TARGET_FILE:altmem_cli> -DCSV=${_bench_csv}
                     -DMANGLE=${_damage} -P ${_bench_check})
    set_tests_properties(bench_csv_rejects_${_damage} PROPERTIES WILL_FAIL TRUE
                         FIXTURES_REQUIRED altmem_bench_csv LABELS bench)
  endforeach()
  add_test(NAME bench_csv_rejects_missing_file
           COMMAND ${CMAKE_COMMAND} -DALTMEM=$<TARGET_FILE:altmem_cli>
                   -DCSV=${CMAKE_CURRENT_BINARY_DIR}/bench_no_such_file.csv -P ${_bench_check})
  set_tests_properties(bench_csv_rejects_missing_file PROPERTIES WILL_FAIL TRUE LABELS bench)
  # Bad options: a one-line error, the usage, exit status 2.
  add_test(NAME bench_bad_option
           COMMAND sh -c "out=$($ALTMEM_TEST_EMULATOR \"$0\" bench --no-such-option 2>&1); rc=$?; echo \"$out\"; [ $rc -eq 2 ] &&
                          echo \"$out\" | head -n 1 | grep -q '^altmem bench: unknown option' &&
                          echo \"$out\" | grep -q '^usage: altmem bench'"
                   $<TARGET_FILE:altmem_cli>)
  set_tests_properties(bench_bad_option PROPERTIES LABELS bench)
  # --caller discard: the hot cells from a loop that drops each result (the bench
  # still checks every result first and exits non-zero on a wrong one); the header
  # says so; a bad value is one line and exit status 2.
  add_test(NAME bench_caller_discard
           COMMAND sh -c "out=$($ALTMEM_TEST_EMULATOR \"$0\" bench --caller discard --routine memcpy,memmove,memset --sizes 0,7,300,5000 --align all --impl all --reps 1 --min-sample-ms 0.01 --processes 1 2>&1) || { echo \"$out\"; exit 1; }; echo \"$out\";
                          echo \"$out\" | grep -q '^method: .*results unused (--caller discard)' &&
                          echo \"$out\" | grep -q '^  5000 B d+63 ' &&
                          ! $ALTMEM_TEST_EMULATOR \"$0\" bench --sizes 64 --reps 1 --min-sample-ms 0.01 --processes 1 2>&1 | grep -q 'results unused' &&
                          err=$($ALTMEM_TEST_EMULATOR \"$0\" bench --caller sometimes 2>&1 >/dev/null); rc=$?; [ $rc -eq 2 ] &&
                          echo \"$err\" | head -n 1 | grep -q \"^altmem bench: bad --caller 'sometimes' (use, discard)\""
                   $<TARGET_FILE:altmem_cli>)
  set_tests_properties(bench_caller_discard PROPERTIES LABELS bench)
  # The 64-byte-distance overlaps (issue 29): every memmove variant, both directions,
  # sizes around the distance; the bench checks each result and exits non-zero on a
  # wrong one.  Not in the default grid: a run without --align has no such row.
  add_test(NAME bench_overlap64
           COMMAND sh -c "out=$($ALTMEM_TEST_EMULATOR \"$0\" bench --routine memmove --align ovl64-bwd,ovl64-fwd --sizes 1,63,64,65,200,4K,70K --impl all --reps 1 --min-sample-ms 0.01 --processes 1 2>&1) || { echo \"$out\"; exit 1; }; echo \"$out\";
                          echo \"$out\" | grep -q '^    65 B d=s+64 ' && echo \"$out\" | grep -q '^  70 KiB s=d+64 ' &&
                          ! $ALTMEM_TEST_EMULATOR \"$0\" bench --routine memmove --sizes 64 --reps 1 --min-sample-ms 0.01 --processes 1 2>&1 | grep -q 'd=s+64 '"
                   $<TARGET_FILE:altmem_cli>)
  set_tests_properties(bench_overlap64 PROPERTIES LABELS bench)
  # --scalar-effect: one short round runs every memcpy variant and prints its table;
  # a bad value is refused with exit status 2.
  add_test(NAME bench_scalar_effect
           COMMAND sh -c "out=$($ALTMEM_TEST_EMULATOR \"$0\" bench --scalar-effect --sizes 4K --sample-ms 0.2 --reps 1 --work 256 2>&1) || exit 1; echo \"$out\";
                          echo \"$out\" | grep -q '^4 KiB .*| *glibc' || echo \"$out\" | grep -q '^4 KiB ' &&
                          echo \"$out\" | grep -q '^worst altmem variant: ' &&
                          { $ALTMEM_TEST_EMULATOR \"$0\" bench --scalar-effect --reps 0 >/dev/null 2>&1; [ $? -eq 2 ]; }"
                   $<TARGET_FILE:altmem_cli>)
  set_tests_properties(bench_scalar_effect PROPERTIES LABELS bench TIMEOUT 300)
  # Progress goes to stderr only when it is a terminal: none in a log (stderr a
  # pipe), a line per cell under a pseudo-terminal (script(1); skipped without it).
  set(_bench_tiny "bench --routine memcpy --sizes 64 --align 0/0 --reps 1 --min-sample-ms 0.01 --impl bound")
  add_test(NAME bench_no_progress_in_logs
           COMMAND sh -c "err=$($ALTMEM_TEST_EMULATOR \"$0\" ${_bench_tiny} 2>&1 >/dev/null) || exit 1;
                          [ -z \"$err\" ] || { echo \"stderr not empty: $err\"; exit 1; }"
                   $<TARGET_FILE:altmem_cli>)
  set_tests_properties(bench_no_progress_in_logs PROPERTIES LABELS bench)
  add_test(NAME bench_progress_on_terminal
           COMMAND sh -c "command -v script >/dev/null || { echo 'no script(1)'; exit 77; }
                          out=$(script -qec \"$ALTMEM_TEST_EMULATOR '$0' ${_bench_tiny} >/dev/null\" /dev/null) || exit 1;
                          echo \"$out\" | grep -q 'altmem bench: memcpy hot 64 B 0/0' || { echo \"no progress: $out\"; exit 1; }"
                   $<TARGET_FILE:altmem_cli>)
  set_tests_properties(bench_progress_on_terminal PROPERTIES LABELS bench SKIP_RETURN_CODE 77)
  # A bench started through an explicit loader (LIB/ld-linux-*.so --library-path LIB
  # PROG: how another glibc is run) must start its processes the same way; started
  # as /proc/self/exe alone, the loader would take "altmem" for the program to load.
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR AND NOT ALTMEM_MUSL AND TARGET altmem_shared)
    add_test(NAME bench_through_loader
             COMMAND sh -c "loader=$(ldd \"$0\" | awk '/ld-linux|ld64/ { print ($3 ~ /^\\//) ? $3 : $1 }' | head -n 1);
                            [ -x \"$loader\" ] || { echo \"no dynamic loader found: $loader\"; exit 77; }
                            out=$(\"$loader\" --library-path \"$1\" \"$0\" bench --routine memcpy --sizes 64 --align 0/0 --reps 2 --min-sample-ms 0.01 --processes 2 2>&1) || { echo \"$out\"; exit 1; }; echo \"$out\";
                            echo \"$out\" | grep -q '^method: *2 fresh processes' &&
                            echo \"$out\" | grep -q '^ *64 B 0/0 ' &&
                            echo \"$out\" | grep -q '^control: '"
                     $<TARGET_FILE:altmem_cli> $<TARGET_FILE_DIR:altmem_shared>)
    set_tests_properties(bench_through_loader PROPERTIES LABELS bench TIMEOUT 120 SKIP_RETURN_CODE 77)
  endif()
  # --load: the load processes run during the measurement (the header says where) and
  # are gone when the bench is (they were killed and reaped before it exited; the
  # check polls for 2 s all the same, and shows what it found).
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
    add_test(NAME bench_load
             COMMAND sh -c "out=$(\"$0\" bench --load --routine memset --sizes 64 --align 0/0 --reps 2 --min-sample-ms 0.01 --processes 2 2>&1); rc=$?; echo \"$out\"; [ $rc = 0 ] || { echo \"exit status $rc\"; exit 1; };
                            echo \"$out\" | grep -Eq '^memload: +(memset then memcpy of [0-9]+ MiB, over and over, on CPU [0-9,]+ [(]--load[)]|no load: no CPU allowed besides)' || { echo 'no memload line'; exit 1; };
                            for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
                              left=$(pgrep -f -- \"^$0 bench --load --routine memset --sizes 64\") || exit 0; sleep 0.1;
                            done;
                            echo \"load processes left: $left\"; ps -o pid,ppid,stat,args -p \"$(echo $left | tr ' ' ,)\"; exit 1"
                     $<TARGET_FILE:altmem_cli>)
    set_tests_properties(bench_load PROPERTIES LABELS bench TIMEOUT 120)
  endif()
  # altmem-alone (two settings, each alone in processes of its own): a bad option is
  # one line and exit status 2; a tiny run prints one row per size with positive rates.
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR AND TARGET altmem_alone)
    add_test(NAME bench_alone
             COMMAND sh -c "out=$(\"$0\" --routine memset --sizes 64K,1M --a memset_nt_threshold=never --b memset_nt_threshold=0 --pairs 2 --calls 3 2>&1) || { echo \"$out\"; exit 1; }; echo \"$out\";
                            echo \"$out\" | grep -q '^B: ALTMEM_TUNABLES=memset_nt_threshold=0$' &&
                            echo \"$out\" | grep -Eq '^ +64K [|] +[0-9.]+ +[0-9.]+ [|] +[0-9.]+ ' &&
                            echo \"$out\" | grep -Eq '^ +1M [|] +[0-9.]+ +[0-9.]+ [|] +[0-9.]+ ' || exit 1;
                            err=$(\"$0\" --routine memset --sizes 64Q --a x --b y 2>&1); rc=$?; echo \"$err\";
                            [ $rc -eq 2 ] && [ $(echo \"$err\" | wc -l) -eq 1 ] && echo \"$err\" | grep -q '^altmem-alone: bad size'"
                     $<TARGET_FILE:altmem_alone>)
    set_tests_properties(bench_alone PROPERTIES LABELS bench TIMEOUT 120)
  endif()
  # altmem-ring: a row per block size with five positive figures; a bad size is one
  # line and exit status 2.
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR AND TARGET altmem_ring)
    add_test(NAME bench_ring
             COMMAND sh -c "out=$(\"$0\" \"$0\" 4K 64K 2>&1) || { echo \"$out\"; exit 1; }; echo \"$out\";
                            echo \"$out\" | grep -Eq '^ +4K [|]( +[0-9]+[.][0-9]+){3} [|]( +[0-9]+[.][0-9]+){2}$' &&
                            echo \"$out\" | grep -Eq '^ +64K [|]( +[0-9]+[.][0-9]+){3} [|]( +[0-9]+[.][0-9]+){2}$' || exit 1;
                            err=$(\"$0\" \"$0\" 4Q 2>&1); rc=$?; echo \"$err\";
                            [ $rc -eq 2 ] && echo \"$err\" | tail -n 1 | grep -q '^altmem-ring: bad block size'"
                     $<TARGET_FILE:altmem_ring>)
    set_tests_properties(bench_ring PROPERTIES LABELS bench TIMEOUT 120)
  endif()
  # altmem-pagecross: one line per size with both times; a bad size is one line, exit 2.
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR AND TARGET altmem_pagecross)
    add_test(NAME bench_pagecross
             COMMAND sh -c "out=$(\"$0\" memmove 4090 -100 600 4100 2>&1) || { echo \"$out\"; exit 1; }; echo \"$out\";
                            [ $(echo \"$out\" | grep -Ec '^n= +(600|4100)  end at page offset +[0-9]+:  C library +[0-9.]+ ns  altmem +[0-9.]+ ns$') -eq 2 ] || exit 1;
                            err=$(\"$0\" memset 3 0 0 2>&1); rc=$?; echo \"$err\";
                            [ $rc -eq 2 ] && [ $(echo \"$err\" | wc -l) -eq 1 ] && echo \"$err\" | grep -q '^altmem-pagecross: bad size'"
                     $<TARGET_FILE:altmem_pagecross>)
    set_tests_properties(bench_pagecross PROPERTIES LABELS bench TIMEOUT 120)
  endif()
  # altmem-untouched: a line per routine, implementation and size (the C library,
  # the entry and every runnable variant, generic among them); a bad size is one line, exit 2.
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR AND TARGET altmem_untouched)
    add_test(NAME bench_untouched
             COMMAND sh -c "out=$(\"$0\" 0 8 2>&1) || { echo \"$out\"; exit 1; }; echo \"$out\";
                            [ $(echo \"$out\" | grep -Ec '^(memcpy|memmove|memset) +C library +n=(0|8) +untouched +[0-9.]+ ns   written +[0-9.]+ ns +[0-9.]+x$') -eq 6 ] || exit 1;
                            [ $(echo \"$out\" | grep -Ec '^(memcpy|memmove|memset) +generic +n=(0|8) +untouched') -eq 6 ] || exit 1;
                            err=$(\"$0\" 0 4033 2>&1); rc=$?; echo \"$err\";
                            [ $rc -eq 2 ] && [ $(echo \"$err\" | wc -l) -eq 1 ] && echo \"$err\" | grep -q '^altmem-untouched: bad size'"
                     $<TARGET_FILE:altmem_untouched>)
    set_tests_properties(bench_untouched PROPERTIES LABELS bench TIMEOUT 120)
  endif()
  # altmem-twolibs: the same library as A and B, a line per size with a ratio per
  # variant; a bad layout is one line, exit 2.
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR AND TARGET altmem_twolibs)
    add_test(NAME bench_twolibs
             COMMAND sh -c "out=$(\"$0\" \"$1\" \"$1\" memset d+3 64,300 2>&1) || { echo \"$out\"; exit 1; }; echo \"$out\";
                            [ $(echo \"$out\" | grep -Ec '^ +(64|300)( +[0-9]+[.][0-9]+)+ +( [0-9]+[.][0-9]+)+$') -eq 2 ] || exit 1;
                            echo \"$out\" | head -n 1 | grep -q 'generic[.]A .*generic[.]B .*libc' || exit 1;
                            cu=$(\"$0\" \"$1\" \"$1\" copy_user s+1/d+3 100 generic 2>&1) || { echo \"$cu\"; exit 1; }; echo \"$cu\";
                            echo \"$cu\" | grep -Eq '^ +100( +[0-9]+[.][0-9]+){3} +[0-9]+[.][0-9]+$' || exit 1;
                            err=$(\"$0\" \"$1\" \"$1\" memcpy ovl-bwd 64 2>&1); rc=$?; echo \"$err\";
                            [ $rc -eq 2 ] && [ $(echo \"$err\" | wc -l) -eq 1 ] && echo \"$err\" | grep -q '^altmem-twolibs: bad layout'"
                     $<TARGET_FILE:altmem_twolibs> $<TARGET_FILE:altmem_shared>)
    set_tests_properties(bench_twolibs PROPERTIES LABELS bench TIMEOUT 120)
  endif()
  # scripts/newer-glibc.sh: another Debian release's glibc to measure against; needs
  # the archive once (skipped with the reason where it cannot be reached), then its
  # cache in the build tree.
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR AND NOT ALTMEM_MUSL AND TARGET altmem_shared)
    add_test(NAME bench_newer_glibc
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_newer_glibc.sh ${PROJECT_SOURCE_DIR}/scripts/newer-glibc.sh
                     $<TARGET_FILE:altmem_cli> $<TARGET_FILE_DIR:altmem_shared> ${CMAKE_BINARY_DIR}/glibc-cache)
    set_tests_properties(bench_newer_glibc PROPERTIES LABELS bench TIMEOUT 300 SKIP_RETURN_CODE 77
                         RESOURCE_LOCK altmem_glibc_cache)
  endif()
  # scripts/aocl-libmem.sh (AMD's library as a reference): its refusals, and the
  # bench's libc line naming a preloaded library (libaltmem-preload.so stands in).
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR AND NOT ALTMEM_MUSL AND TARGET altmem_preload)
    add_test(NAME bench_aocl_script
             COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_aocl_script.sh ${PROJECT_SOURCE_DIR}/scripts/aocl-libmem.sh
                     ${CMAKE_BINARY_DIR} $<TARGET_FILE:altmem_preload>)
    set_tests_properties(bench_aocl_script PROPERTIES LABELS bench TIMEOUT 120)
  endif()
  # --libc-width (native x86_64 glibc): the sse2 width always exists; its run must
  # name glibc's sse2 variant of each routine as the one that ran, and time altmem's
  # sse2 variant; a width no CPU has is refused with exit status 2.
  if(ALTMEM_ARCH STREQUAL "x86_64" AND NOT CMAKE_CROSSCOMPILING_EMULATOR AND NOT ALTMEM_MUSL)
    add_test(NAME bench_libc_width
             COMMAND sh -c "out=$(\"$0\" bench --libc-width sse2 --sizes 64 --align 0/0 --reps 1 --min-sample-ms 0.01 2>&1) || { echo \"$out\"; exit 1; }; echo \"$out\";
                            echo \"$out\" | grep -q 'memcpy __memcpy_sse2_unaligned' &&
                            echo \"$out\" | grep -q 'memmove __memmove_sse2_unaligned' &&
                            echo \"$out\" | grep -q 'memset __memset_sse2_unaligned' &&
                            echo \"$out\" | grep -q '^  memcpy sse2 vs glibc 2.36 sse2' &&
                            { \"$0\" bench --libc-width avx3 >/dev/null 2>&1; [ $? -eq 2 ]; }"
                     $<TARGET_FILE:altmem_cli>)
    set_tests_properties(bench_libc_width PROPERTIES LABELS bench TIMEOUT 300)
  endif()
endif()

# altmem-dispatch (scripts/dispatch-cost.sh's driver) and altmem-callsite (the
# experiment of docs/performance.md): each prints what its readers parse, and
# altmem-callsite counts every round of both loops' tables.
if(TARGET altmem_dispatch AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME bench_dispatch_line
           COMMAND sh -c "line=$(\"$0\" --size 8 --calls 1000 --reps 3) || exit 1; echo \"$line\";
                          echo \"$line\" | grep -Eq '^bound_by=[a-z ]+ variant=[a-z0-9_]+ size=8 entry_ns=[0-9.]+ direct_ns=[0-9.]+ ratio=[0-9.]+ control=[0-9.]+ copies=[0-3]/[0-3]/[0-3]$' &&
                          echo \"$line\" | awk -F'copies=' '{ split($2, c, \"/\"); exit c[2] == c[3] }'"
                   $<TARGET_FILE:altmem_dispatch>)
  set_tests_properties(bench_dispatch_line PROPERTIES LABELS bench TIMEOUT 60)
endif()
# altmem-dispatch-cold (scripts/dispatch-cost.sh --cold): the line its reader parses,
# under both stub bindings, and the refusal of a variant the entry is not bound to.
if(TARGET altmem_dispatch_cold AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  set(cold_fields "entry=[0-9.]+ direct=[0-9.]+ pointer=[0-9.]+ control=[0-9.]+ entry-direct=-?[0-9.]+ \\[-?[0-9.]+\\.\\.-?[0-9.]+\\] pointer-direct=-?[0-9.]+ \\[-?[0-9.]+\\.\\.-?[0-9.]+\\] control-direct=-?[0-9.]+ \\[-?[0-9.]+\\.\\.-?[0-9.]+\\] tsc_ghz=[0-9.]+$")
  add_test(NAME bench_dispatch_cold
           COMMAND sh -c "line=$(ALTMEM_TUNABLES=memcpy=sse2 \"$0\" --variant sse2 --size 16 --samples 200) || exit 1; echo \"$line\";
                          echo \"$line\" | grep -Eq '^bound_by=(copied|patched branch|pointer) variant=sse2 routine=memcpy size=16 samples=200 ${cold_fields}' || exit 1;
                          line=$(ALTMEM_TUNABLES=memset=sse2:bind=pointer \"$0\" --routine memset --variant sse2 --samples 200) || exit 1; echo \"$line\";
                          echo \"$line\" | grep -Eq '^bound_by=pointer variant=sse2 routine=memset size=8 samples=200 ${cold_fields}' || exit 1;
                          { ALTMEM_TUNABLES=memcpy=sse2 \"$0\" --variant avx2 --samples 200 >/dev/null 2>&1; [ $? -eq 2 ]; }"
                   $<TARGET_FILE:altmem_dispatch_cold>)
  set_tests_properties(bench_dispatch_cold PROPERTIES LABELS bench TIMEOUT 60)
endif()
if(TARGET altmem_callsite AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME bench_callsite
           COMMAND sh -c "out=$(\"$0\" --rounds 4 --sample-ms 0.05 2>&1) || exit 1; echo \"$out\";
                          for loops in 'one shared loop' 'own loops'; do
                            echo \"$out\" | grep -Eq \"^$loops: fastest sample [0-9.]+ ns; rounds with 0, 1, 2, 3 functions fast: \" || exit 1;
                            echo \"$out\" | grep \"^$loops:\" | awk '{ exit $(NF) + $(NF-1) + $(NF-2) + $(NF-3) != 4 }' || exit 1;
                          done;
                          { \"$0\" --rounds 0 >/dev/null 2>&1; [ $? -eq 2 ]; }"
                   $<TARGET_FILE:altmem_callsite>)
  set_tests_properties(bench_callsite PROPERTIES LABELS bench TIMEOUT 60)
endif()

# What the benchmarks read of each routine in the registry (bench/routines.c).
if(TARGET altmem_bench)
  add_executable(test_bench_routines test_bench_routines.c)
  target_link_libraries(test_bench_routines PRIVATE altmem_bench)
  add_test(NAME bench_routines COMMAND test_bench_routines)
  set_tests_properties(bench_routines PROPERTIES LABELS bench)
endif()
