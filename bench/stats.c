/* The statistics of the measuring kit (stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_sort(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
}

double bench_quantile(const double *sorted, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)pos;
    if (i + 1 >= n)
        return sorted[n - 1];
    return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

double bench_median(double *v, int n)
{
    bench_sort(v, n);
    return bench_quantile(v, n, 0.5);
}

void bench_summarise(double *v, int n, struct bench_stats *st)
{
    bench_sort(v, n);
    st->min = v[0];
    st->max = v[n - 1];
    st->med = bench_quantile(v, n, 0.5);
    st->q1 = bench_quantile(v, n, 0.25);
    st->q3 = bench_quantile(v, n, 0.75);
}

double bench_trimmed_mean(double *v, int n, double frac)
{
    bench_sort(v, n);
    int cut = (int)(n * frac);
    if (n - 2 * cut < 1)
        cut = (n - 1) / 2;
    double s = 0;
    for (int i = cut; i < n - cut; i++)
        s += v[i];
    return s / (n - 2 * cut);
}

double bench_geomean(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += log(v[i]);
    return exp(s / n);
}

/* P(W+ <= w) for every w in 0..M under the null (each sign equally likely):
   the subset-sum counts of {1..n}, as probabilities so that n = 60 fits. */
static double *exact_cdf(size_t n)
{
    size_t m = n * (n + 1) / 2;
    double *p = calloc(m + 1, sizeof *p);
    if (!p)
        return NULL;
    p[0] = 1;
    for (size_t k = 1; k <= n; k++)
        for (size_t w = k * (k + 1) / 2 + 1; w-- > 0;)
            p[w] = (p[w] + (w >= k ? p[w - k] : 0)) / 2;
    for (size_t w = 1; w <= m; w++)
        p[w] += p[w - 1];
    return p;
}

static double normal_cdf(double z)
{
    return 0.5 * erfc(-z / sqrt(2));
}

int bench_signed_rank(const double *d, size_t n, double alpha, struct bench_signed_rank *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    out->lo = -INFINITY;
    out->hi = INFINITY;
    out->p = 1;
    out->cut = -1;
    if (!n)
        return 0;
    if (n > 10000)
        return -1;
    size_t m = n * (n + 1) / 2;
    double *walsh = malloc(m * sizeof *walsh);
    if (!walsh)
        return -1;
    size_t k = 0;
    /* Tukey: W+ is the number of positive Walsh averages (ties count half), so
       the interval and the p-value below are one test, never disagreeing. */
    double wplus = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++) {
            double a = (d[i] + d[j]) / 2;
            walsh[k++] = a;
            wplus += a > 0 ? 1 : a == 0 ? 0.5 : 0;
        }
    out->estimate = bench_median(walsh, (int)m);   /* sorts walsh */

    /* c: the largest count with P(W+ <= c) <= alpha / 2. */
    long c = -1;
    double tail_c = 0, p_low, p_high;
    if (n <= 60) {
        double *cdf = exact_cdf(n);
        if (!cdf) {
            free(walsh);
            return -1;
        }
        out->exact = 1;
        for (size_t w = 0; w <= m && cdf[w] <= alpha / 2; w++) {
            c = (long)w;
            tail_c = cdf[w];
        }
        /* Ties give half-integer W+: take the conservative side. */
        size_t wl = (size_t)floor(wplus), wh = (size_t)ceil(wplus);
        p_low = cdf[wh];                           /* P(W <= ceil(w)) */
        p_high = wl ? 1 - cdf[wl - 1] : 1;         /* P(W >= floor(w)) */
        free(cdf);
    } else {
        double mean = (double)m / 2, sd = sqrt((double)n * (n + 1) * (2 * n + 1) / 24);
        /* the largest c whose continuity-corrected tail stays within alpha/2 */
        for (double w = floor(mean); w >= 0; w--)
            if (normal_cdf((w + 0.5 - mean) / sd) <= alpha / 2) {
                c = (long)w;
                tail_c = normal_cdf((w + 0.5 - mean) / sd);
                break;
            }
        p_low = normal_cdf((wplus + 0.5 - mean) / sd);
        p_high = 1 - normal_cdf((wplus - 0.5 - mean) / sd);
    }
    double p = 2 * (p_low < p_high ? p_low : p_high);
    out->p = p > 1 ? 1 : p;
    out->cut = c;
    if (c >= 0) {
        out->bounded = 1;
        out->lo = walsh[c];
        out->hi = walsh[m - 1 - (size_t)c];
        out->coverage = 1 - 2 * tail_c;
    }
    free(walsh);
    return 0;
}
