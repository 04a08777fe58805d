#!/usr/bin/env bash
# Interleaved A/B timing of two builds of altmem (a change that cannot be timed
# inside one binary: a constant made a variable, a layout change).
#
#   scripts/ab-builds.sh A_ALTMEM B_ALTMEM IMPL_A IMPL_B [ROUNDS [SIZES [ROUTINES]]]
#
# A_ALTMEM, B_ALTMEM: the `altmem` tools of the two builds (build/tools/altmem);
# IMPL_A, IMPL_B: the variant each times (`altmem bench --impl`).  Each round runs
# A then B (`altmem bench --processes 1 --reps 5`: each run is a fresh process, so
# the rounds are the processes; hot, alignments 0/0, s+1/d+3, d+63), ROUNDS
# rounds (default 16); per cell the median over the rounds of each build's figure,
# then per routine the geometric mean, minimum and maximum of time(A) / time(B)
# (above 1: B is faster).  Run it once with the same build as A and B: that spread
# is the noise floor of the machine.  Needs python3 for the summary.
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,15p' "$0" >&2; exit 2; }
a=$1 b=$2 ia=$3 ib=$4 rounds=${5:-16} sizes=${6:-600,1K,2K,4K,8K} routines=${7:-memcpy,memmove}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for i in $(seq 1 "$rounds"); do
    "$a" bench --routine "$routines" --impl "$ia" --sizes "$sizes" --align 0/0,s+1/d+3,d+63 --processes 1 \
        --reps 5 --csv "$dir/A$i.csv" >/dev/null
    "$b" bench --routine "$routines" --impl "$ib" --sizes "$sizes" --align 0/0,s+1/d+3,d+63 --processes 1 \
        --reps 5 --csv "$dir/B$i.csv" >/dev/null
done
python3 - "$dir" <<'EOF'
import collections, csv, glob, math, statistics, sys
d = collections.defaultdict(lambda: {"A": [], "B": []})
for f in glob.glob(sys.argv[1] + "/[AB]*.csv"):
    side = f.rsplit("/", 1)[1][0]
    for r in csv.DictReader(open(f)):
        if r["kind"] == "altmem":
            d[(r["routine"], int(r["size"]), r["align"])][side].append(float(r["ns_median"]))
per = collections.defaultdict(list)
for key in sorted(d):
    ra = statistics.median(d[key]["A"]) / statistics.median(d[key]["B"])
    per[key[0]].append(ra)
    print(f"{key[0]:8} {key[1]:8} {key[2]:10} time A / time B {ra:.3f}")
for r, v in per.items():
    g = math.exp(sum(map(math.log, v)) / len(v))
    print(f"{r}: geomean {g:.3f}, min {min(v):.3f}, max {max(v):.3f} over {len(v)} cells")
EOF
