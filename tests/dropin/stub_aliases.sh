#!/bin/sh
# In a patched-branch build, the preload library's memcpy, memmove and memset
# must BE the patched entry stubs (same address as altmem_memcpy...), not C
# forwarders: otherwise every call pays an extra jump and nothing says so.
#   stub_aliases.sh NM LIBALTMEM_PRELOAD_SO
nm=$1 lib=$2
fail=0
for r in memcpy memmove memset; do
    a=$("$nm" -D --defined-only "$lib" | awk -v s="$r" '$3 == s { print $1 }')
    b=$("$nm" -D --defined-only "$lib" | awk -v s="altmem_$r" '$3 == s { print $1 }')
    if [ -z "$a" ] || [ "$a" != "$b" ]; then
        echo "FAIL: $r at '${a:-missing}', altmem_$r at '${b:-missing}': not the same stub"
        fail=1
    else
        echo "ok: $r is altmem_$r's patched stub (0x$a)"
    fi
done
exit $fail
