/*
 * The grid mode of `altmem bench` (modes.def): every size x alignment cell
 * of the routines chosen, in hot caches and, with --cold or --cold-only, cold
 * ones (each call on a fresh place of an arena larger than the last-level
 * cache); one table per routine and cache state.
 */
#include "bench_run.h"

#include <string.h>

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
                if (cold && LAY_IS_OVERLAP(l))
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
                    c.discard = o->caller_discards;
                    fixed_pointers(&c, (enum layout)l, b);
                }
                char what[48], sl[32];
                snprintf(what, sizeof what, "%s %s", size_label(n, sl, sizeof sl), layout_label(r, l));
                cells_progress(run, r, cold ? "cold" : "hot", what);
                run_cell(run, &c, R_GRID, l, cold, n, 0, (double)n, b);
            }
        }
    }
}

int bench_mode_grid_run(struct bench_job *job)
{
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        if (job->o.routines[r])
            grid_cells(&job->run, &job->b, r);
    return BENCH_GO_ON;
}

/* One table per routine and cache state, in the order measured. */
int bench_mode_grid_report(struct bench_job *job)
{
    const struct run *run = &job->run;
    int last_r = -1, last_cold = -1;
    for (size_t k = 0; k < run->n; k++) {
        const struct result *x = &run->r[k];
        if (x->kind != R_GRID || x->impl != 0)
            continue;
        if (x->routine != last_r || x->cold != last_cold) {
            char title[96];
            snprintf(title, sizeof title, "%s, %s caches", altmem_routine_name((enum altmem_routine)x->routine),
                     x->cold ? "cold" : "hot");
            print_head(run, title, "    size align", x->routine);
            last_r = x->routine;
            last_cold = x->cold;
        }
        char lab[48], s[32];
        snprintf(lab, sizeof lab, "%8s %-9s", size_label(x->size, s, sizeof s), layout_label(x->routine, x->layout));
        print_cell_row(run, lab, x);
    }
    return BENCH_GO_ON;
}
