#!/usr/bin/env bash
# The Debian packages (`make deb`; docs/packaging.md): a build of its own, configured
# as a distribution builds a library, then CPack's DEB generator.
#
#   scripts/make-deb.sh SRC BUILD        -> BUILD/packages/{libaltmem0,libaltmem-dev,altmem}_*.deb
#
# The configuration: prefix /usr (GNUInstallDirs: lib/<multiarch>, /etc), the system
# profile at /etc/altmem/profile, no RUNPATH (the library is in the loader's path),
# altmem.pc with prefix=/usr, `altmem run` looking only where the package puts
# libaltmem-preload.so, binaries stripped and no debug info (ALTMEM_DEBUG_INFO=OFF: the
# static libraries ship without it, as Debian strips them), no tests, Release, warnings
# as errors, and the source and build directories mapped out of what the compiler
# writes (-ffile-prefix-map, as Debian's dpkg-buildflags does) so that no package names
# them.  Only what the packages hold is built.  JOBS (default 2) parallel jobs.
#
# Exit 77, with the reason, when dpkg-deb or dpkg-shlibdeps (Debian package dpkg-dev)
# or file (which CPack's DEB generator runs) is missing.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: make-deb.sh SRC BUILD" >&2; exit 2; }
src=$(cd "$1" && pwd)
mkdir -p "$2"
build=$(cd "$2" && pwd)
jobs=${JOBS:-2}

for tool in dpkg-deb dpkg-shlibdeps file cpack; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIPPED: $tool not found (Debian packages dpkg-dev, file; scripts/install-deps.sh installs them)"
        exit 77
    fi
done

prefix_map="-ffile-prefix-map=$src=. -ffile-prefix-map=$build=."
echo "make-deb.sh: configuring $build (prefix /usr, profile /etc/altmem/profile)"
cmake -S "$src" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX=/usr \
    -DCMAKE_INSTALL_RPATH= \
    -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON \
    "-DCMAKE_C_FLAGS=$prefix_map" \
    "-DCMAKE_ASM_FLAGS=$prefix_map" \
    -DALTMEM_PROFILE_PATH=/etc/altmem/profile \
    -DALTMEM_PKGCONFIG_RELOCATABLE=OFF \
    -DALTMEM_RUN_SEARCH_BUILD_TREE=OFF \
    -DALTMEM_DEBUG_INFO=OFF \
    -DALTMEM_BUILD_TESTS=OFF \
    -DALTMEM_WERROR=ON \
    -DCPACK_STRIP_FILES=ON >"$build/configure.log" 2>&1 || {
    cat "$build/configure.log"
    echo "make-deb.sh: FAILED: configure"
    exit 1
}
# Only the targets whose files are packaged (cmake/AltmemPackage.cmake: altmem_packaged).
echo "make-deb.sh: building the packaged targets ($jobs jobs)"
cmake --build "$build" -j "$jobs" --target altmem_packaged >"$build/build.log" 2>&1 || {
    tail -n 60 "$build/build.log"
    echo "make-deb.sh: FAILED: build (log: $build/build.log)"
    exit 1
}
rm -rf "$build/packages"
echo "make-deb.sh: cpack -G DEB"
(cd "$build" && cpack -G DEB) >"$build/cpack.log" 2>&1 || {
    cat "$build/cpack.log"
    echo "make-deb.sh: FAILED: cpack"
    exit 1
}
debs=("$build"/packages/*.deb)
[ -e "${debs[0]}" ] || { cat "$build/cpack.log"; echo "make-deb.sh: FAILED: cpack made no .deb"; exit 1; }
for d in "${debs[@]}"; do
    echo "  $d"
    dpkg-deb -f "$d" Package Version Architecture Depends | sed 's/^/      /'
done
echo "make-deb.sh: install them with: sudo apt install $(printf '%s ' "${debs[@]/#$PWD\//./}")"
