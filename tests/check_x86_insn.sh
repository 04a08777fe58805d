#!/bin/sh
# The x86-64 decoder of copied entries against objdump (tests/test_x86_insn.c).
#
#   check_x86_insn.sh TEST_X86_INSN library FILE   every instruction of altmem's
#                                                   library known and as objdump says
#   check_x86_insn.sh TEST_X86_INSN libc           the C library of this machine:
#                                                   unknown allowed, wrong never
#   check_x86_insn.sh TEST_X86_INSN control        a listing with one wrong length
#                                                   and one missed %rip: both must be
#                                                   reported (the check's negative control)
# Exit 77 (skip) without objdump.
set -eu
tool=$1 what=$2
command -v objdump >/dev/null 2>&1 || { echo "check_x86_insn.sh: no objdump: skipped"; exit 77; }
case $what in
library)
    objdump -d -w --insn-width=16 "$3" | "$tool" --objdump --strict ;;
libc)
    libc=$(ldd "$tool" | awk '$1 ~ /^libc\.so/ { print $3 }')
    [ -n "$libc" ] && [ -f "$libc" ] || { echo "check_x86_insn.sh: no libc.so found by ldd: skipped"; exit 77; }
    echo "check_x86_insn.sh: $libc"
    objdump -d -w --insn-width=16 "$libc" | "$tool" --objdump ;;
control)
    # Two wrong listings, each of which the check must call wrong: a 3-byte
    # instruction listed with a fourth byte, and a %rip operand not printed.
    out=$(printf '   0:\t48 39 f0 90 \tcmp    %%rsi,%%rax\n   4:\t48 8b 05 00 00 00 00 \tmov    0x0,%%rax\n' |
          "$tool" --objdump 2>&1) && { echo "$out"; echo "control: the wrong listing passed"; exit 1; }
    echo "$out"
    case $out in
    *"length 3, objdump 4"*"RIP-relative yes"*"2 failures"*) echo "control: both caught" ;;
    *) echo "control: not both caught"; exit 1 ;;
    esac ;;
*)
    echo "check_x86_insn.sh: library FILE, libc or control" >&2; exit 2 ;;
esac
