/*
 * dd's copy, alone: read BS-byte blocks of FILE and copy each into a 1 MiB
 * ring, as `dd ibs=BS obs=1M` does between its read() and write() (the
 * source just written by the kernel, the destination a buffer as large as an
 * L2), timing only the copies: the C library's memcpy, altmem_memcpy and the C
 * library's again (the control), in rounds of a rotating order, best round
 * each (docs/perf/amd-family25-model17.md, "dd's pattern").
 *
 *   altmem-ring FILE [BS...]     (default BS: 2K 4K 8K 16K 64K)
 */
#include <altmem.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlib.h"

#define RING (1u << 20)
#define ROUNDS 15

typedef void *copy_fn(void *, const void *, size_t);
/* Through volatile objects: no copy of known size turned into the compiler's own. */
static copy_fn *volatile impl[3];

static size_t parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return 0;
    if (*end == 'K' || *end == 'k')
        v <<= 10, end++;
    else if (*end == 'M' || *end == 'm')
        v <<= 20, end++;
    return *end || v == 0 || v > RING ? 0 : (size_t)v;
}

/* ns spent in copies over one pass through the file. */
static double one_pass(int fd, copy_fn *f, unsigned char *in, unsigned char *ring, size_t bs)
{
    double t = 0;
    size_t off = 0;
    if (lseek(fd, 0, SEEK_SET) != 0)
        return -1;
    for (;;) {
        ssize_t n = read(fd, in, bs);
        if (n <= 0)
            break;
        double t0 = bench_now_ns();
        f(ring + off, in, (size_t)n);
        t += bench_now_ns() - t0;
        off += (size_t)n;
        if (off + bs > RING)
            off = 0;
    }
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: altmem-ring FILE [BS...]\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "altmem-ring: cannot open %s\n", argv[1]);
        return 2;
    }
    static const char *const defaults[] = {"2K", "4K", "8K", "16K", "64K"};
    const char *const *names = argc > 2 ? (const char *const *)argv + 2 : defaults;
    int nbs = argc > 2 ? argc - 2 : 5;
    size_t bs[32];
    for (int k = 0; k < nbs; k++)   /* every size read before anything is printed */
        if (k == 32 || !(bs[k] = parse_size(names[k]))) {
            fprintf(stderr, "altmem-ring: bad block size '%s' (1 .. 1M, suffix K or M; at most 32 sizes)\n",
                    names[k]);
            close(fd);
            return 2;
        }
    unsigned char *ring = aligned_alloc(4096, RING), *in = aligned_alloc(4096, RING);
    if (!ring || !in) {
        free(ring);
        free(in);
        close(fd);
        return 1;
    }
    memset(ring, 1, RING);
    impl[0] = memcpy;
    impl[1] = altmem_memcpy;
    impl[2] = memcpy;
    struct altmem_binding_info b;
    altmem_binding(ALTMEM_MEMCPY, &b);
    printf("altmem memcpy: %s; best of %d rounds, ms in memcpy per pass over %s\n", b.variant, ROUNDS, argv[1]);
    printf("%8s | %9s %9s %9s | %9s %9s\n", "BS", "libc", "altmem", "libc 2nd", "altmem/l", "control");
    for (int k = 0; k < nbs; k++) {
        double best[3] = {1e300, 1e300, 1e300};
        for (int r = 0; r < ROUNDS; r++)
            for (int j = 0; j < 3; j++) {
                int i = (r + j) % 3;
                double t = one_pass(fd, impl[i], in, ring, bs[k]);
                if (t < 0) {
                    fprintf(stderr, "altmem-ring: cannot seek %s\n", argv[1]);
                    free(ring);
                    free(in);
                    close(fd);
                    return 2;
                }
                if (t < best[i])
                    best[i] = t;
            }
        printf("%8s | %9.3f %9.3f %9.3f | %9.3f %9.3f\n", names[k], best[0] / 1e6, best[1] / 1e6, best[2] / 1e6,
               best[0] / best[1], best[0] / best[2]);
    }
    free(ring);
    free(in);
    close(fd);
    return 0;
}
