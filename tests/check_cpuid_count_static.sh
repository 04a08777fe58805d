#!/bin/sh
# test_cpuid_count.c linked as a static glibc program (issue 30): glibc's libc.a
# keeps its start-up CPUID leaves too, but the OS layer's reference to
# __x86_get_cpuid_feature_leaf is weak (the same libaltmem.a links with musl-gcc,
# which has none), and a weak reference takes no member out of an archive: the
# link asks for it, -Wl,-u,__x86_get_cpuid_feature_leaf, as docs/dropin.md and
# `pkg-config --static --libs altmem` do.  Then a static program executes no
# more CPUID than a dynamic one.
#
#   check_cpuid_count_static.sh CC SRC_DIR INCLUDE_DIRS... -- LIBALTMEM_A WORK [--control|--no-u]
#
#   --control   detection ignores glibc's leaves: must fail
#   --no-u      linked without the -u: glibc's leaves are not there, must fail
#
# Exit 77 (reason last) where the compiler cannot link a static program.
set -u
CC=$1 SRC=$2
shift 2
incs=""
while [ "$1" != "--" ]; do
    incs="$incs -I$1"
    shift
done
shift
LIB=$1 WORK=$2
shift 2
mkdir -p "$WORK"
printf 'int main(void) { return 0; }\n' >"$WORK/trivial.c"
if ! "$CC" -static "$WORK/trivial.c" -o "$WORK/trivial" >"$WORK/trivial.log" 2>&1; then
    cat "$WORK/trivial.log"
    echo "SKIPPED: $CC cannot link a static program (glibc's libc.a, in libc6-dev, is missing)"
    exit 77
fi
u=-Wl,-u,__x86_get_cpuid_feature_leaf
if [ "${1:-}" = --no-u ]; then
    u=
    shift
fi
# shellcheck disable=SC2086
"$CC" -O2 -static $incs "$SRC/test_cpuid_count.c" "$LIB" $u -o "$WORK/test_cpuid_count_static" || {
    echo "FAIL: could not link test_cpuid_count.c statically"
    exit 1
}
exec "$WORK/test_cpuid_count_static" --static "$@"
