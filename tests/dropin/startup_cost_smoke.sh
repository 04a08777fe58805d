#!/bin/sh
# scripts/startup-cost.sh runs end to end on this build (docs/dropin.md, "Start-up
# cost"): 2 pairs of loops of 3 processes, every row it can measure here present with
# its figures.  The figures themselves are noise at this size and are not checked.
# The musl row is left out (MUSL_BUILD points nowhere): the cross.musl test may be
# building that tree at the same time.
#
#   startup_cost_smoke.sh SCRIPT BUILD_DIR
set -u
script=$1 build=$2
out=$(MUSL_BUILD=/nonexistent bash "$script" "$build" 2 3 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ]; then
    echo "FAIL: startup-cost.sh exited $rc"
    exit 1
fi
fail=0
for row in "libaltmem-preload.so vs an empty preload" "libaltmem-preload.so bind=pointer vs an empty preload" \
    "linked with libaltmem.so vs not" "linked with libaltmem.so vs linked with an empty library"; do
    printf '%s\n' "$out" | grep -Eq "^\| $row \| [0-9.]+ ms \| [0-9.]+ ms \| [-+][0-9]+ us \| [0-9.]+ " || {
        echo "FAIL: no figures in the row '$row'"
        fail=1
    }
done
[ $fail -eq 0 ] && echo "startup_cost_smoke: every row measured"
exit $fail
