#!/bin/sh
# altmem info's cache sizes against the newest glibc's (tests caches_glibc,
# caches_glibc_control).
#   check_caches_glibc.sh SCRIPT ALTMEM CACHE          scripts/newer-glibc.sh, the CLI, its cache
#   check_caches_glibc.sh --compare "A1 A2 A3" "G1 G2 G3"
# glibc 2.41 (Debian 13) reads the caches where altmem does: AMD's leaf
# 0x8000001D, or the legacy leaves 0x80000005/6 where that one is missing or
# empty (a guest that hides TOPOEXT); Intel's leaf 4.  So the L1d, L2 and L3
# that `altmem info` prints must be the level1_dcache_size, level2_cache_size
# and level3_cache_size of its `ld.so --list-diagnostics`; "unknown" where glibc
# knows one fails.  Skipped (77) where the archive cannot be reached and no
# cached copy exists.  --compare only compares (the control feeds it a
# mismatch, which must fail).
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
script=$1 altmem=$2 cache=$3
for tool in apt-get dpkg-deb dpkg; do
    command -v "$tool" >/dev/null || { echo "SKIPPED: no $tool (not a Debian system)"; exit 77; }
done
lib=$("$script" trixie "$cache" 2>&1); rc=$?
[ $rc = 77 ] && { echo "SKIPPED: $lib"; exit 77; }
[ $rc = 0 ] && [ -d "$lib" ] || { echo "FAIL: newer-glibc.sh trixie: exit $rc, '$lib'"; exit 1; }
loader=$(ls "$lib"/ld-linux*.so.* 2>/dev/null | head -n 1)
[ -x "$loader" ] || { echo "FAIL: no loader in $lib"; exit 1; }
diag=$("$loader" --list-diagnostics) || { echo "FAIL: $loader --list-diagnostics"; exit 1; }
g() { printf '%s\n' "$diag" | sed -n "s/^x86\.cpu_features\.$1=//p" | head -n 1; }
glibc="$(($(g level1_dcache_size))) $(($(g level2_cache_size))) $(($(g level3_cache_size)))"
# "  L1d   32 KiB" / "  L3    unknown" in altmem info's caches block.
info=$("$altmem" info) || { echo "FAIL: altmem info"; exit 1; }
bytes() {
    printf '%s\n' "$info" | awk -v lvl="$1" '
        $1 == lvl && $2 == "unknown" { print 0; exit }
        $1 == lvl { n = $2; u = $3; m = (u == "KiB") ? 1024 : (u == "MiB") ? 1048576 : (u == "GiB") ? 1073741824 : 1;
                    printf "%d\n", n * m; exit }'
}
ours="$(bytes L1d) $(bytes L2) $(bytes L3)"
echo "altmem info: $ours; glibc 2.41 ($lib): $glibc"
compare "$ours" "$glibc" || exit 1
echo "ok: the same L1d, L2 and L3 as glibc 2.41"
