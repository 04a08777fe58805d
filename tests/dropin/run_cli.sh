#!/bin/sh
# `altmem run` itself, and what a program run by it sees.
#
#   run_cli.sh status ALTMEM [LIB]
#       exit status and signals pass through; a missing command gives 127, a command
#       that is not executable 126, each with one line naming it; a missing library
#       (ALTMEM_PRELOAD_LIB) gives 127 naming it; an existing LD_PRELOAD is kept and
#       ours appended; usage errors give 2.  With LIB, ALTMEM_PRELOAD_LIB=LIB is what
#       gets preloaded (the sanitizer build passes the C library: its own
#       libaltmem-preload.so cannot be preloaded, but `altmem run` can be tested).
#   run_cli.sh probe ALTMEM PROBE BOUND_BY
#       PROBE (tests/dropin/probe.c, an ordinary program) run plainly must find the
#       C library's routines (negative control), run under `altmem run` must find all
#       of them in libaltmem-preload.so, bound by BOUND_BY; and a fortified overflow
#       must end the C library's way (__chk_fail: message, SIGABRT).
#   run_cli.sh installed PREFIX BINDIR PROBE BOUND_BY
#       the installed PREFIX/BINDIR/altmem (installed by build.install, then moved)
#       finds PREFIX's own libaltmem-preload.so, not the build tree's.
set -u
unset LD_PRELOAD ALTMEM_PRELOAD_LIB ALTMEM_TUNABLES LD_LIBRARY_PATH
fail=0
bad() { echo "FAIL: $*"; fail=1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/altmem-runcli.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# expect NAME WANT_RC STDERR_REGEX CMD...: runs CMD, checks its status and stderr.
expect() {
    name=$1 want=$2 err=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        bad "$name: exit status $rc, expected $want"
        sed 's/^/    stderr: /' "$tmp/err"
    elif [ -n "$err" ] && ! grep -Eq "$err" "$tmp/err"; then
        bad "$name: stderr does not match /$err/:"
        sed 's/^/    stderr: /' "$tmp/err"
    elif [ -z "$err" ] && [ -s "$tmp/err" ]; then
        bad "$name: unexpected stderr:"
        sed 's/^/    stderr: /' "$tmp/err"
    else
        echo "ok: $name (exit $rc)${err:+: $(head -n 1 "$tmp/err")}"
    fi
}

case "$1" in
status)
    A=$2
    lib_suffix=libaltmem-preload.so
    if [ $# -ge 3 ]; then
        ALTMEM_PRELOAD_LIB=$3
        export ALTMEM_PRELOAD_LIB
        lib_suffix=$(basename "$(realpath "$3")")
    fi
    expect "exit status passes through" 42 "" "$A" run -- sh -c 'exit 42'
    expect "without --" 3 "" "$A" run sh -c 'exit 3'
    expect "success" 0 "" "$A" run -- true
    # Killed by a signal: the caller sees what a shell shows for it, 128 + SIGTERM
    # (the shell in between may say "Terminated").
    sh -c '"$1" run -- sh -c "kill -TERM \$\$"; exit $?' sh "$A" >/dev/null 2>&1
    rc=$?
    [ $rc -eq 143 ] && echo "ok: a signal passes through (exit $rc = 128 + SIGTERM)" ||
        bad "killed by SIGTERM, but the status is $rc, not 143"
    # execvp: the command is the process the caller started, not a child of altmem.
    pids=$(sh -c '"$1" run -- sh -c "echo \$\$" & echo $!; wait' sh "$A" | sort | uniq | wc -l)
    [ "$pids" -eq 1 ] && echo "ok: the command runs in altmem's own process (exec, no fork)" ||
        bad "the command ran in another process than the one started"
    expect "missing command" 127 '^altmem run: altmem-no-such-command: command not found$' \
        "$A" run -- altmem-no-such-command arg
    expect "missing path" 127 '^altmem run: /nonexistent/prog: No such file or directory$' \
        "$A" run -- /nonexistent/prog
    printf 'data\n' >"$tmp/notexec"
    expect "not executable" 126 "^altmem run: $tmp/notexec: Permission denied\$" "$A" run -- "$tmp/notexec"
    expect "library missing" 127 '^altmem run: ALTMEM_PRELOAD_LIB=/nonexistent/libaltmem-preload.so: No such file' \
        env ALTMEM_PRELOAD_LIB=/nonexistent/libaltmem-preload.so "$A" run -- true
    expect "no command" 2 'no command given' "$A" run --
    expect "unknown option" 2 "unknown option '-x'" "$A" run -x true
    # An existing LD_PRELOAD keeps its place, ours goes after it, and only once.
    libc=libc.so.6
    got=$(LD_PRELOAD=$libc "$A" run -- sh -c 'printf %s "$LD_PRELOAD"')
    case "$got" in
    "$libc:/"*"$lib_suffix") echo "ok: LD_PRELOAD appended: $got" ;;
    *) bad "LD_PRELOAD=$libc became '$got'" ;;
    esac
    again=$(LD_PRELOAD=$got "$A" run -- sh -c 'printf %s "$LD_PRELOAD"')
    [ "$again" = "$got" ] && echo "ok: already listed, not added twice" || bad "listed twice: '$again'"
    ;;
probe)
    A=$2 P=$3 B=$4
    echo "--- plain run (negative control)"
    "$P" libc || bad "probe without altmem run"
    echo "--- under altmem run"
    "$A" run -- "$P" altmem "$B" || bad "probe under altmem run"
    echo "--- fortified overflow under altmem run"
    expect "__memcpy_chk overflow ends in __chk_fail" 134 '\*\*\* buffer overflow detected \*\*\*' \
        sh -c '"$1" run -- "$2" overflow; exit $?' sh "$A" "$P"
    ;;
installed)
    prefix=$2 bindir=$3 P=$4 B=$5
    "$prefix/$bindir/altmem" run -- "$P" altmem "$B" >"$tmp/out" 2>&1 || bad "installed altmem run"
    cat "$tmp/out"
    lib=$(awk '$1 == "memcpy" { print $2 }' "$tmp/out")
    case "$lib" in
    "$prefix"/*) echo "ok: the installed altmem preloads $lib" ;;
    *) bad "the installed altmem preloaded '$lib', not a library under $prefix" ;;
    esac
    ;;
*)
    echo "usage: run_cli.sh status|probe|installed ..." >&2
    exit 2
    ;;
esac
[ $fail -eq 0 ] && echo "run_cli $1: passed" || echo "run_cli $1: FAILED"
exit $fail
