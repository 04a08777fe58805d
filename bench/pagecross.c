/*
 * altmem-pagecross: what a store across a 4 KiB boundary costs a copy or a
 * set (docs/perf/amd-family25-model17.md, "Stores across a page").
 *
 *   altmem-pagecross memcpy|memmove|memset DST_OFFSET DIST SIZE...
 *
 * dst = a page-aligned buffer + DST_OFFSET (a page offset, 0..4095, or more to
 * start in a later page), src = dst + DIST (copies; negative: below dst, and
 * memmove then copies backward where they overlap).  For each SIZE it prints
 * where dst + SIZE falls in its page and the best time per call, over 50
 * samples of 2000 calls, of the C library's routine and of altmem's public
 * one.  A size whose end lands 1..4W bytes past a page boundary, or a
 * DST_OFFSET in the last W bytes of a page, puts one of a loop's unaligned
 * vectors across the boundary unless the loop stores its ends as pieces.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "benchlib.h"
#include "routines.h"

int main(int argc, char **argv)
{
    int routine = -1;
    for (int r = 0; argc > 1 && r < ALTMEM_ROUTINE_COUNT; r++)
        if (bench_routine_in_libc(r) && strcmp(argv[1], altmem_routine_name((enum altmem_routine)r)) == 0)
            routine = r;
    char *end1 = NULL, *end2 = NULL;
    long off = argc > 2 ? strtol(argv[2], &end1, 0) : -1, dist = argc > 3 ? strtol(argv[3], &end2, 0) : 0;
    if (argc < 5 || routine < 0 || !end1 || *end1 || off < 0 || off > 65536 || !end2 || *end2 ||
        dist < -(1L << 20) || dist > (1L << 20)) {
        fprintf(stderr, "usage: altmem-pagecross memcpy|memmove|memset DST_OFFSET DIST SIZE... "
                        "(offset 0..65536, |dist| <= 1 MiB)\n");
        return 2;
    }
    for (int a = 4; a < argc; a++) {
        char *e;
        unsigned long long n = strtoull(argv[a], &e, 0);
        if (*e || n == 0 || n > (1u << 20)) {
            fprintf(stderr, "altmem-pagecross: bad size '%s' (1..1048576)\n", argv[a]);
            return 2;
        }
    }
    char pin[200];
    bench_pin(-1, BENCH_PICK_HIGHEST, NULL, pin, sizeof pin);
    size_t len = 8u << 20;
    unsigned char *b = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b == MAP_FAILED) {
        fprintf(stderr, "altmem-pagecross: cannot map %zu MiB\n", len >> 20);
        return 1;
    }
    memset(b, 1, len);
    unsigned char *d = b + (3u << 20) + off, *s = d + dist;
    void *libc_fn = bench_fn_address(bench_routine_libc(routine));
    void *alt_fn = bench_fn_address(bench_routine_entry(routine));
    printf("altmem-pagecross: %s, dst = page + %ld%s; best of 50 x 2000 calls\n",
           altmem_routine_name((enum altmem_routine)routine), off,
           !bench_routine_reads_src(routine) ? "" : dist < 0 ? ", src below dst" : ", src above dst");
    for (int a = 4; a < argc; a++) {
        unsigned long long n = strtoull(argv[a], NULL, 0);
        printf("n=%6llu  end at page offset %4lu:  C library %7.1f ns  altmem %7.1f ns\n", n,
               (unsigned long)((off + n) % 4096), bench_routine_best_ns(routine, libc_fn, d, s, (size_t)n, 50, 2000),
               bench_routine_best_ns(routine, alt_fn, d, s, (size_t)n, 50, 2000));
    }
    return 0;
}
