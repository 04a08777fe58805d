/*
 * What `altmem bench`'s parts share: options.c (the options), bench.c
 * (implementations, the measured run), modes.c (the table of modes, from modes.def) and each mode's
 * own file, measure.c (a process's sweeps over the cells), cells.c (buffers,
 * cells, the timed loops), processes.c (the fresh processes a run measures in,
 * and the figures over them), report.c (header, table rows, CSV, JSON, charts)
 * and goals.c (the project's goals, as a table).
 */
#ifndef ALTMEM_BENCH_RUN_H
#define ALTMEM_BENCH_RUN_H

#include <altmem.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dist.h"
#include "routines.h"

#define MAX_SIZES 96
#define MAX_IMPLS 16
#define BENCH_LOOP_SLOTS MAX_IMPLS /* timing-loop copies: one per implementation (cells.c) */
#define MAX_PROCESSES 15
#define BENCH_DEFAULT_PROCESSES 5 /* docs/performance.md, "Method": why 5 x 5 */
#define BENCH_DEFAULT_REPS 15
#define BENCH_DEFAULT_SAMPLE_MS 0.3
#define BENCH_DEFAULT_SWEEPS 3
#define MAX_LIST 8
#define MAX_SIZE (UINT64_C(1) << 30)
#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)
/* Slack after each buffer for the alignment offsets; the buffer size is then
   rounded up to whole pages, so src and dst share their offset within a page. */
#define PAD 8192
#define MEMSET_BYTE 0xa5 /* not 0: some memsets special-case zero */
#define DIST_CALLS 4096  /* calls in one pass over a size distribution */
#define COLD_SLOTS 65536 /* random placements a cold cell cycles through */

/* ---- What is measured ---------------------------------------------------- */

enum layout { LAY_ALIGNED, LAY_MIS, LAY_D63, LAY_OVL_BWD, LAY_OVL_FWD, LAY_OVL64_BWD, LAY_OVL64_FWD, LAY_COUNT };
/* The grid's layouts (--align all, the default); the 64-byte distances only when named. */
#define LAY_GRID_MASK ((1u << LAY_OVL64_BWD) - 1)
#define LAY_IS_OVERLAP(l) ((l) == LAY_OVL_BWD || (l) == LAY_OVL_FWD || (l) == LAY_OVL64_BWD || (l) == LAY_OVL64_FWD)

/* Table label (of a routine that reads a source), CSV/JSON name. */
extern const char *const layout_name[LAY_COUNT];
extern const char *const layout_csv[LAY_COUNT];
/* l's table label for routine r: memset's name only the destination. */
const char *layout_label(int r, enum layout l);
int routine_has_layout(int r, enum layout l);

/* IMPL_CONTROL is the C library's routine again, through a pointer and timing
   loops of its own: the same code under a second name, whose ratio to the
   C library shows what the run can resolve. */
enum impl_kind { IMPL_ALTMEM, IMPL_BYTELOOP, IMPL_LIBC, IMPL_CONTROL };
extern const char *const kind_csv[];

struct impl {
    const char *name;    /* variant name, "byteloop", or the libc label */
    const char *heading; /* table column heading */
    enum impl_kind kind;
    int bound;           /* the variant altmem_<routine> is bound to */
    union altmem_routine_fn fn;
};

struct options {
    int routines[ALTMEM_ROUTINE_COUNT]; /* selected? (only the C library's routines can be) */
    int any_routine;
    uint64_t sizes[MAX_SIZES];
    int nsizes;
    unsigned layouts;                   /* bit per enum layout */
    const char *impls;                  /* --impl list */
    int reps;                           /* rounds per cell in each process */
    int sweeps;                         /* times each process goes over the cells, reps/sweeps rounds each */
    int processes;                      /* fresh processes a cell is measured in */
    int pass, npass;                    /* --process-child K/P: this is process K of P (1-based) */
    double min_sample_ms;
    int quick, full;
    int grid;                           /* run the size x alignment grid */
    int hot, cold;                      /* caches */
    uint64_t mod_sizes[MAX_LIST];       /* --mod4096 */
    int nmod;
    const char *dists[MAX_LIST];        /* --dist */
    int ndists;
    uint64_t dist_region;               /* hot region of a distribution run */
    uint64_t cold_bytes;                /* cold arena (0: from the cache sizes) */
    const char *csv, *json, *plot;
    const char *samples_file;           /* --samples FILE: every sample of every process */
    int cpu;                            /* -1: choose */
    int no_pin;
    int load;                           /* --load: a memory load on the other CPUs */
    int shared_loops;                   /* --loops shared: every implementation through one loop */
    int caller_discards;                /* --caller discard: results unused, the address in a register */
    int set_sizes, set_reps, set_ms, set_align, set_impls, set_grid, set_cache, set_processes, set_sweeps;
    const char *libc_width;             /* --libc-width LIST: run one child per width */
    const char *width_child;            /* --libc-width-child W: this is one of them   */
    int libc_probe;                     /* --libc-probe: name glibc's variants, exit  */
};

/* ---- Options (options.c) --------------------------------------------------- */

/* argv (argv[0] is "bench") into o, which holds its defaults already (cpu -1,
   grid and hot 1): BENCH_GO_ON, or the exit status (--help's 0, a usage
   error's 2). */
int bench_parse_options(int argc, char **argv, struct options *o);
/* Every word of --impl names something: 0, or -1 with a usage message. */
int bench_check_impl_list(const char *list);

/* ---- Width against width (libc_width.c) ------------------------------------- */

/* The name of the variant glibc bound for routine r in this process (-1: unknown). */
int bench_libc_variant(int r, char *out, size_t len);
/* altmem's variant of width W (sse2, avx2, evex, avx512; every routine of the
   C library has one of each), or NULL. */
const char *bench_width_variant(const char *width);
/* In a child of --libc-width (--libc-width-child W): the header's line naming
   glibc's variants that this process binds. */
void bench_libc_width_child_header(const struct options *o);

/* ---- Buffers and cells (cells.c) ------------------------------------------ */

struct buffers {
    unsigned char *map;
    size_t map_len;
    unsigned char *src; /* page-aligned, span bytes */
    unsigned char *dst; /* src + span: the same offset within a page */
    size_t span;
    unsigned char *cold; /* the cold arena, or NULL */
    size_t cold_len;
};

/* The sizes of the buffers for cells up to max_size, without mapping them. */
void buffers_plan(struct buffers *b, uint64_t max_size);
int buffers_init(struct buffers *b, uint64_t max_size);
/* The same buffers on other pages: a new mapping, filled, then the old one
   unmapped (so that the new one lands elsewhere).  0, or -1 with a message. */
int buffers_remap(struct buffers *b);
int cold_init(struct buffers *b, size_t len);

/* One call of a distribution run: offsets into the region and a size. */
struct dcall {
    uint32_t src, dst, n;
};

enum cell_mode { MODE_FIXED, MODE_COLD, MODE_DIST };

struct cell {
    enum altmem_routine routine;
    enum cell_mode mode;
    int layout;                  /* enum layout; -1 for mod4096 and dist cells */
    size_t n;                    /* bytes per call (dist: per pass)            */
    unsigned char *dst;          /* FIXED; COLD, DIST: base of the dst side    */
    const unsigned char *src;    /*                     ... and the src side   */
    /* COLD: call i uses slot i % COLD_SLOTS: byte offset slot[k] on each side. */
    const uint32_t *slot;        /* in units of 4 KiB */
    size_t next;
    size_t dst_off, src_off;     /* the layout's offsets within a slot         */
    /* DIST */
    const struct dcall *calls;
    size_t ncalls;
    int discard;                 /* FIXED: the caller of --caller discard      */
};

void fixed_pointers(struct cell *c, enum layout l, const struct buffers *b);
void layout_offsets(enum layout l, size_t *soff, size_t *doff);
/* Random 4 KiB-aligned places for calls of n bytes in each half of the arena. */
const uint32_t *make_cold_slots(const struct buffers *b, size_t n, uint64_t seed);

/* ---- Results ------------------------------------------------------------- */

struct stat5 {
    double med, min, max, q1, q3; /* ns per call */
    uint64_t calls;
    int wrong;
};

enum rkind { R_GRID, R_MOD, R_DIST };

struct result {
    enum rkind kind;
    int routine;
    int layout;       /* R_GRID */
    int cold;
    uint64_t size;    /* R_GRID, R_MOD: bytes per call; R_DIST: region */
    int param;        /* R_MOD: (dst - src) mod 4096; R_DIST: index into dist names */
    int impl;         /* index into impls[routine] */
    double bytes;     /* bytes moved per timed unit (call; DIST: per call on average) */
    struct stat5 st;  /* ns per call: med is the median over processes, min and max over all samples */
    /* Over the processes (processes.c): each one's median, and the speed
       against the C library, libc's time / this time, paired per process. */
    int npass;
    double pass_med[MAX_PROCESSES];
    /* Each process's samples, ns per call in round order (round k of every
       implementation of a cell was taken in the same round), nsamp each. */
    double *samples[MAX_PROCESSES];
    int nsamp;
    double pass_lo, pass_hi;       /* lowest and highest of pass_med */
    /* libc's time / this one's: the trimmed mean of the paired per-round log
       ratios of every process (0: no libc); se, the standard error of its log
       from the spread of the processes' own ratios (0 with one process); lo and
       hi, the interval ratio * exp(-+w), w = 2 se + |log control|: what the run
       resolves in this cell (docs/performance.md, "Method"). */
    double ratio, ratio_se, ratio_lo, ratio_hi;
};

/* One run: what is timed and everything measured so far. */
struct run {
    const struct options *o;
    const char *libc;               /* the C library's label */
    struct result *r;
    size_t n, cap;
    struct impl impls[ALTMEM_ROUTINE_COUNT][MAX_IMPLS];
    int nimpl[ALTMEM_ROUTINE_COUNT];
    int libc_i[ALTMEM_ROUTINE_COUNT];
    const char *dist_names[MAX_LIST];
    double dist_mean[MAX_LIST][ALTMEM_ROUTINE_COUNT];
    int wrong;
    double *samples;                /* MAX_IMPLS * SHORT_CELL_FACTOR * reps */
    int sweep;                      /* which of the process's sweeps over the cells runs */
    size_t cursor;                  /* in a later sweep: the next cell's first result */
    uint64_t order_seed;            /* the rounds' random orders */
};

/* Times every implementation of c's routine on c, interleaved, and records
   the results with the given identity (cells.c). */
/* Cells of up to SHORT_CELL_BYTES (and distributions) take SHORT_CELL_FACTOR
   times the rounds, of samples that much shorter: the same time, more draws of
   the step a small call lands on (docs/performance.md, "Method"). */
#define SHORT_CELL_BYTES 4096
#define SHORT_CELL_FACTOR 3
/* Cells of LONG_CELL_BYTES and more, whose every sample is one call of a
   millisecond or more, take LONG_CELL_SHARE % of the rounds: they were half of
   a run's time with all of them (docs/performance.md, "Method"). */
#define LONG_CELL_BYTES (8u << 20)
#define LONG_CELL_SHARE 60
int cell_rounds(const struct options *o, const struct cell *c);

void run_cell(struct run *run, struct cell *c, enum rkind kind, int layout, int cold, uint64_t size, int param,
              double bytes, const struct buffers *b);

/* The result of impl i in the same cell as x, or NULL. */
const struct result *same_cell(const struct run *run, const struct result *x, int impl);
/* Speed of x relative to libc in its cell: libc time / x time, the median over
   the processes of the ratio within each (0 if unknown). */
double vs_libc(const struct run *run, const struct result *x);
double gbps(const struct result *x);
/* The control's result in x's cell, or NULL. */
const struct result *control_of(const struct run *run, const struct result *x);

/* ---- A process's sweeps over the cells (measure.c) ------------------------- */

struct bench_job;
/* Measures every cell the options ask for, each chosen CELLS mode's in the
   order of the modes (modes.def), appending to run->r (one process's figures:
   npass 0), in o->sweeps sweeps, the buffers mapped anew for each.  0, or -1
   with a message when the buffers could not be mapped again. */
int measure_cells(struct bench_job *job);
/* The largest size a cell of the run touches. */
uint64_t run_max_size(const struct options *o);
/* The progress line (on a terminal only) before routine r's cell WHERE WHAT. */
void cells_progress(const struct run *run, int r, const char *where, const char *what);

/* ---- Processes (processes.c) ----------------------------------------------- */

/* In process K of P: writes run->r to f, one line per result. */
int processes_emit(const struct run *run, FILE *f);
/* What a forked child runs when it cannot exec this program again: measure as
   process k of n, write the results to stdout; returns the exit status. */
typedef int process_fallback_fn(void *ctx, int k, int n);
/* In the parent: runs --processes children of this program with argv plus
   --process-child K/P, one after another, and gathers their results into
   run->r.  0, or -1 with a message on stderr. */
int processes_run(struct run *run, int argc, char **argv, process_fallback_fn *fallback, void *ctx);
/* The figures over the processes (pass_med, ratios) from run->r's per-process
   medians; a run in one process has one. */
void processes_summarise(struct run *run);
/* Frees the results, their samples and the rounds' buffer. */
void run_free(struct run *run);
/* --samples FILE: every sample of every process, one line per result and process. */
int processes_write_samples(const struct run *run, const char *path);

/* What a run resolves in a cell (docs/performance.md, "Method"): the control
   (the C library under a second name) within 1 +- CONTROL_BAND of the C
   library, and an implementation's interval within its ratio * (1 +-
   RESOLVE_RATIO).  A cell that fails either is listed as one the run cannot
   resolve, and is not counted as slower or faster than anything. */
#define CONTROL_BAND 0.03
#define RESOLVE_RATIO 0.05
static inline int control_ok(const struct result *control)
{
    return control && control->ratio >= 1 - CONTROL_BAND && control->ratio <= 1 + CONTROL_BAND;
}
static inline int interval_ok(const struct result *x)
{
    return x->ratio > 0 && x->ratio_hi <= x->ratio * (1 + RESOLVE_RATIO) && x->ratio_lo >= x->ratio * (1 - RESOLVE_RATIO);
}

/* ---- Reports (report.c) --------------------------------------------------- */

struct header {
    char date[64], cpu[512], libc[192], build[160], bound[160], pinned[160], load[160], nt[512], memload[320];
};

const char *size_label(uint64_t n, char *buf, size_t len);
/* The CSV's align field: a layout, mod4096:DISTANCE or dist:NAME. */
const char *result_align_name(const struct run *run, const struct result *x, char *buf, size_t len);
/* The header's one line on the method (docs/performance.md, "Method"). */
const char *method_line(const struct options *o, char *buf, size_t len);
const char *features(uint64_t mask, char *buf, size_t len);
void print_header(int argc, char **argv, const struct options *o, const char *libc, const char *pinned,
                  const struct buffers *b, struct header *h);
void print_head(const struct run *run, const char *title, const char *rowhead, int r);
/* One table row from the results of one cell, first is any of them. */
void print_cell_row(const struct run *run, const char *label, const struct result *first);
/* What the control says the run can resolve, and the cells it cannot. */
void print_resolution(const struct run *run);
void csv_header(FILE *f);
void csv_row(const struct run *run, FILE *f, const struct result *x, int reps);

/* ---- Goals (goals.c) ------------------------------------------------------ */

struct goal_report {
    char line[24][320];
    int n;
};

void goals(const struct run *run, struct goal_report *g);

int write_json(const struct run *run, const struct header *h, const struct goal_report *g, double secs);
int write_plots(const struct run *run);

/* ---- Modes (modes.def, modes.c) ----------------------------------------------- */

/* One `altmem bench` command, handed from stage to stage: parse -> run ->
   report, bench.c's and each mode's (modes.def). */
struct bench_job {
    int argc;
    char **argv;          /* argv[0] is "bench" */
    struct options o;     /* the bench's options, once read (a COMMAND mode reads argv itself) */
    void *mode_data;      /* a COMMAND or INSTEAD mode's own, from its parse to its report */
    /* The measured run, which the CELLS modes add their cells to and report */
    struct run run;
    struct buffers b;     /* the process's buffers (the parent's: as planned, for the header) */
    char libc[192];       /* the C library's label */
    double t_start;       /* bench_now_ns() when the command started */
    struct header h;      /* what the header said, for the JSON */
    FILE *csv;            /* --csv, opened before any work */
};

/* What a stage returns to go on to the next one; anything else is the exit
   status of the command.  No status can be INT_MIN: they are 0..255, or the -1
   of a child that could not be started (exit status 255, as before the modes). */
#define BENCH_GO_ON INT_MIN
typedef int bench_mode_fn(struct bench_job *job);
enum bench_stage { BENCH_PARSE, BENCH_RUN, BENCH_REPORT, BENCH_STAGES };
enum bench_mode_kind { BENCH_COMMAND, BENCH_INSTEAD, BENCH_CELLS };
struct bench_mode;

/* The first mode of that kind the job chooses (modes.def's "chosen when"), or NULL. */
const struct bench_mode *bench_mode_chosen(const struct bench_job *job, enum bench_mode_kind kind);
/* m's stages in order, up to the first that does not go on; the exit status. */
int bench_mode_stages(const struct bench_mode *m, struct bench_job *job);
/* The stage of every CELLS mode the job chooses, in order, up to the first
   that does not go on: BENCH_GO_ON, or that one's exit status. */
int bench_cells_stage(struct bench_job *job, enum bench_stage stage);
/* Every mode's stages, as its row names them (none: a stage it does without). */
#define none bench_no_stage
#define BENCH_MODE(name, file, kind, chosen_when, parse, run, report) bench_mode_fn parse, run, report;
#include "modes.def"
#undef BENCH_MODE
#undef none
/* For "chosen when": flag is one of job's arguments; option is, as "OPTION
   VALUE" or "OPTION=VALUE" (wherever they stand: a mode chosen this way reads
   the arguments itself). */
int bench_has_flag(const struct bench_job *job, const char *flag);
int bench_has_option(const struct bench_job *job, const char *option);

#endif
