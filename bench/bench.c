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
 * Only the public API (altmem.h) is used: variants come from altmem_variant().
 */
#define _GNU_SOURCE
#include "bench.h"

#include <altmem.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "byteloop.h"
#include "dist.h"

#ifndef ALTMEM_BENCH_CONFIG
#define ALTMEM_BENCH_CONFIG "unknown"
#endif

#define MAX_SIZES 96
#define MAX_IMPLS 16
#define MAX_SIZE (UINT64_C(1) << 30)
#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)
/* Slack after each buffer for the alignment offsets; the buffer size is then
   rounded up to whole pages, so src and dst share their offset within a page. */
#define PAD 8192
#define MEMSET_BYTE 0xa5 /* not 0: some memsets special-case zero */
#define DIST_CALLS 4096  /* calls in one pass over a size distribution */
#define COLD_SLOTS 65536 /* random placements a cold cell cycles through */

/* ---- What is measured ---------------------------------------------------- */

enum layout { LAY_ALIGNED, LAY_MIS, LAY_D63, LAY_OVL_BWD, LAY_OVL_FWD, LAY_COUNT };

/* Table label, memset's table label, CSV/JSON name, --align name. */
static const char *const layout_name[LAY_COUNT] = {"0/0", "s+1/d+3", "d+63", "ovl d>s", "ovl d<s"};
static const char *const layout_name_set[LAY_COUNT] = {"0", "d+3", "d+63", "-", "-"};
static const char *const layout_csv[LAY_COUNT] = {"aligned", "misaligned", "dst63", "overlap_bwd", "overlap_fwd"};

static int routine_has_layout(int r, enum layout l)
{
    return l <= LAY_D63 || r == ALTMEM_MEMMOVE;
}

enum impl_kind { IMPL_ALTMEM, IMPL_BYTELOOP, IMPL_LIBC };
static const char *const kind_csv[] = {"altmem", "byteloop", "libc"};

union routine_fn {
    altmem_memcpy_fn *cpy;
    altmem_memmove_fn *mov;
    altmem_memset_fn *set;
};

struct impl {
    const char *name;    /* variant name, "byteloop", or the libc label */
    const char *heading; /* table column heading */
    enum impl_kind kind;
    int bound;           /* the variant altmem_<routine> is bound to */
    union routine_fn fn;
};

/* The C library's routines reach the timing loop only through these volatile
   objects, so the compiler can neither inline them nor turn the calls into
   its own expansion of a copy of known size. */
static altmem_memcpy_fn *volatile libc_memcpy = memcpy;
static altmem_memmove_fn *volatile libc_memmove = memmove;
static altmem_memset_fn *volatile libc_memset = memset;

/* Every call's result ends up here, so no call is dead. */
static volatile uintptr_t bench_sink;

/* ---- Options ------------------------------------------------------------- */

#define MAX_LIST 8

struct options {
    int routines[ALTMEM_ROUTINE_COUNT]; /* selected? */
    int any_routine;
    uint64_t sizes[MAX_SIZES];
    int nsizes;
    unsigned layouts;                   /* bit per enum layout */
    const char *impls;                  /* --impl list */
    int reps;
    double min_sample_ms;
    int quick, full;
    int grid;                           /* run the size x alignment grid */
    int hot, cold;                      /* caches */
    uint64_t mod_sizes[MAX_LIST];       /* --mod4096 */
    int nmod;
    const char *dists[MAX_LIST];        /* --dist */
    int ndists;
    uint64_t dist_region;               /* hot region of a distribution run */
    uint64_t cold_bytes;                /* cold arena (0: from the cache sizes) */
    const char *csv, *json, *plot;
    int cpu;                            /* -1: choose */
    int no_pin;
    int set_sizes, set_reps, set_ms, set_align, set_impls, set_grid, set_cache;
};

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
            "  --profile FILE     instead: the bound variants with no profile and with FILE (altmem tune),\n"
            "                     side by side, 3 interleaved whole runs with the other options given;\n"
            "                     --profile none: one run with no profile\n"
            "  --scalar-effect    instead: the time of scalar code run between copies, next to each memcpy\n"
            "                     variant and the C library's (a clock drop shows there; --scalar-effect --help)\n"
            "  --mod4096 SIZES    also sweep (dst - src) mod 4096 at these sizes (comma list)\n"
            "  --dist NAME|FILE   also time a random sequence of calls drawn from a size distribution:\n"
            "                     spec2017 (built in), or a file (docs/performance.md); repeatable\n"
            "  --dist-region SIZE hot region the distribution's calls fall in (default 256K)\n"
            "  --reps N           samples per implementation and cell (default: 11)\n"
            "  --min-sample-ms X  shortest sample, in milliseconds (default: 1)\n"
            "  --quick            smoke test: 8 sizes 0 B..2 MiB, every variant, 5 reps, 0.2 ms samples,\n"
            "                     a short mod-4096 sweep and spec2017 distribution\n"
            "  --full             everything: grid 0..256M, every variant, hot and cold, mod 4096 sweeps\n"
            "                     at 4K, 64K and 256K, spec2017 hot and cold (several minutes)\n"
            "  --csv FILE         also write one row per cell and implementation to FILE\n"
            "  --json FILE        the same as JSON, with the header and the goals\n"
            "  --plot DIR         write gnuplot data, scripts and PNG/SVG charts into DIR\n"
            "  --cpu N            pin to CPU N (default: the highest-numbered allowed CPU)\n"
            "  --no-pin           do not pin\n"
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
        if (len == 3 && !strncmp(p, "all", 3)) {
            for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
                o->routines[r] = 1;
            found = 1;
        }
        for (int r = 0; r <= ALTMEM_MEMSET; r++) {
            const char *name = altmem_routine_name((enum altmem_routine)r);
            if (strlen(name) == len && !strncmp(p, name, len)) {
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

/* Returns -1 to go on, else the exit status. */
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
        static const char *const with_value[] = {"--routine", "--sizes", "--reps", "--min-sample-ms", "--csv",
                                                 "--cpu", "--impl", "--align", "--mod4096", "--dist",
                                                 "--dist-region", "--cold-mib", "--json", "--plot"};
        int takes_value = 0;
        for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
            takes_value |= !strcmp(a, with_value[k]);
        if (takes_value && !val) {
            if (i + 1 >= argc)
                return bad_option("option '%s' needs a value", a);
            val = argv[++i];
        } else if (!takes_value && val) {
            return bad_option("option '%s' takes no value", a);
        }

        long v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--quick")) {
            o->quick = 1;
        } else if (!strcmp(a, "--full")) {
            o->full = 1;
        } else if (!strcmp(a, "--no-pin")) {
            o->no_pin = 1;
        } else if (!strcmp(a, "--no-grid")) {
            o->grid = 0;
            o->set_grid = 1;
        } else if (!strcmp(a, "--cold")) {
            o->hot = o->cold = 1;
            o->set_cache = 1;
        } else if (!strcmp(a, "--cold-only")) {
            o->hot = 0;
            o->cold = 1;
            o->set_cache = 1;
        } else if (!strcmp(a, "--routine")) {
            if (parse_routines(val, o))
                return bad_option("bad --routine '%s' (memcpy, memmove, memset, all)", val);
        } else if (!strcmp(a, "--impl")) {
            if (!*val)
                return bad_option("bad --impl '%s' (empty)", val);
            o->impls = val;
            o->set_impls = 1;
        } else if (!strcmp(a, "--align")) {
            if (parse_layouts(val, o))
                return bad_option("bad --align '%s' (0/0, s+1/d+3, d+63, ovl-bwd, ovl-fwd, all)", val);
            o->set_align = 1;
        } else if (!strcmp(a, "--sizes")) {
            if (parse_sizes(val, o))
                return bad_option("bad --sizes '%s' (sizes 0..1G, at most 96 of them)", val);
            o->set_sizes = 1;
        } else if (!strcmp(a, "--mod4096")) {
            o->nmod = parse_size_list(val, o->mod_sizes);
            if (o->nmod < 0)
                return bad_option("bad --mod4096 '%s' (comma list of sizes, at most 8)", val);
        } else if (!strcmp(a, "--dist")) {
            if (o->ndists == MAX_LIST || !*val)
                return bad_option("bad --dist '%s' (at most 8)", val);
            o->dists[o->ndists++] = val;
        } else if (!strcmp(a, "--dist-region")) {
            o->dist_region = parse_size(val, val + strlen(val), 0);
            if (o->dist_region == UINT64_MAX || o->dist_region < 64 * KiB)
                return bad_option("bad --dist-region '%s' (64K..1G)", val);
        } else if (!strcmp(a, "--cold-mib")) {
            if (parse_int(val, 16, 16384, &v))
                return bad_option("bad --cold-mib '%s' (16..16384)", val);
            o->cold_bytes = (uint64_t)v * MiB;
        } else if (!strcmp(a, "--reps")) {
            if (parse_int(val, 1, 1000, &v))
                return bad_option("bad --reps '%s' (1..1000)", val);
            o->reps = (int)v;
            o->set_reps = 1;
        } else if (!strcmp(a, "--min-sample-ms")) {
            char *end;
            errno = 0;
            double x = strtod(val, &end);
            if (errno || end == val || *end || !(x > 0 && x <= 10000))
                return bad_option("bad --min-sample-ms '%s' (0 < X <= 10000)", val);
            o->min_sample_ms = x;
            o->set_ms = 1;
        } else if (!strcmp(a, "--csv") || !strcmp(a, "--json") || !strcmp(a, "--plot")) {
            if (!*val)
                return bad_option("bad file name '%s' (empty)", val);
            if (a[2] == 'c')
                o->csv = val;
            else if (a[2] == 'j')
                o->json = val;
            else
                o->plot = val;
        } else if (!strcmp(a, "--cpu")) {
            if (parse_int(val, 0, CPU_SETSIZE - 1, &v))
                return bad_option("bad --cpu '%s'", val);
            o->cpu = (int)v;
        } else {
            return bad_option("unknown option '%s'", argv[i]);
        }
    }
    if (o->quick && o->full)
        return bad_option("%s", "--quick and --full exclude each other");
    if (!o->any_routine)
        for (int r = 0; r <= ALTMEM_MEMSET; r++)
            o->routines[r] = 1;
    /* --quick and --full set what was not given explicitly, wherever they appear. */
    if (!o->set_sizes) {
        if (o->quick)
            parse_sizes("0,8,64,512,4K,32K,256K,2M", o);
        else
            grid_sizes(o, 0, o->full ? 256 * MiB : 64 * MiB);
    }
    if (!o->set_reps)
        o->reps = o->quick ? 5 : 11;
    if (!o->set_ms)
        o->min_sample_ms = o->quick ? 0.2 : 1.0;
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
    return -1;
}

/* ---- Buffers ------------------------------------------------------------- */

struct buffers {
    unsigned char *map;
    size_t map_len;
    unsigned char *src; /* page-aligned, span bytes */
    unsigned char *dst; /* src + span: the same offset within a page */
    size_t span;
    unsigned char *cold; /* the cold arena, or NULL */
    size_t cold_len;
};

/* The byte expected at offset i of the source: not periodic below 2^24, so a
   copy from the wrong offset does not pass the check by accident. */
static unsigned char pattern(size_t i)
{
    return (unsigned char)(i * 131 + (i >> 8) * 29 + (i >> 16) * 7 + 1);
}

static void fill_pattern(unsigned char *p, size_t from, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = pattern(from + i);
}

static size_t page_size(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

static int buffers_init(struct buffers *b, uint64_t max_size)
{
    size_t pg = page_size();
    /* src, then dst right after it: one mapping, so the memmove overlap cases
       (which need about 1.5 * size) can run inside src's span and dst's. */
    b->span = ((size_t)max_size + PAD + pg - 1) / pg * pg;
    b->map_len = 2 * b->span + pg;
    void *m = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    b->map = m;
    b->src = b->map;
    b->dst = b->map + b->span;
    /* Touch every page now, so no sample pays for page faults. */
    fill_pattern(b->map, 0, b->map_len);
    return 0;
}

static int cold_init(struct buffers *b, size_t len)
{
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    b->cold = m;
    b->cold_len = len;
    memset(b->cold, 0x3c, len);
    return 0;
}

/* ---- Timing -------------------------------------------------------------- */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* xorshift64*: reproducible placements and distribution draws. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * UINT64_C(2685821657736338717);
}

/* One call of a distribution run: offsets into the region and a size. */
struct dcall {
    uint32_t src, dst, n;
};

enum cell_mode { MODE_FIXED, MODE_COLD, MODE_DIST };

struct cell {
    enum altmem_routine routine;
    enum cell_mode mode;
    int layout;                  /* enum layout; -1 for mod4096 and dist cells */
    size_t n;                    /* bytes per call (dist: per pass)            */
    unsigned char *dst;          /* FIXED; COLD, DIST: base of the dst side    */
    const unsigned char *src;    /*                     ... and the src side   */
    /* COLD: call i uses slot i % COLD_SLOTS: byte offset slot[k] on each side. */
    const uint32_t *slot;        /* in units of 4 KiB */
    size_t next;
    size_t dst_off, src_off;     /* the layout's offsets within a slot         */
    /* DIST */
    const struct dcall *calls;
    size_t ncalls;
};

/* Time `calls` calls (DIST: passes over the call list); returns nanoseconds.
   The function pointer is re-read through a volatile each call and every
   result is folded into `acc`, which a barrier then consumes, so no call can
   be hoisted, merged or dropped. */
#define TIMED_LOOP(FN_T, FN, CALL)                                                                         \
    do {                                                                                                   \
        FN_T *volatile f = FN;                                                                             \
        t0 = now_ns();                                                                                     \
        for (uint64_t i = 0; i < calls; i++) {                                                             \
            CALL;                                                                                          \
            __asm__ volatile("" : "+r"(acc) : : "memory");                                                 \
        }                                                                                                  \
        t1 = now_ns();                                                                                     \
    } while (0)

static double sample(const struct impl *im, struct cell *c, uint64_t calls)
{
    uintptr_t acc = 0;
    double t0 = 0, t1 = 0;
    unsigned char *d = c->dst;
    const unsigned char *s = c->src;
    size_t n = c->n;
    if (c->mode == MODE_FIXED) {
        switch (c->routine) {
        case ALTMEM_MEMCPY: TIMED_LOOP(altmem_memcpy_fn, im->fn.cpy, acc += (uintptr_t)f(d, s, n)); break;
        case ALTMEM_MEMMOVE: TIMED_LOOP(altmem_memmove_fn, im->fn.mov, acc += (uintptr_t)f(d, s, n)); break;
        default: TIMED_LOOP(altmem_memset_fn, im->fn.set, acc += (uintptr_t)f(d, MEMSET_BYTE, n)); break;
        }
        bench_sink = acc + (n ? d[n - 1] : 0);
    } else if (c->mode == MODE_COLD) {
        const uint32_t *slot = c->slot;
        size_t k = c->next, doff = c->dst_off, soff = c->src_off;
#define COLD_PTRS                                                                                          \
    size_t o = (size_t)slot[k++ & (COLD_SLOTS - 1)] << 12;                                                \
    unsigned char *dd = d + o + doff;                                                                      \
    const unsigned char *ss = s + o + soff
        switch (c->routine) {
        case ALTMEM_MEMCPY:
            TIMED_LOOP(altmem_memcpy_fn, im->fn.cpy, COLD_PTRS; acc += (uintptr_t)f(dd, ss, n));
            break;
        case ALTMEM_MEMMOVE:
            TIMED_LOOP(altmem_memmove_fn, im->fn.mov, COLD_PTRS; acc += (uintptr_t)f(dd, ss, n));
            break;
        default:
            TIMED_LOOP(altmem_memset_fn, im->fn.set, COLD_PTRS; (void)ss; acc += (uintptr_t)f(dd, MEMSET_BYTE, n));
            break;
        }
#undef COLD_PTRS
        c->next = k;
        bench_sink = acc;
    } else {
        const struct dcall *cl = c->calls;
        size_t m = c->ncalls;
        switch (c->routine) {
        case ALTMEM_MEMCPY:
            TIMED_LOOP(altmem_memcpy_fn, im->fn.cpy, for (size_t j = 0; j < m; j++) acc += (uintptr_t)f(d + cl[j].dst, s + cl[j].src, cl[j].n));
            break;
        case ALTMEM_MEMMOVE:
            TIMED_LOOP(altmem_memmove_fn, im->fn.mov, for (size_t j = 0; j < m; j++) acc += (uintptr_t)f(d + cl[j].dst, s + cl[j].src, cl[j].n));
            break;
        default:
            TIMED_LOOP(altmem_memset_fn, im->fn.set, for (size_t j = 0; j < m; j++) acc += (uintptr_t)f(d + cl[j].dst, MEMSET_BYTE, cl[j].n));
            break;
        }
        bench_sink = acc;
    }
    return t1 - t0;
}

/* Smallest call count (at least 1) whose sample lasts target_ns; the first
   timed runs double as warm-up of caches, TLB and branch predictors. */
static uint64_t calibrate(const struct impl *im, struct cell *c, double target_ns)
{
    uint64_t calls = 1;
    sample(im, c, 1);
    for (;;) {
        double t = sample(im, c, calls);
        if (t >= target_ns || calls >= UINT64_C(1) << 40)
            return calls;
        /* Aim 10% past the target so noise rarely leaves a sample short;
           grow at least 2x so a too-fast first guess converges quickly. */
        double grow = t > 0 ? target_ns * 1.1 / t : 100.0;
        if (grow > 100.0)
            grow = 100.0;
        if (grow < 2.0)
            grow = 2.0;
        calls = (uint64_t)((double)calls * grow) + 1;
    }
}

/* One call on freshly patterned buffers, then compare: a broken routine would
   otherwise show up only as a suspiciously good number.  The source is
   re-patterned every time because the memmove overlap cells scribble on it.
   (FIXED cells only; the routines are the same in the other modes.) */
static int check_result(const struct impl *im, const struct cell *c, const struct buffers *b)
{
    size_t n = c->n;
    if (c->routine == ALTMEM_MEMSET) {
        memset(c->dst, 0, n);
        im->fn.set(c->dst, MEMSET_BYTE, n);
        for (size_t i = 0; i < n; i++)
            if (c->dst[i] != MEMSET_BYTE)
                return -1;
        return 0;
    }
    size_t src_off = (size_t)(c->src - b->map);
    int overlap = c->layout == LAY_OVL_BWD || c->layout == LAY_OVL_FWD;
    if (overlap) {
        size_t lo = c->dst < c->src ? (size_t)(c->dst - b->map) : src_off;
        fill_pattern(b->map + lo, lo, n + (size_t)(c->dst > c->src ? c->dst - c->src : c->src - c->dst));
    } else {
        fill_pattern(b->map + src_off, src_off, n);
        memset(c->dst, 0, n);
    }
    if (c->routine == ALTMEM_MEMCPY)
        im->fn.cpy(c->dst, c->src, n);
    else
        im->fn.mov(c->dst, c->src, n);
    for (size_t i = 0; i < n; i++)
        if (c->dst[i] != pattern(src_off + i))
            return -1;
    return 0;
}

/* ---- Statistics ---------------------------------------------------------- */

struct stat5 {
    double med, min, max, q1, q3; /* ns per call */
    uint64_t calls;
    int wrong;
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile(const double *sorted, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)pos;
    if (i + 1 >= n)
        return sorted[n - 1];
    return sorted[i] + (pos - i) * (sorted[i + 1] - sorted[i]);
}

static void summarise(double *v, int n, struct stat5 *st)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    st->min = v[0];
    st->max = v[n - 1];
    st->med = quantile(v, n, 0.5);
    st->q1 = quantile(v, n, 0.25);
    st->q3 = quantile(v, n, 0.75);
}

/* ---- Results ------------------------------------------------------------- */

enum rkind { R_GRID, R_MOD, R_DIST };

struct result {
    enum rkind kind;
    int routine;
    int layout;       /* R_GRID */
    int cold;
    uint64_t size;    /* R_GRID, R_MOD: bytes per call; R_DIST: region */
    int param;        /* R_MOD: (dst - src) mod 4096; R_DIST: index into dist names */
    int impl;         /* index into impls[routine] */
    double bytes;     /* bytes moved per timed unit (call; DIST: per call on average) */
    struct stat5 st;  /* ns per call */
};

static struct {
    struct result *r;
    size_t n, cap;
    struct impl impls[ALTMEM_ROUTINE_COUNT][MAX_IMPLS];
    int nimpl[ALTMEM_ROUTINE_COUNT];
    int libc_i[ALTMEM_ROUTINE_COUNT];
    const char *dist_names[MAX_LIST];
    double dist_mean[MAX_LIST][ALTMEM_ROUTINE_COUNT];
    int wrong;
    long retries;   /* cells measured again for their spread */
} R;

static struct result *add_result(void)
{
    if (R.n == R.cap) {
        R.cap = R.cap ? 2 * R.cap : 1024;
        R.r = realloc(R.r, R.cap * sizeof *R.r);
        if (!R.r) {
            fprintf(stderr, "altmem bench: out of memory\n");
            exit(1);
        }
    }
    memset(&R.r[R.n], 0, sizeof R.r[0]);
    return &R.r[R.n++];
}

/* The result of impl i in the same cell as x (same kind, routine, layout,
   cache, size, param), or NULL. */
static const struct result *same_cell(const struct result *x, int impl)
{
    for (size_t k = 0; k < R.n; k++) {
        const struct result *y = &R.r[k];
        if (y->impl == impl && y->kind == x->kind && y->routine == x->routine && y->layout == x->layout &&
            y->cold == x->cold && y->size == x->size && y->param == x->param)
            return y;
    }
    return NULL;
}

/* Speed of x relative to libc in its cell: libc time / x time (0 if unknown). */
static double vs_libc(const struct result *x)
{
    const struct result *l = same_cell(x, R.libc_i[x->routine]);
    return l && x->st.med > 0 ? l->st.med / x->st.med : 0;
}

static double gbps(const struct result *x)
{
    return x->st.med > 0 ? x->bytes / x->st.med : 0;
}

/* ---- Output helpers -------------------------------------------------------- */

static const char *size_label(uint64_t n, char *buf, size_t len)
{
    if (n >= (UINT64_C(1) << 30) && n % (UINT64_C(1) << 30) == 0)
        snprintf(buf, len, "%" PRIu64 " GiB", n >> 30);
    else if (n >= (UINT64_C(1) << 20) && n % (UINT64_C(1) << 20) == 0)
        snprintf(buf, len, "%" PRIu64 " MiB", n >> 20);
    else if (n >= 1024 && n % 1024 == 0)
        snprintf(buf, len, "%" PRIu64 " KiB", n >> 10);
    else
        snprintf(buf, len, "%" PRIu64 " B", n);
    return buf;
}

static const char *size_label_never(uint64_t n, char *buf, size_t len)
{
    if (n == UINT64_MAX) {
        snprintf(buf, len, "never");
        return buf;
    }
    return size_label(n, buf, len);
}

/* About four significant digits without an exponent: 1.94, 19.4, 1940. */
static const char *num(double v, char *buf, size_t len)
{
    if (v < 10)
        snprintf(buf, len, "%.2f", v);
    else if (v < 100)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.0f", v);
    return buf;
}

static const char *features(uint64_t mask, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned bit = 0; bit < 64; bit++) {
        if (!(mask >> bit & 1))
            continue;
        const char *name = altmem_feature_name(bit);
        int w = name ? snprintf(buf + used, len - used, "%s%s", used ? " " : "", name)
                     : snprintf(buf + used, len - used, "%sbit%u", used ? " " : "", bit);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
    return used ? buf : "none";
}

static const char *cache_label(size_t bytes, char *buf, size_t len)
{
    if (!bytes)
        return "?";
    return size_label(bytes, buf, len);
}

static const char *compiler(void)
{
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown compiler";
#endif
}

/* Ratio columns: one per measured altmem implementation. */
static void print_head(const char *title, const char *rowhead, int r)
{
    printf("\n%s\n%-18s", title, rowhead);
    for (int i = 0; i < R.nimpl[r]; i++)
        printf(" | %-21.21s", R.impls[r][i].heading);
    printf(" |");
    for (int i = 0; i < R.nimpl[r]; i++)
        if (R.impls[r][i].kind != IMPL_LIBC)
            printf(" %9.9s", R.impls[r][i].name);
    printf("\n%-18s", "");
    for (int i = 0; i < R.nimpl[r]; i++)
        printf(" | %6s %9s %4s", "GB/s", "ns/call", "iqr%");
    printf(" | speed vs libc (libc time / time)\n");
}

/* One table row from the results of one cell, first is any of them. */
static void print_cell_row(const char *label, const struct result *first)
{
    int r = first->routine;
    char b1[32], b2[32];
    printf("%-18s", label);
    for (int i = 0; i < R.nimpl[r]; i++) {
        const struct result *x = same_cell(first, i);
        if (!x) {
            printf(" | %6s %9s %4s", "-", "-", "-");
            continue;
        }
        double iqr = x->st.med > 0 ? 100.0 * (x->st.q3 - x->st.q1) / x->st.med : 0;
        printf(" | %6s %9s %4.0f", x->bytes > 0 ? num(gbps(x), b1, sizeof b1) : "-", num(x->st.med, b2, sizeof b2),
               iqr);
    }
    printf(" |");
    for (int i = 0; i < R.nimpl[r]; i++) {
        if (R.impls[r][i].kind == IMPL_LIBC)
            continue;
        const struct result *x = same_cell(first, i);
        double v = x ? vs_libc(x) : 0;
        if (v > 0)
            printf(" %9.2f", v);
        else
            printf(" %9s", "-");
    }
    for (int i = 0; i < R.nimpl[r]; i++) {
        const struct result *x = same_cell(first, i);
        if (x && x->st.wrong)
            printf("  WRONG RESULT: %s", R.impls[r][i].heading);
    }
    printf("\n");
    fflush(stdout);
}

static const char *align_csv(const struct result *x, char *buf, size_t len)
{
    if (x->kind == R_GRID)
        snprintf(buf, len, "%s", layout_csv[x->layout]);
    else if (x->kind == R_MOD)
        snprintf(buf, len, "mod4096:%d", x->param);
    else
        snprintf(buf, len, "dist:%s", R.dist_names[x->param]);
    return buf;
}

static void csv_header(FILE *f)
{
    fprintf(f, "routine,size,align,impl,kind,calls_per_sample,reps,ns_median,ns_min,ns_max,"
               "gbps_median,gbps_min,gbps_max,cache,vs_libc\n");
}

static void csv_row(FILE *f, const struct result *x, int reps)
{
    char al[96];
    const struct impl *im = &R.impls[x->routine][x->impl];
    double g = x->bytes;
    fprintf(f, "%s,%" PRIu64 ",%s,%s,%s,%" PRIu64 ",%d,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f,%s,%.4f\n",
            altmem_routine_name((enum altmem_routine)x->routine), x->size, align_csv(x, al, sizeof al), im->name,
            kind_csv[im->kind], x->st.calls, reps, x->st.med, x->st.min, x->st.max, g / x->st.med, g / x->st.max,
            g / x->st.min, x->cold ? "cold" : "hot", vs_libc(x));
}

/* JSON strings here are names and labels: escape the two that matter. */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', f);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
    fputc('"', f);
}

/* ---- Header -------------------------------------------------------------- */

/* The command line as typed, quoted where a shell would need it. */
static void print_command(int argc, char **argv)
{
    printf("command:  %s", program_invocation_name);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int plain = *a != '\0';
        for (const char *p = a; *p; p++)
            if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/+%@", *p))
                plain = 0;
        if (plain) {
            printf(" %s", a);
        } else {
            printf(" '");
            for (const char *p = a; *p; p++)
                if (*p == '\'')
                    printf("'\\''");
                else
                    putchar(*p);
            printf("'");
        }
    }
    printf("\n");
}

/* The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled. */
static const char *thp_mode(char *buf, size_t len)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char line[128];
    snprintf(buf, len, "unknown");
    if (!f)
        return buf;
    if (fgets(line, sizeof line, f)) {
        char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
        if (a && b)
            snprintf(buf, len, "%.*s", (int)(b - a - 1), a + 1);
    }
    fclose(f);
    return buf;
}

/* Pin to one CPU: `want`, or by default the highest-numbered CPU we may use,
   since CPU 0 is where many systems steer interrupts and housekeeping. */
static int pin_cpu(int want, char *msg, size_t len)
{
    cpu_set_t allowed, one;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
        snprintf(msg, len, "not pinned (sched_getaffinity: %s)", strerror(errno));
        return want < 0 ? 0 : -1;
    }
    int cpu = want;
    if (cpu < 0) {
        for (int c = CPU_SETSIZE - 1; c >= 0 && cpu < 0; c--)
            if (CPU_ISSET(c, &allowed))
                cpu = c;
    } else if (!CPU_ISSET(cpu, &allowed)) {
        snprintf(msg, len, "CPU %d is not in this process's affinity mask", cpu);
        return -1;
    }
    if (cpu < 0) {
        snprintf(msg, len, "not pinned (empty affinity mask)");
        return 0;
    }
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) {
        snprintf(msg, len, "not pinned (sched_setaffinity(CPU %d): %s)", cpu, strerror(errno));
        return want < 0 ? 0 : -1;
    }
    snprintf(msg, len, "CPU %d of %d allowed (sched_setaffinity)", cpu, CPU_COUNT(&allowed));
    return 0;
}

struct header {
    char date[64], cpu[512], libc[64], build[160], bound[160], pinned[160], load[160], nt[512];
};

static void print_header(int argc, char **argv, const struct options *o, const char *libc, const char *pinned,
                         const struct buffers *b, struct header *h)
{
    struct altmem_cpu_info cpu;
    char f1[160], f2[160], c1[32], c2[32], c3[32], thp[32];
    altmem_cpu(&cpu);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(h->date, sizeof h->date, "%Y-%m-%d %H:%M:%S UTC", &tm);
    snprintf(h->cpu, sizeof h->cpu, "%s%s%s; features %s%s%s%s; L1d %s, L2 %s, L3 %s", cpu.arch,
             cpu.notes && cpu.notes[0] ? ", " : "", cpu.notes ? cpu.notes : "", features(cpu.detected, f1, sizeof f1),
             cpu.active != cpu.detected ? " (in use: " : "",
             cpu.active != cpu.detected ? features(cpu.active, f2, sizeof f2) : "",
             cpu.active != cpu.detected ? ")" : "", cache_label(cpu.l1d_bytes, c1, sizeof c1),
             cache_label(cpu.l2_bytes, c2, sizeof c2), cache_label(cpu.l3_bytes, c3, sizeof c3));
    snprintf(h->libc, sizeof h->libc, "%s", libc);
    snprintf(h->build, sizeof h->build, "%s, %s", ALTMEM_BENCH_CONFIG, compiler());
    size_t used = 0;
    h->bound[0] = '\0';
    for (int r = 0; r <= ALTMEM_MEMSET; r++) {
        struct altmem_binding_info bi;
        if (altmem_binding((enum altmem_routine)r, &bi) == 0)
            used += (size_t)snprintf(h->bound + used, sizeof h->bound - used, "%s%s=%s (%s)", r ? " " : "",
                                     altmem_routine_name((enum altmem_routine)r), bi.variant, bi.bound_by);
    }
    snprintf(h->pinned, sizeof h->pinned, "%s", pinned);
    {
        struct altmem_policy_info p;
        altmem_policy(&p);
        char n1[32], n2[32], m0[32], m1[32], m2[32], s0[32], s1[32], s2[32];
        snprintf(h->nt, sizeof h->nt,
                 "copies stream from %s, memset from %s; rep movsb from %s/%s/%s, rep stosb from %s/%s/%s "
                 "(16/32/64-byte variants)%s",
                 size_label_never(p.nt_copy, n1, sizeof n1), size_label_never(p.nt_memset, n2, sizeof n2),
                 size_label_never(p.rep_movsb[0], m0, sizeof m0), size_label_never(p.rep_movsb[1], m1, sizeof m1),
                 size_label_never(p.rep_movsb[2], m2, sizeof m2), size_label_never(p.rep_stosb[0], s0, sizeof s0),
                 size_label_never(p.rep_stosb[1], s1, sizeof s1), size_label_never(p.rep_stosb[2], s2, sizeof s2),
                 p.overridden ? "; set in ALTMEM_TUNABLES" : "");
    }
    double load[3];
    h->load[0] = '\0';
    if (getloadavg(load, 3) == 3)
        snprintf(h->load, sizeof h->load, "%.2f %.2f %.2f (1, 5, 15 min) at start, on %ld online CPUs%s", load[0],
                 load[1], load[2], sysconf(_SC_NPROCESSORS_ONLN),
                 load[0] >= 0.5 ? " -- other work is running: expect noise" : "");

    printf("altmem bench (altmem %s)\n", ALTMEM_VERSION_STRING);
    print_command(argc, argv);
    printf("date:     %s\n", h->date);
    printf("cpu:      %s\n", h->cpu);
    printf("libc:     %s (its memcpy/memmove/memset, called through a volatile function pointer)\n", libc);
    printf("build:    %s\n", h->build);
    printf("bound:    %s\n", h->bound);
    printf("          (the bench calls each variant directly, not through the binding)\n");
    printf("policy:   %s (`altmem info` names the rules)\n", h->nt);
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) == 0 && !v.runnable && v.routine <= ALTMEM_MEMSET)
            printf("skipped:  %s %s (needs %s: not runnable here)\n", altmem_routine_name(v.routine), v.name,
                   features(v.requires, f1, sizeof f1));
    }
    printf("pinned:   %s\n", pinned);
    if (h->load[0])
        printf("load:     %s\n", h->load);
    printf("method:   interleaved in a random order per round, %d samples per cell and implementation, each\n"
           "          >= %g ms (call count calibrated once per cell and implementation); median shown; a cell\n"
           "          whose interquartile range exceeds 25%% of a median is measured again (twice at most)\n",
           o->reps, o->min_sample_ms);
    printf("buffers:  one mmap of %.1f MiB, written before timing; dst = src + %zu KiB (same page offset)",
           (double)b->map_len / (1 << 20), b->span >> 10);
    if (b->cold)
        printf("; cold arena %.0f MiB", (double)b->cold_len / (1 << 20));
    printf("; transparent hugepages: %s\n", thp_mode(thp, sizeof thp));
    printf("layouts:  0/0 = src+0/dst+0 (page-aligned); s+1/d+3 = src+1/dst+3; d+63 = src+0/dst+63;\n"
           "          ovl d>s = memmove, dst = src + n/2 + 2 (copied backward); ovl d<s = src = dst + n/2 + 2\n"
           "          (forward); memset: 0, d+3, d+63.  cold = every call on a fresh place in the arena\n");
    printf("columns:  GB/s = size / median time (1e9 bytes/s); ns/call = median; iqr%% = interquartile\n"
           "          range / median; speed vs libc = libc's median time / the implementation's\n");
    printf("memset:   stores 0x%02x\n", MEMSET_BYTE);
    fflush(stdout);
}

/* ---- Running cells --------------------------------------------------------- */

/* Times every implementation of routine r on cell c, interleaved, and records
   the results with the given identity. */
static void run_cell(const struct options *o, struct cell *c, enum rkind kind, int layout, int cold, uint64_t size,
                     int param, double bytes, const struct buffers *b, double *samples)
{
    int r = c->routine;
    int nimpl = R.nimpl[r];
    struct stat5 st[MAX_IMPLS];
    memset(st, 0, sizeof st);
    double target_ns = o->min_sample_ms * 1e6;
    for (int i = 0; i < nimpl; i++) {
        if (c->mode == MODE_FIXED) {
            st[i].wrong = check_result(&R.impls[r][i], c, b) != 0;
            R.wrong |= st[i].wrong;
        }
        st[i].calls = calibrate(&R.impls[r][i], c, target_ns);
    }
    /* Rounds in a fresh random order each: a disturbance with a period (a
       competing process's time slice) cannot keep landing on the same one.  A
       cell whose spread is large is measured again, at most twice, and the
       steadier set kept. */
    static uint64_t order_seed = 0x853c49e6748fea9bull;
    double best_spread = 1e300;
    static double keep[MAX_IMPLS * 1000];
    for (int attempt = 0; attempt < 3; attempt++) {
        for (int rep = 0; rep < o->reps; rep++) {
            int order[MAX_IMPLS];
            for (int i = 0; i < nimpl; i++)
                order[i] = i;
            for (int i = nimpl - 1; i > 0; i--) {
                int j = (int)(rng_next(&order_seed) % (uint64_t)(i + 1)), tmp = order[i];
                order[i] = order[j];
                order[j] = tmp;
            }
            for (int k = 0; k < nimpl; k++) {
                int i = order[k];
                samples[i * o->reps + rep] = sample(&R.impls[r][i], c, st[i].calls) / (double)st[i].calls;
            }
        }
        double spread = 0;
        for (int i = 0; i < nimpl; i++) {
            double *v = samples + i * o->reps;
            qsort(v, (size_t)o->reps, sizeof *v, cmp_double);
            double med = quantile(v, o->reps, 0.5), iqr = quantile(v, o->reps, 0.75) - quantile(v, o->reps, 0.25);
            if (med > 0 && iqr / med > spread)
                spread = iqr / med;
        }
        if (spread < best_spread) {
            best_spread = spread;
            memcpy(keep, samples, sizeof *samples * (size_t)(nimpl * o->reps));
        }
        if (best_spread <= 0.25 || o->reps < 5)
            break;
        R.retries++;
    }
    memcpy(samples, keep, sizeof *samples * (size_t)(nimpl * o->reps));
    for (int i = 0; i < nimpl; i++) {
        struct stat5 keep_st = st[i];
        summarise(samples + i * o->reps, o->reps, &st[i]);
        st[i].calls = keep_st.calls;
        st[i].wrong = keep_st.wrong;
        struct result *x = add_result();
        x->kind = kind;
        x->routine = r;
        x->layout = layout;
        x->cold = cold;
        x->size = size;
        x->param = param;
        x->impl = i;
        x->bytes = bytes;
        x->st = st[i];
        if (c->mode == MODE_DIST) {
            /* per call, not per pass */
            x->st.med /= (double)c->ncalls;
            x->st.min /= (double)c->ncalls;
            x->st.max /= (double)c->ncalls;
            x->st.q1 /= (double)c->ncalls;
            x->st.q3 /= (double)c->ncalls;
        }
    }
}

static void fixed_pointers(struct cell *c, enum layout l, const struct buffers *b)
{
    size_t d = c->n / 2 + 2 < c->n ? c->n / 2 + 2 : c->n / 2;
    switch (l) {
    case LAY_ALIGNED:
        c->src = b->src;
        c->dst = b->dst;
        break;
    case LAY_MIS:
        c->src = b->src + 1;
        c->dst = b->dst + 3;
        break;
    case LAY_D63:
        c->src = b->src;
        c->dst = b->dst + 63;
        break;
    case LAY_OVL_BWD:
        /* dst above src inside [src, src + n): memmove must copy backward.
           n/2 + 2 keeps about half the range overlapping and makes dst - src
           not a multiple of 8 for power-of-two n. */
        c->src = b->src + 1;
        c->dst = b->src + 1 + d;
        break;
    default: /* LAY_OVL_FWD: dst below src inside its range: forward */
        c->dst = b->src + 1;
        c->src = b->src + 1 + d;
        break;
    }
}

/* src and dst offsets of a layout within a cold slot (no overlap layouts). */
static void layout_offsets(enum layout l, size_t *soff, size_t *doff)
{
    *soff = l == LAY_MIS ? 1 : 0;
    *doff = l == LAY_MIS ? 3 : l == LAY_D63 ? 63 : 0;
}

static uint32_t cold_slots[COLD_SLOTS];

/* Random 4 KiB-aligned places for calls of n bytes in each half of the arena. */
static void make_cold_slots(const struct buffers *b, size_t n, uint64_t seed)
{
    size_t half = b->cold_len / 2;
    size_t room = (half - n - PAD) >> 12;
    if (room == 0)
        room = 1;
    for (size_t k = 0; k < COLD_SLOTS; k++)
        cold_slots[k] = (uint32_t)(rng_next(&seed) % room);
}

/* ---- Goals --------------------------------------------------------------- */

struct goal_report {
    char line[24][200];
    int n;
};

static int bound_impl(int r)
{
    for (int i = 0; i < R.nimpl[r]; i++)
        if (R.impls[r][i].bound)
            return i;
    return -1;
}

/* Geometric mean and minimum of the bound variant's speed vs libc over the hot
   grid cells of routine r whose layout is in mask and size in [lo, hi]. */
static int grid_stats(int r, unsigned mask, uint64_t lo, uint64_t hi, double *geo, double *minv,
                      const struct result **worst, int *below95)
{
    int bi = bound_impl(r), count = 0;
    double sum = 0;
    *minv = 1e300;
    *worst = NULL;
    *below95 = 0;
    for (size_t k = 0; k < R.n; k++) {
        const struct result *x = &R.r[k];
        if (x->kind != R_GRID || x->cold || x->routine != r || x->impl != bi || !(mask >> x->layout & 1) ||
            x->size < lo || x->size > hi)
            continue;
        double v = vs_libc(x);
        if (v <= 0)
            continue;
        sum += log(v);
        count++;
        *below95 += v < 0.95;
        if (v < *minv) {
            *minv = v;
            *worst = x;
        }
    }
    *geo = count ? exp(sum / count) : 0;
    return count;
}

static void cell_name(const struct result *x, char *buf, size_t len)
{
    char s[32];
    snprintf(buf, len, "%s %s", size_label(x->size, s, sizeof s),
             x->routine == ALTMEM_MEMSET ? layout_name_set[x->layout] : layout_name[x->layout]);
}

static void goals(const char *libc, struct goal_report *g)
{
    g->n = 0;
#define GLINE(...) snprintf(g->line[g->n < 23 ? g->n++ : g->n], sizeof g->line[0], __VA_ARGS__)
    const unsigned nonovl = (1u << LAY_ALIGNED) | (1u << LAY_MIS) | (1u << LAY_D63);
    for (int r = 0; r <= ALTMEM_MEMSET; r++) {
        const char *rn = altmem_routine_name((enum altmem_routine)r);
        int bi = bound_impl(r);
        if (bi < 0) {
            int any = 0;
            for (size_t k = 0; k < R.n && !any; k++)
                any = R.r[k].routine == r;
            if (any)
                GLINE("%s: the bound variant was not measured (--impl)", rn);
            continue;
        }
        double geo, minv;
        const struct result *worst;
        int below;
        unsigned mask = r == ALTMEM_MEMMOVE ? (1u << LAY_COUNT) - 1 : nonovl;
        int cnt = grid_stats(r, mask, 0, UINT64_MAX, &geo, &minv, &worst, &below);
        if (!cnt)
            continue;
        double want_geo = r == ALTMEM_MEMCPY ? 1.10 : 1.0;
        char wn[64] = "";
        if (worst)
            cell_name(worst, wn, sizeof wn);
        GLINE("%s %s vs %s, %d hot grid cells%s: geomean %.3fx (goal >= %.2fx: %s); lowest %.3fx at %s; "
              "%d cell%s below 0.95x (goal: none: %s)",
              rn, R.impls[r][bi].name, libc, cnt, r == ALTMEM_MEMMOVE ? " (both overlap directions too)" : "",
              geo, want_geo, geo >= want_geo ? "met" : "NOT met", minv, wn, below, below == 1 ? "" : "s",
              below ? "NOT met" : "met");
        if (r == ALTMEM_MEMCPY) {
            if (grid_stats(r, 1u << LAY_MIS, 4 * KiB, 256 * KiB, &geo, &minv, &worst, &below))
                GLINE("memcpy s+1/d+3 at 4-256 KiB: lowest %.2fx vs %s (goal >= 5x: %s)", minv, libc,
                      minv >= 5 ? "met" : "NOT met");
        }
        /* >= 64 MiB: within 5% of the best any implementation reaches in the cell. */
        double worst_frac = 2, best_bw = 0;
        const struct result *wx = NULL;
        int big = 0;
        for (size_t k = 0; k < R.n; k++) {
            const struct result *x = &R.r[k];
            if (x->kind != R_GRID || x->cold || x->routine != r || x->impl != bi || x->size < 64 * MiB)
                continue;
            double best = 0;
            for (int i = 0; i < R.nimpl[r]; i++) {
                const struct result *y = same_cell(x, i);
                if (y && gbps(y) > best)
                    best = gbps(y);
            }
            if (best > best_bw)
                best_bw = best;
            double frac = best > 0 ? gbps(x) / best : 0;
            big++;
            if (frac < worst_frac) {
                worst_frac = frac;
                wx = x;
            }
        }
        if (big) {
            cell_name(wx, wn, sizeof wn);
            GLINE("%s >= 64 MiB, %d cells: %s reaches >= %.1f%% of the best bandwidth in each (lowest at %s%s); "
                  "best seen %.2f GB/s (goal >= 95%%: %s)",
                  rn, big, R.impls[r][bi].name, 100 * worst_frac, wn, wx->cold ? ", cold" : "", best_bw,
                  worst_frac >= 0.95 ? "met" : "NOT met");
        }
    }
    /* The strict-alignment goal of the alternatives issue, when measured. */
    for (size_t k = 0; k < R.n; k++) {
        const struct result *x = &R.r[k];
        const struct impl *im = &R.impls[x->routine][x->impl];
        if (x->kind == R_GRID && !x->cold && x->routine == ALTMEM_MEMCPY && x->layout == LAY_MIS &&
            x->size == 4096 && im->kind == IMPL_ALTMEM && !strcmp(im->name, "generic")) {
            for (int i = 0; i < R.nimpl[ALTMEM_MEMCPY]; i++) {
                const struct result *y = same_cell(x, i);
                if (y && R.impls[ALTMEM_MEMCPY][i].kind == IMPL_BYTELOOP)
                    GLINE("memcpy generic vs byte loop at 4 KiB s+1/d+3: %.2fx (goal >= 4x: %s)",
                          y->st.med / x->st.med, y->st.med / x->st.med >= 4 ? "met" : "NOT met");
            }
        }
    }
    GLINE("small sizes (<= 64 B), instructions per call: scripts/small-cost.sh (callgrind, not timed here)");
#undef GLINE
}

/* ---- Plots ------------------------------------------------------------------ */

static int mkdir_p(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* One chart: GB/s against x (size or distance) for every implementation of r
   over the results matching the filter; writes NAME.dat and NAME.gp and runs
   gnuplot on the script.  Returns 0, or -1 when gnuplot failed. */
static int plot_one(const char *dir, const char *name, const char *title, int r, enum rkind kind, int layout,
                    int cold, uint64_t size, const char *xlabel, int logx, int ratio, FILE *index)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s.dat", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# %s\n# x", title);
    for (int i = 0; i < R.nimpl[r]; i++)
        fprintf(f, "\t%s", R.impls[r][i].heading);
    fprintf(f, "\n");
    int rows = 0;
    for (size_t k = 0; k < R.n; k++) {
        const struct result *x = &R.r[k];
        if (x->kind != kind || x->routine != r || x->cold != cold || x->impl != 0 ||
            (kind == R_GRID && (x->layout != layout || x->size == 0)) || (kind == R_MOD && x->size != size))
            continue;
        fprintf(f, "%" PRIu64, kind == R_GRID ? x->size : (uint64_t)x->param);
        for (int i = 0; i < R.nimpl[r]; i++) {
            const struct result *y = same_cell(x, i);
            fprintf(f, "\t%.4f", !y ? NAN : ratio ? vs_libc(y) : gbps(y));
        }
        fprintf(f, "\n");
        rows++;
    }
    fclose(f);
    if (rows < 2) {
        remove(path);
        return 1;
    }
    snprintf(path, sizeof path, "%s/%s.gp", dir, name);
    f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# gnuplot %s.gp (in this directory) redraws %s.svg and %s.png\n", name, name, name);
    fprintf(f, "set title \"%s\" noenhanced\nset xlabel \"%s\"\nset ylabel \"%s\"\n", title, xlabel,
            ratio ? "speed vs the C library (its time / the time)" : "GB/s (1e9 bytes/s)");
    fprintf(f, "set key outside right noenhanced\nset grid\n%s", logx ? "set logscale x 2\nset format x \"%.0b%B\"\n" : "");
    if (ratio)
        fprintf(f, "set logscale y 2\nset arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2\n");
    fprintf(f, "set datafile missing \"nan\"\n");
    for (int t = 0; t < 2; t++) {
        fprintf(f, "set terminal %s size 1100,600\nset output \"%s.%s\"\nplot ", t ? "pngcairo" : "svg", name,
                t ? "png" : "svg");
        for (int i = 0; i < R.nimpl[r]; i++)
            fprintf(f, "%s\"%s.dat\" using 1:%d with linespoints title \"%s\"", i ? ", \\\n     " : "", name, i + 2,
                    R.impls[r][i].heading);
        fprintf(f, "\n");
    }
    fclose(f);
    fprintf(index, "%s.svg %s.png: %s\n", name, name, title);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        char script[256];
        snprintf(script, sizeof script, "%s.gp", name);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
        return -1;
    if (WEXITSTATUS(status) == 127) {
        fprintf(stderr, "altmem bench: gnuplot not found (Debian: apt-get install gnuplot-nox); "
                        "the .dat and .gp files are in %s\n", dir);
        return -2;
    }
    return WEXITSTATUS(status) ? -1 : 0;
}

static int write_plots(const struct options *o, const char *libc)
{
    if (mkdir_p(o->plot) != 0) {
        fprintf(stderr, "altmem bench: cannot create %s: %s\n", o->plot, strerror(errno));
        return -1;
    }
    char path[1100];
    snprintf(path, sizeof path, "%s/index.txt", o->plot);
    FILE *index = fopen(path, "w");
    if (!index)
        return -1;
    int bad = 0, charts = 0;
    (void)charts;
    for (int r = 0; r <= ALTMEM_MEMSET && bad != -2; r++) {
        if (!o->routines[r])
            continue;
        const char *rn = altmem_routine_name((enum altmem_routine)r);
        for (int cold = 0; cold < 2 && bad != -2; cold++)
            for (int l = 0; l < LAY_COUNT && bad != -2; l++) {
                if (!routine_has_layout(r, (enum layout)l))
                    continue;
                char name[96], title[200];
                snprintf(name, sizeof name, "%s-%s-%s", rn, layout_csv[l], cold ? "cold" : "hot");
                snprintf(title, sizeof title, "%s, %s, %s caches: throughput against size (%s for reference)", rn,
                         r == ALTMEM_MEMSET ? layout_name_set[l] : layout_name[l], cold ? "cold" : "hot", libc);
                int rc = plot_one(o->plot, name, title, r, R_GRID, l, cold, 0, "size, bytes", 1, 0, index);
                bad = rc < 0 ? rc : bad;
                charts += rc == 0;
                if (rc == 0) {
                    char rname[112], rtitle[220];
                    snprintf(rname, sizeof rname, "%s-ratio", name);
                    snprintf(rtitle, sizeof rtitle, "%s, %s, %s caches: speed relative to %s (above 1: faster)", rn,
                             r == ALTMEM_MEMSET ? layout_name_set[l] : layout_name[l], cold ? "cold" : "hot", libc);
                    rc = plot_one(o->plot, rname, rtitle, r, R_GRID, l, cold, 0, "size, bytes", 1, 1, index);
                    bad = rc < 0 ? rc : bad;
                }
            }
        for (int m = 0; m < o->nmod && bad != -2; m++) {
            char name[96], title[200], s[32];
            snprintf(name, sizeof name, "%s-mod4096-%" PRIu64, rn, o->mod_sizes[m]);
            snprintf(title, sizeof title, "%s %s: throughput against (dst - src) mod 4096", rn,
                     size_label(o->mod_sizes[m], s, sizeof s));
            int rc = plot_one(o->plot, name, title, r, R_MOD, -1, 0, o->mod_sizes[m], "(dst - src) mod 4096, bytes",
                              0, 0, index);
            bad = rc < 0 ? rc : bad;
        }
    }
    fclose(index);
    if (!bad)
        printf("\nplots: %s (index.txt lists them; each NAME.gp redraws NAME.svg and NAME.png)\n", o->plot);
    return bad;
}

/* ---- JSON ------------------------------------------------------------------ */

static int write_json(const struct options *o, const struct header *h, const struct goal_report *g, double secs)
{
    FILE *f = fopen(o->json, "w");
    if (!f) {
        fprintf(stderr, "altmem bench: cannot write '%s': %s\n", o->json, strerror(errno));
        return -1;
    }
    fprintf(f, "{\n  \"altmem\": ");
    json_str(f, ALTMEM_VERSION_STRING);
    const char *keys[] = {"date", "cpu", "libc", "build", "bound", "pinned", "load", "nt_threshold"};
    const char *vals[] = {h->date, h->cpu, h->libc, h->build, h->bound, h->pinned, h->load, h->nt};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        fprintf(f, ",\n  ");
        json_str(f, keys[i]);
        fprintf(f, ": ");
        json_str(f, vals[i]);
    }
    fprintf(f, ",\n  \"reps\": %d,\n  \"min_sample_ms\": %g,\n  \"seconds\": %.1f,\n  \"results\": [", o->reps,
            o->min_sample_ms, secs);
    for (size_t k = 0; k < R.n; k++) {
        const struct result *x = &R.r[k];
        const struct impl *im = &R.impls[x->routine][x->impl];
        char al[96];
        fprintf(f, "%s\n    {\"routine\": \"%s\", \"size\": %" PRIu64 ", \"align\": ", k ? "," : "",
                altmem_routine_name((enum altmem_routine)x->routine), x->size);
        json_str(f, align_csv(x, al, sizeof al));
        fprintf(f, ", \"cache\": \"%s\", \"impl\": ", x->cold ? "cold" : "hot");
        json_str(f, im->name);
        fprintf(f,
                ", \"kind\": \"%s\", \"bound\": %s, \"calls_per_sample\": %" PRIu64 ", \"ns_median\": %.3f, "
                "\"ns_q1\": %.3f, \"ns_q3\": %.3f, \"ns_min\": %.3f, \"ns_max\": %.3f, \"gbps\": %.4f, "
                "\"vs_libc\": %.4f}",
                kind_csv[im->kind], im->bound ? "true" : "false", x->st.calls, x->st.med, x->st.q1, x->st.q3,
                x->st.min, x->st.max, gbps(x), vs_libc(x));
    }
    fprintf(f, "\n  ],\n  \"goals\": [");
    for (int i = 0; i < g->n; i++) {
        fprintf(f, "%s\n    ", i ? "," : "");
        json_str(f, g->line[i]);
    }
    fprintf(f, "\n  ]\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}

/* ---- Main ---------------------------------------------------------------- */

static void add_impl(int r, const char *name, const char *heading, enum impl_kind kind, int bound,
                     union routine_fn fn)
{
    if (R.nimpl[r] == MAX_IMPLS)
        return;
    struct impl *im = &R.impls[r][R.nimpl[r]++];
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

int altmem_bench_main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--scalar-effect"))
            return altmem_bench_scalar_main(argc, argv);
    double t_start = now_ns();
    struct options o;
    memset(&o, 0, sizeof o);
    o.cpu = -1;
    o.grid = 1;
    o.hot = 1;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (check_impl_list(o.impls) != 0)
        return 2;

    /* Distributions first: a bad file is a usage error, before any work. */
    static struct bench_dist dists[MAX_LIST][2]; /* [i][0] memcpy/memmove, [i][1] memset */
    for (int i = 0; i < o.ndists; i++)
        for (int k = 0; k < 2; k++) {
            char err[256];
            if (bench_dist_load(o.dists[i], k, &dists[i][k], err, sizeof err) != 0) {
                fprintf(stderr, "altmem bench: --dist %s: %s\n", o.dists[i], err);
                return 2;
            }
        }

    FILE *csv = NULL;
    if (o.csv) {
        csv = fopen(o.csv, "w");
        if (!csv) {
            fprintf(stderr, "altmem bench: cannot write '%s': %s\n", o.csv, strerror(errno));
            return 1;
        }
    }

    char pinned[160];
    if (o.no_pin)
        snprintf(pinned, sizeof pinned, "not pinned (--no-pin)");
    else if (pin_cpu(o.cpu, pinned, sizeof pinned) != 0) {
        fprintf(stderr, "altmem bench: %s\n", pinned);
        if (csv)
            fclose(csv);
        return 1;
    }

    uint64_t max_size = 4096;
    for (int si = 0; si < o.nsizes; si++)
        if (o.sizes[si] > max_size)
            max_size = o.sizes[si];
    for (int m = 0; m < o.nmod; m++)
        if (o.mod_sizes[m] > max_size)
            max_size = o.mod_sizes[m];
    if (o.ndists && o.dist_region + 8192 > max_size)
        max_size = o.dist_region + 8192;
    struct buffers b;
    memset(&b, 0, sizeof b);
    if (buffers_init(&b, max_size) != 0) {
        fprintf(stderr, "altmem bench: cannot map buffers for %" PRIu64 " bytes: %s\n", max_size, strerror(errno));
        if (csv)
            fclose(csv);
        return 1;
    }
    if (o.cold) {
        struct altmem_cpu_info cpu;
        altmem_cpu(&cpu);
        uint64_t len = o.cold_bytes;
        if (!len) {
            len = 2 * (uint64_t)cpu.l3_bytes;
            if (len < 256 * MiB)
                len = 256 * MiB;
            if (len > 2048 * MiB)
                len = 2048 * MiB;
        }
        if (len < 4 * max_size + 4 * PAD)
            len = 4 * max_size + 4 * PAD;
        if (cold_init(&b, (size_t)len) != 0) {
            fprintf(stderr, "altmem bench: cannot map a %" PRIu64 " MiB cold arena: %s\n", len >> 20,
                    strerror(errno));
            return 1;
        }
    }

    char libc[64];
#ifdef __GLIBC__
    snprintf(libc, sizeof libc, "glibc %s", gnu_get_libc_version());
#elif defined(ALTMEM_BENCH_LIBC)
    snprintf(libc, sizeof libc, "%s", ALTMEM_BENCH_LIBC); /* musl has no version call */
#else
    snprintf(libc, sizeof libc, "libc");
#endif

    /* Implementations: the requested variants in table order, the byte loop,
       and the C library last (always: it is what the ratios are against). */
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) != 0 || !v.runnable || (unsigned)v.routine > ALTMEM_MEMSET)
            continue;
        struct altmem_binding_info bi;
        int bound = altmem_binding(v.routine, &bi) == 0 && !strcmp(bi.variant, v.name);
        if (!list_has(o.impls, "all") && !list_has(o.impls, v.name) && !(bound && list_has(o.impls, "bound")))
            continue;
        union routine_fn fn;
        memcpy(&fn, &v.fn, sizeof fn);
        /* v.name points into the library's table, which outlives this run. */
        add_impl(v.routine, v.name, v.name, IMPL_ALTMEM, bound, fn);
    }
    for (int r = 0; r <= ALTMEM_MEMSET; r++) {
        union routine_fn byte, lib;
        if (R.nimpl[r] > MAX_IMPLS - 2)
            R.nimpl[r] = MAX_IMPLS - 2;
        if (r == ALTMEM_MEMCPY) {
            byte.cpy = altmem_bench_byte_memcpy;
            lib.cpy = libc_memcpy;
        } else if (r == ALTMEM_MEMMOVE) {
            byte.mov = altmem_bench_byte_memmove;
            lib.mov = libc_memmove;
        } else {
            byte.set = altmem_bench_byte_memset;
            lib.set = libc_memset;
        }
        if (list_has(o.impls, "byteloop"))
            add_impl(r, "byteloop", "byte loop", IMPL_BYTELOOP, 0, byte);
        R.libc_i[r] = R.nimpl[r];
        add_impl(r, libc, libc, IMPL_LIBC, 0, lib);
    }

    struct header h;
    print_header(argc, argv, &o, libc, pinned, &b, &h);
    if (csv)
        csv_header(csv);

    double *samples = calloc((size_t)MAX_IMPLS * (size_t)o.reps, sizeof *samples);
    if (!samples) {
        fprintf(stderr, "altmem bench: out of memory\n");
        return 1;
    }

    /* 1. The grid: size x alignment, hot and/or cold. */
    if (o.grid) {
        for (int r = 0; r <= ALTMEM_MEMSET; r++) {
            if (!o.routines[r])
                continue;
            for (int cold = 0; cold < 2; cold++) {
                if ((cold && !o.cold) || (!cold && !o.hot))
                    continue;
                int printed = 0;
                for (int si = 0; si < o.nsizes; si++) {
                    size_t n = (size_t)o.sizes[si];
                    if (cold && n + PAD > b.cold_len / 4)
                        continue;
                    for (int l = 0; l < LAY_COUNT; l++) {
                        if (!(o.layouts >> l & 1) || !routine_has_layout(r, (enum layout)l))
                            continue;
                        if (cold && (l == LAY_OVL_BWD || l == LAY_OVL_FWD))
                            continue; /* overlap is about one region: hot only */
                        struct cell c;
                        memset(&c, 0, sizeof c);
                        c.routine = (enum altmem_routine)r;
                        c.layout = l;
                        c.n = n;
                        if (cold) {
                            c.mode = MODE_COLD;
                            make_cold_slots(&b, n, 0x9e3779b97f4a7c15ull ^ n);
                            c.slot = cold_slots;
                            c.src = b.cold;
                            c.dst = b.cold + b.cold_len / 2;
                            layout_offsets((enum layout)l, &c.src_off, &c.dst_off);
                        } else {
                            c.mode = MODE_FIXED;
                            fixed_pointers(&c, (enum layout)l, &b);
                        }
                        run_cell(&o, &c, R_GRID, l, cold, n, 0, (double)n, &b, samples);
                        if (!printed++) {
                            char title[96];
                            snprintf(title, sizeof title, "%s, %s caches", altmem_routine_name((enum altmem_routine)r),
                                     cold ? "cold" : "hot");
                            print_head(title, "    size align", r);
                        }
                        char lab[48], s[32];
                        snprintf(lab, sizeof lab, "%8s %-9s", size_label(n, s, sizeof s),
                                 r == ALTMEM_MEMSET ? layout_name_set[l] : layout_name[l]);
                        print_cell_row(lab, &R.r[R.n - 1]);
                    }
                }
            }
        }
    }

    /* 2. (dst - src) mod 4096 sweeps, memcpy and memmove without overlap. */
    static const int mod_dist[] = {0,  1,  2,   3,   4,   7,    8,    15,   16,   31,   32,   33,   48,  63,
                                   64, 65, 96, 128, 256, 512, 1024, 2048, 3072, 4032, 4064, 4080, 4094, 4095};
    const int nmd = (int)(sizeof mod_dist / sizeof mod_dist[0]);
    for (int r = 0; r <= ALTMEM_MEMMOVE; r++) {
        if (!o.routines[r])
            continue;
        for (int m = 0; m < o.nmod; m++) {
            char title[128], s[32];
            snprintf(title, sizeof title, "%s %s, src page-aligned, dst = src + span + distance: (dst - src) mod 4096",
                     altmem_routine_name((enum altmem_routine)r), size_label(o.mod_sizes[m], s, sizeof s));
            print_head(title, "  distance", r);
            for (int k = 0; k < nmd; k++) {
                struct cell c;
                memset(&c, 0, sizeof c);
                c.routine = (enum altmem_routine)r;
                c.mode = MODE_FIXED;
                c.layout = -1;
                c.n = (size_t)o.mod_sizes[m];
                c.src = b.src;
                c.dst = b.dst + mod_dist[k];
                run_cell(&o, &c, R_MOD, -1, 0, o.mod_sizes[m], mod_dist[k], (double)c.n, &b, samples);
                char lab[32];
                snprintf(lab, sizeof lab, "%10d", mod_dist[k]);
                print_cell_row(lab, &R.r[R.n - 1]);
            }
        }
    }

    /* 3. Size distributions: DIST_CALLS random calls per pass. */
    static struct dcall calls[DIST_CALLS];
    for (int i = 0; i < o.ndists; i++) {
        R.dist_names[i] = dists[i][0].name;
        for (int r = 0; r <= ALTMEM_MEMSET; r++) {
            if (!o.routines[r])
                continue;
            const struct bench_dist *dd = &dists[i][r == ALTMEM_MEMSET];
            for (int cold = 0; cold < 2; cold++) {
                if ((cold && !o.cold) || (!cold && !o.hot))
                    continue;
                size_t region = cold ? b.cold_len / 2 : (size_t)o.dist_region;
                uint32_t maxn = 0;
                for (size_t k = 0; k < dd->sizes.n; k++)
                    if (dd->sizes.value[k] > maxn)
                        maxn = dd->sizes.value[k];
                if ((size_t)maxn + 4096 >= region) {
                    fprintf(stderr, "altmem bench: --dist %s: size %u does not fit the %zu-byte region\n",
                            o.dists[i], maxn, region);
                    R.wrong = 1;
                    continue;
                }
                uint64_t seed = 0x2545f4914f6cdd1dull + (uint64_t)i;
                double bytes = 0;
                for (size_t k = 0; k < DIST_CALLS; k++) {
                    uint32_t n = bench_dist_draw(&dd->sizes, rng_next(&seed), 0);
                    uint32_t sa = bench_dist_draw(&dd->src_align, rng_next(&seed), 1);
                    uint32_t da = bench_dist_draw(&dd->dst_align, rng_next(&seed), 1);
                    uint64_t room = region - n - 64;
                    calls[k].n = n;
                    calls[k].src = (uint32_t)((rng_next(&seed) % room) & ~(uint64_t)(sa - 1));
                    calls[k].dst = (uint32_t)((rng_next(&seed) % room) & ~(uint64_t)(da - 1));
                    bytes += n;
                }
                R.dist_mean[i][r] = bytes / DIST_CALLS;
                struct cell c;
                memset(&c, 0, sizeof c);
                c.routine = (enum altmem_routine)r;
                c.mode = MODE_DIST;
                c.layout = -1;
                c.calls = calls;
                c.ncalls = DIST_CALLS;
                c.src = cold ? b.cold : b.src;
                c.dst = cold ? b.cold + b.cold_len / 2 : b.dst;
                run_cell(&o, &c, R_DIST, -1, cold, region, i, bytes / DIST_CALLS, &b, samples);
            }
        }
    }
    for (int i = 0; i < o.ndists; i++) {
        for (int r = 0; r <= ALTMEM_MEMSET; r++) {
            if (!o.routines[r])
                continue;
            char title[200];
            snprintf(title, sizeof title,
                     "%s, size distribution %s (mean %.0f B/call), %d random calls per pass; region = "
                     "where they fall",
                     altmem_routine_name((enum altmem_routine)r), R.dist_names[i], R.dist_mean[i][r], DIST_CALLS);
            int printed = 0;
            for (size_t k = 0; k < R.n; k++) {
                const struct result *x = &R.r[k];
                if (x->kind != R_DIST || x->routine != r || x->param != i || x->impl != 0)
                    continue;
                if (!printed++)
                    print_head(title, "  region  cache", r);
                char lab[48], s[32];
                snprintf(lab, sizeof lab, "%8s %-5s", size_label(x->size, s, sizeof s), x->cold ? "cold" : "hot");
                print_cell_row(lab, x);
            }
        }
    }

    double secs = (now_ns() - t_start) / 1e9;
    struct goal_report g;
    goals(libc, &g);
    double load[3];
    printf("\nrun time %.1f s; %ld cell measurement%s repeated for a spread above 25%%", secs, R.retries,
           R.retries == 1 ? "" : "s");
    if (getloadavg(load, 3) == 3)
        printf("; load average at end %.2f %.2f %.2f", load[0], load[1], load[2]);
    printf("\n\ngoals (the bound variant against %s, hot caches; docs/performance.md)\n", libc);
    for (int i = 0; i < g.n; i++)
        printf("  %s\n", g.line[i]);

    int status = R.wrong ? 1 : 0;
    if (csv) {
        for (size_t k = 0; k < R.n; k++)
            csv_row(csv, &R.r[k], o.reps);
        if (fclose(csv) != 0) {
            fprintf(stderr, "altmem bench: writing '%s': %s\n", o.csv, strerror(errno));
            status = 1;
        }
    }
    if (o.json && write_json(&o, &h, &g, secs) != 0) {
        fprintf(stderr, "altmem bench: writing '%s' failed\n", o.json);
        status = 1;
    }
    if (o.plot && write_plots(&o, libc) != 0) {
        fprintf(stderr, "altmem bench: --plot %s: some charts were not drawn\n", o.plot);
        status = 1;
    }
    munmap(b.map, b.map_len);
    if (b.cold)
        munmap(b.cold, b.cold_len);
    free(samples);
    free(R.r);
    if (R.wrong)
        fprintf(stderr, "altmem bench: some results were wrong or incomplete (see above)\n");
    return status;
}
