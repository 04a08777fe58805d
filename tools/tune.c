/*
 * altmem tune: measure this machine, write a profile (docs/tunables.md, "The
 * profile").
 *
 * Every candidate setting runs in a child process of this program (`altmem tune
 * --child`, tools/tune_child.c) started with ALTMEM_TUNABLES set to it and
 * ALTMEM_PROFILE=none, so that the library binds and sets its policy exactly as
 * it would for a user who wrote that setting; the child times the public entry
 * points over a few size classes and prints one median per cell.  Candidates
 * alternate (rules, A, B, ..., rules, A, B, ...) for ROUNDS rounds; per candidate
 * the geometric mean over the cells of the per-round medians.  The rule for
 * departing from the rules' choice: the candidate is at least 3% faster than the
 * rules' choice (geomean) in every round, and its worst cell is no more than 2%
 * slower; otherwise the rules' choice stays and the profile says so in a
 * comment.  The thresholds measured are one table (`thresholds`); clock,
 * calibration, rounds, geometric means, children and progress are
 * bench/benchlib.h's.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "benchlib.h"
#include "routines.h"
#include "tune.h"

#define MAX_CELLS 16
#define MAX_CAND 12
#define MAX_ROUNDS 8 /* --thorough's 3, twice with --load */

struct cand {
    char setting[96];     /* "" = the rules' choice                        */
    double round_geo[MAX_ROUNDS]; /* geomean over cells, per round (idle first, then loaded) */
    double cell[MAX_CELLS][MAX_ROUNDS];
};

static const char *self_exe;
/* --load: the CPU the children are timed on (this process is pinned to it and
   they inherit it), the load's size; -1: idle only. */
static int load_cpu = -1;
static size_t load_bytes;
static cpu_set_t load_allowed; /* the CPUs allowed before pinning: the load's */

/* The load on the CPUs allowed before this process pinned itself, none on
   load_cpu; returns the number of load processes, msg what runs where. */
static int load_start(char *msg, size_t len)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(load_cpu, &one);
    sched_setaffinity(0, sizeof load_allowed, &load_allowed);
    int n = bench_load_start(load_cpu, load_bytes, msg, len);
    sched_setaffinity(0, sizeof one, &one);
    return n;
}

const char *altmem_tune_profile_path(void)
{
    return ALTMEM_PROFILE_PATH;
}

/* Runs one child; fills out[ncells].  0 on success. */
static int run_child(const char *routine, const char *setting, double sample_ns, char *const *cells, int ncells,
                     double *out)
{
    char ns[32], tunables[128];
    snprintf(ns, sizeof ns, "%.0f", sample_ns);
    snprintf(tunables, sizeof tunables, "ALTMEM_TUNABLES=%s", setting);
    const char *const env[] = {tunables, "ALTMEM_PROFILE=none", NULL};
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
    FILE *f = NULL;
    pid_t pid = bench_child_start(self_exe, args, env, BENCH_CHILD_PIPE, &f);
    if (pid < 0)
        return -1;
    int got = 0;
    char line[64];
    while (f && got < ncells && fgets(line, sizeof line, f))
        out[got++] = atof(line);
    if (f)
        fclose(f);
    return bench_child_wait(pid) == 0 && got == ncells ? 0 : -1;
}

/* One round of a choice's candidates, for bench_interleave: measurand i < nc
   is candidate i, nc the rules' choice again. */
struct rounds {
    const char *routine, *what;
    struct cand *c;
    int nc, ncells, rounds, failed;
    char *const *cells;
    double sample_ns;
    int done[MAX_CAND + 1]; /* rounds so far, per measurand */
};


static double one_round(void *p, int i)
{
    struct rounds *q = p;
    int r = q->done[i]++;
    double v[MAX_CELLS];
    if (q->failed)
        return 0;
    const struct cand *who = &q->c[i < q->nc ? i : 0];
    if (run_child(q->routine, who->setting, q->sample_ns, q->cells, q->ncells, v) != 0) {
        if (i < q->nc)
            fprintf(stderr, "altmem tune: the measuring child for %s '%s' failed\n", q->routine, who->setting);
        q->failed = 1;
        return 0;
    }
    if (i < q->nc) {
        for (int k = 0; k < q->ncells; k++)
            q->c[i].cell[k][r] = v[k];
        q->c[i].round_geo[r] = bench_geomean(v, q->ncells);
        bench_progress("altmem tune: %-10s %-22s round %d/%d   ", q->routine, q->what, r + 1, q->rounds);
    }
    return bench_geomean(v, q->ncells);
}

/* bench_interleave's rounds of q, idle and then (--load) with the memory load
   running; geo[m * rounds + r] the idle ones, geo_loaded the loaded ones. */
static void interleave(struct rounds *q, int measurands, double *geo, double *geo_loaded)
{
    bench_interleave(measurands, q->rounds, BENCH_ORDER_FIXED, NULL, one_round, q, geo);
    if (load_cpu < 0 || q->failed)
        return;
    char msg[320];
    load_start(msg, sizeof msg);
    bench_interleave(measurands, q->rounds, BENCH_ORDER_FIXED, NULL, one_round, q, geo_loaded);
    bench_load_stop();
}

/* c[i] against the rules' choice c[0]: the lowest per-round gain and the
   worst cell's (sums over the rounds). */
static void margins(const struct cand *c, int i, int ncells, int rounds, double *min_gain, double *worst)
{
    *min_gain = 1e9;
    *worst = 1e9;
    for (int r = 0; r < rounds; r++)
        *min_gain = fmin(*min_gain, c[0].round_geo[r] / c[i].round_geo[r]);
    for (int k = 0; k < ncells; k++) {
        double a = 0, b = 0;
        for (int r = 0; r < rounds; r++) {
            a += c[0].cell[k][r];
            b += c[i].cell[k][r];
        }
        *worst = fmin(*worst, a / b);
    }
}

/* How far apart the rules' choice measured first and last in a round came out,
   at most (a log ratio): this machine's noise while the candidates ran. */
static double rules_noise(const struct cand *c, int nc, int rounds, const double *geo, const double *geo_loaded)
{
    double noise = 0;
    for (int r = 0; r < rounds; r++) {
        noise = fmax(noise, fabs(log(c[0].round_geo[r] / geo[nc * rounds + r])));
        if (load_cpu >= 0)
            noise = fmax(noise, fabs(log(c[0].round_geo[rounds + r] / geo_loaded[nc * rounds + r])));
    }
    return noise;
}

/* The candidate with the highest lowest gain of those that reach `need` in
   every round with no cell below 0.98x, its gain and worst cell; 0 (the rules'
   choice) when none does. */
static int best_candidate(const struct cand *c, int nc, int ncells, int measured, double need, double *best_gain,
                          double *worst_cell)
{
    int best = 0;
    *best_gain = 1.0;
    *worst_cell = 1.0;
    for (int i = 1; i < nc; i++) {
        double min_gain, worst;
        margins(c, i, ncells, measured, &min_gain, &worst);
        if (min_gain >= need && worst >= 0.98 && min_gain > *best_gain) {
            best = i;
            *best_gain = min_gain;
            *worst_cell = worst;
        }
    }
    return best;
}

/* Confirmation: the rules' choice and the winner (candidate `best` of q) alone,
   as many rounds again; the winner must hold its 3% in each (on a noisy machine
   the large cells produce one-off winners).  Its lowest gain in *confirm; -1
   when a child failed. */
static int confirm_gain(const struct rounds *q, int best, int measured, double *confirm)
{
    struct cand pair[2];
    memcpy(&pair[0], &q->c[0], sizeof pair[0]);
    memcpy(&pair[1], &q->c[best], sizeof pair[1]);
    struct rounds p = {q->routine, q->what, pair, 2, q->ncells, q->rounds, 0, q->cells, q->sample_ns, {0}};
    double pg[3 * MAX_ROUNDS], pg_loaded[3 * MAX_ROUNDS];
    /* Measurand 2, the rules again, is not wanted here: 2 measurands. */
    interleave(&p, 2, pg, pg_loaded);
    if (p.failed)
        return -1;
    *confirm = 1e9;
    for (int r = 0; r < measured; r++)
        *confirm = fmin(*confirm, pair[0].round_geo[r] / pair[1].round_geo[r]);
    return 0;
}

/* The profile's line when no candidate won: the closest contender, for the
   record, and what it missed. */
static void write_rules_kept(FILE *out, const char *what, const struct cand *c, int nc, int ncells, int measured,
                             double need)
{
    int near = 0;
    double ng = 0, nw = 0;
    for (int i = 1; i < nc; i++) {
        double g, w;
        margins(c, i, ncells, measured, &g, &w);
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

/* Measures the candidates of one choice, interleaved, rounds times; returns the
   index of the one to keep (0: the rules') and writes the profile line. */
static int decide(const char *routine, const char *what, struct cand *c, int nc, char *const *cells, int ncells,
                  int rounds, double sample_ns, FILE *out)
{
    /* The rules' choice runs twice per round (first and last): the difference of
       the two is this machine's noise now, and a candidate must beat the rules
       by 3% more than it. */
    struct rounds q = {routine, what, c, nc, ncells, rounds, 0, cells, sample_ns, {0}};
    double geo[(MAX_CAND + 1) * MAX_ROUNDS], geo_loaded[(MAX_CAND + 1) * MAX_ROUNDS];
    interleave(&q, nc + 1, geo, geo_loaded);
    if (q.failed)
        return -1;
    double noise = rules_noise(c, nc, rounds, geo, geo_loaded);
    /* With --load every round counts twice: idle, and with the load. */
    int measured = load_cpu >= 0 ? 2 * rounds : rounds;
    /* The control, as altmem bench has one in every cell (docs/performance.md,
       "Method"): the same setting measured twice, in processes of its own. */
    fprintf(out, "# %s: control (the rules' choice timed twice a round, each in a fresh process): %.1f%% apart "
                 "at most over %d rounds%s\n",
            what, 100 * (exp(noise) - 1), measured, load_cpu >= 0 ? " (half of them under --load)" : "");
    double best_gain, worst_cell, need = 1.03 * exp(noise), confirm;
    int best = best_candidate(c, nc, ncells, measured, need, &best_gain, &worst_cell);
    if (best == 0) {
        write_rules_kept(out, what, c, nc, ncells, measured, need);
        return 0;
    }
    if (confirm_gain(&q, best, measured, &confirm) != 0)
        return -1;
    if (confirm < need) {
        fprintf(out, "# %s: the rules' choice kept; %s won at %.2fx (worst cell %.2fx) but not in the "
                     "confirmation rounds (%.2fx)\n",
                what, c[best].setting, best_gain, worst_cell, confirm);
        return 0;
    }
    fprintf(out, "%-32s # %s: %.2fx the rules' choice (geomean of %d cells, lowest of %d rounds; confirmed: "
                 "%.2fx; needed %.2fx), worst cell %.2fx\n",
            c[best].setting, what, best_gain, ncells, measured, confirm, need, worst_cell);
    return best;
}

/* The size thresholds tune measures, one row each: the tunable, the routine
   timed, the candidate values (and their bytes, to leave out the rules' own
   value, which is always candidate 0), the cells they are timed on. */
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
static const char *const starts[] = {"2K", "4K", "8K", "16K", "32K", "64K", "256K", "1M", "never"};
static const size_t start_bytes[] = {2 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10, 256 << 10, 1 << 20,
                                     (size_t)-1};
static const char *const cells_big[] = {"4096",   "8192",    "16384",  "32768",  "65536",
                                        "262144", "1048576", "16384m", "65536m", "1048576m"};
/* The non-temporal starts: sizes around the last-level cache (one call per
   sample there). */
static const char *const nts[] = {"1M", "4M", "8M", "16M", "32M", "never"};
static const size_t nt_bytes[] = {1 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20, (size_t)-1};
static const char *const cells_nt[] = {"2097152", "8388608", "33554432", "67108864", "8388608m"};

static const struct threshold {
    const char *routine, *key;
    size_t rules_offset;    /* the rules' value in struct altmem_policy_info */
    const char *rules_note; /* after the rules' value in the comment */
    const char *const *values;
    const size_t *bytes;
    int nvalues;
    const char *const *cells;
    int ncells;
    int nt;                 /* 1, 2: a non-temporal start (not with --quick): copies', memset's */
} thresholds[] = {
    /* The string-instruction starts, for the routine's bound width. */
    {"memcpy", "rep_movsb_threshold", offsetof(struct altmem_policy_info, rep_movsb[2]), " for the 64-byte width",
     starts, start_bytes, COUNT(starts), cells_big, COUNT(cells_big), 0},
    {"memset", "rep_stosb_threshold", offsetof(struct altmem_policy_info, rep_stosb[2]), " for the 64-byte width",
     starts, start_bytes, COUNT(starts), cells_big, COUNT(cells_big), 0},
    {"memcpy", "nt_threshold", offsetof(struct altmem_policy_info, nt_copy), "", nts, nt_bytes, COUNT(nts), cells_nt,
     COUNT(cells_nt), 1},
    {"memset", "memset_nt_threshold", offsetof(struct altmem_policy_info, nt_memset), "", nts, nt_bytes, COUNT(nts),
     cells_nt, COUNT(cells_nt), 2},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: altmem tune [--quick | --thorough] [--load | --no-load] [--print | --write | --output FILE]\n"
               "  measures each runnable variant of every routine and the rep movsb / rep stosb\n"
               "  starts on this machine, and writes a profile the library applies at start-up\n"
               "  on this CPU (docs/tunables.md, \"The profile\")\n"
               "  --quick      a few seconds: fewer rounds, shorter samples, idle only\n"
               "  --thorough   longer samples, three rounds\n"
               "  --load       every round idle and again with a memory load on the other CPUs\n"
               "               (as altmem bench --load), timed on one CPU; a setting must win in\n"
               "               both (the default, but with --quick)\n"
               "  --no-load    idle only\n"
               "  --print      write the profile to standard output (the default)\n"
               "  --write      write it to the system profile, %s\n"
               "  --output F   write it to F\n",
            altmem_tune_profile_path());
}

struct tune_options {
    int quick, thorough;
    int load;             /* asked for (or the default); the run may find no CPU for one */
    const char *output;   /* NULL: standard output */
    int rounds;
    double sample_ns;
};

/* 0 to run, 1 when --help was answered, 2 on a bad option (said on stderr). */
static int parse_options(int argc, char **argv, struct tune_options *o)
{
    *o = (struct tune_options){.load = -1};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            o->quick = 1;
        else if (!strcmp(argv[i], "--thorough"))
            o->thorough = 1;
        else if (!strcmp(argv[i], "--load"))
            o->load = 1;
        else if (!strcmp(argv[i], "--no-load"))
            o->load = 0;
        else if (!strcmp(argv[i], "--print"))
            o->output = NULL;
        else if (!strcmp(argv[i], "--write"))
            o->output = altmem_tune_profile_path();
        else if (!strcmp(argv[i], "--output") && i + 1 < argc)
            o->output = argv[++i];
        else if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 1;
        } else {
            fprintf(stderr, "altmem tune: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    o->rounds = o->quick ? 2 : o->thorough ? 3 : 2;
    o->sample_ns = o->quick ? 2e5 : o->thorough ? 4e6 : 1e6;
    if (o->load < 0)
        o->load = !o->quick;
    return 0;
}

/* Pins this process to the CPU the children are to be timed on (they inherit
   it) and sizes the load for the others; 1 when there is a load to run, 0 when
   not (no other CPU: idle only, said on stderr).  line: the profile's comment
   on it, either way. */
static int prepare_load(char *line, size_t len)
{
    char msg[320] = "";
    if (sched_getaffinity(0, sizeof load_allowed, &load_allowed) != 0)
        snprintf(msg, sizeof msg, "sched_getaffinity: %s", strerror(errno));
    else if (CPU_COUNT(&load_allowed) < 2)
        snprintf(msg, sizeof msg, "no CPU allowed besides the timed one");
    else if ((load_cpu = bench_pin(-1, BENCH_PICK_HIGHEST, NULL, msg, sizeof msg)) >= 0) {
        struct altmem_cpu_info cpu;
        altmem_cpu(&cpu);
        load_bytes = bench_load_bytes(cpu.l3_bytes);
        /* Started here only for what it says: each choice starts its own. */
        int n = load_start(msg, sizeof msg);
        bench_load_stop();
        if (n == 0)
            load_cpu = -1;
    }
    if (load_cpu >= 0) {
        snprintf(line, len, "# Every round idle and again with a load: %s; timed on CPU %d\n", msg, load_cpu);
        return 1;
    }
    fprintf(stderr, "altmem tune: no memory load (%s): measuring idle only\n", msg);
    snprintf(line, len, "# Idle only: no memory load (%s)\n", msg);
    return 0;
}

/* load: whether the run has one, which is what the command line written in
   the profile says (--no-load where none could be started). */
static void write_profile_header(FILE *out, const struct tune_options *o, int load, const char *loadline)
{
    char id[512];
    altmem_cpu_identity(id, sizeof id);
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(out, "# altmem profile: measured by `altmem tune%s%s` (altmem %s) on %s\n",
            o->quick ? " --quick" : o->thorough ? " --thorough" : "",
            load == !o->quick ? "" : load ? " --load" : " --no-load", ALTMEM_VERSION_STRING, date);
    fputs(loadline, out);
    fprintf(out, "# Applied at start-up only on the CPU of the cpu: line; ALTMEM_TUNABLES overrides\n"
                 "# each setting (docs/tunables.md, \"The profile\").  Edit freely.\n");
    fprintf(out, "cpu: %s\n", id);
}

/* Each routine's variant: the rules' binding against every other runnable
   variant but generic.  -1 when a measuring child failed. */
static int choose_variants(const struct tune_options *o, FILE *out)
{
    static char c_small[][16] = {"16", "64", "256", "1024", "4096", "16384", "262144", "64m", "1024m", "16384m",
                                 "dist", "4096c", "65536c"}; /* cold cells last: not with --quick */
    char *cells_small[13];
    for (int i = 0; i < 13; i++)
        cells_small[i] = c_small[i];
    for (int ri = 0; ri < ALTMEM_ROUTINE_COUNT; ri++) {
        const char *r = altmem_routine_name((enum altmem_routine)ri);
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
        int uaccess = bench_routine_uaccess(ri); /* copy_user/clear_user: from 256 B */
        int ncells = (uaccess ? 11 : 13) - (o->quick ? 2 : 0);
        char **cells = uaccess ? cells_small + 2 : cells_small;
        if (decide(r, what, c, nc, cells, ncells, o->rounds, o->sample_ns, out) < 0)
            return -1;
    }
    return 0;
}

/* One threshold of the table, its values against the rules' (pol's); returns
   what decide() does. */
static int choose_threshold(const struct tune_options *o, const struct threshold *th,
                            const struct altmem_policy_info *pol, FILE *out)
{
    struct cand c[MAX_CAND];
    memset(c, 0, sizeof c);
    int nc = 1;
    size_t cur = *(const size_t *)((const char *)pol + th->rules_offset);
    for (int i = 0; i < th->nvalues && nc < MAX_CAND; i++)
        if (th->bytes[i] != cur) /* the rules' value is candidate 0 */
            snprintf(c[nc++].setting, sizeof c[0].setting, "%s=%s", th->key, th->values[i]);
    char what[96], a[32];
    if (cur == (size_t)-1)
        snprintf(a, sizeof a, "never");
    else
        snprintf(a, sizeof a, "%zu", cur);
    snprintf(what, sizeof what, "%s (rules: %s%s)", th->key, a, th->rules_note);
    char *cells[MAX_CELLS];
    for (int i = 0; i < th->ncells; i++)
        cells[i] = (char *)th->cells[i];
    return decide(th->routine, what, c, nc, cells, th->ncells, o->rounds, o->sample_ns, out);
}

/* Every threshold of the table (the non-temporal ones not with --quick).
   -1 when a measuring child failed. */
static int choose_thresholds(const struct tune_options *o, FILE *out)
{
    struct altmem_policy_info pol;
    altmem_policy(&pol);
    int nt_chosen[2] = {0, 0};
    for (size_t t = 0; t < sizeof thresholds / sizeof thresholds[0]; t++) {
        const struct threshold *th = &thresholds[t];
        if (th->nt && o->quick) {
            if (th->nt == 1)
                fprintf(out, "# nt_threshold, memset_nt_threshold: not measured with --quick (sizes up to 64 MiB)\n");
            continue;
        }
        int got = choose_threshold(o, th, &pol, out);
        if (got < 0)
            return -1;
        if (th->nt)
            nt_chosen[th->nt - 1] = got > 0;
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
    return 0;
}

/* The profile a run composed, kept in memory until it is complete, so that a
   run that fails writes no part of one. */
struct tune_profile {
    char *text;
    size_t len;
};

/* 0 with the profile in p (the caller frees p->text), else 1. */
static int run_tune(const struct tune_options *o, struct tune_profile *p)
{
    char loadline[400] = "";
    int load = o->load && prepare_load(loadline, sizeof loadline);
    p->text = NULL;
    p->len = 0;
    FILE *out = open_memstream(&p->text, &p->len);
    if (!out)
        return 1;
    write_profile_header(out, o, load, loadline);
    double t_start = bench_now_ns();
    if (choose_variants(o, out) != 0 || choose_thresholds(o, out) != 0) {
        fclose(out);
        free(p->text);
        return 1;
    }
    bench_progress_end("altmem tune: done in %.0f s", (bench_now_ns() - t_start) / 1e9);
    fprintf(out, "# measured in %.0f s\n", (bench_now_ns() - t_start) / 1e9);
    fclose(out);
    return 0;
}

/* The profile to standard output (path NULL) or to path: 0, or 1 when it
   cannot be written. */
static int report_profile(const char *path, const struct tune_profile *p)
{
    if (!path) {
        fwrite(p->text, 1, p->len, stdout);
        return 0;
    }
    FILE *f = fopen(path, "w");
    if (!f && errno == ENOENT) {
        /* The directory (…/etc/altmem) may not exist yet. */
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash && slash != dir) {
            *slash = '\0';
            mkdir(dir, 0755);
            f = fopen(path, "w");
        }
    }
    if (!f || fwrite(p->text, 1, p->len, f) != p->len || fclose(f) != 0) {
        fprintf(stderr, "altmem tune: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    fprintf(stderr, "altmem tune: wrote %s\n", path);
    return 0;
}

int altmem_tune_main(const char *exe, int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--child"))
        return altmem_tune_child(argc - 1, argv + 1);
    self_exe = exe;
    struct tune_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc == 1 ? 0 : rc;
    struct tune_profile profile;
    if (run_tune(&o, &profile) != 0)
        return 1;
    rc = report_profile(o.output, &profile);
    free(profile.text);
    return rc;
}
