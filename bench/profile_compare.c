/*
 * altmem bench --profile FILE|none [bench options], the profile mode
 * (modes.def): what a profile is worth, measured.
 *
 * The library reads the profile once, at start-up, so the two bindings cannot
 * be timed in one process: this runs the same `altmem bench` (with the other
 * options given, the bound variant and the C library) in child processes, one
 * with ALTMEM_PROFILE=none (bound by the rules) and one with ALTMEM_PROFILE=FILE
 * (bound by the profile), alternately for ROUNDS rounds (A B A B A B), each
 * writing CSV; then prints per cell the median over the rounds of each side, the
 * C library's, and profile speed / rules speed, with the geometric mean per
 * routine.  `--profile none` runs the bench once with no profile at all.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_run.h"
#include "benchlib.h"

#define ROUNDS 3
#define MAX_ROWS 4096
/* The children are this program again (bench_exec starts it the way this one
   was started, through an explicit loader too). */
#define SELF "/proc/self/exe"

struct row {
    char key[96];          /* routine,size,align,cache */
    char variant[2][32];   /* rules', profile's          */
    double ns[2][ROUNDS];  /* altmem: rules, profile     */
    double libc[2 * ROUNDS];
    int n[2], nlibc;
};

static struct row rows[MAX_ROWS];
static int nrows;

static struct row *find(const char *key)
{
    for (int i = 0; i < nrows; i++)
        if (!strcmp(rows[i].key, key))
            return &rows[i];
    if (nrows == MAX_ROWS)
        return NULL;
    struct row *r = &rows[nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->key, sizeof r->key, "%s", key);
    return r;
}

static int run_bench(const char *exe, int argc, char **argv, const char *profile, const char *csv)
{
    char **args = calloc((size_t)argc + 8, sizeof *args);
    if (!args)
        return -1;
    int k = 0;
    args[k++] = (char *)exe;
    args[k++] = (char *)"bench";
    for (int i = 0; i < argc; i++)
        args[k++] = argv[i];
    args[k++] = (char *)"--impl";     /* the bound variant and the C library only */
    args[k++] = (char *)"bound";
    args[k++] = (char *)"--csv";
    args[k++] = (char *)csv;
    args[k] = NULL;
    char env0[4200];
    snprintf(env0, sizeof env0, "ALTMEM_PROFILE=%s", profile);
    const char *const env[] = {env0, NULL};
    pid_t pid = bench_child_start(exe, args, env, BENCH_CHILD_NULL, NULL);
    free(args);
    return pid < 0 ? -1 : bench_child_wait(pid);
}

/* The CSV's columns, found by name in its header: where a column stands is the
   bench's business (docs/performance.md, "Output"). */
enum { COL_ROUTINE, COL_SIZE, COL_ALIGN, COL_IMPL, COL_KIND, COL_NS, COL_CACHE, NCOLS };
static const char *const col_names[NCOLS] = {"routine", "size", "align", "impl", "kind", "ns_median", "cache"};

static int split_csv(char *line, char **fld, int max)
{
    int n = 0;
    for (char *p = line, *t; n < max && (t = strsep(&p, ",\n")) != NULL;)
        fld[n++] = t;
    return n;
}

/* Reads one child's CSV into rows, side 0 (rules) or 1 (profile). */
static int load(const char *csv, int side, int round)
{
    FILE *f = fopen(csv, "r");
    if (!f)
        return -1;
    char line[512];
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return -1;
    }
    char *fld[32];
    int n = split_csv(line, fld, 32), col[NCOLS];
    for (int c = 0; c < NCOLS; c++) {
        const char *want = col_names[c];
        col[c] = -1;
        for (int i = 0; i < n; i++)
            if (!strcmp(fld[i], want))
                col[c] = i;
        if (col[c] < 0) {
            fclose(f);
            return -1;
        }
    }
    while (fgets(line, sizeof line, f)) {
        n = split_csv(line, fld, 32);
        int ok = 1;
        for (int c = 0; c < NCOLS; c++)
            ok &= col[c] < n;
        if (!ok)
            continue;
        char key[96];
        snprintf(key, sizeof key, "%s,%s,%s,%s", fld[col[COL_ROUTINE]], fld[col[COL_SIZE]], fld[col[COL_ALIGN]],
                 fld[col[COL_CACHE]]);
        struct row *r = find(key);
        if (!r)
            break;
        double ns = atof(fld[col[COL_NS]]);
        const char *kind = fld[col[COL_KIND]];
        if (!strcmp(kind, "altmem")) {
            snprintf(r->variant[side], sizeof r->variant[side], "%s", fld[col[COL_IMPL]]);
            if (round < ROUNDS)
                r->ns[side][r->n[side]++ % ROUNDS] = ns;
        } else if (!strcmp(kind, "libc") && r->nlibc < 2 * ROUNDS) {
            r->libc[r->nlibc++] = ns;
        }
    }
    fclose(f);
    return 0;
}

/* One whole bench run of side 0 (rules) or 1 (profile), for bench_interleave. */
struct rounds {
    const char *exe, *profile, *dir;
    int argc;
    char **argv;
    int done[2], rc;
};

static double one_run(void *p, int side)
{
    struct rounds *q = p;
    int r = q->done[side]++;
    if (q->rc)
        return 0;
    char csv[128];
    snprintf(csv, sizeof csv, "%s/%d-%d.csv", q->dir, r, side);
    if (run_bench(q->exe, q->argc, q->argv, side ? q->profile : "none", csv) != 0 || load(csv, side, r) != 0) {
        bench_progress_clear();
        fprintf(stderr, "altmem bench --profile: the %s run failed\n", side ? "profile" : "rules");
        q->rc = 1;
    }
    unlink(csv);
    bench_progress("  round %d/%d %s done   ", r + 1, ROUNDS, side ? "profile" : "rules");
    return 0;
}

/* One --profile command, from its parse to its report (static: the command
   ends with it, so rest is never freed). */
struct profile_job {
    const char *profile; /* FILE, or "none" */
    char **rest;         /* the other arguments, the children's */
    int nrest;
};

int bench_mode_profile_parse(struct bench_job *job)
{
    static struct profile_job pj;
    pj.rest = calloc((size_t)job->argc + 1, sizeof *pj.rest);
    if (!pj.rest)
        return 1;
    job->mode_data = &pj;
    for (int i = 1; i < job->argc; i++) {
        char *a = job->argv[i];
        if (!strcmp(a, "--profile") && i + 1 < job->argc)
            pj.profile = job->argv[++i];
        else if (!strncmp(a, "--profile=", 10))
            pj.profile = a + 10;
        else if (!strcmp(a, "--csv") || !strcmp(a, "--json") || !strcmp(a, "--plot") || !strcmp(a, "--impl")) {
            fprintf(stderr, "altmem bench --profile: %s is not supported with --profile (the children write "
                            "their own CSV and time the bound variants)\n", a);
            return 2;
        } else
            pj.rest[pj.nrest++] = a;
    }
    if (!pj.profile) {
        fprintf(stderr, "altmem bench: --profile needs FILE or none\n");
        return 2;
    }
    if (strcmp(pj.profile, "none") != 0 && access(pj.profile, R_OK) != 0) {
        fprintf(stderr, "altmem bench: --profile %s: cannot read it\n", pj.profile);
        return 2;
    }
    return BENCH_GO_ON;
}

/* --profile none: this bench with the other arguments, once, with no profile;
   returns only if it could not be started. */
static int run_without_profile(const struct profile_job *pj)
{
    char **args = calloc((size_t)pj->nrest + 3, sizeof *args);
    if (!args)
        return 1;
    args[0] = (char *)SELF;
    args[1] = (char *)"bench";
    for (int i = 0; i < pj->nrest; i++)
        args[2 + i] = pj->rest[i];
    static const char *const env[] = {"ALTMEM_PROFILE=none", NULL};
    bench_exec(SELF, args, env);
    free(args);
    perror("altmem bench --profile none: exec");
    return 1;
}

int bench_mode_profile_run(struct bench_job *job)
{
    struct profile_job *pj = job->mode_data;
    if (!strcmp(pj->profile, "none")) {
        return run_without_profile(pj);
    }
    char dir[] = "/tmp/altmem-bench-profile.XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    fprintf(stderr, "altmem bench --profile: %d rounds of (rules, profile), each a whole `altmem bench` run\n",
            ROUNDS);
    struct rounds q = {SELF, pj->profile, dir, pj->nrest, pj->rest, {0, 0}, 0};
    double unused[2 * ROUNDS];
    bench_interleave(2, ROUNDS, BENCH_ORDER_FIXED, NULL, one_run, &q, unused);
    rmdir(dir);
    bench_progress_end("  %d rounds done", ROUNDS);
    return q.rc ? q.rc : BENCH_GO_ON;
}

/* Per cell, the median over the rounds of each side, the C library's, and
   profile speed / rules speed; per routine their geometric mean. */
int bench_mode_profile_report(struct bench_job *job)
{
    struct profile_job *pj = job->mode_data;
    printf("bench --profile %s: rules (ALTMEM_PROFILE=none) and profile, %d interleaved rounds; ns = median over "
           "the rounds of each run's median\n", pj->profile, ROUNDS);
    printf("%-8s %9s %-10s %-5s | %10s | %-11s %10s | %-11s %10s | %s\n", "routine", "size", "align", "cache",
           "libc ns", "rules", "ns", "profile", "ns", "profile speed / rules speed");
    static const char *const routines[] = {"memcpy", "memmove", "memset"};
    static double speed[3][MAX_ROWS]; /* profile speed / rules speed, per routine */
    int count[3] = {0, 0, 0}, slower[3] = {0, 0, 0};
    for (int i = 0; i < nrows; i++) {
        struct row *r = &rows[i];
        if (r->n[0] == 0 || r->n[1] == 0)
            continue;
        char routine[32] = "", size[16], align[24], cache[8];
        sscanf(r->key, "%31[^,],%15[^,],%23[^,],%7s", routine, size, align, cache);
        double a = bench_median(r->ns[0], r->n[0] < ROUNDS ? r->n[0] : ROUNDS);
        double b = bench_median(r->ns[1], r->n[1] < ROUNDS ? r->n[1] : ROUNDS);
        double l = r->nlibc ? bench_median(r->libc, r->nlibc) : 0;
        printf("%-8s %9s %-10s %-5s | %10.2f | %-11s %10.2f | %-11s %10.2f | %.3f\n", routine, size, align, cache, l,
               r->variant[0], a, r->variant[1], b, a / b);
        for (int k = 0; k < 3; k++)
            if (!strcmp(routine, routines[k])) {
                speed[k][count[k]++] = a / b;
                slower[k] += a / b < 0.97;
            }
    }
    for (int k = 0; k < 3; k++)
        if (count[k])
            printf("%s: profile against rules, geomean %.3fx over %d cells; %d cells more than 3%% slower\n",
                   routines[k], bench_geomean(speed[k], count[k]), count[k], slower[k]);
    return 0;
}
