#!/usr/bin/env bash
# Instructions per call at small sizes (0..64 bytes), counted by callgrind:
# altmem_memcpy / altmem_memmove / altmem_memset (through the patched entry, bound
# to what altmem selects on the CPU valgrind presents) against the C library's own
# memcpy / memmove / memset, in one valgrind run (bench/smallcost.c).
#
#   scripts/small-cost.sh [BUILD_DIR] [--table]
#
# Prints, per routine, the instructions per call of each implementation for every
# size, and the totals over 0..64 and over the sizes where altmem needs more; with
# --table, a Markdown table by size class instead.  Exit status 0 when it ran (the
# comparison is a goal reported, not a test), 77 when valgrind or the driver is
# missing.  Note: valgrind presents a CPU without AVX-512 (it cannot run it), so
# glibc picks its AVX2 routines and altmem its avx2 variants here.
#
#   scripts/small-cost.sh [BUILD_DIR] --width W [--mask M] [--align 0/0|s+1/d+3|d+63]
#
# Per vector width W (sse2, avx2, evex, avx512): altmem's variant of that width,
# called directly, against glibc's variant of the same width (selected by the
# GLIBC_TUNABLES mask that `altmem bench --libc-width` finds, or --mask M), at the
# sizes on both sides of every class boundary up to 256 bytes: instructions, taken
# jumps and GPR <-> vector transfers per call (and GPR -> opmask moves), counted by
# single-stepping under gdb (bench/stepcost.c, scripts/stepcost.py): the same
# counts on any CPU that can run the width.  Exit status 77 without gdb or where
# this CPU cannot run W.  --align: the buffers' layout, as altmem bench's cells
# of that name (default 0/0).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
table=0
[ "${2:-}" = --table ] && table=1
unset MAKEFLAGS MFLAGS MAKELEVEL

if [ "${2:-}" = --width ]; then
    width=${3:?--width needs sse2, avx2, evex or avx512}
    mask= have_mask=0
    shift 3
    while [ $# -gt 0 ]; do
        case $1 in
        --mask) mask=${2-}; have_mask=1; shift 2 ;;
        --align) export STEPCOST_ALIGN=${2:?--align needs 0/0, s+1/d+3 or d+63}; shift 2 ;;
        *) echo "small-cost.sh: unknown option $1" >&2; exit 2 ;;
        esac
    done
    if [ $have_mask = 0 ]; then
        # The mask altmem bench --libc-width finds for this width here.
        mask=$("$build/tools/altmem" bench --libc-width "$width" --sizes 0 --align 0/0 --reps 1 \
                   --min-sample-ms 0.01 --routine memcpy 2>/dev/null |
               sed -n 's/^==== width .*GLIBC_TUNABLES=glibc.cpu.hwcaps=\([^)]*\)) ====$/\1/p' | head -n 1)
    fi
    command -v gdb >/dev/null || { echo "small-cost.sh: SKIPPED: gdb is not installed" >&2; exit 77; }
    cmake --build "$build" --target altmem_stepcost >/dev/null 2>&1 || true
    drv=$build/bench/altmem-stepcost
    [ -x "$drv" ] || { echo "small-cost.sh: SKIPPED: $drv not built (x86_64 only)" >&2; exit 77; }
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
    if [ -n "$mask" ]; then export GLIBC_TUNABLES="glibc.cpu.hwcaps=$mask"; else unset GLIBC_TUNABLES; fi
    gdb -q -batch -x "$here/stepcost.py" --args "$drv" "$width" >"$out" 2>&1 || true
    grep -q '^altmem-stepcost: altmem' "$out" || { cat "$out" >&2; exit 77; }
    sed -n 's/^altmem-stepcost: //p' "$out"
    echo "GLIBC_TUNABLES=${GLIBC_TUNABLES:-(unset)}; layout ${STEPCOST_ALIGN:-0/0}; counts per call, the routine's own (its ret included), by single-stepping"
    awk '$1 == "COST" { k = $2 " " $3 " " $4; i[k] = $5; t[k] = $6; x[k] = $7; m[k] = $8;
                        if (!($2 in seen)) { seen[$2] = 1; rs[++nr] = $2 }
                        if (!(($2, $4) in sz)) { sz[$2, $4] = 1; ns[$2]++; szs[$2, ns[$2]] = $4 } }
         END {
             for (q = 1; q <= nr; q++) {
                 r = rs[q]
                 printf("\n%s                      altmem                 glibc\n", r)
                 printf("  %5s  %6s %5s %4s %4s   %6s %5s %4s %4s\n", "size", "insns", "taken", "xfer", "kmov",
                        "insns", "taken", "xfer", "kmov")
                 more_i = more_t = 0; list = ""
                 for (j = 1; j <= ns[r]; j++) {
                     n = szs[r, j]; a = r " altmem " n; l = r " libc " n; z = r " nop " n
                     ai = i[a] - i[z] + 1; li = i[l] - i[z] + 1
                     at = t[a] - t[z]; lt = t[l] - t[z]; ax = x[a] - x[z]; lx = x[l] - x[z]
                     mark = (at > lt) ? "  <- more taken jumps" : ""
                     if (at > lt) { more_t++; list = list " " n }
                     if (ai > li) more_i++
                     printf("  %5d  %6d %5d %4d %4d   %6d %5d %4d %4d%s\n", n, ai, at, ax, m[a] - m[z], li, lt, lx,
                            m[l] - m[z], mark)
                 }
                 printf("  %s: more taken jumps than glibc at %d of %d sizes%s; more instructions at %d\n", r,
                        more_t, ns[r], more_t ? " (" substr(list, 2) ")" : "", more_i)
             }
         }' "$out"
    exit 0
fi

command -v valgrind >/dev/null || { echo "small-cost.sh: SKIPPED: valgrind is not installed" >&2; exit 77; }
cmake --build "$build" --target altmem_smallcost >/dev/null 2>&1 || true
drv=$build/bench/altmem-smallcost
[ -x "$drv" ] || { echo "small-cost.sh: SKIPPED: $drv not built (needs valgrind/callgrind.h, x86_64)" >&2; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
libc=$(getconf GNU_LIBC_VERSION 2>/dev/null | tr ' ' '-' || true)
[ -n "$libc" ] || libc=libc
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.%p" \
    "$drv" "$libc" >"$tmp/stdout" 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; exit 1; }
head -n1 "$tmp/stdout" | sed 's/^/under valgrind: /'
echo "libc: $libc; valgrind $(valgrind --version | sed 's/valgrind-//')"

# Each dump: "desc: Trigger: Client Request: ROUTINE IMPL SIZE" ... "totals: IR".
for f in "$tmp"/cg.*; do
    awk '/^desc: Trigger: Client Request:/ { r = $5; i = $6; n = $7 }
         /^totals:/ { if (r != "") print r, i, n, $2 }' "$f"
done | sort -k1,1 -k3,3n >"$tmp/all"

awk -v libc="$libc" -v table="$table" '
    { ir[$1, $2, $3] = $4; routines[$1] = 1; if ($3 > max) max = $3 }
    END {
        split("memcpy memmove memset", order, " ")
        for (k = 1; k <= 3; k++) {
            r = order[k]
            if (!(r in routines)) continue
            # (impl - nop) / calls + 1: the implementation, its ret included.
            calls = 1000
            tl = ta = 0; worse = ""; nworse = 0
            for (n = 0; n <= max; n++) {
                a[n] = (ir[r, "altmem", n] - ir[r, "nop", n]) / calls + 1
                l[n] = (ir[r, libc, n] - ir[r, "nop", n]) / calls + 1
                tl += l[n]; ta += a[n]
                if (a[n] > l[n] + 0.01) { worse = worse " " n; nworse++ }
            }
            if (table) {
                printf("| %s | ", r)
                split("0 1-3 4-7 8-15 16-31 32 33-63 64", cls, " ")
                for (c = 1; c <= 8; c++) {
                    split(cls[c], lim, "-"); lo = lim[1]; hi = (2 in lim) ? lim[2] : lim[1]
                    sa = sl = 0; m = 0
                    for (n = lo; n <= hi; n++) { sa += a[n]; sl += l[n]; m++ }
                    printf("%.1f / %.1f | ", sa / m, sl / m)
                    delete lim
                }
                printf("%.2f / %.2f |\n", ta / (max + 1), tl / (max + 1))
                continue
            }
            printf("\n%s: instructions per call, altmem / %s\n", r, libc)
            for (n = 0; n <= max; n++)
                printf("  %2d: %5.1f / %5.1f%s", n, a[n], l[n], (n % 4 == 3) ? "\n" : "")
            printf("\n  mean over 0..%d: altmem %.2f, %s %.2f (%.3fx); altmem needs more at %d size%s%s\n",
                   max, ta / (max + 1), libc, tl / (max + 1), ta / tl, nworse, nworse == 1 ? "" : "s",
                   nworse ? ":" worse : "")
        }
    }' "$tmp/all"
