#!/bin/sh
# Copies the public headers into DIR and makes one deliberate ABI change there, for
# the negative controls of tests/abi.cmake:
#   mutate_headers.sh field DIR HEADER...    a member added to struct altmem_policy_info
#   mutate_headers.sh function DIR HEADER... an ALTMEM_API function declared after altmem_init
set -eu
mode=$1 dir=$2
shift 2
rm -rf "$dir"
mkdir -p "$dir"
cp "$@" "$dir/"
h=$dir/altmem.h
case "$mode" in
field)
    sed -i '/^struct altmem_policy_info {/a\    int abi_canary;                /* the control: not in the baseline */' "$h" ;;
function)
    sed -i '/^ALTMEM_API void altmem_init(void);/a\ALTMEM_API void altmem_abi_undeclared(void);' "$h" ;;
*)
    echo "mutate_headers.sh: unknown mode $mode" >&2; exit 2 ;;
esac
# The change must have happened, or the control proves nothing.
if cmp -s "$h" "$1"; then
    echo "mutate_headers.sh: $mode: the header did not change (its anchor line moved?)" >&2
    exit 2
fi
diff -u "$1" "$h" || true
