#!/usr/bin/env bash
# What altmem adds to the start of a process (docs/dropin.md, "Start-up cost"):
# each configuration is a shell loop starting /bin/true N times, timed against the
# same loop with an empty preloaded library (or, for the linked cases, a program that
# is not linked with altmem) by `altmem compare` (interleaved ABBA pairs, median,
# Hodges-Lehmann interval); the difference divided by N is the cost per process.
#
#   scripts/startup-cost.sh [BUILD_DIR] [PAIRS] [N]      (defaults: build 30 200)
#
# Configurations:
#   preload                 libaltmem-preload.so (LD_PRELOAD), as `altmem run` uses it
#   preload, bind=pointer   the same under ALTMEM_TUNABLES=bind=pointer (no patching)
#   linked, libaltmem.so    a program linked with libaltmem.so (IFUNC entries, resolved
#                           with -z now), against the same program not linked with it,
#                           and against one linked with an empty library instead (both
#                           libraries copied into one directory, the programs' run path:
#                           what altmem adds beyond loading any library)
#   static glibc            a static program linked with libaltmem.a, against the same
#                           program without it
#   static musl             a musl-gcc -static program linked with the musl build's
#                           libaltmem-libc.a (whole: it is the program's memcpy), against
#                           the same program without it; where musl-gcc is installed and
#                           MUSL_BUILD (default BUILD_DIR/cross-musl, the build the test
#                           cross.musl makes) is a configured musl build
# Then, for the preload, the counts public tools give: strace -c (system calls),
# perf stat (page faults), LD_DEBUG=statistics (relocations).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
pairs=${2:-30}
n=${3:-200}
unset MAKEFLAGS MFLAGS MAKELEVEL LD_PRELOAD ALTMEM_TUNABLES
cmake --build "$build" -j "$(nproc)" --target altmem_cli altmem_preload altmem_shared altmem_static >/dev/null
cc=${CC:-cc}
preload=$build/src/preload/libaltmem-preload.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo 'void altmem_startup_empty(void) {}' >"$tmp/empty.c"
"$cc" -O2 -shared -fPIC "$tmp/empty.c" -o "$tmp/libempty.so" -Wl,-z,now
# A program that calls altmem_memcpy once (so that every linkage binds it), built
# with and without altmem.
cat >"$tmp/prog.c" <<'EOF'
#include <string.h>
#ifdef WITH_ALTMEM
#include <altmem.h>
#define COPY altmem_memcpy
#else
#define COPY memcpy
#endif
static char a[64], b[64];
int main(int argc, char **argv) { (void)argv; COPY(a, b, (size_t)argc); return a[0]; }
EOF
# The same run path as the linked program: the loader searches a run path's
# glibc-hwcaps/ and tls/ directories for every library, libc.so.6 included (13
# failed openat + newfstatat here), a cost of running from the build tree, which an
# installed libaltmem.so (found through ld.so.cache) does not pay.
"$cc" -O2 "$tmp/prog.c" -o "$tmp/prog-plain" -Wl,-rpath,"$build/src" -Wl,-z,now
# An empty library linked the same way, next to a copy of libaltmem.so.0, so that
# the loader's search is the same for both programs.
mkdir -p "$tmp/lib"
cp "$(readlink -f "$build/src/libaltmem.so")" "$tmp/lib/libaltmem.so.0"
ln -s libaltmem.so.0 "$tmp/lib/libaltmem.so"
echo 'void altmem_startup_empty(void) {}' >"$tmp/emptylib.c"
"$cc" -O2 -shared -fPIC "$tmp/emptylib.c" -o "$tmp/lib/libemptylib.so" -Wl,-soname,libemptylib.so -Wl,-z,now
"$cc" -O2 "$tmp/prog.c" -o "$tmp/prog-emptylib" -L"$tmp/lib" -Wl,--no-as-needed -lemptylib -Wl,-rpath,"$tmp/lib" \
    -Wl,-z,now
"$cc" -O2 -DWITH_ALTMEM -I"$src/include" "$tmp/prog.c" -o "$tmp/prog-shared-copy" -L"$tmp/lib" -Wl,--no-as-needed \
    -laltmem -Wl,-rpath,"$tmp/lib" -Wl,-z,now
"$cc" -O2 -DWITH_ALTMEM -I"$src/include" "$tmp/prog.c" -o "$tmp/prog-shared" -L"$build/src" -Wl,--no-as-needed \
    -laltmem -Wl,-rpath,"$build/src" -Wl,-z,now
static_ok=1
musl_build=${MUSL_BUILD:-$build/cross-musl}
musl_ok=0
if command -v musl-gcc >/dev/null && [ -f "$musl_build/CMakeCache.txt" ] &&
    cmake --build "$musl_build" -j "$(nproc)" --target altmem_libc >/dev/null 2>&1; then
    musl-gcc -O2 -static "$tmp/prog.c" -o "$tmp/prog-musl-plain" 2>/dev/null &&
        musl-gcc -O2 -static "$tmp/prog.c" -o "$tmp/prog-musl" -Wl,--whole-archive \
            "$musl_build/src/preload/libaltmem-libc.a" -Wl,--no-whole-archive 2>/dev/null && musl_ok=1
fi
"$cc" -O2 -static "$tmp/prog.c" -o "$tmp/prog-static-plain" 2>/dev/null || static_ok=0
# Linked as docs/dropin.md says ("Static programs"): -u takes glibc's kept CPUID leaves.
"$cc" -O2 -static -DWITH_ALTMEM -I"$src/include" "$tmp/prog.c" -o "$tmp/prog-static" "$build/src/libaltmem.a" \
    -Wl,-u,__x86_get_cpuid_feature_leaf 2>/dev/null || static_ok=0

loop() { # name, then the command line each iteration runs
    local f=$tmp/$1.sh
    shift
    printf '#!/bin/sh\ni=0\nwhile [ $i -lt %d ]; do %s; i=$((i + 1)); done\n' "$n" "$*" >"$f"
    chmod +x "$f"
    echo "$f"
}
base=$(loop empty "LD_PRELOAD=$tmp/libempty.so /bin/true")
pre=$(loop preload "LD_PRELOAD=$preload /bin/true")
ptr=$(loop pointer "LD_PRELOAD=$preload ALTMEM_TUNABLES=bind=pointer /bin/true")
plain=$(loop plain "$tmp/prog-plain 8")
shared=$(loop shared "$tmp/prog-shared 8")
emptylib=$(loop emptylib "$tmp/prog-emptylib 8")
sharedcopy=$(loop sharedcopy "$tmp/prog-shared-copy 8")

# "A B label": per process, (B - A) / n from the medians, and the interval of A/B.
cost() {
    local out
    out=$("$build/tools/altmem" compare --runs "$pairs" --cmd-b "$2" -- "$1" 2>&1)
    local a b
    a=$(awk '$1 == "A" { print $2 }' <<<"$out")
    b=$(awk '$1 == "B" { print $2 }' <<<"$out")
    awk -v a="$a" -v b="$b" -v n="$n" -v l="$3" -v r="$(sed -n 's/^result: .* ratio=\([0-9.]*\) lo=\([0-9.]*\) hi=\([0-9.]*\).*/\1 [\2..\3]/p' <<<"$out")" \
        'BEGIN { printf "| %s | %.1f ms | %.1f ms | %+.0f us | %s |\n", l, a, b, (b - a) * 1000 / n, r }'
}

echo "per process: ($n processes a loop, $pairs ABBA pairs, medians; $(uname -m), $("$build/tools/altmem" info | sed -n 's/^cpu: *//p'))"
echo
echo "| configuration | loop A (reference) | loop B | B - A per process | A/B [95% interval] |"
echo "|---|---:|---:|---:|---|"
cost "$base" "$pre" "libaltmem-preload.so vs an empty preload"
cost "$base" "$ptr" "libaltmem-preload.so bind=pointer vs an empty preload"
cost "$plain" "$shared" "linked with libaltmem.so vs not"
cost "$emptylib" "$sharedcopy" "linked with libaltmem.so vs linked with an empty library"
if [ $static_ok = 1 ]; then
    st=$(loop static "$tmp/prog-static 8")
    stp=$(loop static-plain "$tmp/prog-static-plain 8")
    cost "$stp" "$st" "static glibc, libaltmem.a vs not"
fi
if [ $musl_ok = 1 ]; then
    mu=$(loop musl "$tmp/prog-musl 8")
    mup=$(loop musl-plain "$tmp/prog-musl-plain 8")
    cost "$mup" "$mu" "static musl, libaltmem-libc.a (whole) vs not"
else
    echo "| static musl | (not measured: no musl-gcc, or no musl build at $musl_build) | | | |"
fi
echo
echo "libaltmem-preload.so, system calls of one /bin/true (strace -c, beyond the empty preload's):"
if command -v strace >/dev/null; then
    for l in "$tmp/libempty.so" "$preload"; do
        printf '  %s: ' "$(basename "$l")"
        strace -f -c -o "$tmp/strace.txt" env LD_PRELOAD="$l" /bin/true
        awk '$NF ~ /^(openat|mprotect|mmap|read|newfstatat|close)$/ { printf "%s %s  ", $NF, $4 }' "$tmp/strace.txt"
        echo
    done
else
    echo "  (strace not installed)"
fi
