#!/usr/bin/env bash
# The example of docs/architecture.md, "Adding a variant", built and run
# (tests docs.arch_example and docs.arch_example_control).
#
#   tests/check_arch_example.sh [--control] SOURCE_DIR WORK_DIR [CC [GENERATOR]]
#
# The page holds the example as fenced code blocks after marker lines
# "<!-- example variant: ... -->" (the format: tests/doc_example.sh, which this
# script uses to copy SOURCE_DIR's files to WORK_DIR/tree and apply the
# blocks).  It configures WORK_DIR/build (-Werror, ALTMEM_NESTED=ON), builds altmem,
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
example=variant
# shellcheck source=tests/doc_example.sh
. "$(dirname "$0")/doc_example.sh"
example_args "$@"

# The routine and name of the VARIANT entry the example inserts.
variant_of_example() {
    local entry
    entry=$(cat "$1"/*.block | grep -m1 '^VARIANT(' || true)
    [[ $entry =~ ^VARIANT\(([a-z_]+),\ *([a-z0-9_]+), ]] ||
        fail "$doc: no inserted block with a VARIANT(routine, name, ...) entry"
    routine=${BASH_REMATCH[1]}
    name=${BASH_REMATCH[2]}
}

# ---- Build ------------------------------------------------------------------------------
build_targets() { example_build "$build" altmem_cli "test_$routine" test_select; }
run() { example_run "$@"; }

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

# ---- Copy the tree, apply the example, build ----------------------------------------------
rm -rf "$work/example.env"
example_copy_tree "$src"
example_blocks "$work/blocks"
example_apply "$work/blocks"
variant_of_example "$work/blocks"
written=${example_written%% *}
[ -n "$written" ] || fail "$doc: no '<!-- example variant: write PATH -->' block"
printf 'written=%q\nroutine=%q\nname=%q\n' "$written" "$routine" "$name" >"$work/example.env"
case $routine in
memcpy | memmove | memset) ;;
*) fail "the example's routine is $routine: this script runs the sweeps of memcpy, memmove and memset" ;;
esac
example_configure "$build" "$cc" "$generator"
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
