#!/usr/bin/env bash
# The example of docs/architecture.md, "Adding a bench mode", built and run
# (tests docs.bench_mode_example and docs.bench_mode_example_control).
#
#   tests/check_bench_mode_example.sh [--control] SOURCE_DIR WORK_DIR [CC [GENERATOR]]
#
# The page holds the example as fenced code blocks after marker lines
# "<!-- example bench_mode: ... -->" (the format: tests/doc_example.sh): the mode's
# file, and its row to insert into bench/modes.def.  This script copies
# SOURCE_DIR's files to WORK_DIR/tree, applies the blocks, configures WORK_DIR/build
# (-Werror, ALTMEM_NESTED=ON), builds altmem, and checks what the page says of the
# example: `altmem bench FLAG` (FLAG from the row's bench_has_flag) exits 0, prints
# one line, "example-mode: memcpy 4096 B, N ns per call" with N above 0, and
# nothing on stderr.
# --control (after a run without it, on the same WORK_DIR): takes the row out of
# bench/modes.def again, rebuilds, and passes only if the check then fails, with
# `altmem bench FLAG` refused as an unknown option (exit status 2): the row is
# what makes the mode.  The row is put back before it exits.
# Exit status: 0 passed, 1 failed.
example=bench_mode
# shellcheck source=tests/doc_example.sh
. "$(dirname "$0")/doc_example.sh"
example_args "$@"
table=bench/modes.def

# The check; prints what it found, returns non-zero on failure.
check_mode() {
    local rc=0
    "$build/tools/altmem" bench "$flag" >"$work/mode.out" 2>"$work/mode.err" || rc=$?
    if [ "$rc" != 0 ]; then
        echo "altmem bench $flag: exit status $rc"
        cat "$work/mode.out" "$work/mode.err"
        return 1
    fi
    [ ! -s "$work/mode.err" ] || { echo "altmem bench $flag: stderr: $(cat "$work/mode.err")"; return 1; }
    [ "$(wc -l <"$work/mode.out")" = 1 ] || { echo "altmem bench $flag: not one line:"; cat "$work/mode.out"; return 1; }
    if ! grep -Eq '^example-mode: memcpy 4096 B, [0-9]+\.[0-9]+ ns per call$' "$work/mode.out" ||
        ! awk '{ exit !($(NF-3) > 0) }' "$work/mode.out"; then
        echo "altmem bench $flag: not 'example-mode: memcpy 4096 B, N ns per call' with N above 0:"
        cat "$work/mode.out"
        return 1
    fi
    echo "altmem bench $flag: $(cat "$work/mode.out")"
}

if [ "$control" = 1 ]; then
    [ -f "$work/example.env" ] || fail "--control needs a run of docs.bench_mode_example on $work first"
    # shellcheck disable=SC1091
    . "$work/example.env"
    cp "$tree/$table" "$work/table.with"
    trap 'cp "$work/table.with" "$tree/$table"' EXIT
    cp "$work/table.without" "$tree/$table"
    step "control: the example's row taken out of $table"
    example_build "$build" altmem_cli
    if out=$(check_mode 2>&1); then
        printf '%s\n' "$out"
        fail "control: the mode still ran without its row"
    fi
    printf '%s\n' "$out" | head -n 3
    grep -q "^altmem bench: unknown option '$flag'" "$work/mode.err" ||
        fail "control: the check failed, but not with altmem bench refusing $flag as an unknown option"
    step "control: passed: without its row, altmem bench refuses $flag"
    exit 0
fi

# ---- Copy the tree, apply the example ----------------------------------------------------
rm -f "$work/example.env"
example_copy_tree "$src"
cp "$tree/$table" "$work/table.without"
example_blocks "$work/blocks"
example_apply "$work/blocks"
cmp -s "$tree/$table" "$work/table.without" && fail "the example inserts no row into $table"
row=$(grep -vxF -f "$work/table.without" "$tree/$table" | head -n 1 || true)
[[ $row =~ bench_has_flag\(job,\ \"([^\"]+)\"\) ]] || fail "the example's row is chosen by no bench_has_flag(job, \"FLAG\"): $row"
flag=${BASH_REMATCH[1]}
printf 'flag=%q\n' "$flag" >"$work/example.env"

# ---- Configure, build, check ----------------------------------------------------------------
example_configure "$build" "$cc" "$generator"
example_build "$build" altmem_cli
out=$(check_mode 2>&1) || { printf '%s\n' "$out"; fail "the example mode does not do what the page says"; }
step "ok: $out"
step "passed: the example of docs/architecture.md, a file and a row, builds and runs as altmem bench $flag"
