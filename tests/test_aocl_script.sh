#!/bin/sh
# scripts/aocl-libmem.sh's refusals, and the bench's libc line under a preloaded
# library (what the script relies on to say whose routines the libc column timed):
#   test_aocl_script.sh SCRIPT ALTMEM_BUILD_DIR PRELOAD_SO
# A directory that is not an AOCL-LibMem tree, and a ZEN that is not zen3-5, are
# refused with one line and exit status 2 (no build, no network); `altmem bench`
# with libaltmem-preload.so preloaded names it on the libc line, and without it
# names none.
set -u
script=${1:?usage: test_aocl_script.sh SCRIPT BUILD_DIR PRELOAD_SO}
build=${2:?}
preload=${3:?}
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }
d=$(mktemp -d "${TMPDIR:-/tmp}/altmem-aocl.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT

out=$(sh "$script" "$d/none" "$build" 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && echo "$out" | grep -q 'is not an AOCL-LibMem source tree' &&
    ok "not a source tree: exit 2, one line" || bad "not a source tree: rc $rc: $out"
mkdir -p "$d/src"
echo 'set(ALMEM_ARCH "" CACHE STRING "x")' >"$d/src/CMakeLists.txt"
out=$(ZEN=zen9 sh "$script" "$d/src" "$build" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "ZEN must be zen3, zen4 or zen5, not 'zen9'" &&
    ok "ZEN=zen9: exit 2" || bad "ZEN=zen9: rc $rc: $out"
out=$(sh "$script" "$d/src" "$d/nobuild" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q 'not found (build the native tree first)' &&
    ok "no altmem build: exit 2" || bad "no build: rc $rc: $out"

args="bench --routine memcpy --sizes 64 --align 0/0 --reps 1 --min-sample-ms 0.01 --processes 1"
if nm "$build/tools/altmem" 2>/dev/null | grep -q '__asan_init'; then
    # A preloaded memcpy under AddressSanitizer's interceptors crashes before
    # main (its runtime resolves memcpy to the preload during its own start-up).
    echo "ok: preloaded: not checked in the sanitizer build (a preloaded memcpy ahead of ASan's interceptors)"
else
    out=$(LD_PRELOAD=$preload "$build/tools/altmem" $args 2>&1); rc=$?
    [ $rc -eq 0 ] && echo "$out" | grep -Eq "^libc: +glibc [0-9.]+, memcpy from $(basename "$preload") " &&
        ok "preloaded: the libc line names it" || bad "preloaded: rc $rc: $(echo "$out" | grep '^libc:')"
fi
out=$("$build/tools/altmem" $args 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -Eq '^libc: +glibc [0-9.]+ [(]' &&
    ok "not preloaded: the libc line names none" || bad "not preloaded: rc $rc: $(echo "$out" | grep '^libc:')"
[ $fail -eq 0 ] && echo "aocl_script: passed" || echo "aocl_script: FAILED"
exit $fail
