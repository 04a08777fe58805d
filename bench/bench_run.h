/*
 * What `altmem bench`'s parts share: bench.c (options, the order of the run),
 * cells.c (buffers, cells, the timed loops, the results), report.c (tables,
 * header, CSV, JSON, charts) and goals.c (the project's goals, as a table).
 */
#ifndef ALTMEM_BENCH_RUN_H
#define ALTMEM_BENCH_RUN_H

#include <altmem.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "routines.h"

#define MAX_SIZES 96
#define MAX_IMPLS 16
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

enum layout { LAY_ALIGNED, LAY_MIS, LAY_D63, LAY_OVL_BWD, LAY_OVL_FWD, LAY_COUNT };

/* Table label, memset's table label, CSV/JSON name. */
extern const char *const layout_name[LAY_COUNT];
extern const char *const layout_name_set[LAY_COUNT];
extern const char *const layout_csv[LAY_COUNT];
int routine_has_layout(int r, enum layout l);

enum impl_kind { IMPL_ALTMEM, IMPL_BYTELOOP, IMPL_LIBC };
extern const char *const kind_csv[];

union routine_fn {
    altmem_memcpy_fn *cpy;
    altmem_memmove_fn *mov;
    altmem_memset_fn *set;
};

struct impl {
    const char *name;    /* variant name, "byteloop", or the libc label */
    const char *heading; /* table column heading */
    enum impl_kind kind;
    int bound;           /* the variant altmem_<routine> is bound to */
    union routine_fn fn;
};

struct options {
    int routines[ALTMEM_ROUTINE_COUNT]; /* selected? */
    int any_routine;
    uint64_t sizes[MAX_SIZES];
    int nsizes;
    unsigned layouts;                   /* bit per enum layout */
    const char *impls;                  /* --impl list */
    int reps;
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
    int cpu;                            /* -1: choose */
    int no_pin;
    int set_sizes, set_reps, set_ms, set_align, set_impls, set_grid, set_cache;
    const char *libc_width;             /* --libc-width LIST: run one child per width */
    const char *width_child;            /* --libc-width-child W: this is one of them   */
    int libc_probe;                     /* --libc-probe: name glibc's variants, exit  */
};

/* ---- Width against width (libc_width.c) ------------------------------------- */

/* The parent of --libc-width: argv without --libc-width and --routine. */
int bench_libc_width_main(int argc, char **argv, const char *list, const int routines[3]);
/* The name of the variant glibc bound for routine r in this process (-1: unknown). */
int bench_libc_variant(int r, char *out, size_t len);
/* --libc-probe: one line per routine, "memcpy NAME". */
int bench_libc_probe(void);
/* altmem's variant of width W (sse2, avx2, evex, avx512), or NULL. */
const char *bench_width_variant(const char *width);

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

int buffers_init(struct buffers *b, uint64_t max_size);
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
    struct stat5 st;  /* ns per call */
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
    long retries;                   /* cells measured again for their spread */
    double *samples, *keep;         /* MAX_IMPLS * reps each */
    uint64_t order_seed;            /* the rounds' random orders */
};

/* Times every implementation of c's routine on c, interleaved, and records
   the results with the given identity (cells.c). */
void run_cell(struct run *run, struct cell *c, enum rkind kind, int layout, int cold, uint64_t size, int param,
              double bytes, const struct buffers *b);

/* The result of impl i in the same cell as x, or NULL. */
const struct result *same_cell(const struct run *run, const struct result *x, int impl);
/* Speed of x relative to libc in its cell: libc time / x time (0 if unknown). */
double vs_libc(const struct run *run, const struct result *x);
double gbps(const struct result *x);

/* ---- Reports (report.c) --------------------------------------------------- */

struct header {
    char date[64], cpu[512], libc[64], build[160], bound[160], pinned[160], load[160], nt[512];
};

const char *size_label(uint64_t n, char *buf, size_t len);
const char *features(uint64_t mask, char *buf, size_t len);
void print_header(int argc, char **argv, const struct options *o, const char *libc, const char *pinned,
                  const struct buffers *b, struct header *h);
void print_head(const struct run *run, const char *title, const char *rowhead, int r);
/* One table row from the results of one cell, first is any of them. */
void print_cell_row(const struct run *run, const char *label, const struct result *first);
void csv_header(FILE *f);
void csv_row(const struct run *run, FILE *f, const struct result *x, int reps);

/* ---- Goals (goals.c) ------------------------------------------------------ */

struct goal_report {
    char line[24][200];
    int n;
};

void goals(const struct run *run, struct goal_report *g);

int write_json(const struct run *run, const struct header *h, const struct goal_report *g, double secs);
int write_plots(const struct run *run);

#endif
