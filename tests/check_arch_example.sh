#!/usr/bin/env bash
# The example of docs/architecture.md, "Adding a variant", built and run
# (tests docs.arch_example and docs.arch_example_control).
#
#   tests/check_arch_example.sh [--control] SOURCE_DIR WORK_DIR [CC [GENERATOR]]
#
# The page holds the example as fenced code blocks, each right after a marker line:
#   <!-- example: write PATH -->                          the block is the file PATH
#   <!-- example: insert into PATH before the line "L" --> the block goes in PATH
#                                                         before the first line L
# (PATH relative to the tree).  This script copies SOURCE_DIR's files to
# WORK_DIR/tree (the git checkout's files, tracked or new and not ignored, when
# SOURCE_DIR is one; else every file but .git and build trees), applies the
# blocks, configures WORK_DIR/build (-Werror, ALTMEM_NESTED=ON), builds altmem,
# the routine's sweep and test_select, and checks what the page says of the
# example (the VARIANT entry of the inserted block names its routine and name):
#   1. `altmem info` lists it, runnable;
#   2. with ALTMEM_TUNABLES=<routine>=<name>, `altmem info` shows the routine
#      bound to it (overridden), with nothing on stderr;
#   3. test_<routine> --only <name> --quick passes, and so does the pinned public
#      entry (--only altmem_<routine> under the same ALTMEM_TUNABLES);
#   4. man.tunables's check (tests/man/coverage.sh tunables) reports the page
#      without it ("does not mention the variant <name>");
#   5. test_select fails, naming it: "<routine> <name> (row N) can never be
#      selected".
# --control (after a run without it, on the same WORK_DIR): alters the copied
# variant's loop (the first "d[i] = s[i]" of the written file) so that it copies
# one byte wrong, rebuilds, and passes only if check 3 then fails.
# Exit status: 0 passed, 1 failed.
set -euo pipefail
control=0
if [ "${1:-}" = --control ]; then
    control=1
    shift
fi
[ $# -ge 2 ] || { echo "usage: $0 [--control] SOURCE_DIR WORK_DIR [CC [GENERATOR]]" >&2; exit 2; }
src=$(cd "$1" && pwd)
work=$2
cc=${3:-cc}
generator=${4:-}
doc=$src/docs/architecture.md
tree=$work/tree
build=$work/build
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

# Nothing from the caller may change what is built or bound: not the outer make's
# jobserver, nor a preload, nor tunables or a profile.
unset MAKEFLAGS MFLAGS MAKELEVEL LD_PRELOAD LD_LIBRARY_PATH ALTMEM_TUNABLES
export ALTMEM_PROFILE=none

fail() {
    echo "arch_example: FAIL: $*"
    exit 1
}
step() { echo "arch_example: $*"; }

# ---- The blocks -----------------------------------------------------------------------
# blocks DIR: writes DIR/N.marker and DIR/N.block for every marked block of the page.
blocks() {
    awk -v dir="$1" '
        /^<!-- example: .* -->$/ { marker = $0; want = 1; next }
        want && /^```/ { n++; inside = 1; want = 0;
                         print marker > (dir "/" n ".marker"); printf "" > (dir "/" n ".block"); next }
        inside && /^```[[:space:]]*$/ { inside = 0; next }
        inside { print > (dir "/" n ".block"); next }
        want && !/^[[:space:]]*$/ { want = 0 }
        END { if (inside) { print "unterminated block" > "/dev/stderr"; exit 1 } }
    ' "$doc"
}

written=""      # the file the write block made (for --control)
routine="" name=""
apply() {
    local dir=$1 m marker path line
    for m in "$dir"/*.marker; do
        [ -e "$m" ] || fail "no '<!-- example: ... -->' block in $doc"
        marker=$(cat "$m")
        local block=${m%.marker}.block
        if [[ $marker =~ ^'<!-- example: write '([^ ]+)' -->'$ ]]; then
            path=${BASH_REMATCH[1]}
            [ ! -e "$tree/$path" ] || fail "the example writes $path, which the tree already has"
            mkdir -p "$(dirname "$tree/$path")"
            cp "$block" "$tree/$path"
            written=$path
            step "wrote $path ($(wc -l <"$block") lines) from $doc"
        elif [[ $marker =~ ^'<!-- example: insert into '([^ ]+)' before the line "'(.*)'" -->'$ ]]; then
            path=${BASH_REMATCH[1]}
            line=${BASH_REMATCH[2]}
            [ -f "$tree/$path" ] || fail "the example inserts into $path, which the tree does not have"
            grep -qxF -- "$line" "$tree/$path" || fail "$path has no line '$line' to insert the example before"
            awk -v line="$line" -v blk="$block" '
                $0 == line && !done { while ((getline l < blk) > 0) print l; done = 1 }
                { print }' "$tree/$path" >"$tree/$path.new"
            mv "$tree/$path.new" "$tree/$path"
            step "inserted $(wc -l <"$block") lines into $path before '$line'"
            local entry
            entry=$(grep -m1 '^VARIANT(' "$block" || true)
            if [[ $entry =~ ^VARIANT\(([a-z_]+),\ *([a-z0-9_]+), ]]; then
                routine=${BASH_REMATCH[1]}
                name=${BASH_REMATCH[2]}
            fi
        else
            fail "unknown marker: $marker"
        fi
    done
    [ -n "$written" ] || fail "$doc: no '<!-- example: write PATH -->' block"
    [ -n "$routine" ] || fail "$doc: no inserted block with a VARIANT(routine, name, ...) entry"
}

# ---- Build ------------------------------------------------------------------------------
build_targets() {
    step "building altmem_cli test_$routine test_select in $build"
    cmake --build "$build" -j "$jobs" --target altmem_cli "test_$routine" test_select >"$work/build.log" 2>&1 || {
        tail -n 60 "$work/build.log"
        fail "the build failed (log: $work/build.log)"
    }
}

# run LOG CMD...: runs CMD with stdout in LOG.out, stderr in LOG.err; returns its status.
run() {
    local log=$1
    shift
    "$@" >"$work/$log.out" 2>"$work/$log.err"
}

sweep() {       # check 3; returns non-zero on failure
    local t=$build/tests/test_$routine
    if ! run sweep "$t" --only "$name" --quick; then
        echo "test_$routine --only $name --quick failed:"
        tail -n 20 "$work/sweep.out" "$work/sweep.err"
        return 1
    fi
    grep -E "^$routine +$name +[0-9]+ cases +0 failures" "$work/sweep.out" || {
        echo "test_$routine --only $name: no line '$routine $name ... 0 failures'"
        cat "$work/sweep.out"
        return 1
    }
    if ! ALTMEM_TUNABLES="$routine=$name" run sweep_pinned "$t" --only "altmem_$routine" --quick; then
        echo "ALTMEM_TUNABLES=$routine=$name test_$routine --only altmem_$routine --quick failed:"
        tail -n 20 "$work/sweep_pinned.out" "$work/sweep_pinned.err"
        return 1
    fi
    grep -E "altmem_$routine bound to $name " "$work/sweep_pinned.out" >/dev/null || {
        echo "the pinned run does not say altmem_$routine bound to $name:"
        head -n 5 "$work/sweep_pinned.out"
        return 1
    }
    grep -E "^$routine +altmem_$routine +[0-9]+ cases +0 failures" "$work/sweep_pinned.out"
}

if [ "$control" = 1 ]; then
    [ -f "$work/example.env" ] || fail "--control needs a run of docs.arch_example on $work first"
    # shellcheck disable=SC1091
    . "$work/example.env"
    f=$tree/$written
    grep -qF 'd[i] = s[i]' "$f" || fail "control: $written has no 'd[i] = s[i]' to break"
    cp "$f" "$work/example.orig"
    sed -i '0,/d\[i\] = s\[i\]/s//d[i] = (unsigned char)(s[i] + (i == 100))/' "$f"
    step "control: $written now copies byte 100 wrong"
    trap 'cp "$work/example.orig" "$f"' EXIT
    build_targets
    if out=$(sweep 2>&1); then
        printf '%s\n' "$out"
        fail "control: the sweep passed on a broken variant"
    fi
    printf '%s\n' "$out" | tail -n 8
    step "control: passed: the sweep rejected the broken $routine $name"
    exit 0
fi

# ---- Copy the tree ----------------------------------------------------------------------
step "copying $src to $tree"
rm -rf "$tree" "$build" "$work/blocks" "$work/example.env"
mkdir -p "$tree" "$work/blocks"
list=$work/files.list
if top=$(git -C "$src" rev-parse --show-toplevel 2>/dev/null) && [ "$(cd "$top" && pwd -P)" = "$(cd "$src" && pwd -P)" ]; then
    git -C "$src" ls-files -co --exclude-standard | while IFS= read -r f; do
        [ -f "$src/$f" ] && printf '%s\n' "$f"
    done >"$list"
    how="git ls-files"
else
    (cd "$src" && find . \( -name .git -o \( -type d -exec test -e '{}/CMakeCache.txt' \; \) \) -prune \
        -o -type f -print | sed 's|^\./||') >"$list"
    how="find (not a git checkout)"
fi
tar -C "$src" -cf - -T "$list" | tar -C "$tree" -xf -
step "copied $(wc -l <"$list") files ($how)"

blocks "$work/blocks" || fail "cannot read the blocks of $doc"
apply "$work/blocks"
printf 'written=%q\nroutine=%q\nname=%q\n' "$written" "$routine" "$name" >"$work/example.env"
case $routine in
memcpy | memmove | memset) ;;
*) fail "the example's routine is $routine: this script runs the sweeps of memcpy, memmove and memset" ;;
esac

# ---- Configure and build ----------------------------------------------------------------
gen_args=()
[ -n "$generator" ] && gen_args=(-G "$generator")
step "configuring $build"
cmake -S "$tree" -B "$build" "${gen_args[@]}" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release \
    -DALTMEM_WERROR=ON -DALTMEM_NESTED=ON -DALTMEM_TEST_SWEEP=quick >"$work/configure.log" 2>&1 || {
    cat "$work/configure.log"
    fail "configuring the tree with the example failed"
}
build_targets
altmem=$build/tools/altmem

# ---- The checks ---------------------------------------------------------------------------
# 1. Listed.
run info "$altmem" info || fail "altmem info failed: $(cat "$work/info.err")"
line=$(grep -E "^  $routine +$name +needs " "$work/info.out") || {
    sed -n '/^variants/,$p' "$work/info.out"
    fail "altmem info does not list '$routine $name'"
}
[[ $line == *runnable* ]] || fail "altmem info lists it, but not runnable: $line"
step "ok 1: altmem info lists it: $line"

# 2. Pinned.
ALTMEM_TUNABLES="$routine=$name" run pinned "$altmem" info || fail "altmem info (pinned) failed"
line=$(grep -E "^$routine +$name +overridden .*pinned by ALTMEM_TUNABLES" "$work/pinned.out") || {
    sed -n '/^routine/,/^$/p' "$work/pinned.out"
    fail "with ALTMEM_TUNABLES=$routine=$name, altmem info does not show $routine bound to $name"
}
[ ! -s "$work/pinned.err" ] || fail "ALTMEM_TUNABLES=$routine=$name: warnings: $(cat "$work/pinned.err")"
step "ok 2: ALTMEM_TUNABLES=$routine=$name binds it: $line"

# 3. The sweep, on the variant and on the pinned entry.
out=$(sweep 2>&1) || { printf '%s\n' "$out"; fail "the sweep of $routine $name failed"; }
printf '%s\n' "$out" | sed 's/^/    /'
step "ok 3: test_$routine passes on it, directly and through the pinned entry"

# 4. The man page's check names it as missing.
page=$build/man/altmem-tunables.7
if [ -f "$page" ] && command -v python3 >/dev/null 2>&1; then
    if run man bash "$tree/tests/man/coverage.sh" tunables "$altmem" "$page"; then
        fail "tests/man/coverage.sh tunables passed: the page names '$name' already? (then the page's claim is untested)"
    fi
    grep -qF "does not mention the variant $name" "$work/man.out" "$work/man.err" ||
        { cat "$work/man.out" "$work/man.err"; fail "man.tunables's check failed, but not for '$name'"; }
    step "ok 4: man.tunables's check reports: $(grep -hF "variant $name" "$work/man.out" "$work/man.err" | head -n 1)"
else
    fail "no $page or no python3 to run tests/man/coverage.sh"
fi

# 5. test_select's reachability invariant rejects it.
if run select "$build/tests/test_select"; then
    fail "test_select passed with the example in the table"
fi
grep -E "$routine $name \(row [0-9]+\) can never be selected" "$work/select.out" "$work/select.err" >/dev/null || {
    grep -h FAIL "$work/select.out" "$work/select.err" | head -n 10
    fail "test_select failed, but not with '$routine $name (row N) can never be selected'"
}
step "ok 5: test_select rejects it: $(grep -hE "$routine $name \(row" "$work/select.out" "$work/select.err" | head -n 1)"
step "passed: the example of docs/architecture.md builds, binds, passes its sweep, and the checks the page names find it"
