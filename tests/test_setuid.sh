#!/bin/sh
# AT_SECURE: a setuid program must ignore ALTMEM_TUNABLES, as glibc ignores
# GLIBC_TUNABLES there, or whoever runs it could steer the privileged process.
#
#   test_setuid.sh SECURE_PROBE
#
# A root-owned setuid copy of the probe is run as nobody with a tunables value
# that changes the memcpy binding; it must report secure=1 and the default
# binding.  Negative control: the same copy without the setuid bit, run the
# same way, must report secure=0 and the changed binding.  Needs root (to make
# a root-owned setuid file) and setpriv; otherwise exits 77 (skipped).
set -u

PROBE=${1:?usage: test_setuid.sh SECURE_PROBE}
skip() { echo "setuid: SKIPPED: $*"; exit 77; }
fail=0
bad() { echo "FAIL: $*"; fail=1; }

[ -z "${ALTMEM_TEST_EMULATOR:-}" ] ||
    skip "cross build: the probe runs under $ALTMEM_TEST_EMULATOR, and the kernel applies a setuid bit to the program it executes (qemu), not to the emulated one, so AT_SECURE cannot be tested here"
[ "$(id -u)" = 0 ] || skip "not running as root (a root-owned setuid file is needed)"
command -v setpriv >/dev/null 2>&1 || skip "setpriv (util-linux) not found"
if grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status 2>/dev/null; then
    skip "no_new_privs is set for this process tree: the kernel would ignore the setuid bit"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/altmem-setuid.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
if command -v findmnt >/dev/null 2>&1; then
    opts=$(findmnt -n -o OPTIONS -T "$dir" 2>/dev/null)
    case ",$opts," in
    *,nosuid,*) skip "$dir is on a nosuid filesystem ($opts); set TMPDIR elsewhere" ;;
    esac
fi

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
[ "$(as_nobody id -u 2>/dev/null)" = 65534 ] || skip "setpriv cannot switch to uid 65534 here"

cp "$PROBE" "$dir/plain" && cp "$PROBE" "$dir/suid" || exit 1
chown 0:0 "$dir/plain" "$dir/suid" || exit 1
chmod 755 "$dir/plain" || exit 1
chmod 4755 "$dir/suid" || exit 1
as_nobody "$dir/plain" >/dev/null 2>&1
[ $? -ge 126 ] && skip "nobody cannot execute $dir/plain (a parent directory not searchable?)"

field() { printf '%s\n' "$1" | sed -n "s/.*$2=\([^ ]*\).*/\1/p"; }

# Baseline: what this CPU binds with no tunables.
base=$(as_nobody env -u ALTMEM_TUNABLES "$dir/plain") || bad "probe failed"
echo "nobody, no setuid, no tunables:      $base"
base_var=$(field "$base" memcpy)
[ "$(field "$base" secure)" = 0 ] || bad "secure is not 0 in an ordinary process"

# A value that changes memcpy's binding on this CPU.
case "$base_var" in
ual) tun="hwcaps=-UAL"; changed=generic ;;
generic) tun="hwcaps=+UAL"; changed=ual ;;
*) tun="memcpy=generic"; changed=generic ;;
esac

out=$(as_nobody env ALTMEM_TUNABLES="$tun" "$dir/plain") || bad "probe failed"
echo "nobody, no setuid, $tun: $out"
if [ "$(field "$out" secure)" = 0 ] && [ "$(field "$out" memcpy)" = "$changed" ]; then
    echo "negative control: without the setuid bit the tunables apply (memcpy=$changed)"
else
    bad "negative control: expected secure=0 memcpy=$changed without the setuid bit"
fi

out=$(as_nobody env ALTMEM_TUNABLES="$tun" "$dir/suid") || bad "probe failed"
echo "nobody, setuid root, $tun: $out"
if [ "$(field "$out" secure)" = 1 ] && [ "$(field "$out" memcpy)" = "$base_var" ] &&
    [ "$(field "$out" masked)" = 0 ] && [ "$(field "$out" forced)" = 0 ]; then
    echo "ok: the setuid process is AT_SECURE and ignored ALTMEM_TUNABLES (memcpy=$base_var)"
else
    bad "setuid: expected secure=1 memcpy=$base_var masked=0 forced=0"
fi

# A malformed value must not even produce warnings in a secure process.
err=$(as_nobody env ALTMEM_TUNABLES="bogus=1:hwcaps=UAL" "$dir/suid" 2>&1 >/dev/null)
if [ -z "$err" ]; then
    echo "ok: a malformed value produces no output in the setuid process"
else
    bad "setuid process printed: $err"
fi

# ALTMEM_PROFILE: a profile for this CPU that pins memcpy (the identity line from
# `altmem tune`'s format, via the probe's own view of the CPU: ALTMEM_CPU_IDENTITY
# is printed by the probe when asked).
ident=$(as_nobody env ALTMEM_PROBE_IDENTITY=1 "$dir/plain" | sed -n 's/^identity=//p')
pin=generic
[ "$base_var" = generic ] && pin=ual
printf 'cpu: %s\nmemcpy=%s\n' "$ident" "$pin" >"$dir/profile"
chmod 644 "$dir/profile"
out=$(as_nobody env -u ALTMEM_TUNABLES ALTMEM_PROFILE="$dir/profile" "$dir/plain") || bad "probe failed"
echo "nobody, no setuid, ALTMEM_PROFILE:   $out"
if [ "$(field "$out" memcpy)" = "$pin" ] && [ "$(field "$out" reason)" = profile ]; then
    echo "negative control: without the setuid bit ALTMEM_PROFILE applies (memcpy=$pin)"
else
    bad "negative control: expected memcpy=$pin reason=profile from ALTMEM_PROFILE"
fi
out=$(as_nobody env -u ALTMEM_TUNABLES ALTMEM_PROFILE="$dir/profile" "$dir/suid") || bad "probe failed"
echo "nobody, setuid root, ALTMEM_PROFILE: $out"
case "$out" in
*"profile=$dir/profile"*) bad "setuid: ALTMEM_PROFILE was read" ;;
esac
if [ "$(field "$out" memcpy)" = "$base_var" ]; then
    echo "ok: the setuid process ignored ALTMEM_PROFILE (memcpy=$base_var)"
else
    bad "setuid: expected memcpy=$base_var, ALTMEM_PROFILE ignored"
fi

[ $fail -eq 0 ] && echo "setuid: passed" || echo "setuid: FAILED"
exit $fail
