#!/usr/bin/env bash
# Negative controls of the man-page coverage (tests/man.cmake): a copy of the page
# without one name the code has must fail coverage.sh, and the failure must name it.
# The name is taken from the code, as coverage.sh takes it:
#   control.sh cli ALTMEM PAGE WORKDIR        the first option of `altmem help bench`
#   control.sh tunables ALTMEM PAGE WORKDIR   the last setting the library knows
#   control.sh api PYTHON PAGE WORKDIR HEADER...   the last ALTMEM_API function
set -u
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 tool=$2 page=$3 work=$4
shift 4
mkdir -p "$work"
case "$mode" in
cli)
    name=$("$tool" help bench 2>&1 | grep -oE -- '--[a-z0-9][a-z0-9-]*' | grep -vx -- --help | head -n 1)
    expect="does not mention option $name "
    ;;
tunables)
    name=$(ALTMEM_PROFILE=none ALTMEM_TUNABLES=altmem_man_probe "$tool" version 2>&1 >/dev/null |
        sed -n "s/.*known: \(.*\) (ignored)$/\1/p" | awk '{ print $NF }')
    expect="does not mention the setting $name "
    ;;
api)
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIPPED: $tool not found (scripts/install-deps.sh installs python3)"; exit 77; }
    name=$("$tool" "$here/../../scripts/abi-layout.py" api "$@" | tail -n 1)
    expect="does not mention $name "
    ;;
*)
    echo "control.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
[ -n "$name" ] || { echo "CONTROL FAILED: no name to remove was found in the code"; exit 1; }
copy=$work/$(basename "$page")
# The normalised page (what coverage.sh reads) without every line naming it.
bash "$here/coverage.sh" normalize "$page" | grep -vwF -- "$name" >"$copy"
echo "control: $(basename "$page") without the $(($(bash "$here/coverage.sh" normalize "$page" | wc -l) - $(wc -l <"$copy"))) lines that name $name"
case "$mode" in
api) exec sh "$here/../abi/expect_fail.sh" "$expect" bash "$here/coverage.sh" api "$tool" "$copy" "$@" ;;
*) exec sh "$here/../abi/expect_fail.sh" "$expect" bash "$here/coverage.sh" "$mode" "$tool" "$copy" ;;
esac
