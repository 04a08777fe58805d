#!/bin/sh
# Whether a static program's memcpy, memmove and memset are altmem's: for each,
# exactly one definition, at the address of altmem_<name>.  One line per routine:
#
#   ok NAME ADDRESS
#   bad NAME DEFINITIONS ADDRESS ALTMEM_ADDRESS      (an empty address as "none")
#
# exit status 1 if any line is "bad".  Shared by tests/dropin/static.sh and
# scripts/musl-programs.sh.
#
#   scripts/dropin-nm.sh PROGRAM
set -u
syms=$(nm "$1") || exit 2
rc=0
for r in memcpy memmove memset; do
    defs=$(printf '%s\n' "$syms" | awk -v n="$r" '$NF == n && $2 ~ /^[TtWiV]$/' | wc -l)
    addr=$(printf '%s\n' "$syms" | awk -v n="$r" '$NF == n { print $1 }')
    alt=$(printf '%s\n' "$syms" | awk -v n="altmem_$r" '$NF == n { print $1 }')
    if [ "$defs" -eq 1 ] && [ -n "$alt" ] && [ "$addr" = "$alt" ]; then
        echo "ok $r $addr"
    else
        echo "bad $r $defs ${addr:-none} ${alt:-none}"
        rc=1
    fi
done
exit $rc
