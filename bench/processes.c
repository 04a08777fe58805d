/*
 * `altmem bench` in several fresh processes (docs/performance.md, "Method").
 *
 * One process is one sample of what a machine does to a measurement: where the
 * kernel put its pages, what the predictors learned in it, and what the host
 * was doing during those seconds.  So the parent measures nothing itself: it
 * runs --processes children of this program one after another, each timing
 * every cell of the run in its own rounds, and reads their results from a pipe.
 * A cell's figures are then the median over the processes, and its spread the
 * lowest and highest of them; a ratio to the C library is taken within each
 * process (both were timed in the same rounds) before the median is.
 *
 * A child's results are one line each: "r" and the fields of struct result it
 * measured, then "end" and the count, so that a child that died half-way is
 * told from one that finished.
 */
#define _GNU_SOURCE
#include "bench_run.h"

#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlib.h"
#include "stats.h"

int processes_emit(const struct run *run, FILE *f)
{
    for (size_t k = 0; k < run->n; k++) {
        const struct result *x = &run->r[k];
        fprintf(f, "r %d %d %d %d %" PRIu64 " %d %d %.17g %" PRIu64 " %d %.17g %.17g %.17g %.17g %.17g %d", x->kind,
                x->routine, x->layout, x->cold, x->size, x->param, x->impl, x->bytes, x->st.calls, x->st.wrong,
                x->st.med, x->st.min, x->st.max, x->st.q1, x->st.q3, x->nsamp);
        for (int k = 0; k < x->nsamp; k++)
            fprintf(f, " %.9g", x->samples[0][k]);
        fputc('\n', f);
    }
    fprintf(f, "end %zu\n", run->n);
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* One result line; its samples go into a fresh array, *samples. */
static int parse_line(char *line, struct result *x, double **samples)
{
    int kind, used = 0;
    memset(x, 0, sizeof *x);
    *samples = NULL;
    int got = sscanf(line, "r %d %d %d %d %" SCNu64 " %d %d %lg %" SCNu64 " %d %lg %lg %lg %lg %lg %d%n", &kind,
                     &x->routine, &x->layout, &x->cold, &x->size, &x->param, &x->impl, &x->bytes, &x->st.calls,
                     &x->st.wrong, &x->st.med, &x->st.min, &x->st.max, &x->st.q1, &x->st.q3, &x->nsamp, &used);
    x->kind = (enum rkind)kind;
    if (got != 16 || x->nsamp < 1 || x->nsamp > 100000)
        return -1;
    double *v = malloc(sizeof *v * (size_t)x->nsamp);
    if (!v)
        return -1;
    char *p = line + used;
    for (int k = 0; k < x->nsamp; k++) {
        char *end;
        v[k] = strtod(p, &end);
        if (end == p || !(v[k] >= 0)) {
            free(v);
            return -1;
        }
        p = end;
    }
    *samples = v;
    return 0;
}

static int same_identity(const struct result *a, const struct result *b)
{
    return a->kind == b->kind && a->routine == b->routine && a->layout == b->layout && a->cold == b->cold &&
           a->size == b->size && a->param == b->param && a->impl == b->impl;
}

/* Process k's results: the first process makes run->r, the others must name the
   same results in the same order (they run the same options). */
static int gather(struct run *run, FILE *f, int k, char *err, size_t errlen)
{
    char *line = NULL;
    size_t cap = 0, i = 0;
    int rc = -1;
    while (getline(&line, &cap, f) > 0) {
        if (!strncmp(line, "end ", 4)) {
            size_t n = (size_t)strtoull(line + 4, NULL, 10);
            if (n != i || (k > 0 && n != run->n))
                snprintf(err, errlen, "process %d reported %zu results, expected %zu", k + 1, n, k ? run->n : i);
            else
                rc = 0;
            break;
        }
        struct result x;
        double *samples;
        if (parse_line(line, &x, &samples) != 0) {
            snprintf(err, errlen, "process %d wrote a line that is not a result: %.60s", k + 1, line);
            break;
        }
        if (x.routine < 0 || x.routine >= ALTMEM_ROUTINE_COUNT || x.impl < 0 || x.impl >= run->nimpl[x.routine]) {
            snprintf(err, errlen, "process %d named an implementation this process does not have", k + 1);
            free(samples);
            break;
        }
        if (k == 0) {
            if (run->n == run->cap) {
                run->cap = run->cap ? 2 * run->cap : 1024;
                struct result *r = realloc(run->r, run->cap * sizeof *run->r);
                if (!r) {
                    snprintf(err, errlen, "out of memory");
                    free(samples);
                    break;
                }
                run->r = r;
            }
            x.npass = 1;
            x.pass_med[0] = x.st.med;
            x.samples[0] = samples;
            run->r[run->n++] = x;
        } else {
            if (i >= run->n || !same_identity(&run->r[i], &x) || x.nsamp != run->r[i].nsamp) {
                snprintf(err, errlen, "process %d measured other cells than process 1", k + 1);
                free(samples);
                break;
            }
            struct result *y = &run->r[i];
            y->samples[y->npass] = samples;
            y->pass_med[y->npass++] = x.st.med;
            if (x.st.min < y->st.min)
                y->st.min = x.st.min;
            if (x.st.max > y->st.max)
                y->st.max = x.st.max;
            y->st.wrong |= x.st.wrong;
        }
        run->wrong |= x.st.wrong;
        i++;
    }
    if (rc != 0 && !err[0])
        snprintf(err, errlen, "process %d stopped after %zu results", k + 1, i);
    free(line);
    return rc;
}

int processes_run(struct run *run, int argc, char **argv, process_fallback_fn *fallback, void *ctx)
{
    const struct options *o = run->o;
    char *args[300];
    int n = 0;
    args[n++] = "altmem";
    for (int i = 0; i < argc && n < 290; i++)
        args[n++] = argv[i];
    char which[32];
    args[n++] = "--process-child";
    args[n++] = which;
    args[n] = NULL;
    for (int k = 0; k < o->processes; k++) {
        snprintf(which, sizeof which, "%d/%d", k + 1, o->processes);
        int fds[2];
        fflush(stdout);
        fflush(stderr);
        if (pipe(fds) != 0) {
            fprintf(stderr, "altmem bench: cannot start process %d: %s\n", k + 1, strerror(errno));
            return -1;
        }
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "altmem bench: cannot start process %d: %s\n", k + 1, strerror(errno));
            close(fds[0]);
            close(fds[1]);
            return -1;
        }
        if (pid == 0) {
            close(fds[0]);
            if (dup2(fds[1], 1) < 0)
                _exit(126);
            close(fds[1]);
            bench_exec("/proc/self/exe", args, NULL);
            /* No exec: under qemu-user without binfmt_misc an emulated program
               cannot start itself again.  Measure in this forked child then: a
               process of its own, but with the parent's layout. */
            _exit(fallback(ctx, k + 1, o->processes));
        }
        close(fds[1]);
        FILE *f = fdopen(fds[0], "r");
        if (!f) {
            close(fds[0]);
            bench_child_wait(pid);
            return -1;
        }
        char err[160] = "";
        int rc = gather(run, f, k, err, sizeof err);
        fclose(f);
        int st = bench_child_wait(pid);
        if (rc != 0) {
            fprintf(stderr, "altmem bench: %s (its exit status: %d)\n", err, st);
            return -1;
        }
    }
    return 0;
}

/* The estimators (docs/performance.md, "Method").  Per process, a sample on a
   small cell falls on one of a few steps a cycle apart, at random: a median of
   such samples jumps from step to step, a trimmed mean lands between them as
   their average does, and still drops the disturbed samples at either end. */
#define TRIM 0.2

void processes_summarise(struct run *run)
{
    for (size_t k = 0; k < run->n; k++) {
        struct result *x = &run->r[k];
        if (x->npass == 0) /* measured in this process: its samples are samples[0] */
            x->npass = 1;
        /* ns per call: each process's trimmed mean; the median over them, so
           that one disturbed process does not move it. */
        double *w = malloc(sizeof *w * (size_t)x->nsamp);
        if (!w) {
            fprintf(stderr, "altmem bench: out of memory\n");
            exit(1);
        }
        for (int p = 0; p < x->npass; p++) {
            memcpy(w, x->samples[p], sizeof *w * (size_t)x->nsamp);
            x->pass_med[p] = bench_trimmed_mean(w, x->nsamp, TRIM);
        }
        free(w);
        double v[MAX_PROCESSES];
        memcpy(v, x->pass_med, sizeof v[0] * (size_t)x->npass);
        x->st.med = bench_median(v, x->npass);
        x->pass_lo = x->pass_hi = x->pass_med[0];
        for (int p = 1; p < x->npass; p++) {
            if (x->pass_med[p] < x->pass_lo)
                x->pass_lo = x->pass_med[p];
            if (x->pass_med[p] > x->pass_hi)
                x->pass_hi = x->pass_med[p];
        }
    }
    /* Against the C library: the log of libc's time over this one's, round by
       round (both were timed in the same round of the same process); the
       trimmed mean of all of them, and of each process's for the spread. */
    for (size_t k = 0; k < run->n; k++) {
        struct result *x = &run->r[k];
        const struct result *l = same_cell(run, x, run->libc_i[x->routine]);
        x->ratio = x->ratio_se = 0;
        if (!l || l->npass != x->npass || l->nsamp != x->nsamp)
            continue;
        int n = x->npass * x->nsamp, m = 0, np = 0;
        double *d = malloc(sizeof *d * (size_t)n), *e = malloc(sizeof *e * (size_t)x->nsamp);
        double per[MAX_PROCESSES];
        if (!d || !e) {
            fprintf(stderr, "altmem bench: out of memory\n");
            exit(1);
        }
        for (int p = 0; p < x->npass; p++) {
            int q = 0;
            for (int s = 0; s < x->nsamp; s++)
                if (x->samples[p][s] > 0 && l->samples[p][s] > 0)
                    e[q++] = d[m++] = log(l->samples[p][s] / x->samples[p][s]);
            if (q)
                per[np++] = bench_trimmed_mean(e, q, TRIM);
        }
        if (m)
            x->ratio = exp(bench_trimmed_mean(d, m, TRIM));
        if (np > 1) {
            double mean = 0, ss = 0;
            for (int p = 0; p < np; p++)
                mean += per[p] / np;
            for (int p = 0; p < np; p++)
                ss += (per[p] - mean) * (per[p] - mean);
            x->ratio_se = sqrt(ss / (np - 1) / np);
        }
        free(d);
        free(e);
    }
    for (size_t k = 0; k < run->n; k++) {
        struct result *x = &run->r[k];
        const struct result *c = control_of(run, x);
        double w = 2 * x->ratio_se;
        if (c && c != x && c->ratio > 0)
            w += fabs(log(c->ratio));
        x->ratio_lo = x->ratio * exp(-w);
        x->ratio_hi = x->ratio * exp(w);
    }
}

int processes_write_samples(const struct run *run, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "altmem bench: cannot write '%s': %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# altmem bench --samples: routine size align cache impl kind process ns-per-call of each round "
               "(round k of every implementation of a cell was taken in the same round)\n");
    for (size_t k = 0; k < run->n; k++) {
        const struct result *x = &run->r[k];
        const struct impl *im = &run->impls[x->routine][x->impl];
        char al[96];
        for (int p = 0; p < x->npass; p++) {
            fprintf(f, "%s %" PRIu64 " %s %s %s %s %d", altmem_routine_name((enum altmem_routine)x->routine),
                    x->size, result_align_name(run, x, al, sizeof al), x->cold ? "cold" : "hot", im->name,
                    kind_csv[im->kind], p + 1);
            for (int s = 0; s < x->nsamp; s++)
                fprintf(f, " %.4g", x->samples[p][s]);
            fputc('\n', f);
        }
    }
    return fclose(f) == 0 ? 0 : -1;
}

void run_free(struct run *run)
{
    for (size_t k = 0; k < run->n; k++)
        for (int p = 0; p < MAX_PROCESSES; p++)
            free(run->r[k].samples[p]);
    free(run->r);
    free(run->samples);
    run->r = NULL;
    run->samples = NULL;
    run->n = run->cap = 0;
}
