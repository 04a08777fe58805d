#!/usr/bin/env bash
# The flake hunt: the tests that make faults, threads or signals, or whose verdict
# could rest on a clock or a random input, run N times over in the plain build and in
# the sanitizer build (and, on request, in cross builds under qemu-user); then, per
# test and build, how many of the N runs failed.
#
#   scripts/check-repeat.sh [-n N] [-R REGEX] [--builds LIST] [SOURCE_DIR [BUILD_DIR]]
#   make check-repeat N=20 [REPEAT_ARGS="--builds plain,sanitize,cross:aarch64-static"]
#
# LIST is a comma-separated list of plain, sanitize and cross:TARGET (a target of
# scripts/cross-check.sh); default plain,sanitize.  SOURCE_DIR defaults to this
# script's repository, BUILD_DIR to SOURCE_DIR/build (the plain build).  The other
# builds live where `make check` puts them: BUILD_DIR/sanitize (scripts/sanitize.sh
# --build-only; its tests run with the ASAN_OPTIONS / UBSAN_OPTIONS build.sanitize
# uses) and BUILD_DIR/cross-TARGET (scripts/cross-check.sh --build-only).  Each run is
# one `ctest -R REGEX -j JOBS` over the whole set, so the tests run beside each other
# as in `make check`.  The logs of runs with a failure stay in BUILD_DIR/check-repeat/.
#
# The set (docs/flakes.md says why each test is in it): every uaccess.* test (faults,
# threads, signals, refilled holes), freestanding sweeps and self-tests, misalign.*,
# the drop-in tests with threads or seccomp, setuid, profile and profile_cli (a hang
# guard, privileges), compare.*, fuzz.smoke and fuzz.selftest, bench_quick_csv,
# bench_scalar_effect, index.quick, entry_copied.unwind (a fault in a copied entry);
# in cross builds also the qemu models' uaccess runs.
#
# A skipped test is counted apart (a build where a test cannot run, such as
# chain_no_handler under ASan, is not a flake).  Exit status 0 when no run of any
# test failed, 1 otherwise, 2 usage or set-up error.  The last line is
# "check-repeat: N runs passed, N failed, N skipped".
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

n=20
regex='^(uaccess\.|freestanding\.(sweep|selftest)|misalign\.|dropin\.(dlopen_threads|deny_|fallback_pointer|sort$)|setuid$|profile(_cli)?$|compare\.|fuzz\.(smoke|selftest)$|bench_(scalar_effect|quick_csv)$|index\.quick$|entry_copied\.unwind|qemu_model\..*\.uaccess)'
builds=plain,sanitize
usage() {
    sed -n '7,8p' "$0" | sed 's/^# *//' >&2
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
build=$(realpath -m "${2:-$src/build}")
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
unset MAKEFLAGS MFLAGS MAKELEVEL
logs=$build/check-repeat
rm -rf "$logs"
mkdir -p "$logs"

declare -A runs fails skips
order=()

# run_set LABEL DIR: N runs of the set in DIR; counts per "LABEL TEST".
run_set() {
    local label=$1 dir=$2 i line name count
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
            local key="$label $name"
            if [ -z "${runs[$key]+x}" ]; then
                runs[$key]=0 fails[$key]=0 skips[$key]=0
                order+=("$key")
            fi
            runs[$key]=$((runs[$key] + 1))
            if [[ $line == *" Passed "* ]]; then
                :
            elif [[ $line == *Skipped* ]]; then
                skips[$key]=$((skips[$key] + 1))
            else
                fails[$key]=$((fails[$key] + 1))
                bad=$((bad + 1))
                echo "  run $i: $name: $(sed -E 's/.*(\*\*\*[A-Za-z]+[^0-9]*).*/\1/' <<<"$line" | sed 's/ *$//') (log: $log)"
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
        saved_asan=${ASAN_OPTIONS-} saved_ubsan=${UBSAN_OPTIONS-}
        # shellcheck disable=SC1091
        . "$sbuild/sanitize-env.sh"
        run_set sanitize "$sbuild"
        export ASAN_OPTIONS=$saved_asan UBSAN_OPTIONS=$saved_ubsan
        ;;
    cross:*)
        target=${b#cross:}
        cbuild=$build/cross-$target
        JOBS=$jobs ALTMEM_CROSS_REQUIRED=1 "$src/scripts/cross-check.sh" --build-only "$target" "$src" "$cbuild" \
            >"$logs/build-$target.log" 2>&1 ||
            { cat "$logs/build-$target.log"; echo "check-repeat.sh: the $target build failed" >&2; exit 2; }
        run_set "$target" "$cbuild"
        ;;
    *) echo "check-repeat.sh: unknown build '$b' (plain, sanitize, cross:TARGET)" >&2; exit 2 ;;
    esac
done

echo
echo "==== flake hunt: runs of $n that failed (and were skipped), per test and build ===="
printf '%-16s %-44s %-8s %s\n' build test failed skipped
total_pass=0 total_fail=0 total_skip=0
for key in "${order[@]}"; do
    printf '%-16s %-44s %-8s %d\n' "${key%% *}" "${key#* }" "${fails[$key]}/${runs[$key]}" "${skips[$key]}"
    total_pass=$((total_pass + runs[$key] - fails[$key] - skips[$key]))
    total_fail=$((total_fail + fails[$key]))
    total_skip=$((total_skip + skips[$key]))
done
echo "check-repeat: $total_pass runs passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
