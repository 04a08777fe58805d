#!/usr/bin/env bash
# altmem's ABI against the committed baseline in abi/ (docs/abi.md).
#
#   abi.sh symbols NM LIB                       LIB's exported symbols, normalised (stdout)
#   abi.sh layout CC WORKDIR HEADER...          the public headers' layout (stdout):
#                                               scripts/abi-layout.py, built with CC, run
#   abi.sh check-symbols BASELINE NM LIB...     each LIB against BASELINE/<soname>.symbols
#   abi.sh check-layout BASELINE CC WORKDIR HEADER...   against BASELINE/structs.txt
#   abi.sh check-exports NM MAP LIB HEADER...   every ALTMEM_API function of the headers is
#                                               exported by LIB (unless MAP lists it as
#                                               freestanding-only), and nothing internal is
#   abi.sh update BASELINE NM CC WORKDIR LIB... -- HEADER...    rewrite the baseline
#
# Exit 0 when equal, 1 with the difference and what to do, 77 when a tool is missing
# (python3 for the layout).  PYTHON names the interpreter (default python3), READELF
# the readelf (default: readelf).
set -u
PYTHON=${PYTHON:-python3}
READELF=${READELF:-readelf}
here=$(cd "$(dirname "$0")" && pwd)

die() { echo "abi.sh: $*" >&2; exit 2; }
skip() { echo "SKIPPED: $*"; exit 77; }

soname_of() {
    local s
    s=$("$READELF" -d "$1" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
    echo "${s:-$(basename "$1")}"
}

# One line per defined dynamic symbol: name@@VERSION (or name when unversioned) and
# its kind. ifunc and plain functions are both FUNC: the binding mode
# (ALTMEM_BINDING=ifunc) is not part of the ABI; the address and size are not either.
symbols() {
    local nm=$1 lib=$2
    [ -f "$lib" ] || die "no such library: $lib"
    echo "# $(soname_of "$lib"): exported symbols (nm -D --defined-only, normalised by scripts/abi.sh)."
    echo "# An intended change: docs/abi.md, then \`make abi-update\`."
    echo "soname $(soname_of "$lib")"
    "$nm" -D --defined-only "$lib" | awk '
        NF >= 2 {
            name = $NF; t = $(NF - 1)
            if (t == "T" || t == "i") kind = "FUNC"
            else if (t == "W") kind = "WEAK-FUNC"
            else if (t == "V") kind = "WEAK-DATA"
            else if (t == "A") kind = "VERSION-NODE"
            else if (t ~ /^[DBRG]$/) kind = "DATA"
            else kind = "TYPE-" t
            print name, kind
        }' | LC_ALL=C sort -u
}

layout() {
    local cc=$1 work=$2
    shift 2
    command -v "$PYTHON" >/dev/null 2>&1 || skip "$PYTHON not found (scripts/install-deps.sh installs python3): the layout check generates its C program with scripts/abi-layout.py"
    mkdir -p "$work" || die "cannot create $work"
    local inc
    inc=$(cd "$(dirname "$1")" && pwd)
    "$PYTHON" "$here/abi-layout.py" gen "$@" >"$work/abi_layout.c" || die "abi-layout.py failed"
    "$cc" -std=c11 -Wall -Wextra -Werror -I"$inc" -o "$work/abi_layout" "$work/abi_layout.c" ||
        die "the layout program does not build (the headers must compile as C11 alone)"
    echo "# The layout of the public headers (scripts/abi-layout.py, built with $(basename "$cc"), $(uname -m))."
    echo "# An intended change: docs/abi.md, then \`make abi-update\`."
    "$work/abi_layout" || die "the layout program failed"
}

# diff_or_fail WHAT BASELINE_FILE ACTUAL_FILE
diff_or_fail() {
    local what=$1 want=$2 got=$3
    if [ ! -f "$want" ]; then
        echo "FAIL: no baseline $want for $what; create it with \`make abi-update\` (docs/abi.md)"
        return 1
    fi
    if diff -u --label "baseline $want" --label "built $what" <(grep -v '^# ' "$want") <(grep -v '^# ' "$got") >"$got.diff"; then
        echo "abi: $what matches $want ($(grep -vc '^# ' "$want") lines)"
        return 0
    fi
    echo "FAIL: $what differs from the baseline $want (+ built, not in the baseline; - in the baseline, not built):"
    sed -n '3,$p' "$got.diff" | grep '^[-+]' | sed 's/^/    /'
    echo "An accidental change: undo it.  An intended one: follow docs/abi.md (new symbols in a new"
    echo "version node of src/libaltmem.map; removed or changed ones need a SONAME bump), then run"
    echo "\`make abi-update\` and commit abi/ with the change."
    return 1
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
symbols)
    [ $# -eq 2 ] || die "usage: abi.sh symbols NM LIB"
    symbols "$1" "$2"
    ;;
layout)
    [ $# -ge 3 ] || die "usage: abi.sh layout CC WORKDIR HEADER..."
    layout "$@"
    ;;
check-symbols)
    [ $# -ge 3 ] || die "usage: abi.sh check-symbols BASELINE NM LIB..."
    base=$1 nm=$2
    shift 2
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/altmem-abi.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    fail=0
    for lib in "$@"; do
        name=$(soname_of "$lib")
        symbols "$nm" "$lib" >"$tmp/$name.symbols" || exit 2
        diff_or_fail "$lib" "$base/$name.symbols" "$tmp/$name.symbols" || fail=1
    done
    exit $fail
    ;;
check-layout)
    [ $# -ge 4 ] || die "usage: abi.sh check-layout BASELINE CC WORKDIR HEADER..."
    base=$1 cc=$2 work=$3
    shift 3
    mkdir -p "$(dirname "$work")" || die "cannot create $(dirname "$work")"
    layout "$cc" "$work" "$@" >"$work.txt"
    rc=$?
    [ $rc -eq 0 ] || exit $rc
    diff_or_fail "layout of $*" "$base/structs.txt" "$work.txt"
    ;;
check-exports)
    [ $# -ge 4 ] || die "usage: abi.sh check-exports NM MAP LIB HEADER..."
    nm=$1 map=$2 lib=$3
    shift 3
    command -v "$PYTHON" >/dev/null 2>&1 || skip "$PYTHON not found (scripts/install-deps.sh installs python3)"
    exported=$("$nm" -D --defined-only "$lib" | awk '{ print $NF }' | sed 's/@.*//' | LC_ALL=C sort -u)
    declared=$("$PYTHON" "$here/abi-layout.py" api "$@" | LC_ALL=C sort -u)
    freestanding=$(sed -n 's/.*freestanding-only:[[:space:]]*//p' "$map" | tr ', ' '\n\n' | sed '/^$/d')
    fail=0
    for f in $declared; do
        if printf '%s\n' "$freestanding" | grep -qx "$f"; then
            if printf '%s\n' "$exported" | grep -qx "$f"; then
                echo "FAIL: $f is marked freestanding-only in $map but $lib exports it"
                fail=1
            fi
        elif ! printf '%s\n' "$exported" | grep -qx "$f"; then
            echo "FAIL: $f is declared ALTMEM_API in the headers but $lib does not export it:" \
                 "add it to $map (a new function: in a new version node, docs/abi.md)"
            fail=1
        fi
    done
    for s in $exported; do
        case "$s" in
        altmem__* | __start_* | __stop_* | _init | _fini | _edata | _end | __bss_start)
            echo "FAIL: $lib exports $s, which is internal"
            fail=1 ;;
        esac
        if ! printf '%s\n' "$declared" | grep -qx "$s" && ! grep -qx "ALTMEM_[0-9.]*" <<<"$s"; then
            echo "FAIL: $lib exports $s, which no public header declares with ALTMEM_API"
            fail=1
        fi
    done
    echo "abi: $(printf '%s\n' "$declared" | wc -l) ALTMEM_API functions declared," \
         "$(printf '%s\n' "$exported" | wc -l) symbols exported by $(basename "$lib")" \
         "(version nodes included), freestanding-only: $(echo $freestanding)"
    [ $fail -eq 0 ] && echo "abi: exports passed"
    exit $fail
    ;;
update)
    [ $# -ge 6 ] || die "usage: abi.sh update BASELINE NM CC WORKDIR LIB... -- HEADER..."
    base=$1 nm=$2 cc=$3 work=$4
    shift 4
    libs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do libs+=("$1"); shift; done
    [ "${1:-}" = -- ] || die "update: -- and the headers missing"
    shift
    mkdir -p "$base"
    for lib in "${libs[@]}"; do
        name=$(soname_of "$lib")
        symbols "$nm" "$lib" >"$base/$name.symbols" || exit 2
        echo "abi.sh: wrote $base/$name.symbols"
    done
    mkdir -p "$(dirname "$work")" || die "cannot create $(dirname "$work")"
    layout "$cc" "$work" "$@" >"$work.txt" || exit $?
    cp "$work.txt" "$base/structs.txt"
    echo "abi.sh: wrote $base/structs.txt; review with git diff abi/ and commit it with the change"
    ;;
*)
    die "usage: abi.sh symbols|layout|check-symbols|check-layout|check-exports|update ... (see the script's header)"
    ;;
esac
