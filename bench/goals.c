/*
 * The project's speed goals, as data (docs/performance.md, "Results", says
 * where they come from and how the latest run fared): each row of `table` is
 * one line of the bench's goal report, checked against the results of the
 * same run.  To add or change a goal, edit the table; the kinds below are
 * what a row can ask.
 */
#include "bench_run.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

enum goal_kind {
    /* The bound variant's speed vs the C library over the hot grid cells of
       `layouts`: geometric mean >= target, and no cell below `floor`. */
    GOAL_GEOMEAN,
    /* The same cells, sizes lo..hi: the lowest >= target. */
    GOAL_LOWEST,
    /* Hot grid cells >= lo: the bound variant's bandwidth >= target times the
       best any implementation reaches in the cell. */
    GOAL_BANDWIDTH,
    /* Variant `text` against the byte loop, hot grid cell of size lo and the
       one layout of `layouts`: >= target. */
    GOAL_VS_BYTELOOP,
    /* A goal measured elsewhere: `text` is the line. */
    GOAL_NOTE,
};

struct goal {
    enum goal_kind kind;
    int routine;
    unsigned layouts;
    uint64_t lo, hi;
    double target, floor;
    const char *text; /* LOWEST: what the cells are called; VS_BYTELOOP: the variant; NOTE: the line */
};

#define L(x) (1u << (x))
#define NONOVL (L(LAY_ALIGNED) | L(LAY_MIS) | L(LAY_D63))
#define ALL_LAYOUTS LAY_GRID_MASK

/* Within a routine, its rows are skipped when its bound variant was not
   measured: the first says so. */
static const struct goal table[] = {
    {GOAL_GEOMEAN, ALTMEM_MEMCPY, NONOVL, 0, UINT64_MAX, 1.10, 0.95, NULL},
    /* Written for Zen 3, whose rep movsb is slow there (docs/performance.md). */
    {GOAL_LOWEST, ALTMEM_MEMCPY, L(LAY_MIS), 4 * KiB, 256 * KiB, 5, 0, "memcpy s+1/d+3 at 4-256 KiB"},
    {GOAL_BANDWIDTH, ALTMEM_MEMCPY, ALL_LAYOUTS, 64 * MiB, UINT64_MAX, 0.95, 0, NULL},
    {GOAL_GEOMEAN, ALTMEM_MEMMOVE, ALL_LAYOUTS, 0, UINT64_MAX, 1.00, 0.95, NULL},
    {GOAL_BANDWIDTH, ALTMEM_MEMMOVE, ALL_LAYOUTS, 64 * MiB, UINT64_MAX, 0.95, 0, NULL},
    {GOAL_GEOMEAN, ALTMEM_MEMSET, NONOVL, 0, UINT64_MAX, 1.00, 0.95, NULL},
    {GOAL_BANDWIDTH, ALTMEM_MEMSET, ALL_LAYOUTS, 64 * MiB, UINT64_MAX, 0.95, 0, NULL},
    /* The strict-alignment goal of the alternatives issue, when measured. */
    {GOAL_VS_BYTELOOP, ALTMEM_MEMCPY, L(LAY_MIS), 4 * KiB, 4 * KiB, 4, 0, "generic"},
    {GOAL_NOTE, ALTMEM_MEMCPY, 0, 0, 0, 0, 0,
     "small sizes (<= 64 B), instructions per call: scripts/small-cost.sh (callgrind, not timed here)"},
};

static int bound_impl(const struct run *run, int r)
{
    for (int i = 0; i < run->nimpl[r]; i++)
        if (run->impls[r][i].bound)
            return i;
    return -1;
}

static int hot_grid(const struct result *x, int r, int impl)
{
    return x->kind == R_GRID && !x->cold && x->routine == r && x->impl == impl;
}

/* Cells below a floor: counted only beyond what the run resolves there. */
struct below {
    int beyond;     /* the whole interval (ratio_hi) below the floor, in a cell the control resolves */
    int within;     /* the ratio below the floor, its interval not */
    int unresolved; /* below the floor, in a cell the run cannot resolve (bench_run.h) */
};

/* Geometric mean and minimum of the bound variant's speed vs libc over the hot
   grid cells of routine r whose layout is in mask and size in [lo, hi]. */
static int grid_stats(const struct run *run, int r, unsigned mask, uint64_t lo, uint64_t hi, double floor,
                      double *geo, double *minv, const struct result **worst, struct below *below)
{
    int bi = bound_impl(run, r), count = 0;
    *geo = 0;
    *minv = 1e300;
    *worst = NULL;
    memset(below, 0, sizeof *below);
    double *speed = malloc((run->n ? run->n : 1) * sizeof *speed);
    if (!speed)
        return 0;
    for (size_t k = 0; k < run->n; k++) {
        const struct result *x = &run->r[k];
        if (!hot_grid(x, r, bi) || !(mask >> x->layout & 1) || x->size < lo || x->size > hi)
            continue;
        double v = vs_libc(run, x);
        if (v <= 0)
            continue;
        speed[count++] = v;
        if (v < floor) {
            const struct result *c = control_of(run, x);
            if (!control_ok(c) || !interval_ok(x))
                below->unresolved++;
            else if (x->ratio_hi < floor)
                below->beyond++;
            else
                below->within++;
        }
        if (v < *minv) {
            *minv = v;
            *worst = x;
        }
    }
    if (count)
        *geo = bench_geomean(speed, count);
    free(speed);
    return count;
}

/* The most any implementation could show against libc over the same cells as
   grid_stats: each cell at the fastest time any implementation had at its size
   in this run, at any layout (the aligned store rate; at small sizes the
   timing loop's floor).  A geomean goal above it is out of reach on this
   machine unless code beats every time seen; *at_bound counts the cells where
   libc is within 2% of that bound already. */
static double reachable(const struct run *run, int r, unsigned mask, uint64_t lo, uint64_t hi, int *at_bound)
{
    double logsum = 0;
    int bi = bound_impl(run, r), li = run->libc_i[r], count = 0;
    *at_bound = 0;
    for (size_t k = 0; k < run->n; k++) {
        const struct result *x = &run->r[k], *lib;
        if (!hot_grid(x, r, bi) || !(mask >> x->layout & 1) || x->size < lo || x->size > hi || li < 0 ||
            !(lib = same_cell(run, x, li)) || lib->st.med <= 0)
            continue;
        double fastest = 1e300;
        for (size_t j = 0; j < run->n; j++) {
            const struct result *y = &run->r[j];
            if (y->kind == R_GRID && !y->cold && y->routine == r && y->size == x->size && y->st.med > 0)
                fastest = fmin(fastest, y->st.med);
        }
        double c = fmax(1.0, lib->st.med / fastest);
        *at_bound += c < 1.02;
        logsum += log(c);
        count++;
    }
    return count ? exp(logsum / count) : 0;
}

static void cell_name(const struct result *x, char *buf, size_t len)
{
    char s[32];
    snprintf(buf, len, "%s %s", size_label(x->size, s, sizeof s), layout_label(x->routine, x->layout));
}

#define GLINE(...) snprintf(g->line[g->n < 23 ? g->n++ : g->n], sizeof g->line[0], __VA_ARGS__)

static void geomean_line(const struct run *run, const struct goal *q, int bi, struct goal_report *g)
{
    double geo, minv;
    const struct result *worst;
    struct below below;
    int cnt = grid_stats(run, q->routine, q->layouts, q->lo, q->hi, q->floor, &geo, &minv, &worst, &below);
    char wn[64] = "";
    if (worst)
        cell_name(worst, wn, sizeof wn);
    int ovl = (q->layouts & (L(LAY_OVL_BWD) | L(LAY_OVL_FWD))) && q->routine == ALTMEM_MEMMOVE;
    GLINE("%s %s vs %s, %d hot grid cells%s: geomean %.3fx (goal >= %.2fx: %s); lowest %.3fx at %s; "
          "%d cell%s below %.2fx beyond the run's resolution (goal: none: %s; %d more below it within the "
          "resolution, %d in cells the run cannot resolve)",
          altmem_routine_name((enum altmem_routine)q->routine), run->impls[q->routine][bi].name, run->libc, cnt,
          ovl ? " (both overlap directions too)" : "", geo, q->target, geo >= q->target ? "met" : "NOT met", minv,
          wn, below.beyond, below.beyond == 1 ? "" : "s", q->floor, below.beyond ? "NOT met" : "met", below.within,
          below.unresolved);
    int at_bound;
    double reach = reachable(run, q->routine, q->layouts, q->lo, q->hi, &at_bound);
    if (reach > 0)
        GLINE("  reachable at most: %.3fx (each cell at the fastest time any implementation had at its size in "
              "this run, any layout; %s is within 2%% of that in %d of the %d cells)%s",
              reach, run->libc, at_bound, cnt, reach < q->target ? ": the goal is out of reach here" : "");
}

static void lowest_line(const struct run *run, const struct goal *q, struct goal_report *g)
{
    double geo, minv;
    const struct result *worst;
    struct below below;
    if (grid_stats(run, q->routine, q->layouts, q->lo, q->hi, 0, &geo, &minv, &worst, &below))
        GLINE("%s: lowest %.2fx vs %s (goal >= %gx: %s)", q->text, minv, run->libc, q->target,
              minv >= q->target ? "met" : "NOT met");
}

static void bandwidth_line(const struct run *run, const struct goal *q, int bi, struct goal_report *g)
{
    int r = q->routine;
    double worst_frac = 2, best_bw = 0;
    const struct result *wx = NULL;
    int big = 0;
    for (size_t k = 0; k < run->n; k++) {
        const struct result *x = &run->r[k];
        if (!hot_grid(x, r, bi) || !(q->layouts >> x->layout & 1) || x->size < q->lo || x->size > q->hi)
            continue;
        double best = 0;
        for (int i = 0; i < run->nimpl[r]; i++) {
            const struct result *y = same_cell(run, x, i);
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
    if (!big)
        return;
    char wn[64], lo[32];
    cell_name(wx, wn, sizeof wn);
    GLINE("%s >= %s, %d cells: %s reaches >= %.1f%% of the best bandwidth in each (lowest at %s%s); "
          "best seen %.2f GB/s (goal >= %.0f%%: %s)",
          altmem_routine_name((enum altmem_routine)r), size_label(q->lo, lo, sizeof lo), big,
          run->impls[r][bi].name, 100 * worst_frac, wn, wx->cold ? ", cold" : "", best_bw, 100 * q->target,
          worst_frac >= q->target ? "met" : "NOT met");
}

static void vs_byteloop_line(const struct run *run, const struct goal *q, struct goal_report *g)
{
    int r = q->routine;
    for (size_t k = 0; k < run->n; k++) {
        const struct result *x = &run->r[k];
        const struct impl *im = &run->impls[x->routine][x->impl];
        if (x->kind != R_GRID || x->cold || x->routine != r || !(q->layouts >> x->layout & 1) || x->size < q->lo ||
            x->size > q->hi || im->kind != IMPL_ALTMEM || strcmp(im->name, q->text))
            continue;
        for (int i = 0; i < run->nimpl[r]; i++) {
            const struct result *y = same_cell(run, x, i);
            if (!y || run->impls[r][i].kind != IMPL_BYTELOOP)
                continue;
            char cn[64];
            cell_name(x, cn, sizeof cn);
            GLINE("%s %s vs byte loop at %s: %.2fx (goal >= %gx: %s)", altmem_routine_name((enum altmem_routine)r),
                  q->text, cn, y->st.med / x->st.med, q->target, y->st.med / x->st.med >= q->target ? "met" : "NOT met");
        }
    }
}

void goals(const struct run *run, struct goal_report *g)
{
    g->n = 0;
    int said[ALTMEM_ROUTINE_COUNT] = {0};
    for (size_t t = 0; t < sizeof table / sizeof table[0]; t++) {
        const struct goal *q = &table[t];
        int r = q->routine, bi = bound_impl(run, r);
        if (q->kind == GOAL_VS_BYTELOOP) {
            vs_byteloop_line(run, q, g);
            continue;
        }
        if (q->kind == GOAL_NOTE) {
            GLINE("%s", q->text);
            continue;
        }
        /* The rest are about the bound variant: none when it was not measured,
           or has no hot grid cells in this run. */
        if (bi < 0) {
            int any = 0;
            for (size_t k = 0; k < run->n && !any; k++)
                any = run->r[k].routine == r;
            if (any && !said[r]++)
                GLINE("%s: the bound variant was not measured (--impl)", altmem_routine_name((enum altmem_routine)r));
            continue;
        }
        double geo, minv;
        const struct result *worst;
        struct below below;
        if (!grid_stats(run, r, ALL_LAYOUTS, 0, UINT64_MAX, 0, &geo, &minv, &worst, &below))
            continue;
        if (q->kind == GOAL_GEOMEAN)
            geomean_line(run, q, bi, g);
        else if (q->kind == GOAL_LOWEST)
            lowest_line(run, q, g);
        else
            bandwidth_line(run, q, bi, g);
    }
}
