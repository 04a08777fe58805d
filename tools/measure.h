/*
 * What `altmem index` and `altmem compare` share (tools/measure.c): the
 * machine's description for the report and the paired rank test both use to
 * say whether a difference is more than noise.  The clock and the median are
 * the benchmarks' (bench/benchlib.h, included here for them).
 */
#ifndef ALTMEM_TOOLS_MEASURE_H
#define ALTMEM_TOOLS_MEASURE_H

#include <stddef.h>

#include "benchlib.h"

/* "AMD EPYC (family 26 model 2 stepping 1), 2 online CPUs" from /proc/cpuinfo
   (the arch name where it has no model name). */
void measure_cpu_model(char *buf, size_t len);

/* 1 when this process runs under an emulator (qemu-user), its path in buf:
   qemu shows the guest program as /proc/self/exe but not as
   /proc/thread-self/exe, which is the emulator itself.  0 otherwise. */
int measure_emulator(char *buf, size_t len);

/* "0.52 0.61 0.70" (1, 5, 15 min), or "unknown". */
void measure_load(char *buf, size_t len);

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
struct measure_signed_rank {
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
int measure_signed_rank(const double *d, size_t n, double alpha, struct measure_signed_rank *out);

#endif
