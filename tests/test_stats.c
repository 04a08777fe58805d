/*
 * The statistics `altmem compare` and `altmem index` report on
 * (bench/stats.c), checked against published values: the critical values of
 * the Wilcoxon signed-rank test (two-sided 5%, the tables in every statistics
 * text, e.g. NIST/SEMATECH e-Handbook, 7.2.3), exact p-values that follow from
 * the definition, and the behaviour at the edges (too few pairs, all zero).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

static int failures;
#define CHECK(cond, ...)                                                                                              \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                               \
            printf(__VA_ARGS__);                                                                                      \
            printf("\n");                                                                                             \
            failures++;                                                                                               \
        }                                                                                                             \
    } while (0)

int main(void)
{
    /* n = 6..20: reject when W <= this (two-sided 0.05) */
    static const long crit[] = {0, 2, 3, 5, 8, 10, 13, 17, 21, 25, 29, 34, 40, 46, 52};
    double d[100];
    struct bench_signed_rank sr;
    for (size_t n = 6; n <= 20; n++) {
        for (size_t i = 0; i < n; i++)
            d[i] = ldexp(1, (int)i) * (i % 2 ? -1 : 1);   /* distinct Walsh averages */
        bench_signed_rank(d, n, 0.05, &sr);
        CHECK(sr.exact && sr.bounded && sr.cut == crit[n - 6], "n=%zu: cut %ld, table %ld", n, sr.cut, crit[n - 6]);
        CHECK(sr.coverage >= 0.95 && sr.coverage < 0.99, "n=%zu: coverage %.4f", n, sr.coverage);
    }
    for (size_t n = 1; n <= 5; n++) {
        bench_signed_rank(d, n, 0.05, &sr);
        CHECK(!sr.bounded && sr.cut == -1, "n=%zu: an interval from too few pairs", n);
    }
    /* all ten positive: W+ = 55, P = 2 / 2^10 */
    for (size_t i = 0; i < 10; i++)
        d[i] = 0.05 + 0.001 * (double)i;
    bench_signed_rank(d, 10, 0.05, &sr);
    CHECK(fabs(sr.p - 2.0 / 1024) < 1e-12, "all positive: p %.6f, want %.6f", sr.p, 2.0 / 1024);
    CHECK(sr.lo > 0 && sr.lo < sr.estimate && sr.estimate < sr.hi, "all positive: %g [%g, %g]", sr.estimate, sr.lo,
          sr.hi);
    CHECK(fabs(sr.estimate - 0.0545) < 1e-9, "Hodges-Lehmann of 0.050..0.059: %.6f", sr.estimate);
    /* identical arms: nothing to distinguish */
    for (size_t i = 0; i < 10; i++)
        d[i] = 0;
    bench_signed_rank(d, 10, 0.05, &sr);
    CHECK(sr.lo <= 0 && sr.hi >= 0 && sr.p == 1, "all zero: [%g, %g] p %g", sr.lo, sr.hi, sr.p);
    /* alternating signs of growing size (the A/A pattern of test_compare.sh) */
    for (size_t i = 0; i < 10; i++)
        d[i] = (double)(i + 1) * (i % 2 ? 1 : -1);
    bench_signed_rank(d, 10, 0.05, &sr);
    CHECK(sr.lo < 0 && sr.hi > 0 && sr.p > 0.5, "alternating: [%g, %g] p %g", sr.lo, sr.hi, sr.p);
    /* the normal approximation above 60 pairs agrees with the exact test near it */
    struct bench_signed_rank ex, ap;
    for (size_t i = 0; i < 61; i++)
        d[i] = (double)i - 20.5;
    bench_signed_rank(d, 60, 0.05, &ex);
    bench_signed_rank(d, 61, 0.05, &ap);
    CHECK(ex.exact && !ap.exact, "exact up to 60 pairs only");
    CHECK(fabs(ex.p - ap.p) < 0.05 && ap.bounded && labs(ap.cut - ex.cut) <= 40, "60 vs 61 pairs: p %g vs %g, cut %ld vs %ld",
          ex.p, ap.p, ex.cut, ap.cut);
    double v[] = {5, 1, 4, 2, 3};
    CHECK(bench_median(v, 5) == 3 && bench_median(v, 4) == 2.5, "median");
    /* 20% of 10 is 2 from each end: {3..8} remain; one wild value is dropped */
    double t[] = {8, 1, 7, 2, 6, 3, 5, 4, 1000, 0};
    CHECK(fabs(bench_trimmed_mean(t, 10, 0.2) - 4.5) < 1e-12, "trimmed mean %g", bench_trimmed_mean(t, 10, 0.2));
    double steps[] = {5, 6, 5, 6, 6, 5, 6, 6, 5, 6}; /* samples on two steps: between them, not on one */
    double tm = bench_trimmed_mean(steps, 10, 0.2);
    CHECK(tm > 5.4 && tm < 5.8, "trimmed mean of steps %g", tm);
    double one[] = {7};
    CHECK(bench_trimmed_mean(one, 1, 0.2) == 7 && bench_trimmed_mean(t, 3, 0.5) == t[1], "trimmed mean, few values");
    if (!failures)
        printf("stats: signed-rank critical values n=6..20, p-values, edges: ok\n");
    return failures != 0;
}
