#!/usr/bin/env bash
# The Debian packages that scripts/make-deb.sh made in PKGBUILD/packages, checked as a
# user of them would meet them (tests/package.cmake).
#
#   check.sh contents PKGBUILD SRC MAINBUILD WORK   file lists (tests/package/*.list),
#            control fields and dependencies, shlibs, maintainer scripts, modes, ELF
#            (SONAME, no RUNPATH, stripped, the ABI baseline), no build or source path
#            in any file, the system profile path, the man pages render
#   check.sh install PKGBUILD WORK                  dpkg -x into WORK/root; altmem
#            --version, help, info, run from there, against that root's libraries
#   check.sh pkgconfig PKGBUILD WORK SRC CC PKG_CONFIG MAKE   examples/Makefile through
#            the root's altmem.pc (PKG_CONFIG_SYSROOT_DIR), shared and -static, run
#   check.sh cmake PKGBUILD WORK SRC CC             examples/CMakeLists.txt through the
#            root's CMake package (CMAKE_PREFIX_PATH), built and run
#   check.sh control PKGBUILD SRC MAINBUILD WORK    negative control: the same packages,
#            the tool's repacked with a test program in it, must fail `contents`, which
#            must name the file
#
# Exit 77 with the reason when a tool is missing; 1 with one line per problem.
set -u
fail=0
bad() { echo "FAIL: $*"; fail=1; }
skip() { echo "SKIPPED: $*"; exit 77; }
need() { command -v "$1" >/dev/null 2>&1 || skip "$1 not found ($2; scripts/install-deps.sh installs it)"; }
# Run a command in a clean environment (nothing from the caller's loader, pkg-config or
# CMake search paths, nor the jobserver of `make check`), echoing it.
run() {
    echo "+ $*" >&2
    env -u LD_LIBRARY_PATH -u LD_PRELOAD -u PKG_CONFIG_PATH -u PKG_CONFIG_LIBDIR -u PKG_CONFIG_SYSROOT_DIR \
        -u CMAKE_PREFIX_PATH -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u ALTMEM_TUNABLES -u ALTMEM_PROFILE \
        -u ALTMEM_PRELOAD_LIB "$@"
}

mode=$1 pkgbuild=$2
shift 2
need dpkg-deb "Debian package dpkg"
cache=$pkgbuild/CMakeCache.txt
[ -f "$cache" ] || { echo "FAIL: no $cache: package.build did not run"; exit 1; }
cachevar() { sed -n "s/^$1:[A-Z]*=//p" "$cache"; }
libdir=$(cachevar CMAKE_INSTALL_LIBDIR)
version=$(cachevar CMAKE_PROJECT_VERSION)
soversion=${version%%.*}
profile=$(cachevar ALTMEM_PROFILE_PATH)
arch=$(dpkg --print-architecture)
runtime=libaltmem$soversion
deb() { ls "$pkgbuild"/packages/"$1"_"$version"-*_"$arch".deb 2>/dev/null | head -n 1; }
for p in "$runtime" libaltmem-dev altmem; do
    [ -n "$(deb "$p")" ] || { echo "FAIL: no package $p in $pkgbuild/packages: $(ls "$pkgbuild/packages" 2>&1 | tr '\n' ' ')"; exit 1; }
done
here=$(cd "$(dirname "$0")" && pwd)

extract() {   # extract ROOT: every package, as dpkg -x does
    rm -rf "$1"
    mkdir -p "$1"
    for p in "$runtime" libaltmem-dev altmem; do
        run dpkg -x "$(deb "$p")" "$1" || { echo "FAIL: dpkg -x $(deb "$p")"; exit 1; }
    done
}

case "$mode" in
contents)
    src=$1 mainbuild=$2 work=$3
    echo "packages in $pkgbuild/packages (libdir $libdir, version $version, architecture $arch):"
    ls -l "$pkgbuild"/packages/*.deb | sed 's/^/  /'
    n=$(ls "$pkgbuild"/packages/*.deb | wc -l)
    [ "$n" -eq 3 ] || bad "$n packages, expected 3 ($runtime, libaltmem-dev, altmem)"

    # 1. The file lists: exactly the expected files and links, nothing more (no test
    #    program, no benchmark helper, no build file).
    for p in "$runtime" libaltmem-dev altmem; do
        list=$here/${p/$runtime/libaltmem}.list
        want=$(grep -v '^#' "$list" | sed -e "s|@LIBDIR@|$libdir|g" -e "s|@VERSION@|$version|g" \
            -e "s|@SOVERSION@|$soversion|g" | LC_ALL=C sort)
        got=$(dpkg-deb -c "$(deb "$p")" | awk '$1 !~ /^d/ { $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print }' |
            LC_ALL=C sort)
        if [ "$want" != "$got" ]; then
            bad "$p: the files differ from $(basename "$list") (+ packaged, - expected):"
            diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | sed -n 's/^>/    +/p; s/^</    -/p'
        else
            echo "$p: $(printf '%s\n' "$got" | wc -l) files and links, as $(basename "$list") says"
        fi
        if printf '%s\n' "$got" | grep -Eiq 'test|/build|CMakeFiles|\.o$'; then
            bad "$p holds a test or build file: $(printf '%s\n' "$got" | grep -Ei 'test|/build|CMakeFiles|\.o$' | tr '\n' ' ')"
        fi
        # Owner root, nothing writable by group or others, executables only in /usr/bin.
        dpkg-deb -c "$(deb "$p")" | awk -v p="$p" '
            $2 != "root/root" { print "FAIL: " p ": " $6 " is owned by " $2 }
            $1 ~ /^-....w/ || $1 ~ /^-.......w/ { print "FAIL: " p ": " $6 " is writable by group or others (" $1 ")" }
            $1 ~ /^-..x/ && $6 !~ /^\.\/usr\/bin\// { print "FAIL: " p ": " $6 " is executable (" $1 ")" }' |
            { grep . && exit 1 || exit 0; } || fail=1
    done

    # 2. Control fields and dependencies.
    field() { dpkg-deb -f "$(deb "$1")" "$2"; }
    expect_field() {   # expect_field PACKAGE FIELD EXTENDED-REGEX
        local v
        v=$(field "$1" "$2")
        if printf '%s\n' "$v" | grep -Eq -- "$3"; then
            echo "$1: $2: $v"
        else
            bad "$1: $2 is '$v', expected /$3/"
        fi
    }
    for p in "$runtime" libaltmem-dev altmem; do
        expect_field "$p" Package "^$p\$"
        expect_field "$p" Version "^$version-[0-9]+\$"
        expect_field "$p" Architecture "^$arch\$"
        expect_field "$p" Maintainer '^[^<>]+ <[^<>@]+@[^<>]+>$'
        expect_field "$p" Priority '^optional$'
        [ -n "$(field "$p" Description | head -n 1)" ] || bad "$p: no Description summary"
    done
    pv=$(field "$runtime" Version)
    expect_field "$runtime" Section '^libs$'
    expect_field "$runtime" Depends '^libc6 \(>= 2\.[0-9]+\)$'
    expect_field libaltmem-dev Section '^libdevel$'
    expect_field libaltmem-dev Depends "^$runtime \\(= ${pv//./\\.}\\), libc6-dev \\| libc-dev\$"
    expect_field libaltmem-dev Recommends '(^|, )pkgconf($|,)'
    expect_field altmem Section '^utils$'
    expect_field altmem Depends "(^|, )$runtime \\(= ${pv//./\\.}\\)(,|\$)"
    expect_field altmem Depends '(^|, )libc6 \(>= 2\.[0-9]+\)(,|$)'

    # 3. Maintainer scripts: shlibs and ldconfig for the library, the purge of the
    #    system profile for the tool.
    ctl=$work/control
    rm -rf "$ctl"
    for p in "$runtime" libaltmem-dev altmem; do
        mkdir -p "$ctl/$p"
        dpkg-deb -e "$(deb "$p")" "$ctl/$p"
    done
    shlibs=$(cat "$ctl/$runtime/shlibs" 2>/dev/null)
    if printf '%s\n' "$shlibs" | grep -Eqx "libaltmem $soversion $runtime \\(>= ${version//./\\.}(-[0-9]+)?\\)"; then
        echo "$runtime: shlibs: $shlibs"
    else
        bad "$runtime: DEBIAN/shlibs is '$shlibs', expected 'libaltmem $soversion $runtime (>= $version)'"
    fi
    for s in postinst postrm; do
        grep -q ldconfig "$ctl/$runtime/$s" 2>/dev/null || bad "$runtime: $s does not run ldconfig"
    done
    [ ! -e "$ctl/libaltmem-dev/shlibs" ] || bad "libaltmem-dev has a shlibs file (only $runtime may)"
    if [ -n "$profile" ]; then
        grep -q "rm -f $profile\$" "$ctl/altmem/postrm" 2>/dev/null ||
            bad "altmem: postrm does not remove the system profile $profile on purge"
        sh -n "$ctl/altmem/postrm" || bad "altmem: postrm is not valid sh"
    fi

    # 4. Inside: no file names the source tree, the package build tree or the main
    #    build tree (binaries included: debug info, compiled-in paths).
    root=$work/root
    extract "$root" >/dev/null
    for path in "$src" "$pkgbuild" "$mainbuild"; do
        hits=$(grep -rlF -- "$path" "$root" 2>/dev/null)
        [ -z "$hits" ] || bad "these packaged files name $path: $(echo $hits | sed "s|$root||g")"
    done
    echo "no packaged file names $src, $pkgbuild or $mainbuild"

    # 5. The ELF files: SONAME, no RUNPATH, stripped, and the ABI of abi/.
    lib=$root/usr/$libdir/libaltmem.so.$version
    so=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    [ "$so" = "libaltmem.so.$soversion" ] || bad "libaltmem.so.$version has SONAME '$so'"
    for f in "$lib" "$root/usr/$libdir/libaltmem-preload.so" "$root/usr/bin/altmem"; do
        if readelf -d "$f" | grep -Eq '\((RPATH|RUNPATH)\)'; then
            bad "$(basename "$f") has $(readelf -d "$f" | grep -E 'RPATH|RUNPATH' | sed 's/.*(\(R[A-Z]*\)).*\[\(.*\)\]/\1 \2/')"
        fi
        if readelf -S "$f" | grep -Eq '\.(symtab|debug_info)'; then
            bad "$(basename "$f") is not stripped"
        fi
    done
    echo "ELF: SONAME $so, no RPATH/RUNPATH, stripped"
    if command -v nm >/dev/null 2>&1; then
        bash "$src/scripts/abi.sh" check-symbols "$src/abi" nm "$lib" "$root/usr/$libdir/libaltmem-preload.so" || fail=1
    fi

    # 6. The system profile path compiled into the library and the tool, and in the pages.
    if [ -n "$profile" ]; then
        [ "$profile" = /etc/altmem/profile ] || bad "the package build's ALTMEM_PROFILE_PATH is $profile, not /etc/altmem/profile"
        for f in "$lib" "$root/usr/bin/altmem"; do
            grep -qaF "$profile" "$f" || bad "$(basename "$f") does not hold the profile path $profile"
        done
        for m in man1/altmem.1.gz man7/altmem-tunables.7.gz man3/altmem.3.gz; do
            gzip -dc "$root/usr/share/man/$m" | grep -qF "$profile" || bad "$m does not name $profile"
        done
        echo "the system profile is $profile in libaltmem.so, altmem and the man pages"
    else
        echo "this tree has no ALTMEM_PROFILE_PATH: no profile path to check"
    fi
    grep -qx 'prefix=/usr' "$root/usr/$libdir/pkgconfig/altmem.pc" || bad "altmem.pc: prefix is not /usr"

    # 7. The man pages are gzip -9n (no name, no time stamp) and render without warning.
    for m in "$root"/usr/share/man/man*/*.gz; do
        gzip -t "$m" || bad "$m is not valid gzip"
        [ "$(od -An -tu1 -j4 -N4 "$m" | tr -d ' ')" = 0000 ] || bad "$(basename "$m") holds a time stamp (gzip without -n)"
        if command -v groff >/dev/null 2>&1; then
            w=$(gzip -dc "$m" | groff -ww -z -man 2>&1)
            [ -z "$w" ] || bad "$(basename "$m"): groff -ww warns: $w"
        fi
    done
    ;;

install)
    work=$1
    root=$work/root
    extract "$root"
    L=$root/usr/$libdir
    altmem=$root/usr/bin/altmem
    lenv=(env LD_LIBRARY_PATH="$L")
    # The tool loads the root's libaltmem.so.0, not another one.
    resolved=$(run "${lenv[@]}" ldd "$altmem" | awk '$1 == "libaltmem.so.'"$soversion"'" { print $3 }')
    [ "$(readlink -f "$resolved")" = "$(readlink -f "$L/libaltmem.so.$version")" ] ||
        bad "$altmem loads libaltmem.so.$soversion from '$resolved', not from $L"
    out=$(run "${lenv[@]}" "$altmem" --version) || bad "altmem --version failed"
    [ "$out" = "altmem $version" ] || bad "altmem --version says '$out'"
    echo "$out"
    run "${lenv[@]}" "$altmem" help >/dev/null || bad "altmem help failed"
    run "${lenv[@]}" "$altmem" help run >/dev/null || bad "altmem help run failed"
    info=$(run "${lenv[@]}" "$altmem" info) || bad "altmem info failed"
    printf '%s\n' "$info" | sed -n '1,4p;/^routine/,/^$/p'
    printf '%s\n' "$info" | grep -Eq '^memcpy +[a-z0-9_]+ +(detected|overridden|profile)' || bad "altmem info shows no memcpy binding"
    if [ -n "$profile" ]; then
        printf '%s\n' "$info" | grep -q "^profile: *$profile" || bad "altmem info does not look for the system profile at $profile"
    fi
    # altmem run: the root's libaltmem-preload.so, found next to the root's altmem.
    pre=$(run "${lenv[@]}" "$altmem" run -- sh -c 'printf %s "$LD_PRELOAD"')
    [ "$(readlink -f "$pre")" = "$(readlink -f "$L/libaltmem-preload.so")" ] ||
        bad "altmem run preloads '$pre', not $L/libaltmem-preload.so"
    seq 20000 | sed 's/$/ altmem package test line/' | sort -R --random-source=/dev/zero >"$work/in.txt"
    sort "$work/in.txt" >"$work/plain.txt"
    # The proof that sort used the preload: the loader binding a mem* name to it, or
    # the preload writing sort's PLT slot itself (debug=1 says so; the loader then
    # never binds that name).
    run "${lenv[@]}" LD_DEBUG=bindings LD_DEBUG_OUTPUT="$work/bindings" "$altmem" run -- \
        env ALTMEM_TUNABLES=debug=1 sort "$work/in.txt" -o "$work/altmem.txt" 2>"$work/sort.err" ||
        bad "altmem run -- sort failed"
    cmp -s "$work/plain.txt" "$work/altmem.txt" || bad "sort under altmem run gave other output"
    if cat "$work"/bindings.* 2>/dev/null | grep -q "to $L/libaltmem-preload.so \[0\]: normal symbol \`mem"; then
        echo "altmem run -- sort: same output; its mem* calls bound to $L/libaltmem-preload.so"
    elif grep -q '^altmem: PLT slot mem[a-z]* in (the program)' "$work/sort.err"; then
        echo "altmem run -- sort: same output; $L/libaltmem-preload.so gave its mem* PLT slots the variants"
    else
        bad "neither LD_DEBUG=bindings nor the preload's debug lines show sort's mem* calls reaching $L/libaltmem-preload.so"
    fi
    rm -f "$work"/bindings.* "$work/sort.err"
    ;;

pkgconfig)
    work=$1 src=$2 cc=$3 pkgconfig=$4 make=$5
    [ -n "$pkgconfig" ] && command -v "$pkgconfig" >/dev/null 2>&1 || skip "pkg-config not found (Debian package pkgconf)"
    root=$work/root
    L=$root/usr/$libdir
    [ -x "$root/usr/bin/altmem" ] || { echo "FAIL: no $root: package.install did not run"; exit 1; }
    pcdir=$L/pkgconfig
    # As on the installed system: nothing but -laltmem.
    trim() { sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//'; }
    libs=$(run env PKG_CONFIG_LIBDIR="$pcdir" "$pkgconfig" --libs altmem | trim) || bad "pkg-config --libs altmem failed"
    [ "$libs" = "-laltmem" ] || bad "pkg-config --libs altmem says '$libs' (on an installed system: -laltmem)"
    cflags=$(run env PKG_CONFIG_LIBDIR="$pcdir" "$pkgconfig" --cflags altmem | trim)
    [ -z "$cflags" ] || bad "pkg-config --cflags altmem says '$cflags' (on an installed system: nothing, /usr/include)"
    mv=$(run env PKG_CONFIG_LIBDIR="$pcdir" "$pkgconfig" --modversion altmem | trim)
    [ "$mv" = "$version" ] || bad "pkg-config --modversion altmem says '$mv'"
    echo "pkg-config: --libs '$libs', --cflags '$cflags', --modversion $mv"
    # Against the unpacked root, as one builds against a sysroot.
    pcenv=(env PKG_CONFIG_LIBDIR="$pcdir" PKG_CONFIG_SYSROOT_DIR="$root" PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1
           PKG_CONFIG_ALLOW_SYSTEM_LIBS=1)
    run "${pcenv[@]}" "$pkgconfig" --cflags --libs altmem
    b=$work/example-pkgconfig
    rm -rf "$b"
    mkdir -p "$b"
    mk=("${pcenv[@]}" "$make" -f "$src/examples/Makefile" -C "$b" CC="$cc" PKG_CONFIG="$pkgconfig"
        "CFLAGS=-O2 -std=c11 -Wall -Wextra -Wpedantic -Werror")
    run "${mk[@]}" all static || { echo "FAIL: the examples do not build through the package's altmem.pc"; exit 1; }
    for p in altmem_demo alternative_demo truncate_demo; do
        r=$(run env LD_LIBRARY_PATH="$L" ldd "$b/$p" | awk '$1 == "libaltmem.so.'"$soversion"'" { print $3 }')
        [ "$(readlink -f "$r")" = "$(readlink -f "$L/libaltmem.so.$version")" ] || bad "$p loads libaltmem from '$r', not $L"
        run env LD_LIBRARY_PATH="$L" "$b/$p" >"$b/$p.out" 2>&1 || { cat "$b/$p.out"; bad "$p failed"; }
        echo "$p: ran ($(grep -v "^+ " "$b/$p.out" | head -n 1))"
    done
    run "$b/altmem_demo_static" >"$b/static.out" 2>&1 || { cat "$b/static.out"; bad "altmem_demo_static failed"; }
    echo "altmem_demo_static: ran ($(grep -v "^+ " "$b/static.out" | head -n 1))"
    ;;

cmake)
    work=$1 src=$2 cc=$3
    need cmake "Debian package cmake"
    root=$work/root
    L=$root/usr/$libdir
    [ -x "$root/usr/bin/altmem" ] || { echo "FAIL: no $root: package.install did not run"; exit 1; }
    b=$work/example-cmake
    rm -rf "$b"
    run cmake -S "$src/examples" -B "$b" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release \
        "-DCMAKE_C_FLAGS=-Wall -Wextra -Wpedantic -Werror" -DCMAKE_PREFIX_PATH="$root/usr" \
        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF || { echo "FAIL: examples/ do not configure against the package"; exit 1; }
    found=$(sed -n 's/^altmem_DIR:[A-Z]*=//p' "$b/CMakeCache.txt")
    [ "$found" = "$root/usr/$libdir/cmake/altmem" ] || bad "find_package(altmem) found '$found', not $root/usr/$libdir/cmake/altmem"
    run cmake --build "$b" || { echo "FAIL: examples/ do not build against the package"; exit 1; }
    for p in altmem_demo altmem_demo_static alternative_demo truncate_demo; do
        run "$b/$p" >"$b/$p.out" 2>&1 || { cat "$b/$p.out"; bad "$p failed"; }
        echo "$p: ran ($(grep -v "^+ " "$b/$p.out" | head -n 1))"
    done
    ;;
control)
    src=$1 mainbuild=$2 work=$3
    fake=$work/pkgbuild
    rm -rf "$work"
    mkdir -p "$fake/packages" "$work/raw"
    cp "$cache" "$fake/"
    cp "$(deb "$runtime")" "$(deb libaltmem-dev)" "$fake/packages/"
    run dpkg-deb -R "$(deb altmem)" "$work/raw"
    mkdir -p "$work/raw/usr/share/altmem/tests"
    printf '#!/bin/sh\nexit 0\n' >"$work/raw/usr/share/altmem/tests/test_memcpy"
    run dpkg-deb --root-owner-group -b "$work/raw" "$fake/packages/$(basename "$(deb altmem)")" >/dev/null ||
        { echo "CONTROL FAILED: could not repack $(deb altmem)"; exit 1; }
    exec sh "$here/../abi/expect_fail.sh" '^    \+ \./usr/share/altmem/tests/test_memcpy$' \
        bash "$0" contents "$fake" "$src" "$mainbuild" "$work/contents"
    ;;
*)
    echo "usage: check.sh contents|install|pkgconfig|cmake|control PKGBUILD ..." >&2
    exit 2
    ;;
esac
[ $fail -eq 0 ] && echo "package $mode: passed"
exit $fail
