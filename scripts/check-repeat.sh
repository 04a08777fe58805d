#!/usr/bin/env bash
# The flake hunt: the tests that depend on faults, threads, signals, the clock or
# random input, run N times over in the plain build and in the sanitizer build; then,
# per test and build, how many of the N runs failed.
#
#   scripts/check-repeat.sh [-n N] [-R REGEX] [--builds plain,sanitize] [SOURCE_DIR [BUILD_DIR]]
#   make check-repeat N=20
#
# SOURCE_DIR defaults to this script's repository, BUILD_DIR to SOURCE_DIR/build (the
# plain build, built first); the sanitizer build is BUILD_DIR/sanitize, built by
# scripts/sanitize.sh --build-only and run with the ASAN_OPTIONS / UBSAN_OPTIONS that
# build.sanitize uses.  Each run is one `ctest -R REGEX -j JOBS` over the whole set, so
# the tests also run beside each other as in `make check`.  The logs of failed runs stay
# in BUILD_DIR/check-repeat/.
#
# The default set (docs/flakes.md says why each is in it) is every test that makes
# faults, threads or signals, or whose verdict rests on a clock or a random input:
# uaccess.*, freestanding.{sweep,selftest*}, misalign.*, dropin.{dlopen_threads,
# deny_*,fallback_pointer}, setuid, compare.*, fuzz.selftest, bench_scalar_effect.
#
# Exit status 0 when no run of any test failed, 1 otherwise, 2 usage or set-up error.
# The last line is "check-repeat: N runs passed, N failed".
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

n=20
regex='^(uaccess\.|freestanding\.(sweep|selftest)|misalign\.|dropin\.(dlopen_threads|deny_|fallback_pointer)|setuid$|compare\.|fuzz\.selftest$|bench_scalar_effect$)'
builds=plain,sanitize
usage() {
    sed -n '6,7p' "$0" | sed 's/^# *//' >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=${2:?}; shift 2 ;;
    -R) regex=${2:?}; shift 2 ;;
    --builds) builds=${2:?}; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "check-repeat.sh: unknown option $1" >&2; usage ;;
    *) break ;;
    esac
done
case $n in '' | *[!0-9]* | 0) echo "check-repeat.sh: -n wants a count of runs >= 1, not '$n'" >&2; exit 2 ;; esac
src=$(cd "${1:-$here/..}" && pwd)
build=${2:-$src/build}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
unset MAKEFLAGS MFLAGS MAKELEVEL
logs=$build/check-repeat
rm -rf "$logs"
mkdir -p "$logs"

declare -A runs fails
order=()
total_pass=0
total_fail=0

# run_set LABEL DIR: N runs of the set in DIR; counts per "LABEL TEST".
run_set() {
    local label=$1 dir=$2 i line name verdict
    local count
    count=$(cd "$dir" && ctest -N -R "$regex" | sed -n 's/^Total Tests: *//p')
    if [ "${count:-0}" -eq 0 ]; then
        echo "check-repeat.sh: $label: no test matches '$regex' in $dir" >&2
        exit 2
    fi
    echo "check-repeat: $label: $count tests x $n runs ($dir)"
    for i in $(seq 1 "$n"); do
        local log=$logs/$label.$i.log t0=$SECONDS bad=0
        (cd "$dir" && ctest -R "$regex" -j "$jobs" --output-on-failure) >"$log" 2>&1 || true
        while IFS= read -r line; do
            # " 3/27 Test #65: uaccess.selftest ......   Passed    0.13 sec"
            name=$(sed -E 's/^ *[0-9]+\/[0-9]+ +Test +#[0-9]+: ([^ ]+) .*/\1/' <<<"$line")
            verdict=passed
            grep -q ' Passed ' <<<"$line" || verdict=failed
            local key="$label $name"
            if [ -z "${runs[$key]+x}" ]; then
                runs[$key]=0
                fails[$key]=0
                order+=("$key")
            fi
            runs[$key]=$((runs[$key] + 1))
            if [ "$verdict" = failed ]; then
                fails[$key]=$((fails[$key] + 1))
                bad=$((bad + 1))
                echo "  run $i: $name: $(sed -E 's/.*(\*\*\*[^0-9]*|Not Run[^0-9]*).*/\1/' <<<"$line" | sed 's/ *$//') (log: $log)"
            fi
        done < <(grep -E '^ *[0-9]+/[0-9]+ +Test +#[0-9]+: ' "$log")
        [ "$bad" -eq 0 ] && rm -f "$log"
        echo "  run $i/$n: $bad failed, $((SECONDS - t0)) s"
    done
}

for b in ${builds//,/ }; do
    case $b in
    plain)
        [ -f "$build/CMakeCache.txt" ] || cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
        cmake --build "$build" -j "$jobs" >"$logs/build-plain.log" 2>&1 ||
            { cat "$logs/build-plain.log"; echo "check-repeat.sh: the plain build failed" >&2; exit 2; }
        run_set plain "$build"
        ;;
    sanitize)
        sbuild=$build/sanitize
        JOBS=$jobs ALTMEM_SANITIZE_REQUIRED=1 "$src/scripts/sanitize.sh" --build-only "$src" "$sbuild" \
            >"$logs/build-sanitize.log" 2>&1 ||
            { cat "$logs/build-sanitize.log"; echo "check-repeat.sh: the sanitizer build failed" >&2; exit 2; }
        # shellcheck disable=SC1091
        . "$sbuild/sanitize-env.sh"
        run_set sanitize "$sbuild"
        ;;
    *) echo "check-repeat.sh: unknown build '$b' (plain, sanitize)" >&2; exit 2 ;;
    esac
done

echo
echo "==== flake hunt: failed runs of $n, per test and build ===="
printf '%-10s %-40s %s\n' build test failed
for key in "${order[@]}"; do
    printf '%-10s %-40s %d/%d\n' "${key%% *}" "${key#* }" "${fails[$key]}" "${runs[$key]}"
    total_pass=$((total_pass + runs[$key] - fails[$key]))
    total_fail=$((total_fail + fails[$key]))
done
echo "check-repeat: $total_pass runs passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
