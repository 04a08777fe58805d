#!/bin/sh
# altmem info's cache sizes against the newest glibc's (tests caches_glibc,
# caches_glibc_control).
#   check_caches_glibc.sh SCRIPT ALTMEM CACHE          scripts/newer-glibc.sh, the CLI, its cache
#   check_caches_glibc.sh --models SCRIPT ALTMEM CACHE the same under qemu-x86_64, per CPU model
#   check_caches_glibc.sh --models-control SCRIPT ALTMEM CACHE
#   check_caches_glibc.sh --compare "A1 A2 A3" "G1 G2 G3"
# glibc 2.41 (Debian 13) reads the caches where altmem does: AMD's leaf
# 0x8000001D, or the legacy leaves 0x80000005/6 where that one is missing or
# empty (a guest that hides TOPOEXT); Intel's leaf 4.  So the L1d, L2 and L3
# that `altmem info` prints must be the level1_dcache_size, level2_cache_size
# and level3_cache_size of its `ld.so --list-diagnostics`; "unknown" where glibc
# knows one fails.  Skipped (77) where the archive cannot be reached and no
# cached copy exists.  --compare only compares (the control feeds it a
# mismatch, which must fail).
# --models: both programs under qemu-x86_64 (qemu-user) with each model of the
# list below, whose caches glibc 2.41 and altmem read from the same leaves:
# AMD's 0x8000001D, and the legacy 0x80000005/6 where the model's highest
# extended leaf (xlevel) stops short of it, as on a guest that hides it; Intel's
# leaf 2 descriptors where the highest basic leaf (level) is below 4, as a BIOS's
# "limit CPUID maxval" leaves it.  The Intel models with leaf 4 are printed, not
# checked: glibc takes the L2 from leaf 2's descriptors before leaf 4, and qemu's
# descriptors (a 2 MiB L2) disagree with its own leaf 4 (4 MiB), which altmem
# reads there; real Intel CPUs since Core i7 answer leaf 2 with 0xff, "see leaf
# 4" (docs/architecture.md, the x86_64 row of the detection table).  --models-control: altmem
# under one model and glibc under another, with other caches: must fail.
set -u
compare() {     # "altmem's three" "glibc's three", in bytes (0: unknown)
    set -- $1 $2
    ok=1
    for name in L1d L2 L3; do
        a=$1 g=$4
        if [ "$a" != "$g" ]; then
            echo "FAIL: $name: altmem info says $a bytes, glibc 2.41's ld.so $g"
            ok=0
        fi
        shift
        [ $# -ge 3 ] || break
    done
    [ $ok = 1 ]
}
if [ "${1:-}" = --compare ]; then
    compare "$2" "$3" && echo "ok: $2" || exit 1
    exit 0
fi
mode=plain
case "${1:-}" in --models | --models-control) mode=${1#--}; shift ;; esac
script=$1 altmem=$2 cache=$3
for tool in apt-get dpkg-deb dpkg; do
    command -v "$tool" >/dev/null || { echo "SKIPPED: no $tool (not a Debian system)"; exit 77; }
done
lib=$("$script" trixie "$cache" 2>&1); rc=$?
[ $rc = 77 ] && { echo "SKIPPED: $lib"; exit 77; }
[ $rc = 0 ] && [ -d "$lib" ] || { echo "FAIL: newer-glibc.sh trixie: exit $rc, '$lib'"; exit 1; }
loader=$(ls "$lib"/ld-linux*.so.* 2>/dev/null | head -n 1)
[ -x "$loader" ] || { echo "FAIL: no loader in $lib"; exit 1; }

# figures "ALTMEM_PREFIX" "GLIBC_PREFIX": sets ours and glibc, "L1d L2 L3" in
# bytes, each program run after its prefix (none, or qemu-x86_64 -cpu MODEL).
figures() {
    diag=$($2 "$loader" --list-diagnostics 2>/dev/null) || { echo "FAIL: $2 $loader --list-diagnostics"; exit 1; }
    glibc="$(($(g level1_dcache_size))) $(($(g level2_cache_size))) $(($(g level3_cache_size)))"
    info=$($1 "$altmem" info 2>/dev/null) || { echo "FAIL: $1 altmem info"; exit 1; }
    ours="$(bytes L1d) $(bytes L2) $(bytes L3)"
}
g() { printf '%s\n' "$diag" | sed -n "s/^x86\.cpu_features\.$1=//p" | head -n 1; }
# "  L1d   32 KiB" / "  L3    unknown" in altmem info's caches block.
bytes() {
    printf '%s\n' "$info" | awk -v lvl="$1" '
        $1 == lvl && $2 == "unknown" { print 0; exit }
        $1 == lvl { n = $2; u = $3; m = (u == "KiB") ? 1024 : (u == "MiB") ? 1048576 : (u == "GiB") ? 1073741824 : 1;
                    printf "%d\n", n * m; exit }'
}

checked_models="EPYC EPYC-Rome EPYC-Milan EPYC-Milan,-topoext EPYC-Milan,xlevel=0x80000008 EPYC-Rome,xlevel=0x80000008
                Cascadelake-Server,level=2 Icelake-Server,level=3 core2duo,level=2"
printed_models="Cascadelake-Server Icelake-Server"
case $mode in
models*)
    command -v qemu-x86_64 >/dev/null ||
        { echo "SKIPPED: no qemu-x86_64 (scripts/install-cross-deps.sh installs qemu-user)"; exit 77; } ;;
esac
case $mode in
plain)
    figures "" ""
    echo "altmem info: $ours; glibc 2.41 ($lib): $glibc"
    compare "$ours" "$glibc" || exit 1
    echo "ok: the same L1d, L2 and L3 as glibc 2.41"
    ;;
models)
    fail=0
    for m in $checked_models; do
        figures "qemu-x86_64 -cpu $m" "qemu-x86_64 -cpu $m"
        if out=$(compare "$ours" "$glibc"); then
            echo "ok: $m: $ours"
        else
            printf '%s\n' "$out" | sed "s/^/$m: /"
            fail=1
        fi
    done
    for m in $printed_models; do
        figures "qemu-x86_64 -cpu $m" "qemu-x86_64 -cpu $m"
        echo "not checked: $m: altmem (leaf 4) $ours, glibc 2.41 (leaf 2 first) $glibc"
    done
    exit $fail
    ;;
models-control)
    figures "qemu-x86_64 -cpu EPYC" "qemu-x86_64 -cpu EPYC-Milan"
    if compare "$ours" "$glibc"; then
        echo "FAIL: control: altmem under EPYC (8 MiB L3) matched glibc under EPYC-Milan (32 MiB)"
        exit 1
    fi
    echo "ok: control: the models' different caches are told apart"
    ;;
esac
