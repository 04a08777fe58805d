/*
 * `altmem bench`, one process's run: its sweeps over the cells of every
 * CELLS mode chosen (modes.def: the size x alignment grid, the (dst - src)
 * mod 4096 sweeps, the size distributions; each mode's file makes its cells,
 * which run_cell in cells.c times).  Nothing is printed here but the progress
 * line: the tables come from the results, once every process has measured
 * them (processes.c, and each mode's report).
 */
#define _GNU_SOURCE
#include "bench_run.h"

#include "benchlib.h"

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
void cells_progress(const struct run *run, int r, const char *where, const char *what)
{
    const struct options *o = run->o;
    char proc[64] = "";
    if (o->npass > 1)
        snprintf(proc, sizeof proc, ", process %d/%d sweep %d/%d", o->pass, o->npass, run->sweep + 1, o->sweeps);
    bench_progress("altmem bench: %s %s %s; %zu results%s", altmem_routine_name((enum altmem_routine)r), where, what,
                   run->n, proc);
}

/* The process goes over the cells o->sweeps times, a share of the rounds each
   time, so that a cell's rounds fall at several moments of the process: a
   disturbance that lasts seconds (another tenant, a phase of the host) hits a
   share of them instead of all.  Each sweep but the first has buffers mapped
   anew, on other pages: where the kernel put them decides some copies' speed
   (glibc 2.36's rep movsb at 96 KiB on Zen 4: 28 or 70-310 us from one mapping
   to the next), so a run samples 3 placements a process instead of one
   (docs/performance.md, "Method"). */
int measure_cells(struct bench_job *job)
{
    struct run *run = &job->run;
    for (run->sweep = 0; run->sweep < run->o->sweeps; run->sweep++) {
        if (run->sweep > 0 && buffers_remap(&job->b) != 0)
            return -1;
        run->cursor = 0;
        bench_cells_stage(job, BENCH_RUN);
    }
    return 0;
}
