#!/bin/sh
# The README's "Using altmem in a static musl program" recipe, run as written: the
# lines between the README's `<!-- recipe: static-musl` and `<!-- /recipe -->` markers
# (inside its ```sh block), in a fresh directory holding a prog.c and a `build` link to
# this build tree, so that `build/src/preload/libaltmem-libc.a` means this build's
# archive.  Only `make` (the first line) is not run: the build is what is being tested.
#
#   readme_musl.sh README BUILD_DIR WORK
#
# Checked: every line exits 0; the program ran (its "ok"); nm printed memcpy and
# altmem_memcpy at one address; the verbose run printed "altmem: memcpy -> ".  A
# recipe whose lines fail, or a README without the markers, fails the test.
# Exit 77 (reason last) without musl-gcc.
set -u
README=$1 BUILD=$2 WORK=$3
command -v musl-gcc >/dev/null 2>&1 || {
    echo "SKIPPED: musl-gcc not found (Debian package musl-tools; scripts/install-deps.sh installs it)"
    exit 77
}
rm -rf "$WORK"
mkdir -p "$WORK"
ln -s "$(cd "$BUILD" && pwd)" "$WORK/build"

# The recipe: the code block after the opening marker, up to the closing one.
awk '/<!-- recipe: static-musl/ {on = 1; next} /<!-- \/recipe -->/ {on = 0} on' "$README" |
    sed -e '/^```/d' >"$WORK/recipe.txt"
if ! grep -q 'musl-gcc' "$WORK/recipe.txt"; then
    echo "FAIL: no static-musl recipe between the markers in $README"
    exit 1
fi
# A line ending in a backslash continues on the next, as in a shell.
awk '{ if (sub(/\\$/, "")) { buf = buf $0; next } print buf $0; buf = "" }' "$WORK/recipe.txt" |
    grep -v '^make\( \|$\)' >"$WORK/recipe.sh"

cat >"$WORK/prog.c" <<'EOF'
#include <stdio.h>
#include <string.h>

static char a[1 << 20], b[1 << 20];

int main(void)
{
    memset(a, 'x', sizeof a);
    memcpy(b, a, sizeof b);
    memmove(b + 1, b, 1000);
    puts(memcmp(a, b, sizeof b) == 0 ? "ok" : "wrong");
    return 0;
}
EOF

fail=0
cd "$WORK" || exit 2
i=0
while IFS= read -r line; do
    i=$((i + 1))
    echo "+ $line"
    sh -c "$line" >"out.$i" 2>&1
    st=$?
    cat "out.$i"
    [ $st -eq 0 ] || { echo "FAIL: recipe line $i exited $st: $line"; fail=1; }
done <recipe.sh

cat out.* >all.txt 2>/dev/null
grep -qx 'ok' all.txt || { echo "FAIL: the program did not print ok"; fail=1; }
grep -q '^altmem: memcpy -> ' all.txt || { echo "FAIL: no 'altmem: memcpy -> ' from the verbose run"; fail=1; }
addr_memcpy=$(nm prog 2>/dev/null | awk '$3 == "memcpy" {print $1}')
addr_altmem=$(nm prog 2>/dev/null | awk '$3 == "altmem_memcpy" {print $1}')
if [ -z "$addr_memcpy" ] || [ "$addr_memcpy" != "$addr_altmem" ]; then
    echo "FAIL: memcpy ($addr_memcpy) is not altmem_memcpy ($addr_altmem) in the linked program"
    fail=1
fi
[ "$(grep -c 'memcpy' recipe.sh)" -ge 1 ] || { echo "FAIL: the recipe never looks at memcpy"; fail=1; }
if [ $fail -eq 0 ]; then
    echo "PASS: the README's static musl recipe ($i lines run as written, make skipped): memcpy is altmem's at $addr_memcpy"
fi
exit $fail
