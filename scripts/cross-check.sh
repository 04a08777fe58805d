#!/usr/bin/env bash
# One other architecture's (or C library's) whole test suite: configures a build
# with its toolchain file (cmake/toolchains/), builds it, and runs its CTest suite,
# under qemu-user for the cross targets.  `make check` runs each as the CTest test
# cross.<TARGET>; `make check-<TARGET>` runs one by hand (docs/arch-notes.md).
#
#   scripts/cross-check.sh [--build-only] TARGET [SOURCE_DIR [BUILD_DIR]]
#
# --build-only stops after the build (scripts/check-repeat.sh runs the tests itself).
#
#   TARGET          toolchain file                      programs run
#   aarch64         aarch64-linux-gnu.cmake             under qemu-aarch64, glibc, dynamic
#   aarch64-static  ... with ALTMEM_CROSS_STATIC=ON      under qemu-aarch64, glibc, -static
#   riscv64         riscv64-linux-gnu.cmake             under qemu-riscv64, glibc, dynamic
#   riscv64-static  ... with ALTMEM_CROSS_STATIC=ON      under qemu-riscv64, glibc, -static
#   loongarch64     loongarch64-freestanding.cmake      under qemu-loongarch64, no C library
#   musl            x86_64-linux-musl.cmake             natively, musl, -static
#
# SOURCE_DIR defaults to this script's repository, BUILD_DIR to SOURCE_DIR/build-TARGET.
# The build directory is kept, so a second run is incremental.  The inner builds are
# configured with ALTMEM_NESTED=ON: they do not start cross builds of their own, nor
# the install and sanitizer tests (the native run has those).
#
# Exit status: 0 all inner tests passed; 1 configure, build or a test failed; 77
# skipped because a compiler, C library or emulator is missing (the reason, with the
# Debian packages to install, is the last line).  With ALTMEM_CROSS_REQUIRED=1 (set by
# .ci/run) a skip is a failure instead, here and in the inner tests that could skip.
#
# Environment: JOBS (default nproc); ALTMEM_QEMU_BPO, the directory of the newer
# qemu-user from bookworm-backports (default /opt/altmem/qemu-bpo/usr/bin, where
# scripts/install-cross-deps.sh puts it), for the detection tests that need it.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build_only=0
if [ "${1:-}" = --build-only ]; then
    build_only=1
    shift
fi
target=${1:?usage: cross-check.sh TARGET [SOURCE_DIR [BUILD_DIR]]}
src=$(cd "${2:-$here/..}" && pwd)
build=$(realpath -m "${3:-$src/build-$target}")
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
qemu_bpo=${ALTMEM_QEMU_BPO:-/opt/altmem/qemu-bpo/usr/bin}

# The caller's make (`make check`) exports a jobserver this script cannot use.
unset MAKEFLAGS MFLAGS MAKELEVEL

skip() {
    if [ "${ALTMEM_CROSS_REQUIRED:-0}" = 1 ]; then
        echo "cross-check.sh: ALTMEM_CROSS_REQUIRED=1, so this is a failure: $*"
        exit 1
    fi
    echo "cross-check.sh: SKIPPED $target: $*"
    exit 77
}
now() { date +%s%3N; }
secs() { printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100)); }
t_start=$(now)

# ---- What this target needs -----------------------------------------------------------
need=()      # "command-or-file|Debian package"
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DALTMEM_WERROR=ON -DALTMEM_NESTED=ON)
case $target in
aarch64 | aarch64-static | riscv64 | riscv64-static)
    arch=${target%-static}
    triple=$arch-linux-gnu
    debarch=$arch
    [ "$arch" = aarch64 ] && debarch=arm64
    need+=("$triple-gcc|gcc-$triple" "/usr/$triple/include/stdio.h|libc6-dev-$debarch-cross"
           "qemu-$arch|qemu-user")
    if [ "$target" = "$arch" ]; then
        loader=/usr/$triple/lib/ld-linux-aarch64.so.1
        [ "$arch" = riscv64 ] && loader=/usr/$triple/lib/ld-linux-riscv64-lp64d.so.1
        need+=("$loader|libc6-$debarch-cross")
    else
        need+=("/usr/$triple/lib/libc.a|libc6-dev-$debarch-cross")
        cmake_args+=(-DALTMEM_CROSS_STATIC=ON)
    fi
    toolchain=$arch-linux-gnu.cmake
    ;;
loongarch64)
    arch=loongarch64
    need+=("clang-19|clang-19" "ld.lld-19|lld-19" "qemu-loongarch64|qemu-user")
    toolchain=loongarch64-freestanding.cmake
    ;;
musl)
    arch=x86_64
    need+=("musl-gcc|musl-tools")
    toolchain=x86_64-linux-musl.cmake
    ;;
*)
    echo "cross-check.sh: unknown target '$target' (aarch64, aarch64-static, riscv64, riscv64-static, loongarch64, musl)" >&2
    exit 2
    ;;
esac
missing=() pkgs=()
for n in "${need[@]}"; do
    what=${n%%|*} pkg=${n#*|}
    if [[ $what == /* ]]; then
        [ -e "$what" ] && continue
    else
        command -v "$what" >/dev/null 2>&1 && continue
    fi
    missing+=("$what")
    [[ " ${pkgs[*]} " == *" $pkg "* ]] || pkgs+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    skip "missing ${missing[*]} (Debian: ${pkgs[*]}; scripts/install-cross-deps.sh installs them)"
fi
if [ "$arch" != x86_64 ] && [ -x "$qemu_bpo/qemu-$arch" ]; then
    cmake_args+=(-DALTMEM_QEMU_BPO="$qemu_bpo/qemu-$arch")
fi

# ---- Configure and build --------------------------------------------------------------
cache=$build/CMakeCache.txt
stamp="$src|$toolchain|${cmake_args[*]}"
if [ -f "$cache" ] && ! grep -qxF "ALTMEM_CROSS_STAMP:INTERNAL=$stamp" "$cache"; then
    echo "cross-check.sh: $build was configured differently; starting afresh"
    rm -rf "$build"
fi
mkdir -p "$build"
t0=$(now)
echo "cross-check.sh: $target: configuring $build with cmake/toolchains/$toolchain"
if ! cmake -S "$src" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/$toolchain" "${cmake_args[@]}" \
        -DALTMEM_CROSS_STAMP:INTERNAL="$stamp" >"$build/configure.log" 2>&1; then
    cat "$build/configure.log"
    echo "cross-check.sh: FAILED $target: configure (log: $build/configure.log)"
    exit 1
fi
t1=$(now)
echo "cross-check.sh: $target: building ($jobs jobs)"
if ! cmake --build "$build" -j "$jobs" >"$build/build.log" 2>&1; then
    cat "$build/build.log"
    echo "cross-check.sh: FAILED $target: the build (warnings are errors)"
    exit 1
fi
t2=$(now)
if [ "$build_only" = 1 ]; then
    echo "cross-check.sh: $target: built $build ($(secs $((t2 - t_start))) s)"
    exit 0
fi

# ---- The suite ---------------------------------------------------------------------------
# The -static targets leave out what static linking cannot change and the dynamic
# target of the same architecture runs: the benchmark harness (bench_*), the index
# (index.*) and the man-page examples (man.*).  Their sweeps run --reduced
# (tests/variants.cmake).
exclude=()
case $target in
*-static) exclude=(-E '^(bench_|index\.|man\.)') ;;
esac
ntests=$(cd "$build" && ctest -N "${exclude[@]}" | sed -n 's/^Total Tests: *//p')
note=""
[ ${#exclude[@]} -eq 0 ] || note=" (not bench_*, index.*, man.*: the dynamic target runs them)"
echo "cross-check.sh: $target: running $ntests tests$note"
log=$build/ctest.log
set +e
(cd "$build" && ctest --output-on-failure -j "$jobs" "${exclude[@]}") >"$log" 2>&1
rc=$?
set -e
t3=$(now)

echo
echo "==== $target sub-run ($build) ===="
grep -E '^[0-9]+% tests passed|^Total Test time' "$log" || true
sed -n '/^The following tests FAILED/,$p' "$log"
# The slowest tests, the misalignment proof's verdicts, and the skips with reasons.
last=$build/Testing/Temporary/LastTest.log
echo "slowest:"
sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec$/\2 s  \1/p' "$log" | sort -rn | head -n 5 |
    sed 's/^/  /' || true
grep -hE '^misalign: .* (passed|FAILED)' "$last" 2>/dev/null | sed 's/^/  /' || true
# The skips that cannot be helped in a sub-suite (docs/arch-notes.md says why): the
# x86-only alignment-check proof, and under qemu-user the re-executing `altmem tune`
# and the setuid probe; musl-gcc links no shared library.  Any other skip is, with
# ALTMEM_SKIPS_FATAL=1 (CI), a missing install step, and fails this target.
summary_rc=0
ALTMEM_SKIP_OK='^(strict_align|profile_cli|setuid|musl\.no_shared_library)$' \
    bash "$here/check-summary.sh" "$log" "$last" >"$build/summary.txt" || summary_rc=$?
sed 's/^/  /' "$build/summary.txt"
echo "time: configure $(secs $((t1 - t0))) s, build $(secs $((t2 - t1))) s, tests $(secs $((t3 - t2))) s, total $(secs $((t3 - t_start))) s"
if [ "$rc" -ne 0 ]; then
    echo "cross-check.sh: FAILED $target: inner ctest exited $rc (full log: $log)"
    exit 1
fi
if [ "$summary_rc" -ne 0 ]; then
    echo "cross-check.sh: FAILED $target: a test was skipped that the install scripts should have made runnable"
    exit 1
fi
echo "cross-check.sh: $target: passed"
