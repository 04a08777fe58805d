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
mapfile -t skipped < <(sed -n '/^The following tests did not run:/,/^$/p' "$out" |
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
echo "$((total - failed - ${#skipped[@]})) passed, $failed failed, ${#skipped[@]} skipped"
[ "$failed" -eq 0 ]
