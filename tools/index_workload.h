/*
 * `altmem index`'s workloads and the worker processes that run them
 * (tools/index_workload.c); tools/index.c, the command, names the tests, runs
 * the rounds and reports.
 */
#ifndef ALTMEM_TOOLS_INDEX_WORKLOAD_H
#define ALTMEM_TOOLS_INDEX_WORKLOAD_H

#include <altmem.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* IMPL_CONTROL is the C library again, under a second name (its own pointers
   and its own copy of the workload code): its ratio to IMPL_LIBC shows what
   the run resolves (docs/performance.md, "Method"). */
enum { IMPL_BEFORE, IMPL_AFTER, IMPL_LIBC, IMPL_CONTROL, IMPL_COUNT };

struct impl {
    const char *label;
    char variants[160];                 /* what each routine is, for the header */
    altmem_memcpy_fn *memcpy;
    altmem_memmove_fn *memmove;
    altmem_memset_fn *memset;
    altmem_copy_user_fn *copy_user;     /* NULL: the C library has none, memcpy stands in */
    altmem_clear_user_fn *clear_user;   /* NULL: memset stands in */
};

/* bound 0: every routine's generic variant ("before"), 1: the bound ones
   ("after").  -1, said on stderr, when one is not runnable here. */
int index_set_variants(struct impl *im, const char *label, int bound);
/* The C library's routines; label: its name.  control: the same routines under
   a second name, IMPL_CONTROL. */
void index_set_libc(struct impl *im, const char *label, int control);

enum kind { FILE_COPY, PIPE, CLEAR, MIX };

struct test {
    const char *key;       /* for --tests and CSV */
    const char *name;      /* as printed, in UnixBench's words where it has them */
    enum kind kind;
    int user;              /* copy_user / clear_user rather than memcpy / memset */
    size_t buf, blocks;    /* FILE_COPY */
    const char *unit;
    double baseline;       /* docs/index.md: where these come from */
};

static inline uint64_t rng_next(uint64_t *s)
{
    /* xorshift64*: a fixed seed, so every implementation replays the same calls */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717u;
}

/* The copies of one test: worker processes that set up the test's memory once,
   then run a sample of the implementation the parent names, all at once. */
struct index_workers {
    int n, res;
    pid_t pid[256];
    int cmd[256];
};

/* 0 when `copies` workers of test t are ready (their memory set up), else -1.
   im: the IMPL_COUNT implementations; pin: one CPU each; sample_s: a sample's
   length. */
int index_workers_start(struct index_workers *w, const struct test *t, const struct impl *im, int copies, int pin,
                        double sample_s);
/* One sample of implementation m: the sum of the copies' rates, or -1. */
double index_workers_sample(struct index_workers *w, int m);
void index_workers_stop(struct index_workers *w);

#endif
