/*
 * `altmem bench`: memcpy, memmove and memset -- altmem's variants, a byte
 * loop and the C library's own routines -- over a size x alignment grid,
 * (dst - src) mod 4096 sweeps and size distributions from published
 * measurements or a file, with hot or cold caches; a table with ratios against
 * the C library, CSV and JSON for tools, gnuplot charts, and the project's
 * goals checked against the C library (docs/performance.md).
 *
 * Method (docs/performance.md has the long form):
 *   - Interleaved: for each cell (routine, size, alignment, cache), the
 *     implementations take turns, one sample each, A B C A B C ..., so that a
 *     slow phase of a shared machine lands on all of them rather than on one.
 *   - A sample is `calls` back-to-back calls timed with CLOCK_MONOTONIC;
 *     `calls` is calibrated once per cell and implementation so a sample lasts
 *     at least --min-sample-ms (at least one call).
 *   - Reported: the median over --reps samples, and the interquartile range as
 *     a percentage of it (quartiles, min and max go to the CSV/JSON).
 *   - Pinned to one CPU; buffers mmap'd and written once before timing.
 * The public API (altmem.h) for the variants (altmem_variant()); the routines'
 * properties from the registry (routines.c).
 *
 * This file holds the implementations and the stages of the command (the
 * modes, from modes.def, and the measured run their cells make up); options.c
 * the options; each mode's file its cells and tables, or its whole run;
 * measure.c a process's sweeps over the cells; cells.c the buffers, cells and
 * timed loops; report.c the header, table rows and files; goals.c the goals,
 * as a table; benchlib.c the clock, calibration and rounds, stats.c the
 * statistics.
 */
#define _GNU_SOURCE
#include "bench.h"

#include <altmem.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "bench_run.h"
#include "benchlib.h"
#include "byteloop.h"

/* ---- The measured run ------------------------------------------------------- */

static void add_impl(struct run *run, int r, const char *name, const char *heading, enum impl_kind kind, int bound,
                     union altmem_routine_fn fn)
{
    if (run->nimpl[r] == MAX_IMPLS)
        return;
    struct impl *im = &run->impls[r][run->nimpl[r]++];
    im->name = name;
    im->heading = heading;
    im->kind = kind;
    im->bound = bound;
    im->fn = fn;
}

static int list_has(const char *list, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = list;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == wl && !strncmp(p, word, wl))
            return 1;
        if (!e)
            return 0;
        p = e + 1;
    }
}

/* The cold arena: 2 x the last-level cache, 256 MiB .. 2 GiB, or --cold-mib. */
static uint64_t cold_bytes(const struct options *o, uint64_t max_size)
{
    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    uint64_t len = o->cold_bytes;
    if (!len) {
        len = 2 * (uint64_t)cpu.l3_bytes;
        if (len < 256 * MiB)
            len = 256 * MiB;
        if (len > 2048 * MiB)
            len = 2048 * MiB;
    }
    if (len < 4 * max_size + 4 * PAD)
        len = 4 * max_size + 4 * PAD;
    return len;
}

/* Maps what one process measures in: 0, or 1 with a message. */
static int map_buffers(const struct options *o, struct buffers *b)
{
    uint64_t max_size = run_max_size(o);
    if (buffers_init(b, max_size) != 0) {
        fprintf(stderr, "altmem bench: cannot map buffers for %" PRIu64 " bytes: %s\n", max_size, strerror(errno));
        return 1;
    }
    if (o->cold) {
        uint64_t len = cold_bytes(o, max_size);
        if (cold_init(b, (size_t)len) != 0) {
            fprintf(stderr, "altmem bench: cannot map a %" PRIu64 " MiB cold arena: %s\n", len >> 20,
                    strerror(errno));
            return 1;
        }
    }
    return 0;
}

/* Implementations: the requested variants in table order, the byte loop, the
   C library (always: it is what the ratios are against) and the control, the
   C library's routine again under a second pointer (and timing loops of its
   own, like every implementation), so that what the run cannot resolve shows
   as a ratio away from 1. */
static void add_impls(struct run *run, const struct options *o, const char *libc)
{
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) != 0 || !v.runnable || !bench_routine_in_libc(v.routine))
            continue;
        struct altmem_binding_info bi;
        int bound = o->width_child ? !strcmp(v.name, bench_width_variant(o->width_child))
                                   : altmem_binding(v.routine, &bi) == 0 && !strcmp(bi.variant, v.name);
        if (!list_has(o->impls, "all") && !list_has(o->impls, v.name) && !(bound && list_has(o->impls, "bound")))
            continue;
        /* v.name points into the library's table, which outlives this run. */
        add_impl(run, v.routine, v.name, v.name, IMPL_ALTMEM, bound, v.fn);
    }
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        if (!bench_routine_in_libc(r))
            continue;
        if (run->nimpl[r] > MAX_IMPLS - 3)
            run->nimpl[r] = MAX_IMPLS - 3;
        if (list_has(o->impls, "byteloop"))
            add_impl(run, r, "byteloop", "byte loop", IMPL_BYTELOOP, 0, bench_byteloop(r));
        run->libc_i[r] = run->nimpl[r];
        add_impl(run, r, libc, libc, IMPL_LIBC, 0, bench_routine_libc(r));
        add_impl(run, r, "control", "control", IMPL_CONTROL, 0, bench_routine_libc(r));
    }
}

/* The C library's label: its name and version, and, where a preloaded
   library's memcpy took the C library's place (scripts/aocl-libmem.sh),
   whose routines the libc column times; in a --libc-width child, its width. */
static void libc_label(char *libc, size_t len, const struct options *o)
{
#ifdef __GLIBC__
    snprintf(libc, len, "glibc %s", gnu_get_libc_version());
    Dl_info from;
    if (dladdr(bench_fn_address(bench_routine_libc(ALTMEM_MEMCPY)), &from) && from.dli_fname &&
        strstr(from.dli_fname, ".so") && !strstr(from.dli_fname, "/libc.so")) {
        const char *base = strrchr(from.dli_fname, '/');
        size_t l = strlen(libc);
        snprintf(libc + l, len - l, ", memcpy from %s", base ? base + 1 : from.dli_fname);
    }
#elif defined(ALTMEM_BENCH_LIBC)
    snprintf(libc, len, "%s", ALTMEM_BENCH_LIBC); /* musl has no version call */
#else
    snprintf(libc, len, "libc");
#endif
    if (o->width_child) {
        size_t l = strlen(libc);
        snprintf(libc + l, len - l, " %s", o->width_child);
    }
}

/* What every process of the run needs before its first cell: the
   implementations and what the CELLS modes chosen read first (the
   distributions: a bad file is a usage error, before any work).
   BENCH_GO_ON, or the exit status. */
static int prepare_run(struct bench_job *job)
{
    struct run *run = &job->run;
    run->o = &job->o;
    /* Each process its own orders of the rounds. */
    run->order_seed = 0x853c49e6748fea9bull ^ ((uint64_t)job->o.pass * 0x9e3779b97f4a7c15ull);
    if (bench_check_impl_list(job->o.impls) != 0)
        return 2;
    int rc = bench_cells_stage(job, BENCH_PARSE);
    if (rc != BENCH_GO_ON)
        return rc;
    libc_label(job->libc, sizeof job->libc, &job->o);
    run->libc = job->libc;
    add_impls(run, &job->o, job->libc);
    run->samples = calloc((size_t)MAX_IMPLS * SHORT_CELL_FACTOR * (size_t)job->o.reps, sizeof *run->samples);
    if (!run->samples) {
        fprintf(stderr, "altmem bench: out of memory\n");
        return 1;
    }
    return BENCH_GO_ON;
}

/* --process-child K/P: measure every cell, write the results to stdout. */
static int child_main(struct bench_job *job)
{
    struct run *run = &job->run;
    char msg[160];
    if (!job->o.no_pin && bench_pin(job->o.cpu, BENCH_PICK_HIGHEST, NULL, msg, sizeof msg) == -1) {
        fprintf(stderr, "altmem bench: %s\n", msg);
        return 1;
    }
    memset(&job->b, 0, sizeof job->b);
    int rc = map_buffers(&job->o, &job->b) != 0 || measure_cells(job) != 0;
    bench_progress_clear();
    if (!rc && processes_emit(run, stdout) != 0)
        rc = 1;
    if (!rc && run->wrong)
        rc = 1;
    run_free(run);
    return rc;
}

/* A forked child that could not exec this program (processes.c): it is
   process k of n, as --process-child K/P would have said. */
static int measure_in_fork(void *p, int k, int n)
{
    struct bench_job *job = p;
    job->o.pass = k;
    job->o.npass = n;
    /* What the parent gathered before the fork is the parent's: start empty. */
    job->run.r = NULL;
    job->run.n = job->run.cap = 0;
    job->run.wrong = 0;
    job->run.order_seed = 0x853c49e6748fea9bull ^ ((uint64_t)k * 0x9e3779b97f4a7c15ull);
    return child_main(job);
}

/* The parent, before measuring: --csv opened (a path it cannot write fails
   before any work), the load started, this process pinned, the header
   printed.  BENCH_GO_ON, or the exit status. */
static int start_run(struct bench_job *job)
{
    const struct options *o = &job->o;
    if (o->csv) {
        job->csv = fopen(o->csv, "w");
        if (!job->csv) {
            fprintf(stderr, "altmem bench: cannot write '%s': %s\n", o->csv, strerror(errno));
            return 1;
        }
    }
    /* The load first: pinning moves this process to the timed CPU, and the
       load takes the others. */
    char loadmsg[320] = "";
    if (o->load) {
        struct altmem_cpu_info cpu;
        altmem_cpu(&cpu);
        bench_load_start(o->no_pin ? -1 : o->cpu, bench_load_bytes(cpu.l3_bytes), loadmsg, sizeof loadmsg);
    }
    /* The processes pin themselves the same way; this says which CPU. */
    char pinned[160];
    if (o->no_pin)
        snprintf(pinned, sizeof pinned, "not pinned (--no-pin)");
    else if (bench_pin(o->cpu, BENCH_PICK_HIGHEST, NULL, pinned, sizeof pinned) == -1) {
        fprintf(stderr, "altmem bench: %s\n", pinned);
        if (job->csv)
            fclose(job->csv);
        return 1;
    }
    uint64_t max_size = run_max_size(o);
    buffers_plan(&job->b, max_size);
    if (o->cold)
        job->b.cold_len = (size_t)cold_bytes(o, max_size);
    snprintf(job->h.memload, sizeof job->h.memload, "%s", o->load ? loadmsg : "none (--load adds one)");
    print_header(job->argc, job->argv, o, job->libc, pinned, &job->b, &job->h);
    if (o->width_child)
        bench_libc_width_child_header(o);
    fflush(stdout);
    return BENCH_GO_ON;
}

/* Every cell, in --processes fresh processes of this program or in this one. */
static int measure(struct bench_job *job)
{
    int failed;
    if (job->o.processes > 1) {
        failed = processes_run(&job->run, job->argc, job->argv, measure_in_fork, job) != 0;
    } else {
        failed = map_buffers(&job->o, &job->b) != 0 || measure_cells(job) != 0;
        if (job->b.map)
            munmap(job->b.map, job->b.map_len);
        if (job->b.cold)
            munmap(job->b.cold, job->b.cold_len);
    }
    bench_load_stop();
    if (failed) {
        if (job->csv)
            fclose(job->csv);
        run_free(&job->run);
        return 1;
    }
    return BENCH_GO_ON;
}

/* --csv, --json, --samples and --plot; the exit status. */
static int write_files(struct bench_job *job, const struct goal_report *g, double secs)
{
    const struct run *run = &job->run;
    const struct options *o = &job->o;
    int status = 0;
    if (job->csv) {
        csv_header(job->csv);
        for (size_t k = 0; k < run->n; k++)
            csv_row(run, job->csv, &run->r[k], o->reps);
        if (fclose(job->csv) != 0) {
            fprintf(stderr, "altmem bench: writing '%s': %s\n", o->csv, strerror(errno));
            status = 1;
        }
    }
    if (o->json && write_json(run, &job->h, g, secs) != 0) {
        fprintf(stderr, "altmem bench: writing '%s' failed\n", o->json);
        status = 1;
    }
    if (o->samples_file && processes_write_samples(run, o->samples_file) != 0)
        status = 1;
    if (o->plot && write_plots(run) != 0) {
        fprintf(stderr, "altmem bench: --plot %s: some charts were not drawn\n", o->plot);
        status = 1;
    }
    return status;
}

/* The figures over the processes, each CELLS mode's tables, the run's time,
   what it resolves, the goals, and the files; the exit status. */
static int report_run(struct bench_job *job)
{
    struct run *run = &job->run;
    bench_progress_clear();
    processes_summarise(run);
    bench_cells_stage(job, BENCH_REPORT);

    double secs = (bench_now_ns() - job->t_start) / 1e9;
    struct goal_report g;
    goals(run, &g);
    double load[3];
    printf("\nrun time %.1f s", secs);
    if (getloadavg(load, 3) == 3)
        printf("; load average at end %.2f %.2f %.2f", load[0], load[1], load[2]);
    printf("\n");
    print_resolution(run);
    printf("\ngoals (the bound variant against %s, hot caches; docs/performance.md)\n", job->libc);
    for (int i = 0; i < g.n; i++)
        printf("  %s\n", g.line[i]);

    int status = run->wrong ? 1 : 0;
    if (write_files(job, &g, secs) != 0)
        status = 1;
    run_free(run);
    if (run->wrong)
        fprintf(stderr, "altmem bench: some results were wrong or incomplete (see above)\n");
    return status;
}

/* The CELLS modes' cells, measured in fresh processes and reported. */
static int measured_run(struct bench_job *job)
{
    int rc = prepare_run(job);
    if (rc != BENCH_GO_ON)
        return rc;
    if (job->o.pass)
        return child_main(job);
    rc = start_run(job);
    if (rc == BENCH_GO_ON)
        rc = measure(job);
    return rc == BENCH_GO_ON ? report_run(job) : rc;
}

int altmem_bench_main(int argc, char **argv)
{
    struct bench_job job = {.argc = argc, .argv = argv};
    const struct bench_mode *mode = bench_mode_chosen(&job, BENCH_COMMAND);
    if (mode)
        return bench_mode_stages(mode, &job);
    job.t_start = bench_now_ns();
    job.o.cpu = -1;
    job.o.grid = 1;
    job.o.hot = 1;
    int rc = bench_parse_options(argc, argv, &job.o);
    if (rc != BENCH_GO_ON)
        return rc;
    mode = bench_mode_chosen(&job, BENCH_INSTEAD);
    if (mode)
        return bench_mode_stages(mode, &job);
    return measured_run(&job);
}
