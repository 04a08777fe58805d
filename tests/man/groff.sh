#!/bin/sh
# groff -ww -z -man PAGE: the page renders with no warning at all (every warning
# enabled; -z: no output).  Any diagnostic fails, not only the exit status.
#   groff.sh GROFF PAGE
#   groff.sh --control GROFF WORKDIR   a page with a deliberate mistake (an undefined
#                                      macro, a bad font escape) must be caught
set -u
control=0
[ "$1" = --control ] && { control=1; shift; }
groff=$1
command -v "$groff" >/dev/null 2>&1 || { echo "SKIPPED: groff not found (Debian package groff-base; scripts/install-deps.sh installs it)"; exit 77; }
if [ $control -eq 1 ]; then
    work=$2
    mkdir -p "$work"
    printf '.TH BROKEN 7\n.SH NAME\nbroken \\- a page with mistakes\n.SH DESCRIPTION\n.XY undefined macro\n\\fQfont\\fP\n' >"$work/broken.7"
    out=$("$groff" -ww -z -man "$work/broken.7" 2>&1)
    printf '%s\n' "$out"
    if [ -z "$out" ]; then
        echo "CONTROL FAILED: groff -ww -z -man said nothing about $work/broken.7"
        exit 1
    fi
    echo "control passed: groff -ww reports the mistakes"
    exit 0
fi
page=$2
out=$("$groff" -ww -z -man "$page" 2>&1)
rc=$?
if [ $rc -ne 0 ] || [ -n "$out" ]; then
    printf '%s\n' "$out"
    echo "FAIL: groff -ww -z -man $page: exit $rc, $(printf '%s\n' "$out" | grep -c .) lines of diagnostics"
    exit 1
fi
echo "groff -ww -z -man $(basename "$page"): no warning ($(wc -l <"$page") lines)"
