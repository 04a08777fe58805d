#!/bin/sh
# No x86_64 size class ends in a short block across a 64-byte line (src/CMakeLists.txt,
# ALTMEM_X86_LAYOUT_FLAGS): where a jump leads to a class's last block (its stores and
# ret), that block costs one cycle more per call on AMD Zen 5 when it straddles a line
# (memset_avx512 and memcpy_avx512 at (128, 256] B: 5.25 against 4.67 TSC cycles a
# call, docs/perf/amd-family26-model2.md, "A class's last block across a line").
#
#   check_entry_lines.sh OBJDUMP LIBRARY...
#   check_entry_lines.sh --disassembly FILE      (objdump -d output already made)
#
# In every function altmem_{memcpy,memmove,memset}_<width> (sse2, avx2, evex, avx512,
# avx512_halves): each target of a jump inside the function that only a jump reaches
# (the instruction before it, padding aside, is a ret or jmp), whose block runs to a
# ret within 32 bytes, must lie inside one 64-byte line.  32 bytes: what a 32-byte
# aligned jump target (-falign-jumps=32) always keeps inside a line.  One control
# gives it the block the layout flags left across a line before (entry_lines_control,
# entry_lines_fake.dis): it must be named.
set -eu
if [ "$1" = --disassembly ]; then
    inputs=$2
    dis() { cat "$1"; }
else
    objdump=$1
    shift
    inputs=$*
    dis() { "$objdump" -d --no-show-raw-insn "$1"; }
fi
status=0
for lib in $inputs; do
    out=$(dis "$lib" | awk -v lib="$(basename "$lib")" '
        function hex(s,   i, c, v) { v = 0; s = tolower(s)
            for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c }
            return v }
        function padding(k) { return op[k] ~ /^(nop|data16|cs$)/ || (op[k] == "xchg" && arg[k] == "%ax,%ax") }
        function check(   k, t, i, p, j, end) {
            if (!want) return
            seen++
            for (t in target) {
                if (!(t in at)) continue
                i = at[t]
                for (p = i - 1; p > 0 && padding(p); p--) ;
                if (p < 1 || !(op[p] ~ /^(ret|jmp)/)) continue
                for (j = i; j <= n && !(op[j] ~ /^(j|ret)/); j++) ;
                if (j > n || !(op[j] ~ /^ret/)) continue
                end = j < n ? addr[j + 1] : addr[j] + 1
                if (end - t > 32 || int(t / 64) == int((end - 1) / 64)) continue
                printf "FAIL: %s: %s+%#x: a %d-byte block ending in ret crosses a 64-byte line\n", lib, name, t - addr[1], end - t
                bad++
            }
        }
        /^[0-9a-f]+ <[^>]+>:$/ {
            check()
            name = $2; gsub(/[<>:]/, "", name)
            want = name ~ /^altmem_(memcpy|memmove|memset)_(sse2|avx2|evex|avx512|avx512_halves)$/
            n = 0; delete target; delete at
            next
        }
        want && /^ +[0-9a-f]+:\t/ {
            split($0, f, "\t")
            a = f[1]; gsub(/[ :]/, "", a)
            n++; addr[n] = hex(a); at[hex(a)] = n
            split(f[2], w, " "); op[n] = w[1]; arg[n] = w[2]
            if (op[n] ~ /^j/ && match(f[2], /[0-9a-f]+ </)) target[hex(substr(f[2], RSTART, RLENGTH - 2))] = 1
        }
        END { check()
              if (!seen) { printf "FAIL: %s: no x86 variant entry found\n", lib; exit 1 }
              printf "%s: %d entries, %s\n", lib, seen, bad ? bad " blocks failing" : "no short last block across a line"
              exit bad ? 1 : 0 }') || status=1
    echo "$out"
done
exit $status
