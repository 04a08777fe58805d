#!/bin/sh
# altmem index (tools/index.c).
#   test_index.sh run ALTMEM DIR       a quick run (1 and 2 copies) with --csv and --json into DIR,
#                                      then check DIR/index.csv, DIR/index.json, DIR/index.txt
#   test_index.sh check DIR [DAMAGE]   the checks alone; with DAMAGE on a damaged copy
#                                      (negative controls: each must make the check fail)
#   test_index.sh options ALTMEM       bad options: one line, exit 2; help index = index --help
#   test_index.sh emulated DIR EMU... ALTMEM   the quick run under qemu-user (cross builds):
#                                      checked as above, and it must say emulated timings are not speed
# The check: the CSV's exact header; for every copy count, every test of
# `altmem index --help` and every implementation (before, after, libc, control) one row
# with positive figures, rate_min <= result <= rate_max and index = 100 x
# result / baseline; one score row per copy count and implementation, equal to
# the geometric mean of its indexes; the JSON parses and holds as many results;
# the text has the seed's (docs/index.md) BASELINE/RESULT/INDEX header and a score for each table.
set -u
mode=$1
fail() { echo "FAIL: $*"; exit 1; }

check() {
    dir=$1
    csv=$dir/index.csv json=$dir/index.json txt=$dir/index.txt
    [ -s "$csv" ] || fail "no CSV $csv"
    [ "$(head -n 1 "$csv")" = "copies,test,impl,variants,unit,baseline,result,index,rate_min,rate_max,rounds" ] ||
        fail "CSV header: $(head -n 1 "$csv")"
    tests=$(cat "$dir/tests") || fail "no test list"
    awk -F, -v tests="$tests" -v copies="1 2" '
        NR == 1 { next }
        NF != 11 { printf "line %d: %d fields\n", NR, NF; bad = 1; next }
        $2 == "score" { score[$1, $3] = $8; next }
        {
            if (!($6 > 0 && $7 > 0 && $8 > 0 && $9 > 0 && $10 > 0)) { printf "line %d: a figure not positive\n", NR; bad = 1 }
            if (!($9 <= $7 && $7 <= $10)) { printf "line %d: result outside min..max\n", NR; bad = 1 }
            d = 100 * $7 / $6 - $8; if (d < 0) d = -d
            if (d > 0.01 * $8 + 0.01) { printf "line %d: index %s is not 100 x %s / %s\n", NR, $8, $7, $6; bad = 1 }
            seen[$1, $2, $3]++; logsum[$1, $3] += log($8); n[$1, $3]++
        }
        END {
            nt = split(tests, t, " "); nc = split(copies, c, " "); nm = split("before after libc control", m, " ")
            for (i = 1; i <= nc; i++) for (j = 1; j <= nt; j++) for (k = 1; k <= nm; k++)
                if (seen[c[i], t[j], m[k]] != 1) { printf "copies %s test %s %s: %d rows\n", c[i], t[j], m[k], seen[c[i], t[j], m[k]]; bad = 1 }
            for (i = 1; i <= nc; i++) for (k = 1; k <= nm; k++) {
                if (!((c[i], m[k]) in score)) { printf "no score for %s copies %s\n", c[i], m[k]; bad = 1; continue }
                g = exp(logsum[c[i], m[k]] / n[c[i], m[k]]); d = g - score[c[i], m[k]]; if (d < 0) d = -d
                if (d > 0.01 * g + 0.01) { printf "score %s copies %s: %s, geometric mean %.2f\n", c[i], m[k], score[c[i], m[k]], g; bad = 1 }
            }
            exit bad
        }' "$csv" || fail "CSV check"
    rows=$(($(wc -l <"$csv") - 1 - 8))
    python3 - "$json" "$rows" <<'PY' || fail "JSON check"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["results"]) == int(sys.argv[2]), (len(d["results"]), sys.argv[2])
assert len(d["scores"]) == 8 and all(s["score"] > 0 for s in d["scores"])
assert d["cpu"] and d["rounds"] >= 1
PY
    [ "$(grep -c '^System Benchmarks Index Values  *BASELINE  *RESULT  *INDEX$' "$txt")" = 8 ] || fail "not 8 tables with the BASELINE RESULT INDEX header"
    [ "$(grep -c '^System Benchmarks Index Score  *[0-9.]*$' "$txt")" = 8 ] || fail "not 8 scores"
    [ "$(grep -c '^test  *after/before  *after/C library  *control/C library$' "$txt")" = 2 ] ||
        fail "not 2 ratio tables with the control's column"
    grep -q '^score after/before, 1 copy: .* = [0-9.]*x (the seed.s UnixBench on Loongson-3A5000: 640.1 / 500.2 = 1.28x)$' "$txt" ||
        fail "no one-copy score ratio beside the seed's"
    grep -q '^cpu: ' "$txt" && grep -q '^goal: after >= before on every test: ' "$txt" || fail "no cpu or goal line"
}

case "$mode" in
run)
    altmem=$2 dir=$3
    mkdir -p "$dir"
    "$altmem" index --help | sed -n 's/^  --tests LIST     a comma list of: //p' >"$dir/tests"
    [ -s "$dir/tests" ] || fail "no test names in altmem index --help"
    # stderr is not a terminal here: it must carry no progress
    "$altmem" index --quick --copies 1,2 --csv "$dir/index.csv" --json "$dir/index.json" >"$dir/index.txt" 2>"$dir/err"
    rc=$?
    cat "$dir/index.txt"
    [ $rc = 0 ] || fail "exit status $rc: $(cat "$dir/err")"
    [ ! -s "$dir/err" ] || fail "stderr is not a terminal, yet: $(cat "$dir/err")"
    check "$dir"
    ! grep -q '^emulated:' "$dir/index.txt" || fail "a native run called emulated"
    echo "ok: index quick run and its CSV, JSON and text"
    ;;
emulated)
    # test_index.sh emulated DIR EMULATOR [OPTIONS...] ALTMEM: the same quick run in a
    # cross build, under qemu-user: it must work, be well-formed and say that its
    # timings are not speed
    dir=$2
    shift 2
    mkdir -p "$dir"
    "$@" index --help | sed -n 's/^  --tests LIST     a comma list of: //p' >"$dir/tests"
    [ -s "$dir/tests" ] || fail "no test names in altmem index --help"
    "$@" index --quick --copies 1,2 --csv "$dir/index.csv" --json "$dir/index.json" >"$dir/index.txt" 2>"$dir/err"
    rc=$?
    cat "$dir/index.txt"
    [ $rc = 0 ] || fail "exit status $rc: $(cat "$dir/err")"
    check "$dir"
    grep -q '^emulated: under .*qemu-[^ ]*: emulated timings are not speed' "$dir/index.txt" ||
        fail "no line saying that emulated timings are not speed"
    echo "ok: index quick run under the emulator, well-formed, timings called not speed"
    ;;
check)
    src=$2 damage=${3:-}
    dir=$src.$damage.$$
    rm -rf "$dir" && cp -r "$src" "$dir" || exit 0   # WILL_FAIL: exiting 0 counts as a failure
    trap 'rm -rf "$dir"' EXIT
    case "$damage" in
    missing_row) sed -i '/^2,pipe,after,/d' "$dir/index.csv" ;;
    zero) sed -i '0,/^1,filecopy256,before,/s/^\(1,filecopy256,before,[^,]*,[^,]*,[^,]*,\)[^,]*/\10.0/' "$dir/index.csv" ;;
    index) sed -i 's/^\(1,mix,after,\([^,]*,\)\{4\}\)[^,]*/\1999999.0/' "$dir/index.csv" ;;
    score) sed -i 's/^\(2,score,libc,[^,]*,,,,\)[^,]*/\11.00/' "$dir/index.csv" ;;
    header) sed -i '1s/index/idx/' "$dir/index.csv" ;;
    json) head -c 100 "$src/index.json" >"$dir/index.json" ;;
    text) sed -i '/^System Benchmarks Index Score/{n;d}' "$dir/index.txt"; sed -i '0,/^System Benchmarks Index Score/{/^System Benchmarks Index Score/d}' "$dir/index.txt" ;;
    *) echo "unknown damage $damage"; exit 0 ;;
    esac
    cmp -s "$src/index.csv" "$dir/index.csv" && cmp -s "$src/index.json" "$dir/index.json" &&
        cmp -s "$src/index.txt" "$dir/index.txt" && { echo "damage $damage changed nothing"; exit 0; }
    check "$dir"
    echo "the damaged copy ($damage) passed the check"
    ;;
options)
    altmem=$2
    for bad in "--rounds 0" "--rounds 100" "--rounds 2.5" "--sample-ms x" "--sample-ms 0" "--copies 0" "--copies 1,2,3" \
               "--copies" "--tests nosuch" "--tests pipe,,mix" "--csv" "--frobnicate" "--csv /nonexistent-dir/x.csv"; do
        # shellcheck disable=SC2086
        out=$("$altmem" index $bad 2>&1 >/dev/null)
        rc=$?
        want=2
        case "$bad" in --csv\ /*) want=1 ;; esac
        [ $rc = $want ] || fail "'$bad': exit $rc, not $want"
        [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s\n' "$out" | grep -q '^altmem index: ' || fail "'$bad': '$out'"
    done
    [ "$("$altmem" help index)" = "$("$altmem" index --help)" ] || fail "help index differs from index --help"
    echo "ok: bad options"
    ;;
esac
