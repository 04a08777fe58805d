#!/usr/bin/env bash
# A per-CPU rule as the library installs it, under a qemu-x86_64 CPU model that
# matches it (tests/selection.cmake, rule_model_*): `altmem info` under the model
# must name the rule with the text given (so the model does match it), then the
# memmove sweeps run under the model, through the policy the rule installed.
#
#   check_rule_model.sh "QEMU [OPTIONS]" ALTMEM "INFO_REGEX" TEST [ARGS...]
#
# Exit status 0 as expected, 1 not, 2 usage, 77 no qemu-x86_64 (skipped).
set -u
if [ $# -lt 4 ]; then
    echo "usage: check_rule_model.sh \"QEMU [OPTIONS]\" ALTMEM \"INFO_REGEX\" TEST [ARGS...]" >&2
    exit 2
fi
qemu=$1 altmem=$2 want=$3
shift 3
command -v "${qemu%% *}" > /dev/null 2>&1 || { echo "SKIPPED: ${qemu%% *} not installed (scripts/install-deps.sh installs qemu-user)"; exit 77; }
echo "model: $qemu"
# shellcheck disable=SC2086 # QEMU [OPTIONS] is a command line
out=$($qemu "$altmem" info 2> /dev/null) || { echo "FAIL: altmem info exited $? under this model"; exit 1; }
line=$(printf '%s\n' "$out" | grep -E -- "$want" | head -n 1)
if [ -z "$line" ]; then
    printf '%s\n' "$out" | sed -n '/^rules applied/,/^profile/p'
    echo "FAIL: altmem info under this model does not print /$want/"
    exit 1
fi
echo "ok   $line"
# shellcheck disable=SC2086
$qemu "$@" 2> /dev/null || { echo "FAIL: $* under this model"; exit 1; }
