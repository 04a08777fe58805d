#!/usr/bin/env bash
# What fault tolerance costs per call when nothing faults, counted by callgrind
# (repeatable, unlike timings on a shared VM): instructions per call of
# altmem_copy_user against altmem_memcpy and altmem_clear_user against
# altmem_memset, and of each uaccess variant against the memcpy/memset variant of
# the same name, for small sizes.  Prints a Markdown table (docs/uaccess.md holds one).
#
#   scripts/uaccess-cost.sh [BUILD_DIR]
#
# Each count is the inclusive cost of a loop of $calls calls (bench/uaccess's
# loop_<name>: the call, its argument moves, the entry point and the variant),
# divided by $calls.  The timings are altmem-uaccess-bench's (see docs/uaccess.md).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
calls=100000
unset MAKEFLAGS MFLAGS MAKELEVEL

command -v valgrind >/dev/null || { echo "uaccess-cost.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
cmake --build "$build" -j "$(nproc)" --target altmem_uaccess_bench >/dev/null
bin=$build/bench/uaccess/altmem-uaccess-bench

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ir_per_call() { # loop size
    local out=$tmp/cg.$1.$2
    valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect='loop_*' \
        "$bin" --only "$1" --size "$2" --calls $calls >/dev/null 2>&1
    local total
    total=$(callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    awk -v t="$total" -v c=$calls 'BEGIN { printf "%.1f", t / c }'
}

# Under valgrind the CPU looks different (no AVX-512, for one): say what was bound.
valgrind --tool=none "$bin" --bindings 2>/dev/null | sed 's/^altmem-uaccess-bench: /under valgrind: /'
echo

sizes=(0 1 8 16 32 64 128 255 256 1024)
pairs=("copy_user memcpy" "clear_user memset" "copy_user_ual memcpy_ual" "clear_user_ual memset_ual"
       "copy_user_generic memcpy_generic" "clear_user_generic memset_generic"
       "copy_user_avx2 memcpy_avx2" "clear_user_avx2 memset_avx2")
# (The avx512 variants cannot run under valgrind, which has no AVX-512.)

printf '| A vs B (Ir/call, A - B) |'
for s in "${sizes[@]}"; do printf ' %s B |' "$s"; done
printf '\n|---|'
for _ in "${sizes[@]}"; do printf -- '---:|'; done
printf '\n'
for p in "${pairs[@]}"; do
    read -r a b <<<"$p"
    # A variant this build or CPU lacks (avx2 off x86_64): no row.
    valgrind --tool=none "$bin" --only "$a" --size 0 --calls 1 >/dev/null 2>&1 &&
        valgrind --tool=none "$bin" --only "$b" --size 0 --calls 1 >/dev/null 2>&1 || continue
    printf '| %s vs %s |' "$a" "$b"
    for s in "${sizes[@]}"; do
        ia=$(ir_per_call "$a" "$s")
        ib=$(ir_per_call "$b" "$s")
        printf ' %s / %s (%+.1f) |' "$ia" "$ib" "$(awk -v x="$ia" -v y="$ib" 'BEGIN { print x - y }')"
    done
    printf '\n'
done
echo
echo "Ir/call: callgrind instructions per call, inclusive, over $calls calls of bench/uaccess's loop_<A> and loop_<B>."
