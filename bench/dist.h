/* Size and alignment distributions for `altmem bench --dist` (bench/dist.c). */
#ifndef ALTMEM_BENCH_DIST_H
#define ALTMEM_BENCH_DIST_H

#include <stddef.h>
#include <stdint.h>

#define BENCH_DIST_MAX 4096

/* VALUE:WEIGHT pairs with running totals, for drawing by weight. */
struct bench_dist_table {
    size_t n;
    uint32_t value[BENCH_DIST_MAX];
    uint64_t cum[BENCH_DIST_MAX];
    uint64_t total;
};

struct bench_dist {
    char name[64];
    struct bench_dist_table sizes, src_align, dst_align;
};

struct bench_builtin_dist {
    const char *name, *what;
    const char *memcpy_text, *memset_text;   /* in the file format (dist.c) */
};
extern const struct bench_builtin_dist bench_builtin_dists[];
extern const size_t bench_builtin_dist_count;

/* Parses the file format; 0, or -1 with a one-line reason in err. */
int bench_dist_parse(const char *text, struct bench_dist *out, char *err, size_t errlen);
/* A built-in name ("spec2017": its memcpy or, memset_like, memset table) or a file. */
int bench_dist_load(const char *spec, int memset_like, struct bench_dist *out, char *err, size_t errlen);
/* The value whose weight interval holds r mod total; dflt for an empty table. */
uint32_t bench_dist_draw(const struct bench_dist_table *t, uint64_t r, uint32_t dflt);
double bench_dist_mean(const struct bench_dist_table *t);

#endif
