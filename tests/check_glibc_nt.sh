#!/bin/sh
# glibc_nt: on the machine the tests run on, altmem's computation of the threshold
# from which glibc 2.36 streams (and where its rep movsb stops) against what this
# machine's glibc reports (ld.so --list-diagnostics).  altmem's default streams from
# that threshold (src/policy.c, rule defaults), so every developer's and CI machine
# checks the formula on its own CPU.
#
#   check_glibc_nt.sh TEST_DECODE [LD_SO]
#   check_glibc_nt.sh --models TEST_DECODE [LD_SO]
#
# --models (glibc_nt_models): the same under qemu-x86_64, both programs under each
# CPU model below, so the formula is checked on CPUs the machine is not: AMD with and
# without 0x8000001D, Intel with leaf 4, and Intel whose highest basic leaf is below 4
# (level=2, level=3: a BIOS's "limit CPUID maxval"), where glibc takes the caches from
# leaf 2's descriptors.
# Exit 0 equal, 1 different, 77 skipped (not x86_64, not glibc 2.36, an ld.so
# without --list-diagnostics, or for --models no qemu-x86_64), with the reason.
models=0
if [ "${1:-}" = --models ]; then
    models=1
    shift
fi
exe=${1:?usage: check_glibc_nt.sh [--models] TEST_DECODE [LD_SO]}
ldso=${2:-/lib64/ld-linux-x86-64.so.2}
skip() { echo "SKIPPED: $*"; exit 77; }
[ "$(uname -m)" = x86_64 ] || skip "not an x86_64 host"
ver=$(getconf GNU_LIBC_VERSION 2>/dev/null)
[ "$ver" = "glibc 2.36" ] || skip "the formula is glibc 2.36's (Debian 12); this host has '${ver:-no glibc}'"
[ -x "$ldso" ] || skip "$ldso not found"
# glibc's own tunables would change what it reports, not what the CPU says.
unset GLIBC_TUNABLES

# check PREFIX: ld.so's figures and altmem's, both run after PREFIX (none, or
# qemu-x86_64 -cpu MODEL); 0 equal, 1 different, 77 no figures.
check() {
    diag=$($1 "$ldso" --list-diagnostics 2>/dev/null) || return 77
    nt=$(printf '%s\n' "$diag" | sed -n 's/^x86\.cpu_features\.non_temporal_threshold=//p')
    stop=$(printf '%s\n' "$diag" | sed -n 's/^x86\.cpu_features\.rep_movsb_stop_threshold=//p')
    [ -n "$nt" ] && [ -n "$stop" ] || return 77
    printf '%s\n' "$diag" | grep -E '^x86\.cpu_features\.(basic\.(kind|family|model|max_cpuid)|shared_cache_size|level[23]_cache_size)=' |
        tr '\n' ' '
    echo
    $1 "$exe" --glibc-here "$nt" "$stop" 2>/dev/null
}

if [ $models = 0 ]; then
    check ""
    rc=$?
    [ $rc = 77 ] && skip "$ldso gives no non_temporal_threshold / rep_movsb_stop_threshold"
    exit $rc
fi
command -v qemu-x86_64 >/dev/null || skip "no qemu-x86_64 (scripts/install-cross-deps.sh installs qemu-user)"
fail=0
for m in EPYC EPYC-Rome EPYC-Milan EPYC-Milan,xlevel=0x80000008 Cascadelake-Server Cascadelake-Server,level=2 \
    Icelake-Server,level=3 core2duo core2duo,level=2; do
    echo "== $m"
    check "qemu-x86_64 -cpu $m"
    rc=$?
    [ $rc = 0 ] || { fail=1; [ $rc = 77 ] && echo "FAIL: $m: no figures from ld.so under qemu"; }
done
exit $fail
