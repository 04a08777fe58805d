/*
 * The mod4096 mode of `altmem bench` (modes.def, --mod4096 SIZES): memcpy and
 * memmove (the routines that read a source) at each size, the destination at
 * distances from the source that sweep (dst - src) mod 4096, without
 * overlap; one table per routine and size.
 */
#include "bench_run.h"

#include <string.h>

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
            c.discard = o->caller_discards;
            c.layout = -1;
            c.n = (size_t)o->mod_sizes[m];
            c.src = b->src;
            c.dst = b->dst + mod_dist[k];
            char what[48], sl[32];
            snprintf(what, sizeof what, "%s, distance %d", size_label(o->mod_sizes[m], sl, sizeof sl), mod_dist[k]);
            cells_progress(run, r, "mod 4096", what);
            run_cell(run, &c, R_MOD, -1, 0, o->mod_sizes[m], mod_dist[k], (double)c.n, b);
        }
}

int bench_mode_mod4096_run(struct bench_job *job)
{
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        if (job->o.routines[r] && bench_routine_reads_src(r))
            mod4096_cells(&job->run, &job->b, r);
    return BENCH_GO_ON;
}

/* One table per routine and size. */
int bench_mode_mod4096_report(struct bench_job *job)
{
    const struct run *run = &job->run;
    int last_r = -1;
    uint64_t last_size = 0;
    for (size_t k = 0; k < run->n; k++) {
        const struct result *x = &run->r[k];
        if (x->kind != R_MOD || x->impl != 0)
            continue;
        if (x->routine != last_r || x->size != last_size) {
            char title[128], s[32];
            snprintf(title, sizeof title, "%s %s, src page-aligned, dst = src + span + distance: (dst - src) mod 4096",
                     altmem_routine_name((enum altmem_routine)x->routine), size_label(x->size, s, sizeof s));
            print_head(run, title, "  distance", x->routine);
            last_r = x->routine;
            last_size = x->size;
        }
        char lab[32];
        snprintf(lab, sizeof lab, "%10d", x->param);
        print_cell_row(run, lab, x);
    }
    return BENCH_GO_ON;
}
