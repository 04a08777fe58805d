#!/bin/sh
# The core library objects must call nothing outside altmem: they run in the
# library constructor, in freestanding builds, and inside memcpy itself, where a
# compiler-generated call to memcpy would recurse.  Only altmem's own symbols
# (altmem_*, altmem__*), the linker-made bounds of its sections (__start_altmem_*,
# __stop_altmem_*) and _GLOBAL_OFFSET_TABLE_ may be undefined.
#
#   check_nolibc.sh [--nm NM] [--allow-sanitizer] OBJECT...
#   check_nolibc.sh [--nm NM] --self-test CC [NOLIBC_FLAGS...]
#
# --allow-sanitizer also accepts the sanitizer runtimes' entry points, which
# instrumented objects call by design.  --self-test is the negative control:
# objects that call memcpy and getenv must be rejected, naming each symbol.
set -u

NM="nm"
ALLOW_SAN=0
SELF_TEST=""
while [ $# -gt 0 ]; do
    case "$1" in
    --nm) NM=$2; shift 2 ;;
    --allow-sanitizer) ALLOW_SAN=1; shift ;;
    --self-test) SELF_TEST=$2; shift 2; break ;;
    --) shift; break ;;
    -*) echo "check_nolibc: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done

if [ -n "$SELF_TEST" ]; then
    CC=$SELF_TEST
    dir=$(mktemp -d "${TMPDIR:-/tmp}/altmem-nolibc.XXXXXX") || exit 2
    trap 'rm -rf "$dir"' EXIT
    fail=0
    cat >"$dir/calls_libc.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
void *altmem_ctl_copy(void *d, const void *s, size_t n) { return memcpy(d, s, n); }
const char *altmem_ctl_env(void) { return getenv("ALTMEM_TUNABLES"); }
EOF
    cat >"$dir/clean.c" <<'EOF'
extern long altmem__ctl_other(long);
long altmem_ctl_ok(long x) { return altmem__ctl_other(x) * 3 + 1; }
EOF
    # Byte loops the compiler turns into memcpy/memset calls unless told not to:
    # the reason the core is built with the no-libc flags.
    cat >"$dir/loops.c" <<'EOF'
void altmem_ctl_bytes(unsigned char *restrict d, const unsigned char *restrict s, unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        d[i] = s[i];
}
void altmem_ctl_zero(unsigned char *d, unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        d[i] = 0;
}
EOF
    "$CC" -O2 -c "$dir/calls_libc.c" -o "$dir/calls_libc.o" || exit 2
    "$CC" -O2 -c "$dir/clean.c" -o "$dir/clean.o" || exit 2
    "$CC" -O2 -c "$dir/loops.c" -o "$dir/loops_plain.o" || exit 2
    # shellcheck disable=SC2068 # the flags are separate words on purpose
    "$CC" -O2 $@ -c "$dir/loops.c" -o "$dir/loops_nolibc.o" || exit 2

    out=$(sh "$0" --nm "$NM" "$dir/calls_libc.o" 2>&1); rc=$?
    printf '%s\n' "$out" | sed 's/^/    /'
    if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "calls_libc.o: undefined symbol memcpy" &&
        printf '%s\n' "$out" | grep -q "calls_libc.o: undefined symbol getenv"; then
        echo "negative control: object calling memcpy and getenv rejected, both named"
    else
        echo "FAIL: object calling memcpy/getenv was not rejected as expected (rc=$rc)"
        fail=1
    fi
    out=$(sh "$0" --nm "$NM" "$dir/clean.o" 2>&1); rc=$?
    printf '%s\n' "$out" | sed 's/^/    /'
    if [ $rc -eq 0 ]; then
        echo "control: object referencing only altmem__* accepted"
    else
        echo "FAIL: clean object rejected (rc=$rc)"
        fail=1
    fi
    out=$(sh "$0" --nm "$NM" "$dir/loops_nolibc.o" 2>&1); rc=$?
    printf '%s\n' "$out" | sed 's/^/    /'
    if [ $rc -eq 0 ]; then
        echo "control: byte loops built with the no-libc flags ($*) accepted"
    else
        echo "FAIL: byte loops built with the no-libc flags ($*) still call libc"
        fail=1
    fi
    # Informational: whether this compiler would have introduced the calls.
    out=$(sh "$0" --nm "$NM" "$dir/loops_plain.o" 2>&1); rc=$?
    if [ $rc -ne 0 ]; then
        echo "info: without those flags this compiler turns the byte loops into calls; caught:"
        printf '%s\n' "$out" | sed 's/^/    /'
    else
        echo "info: without those flags this compiler kept the byte loops as loops"
    fi
    [ $fail -eq 0 ] && echo "nolibc self-test: passed" || echo "nolibc self-test: FAILED"
    exit $fail
fi

if [ $# -eq 0 ]; then
    echo "check_nolibc: no object files given" >&2
    exit 2
fi

set -f      # symbol names are split on whitespace, never globbed
bad=0
nsyms=0
for obj in "$@"; do
    if ! syms=$("$NM" -u "$obj"); then
        echo "check_nolibc: $obj: $NM failed"
        bad=1
        continue
    fi
    for sym in $(printf '%s\n' "$syms" | awk 'NF { print $NF }'); do
        nsyms=$((nsyms + 1))
        case "$sym" in
        altmem_* | _GLOBAL_OFFSET_TABLE_ | __start_altmem_* | __stop_altmem_*) continue ;;
        __asan_* | __ubsan_* | __sanitizer_* | __tsan_* | __msan_* | __lsan_* | __hwasan_* | \
            __start_asan_globals | __stop_asan_globals)
            [ $ALLOW_SAN -eq 1 ] && continue ;;
        esac
        echo "check_nolibc: $obj: undefined symbol $sym (core objects may reference only altmem_*)"
        bad=1
    done
done
if [ $bad -eq 0 ]; then
    echo "check_nolibc: $# objects, $nsyms undefined references, all altmem's own: passed"
fi
exit $bad
