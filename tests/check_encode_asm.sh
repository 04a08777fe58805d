#!/bin/sh
# Compares altmem's patch-site encodings with what an assembler (clang-19, which
# targets all four architectures) emits for the same branch, over offsets on both
# sides of every field boundary.
#   check_encode_asm.sh TEST_ENCODE [--self-test]
# --self-test: the same comparison against a deliberately wrong encoder must fail.
set -u
tool=$1
broken=
[ "${2:-}" = --self-test ] && broken=--broken
CC=${CLANG:-clang-19}
OBJCOPY=${OBJCOPY:-llvm-objcopy-19}
if ! command -v "$CC" >/dev/null 2>&1 || ! command -v "$OBJCOPY" >/dev/null 2>&1; then
    echo "SKIPPED: $CC or $OBJCOPY not installed (scripts/install-deps.sh installs clang-19 and llvm-19)"
    exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mismatches=0 compared=0
for arch in x86_64 aarch64 loongarch64 riscv64; do
    case $arch in
        x86_64) insn='{disp32} jmp t'; len=5 ;;   # no rel8 relaxation
        aarch64|loongarch64) insn='b t'; len=4 ;;
        riscv64) insn='1: auipc t1, %pcrel_hi(t)
    jalr zero, %pcrel_lo(1b)(t1)'; len=8 ;;
    esac
    for off in -1048576 -70004 -4100 -4096 -2052 -2048 -2044 -64 -4 8 12 2044 2048 2052 4096 4100 70008 1048576 4194300; do
        if [ "$off" -lt 0 ]; then
            pre=$((-off)); post=0
        else
            pre=0; post=$((off - len))
        fi
        {
            echo '.text'
            [ $arch = riscv64 ] && printf '.option norvc\n.option norelax\n'
            [ $pre -gt 0 ] && printf 't:\n    .skip %d\n' "$pre"
            printf 's:\n    %s\n' "$insn"
            [ $off -ge 0 ] && printf '    .skip %d\nt:\n' "$post"
            echo '    nop'
        } > "$tmp/a.s"
        if ! "$CC" --target=$arch-linux-gnu -mno-relax -c "$tmp/a.s" -o "$tmp/a.o" 2>"$tmp/err"; then
            echo "check_encode_asm: $arch $off: assembler failed: $(head -n 1 "$tmp/err")"
            mismatches=$((mismatches + 1))
            continue
        fi
        "$OBJCOPY" -O binary --only-section=.text "$tmp/a.o" "$tmp/a.bin"
        want=$(od -An -tx1 -j "$pre" -N "$len" "$tmp/a.bin" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
        # ALTMEM_TEST_EMULATOR: set in cross builds (tests/cross.cmake), unquoted on purpose.
        got=$(${ALTMEM_TEST_EMULATOR:-} "$tool" --emit $arch "$off" $broken)
        compared=$((compared + 1))
        if [ "$want" != "$got" ]; then
            mismatches=$((mismatches + 1))
            [ -z "$broken" ] && echo "MISMATCH $arch $off: altmem '$got', assembler '$want'"
        fi
    done
done
if [ -n "$broken" ]; then
    echo "self-test: a broken encoder gave $mismatches mismatches in $compared branches"
    [ "$mismatches" -eq "$compared" ] && [ "$compared" -gt 0 ]
    exit $?
fi
echo "check_encode_asm: $compared branches compared with $CC, $mismatches mismatches"
[ "$mismatches" -eq 0 ]
