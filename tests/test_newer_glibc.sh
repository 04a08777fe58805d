#!/bin/sh
# scripts/newer-glibc.sh (test bench_newer_glibc).
#   test_newer_glibc.sh SCRIPT ALTMEM LIBDIR CACHE
# A bad suite name and a suite the archive does not have are refused with exit
# status 2 and one line saying so; trixie's libc6 is fetched (or found in CACHE)
# and a bench started through its loader says it ran on glibc 2.41.  Where the
# archive cannot be reached, skipped with the reason (exit 77).
set -u
script=$1 altmem=$2 libdir=$3 cache=$4
fail() { echo "FAIL: $*"; exit 1; }
for tool in apt-get dpkg-deb dpkg; do
    command -v "$tool" >/dev/null || { echo "SKIPPED: no $tool (not a Debian system)"; exit 77; }
done
out=$("$script" 'bad/suite' "$cache" 2>&1); rc=$?
[ $rc = 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s\n' "$out" | grep -q "^newer-glibc.sh: bad suite 'bad/suite'" ||
    fail "bad suite: exit $rc, '$out'"
out=$("$script" no-such-suite-of-altmem "$cache" 2>&1); rc=$?
[ $rc = 77 ] && { echo "SKIPPED: $out"; exit 77; }
[ $rc = 2 ] && printf '%s\n' "$out" | grep -q "^newer-glibc.sh: no suite 'no-such-suite-of-altmem' at " ||
    fail "unknown suite: exit $rc, '$out'"
lib=$("$script" trixie "$cache" 2>&1); rc=$?
[ $rc = 77 ] && { echo "SKIPPED: $lib"; exit 77; }
[ $rc = 0 ] && [ -d "$lib" ] || fail "trixie: exit $rc, '$lib'"
loader=$(ls "$lib"/ld-linux*.so.* 2>/dev/null | head -n 1)
[ -x "$loader" ] || fail "no loader in $lib"
out=$("$loader" --library-path "$lib:$libdir" "$altmem" bench --routine memcpy --sizes 64 --align 0/0 --reps 2 \
      --min-sample-ms 0.01 --processes 2 2>&1) || fail "bench under glibc 2.41: $out"
printf '%s\n' "$out" | grep -q '^libc: *glibc 2\.41 ' || fail "the bench did not run on glibc 2.41: $(printf '%s\n' "$out" | grep '^libc')"
printf '%s\n' "$out" | grep -q '^ *64 B 0/0 ' || fail "no cell in: $out"
echo "ok: bad and unknown suites refused; trixie's glibc 2.41 at $lib runs altmem bench"
