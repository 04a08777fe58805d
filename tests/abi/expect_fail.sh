#!/bin/sh
# A negative control: CMD must fail (exit 1) and its output must match REGEX, the
# message that names what was changed; anything else fails the control.
#   expect_fail.sh REGEX CMD [ARGS...]
# Exit 77 (a missing tool) passes through as a skip.
set -u
regex=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -eq 77 ]; then
    exit 77
fi
if [ $rc -ne 1 ]; then
    echo "CONTROL FAILED: expected the check to fail with exit 1, got $rc"
    exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then
    echo "CONTROL FAILED: the check failed, but its output does not match /$regex/"
    exit 1
fi
echo "control passed: the check failed as it must, naming /$regex/"
exit 0
