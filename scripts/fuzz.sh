#!/bin/bash
# Differential fuzzing with libFuzzer (docs/fuzzing.md).
#
#   scripts/fuzz.sh --smoke [--target NAME] [BUILD_DIR]
#       build, then run each target FUZZ_SMOKE_RUNS (20000) executions over its seed
#       corpus (tests/fuzz/corpus/<target>/, never written: new inputs go to a scratch
#       corpus in BUILD_DIR/smoke/), then over each of its regression inputs
#       (tests/fuzz/regress/<target>/*, with FUZZ_STRICT=1; the self-test's planted-*
#       and refill-* inputs among them, without their switches): each must pass, except
#       files named known-*, the reproducers of open library bugs (which the harnesses
#       otherwise tolerate), which must still fail (when one passes, the bug is fixed:
#       rename the file without known-, and drop the tolerance from the harness)
#   scripts/fuzz.sh --time SECONDS [--target NAME] [--jobs N] [BUILD_DIR]
#       build, then fuzz each target (or NAME) for SECONDS (-max_total_time) with a
#       working corpus BUILD_DIR/corpus/<target> (seeded from the committed corpus and
#       kept between runs), N targets at a time (default 1); crash artefacts go to
#       BUILD_DIR/findings/<target>/, logs to BUILD_DIR/logs/; prints per target the
#       wall and CPU seconds, executions, exec/s, libFuzzer's final cov: and ft:,
#       corpus size and findings
#   scripts/fuzz.sh --self-test [--target NAME] [BUILD_DIR]
#       the negative control; each harness has a planted bug (FUZZ_PLANT=1: a broken
#       implementation next to the real ones, see its header).  The gate, deterministic:
#       each input tests/fuzz/regress/<target>/planted-* (at least one per target) must
#       stop with the harness's finding with FUZZ_PLANT=1 and pass without; for
#       fuzz_uaccess, a page mapped into a hole on purpose (FUZZ_UACCESS_REFILL) must
#       be counted and not judged, and be a finding when unchecked.  Then, as
#       information only, a search: FUZZ_SELFTEST_RUNS (200000; 0: none) executions
#       from the seeds with FUZZ_PLANT=1 and -use_value_profile=1, printing the
#       executions it took or a miss (random: never a failure; but a stop that is not
#       the planted bug fails)
#
# BUILD_DIR defaults to build-fuzz in the source tree.  It is configured with
# CC=clang-19, ALTMEM_FUZZ=ON and ALTMEM_SANITIZE=fuzzer-no-link,address,undefined
# (the library and the harnesses get libFuzzer's coverage instrumentation, ASan and
# UBSan; cmake/AltmemFlags.cmake), ALTMEM_NESTED=ON; only the fuzz targets are built.
#
# Exit status: 0 pass; 1 a finding, a build failure, or a failed self-test; 77 when
# clang-19 or libFuzzer (libclang-rt-19-dev) is missing -- with
# ALTMEM_SANITIZE_REQUIRED=1 (CI) that is 1 too, as in scripts/sanitize.sh.
#
# Environment: ALTMEM_FUZZ_CC (default clang-19), JOBS (build jobs, default nproc),
# FUZZ_SMOKE_RUNS, FUZZ_SELFTEST_RUNS, ASAN_OPTIONS / UBSAN_OPTIONS (defaults below),
# LIBFUZZER_ARGS (extra libFuzzer flags for every run, e.g. "-use_value_profile=1").
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
cc=${ALTMEM_FUZZ_CC:-clang-19}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
targets_all="fuzz_mem fuzz_uaccess fuzz_tunables fuzz_encode"

usage() {
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2
    exit 2
}

mode="" seconds="" only="" par=1 build=""
while [ $# -gt 0 ]; do
    case $1 in
    --smoke | --self-test) mode=${1#--} ;;
    --time)
        mode=time
        seconds=${2:-}
        shift
        case $seconds in '' | *[!0-9]*) echo "fuzz.sh: --time needs a number of seconds" >&2; exit 2 ;; esac
        ;;
    --target)
        only=${2:-}
        shift
        case " $targets_all " in *" $only "*) ;; *) echo "fuzz.sh: unknown target '$only' (known: $targets_all)" >&2; exit 2 ;; esac
        ;;
    --jobs)
        par=${2:-}
        shift
        case $par in '' | *[!0-9]* | 0) echo "fuzz.sh: --jobs needs a positive number" >&2; exit 2 ;; esac
        ;;
    -h | --help) usage ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; usage ;;
    *) build=$1 ;;
    esac
    shift
done
[ -n "$mode" ] || usage
build=${build:-$src/build-fuzz}
targets=${only:-$targets_all}

# The caller's make (`make fuzz`, `make check`) exports a jobserver we cannot use;
# the harnesses' switches are set below where they apply, never inherited.
unset MAKEFLAGS MFLAGS MAKELEVEL FUZZ_PLANT FUZZ_STRICT FUZZ_UACCESS_REFILL

skip() {
    echo "fuzz.sh: SKIPPED: $*" >&2
    if [ "${ALTMEM_SANITIZE_REQUIRED:-0}" = 1 ]; then
        echo "fuzz.sh: ALTMEM_SANITIZE_REQUIRED=1, so this is a failure" >&2
        exit 1
    fi
    exit 77
}

# ---- Can we build and run a libFuzzer target at all? ---------------------------------
if ! command -v "$cc" >/dev/null 2>&1; then
    skip "$cc not found. Install it with scripts/install-deps.sh (Debian packages clang-19 libclang-rt-19-dev)."
fi
mkdir -p "$build"
build=$(cd "$build" && pwd)
probe_dir=$(mktemp -d "$build/probe.XXXXXX")
trap 'rm -rf "$probe_dir"' EXIT
cat >"$probe_dir/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char *p = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        p[i] = (char)d[i];
    free(p);
    return 0;
}
EOF
if ! "$cc" -fsanitize=fuzzer,address,undefined -o "$probe_dir/probe" "$probe_dir/probe.c" >"$probe_dir/cc.log" 2>&1; then
    cat "$probe_dir/cc.log" >&2
    if grep -q 'libclang_rt\|fuzzer' "$probe_dir/cc.log"; then
        skip "$cc cannot link -fsanitize=fuzzer,address,undefined: libFuzzer or the sanitizer runtime is missing (Debian package libclang-rt-19-dev)."
    fi
    skip "$cc cannot build a trivial libFuzzer target (output above)."
fi
: "${UBSAN_OPTIONS:=print_stacktrace=1:halt_on_error=1}"
# handle_segv: ASan reports faults; allow_user_segv_handler: altmem's copy_user
# handler may chain in front of ASan's (fuzz_uaccess); abort_on_error=0: libFuzzer
# writes the artefact itself.
: "${ASAN_OPTIONS:=handle_segv=1:allow_user_segv_handler=1:detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS ASAN_OPTIONS
if ! "$probe_dir/probe" -runs=100 >"$probe_dir/run.log" 2>&1; then
    if grep -q 'LeakSanitizer has encountered a fatal error' "$probe_dir/run.log" &&
        ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" "$probe_dir/probe" -runs=100 >/dev/null 2>&1; then
        echo "fuzz.sh: LeakSanitizer cannot run here; running with detect_leaks=0" >&2
        ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
    else
        cat "$probe_dir/run.log" >&2
        skip "a trivial libFuzzer target does not run on this machine (output above)."
    fi
fi
echo "fuzz.sh: $("$cc" --version | head -n 1); ASAN_OPTIONS=$ASAN_OPTIONS"

# ---- Configure and build -------------------------------------------------------------
cache=$build/CMakeCache.txt
if [ -f "$cache" ]; then
    if ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$src" "$cache" ||
        ! grep -qxF "ALTMEM_FUZZ_CC_USED:INTERNAL=$cc" "$cache"; then
        echo "fuzz.sh: $build was configured differently; starting afresh"
        find "$build" -mindepth 1 -maxdepth 1 -name 'CMake*' -exec rm -rf {} +
    fi
fi
echo "fuzz.sh: configuring $build"
CC=$cc cmake -S "$src" -B "$build" \
    -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DALTMEM_SANITIZE=fuzzer-no-link,address,undefined \
    -DALTMEM_FUZZ=ON \
    -DALTMEM_WERROR=ON \
    -DALTMEM_NESTED=ON \
    -DALTMEM_FUZZ_CC_USED:INTERNAL="$cc" >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log"
    echo "fuzz.sh: FAILED: configure (log: $build/configure.log)"
    exit 1
}
echo "fuzz.sh: building $targets_all with $cc -fsanitize=fuzzer,address,undefined -Werror ($jobs jobs)"
if ! cmake --build "$build" -j "$jobs" --target fuzz_all >"$build/build.log" 2>&1; then
    grep -E 'error|warning' -A3 "$build/build.log" | head -n 80 || tail -n 80 "$build/build.log"
    echo "fuzz.sh: FAILED: the $cc build (log: $build/build.log)"
    exit 1
fi
bin=$build/tests/fuzz-targets
seeds=$src/tests/fuzz/corpus
regress=$src/tests/fuzz/regress

# Per-target libFuzzer flags.
flags_for() {
    local f="-timeout=10 -rss_limit_mb=2048 -print_final_stats=1"
    case $1 in
    fuzz_tunables) f="$f -max_len=4096 -dict=$src/tests/fuzz/tunables.dict" ;;
    *) f="$f -max_len=64" ;;
    esac
    echo "$f ${LIBFUZZER_ARGS:-}"
}

# "executions exec/s cov ft" from a libFuzzer log.
stats_of() {
    local log=$1 execs eps cov ft
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    echo "${execs:-?} ${eps:-?} ${cov:-?} ${ft:-?}"
}

# ---- --smoke ------------------------------------------------------------------------------
if [ "$mode" = smoke ]; then
    runs=${FUZZ_SMOKE_RUNS:-20000}
    rc=0
    for t in $targets; do
        scratch=$build/smoke/$t
        rm -rf "$scratch" "$build/smoke/artifacts-$t"
        mkdir -p "$scratch" "$build/smoke/artifacts-$t"
        log=$build/smoke/$t.log
        # shellcheck disable=SC2046
        if "$bin/$t" $(flags_for "$t") -runs="$runs" -artifact_prefix="$build/smoke/artifacts-$t/" \
            "$scratch" "$seeds/$t" >"$log" 2>&1; then
            read -r execs eps cov ft <<<"$(stats_of "$log")"
            echo "fuzz.sh: $t: $execs runs from $(find "$seeds/$t" -type f | wc -l) seeds: ok (cov $cov, ft $ft, $eps exec/s)"
            # fuzz_uaccess's holes taken by other mappings (not failures: see the harness)
            grep -h 'input(s) not judged' "$log" | sed 's/^/fuzz.sh: note: /' || true
        else
            grep -E 'FINDING|ERROR|SUMMARY|runtime error' "$log" | head -n 20 || tail -n 40 "$log"
            echo "fuzz.sh: FAILED: $t found something in its smoke run (log $log, input in $build/smoke/artifacts-$t/)"
            rc=1
        fi
        n_ok=0 n_known=0
        if [ -d "$regress/$t" ]; then
            for f in "$regress/$t"/*; do
                [ -f "$f" ] || continue
                name=$(basename "$f")
                rlog=$build/smoke/$t.regress.$name.log
                # shellcheck disable=SC2046
                if FUZZ_STRICT=1 "$bin/$t" $(flags_for "$t") -runs=1 "$f" >"$rlog" 2>&1; then r=0; else r=1; fi
                case $name in
                known-*)
                    if [ $r -eq 0 ]; then
                        echo "fuzz.sh: FAILED: $t regress/$name passes now: the known bug looks fixed; rename it without known- (log $rlog)"
                        rc=1
                    else
                        n_known=$((n_known + 1))
                        echo "fuzz.sh: $t: regress/$name: known open bug, still reproduces: $(grep -m1 -E 'FINDING|SUMMARY' "$rlog" || echo '?')"
                    fi
                    ;;
                *)
                    if [ $r -ne 0 ]; then
                        grep -E 'FINDING|ERROR|SUMMARY|runtime error' "$rlog" | head -n 10 || tail -n 20 "$rlog"
                        echo "fuzz.sh: FAILED: $t regress/$name (log $rlog)"
                        rc=1
                    else
                        n_ok=$((n_ok + 1))
                    fi
                    ;;
                esac
            done
        fi
        echo "fuzz.sh: $t: $n_ok regression inputs pass, $n_known known open bugs still reproduce"
    done
    [ $rc -eq 0 ] && echo "fuzz.sh: smoke passed" || echo "fuzz.sh: smoke FAILED"
    exit $rc
fi

# ---- --self-test ------------------------------------------------------------------------
if [ "$mode" = self-test ]; then
    runs=${FUZZ_SELFTEST_RUNS:-200000}
    case $runs in '' | *[!0-9]*) echo "fuzz.sh: FUZZ_SELFTEST_RUNS must be a number" >&2; exit 2 ;; esac
    rc=0 n_gate=0 searched="" missed=""
    fail() {
        echo "fuzz.sh: FAILED: $*"
        rc=1
    }
    for t in $targets; do
        dir=$build/selftest/$t
        rm -rf "$dir"
        mkdir -p "$dir/corpus" "$dir/artifacts"

        # (1) The gate: the committed inputs at each planted bug's boundary.  The
        # harnesses are deterministic per input, so this neither depends on luck nor
        # can pass by it: with FUZZ_PLANT=1 each must stop with the harness's own
        # finding line, and the same input without it (FUZZ_STRICT=1, as --smoke
        # runs it) must pass, so the finding is the planted bug and nothing else.
        n=0
        for f in "$regress/$t"/planted-*; do
            [ -f "$f" ] || continue
            n=$((n + 1))
            name=$(basename "$f")
            plog=$dir/$name.planted.log clog=$dir/$name.clean.log
            # shellcheck disable=SC2046
            if FUZZ_PLANT=1 "$bin/$t" $(flags_for "$t") -runs=1 "$f" >"$plog" 2>&1; then
                fail "$t regress/$name passes with FUZZ_PLANT=1: the harness misses its planted bug (log $plog)"
            elif ! found=$(grep -m1 "^$t: FINDING: " "$plog"); then
                tail -n 20 "$plog"
                fail "$t regress/$name with FUZZ_PLANT=1 stopped, but not with a harness finding (log $plog)"
            elif ! FUZZ_STRICT=1 "$bin/$t" $(flags_for "$t") -runs=1 "$f" >"$clog" 2>&1; then
                grep -E 'FINDING|ERROR|SUMMARY|runtime error|harness error' "$clog" | head -n 10 || tail -n 20 "$clog"
                fail "$t regress/$name fails without FUZZ_PLANT too: that finding is not the planted bug (log $clog)"
            else
                n_gate=$((n_gate + 1))
                found=${found#*FINDING: }
                echo "fuzz.sh: $t: regress/$name: reported with FUZZ_PLANT=1 (${found:0:110}$([ ${#found} -le 110 ] || echo ...)), passes without"
            fi
        done
        if [ $n -eq 0 ]; then
            fail "$t: no tests/fuzz/regress/$t/planted-* input (tests/fuzz/make_seeds.sh writes them): nothing shows that its checks can fail"
        fi

        # (2) fuzz_uaccess: a page mapped into an unmapped hole by someone else must
        # be counted and the input not judged (FUZZ_UACCESS_REFILL maps one there on
        # purpose; see the harness), and, unchecked, that page must turn into a
        # finding, or the check would not be needed.
        if [ "$t" = fuzz_uaccess ]; then
            ra=$regress/$t/refill-unmapped-dst-hole rb=$regress/$t/refill-no-hole
            if [ ! -f "$ra" ] || [ ! -f "$rb" ]; then
                fail "$t: $ra or $rb is missing (tests/fuzz/make_seeds.sh writes them)"
            else
                # Each mode's page must be counted where it was put (the field of
                # "seen: A at the input's start, B re-mapping a hole, C before the
                # call, D after it"); a page some other mapping of the process (the
                # sanitizer's, libFuzzer's) happened to take meanwhile may add to
                # any count, which is what the harness is for, so counts are at
                # least, not exactly, those the injection makes (once, CI:
                # "2 before the call" where 1 was injected).
                for m in "setup:3" "between:1" "remap:2"; do
                    how=${m%%:*} field=${m#*:}
                    log=$dir/refill-$how.log
                    want="a hole page was taken by another mapping, counted in field $field of its \"seen:\" list"
                    # shellcheck disable=SC2046
                    if ! FUZZ_UACCESS_REFILL=$how "$bin/$t" $(flags_for "$t") -runs=1 "$ra" "$rb" >"$log" 2>&1; then
                        grep -E 'FINDING|ERROR|SUMMARY|harness error' "$log" | head -n 5 || tail -n 20 "$log"
                        fail "$t with FUZZ_UACCESS_REFILL=$how: a page mapped into a hole on purpose was not recognised as a refill (log $log)"
                    elif seen=$(sed -n 's/.* input(s) not judged: a hole page was taken by another mapping (seen: \([0-9]*\) at the input.s start, \([0-9]*\) re-mapping a hole, \([0-9]*\) before the call, \([0-9]*\) after it).*/\1 \2 \3 \4/p' "$log" | head -n 1) &&
                        ! echo "$seen" | awk -v f="$field" 'NF == 4 && $f >= 1 { ok = 1 } END { exit !ok }'; then
                        grep 'not judged' "$log" || true
                        fail "$t with FUZZ_UACCESS_REFILL=$how: expected \"$want\" (log $log)"
                    else
                        echo "fuzz.sh: $t: FUZZ_UACCESS_REFILL=$how: the page mapped into a hole is counted, the input not judged"
                    fi
                done
                log=$dir/refill-setup-unchecked.log
                # shellcheck disable=SC2046
                if FUZZ_UACCESS_REFILL=setup-unchecked "$bin/$t" $(flags_for "$t") -runs=1 "$ra" >"$log" 2>&1 ||
                    ! grep -q "^$t: FINDING: " "$log"; then
                    fail "$t with FUZZ_UACCESS_REFILL=setup-unchecked: the unnoticed page should have been a finding (log $log)"
                else
                    echo "fuzz.sh: $t: FUZZ_UACCESS_REFILL=setup-unchecked: without the checks the same page is a (false) finding"
                fi
            fi
        fi

        # (3) Information, not a gate: can libFuzzer find the planted bug from the
        # seeds in FUZZ_SELFTEST_RUNS executions?  Random (no -seed; and comparison
        # values depend on ASLR), so a miss is printed, never a failure.  What fails
        # is a stop that is not the planted bug: an input that fails without
        # FUZZ_PLANT (a real finding), or one that does not reproduce.
        [ "$runs" -gt 0 ] || continue
        log=$dir/search.log
        # shellcheck disable=SC2046
        if FUZZ_PLANT=1 "$bin/$t" $(flags_for "$t") -use_value_profile=1 -runs="$runs" \
            -artifact_prefix="$dir/artifacts/" "$dir/corpus" "$seeds/$t" >"$log" 2>&1; then r=0; else r=1; fi
        seed=$(sed -n 's/^INFO: Seed: //p' "$log" | head -n 1)
        read -r execs _ <<<"$(stats_of "$log")"
        if [ $r -eq 0 ]; then
            missed="$missed $t"
            echo "fuzz.sh: $t: search (information only): the planted bug was not found in $runs executions from the seeds (-seed=${seed:-?}; log $log)"
            continue
        fi
        crash=$(find "$dir/artifacts" -name 'crash-*' | head -n 1)
        if [ -z "$crash" ] || ! grep -q "^$t: FINDING: " "$log"; then
            tail -n 30 "$log"
            fail "$t: the search (FUZZ_PLANT=1) stopped, but not with a harness finding and an artefact (log $log)"
        elif ! FUZZ_STRICT=1 "$bin/$t" -runs=1 "$crash" >"$dir/search.clean.log" 2>&1; then
            grep -E 'FINDING|ERROR|SUMMARY|runtime error' "$dir/search.clean.log" | head -n 10 || true
            fail "$t: the search found an input that fails without FUZZ_PLANT too: a real finding ($crash; log $dir/search.clean.log)"
        elif FUZZ_PLANT=1 "$bin/$t" -runs=1 "$crash" >"$dir/search.repro.log" 2>&1; then
            fail "$t: the search's finding does not reproduce with FUZZ_PLANT=1 ($crash): the harness is not deterministic per input"
        else
            searched="$searched $t"
            echo "fuzz.sh: $t: search (information only): the planted bug found after $execs executions from the seeds (-seed=${seed:-?})"
        fi
    done
    if [ $rc -eq 0 ]; then
        echo "fuzz.sh: self-test passed: all $n_gate planted inputs report their bug and pass without it${searched:+; search found it in:$searched}${missed:+; search missed (information only):$missed}"
    else
        echo "fuzz.sh: self-test FAILED"
    fi
    exit $rc
fi

# ---- --time ----------------------------------------------------------------------------
mkdir -p "$build/logs"
run_one() {
    local t=$1 corpus=$build/corpus/$1 findings=$build/findings/$1
    local log
    log=$build/logs/$t.$(date +%Y%m%d-%H%M%S).log
    mkdir -p "$corpus" "$findings"
    if [ -z "$(ls -A "$corpus")" ]; then
        cp "$seeds/$t"/* "$corpus/"
    fi
    local t0 t1 rc cpu
    touch "$build/logs/$t.start"   # findings of this run: artefacts newer than this
    t0=$(date +%s)
    set +e
    # CPU seconds (user + system) next to the wall time: other work may share the cores.
    TIMEFORMAT='%U %S'
    # shellcheck disable=SC2046
    { time "$bin/$t" $(flags_for "$t") -max_total_time="$seconds" -artifact_prefix="$findings/" \
        "$corpus" "$seeds/$t" >"$log" 2>&1; } 2>"$build/logs/$t.cpu"
    rc=$?
    set -e
    t1=$(date +%s)
    cpu=$(awk '{ printf "%d", $1 + $2 }' "$build/logs/$t.cpu" 2>/dev/null || echo '?')
    echo "$t $rc $((t1 - t0)) ${cpu:-?} $log" >"$build/logs/$t.last"
}
echo "fuzz.sh: fuzzing ${targets// /, } for $seconds s each, $par at a time"
pids=()
for t in $targets; do
    run_one "$t" &
    pids+=($!)
    while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do
        wait -n || true
    done
done
wait
rc=0
printf '\n%-14s %7s %7s %12s %9s %7s %7s %8s %9s  %s\n' target "wall s" "cpu s" executions "exec/s" cov ft corpus findings log
for t in $targets; do
    read -r _ trc wall cpu log <"$build/logs/$t.last"
    read -r execs eps cov ft <<<"$(stats_of "$log")"
    ncorp=$(find "$build/corpus/$t" -type f | wc -l)
    nfind=$(find "$build/findings/$t" -type f -newer "$build/logs/$t.start" \( -name 'crash-*' -o -name 'timeout-*' \
        -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
    printf '%-14s %7s %7s %12s %9s %7s %7s %8s %9s  %s\n' "$t" "$wall" "$cpu" "$execs" "$eps" "$cov" "$ft" "$ncorp" "$nfind" "$log"
    grep -h 'input(s) not judged' "$log" | sed "s/^/  note: /" || true
    if [ "$trc" -ne 0 ]; then
        grep -E 'FINDING|SUMMARY|runtime error|Test unit written' "$log" | head -n 5 | sed "s/^/  $t: /"
        rc=1
    fi
done
echo "CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1); $(nproc) cores"
[ $rc -eq 0 ] || echo "fuzz.sh: findings: see $build/findings/"
exit $rc
