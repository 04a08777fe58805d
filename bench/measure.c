/*
 * `altmem bench`, the cells of one process's run, in order: the size x
 * alignment grid (hot, then cold), the (dst - src) mod 4096 sweeps and the
 * size distributions.  Each cell is timed by run_cell (cells.c); nothing is
 * printed here but the progress line: the tables come from the results, once
 * every process has measured them (processes.c, report.c).
 */
#define _GNU_SOURCE
#include "bench_run.h"

#include <stdlib.h>
#include <string.h>

#include "benchlib.h"
#include "dist.h"

uint64_t run_max_size(const struct options *o)
{
    uint64_t max_size = 4096;
    for (int si = 0; si < o->nsizes; si++)
        if (o->sizes[si] > max_size)
            max_size = o->sizes[si];
    for (int m = 0; m < o->nmod; m++)
        if (o->mod_sizes[m] > max_size)
            max_size = o->mod_sizes[m];
    if (o->ndists && o->dist_region + 8192 > max_size)
        max_size = o->dist_region + 8192;
    return max_size;
}

/* A --full run is minutes long: say where it is, on a terminal only. */
static void progress(const struct run *run, int r, const char *where, const char *what)
{
    const struct options *o = run->o;
    char proc[64] = "";
    if (o->npass > 1)
        snprintf(proc, sizeof proc, ", process %d/%d sweep %d/%d", o->pass, o->npass, run->sweep + 1, o->sweeps);
    bench_progress("altmem bench: %s %s %s; %zu results%s", altmem_routine_name((enum altmem_routine)r), where, what,
                   run->n, proc);
}

static void grid_cells(struct run *run, const struct buffers *b, int r)
{
    const struct options *o = run->o;
    for (int cold = 0; cold < 2; cold++) {
        if ((cold && !o->cold) || (!cold && !o->hot))
            continue;
        for (int si = 0; si < o->nsizes; si++) {
            size_t n = (size_t)o->sizes[si];
            if (cold && n + PAD > b->cold_len / 4)
                continue;
            for (int l = 0; l < LAY_COUNT; l++) {
                if (!(o->layouts >> l & 1) || !routine_has_layout(r, (enum layout)l))
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
                    c.slot = make_cold_slots(b, n, 0x9e3779b97f4a7c15ull ^ n);
                    c.src = b->cold;
                    c.dst = b->cold + b->cold_len / 2;
                    layout_offsets((enum layout)l, &c.src_off, &c.dst_off);
                } else {
                    c.mode = MODE_FIXED;
                    fixed_pointers(&c, (enum layout)l, b);
                }
                char what[48], sl[32];
                snprintf(what, sizeof what, "%s %s", size_label(n, sl, sizeof sl), layout_label(r, l));
                progress(run, r, cold ? "cold" : "hot", what);
                run_cell(run, &c, R_GRID, l, cold, n, 0, (double)n, b);
            }
        }
    }
}

/* src page-aligned, dst = src + span + distance. */
static const int mod_dist[] = {0,  1,  2,   3,   4,   7,    8,    15,   16,   31,   32,   33,   48,  63,
                               64, 65, 96, 128, 256, 512, 1024, 2048, 3072, 4032, 4064, 4080, 4094, 4095};

static void mod4096_cells(struct run *run, const struct buffers *b, int r)
{
    const struct options *o = run->o;
    for (int m = 0; m < o->nmod; m++)
        for (size_t k = 0; k < sizeof mod_dist / sizeof mod_dist[0]; k++) {
            struct cell c;
            memset(&c, 0, sizeof c);
            c.routine = (enum altmem_routine)r;
            c.mode = MODE_FIXED;
            c.layout = -1;
            c.n = (size_t)o->mod_sizes[m];
            c.src = b->src;
            c.dst = b->dst + mod_dist[k];
            char what[48], sl[32];
            snprintf(what, sizeof what, "%s, distance %d", size_label(o->mod_sizes[m], sl, sizeof sl), mod_dist[k]);
            progress(run, r, "mod 4096", what);
            run_cell(run, &c, R_MOD, -1, 0, o->mod_sizes[m], mod_dist[k], (double)c.n, b);
        }
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
        progress(run, r, cold ? "cold, distribution" : "hot, distribution", o->dists[i]);
        run_cell(run, &c, R_DIST, -1, cold, region, i, bytes / DIST_CALLS, b);
    }
}

void dist_names_means(struct run *run, struct bench_dist (*dists)[2])
{
    const struct options *o = run->o;
    for (int i = 0; i < o->ndists; i++) {
        run->dist_names[i] = dists[i][0].name;
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
            const struct bench_dist *dd = &dists[i][r == ALTMEM_MEMSET];
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

/* One sweep over every cell of the run. */
static void sweep_cells(struct run *run, const struct buffers *b, struct bench_dist (*dists)[2])
{
    const struct options *o = run->o;
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        if (o->grid && o->routines[r])
            grid_cells(run, b, r);
    /* memcpy and memmove (the routines that read a source), without overlap. */
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        if (o->routines[r] && bench_routine_reads_src(r))
            mod4096_cells(run, b, r);
    for (int i = 0; i < o->ndists; i++) {
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
            if (o->routines[r])
                dist_cells(run, b, r, i, &dists[i][r == ALTMEM_MEMSET]);
    }
}

/* The process goes over the cells o->sweeps times, a share of the rounds each
   time, so that a cell's rounds fall at several moments of the process: a
   disturbance that lasts seconds (another tenant, a phase of the host) hits a
   share of them instead of all.  Each sweep but the first has buffers mapped
   anew, on other pages: where the kernel put them decides some copies' speed
   (glibc 2.36's rep movsb at 96 KiB on Zen 4: 28 or 70-310 us from one mapping
   to the next), so a run samples 3 placements a process instead of one
   (docs/performance.md, "Method"). */
int measure_cells(struct run *run, struct buffers *b, struct bench_dist (*dists)[2])
{
    for (run->sweep = 0; run->sweep < run->o->sweeps; run->sweep++) {
        if (run->sweep > 0 && buffers_remap(b) != 0)
            return -1;
        run->cursor = 0;
        sweep_cells(run, b, dists);
    }
    return 0;
}
