#!/bin/sh
# The pointer fallback, forced, still gives the same results.
#
#   fallback.sh MODE ALTMEM PROBE DENY DLOPEN LIBALTMEM PROGRAMS_SH WORK
#
#   MODE pointer  ALTMEM_TUNABLES=bind=pointer: altmem leaves its stubs alone;
#        write    under DENY write (tests/dropin/deny_mprotect.c): the kernel refuses
#                 mprotect with PROT_WRITE, so the stub page cannot be written;
#        exec     under DENY exec: it refuses PROT_EXEC, so a written page could not
#                 run again (SELinux execmod, PaX) — found out on the probe page.
# In each mode:
#   1. `altmem info` (libaltmem.so) says every routine is bound by "pointer" and its
#      "not patched:" line names the cause — and, as a control, the same command
#      without the cause says "patched branch";
#   2. PROBE under `altmem run` finds libaltmem-preload.so bound by pointer with the
#      same cause (under the refusals with bind=patch, as step 1: the preload's own
#      default rewrites PLT slots, no code), and its routines give the right results;
#   3. DLOPEN: libaltmem.so dlopen()ed by a program whose threads are running,
#      bound by pointer, all results right (not in mode write, where no thread
#      can be created at all);
#   4. the drop-in programs (PROGRAMS_SH, small inputs) produce output identical to
#      their runs without altmem.
# Exit 77 (reason last) when seccomp filters cannot be installed here.
set -u
mode=$1 A=$2 P=$3 DENY=$4 DLOPEN=$5 LIB=$6 PROGRAMS=$7 WORK=$8
unset LD_PRELOAD ALTMEM_PRELOAD_LIB ALTMEM_TUNABLES LD_LIBRARY_PATH
fail=0
bad() { echo "FAIL: $*"; fail=1; }

case "$mode" in
pointer)
    wrap="env ALTMEM_TUNABLES=bind=pointer" note="bind=pointer" tunables="--tunables bind=pointer" ;;
write | exec)
    wrap="$DENY $mode" note="mprotect" tunables=""
    # Can this machine install the filter at all?
    out=$("$DENY" "$mode" true 2>&1)
    rc=$?
    if [ $rc -eq 77 ]; then
        printf '%s\n' "$out" | tail -n 1
        exit 77
    elif [ $rc -ne 0 ]; then
        printf '%s\n' "$out"
        echo "FAIL: deny_mprotect $mode does not work (exit $rc)"
        exit 1
    fi
    ;;
*) echo "usage: fallback.sh pointer|write|exec ..." >&2; exit 2 ;;
esac

# libaltmem.so's IFUNC entries (the default build) rewrite no code, so there
# the patched branch, whose fallback this is, is asked for: bind=patch.
if [ "$mode" != pointer ]; then
    ALTMEM_TUNABLES=bind=patch
    export ALTMEM_TUNABLES
fi

echo "--- 1. altmem info, $mode"
control=$(ALTMEM_TUNABLES=bind=patch "$A" info)
printf '%s\n' "$control" | grep -Eq '^memcpy +[a-z0-9_]+ +[a-z]+ +patched branch' ||
    bad "control: plain \`altmem info\` does not say patched branch, so this test proves nothing"
# shellcheck disable=SC2086 # $wrap is a command and its arguments
info=$($wrap "$A" info)
printf '%s\n' "$info" | grep -E '^(routine|mem|not patched)'
for r in memcpy memmove memset; do
    printf '%s\n' "$info" | grep -Eq "^$r +[a-z0-9_]+ +[a-z]+ +pointer " || bad "altmem info: $r not bound by pointer"
done
printf '%s\n' "$info" | grep -Eq "^not patched: .*$note" || bad "altmem info: no 'not patched: ...$note' line"

echo "--- 2. probe under altmem run, $mode"
# (Its status, not the filter's: a pipe would hide a failed probe.)
mkdir -p "$(dirname "$WORK")"
# shellcheck disable=SC2086
$wrap "$A" run -- "$P" altmem pointer "$note" >"$WORK.probe" 2>&1
rc=$?
grep -Ev '^(__|w?mem|b[a-z]+ |explicit)' "$WORK.probe"
[ $rc -eq 0 ] || bad "probe (exit $rc)"

echo "--- 3. dlopen from a multi-threaded program, $mode"
if [ "$mode" = write ]; then
    # glibc makes a new thread's stack usable with mprotect(PROT_READ|PROT_WRITE),
    # which this mode refuses: no multi-threaded program can run under it, with or
    # without altmem.  The exec mode covers dlopen under a refusal.
    echo "not run: pthread_create itself needs mprotect(PROT_WRITE)"
else
    # shellcheck disable=SC2086
    $wrap "$DLOPEN" "$LIB" pointer || bad "dlopen_threads"
fi

echo "--- 4. drop-in programs, $mode"
# shellcheck disable=SC2086
if [ "$mode" = pointer ]; then
    bash "$PROGRAMS" --altmem "$A" --work "$WORK" --scale small $tunables cp tar sort gzip python git
else
    bash "$PROGRAMS" --altmem "$A" --work "$WORK" --scale small --wrap "$wrap" cp tar sort gzip python git
fi
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || bad "drop-in programs"

[ $fail -eq 0 ] && echo "fallback $mode: passed" || echo "fallback $mode: FAILED"
exit $fail
