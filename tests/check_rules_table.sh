#!/usr/bin/env bash
# docs/tunables.md's table of per-CPU rules against src/policy.c's
# (tests docs.rules_table and docs.rules_table_control).
#
#   tests/check_rules_table.sh SOURCE_DIR
#   tests/check_rules_table.sh --control SOURCE_DIR WORK_DIR
#
# The rows of altmem__policy_rules[] (their names: the first string of each) and
# the rows of the table under "## The policy and the per-CPU rules" (the name in
# backquotes in the first column) must be the same names in the same order: the
# order is the rules' (a later one overrides an earlier one).
# --control: a copy of the page without its second row, and one with a row for a
# rule that does not exist, must each fail, naming that rule.
# Exit status: 0 passed, 1 failed.
set -euo pipefail
control=0
if [ "${1:-}" = --control ]; then
    control=1
    shift
fi
[ $# -ge 1 ] || { echo "usage: $0 [--control] SOURCE_DIR [WORK_DIR]" >&2; exit 2; }
src=$1

code_rules() {
    awk '/^const struct altmem__policy_rule altmem__policy_rules\[\] = \{/ { inside = 1; next }
         inside && /^\};/ { exit }
         inside && match($0, /^    \{"[a-z0-9-]+",/) { s = substr($0, 7); sub(/".*/, "", s); print s }' "$src/src/policy.c"
}
doc_rules() {
    awk '/^## The policy and the per-CPU rules/ { inside = 1; next }
         inside && /^#/ { exit }
         inside && match($0, /^\| `[a-z0-9-]+` \|/) { s = substr($0, 4); sub(/`.*/, "", s); print s }' "$1"
}

check() { # PAGE: 0 if its table names the code's rules in order
    local code doc
    code=$(code_rules)
    doc=$(doc_rules "$1")
    [ -n "$code" ] || { echo "FAIL: no rules read from src/policy.c"; return 1; }
    if [ "$code" != "$doc" ]; then
        echo "FAIL: $1's table of rules differs from src/policy.c's (< code, > page):"
        diff <(printf '%s\n' "$code") <(printf '%s\n' "$doc") | grep '^[<>]'
        return 1
    fi
    echo "ok: $1 lists the $(printf '%s\n' "$code" | wc -l) rules of src/policy.c in their order: $(echo $code)"
}

if [ $control = 0 ]; then
    check "$src/docs/tunables.md"
    exit
fi
work=${2:?--control needs a WORK_DIR}
mkdir -p "$work"
second=$(code_rules | sed -n 2p)
grep -v "^| \`$second\` |" "$src/docs/tunables.md" >"$work/missing-row.md"
if out=$(check "$work/missing-row.md"); then
    echo "FAIL: control: the page without the row of '$second' passed"; exit 1
fi
grep -q "^< $second\$" <<<"$out" || { echo "$out"; echo "FAIL: control: failed, but not naming '$second'"; exit 1; }
echo "ok: control: without its row, '$second' is named"
awk '{ print } /^\| `defaults` \|/ { print "| `no-such-rule` | none | nothing | none |" }' "$src/docs/tunables.md" \
    >"$work/extra-row.md"
if out=$(check "$work/extra-row.md"); then
    echo "FAIL: control: the page with a row for 'no-such-rule' passed"; exit 1
fi
grep -q '^> no-such-rule$' <<<"$out" || { echo "$out"; echo "FAIL: control: failed, but not naming 'no-such-rule'"; exit 1; }
echo "ok: control: a row for a rule that does not exist is named"
