#!/bin/sh
# No x86_64 variant entry straddles a page (src/arch/x86_64/x86_vec.h,
# ENTRY_ALIGNED): a small call would branch from one 4 KiB page into the next
# there (memmove_avx2 at 4-24 B: 1.62 -> 1.90 ns on Zen 4).
#
#   check_entry_pages.sh [--page BYTES] NM LIBRARY...
#
# Every function altmem_{memcpy,memmove,memset,copy_user,clear_user}_<variant>
# of the x86 vector widths (sse2, avx2, evex, avx512, avx512_halves) must lie inside one page of
# BYTES (default 4096), and at an address that is a multiple of the power of two
# at or above its size (at most the page): the rule that keeps it there whatever
# else moves (an entry of 581 bytes aligned to 512 landed at page offset 0xe00
# once its neighbours grew).  One control runs it with --page 256, which entries
# of 293 bytes and more cannot pass: it must fail; another gives it a symbol table
# with one entry inside its page but below its alignment (entry_pages_fake_nm.sh).
set -eu
page=4096
if [ "$1" = --page ]; then
    page=$2
    shift 2
fi
nm=$1
shift
status=0
for lib in "$@"; do
    out=$("$nm" -S --defined-only "$lib" |
        awk -v page="$page" -v lib="$(basename "$lib")" '
            function hex(s,   i, c, v) { v = 0; s = tolower(s)
                for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
                return v }
            $4 ~ /^altmem_(memcpy|memmove|memset|copy_user|clear_user)_(sse2|avx2|evex|avx512|avx512_halves)$/ && $3 ~ /^[tT]$/ {
                a = hex($1); n = hex($2); seen++
                if (int(a / page) != int((a + n - 1) / page)) {
                    printf "FAIL: %s: %s at %#x, %d bytes, crosses a %d-byte page\n", lib, $4, a, n, page; bad++ }
                for (al = 64; al < n && al < page; al *= 2) ;
                if (a % al) {
                    printf "FAIL: %s: %s at %#x, %d bytes, not %d-aligned (ENTRY_ALIGNED below its size)\n", lib, $4, a, n, al; bad++ }
            }
            END { if (!seen) { printf "FAIL: %s: no x86 variant entry found\n", lib; exit 1 }
                  printf "%s: %d entries, %s\n", lib, seen, bad ? bad " failing" : "each inside one page, aligned to its size"; exit bad ? 1 : 0 }') || status=1
    echo "$out"
done
exit $status
