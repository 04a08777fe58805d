#!/bin/sh
# What a library loaded into every process costs in page faults at start-up and
# exit, as far as its layout decides it (docs/dropin.md, "Start-up cost"):
#   - no DT_FINI: the loader would call _fini, which the linker puts after all
#     the text, far from the start-up code: one more page fault at every exit
#     (the crt's _fini does nothing; the destructors run from .fini_array);
#   - the writable data after RELRO (.data, .bss) within MAX_PAGES pages: a large
#     static array there (a buffer few processes use) lies between the variables
#     every start-up writes and spreads them over more pages, a fault each.
#
#   startup_layout.sh READELF MAX_PAGES LIBRARY...
#   startup_layout.sh READELF MAX_PAGES --control CC
#       builds a library with a 64 KiB static array between two variables and the
#       default _fini, and checks it: must fail (the check can fail).
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
EOF
    "$2" -O2 -shared -fPIC "$tmp/c.c" -o "$tmp/libcontrol.so"
    set -- "$tmp/libcontrol.so"
fi
status=0
for lib in "$@"; do
    name=$(basename "$lib")
    if "$readelf" -dW "$lib" | grep -q '(FINI)'; then
        echo "FAIL: $name has DT_FINI (link it with -Wl,-fini=<an undefined name>)"
        status=1
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
