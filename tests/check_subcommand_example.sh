#!/usr/bin/env bash
# The example of docs/architecture.md, "Adding a subcommand", built and run
# (tests docs.subcommand_example and docs.subcommand_example_control).
#
#   tests/check_subcommand_example.sh [--control] SOURCE_DIR WORK_DIR [CC [GENERATOR]]
#
# Applies the page's "<!-- example subcommand: ... -->" blocks to a copy of
# SOURCE_DIR in WORK_DIR/tree (tests/doc_example.sh), builds altmem in
# WORK_DIR/build (-Werror, ALTMEM_NESTED=ON), and checks what the page says:
#   1. `altmem bound` prints one line "ROUTINE VARIANT" per routine, the variant
#      `altmem info` shows bound to it;
#   2. `altmem help` has the line "altmem bound", and `altmem help bound` prints
#      what `altmem bound --help` prints;
#   3. man.cli's check (tests/man/coverage.sh cli) reports the page without a
#      section for it.
# --control (after a run without it, on the same WORK_DIR): swaps the two words
# of the example's lines, rebuilds, and passes only if check 1 then fails.
# Exit status: 0 passed, 1 failed.
example=subcommand
# shellcheck source=tests/doc_example.sh
. "$(dirname "$0")/doc_example.sh"
example_args "$@"
altmem=$build/tools/altmem
print_call='altmem_routine_name((enum altmem_routine)r), b.variant'

bound_matches_info() { # check 1; non-zero with the reason on stdout
    example_run bound "$altmem" bound || { echo "altmem bound failed: $(cat "$work/bound.err")"; return 1; }
    example_run info "$altmem" info || { echo "altmem info failed"; return 1; }
    local want
    want=$(awk '/^routine +bound to/ { t = 1; next } t && (NF == 0 || /^bound by/) { exit } t { print $1, $2 }' "$work/info.out")
    [ -n "$want" ] || { echo "no bindings table in altmem info"; return 1; }
    [ "$(cat "$work/bound.out")" = "$want" ] || {
        echo "altmem bound printed:"; cat "$work/bound.out"; echo "altmem info's table says:"; echo "$want"; return 1
    }
    echo "altmem bound: $(tr '\n' ';' <"$work/bound.out")"
}

if [ "$control" = 1 ]; then
    f=$tree/tools/bound.c
    [ -f "$f" ] || fail "--control needs a run of docs.subcommand_example on $work first"
    cp "$f" "$work/bound.orig"
    trap 'cp "$work/bound.orig" "$f"' EXIT
    body=$(cat "$f")
    printf '%s\n' "${body/"$print_call"/"b.variant, altmem_routine_name((enum altmem_routine)r)"}" >"$f"
    grep -qF "$print_call" "$f" && fail "control: could not swap the words in tools/bound.c"
    step "control: tools/bound.c now prints the variant first"
    example_build "$build" altmem_cli
    if out=$(bound_matches_info); then
        printf '%s\n' "$out"
        fail "control: check 1 passed on the broken subcommand"
    fi
    printf '%s\n' "$out" | head -n 4
    step "control: passed: check 1 rejected the broken subcommand"
    exit 0
fi

example_copy_tree "$src"
example_blocks "$work/blocks"
example_apply "$work/blocks"
grep -qF "$print_call" "$tree/tools/bound.c" || fail "the example's tools/bound.c has no '$print_call' (the control swaps it)"
example_configure "$build" "$cc" "$generator"
example_build "$build" altmem_cli altmem_man

# 1.
out=$(bound_matches_info) || { printf '%s\n' "$out"; fail "altmem bound does not print the bindings"; }
step "ok 1: $out"

# 2.
example_run help "$altmem" help || fail "altmem help failed"
grep -qE '^ +altmem bound$' "$work/help.out" || { cat "$work/help.out"; fail "altmem help does not list 'altmem bound'"; }
example_run help_bound "$altmem" help bound || fail "altmem help bound failed"
example_run bound_help "$altmem" bound --help || fail "altmem bound --help failed"
cmp -s "$work/help_bound.out" "$work/bound_help.out" || fail "altmem help bound differs from altmem bound --help"
[ -s "$work/help_bound.out" ] || fail "altmem help bound printed nothing"
step "ok 2: altmem help lists it; altmem help bound = altmem bound --help: $(head -n 1 "$work/help_bound.out")"

# 3.
page=$build/man/altmem.1
[ -f "$page" ] || fail "no $page"
if example_run man bash "$tree/tests/man/coverage.sh" cli "$altmem" "$page"; then
    fail "man.cli's check passed: the page has a section for 'bound' already? (then the page's claim is untested)"
fi
grep -qF 'no section ".SS altmem bound"' "$work/man.out" "$work/man.err" ||
    { cat "$work/man.out" "$work/man.err"; fail "man.cli's check failed, but not for 'altmem bound'"; }
step "ok 3: man.cli's check reports: $(grep -hF '.SS altmem bound' "$work/man.out" "$work/man.err" | head -n 1)"
step "passed: the example subcommand of docs/architecture.md builds, runs, and the checks the page names find it"
