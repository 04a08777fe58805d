/*
 * altmem bench --scalar-effect: what a copy costs the code around it.
 *
 * On some CPUs (Intel Skylake-SP through Ice Lake-SP) 512-bit loads and stores
 * lower the core clock, for about 0.7 ms after the last one, so a copy that is
 * fast on its own makes the scalar code that follows it slower.  A copy
 * benchmark does not see that; a program does.  This one interleaves copies of
 * a given size with a fixed block of scalar work (a chain of dependent integer
 * multiply-adds: its time is cycles / clock) and reports the time of the scalar
 * block next to each memcpy variant and glibc's, relative to the same block run
 * alone.  1.00 = the copy left the scalar code alone; 1.10 = 10% slower.
 *
 * Method: for each size and sample length, rounds of every implementation in a
 * rotating order (A B C, B C A, ...), each sample preceded by 2 ms of scalar
 * work alone (so the clock state a previous sample left has decayed), median
 * of the rounds; pinned to one CPU.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench_run.h"
#include "benchlib.h"

struct sc_impl {
    const char *name;
    altmem_memcpy_fn *fn; /* NULL: the scalar block alone */
};

/* The scalar block: `work` dependent multiply-adds (an LCG step each). */
static __attribute__((noinline)) uint64_t scalar_block(uint64_t x, unsigned work)
{
    for (unsigned i = 0; i < work; i++) {
        x = x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        __asm__("" : "+r"(x));
    }
    return x;
}

static uint64_t sink;

/* One sample: for about ms milliseconds, copy then run the block; returns the
   mean time of the block in ns. */
static double sample(const struct sc_impl *im, unsigned char *dst, const unsigned char *src, size_t n, unsigned work,
                     double ms)
{
    uint64_t x = sink | 1;
    double settle_end = bench_now_ns() + 2e6;
    while (bench_now_ns() < settle_end)
        x = scalar_block(x, work);
    double end = bench_now_ns() + ms * 1e6, in_block = 0;
    unsigned long blocks = 0;
    for (;;) {
        if (im->fn)
            im->fn(dst, src, n);
        double t0 = bench_now_ns();
        x = scalar_block(x, work);
        double t1 = bench_now_ns();
        in_block += t1 - t0;
        blocks++;
        if (t1 >= end)
            break;
    }
    sink = x;
    return in_block / (double)blocks;
}

/* What one cell's samples need, for bench_interleave. */
struct cell_sample {
    const struct sc_impl *ims;
    unsigned char *dst;
    const unsigned char *src;
    size_t n;
    unsigned work;
    double ms;
};

/* A round's sample of implementation k. */
static double cell_sample(void *p, int k)
{
    const struct cell_sample *c = p;
    return sample(&c->ims[k], c->dst, c->src, c->n, c->work, c->ms);
}

static size_t parse_size(const char *s, int *ok)
{
    char *e;
    errno = 0;
    unsigned long long v = strtoull(s, &e, 10);
    unsigned shift = 0;
    if (*e == 'K' || *e == 'k')
        shift = 10, e++;
    else if (*e == 'M' || *e == 'm')
        shift = 20, e++;
    *ok = e != s && *e == '\0' && errno == 0 && v > 0 && v <= (1ull << 30) >> shift;
    return (size_t)(v << shift);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: altmem bench --scalar-effect [--sizes LIST] [--sample-ms LIST] [--work N] [--reps N] [--cpu N]\n"
               "  --sizes LIST       memcpy sizes, comma list with K/M suffixes (default 4K,64K,1M)\n"
               "  --sample-ms LIST   sample lengths in milliseconds (default 0.2,1,5)\n"
               "  --work N           multiply-adds per scalar block (default 4096)\n"
               "  --reps N           rounds (default 9)\n"
               "  --cpu N            pin to CPU N (default: the highest-numbered allowed CPU)\n");
}

/* One --scalar-effect command, from its parse to its report. */
struct scalar_effect {
    size_t sizes[8];
    int nsizes;
    double mss[8]; /* sample lengths, ms */
    int nms, reps, cpu;
    unsigned work;
    struct sc_impl ims[24]; /* [0] the block alone, [1] the C library's, then altmem's variants */
    int nim;
    unsigned char *buf, *src, *dst;
    size_t buf_len;
    double *t; /* reps samples of each implementation */
    double worst;
    const char *worst_name;
};

/* --sizes or --sample-ms LIST (a comma list, at most 8): into sizes or mss. */
static int parse_list(struct scalar_effect *se, const char *a, const char *v)
{
    int is_sizes = a[2] == 's' && a[3] == 'i';
    char buf[256];
    snprintf(buf, sizeof buf, "%s", v);
    int k = 0;
    for (char *tok = strtok(buf, ","); tok && k < 8; tok = strtok(NULL, ","), k++) {
        int ok = 1;
        if (is_sizes) {
            se->sizes[k] = parse_size(tok, &ok);
        } else {
            char *e;
            se->mss[k] = strtod(tok, &e);
            ok = e != tok && *e == '\0' && se->mss[k] > 0 && se->mss[k] <= 1000;
        }
        if (!ok) {
            fprintf(stderr, "altmem bench --scalar-effect: bad %s '%s'\n", a, tok);
            return 2;
        }
    }
    if (is_sizes)
        se->nsizes = k;
    else
        se->nms = k;
    return BENCH_GO_ON;
}

/* --work, --reps or --cpu N. */
static int parse_number(struct scalar_effect *se, const char *a, const char *v)
{
    char *e;
    long x = strtol(v, &e, 10);
    if (e == v || *e || x < (a[2] == 'c' ? 0 : 1) || x > 1000000) {
        fprintf(stderr, "altmem bench --scalar-effect: bad %s '%s'\n", a, v);
        return 2;
    }
    if (a[2] == 'w')
        se->work = (unsigned)x;
    else if (a[2] == 'r')
        se->reps = (int)x;
    else
        se->cpu = (int)x;
    return BENCH_GO_ON;
}

int bench_mode_scalar_effect_parse(struct bench_job *job)
{
    static struct scalar_effect se = {
        .sizes = {4096, 65536, 1 << 20}, .nsizes = 3, .mss = {0.2, 1, 5}, .nms = 3, .reps = 9, .cpu = -1, .work = 4096,
    };
    job->mode_data = &se;
    for (int i = 1; i < job->argc; i++) {
        const char *a = job->argv[i], *v = i + 1 < job->argc ? job->argv[i + 1] : NULL;
        if (!strcmp(a, "--scalar-effect"))
            continue;
        if (!strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!v) {
            fprintf(stderr, "altmem bench --scalar-effect: %s needs a value (or is unknown)\n", a);
            usage(stderr);
            return 2;
        }
        i++;
        int rc;
        if (!strcmp(a, "--sizes") || !strcmp(a, "--sample-ms")) {
            rc = parse_list(&se, a, v);
        } else if (!strcmp(a, "--work") || !strcmp(a, "--reps") || !strcmp(a, "--cpu")) {
            rc = parse_number(&se, a, v);
        } else {
            fprintf(stderr, "altmem bench --scalar-effect: unknown option %s\n", a);
            usage(stderr);
            rc = 2;
        }
        if (rc != BENCH_GO_ON)
            return rc;
    }
    return BENCH_GO_ON;
}

/* What is timed: the block alone, after the C library's memcpy and after each
   of altmem's runnable memcpy variants but generic; and the buffers. */
static int prepare(struct scalar_effect *se)
{
    se->nim = 0;
    se->ims[se->nim++] = (struct sc_impl){"alone", NULL};
    se->ims[se->nim++] = (struct sc_impl){"glibc", bench_routine_libc(ALTMEM_MEMCPY).memcpy};
    for (size_t i = 0; i < altmem_variant_count() && se->nim < 24; i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) == 0 && v.routine == ALTMEM_MEMCPY && v.runnable &&
            strcmp(v.name, "generic") != 0)
            se->ims[se->nim++] = (struct sc_impl){v.name, v.fn.memcpy};
    }
    size_t maxn = 0;
    for (int i = 0; i < se->nsizes; i++)
        maxn = se->sizes[i] > maxn ? se->sizes[i] : maxn;
    se->buf_len = 2 * maxn + 8192;
    se->buf = mmap(NULL, se->buf_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (se->buf == MAP_FAILED) {
        perror("altmem bench --scalar-effect: mmap");
        return 1;
    }
    memset(se->buf, 0x5a, se->buf_len);
    se->src = se->buf;
    se->dst = se->buf + maxn + 4096;
    return BENCH_GO_ON;
}

static void print_scalar_header(const struct scalar_effect *se)
{
    struct altmem_cpu_info ci;
    altmem_cpu(&ci);
    struct altmem_binding_info bi;
    altmem_binding(ALTMEM_MEMCPY, &bi);
    printf("altmem bench --scalar-effect (altmem %s)\n", ALTMEM_VERSION_STRING);
    printf("cpu:      %s, %s; pinned to CPU %d\n", ci.arch, ci.notes ? ci.notes : "", se->cpu);
    printf("bound:    memcpy=%s\n", bi.variant);
    printf("method:   memcpy of SIZE, then %u dependent multiply-adds (the scalar block), repeated for one\n"
           "          sample; each sample after 2 ms of scalar work alone; %d rounds, rotating order, median.\n"
           "          Shown: the scalar block's time next to each copy / its time alone (1.00 = unaffected)\n",
           se->work, se->reps);
    printf("\n%-8s %-8s | %10s", "size", "sample", "alone ns");
    for (int k = 1; k < se->nim; k++)
        printf(" | %11s", se->ims[k].name);
    printf("\n");
}

/* One row of the table: size n, samples of ms; measured, then printed (a row
   takes a second or more: the table is the progress). */
static void row(struct scalar_effect *se, size_t n, double ms)
{
    struct cell_sample cell = {se->ims, se->dst, se->src, n, se->work, ms};
    int nim = se->nim, reps = se->reps;
    bench_interleave(nim, reps, BENCH_ORDER_ROTATE, NULL, cell_sample, &cell, se->t);
    double med[24];
    for (int k = 0; k < nim; k++) {
        bench_sort(se->t + k * reps, reps);
        med[k] = se->t[k * reps + reps / 2];
    }
    char sz[32];
    if (n >= (1u << 20))
        snprintf(sz, sizeof sz, "%zu MiB", n >> 20);
    else if (n >= 1024)
        snprintf(sz, sizeof sz, "%zu KiB", n >> 10);
    else
        snprintf(sz, sizeof sz, "%zu B", n);
    printf("%-8s %5.1f ms | %10.1f", sz, ms, med[0]);
    for (int k = 1; k < nim; k++) {
        double ratio = med[k] / med[0];
        printf(" | %11.3f", ratio);
        if (ratio > se->worst && k > 1) {
            se->worst = ratio;
            se->worst_name = se->ims[k].name;
        }
    }
    printf("\n");
    fflush(stdout);
}

int bench_mode_scalar_effect_run(struct bench_job *job)
{
    struct scalar_effect *se = job->mode_data;
    char pinmsg[160];
    if (bench_pin(se->cpu, BENCH_PICK_HIGHEST, NULL, pinmsg, sizeof pinmsg) < 0)
        fprintf(stderr, "altmem bench --scalar-effect: %s\n", pinmsg);
    int rc = prepare(se);
    if (rc != BENCH_GO_ON)
        return rc;
    print_scalar_header(se);
    se->t = malloc(sizeof(double) * (size_t)se->nim * (size_t)se->reps);
    if (!se->t)
        return 1;
    se->worst = 0;
    se->worst_name = "";
    for (int si = 0; si < se->nsizes; si++)
        for (int mi = 0; mi < se->nms; mi++)
            row(se, se->sizes[si], se->mss[mi]);
    return BENCH_GO_ON;
}

int bench_mode_scalar_effect_report(struct bench_job *job)
{
    struct scalar_effect *se = job->mode_data;
    printf("\nworst altmem variant: %s, scalar block %.1f%% %s than alone\n", se->worst_name,
           (se->worst >= 1 ? se->worst - 1 : 1 - se->worst) * 100, se->worst >= 1 ? "slower" : "faster");
    free(se->t);
    munmap(se->buf, se->buf_len);
    return 0;
}
