/*
 * `altmem bench`: memcpy, memmove and memset -- altmem's variants, a byte
 * loop and the C library's own routines -- over a size x alignment grid,
 * (dst - src) mod 4096 sweeps and size distributions from published
 * measurements or a file, with hot or cold caches; a table with ratios against
 * the C library, CSV and JSON for tools, gnuplot charts, and the project's
 * goals checked against the C library (docs/performance.md).
 *
 * Method (docs/performance.md has the long form):
 *   - Interleaved: for each cell (routine, size, alignment, cache), the
 *     implementations take turns, one sample each, A B C A B C ..., so that a
 *     slow phase of a shared machine lands on all of them rather than on one.
 *   - A sample is `calls` back-to-back calls timed with CLOCK_MONOTONIC;
 *     `calls` is calibrated once per cell and implementation so a sample lasts
 *     at least --min-sample-ms (at least one call).
 *   - Reported: the median over --reps samples, and the interquartile range as
 *     a percentage of it (quartiles, min and max go to the CSV/JSON).
 *   - Pinned to one CPU; buffers mmap'd and written once before timing.
 * The public API (altmem.h) for the variants (altmem_variant()); the routines'
 * properties from the registry (routines.c).
 *
 * This file holds the options, the implementations and the stages of the
 * command (the modes, from modes.def, and the measured run their cells make
 * up); each mode's file its cells and tables, or its whole run; measure.c a
 * process's sweeps over the cells; cells.c the buffers, cells and timed loops;
 * report.c the header, table rows and files; goals.c the goals, as a table;
 * benchlib.c the clock, calibration and rounds, stats.c the statistics.
 */
#define _GNU_SOURCE
#include "bench.h"

#include <altmem.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "bench_run.h"
#include "benchlib.h"
#include "byteloop.h"

/* ---- Options ------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: altmem bench [options]\n"
            "  --routine R        memcpy, memmove, memset or all; repeatable or a comma list (default: all)\n"
            "  --impl LIST        what to time besides the C library (always timed, the reference):\n"
            "                     bound (the variant altmem binds), all (every runnable variant),\n"
            "                     variant names, byteloop; comma list (default: bound; --quick, --full: all)\n"
            "  --sizes LIST       comma list of sizes in bytes, suffixes K M G (powers of 1024)\n"
            "  --sizes MIN:MAX    MIN, 2*MIN, 4*MIN, ... up to MAX\n"
            "  --sizes grid[:MIN:MAX]  0 (if MIN is 0), then powers of two and their midpoints\n"
            "                     (1, 2, 3, 4, 6, 8, 12, ...) up to MAX (default grid:0:64M; --full 256M)\n"
            "  --align LIST       0/0, s+1/d+3, d+63, ovl-bwd, ovl-fwd (memmove only), all (default)\n"
            "  --cold             also run every cell cold: each call on a fresh part of an arena\n"
            "                     larger than the last-level cache (--cold-only: only cold)\n"
            "  --cold-mib N       size of that arena (default: 2 x L3, at least 256, at most 2048)\n"
            "  --no-grid          skip the size x alignment grid (for --mod4096 or --dist alone)\n"
            "  --libc-width LIST  instead: per vector width (sse2, avx2, evex, avx512, all), altmem's variant\n"
            "                     of that width against glibc's of the same width, one run each (glibc's\n"
            "                     chosen by GLIBC_TUNABLES masks found by probing; the header names it)\n"
            "  --profile FILE     instead: the bound variants with no profile and with FILE (altmem tune),\n"
            "                     side by side, 3 interleaved whole runs with the other options given;\n"
            "                     --profile none: one run with no profile\n"
            "  --scalar-effect    instead: the time of scalar code run between copies, next to each memcpy\n"
            "                     variant and the C library's (a clock drop shows there; --scalar-effect --help)\n"
            "  --mod4096 SIZES    also sweep (dst - src) mod 4096 at these sizes (comma list)\n"
            "  --dist NAME|FILE   also time a random sequence of calls drawn from a size distribution:\n"
            "                     spec2017 (built in), or a file (docs/performance.md); repeatable\n"
            "  --dist-region SIZE hot region the distribution's calls fall in (default 256K)\n"
            "  --processes N      fresh processes the run measures in, one after another (default: 5)\n"
            "  --reps N           rounds per cell in each process, one sample of every implementation\n"
            "                     each (default: 15)\n"
            "  --min-sample-ms X  shortest sample, in milliseconds (default: 0.3)\n"
            "  --quick            smoke test: 8 sizes 0 B..2 MiB, every variant, 2 processes, 5 rounds,\n"
            "                     0.2 ms samples,\n"
            "                     a short mod-4096 sweep and spec2017 distribution\n"
            "  --full             everything: grid 0..256M, every variant, hot and cold, mod 4096 sweeps\n"
            "                     at 4K, 64K and 256K, spec2017 hot and cold (several minutes)\n"
            "  --csv FILE         also write one row per cell and implementation to FILE\n"
            "  --samples FILE     also write every sample of every process to FILE (for analysis)\n"
            "  --json FILE        the same as JSON, with the header and the goals\n"
            "  --plot DIR         write gnuplot data, scripts and PNG/SVG charts into DIR\n"
            "  --cpu N            pin to CPU N (default: the highest-numbered allowed CPU)\n"
            "  --no-pin           do not pin\n"
            "  --load             time with a memory load on every other allowed CPU: a process each,\n"
            "                     copying a buffer of twice the L3 (at least 64 MiB) over and over\n"
            "  --sweeps N         times each process goes over the cells, --reps/N rounds each time (default 3)\n"
            "  --loops own|shared each implementation through timing loops of its own (default), or all\n"
            "                     through one (the method before 2026-12-04, for comparison)\n"
            "  --help             this text\n");
}

static int bad_option(const char *fmt, const char *arg)
{
    fputs("altmem bench: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr);
    return 2;
}

/* "4096", "4K", "4KiB", "64M", "0" (when zero_ok); UINT64_MAX on error. */
static uint64_t parse_size(const char *s, const char *end, int zero_ok)
{
    if (s == end || *s < '0' || *s > '9')
        return UINT64_MAX;
    uint64_t v = 0;
    while (s < end && *s >= '0' && *s <= '9') {
        if (v > MAX_SIZE)
            return UINT64_MAX;
        v = v * 10 + (uint64_t)(*s++ - '0');
    }
    unsigned shift = 0;
    if (s < end) {
        switch (*s) {
        case 'k': case 'K': shift = 10; break;
        case 'm': case 'M': shift = 20; break;
        case 'g': case 'G': shift = 30; break;
        case 'b': case 'B': break;
        default: return UINT64_MAX;
        }
        s++;
        if (shift && s < end && (*s == 'i' || *s == 'I'))
            s++;
        if (shift && s < end && (*s == 'b' || *s == 'B'))
            s++;
    }
    if (s != end || v > (MAX_SIZE >> shift) || (!v && !zero_ok))
        return UINT64_MAX;
    return v << shift;
}

static int add_size(struct options *o, uint64_t v)
{
    if (o->nsizes == MAX_SIZES)
        return -1;
    o->sizes[o->nsizes++] = v;
    return 0;
}

/* 0 (when lo is 0), then 1, 2, 3, 4, 6, 8, 12, ...: powers of two and 1.5x them. */
static int grid_sizes(struct options *o, uint64_t lo, uint64_t hi)
{
    o->nsizes = 0;
    if (lo == 0 && add_size(o, 0))
        return -1;
    for (uint64_t p = 1; p <= hi; p *= 2) {
        if (p >= lo && add_size(o, p))
            return -1;
        if (p >= 2 && p + p / 2 >= lo && p + p / 2 <= hi && add_size(o, p + p / 2))
            return -1;
    }
    return o->nsizes ? 0 : -1;
}

static int parse_sizes(const char *arg, struct options *o)
{
    o->nsizes = 0;
    if (!strncmp(arg, "grid", 4)) {
        uint64_t lo = 0, hi = 64 * MiB;
        if (arg[4] == ':') {
            const char *a = arg + 5, *c = strchr(a, ':');
            if (!c)
                return -1;
            lo = parse_size(a, c, 1);
            hi = parse_size(c + 1, c + strlen(c), 0);
        } else if (arg[4]) {
            return -1;
        }
        if (lo == UINT64_MAX || hi == UINT64_MAX || lo > hi)
            return -1;
        return grid_sizes(o, lo, hi);
    }
    const char *colon = strchr(arg, ':');
    if (colon) {
        uint64_t lo = parse_size(arg, colon, 0), hi = parse_size(colon + 1, colon + strlen(colon), 0);
        if (lo == UINT64_MAX || hi == UINT64_MAX || lo > hi)
            return -1;
        for (uint64_t v = lo; v <= hi; v *= 2)
            if (add_size(o, v))
                return -1;
        return 0;
    }
    for (const char *p = arg;;) {
        const char *e = strchr(p, ',');
        if (!e)
            e = p + strlen(p);
        uint64_t v = parse_size(p, e, 1);
        if (v == UINT64_MAX || add_size(o, v))
            return -1;
        if (!*e)
            return 0;
        p = e + 1;
    }
}

/* A comma list of sizes into out (at most MAX_LIST); count, or -1. */
static int parse_size_list(const char *arg, uint64_t *out)
{
    int n = 0;
    for (const char *p = arg;;) {
        const char *e = strchr(p, ',');
        if (!e)
            e = p + strlen(p);
        uint64_t v = parse_size(p, e, 0);
        if (v == UINT64_MAX || n == MAX_LIST)
            return -1;
        out[n++] = v;
        if (!*e)
            return n;
        p = e + 1;
    }
}

static int parse_routines(const char *arg, struct options *o)
{
    for (const char *p = arg;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int found = 0;
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
            const char *name = altmem_routine_name((enum altmem_routine)r);
            int all = len == 3 && !strncmp(p, "all", 3);
            if (bench_routine_in_libc(r) && (all || (strlen(name) == len && !strncmp(p, name, len)))) {
                o->routines[r] = 1;
                found = 1;
            }
        }
        if (!found)
            return -1;
        o->any_routine = 1;
        if (!e)
            return 0;
        p = e + 1;
    }
}

static int parse_layouts(const char *arg, struct options *o)
{
    static const char *const names[LAY_COUNT][3] = {
        {"0/0", "aligned", NULL},      {"s+1/d+3", "misaligned", "1/3"}, {"d+63", "dst63", "0/63"},
        {"ovl-bwd", "overlap_bwd", NULL}, {"ovl-fwd", "overlap_fwd", NULL},
    };
    o->layouts = 0;
    for (const char *p = arg;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int found = 0;
        if (len == 3 && !strncmp(p, "all", 3)) {
            o->layouts = (1u << LAY_COUNT) - 1;
            found = 1;
        }
        for (int l = 0; l < LAY_COUNT; l++)
            for (int k = 0; k < 3; k++)
                if (names[l][k] && strlen(names[l][k]) == len && !strncmp(p, names[l][k], len)) {
                    o->layouts |= 1u << l;
                    found = 1;
                }
        if (!found)
            return -1;
        if (!e)
            return 0;
        p = e + 1;
    }
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* ---- The options, one handler each ------------------------------------------------------------ */
/* Each returns BENCH_GO_ON, or the exit status: bad_option's 2, --help's 0. */

/* val, an integer in lo..hi, into *field; *given (unless NULL) notes that the
   option was given. */
static int int_option(const char *val, long lo, long hi, int *field, int *given, const char *bad)
{
    long v;
    if (parse_int(val, lo, hi, &v))
        return bad_option(bad, val);
    *field = (int)v;
    if (given)
        *given = 1;
    return BENCH_GO_ON;
}

/* val, a file name, into *field. */
static int file_option(const char *val, const char **field)
{
    if (!*val)
        return bad_option("bad file name '%s' (empty)", val);
    *field = val;
    return BENCH_GO_ON;
}

/* A switch: an option without a value that sets one member to 1. */
#define SWITCH(member)                                                                                     \
    static int opt_##member(struct options *o, const char *val)                                            \
    {                                                                                                      \
        (void)val;                                                                                         \
        o->member = 1;                                                                                     \
        return BENCH_GO_ON;                                                                                \
    }
SWITCH(quick)
SWITCH(full)
SWITCH(no_pin)
SWITCH(load)
SWITCH(libc_probe)
#undef SWITCH

static int opt_help(struct options *o, const char *val)
{
    (void)o, (void)val;
    usage(stdout);
    return 0;
}

static int opt_loops(struct options *o, const char *val)
{
    if (strcmp(val, "own") && strcmp(val, "shared"))
        return bad_option("bad --loops '%s' (own, shared)", val);
    o->shared_loops = !strcmp(val, "shared");
    return BENCH_GO_ON;
}

static int opt_no_grid(struct options *o, const char *val)
{
    (void)val;
    o->grid = 0;
    o->set_grid = 1;
    return BENCH_GO_ON;
}

static int opt_cold(struct options *o, const char *val)
{
    (void)val;
    o->hot = o->cold = 1;
    o->set_cache = 1;
    return BENCH_GO_ON;
}

static int opt_cold_only(struct options *o, const char *val)
{
    (void)val;
    o->hot = 0;
    o->cold = 1;
    o->set_cache = 1;
    return BENCH_GO_ON;
}

static int opt_routine(struct options *o, const char *val)
{
    if (parse_routines(val, o))
        return bad_option("bad --routine '%s' (memcpy, memmove, memset, all)", val);
    return BENCH_GO_ON;
}

static int opt_impl(struct options *o, const char *val)
{
    if (!*val)
        return bad_option("bad --impl '%s' (empty)", val);
    o->impls = val;
    o->set_impls = 1;
    return BENCH_GO_ON;
}

static int opt_align(struct options *o, const char *val)
{
    if (parse_layouts(val, o))
        return bad_option("bad --align '%s' (0/0, s+1/d+3, d+63, ovl-bwd, ovl-fwd, all)", val);
    o->set_align = 1;
    return BENCH_GO_ON;
}

static int opt_sizes(struct options *o, const char *val)
{
    if (parse_sizes(val, o))
        return bad_option("bad --sizes '%s' (sizes 0..1G, at most 96 of them)", val);
    o->set_sizes = 1;
    return BENCH_GO_ON;
}

static int opt_mod4096(struct options *o, const char *val)
{
    o->nmod = parse_size_list(val, o->mod_sizes);
    if (o->nmod < 0)
        return bad_option("bad --mod4096 '%s' (comma list of sizes, at most 8)", val);
    return BENCH_GO_ON;
}

static int opt_dist(struct options *o, const char *val)
{
    if (o->ndists == MAX_LIST || !*val)
        return bad_option("bad --dist '%s' (at most 8)", val);
    o->dists[o->ndists++] = val;
    return BENCH_GO_ON;
}

static int opt_dist_region(struct options *o, const char *val)
{
    o->dist_region = parse_size(val, val + strlen(val), 0);
    if (o->dist_region == UINT64_MAX || o->dist_region < 64 * KiB)
        return bad_option("bad --dist-region '%s' (64K..1G)", val);
    return BENCH_GO_ON;
}

static int opt_cold_mib(struct options *o, const char *val)
{
    int mib;
    int rc = int_option(val, 16, 16384, &mib, NULL, "bad --cold-mib '%s' (16..16384)");
    if (rc == BENCH_GO_ON)
        o->cold_bytes = (uint64_t)mib * MiB;
    return rc;
}

static int opt_processes(struct options *o, const char *val)
{
    return int_option(val, 1, MAX_PROCESSES, &o->processes, &o->set_processes, "bad --processes '%s' (1..15)");
}

static int opt_sweeps(struct options *o, const char *val)
{
    return int_option(val, 1, 100, &o->sweeps, &o->set_sweeps, "bad --sweeps '%s' (1..100)");
}

static int opt_process_child(struct options *o, const char *val)
{
    int k, n, end = 0;
    if (sscanf(val, "%d/%d%n", &k, &n, &end) != 2 || val[end] || k < 1 || n < k || n > MAX_PROCESSES)
        return bad_option("bad --process-child '%s'", val);
    o->pass = k;
    o->npass = n;
    return BENCH_GO_ON;
}

static int opt_reps(struct options *o, const char *val)
{
    return int_option(val, 1, 1000, &o->reps, &o->set_reps, "bad --reps '%s' (1..1000)");
}

static int opt_min_sample_ms(struct options *o, const char *val)
{
    char *end;
    errno = 0;
    double x = strtod(val, &end);
    if (errno || end == val || *end || !(x > 0 && x <= 10000))
        return bad_option("bad --min-sample-ms '%s' (0 < X <= 10000)", val);
    o->min_sample_ms = x;
    o->set_ms = 1;
    return BENCH_GO_ON;
}

static int opt_samples(struct options *o, const char *val)
{
    return file_option(val, &o->samples_file);
}

static int opt_csv(struct options *o, const char *val)
{
    return file_option(val, &o->csv);
}

static int opt_json(struct options *o, const char *val)
{
    return file_option(val, &o->json);
}

static int opt_plot(struct options *o, const char *val)
{
    return file_option(val, &o->plot);
}

static int opt_libc_width(struct options *o, const char *val)
{
    o->libc_width = val;
    return BENCH_GO_ON;
}

static int opt_libc_width_child(struct options *o, const char *val)
{
    if (!bench_width_variant(val))
        return bad_option("bad --libc-width-child '%s'", val);
    o->width_child = val;
    return BENCH_GO_ON;
}

static int opt_cpu(struct options *o, const char *val)
{
    return int_option(val, 0, CPU_SETSIZE - 1, &o->cpu, NULL, "bad --cpu '%s'");
}

static const struct option_def {
    const char *name;
    int takes_value;
    int (*apply)(struct options *o, const char *val);
} option_defs[] = {
    {"--help", 0, opt_help},
    {"-h", 0, opt_help},
    {"--quick", 0, opt_quick},
    {"--full", 0, opt_full},
    {"--no-pin", 0, opt_no_pin},
    {"--load", 0, opt_load},
    {"--loops", 1, opt_loops},
    {"--no-grid", 0, opt_no_grid},
    {"--cold", 0, opt_cold},
    {"--cold-only", 0, opt_cold_only},
    {"--routine", 1, opt_routine},
    {"--impl", 1, opt_impl},
    {"--align", 1, opt_align},
    {"--sizes", 1, opt_sizes},
    {"--mod4096", 1, opt_mod4096},
    {"--dist", 1, opt_dist},
    {"--dist-region", 1, opt_dist_region},
    {"--cold-mib", 1, opt_cold_mib},
    {"--processes", 1, opt_processes},
    {"--sweeps", 1, opt_sweeps},
    {"--process-child", 1, opt_process_child},
    {"--reps", 1, opt_reps},
    {"--min-sample-ms", 1, opt_min_sample_ms},
    {"--samples", 1, opt_samples},
    {"--csv", 1, opt_csv},
    {"--json", 1, opt_json},
    {"--plot", 1, opt_plot},
    {"--libc-width", 1, opt_libc_width},
    {"--libc-width-child", 1, opt_libc_width_child},
    {"--libc-probe", 0, opt_libc_probe},
    {"--cpu", 1, opt_cpu},
};

static const struct option_def *option_def(const char *name)
{
    for (size_t k = 0; k < sizeof option_defs / sizeof option_defs[0]; k++)
        if (!strcmp(name, option_defs[k].name))
            return &option_defs[k];
    return NULL;
}

/* What the options leave unsaid, and what they say together: --quick and
   --full set what was not given explicitly, wherever they appear.
   BENCH_GO_ON, or the exit status. */
static int settle_options(struct options *o)
{
    if (o->quick && o->full)
        return bad_option("%s", "--quick and --full exclude each other");
    if (o->libc_width && (o->csv || o->json || o->plot))
        return bad_option("%s", "--libc-width runs one bench per width: no --csv, --json or --plot with it");
    if (o->width_child) /* altmem's variant of that width, as the one the goals judge */
        o->impls = bench_width_variant(o->width_child);
    if (!o->any_routine)
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
            o->routines[r] = bench_routine_in_libc(r);
    if (!o->set_sizes) {
        if (o->quick)
            parse_sizes("0,8,64,512,4K,32K,256K,2M", o);
        else
            grid_sizes(o, 0, o->full ? 256 * MiB : 64 * MiB);
    }
    if (!o->set_reps)
        o->reps = o->quick ? 5 : BENCH_DEFAULT_REPS;
    if (!o->set_processes)
        o->processes = o->quick ? 2 : BENCH_DEFAULT_PROCESSES;
    if (!o->set_sweeps)
        o->sweeps = o->quick ? 1 : BENCH_DEFAULT_SWEEPS < o->reps ? BENCH_DEFAULT_SWEEPS : o->reps;
    if (o->sweeps > o->reps)
        return bad_option("%s", "--sweeps must not exceed --reps (each sweep takes at least one round)");
    if (!o->set_ms)
        o->min_sample_ms = o->quick ? 0.2 : BENCH_DEFAULT_SAMPLE_MS;
    if (!o->set_align)
        o->layouts = (1u << LAY_COUNT) - 1;
    if (!o->set_impls)
        o->impls = o->quick || o->full ? "all" : "bound";
    if (!o->set_cache && o->full)
        o->cold = 1;
    if (!o->dist_region)
        o->dist_region = 256 * KiB;
    if (o->nmod == 0 && o->full) {
        o->mod_sizes[0] = 4 * KiB;
        o->mod_sizes[1] = 64 * KiB;
        o->mod_sizes[2] = 256 * KiB;
        o->nmod = 3;
    } else if (o->nmod == 0 && o->quick) {
        o->mod_sizes[0] = 4 * KiB;
        o->nmod = 1;
    }
    if (o->ndists == 0 && (o->full || o->quick))
        o->dists[o->ndists++] = "spec2017";
    return BENCH_GO_ON;
}


/* Returns BENCH_GO_ON to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        char name[32];
        /* --opt=value and --opt value */
        const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        if (eq && (size_t)(eq - a) < sizeof name) {
            memcpy(name, a, (size_t)(eq - a));
            name[eq - a] = '\0';
            val = eq + 1;
            a = name;
        }
        const struct option_def *d = option_def(a);
        int takes_value = d && d->takes_value;
        if (takes_value && !val) {
            if (i + 1 >= argc)
                return bad_option("option '%s' needs a value", a);
            val = argv[++i];
        } else if (!takes_value && val) {
            return bad_option("option '%s' takes no value", a);
        }
        if (!d)
            return bad_option("unknown option '%s'", argv[i]);
        int rc = d->apply(o, val);
        if (rc != BENCH_GO_ON)
            return rc;
    }
    return settle_options(o);
}

/* ---- The measured run ------------------------------------------------------- */

static void add_impl(struct run *run, int r, const char *name, const char *heading, enum impl_kind kind, int bound,
                     union altmem_routine_fn fn)
{
    if (run->nimpl[r] == MAX_IMPLS)
        return;
    struct impl *im = &run->impls[r][run->nimpl[r]++];
    im->name = name;
    im->heading = heading;
    im->kind = kind;
    im->bound = bound;
    im->fn = fn;
}

static int list_has(const char *list, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = list;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == wl && !strncmp(p, word, wl))
            return 1;
        if (!e)
            return 0;
        p = e + 1;
    }
}

/* Every word of --impl names something; -1 (and a message) otherwise. */
static int check_impl_list(const char *list)
{
    for (const char *p = list;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char w[64];
        snprintf(w, sizeof w, "%.*s", (int)(len < 63 ? len : 63), p);
        int ok = !strcmp(w, "all") || !strcmp(w, "bound") || !strcmp(w, "byteloop") || !strcmp(w, "libc");
        for (size_t i = 0; i < altmem_variant_count() && !ok; i++) {
            struct altmem_variant_info v;
            ok = altmem_variant(i, &v) == 0 && !strcmp(v.name, w);
        }
        if (!ok) {
            bad_option("bad --impl: '%s' is not bound, all, byteloop, libc or a variant name", w);
            return -1;
        }
        if (!e)
            return 0;
        p = e + 1;
    }
}

/* The cold arena: 2 x the last-level cache, 256 MiB .. 2 GiB, or --cold-mib. */
static uint64_t cold_bytes(const struct options *o, uint64_t max_size)
{
    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    uint64_t len = o->cold_bytes;
    if (!len) {
        len = 2 * (uint64_t)cpu.l3_bytes;
        if (len < 256 * MiB)
            len = 256 * MiB;
        if (len > 2048 * MiB)
            len = 2048 * MiB;
    }
    if (len < 4 * max_size + 4 * PAD)
        len = 4 * max_size + 4 * PAD;
    return len;
}

/* Maps what one process measures in: 0, or 1 with a message. */
static int map_buffers(const struct options *o, struct buffers *b)
{
    uint64_t max_size = run_max_size(o);
    if (buffers_init(b, max_size) != 0) {
        fprintf(stderr, "altmem bench: cannot map buffers for %" PRIu64 " bytes: %s\n", max_size, strerror(errno));
        return 1;
    }
    if (o->cold) {
        uint64_t len = cold_bytes(o, max_size);
        if (cold_init(b, (size_t)len) != 0) {
            fprintf(stderr, "altmem bench: cannot map a %" PRIu64 " MiB cold arena: %s\n", len >> 20,
                    strerror(errno));
            return 1;
        }
    }
    return 0;
}

/* fn as read back from a volatile object: the compiler cannot know which
   function the timing loop calls, so it can neither inline the C library's
   routine nor turn the calls into its own expansion of a copy of known size. */
static union altmem_routine_fn unseen(union altmem_routine_fn fn)
{
    volatile union altmem_routine_fn held = fn;
    return held;
}

/* Implementations: the requested variants in table order, the byte loop, the
   C library (always: it is what the ratios are against) and the control, the
   C library's routine again under a second pointer (and timing loops of its
   own, like every implementation), so that what the run cannot resolve shows
   as a ratio away from 1. */
static void add_impls(struct run *run, const struct options *o, const char *libc)
{
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) != 0 || !v.runnable || !bench_routine_in_libc(v.routine))
            continue;
        struct altmem_binding_info bi;
        int bound = o->width_child ? !strcmp(v.name, bench_width_variant(o->width_child))
                                   : altmem_binding(v.routine, &bi) == 0 && !strcmp(bi.variant, v.name);
        if (!list_has(o->impls, "all") && !list_has(o->impls, v.name) && !(bound && list_has(o->impls, "bound")))
            continue;
        /* v.name points into the library's table, which outlives this run. */
        add_impl(run, v.routine, v.name, v.name, IMPL_ALTMEM, bound, v.fn);
    }
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        if (!bench_routine_in_libc(r))
            continue;
        if (run->nimpl[r] > MAX_IMPLS - 3)
            run->nimpl[r] = MAX_IMPLS - 3;
        if (list_has(o->impls, "byteloop"))
            add_impl(run, r, "byteloop", "byte loop", IMPL_BYTELOOP, 0, bench_byteloop(r));
        run->libc_i[r] = run->nimpl[r];
        add_impl(run, r, libc, libc, IMPL_LIBC, 0, unseen(bench_routine_libc(r)));
        add_impl(run, r, "control", "control", IMPL_CONTROL, 0, unseen(bench_routine_libc(r)));
    }
}

/* The C library's label: its name and version, and, where a preloaded
   library's memcpy took the C library's place (scripts/aocl-libmem.sh),
   whose routines the libc column times; in a --libc-width child, its width. */
static void libc_label(char *libc, size_t len, const struct options *o)
{
#ifdef __GLIBC__
    snprintf(libc, len, "glibc %s", gnu_get_libc_version());
    Dl_info from;
    if (dladdr(bench_fn_address(bench_routine_libc(ALTMEM_MEMCPY)), &from) && from.dli_fname &&
        strstr(from.dli_fname, ".so") && !strstr(from.dli_fname, "/libc.so")) {
        const char *base = strrchr(from.dli_fname, '/');
        size_t l = strlen(libc);
        snprintf(libc + l, len - l, ", memcpy from %s", base ? base + 1 : from.dli_fname);
    }
#elif defined(ALTMEM_BENCH_LIBC)
    snprintf(libc, len, "%s", ALTMEM_BENCH_LIBC); /* musl has no version call */
#else
    snprintf(libc, len, "libc");
#endif
    if (o->width_child) {
        size_t l = strlen(libc);
        snprintf(libc + l, len - l, " %s", o->width_child);
    }
}

/* What every process of the run needs before its first cell: the
   implementations and what the CELLS modes chosen read first (the
   distributions: a bad file is a usage error, before any work).
   BENCH_GO_ON, or the exit status. */
static int prepare_run(struct bench_job *job)
{
    struct run *run = &job->run;
    run->o = &job->o;
    /* Each process its own orders of the rounds. */
    run->order_seed = 0x853c49e6748fea9bull ^ ((uint64_t)job->o.pass * 0x9e3779b97f4a7c15ull);
    if (check_impl_list(job->o.impls) != 0)
        return 2;
    int rc = bench_cells_stage(job, BENCH_PARSE);
    if (rc != BENCH_GO_ON)
        return rc;
    libc_label(job->libc, sizeof job->libc, &job->o);
    run->libc = job->libc;
    add_impls(run, &job->o, job->libc);
    run->samples = calloc((size_t)MAX_IMPLS * SHORT_CELL_FACTOR * (size_t)job->o.reps, sizeof *run->samples);
    if (!run->samples) {
        fprintf(stderr, "altmem bench: out of memory\n");
        return 1;
    }
    return BENCH_GO_ON;
}

/* --process-child K/P: measure every cell, write the results to stdout. */
static int child_main(struct bench_job *job)
{
    struct run *run = &job->run;
    char msg[160];
    if (!job->o.no_pin && bench_pin(job->o.cpu, BENCH_PICK_HIGHEST, NULL, msg, sizeof msg) == -1) {
        fprintf(stderr, "altmem bench: %s\n", msg);
        return 1;
    }
    memset(&job->b, 0, sizeof job->b);
    int rc = map_buffers(&job->o, &job->b) != 0 || measure_cells(job) != 0;
    bench_progress_clear();
    if (!rc && processes_emit(run, stdout) != 0)
        rc = 1;
    if (!rc && run->wrong)
        rc = 1;
    run_free(run);
    return rc;
}

/* A forked child that could not exec this program (processes.c): it is
   process k of n, as --process-child K/P would have said. */
static int measure_in_fork(void *p, int k, int n)
{
    struct bench_job *job = p;
    job->o.pass = k;
    job->o.npass = n;
    /* What the parent gathered before the fork is the parent's: start empty. */
    job->run.r = NULL;
    job->run.n = job->run.cap = 0;
    job->run.wrong = 0;
    job->run.order_seed = 0x853c49e6748fea9bull ^ ((uint64_t)k * 0x9e3779b97f4a7c15ull);
    return child_main(job);
}

/* The parent, before measuring: --csv opened (a path it cannot write fails
   before any work), the load started, this process pinned, the header
   printed.  BENCH_GO_ON, or the exit status. */
static int start_run(struct bench_job *job)
{
    const struct options *o = &job->o;
    if (o->csv) {
        job->csv = fopen(o->csv, "w");
        if (!job->csv) {
            fprintf(stderr, "altmem bench: cannot write '%s': %s\n", o->csv, strerror(errno));
            return 1;
        }
    }
    /* The load first: pinning moves this process to the timed CPU, and the
       load takes the others. */
    char loadmsg[320] = "";
    if (o->load) {
        struct altmem_cpu_info cpu;
        altmem_cpu(&cpu);
        bench_load_start(o->no_pin ? -1 : o->cpu, bench_load_bytes(cpu.l3_bytes), loadmsg, sizeof loadmsg);
    }
    /* The processes pin themselves the same way; this says which CPU. */
    char pinned[160];
    if (o->no_pin)
        snprintf(pinned, sizeof pinned, "not pinned (--no-pin)");
    else if (bench_pin(o->cpu, BENCH_PICK_HIGHEST, NULL, pinned, sizeof pinned) == -1) {
        fprintf(stderr, "altmem bench: %s\n", pinned);
        if (job->csv)
            fclose(job->csv);
        return 1;
    }
    uint64_t max_size = run_max_size(o);
    buffers_plan(&job->b, max_size);
    if (o->cold)
        job->b.cold_len = (size_t)cold_bytes(o, max_size);
    snprintf(job->h.memload, sizeof job->h.memload, "%s", o->load ? loadmsg : "none (--load adds one)");
    print_header(job->argc, job->argv, o, job->libc, pinned, &job->b, &job->h);
    if (o->width_child)
        bench_libc_width_child_header(o);
    fflush(stdout);
    return BENCH_GO_ON;
}

/* Every cell, in --processes fresh processes of this program or in this one. */
static int measure(struct bench_job *job)
{
    int failed;
    if (job->o.processes > 1) {
        failed = processes_run(&job->run, job->argc, job->argv, measure_in_fork, job) != 0;
    } else {
        failed = map_buffers(&job->o, &job->b) != 0 || measure_cells(job) != 0;
        if (job->b.map)
            munmap(job->b.map, job->b.map_len);
        if (job->b.cold)
            munmap(job->b.cold, job->b.cold_len);
    }
    bench_load_stop();
    if (failed) {
        if (job->csv)
            fclose(job->csv);
        run_free(&job->run);
        return 1;
    }
    return BENCH_GO_ON;
}

/* --csv, --json, --samples and --plot; the exit status. */
static int write_files(struct bench_job *job, const struct goal_report *g, double secs)
{
    const struct run *run = &job->run;
    const struct options *o = &job->o;
    int status = 0;
    if (job->csv) {
        csv_header(job->csv);
        for (size_t k = 0; k < run->n; k++)
            csv_row(run, job->csv, &run->r[k], o->reps);
        if (fclose(job->csv) != 0) {
            fprintf(stderr, "altmem bench: writing '%s': %s\n", o->csv, strerror(errno));
            status = 1;
        }
    }
    if (o->json && write_json(run, &job->h, g, secs) != 0) {
        fprintf(stderr, "altmem bench: writing '%s' failed\n", o->json);
        status = 1;
    }
    if (o->samples_file && processes_write_samples(run, o->samples_file) != 0)
        status = 1;
    if (o->plot && write_plots(run) != 0) {
        fprintf(stderr, "altmem bench: --plot %s: some charts were not drawn\n", o->plot);
        status = 1;
    }
    return status;
}

/* The figures over the processes, each CELLS mode's tables, the run's time,
   what it resolves, the goals, and the files; the exit status. */
static int report_run(struct bench_job *job)
{
    struct run *run = &job->run;
    bench_progress_clear();
    processes_summarise(run);
    bench_cells_stage(job, BENCH_REPORT);

    double secs = (bench_now_ns() - job->t_start) / 1e9;
    struct goal_report g;
    goals(run, &g);
    double load[3];
    printf("\nrun time %.1f s", secs);
    if (getloadavg(load, 3) == 3)
        printf("; load average at end %.2f %.2f %.2f", load[0], load[1], load[2]);
    printf("\n");
    print_resolution(run);
    printf("\ngoals (the bound variant against %s, hot caches; docs/performance.md)\n", job->libc);
    for (int i = 0; i < g.n; i++)
        printf("  %s\n", g.line[i]);

    int status = run->wrong ? 1 : 0;
    if (write_files(job, &g, secs) != 0)
        status = 1;
    run_free(run);
    if (run->wrong)
        fprintf(stderr, "altmem bench: some results were wrong or incomplete (see above)\n");
    return status;
}

/* The CELLS modes' cells, measured in fresh processes and reported. */
static int measured_run(struct bench_job *job)
{
    int rc = prepare_run(job);
    if (rc != BENCH_GO_ON)
        return rc;
    if (job->o.pass)
        return child_main(job);
    rc = start_run(job);
    if (rc == BENCH_GO_ON)
        rc = measure(job);
    return rc == BENCH_GO_ON ? report_run(job) : rc;
}

int altmem_bench_main(int argc, char **argv)
{
    struct bench_job job = {.argc = argc, .argv = argv};
    const struct bench_mode *mode = bench_mode_chosen(&job, BENCH_COMMAND);
    if (mode)
        return bench_mode_stages(mode, &job);
    job.t_start = bench_now_ns();
    job.o.cpu = -1;
    job.o.grid = 1;
    job.o.hot = 1;
    int rc = parse_options(argc, argv, &job.o);
    if (rc != BENCH_GO_ON)
        return rc;
    mode = bench_mode_chosen(&job, BENCH_INSTEAD);
    if (mode)
        return bench_mode_stages(mode, &job);
    return measured_run(&job);
}
