#!/bin/sh
# `altmem tune` and `altmem info` with the profile, end to end:
#   test_profile_cli.sh ALTMEM [PROFILE_COST]
# tune --quick writes a profile for this CPU; info shows it applied; a pin added by
# hand binds (reason "profile"), ALTMEM_TUNABLES overrides it; the same profile with
# another model is ignored with one warning naming the field; a FIFO at the path is
# refused without blocking; ALTMEM_PROFILE=none reads nothing; tune --load times
# every round idle and loaded and leaves no load process (on one allowed CPU:
# idle only, said once); tune refuses an unknown option.
set -u
ALTMEM=${1:?usage: test_profile_cli.sh ALTMEM [PROFILE_COST]}
COST=${2:-}
if [ -n "${ALTMEM_TEST_EMULATOR:-}" ]; then
    echo "profile_cli: SKIPPED: altmem tune runs each candidate in a child that re-executes the program (/proc/self/exe), which a qemu-user guest cannot exec without binfmt_misc; the parsing and the reader are tested by test_profile here, the whole path by the native run"
    exit 77
fi
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok: $*"; }
d=$(mktemp -d "${TMPDIR:-/tmp}/altmem-profile-cli.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT

start=$(date +%s)
if ! ALTMEM_PROFILE=none "$ALTMEM" tune --quick --output "$d/p" 2>"$d/err"; then
    cat "$d/err"; bad "altmem tune --quick failed"
fi
echo "tune --quick: $(( $(date +%s) - start )) s"
grep -q '^cpu: arch=' "$d/p" && ok "the profile has its cpu: line" || bad "no cpu: line in $(cat "$d/p")"
out=$(ALTMEM_PROFILE="$d/p" "$ALTMEM" info 2>&1)
echo "$out" | grep -q "^profile: *$d/p: applied" && ok "info: applied" || bad "info: $(echo "$out" | grep profile)"
echo "$out" | grep -q '^altmem:' && bad "warnings for tune's own profile: $(echo "$out" | grep '^altmem:')"

if [ -n "$COST" ]; then
    out=$("$COST" "$d/p") && echo "$out" | grep -q 'applies on this CPU): read + parse [0-9.]* us' &&
        ok "altmem-profile-cost: $out" || bad "altmem-profile-cost: $out"
fi
printf 'memset=generic   # added by hand\n' >>"$d/p"
out=$(ALTMEM_PROFILE="$d/p" "$ALTMEM" info 2>&1)
echo "$out" | grep -q '^memset  *generic  *profile ' && ok "a pin in the profile binds (reason profile)" ||
    bad "memset: $(echo "$out" | grep '^memset ')"
echo "$out" | grep -q '^  memset=generic   # added by hand' && ok "info lists the setting with its comment" ||
    bad "info does not list the setting"
out=$(ALTMEM_PROFILE="$d/p" ALTMEM_TUNABLES=memset=ual "$ALTMEM" info 2>&1)
echo "$out" | grep -q '^memset  *ual  *overridden ' && ok "ALTMEM_TUNABLES over the profile" ||
    bad "override: $(echo "$out" | grep '^memset ')"

out=$("$ALTMEM" bench --profile "$d/p" --routine memset --sizes 64,4K --align 0/0 --reps 1 --min-sample-ms 0.1 2>&1)
echo "$out" | grep -q '^memset .* | avx512\|^memset .* | [a-z0-9]* *[0-9.]* | generic ' &&
    echo "$out" | grep -q '^memset: profile against rules, geomean [0-9.]*x over 2 cells' &&
    ok "bench --profile: rules and profile side by side" || bad "bench --profile: $out"
"$ALTMEM" bench --profile /nonexistent/p >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok "bench --profile with no such file: exit 2" || bad "bench --profile /nonexistent: exit $rc"
sed 's/ model=[0-9]*/ model=9999/' "$d/p" >"$d/other"
out=$(ALTMEM_PROFILE="$d/other" "$ALTMEM" info 2>&1)
n=$(echo "$out" | grep -c '^altmem: profile ')
echo "$out" | grep -q "^altmem: profile $d/other: measured on another CPU: 'model=9999' in the profile" && [ "$n" = 1 ] &&
    echo "$out" | grep -q '^memset  *[a-z0-9]*  *detected ' && ok "another CPU's profile: one warning, the rules' choices" ||
    bad "another CPU: $n warnings: $(echo "$out" | grep -E '^altmem:|^memset ')"

mkfifo "$d/fifo"
out=$(ALTMEM_PROFILE="$d/fifo" timeout 20 "$ALTMEM" info 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "^altmem: profile $d/fifo: not a regular file" &&
    ok "a FIFO: refused, no hang" || bad "FIFO: rc $rc, $(echo "$out" | grep '^altmem:')"
out=$(ALTMEM_PROFILE=none "$ALTMEM" info 2>&1)
echo "$out" | grep -q '^profile: *none' && ok "ALTMEM_PROFILE=none" || bad "none: $(echo "$out" | grep '^profile')"
# --load: every round idle and loaded, the line says so; the load processes are
# forks of tune (its command line) and must be gone when it exits.
if ALTMEM_PROFILE=none "$ALTMEM" tune --quick --load --output "$d/pl" 2>"$d/errl"; then
    if grep -Eq '^# Every round idle and again with a load: memset then memcpy of [0-9]+ MiB, over and over, on CPU [0-9,]+ [(]--load[)]; timed on CPU [0-9]+$' "$d/pl" &&
        grep -q '^# altmem profile: measured by `altmem tune --quick --load`' "$d/pl" &&
        grep -q 'over [0-9]* rounds (half of them under --load)' "$d/pl"; then
        ok "tune --load: the load line and the rounds"
    elif grep -q '^# Idle only: no memory load (no CPU allowed besides the timed one)' "$d/pl" &&
        grep -q '^altmem tune: no memory load' "$d/errl"; then
        ok "tune --load on one CPU: idle only, said on stderr and in the profile"
    else
        bad "tune --load: $(head -3 "$d/pl")"
    fi
    left=""
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        left=$(pgrep -f -- "tune --quick --load --output $d/pl" || true)
        [ -z "$left" ] && break
        sleep 0.1
    done
    [ -z "$left" ] && ok "tune --load: no load process left" || bad "tune --load left processes: $left"
else
    cat "$d/errl"; bad "altmem tune --quick --load failed"
fi
out=$(taskset -c 0 "$ALTMEM" tune --quick --load --output "$d/p1" 2>&1); rc=$?
if command -v taskset >/dev/null; then
    [ $rc -eq 0 ] && grep -q '^# Idle only: no memory load (no CPU allowed besides the timed one)' "$d/p1" &&
        echo "$out" | grep -q '^altmem tune: no memory load (no CPU allowed besides the timed one): measuring idle only$' &&
        ok "tune --load on one allowed CPU: idle only, one line on stderr" || bad "one CPU: rc $rc, $out"
fi
"$ALTMEM" tune --bogus >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok "tune --bogus: exit 2" || bad "tune --bogus: exit $rc"
"$ALTMEM" tune --help | grep -q -- '--thorough' && ok "tune --help" || bad "tune --help"

[ $fail -eq 0 ] && echo "profile_cli: passed" || echo "profile_cli: FAILED"
exit $fail
