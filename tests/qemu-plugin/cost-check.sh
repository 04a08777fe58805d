#!/bin/sh
# The cost measure's own test (tests/cost.cmake, label cost): the counts of
# scripts/qemu-cost.sh must be exact and repeatable.  It asserts no speed.
#
#   cost-check.sh plugin|log ARCH DRIVER SRCDIR
#
#   plugin   counts through the TCG plugin under Debian's qemu 7.2
#   log      counts from the one-instruction-per-TB exec log under qemu 10
#            (/opt/altmem/qemu-bpo) when it is unpacked, else under 7.2; and
#            every row both methods measured must have the same count
# Checks, at sizes 0, 64 and 4096 over every runnable variant: every count is
# positive; two runs give identical counts; the planted loop costs exactly
# 2n + 2 (qemu-cost.sh checks it); and, through the plugin, with EXTRA=50 (the
# planted loop after each measured call) every row costs at least 102 more (the
# negative control: a measure that missed instructions would fail it; the log
# method is held to the plugin's counts instead, which is the stronger check).
# Exit status 0 passed, 1 failed, 77 skipped (the reason as the last line; a
# failure when ALTMEM_CROSS_REQUIRED=1).
set -u
method=$1 arch=$2 driver=$3 src=$4
script=$src/scripts/qemu-cost.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "cost-check: FAILED: $*"; exit 1; }
skip() {
    if [ "${ALTMEM_CROSS_REQUIRED:-0}" = 1 ]; then
        echo "cost-check: ALTMEM_CROSS_REQUIRED=1, so this is a failure: $*"
        exit 1
    fi
    echo "cost-check: SKIPPED: $*"
    exit 77
}
# One call per segment: the counts are exact (docs/arch-notes.md), and the exec log
# is then a third as long.
export DRIVER="$driver" SIZES=0,64,4096 FORMAT=raw CALLS=1
unset EXTRA QEMU METHOD ROUTINE IMPL OFFSETS FROM_RAW RAWOUT
# The ual rows everywhere: riscv64 under qemu 7.2 (no riscv_hwprobe) detects no UAL,
# and the emulator runs them anyway (the rows both methods measure must be the same).
export ALTMEM_TUNABLES=hwcaps=+UAL

measure() { # OUT [VAR=VALUE...]: one run of qemu-cost.sh into OUT
    out=$1
    shift
    env "$@" bash "$script" "$arch" >"$out" 2>"$out.err"
    rc=$?
    [ $rc -eq 77 ] && skip "$(tail -n 1 "$out.err")"
    [ $rc -eq 0 ] || { cat "$out.err"; fail "qemu-cost.sh $arch ($*) exited $rc"; }
}

case $method in
plugin) set -- QEMU=/usr/bin/qemu-$arch METHOD=plugin ;;
log)
    if [ -x /opt/altmem/qemu-bpo/usr/bin/qemu-$arch ]; then
        set -- QEMU=bpo METHOD=log
    else
        echo "cost-check: qemu 10 is not unpacked; the exec log of qemu 7.2 instead"
        set -- QEMU=/usr/bin/qemu-$arch METHOD=log
    fi ;;
*) fail "method must be plugin or log, not '$method'" ;;
esac
[ -x "/usr/bin/qemu-$arch" ] || skip "no /usr/bin/qemu-$arch (Debian package qemu-user)"

measure "$tmp/a" "$@"
measure "$tmp/b" "$@"
rows=$(wc -l <"$tmp/a")
[ "$rows" -gt 0 ] || fail "no row measured"
echo "cost-check: $arch, $method ($*): $rows rows"
cat "$tmp/a"
awk '$5 <= 0 || $7 <= 0 { print "cost-check: not positive: " $0; bad = 1 } END { exit bad }' "$tmp/a" ||
    fail "a count is not positive"
cmp -s "$tmp/a" "$tmp/b" || { diff "$tmp/a" "$tmp/b"; fail "two runs gave different counts"; }
echo "cost-check: two runs identical"

if [ "$method" = plugin ]; then
    measure "$tmp/x" "$@" EXTRA=50
    awk 'FNR == NR { base[$1 " " $2 " " $3] = $7; next }
         { k = $1 " " $2 " " $3
           if (!(k in base)) { print "cost-check: row missing without EXTRA: " k; bad = 1; next }
           if ($7 < base[k] + 102) { printf "cost-check: %s: %s with 50 planted iterations, %s without\n", k, $7, base[k]; bad = 1 } }
         END { exit bad }' "$tmp/a" "$tmp/x" || fail "the planted extra loop was not counted"
    echo "cost-check: the planted extra loop (50 iterations, 102 instructions) raised every row by at least 102"
fi

if [ "$method" = log ]; then
    # The two methods on the same rows: the plugin under qemu 7.2 against this log.
    measure "$tmp/p" QEMU=/usr/bin/qemu-$arch METHOD=plugin
    common=$(awk 'FNR == NR { p[$1 " " $2 " " $3] = $0; next } ($1 " " $2 " " $3) in p { n++ } END { print n + 0 }' "$tmp/p" "$tmp/a")
    [ "$common" -gt 0 ] || fail "no row measured by both methods"
    awk 'FNR == NR { p[$1 " " $2 " " $3] = $0; next }
         { k = $1 " " $2 " " $3; if ((k in p) && p[k] != $0) { print "plugin: " p[k]; print "log:    " $0; bad = 1 } }
         END { exit bad }' "$tmp/p" "$tmp/a" || fail "the plugin and the exec log disagree (above)"
    echo "cost-check: the plugin (qemu 7.2) and the exec log agree exactly on all $common rows both measured"
fi
echo "cost-check: passed"
