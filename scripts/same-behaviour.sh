#!/usr/bin/env bash
# Does the working tree's CLI behave as BASE's?  For refactors of tools/ and
# bench/ that must change no behaviour (docs/architecture.md, "Benchmarks and tools").
#
#   scripts/same-behaviour.sh BASE [WORK_DIR]
#
# Builds the commit BASE (a git worktree) and the working tree (as it is, into
# a build directory of its own), both Release, and collects from each:
#   - every help text: altmem --help, altmem help [SUB], altmem SUB --help, and
#     the one-line error of a bad option to each subcommand with options;
#   - altmem bench --quick, each other bench mode on a few cells (cold, mod4096,
#     dist, load, libc-width, profile, scalar-effect, the CSV/JSON/samples
#     files), altmem index --quick, altmem tune --quick --print and altmem info, each with every number masked ("N", units included) and
#     runs of blanks folded: timings differ from run to run, the text must not
#     (bench's also with layouts, cell lists and "met"/"NOT met" masked: which
#     cells come last or miss a goal depends on the clock);
#   - altmem compare on /bin/true with the durations given through its testing
#     hook (ALTMEM_COMPARE_TEST_DURATIONS), unmasked: its figures are
#     computed from those, so they must match to the digit.
# Help texts and compare are compared byte for byte, the rest masked; it prints
# each difference and exits 1 if any, 0 if none.  A masked difference can still
# be noise where a verdict word depends on the clock (for example which cells
# fall below a threshold): run it again before believing one.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 BASE [WORK_DIR]" >&2; exit 2; }
base=$1
top=$(git rev-parse --show-toplevel)
work=${2:-$(mktemp -d /tmp/same-behaviour.XXXXXX)}
mkdir -p "$work"
git -C "$top" rev-parse --verify -q "$base^{commit}" >/dev/null || { echo "$0: '$base' is not a commit" >&2; exit 2; }

build() { # SOURCE BUILD_DIR
    cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$2" -j"$(nproc)" --target altmem_cli altmem_preload >/dev/null
}
# BASE's tree: a worktree for this run, removed at the end (a WORK_DIR used
# before with another BASE gets a fresh one, not the old base).
base_commit=$(git -C "$top" rev-parse "$base^{commit}")
if [ -d "$work/base-src" ]; then
    git -C "$top" worktree remove --force "$work/base-src" 2>/dev/null || rm -rf "$work/base-src"
    git -C "$top" worktree prune
fi
git -C "$top" worktree add --quiet --detach "$work/base-src" "$base_commit"
trap 'git -C "$top" worktree remove --force "$work/base-src" 2>/dev/null || true' EXIT
build "$work/base-src" "$work/base-build"
build "$top" "$work/new-build"

# bench's cell lists, layouts and goal verdicts, and tune's verdicts, follow the
# clock too.
mask_verdicts() {
    sed -E 's#(s\+N/d\+N|d\+N|N/N)#LAYOUT#g; s/cells?/cells/g; s/NOT met/met/g;
            s/(cannot resolve).*/\1 .../; s/: the goal is out of reach here//; s/largest N% \([^)]*\)/largest N% (...)/;
            s/lowest Nx at [^;]*;/lowest Nx at CELL;/g; s/(worst altmem variant:).*/\1 .../;
            s/(the rules. choice kept|chosen|changed)[;:].*/\1 .../'
}
# compare's figures come from the injected durations; what it measures itself
# (CPU time, load average) and the build's path are masked.
mask_compare() {
    sed -E "s#$work/(base|new)-build#BUILD#g; s#$work#WORK#g; s/(load average)[ 0-9.]*/\1 N/;
            s/^(.* ms +[0-9.]+ ms +[0-9.]+ ms +)[0-9.]+ ms\$/\1N ms/"
}
mask() { sed -E 's/[0-9]+(\.[0-9]+)?[KMG]?/N/g; s/[ \t]+/ /g; s#/[^ ]*/altmem( |$)#ALTMEM\1#g'; }

# The durations compare is given (one per run, as many as it makes, pairs in
# the order ABBA): arm B about 5% slower with a little spread, so that the
# adaptive run stops on a look before its last.
# With SLOWER 0, B is A with +-2% around it: a run that stops "within" or at its most.
durations() { # PAIRS FILE [SLOWER]
    awk -v n="$1" -v k="${3:-0.05}" 'BEGIN { for (i = 0; i < n; i++) { a = 0.100 + (i % 7) * 0.001
                                                   b = a * (1 + k + (k ? (i % 3) * 0.004 : ((i % 5) - 2) * 0.01))
                                                   if (i % 2) printf "%.6f\n%.6f\n", b, a; else printf "%.6f\n%.6f\n", a, b } }' >"$2"
}
durations 10 "$work/durations10"
durations 60 "$work/durations60"
durations 12 "$work/durations12"
durations 20 "$work/same20" 0
durations 60 "$work/same60" 0

# try CMD...: CMD's output, then "exit N" if it failed: a status that changes is
# a difference too, and the collection goes on (set -e would stop it).
try() { "$@" 2>&1 || echo "exit $?"; }

collect() { # ALTMEM OUT_DIR
    local a=$1 out=$2 sub
    mkdir -p "$out"
    {
        try "$a" --help
        try "$a" help
        for sub in info bench run tune index compare version; do
            echo "== help $sub"; try "$a" help "$sub"
            echo "== $sub --help"; try "$a" "$sub" --help
        done
        for sub in bench tune index compare; do
            echo "== $sub --no-such-option"; try "$a" "$sub" --no-such-option
        done
        for words in "" "--help" "-h" "--version" "nosuch" "help --version" "help -h" "help help" "help version" \
            "help nosuch" "info -h" "help bench extra"; do
            echo "== altmem $words"; try "$a" $words
        done
    } >"$out/help.txt"
    {
        ALTMEM_COMPARE_TEST_DURATIONS=$work/durations10 try "$a" compare --runs 10 --warmup 0 -- /bin/true
        ALTMEM_COMPARE_TEST_DURATIONS=$work/durations60 try "$a" compare --until 2 --max-pairs 60 --warmup 0 -- /bin/true
        ALTMEM_COMPARE_TEST_DURATIONS=$work/same60 try "$a" compare --until 5 --max-pairs 60 --warmup 0 -- /bin/true
        ALTMEM_COMPARE_TEST_DURATIONS=$work/same20 try "$a" compare --max-pairs 20 --warmup 0 -- /bin/true
        ALTMEM_COMPARE_TEST_DURATIONS=$work/durations12 try "$a" compare --aa --runs 12 --warmup 0 -- /bin/true
    } | mask_compare >"$out/compare.txt"
    (cd "$out" && try "$a" info | mask >info.txt)
    (cd "$out" && try "$a" bench --quick | mask | mask_verdicts >bench.txt)
    # Each bench mode once, small: the text and the files it writes.
    (cd "$out" && {
        q=(--processes 2 --reps 3 --sweeps 1 --min-sample-ms 0.05)
        echo "== cold"; try "$a" bench "${q[@]}" --routine memcpy --sizes 4K,64K --align 0/0 --cold-only --cold-mib 64
        echo "== mod4096 dist, no grid"; try "$a" bench "${q[@]}" --routine memcpy --no-grid --mod4096 4K --dist spec2017
        echo "== load"; try "$a" bench "${q[@]}" --routine memset --sizes 4K --align 0/0 --load
        echo "== libc-width"; try "$a" bench "${q[@]}" --routine memcpy --sizes 64,4K --align 0/0 --libc-width all
        echo "== profile none"; try "$a" bench "${q[@]}" --routine memcpy --sizes 64,4K --align 0/0 --profile none
        echo "== scalar-effect"; try "$a" bench --scalar-effect --sizes 4K --sample-ms 0.2 --reps 3
        echo "== files"; try "$a" bench "${q[@]}" --impl bound,byteloop --sizes 8,4K --csv m.csv --json m.json --samples m.samples
        try head -n 3 m.csv; try head -c 600 m.json; echo; try head -n 3 m.samples
    } | mask | mask_verdicts >modes.txt)
    (cd "$out" && try "$a" index --quick | mask >index.txt)
    (cd "$out" && try "$a" tune --quick --print | mask | mask_verdicts >tune.txt)
}
collect "$work/base-build/tools/altmem" "$work/base-out"
collect "$work/new-build/tools/altmem" "$work/new-out"

status=0
for f in help compare info bench modes index tune; do
    if diff -u "$work/base-out/$f.txt" "$work/new-out/$f.txt" >"$work/$f.diff"; then
        echo "same: $f"
    else
        echo "DIFFERENT: $f ($work/$f.diff)"
        head -n 40 "$work/$f.diff"
        status=1
    fi
done
exit $status
