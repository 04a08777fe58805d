/*
 * altmem tune: measure this machine, write a profile (docs/tunables.md, "The
 * profile").
 *
 * Every candidate setting runs in a child process of this program (`altmem tune
 * --child`) started with ALTMEM_TUNABLES set to it and ALTMEM_PROFILE=none, so
 * that the library binds and sets its policy exactly as it would for a user who
 * wrote that setting; the child times the public entry points over a few size
 * classes and prints one median per cell.  Candidates alternate (rules, A, B, ...,
 * rules, A, B, ...) for ROUNDS rounds; per candidate the geometric mean over the
 * cells of the per-round medians.  The rule for departing from the rules' choice:
 * the candidate is at least 3% faster than the rules' choice (geomean) in every
 * round, and its worst cell is no more than 2% slower; otherwise the rules' choice
 * stays and the profile says so in a comment.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <errno.h>
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

#include "dist.h"
#include "tune.h"

#define MAX_CELLS 16
#define MAX_CAND 12

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* ---- The child: time one routine's public entry over the cells ------------- */

static volatile size_t sink;

/* One call of the routine; the calls of a sample cycle through k of them. */
struct call {
    unsigned char *d, *s;
    size_t n;
};

static void call_once(const char *routine, const struct call *c, int i)
{
    if (routine[0] == 'm' && routine[3] == 'c')          /* memcpy */
        altmem_memcpy(c->d, c->s, c->n);
    else if (routine[0] == 'm' && routine[3] == 'm')     /* memmove */
        altmem_memmove(c->d, c->s, c->n);
    else if (routine[0] == 'm')                          /* memset */
        altmem_memset(c->d, i, c->n);
    else if (routine[0] == 'c' && routine[1] == 'o')     /* copy_user */
        sink += altmem_copy_user(c->d, c->s, c->n);
    else                                                 /* clear_user */
        sink += altmem_clear_user(c->d, c->n);
}

/* The median of 7 samples of at least sample_ns each, per call. */
static double time_calls(const char *routine, const struct call *c, long k, double sample_ns)
{
    long calls = 1;
    double samples[7];
    for (int rep = -1; rep < 7; rep++) {
        double t0, t;
        for (;;) {
            t0 = now_ns();
            for (long i = 0; i < calls; i++) {
                call_once(routine, &c[i % k], (int)i);
                __asm__ volatile("" ::: "memory");
            }
            t = now_ns() - t0;
            if (t >= sample_ns || calls > (1L << 30))
                break;
            calls *= 2;
        }
        if (rep >= 0)
            samples[rep] = t / (double)calls;
    }
    qsort(samples, 7, sizeof samples[0], cmp_double);
    return samples[3];
}

#define DIST_CALLS 4096
#define DIST_REGION (256u << 10)
#define COLD_ARENA (64u << 20)

int altmem_tune_child(int argc, char **argv)
{
    /* --child ROUTINE SAMPLE_NS CELL...; a cell is SIZE, SIZEm (src + 1, dst + 3),
       SIZEc (cold: each call on the next part of a 64 MiB arena, past the
       last-level cache of most machines), or "dist" (spec2017's sizes and
       alignments, drawn in a 256 KiB region: `altmem bench --dist`). */
    if (argc < 4)
        return 2;
    const char *routine = argv[1];
    double sample_ns = atof(argv[2]);
    size_t biggest = DIST_REGION;
    int any_cold = 0;
    for (int i = 3; i < argc; i++) {
        size_t n = strtoull(argv[i], NULL, 10);
        if (n > biggest)
            biggest = n;
        any_cold |= strchr(argv[i], 'c') != NULL;
    }
    size_t len = biggest + 3 * 4096 + 64;
    size_t total = 2 * len + (any_cold ? 2 * (size_t)COLD_ARENA : 0);
    unsigned char *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return 3;
#ifdef MADV_HUGEPAGE
    madvise(m, total, MADV_HUGEPAGE); /* fewer page faults to fill the large cells */
#endif
    memset(m, 0x5a, total);
    unsigned char *arena = m + 2 * len;
    if (!strcmp(routine, "copy_user") || !strcmp(routine, "clear_user"))
        altmem_uaccess_install();
    static struct call calls[DIST_CALLS];
    for (int i = 3; i < argc; i++) {
        long k = 1;
        if (!strcmp(argv[i], "dist")) {
            static struct bench_dist dist;
            char err[160];
            int memset_like = routine[0] == 'c' ? routine[1] == 'l' : routine[3] == 's';
            if (bench_dist_load("spec2017", memset_like, &dist, err, sizeof err) != 0) {
                fprintf(stderr, "altmem tune: %s\n", err);
                return 3;
            }
            uint64_t x = 0x9e3779b97f4a7c15u;
            for (k = 0; k < DIST_CALLS; k++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                size_t n = bench_dist_draw(&dist.sizes, x, 64);
                if (n > DIST_REGION / 2)
                    n = DIST_REGION / 2;
                size_t sa = bench_dist_draw(&dist.src_align, x >> 17, 0) % 64,
                       da = bench_dist_draw(&dist.dst_align, x >> 29, 0) % 64;
                size_t off = (size_t)(x >> 40) % (DIST_REGION - n - 128) & ~(size_t)63;
                calls[k] = (struct call){m + len + off + da, m + off + sa, n};
            }
        } else {
            size_t n = strtoull(argv[i], NULL, 10);
            if (strchr(argv[i], 'c')) {
                size_t step = (n + 4095) & ~(size_t)4095;
                for (k = 0; k < DIST_CALLS && (size_t)(k + 1) * step <= COLD_ARENA; k++)
                    calls[k] = (struct call){arena + COLD_ARENA + (size_t)k * step, arena + (size_t)k * step, n};
            } else {
                int mis = strchr(argv[i], 'm') != NULL;
                calls[0] = (struct call){m + len + 64 + (mis ? 3 : 0), m + 64 + (mis ? 1 : 0), n};
            }
        }
        printf("%.4f\n", time_calls(routine, calls, k, sample_ns));
    }
    return 0;
}

/* ---- The parent ------------------------------------------------------------ */

struct cand {
    char setting[96];     /* "" = the rules' choice                        */
    double round_geo[4];  /* geomean over cells, per round                 */
    double cell[MAX_CELLS][4];
};

static const char *self_exe;

const char *altmem_tune_profile_path(void)
{
    return ALTMEM_PROFILE_PATH;
}
static int verbose_progress;

/* Runs one child; fills out[ncells].  0 on success. */
static int run_child(const char *routine, const char *setting, double sample_ns, char *const *cells, int ncells,
                     double *out)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        setenv("ALTMEM_TUNABLES", setting, 1);
        setenv("ALTMEM_PROFILE", "none", 1);
        char ns[32];
        snprintf(ns, sizeof ns, "%.0f", sample_ns);
        char *args[MAX_CELLS + 6];
        int k = 0;
        args[k++] = (char *)self_exe;
        args[k++] = (char *)"tune";
        args[k++] = (char *)"--child";
        args[k++] = (char *)routine;
        args[k++] = ns;
        for (int i = 0; i < ncells; i++)
            args[k++] = cells[i];
        args[k] = NULL;
        execv(self_exe, args);
        _exit(127);
    }
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    int got = 0;
    char line[64];
    while (f && got < ncells && fgets(line, sizeof line, f))
        out[got++] = atof(line);
    if (f)
        fclose(f);
    int st;
    waitpid(pid, &st, 0);
    return got == ncells && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static double geomean(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += log(v[i]);
    return exp(s / n);
}

/* Measures the candidates of one choice, interleaved, rounds times; returns the
   index of the one to keep (0: the rules') and writes the profile line. */
static int decide(const char *routine, const char *what, struct cand *c, int nc, char *const *cells, int ncells,
                  int rounds, double sample_ns, FILE *out)
{
    /* The rules' choice runs twice per round (first and last): the difference of
       the two is this machine's noise now, and a candidate must beat the rules
       by 3% more than it. */
    double noise = 0;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i <= nc; i++) {
            double v[MAX_CELLS];
            if (i == nc) {
                if (run_child(routine, c[0].setting, sample_ns, cells, ncells, v) != 0)
                    return -1;
                noise = fmax(noise, fabs(log(c[0].round_geo[r] / geomean(v, ncells))));
                continue;
            }
            if (run_child(routine, c[i].setting, sample_ns, cells, ncells, v) != 0) {
                fprintf(stderr, "altmem tune: the measuring child for %s '%s' failed\n", routine, c[i].setting);
                return -1;
            }
            for (int k = 0; k < ncells; k++)
                c[i].cell[k][r] = v[k];
            c[i].round_geo[r] = geomean(v, ncells);
            if (verbose_progress)
                fprintf(stderr, "\raltmem tune: %-10s %-22s round %d/%d   ", routine, what, r + 1, rounds);
        }
    }
    int best = 0;
    double best_gain = 1.0, best_min = 1.0, worst_cell = 1.0, need = 1.03 * exp(noise);
    for (int i = 1; i < nc; i++) {
        double min_gain = 1e9, worst = 1e9;
        for (int r = 0; r < rounds; r++) {
            double g = c[0].round_geo[r] / c[i].round_geo[r];
            if (g < min_gain)
                min_gain = g;
        }
        for (int k = 0; k < ncells; k++) {
            double a = 0, b = 0;
            for (int r = 0; r < rounds; r++) {
                a += c[0].cell[k][r];
                b += c[i].cell[k][r];
            }
            if (a / b < worst)
                worst = a / b;
        }
        if (min_gain >= need && worst >= 0.98 && min_gain > best_gain) {
            best = i;
            best_gain = min_gain;
            worst_cell = worst;
        }
        if (min_gain > best_min)
            best_min = min_gain;
    }
    if (best > 0) {
        /* Confirmation: the rules' choice and the winner alone, as many rounds
           again; the winner must hold its 3% in each (on a noisy machine the
           large cells produce one-off winners). */
        struct cand pair[2];
        memcpy(&pair[0], &c[0], sizeof pair[0]);
        memcpy(&pair[1], &c[best], sizeof pair[1]);
        for (int r = 0; r < rounds; r++)
            for (int i = 0; i < 2; i++) {
                double v[MAX_CELLS];
                if (run_child(routine, pair[i].setting, sample_ns, cells, ncells, v) != 0)
                    return -1;
                pair[i].round_geo[r] = geomean(v, ncells);
            }
        double confirm = 1e9;
        for (int r = 0; r < rounds; r++)
            confirm = fmin(confirm, pair[0].round_geo[r] / pair[1].round_geo[r]);
        if (confirm < need) {
            fprintf(out, "# %s: the rules' choice kept; %s won at %.2fx (worst cell %.2fx) but not in the "
                         "confirmation rounds (%.2fx)\n",
                    what, c[best].setting, best_gain, worst_cell, confirm);
            return 0;
        }
        fprintf(out, "%-32s # %s: %.2fx the rules' choice (geomean of %d cells, lowest of %d rounds; confirmed: "
                     "%.2fx; needed %.2fx), worst cell %.2fx\n",
                c[best].setting, what, best_gain, ncells, rounds, confirm, need, worst_cell);
    } else {
        /* The closest contender, for the record, and what it missed. */
        int near = 0;
        double ng = 0, nw = 0;
        for (int i = 1; i < nc; i++) {
            double g = 1e9, w = 1e9;
            for (int r = 0; r < rounds; r++)
                g = fmin(g, c[0].round_geo[r] / c[i].round_geo[r]);
            for (int k = 0; k < ncells; k++) {
                double a = 0, b = 0;
                for (int r = 0; r < rounds; r++) {
                    a += c[0].cell[k][r];
                    b += c[i].cell[k][r];
                }
                w = fmin(w, a / b);
            }
            if (g > ng) {
                ng = g;
                nw = w;
                near = i;
            }
        }
        if (near)
            fprintf(out, "# %s: the rules' choice kept; closest: %s, %.2fx in its worst round, worst cell %.2fx "
                         "(needs >= %.2fx, 1.03x above the rules against themselves, in every round and no cell "
                         "below 0.98x)\n",
                    what, c[near].setting, ng, nw, need);
        else
            fprintf(out, "# %s: the rules' choice kept (nothing else to try)\n", what);
    }
    return best;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: altmem tune [--quick | --thorough] [--print | --write | --output FILE]\n"
               "  measures each runnable variant of every routine and the rep movsb / rep stosb\n"
               "  starts on this machine, and writes a profile the library applies at start-up\n"
               "  on this CPU (docs/tunables.md, \"The profile\")\n"
               "  --quick      about 10 s: fewer rounds and shorter samples\n"
               "  --thorough   longer samples, three rounds\n"
               "  --print      write the profile to standard output (the default)\n"
               "  --write      write it to the system profile, %s\n"
               "  --output F   write it to F\n",
            altmem_tune_profile_path());
}

int altmem_tune_main(const char *exe, int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--child"))
        return altmem_tune_child(argc - 1, argv + 1);
    self_exe = exe;
    int quick = 0, thorough = 0;
    const char *output = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--thorough"))
            thorough = 1;
        else if (!strcmp(argv[i], "--print"))
            output = NULL;
        else if (!strcmp(argv[i], "--write"))
            output = altmem_tune_profile_path();
        else if (!strcmp(argv[i], "--output") && i + 1 < argc)
            output = argv[++i];
        else if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "altmem tune: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    verbose_progress = isatty(2);
    int rounds = quick ? 2 : thorough ? 3 : 2;
    double sample_ns = quick ? 2e5 : thorough ? 4e6 : 1e6;

    char *buf = NULL;
    size_t blen = 0;
    FILE *out = open_memstream(&buf, &blen);
    if (!out)
        return 1;
    char id[512];
    altmem_cpu_identity(id, sizeof id);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(out, "# altmem profile: measured by `altmem tune%s` (altmem %s) on %s\n",
            quick ? " --quick" : thorough ? " --thorough" : "", ALTMEM_VERSION_STRING, date);
    fprintf(out, "# Applied at start-up only on the CPU of the cpu: line; ALTMEM_TUNABLES overrides\n"
                 "# each setting (docs/tunables.md, \"The profile\").  Edit freely.\n");
    fprintf(out, "cpu: %s\n", id);

    static char c_small[][16] = {"16", "64", "256", "1024", "4096", "16384", "262144", "64m", "1024m", "16384m",
                                 "dist", "4096c", "65536c"}; /* cold cells last: not with --quick */
    char *cells_small[13];
    for (int i = 0; i < 13; i++)
        cells_small[i] = c_small[i];
    static char c_big[][16] = {"4096", "8192", "16384", "32768", "65536", "262144", "1048576", "16384m", "65536m",
                               "1048576m"};
    char *cells_big[10];
    for (int i = 0; i < 10; i++)
        cells_big[i] = c_big[i];

    static const char *const routines[] = {"memcpy", "memmove", "memset", "copy_user", "clear_user"};
    double t_start = now_ns();
    for (int ri = 0; ri < 5; ri++) {
        const char *r = routines[ri];
        struct cand c[MAX_CAND];
        int nc = 0;
        memset(c, 0, sizeof c);
        c[nc++].setting[0] = '\0';
        struct altmem_binding_info b;
        altmem_binding((enum altmem_routine)ri, &b);
        for (size_t i = 0; i < altmem_variant_count() && nc < MAX_CAND; i++) {
            struct altmem_variant_info v;
            altmem_variant(i, &v);
            if ((int)v.routine != ri || !v.runnable || !strcmp(v.name, b.variant) || !strcmp(v.name, "generic"))
                continue;
            snprintf(c[nc++].setting, sizeof c[0].setting, "%s=%s", r, v.name);
        }
        char what[64];
        snprintf(what, sizeof what, "%s variant (rules: %s)", r, b.variant);
        int ncells = (ri >= 3 ? 11 : 13) - (quick ? 2 : 0); /* copy_user/clear_user: from 256 B */
        char **cells = ri >= 3 ? cells_small + 2 : cells_small;
        if (decide(r, what, c, nc, cells, ncells, rounds, sample_ns, out) < 0)
            return 1;
    }
    /* The string-instruction starts, for the routine's bound width. */
    static const char *const starts[] = {"2K", "4K", "8K", "16K", "32K", "64K", "256K", "1M", "never"};
    static const size_t start_bytes[] = {2 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10, 256 << 10, 1 << 20,
                                         (size_t)-1};
    struct altmem_policy_info pol;
    altmem_policy(&pol);
    for (int which = 0; which < 2; which++) {
        const char *r = which ? "memset" : "memcpy";
        const char *key = which ? "rep_stosb_threshold" : "rep_movsb_threshold";
        struct cand c[MAX_CAND];
        memset(c, 0, sizeof c);
        int nc = 1;
        size_t cur = which ? pol.rep_stosb[2] : pol.rep_movsb[2];
        for (size_t i = 0; i < sizeof starts / sizeof starts[0] && nc < MAX_CAND; i++)
            if (start_bytes[i] != cur) /* the rules' value is candidate 0 */
                snprintf(c[nc++].setting, sizeof c[0].setting, "%s=%s", key, starts[i]);
        char what[96], a[32];
        if (cur == (size_t)-1)
            snprintf(a, sizeof a, "never");
        else
            snprintf(a, sizeof a, "%zu", cur);
        snprintf(what, sizeof what, "%s (rules: %s for the 64-byte width)", key, a);
        if (decide(r, what, c, nc, cells_big, 10, rounds, sample_ns, out) < 0)
            return 1;
    }
    /* The non-temporal starts: copies (nt_threshold) and memset's own, timed at
       sizes around the last-level cache (one call per sample there). */
    if (quick)
        fprintf(out, "# nt_threshold, memset_nt_threshold: not measured with --quick (sizes up to 64 MiB)\n");
    static const char *const nts[] = {"1M", "4M", "8M", "16M", "32M", "never"};
    int nt_chosen[2] = {0, 0};
    static const size_t nt_bytes[] = {1 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20, (size_t)-1};
    static char c_nt[][16] = {"2097152", "8388608", "33554432", "67108864", "8388608m"};
    char *cells_nt[5];
    for (int i = 0; i < 5; i++)
        cells_nt[i] = c_nt[i];
    for (int which = 0; which < 2 && !quick; which++) {
        const char *r = which ? "memset" : "memcpy";
        const char *key = which ? "memset_nt_threshold" : "nt_threshold";
        size_t cur = which ? pol.nt_memset : pol.nt_copy;
        struct cand c[MAX_CAND];
        memset(c, 0, sizeof c);
        int nc = 1;
        for (size_t i = 0; i < sizeof nts / sizeof nts[0] && nc < MAX_CAND; i++)
            if (nt_bytes[i] != cur)
                snprintf(c[nc++].setting, sizeof c[0].setting, "%s=%s", key, nts[i]);
        char what[96], a[32];
        if (cur == (size_t)-1)
            snprintf(a, sizeof a, "never");
        else
            snprintf(a, sizeof a, "%zu", cur);
        snprintf(what, sizeof what, "%s (rules: %s)", key, a);
        int got = decide(r, what, c, nc, cells_nt, 5, rounds, sample_ns, out);
        if (got < 0)
            return 1;
        nt_chosen[which] = got > 0;
    }
    /* nt_threshold= alone sets memset's threshold too: keep memset's rules value
       unless it was measured to change. */
    if (nt_chosen[0] && !nt_chosen[1]) {
        if (pol.nt_memset == (size_t)-1)
            fprintf(out, "%-32s # the rules' value, kept (nt_threshold alone would set memset's too)\n",
                    "memset_nt_threshold=never");
        else {
            char line[64];
            snprintf(line, sizeof line, "memset_nt_threshold=%zu", pol.nt_memset);
            fprintf(out, "%-32s # the rules' value, kept (nt_threshold alone would set memset's too)\n", line);
        }
    }
    if (verbose_progress)
        fprintf(stderr, "\raltmem tune: done in %.0f s%40s\n", (now_ns() - t_start) / 1e9, "");
    fprintf(out, "# measured in %.0f s\n", (now_ns() - t_start) / 1e9);
    fclose(out);

    if (!output) {
        fwrite(buf, 1, blen, stdout);
        free(buf);
        return 0;
    }
    FILE *f = fopen(output, "w");
    if (!f && errno == ENOENT) {
        /* The directory (…/etc/altmem) may not exist yet. */
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", output);
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir) {
            *slash = '\0';
            mkdir(dir, 0755);
            f = fopen(output, "w");
        }
    }
    if (!f || fwrite(buf, 1, blen, f) != blen || fclose(f) != 0) {
        fprintf(stderr, "altmem tune: cannot write %s: %s\n", output, strerror(errno));
        free(buf);
        return 1;
    }
    fprintf(stderr, "altmem tune: wrote %s\n", output);
    free(buf);
    return 0;
}
