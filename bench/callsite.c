/*
 * altmem-callsite: the experiment behind the bench's "one timing loop per
 * implementation" (docs/performance.md, "Why a small cell moved by whole
 * cycles").
 *
 * Three copy functions of one size -- the C library's memcpy and two of
 * altmem's variants -- are timed in rounds, one sample of each per round, as
 * `altmem bench` did before 2026-12-04: either all through ONE timing loop (one
 * indirect call site with three targets), or each through a loop of its own.
 * Per round, a function is "fast" when its sample is within 12% of the fastest
 * sample any function had in the run.  The report counts the rounds by how
 * many functions were fast in them, and per function the share of rounds it
 * was fast in.  On the AMD Zen 4 guest of docs/performance.md, one shared loop
 * never had two functions fast in the same round; own loops had all three.
 *
 *   altmem-callsite [--size N] [--rounds R] [--sample-ms X] [--cpu N] [--turns]
 *
 * Then the same for one function through two loops of its own, each sampled
 * five times in a row, then interleaved: whether a sample depends on what ran
 * just before it in the same process.
 *
 * With --turns, instead: two processes (this one and a fork), pinned to the
 * same CPU, take turns round by round; each times the C library's memcpy and
 * one of altmem's through ONE shared loop and prints the ratio of the two in
 * each tenth of the run.  If which function is fast were a property of a
 * process (its layout, its predictor indexing), the two columns would differ;
 * they move together.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlib.h"

typedef void *copy_fn(void *, const void *, size_t);

static altmem_memcpy_fn *volatile libc_memcpy = memcpy;
static volatile uintptr_t sink;

/* The loop of altmem bench's cells: the pointer re-read through a volatile,
   the result consumed.  K makes each copy distinct (no folding). */
#define TIMING_LOOP(NAME, K)                                                                                   \
    __attribute__((noinline, aligned(64))) static double NAME(copy_fn *fn, unsigned char *d,                 \
                                                              const unsigned char *s, size_t n, uint64_t calls) \
    {                                                                                                          \
        uintptr_t acc = 0;                                                                                     \
        copy_fn *volatile f = fn;                                                                              \
        double t0 = bench_now_ns();                                                                            \
        for (uint64_t i = 0; i < calls; i++) {                                                                 \
            acc += (uintptr_t)f(d, s, n);                                                                      \
            __asm__ volatile("" : "+r"(acc) : : "memory");                                                     \
        }                                                                                                      \
        double t1 = bench_now_ns();                                                                            \
        sink = acc + K;                                                                                        \
        return (t1 - t0) / (double)calls;                                                                      \
    }
TIMING_LOOP(loop_0, 0)
TIMING_LOOP(loop_1, 1)
TIMING_LOOP(loop_2, 2)

typedef double loop_fn(copy_fn *, unsigned char *, const unsigned char *, size_t, uint64_t);
static loop_fn *const loops[3] = {loop_0, loop_1, loop_2};

static copy_fn *variant(const char *name)
{
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) == 0 && v.routine == ALTMEM_MEMCPY && v.runnable && !strcmp(v.name, name))
            return (copy_fn *)v.fn.memcpy;
    }
    return NULL;
}

struct setup {
    unsigned char *d, *s;
    size_t n;
    int rounds;
    double sample_ms;
};

/* Rounds of one sample of each of k functions; loop i for function i, or loop 0 for all. */
static void run_rounds(const struct setup *u, copy_fn *const *fn, const char *const *name, int k, int shared)
{
    uint64_t calls[3];
    for (int i = 0; i < k; i++) {
        double t = loops[0](fn[i], u->d, u->s, u->n, 20000);
        calls[i] = (uint64_t)(u->sample_ms * 1e6 / t) + 1;
    }
    double *v = malloc(sizeof *v * (size_t)(u->rounds * k));
    if (!v)
        exit(1);
    double best = 1e300;
    for (int r = 0; r < u->rounds; r++)
        for (int i = 0; i < k; i++) {
            v[r * k + i] = (shared ? loops[0] : loops[i])(fn[i], u->d, u->s, u->n, calls[i]);
            if (v[r * k + i] < best)
                best = v[r * k + i];
        }
    int by_count[4] = {0}, fast[3] = {0};
    for (int r = 0; r < u->rounds; r++) {
        int m = 0;
        for (int i = 0; i < k; i++)
            if (v[r * k + i] <= best * 1.12) {
                m++;
                fast[i]++;
            }
        by_count[m]++;
    }
    printf("%s loop%s: fastest sample %.2f ns; rounds with 0, 1, 2, 3 functions fast: %d %d %d %d\n",
           shared ? "one shared" : "own", shared ? "" : "s", best, by_count[0], by_count[1], by_count[2],
           by_count[3]);
    for (int i = 0; i < k; i++) {
        double *w = malloc(sizeof *w * (size_t)u->rounds);
        if (!w)
            exit(1);
        for (int r = 0; r < u->rounds; r++)
            w[r] = v[r * k + i];
        printf("  %-14s fast in %3d of %d rounds, median %.2f ns\n", name[i], fast[i], u->rounds,
               bench_median(w, u->rounds));
        free(w);
    }
    free(v);
}

/* One function, two loops: five samples of loop 0, five of loop 1, then the
   two alternated; each sample printed in order. */
static void run_switches(const struct setup *u, copy_fn *fn, const char *name)
{
    double t = loops[0](fn, u->d, u->s, u->n, 20000);
    uint64_t calls = (uint64_t)(u->sample_ms * 1e6 / t) + 1;
    printf("%s through two loops of its own, ns per call of each sample in order:\n", name);
    for (int block = 0; block < 4; block++) {
        printf("  5 in a row, loop 0 then loop 1: ");
        for (int i = 0; i < 2; i++)
            for (int k = 0; k < 5; k++)
                printf("%.2f%s", loops[i](fn, u->d, u->s, u->n, calls), k == 4 ? (i ? "\n" : " | ") : " ");
        printf("  alternated 0 1 0 1 ...:         ");
        for (int k = 0; k < 10; k++)
            printf("%.2f%s", loops[k & 1](fn, u->d, u->s, u->n, calls), k == 9 ? "\n" : " ");
    }
}

/* Two processes taking turns through pipes, each one round at a time. */
static int run_turns(const struct setup *u, copy_fn *const *fn)
{
    int to_child[2], to_parent[2];
    if (pipe(to_child) != 0 || pipe(to_parent) != 0)
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    int child = pid == 0, rd = child ? to_child[0] : to_parent[0], wr = child ? to_parent[1] : to_child[1];
    uint64_t calls[2];
    for (int i = 0; i < 2; i++)
        calls[i] = (uint64_t)(u->sample_ms * 1e6 / loops[0](fn[i], u->d, u->s, u->n, 20000)) + 1;
    double *ratio = malloc(sizeof *ratio * (size_t)u->rounds), *ta = malloc(sizeof *ta * (size_t)u->rounds),
           *tb = malloc(sizeof *tb * (size_t)u->rounds);
    if (!ratio || !ta || !tb)
        return 1;
    char token = 0;
    if (!child && write(wr, &token, 1) != 1)
        return 1;
    for (int r = 0; r < u->rounds; r++) {
        if (read(rd, &token, 1) != 1)
            return 1;
        double a = loops[0](fn[0], u->d, u->s, u->n, calls[0]);
        double b = loops[0](fn[1], u->d, u->s, u->n, calls[1]);
        ratio[r] = a / b;
        ta[r] = a;
        tb[r] = b;
        if (write(wr, &token, 1) != 1)
            return 1;
    }
    if (child && read(rd, &token, 1) != 1) /* the parent's last turn */
        return 1;
    /* The child reports first, then the parent, each a line of ten medians. */
    if (!child)
        waitpid(pid, NULL, 0);
    printf("  %s (pid %d), median of each tenth of the run: libc time / altmem's", child ? "child " : "parent",
           (int)getpid());
    int tenth = u->rounds / 10 > 0 ? u->rounds / 10 : 1;
    for (int t = 0; t + tenth <= u->rounds; t += tenth)
        printf(" %.2f", bench_median(ratio + t, tenth));
    printf("; libc ns");
    for (int t = 0; t + tenth <= u->rounds; t += tenth)
        printf(" %.2f", bench_median(ta + t, tenth));
    printf("; altmem ns");
    for (int t = 0; t + tenth <= u->rounds; t += tenth)
        printf(" %.2f", bench_median(tb + t, tenth));
    printf("\n");
    fflush(stdout);
    free(ratio);
    free(ta);
    free(tb);
    if (child)
        _exit(0);
    return 0;
}

int main(int argc, char **argv)
{
    struct setup u = {NULL, NULL, 64, 300, 1.0};
    int cpu = -1, turns = 0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--size"))
            u.n = strtoul(argv[++i], NULL, 10);
        else if (i + 1 < argc && !strcmp(argv[i], "--rounds"))
            u.rounds = atoi(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--sample-ms"))
            u.sample_ms = atof(argv[++i]);
        else if (i + 1 < argc && !strcmp(argv[i], "--cpu"))
            cpu = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--turns"))
            turns = 1;
        else {
            fprintf(stderr, "usage: altmem-callsite [--size N] [--rounds R] [--sample-ms X] [--cpu N] [--turns]\n");
            return 2;
        }
    }
    if (u.n < 1 || u.n > (1u << 20) || u.rounds < 1 || u.rounds > 100000 || !(u.sample_ms > 0)) {
        fprintf(stderr, "altmem-callsite: bad --size (1..1M), --rounds (1..100000) or --sample-ms (> 0)\n");
        return 2;
    }
    char pinned[160];
    bench_pin(cpu, BENCH_PICK_HIGHEST, NULL, pinned, sizeof pinned);
    unsigned char *m = mmap(NULL, 4u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return 1;
    memset(m, 1, 4u << 20);
    u.s = m;
    u.d = m + (2u << 20);
    /* The widest two of altmem's variants this CPU runs, after the C library. */
    copy_fn *fn[3] = {(copy_fn *)libc_memcpy, NULL, NULL};
    const char *name[3] = {"libc memcpy", NULL, NULL};
    static const char *const pref[] = {"avx512", "avx2", "sse2", "advsimd", "sve", "rvv", "lasx", "lsx", "ual",
                                       "generic"};
    int k = 1;
    for (size_t i = 0; i < sizeof pref / sizeof pref[0] && k < 3; i++)
        if ((fn[k] = variant(pref[i])) != NULL)
            name[k++] = pref[i];
    printf("altmem-callsite: memcpy of %zu B (src and dst 2 MiB apart), %d rounds of %g ms samples; %s\n", u.n,
           u.rounds, u.sample_ms, pinned);
    if (turns) {
        if (k < 2)
            return 2;
        printf("two processes taking turns, each round libc memcpy then %s through one shared loop:\n", name[1]);
        return run_turns(&u, fn);
    }
    run_rounds(&u, fn, name, k, 1);
    run_rounds(&u, fn, name, k, 0);
    run_switches(&u, fn[0], name[0]);
    return 0;
}
