/*
 * The dist mode of `altmem bench` (modes.def, --dist NAME|FILE): a random
 * sequence of calls drawn from each size distribution (dist.c holds them:
 * the built-in ones and the file format), in the --dist-region hot region
 * and, with --cold, over the cold arena; one table per distribution and
 * routine.
 */
#include "bench_run.h"

#include <stdio.h>
#include <string.h>

#include "benchlib.h"
#include "dist.h"

/* [i][0]: --dist i's table for the routines that read a source, [i][1]: for
   those that only write (memset's own). */
static struct bench_dist dists[MAX_LIST][2];

static const struct bench_dist *dist_of(int i, int r)
{
    return &dists[i][!bench_routine_reads_src(r)];
}

/* DIST_CALLS calls drawn once, with a fixed seed, which every implementation
   (and every process) replays. */
static void dist_cells(struct run *run, const struct buffers *b, int r, int i, const struct bench_dist *dd)
{
    const struct options *o = run->o;
    static struct dcall calls[DIST_CALLS];
    for (int cold = 0; cold < 2; cold++) {
        if ((cold && !o->cold) || (!cold && !o->hot))
            continue;
        size_t region = cold ? b->cold_len / 2 : (size_t)o->dist_region;
        uint32_t maxn = 0;
        for (size_t k = 0; k < dd->sizes.n; k++)
            if (dd->sizes.value[k] > maxn)
                maxn = dd->sizes.value[k];
        if ((size_t)maxn + 4096 >= region) {
            fprintf(stderr, "altmem bench: --dist %s: size %u does not fit the %zu-byte region\n", o->dists[i], maxn,
                    region);
            run->wrong = 1;
            continue;
        }
        uint64_t seed = 0x2545f4914f6cdd1dull + (uint64_t)i;
        double bytes = 0;
        for (size_t k = 0; k < DIST_CALLS; k++) {
            uint32_t n = bench_dist_draw(&dd->sizes, bench_rng_next(&seed), 0);
            uint32_t sa = bench_dist_draw(&dd->src_align, bench_rng_next(&seed), 1);
            uint32_t da = bench_dist_draw(&dd->dst_align, bench_rng_next(&seed), 1);
            uint64_t room = region - n - 64;
            calls[k].n = n;
            calls[k].src = (uint32_t)((bench_rng_next(&seed) % room) & ~(uint64_t)(sa - 1));
            calls[k].dst = (uint32_t)((bench_rng_next(&seed) % room) & ~(uint64_t)(da - 1));
            bytes += n;
        }
        struct cell c;
        memset(&c, 0, sizeof c);
        c.routine = (enum altmem_routine)r;
        c.mode = MODE_DIST;
        c.layout = -1;
        c.calls = calls;
        c.ncalls = DIST_CALLS;
        c.src = cold ? b->cold : b->src;
        c.dst = cold ? b->cold + b->cold_len / 2 : b->dst;
        cells_progress(run, r, cold ? "cold, distribution" : "hot, distribution", o->dists[i]);
        run_cell(run, &c, R_DIST, -1, cold, region, i, bytes / DIST_CALLS, b);
    }
}

/* The distributions' names and mean sizes, as dist_cells draws them. */
static void dist_names_means(struct run *run)
{
    const struct options *o = run->o;
    for (int i = 0; i < o->ndists; i++) {
        run->dist_names[i] = dists[i][0].name;
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
            const struct bench_dist *dd = dist_of(i, r);
            uint64_t seed = 0x2545f4914f6cdd1dull + (uint64_t)i;
            double bytes = 0;
            for (size_t k = 0; k < DIST_CALLS; k++) {
                bytes += bench_dist_draw(&dd->sizes, bench_rng_next(&seed), 0);
                for (int skip = 0; skip < 4; skip++) /* the alignments and offsets dist_cells draws */
                    bench_rng_next(&seed);
            }
            run->dist_mean[i][r] = bytes / DIST_CALLS;
        }
    }
}

/* The distributions first: a bad file is a usage error, before any work. */
int bench_mode_dist_parse(struct bench_job *job)
{
    const struct options *o = &job->o;
    for (int i = 0; i < o->ndists; i++)
        for (int k = 0; k < 2; k++) {
            char err[256];
            if (bench_dist_load(o->dists[i], k, &dists[i][k], err, sizeof err) != 0) {
                fprintf(stderr, "altmem bench: --dist %s: %s\n", o->dists[i], err);
                return 2;
            }
        }
    dist_names_means(&job->run);
    return BENCH_GO_ON;
}

int bench_mode_dist_run(struct bench_job *job)
{
    for (int i = 0; i < job->o.ndists; i++)
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
            if (job->o.routines[r])
                dist_cells(&job->run, &job->b, r, i, dist_of(i, r));
    return BENCH_GO_ON;
}

/* One table per distribution and routine. */
int bench_mode_dist_report(struct bench_job *job)
{
    const struct run *run = &job->run;
    for (int i = 0; i < run->o->ndists; i++)
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
            int printed = 0;
            for (size_t k = 0; k < run->n; k++) {
                const struct result *x = &run->r[k];
                if (x->kind != R_DIST || x->routine != r || x->param != i || x->impl != 0)
                    continue;
                if (!printed++) {
                    char title[200];
                    snprintf(title, sizeof title,
                             "%s, size distribution %s (mean %.0f B/call), %d random calls per pass; region = "
                             "where they fall",
                             altmem_routine_name((enum altmem_routine)r), run->dist_names[i], run->dist_mean[i][r],
                             DIST_CALLS);
                    print_head(run, title, "  region  cache", r);
                }
                char lab[48], s[32];
                snprintf(lab, sizeof lab, "%8s %-5s", size_label(x->size, s, sizeof s), x->cold ? "cold" : "hot");
                print_cell_row(run, lab, x);
            }
        }
    return BENCH_GO_ON;
}
