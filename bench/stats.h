/*
 * The statistics every benchmark and tool here reports with (bench/stats.c):
 * order statistics and the summary of a set of samples, the geometric mean,
 * and the paired rank test `altmem index` and `altmem compare` use to say
 * whether a difference is more than noise.  Part of the measuring kit
 * (benchlib.h includes this); nothing here reads a clock.
 */
#ifndef ALTMEM_BENCH_STATS_H
#define ALTMEM_BENCH_STATS_H

#include <stddef.h>

/* ---- Order statistics and summaries ------------------------------------- */

struct bench_stats {
    double med, min, max, q1, q3;
};

void bench_sort(double *v, int n);
/* Linear interpolation between the closest ranks of a sorted array. */
double bench_quantile(const double *sorted, int n, double q);
/* These sort v in place. */
double bench_median(double *v, int n);
void bench_summarise(double *v, int n, struct bench_stats *st);
/* The mean of what is left when the lowest and the highest frac * n values
   (rounded down) are dropped: a median's robustness to a few disturbed
   samples, and an average's resolution when samples fall on a few discrete
   steps (docs/performance.md, "Method").  Sorts v. */
double bench_trimmed_mean(double *v, int n, double frac);
double bench_geomean(const double *v, int n);

/* ---- The paired rank test ----------------------------------------------- */

/*
 * Wilcoxon signed-rank analysis of n paired differences d[] (for example log
 * time ratios): the Hodges-Lehmann estimate of their centre (the median of the
 * n(n+1)/2 Walsh averages) and the distribution-free confidence interval of
 * Walsh averages number c+1 and M-c, c the largest count with
 * P(W+ <= c) <= alpha/2 under the null.  Exact null distribution up to 60
 * pairs, the normal approximation above.  Zero differences are kept (ranked
 * with the rest), so an A/A run of identical values gives a zero-width interval
 * at 0, which does not exclude 0.
 */
struct bench_signed_rank {
    size_t n;
    double estimate;     /* Hodges-Lehmann */
    double lo, hi;       /* the interval; -inf/+inf when n is too small to reach it */
    double coverage;     /* the interval's exact confidence, 1 - 2 P(W+ <= c) */
    double p;            /* two-sided p-value of "centre = 0" */
    long cut;            /* c: Walsh averages left out at each end (-1: unbounded) */
    int bounded;         /* 0: too few pairs for any interval at this alpha */
    int exact;           /* 1: exact null distribution, 0: normal approximation */
};
/* 0, or -1 when out of memory or n > 10000 (n(n+1)/2 Walsh averages must fit
   bench_median's int count). */
int bench_signed_rank(const double *d, size_t n, double alpha, struct bench_signed_rank *out);

#endif
