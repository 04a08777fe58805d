#!/usr/bin/env bash
# The cost of reaching a variant, for every binding: callgrind instructions per
# call (repeatable) and interleaved timings (noisy on a shared VM), for 0-, 8-
# and 32-byte copies.  Prints a Markdown table (docs/dispatch.md holds one).
#
#   scripts/dispatch-cost.sh [BUILD_DIR] [ROUNDS]
#
# Bindings measured, each in its own process (the binding is fixed at load):
#   direct          a call straight to the bound variant (altmem_memcpy_ual)
#   patched         altmem_memcpy, patched branch, program linked with libaltmem.a
#   patched, PLT    the same through the PLT, program linked with libaltmem.so under
#                   ALTMEM_TUNABLES=bind=patch (its IFUNC entries hand out the stub)
#   pointer stub    the patch build with ALTMEM_TUNABLES=bind=pointer: the unpatched
#                   stub's jmp +0, then jmp *pointer (what a refused mprotect leaves)
#   pointer (C)     ALTMEM_BINDING=pointer: a C entry point that jumps through the pointer
#   IFUNC build, PLT  ALTMEM_BINDING=ifunc, program linked with libaltmem.so
#   IFUNC entries, PLT     the default build's libaltmem.so, through the PLT
#   IFUNC entries, no PLT  the same, program built with -fno-plt (`call *GOT`)
#
#   scripts/dispatch-cost.sh [BUILD_DIR] --widths [ROUNDS [LINKAGE...]]
#
# instead: per vector width this CPU runs (sse2, avx2, avx512), memcpy and memset at
# 0, 8, 16, 32, 64, 256, 1024 and 4096 bytes, the public entry bound to that width's
# variant (ALTMEM_TUNABLES=memcpy=W) against a direct call to the same variant and
# against the direct call from a second loop (the control: the same code under a
# second name), each from loops of its own, in rounds of a shuffled order in one
# process (docs/performance.md, "Method"); per cell the median over ROUNDS fresh
# processes (default 9) of entry / direct, with the lowest and highest process, and
# per row the control's medians.  The goal: within 2% per cell, or the cost named.
# LINKAGE (default: static, static-patch, shared, shared-noplt, shared-patch), as a program
# reaches the entry:
#   static        linked with libaltmem.a: `call altmem_memcpy`, the stub holding a copy
#                 of the variant (docs/alternatives.md, "Copied entries");
#                 direct: `call altmem_memcpy_W`
#   static-patch  the same under ALTMEM_TUNABLES=bind=patch: the stub's patched branch
#   shared        linked with libaltmem.so (IFUNC entries): `call altmem_memcpy@PLT`;
#                 direct: `call *reg` to the variant (the PLT's jump is every shared
#                 library's, glibc's memcpy's too)
#   shared-noplt  the same built with -fno-plt: `call *GOT`, which the loader pointed
#                 at the variant
#   shared-patch  shared-noplt under ALTMEM_TUNABLES=bind=patch: the stub again
#   static-pointer  static, against the variant called through a pointer (the call
#                 an IFUNC would give a static program: is the stub's jump dearer?)
#   static-libc   a program linked -static with glibc and libaltmem.a (altmem-dispatch-static):
#                 the entry as in static, against the C library's memcpy/memset called
#                 by name (`call` to its IRELATIVE PLT entry, `jmp *slot`), glibc's variant
#                 of the same width chosen by GLIBC_TUNABLES=glibc.cpu.hwcaps (the masks
#                 altmem bench --libc-width finds on Intel; the row names the variant
#                 glibc bound): below 1, altmem's call is the quicker
#   preload       the shared program under LD_PRELOAD=libaltmem-preload.so, whose
#                 altmem_memcpy it then calls (as a program's memcpy): `call @PLT`, the
#                 slot the preload gave the variant (src/preload/plt_bind.c); direct:
#                 `call *reg` to the preload's variant
#   preload-patch the same under ALTMEM_TUNABLES=bind=patch: the slot holds the stub
#
#   scripts/dispatch-cost.sh [BUILD_DIR] --cold [ROUNDS]
#
# instead: each call cold, after 32768 taken jumps elsewhere have evicted its
# branches from the predictor and its code from the L1i (bench/dispatch/cold_btb.c,
# x86_64): per width, memcpy and memset at 8 and 256 bytes, the static entry
# as bound by default (the variant copied into it), under bind=patch (the
# stub's patched jmp) and under bind=pointer (the stub's `jmp *pointer`),
# each against the same variant called by name; per cell the median over
# ROUNDS processes (default 5) of each process's median paired difference, in
# TSC cycles (lowest-highest process), and the variant through a pointer
# (`call *reg`, a PLT's or IFUNC's indirect jump) against the same direct call.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
rounds=${2:-7}
calls=100000
unset MAKEFLAGS MFLAGS MAKELEVEL

# The x86_64 vector widths `altmem info` says this CPU runs, and the CPU's line.
runnable_widths() {
    "$build/tools/altmem" info | awk '$1 == "memcpy" && $3 ~ /^needs/ && $0 ~ / runnable / { print $2 }' |
        grep -E '^(sse2|avx2|avx512)$' | tr '\n' ' '
}
cpu_line() { "$build/tools/altmem" info | sed -n 's/^cpu: *//p'; }

if [ "$rounds" = --cold ]; then
    rounds=${3:-5}
    cmake --build "$build" -j "$(nproc)" --target altmem_dispatch_cold altmem_cli >/dev/null
    drv=$build/bench/dispatch/altmem-dispatch-cold
    widths=$(runnable_widths)
    med() { sort -g | awk '{ v[NR] = $1 } END { printf "%g (%g..%g)", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
    echo "cold calls: entry - direct call of the same variant, TSC cycles; median of $rounds processes (lowest..highest),"
    echo "each the median of 4000 paired samples ($(uname -m), $(cpu_line))"
    echo
    echo "| width | routine | size | copied entry | patched stub (bind=patch) | pointer stub (bind=pointer) | variant through a pointer | control | direct, cycles |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
    for w in $widths; do
      for r in memcpy memset; do
        for size in 8 256; do
            pc=() pe=() pp=() vp=() ct=() di=() tsc=""
            for ((k = 0; k < rounds; k++)); do
                for bind in "" :bind=patch :bind=pointer; do
                    line=$(ALTMEM_TUNABLES=$r=$w$bind "$drv" --routine $r --variant "$w" --size $size --samples 4000)
                    f() { sed -E "s/.* $1=(-?[0-9.]+).*/\1/" <<<"$line"; }
                    case "$bind:$line" in
                    ":bound_by=copied "*)
                        pc+=("$(f entry-direct)") vp+=("$(f pointer-direct)") ct+=("$(f control-direct)") di+=("$(f direct)")
                        tsc=$(f tsc_ghz) ;;
                    ":bind=patch:bound_by=patched branch "*) pe+=("$(f entry-direct)") ;;
                    ":bind=pointer:bound_by=pointer "*) pp+=("$(f entry-direct)") ;;
                    *) echo "dispatch-cost.sh: not bound as asked ($bind): $line" >&2; exit 1 ;;
                    esac
                done
            done
            echo "| $w | $r | $size | $(printf '%s\n' "${pc[@]}" | med) | $(printf '%s\n' "${pe[@]}" | med) |" \
                 "$(printf '%s\n' "${pp[@]}" | med) | $(printf '%s\n' "${vp[@]}" | med) | $(printf '%s\n' "${ct[@]}" | med) |" \
                 "$(printf '%s\n' "${di[@]}" | med) |"
        done
      done
    done
    echo
    echo "TSC: $tsc GHz"
    exit 0
fi

if [ "$rounds" = --widths ]; then
    rounds=${3:-9}
    shift $(($# < 3 ? $# : 3))
    linkages=${*:-static static-patch shared shared-noplt shared-patch}
    cmake --build "$build" -j "$(nproc)" --target altmem_dispatch altmem_dispatch_shared altmem_dispatch_noplt \
        altmem_cli altmem_preload >/dev/null
    case " $* " in *" static-libc "*) cmake --build "$build" -j "$(nproc)" --target altmem_dispatch_static >/dev/null ;; esac
    widths=$(runnable_widths)
    sizes="0 8 16 32 64 256 1024 4096"
    echo "entry (bound to the width's variant) / direct call of the same variant; median of $rounds"
    echo "processes (lowest-highest), each 15 rounds of the entry, the direct call and the control"
    echo "(1,000,000 calls each up to 256 B, 200,000 above; $(uname -m), $(cpu_line))"
    echo
    echo "| linkage | width | routine | $(echo $sizes | sed 's/\([0-9]*\)/\1 B/g; s/ B /\ B | /g') | direct ns at 0 / 8 / 32 B | control (direct / direct), by size |"
    echo "|---|---|---|$(for s in $sizes; do printf -- '---:|'; done)---|---|"
    for linkage in $linkages; do
      extra="" pre=()
      case $linkage in
      static) drv=$build/bench/dispatch/altmem-dispatch ;;
      static-patch) drv=$build/bench/dispatch/altmem-dispatch extra=:bind=patch ;;
      shared) drv=$build/bench/dispatch/altmem-dispatch-shared ;;
      shared-noplt) drv=$build/bench/dispatch/altmem-dispatch-noplt ;;
      shared-patch) drv=$build/bench/dispatch/altmem-dispatch-noplt extra=:bind=patch ;;
      static-pointer) drv=$build/bench/dispatch/altmem-dispatch ;;
      static-libc)
          drv=$build/bench/dispatch/altmem-dispatch-static
          [ -x "$drv" ] || { echo "dispatch-cost.sh: no $drv (glibc's libc.a: libc6-dev)" >&2; exit 2; } ;;
      preload | preload-patch)
          drv=$build/bench/dispatch/altmem-dispatch-shared pre=(env "LD_PRELOAD=$build/src/preload/libaltmem-preload.so")
          [ $linkage = preload-patch ] && extra=:bind=patch ;;
      *) echo "dispatch-cost.sh: no linkage '$linkage' (static, static-patch, shared, shared-noplt, shared-patch, static-pointer, static-libc, preload, preload-patch)" >&2
         exit 2 ;;
      esac
      for w in $widths; do
        for r in memcpy memset; do
            row="| $linkage | $w | $r |"
            dns="" ctl="" glibc_env=() libc_seen=""
            if [ "$linkage" = static-libc ]; then
                case $w in
                sse2) glibc_env=("GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX2,-AVX_Fast_Unaligned_Load,-RTM") ;;
                avx2) glibc_env=("GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-RTM,-Prefer_No_VZEROUPPER") ;;
                esac
            fi
            for size in $sizes; do
                rs=() ds=() cs=()
                calls=1000000
                [ "$size" -gt 256 ] && calls=200000
                for ((k = 0; k < rounds; k++)); do
                    via=()
                    [ "$linkage" = static-pointer ] && via=(--direct pointer)
                    [ "$linkage" = static-libc ] && via=(--direct libc)
                    line=$(env "${glibc_env[@]}" ALTMEM_TUNABLES=$r=$w$extra "${pre[@]}" "$drv" --routine $r --variant "$w" \
                           --size $size --reps 15 --calls $calls "${via[@]}")
                    case $line in *" libc="*) libc_seen=${line##* libc=} ;; esac
                    case $line in *"variant=$w "*) ;; *) echo "dispatch-cost.sh: not bound to $w: $line" >&2; exit 1 ;; esac
                    rs+=("$(sed -E 's/.*ratio=([0-9.]+).*/\1/' <<<"$line")")
                    ds+=("$(sed -E 's/.*direct_ns=([0-9.]+).*/\1/' <<<"$line")")
                    cs+=("$(sed -E 's/.*control=([0-9.]+).*/\1/' <<<"$line")")
                done
                med=$(printf '%s\n' "${rs[@]}" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f (%.3f-%.3f)", v[int((NR + 1) / 2)], v[1], v[NR] }')
                dmed=$(printf '%s\n' "${ds[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
                cmed=$(printf '%s\n' "${cs[@]}" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }')
                row="$row $med |"
                ctl="$ctl${ctl:+ }$cmed"
                case $size in 0 | 8 | 32) dns="$dns${dns:+ / }$dmed" ;; esac
            done
            [ -n "$libc_seen" ] && row=${row/| $w |/| $w (glibc: $libc_seen) |}
            echo "$row $dns | $ctl |"
        done
      done
    done
    exit 0
fi

command -v valgrind >/dev/null || { echo "dispatch-cost.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
for mode in pointer ifunc; do
    b=$build/binding-$mode
    if [ ! -x "$b/bench/dispatch/altmem-dispatch" ]; then
        cmake -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=Release -DALTMEM_BINDING=$mode -DALTMEM_NESTED=ON >/dev/null
    fi
    cmake --build "$b" -j "$(nproc)" --target altmem_dispatch altmem_dispatch_shared >/dev/null
done
cmake --build "$build" -j "$(nproc)" --target altmem_dispatch altmem_dispatch_shared altmem_dispatch_noplt >/dev/null

names=("direct" "patched" "patched, PLT" "pointer stub" "pointer (C)" "IFUNC build, PLT" "IFUNC entries, PLT"
       "IFUNC entries, no PLT")
bins=("$build/bench/dispatch/altmem-dispatch" "$build/bench/dispatch/altmem-dispatch"
      "$build/bench/dispatch/altmem-dispatch-shared" "$build/bench/dispatch/altmem-dispatch"
      "$build/binding-pointer/bench/dispatch/altmem-dispatch"
      "$build/binding-ifunc/bench/dispatch/altmem-dispatch-shared"
      "$build/bench/dispatch/altmem-dispatch-shared" "$build/bench/dispatch/altmem-dispatch-noplt")
loops=(direct entry entry entry entry entry entry entry)
envs=("" "" "bind=patch" "bind=pointer" "" "" "" "")
expect=("" "patched branch" "patched branch" "pointer" "pointer" "ifunc" "ifunc" "ifunc")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Instructions per call: the loop's inclusive count over $calls calls.
ir_per_call() { # index size
    local i=$1 size=$2 out=$tmp/cg.$1.$2
    ALTMEM_TUNABLES=memcpy=ual${envs[$i]:+:${envs[$i]}} valgrind --tool=callgrind --callgrind-out-file="$out" \
        --toggle-collect="loop_${loops[$i]}" "${bins[$i]}" --only "${loops[$i]}" --calls $calls \
        --size "$size" >/dev/null 2>&1
    local total
    total=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    awk -v t="$total" -v c=$calls 'BEGIN { printf "%.2f", t / c }'
}

# Check each configuration binds as labelled before measuring it.
for i in 1 2 3 4 5 6 7; do
    got=$(ALTMEM_TUNABLES=memcpy=ual${envs[$i]:+:${envs[$i]}} "${bins[$i]}" --calls 1000 --reps 1 --size 8 | sed -E 's/.*bound_by=([^=]*) variant=.*/\1/')
    if [ "$got" != "${expect[$i]}" ]; then
        echo "dispatch-cost.sh: '${names[$i]}' is bound by '$got', expected '${expect[$i]}'" >&2
        exit 1
    fi
done

declare -A ir ns
for size in 0 8 32; do
    for i in "${!names[@]}"; do
        ir[$i,$size]=$(ir_per_call "$i" "$size")
    done
    # Timings: rounds of every configuration in turn (A B C ... A B C), median per configuration.
    for i in "${!names[@]}"; do : >"$tmp/t.$i.$size"; done
    for ((r = 0; r < rounds; r++)); do
        for i in "${!names[@]}"; do
            line=$(ALTMEM_TUNABLES=memcpy=ual${envs[$i]:+:${envs[$i]}} "${bins[$i]}" --calls 1000000 --reps 15 --size "$size")
            if [ "${loops[$i]}" = direct ]; then
                sed -E 's/.*direct_ns=([0-9.]+).*/\1/' <<<"$line" >>"$tmp/t.$i.$size"
            else
                sed -E 's/.*entry_ns=([0-9.]+).*/\1/' <<<"$line" >>"$tmp/t.$i.$size"
            fi
        done
    done
    for i in "${!names[@]}"; do
        ns[$i,$size]=$(sort -g "$tmp/t.$i.$size" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    done
done

echo "| binding | Ir/call 0 B | Ir/call 8 B | Ir/call 32 B | +Ir vs direct | ns/call 0 B | ns/call 8 B | ns/call 32 B |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for i in "${!names[@]}"; do
    extra=$(awk -v a="${ir[$i,8]}" -v b="${ir[0,8]}" 'BEGIN { printf "%+.2f", a - b }')
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "${names[$i]}" "${ir[$i,0]}" "${ir[$i,8]}" "${ir[$i,32]}" \
        "$extra" "${ns[$i,0]}" "${ns[$i,8]}" "${ns[$i,32]}"
done
echo
echo "Ir/call: callgrind, $calls calls of the loop (call + argument set-up + the variant)."
echo "ns/call: median over $rounds interleaved rounds, each the median of 15 samples of 1,000,000 calls in one process."
