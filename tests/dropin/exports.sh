#!/bin/sh
# What the drop-in libraries define, and what they need, from their symbol tables.
#
#   exports.sh [--allow-sanitizer] NM CC LIBPRELOAD_SO LIBALTMEM_LIBC_A PRELOAD_C_O
#
#   1. libaltmem-preload.so exports exactly the names of src/preload/exports.map plus
#      altmem's API (altmem_[a-z]*), nothing internal (altmem__*) and nothing else;
#   2. every one of those C names is exported by the C library too (else it is not a
#      drop-in for anything), and every name of that family the C library exports
#      (memcpy, mempcpy, bzero, the _chk and wide forms...) is among ours: a program
#      importing one we lack would keep the C library's without anyone noticing;
#   3. memcpy, memmove and memset are the entry stubs: the same addresses as
#      altmem_memcpy, altmem_memmove, altmem_memset;
#   4. libaltmem-libc.a defines the same C names (the static drop-in);
#   5. preload.c's object references nothing but altmem's own functions and the C
#      library's __chk_fail: no compiler-generated call to memcpy inside what is
#      now the program's memcpy.
# --allow-sanitizer: a sanitized build's objects also reference the sanitizer runtime.
set -u
allow_san=0
[ "$1" = --allow-sanitizer ] && { allow_san=1; shift; }
NM=$1 CC=$2 SO=$3 AR=$4 OBJ=$5
fail=0
bad() { echo "FAIL: $*"; fail=1; }

ours="memcpy memmove memset mempcpy __mempcpy bcopy bzero __bzero explicit_bzero __memcpy_chk __memmove_chk
__mempcpy_chk __memset_chk __explicit_bzero_chk wmemcpy wmemmove wmempcpy wmemset __wmemcpy_chk __wmemmove_chk
__wmempcpy_chk __wmemset_chk"
ours_sorted=$(printf '%s\n' $ours | sort)

# 1. Exports.
defined=$("$NM" -D --defined-only "$SO" | awk '{ print $NF }' | sed 's/@.*//' | sort -u)
c_names=$(printf '%s\n' "$defined" | grep -v '^altmem_' || true)
api=$(printf '%s\n' "$defined" | grep '^altmem_' || true)
if [ "$c_names" != "$ours_sorted" ]; then
    bad "C names exported by $SO differ from exports.map:"
    want=$(mktemp "${TMPDIR:-/tmp}/altmem-exports.XXXXXX")
    printf '%s\n' "$ours_sorted" >"$want"
    printf '%s\n' "$c_names" | diff "$want" - | sed 's/^/    /'
    rm -f "$want"
fi
if printf '%s\n' "$api" | grep -q '^altmem__'; then
    bad "internal symbols exported: $(printf '%s\n' "$api" | grep '^altmem__' | tr '\n' ' ')"
fi
for f in altmem_memcpy altmem_memmove altmem_memset altmem_init altmem_binding; do
    printf '%s\n' "$api" | grep -qx "$f" || bad "$f not exported"
done
echo "exports: $(printf '%s\n' "$c_names" | wc -l) C library names, $(printf '%s\n' "$api" | wc -l) altmem_* API functions"

# 2. Against the C library.
libc=$("$CC" -print-file-name=libc.so.6)
if [ -f "$libc" ]; then
    family=$("$NM" -D --defined-only "$libc" | awk '{ print $NF }' | sed 's/@.*//' |
        grep -E '^(__)?(w?mem(cpy|move|set|pcpy)|bzero|bcopy|explicit_bzero)(_chk)?$' | sort -u)
    for n in $ours; do
        printf '%s\n' "$family" | grep -qx "$n" || bad "$n is not exported by $libc: not a drop-in for anything"
    done
    for n in $family; do
        printf '%s\n' "$ours_sorted" | grep -qx "$n" || bad "$libc exports $n, which libaltmem-preload.so does not"
    done
    echo "C library ($libc): exports $(printf '%s\n' "$family" | wc -l) names of the family, all provided"
else
    echo "C library: no libc.so.6 here ($CC is not a glibc toolchain); comparison skipped"
fi

# 3. The stubs under both names.
for r in memcpy memmove memset; do
    a=$("$NM" -D --defined-only "$SO" | awk -v n="$r" '$NF == n { print $1 }')
    b=$("$NM" -D --defined-only "$SO" | awk -v n="altmem_$r" '$NF == n { print $1 }')
    [ -n "$a" ] && [ "$a" = "$b" ] || bad "$r ($a) is not altmem_$r ($b)"
done

# 4. The static archive.
archive=$("$NM" --defined-only "$AR" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TW]$/ { print $3 }' | sort -u)
for n in $ours; do
    printf '%s\n' "$archive" | grep -qx "$n" || bad "$AR does not define $n"
done

# 5. preload.c references.
for s in $("$NM" -u "$OBJ" | awk 'NF { print $NF }'); do
    case "$s" in
    altmem_* | __chk_fail | _GLOBAL_OFFSET_TABLE_) ;;
    __asan_* | __ubsan_* | __sanitizer_* | __start_asan_globals | __stop_asan_globals)
        [ $allow_san -eq 1 ] || bad "preload.c.o references $s" ;;
    *) bad "preload.c.o references $s (only altmem_* and __chk_fail are allowed)" ;;
    esac
done

[ $fail -eq 0 ] && echo "exports: passed" || echo "exports: FAILED"
exit $fail
