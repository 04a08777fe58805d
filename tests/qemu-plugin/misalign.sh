#!/bin/sh
# The misalignment proof on an emulated architecture (docs/arch-notes.md): runs
# `fs_test --matrix VARIANT` under qemu-user with the misalign plugin watching
# the code of that variant's three routines, and judges the counts.
#
#   misalign.sh zero|nonzero VARIANT BINARY NM PLUGIN_DIR "QEMU [ARGS]" OBJECT...
#
#   zero      every routine's code ran, and made no misaligned access (the proof)
#   nonzero   at least one misaligned access was counted (the negative control:
#             the ual variants, which do make them, show the check can fail)
#   BINARY    the static, non-PIE fs_test: nm's addresses are run-time addresses
#   NM        an nm that reads the target's objects
#   PLUGIN_DIR where the plugin is built (tests/qemu-plugin/misalign.c, host cc)
#   OBJECT    the variant's object files: every text symbol they define becomes a
#             range (a symbol found twice in BINARY is an error, not a guess)
#
# Exit status: 0 passed, 1 failed, 77 skipped (no qemu, a qemu that cannot load
# plugins, or no host compiler) with the reason as the last line; with
# ALTMEM_CROSS_REQUIRED=1 (CI) a skip is a failure.
set -u
expect=$1 variant=$2 binary=$3 nm=$4 plugin_dir=$5 qemu=$6
shift 6
here=$(cd "$(dirname "$0")" && pwd)
src=$here/misalign.c
cc=${HOST_CC:-cc}

skip() {
    if [ "${ALTMEM_CROSS_REQUIRED:-0}" = 1 ]; then
        echo "misalign: ALTMEM_CROSS_REQUIRED=1, so this is a failure: $*"
        exit 1
    fi
    echo "misalign: SKIPPED: $*"
    exit 77
}
fail() {
    echo "misalign: FAILED: $*"
    exit 1
}

[ $# -gt 0 ] || fail "no object files given"
qemu_bin=${qemu%% *}
[ -n "$qemu_bin" ] && command -v "$qemu_bin" >/dev/null 2>&1 ||
    skip "no emulator '$qemu_bin' (Debian package qemu-user; scripts/install-cross-deps.sh installs it)"
command -v "$cc" >/dev/null 2>&1 || skip "no host C compiler '$cc' to build the plugin"

# ---- The plugin (host code; rebuilt when its source is newer) ----------------------
mkdir -p "$plugin_dir" || exit 1
so=$plugin_dir/libaltmem-misalign.so
if [ ! -f "$so" ] || [ "$src" -nt "$so" ]; then
    tmp=$so.$$
    "$cc" -std=gnu11 -O2 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden -o "$tmp" "$src" ||
        fail "building the plugin with $cc"
    mv -f "$tmp" "$so"
fi

# ---- The ranges: every text symbol of the variant's objects, located in BINARY -----
syms=$("$nm" -S --defined-only "$binary") || fail "$nm cannot read $binary"
ranges=""
names=""
for obj in "$@"; do
    objsyms=$("$nm" --defined-only "$obj") || fail "$nm cannot read $obj"
    for name in $(printf '%s\n' "$objsyms" | awk '$2 ~ /^[Tt]$/ && $3 !~ /^[$.]/ { print $3 }'); do
        hits=$(printf '%s\n' "$syms" | awk -v n="$name" 'NF == 4 && $3 ~ /^[Tt]$/ && $4 == n')
        count=$(printf '%s\n' "$hits" | grep -c . || true)
        [ "$count" -eq 1 ] || fail "symbol $name of $(basename "$obj") found $count times in $binary (need exactly one, with a size)"
        lo=$(printf '%s\n' "$hits" | awk '{ print $1 }')
        size=$(printf '%s\n' "$hits" | awk '{ print $2 }')
        hi=$(printf '%x' $((0x$lo + 0x$size)))
        ranges="$ranges,range=$lo:$hi:$name"
        names="$names $name"
    done
done
[ -n "$ranges" ] || fail "no text symbols in: $*"
echo "misalign: watching$names"

# ---- Run ------------------------------------------------------------------------------
out=$plugin_dir/report-$variant-$$.txt
log=$plugin_dir/run-$variant-$$.log
# $qemu is "binary [args]": split on purpose.
# shellcheck disable=SC2086
$qemu -plugin "$so$ranges,out=$out" "$binary" --matrix "$variant" >"$log" 2>&1
rc=$?
cat "$log"
if grep -q "unknown option 'plugin'" "$log"; then
    skip "$qemu_bin cannot load TCG plugins (a static qemu-user-static build?); Debian's dynamically linked qemu-user can"
fi
grep -q "Could not load plugin" "$log" && fail "qemu could not load the plugin (see above)"
[ $rc -eq 0 ] || fail "fs_test --matrix $variant exited $rc under $qemu_bin (see above)"
[ -f "$out" ] || fail "the plugin wrote no report ($out)"
echo "---- plugin report ($(basename "$qemu_bin"), plugin API 1)"
cat "$out"
echo "----"

bad=0
while read -r kind name lo hi _ insns _ accesses _ misaligned; do
    [ "$kind" = range ] || continue
    if [ "$accesses" -eq 0 ]; then
        case $name in
        *.cold | *.cold.*)
            # GCC's out-of-line part of a function's unlikely paths (here the
            # first-use installer's tail call): watched, but it need not run.
            echo "misalign: $name ($lo-$hi) made no memory access: an unlikely-path fragment, allowed" ;;
        *)
            echo "misalign: $name ($lo-$hi) made no memory access at all: the range is wrong or never ran"
            bad=1 ;;
        esac
    fi
    echo "misalign: $name: $insns instructions watched, $accesses accesses, $misaligned misaligned"
done <"$out"
total=$(awk '$1 == "total" { print $5 }' "$out")
accesses=$(awk '$1 == "total" { print $3 }' "$out")
rm -f "$out" "$log"
arch=$(basename "$qemu_bin" | sed 's/^qemu-//')
[ $bad -eq 0 ] || fail "$variant on $arch: a watched routine never ran"
case $expect in
zero)
    [ "$total" -eq 0 ] || fail "$variant on $arch: $total of $accesses accesses misaligned (examples above)"
    echo "misalign: $variant on $arch: $accesses accesses checked, 0 misaligned: passed"
    ;;
nonzero)
    [ "$total" -gt 0 ] || fail "$variant on $arch: no misaligned access counted, so the check could not fail"
    echo "misalign: $variant on $arch (negative control): $total of $accesses accesses misaligned, as expected: passed"
    ;;
*) fail "expectation must be zero or nonzero, not '$expect'" ;;
esac
