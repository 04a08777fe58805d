#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer, built by clang-19
# with -Werror.
#
#   scripts/sanitize.sh [--build-only] [SOURCE_DIR [BUILD_DIR]]
#
# --build-only stops after the build and writes BUILD_DIR/sanitize-env.sh, the
# ASAN_OPTIONS / UBSAN_OPTIONS its tests run with (scripts/check-repeat.sh sources it).
#
# SOURCE_DIR defaults to this script's repository, BUILD_DIR to SOURCE_DIR/build-sanitize
# (`make check` runs it as the CTest test build.sanitize with BUILD_DIR = build/sanitize).
# It configures BUILD_DIR with
#     CC=clang-19 -DALTMEM_SANITIZE=address,undefined -DALTMEM_WERROR=ON -DALTMEM_NESTED=ON
#     -DALTMEM_TEST_SWEEP=quick   (the sweeps' narrower ranges: the sanitizers look for
#                                  memory errors and UB, the main build for wrong bytes)
# builds everything (so this is also the clang-19 -Wall -Wextra -Werror build; the
# default gcc build already uses -Werror), runs that build's ctest and prints its
# summary.  ALTMEM_NESTED=ON keeps the inner suite from installing or starting another
# sanitizer build.  The build directory is kept, so a second run is incremental.
#
# Exit status: 0 all inner tests passed; 1 configure, build or a test failed;
# 77 skipped: clang-19 or its sanitizer runtime (package libclang-rt-19-dev) is missing,
# the sanitizers cannot run on this machine, or the inner build has no tests.
# With ALTMEM_SANITIZE_REQUIRED=1 (set by .ci/run) a skip is a failure instead.
#
# Environment: ALTMEM_SANITIZE_CC (default clang-19), ALTMEM_SANITIZERS (default
# address,undefined), JOBS (default nproc), ASAN_OPTIONS / UBSAN_OPTIONS (defaults below).
set -euo pipefail
build_only=0
if [ "${1:-}" = --build-only ]; then
    build_only=1
    shift
fi

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "${1:-$here/..}" && pwd)
build=${2:-$src/build-sanitize}
cc=${ALTMEM_SANITIZE_CC:-clang-19}
sanitizers=${ALTMEM_SANITIZERS:-address,undefined}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# The caller's make (`make check`) exports a jobserver this script cannot use.
unset MAKEFLAGS MFLAGS MAKELEVEL

skip() {
    echo "sanitize.sh: SKIPPED: $*" >&2
    if [ "${ALTMEM_SANITIZE_REQUIRED:-0}" = 1 ]; then
        echo "sanitize.sh: ALTMEM_SANITIZE_REQUIRED=1, so this is a failure" >&2
        exit 1
    fi
    exit 77
}
now() { date +%s%3N; } # milliseconds
secs() { printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100)); }
t_start=$(now)

# ---- Can we build and run a sanitized program at all? -------------------------------
if ! command -v "$cc" >/dev/null 2>&1; then
    skip "$cc not found. Install it with scripts/install-deps.sh (Debian packages clang-19 lld-19 libclang-rt-19-dev)."
fi
mkdir -p "$build"
probe_dir=$(mktemp -d "$build/probe.XXXXXX")
trap 'rm -rf "$probe_dir"' EXIT
cat >"$probe_dir/probe.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    (void)argv;
    char *p = malloc(16);
    memset(p, argc, 16);
    int r = p[15] - argc;
    free(p);
    return r;
}
EOF
if ! "$cc" -fsanitize="$sanitizers" -fno-sanitize-recover=all -o "$probe_dir/probe" "$probe_dir/probe.c" \
        >"$probe_dir/cc.log" 2>&1; then
    cat "$probe_dir/cc.log" >&2
    if grep -q 'libclang_rt' "$probe_dir/cc.log"; then
        skip "$cc cannot link -fsanitize=$sanitizers: the sanitizer runtime is missing (Debian package libclang-rt-19-dev)."
    fi
    skip "$cc cannot build a trivial program with -fsanitize=$sanitizers (output above)."
fi

: "${UBSAN_OPTIONS:=print_stacktrace=1:halt_on_error=1}"
: "${ASAN_OPTIONS:=detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}"
export UBSAN_OPTIONS ASAN_OPTIONS
if ! "$probe_dir/probe" >"$probe_dir/run.log" 2>&1; then
    # LeakSanitizer needs ptrace-like thread suspension, which some containers forbid.
    if grep -q 'LeakSanitizer has encountered a fatal error' "$probe_dir/run.log" &&
        ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" "$probe_dir/probe" >/dev/null 2>&1; then
        echo "sanitize.sh: LeakSanitizer cannot run here; running with detect_leaks=0" >&2
        ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
    else
        cat "$probe_dir/run.log" >&2
        skip "a trivial program built with -fsanitize=$sanitizers does not run on this machine (output above)."
    fi
fi
echo "sanitize.sh: $("$cc" --version | head -n 1); -fsanitize=$sanitizers"
echo "sanitize.sh: ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS"

# ---- Configure and build -----------------------------------------------------------
# A cache from another source tree or compiler cannot be reused.
cache=$build/CMakeCache.txt
if [ -f "$cache" ]; then
    if ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$src" "$cache" ||
        ! grep -qxF "ALTMEM_SANITIZE_CC_USED:INTERNAL=$cc" "$cache"; then
        echo "sanitize.sh: $build was configured differently; starting afresh"
        find "$build" -mindepth 1 -maxdepth 1 ! -name "$(basename "$probe_dir")" -exec rm -rf {} +
    fi
fi

t0=$(now)
echo "sanitize.sh: configuring $build"
CC=$cc cmake -S "$src" -B "$build" \
    -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DALTMEM_SANITIZE="$sanitizers" \
    -DALTMEM_WERROR=ON \
    -DALTMEM_NESTED=ON \
    -DALTMEM_TEST_SWEEP=quick \
    -DALTMEM_SANITIZE_CC_USED:INTERNAL="$cc" >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log"
    echo "sanitize.sh: FAILED: configure (log: $build/configure.log)"
    exit 1
}
t1=$(now)
echo "sanitize.sh: building with $cc -Wall -Wextra -Werror -fsanitize=$sanitizers ($jobs jobs)"
if ! cmake --build "$build" -j "$jobs"; then
    echo "sanitize.sh: FAILED: the $cc build (warnings are errors)"
    exit 1
fi
t2=$(now)

if [ "$build_only" = 1 ]; then
    printf 'export ASAN_OPTIONS=%q UBSAN_OPTIONS=%q\n' "$ASAN_OPTIONS" "$UBSAN_OPTIONS" >"$build/sanitize-env.sh"
    echo "sanitize.sh: built $build ($(secs $((t2 - t_start))) s); its test environment: $build/sanitize-env.sh"
    exit 0
fi
# ---- The inner test suite ----------------------------------------------------------
ntests=$(cd "$build" && ctest -N | sed -n 's/^Total Tests: *//p')
if [ "${ntests:-0}" -eq 0 ]; then
    skip "the sanitizer build registers no tests (tests/*.cmake)."
fi
echo "sanitize.sh: running $ntests tests under $sanitizers"
log=$build/ctest.log
set +e
(cd "$build" && ctest --output-on-failure -j "$jobs") 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
t3=$(now)

echo
echo "==== sanitizer sub-run summary ($cc, -fsanitize=$sanitizers, $build) ===="
grep -E '^[0-9]+% tests passed|^Total Test time' "$log" || true
sed -n '/^The following tests/,$p' "$log"
echo "time: configure $(secs $((t1 - t0))) s, build $(secs $((t2 - t1))) s, tests $(secs $((t3 - t2))) s, total $(secs $((t3 - t_start))) s"
if [ "$rc" -ne 0 ]; then
    echo "sanitize.sh: FAILED: inner ctest exited $rc (full log: $log)"
    exit 1
fi
echo "sanitize.sh: passed"
