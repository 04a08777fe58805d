/* Shared by `altmem index` and `altmem compare`: tools/measure.h. */
#define _GNU_SOURCE
#include "measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The value after "key<tabs>: " on the first line of /proc/cpuinfo that has it. */
static int cpuinfo_field(const char *text, const char *key, char *out, size_t len)
{
    size_t klen = strlen(key);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (strncmp(line, key, klen) || (line[klen] != '\t' && line[klen] != ' ' && line[klen] != ':'))
            continue;
        const char *colon = strchr(line, ':');
        const char *eol = strchr(line, '\n');
        if (!colon || (eol && colon > eol))
            continue;
        colon++;
        while (*colon == ' ')
            colon++;
        size_t n = eol ? (size_t)(eol - colon) : strlen(colon);
        snprintf(out, len, "%.*s", (int)n, colon);
        return 0;
    }
    return -1;
}

void measure_cpu_model(char *buf, size_t len)
{
    static char text[16384];
    size_t got = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        /* The first processor's block is all that is needed. */
        got = fread(text, 1, sizeof text - 1, f);
        fclose(f);
    }
    text[got] = '\0';
    char model[160] = "", fam[16] = "", mod[16] = "", step[16] = "";
    if (cpuinfo_field(text, "model name", model, sizeof model) != 0)
        cpuinfo_field(text, "cpu model", model, sizeof model);   /* loongarch, mips */
    cpuinfo_field(text, "cpu family", fam, sizeof fam);
    cpuinfo_field(text, "model", mod, sizeof mod);
    cpuinfo_field(text, "stepping", step, sizeof step);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (!model[0])
        snprintf(model, sizeof model, "unknown model");
    if (fam[0])
        snprintf(buf, len, "%s (family %s model %s stepping %s), %ld online CPUs", model, fam, mod, step, cpus);
    else
        snprintf(buf, len, "%s, %ld online CPUs", model, cpus);
}

int measure_emulator(char *buf, size_t len)
{
    char path[64], exe[4096];
    snprintf(path, sizeof path, "/proc/thread-self/exe");
    ssize_t n = readlink(path, exe, sizeof exe - 1);
    if (n < 0) {
        /* kernels before 3.17 have no thread-self */
        snprintf(path, sizeof path, "/proc/self/task/%ld/exe", (long)syscall(SYS_gettid));
        n = readlink(path, exe, sizeof exe - 1);
    }
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    if (strncmp(base, "qemu-", 5))
        return 0;
    snprintf(buf, len, "%s", exe);
    return 1;
}

void measure_load(char *buf, size_t len)
{
    double l[3];
    if (getloadavg(l, 3) == 3)
        snprintf(buf, len, "%.2f %.2f %.2f", l[0], l[1], l[2]);
    else
        snprintf(buf, len, "unknown");
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

int measure_signed_rank(const double *d, size_t n, double alpha, struct measure_signed_rank *out)
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
