#!/usr/bin/env bash
# Builds altmem with another binding and runs the tests that depend on it.
#
#   scripts/binding-build.sh MODE [SOURCE_DIR [BUILD_DIR]]     MODE: pointer | ifunc
#
# The default build binds by patched branch; `make check` runs this for the two
# others (CTest tests build.binding_pointer and build.binding_ifunc), so all three
# are tested on every run.  The sweeps take the --quick ranges (ALTMEM_TEST_SWEEP):
# the variants are the same objects; what the binding changes is how the entry
# points reach them.  Exit status: 0 passed, 1 failed.
set -euo pipefail
mode=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "${2:-$here/..}" && pwd)
build=${3:-$src/build-binding-$mode}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
unset MAKEFLAGS MFLAGS MAKELEVEL   # the outer make's jobserver is not ours

cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DALTMEM_BINDING="$mode" -DALTMEM_NESTED=ON -DALTMEM_TEST_SWEEP=quick >/dev/null
cmake --build "$build" -j "$jobs" >"$build/build.log" 2>&1 || { cat "$build/build.log"; exit 1; }
cd "$build"
ctest -j "$jobs" -L 'routines|alternatives|info' --output-on-failure 2>&1 | tail -n 25
