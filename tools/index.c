/*
 * `altmem index`: the seed's before/after table, in user space.
 * (The seed: the Linux commit altmem renders, "LoongArch: Use alternative to optimize libraries".)
 *
 * The kernel commit behind altmem was judged by UnixBench on a Loongson-3A5000:
 * File Copy and Pipe Throughput moved because read(), write() and page
 * clearing spend their time in copy_to_user/copy_from_user, clear_user and
 * memcpy.  These workloads do the same copies without the system calls, so that
 * what they time is the routines:
 *   File Copy N bufsize M maxblocks: a file mapping (memfd) of N x M bytes is
 *     copied block by block into an N-byte buffer and from it into a second
 *     file mapping, as read() + write() do, with copy_user, and again with
 *     memcpy (UnixBench's sizes: 256 x 500, 1024 x 2000, 4096 x 8000);
 *   Pipe Throughput: 512-byte messages written into and read back from a 64 KiB
 *     ring (a pipe's buffer) by one thread, as UnixBench's test writes and reads
 *     its own pipe in one process;
 *   Clear: 256 KiB of freshly mapped pages zeroed by clear_user, and by memset,
 *     then unmapped (the page faults are part of it, as in the kernel);
 *   Mixed spec2017: memcpy, memmove and memset calls with SPEC CPU2017's size
 *     and alignment frequencies (bench/dist.c) in a 256 KiB region.
 * Each runs with the generic variants ("before": the kernel without the
 * alternative), the bound variants ("after") and the C library's routines (the
 * C library has no copy_user/clear_user: memcpy and memset stand in), as 1 copy
 * and as N concurrent copies (N = online CPUs, UnixBench's parallel run).
 *
 * Method: every sample is a child process (N of them for N copies, started
 * together) running the workload for a fixed time and reporting its rate; the
 * three implementations are sampled in a shuffled order in each of R rounds,
 * so a slow phase of a shared machine lands on all three.  RESULT is the median
 * rate over the rounds, INDEX = 100 x RESULT / BASELINE, the score is the
 * geometric mean of the indexes.  Ratios between implementations are estimated
 * from the per-round pairs (bench/stats.c).  docs/index.md.  The workloads and
 * the worker processes that run them are tools/index_workload.c.
 */
#define _GNU_SOURCE
#include "index.h"

#include <altmem.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "benchlib.h"
#include "index_workload.h"
#include "machine.h"

/* ---- Tests --------------------------------------------------------------- */

/* BASELINE: the "before" (generic) one-copy RESULT of `altmem index` on the
   reference machine (AMD EPYC family 26 model 2, 2-vCPU KVM guest, load ~9,
   2026-12-01), rounded to two digits: an index of 100 is that rate, and
   "before" scores about 100 there (docs/index.md, "The baselines"). */
static const struct test tests[] = {
    {"filecopy256-user", "File Copy 256 bufsize 500 maxblocks, copy_user", FILE_COPY, 1, 256, 500, "KBps", 1.0e6},
    {"filecopy256", "File Copy 256 bufsize 500 maxblocks, memcpy", FILE_COPY, 0, 256, 500, "KBps", 1.1e6},
    {"filecopy1024-user", "File Copy 1024 bufsize 2000 maxblocks, copy_user", FILE_COPY, 1, 1024, 2000, "KBps",
     1.3e6},
    {"filecopy1024", "File Copy 1024 bufsize 2000 maxblocks, memcpy", FILE_COPY, 0, 1024, 2000, "KBps", 7.3e5},
    {"filecopy4096-user", "File Copy 4096 bufsize 8000 maxblocks, copy_user", FILE_COPY, 1, 4096, 8000, "KBps",
     1.4e6},
    {"filecopy4096", "File Copy 4096 bufsize 8000 maxblocks, memcpy", FILE_COPY, 0, 4096, 8000, "KBps", 9.1e5},
    {"pipe", "Pipe Throughput, 512-byte messages", PIPE, 0, 512, 128, "lps", 1.4e6},
    {"clear-user", "Clear 256 KiB of fresh pages, clear_user", CLEAR, 1, 256 << 10, 1, "KBps", 7.9e4},
    {"clear", "Clear 256 KiB of fresh pages, memset", CLEAR, 0, 256 << 10, 1, "KBps", 7.1e4},
    {"mix", "Mixed memcpy/memmove/memset, spec2017 sizes", MIX, 0, 0, 0, "lps", 5.3e6},
};
#define TEST_COUNT (sizeof tests / sizeof tests[0])

/* ---- Options ------------------------------------------------------------ */

struct options {
    double sample_s;
    int rounds;
    int copies[2], ncopies;
    int pin;
    int selected[TEST_COUNT];
    const char *csv, *json;
};

static void index_usage(FILE *f)
{
    fprintf(f, "usage: altmem index [options]\n"
               "UnixBench-style memory workloads in user space (file copy with copy_user and memcpy, pipe\n"
               "throughput, clearing fresh pages, a spec2017 call mix), each with the generic variants\n"
               "(before), the bound variants (after) and the C library's routines, as 1 copy and as N\n"
               "concurrent copies (N = online CPUs); per test BASELINE, RESULT, INDEX (100 = BASELINE) and\n"
               "the score (geometric mean of the indexes), then after/before and after/C library ratios.\n"
               "About a minute by default; progress on stderr when it is a terminal.\n"
               "  --sample-ms X    length of one sample (default 120)\n"
               "  --rounds N       samples per implementation and test (default 5; 1..99)\n"
               "  --copies LIST    1, N or both: a comma list of copy counts (default 1,<online CPUs>)\n"
               "  --tests LIST     a comma list of:");
    for (size_t i = 0; i < TEST_COUNT; i++)
        fprintf(f, " %s", tests[i].key);
    fprintf(f, "\n"
               "                   (default: all)\n"
               "  --quick          a smoke run: 20 ms samples, 3 rounds\n"
               "  --csv FILE       one row per copies, test and implementation, and the scores\n"
               "  --json FILE      the same, with the header\n"
               "  --no-pin         do not pin the copies to CPUs\n");
}

static int bad(const char *what, const char *arg)
{
    fprintf(stderr, "altmem index: bad %s '%s' (altmem index --help)\n", what, arg ? arg : "");
    return 2;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    if (!s || !*s)
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    double v;
    if (parse_double(s, lo, hi, &v) != 0 || v != floor(v) || strpbrk(s, ".eExX"))
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_tests(const char *s, int *sel)
{
    memset(sel, 0, TEST_COUNT * sizeof *sel);
    if (!strcmp(s, "all")) {
        for (size_t i = 0; i < TEST_COUNT; i++)
            sel[i] = 1;
        return 0;
    }
    for (const char *p = s; *p;) {
        size_t n = strcspn(p, ",");
        size_t i = 0;
        while (i < TEST_COUNT && (strlen(tests[i].key) != n || strncmp(tests[i].key, p, n)))
            i++;
        if (i == TEST_COUNT)
            return -1;
        sel[i] = 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

static int parse_copies(const char *s, struct options *o)
{
    o->ncopies = 0;
    for (const char *p = s; *p;) {
        size_t n = strcspn(p, ",");
        char word[16];
        int c;
        if (n == 0 || n >= sizeof word || o->ncopies == 2)
            return -1;
        snprintf(word, sizeof word, "%.*s", (int)n, p);
        if (!strcmp(word, "N"))
            c = (int)sysconf(_SC_NPROCESSORS_ONLN);
        else if (parse_int(word, 1, 256, &c) != 0)
            return -1;
        o->copies[o->ncopies++] = c;
        p += n + (p[n] == ',');
    }
    return o->ncopies ? 0 : -1;
}

/* "--name VALUE" / "--name=VALUE": 1 and *val; -1 without a value; 0 otherwise. */
static int opt(int argc, char **argv, int *i, const char *name, const char **val)
{
    size_t len = strlen(name);
    if (strncmp(argv[*i], name, len) || (argv[*i][len] && argv[*i][len] != '='))
        return 0;
    if (argv[*i][len] == '=')
        *val = argv[*i] + len + 1;
    else if (*i + 1 < argc)
        *val = argv[++*i];
    else
        return -1;
    return 1;
}

static int parse_options(int argc, char **argv, struct options *o)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    o->sample_s = 0.12;
    o->rounds = 5;
    o->copies[0] = 1;
    o->copies[1] = online > 1 ? (int)(online > 256 ? 256 : online) : 1;
    o->ncopies = online > 1 ? 2 : 1;
    o->pin = 1;
    o->csv = o->json = NULL;
    parse_tests("all", o->selected);
    int quick = 0, have_ms = 0, have_rounds = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int r;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            index_usage(stdout);
            return 1;
        } else if ((r = opt(argc, argv, &i, "--sample-ms", &v))) {
            double ms;
            if (r < 0 || parse_double(v, 1, 60000, &ms) != 0)
                return bad("--sample-ms (milliseconds, 1..60000)", v);
            o->sample_s = ms / 1000;
            have_ms = 1;
        } else if ((r = opt(argc, argv, &i, "--rounds", &v))) {
            if (r < 0 || parse_int(v, 1, 99, &o->rounds) != 0)
                return bad("--rounds (1..99)", v);
            have_rounds = 1;
        } else if ((r = opt(argc, argv, &i, "--copies", &v))) {
            if (r < 0 || parse_copies(v, o) != 0)
                return bad("--copies (one or two of N and 1..256, comma-separated)", v);
        } else if ((r = opt(argc, argv, &i, "--tests", &v))) {
            if (r < 0 || parse_tests(v, o->selected) != 0)
                return bad("--tests (names from altmem index --help, comma-separated)", v);
        } else if ((r = opt(argc, argv, &i, "--csv", &v))) {
            if (r < 0 || !*v)
                return bad("--csv", v);
            o->csv = v;
        } else if ((r = opt(argc, argv, &i, "--json", &v))) {
            if (r < 0 || !*v)
                return bad("--json", v);
            o->json = v;
        } else if (!strcmp(argv[i], "--quick")) {
            quick = 1;
        } else if (!strcmp(argv[i], "--no-pin")) {
            o->pin = 0;
        } else {
            fprintf(stderr, "altmem index: unknown option '%s' (altmem index --help)\n", argv[i]);
            return 2;
        }
    }
    if (quick && !have_ms)
        o->sample_s = 0.02;
    if (quick && !have_rounds)
        o->rounds = 3;
    return 0;
}

/* ---- Run ---------------------------------------------------------------- */

struct cell {
    double rate[IMPL_COUNT][99];   /* per round */
    double result[IMPL_COUNT];     /* median */
};

/* What a run measured, and where. */
struct results {
    struct impl im[IMPL_COUNT];
    char libc[64];                      /* the C library's name (and version, where it says) */
    struct cell (*cells)[TEST_COUNT];   /* [the options' copy counts][test] */
    double elapsed_s;
    char cpu[256], load[64], date[64];  /* the load average at the end */
};

/* Progress on stderr, when it is a terminal. */
struct progress {
    int shown, done, total;
};

static const char *copies_noun(int copies)
{
    return copies == 1 ? "copy" : "copies";
}

/* The implementation's name in the CSV, the JSON and the progress line. */
static const char *impl_key(const struct results *res, int m)
{
    return m == IMPL_LIBC ? "libc" : res->im[m].label;
}

/* A new order of the implementations for each round, so that a slow phase of
   a shared machine lands on all of them. */
static void shuffled_order(int order[IMPL_COUNT], uint64_t *state)
{
    for (int k = 0; k < IMPL_COUNT; k++)
        order[k] = k;
    for (int k = IMPL_COUNT - 1; k > 0; k--) {
        int j = (int)(rng_next(state) % (uint64_t)(k + 1)), x = order[k];
        order[k] = order[j];
        order[j] = x;
    }
}

/* Test t at the ci-th copy count: the rounds of every implementation, and
   their medians.  1, said on stderr, when it could not run. */
static int measure_cell(const struct options *o, struct results *res, int ci, size_t t, uint64_t *shuffle,
                        struct progress *pr)
{
    const struct test *test = &tests[t];
    struct cell *c = &res->cells[ci][t];
    int copies = o->copies[ci];
    struct index_workers w;
    if (index_workers_start(&w, test, res->im, copies, o->pin, o->sample_s) != 0) {
        fprintf(stderr, "%saltmem index: %s (%d copies): could not start: out of memory or processes\n",
                pr->shown ? "\n" : "", test->name, copies);
        return 1;
    }
    for (int r = 0; r < o->rounds; r++) {
        int order[IMPL_COUNT];
        shuffled_order(order, shuffle);
        for (int k = 0; k < IMPL_COUNT; k++) {
            int m = order[k];
            if (pr->shown)
                fprintf(stderr, "\raltmem index: %d/%d  %d %s, %-18s %-6s", ++pr->done, pr->total, copies,
                        copies_noun(copies), test->key, impl_key(res, m));
            double rate = index_workers_sample(&w, m);
            if (rate <= 0) {
                fprintf(stderr, "%saltmem index: %s (%s, %d copies) could not run: out of memory or a "
                                "fault in copy_user/clear_user\n",
                        pr->shown ? "\n" : "", test->name, res->im[m].label, copies);
                return 1;
            }
            c->rate[m][r] = rate;
        }
    }
    index_workers_stop(&w);
    for (int m = 0; m < IMPL_COUNT; m++) {
        double v[99];
        memcpy(v, c->rate[m], sizeof(double) * (size_t)o->rounds);
        c->result[m] = bench_median(v, o->rounds);
    }
    return 0;
}

/* 0 with the measurements in res (res->cells for the caller to free), else 1. */
static int run_index(const struct options *o, struct results *res)
{
#ifdef __GLIBC__
    snprintf(res->libc, sizeof res->libc, "glibc %s", gnu_get_libc_version());
#else
    snprintf(res->libc, sizeof res->libc, "C library");
#endif
    if (index_set_variants(&res->im[IMPL_BEFORE], "before", 0) != 0 ||
        index_set_variants(&res->im[IMPL_AFTER], "after", 1) != 0)
        return 1;
    index_set_libc(&res->im[IMPL_LIBC], res->libc, 0);
    index_set_libc(&res->im[IMPL_CONTROL], res->libc, 1);
    if (!(res->cells = calloc(2, sizeof *res->cells)))
        return 1;
    struct progress pr = {isatty(2), 0, 0};
    for (size_t t = 0; t < TEST_COUNT; t++)
        pr.total += o->selected[t];
    pr.total *= o->ncopies * o->rounds * IMPL_COUNT;
    uint64_t shuffle = 0x2545f4914f6cdd1du;
    double t_start = bench_now_s();
    for (int ci = 0; ci < o->ncopies; ci++)
        for (size_t t = 0; t < TEST_COUNT; t++)
            if (o->selected[t] && measure_cell(o, res, ci, t, &shuffle, &pr) != 0)
                return 1;
    if (pr.shown)
        fprintf(stderr, "\r%70s\r", "");
    res->elapsed_s = bench_now_s() - t_start;
    machine_cpu_model(res->cpu, sizeof res->cpu);
    machine_load(res->load, sizeof res->load);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(res->date, sizeof res->date, "%Y-%m-%d %H:%M:%S UTC", &tm);
    return 0;
}

/* ---- Report ------------------------------------------------------------- */

/* The CSV and JSON files are opened before the run: a path that cannot be
   written fails at once, not after a minute of measuring. */
struct outputs {
    FILE *csv, *json;
    int json_rows;   /* so far: every row but the first follows a comma */
};

/* The tests on which "after" was slower than "before", and than the C library,
   beyond the noise: "key (copies), ..." for the goal lines. */
struct goals {
    char missed_before[1024], missed_libc[1024];
};

static int open_outputs(const struct options *o, struct outputs *out)
{
    *out = (struct outputs){NULL, NULL, 0};
    if (o->csv && !(out->csv = fopen(o->csv, "w"))) {
        fprintf(stderr, "altmem index: %s: %s\n", o->csv, strerror(errno));
        return 1;
    }
    if (o->json && !(out->json = fopen(o->json, "w"))) {
        fprintf(stderr, "altmem index: %s: %s\n", o->json, strerror(errno));
        return 1;
    }
    return 0;
}

static double geomean_index(const struct cell *row, const int *sel, int impl)
{
    double index[TEST_COUNT];
    int n = 0;
    for (size_t t = 0; t < TEST_COUNT; t++)
        if (sel[t])
            index[n++] = 100 * row[t].result[impl] / tests[t].baseline;
    return n ? bench_geomean(index, n) : 0;
}

/* The ratio a/b of implementations over the rounds' pairs, with its interval. */
static void paired_ratio(const struct cell *c, int a, int b, int rounds, struct bench_signed_rank *sr)
{
    double d[99];
    for (int r = 0; r < rounds; r++)
        d[r] = log(c->rate[a][r] / c->rate[b][r]);
    bench_signed_rank(d, (size_t)rounds, 0.10, sr);
}

static const char *ratio_text(const struct bench_signed_rank *sr, char *buf, size_t len)
{
    if (sr->bounded)
        snprintf(buf, len, "%6.3fx [%5.3f..%5.3f]", exp(sr->estimate), exp(sr->lo), exp(sr->hi));
    else
        snprintf(buf, len, "%6.3fx [too few rounds]", exp(sr->estimate));
    return buf;
}

static void print_header(const struct options *o, const struct results *res)
{
    printf("altmem index %s: UnixBench-style memory workloads in user space (docs/index.md)\n", ALTMEM_VERSION_STRING);
    printf("date:     %s; %.0f s\n", res->date, res->elapsed_s);
    printf("cpu:      %s; load average %s at the end\n", res->cpu, res->load);
    char emu[4096];
    if (machine_emulator(emu, sizeof emu))
        printf("emulated: under %s: emulated timings are not speed (the figures show only that the index runs)\n",
               emu);
    printf("before:   %s\n", res->im[IMPL_BEFORE].variants);
    printf("after:    %s\n", res->im[IMPL_AFTER].variants);
    printf("libc:     %s\n", res->im[IMPL_LIBC].variants);
    printf("method:   %d rounds, the 4 implementations (the C library twice: the control) in a shuffled order each\n"
           "          round, %.0f ms samples in child processes%s, each implementation through a copy of the\n"
           "          workload code of its own; RESULT = median rate; INDEX = 100 x RESULT / BASELINE;\n"
           "          score = geometric mean of the indexes\n",
           o->rounds, o->sample_s * 1e3, o->pin ? " pinned to CPUs" : "");
}

static void write_file_headers(const struct options *o, const struct results *res, const struct outputs *out)
{
    if (out->csv)
        fprintf(out->csv, "copies,test,impl,variants,unit,baseline,result,index,rate_min,rate_max,rounds\n");
    if (out->json)
        fprintf(out->json,
                "{\n  \"version\": \"%s\",\n  \"date\": \"%s\",\n  \"cpu\": \"%s\",\n  \"sample_ms\": %.3f,\n"
                "  \"rounds\": %d,\n  \"results\": [",
                ALTMEM_VERSION_STRING, res->date, res->cpu, o->sample_s * 1e3, o->rounds);
}

/* Implementation m at the ci-th copy count: its table, also as CSV and JSON
   rows; returns its score. */
static double report_table(const struct options *o, const struct results *res, int ci, int m, struct outputs *out)
{
    int copies = o->copies[ci];
    const char *key = impl_key(res, m), *variants = m >= IMPL_LIBC ? res->libc : res->im[m].variants;
    printf("\n%d %s, %s: %s\n", copies, copies_noun(copies), m == IMPL_LIBC ? "the C library" : res->im[m].label,
           m == IMPL_BEFORE ? "generic variants" : m == IMPL_AFTER ? "bound variants" : res->libc);
    printf("%-52s %12s %14s %8s\n", "System Benchmarks Index Values", "BASELINE", "RESULT", "INDEX");
    for (size_t t = 0; t < TEST_COUNT; t++) {
        if (!o->selected[t])
            continue;
        const struct test *test = &tests[t];
        const struct cell *c = &res->cells[ci][t];
        double idx = 100 * c->result[m] / test->baseline, lo = INFINITY, hi = 0;
        for (int r = 0; r < o->rounds; r++) {
            lo = fmin(lo, c->rate[m][r]);
            hi = fmax(hi, c->rate[m][r]);
        }
        printf("%-52s %12.1f %14.1f %8.1f\n", test->name, test->baseline, c->result[m], idx);
        if (out->csv)
            fprintf(out->csv, "%d,%s,%s,%s,%s,%.1f,%.1f,%.2f,%.1f,%.1f,%d\n", copies, test->key, key, variants,
                    test->unit, test->baseline, c->result[m], idx, lo, hi, o->rounds);
        if (out->json)
            fprintf(out->json,
                    "%s\n    {\"copies\": %d, \"test\": \"%s\", \"impl\": \"%s\", \"unit\": \"%s\", "
                    "\"baseline\": %.1f, \"result\": %.1f, \"index\": %.2f, \"rate_min\": %.1f, "
                    "\"rate_max\": %.1f}",
                    out->json_rows ? "," : "", copies, test->key, key, test->unit, test->baseline, c->result[m], idx,
                    lo, hi);
        out->json_rows++;
    }
    double score = geomean_index(res->cells[ci], o->selected, m);
    printf("%-52s %12s %14s %8s\n", "", "", "", "========");
    printf("%-52s %12s %14s %8.1f\n", "System Benchmarks Index Score", "", "", score);
    if (out->csv)
        fprintf(out->csv, "%d,score,%s,%s,,,,%.2f,,,%d\n", copies, key, variants, score, o->rounds);
    return score;
}

static void add_missed(char *list, size_t len, const char *key, int copies)
{
    size_t used = strlen(list);
    snprintf(list + used, len - used, "%s%s (%d)", used ? ", " : "", key, copies);
}

/* The ci-th copy count's ratios between implementations, per test and of the
   scores; the tests that miss a goal are added to g. */
static void report_ratios(const struct options *o, const struct results *res, int ci, const double *score,
                          struct goals *g)
{
    int copies = o->copies[ci];
    printf("\n%d %s: ratios of the per-round pairs (Hodges-Lehmann estimate, Wilcoxon signed-rank interval%s)\n",
           copies, copies_noun(copies), o->rounds >= 5 ? " of at least 90%" : "");
    printf("%-52s %-26s %-26s %s\n", "test", "after/before", "after/C library", "control/C library");
    for (size_t t = 0; t < TEST_COUNT; t++) {
        if (!o->selected[t])
            continue;
        struct bench_signed_rank ab, al, cl;
        char b1[64], b2[64], b3[64];
        paired_ratio(&res->cells[ci][t], IMPL_AFTER, IMPL_BEFORE, o->rounds, &ab);
        paired_ratio(&res->cells[ci][t], IMPL_AFTER, IMPL_LIBC, o->rounds, &al);
        paired_ratio(&res->cells[ci][t], IMPL_CONTROL, IMPL_LIBC, o->rounds, &cl);
        /* Slower only beyond the interval and the control's own distance from 1. */
        double control = fabs(cl.estimate);
        int slower_b = ab.bounded && ab.hi < -control, slower_l = al.bounded && al.hi < -control;
        printf("%-52s %-26s %-26s %-26s%s\n", tests[t].name, ratio_text(&ab, b1, sizeof b1),
               ratio_text(&al, b2, sizeof b2), ratio_text(&cl, b3, sizeof b3),
               slower_b ? "  after slower than before" : slower_l ? "  after slower than the C library" : "");
        if (slower_b)
            add_missed(g->missed_before, sizeof g->missed_before, tests[t].key, copies);
        if (slower_l)
            add_missed(g->missed_libc, sizeof g->missed_libc, tests[t].key, copies);
    }
    printf("%-52s %6.3fx                    %6.3fx\n", "score", score[IMPL_AFTER] / score[IMPL_BEFORE],
           score[IMPL_AFTER] / score[IMPL_LIBC]);
}

static void print_summary(const struct options *o, double (*score)[IMPL_COUNT], const struct goals *g)
{
    printf("\nscore after/before, 1 copy: %.1f / %.1f = %.2fx (the seed's UnixBench on Loongson-3A5000: "
           "640.1 / 500.2 = 1.28x)\n",
           score[0][IMPL_AFTER], score[0][IMPL_BEFORE], score[0][IMPL_AFTER] / score[0][IMPL_BEFORE]);
    if (o->ncopies > 1)
        printf("score after/before, %d copies: %.1f / %.1f = %.2fx (the seed's, 4 copies: 1488.8 / 1278.3 = 1.16x)\n",
               o->copies[1], score[1][IMPL_AFTER], score[1][IMPL_BEFORE], score[1][IMPL_AFTER] / score[1][IMPL_BEFORE]);
    printf("goal: after >= before on every test: %s%s\n", g->missed_before[0] ? "NOT met: " : "met",
           g->missed_before);
    printf("goal: after >= the C library on every test, within noise: %s%s\n",
           g->missed_libc[0] ? "NOT met: " : "met", g->missed_libc);
}

static void write_json_scores(const struct options *o, const struct results *res, double (*score)[IMPL_COUNT],
                              FILE *json)
{
    fprintf(json, "\n  ],\n  \"scores\": [");
    for (int ci = 0; ci < o->ncopies; ci++)
        for (int m = 0; m < IMPL_COUNT; m++)
            fprintf(json, "%s\n    {\"copies\": %d, \"impl\": \"%s\", \"score\": %.2f}", ci || m ? "," : "",
                    o->copies[ci], impl_key(res, m), score[ci][m]);
    fprintf(json, "\n  ]\n}\n");
}

/* The text on standard output, the CSV and JSON files; 1 when a file could
   not be written. */
static int report(const struct options *o, const struct results *res, struct outputs *out)
{
    print_header(o, res);
    write_file_headers(o, res, out);
    struct goals g = {"", ""};
    double score[2][IMPL_COUNT] = {{0}};
    for (int ci = 0; ci < o->ncopies; ci++) {
        for (int m = 0; m < IMPL_COUNT; m++)
            score[ci][m] = report_table(o, res, ci, m, out);
        report_ratios(o, res, ci, score[ci], &g);
    }
    print_summary(o, score, &g);
    if (out->json)
        write_json_scores(o, res, score, out->json);
    int wrote_ok = 1;
    if (out->csv && fclose(out->csv) != 0)
        wrote_ok = 0;
    if (out->json && fclose(out->json) != 0)
        wrote_ok = 0;
    if (!wrote_ok) {
        fprintf(stderr, "altmem index: could not write the CSV or JSON file: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}

int altmem_index_main(int argc, char **argv)
{
    struct options o;
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    struct outputs out;
    if (open_outputs(&o, &out) != 0)
        return 1;
    struct results res = {.cells = NULL};
    rc = run_index(&o, &res);
    if (rc == 0)
        rc = report(&o, &res, &out);
    free(res.cells);
    return rc;
}
