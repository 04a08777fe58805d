#!/bin/sh
# AMD's AOCL-LibMem as a second reference on AMD CPUs: builds it from a source
# directory you fetched (https://github.com/amd/aocl-libmem; never downloaded
# here, never committed) for this CPU's Zen generation, with clang, and runs
# `altmem bench` with it preloaded, so that its memcpy / memmove / memset take
# the C library's place: the bench's "libc" column is then AOCL-LibMem's.
#
#   scripts/aocl-libmem.sh AOCL_SRC_DIR [BUILD_DIR] [-- BENCH_OPTIONS...]
#
#   AOCL_SRC_DIR  an AOCL-LibMem source tree (its CMakeLists.txt at the top)
#   BUILD_DIR     altmem's native build (default: build)
#   ZEN           the generation to build for (zen3, zen4, zen5); default: from
#                 this CPU (family 0x19 without AVX-512 zen3, with it zen4,
#                 family 0x1A zen5)
#   GLIBC_LIB     run under that C library's loader too (scripts/newer-glibc.sh)
#   CC            the compiler (default: clang-19, else clang)
#
# The library is built once per source tree and generation under
# ~/.cache/altmem/aocl-libmem/ (outside the tree; XDG_CACHE_HOME is honoured).
# Exit status: the bench's; 2 on bad arguments; 77 when this is not an AMD
# Zen 3-5 CPU or the tools are missing.
set -eu
usage() { sed -n '2,20p' "$0" >&2; exit 2; }
[ $# -ge 1 ] || usage
aocl=$1
shift
build=build
if [ $# -ge 1 ] && [ "$1" != -- ]; then
    build=$1
    shift
fi
[ $# -ge 1 ] && [ "$1" = -- ] && shift
[ -f "$aocl/CMakeLists.txt" ] && grep -q 'ALMEM_ARCH' "$aocl/CMakeLists.txt" ||
    { echo "aocl-libmem.sh: $aocl is not an AOCL-LibMem source tree (no CMakeLists.txt with ALMEM_ARCH)" >&2; exit 2; }
aocl=$(cd "$aocl" && pwd)
altmem=$(cd "$build" 2>/dev/null && pwd || true)/tools/altmem
[ -x "$altmem" ] || { echo "aocl-libmem.sh: $altmem not found (build the native tree first)" >&2; exit 2; }

vendor=$(sed -n 's/^vendor_id[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
family=$(sed -n 's/^cpu family[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
if [ -z "${ZEN:-}" ]; then
    [ "$vendor" = AuthenticAMD ] || { echo "aocl-libmem.sh: SKIPPED: not an AMD CPU ($vendor)" >&2; exit 77; }
    case $family in
        25) if grep -qw avx512f /proc/cpuinfo; then ZEN=zen4; else ZEN=zen3; fi ;;
        26) ZEN=zen5 ;;
        *) echo "aocl-libmem.sh: SKIPPED: AMD family $family is not Zen 3, 4 or 5" >&2; exit 77 ;;
    esac
fi
case $ZEN in
    zen3|zen4|zen5) ;;
    *) echo "aocl-libmem.sh: ZEN must be zen3, zen4 or zen5, not '$ZEN'" >&2; exit 2 ;;
esac
cc=${CC:-}
if [ -z "$cc" ]; then
    cc=$(command -v clang-19 || command -v clang || true)
fi
[ -n "$cc" ] || { echo "aocl-libmem.sh: SKIPPED: no clang (apt-get install clang-19)" >&2; exit 77; }
command -v cmake >/dev/null || { echo "aocl-libmem.sh: SKIPPED: no cmake" >&2; exit 77; }

rev=$(git -C "$aocl" rev-parse --short HEAD 2>/dev/null || echo unversioned)
out=${XDG_CACHE_HOME:-$HOME/.cache}/altmem/aocl-libmem/$rev-$ZEN-$(basename "$cc")
lib=$out/lib/libaocl-libmem.so
if [ ! -f "$lib" ]; then
    mkdir -p "$out"
    cmake -S "$aocl" -B "$out" -D CMAKE_C_COMPILER="$cc" -D ALMEM_ARCH="$ZEN" -D CMAKE_BUILD_TYPE=Release \
        >"$out.configure.log" 2>&1 || { cat "$out.configure.log" >&2; exit 1; }
    cmake --build "$out" -j "$(nproc)" >"$out.build.log" 2>&1 || { tail -n 30 "$out.build.log" >&2; exit 1; }
    [ -f "$lib" ] || lib=$(find "$out" -name 'libaocl-libmem.so' | head -n 1)
    [ -f "$lib" ] || { echo "aocl-libmem.sh: the build made no libaocl-libmem.so (see $out.build.log)" >&2; exit 1; }
fi
echo "aocl-libmem.sh: AOCL-LibMem $rev built for $ZEN with $("$cc" --version | head -n 1), preloaded: $lib"
if [ -n "${GLIBC_LIB:-}" ]; then
    LD_PRELOAD=$lib exec "$GLIBC_LIB/ld-linux-x86-64.so.2" --library-path "$GLIBC_LIB" "$altmem" bench "$@"
fi
LD_PRELOAD=$lib exec "$altmem" bench "$@"
