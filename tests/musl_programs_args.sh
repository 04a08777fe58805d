#!/usr/bin/env bash
# scripts/musl-programs.sh refuses bad input with one line and exit status 2, before
# it builds or runs anything: no program, an unknown option, a missing directory, a
# directory that is not the program named, an SQLite amalgamation without sqlite3.c,
# RUNS/SCALE that are not numbers, a work directory inside the repository, and a
# missing musl-gcc or valgrind (a PATH of stand-ins without them).  --help exits 0.
# Needs no program sources, compiler or valgrind: it stops at the checks.
#   musl_programs_args.sh SCRIPTS_DIR
set -u
script=$1/musl-programs.sh
src=$(cd "$1/.." && pwd)
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
bad=0

# A fake Lua tree that passes the source check, and stand-in tools for PATH.
mkdir -p "$d/lua" "$d/empty" "$d/shellonly" "$d/bin"
printf '#define LUA_VERSION_NUM\t\t\t504\n' >"$d/lua/lua.h"
: >"$d/lua/lua.c"
: >"$d/shellonly/shell.c"
: >"$d/libaltmem-libc.a"
for t in bash env dirname basename sed grep awk cat mkdir rm mktemp realpath cut head tail; do
    p=$(command -v "$t") && ln -s "$p" "$d/bin/$t"
done
stub() { for t in "$@"; do printf '#!/bin/sh\nexit 0\n' >"$d/bin/$t"; chmod +x "$d/bin/$t"; done; }

expect() { # WANT_RC WANT_TEXT(grep -F, in the last line) [VAR=value...] -- ARGS...
    local want_rc=$1 want=$2 envs=() out rc last
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    out=$(env -u RUNS -u SCALE -u COMPARE_ARGS "${envs[@]}" bash "$script" "$@" 2>&1 </dev/null)
    rc=$?
    last=$(printf '%s\n' "$out" | tail -n 1)
    if [ "$rc" -ne "$want_rc" ] || ! printf '%s\n' "$last" | grep -qF -- "$want"; then
        echo "FAIL: ${envs[*]} $* -> rc $rc, '$last' (expected rc $want_rc, '$want')"
        bad=1
    elif [ "$want_rc" -eq 2 ] && [ "$(printf '%s\n' "$out" | grep -c "^musl-programs.sh: ")" -ne 1 ]; then
        echo "FAIL: ${envs[*]} $*: not exactly one error line:"
        printf '%s\n' "$out" | sed 's/^/    /'
        bad=1
    else
        echo "ok: ${envs[*]} $* -> $last"
    fi
}

expect 2 "no program given" --
expect 2 "unknown argument '--bogus'" -- --bogus
expect 2 "--lua needs a directory" -- --lua
expect 2 "--lua: $d/nothing: no such directory" -- --lua "$d/nothing"
expect 2 "--lua given twice" -- --lua "$d/lua" --lua "$d/lua"
expect 2 "not a Lua 5.4/5.5 source tree" -- --lua "$d/empty"
expect 2 "not a yyjson source tree" -- --yyjson "$d/empty"
expect 2 "not an lz4 source tree" -- --lz4 "$d/empty"
expect 2 "not SQLite" -- --sqlite "$d/empty"
expect 2 "an amalgamation without sqlite3.c" -- --sqlite "$d/shellonly"
expect 2 "--yyjson: $d/nothing: no such directory" -- --yyjson "$d/nothing" --lua "$d/empty"
expect 2 "RUNS=abc: not a positive number" RUNS=abc -- --lua "$d/lua"
expect 2 "SCALE=0: not a positive number" SCALE=0 -- --lua "$d/lua"
expect 2 "musl-gcc not found" PATH="$d/bin" -- --lua "$d/lua"
stub musl-gcc gcc nm
expect 2 "valgrind not found" PATH="$d/bin" -- --lua "$d/lua"
stub valgrind callgrind_annotate
expect 2 "$d/empty/tools/altmem not found" PATH="$d/bin" -- --lua "$d/lua" --build "$d/empty"
expect 2 "inside the repository's tree" PATH="$d/bin" -- --lua "$d/lua" --no-compare --no-perf \
    --altmem-libc "$d/libaltmem-libc.a" --work "$src/scripts/not-here"
[ ! -e "$src/scripts/not-here" ] || { echo "FAIL: $src/scripts/not-here was created"; bad=1; rm -rf "$src/scripts/not-here"; }
expect 0 "takes about" -- --help

[ $bad -eq 0 ] && echo "musl-programs.sh arguments: passed" || echo "musl-programs.sh arguments: FAILED"
exit $bad
