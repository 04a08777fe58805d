#!/usr/bin/env bash
# The example of docs/architecture.md, "Adding a per-CPU rule", built and run
# (tests docs.rule_example and docs.rule_example_control).
#
#   tests/check_rule_example.sh [--control] SOURCE_DIR WORK_DIR [CC [GENERATOR]]
#
# Applies the page's "<!-- example rule: ... -->" blocks to a copy of SOURCE_DIR
# in WORK_DIR/tree (tests/doc_example.sh), builds test_select in WORK_DIR/build
# (-Werror, ALTMEM_NESTED=ON), and checks what the page says of the example:
#   1. the rule is a row of the copied src/policy.c, and the copied
#      tests/test_select.c has a case expecting it;
#   2. test_select passes: on the example's CPU the rule applies with the
#      values the case expects, and every other case is as before;
#   3. docs.rules_table's check (tests/check_rules_table.sh) passes on the copy.
# --control (after a run without it, on the same WORK_DIR): changes the
# example's "64 * K" to "32 * K" in the copied src/policy.c, rebuilds, and
# passes only if test_select then fails naming the example's CPU.
# Exit status: 0 passed, 1 failed.
example=rule
# shellcheck source=tests/doc_example.sh
. "$(dirname "$0")/doc_example.sh"
example_args "$@"

select_fails_on() { # CASE: test_select must fail, naming CASE
    if example_run select "$build/tests/test_select"; then
        fail "control: test_select passed with the example's value changed"
    fi
    grep -hF "$1" "$work/select.out" "$work/select.err" | grep -F FAIL ||
        { tail -n 20 "$work/select.out" "$work/select.err"; fail "control: test_select failed, but not naming '$1'"; }
}

if [ "$control" = 1 ]; then
    [ -f "$work/example.env" ] || fail "--control needs a run of docs.rule_example on $work first"
    # shellcheck disable=SC1091
    . "$work/example.env"
    f=$tree/src/policy.c
    grep -qF "$apply_line" "$f" || fail "control: src/policy.c has no '$apply_line' to change"
    cp "$f" "$work/policy.orig"
    trap 'cp "$work/policy.orig" "$f"' EXIT
    changed=$(cat "$f")
    printf '%s\n' "${changed/"$apply_line"/"${apply_line/64/32}"}" >"$f"
    grep -qF "${apply_line/64/32}" "$f" || fail "control: could not change '$apply_line'"
    step "control: the example's rule now sets ${apply_line/64/32}"
    example_build "$build" test_select
    select_fails_on "$case_name"
    step "control: passed: test_select rejected the changed rule"
    exit 0
fi

rm -f "$work/example.env"
example_copy_tree "$src"
example_blocks "$work/blocks"
example_apply "$work/blocks"

# 1. What the blocks hold.
# first_match ERE: the first text of the blocks that matches (no pipe that a
# reader leaving early could break: set -o pipefail would see SIGPIPE).
first_match() { awk -v re="$1" 'match($0, re) { print substr($0, RSTART, RLENGTH); exit }' "$work"/blocks/*.block; }
rule=$(first_match '^    [{]"[a-z0-9-]+",')
rule=${rule#*\"}; rule=${rule%\",}
[ -n "$rule" ] || fail "no rule row ({\"name\", ...) in the example's blocks"
case_name=$(first_match '^        [{]"[^"]+",')
case_name=${case_name#*\"}; case_name=${case_name%\",}
[ -n "$case_name" ] || fail "no test_select case ({\"what\", ...) in the example's blocks"
apply_line=$(first_match 'p->[a-z_]+(\[[0-9]+\])? = 64 [*] K;')
[ -n "$apply_line" ] || fail "no 'p->... = 64 * K;' in the example's apply function"
grep -qF "{\"$rule\"," "$tree/src/policy.c" || fail "the copied src/policy.c has no row '$rule'"
grep -qE "\"defaults( [a-z0-9-]+)* $rule\"" "$tree/tests/test_select.c" || fail "no test_select case expects '$rule'"
printf 'case_name=%q\napply_line=%q\n' "$case_name" "$apply_line" >"$work/example.env"
step "ok 1: rule '$rule', case '$case_name', which sets $apply_line"

example_configure "$build" "$cc" "$generator"
example_build "$build" test_select

# 2. test_select passes, the example's case included.
example_run select "$build/tests/test_select" ||
    { grep -h FAIL "$work/select.out" "$work/select.err" | head -n 10; fail "test_select failed with the example"; }
step "ok 2: test_select passes with the rule and its case"

# 3. The page's table names it, in its place.
out=$(bash "$tree/tests/check_rules_table.sh" "$tree") || { printf '%s\n' "$out"; fail "docs.rules_table's check failed"; }
step "ok 3: $out"
step "passed: the example rule of docs/architecture.md builds and its checks pass"
