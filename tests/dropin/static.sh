#!/bin/sh
# A static program whose memcpy, memmove and memset are altmem's, built the way
# docs/dropin.md tells users to:
#
#   cc -static prog.c -Wl,--whole-archive libaltmem-libc.a -Wl,--no-whole-archive
#
#   static.sh glibc|musl CC SRC_DIR INCLUDE_DIR LIBALTMEM_LIBC_A LIBALTMEM_A WORK [BOUND_BY]
#
#   glibc  CC (the build's compiler) with glibc's libc.a;
#   musl   musl-gcc (Debian package musl-tools) with musl's libc.a, linking the same
#          libaltmem-libc.a.
# tests/dropin/static_prog.c checks that memcpy/memmove/memset are altmem_memcpy/...,
# that the constructor bound them (BOUND_BY), and the results.  Also checked here:
#   - the linked program holds exactly one definition of each name (the C library's
#     own, IFUNC or not, was not linked under that name);
#   - negative control: the same program linked with plain libaltmem.a (altmem
#     under its own names only) must report that memcpy is NOT altmem_memcpy.
# Exit 77 (reason last) when the static C library or musl-gcc is missing.
set -u
flavour=$1 CC=$2 SRC=$3 INC=$4 LIBC_A=$5 PLAIN_A=$6 WORK=$7 BOUND=${8:-}
fail=0
bad() { echo "FAIL: $*"; fail=1; }
rm -rf "$WORK"
mkdir -p "$WORK"

case "$flavour" in
glibc) ;;
musl)
    CC=$(command -v musl-gcc) || {
        echo "SKIPPED: musl-gcc not found (Debian package musl-tools; scripts/install-deps.sh installs it)"
        exit 77
    }
    ;;
*) echo "usage: static.sh glibc|musl ..." >&2; exit 2 ;;
esac

# The reference loops in calls.h must stay loops.
flags="-O2 -std=gnu11 -Wall -Wextra -Werror -fno-builtin"
"$CC" -fno-tree-loop-distribute-patterns -E -x c /dev/null >/dev/null 2>&1 &&
    flags="$flags -fno-tree-loop-distribute-patterns"

printf 'int main(void) { return 0; }\n' >"$WORK/trivial.c"
if ! "$CC" -static "$WORK/trivial.c" -o "$WORK/trivial" >"$WORK/trivial.log" 2>&1; then
    cat "$WORK/trivial.log"
    if [ "$flavour" = glibc ]; then
        echo "SKIPPED: $CC cannot link a static program (glibc's libc.a, in libc6-dev, is missing)"
    else
        echo "SKIPPED: musl-gcc cannot link a static program"
    fi
    exit 77
fi

link() {    # link OUT ARCHIVE-ARGS...
    out=$1
    shift
    echo "+ $CC $flags -static -I$INC -I$SRC static_prog.c $* -o $out"
    "$CC" $flags -static -I"$INC" -I"$SRC" "$SRC/static_prog.c" "$@" -o "$WORK/$out"
}

if ! link prog -Wl,--whole-archive "$LIBC_A" -Wl,--no-whole-archive; then
    bad "the documented static link failed"
else
    file "$WORK/prog" 2>/dev/null | sed 's/^/    /'
    "$WORK/prog" ${BOUND:+"$BOUND"} || bad "static program ($flavour)"
    # One definition of each, at altmem_<name>'s address (scripts/dropin-nm.sh).
    sh "$(dirname "$0")/../../scripts/dropin-nm.sh" "$WORK/prog" >"$WORK/nm.out"
    while read -r verdict r a b c; do
        if [ "$verdict" = ok ]; then
            echo "ok: one $r in the program, at altmem_$r's address $a"
        else
            bad "$r: $a definitions, at $b; altmem_$r at $c"
        fi
    done <"$WORK/nm.out"
fi

echo "--- negative control: linked with libaltmem.a (own names only)"
if ! link control "$PLAIN_A"; then
    bad "the control program did not link"
else
    out=$("$WORK/control" 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -E '^mem|static program'
    if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q '^memcpy   is NOT altmem_memcpy'; then
        echo "ok: the check tells the C library's memcpy from altmem's"
    else
        bad "control: a program with the C library's memcpy was not caught (exit $rc)"
    fi
fi

if [ $fail -eq 0 ]; then
    rm -rf "$WORK"
    echo "static $flavour: passed"
else
    echo "static $flavour: FAILED"
fi
exit $fail
