/*
 * `altmem bench`'s options: the usage text, a table of options (name, whether
 * a value follows, its handler), the defaults and the checks across options
 * (settle_options).  A COMMAND mode reads its own (modes.def).
 */
#define _GNU_SOURCE
#include "bench_run.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
            "  --align LIST       0/0, s+1/d+3, d+63, ovl-bwd, ovl-fwd (memmove only), all (default: these);\n"
            "                     ovl64-bwd, ovl64-fwd: memmove, dst = src + 64 / src = dst + 64, page-aligned\n"
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
            "  --caller use|discard hot cells: each call's result used and the routine's address read\n"
            "                     from memory before each call (default), or the result unused and the\n"
            "                     address held in a register, as most callers of memset do\n"
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
        {"ovl64-bwd", "overlap64_bwd", "d=s+64"}, {"ovl64-fwd", "overlap64_fwd", "s=d+64"},
    };
    o->layouts = 0;
    for (const char *p = arg;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int found = 0;
        if (len == 3 && !strncmp(p, "all", 3)) {
            o->layouts |= LAY_GRID_MASK;
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

static int opt_caller(struct options *o, const char *val)
{
    if (strcmp(val, "use") && strcmp(val, "discard"))
        return bad_option("bad --caller '%s' (use, discard)", val);
    o->caller_discards = !strcmp(val, "discard");
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
        return bad_option("bad --align '%s' (0/0, s+1/d+3, d+63, ovl-bwd, ovl-fwd, ovl64-bwd, ovl64-fwd, all)", val);
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
    {"--caller", 1, opt_caller},
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
    if (o->width_child) /* altmem's variant of that width per routine, as the one the goals judge */
        o->impls = "bound";
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
        o->layouts = LAY_GRID_MASK;
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


int bench_parse_options(int argc, char **argv, struct options *o)
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

/* Every word of --impl names something; -1 (and a message) otherwise. */
int bench_check_impl_list(const char *list)
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

