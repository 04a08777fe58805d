/*
 * `altmem bench`, the reporting part: the header, the tables' heads and rows
 * (each mode prints its own tables with them), CSV, JSON and gnuplot charts,
 * all read from the results of one run (bench_run.h).
 */
#define _GNU_SOURCE
#include "bench_run.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchlib.h"

#ifndef ALTMEM_BENCH_CONFIG
#define ALTMEM_BENCH_CONFIG "unknown"
#endif

/* ---- Output helpers -------------------------------------------------------- */

const char *size_label(uint64_t n, char *buf, size_t len)
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

const char *features(uint64_t mask, char *buf, size_t len)
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

/* Time columns for every implementation but the control, which shows only
   as a ratio: it is the C library's routine again. */
static int has_time_columns(const struct impl *im)
{
    return im->kind != IMPL_CONTROL;
}

/* Ratio columns: one per implementation that is not the C library. */
void print_head(const struct run *run, const char *title, const char *rowhead, int r)
{
    bench_progress_clear();
    int np = run->r && run->n ? run->r[0].npass : 1;
    printf("\n%s\n%-18s", title, rowhead);
    for (int i = 0; i < run->nimpl[r]; i++)
        if (has_time_columns(&run->impls[r][i]))
            printf(" | %-21.21s", run->impls[r][i].heading);
    if (np > 1)
        printf(" | speed vs libc, over %d processes; +-: what the run resolves there\n%-18s", np, "");
    else
        printf(" | speed vs libc (libc time / time)\n%-18s", "");
    for (int i = 0; i < run->nimpl[r]; i++)
        if (has_time_columns(&run->impls[r][i]))
            printf(" | %6s %9s %4s", "GB/s", "ns/call", "sp%");
    printf(" |");
    for (int i = 0; i < run->nimpl[r]; i++)
        if (run->impls[r][i].kind != IMPL_LIBC)
            printf(" %12.12s", run->impls[r][i].name);
    printf("\n");
}

void print_cell_row(const struct run *run, const char *label, const struct result *first)
{
    int r = first->routine;
    char b1[32], b2[32];
    bench_progress_clear();
    printf("%-18s", label);
    for (int i = 0; i < run->nimpl[r]; i++) {
        if (!has_time_columns(&run->impls[r][i]))
            continue;
        const struct result *x = same_cell(run, first, i);
        if (!x) {
            printf(" | %6s %9s %4s", "-", "-", "-");
            continue;
        }
        if (x->npass > 1)
            printf(" | %6s %9s %4.0f", x->bytes > 0 ? num(gbps(x), b1, sizeof b1) : "-",
                   num(x->st.med, b2, sizeof b2), x->st.med > 0 ? 100.0 * (x->pass_hi - x->pass_lo) / x->st.med : 0);
        else
            printf(" | %6s %9s %4s", x->bytes > 0 ? num(gbps(x), b1, sizeof b1) : "-",
                   num(x->st.med, b2, sizeof b2), "-");
    }
    printf(" |");
    for (int i = 0; i < run->nimpl[r]; i++) {
        if (run->impls[r][i].kind == IMPL_LIBC)
            continue;
        const struct result *x = same_cell(run, first, i);
        double v = x ? vs_libc(run, x) : 0;
        if (v > 0 && x->npass > 1)
            printf(" %6.2f \u00b1%4.2f", v, (x->ratio_hi - x->ratio_lo) / 2);
        else if (v > 0)
            printf(" %6.2f %5s", v, "");
        else
            printf(" %12s", "-");
    }
    for (int i = 0; i < run->nimpl[r]; i++) {
        const struct result *x = same_cell(run, first, i);
        if (x && x->st.wrong)
            printf("  WRONG RESULT: %s", run->impls[r][i].heading);
    }
    printf("\n");
    fflush(stdout);
}

/* A cell's name for the summaries: "memcpy 32 B 0/0", "memmove 4 KiB distance 63". */
static void cell_label(const struct run *run, const struct result *x, char *buf, size_t len)
{
    char s[32];
    const char *r = altmem_routine_name((enum altmem_routine)x->routine);
    if (x->kind == R_GRID)
        snprintf(buf, len, "%s %s %s%s", r, size_label(x->size, s, sizeof s), layout_label(x->routine, x->layout),
                 x->cold ? " cold" : "");
    else if (x->kind == R_MOD)
        snprintf(buf, len, "%s %s distance %d", r, size_label(x->size, s, sizeof s), x->param);
    else
        snprintf(buf, len, "%s %s%s", r, run->dist_names[x->param], x->cold ? " cold" : "");
}

#define RESOLUTION_LISTED 8 /* cells named per line; the CSV has them all */

/* Up to RESOLUTION_LISTED cell names with a figure each, then "...". */
struct cell_list {
    char text[RESOLUTION_LISTED * 72 + 8];
    size_t used;
    int n;
};

static void list_add(const struct run *run, struct cell_list *l, const struct result *x, const char *fmt, double v)
{
    if (++l->n > RESOLUTION_LISTED)
        return;
    char lab[96], fig[32];
    cell_label(run, x, lab, sizeof lab);
    snprintf(fig, sizeof fig, fmt, v);
    l->used += (size_t)snprintf(l->text + l->used, sizeof l->text - l->used, "%s%s (%s)", l->used ? ", " : "", lab,
                                fig);
}

static const char *list_end(const struct cell_list *l)
{
    return l->n > RESOLUTION_LISTED ? ", ..." : "";
}

void print_resolution(const struct run *run)
{
    int nc = 0, nw = 0;
    double *dev = malloc((run->n ? run->n : 1) * sizeof *dev), *width = malloc((run->n ? run->n : 1) * sizeof *width);
    if (!dev || !width) {
        free(dev);
        free(width);
        return;
    }
    const struct result *worst = NULL;
    struct cell_list outside = {.used = 0}, wide = {.used = 0};
    int np = run->n ? run->r[0].npass : 1;
    for (size_t k = 0; k < run->n; k++) {
        const struct result *x = &run->r[k];
        enum impl_kind kind = run->impls[x->routine][x->impl].kind;
        if (x->ratio <= 0)
            continue;
        if (kind == IMPL_CONTROL) {
            double d = fabs(x->ratio - 1);
            dev[nc++] = d;
            if (!worst || d > fabs(worst->ratio - 1))
                worst = x;
            if (!control_ok(x))
                list_add(run, &outside, x, "%.3f", x->ratio);
        } else if (kind == IMPL_ALTMEM && np > 1) {
            width[nw++] = x->ratio_hi / x->ratio - 1;
            if (!interval_ok(x))
                list_add(run, &wide, x, "+-%.0f%%", 100 * (x->ratio_hi / x->ratio - 1));
        }
    }
    /* The control is the same code twice: its two measurements vary together
       more than two different functions' do, so the intervals of the
       comparisons themselves are what the run resolves. */
    if (nw) {
        bench_sort(width, nw);
        printf("resolution: altmem's speed against the C library is known to +-%.1f%% in the median cell, "
               "+-%.1f%% at the 90th percentile (2 standard errors over the %d processes, widened by the "
               "control's distance from 1); %d of %d cells wider than +-%.0f%%, where the run cannot resolve "
               "%.0f%%%s%s%s\n",
               100 * bench_quantile(width, nw, 0.5), 100 * bench_quantile(width, nw, 0.9), np, wide.n, nw,
               100 * RESOLVE_RATIO, 100 * RESOLVE_RATIO, wide.n ? ": " : "", wide.text, list_end(&wide));
    } else if (np <= 1) {
        printf("resolution: one process (--processes 1): no spread over processes, no interval\n");
    }
    if (nc) {
        bench_sort(dev, nc);
        char lab[96];
        cell_label(run, worst, lab, sizeof lab);
        printf("control:    the C library under a second name against the C library, %d cells: median "
               "|1 - ratio| %.1f%%, 90th percentile %.1f%%, largest %.1f%% (%s); %d cell%s outside "
               "%.2f-%.2f, which the run cannot resolve%s%s%s\n",
               nc, 100 * bench_quantile(dev, nc, 0.5), 100 * bench_quantile(dev, nc, 0.9), 100 * dev[nc - 1], lab,
               outside.n, outside.n == 1 ? "" : "s", 1 - CONTROL_BAND, 1 + CONTROL_BAND, outside.n ? ": " : "",
               outside.text, list_end(&outside));
    }
    free(dev);
    free(width);
}

const char *result_align_name(const struct run *run, const struct result *x, char *buf, size_t len)
{
    if (x->kind == R_GRID)
        snprintf(buf, len, "%s", layout_csv[x->layout]);
    else if (x->kind == R_MOD)
        snprintf(buf, len, "mod4096:%d", x->param);
    else
        snprintf(buf, len, "dist:%s", run->dist_names[x->param]);
    return buf;
}

void csv_header(FILE *f)
{
    fprintf(f, "routine,size,align,impl,kind,calls_per_sample,reps,processes,ns_median,ns_min,ns_max,"
               "gbps_median,gbps_min,gbps_max,cache,vs_libc,vs_libc_lo,vs_libc_hi\n");
}

void csv_row(const struct run *run, FILE *f, const struct result *x, int reps)
{
    char al[96];
    const struct impl *im = &run->impls[x->routine][x->impl];
    double g = x->bytes;
    fprintf(f, "%s,%" PRIu64 ",%s,%s,%s,%" PRIu64 ",%d,%d,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f,%s,%.4f,%.4f,%.4f\n",
            altmem_routine_name((enum altmem_routine)x->routine), x->size, result_align_name(run, x, al, sizeof al), im->name,
            kind_csv[im->kind], x->st.calls, reps, x->npass, x->st.med, x->st.min, x->st.max, g / x->st.med,
            g / x->st.max, g / x->st.min, x->cold ? "cold" : "hot", vs_libc(run, x), x->ratio_lo, x->ratio_hi);
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

/* How far the timed calls go: from the bench's timing loops to altmem's code and
   the C library's.  An exec'd program (a PIE at 0x55...) lies far from the
   libraries (0x7f...); started through an explicit loader it lies among them, and
   on Zen 4 each small call then costs about 3 cycles less, for every
   implementation alike (docs/performance.md, "A program started through an
   explicit loader runs its small calls faster"). */
static void print_call_distance(void)
{
    void *(*volatile to_altmem)(void *, const void *, size_t) = altmem_memcpy;
    void *(*volatile to_libc)(void *, const void *, size_t) = memcpy;
    uintptr_t from = (uintptr_t)&print_call_distance, a = (uintptr_t)to_altmem, l = (uintptr_t)to_libc;
    uintptr_t da = from > a ? from - a : a - from, dl = from > l ? from - l : l - from;
    uintptr_t far = (uintptr_t)1 << 31; /* beyond a rel32's reach */
    printf("calls:    from the bench at %#" PRIxPTR " to altmem at %#" PRIxPTR " (%s) and the C library at %#" PRIxPTR
           " (%s)%s\n",
           from, a, da >= far ? "far" : "near", l, dl >= far ? "far" : "near",
           da >= far || dl >= far ? ": an exec'd program; through an explicit loader all lie near (docs/performance.md)"
                                  : "");
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

const char *method_line(const struct options *o, char *buf, size_t len)
{
    if (o->processes > 1)
        snprintf(buf, len,
                 "%d fresh processes x %d rounds per cell of samples >= %g ms (cells <= %d B: %d rounds of "
                 ">= %.2g ms) over %d sweeps of the cells, implementations in a random order per round, each "
                 "through timing loops of its own%s%s; a ratio = 20%%-trimmed mean of the per-round ratios; a "
                 "control (libc under a second name) in every cell",
                 o->processes, o->reps, o->min_sample_ms, SHORT_CELL_BYTES, SHORT_CELL_FACTOR * o->reps,
                 o->min_sample_ms / SHORT_CELL_FACTOR, o->sweeps, o->shared_loops ? " (no: --loops shared)" : "",
                 o->caller_discards ? ", results unused (--caller discard)" : "");
    else
        snprintf(buf, len,
                 "1 process x %d rounds per cell (over %d sweeps of the cells; --processes 1: no spread over "
                 "processes), implementations in a random order per round, each through timing loops of its own%s%s, "
                 "samples >= %g ms; a control (libc under a second name) in every cell",
                 o->reps, o->sweeps, o->shared_loops ? " (no: --loops shared)" : "",
                 o->caller_discards ? ", results unused (--caller discard)" : "", o->min_sample_ms);
    return buf;
}

/* Pin to one CPU: `want`, or by default the highest-numbered CPU we may use,
   since CPU 0 is where many systems steer interrupts and housekeeping. */
void print_header(int argc, char **argv, const struct options *o, const char *libc, const char *pinned,
                         const struct buffers *b, struct header *h)
{
    struct altmem_cpu_info cpu;
    char f1[160], f2[160], c1[32], c2[32], c3[32], thp[32], mline[400];
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
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        struct altmem_binding_info bi;
        if (bench_routine_in_libc(r) && altmem_binding((enum altmem_routine)r, &bi) == 0)
            used += (size_t)snprintf(h->bound + used, sizeof h->bound - used, "%s%s=%s (%s)", used ? " " : "",
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
        if (altmem_variant(i, &v) == 0 && !v.runnable && bench_routine_in_libc(v.routine))
            printf("skipped:  %s %s (needs %s: not runnable here)\n", altmem_routine_name(v.routine), v.name,
                   features(v.requires, f1, sizeof f1));
    }
    printf("pinned:   %s\n", pinned);
    printf("memload:  %s\n", h->memload);
    if (h->load[0])
        printf("load:     %s\n", h->load);
    printf("method:   %s\n", method_line(o, mline, sizeof mline));
    printf("buffers:  one mmap of %.1f MiB, written before timing; dst = src + %zu KiB (same page offset)",
           (double)b->map_len / (1 << 20), b->span >> 10);
    if (b->cold)
        printf("; cold arena %.0f MiB", (double)b->cold_len / (1 << 20));
    printf("; transparent hugepages: %s\n", thp_mode(thp, sizeof thp));
    printf("layouts:  0/0 = src+0/dst+0 (page-aligned); s+1/d+3 = src+1/dst+3; d+63 = src+0/dst+63;\n"
           "          ovl d>s = memmove, dst = src + n/2 + 2 (copied backward); ovl d<s = src = dst + n/2 + 2\n"
           "          (forward); d=s+64, s=d+64 (when asked for) = memmove with src or dst page-aligned, 64 apart;\n"
           "          memset: 0, d+3, d+63.  cold = every call on a fresh place in the arena\n");
    printf("columns:  GB/s = size / time; ns/call = median over the processes of each one's 20%%-trimmed mean;\n"
           "          sp%% = (slowest - fastest process) / that; speed vs libc = libc's time / the implementation's:\n"
           "          the trimmed mean of the per-round ratios of every process, +- 2 standard errors over the\n"
           "          processes and the control's distance from 1; control = the C library's routine again,\n"
           "          under a second name (docs/performance.md, \"Method\")\n");
    printf("memset:   stores 0x%02x\n", MEMSET_BYTE);
    print_call_distance();
    fflush(stdout);
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
static int plot_one(const struct run *run, const char *dir, const char *name, const char *title, int r,
                    enum rkind kind, int layout, int cold, uint64_t size, const char *xlabel, int logx, int ratio,
                    FILE *index)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s.dat", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# %s\n# x", title);
    for (int i = 0; i < run->nimpl[r]; i++)
        fprintf(f, "\t%s", run->impls[r][i].heading);
    fprintf(f, "\n");
    int rows = 0;
    for (size_t k = 0; k < run->n; k++) {
        const struct result *x = &run->r[k];
        if (x->kind != kind || x->routine != r || x->cold != cold || x->impl != 0 ||
            (kind == R_GRID && (x->layout != layout || x->size == 0)) || (kind == R_MOD && x->size != size))
            continue;
        fprintf(f, "%" PRIu64, kind == R_GRID ? x->size : (uint64_t)x->param);
        for (int i = 0; i < run->nimpl[r]; i++) {
            const struct result *y = same_cell(run, x, i);
            fprintf(f, "\t%.4f", !y ? NAN : ratio ? vs_libc(run, y) : gbps(y));
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
        for (int i = 0; i < run->nimpl[r]; i++)
            fprintf(f, "%s\"%s.dat\" using 1:%d with linespoints title \"%s\"", i ? ", \\\n     " : "", name, i + 2,
                    run->impls[r][i].heading);
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

int write_plots(const struct run *run)
{
    const struct options *o = run->o;
    const char *libc = run->libc;
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
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT && bad != -2; r++) {
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
                         layout_label(r, (enum layout)l), cold ? "cold" : "hot", libc);
                int rc = plot_one(run, o->plot, name, title, r, R_GRID, l, cold, 0, "size, bytes", 1, 0, index);
                bad = rc < 0 ? rc : bad;
                charts += rc == 0;
                if (rc == 0) {
                    char rname[112], rtitle[220];
                    snprintf(rname, sizeof rname, "%s-ratio", name);
                    snprintf(rtitle, sizeof rtitle, "%s, %s, %s caches: speed relative to %s (above 1: faster)", rn,
                             layout_label(r, (enum layout)l), cold ? "cold" : "hot", libc);
                    rc = plot_one(run, o->plot, rname, rtitle, r, R_GRID, l, cold, 0, "size, bytes", 1, 1, index);
                    bad = rc < 0 ? rc : bad;
                }
            }
        for (int m = 0; m < o->nmod && bad != -2; m++) {
            char name[96], title[200], s[32];
            snprintf(name, sizeof name, "%s-mod4096-%" PRIu64, rn, o->mod_sizes[m]);
            snprintf(title, sizeof title, "%s %s: throughput against (dst - src) mod 4096", rn,
                     size_label(o->mod_sizes[m], s, sizeof s));
            int rc = plot_one(run, o->plot, name, title, r, R_MOD, -1, 0, o->mod_sizes[m], "(dst - src) mod 4096, bytes",
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

int write_json(const struct run *run, const struct header *h, const struct goal_report *g, double secs)
{
    const struct options *o = run->o;
    FILE *f = fopen(o->json, "w");
    if (!f) {
        fprintf(stderr, "altmem bench: cannot write '%s': %s\n", o->json, strerror(errno));
        return -1;
    }
    fprintf(f, "{\n  \"altmem\": ");
    json_str(f, ALTMEM_VERSION_STRING);
    const char *keys[] = {"date", "cpu", "libc", "build", "bound", "pinned", "load", "nt_threshold", "memory_load"};
    const char *vals[] = {h->date, h->cpu, h->libc, h->build, h->bound, h->pinned, h->load, h->nt, h->memload};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        fprintf(f, ",\n  ");
        json_str(f, keys[i]);
        fprintf(f, ": ");
        json_str(f, vals[i]);
    }
    fprintf(f, ",\n  \"reps\": %d,\n  \"processes\": %d,\n  \"min_sample_ms\": %g,\n  \"seconds\": %.1f,\n  \"results\": [",
            o->reps, o->processes, o->min_sample_ms, secs);
    for (size_t k = 0; k < run->n; k++) {
        const struct result *x = &run->r[k];
        const struct impl *im = &run->impls[x->routine][x->impl];
        char al[96];
        fprintf(f, "%s\n    {\"routine\": \"%s\", \"size\": %" PRIu64 ", \"align\": ", k ? "," : "",
                altmem_routine_name((enum altmem_routine)x->routine), x->size);
        json_str(f, result_align_name(run, x, al, sizeof al));
        fprintf(f, ", \"cache\": \"%s\", \"impl\": ", x->cold ? "cold" : "hot");
        json_str(f, im->name);
        fprintf(f,
                ", \"kind\": \"%s\", \"bound\": %s, \"calls_per_sample\": %" PRIu64 ", \"ns_median\": %.3f, "
                "\"ns_min\": %.3f, \"ns_max\": %.3f, \"gbps\": %.4f, \"vs_libc\": %.4f, "
                "\"vs_libc_lo\": %.4f, \"vs_libc_hi\": %.4f, \"ns_per_process\": [",
                kind_csv[im->kind], im->bound ? "true" : "false", x->st.calls, x->st.med, x->st.min, x->st.max,
                gbps(x), vs_libc(run, x), x->ratio_lo, x->ratio_hi);
        for (int p = 0; p < x->npass; p++)
            fprintf(f, "%s%.3f", p ? ", " : "", x->pass_med[p]);
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ],\n  \"goals\": [");
    for (int i = 0; i < g->n; i++) {
        fprintf(f, "%s\n    ", i ? "," : "");
        json_str(f, g->line[i]);
    }
    fprintf(f, "\n  ]\n}\n");
    return fclose(f) == 0 ? 0 : -1;
}

