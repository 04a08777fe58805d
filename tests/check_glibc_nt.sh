#!/bin/sh
# glibc_nt: on the machine the tests run on, altmem's computation of the threshold
# from which glibc 2.36 streams (and where its rep movsb stops) against what this
# machine's glibc reports (ld.so --list-diagnostics).  altmem's default streams from
# that threshold (src/policy.c, rule defaults), so every developer's and CI machine
# checks the formula on its own CPU.
#
#   check_glibc_nt.sh TEST_DECODE [LD_SO]
#
# Exit 0 equal, 1 different, 77 skipped (not x86_64, not glibc 2.36, or an ld.so
# without --list-diagnostics), with the reason.
exe=${1:?usage: check_glibc_nt.sh TEST_DECODE [LD_SO]}
ldso=${2:-/lib64/ld-linux-x86-64.so.2}
skip() { echo "SKIPPED: $*"; exit 77; }
[ "$(uname -m)" = x86_64 ] || skip "not an x86_64 host"
ver=$(getconf GNU_LIBC_VERSION 2>/dev/null)
[ "$ver" = "glibc 2.36" ] || skip "the formula is glibc 2.36's (Debian 12); this host has '${ver:-no glibc}'"
[ -x "$ldso" ] || skip "$ldso not found"
# glibc's own tunables would change what it reports, not what the CPU says.
unset GLIBC_TUNABLES
diag=$("$ldso" --list-diagnostics 2>/dev/null) || skip "$ldso has no --list-diagnostics"
nt=$(printf '%s\n' "$diag" | sed -n 's/^x86\.cpu_features\.non_temporal_threshold=//p')
stop=$(printf '%s\n' "$diag" | sed -n 's/^x86\.cpu_features\.rep_movsb_stop_threshold=//p')
[ -n "$nt" ] && [ -n "$stop" ] || skip "ld.so's diagnostics name no non_temporal_threshold / rep_movsb_stop_threshold"
printf '%s\n' "$diag" | grep -E '^x86\.cpu_features\.(basic\.(kind|family|model)|shared_cache_size|level[23]_cache_size)='
exec "$exe" --glibc-here "$nt" "$stop"
