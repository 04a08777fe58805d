/*
 * altmem-untouched: a call of a few bytes, 0 among them, to pages never written
 * (docs/perf/amd-family26-model2.md, "Against AOCL-LibMem, and masked
 * accesses").
 *
 *   altmem-untouched [SIZE...]        (default 0 1 8 32; 0..4032)
 *
 * For memcpy, memmove and memset, every variant this CPU runs, the public entry
 * and the C library's routine: the best time per call, over 21 samples of 2000
 * calls of SIZE bytes, with dst (and src) 128 bytes into a page of a fresh
 * anonymous mapping that nothing has written (so not yet present), and into one
 * written beforehand.  A byte-masked store with a mask of 0 stores nothing, so
 * the page never becomes present, and on AMD Zen 5 each such store took a
 * microcode assist, about 340 TSC cycles (glibc 2.36-2.43's evex and avx512
 * memset still do; altmem's memset has not since it was measured here).  A
 * size of 1 or more writes the page at the first call: from then on it is
 * written like the other.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "benchlib.h"
#include "routines.h"

#define MAP_BYTES (1u << 20)

/* One call's time with dst (and src) in pages not yet written, then in pages
   written, each in a mapping of its own. */
static int time_both(int routine, void *fn, size_t n, double *untouched, double *written)
{
    for (int w = 0; w < 2; w++) {
        unsigned char *d = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        unsigned char *s = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (d == MAP_FAILED || s == MAP_FAILED) {
            fprintf(stderr, "altmem-untouched: cannot map 2 x %u KiB\n", MAP_BYTES >> 10);
            return -1;
        }
        if (w) {
            memset(d, 1, MAP_BYTES);
            memset(s, 1, MAP_BYTES);
        }
        double t = bench_routine_best_ns(routine, fn, d + 8 * 4096 + 128, s + 9 * 4096 + 128, n, 21, 2000);
        *(w ? written : untouched) = t;
        munmap(d, MAP_BYTES);
        munmap(s, MAP_BYTES);
    }
    return 0;
}

static int line(int routine, const char *name, void *fn, size_t n)
{
    double u, w;
    if (time_both(routine, fn, n, &u, &w))
        return -1;
    printf("%-8s %-15s n=%-5zu untouched %8.1f ns   written %6.1f ns   %6.1fx\n",
           altmem_routine_name((enum altmem_routine)routine), name, n, u, w, u / w);
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const defaults[] = {"0", "1", "8", "32"};
    int nsizes = argc > 1 ? argc - 1 : 4;
    size_t sizes[64];
    if (nsizes > 64) {
        fprintf(stderr, "altmem-untouched: at most 64 sizes\n");
        return 2;
    }
    for (int a = 0; a < nsizes; a++) {
        const char *arg = argc > 1 ? argv[a + 1] : defaults[a];
        char *e;
        unsigned long long n = strtoull(arg, &e, 0);
        if (!*arg || *e || n > 4032) {
            fprintf(stderr, "altmem-untouched: bad size '%s' (0..4032)\n", arg);
            return 2;
        }
        sizes[a] = (size_t)n;
    }
    char pin[200];
    bench_pin(-1, BENCH_PICK_HIGHEST, NULL, pin, sizeof pin);
    printf("altmem-untouched: dst (and src) 128 B into a page nothing has written, then into a written one; "
           "best of 21 x 2000 calls; %s\n", pin);
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        if (!bench_routine_in_libc(r))
            continue;
        for (int a = 0; a < nsizes; a++) {
            if (line(r, "C library", bench_fn_address(bench_routine_libc(r)), sizes[a]) ||
                line(r, "altmem (entry)", bench_fn_address(bench_routine_entry(r)), sizes[a]))
                return 1;
            for (size_t i = 0; i < altmem_variant_count(); i++) {
                struct altmem_variant_info v;
                if (altmem_variant(i, &v) || (int)v.routine != r || !v.runnable)
                    continue;
                if (line(r, v.name, bench_fn_address(v.fn), sizes[a]))
                    return 1;
            }
        }
    }
    return 0;
}
