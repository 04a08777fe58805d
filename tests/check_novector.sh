#!/bin/sh
# The strict-alignment (generic) variants must contain no SIMD instructions:
# a 16-byte vector access at an 8-aligned address is a misaligned access, and
# on CPUs where EFLAGS.AC does not apply to vector moves (test_strict_align
# reports which) the run-time proof would not see it.  Fails if any xmm/ymm/
# zmm/mm register (x86_64) or $vrN/$xrN register (loongarch64 LSX/LASX)
# appears in the disassembly of the given objects.  On loongarch64 it checks
# that only the lsx / lasx variants' objects use vector registers (clang
# auto-vectorises plain C unless -mno-lsx): the others must pass, and with
# --want-vector each of those must contain one (so the pattern is known to
# match what the disassembler prints).
#
#   check_novector.sh [--objdump OBJDUMP] [--expect FUNCTION]... OBJECT...
#   check_novector.sh [--objdump OBJDUMP] --want-vector OBJECT...
#   check_novector.sh [--objdump OBJDUMP] --self-test CC
#
# --expect: FUNCTION must be defined in one of the objects (so an empty or wrong
# object list cannot pass).  --self-test is the negative control: an object
# whose function uses xmm registers must be rejected.
set -u

OBJDUMP=objdump
EXPECT=""
SELF_TEST=""
WANT=""
while [ $# -gt 0 ]; do
    case "$1" in
    --objdump) OBJDUMP=$2; shift 2 ;;
    --expect) EXPECT="$EXPECT $2"; shift 2 ;;
    --self-test) SELF_TEST=$2; shift 2 ;;
    --want-vector) WANT=1; shift ;;
    --) shift; break ;;
    -*) echo "check_novector: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done

if [ -n "$SELF_TEST" ]; then
    CC=$SELF_TEST
    dir=$(mktemp -d "${TMPDIR:-/tmp}/altmem-novector.XXXXXX") || exit 2
    trap 'rm -rf "$dir"' EXIT
    fail=0
    cat >"$dir/vector.c" <<'EOF'
typedef float v4 __attribute__((vector_size(16)));
v4 altmem_memcpy_generic(v4 a, v4 b) { return a * b + a; }
EOF
    cat >"$dir/scalar.c" <<'EOF'
long altmem_memcpy_generic(long a, long b) { return a * b + a; }
EOF
    "$CC" -O2 -c "$dir/vector.c" -o "$dir/vector.o" || exit 2
    "$CC" -O2 -c "$dir/scalar.c" -o "$dir/scalar.o" || exit 2

    out=$(sh "$0" --objdump "$OBJDUMP" --expect altmem_memcpy_generic "$dir/vector.o" 2>&1); rc=$?
    printf '%s\n' "$out" | sed 's/^/    /'
    if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "vector.o: altmem_memcpy_generic: .*%xmm"; then
        echo "negative control: a function using xmm registers is rejected, named"
    else
        echo "FAIL: a function using xmm registers was not rejected (rc=$rc)"
        fail=1
    fi
    out=$(sh "$0" --objdump "$OBJDUMP" --expect altmem_memcpy_generic "$dir/scalar.o" 2>&1); rc=$?
    printf '%s\n' "$out" | sed 's/^/    /'
    if [ $rc -eq 0 ]; then
        echo "control: a scalar function is accepted"
    else
        echo "FAIL: a scalar function was rejected (rc=$rc)"
        fail=1
    fi
    out=$(sh "$0" --objdump "$OBJDUMP" --expect altmem_memset_generic "$dir/scalar.o" 2>&1); rc=$?
    printf '%s\n' "$out" | sed 's/^/    /'
    if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "altmem_memset_generic not found"; then
        echo "negative control: a missing expected function is an error"
    else
        echo "FAIL: a missing expected function was not reported (rc=$rc)"
        fail=1
    fi
    [ $fail -eq 0 ] && echo "novector self-test: passed" || echo "novector self-test: FAILED"
    exit $fail
fi

if [ $# -eq 0 ]; then
    echo "check_novector: no object files given" >&2
    exit 2
fi

if [ -n "$WANT" ]; then
    bad=0
    for obj in "$@"; do
        if ! n=$("$OBJDUMP" -d --no-show-raw-insn "$obj" | grep -cE '%[xyz]?mm[0-9]|[$](vr|xr)[0-9]'); then
            echo "check_novector: $obj: no SIMD register at all (expected a vector variant)"
            bad=1
        else
            echo "check_novector: $obj: $n instructions with SIMD registers, as expected"
        fi
    done
    exit $bad
fi

bad=0
all=""
for obj in "$@"; do
    if ! dis=$("$OBJDUMP" -d --no-show-raw-insn "$obj"); then
        echo "check_novector: $obj: $OBJDUMP failed"
        bad=1
        continue
    fi
    # Function headers look like "0000000000000000 <name>:".
    all="$all $(printf '%s\n' "$dis" | sed -n 's/^[0-9a-f]* <\(.*\)>:$/\1/p' | tr '\n' ' ')"
    if ! printf '%s\n' "$dis" | awk -v obj="$obj" '
        /^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
        /%[xyz]?mm[0-9]|[$](vr|xr)[0-9]/ { sub(/^[ \t]+/, ""); print "check_novector: " obj ": " fn ": SIMD register in: " $0; n++ }
        END { exit n ? 1 : 0 }'; then
        bad=1
    fi
done
found=0
for f in $EXPECT; do
    case " $all " in
    *" $f "*) found=$((found + 1)) ;;
    *) echo "check_novector: $f not found in the given objects"; bad=1 ;;
    esac
done
if [ $bad -eq 0 ]; then
    # shellcheck disable=SC2086 # word splitting normalises the spacing
    echo "check_novector: $# objects, functions:" $all "- no xmm/ymm/zmm/mm or vr/xr register: passed"
fi
exit $bad
