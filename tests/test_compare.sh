#!/bin/sh
# altmem compare (tools/compare.c) on tests/compare_helper.c, which logs which
# arm ran it.  No verdict here depends on the clock: the statistics are checked
# on wall times given to compare through its testing hook,
# ALTMEM_COMPARE_TEST_DURATIONS=FILE (one time per run, in the order compare
# makes the runs), while the runs themselves still happen, so exit statuses,
# output, environments and the ABBA order are the real ones.  The expected
# estimate, interval and p-value are computed here, in awk, from the documented
# definitions (docs/index.md), not taken from compare.  Only `smoke` reads the
# clock, and checks structure alone.
#   test_compare.sh ALTMEM HELPER CASE
# CASE:
#   detect_slower  B = A x 1.05 x (1 + small noise) in the altmem arm, 10 pairs:
#                  "altmem slower", exact ratio, interval, p; the real runs in ABBA order
#   detect_faster  B = A / 1.05 x (1 + noise): "altmem faster", exact values
#   aa             --aa on a balanced A/A pattern (pair differences alternating in sign,
#                  growing): not distinguishable, interval holds 1, exact values; no run
#                  had altmem preloaded
#   aa_shifted     the same pattern with B 60% longer (--aa): "B slower", exact values
#   cmd_b          --cmd-b PROG, B = A x 1.2 x (1 + noise): "B slower", exact values; arm B
#                  ran PROG (in ABBA order), nothing preloaded; a missing PROG is 127
#   few_pairs      3 pairs of a 2x difference: not distinguishable, "too few pairs"; the same
#                  difference in 6 pairs is distinguishable (the verdict came from the count)
#   failing_run    the 4th run (pair 1's second) exits 3: reported, its pair left out (its
#                  injected times far off: the statistics are the other 9 pairs'), exit 3
#   io             stdin replayed to every run, CMD's stdout and stderr written once
#   output_differs runs that print different output are named
#   env            --variant generic: the altmem arm alone has the library in LD_PRELOAD
#                  and all=generic; the C library arm drops a preloaded altmem
#   status         exit statuses: N, 128+signal, 127 not found, 2 for bad options
#   smoke          the real clock, structure only: pairs, failed runs, the method line, exit
#                  status, no "not measured" line, and each median wall at least the sleep
#                  (a lower bound load cannot break)
#   hook_errors    (--aa) bad hook files: one line, exit 2, no run made; comments, blank
#                  lines and CRLF accepted; an empty value is the hook off
#   hook_secure    a setuid-root copy of altmem run as nobody ignores the hook; the same copy
#                  without the setuid bit uses it (root and setpriv only, else 77: skipped)
# The adaptive mode (--until PCT, --max-pairs N), on seeded lognormal times; the
# stopping rule (looks, level 0.05/K, cut, decision) computed here (seqmodel):
#   adaptive_slower   5% slower with noise, --until 2: "altmem slower" at the look
#                     the rule stops at (3: 20 pairs), exact figures at level 0.05/8,
#                     the report's looks and times used, 42 real runs in ABBA order
#   adaptive_faster   the same, 5% faster: "altmem faster"
#   adaptive_width    --aa, equal arms, 2% noise, --until 3: "no difference larger than
#                     3%" at the rule's look (3), exact figures
#   adaptive_max      1% slower, --until 1 --max-pairs 25 (looks 10,15,20,25): no verdict,
#                     stopped at the maximum, exact figures at level 0.05/4
#   adaptive_aa_rate  200 seeded A/A sets, --max-pairs 100, no --until (the worst case):
#                     compare stops on each where the rule does, and with a verdict of
#                     difference in at most 21 (what a 5% rate allows with a 0.1%
#                     binomial margin); the command not run (ALTMEM_COMPARE_TEST_NO_RUNS)
#   adaptive_power    200 seeded sets 5% slower, 7% noise per run, --until 2: the rule's
#                     outcome on each; "altmem slower" in 180 at least, "faster" in none
#   adaptive_options  bad --until/--max-pairs values and --runs with them: one line, exit
#                     2, no run; the hook's file holds the times of the most pairs
#                     (fewer or more: exit 2, no run); --max-pairs 10 is the fixed
#                     10-pair compare; 1000 has 15 looks; a failing run stops at the next
#                     look; the runs-skipping knob does nothing without the hook
# Negative controls: each runs compare on wrong data and requires the check named
# to fail, with that check's message (a control passing means the check can fail):
#   rejects_equal      equal arms under detect_slower's check: compare says not
#                      distinguishable, the verdict check fails
#   rejects_direction  -5% under detect_slower's check: the verdict check fails
#   rejects_ratio      +10% under detect_slower's check: the ratio check fails
#   rejects_interval   detect_slower's data with the expected cut one rank off: the
#                      interval check fails (the data separates neighbouring ranks)
#   rejects_order      durations written in ABAB order: detect_slower's check fails, and
#                      the run-order check fails against ABAB on the real runs
#   rejects_aa         aa_shifted's data under aa's check: the verdict check fails
#   rejects_cmd_b      equal arms under cmd_b's check: the verdict check fails
#   rejects_adaptive_look      adaptive_slower's check expecting the look after or
#                              before the rule's: the look check fails
#   rejects_adaptive_equal     equal arms under adaptive_slower's check: the verdict
#                              check fails
#   rejects_adaptive_unsplit   adaptive_aa_rate's sets with alpha not split (every look
#                              at 0.05, computed by seqmodel): the rate check fails
#                              (41 of 200), and compare's outcomes fail the agreement
#                              with that rule
set -u
altmem=$1 helper=$2 case=$3
work=${TMPDIR:-/tmp}/altmem-compare-test.$$
mkdir -p "$work" && trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL ($case): $*"; echo "--- report:"; cat "$work/err" 2>/dev/null; exit 1; }
field() { sed -n "s/^result: .*$1=\([^ ]*\).*/\1/p" "$work/err"; }
# compare OPTS...: runs altmem compare, report in $work/err, stdout in $work/out
compare() { "$altmem" compare "$@" >"$work/out" 2>"$work/err" </dev/null; echo $? >"$work/rc"; }
# hooked DURATIONS OPTS...: compare with its wall times from the file DURATIONS,
# every run logged by the helper in $work/runs
# (the assignments on the command itself: before a shell function, some shells
# would keep them for the rest of the script)
hooked() {
    _d=$1
    shift
    : >"$work/runs"
    HELPER_RUN_LOG=$work/runs ALTMEM_COMPARE_TEST_DURATIONS=$_d "$altmem" compare "$@" >"$work/out" 2>"$work/err" </dev/null
    echo $? >"$work/rc"
}
# near X Y: X as compare prints it (%.4f, or inf) equals Y within one unit of the
# last digit (so that the last bit of log/exp cannot decide)
near() {
    [ "$1" = inf ] || [ "$2" = inf ] && { [ "$1" = "$2" ]; return; }
    awk -v x="$1" -v y="$2" 'BEGIN { d = x - y; exit !(x != "" && d <= 0.00011 && d >= -0.00011) }'
}

# ---- test data --------------------------------------------------------------
# pairs KIND: one line "A B" (seconds) per timed pair, arm A's time then arm B's.
# A varies over the pairs (so the table's medians are not all one value), and B
# carries a small noise on top of the factor (chosen so that the Walsh averages
# next to every cut are 0.0004 apart at least, which expect checks: a check one
# rank off is seen, rejects_interval, whatever the last digit's rounding).
pairs() {
    awk -v kind="$1" 'BEGIN {
        split("0 0.03 -0.02 0.05 -0.04 0.01 0.06 -0.03 0.02 -0.01", u, " ")
        split("0.01 0.002 -0.007 -0.012 0.014 -0.015 0.004 0.006 -0.009 0.002", e, " ")
        n = 10
        for (p = 1; p <= n; p++) {
            a = 0.2 * (1 + u[p]); f = 1 + e[p]
            if (kind == "slower") b = a * 1.05 * f
            else if (kind == "slower10") b = a * 1.10 * f
            else if (kind == "faster") b = a / 1.05 * f
            else if (kind == "equal") b = a
            else if (kind == "b20") b = a * 1.2 * f
            else if (kind == "aa" || kind == "aa_shifted") {
                # A/A: the pairs differ by about 4% x p alternately each way (the
                # noise is smaller than 4%: it spreads the values, never turns a
                # sign), the most balanced sample two identical arms can give
                j = 0.02 * p * (p % 2 ? 1 : -1)
                a = 0.2 * (1 + j); b = 0.2 * (1 - j) * f
                if (kind == "aa_shifted") b *= 1.6   # beyond the pattern: every pair one way
            } else if (kind == "double") b = 2 * a * f
            else { print "unknown kind " kind > "/dev/stderr"; exit 2 }
            if (kind == "double" && p > 6) break
            printf "%.9f %.9f\n", a, b
        }
    }'
}
# durations PAIRS WARMUP [ORDER]: the hook's file for those pairs, one time per
# run in the order compare runs them: ABBA (pair 0 A first, pair 1 B first, ...,
# warm-up pairs counted) unless ORDER is abab.  Warm-up runs get 0.5 s: never
# in the statistics.
durations() {
    awk -v warmup="$2" -v order="${3:-abba}" '{ a[NR - 1] = $1; b[NR - 1] = $2; n = NR }
        END {
            for (k = 0; k < 2 * (warmup + n); k++) {
                q = int(k / 2)
                arm = order == "abba" && q % 2 ? 1 - k % 2 : k % 2
                if (q < warmup) print "0.5"
                else print arm ? b[q - warmup] : a[q - warmup]
            }
        }' "$1"
}
# expect PAIRS [CUTADJ] [K]: "n ratio lo hi p distinguishable" as compare must report
# them for PAIRS: the Hodges-Lehmann estimate (median of the Walsh averages of the
# log ratios log(A/B)), the Walsh averages number c+1 and M-c (c the largest count
# with P(W+ <= c) <= 0.025 under the exact null distribution; CUTADJ moves c, for
# rejects_interval), and the two-sided p of W+ (the number of positive Walsh
# averages).  c is also checked against the published table of critical values,
# and the data against ranks too close for near() to tell apart.  K > 1: as an
# adaptive compare with K looks reports its last look: at level 0.05/K (c the
# largest with P(W+ <= c) <= 0.025/K), p multiplied by K, at most 1.
expect() {
    awk -v cutadj="${2:-0}" -v k="${3:-1}" '
        function f(x) { return sprintf("%.4f", x) }
        function apart(i, j) { return i < 0 || j >= m || exp(w[j]) - exp(w[i]) > 0.0004 }
        { d[n++] = log($1 / $2) }
        END {
            m = 0; wplus = 0
            for (i = 0; i < n; i++)
                for (j = i; j < n; j++) {
                    w[m] = (d[i] + d[j]) / 2
                    wplus += w[m] > 0 ? 1 : w[m] == 0 ? 0.5 : 0
                    m++
                }
            for (i = 1; i < m; i++) {
                x = w[i]
                for (j = i - 1; j >= 0 && w[j] > x; j--) w[j + 1] = w[j]
                w[j + 1] = x
            }
            est = m % 2 ? w[(m - 1) / 2] : (w[m / 2 - 1] + w[m / 2]) / 2
            # W+ under the null: the rank sums of the 2^n subsets of 1..n
            for (s = 0; s <= m; s++) cnt[s] = 0
            cnt[0] = 1
            for (r = 1; r <= n; r++)
                for (s = m; s >= r; s--) cnt[s] += cnt[s - r]
            acc = 0
            for (s = 0; s <= m; s++) { acc += cnt[s]; cdf[s] = acc / 2 ^ n }
            c = -1
            level = 0.05 / k
            for (s = 0; s <= m && cdf[s] <= level / 2; s++) c = s
            # two-sided 0.05 critical values (e.g. Wilcoxon, Katti, Wilcox 1970)
            split("-1 -1 -1 -1 -1 0 2 3 5 8 10 13", table, " ")
            if (k == 1 && n <= 12 && c != table[n]) { print "critical value " c " for n = " n ", the table has " table[n]; exit 3 }
            wl = int(wplus); wh = wplus > wl ? wl + 1 : wl
            plow = cdf[wh]; phigh = wl ? 1 - cdf[wl - 1] : 1
            p = 2 * (plow < phigh ? plow : phigh)
            if (p > 1) p = 1
            if (k * p < 1) p *= k; else p = 1
            if (c >= 0 && !(apart(c - 1, c) && apart(c, c + 1) && apart(m - 2 - c, m - 1 - c) && apart(m - 1 - c, m - c))) {
                print "test data: Walsh averages next to the cut closer than 0.0004"; exit 3
            }
            c += cutadj
            if (c < 0) { print n, f(exp(est)), f(0), "inf", f(p), "no"; exit }
            print n, f(exp(est)), f(exp(w[c])), f(exp(w[m - 1 - c])), f(p), (w[c] > 0 || w[m - 1 - c] < 0 ? "yes" : "no")
        }' "$1"
}

# ---- checks -----------------------------------------------------------------
# check_stats PAIRS VERDICT [CUTADJ]: the last hooked compare reported what
# expect computes for PAIRS, and the verdict line VERDICT
check_stats() {
    _want=$(expect "$1" "${3:-0}") || fail "expected values: $_want"
    _verdict=$2
    # shellcheck disable=SC2086
    set -- $_want
    [ "$(cat "$work/rc")" = 0 ] || fail "exit status $(cat "$work/rc")"
    grep -q '^  timing: NOT MEASURED: wall times from ALTMEM_COMPARE_TEST_DURATIONS=' "$work/err" &&
        [ "$(field durations)" = injected ] || fail "the report does not say the times were injected"
    [ "$(field pairs)" = "$1" ] || fail "pairs=$(field pairs), not $1"
    [ "$(field distinguishable)" = "$6" ] && grep -qxF "  verdict: $_verdict" "$work/err" ||
        fail "verdict: distinguishable=$(field distinguishable) '$(sed -n 's/^  verdict: //p' "$work/err")', expected distinguishable=$6 '$_verdict'"
    near "$(field ratio)" "$2" || fail "ratio: $(field ratio), expected $2"
    near "$(field lo)" "$3" && near "$(field hi)" "$4" ||
        fail "interval: [$(field lo), $(field hi)], expected [$3, $4]"
    near "$(field p)" "$5" || fail "p: $(field p), expected $5"
    grep -q 'method: Hodges-Lehmann estimate and Wilcoxon signed-rank interval' "$work/err" ||
        fail "the report does not say which method"
}
# check_order WHAT [ORDER] [RUNS]: the helper's log of the real runs ($work/runs) has
# 22 (or RUNS) runs in ABBA (or ORDER) order, arm B the one with altmem preloaded (WHAT =
# altmem) or the one run as *_b with nothing preloaded (WHAT = b)
check_order() {
    awk -v what="$1" -v order="${2:-abba}" -v runs="${3:-22}" '
        { q = int((NR - 1) / 2); k = NR - 1
          want = order == "abba" && q % 2 ? 1 - k % 2 : k % 2
          got = what == "altmem" ? $2 == "altmem" : $1 ~ /_b$/ && $2 == "libc"
          if (got != want) { print "run " NR " (" $0 ") is not arm " (want ? "B" : "A") " of " order; bad = 1; exit } }
        END { if (!bad && NR != runs) { print NR " runs logged, not " runs; bad = 1 } exit bad }' "$work/runs" >"$work/order" ||
        fail "run order: $(cat "$work/order")"
}
# control WANT CHECK...: CHECK must fail, with a message containing WANT
control() {
    _cwant=$1
    shift
    ("$@") >"$work/control" 2>&1 && { cat "$work/control"; fail "the check passed on wrong data: it cannot fail"; }
    grep -q "^FAIL ($case): $_cwant" "$work/control" ||
        { cat "$work/control"; fail "the check failed, but not with '$_cwant'"; }
    echo "control ($case): the check failed as it must: $(grep "^FAIL" "$work/control")"
}

# shellcheck disable=SC2120  # (rejects_interval passes a CUTADJ, through control)
slower_check() { check_stats "$work/slower" "altmem slower: distinguishable from noise" "$@"; }
detect() {   # KIND: 10 pairs of KIND in the default (altmem) mode
    pairs "$1" >"$work/$1"
    durations "$work/$1" 1 "${2:-abba}" >"$work/d"
    hooked "$work/d" --runs 10 -- "$helper" 0
}
aa_check() {
    check_stats "$work/aa" "not distinguishable from noise (the interval holds 1)"
    ! grep -q altmem "$work/runs" && [ "$(wc -l <"$work/runs")" = 22 ] || fail "an --aa run had altmem preloaded"
    grep -q 'A/A' "$work/err" || fail "the report does not say A/A"
}
cmd_b_check() {
    check_stats "$work/b20" "B slower: distinguishable from noise"
    check_order b
    grep -q "^  arms:   A = $helper, B = $work/helper_b " "$work/err" || fail "the report does not name the two programs"
    [ "$(grep -c '^LD_PRELOAD= ' "$work/log")" = 22 ] || { cat "$work/log"; fail "a --cmd-b run had something preloaded"; }
}
cmd_b_run() {   # KIND
    pairs "$1" >"$work/$1"
    durations "$work/$1" 1 >"$work/d"
    ln -sf "$helper" "$work/helper_b"
    : >"$work/log"
    HELPER_ENV_LOG=$work/log hooked "$work/d" --runs 10 --cmd-b "$work/helper_b" -- "$helper" 0
}

# ---- the adaptive mode (--until, --max-pairs) ---------------------------------
# Its stopping rule, as docs/index.md states it, computed here from that text
# alone: the looks (schedule), the level of each (0.05/K), the cut at that level
# (exact null distribution up to 60 pairs, the continuity-corrected normal one
# above), and the decision at each look (seqmodel).  The times are seeded
# lognormal noise (apairs) from a generator written out here (Park-Miller, exact
# in awk's doubles), so that every run of a test sees the same numbers.

# schedule MAX: the looks of an adaptive compare with --max-pairs MAX: 10, 15, 20,
# 30, 40, 60, 80 times a power of ten below MAX, and MAX, as a comma list
schedule() {
    awk -v max="$1" 'BEGIN {
        n = split("10 15 20 30 40 60 80 100 150 200 300 400 600 800 1000", s, " ")
        out = ""
        for (i = 1; i <= n && s[i] < max; i++) out = out s[i] ","
        print out max
    }'
}
# apairs FACTOR SIGMA SEED N [FILES]: N pairs "A B" (FILES > 1: FILES sets of them,
# "F A B"): a pair's common factor 0.2 s x exp(0.05 Z) (a slow phase of the
# machine lands on both arms), then each run x exp(SIGMA Z), arm B x FACTOR; Z
# standard normal (Box-Muller on a Park-Miller generator started from SEED and F)
apairs() {
    awk -v factor="$1" -v sigma="$2" -v seed0="$3" -v n="$4" -v files="${5:-1}" '
        function rnd() { seed = (16807 * seed) % 2147483647; return seed / 2147483647 }
        function gauss() { return sqrt(-2 * log(rnd())) * cos(6.283185307179586 * rnd()) }
        BEGIN {
            for (f = 1; f <= files; f++) {
                seed = (seed0 + 7919 * f) % 2147483646 + 1
                for (p = 1; p <= n; p++) {
                    g = 0.2 * exp(0.05 * gauss())
                    a = g * exp(sigma * gauss()); b = g * factor * exp(sigma * gauss())
                    printf "%s%.9f %.9f\n", (files > 1 ? f " " : ""), a, b
                }
            }
        }'
}
# seqmodel K UNTIL SCHEDULE FILE: the stopping rule on FILE's pairs ("A B", or
# "F A B" for many sets): at each look of SCHEDULE, the interval at level 0.05/K
# of the pairs so far; stop when it excludes 1, or (UNTIL > 0) lies within
# [1/(1+UNTIL/100), 1+UNTIL/100], or at the last look.  Prints, per set,
# "F stop looks pairs distinguishable".  K is the number of looks, or 1 for
# rejects_adaptive_unsplit: every look at 0.05, the naive sequential test.  With
# the cut c (Walsh averages left out at each end: the largest with
# P(W+ <= c) <= level/2), the interval is known by counting, without sorting:
# lo > 0 when at most c Walsh averages are <= 0, hi < 0 when at most c are >= 0,
# lo >= -log(1+UNTIL/100) when at most c are below it, hi likewise.
seqmodel() {
    awk -v k="$1" -v until="$2" -v sched="$3" '
        function phi(z,   i, t, term, sum) {   # the normal CDF, from its series (|z| < 4 here)
            t = z; sum = z
            for (i = 1; i < 200; i++) {
                t *= -z * z / (2 * i); term = t / (2 * i + 1); sum += term
                if (term < 1e-18 && term > -1e-18) break
            }
            return 0.5 + 0.3989422804014327 * sum
        }
        function cut(n,   m, s, r, acc, c, mean, sd, w, cnt) {
            if (n in cuts) return cuts[n]
            m = n * (n + 1) / 2; c = -1
            if (n <= 60) {
                for (s = 0; s <= m; s++) cnt[s] = 0
                cnt[0] = 1
                for (r = 1; r <= n; r++) for (s = m; s >= r; s--) cnt[s] += cnt[s - r]
                acc = 0
                for (s = 0; s <= m; s++) { acc += cnt[s]; if (acc / 2 ^ n <= level / 2) c = s; else break }
            } else {
                mean = m / 2; sd = sqrt(n * (n + 1) * (2 * n + 1) / 24)
                for (w = int(mean); w >= 0; w--) if (phi((w + 0.5 - mean) / sd) <= level / 2) { c = w; break }
            }
            return cuts[n] = c
        }
        BEGIN {
            level = 0.05 / k; delta = log(1 + until / 100); nl = split(sched, look, ",")
            # the cuts at the default schedule'"'"'s level, 0.05/8, computed exactly
            # (integer subset-sum counts; above 60 pairs the normal approximation'"'"'s)
            if (k == 8 && sched == "10,15,20,30,40,60,80,100") {
                split("2 13 33 102 209 547 1049 1729", want, " ")
                for (l = 1; l <= nl; l++)
                    if (cut(look[l]) != want[l]) { print "cut " cut(look[l]) " at " look[l] " pairs, not " want[l]; exit 3 }
            }
        }
        { if (NF == 2) { f = 1; a = $1; b = $2 } else { f = $1; a = $2; b = $3 }
          if (!(f in np)) { order[nf++] = f; np[f] = 0 }
          d[f, np[f]++] = log(a / b) }
        END {
            for (q = 0; q < nf; q++) {
                f = order[q]
                for (l = 1; l <= nl; l++) {
                    n = look[l]; c = cut(n)
                    if (n > np[f]) { print "set " f ": " np[f] " pairs, fewer than the look at " n; exit 3 }
                    le0 = ge0 = ltm = gtm = 0
                    for (i = 0; i < n; i++)
                        for (j = i; j < n; j++) {
                            w = (d[f, i] + d[f, j]) / 2
                            le0 += w <= 0; ge0 += w >= 0; ltm += w < -delta; gtm += w > delta
                        }
                    stop = ""
                    if (c >= 0 && (le0 <= c || ge0 <= c)) stop = "excludes1"
                    else if (until > 0 && c >= 0 && ltm <= c && gtm <= c) stop = "width"
                    else if (l == nl) stop = "max"
                    if (stop != "") break
                }
                print f, stop, l, n, (stop == "excludes1" ? "yes" : "no")
            }
        }' "$4"
}
# result_fields: the last report's result line as "pairs looks stopped
# distinguishable ratio schedule level until durations commands" (absent: -)
result_fields() {
    sed -n 's/^result: //p' "$work/err" | awk '{
        for (i = 1; i <= NF; i++) { e = index($i, "="); v[substr($i, 1, e - 1)] = substr($i, e + 1) }
        split("pairs looks stopped distinguishable ratio schedule level until durations commands", k, " ")
        for (i = 1; i <= 10; i++) printf "%s%s", (k[i] in v ? v[k[i]] : "-"), (i < 10 ? " " : "\n")
    }'
}
# check_adaptive PAIRS VERDICT UNTIL MAX [LOOKADJ]: the last hooked adaptive compare
# (--until UNTIL, 0: none, --max-pairs MAX, warm-up 1) on the times of PAIRS
# stopped where seqmodel's rule does, for the reason it gives, with VERDICT, and
# reported at its last look what expect computes for the pairs made at level
# 0.05/K (K = the looks of MAX's schedule); the report has one line per look made
# and says how many of the file's times it used; and when the helper logged its
# runs, exactly 2 x (1 + pairs) were made, in ABBA order.  LOOKADJ moves the
# expected look (rejects_adaptive_look).
check_adaptive() {
    _pairs=$1 _verdict=$2 _until=$3 _max=$4 _adj=${5:-0}
    _sched=$(schedule "$_max")
    _k=$(echo "$_sched" | awk -F, '{ print NF }')
    _model=$(seqmodel "$_k" "$_until" "$_sched" "$_pairs") || fail "the rule: $_model"
    # shellcheck disable=SC2086
    set -- $_model
    _stop=$2 _look=$(($3 + _adj))
    _at=$(echo "$_sched" | awk -F, -v l="$_look" '{ print (l >= 1 && l <= NF ? $l : "none") }')
    head -n "$4" "$_pairs" >"$work/made"   # the model's pairs: LOOKADJ moves the look, not the data
    _want=$(expect "$work/made" 0 "$_k") || fail "expected values: $_want"
    # shellcheck disable=SC2086
    set -- $_want
    # shellcheck disable=SC2046
    set -- "$@" $(result_fields)   # $7.. : pairs looks stopped distinguishable ratio schedule level until durations commands
    [ "$(cat "$work/rc")" = 0 ] || fail "exit status $(cat "$work/rc")"
    [ "${12}" = "$_sched" ] && awk -v got="${13}" -v k="$_k" 'BEGIN { l = 0.05 / k; exit !(got - l < l * 1e-5 && l - got < l * 1e-5) }' ||
        fail "schedule=${12} level=${13}, not schedule=$_sched level=0.05/$_k"
    [ "$_until" = 0 ] && [ "${14}" = - ] || [ "${14}" = "$_until" ] || fail "until=${14}, not $_until"
    [ "${10}" = "$6" ] && grep -qxF "  verdict: $_verdict" "$work/err" ||
        fail "verdict: distinguishable=${10} '$(sed -n 's/^  verdict: //p' "$work/err")', expected distinguishable=$6 '$_verdict'"
    [ "$9" = "$_stop" ] || fail "stop: stopped=$9, the rule stops with $_stop"
    [ "$8" = "$_look" ] && [ "$7" = "$_at" ] && [ "$1" = "$_at" ] ||
        fail "look: compare stopped at look $8 ($7 pairs), the rule at look $_look ($_at pairs)"
    [ "${15}" = injected ] && grep -q "^  timing: NOT MEASURED: wall times from ALTMEM_COMPARE_TEST_DURATIONS=.*; $((2 * (1 + _at))) of its $((2 * (1 + _max))) times used$" "$work/err" ||
        fail "the report does not say the times were injected, and how many of them it used ($((2 * (1 + _at))) of $((2 * (1 + _max))))"
    near "${11}" "$2" || fail "ratio: ${11}, expected $2"
    _lo=$(field lo) _hi=$(field hi) _p=$(field p)
    near "$_lo" "$3" && near "$_hi" "$4" || fail "interval: [$_lo, $_hi], expected [$3, $4]"
    near "$_p" "$5" || fail "p: $_p, expected $5 ($_k x the last look's)"
    [ "$(grep -c "^  look [0-9]* of $_k: " "$work/err")" = "$_look" ] &&
        grep -q "^  look $_look of $_k: $_at pairs: .*: stop$" "$work/err" || fail "the report does not list the $_look looks made"
    # the runs made (the helper's log): as many as the pairs made need, in ABBA
    # order, arm B the altmem arm (--aa: no run with altmem preloaded)
    if [ "${_arm:-altmem}" = altmem ]; then
        check_order altmem abba $((2 * (1 + _at)))
    else
        [ "$(wc -l <"$work/runs")" = $((2 * (1 + _at))) ] && ! grep -q altmem "$work/runs" ||
            fail "run order: $(wc -l <"$work/runs") runs logged, not $((2 * (1 + _at))), or one with altmem preloaded"
    fi
}
# adaptive KIND SEED FACTOR SIGMA UNTIL MAX [OPTS...]: 100 seeded pairs (KIND names
# the file) with a warm-up pair, given to an adaptive compare with OPTS, the real
# runs logged
adaptive() {
    _kind=$1 _seed=$2 _factor=$3 _sigma=$4 _u=$5 _x=$6
    shift 6
    apairs "$_factor" "$_sigma" "$_seed" "$_x" >"$work/$_kind"
    durations "$work/$_kind" 1 >"$work/d"
    if [ "$_u" = 0 ]; then
        hooked "$work/d" --max-pairs "$_x" "$@" -- "$helper" 0
    else
        hooked "$work/d" --until "$_u" --max-pairs "$_x" "$@" -- "$helper" 0
    fi
}
# width_verdict UNTIL: the verdict of a width stop, its margins computed here
width_verdict() {
    awk -v u="$1" 'BEGIN { m = log(1 + u / 100)
        printf "no difference larger than %s%% (the interval lies within %.4fx .. %.4fx)\n", u, exp(-m), exp(m) }'
}

# bulk FACTOR SIGMA SEED OPTS...: 200 seeded sets of 100 pairs (in $work/all,
# "F A B"), each given, with a warm-up pair, to `altmem compare OPTS --max-pairs 100`
# with ALTMEM_COMPARE_TEST_NO_RUNS=1 (the command is not run: the statistics and
# the stopping rule alone, 200 x 202 runs of the helper would take minutes);
# compare's outcomes in $work/compare_out, "F stop looks pairs distinguishable ratio"
BULK=200
bulk() {
    apairs "$1" "$2" "$3" 100 $BULK >"$work/all"
    shift 3
    awk -v dir="$work" '
        { f = $1; i = np[f] + 0; a[f, i] = $2; b[f, i] = $3; np[f] = i + 1 }
        END {
            for (f = 1; f in np; f++) {
                out = dir "/bulk." f
                for (k = 0; k < 2 * (1 + np[f]); k++) {
                    q = int(k / 2); arm = q % 2 ? 1 - k % 2 : k % 2
                    print (q < 1 ? "0.5" : arm ? b[f, q - 1] : a[f, q - 1]) > out
                }
                close(out)
            }
        }' "$work/all"
    : >"$work/compare_out"
    f=1
    while [ $f -le $BULK ]; do
        ALTMEM_COMPARE_TEST_NO_RUNS=1 ALTMEM_COMPARE_TEST_DURATIONS=$work/bulk.$f \
            "$altmem" compare "$@" --max-pairs 100 -- "$helper" 0 >"$work/out" 2>"$work/err" </dev/null
        echo $? >"$work/rc"
        [ "$(cat "$work/rc")" = 0 ] && [ "$(field commands)" = not-run ] || fail "set $f: exit status $(cat "$work/rc")"
        echo "$f $(result_fields | awk '{ print $3, $2, $1, $4, $5 }')" >>"$work/compare_out"
        f=$((f + 1))
    done
}
# agree_check K UNTIL: compare's outcome on every set is seqmodel's at level 0.05/K
agree_check() {
    seqmodel "$1" "$2" "$(schedule 100)" "$work/all" >"$work/model" || fail "the rule: $(cat "$work/model")"
    awk -v k="$1" 'NR == FNR { want[$1] = $2 " " $3 " " $4 " " $5; next }
        { got = $2 " " $3 " " $4 " " $5
          if (got != want[$1]) { print "set " $1 ": compare: " got "; the rule at level 0.05/" k ": " want[$1]; bad = 1; exit } }
        END { exit bad }' "$work/model" "$work/compare_out" >"$work/agree" ||
        fail "rule: $(cat "$work/agree") (stopped looks pairs distinguishable)"
}
# rate_check OUTCOMES WHAT: OUTCOMES ("F stop looks pairs distinguishable ...", one
# line per A/A set) stopped with a verdict of difference in no more sets than a
# false-verdict rate of 5% explains: at most T, the smallest count that
# Binomial(200, 0.05) exceeds with probability below 0.001
rate_check() {
    _t=$(awk -v n=$BULK -v p=0.05 'BEGIN { pmf = (1 - p) ^ n; cdf = pmf; t = 0
        while (1 - cdf >= 0.001) { pmf *= (n - t) / (t + 1) * p / (1 - p); t++; cdf += pmf }; print t }')
    _yes=$(awk '$5 == "yes"' "$1" | wc -l)
    [ "$_yes" -le "$_t" ] || fail "A/A rate: $_yes of $BULK A/A sets ($2) stopped with a verdict of difference, more than $_t (5% of $BULK and its binomial margin)"
    echo "A/A ($2): $_yes of $BULK sets stopped with a verdict of difference (at most $_t allowed)"
}

case "$case" in
detect_slower)
    detect slower
    slower_check
    check_order altmem
    ;;
detect_faster)
    detect faster
    check_stats "$work/faster" "altmem faster: distinguishable from noise"
    check_order altmem
    ;;
aa | rejects_aa)
    kind=aa
    [ "$case" = rejects_aa ] && kind=aa_shifted
    pairs $kind >"$work/$kind"
    pairs aa >"$work/aa"   # what aa's check expects
    durations "$work/$kind" 1 >"$work/d"
    hooked "$work/d" --aa --runs 10 -- "$helper" 0
    if [ "$case" = aa ]; then
        aa_check
    else
        control "verdict" aa_check
    fi
    ;;
aa_shifted)
    pairs aa_shifted >"$work/aa_shifted"
    durations "$work/aa_shifted" 1 >"$work/d"
    hooked "$work/d" --aa --runs 10 -- "$helper" 0
    check_stats "$work/aa_shifted" "B slower: distinguishable from noise"
    ;;
cmd_b)
    # a B program that does not exist: 127, named
    compare --runs 1 --cmd-b "$work/no-such-b" -- "$helper" 0
    [ "$(cat "$work/rc")" = 127 ] && grep -q "no-such-b: No such file" "$work/err" || fail "missing B: $(cat "$work/rc")"
    cmd_b_run b20
    cmd_b_check
    ;;
rejects_cmd_b)
    cmd_b_run equal
    pairs b20 >"$work/b20"
    control "verdict" cmd_b_check
    ;;
few_pairs)
    pairs double >"$work/double"
    head -n 3 "$work/double" >"$work/three"
    durations "$work/three" 1 >"$work/d"
    hooked "$work/d" --runs 3 -- "$helper" 0
    check_stats "$work/three" "not distinguishable from noise: too few pairs for a 95% interval (6 at least)"
    [ "$(field lo)" = 0.0000 ] && [ "$(field hi)" = inf ] || fail "3 pairs have an interval"
    # control: the same difference in 6 pairs (the fewest with an interval) is found
    durations "$work/double" 1 >"$work/d"
    hooked "$work/d" --runs 6 -- "$helper" 0
    check_stats "$work/double" "altmem slower: distinguishable from noise"
    ;;
failing_run)
    # pair 1 (runs 3 and 4, after the warm-up's 1 and 2) gets times far from the
    # rest: were the failed pair kept, the table's max and the statistics would show it
    pairs slower >"$work/slower"
    { echo "9 900"; sed 1d "$work/slower"; } >"$work/with_bad"
    sed 1d "$work/slower" >"$work/nine"
    durations "$work/with_bad" 1 >"$work/d"
    HELPER_COUNTER=$work/count HELPER_FAIL_AT=4 hooked "$work/d" --runs 10 -- "$helper" 0
    [ "$(cat "$work/rc")" = 3 ] || fail "exit status $(cat "$work/rc"), not the failing run's 3"
    grep -q '^  failed: run 4 (pair 1, C library): exit status 3: pair left out' "$work/err" ||
        fail "the failing run is not reported"
    [ "$(field failed_runs)" = 1 ] || fail "failed_runs=$(field failed_runs)"
    ! grep -q '900\.000 s\|9\.000 s' "$work/err" || fail "the failed pair's times are in the table"
    echo 0 >"$work/rc"   # the rest is check_stats's, which wants exit status 0
    check_stats "$work/nine" "altmem slower: distinguishable from noise"
    ;;
rejects_equal)
    detect equal
    [ "$(field distinguishable)" = no ] || fail "equal arms were called distinguishable"
    pairs slower >"$work/slower"
    control "verdict" slower_check
    ;;
rejects_direction)
    detect faster
    pairs slower >"$work/slower"
    control "verdict" slower_check
    ;;
rejects_ratio)
    detect slower10
    pairs slower >"$work/slower"
    control "ratio" slower_check
    ;;
rejects_interval)
    detect slower
    control "interval" slower_check 1
    control "interval" slower_check -1
    ;;
rejects_order)
    # compare reads run k's time from line k whatever arm it gives run k: times
    # written for ABAB land on the wrong arm in every other pair
    detect slower abab
    control "verdict" slower_check
    control "run order" check_order altmem abab
    ;;
adaptive_slower | adaptive_faster | rejects_adaptive_look | rejects_adaptive_equal)
    # 5% slower (faster) with noise, --until 2: the interval excludes 1 at look 3
    # (20 pairs), where the rule computed here stops: "altmem slower" (faster),
    # the exact figures at level 0.05/8, the 42 real runs in ABBA order
    kind=slower factor=1.05 seed=24 verdict="altmem slower: distinguishable from noise"
    if [ "$case" = adaptive_faster ]; then
        kind=faster factor=0.952380952 seed=44 verdict="altmem faster: distinguishable from noise"
    fi
    apairs "$factor" 0.05 "$seed" 100 >"$work/$kind"
    # (the data: a stop after more than one look, within the exact range)
    # shellcheck disable=SC2046
    set -- $(seqmodel 8 2 "$(schedule 100)" "$work/$kind")
    [ "$3" -gt 1 ] && [ "$4" -le 60 ] || fail "test data: the rule stops at look $3 ($4 pairs)"
    if [ "$case" = rejects_adaptive_equal ]; then
        adaptive equal "$seed" 1 0.05 2 100   # equal arms under the slower check
    else
        adaptive "$kind" "$seed" "$factor" 0.05 2 100
    fi
    case $case in
    rejects_adaptive_look)
        control "look" check_adaptive "$work/slower" "$verdict" 2 100 1
        control "look" check_adaptive "$work/slower" "$verdict" 2 100 -1
        ;;
    rejects_adaptive_equal) control "verdict" check_adaptive "$work/slower" "$verdict" 2 100 ;;
    *) check_adaptive "$work/$kind" "$verdict" 2 100 ;;
    esac
    ;;
adaptive_width)
    # equal arms, 2% noise per run, --aa --until 3: the interval lies within
    # [1/1.03, 1.03] at look 3 (20 pairs), where the rule says: "no difference
    # larger than 3%", the exact figures
    adaptive equal 26 1 0.02 3 100 --aa
    _arm=aa check_adaptive "$work/equal" "$(width_verdict 3)" 3 100
    ;;
adaptive_max)
    # 1% slower with 3% noise per run, --until 1 --max-pairs 25: neither a verdict
    # nor the width by 25 pairs (looks 10, 15, 20, 25: the maximum is a look, K = 4)
    adaptive max 49 1.01 0.03 1 25
    check_adaptive "$work/max" "not distinguishable from noise (the interval holds 1; --max-pairs reached)" 1 25
    ;;
adaptive_aa_rate | rejects_adaptive_unsplit)
    # 200 seeded A/A sets, --max-pairs 100 without --until (the width stop can only
    # end a set earlier, never add a verdict: this is the worst case): compare
    # stops on each where the rule computed here does, and with a verdict of
    # difference in no more sets than a 5% rate explains
    bulk 1 0.03 20261201 --aa
    if [ "$case" = adaptive_aa_rate ]; then
        agree_check 8 0
        rate_check "$work/compare_out" "compare, each look at 0.05/8"
        seqmodel 1 0 "$(schedule 100)" "$work/all" >"$work/unsplit"
        echo "(the same sets with every look at 0.05: $(awk '$5 == "yes"' "$work/unsplit" | wc -l) of $BULK: rejects_adaptive_unsplit)"
    else
        # negative controls: not splitting alpha (every look at 0.05, the rule
        # computed here on the same sets) must fail the rate check, and
        # compare's outcomes must fail the agreement with that rule
        seqmodel 1 0 "$(schedule 100)" "$work/all" >"$work/unsplit"
        control "A/A rate" rate_check "$work/unsplit" "every look at 0.05"
        control "rule" agree_check 1 0
    fi
    ;;
adaptive_power)
    # 200 seeded sets 5% slower, 7% noise per run (a pair's log ratio has sd 0.1:
    # an A/A interval of about +/-5% at 30 pairs, as measured on a real program),
    # --until 2: the rule's outcome on every set, and "altmem slower" found in 90%
    # of the sets at least, never "faster"
    bulk 1.05 0.07 20261202 --until 2
    agree_check 8 2
    awk '$5 == "yes" && $6 < 1 { s++; p += $4 } $5 == "yes" && $6 >= 1 { f++ }
        END { printf "%d %d %.1f\n", s, f, s ? p / s : 0 }' "$work/compare_out" >"$work/power"
    read -r slower faster mean <"$work/power"
    [ "$faster" = 0 ] && [ "$slower" -ge $((BULK * 9 / 10)) ] ||
        fail "power: $slower of $BULK sets found 'altmem slower' (at least $((BULK * 9 / 10)) needed), $faster 'faster'"
    echo "5% slower: found in $slower of $BULK sets, after $mean pairs on average"
    ;;
adaptive_options)
    # bad values: one line, exit 2, no run made
    for bad in "--until 0" "--until 0.0" "--until -1" "--until abc" "--until 50.5" "--until nan" "--until inf" \
        "--until 1e1" "--until 2%%" "--until ." "--until 1.2.3" "--until= " "--max-pairs 9" "--max-pairs 0" \
        "--max-pairs 1001" "--max-pairs x" "--max-pairs -5" "--until 2 --runs 10" "--runs 10 --max-pairs 20" \
        "--max-pairs 20 --runs 10"; do
        rm -f "$work/count"
        # shellcheck disable=SC2086
        HELPER_COUNTER=$work/count compare $bad -- "$helper" 0
        [ "$(cat "$work/rc")" = 2 ] || fail "'$bad': exit $(cat "$work/rc"), not 2"
        [ "$(wc -l <"$work/err")" = 1 ] && grep -q '^altmem compare: .*--\(until\|max-pairs\)' "$work/err" ||
            fail "'$bad': not one line naming the option"
        [ ! -e "$work/count" ] || fail "'$bad': runs were made"
    done
    # the hook's file holds one time per run of the most pairs, however many are used
    apairs 1 0.03 1 100 >"$work/p100"
    durations "$work/p100" 1 >"$work/d"
    for n in 22 201 203; do
        head -n $n "$work/d" >"$work/short"
        [ $n = 203 ] && echo 0.5 >>"$work/short"
        rm -f "$work/count"
        HELPER_COUNTER=$work/count ALTMEM_COMPARE_TEST_DURATIONS=$work/short compare --until 2 -- "$helper" 0
        [ "$(cat "$work/rc")" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] &&
            grep -qF "ALTMEM_COMPARE_TEST_DURATIONS=$work/short: $n durations for 202 runs (2 x (1 warm-up + 100 pairs, the most --max-pairs allows))" "$work/err" ||
            fail "a file of $n times for --max-pairs 100: $(cat "$work/err")"
        [ ! -e "$work/count" ] || fail "a file of $n times: runs were made"
    done
    # good values: --until 2.5% and 50, --max-pairs 10 (one look: the fixed
    # 10-pair compare, the same figures) and 1000 (15 looks)
    ALTMEM_COMPARE_TEST_NO_RUNS=1 hooked "$work/d" --aa --until 2.5% -- "$helper" 0
    [ "$(field until)" = 2.5 ] && [ "$(field schedule)" = "$(schedule 100)" ] || fail "--until 2.5%: $(result_fields)"
    ALTMEM_COMPARE_TEST_NO_RUNS=1 hooked "$work/d" --aa --until 50 -- "$helper" 0
    [ "$(field until)" = 50 ] && [ "$(field stopped)" = width ] || fail "--until 50: $(result_fields)"
    head -n 22 "$work/d" >"$work/d10"
    hooked "$work/d10" --aa --runs 10 -- "$helper" 0
    sed -n 's/^result: \(.*distinguishable=[a-z]*\).*/\1/p' "$work/err" >"$work/fixed10"
    hooked "$work/d10" --aa --max-pairs 10 -- "$helper" 0
    [ "$(field schedule)" = 10 ] && [ "$(field level)" = 0.05 ] && [ "$(field looks)" = 1 ] &&
        [ "$(sed -n 's/^result: \(.*distinguishable=[a-z]*\).*/\1/p' "$work/err")" = "$(cat "$work/fixed10")" ] ||
        fail "--max-pairs 10 is not the fixed 10-pair compare: $(sed -n 's/^result: //p' "$work/err") vs $(cat "$work/fixed10")"
    apairs 1 0.03 2 1000 >"$work/p1000"
    durations "$work/p1000" 1 >"$work/d1000"
    ALTMEM_COMPARE_TEST_NO_RUNS=1 hooked "$work/d1000" --aa --max-pairs 1000 -- "$helper" 0
    [ "$(field schedule)" = "$(schedule 1000)" ] && [ "$(schedule 1000)" = 10,15,20,30,40,60,80,100,150,200,300,400,600,800,1000 ] &&
        awk -v l="$(field level)" 'BEGIN { exit !(l == sprintf("%.6g", 0.05 / 15)) }' || fail "--max-pairs 1000: $(result_fields)"
    # a failing run (the 5th: pair 2's first) stops the runs at the next look
    # (look 1, 10 pairs): its pair left out, its exit status, stopped=failed
    rm -f "$work/count"
    HELPER_COUNTER=$work/count HELPER_FAIL_AT=5 hooked "$work/d" --aa --until 2 -- "$helper" 0
    [ "$(cat "$work/rc")" = 3 ] && [ "$(field stopped)" = failed ] && [ "$(field looks)" = 1 ] &&
        [ "$(field pairs)" = 9 ] && [ "$(field failed_runs)" = 1 ] && [ "$(cat "$work/count")" = 22 ] &&
        grep -q '^  failed: run 5 (pair 2, C library (A)): exit status 3: pair left out' "$work/err" &&
        grep -q '^  look 1 of 8: 10 pairs (9 completed): .*: a run failed: stop$' "$work/err" ||
        fail "a failing run: exit $(cat "$work/rc"), $(cat "$work/count") runs: $(result_fields)"
    # the runs-skipping knob is nothing without the hook: the runs are made
    rm -f "$work/count"
    ALTMEM_COMPARE_TEST_NO_RUNS=1 HELPER_COUNTER=$work/count compare --aa --runs 1 --warmup 0 -- "$helper" 0
    [ "$(cat "$work/count" 2>/dev/null)" = 2 ] && ! grep -q 'NOT MADE' "$work/err" || fail "ALTMEM_COMPARE_TEST_NO_RUNS without the hook skipped runs"
    # with the hook it is said, in the report and the result line
    ALTMEM_COMPARE_TEST_NO_RUNS=1 hooked "$work/d10" --aa --runs 10 -- "$helper" 0
    grep -q '^  runs:   NOT MADE: ALTMEM_COMPARE_TEST_NO_RUNS=1' "$work/err" && [ "$(field commands)" = not-run ] &&
        [ ! -s "$work/runs" ] || fail "the knob's runs were made, or not said"
    [ "$("$altmem" help compare)" = "$("$altmem" compare --help)" ] && "$altmem" compare --help | grep -q -- '--until PCT' &&
        "$altmem" compare --help | grep -q -- '--max-pairs N' || fail "--help does not list --until and --max-pairs"
    ;;
smoke)
    # The one test on the real clock: structure only, never a verdict (on a
    # loaded machine any verdict can turn).  The lower bound holds under any
    # load: a run is timed from before fork to after wait, around the sleep.
    : >"$work/runs"
    HELPER_RUN_LOG=$work/runs compare --runs 10 -- "$helper" 20
    [ "$(cat "$work/rc")" = 0 ] || fail "exit status $(cat "$work/rc")"
    [ "$(field pairs)" = 10 ] && [ "$(field failed_runs)" = 0 ] || fail "pairs=$(field pairs) failed_runs=$(field failed_runs)"
    grep -q '^altmem compare: 10 pairs (+1 warm-up), order ABBA: ' "$work/err" || fail "no header line"
    grep -q 'method: Hodges-Lehmann estimate and Wilcoxon signed-rank interval' "$work/err" || fail "no method line"
    grep -q '^  verdict: ' "$work/err" || fail "no verdict line"
    ! grep -q 'NOT MEASURED' "$work/err" && [ -z "$(field durations)" ] || fail "the report says the times were not measured"
    check_order altmem
    for arm in 'C library' altmem; do
        med=$(sed -n "s/^  $arm  *\([0-9.]*\) \(m*s\) .*/\1 \2/p" "$work/err")
        awk -v v="${med% *}" -v u="${med#* }" 'BEGIN { exit !(v != "" && (u == "s" ? v * 1000 : v) >= 20) }' ||
            fail "$arm: median wall '$med', less than the 20 ms the helper sleeps"
    done
    ;;
hook_errors)
    printf '1\n' >"$work/one"
    seq 23 >"$work/many"
    : >"$work/empty"
    awk 'BEGIN { for (i = 0; i < 300; i++) printf "1"; print "" }' >"$work/long"
    printf '1X2\n' | tr X '\000' >"$work/nul"
    printf '\001\002\377\n' >"$work/binary"
    for bad in "missing:No such file" "dir:Is a directory" "empty:0 durations for 22 runs" \
        "one:1 duration for 22 runs" "many:23 durations for 22 runs (2 x (1 warm-up + 10 pairs))" \
        "abc:line 11: 'abc' is not a duration" "0:'0' is not" "-1:'-1' is not" "+1:'+1' is not" "nan:'nan' is not" \
        "inf:'inf' is not" "1e999:'1e999' is not" "0x1p3:'0x1p3' is not" "1.0x:'1.0x' is not" "1.2.3:'1.2.3' is not" \
        "long:line 1: '1111" "nul:'1?2' is not" "binary:'???' is not"; do
        name=${bad%%:*} want=${bad#*:}
        f=$work/$name
        case $name in
        missing) f=$work/no-such-file ;;
        dir) f=$work ;;
        one | many | empty | long | nul | binary) ;;
        *) { seq 10; echo "$name"; seq 11; } >"$f" ;;
        esac
        rm -f "$work/count"
        HELPER_COUNTER=$work/count ALTMEM_COMPARE_TEST_DURATIONS=$f compare --aa --runs 10 -- "$helper" 0
        [ "$(cat "$work/rc")" = 2 ] || fail "$name: exit status $(cat "$work/rc"), not 2"
        [ "$(wc -l <"$work/err")" = 1 ] && grep -qF "altmem compare: ALTMEM_COMPARE_TEST_DURATIONS=$f: " "$work/err" &&
            grep -qF "$want" "$work/err" ||
            fail "$name: not one line with '$want'"
        [ ! -e "$work/count" ] || fail "$name: runs were made before the file was rejected"
    done
    # what is not a time: comments, blank lines, CR line ends, blanks around it
    pairs slower >"$work/slower"
    { echo "# warm-up"; printf '0.5\r\n\n  0.5\t\n'; durations "$work/slower" 1 | sed 1,2d | awk '{ print NR % 3 ? $0 : $0 "\r" }'
    } >"$work/d"
    hooked "$work/d" --aa --runs 10 -- "$helper" 0
    check_stats "$work/slower" "B slower: distinguishable from noise"
    # an empty value is no file: the hook is off
    ALTMEM_COMPARE_TEST_DURATIONS='' "$altmem" compare --aa --runs 1 --warmup 0 -- "$helper" 0 >"$work/out" 2>"$work/err"
    echo $? >"$work/rc"
    [ "$(cat "$work/rc")" = 0 ] && ! grep -q 'NOT MEASURED' "$work/err" || fail "an empty value turned the hook on"
    ;;
hook_secure)
    # As ALTMEM_TUNABLES (tests/test_setuid.sh): whoever runs a setuid altmem
    # must not choose what it reports.  The same copy without the setuid bit is
    # the control: as the same user, with the same file, the hook is on.
    skip() { echo "SKIPPED ($case): $*"; exit 77; }
    [ -z "${ALTMEM_TEST_EMULATOR:-}" ] || skip "cross build: the kernel applies the setuid bit to the emulator"
    [ "$(id -u)" = 0 ] || skip "not running as root (a root-owned setuid file is needed)"
    command -v setpriv >/dev/null 2>&1 || skip "setpriv (util-linux) not found"
    ! grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status 2>/dev/null || skip "no_new_privs is set: setuid bits are ignored"
    dir=$(mktemp -d "${TMPDIR:-/tmp}/altmem-compare-suid.XXXXXX") || exit 1
    trap 'rm -rf "$work" "$dir"' EXIT
    chmod 755 "$dir"
    case ",$(findmnt -n -o OPTIONS -T "$dir" 2>/dev/null)," in
    *,nosuid,*) skip "$dir is on a nosuid filesystem; set TMPDIR elsewhere" ;;
    esac
    as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
    [ "$(as_nobody id -u 2>/dev/null)" = 65534 ] || skip "setpriv cannot switch to uid 65534 here"
    cp "$altmem" "$dir/plain" && cp "$altmem" "$dir/suid" && chown 0:0 "$dir/plain" "$dir/suid" &&
        chmod 755 "$dir/plain" && chmod 4755 "$dir/suid" || exit 1
    printf '1\n1\n' >"$dir/d" && chmod 644 "$dir/d" || exit 1
    for copy in plain suid; do
        (cd / && ALTMEM_COMPARE_TEST_DURATIONS=$dir/d setpriv --reuid=65534 --regid=65534 --clear-groups \
            "$dir/$copy" compare --runs 1 --warmup 0 --cmd-b /bin/true -- /bin/true) >"$work/out" 2>"$work/err"
        echo $? >"$work/rc"
        [ "$(cat "$work/rc")" = 0 ] || {
            [ $copy = suid ] && grep -qi 'sanitizer\|asan' "$work/err" && skip "the sanitizer runtime does not run setuid"
            fail "$copy: exit status $(cat "$work/rc")"
        }
        if [ $copy = plain ]; then
            grep -q 'NOT MEASURED' "$work/err" && [ "$(field durations)" = injected ] ||
                fail "control: the hook was ignored in an ordinary process"
        else
            ! grep -q 'NOT MEASURED' "$work/err" && [ -z "$(field durations)" ] ||
                fail "a setuid altmem used the hook's times"
        fi
    done
    ;;
io)
    printf 'hello, compare\n' | "$altmem" compare --runs 2 -- "$helper" 1 >"$work/out" 2>"$work/err"
    rc=$?
    [ $rc = 0 ] || fail "exit status $rc"
    [ "$(cat "$work/out")" = "stdin 15 bytes" ] || fail "stdout is '$(cat "$work/out")', not the first run's output once"
    [ "$(grep -c '^helper stderr$' "$work/err")" = 1 ] || fail "CMD's stderr not written exactly once"
    grep -q 'every run wrote the same stdout and stderr' "$work/err" || fail "a run saw other input or wrote other output"
    "$altmem" compare --no-stdin --runs 1 -- "$helper" 1 </etc/passwd >"$work/out" 2>"$work/err"
    [ "$(cat "$work/out")" = "stdin 0 bytes" ] || fail "--no-stdin: '$(cat "$work/out")'"
    ;;
output_differs)
    HELPER_COUNTER=$work/count HELPER_PRINT_COUNT=1 compare --runs 2 -- "$helper" 1
    [ "$(grep -c 'wrote a different stdout from run 1' "$work/err")" = 5 ] || fail "not all 5 differing runs named"
    grep -q '^run 1$' "$work/out" || fail "stdout is not the first run's"
    ;;
env)
    : >"$work/log"
    HELPER_ENV_LOG=$work/log compare --runs 2 --variant generic -- "$helper" 1
    lib=$(sed -n 's/^  altmem: \([^,]*\).*/\1/p' "$work/err")
    [ -n "$lib" ] || fail "the report does not name the library"
    grep -q "pinned: all=generic" "$work/err" || fail "the report does not say what was pinned"
    [ "$(grep -c "^LD_PRELOAD=$lib ALTMEM_TUNABLES=all=generic$" "$work/log")" = 3 ] &&
        [ "$(grep -c '^LD_PRELOAD= ALTMEM_TUNABLES=$' "$work/log")" = 3 ] || { cat "$work/log"; fail "the arms' environments"; }
    # a preloaded altmem (and the user's ALTMEM_TUNABLES) must not leak into the C library arm
    : >"$work/log"
    LD_PRELOAD=$lib ALTMEM_TUNABLES=verbose HELPER_ENV_LOG=$work/log compare --runs 2 --variant generic -- "$helper" 1
    [ "$(grep -c "^LD_PRELOAD=$lib ALTMEM_TUNABLES=verbose:all=generic$" "$work/log")" = 3 ] &&
        [ "$(grep -c '^LD_PRELOAD= ALTMEM_TUNABLES=verbose$' "$work/log")" = 3 ] || { cat "$work/log"; fail "with LD_PRELOAD set"; }
    ;;
status)
    compare --runs 1 --warmup 0 -- sh -c 'exit 7'
    [ "$(cat "$work/rc")" = 7 ] || fail "exit 7 came back as $(cat "$work/rc")"
    compare --runs 1 --warmup 0 -- sh -c 'kill -9 $$'
    [ "$(cat "$work/rc")" = 137 ] && grep -q 'killed by signal 9' "$work/err" || fail "signal 9: $(cat "$work/rc")"
    compare --runs 1 -- altmem-no-such-command
    [ "$(cat "$work/rc")" = 127 ] && grep -qx 'altmem compare: altmem-no-such-command: command not found' "$work/err" ||
        fail "a missing command: $(cat "$work/rc")"
    for bad in "--runs 0" "--runs x" "--runs 1001" "--runs" "--warmup -1" "--variant nosuch" "--frobnicate" "--aa --variant generic" "--cmd-b=" "--aa --cmd-b true"; do
        # shellcheck disable=SC2086
        compare $bad -- true
        [ "$(cat "$work/rc")" = 2 ] || fail "'$bad': exit $(cat "$work/rc"), not 2"
        [ "$(wc -l <"$work/err")" = 1 ] && grep -q '^altmem compare: ' "$work/err" || fail "'$bad': not one line"
    done
    compare --runs 2
    [ "$(cat "$work/rc")" = 2 ] && grep -q 'no command given' "$work/err" || fail "no command"
    [ "$("$altmem" help compare)" = "$("$altmem" compare --help)" ] || fail "help compare differs from compare --help"
    ;;
*)
    echo "unknown case $case"; exit 2 ;;
esac
echo "ok ($case): $(grep '^result:' "$work/err" 2>/dev/null)"
