#!/bin/sh
# What a library loaded into every process costs in page faults at start-up and
# exit, as far as its layout decides it (docs/dropin.md, "Start-up cost"):
#   - no DT_FINI: the loader would call _fini, which the linker puts after all
#     the text, far from the start-up code: one more page fault at every exit
#     (the crt's _fini does nothing; the destructors run from .fini_array);
#   - the writable data after RELRO (.data, .bss) within MAX_PAGES pages: a large
#     static array there (a buffer few processes use) lies between the variables
#     every start-up writes and spreads them over more pages, a fault each;
#   - no read-only PT_LOAD after the executable one (src/startup_layout.ld puts
#     .rodata and .eh_frame before the code, in the segment of the ELF headers
#     and dynamic symbols), and no zero-filled pages past the writable
#     segment's file part (.bss written into the file): each would be one more
#     mapping for the loader to make, about 3 us a process on a KVM guest;
#   - at most 32 KiB of padding between the functions of the text (the stubs'
#     page and the probe page beside it, which nothing else may share, take up
#     to 12 KiB of it): an entry aligned to stay in one page once gave its
#     alignment (up to 4 KiB) to its whole object and cold part
#     (src/arch/x86_64/x86_vec.h, ENTRY_ALIGNED): 52-57 KB of padding, one or
#     two more page faults in a static program.
#
#   startup_layout.sh READELF MAX_PAGES [--no-layout-script] LIBRARY...
#       --no-layout-script: the libraries were linked without src/startup_layout.ld
#       (a linker other than GNU ld): the segment checks are reported, not failed
#   startup_layout.sh READELF MAX_PAGES --control CC
#       builds a library with a 64 KiB static array between two variables, the
#       default _fini and sixteen functions aligned to 4 KiB, linked without
#       src/startup_layout.ld, and checks it: must fail (the check can fail).
set -eu
readelf=$1
max_pages=$2
shift 2
if [ "$1" = --control ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    cat >"$tmp/c.c" <<'EOF'
int first_state = 1;
static char big_buffer[65536];
int last_state;
char *control_buffer(void) { last_state = first_state; return big_buffer; }
#define PAGE_ALIGNED(n) __attribute__((aligned(4096), noinline)) int control_##n(int x) { return x * n + last_state; }
PAGE_ALIGNED(1) PAGE_ALIGNED(2) PAGE_ALIGNED(3) PAGE_ALIGNED(4)
PAGE_ALIGNED(5) PAGE_ALIGNED(6) PAGE_ALIGNED(7) PAGE_ALIGNED(8)
PAGE_ALIGNED(9) PAGE_ALIGNED(10) PAGE_ALIGNED(11) PAGE_ALIGNED(12)
PAGE_ALIGNED(13) PAGE_ALIGNED(14) PAGE_ALIGNED(15) PAGE_ALIGNED(16)
EOF
    "$2" -O2 -shared -fPIC "$tmp/c.c" -o "$tmp/libcontrol.so"
    set -- "$tmp/libcontrol.so"
fi
# A hexadecimal field of readelf (with or without 0x) as a number, for awk.
awk_hex='function hex(s,   i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
            for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
            return v }'
layout_script=1
if [ "$1" = --no-layout-script ]; then
    layout_script=0
    shift
fi
status=0
for lib in "$@"; do
    name=$(basename "$lib")
    if "$readelf" -dW "$lib" | grep -q '(FINI)'; then
        echo "FAIL: $name has DT_FINI (link it with -Wl,-fini=<an undefined name>)"
        status=1
    fi
    # The loader maps each PT_LOAD, and an anonymous mapping for a writable
    # one's zero-filled pages past its file part.
    loads=$("$readelf" -lW "$lib" | awk '
        '"$awk_hex"'
        $1 == "LOAD" { flags = ""; for (i = 7; i < NF; i++) flags = flags $i
            if (flags ~ /E/) seen_exec = 1
            else if (flags !~ /W/ && seen_exec) ro_after++
            if (flags ~ /W/) { v = hex($3); if (int((v + hex($6) - 1) / 4096) > int((v + hex($5) - 1) / 4096)) zero_pages = 1 }
            n++ }
        END { printf "%d %d %d\n", n, ro_after, zero_pages }')
    set -- $loads
    if [ "$2" -eq 0 ] && [ "$3" -eq 0 ]; then
        echo "$name: $1 PT_LOAD segments, none read-only after the code, no zero-filled pages past the file"
    elif [ "$layout_script" = 0 ]; then
        echo "$name: $1 PT_LOAD segments, $2 read-only after the code, zero-filled pages past the file: $3 (linked without src/startup_layout.ld, which is for GNU ld: not failed)"
    else
        if [ "$2" -gt 0 ]; then
            echo "FAIL: $name: $2 read-only PT_LOAD after the executable one (.rodata after .text: link with src/startup_layout.ld)"
        fi
        if [ "$3" -gt 0 ]; then
            echo "FAIL: $name: its writable PT_LOAD has zero-filled pages past its file part (an anonymous mapping: link with src/startup_layout.ld)"
        fi
        status=1
    fi
    # Padding: the distance between one function's end and the next one's start,
    # over the functions of the symbol table (a stripped library has fewer).
    pad=$("$readelf" -sW "$lib" | awk '
        '"$awk_hex"'
        $4 == "FUNC" && $3 + 0 > 0 && $7 ~ /^[0-9]+$/ { print hex($2), $3 + 0 }' | sort -n -u | awk '
        { if (NR > 1 && $1 > end) total += $1 - end; if ($1 + $2 > end) end = $1 + $2 }
        END { print total + 0 }')
    if [ "$pad" -gt 32768 ]; then
        echo "FAIL: $name: $pad bytes of padding between its functions, more than 32768 (readelf -sW: is an aligned function's section aligned whole?)"
        status=1
    else
        echo "$name: $pad bytes of padding between its functions, at most 32768"
    fi
    # The RW PT_LOAD and PT_GNU_RELRO: the writable part the loader does not
    # make read-only again is [RELRO end, segment end).
    seg=$("$readelf" -lW "$lib" | awk '$1 == "LOAD" && $7 ~ /W/ { print $3, $6; exit }')
    relro=$("$readelf" -lW "$lib" | awk '$1 == "GNU_RELRO" { print $3, $6; exit }')
    span=none
    if [ -n "$seg" ]; then
        set -- $seg
        start=$(($1)) end=$(($1 + $2))
        if [ -n "$relro" ]; then
            set -- $relro
            relro_end=$(($1 + $2))
            if [ "$relro_end" -gt "$start" ] && [ "$relro_end" -lt "$end" ]; then start=$relro_end; fi
        fi
        span="$(((end - 1) / 4096 - start / 4096 + 1)) $(printf '%#x %#x' "$start" "$end")"
    fi
    if [ "$span" = none ]; then
        echo "FAIL: $name: no writable PT_LOAD found by $readelf -lW"
        status=1
        continue
    fi
    set -- $span
    if [ "$1" -gt "$max_pages" ]; then
        echo "FAIL: $name: writable data after RELRO [$2, $3) spans $1 pages, more than $max_pages:"
        echo "  its largest objects (a large buffer belongs in memory mapped when needed):"
        nm -S --size-sort "$lib" 2>/dev/null | awk '$3 ~ /^[bBdD]$/' | tail -3 | sed 's/^/    /'
        status=1
    else
        echo "$name: no DT_FINI; writable data after RELRO [$2, $3): $1 page(s), at most $max_pages"
    fi
done
exit $status
