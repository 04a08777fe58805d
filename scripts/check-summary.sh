#!/usr/bin/env bash
# After `ctest`: says why each skipped test was skipped (CTest itself only lists
# them), then closes with one line "N passed, N failed, N skipped".
#   scripts/check-summary.sh CTEST_OUTPUT LASTTEST_LOG
set -u
out=$1 log=$2
summary=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$out" | tail -n 1)
if [ -z "$summary" ]; then
    echo "check-summary: no CTest summary in $out" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
failed=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$summary")
total=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$summary")
# Only the lines after the last summary are this run's: a failed test's output
# (--output-on-failure) may hold a sub-suite's own "did not run" list
# (build.sanitize prints its inner ctest's), and those are not ours.
last=$(grep -nE '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$out" | tail -n 1 | cut -d: -f1)
mapfile -t skipped < <(tail -n +"$last" "$out" | sed -n '/^The following tests did not run:/,/^$/p' |
                       sed -nE 's/^[[:space:]]*[0-9]+ - (.*) \((Skipped|Disabled|Not Run)\)$/\1/p')
if [ ${#skipped[@]} -gt 0 ]; then
    echo "Skipped (the test's last line of output says why):"
    for t in "${skipped[@]}"; do
        # The block of test $t in LastTest.log: its output ends at "<end of output>".
        reason=$(awk -v name="$t" '
            $0 ~ "^[0-9]+/[0-9]+ Testing: " { cur = substr($0, index($0, ": ") + 2); inout = 0 }
            cur == name && /^Output:/ { inout = 1; getline; next }
            cur == name && inout && /^<end of output>/ { inout = 0 }
            cur == name && inout && NF { last = $0 }
            END { print last }' "$log")
        echo "  $t: ${reason:-(no output)}"
    done
fi
# Tests that run a whole suite of their own (cross.<target>: scripts/cross-check.sh)
# print that suite's skips with reasons; list those too, under the outer test's name.
inner=$(awk '
    $0 ~ "^[0-9]+/[0-9]+ Testing: " { cur = substr($0, index($0, ": ") + 2); inskip = 0; next }
    /^  Skipped \(the test.s last line of output says why\):$/ { inskip = 1; next }
    inskip && /^    / { sub(/^    /, ""); print "  " cur " > " $0; next }
    { inskip = 0 }' "$log")
if [ -n "$inner" ]; then
    echo "Skipped inside the sub-suites (docs/arch-notes.md says why these cannot run there):"
    printf '%s\n' "$inner"
fi
# In CI (.ci/run sets ALTMEM_SKIPS_FATAL=1) every tool a test needs was installed by
# scripts/install-deps.sh or install-cross-deps.sh, so a skipped test means an install
# step is missing: count it as failed.  ALTMEM_SKIP_OK (a regular expression) names
# tests whose skip depends on the machine, not on a package: none by default.
passed=$((total - failed - ${#skipped[@]})) nskip=${#skipped[@]}
if [ "${ALTMEM_SKIPS_FATAL:-0}" = 1 ] && [ ${#skipped[@]} -gt 0 ]; then
    for t in "${skipped[@]}"; do
        if [ -n "${ALTMEM_SKIP_OK:-}" ] && [[ $t =~ $ALTMEM_SKIP_OK ]]; then
            continue
        fi
        echo "check-summary: $t was skipped; with ALTMEM_SKIPS_FATAL=1 (CI) that is a failure: the install scripts should have provided what it needs"
        failed=$((failed + 1)) nskip=$((nskip - 1))
    done
fi
echo "$passed passed, $failed failed, $nskip skipped"
[ "$failed" -eq 0 ]
