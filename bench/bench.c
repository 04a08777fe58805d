/*
 * `altmem bench`: throughput of every runnable variant of memcpy, memmove and
 * memset against a byte loop and the C library, per size and alignment.
 *
 * Method (docs/performance.md has the long form):
 *   - Interleaved: for each cell (routine, size, alignment), the implementations
 *     take turns, one sample each, A B C A B C ..., so that a slow phase of a
 *     shared machine lands on all of them rather than on one.
 *   - A sample is `calls` back-to-back calls timed with CLOCK_MONOTONIC;
 *     `calls` is calibrated once per cell and implementation so a sample lasts
 *     at least --min-sample-ms (at least one call).
 *   - Reported: the median over --reps samples, and the interquartile range as
 *     a percentage of it (min and max go to the CSV).
 *   - Pinned to one CPU, buffers mmap'd and written once before timing.
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
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "byteloop.h"

#ifndef ALTMEM_BENCH_CONFIG
#define ALTMEM_BENCH_CONFIG "unknown"
#endif

#define MAX_SIZES 64
#define MAX_IMPLS 16
#define MAX_SIZE (UINT64_C(1) << 30)
/* Slack after each buffer for the +1/+3 offsets; the buffer size is then
   rounded up to whole pages, so src and dst share their offset within a page. */
#define PAD 4096
#define MEMSET_BYTE 0xa5 /* not 0: some memsets special-case zero */

/* ---- What is measured ---------------------------------------------------- */

enum layout { LAY_ALIGNED, LAY_MISALIGNED, LAY_OVERLAP };

static const char *const layout_name[] = {"aligned", "s+1/d+3", "overlap"};
static const char *const layout_name_set[] = {"aligned", "d+3", "overlap"};
static const char *const layout_csv[] = {"aligned", "misaligned", "overlap"};

static const enum layout routine_layouts[ALTMEM_ROUTINE_COUNT][3] = {
    [ALTMEM_MEMCPY] = {LAY_ALIGNED, LAY_MISALIGNED},
    [ALTMEM_MEMMOVE] = {LAY_ALIGNED, LAY_MISALIGNED, LAY_OVERLAP},
    [ALTMEM_MEMSET] = {LAY_ALIGNED, LAY_MISALIGNED},
};
static const int routine_nlayouts[ALTMEM_ROUTINE_COUNT] = {2, 3, 2};

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

struct options {
    int routines[ALTMEM_ROUTINE_COUNT]; /* selected? */
    int any_routine;
    uint64_t sizes[MAX_SIZES];
    int nsizes;
    int reps;
    double min_sample_ms;
    int quick;
    const char *csv;
    int cpu;    /* -1: choose */
    int no_pin;
    int set_sizes, set_reps, set_ms;
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: altmem bench [options]\n"
            "  --routine R        memcpy, memmove, memset or all; repeatable or a comma list\n"
            "                     (default: all)\n"
            "  --sizes LIST       comma list of sizes in bytes, suffixes K M G (powers of 1024)\n"
            "  --sizes MIN:MAX    MIN, 2*MIN, 4*MIN, ... up to MAX (default: 8:64M)\n"
            "  --reps N           samples per implementation and cell (default: 21)\n"
            "  --min-sample-ms X  shortest sample, in milliseconds (default: 2)\n"
            "  --quick            7 sizes 8 B..2 MiB, 5 reps, 0.3 ms samples (smoke test)\n"
            "  --csv FILE         also write one row per cell and implementation to FILE\n"
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

/* "4096", "4K", "4KiB", "64M"; 0 on error (0 is not a valid size). */
static uint64_t parse_size(const char *s, const char *end)
{
    if (s == end || *s < '0' || *s > '9')
        return 0;
    uint64_t v = 0;
    while (s < end && *s >= '0' && *s <= '9') {
        if (v > MAX_SIZE)
            return 0;
        v = v * 10 + (uint64_t)(*s++ - '0');
    }
    unsigned shift = 0;
    if (s < end) {
        switch (*s) {
        case 'k': case 'K': shift = 10; break;
        case 'm': case 'M': shift = 20; break;
        case 'g': case 'G': shift = 30; break;
        case 'b': case 'B': break;
        default: return 0;
        }
        s++;
        if (shift && s < end && (*s == 'i' || *s == 'I'))
            s++;
        if (shift && s < end && (*s == 'b' || *s == 'B'))
            s++;
    }
    if (s != end || v > (MAX_SIZE >> shift))
        return 0;
    return v << shift;
}

static int parse_sizes(const char *arg, struct options *o)
{
    const char *colon = strchr(arg, ':');
    o->nsizes = 0;
    if (colon) {
        uint64_t lo = parse_size(arg, colon), hi = parse_size(colon + 1, colon + strlen(colon));
        if (!lo || !hi || lo > hi)
            return -1;
        for (uint64_t v = lo; v <= hi; v *= 2) {
            if (o->nsizes == MAX_SIZES)
                return -1;
            o->sizes[o->nsizes++] = v;
        }
        return 0;
    }
    for (const char *p = arg;;) {
        const char *e = strchr(p, ',');
        if (!e)
            e = p + strlen(p);
        uint64_t v = parse_size(p, e);
        if (!v || o->nsizes == MAX_SIZES)
            return -1;
        o->sizes[o->nsizes++] = v;
        if (!*e)
            return 0;
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
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
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
        int takes_value = !strcmp(a, "--routine") || !strcmp(a, "--sizes") || !strcmp(a, "--reps") ||
                          !strcmp(a, "--min-sample-ms") || !strcmp(a, "--csv") || !strcmp(a, "--cpu");
        if (takes_value && !val) {
            if (i + 1 >= argc)
                return bad_option("option '%s' needs a value", a);
            val = argv[++i];
        } else if (!takes_value && val) {
            return bad_option("option '%s' takes no value", a);
        }

        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--quick")) {
            o->quick = 1;
        } else if (!strcmp(a, "--no-pin")) {
            o->no_pin = 1;
        } else if (!strcmp(a, "--routine")) {
            if (parse_routines(val, o))
                return bad_option("bad --routine '%s' (memcpy, memmove, memset, all)", val);
        } else if (!strcmp(a, "--sizes")) {
            if (parse_sizes(val, o))
                return bad_option("bad --sizes '%s' (sizes 1..1G, at most 64 of them)", val);
            o->set_sizes = 1;
        } else if (!strcmp(a, "--reps")) {
            long v;
            if (parse_int(val, 1, 1000, &v))
                return bad_option("bad --reps '%s' (1..1000)", val);
            o->reps = (int)v;
            o->set_reps = 1;
        } else if (!strcmp(a, "--min-sample-ms")) {
            char *end;
            errno = 0;
            double v = strtod(val, &end);
            if (errno || end == val || *end || !(v > 0 && v <= 10000))
                return bad_option("bad --min-sample-ms '%s' (0 < X <= 10000)", val);
            o->min_sample_ms = v;
            o->set_ms = 1;
        } else if (!strcmp(a, "--csv")) {
            if (!*val)
                return bad_option("bad --csv '%s' (empty file name)", val);
            o->csv = val;
        } else if (!strcmp(a, "--cpu")) {
            long v;
            if (parse_int(val, 0, CPU_SETSIZE - 1, &v))
                return bad_option("bad --cpu '%s'", val);
            o->cpu = (int)v;
        } else {
            return bad_option("unknown option '%s'", argv[i]);
        }
    }
    if (!o->any_routine)
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
            o->routines[r] = 1;
    /* --quick sets what was not given explicitly, wherever it appears. */
    if (!o->set_sizes) {
        if (o->quick)
            parse_sizes("8,64,512,4K,32K,256K,2M", o);
        else
            parse_sizes("8:64M", o);
    }
    if (!o->set_reps)
        o->reps = o->quick ? 5 : 21;
    if (!o->set_ms)
        o->min_sample_ms = o->quick ? 0.3 : 2.0;
    return -1;
}

/* ---- Buffers ------------------------------------------------------------- */

struct buffers {
    unsigned char *map;
    size_t map_len;
    unsigned char *src; /* page-aligned, span bytes */
    unsigned char *dst; /* src + span: the same offset within a page */
    size_t span;
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

static int buffers_init(struct buffers *b, uint64_t max_size)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t pg = page > 0 ? (size_t)page : 4096;
    /* src, then dst right after it: one mapping, so the memmove overlap case
       (which needs about 1.5 * size) can run from src into dst's space. */
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

/* ---- Timing -------------------------------------------------------------- */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

struct cell {
    enum altmem_routine routine;
    enum layout layout;
    size_t n;
    unsigned char *dst;
    const unsigned char *src;
};

/* Time `calls` calls; returns nanoseconds.  The function pointer is re-read
   through a volatile each call and every result is folded into `acc`, which
   a barrier then consumes, so no call can be hoisted, merged or dropped. */
static double sample(const struct impl *im, const struct cell *c, uint64_t calls)
{
    uintptr_t acc = 0;
    double t0, t1;
    unsigned char *d = c->dst;
    const unsigned char *s = c->src;
    size_t n = c->n;
    switch (c->routine) {
    case ALTMEM_MEMCPY: {
        altmem_memcpy_fn *volatile f = im->fn.cpy;
        t0 = now_ns();
        for (uint64_t i = 0; i < calls; i++) {
            acc += (uintptr_t)f(d, s, n);
            __asm__ volatile("" : "+r"(acc) : : "memory");
        }
        t1 = now_ns();
        break;
    }
    case ALTMEM_MEMMOVE: {
        altmem_memmove_fn *volatile f = im->fn.mov;
        t0 = now_ns();
        for (uint64_t i = 0; i < calls; i++) {
            acc += (uintptr_t)f(d, s, n);
            __asm__ volatile("" : "+r"(acc) : : "memory");
        }
        t1 = now_ns();
        break;
    }
    default: {
        altmem_memset_fn *volatile f = im->fn.set;
        t0 = now_ns();
        for (uint64_t i = 0; i < calls; i++) {
            acc += (uintptr_t)f(d, MEMSET_BYTE, n);
            __asm__ volatile("" : "+r"(acc) : : "memory");
        }
        t1 = now_ns();
        break;
    }
    }
    bench_sink = acc + d[n - 1];
    return t1 - t0;
}

/* Smallest call count (at least 1) whose sample lasts target_ns; the first
   timed runs double as warm-up of caches, TLB and branch predictors. */
static uint64_t calibrate(const struct impl *im, const struct cell *c, double target_ns)
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
   re-patterned every time because the memmove overlap cells scribble on it. */
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
    if (c->layout == LAY_OVERLAP) {
        fill_pattern(b->map, 0, (size_t)(c->dst - b->map) + n);
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

/* ---- Output -------------------------------------------------------------- */

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


static void print_table_head(enum altmem_routine r, const struct impl *im, int nimpl, int nvar,
                             int ratio_w[])
{
    printf("\n%s\n", altmem_routine_name(r));
    printf("%8s %-8s", "", "");
    for (int i = 0; i < nimpl; i++)
        printf(" | %-21s", im[i].heading); /* as wide as "  GB/s   ns/call iqr%" */
    printf(" |");
    int col = 0;
    for (int v = 0; v < nvar; v++)
        for (int ref = 0; ref < 2; ref++) {
            char h[48];
            snprintf(h, sizeof h, "%s/%s", im[v].name, ref ? "libc" : "byte");
            ratio_w[col] = (int)strlen(h) < 6 ? 6 : (int)strlen(h);
            printf(" %*s", ratio_w[col], h);
            col++;
        }
    printf("\n%8s %-8s", "size", "align");
    for (int i = 0; i < nimpl; i++)
        printf(" | %6s %9s %4s", "GB/s", "ns/call", "iqr%");
    printf(" |\n");
}

static void print_row(uint64_t n, const char *align, const struct impl *im, const struct stat5 *st,
                      int nimpl, int nvar, const int ratio_w[])
{
    char sl[32], b1[32], b2[32];
    int byte_i = nvar, libc_i = nvar + 1;
    printf("%8s %-8s", size_label(n, sl, sizeof sl), align);
    for (int i = 0; i < nimpl; i++) {
        double gbps = (double)n / st[i].med;
        double iqr = 100.0 * (st[i].q3 - st[i].q1) / st[i].med;
        printf(" | %6s %9s %4.0f", num(gbps, b1, sizeof b1), num(st[i].med, b2, sizeof b2), iqr);
    }
    printf(" |");
    int col = 0;
    for (int v = 0; v < nvar; v++) {
        printf(" %*.2f", ratio_w[col++], st[byte_i].med / st[v].med);
        printf(" %*.2f", ratio_w[col++], st[libc_i].med / st[v].med);
    }
    for (int i = 0; i < nimpl; i++)
        if (st[i].wrong)
            printf("  WRONG RESULT: %s", im[i].heading);
    printf("\n");
    fflush(stdout);
}

static void csv_row(FILE *f, enum altmem_routine r, uint64_t n, enum layout l, const struct impl *im,
                    const struct stat5 *st, int reps)
{
    fprintf(f, "%s,%" PRIu64 ",%s,%s,%s,%" PRIu64 ",%d,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f\n",
            altmem_routine_name(r), n, layout_csv[l], im->name, kind_csv[im->kind], st->calls, reps,
            st->med, st->min, st->max, (double)n / st->med, (double)n / st->max, (double)n / st->min);
}

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

static void print_header(int argc, char **argv, const struct options *o, const char *libc,
                         const char *pinned, const struct buffers *b)
{
    struct altmem_cpu_info cpu;
    char f1[160], f2[160], c1[32], c2[32], c3[32], tbuf[64], thp[32];
    altmem_cpu(&cpu);
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(tbuf, sizeof tbuf, "%Y-%m-%d %H:%M:%S UTC", &tm);

    printf("altmem bench (altmem %s)\n", ALTMEM_VERSION_STRING);
    print_command(argc, argv);
    printf("date:     %s\n", tbuf);
    printf("cpu:      %s%s%s; features %s", cpu.arch, cpu.notes && cpu.notes[0] ? ", " : "",
           cpu.notes ? cpu.notes : "", features(cpu.detected, f1, sizeof f1));
    if (cpu.active != cpu.detected)
        printf(" (in use: %s)", features(cpu.active, f2, sizeof f2));
    printf("; L1d %s, L2 %s, L3 %s\n", cache_label(cpu.l1d_bytes, c1, sizeof c1),
           cache_label(cpu.l2_bytes, c2, sizeof c2), cache_label(cpu.l3_bytes, c3, sizeof c3));
    printf("libc:     %s (its memcpy/memmove/memset, called through a volatile function pointer)\n", libc);
    printf("build:    %s, %s\n", ALTMEM_BENCH_CONFIG, compiler());
    printf("bound:   ");
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        struct altmem_binding_info bi;
        if (altmem_binding((enum altmem_routine)r, &bi) == 0)
            printf(" %s=%s", altmem_routine_name((enum altmem_routine)r), bi.variant);
    }
    printf("  (the bench calls each variant directly, not through the binding)\n");
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) == 0 && !v.runnable)
            printf("skipped:  %s %s (needs %s: not runnable here)\n", altmem_routine_name(v.routine),
                   v.name, features(v.requires, f1, sizeof f1));
    }
    printf("pinned:   %s\n", pinned);
    /* Other work on the machine is the main source of noise: say how much there was. */
    double load[3];
    if (getloadavg(load, 3) == 3)
        printf("load:     %.2f %.2f %.2f (1, 5, 15 min) at start, on %ld online CPUs%s\n", load[0], load[1],
               load[2], sysconf(_SC_NPROCESSORS_ONLN),
               load[0] >= 0.5 ? " -- other work is running: expect noise" : "");
    printf("method:   interleaved, %d samples per cell and implementation, each >= %g ms "
           "(call count calibrated once per cell and implementation); median shown\n",
           o->reps, o->min_sample_ms);
    printf("buffers:  one mmap of %.1f MiB, written before timing; dst = src + %zu KiB "
           "(same page offset); transparent hugepages: %s\n",
           (double)b->map_len / (1 << 20), b->span >> 10, thp_mode(thp, sizeof thp));
    printf("layouts:  aligned = src+0/dst+0 (page-aligned); s+1/d+3 = src+1/dst+3; memset d+3 = dst+3;\n"
           "          overlap = memmove, src+1, dst = src + n/2 + 2 (n/2 when n < 5; n = 1: dst = src)\n");
    printf("columns:  GB/s = size / median time (1e9 bytes/s); ns/call = median; iqr%% = interquartile\n"
           "          range / median; v/byte and v/libc = speed of variant v over the byte loop / libc\n");
    printf("memset:   stores 0x%02x\n", MEMSET_BYTE);
    fflush(stdout);
}

/* ---- Goals --------------------------------------------------------------- */

struct results {
    struct stat5 *st;
    int nsizes;
    struct impl impls[ALTMEM_ROUTINE_COUNT][MAX_IMPLS];
    int nimpl[ALTMEM_ROUTINE_COUNT], nvar[ALTMEM_ROUTINE_COUNT];
    int measured[ALTMEM_ROUTINE_COUNT];
};

static struct stat5 *res_at(const struct results *R, int r, int si, int li)
{
    return R->st + (((size_t)r * (size_t)R->nsizes + (size_t)si) * 3 + (size_t)li) * MAX_IMPLS;
}

static int impl_index(const struct results *R, int r, const char *name, enum impl_kind kind)
{
    for (int i = 0; i < R->nimpl[r]; i++)
        if (R->impls[r][i].kind == kind && (kind != IMPL_ALTMEM || !strcmp(R->impls[r][i].name, name)))
            return i;
    return -1;
}

/* Geometric mean of libc time / impl time over every cell of routine r
   (r < 0: of every routine); 0 when nothing was measured. */
static double geomean_vs_libc(const struct results *R, const struct options *o, int r, const char *name,
                              enum impl_kind kind)
{
    double sum = 0;
    int count = 0;
    for (int rr = 0; rr < ALTMEM_ROUTINE_COUNT; rr++) {
        if ((r >= 0 && rr != r) || !R->measured[rr])
            continue;
        int i = impl_index(R, rr, name, kind), libc_i = impl_index(R, rr, NULL, IMPL_LIBC);
        if (i < 0 || libc_i < 0)
            continue;
        for (int si = 0; si < o->nsizes; si++)
            for (int li = 0; li < routine_nlayouts[rr]; li++) {
                const struct stat5 *st = res_at(R, rr, si, li);
                sum += log(st[libc_i].med / st[i].med);
                count++;
            }
    }
    return count ? exp(sum / count) : 0;
}

static void print_goals(const struct results *R, const struct options *o, const char *libc, double seconds)
{
    double load[3];
    printf("\nrun time %.1f s", seconds);
    if (getloadavg(load, 3) == 3)
        printf("; load average at end %.2f %.2f %.2f", load[0], load[1], load[2]);
    printf("\n\ngoals\n");
    int si4k = -1;
    for (int si = 0; si < o->nsizes; si++)
        if (o->sizes[si] == 4096)
            si4k = si;
    printf("  generic vs byte loop at 4 KiB, src+1/dst+3 (memset dst+3); goal for memcpy >= 4x:\n");
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        if (!R->measured[r])
            continue;
        int g = impl_index(R, r, "generic", IMPL_ALTMEM), bl = impl_index(R, r, NULL, IMPL_BYTELOOP);
        printf("    %-8s ", altmem_routine_name((enum altmem_routine)r));
        if (si4k < 0 || g < 0) {
            printf("not measured (%s)\n", si4k < 0 ? "4096 not in --sizes" : "no generic variant");
            continue;
        }
        const struct stat5 *st = res_at(R, r, si4k, 1);
        double ratio = st[bl].med / st[g].med;
        printf("%.2fx", ratio);
        if (r == ALTMEM_MEMCPY)
            printf("  (goal >= 4x: %s)", ratio >= 4 ? "met" : "NOT met");
        printf("\n");
    }

    printf("  speed relative to %s, geometric mean over every size and alignment measured:\n", libc);
    printf("    %-10s", "");
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        if (R->measured[r])
            printf(" %8s", altmem_routine_name((enum altmem_routine)r));
    printf(" %8s\n", "all");
    /* Every variant name that occurs, in preference order of first sighting. */
    const char *names[MAX_IMPLS * ALTMEM_ROUTINE_COUNT];
    int nnames = 0;
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        for (int i = 0; R->measured[r] && i < R->nvar[r]; i++) {
            int seen = 0;
            for (int k = 0; k < nnames; k++)
                seen |= !strcmp(names[k], R->impls[r][i].name);
            if (!seen)
                names[nnames++] = R->impls[r][i].name;
        }
    for (int k = 0; k <= nnames; k++) {
        const char *name = k < nnames ? names[k] : NULL;
        enum impl_kind kind = k < nnames ? IMPL_ALTMEM : IMPL_BYTELOOP;
        printf("    %-10s", name ? name : "byte loop");
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
            if (!R->measured[r])
                continue;
            double g = geomean_vs_libc(R, o, r, name, kind);
            if (g > 0)
                printf(" %7.2fx", g);
            else
                printf(" %8s", "-");
        }
        printf(" %7.2fx\n", geomean_vs_libc(R, o, -1, name, kind));
    }
}

/* ---- Main ---------------------------------------------------------------- */

static void cell_pointers(struct cell *c, const struct buffers *b)
{
    switch (c->layout) {
    case LAY_ALIGNED:
        c->src = b->src;
        c->dst = b->dst;
        break;
    case LAY_MISALIGNED:
        c->src = b->src + 1;
        c->dst = b->dst + 3;
        break;
    case LAY_OVERLAP: {
        /* dst above src and inside [src, src + n): memmove must copy
           backward.  n/2 + 2 keeps about half the range overlapping and
           makes dst - src not a multiple of 8 for power-of-two n, so the
           strict-alignment variant has to shift and merge. */
        size_t d = c->n / 2 + 2 < c->n ? c->n / 2 + 2 : c->n / 2;
        c->src = b->src + 1;
        c->dst = b->src + 1 + d;
        break;
    }
    }
}

static void add_impl(struct results *R, int r, const char *name, const char *heading, enum impl_kind kind,
                     union routine_fn fn)
{
    if (R->nimpl[r] == MAX_IMPLS)
        return;
    struct impl *im = &R->impls[r][R->nimpl[r]++];
    im->name = name;
    im->heading = heading;
    im->kind = kind;
    im->fn = fn;
}

int altmem_bench_main(int argc, char **argv)
{
    double t_start = now_ns();
    struct options o;
    memset(&o, 0, sizeof o);
    o.cpu = -1;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;

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

    uint64_t max_size = 0;
    for (int si = 0; si < o.nsizes; si++)
        if (o.sizes[si] > max_size)
            max_size = o.sizes[si];
    struct buffers b;
    if (buffers_init(&b, max_size) != 0) {
        fprintf(stderr, "altmem bench: cannot map buffers for %" PRIu64 " bytes: %s\n", max_size,
                strerror(errno));
        if (csv)
            fclose(csv);
        return 1;
    }

    char libc[64];
#ifdef __GLIBC__
    snprintf(libc, sizeof libc, "glibc %s", gnu_get_libc_version());
#else
    snprintf(libc, sizeof libc, "libc");
#endif

    static struct results R;
    memset(&R, 0, sizeof R);
    R.nsizes = o.nsizes;
    R.st = calloc((size_t)ALTMEM_ROUTINE_COUNT * (size_t)o.nsizes * 3 * MAX_IMPLS, sizeof *R.st);
    double *samples = calloc((size_t)MAX_IMPLS * (size_t)o.reps, sizeof *samples);
    if (!R.st || !samples) {
        fprintf(stderr, "altmem bench: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) != 0 || !v.runnable || (unsigned)v.routine >= ALTMEM_ROUTINE_COUNT)
            continue;
        union routine_fn fn;
        memcpy(&fn, &v.fn, sizeof fn);
        /* v.name points into the library's table, which outlives this run. */
        add_impl(&R, v.routine, v.name, v.name, IMPL_ALTMEM, fn);
    }
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        union routine_fn byte, lib;
        R.nvar[r] = R.nimpl[r];
        if (R.nimpl[r] > MAX_IMPLS - 2)
            R.nvar[r] = R.nimpl[r] = MAX_IMPLS - 2;
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
        add_impl(&R, r, "byteloop", "byte loop", IMPL_BYTELOOP, byte);
        add_impl(&R, r, libc, libc, IMPL_LIBC, lib);
    }

    print_header(argc, argv, &o, libc, pinned, &b);
    if (csv)
        fprintf(csv, "routine,size,align,impl,kind,calls_per_sample,reps,ns_median,ns_min,ns_max,"
                     "gbps_median,gbps_min,gbps_max\n");

    int wrong = 0;
    double target_ns = o.min_sample_ms * 1e6;
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        if (!o.routines[r])
            continue;
        R.measured[r] = 1;
        const struct impl *im = R.impls[r];
        int nimpl = R.nimpl[r], nvar = R.nvar[r];
        int ratio_w[2 * MAX_IMPLS];
        print_table_head((enum altmem_routine)r, im, nimpl, nvar, ratio_w);
        for (int si = 0; si < o.nsizes; si++) {
            for (int li = 0; li < routine_nlayouts[r]; li++) {
                struct cell c = {(enum altmem_routine)r, routine_layouts[r][li], (size_t)o.sizes[si], NULL,
                                 NULL};
                cell_pointers(&c, &b);
                struct stat5 *st = res_at(&R, r, si, li);
                for (int i = 0; i < nimpl; i++) {
                    st[i].wrong = check_result(&im[i], &c, &b) != 0;
                    wrong |= st[i].wrong;
                    st[i].calls = calibrate(&im[i], &c, target_ns);
                }
                for (int rep = 0; rep < o.reps; rep++)
                    for (int i = 0; i < nimpl; i++)
                        samples[i * o.reps + rep] = sample(&im[i], &c, st[i].calls) / (double)st[i].calls;
                for (int i = 0; i < nimpl; i++) {
                    summarise(samples + i * o.reps, o.reps, &st[i]);
                    if (csv)
                        csv_row(csv, (enum altmem_routine)r, o.sizes[si], c.layout, &im[i], &st[i], o.reps);
                }
                const char *const *names = r == ALTMEM_MEMSET ? layout_name_set : layout_name;
                print_row(o.sizes[si], names[c.layout], im, st, nimpl, nvar, ratio_w);
            }
        }
    }
    print_goals(&R, &o, libc, (now_ns() - t_start) / 1e9);

    if (csv && fclose(csv) != 0) {
        fprintf(stderr, "altmem bench: writing '%s': %s\n", o.csv, strerror(errno));
        wrong = 1;
    }
    munmap(b.map, b.map_len);
    free(samples);
    free(R.st);
    if (wrong)
        fprintf(stderr, "altmem bench: some results were wrong or incomplete (see above)\n");
    return wrong ? 1 : 0;
}
