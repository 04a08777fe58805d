/*
 * altmem_demo — a program that uses an installed altmem.
 *
 * It prints which variant each routine was bound to on this CPU (and why), then
 * copies, moves and fills a buffer through altmem and checks every byte against
 * the C library.  Exit status 0 when every check passes, 1 otherwise.
 *
 * Build it against an installed altmem (prefix P, e.g. /usr/local or $HOME/.local):
 *
 *   CMake:       cmake -S examples -B build-demo -DCMAKE_PREFIX_PATH=P
 *                cmake --build build-demo && ./build-demo/altmem_demo
 *                (see CMakeLists.txt: find_package(altmem 0.1 REQUIRED))
 *   pkg-config:  PKG_CONFIG_PATH=P/lib/pkgconfig make -C examples          (shared)
 *                PKG_CONFIG_PATH=P/lib/pkgconfig make -C examples static   (static)
 *                (see Makefile)
 *   by hand:     cc altmem_demo.c $(pkg-config --cflags --libs altmem)
 *
 * A shared build outside the loader's default directories needs
 * LD_LIBRARY_PATH=P/lib at run time (or an RPATH; CMake adds one for the build tree).
 *
 * Try ALTMEM_TUNABLES (docs/tunables.md) to see the bindings change, e.g. mask the
 * unaligned-access feature and watch memcpy fall back to the strict-alignment variant:
 *   ALTMEM_TUNABLES=hwcaps=-UAL ./altmem_demo
 */
#include <altmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what, size_t n, size_t dst_off, size_t src_off)
{
    if (ok)
        return;
    if (failures++ < 10)
        fprintf(stderr, "altmem_demo: FAIL %s n=%zu dst+%zu src+%zu\n", what, n, dst_off, src_off);
}

/* Deterministic pseudo-random bytes, so a failure is reproducible. */
static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
    unsigned x = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (unsigned char)x;
    }
}

static void print_bindings(void)
{
    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    printf("altmem %s on %s\n", ALTMEM_VERSION_STRING, cpu.arch);

    printf("features in use:");
    int any = 0;
    for (unsigned b = 0; b < 64; b++) {
        if (!(cpu.active >> b & 1))
            continue;
        const char *name = altmem_feature_name(b);
        if (name)
            printf(" %s", name);
        else
            printf(" bit%u", b);
        any = 1;
    }
    printf("%s\n", any ? "" : " none");

    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        struct altmem_binding_info b;
        if (altmem_binding((enum altmem_routine)r, &b) != 0) {
            check(0, "altmem_binding", 0, 0, 0);
            continue;
        }
        printf("  %-8s -> %-10s (%s)\n", altmem_routine_name((enum altmem_routine)r), b.variant,
               b.why ? b.why : "");
    }
    printf("%zu variants built in\n", altmem_variant_count());
}

int main(void)
{
    /* In a hosted program the library's constructor has already bound every routine
       (also in a static link: the constructor lives next to the bindings).  A routine
       still on its start-up default here means the constructor did not run. */
    struct altmem_binding_info before;
    if (altmem_binding(ALTMEM_MEMCPY, &before) == 0 && before.reason == ALTMEM_BOUND_DEFAULT)
        check(0, "constructor did not bind memcpy", 0, 0, 0);

    /* Only needed where constructors do not run (freestanding start-up code); calling
       it anyway is harmless: it is idempotent. */
    altmem_init();
    print_bindings();

    enum { MAX = 4096 + 64 };
    unsigned char *src = malloc(MAX), *dst = malloc(MAX), *ref = malloc(MAX);
    if (!src || !dst || !ref) {
        fprintf(stderr, "altmem_demo: out of memory\n");
        return 1;
    }
    static const size_t sizes[] = {0, 1, 2, 3, 7, 8, 15, 16, 31, 33, 63, 64, 100, 255, 256, 1000, 4096};
    size_t checks = 0;

    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        for (size_t so = 0; so < 8; so++) {
            for (size_t d = 0; d < 8; d++) {
                /* memcpy: disjoint buffers, every source/destination misalignment. */
                fill_pattern(src, MAX, (unsigned)(n + so));
                fill_pattern(dst, MAX, (unsigned)(n + d + 1000));
                memcpy(ref, dst, MAX);
                memcpy(ref + d, src + so, n);
                void *ret = altmem_memcpy(dst + d, src + so, n);
                check(ret == dst + d && memcmp(dst, ref, MAX) == 0, "memcpy", n, d, so);

                /* memmove: overlapping, forwards and backwards, inside one buffer. */
                fill_pattern(dst, MAX, (unsigned)(n * 3 + so));
                memcpy(ref, dst, MAX);
                memmove(ref + 32 + d, ref + 32 + so, n);
                ret = altmem_memmove(dst + 32 + d, dst + 32 + so, n);
                check(ret == dst + 32 + d && memcmp(dst, ref, MAX) == 0, "memmove", n, 32 + d, 32 + so);

                /* memset: only the low byte of c is stored. */
                fill_pattern(dst, MAX, (unsigned)(n * 5 + d));
                memcpy(ref, dst, MAX);
                memset(ref + d, 0xa5, n);
                ret = altmem_memset(dst + d, 0x1a5, n);
                check(ret == dst + d && memcmp(dst, ref, MAX) == 0, "memset", n, d, 0);
                checks += 3;
            }
        }
    }

    free(src);
    free(dst);
    free(ref);
    if (failures) {
        printf("altmem_demo: %d of %zu checks FAILED\n", failures, checks);
        return 1;
    }
    printf("altmem_demo: all %zu checks passed\n", checks);
    return 0;
}
