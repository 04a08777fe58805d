/*
 * altmem tune --child ROUTINE SAMPLE_NS CELL...: the measuring child of `altmem
 * tune` (tools/tune.c).  It runs with the ALTMEM_TUNABLES setting it is to
 * measure already applied at start-up, so what it times is the library bound as
 * a user with that setting would have it; one median per cell on standard
 * output.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "benchlib.h"
#include "dist.h"
#include "tune.h"

static volatile size_t sink;

/* One call of the routine; the calls of a sample cycle through k of them. */
struct call {
    unsigned char *d, *s;
    size_t n;
};

static void call_once(const char *routine, const struct call *c, int i)
{
    if (routine[0] == 'm' && routine[3] == 'c')          /* memcpy */
        altmem_memcpy(c->d, c->s, c->n);
    else if (routine[0] == 'm' && routine[3] == 'm')     /* memmove */
        altmem_memmove(c->d, c->s, c->n);
    else if (routine[0] == 'm')                          /* memset */
        altmem_memset(c->d, i, c->n);
    else if (routine[0] == 'c' && routine[1] == 'o')     /* copy_user */
        sink += altmem_copy_user(c->d, c->s, c->n);
    else                                                 /* clear_user */
        sink += altmem_clear_user(c->d, c->n);
}

struct timed_calls {
    const char *routine;
    const struct call *c;
    long k;
    uint64_t calls; /* calibrated */
};

static double time_loop(void *p, uint64_t n)
{
    const struct timed_calls *t = p;
    const char *routine = t->routine;
    const struct call *c = t->c;
    long k = t->k, calls = (long)n;
    double t0 = bench_now_ns();
    for (long i = 0; i < calls; i++) {
        call_once(routine, &c[i % k], (int)i);
        __asm__ volatile("" ::: "memory");
    }
    return bench_now_ns() - t0;
}

static double per_call(void *p, int which)
{
    const struct timed_calls *t = p;
    (void)which;
    return time_loop(p, t->calls) / (double)t->calls;
}

/* The median of 7 samples of at least sample_ns each, per call. */
static double time_calls(const char *routine, const struct call *c, long k, double sample_ns)
{
    struct timed_calls t = {routine, c, k, 0};
    double samples[7];
    t.calls = bench_calibrate(time_loop, &t, sample_ns);
    bench_interleave(1, 7, BENCH_ORDER_FIXED, NULL, per_call, &t, samples);
    return bench_median(samples, 7);
}

#define DIST_CALLS 4096
#define DIST_REGION (256u << 10)
#define COLD_ARENA (64u << 20)

int altmem_tune_child(int argc, char **argv)
{
    /* --child ROUTINE SAMPLE_NS CELL...; a cell is SIZE, SIZEm (src + 1, dst + 3),
       SIZEc (cold: each call on the next part of a 64 MiB arena, past the
       last-level cache of most machines), or "dist" (spec2017's sizes and
       alignments, drawn in a 256 KiB region: `altmem bench --dist`). */
    if (argc < 4)
        return 2;
    const char *routine = argv[1];
    double sample_ns = atof(argv[2]);
    size_t biggest = DIST_REGION;
    int any_cold = 0;
    for (int i = 3; i < argc; i++) {
        size_t n = strtoull(argv[i], NULL, 10);
        if (n > biggest)
            biggest = n;
        any_cold |= strchr(argv[i], 'c') != NULL;
    }
    size_t len = biggest + 3 * 4096 + 64;
    size_t total = 2 * len + (any_cold ? 2 * (size_t)COLD_ARENA : 0);
    unsigned char *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return 3;
#ifdef MADV_HUGEPAGE
    madvise(m, total, MADV_HUGEPAGE); /* fewer page faults to fill the large cells */
#endif
    memset(m, 0x5a, total);
    unsigned char *arena = m + 2 * len;
    if (!strcmp(routine, "copy_user") || !strcmp(routine, "clear_user"))
        altmem_uaccess_install();
    static struct call calls[DIST_CALLS];
    for (int i = 3; i < argc; i++) {
        long k = 1;
        if (!strcmp(argv[i], "dist")) {
            static struct bench_dist dist;
            char err[160];
            int memset_like = routine[0] == 'c' ? routine[1] == 'l' : routine[3] == 's';
            if (bench_dist_load("spec2017", memset_like, &dist, err, sizeof err) != 0) {
                fprintf(stderr, "altmem tune: %s\n", err);
                return 3;
            }
            uint64_t x = 0x9e3779b97f4a7c15u;
            for (k = 0; k < DIST_CALLS; k++) {
                x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                size_t n = bench_dist_draw(&dist.sizes, x, 64);
                if (n > DIST_REGION / 2)
                    n = DIST_REGION / 2;
                size_t sa = bench_dist_draw(&dist.src_align, x >> 17, 0) % 64,
                       da = bench_dist_draw(&dist.dst_align, x >> 29, 0) % 64;
                size_t off = (size_t)(x >> 40) % (DIST_REGION - n - 128) & ~(size_t)63;
                calls[k] = (struct call){m + len + off + da, m + off + sa, n};
            }
        } else {
            size_t n = strtoull(argv[i], NULL, 10);
            if (strchr(argv[i], 'c')) {
                size_t step = (n + 4095) & ~(size_t)4095;
                for (k = 0; k < DIST_CALLS && (size_t)(k + 1) * step <= COLD_ARENA; k++)
                    calls[k] = (struct call){arena + COLD_ARENA + (size_t)k * step, arena + (size_t)k * step, n};
            } else {
                int mis = strchr(argv[i], 'm') != NULL;
                calls[0] = (struct call){m + len + 64 + (mis ? 3 : 0), m + 64 + (mis ? 1 : 0), n};
            }
        }
        printf("%.4f\n", time_calls(routine, calls, k, sample_ns));
    }
    return 0;
}
