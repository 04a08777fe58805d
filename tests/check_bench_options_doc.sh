#!/usr/bin/env bash
# docs/performance.md's table of `altmem bench` options is kept in step with the
# code: every option `altmem bench --help` prints has a row of the table (a line
# starting "| `--"), and every option a row names is one `altmem bench --help`
# prints.  The names come from the program, never from a list kept here.
#
#   check_bench_options_doc.sh ALTMEM DOC            the check
#   check_bench_options_doc.sh ALTMEM DOC --control  negative control: the table
#       without the row of the first option must fail, naming that option
set -u
altmem=$1 doc=$2 control=${3:-}
help=$("$altmem" bench --help 2>&1) || { echo "FAIL: '$altmem bench --help' failed: $help"; exit 1; }
opts=$(printf '%s\n' "$help" | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u)
[ -n "$opts" ] || { echo "FAIL: no option in the output of '$altmem bench --help'"; exit 1; }
rows=$(grep -E '^\| `--' "$doc")
[ -n "$rows" ] || { echo "FAIL: $doc has no table row for an option"; exit 1; }
if [ "$control" = --control ]; then
    first=$(printf '%s\n' "$opts" | grep -vx -- --help | head -n 1)
    rows=$(printf '%s\n' "$rows" | grep -vE -- "(^|[^a-z0-9-])$first([^a-z0-9-]|$)")
    echo "control: the table without the rows that name $first"
fi
# an option named in TEXT, not as part of a longer one
names() { printf '%s\n' "$1" | grep -qE -- "(^|[^a-z0-9-])$2([^a-z0-9-]|$)"; }
fail=0 n=0 named=0
for o in $opts; do
    n=$((n + 1))
    names "$rows" "$o" || {
        echo "FAIL: $(basename "$doc") has no table row for $o (from \`altmem bench --help\`)"
        fail=1
        [ "$o" = "${first:-}" ] && named=1
    }
done
# The rows' options, up to the meaning column: each one the program has.
for o in $(printf '%s\n' "$rows" | cut -d'|' -f2 | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u); do
    names "$opts" "$o" || { echo "FAIL: $(basename "$doc") has a row for $o, which \`altmem bench --help\` does not print"; fail=1; }
done
echo "checked $n options of \`altmem bench --help\` against $(printf '%s\n' "$rows" | wc -l) rows of $(basename "$doc")"
if [ "$control" = --control ]; then
    [ $named -eq 1 ] || { echo "CONTROL FAILED: the check did not name $first without its row"; exit 1; }
    echo "control: the check failed, as it must"
    exit 0
fi
exit $fail
