/*
 * The exception table's sort and binary search (src/uaccess/handler.c:
 * altmem__extable_decode, _sort, _search, _fixup), on synthetic tables made at
 * run time, whose PC-relative fields are relative to their own addresses as in
 * the section altmem_extable, and on this program's real table.
 *
 *   synthetic   10 000 entries (and small ones: 0, 1, 2, all equal, sorted,
 *               reversed) in a shuffled order, with adjacent instructions
 *               (1 byte apart), duplicates (same instruction and fix-up, and
 *               same instruction with two fix-ups: the lower one is found),
 *               gaps; decoded and sorted: the result is in order, holds the
 *               same (instruction, fix-up) pairs, every instruction finds its
 *               fix-up, and every address between, below and above the
 *               entries, 0 and UINTPTR_MAX find none;
 *   real        after altmem_uaccess_install(), the handler bisects a sorted
 *               copy of the whole table (altmem__extable_sorted), and
 *               altmem__extable_fixup gives, for
 *               every entry of this program's table, what a linear search of
 *               the section gives, and 0 for the addresses next to them; and
 *               prints the table's size and what sorting it costs (the decode
 *               and sort altmem_uaccess_install does once: as linked, and
 *               shuffled).
 *
 *   test_uaccess_extable              the checks; exit 0 if all pass
 *   test_uaccess_extable --self-test  negative control: the same checker on a
 *                                     shuffled table that is not sorted must
 *                                     report misses (exit 0 if it does)
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "altmem.h"
#include "uaccess/extable.h"

typedef struct altmem__extable_entry entry;

extern const entry __start_altmem_extable[] __attribute__((weak, visibility("hidden")));
extern const entry __stop_altmem_extable[] __attribute__((weak, visibility("hidden")));

static unsigned long failures, search_failures;
static int self_test;

/* The entry table lives in .bss, next to the synthetic targets and to the
   program's text: int32 offsets reach (a heap, e.g. AddressSanitizer's, may be
   too far). */
enum { CAP = 16384 };
static entry table[CAP];
static struct altmem__extable_pair decoded[CAP];

#define FAIL(...)                                                                                                      \
    do {                                                                                                               \
        if (failures++ < 20 && !self_test)                                                                             \
            printf("FAIL: " __VA_ARGS__);                                                                              \
    } while (0)

struct pair {
    uintptr_t insn, fixup;
};
_Static_assert(sizeof(struct pair) == sizeof(struct altmem__extable_pair), "one layout");

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void shuffle(struct pair *p, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(next_rand() % i);
        struct pair t = p[i - 1];
        p[i - 1] = p[j];
        p[j] = t;
    }
}

/* Entries at e[0..n) for the pairs, each field relative to its own address. */
static void make_table(entry *e, const struct pair *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        e[i].insn = (int32_t)(intptr_t)(p[i].insn - (uintptr_t)&e[i].insn);
        e[i].fixup = (int32_t)(intptr_t)(p[i].fixup - (uintptr_t)&e[i].fixup);
    }
}

static int cmp_pair(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->insn != y->insn)
        return x->insn < y->insn ? -1 : 1;
    return x->fixup < y->fixup ? -1 : x->fixup > y->fixup;
}

/* The fix-up pc must find among the pairs (sorted): the lowest of its entries,
   found by walking the pairs from index i (a linear walk, not the bisection
   under test). */
static uintptr_t expected(const struct pair *sorted, size_t n, size_t i, uintptr_t pc)
{
    size_t j = i < n ? i : n;
    while (j > 0 && sorted[j - 1].insn >= pc)
        j--;
    while (j < n && sorted[j].insn < pc)
        j++;
    return j < n && sorted[j].insn == pc ? sorted[j].fixup : 0;
}

/* Checks a table that was sorted (or, in the self-test, was not) against the
   pairs it was made from. */
static void check_table(const char *what, const struct altmem__extable_pair *e, size_t n, const struct pair *pairs)
{
    struct pair *want = malloc((n ? n : 1) * sizeof *want), *got = malloc((n ? n : 1) * sizeof *got);
    if (!want || !got) {
        FAIL("%s: malloc\n", what);
        exit(1);
    }
    memcpy(want, pairs, n * sizeof *want);
    qsort(want, n, sizeof *want, cmp_pair);
    for (size_t i = 0; i < n; i++) {
        got[i].insn = e[i].insn;
        got[i].fixup = e[i].fixup;
        if (i > 0 && cmp_pair(&got[i - 1], &got[i]) > 0)
            FAIL("%s: entries %zu and %zu out of order\n", what, i - 1, i);
    }
    if (!self_test) {
        struct pair *s = malloc((n ? n : 1) * sizeof *s);
        memcpy(s, got, n * sizeof *s);
        qsort(s, n, sizeof *s, cmp_pair);
        if (memcmp(s, want, n * sizeof *s) != 0)
            FAIL("%s: the sorted table does not hold the same entries\n", what);
        free(s);
    }
    for (size_t i = 0; i < n; i++) {
        /* every instruction, and the addresses around it */
        for (int d = -1; d <= 1; d++) {
            uintptr_t pc = want[i].insn + (uintptr_t)(intptr_t)d;
            uintptr_t f = altmem__extable_search(e, e + n, pc), x = expected(want, n, i, pc);
            if (f != x && ++search_failures)
                FAIL("%s: pc %#lx: fix-up %#lx, want %#lx\n", what, (unsigned long)pc, (unsigned long)f,
                     (unsigned long)x);
        }
    }
    const uintptr_t outside[] = {0, 1, UINTPTR_MAX, UINTPTR_MAX - 1, n ? want[0].insn - 1000 : 12345,
                                 n ? want[n - 1].insn + 1000 : 54321};
    for (size_t k = 0; k < sizeof outside / sizeof outside[0]; k++) {
        uintptr_t f = altmem__extable_search(e, e + n, outside[k]);
        if (f != expected(want, n, 0, outside[k]) && ++search_failures)
            FAIL("%s: pc %#lx outside the table found %#lx\n", what, (unsigned long)outside[k], (unsigned long)f);
    }
    free(want);
    free(got);
}

/* Builds a table of the pairs (in their order), decodes it and sorts that;
   checks the result. */
static void run_case(const char *what, const struct pair *pairs, size_t n)
{
    make_table(table, pairs, n);
    altmem__extable_decode(decoded, table, table + n);
    if (!self_test)
        altmem__extable_sort(decoded, decoded + n);
    check_table(what, decoded, n, pairs);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median over runs of decode + sort of the table t[0..n) (what the handler's
   installation does once). */
static double time_sort(const entry *t, size_t n)
{
    enum { RUNS = 51 };
    double ns[RUNS];
    for (int r = 0; r < RUNS; r++) {
        double t0 = now_ns();
        altmem__extable_decode(decoded, t, t + n);
        altmem__extable_sort(decoded, decoded + n);
        ns[r] = now_ns() - t0;
    }
    qsort(ns, RUNS, sizeof ns[0], cmp_double);
    return ns[RUNS / 2];
}

static void synthetic(void)
{
    enum { N = 10000 };
    static struct pair p[N + 8];
    /* Targets near the arrays (within a few MiB of the heap: in reach of any
       int32 offset from them) but never dereferenced. */
    static char anchor[1];
    const uintptr_t base = (uintptr_t)anchor + (1u << 20);
    size_t n = 0;
    uintptr_t at = base;
    for (size_t k = 0; k < N; k++) {
        /* gaps of 1 (adjacent), 2, 3 and 37 bytes; */
        at += (k % 7 == 0) ? 1 : (k % 5 == 0) ? 37 : 2 + k % 2;
        p[n].insn = at;
        p[n].fixup = base + 0x400000 + (next_rand() % 0x100000);
        n++;
    }
    /* duplicates: an entry repeated exactly, and one instruction with two fix-ups */
    p[n++] = p[17];
    p[n++] = p[4242];
    p[n] = p[9000];
    p[n].fixup -= 3; /* the lower one must be found */
    n++;
    shuffle(p, n);
    run_case("synthetic 10003", p, n);

    /* sorted, reversed */
    qsort(p, n, sizeof p[0], cmp_pair);
    run_case("synthetic sorted", p, n);
    for (size_t i = 0; i < n / 2; i++) {
        struct pair t = p[i];
        p[i] = p[n - 1 - i];
        p[n - 1 - i] = t;
    }
    run_case("synthetic reversed", p, n);

    /* small tables */
    run_case("empty", p, 0);
    struct pair one[1] = {{base + 8, base + 100}};
    run_case("one entry", one, 1);
    struct pair two[2] = {{base + 9, base + 101}, {base + 8, base + 100}};
    run_case("two, reversed", two, 2);
    struct pair same[5] = {{base + 8, base + 104}, {base + 8, base + 100}, {base + 8, base + 103},
                           {base + 8, base + 101}, {base + 8, base + 102}};
    run_case("all one instruction", same, 5);
    /* instructions far apart (up to +-1 GiB around the arrays) */
    struct pair far[4] = {{base + (1u << 30), base}, {base - (1u << 30), base + 4},
                          {base, base + (1u << 30)}, {base + 1, base - (1u << 30)}};
    run_case("far apart", far, 4);
}

static void real(void)
{
    /* A call links the library's copy_user/clear_user and, through the variant
       table, every variant: the table is the whole library's. */
    char src[64] = "exception table", dst[64];
    if (altmem_copy_user(dst, src, sizeof dst) != 0 || memcmp(dst, src, sizeof dst) != 0 ||
        altmem_clear_user(dst, sizeof dst) != 0)
        FAIL("real: copy_user / clear_user\n");
    const entry *b = __start_altmem_extable, *e = __stop_altmem_extable;
    if (!b || b == e) {
        FAIL("real: this program has no exception table\n");
        return;
    }
    const size_t n = (size_t)(e - b);
    if (altmem_uaccess_install() != 0)
        FAIL("real: altmem_uaccess_install failed\n");
    if (altmem__extable_sorted() != (long)n)
        FAIL("real: the handler searches %ld sorted entries, want all %zu\n", altmem__extable_sorted(), n);
    size_t descents = 0;
    for (size_t i = 0; i < n; i++) {
        uintptr_t insn = ALTMEM__EXTABLE_ADDR(&b[i], insn);
        if (i > 0 && insn < ALTMEM__EXTABLE_ADDR(&b[i - 1], insn))
            descents++;
        for (int d = -1; d <= 1; d++) {
            uintptr_t pc = insn + (uintptr_t)(intptr_t)d, lin = 0;
            for (const entry *x = b; x < e; x++)
                if (ALTMEM__EXTABLE_ADDR(x, insn) == pc) {
                    lin = ALTMEM__EXTABLE_ADDR(x, fixup);
                    break;
                }
            uintptr_t f = altmem__extable_fixup(pc);
            if (f != lin)
                FAIL("real: pc %#lx: fix-up %#lx, linear search %#lx\n", (unsigned long)pc, (unsigned long)f,
                     (unsigned long)lin);
        }
    }
    /* The cost of the sort at installation: this table as linked, and shuffled. */
    if (n > CAP) {
        printf("real table: %zu entries, more than this test times\n", n);
        return;
    }
    struct pair *p = malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++) {
        p[i].insn = ALTMEM__EXTABLE_ADDR(&b[i], insn);
        p[i].fixup = ALTMEM__EXTABLE_ADDR(&b[i], fixup);
    }
    double as_linked = time_sort(b, n);
    shuffle(p, n);
    make_table(table, p, n);
    double mixed = time_sort(table, n);
    printf("real table: %zu entries (%zu out of order as linked); decode + sort: %.1f us as linked, %.1f us shuffled "
           "(median of 51)\n",
           n, descents, as_linked / 1e3, mixed / 1e3);
    free(p);
}

int main(int argc, char **argv)
{
    self_test = argc > 1 && strcmp(argv[1], "--self-test") == 0;
    if (self_test) {
        synthetic();
        printf("self-test: the search missed %lu times on unsorted tables: %s\n", search_failures,
               search_failures ? "as it must" : "NOT DETECTED");
        return search_failures ? 0 : 1;
    }
    synthetic();
    real();
    {
        enum { N = 10000 };
        static struct pair p[N];
        static char anchor[1];
        for (size_t i = 0; i < N; i++) {
            p[i].insn = (uintptr_t)anchor + 16 * i;
            p[i].fixup = (uintptr_t)anchor + 16 * i + 8;
        }
        shuffle(p, N);
        make_table(table, p, N);
        printf("10000 shuffled entries: decode + sort %.1f us (median of 51)\n", time_sort(table, N) / 1e3);
    }
    printf("%s: %lu failures\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}
