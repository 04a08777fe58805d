/*
 * altmem-twolibs: two builds of libaltmem.so in one process, every runnable
 * variant of a routine from each and the C library's routine, through one
 * timing loop, interleaved (docs/perf/amd-family26-model2.md, "A class's last
 * block across a line").
 *
 *   altmem-twolibs LIB_A LIB_B ROUTINE LAYOUT SIZE,... [VARIANT,...]
 *
 * ROUTINE: memcpy, memmove, memset, copy_user (the C library's memcpy beside
 * it) or clear_user (its bzero beside it).
 *
 * LAYOUT, as `altmem bench` names them: copies 0/0, s+1/d+3, d+63 (src 2 MiB
 * + 64 KiB above dst, the same page offset, plus these); memset and
 * clear_user 0, d+3, d+63;
 * memmove also ovl-bwd (dst = src + n/2 + 2) and ovl-fwd (src = dst + n/2 +
 * 2).  Per size, the median over 41 rounds of 2000 calls, in nanoseconds per
 * call, each round taking every function in a turn that starts one further
 * on; then, per variant, A's time over B's (above 1: B is faster).  Where
 * LIB_A and LIB_B are the same file, the loader gives the one copy twice: each
 * variant then stands beside itself (a control).  For a change of layout or flags, which
 * moves a small call by a cycle: `altmem bench` times each build in processes
 * and loops of its own, where the same code reads a cycle apart from one
 * process to the next; here both builds run through the same loop, in the
 * same process, one call after the other.  Both copies are loaded with
 * RTLD_LOCAL and initialised (altmem_init), so each binds and reads its own
 * policy; the variants are called directly, as `altmem bench` calls them.
 *
 * One call site for every function: where an indirect call with several
 * targets runs only one of them at full speed (AMD Zen 4: docs/performance.md,
 * "Why a small cell moved by whole cycles") this compares nothing; check with
 * `altmem-callsite` first.  On the Zen 5 guest it measured, the shared call
 * site ran all its targets at one speed (270-279 of 300 rounds with all three
 * fast), about 0.45 ns a call slower than loops of their own.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

#include "benchlib.h"
#include "routines.h"

typedef void *copy_fn(void *, const void *, size_t);
typedef void *set_fn(void *, int, size_t);
/* copy_user's and clear_user's types; the C library's memcpy and bzero beside
   them are called through the same types (a pointer and a size come back in
   the same register on every architecture this runs on), so that one call
   site serves every function of a run. */
typedef size_t cu_fn(void *, const void *, size_t);
typedef size_t cl_fn(void *, size_t);

enum { ROUNDS = 41, CALLS = 2000, MAX_FNS = 33, MAX_SIZES = 64 };

struct fnref {
    void *fn;
    char name[40];
};

enum kind { COPY, SET, COPY_USER, CLEAR_USER };
static enum kind kind;

static __attribute__((noinline)) double time_calls(void *fn, unsigned char *d, const unsigned char *s, size_t n)
{
    double t0 = bench_now_ns();
    for (int k = 0; k < CALLS; k++) {
        switch (kind) {
        case SET:
            ((set_fn *volatile)fn)(d, 0xa5, n);
            break;
        case COPY:
            ((copy_fn *volatile)fn)(d, s, n);
            break;
        case COPY_USER:
            ((cu_fn *volatile)fn)(d, s, n);
            break;
        case CLEAR_USER:
            ((cl_fn *volatile)fn)(d, n);
            break;
        }
    }
    return (bench_now_ns() - t0) / CALLS;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int wanted(const char *list, const char *name)
{
    if (!list)
        return 1;
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == len && !strncmp(p, name, len))
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

/* The runnable variants of `routine` in the library at path, appended to fns;
   returns how many, or -1 with a message. */
static int load(const char *path, const char *routine, const char *only, char tag, struct fnref *fns, int room)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "altmem-twolibs: %s\n", dlerror());
        return -1;
    }
    void (*init)(void) = (void (*)(void))dlsym(h, "altmem_init");
    size_t (*count)(void) = (size_t (*)(void))dlsym(h, "altmem_variant_count");
    int (*variant)(size_t, struct altmem_variant_info *) =
        (int (*)(size_t, struct altmem_variant_info *))dlsym(h, "altmem_variant");
    const char *(*rname)(enum altmem_routine) = (const char *(*)(enum altmem_routine))dlsym(h, "altmem_routine_name");
    if (!init || !count || !variant || !rname) {
        fprintf(stderr, "altmem-twolibs: %s is not a libaltmem (no altmem_variant)\n", path);
        return -1;
    }
    init();
    int got = 0;
    for (size_t i = 0; i < count(); i++) {
        struct altmem_variant_info vi;
        if (variant(i, &vi) || !vi.runnable || strcmp(rname(vi.routine), routine) || !wanted(only, vi.name))
            continue;
        if (got == room)
            break;
        fns[got].fn = bench_fn_address(vi.fn);
        snprintf(fns[got].name, sizeof fns[got].name, "%s.%c", vi.name, tag);
        got++;
    }
    return got;
}

int main(int argc, char **argv)
{
    const char *usage = "usage: altmem-twolibs LIB_A LIB_B memcpy|memmove|memset|copy_user|clear_user "
                        "LAYOUT SIZE,... [VARIANT,...]\n"
                        "  LAYOUT: 0/0, s+1/d+3, d+63, ovl-bwd, ovl-fwd (memmove); memset, clear_user: 0, d+3, d+63\n";
    if (argc < 6 || argc > 7) {
        fputs(usage, stderr);
        return 2;
    }
    const char *routine = argv[3], *layout = argv[4], *only = argc > 6 ? argv[6] : NULL;
    int is_move = !strcmp(routine, "memmove");
    if (!strcmp(routine, "memcpy") || is_move)
        kind = COPY;
    else if (!strcmp(routine, "memset"))
        kind = SET;
    else if (!strcmp(routine, "copy_user"))
        kind = COPY_USER;
    else if (!strcmp(routine, "clear_user"))
        kind = CLEAR_USER;
    else {
        fprintf(stderr, "altmem-twolibs: bad routine '%s' (memcpy, memmove, memset, copy_user or clear_user)\n",
                routine);
        return 2;
    }
    int is_set = kind == SET || kind == CLEAR_USER;
    int dst_off, src_off, ovl = 0;
    if (is_set && (!strcmp(layout, "0") || !strcmp(layout, "d+3") || !strcmp(layout, "d+63")))
        dst_off = atoi(layout + (layout[0] == 'd' ? 2 : 0)), src_off = 0;
    else if (!is_set && !strcmp(layout, "0/0"))
        dst_off = 0, src_off = 0;
    else if (!is_set && !strcmp(layout, "s+1/d+3"))
        dst_off = 3, src_off = 1;
    else if (!is_set && !strcmp(layout, "d+63"))
        dst_off = 63, src_off = 0;
    else if (is_move && !strcmp(layout, "ovl-bwd"))
        dst_off = 0, src_off = 0, ovl = 1;
    else if (is_move && !strcmp(layout, "ovl-fwd"))
        dst_off = 0, src_off = 0, ovl = -1;
    else {
        fprintf(stderr, "altmem-twolibs: bad layout '%s' for %s (copies: 0/0, s+1/d+3, d+63; memmove also ovl-bwd, "
                        "ovl-fwd; memset: 0, d+3, d+63)\n", layout, routine);
        return 2;
    }
    size_t sizes[MAX_SIZES];
    int nsizes = 0;
    for (const char *p = argv[5]; *p;) {
        char *end;
        unsigned long long v = strtoull(p, &end, 0);
        if (end == p || (*end && *end != ',') || v > (1u << 20) || nsizes == MAX_SIZES) {
            fprintf(stderr, "altmem-twolibs: bad size list '%s' (at most %d sizes of 0..1 MiB, in bytes)\n", argv[5],
                    MAX_SIZES);
            return 2;
        }
        sizes[nsizes++] = (size_t)v;
        p = *end ? end + 1 : end;
    }
    struct fnref fns[MAX_FNS];
    int na = load(argv[1], routine, only, 'A', fns, (MAX_FNS - 1) / 2);
    if (na < 0)
        return 1;
    int nb = load(argv[2], routine, only, 'B', fns + na, (MAX_FNS - 1) / 2);
    if (nb < 0)
        return 1;
    if (na == 0 || na != nb) {
        fprintf(stderr, "altmem-twolibs: %d runnable variants in A, %d in B: nothing to pair\n", na, nb);
        return 1;
    }
    for (int k = 0; k < na; k++)
        if (strncmp(fns[k].name, fns[na + k].name, strlen(fns[k].name) - 1)) {
            fprintf(stderr, "altmem-twolibs: A's and B's variants differ (%s, %s)\n", fns[k].name, fns[na + k].name);
            return 1;
        }
    int nf = na + nb;
    fns[nf].fn = kind == SET ? (void *)memset : kind == CLEAR_USER ? (void *)bzero : is_move ? (void *)memmove : (void *)memcpy;
    snprintf(fns[nf].name, sizeof fns[nf].name, "libc");
    nf++;

    size_t span = (4u << 20) + 16384;
    unsigned char *buf = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED) {
        perror("altmem-twolibs: mmap");
        return 1;
    }
    memset(buf, 1, span);
    printf("%8s", "size");
    for (int k = 0; k < nf; k++)
        printf(" %14s", fns[k].name);
    printf("   A/B:");
    for (int k = 0; k < na; k++)
        printf(" %s", fns[k].name);
    printf(" (ns per call, median of %d rounds of %d calls)\n", ROUNDS, CALLS);
    static double t[MAX_FNS][ROUNDS];
    for (int i = 0; i < nsizes; i++) {
        size_t n = sizes[i];
        unsigned char *d = buf + 8192 + dst_off;
        unsigned char *s = buf + 8192 + (2u << 20) + 65536 + src_off;
        if (ovl > 0)
            s = buf + 8192, d = s + n / 2 + 2;
        else if (ovl < 0)
            d = buf + 8192, s = d + n / 2 + 2;
        for (int k = 0; k < nf; k++)
            time_calls(fns[k].fn, d, s, n); /* warm */
        for (int r = 0; r < ROUNDS; r++)
            for (int k = 0; k < nf; k++) {
                int j = (k + r) % nf;
                t[j][r] = time_calls(fns[j].fn, d, s, n);
            }
        double med[MAX_FNS];
        printf("%8zu", n);
        for (int k = 0; k < nf; k++) {
            qsort(t[k], ROUNDS, sizeof t[k][0], cmp_double);
            med[k] = t[k][ROUNDS / 2];
            printf(" %14.3f", med[k]);
        }
        printf("   ");
        for (int k = 0; k < na; k++)
            printf(" %.3f", med[k] / med[na + k]);
        printf("\n");
    }
    return 0;
}
