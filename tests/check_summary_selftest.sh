#!/usr/bin/env bash
# scripts/check-summary.sh on made-up CTest output: a skipped test passes the run
# normally, fails it with ALTMEM_SKIPS_FATAL=1 (CI), and passes again when
# ALTMEM_SKIP_OK names it; an output without a summary fails.
#   check_summary_selftest.sh SCRIPTS_DIR
set -u
sum=$1/check-summary.sh
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '%s\n' '67% tests passed, 0 tests failed out of 3' '' 'The following tests did not run:' \
    '	  2 - encode_vs_assembler (Skipped)' '' >"$d/out"
printf '%s\n' '2/3 Testing: encode_vs_assembler' 'Output:' '----' \
    'SKIPPED: clang-19 or llvm-objcopy-19 not installed' '<end of output>' >"$d/log"
bad=0
expect() { # WANT_RC WANT_LAST_LINE ENV...
    local want_rc=$1 want=$2
    shift 2
    out=$(env -u ALTMEM_SKIPS_FATAL -u ALTMEM_SKIP_OK "$@" bash "$sum" "$d/out" "$d/log" 2>&1)
    rc=$?
    last=$(printf '%s\n' "$out" | tail -n 1)
    if [ "$rc" -ne "$want_rc" ] || [ "$last" != "$want" ]; then
        echo "FAIL: $* -> rc $rc, '$last' (expected rc $want_rc, '$want')"
        bad=1
    else
        echo "ok: ${*:-(no variables)} -> $last"
    fi
}
expect 0 "2 passed, 0 failed, 1 skipped"
expect 1 "2 passed, 1 failed, 0 skipped" ALTMEM_SKIPS_FATAL=1
expect 0 "2 passed, 0 failed, 1 skipped" ALTMEM_SKIPS_FATAL=1 ALTMEM_SKIP_OK=^encode_vs
# A failed test's output (--output-on-failure) holding a sub-suite's own summary
# and skips (build.sanitize prints its inner ctest's): those skips are not this
# run's, so in CI they must not count (CI once reported 29 such as failures).
printf '%s\n' '3/3 Test #3: build.sanitize ....***Failed' \
    '93% tests passed, 1 tests failed out of 15' '' 'The following tests did not run:' \
    '	 11 - dropin.cp (Skipped)' '	 12 - dropin.tar (Skipped)' '' \
    '67% tests passed, 1 tests failed out of 3' '' 'The following tests FAILED:' \
    '	  3 - build.sanitize (Failed)' >"$d/out"
expect 1 "2 passed, 1 failed, 0 skipped" ALTMEM_SKIPS_FATAL=1
: >"$d/out"
expect 1 "0 passed, 1 failed"
exit $bad
