#!/bin/sh
# A test that can only report why something is not tested here (tests/cross.cmake):
# prints the reason as its last line and exits 77, which CTest counts as skipped and
# `make check` lists with that reason.
#
#   cross-skip.sh [--ci-fails] REASON
#
# --ci-fails: the missing piece is something CI installs, so with
# ALTMEM_CROSS_REQUIRED=1 (set by .ci/run) this is a failure instead.
ci_fails=0
[ "${1:-}" = --ci-fails ] && { ci_fails=1; shift; }
if [ $ci_fails = 1 ] && [ "${ALTMEM_CROSS_REQUIRED:-0}" = 1 ]; then
    echo "FAILED (ALTMEM_CROSS_REQUIRED=1): $*"
    exit 1
fi
echo "SKIPPED: $*"
exit 77
