/*
 * altmem-stepcost: the driver of scripts/small-cost.sh --width W, which runs it
 * under gdb and single-steps every call: instructions, taken jumps and
 * GPR <-> vector register transfers per call of altmem's variant of width W and
 * of the C library's routine (under the GLIBC_TUNABLES mask that makes glibc bind
 * its variant of the same width), at the sizes that bound every size class up to
 * 256 bytes.  Counts, not time: the same on any CPU that can run the width
 * (valgrind, which small-cost.sh uses otherwise, cannot run AVX-512).
 *
 * For each (routine, implementation, size) it calls stepcost_begin(tag), the
 * routine once through a volatile pointer, then stepcost_end(); the script counts
 * what runs between the two, and subtracts the same for "nop" (a function that
 * is one ret), which leaves the routine's own instructions, its ret included.
 *
 *   altmem-stepcost WIDTH [SIZE...]   (sse2, avx2, evex, avx512; sizes up to 8 KiB,
 *                                      the class bounds up to 256 B by default)
 *   STEPCOST_ALIGN=0/0|s+1/d+3|d+63     the layout, as altmem bench's cells (default 0/0)
 *   STEPCOST_ALIGN=dist=N               (dst - src) mod 4096 = N (0..4095), src 64-aligned,
 *                                       as the bench's --mod4096 cells: from 256 the regions
 *                                       are apart for the loops' purposes (forward)
 */
#include <altmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_run.h"

__asm__(".text\n"
        ".type stepcost_nop, @function\n"
        "stepcost_nop:\n"
        "    ret\n"
        ".size stepcost_nop, .-stepcost_nop\n");
void *stepcost_nop(void *, const void *, size_t);
void *stepcost_nop_set(void *, int, size_t) __asm__("stepcost_nop");

__attribute__((noinline, used)) void stepcost_begin(const char *tag)
{
    __asm__ volatile("" : : "r"(tag) : "memory");
}

__attribute__((noinline, used)) void stepcost_end(void)
{
    __asm__ volatile("" : : : "memory");
}

#define STEP_MAX_SIZE 8192
static unsigned char buf[3 * STEP_MAX_SIZE + 4096] __attribute__((aligned(4096))); /* dist=: up to 4095 more */

/* The sizes on each side of every class boundary up to 256 bytes. */
static const size_t class_bounds[] = {0,  1,  2,  3,  4,  5,  7,  8,  9,   15,  16,  17,  24,  31,  32,
                               33, 48, 63, 64, 65, 96, 127, 128, 129, 160, 192, 224, 255, 256};

int main(int argc, char **argv)
{
    const char *width = argc > 1 ? argv[1] : "";
    const char *vname = bench_width_variant(width);
    if (!vname) {
        fprintf(stderr, "usage: altmem-stepcost sse2|avx2|evex|avx512 [SIZE...]\n");
        return 2;
    }
    size_t sizes[32], nsizes = sizeof class_bounds / sizeof class_bounds[0];
    memcpy(sizes, class_bounds, sizeof class_bounds);
    if (argc > 2) {
        nsizes = 0;
        for (int a = 2; a < argc && nsizes < sizeof sizes / sizeof sizes[0]; a++) {
            char *end;
            unsigned long long v = strtoull(argv[a], &end, 0);
            if (*end || end == argv[a] || v > STEP_MAX_SIZE) {
                fprintf(stderr, "altmem-stepcost: a size is a number of bytes up to %d, not '%s'\n", STEP_MAX_SIZE,
                        argv[a]);
                return 2;
            }
            sizes[nsizes++] = (size_t)v;
        }
    }
    union altmem_routine_fn variant[ALTMEM_ROUTINE_COUNT];
    memset(variant, 0, sizeof variant);
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) != 0 || strcmp(v.name, vname) != 0)
            continue;
        if (!v.runnable) {
            fprintf(stderr, "altmem-stepcost: this CPU cannot run altmem's %s\n", vname);
            return 77;
        }
        variant[v.routine] = v.fn;
    }
    char lib[3][96];
    for (int r = 0; r < 3; r++)
        bench_libc_variant(r, lib[r], sizeof lib[r]);
    printf("altmem-stepcost: altmem %s; C library memcpy %s, memmove %s, memset %s\n", vname, lib[0], lib[1],
           lib[2]);
    fflush(stdout);

    void *(*volatile c_fn[3])(void *, const void *, size_t) = {stepcost_nop, variant[ALTMEM_MEMCPY].memcpy, memcpy};
    void *(*volatile m_fn[3])(void *, const void *, size_t) = {stepcost_nop, variant[ALTMEM_MEMMOVE].memmove, memmove};
    void *(*volatile s_fn[3])(void *, int, size_t) = {stepcost_nop_set, variant[ALTMEM_MEMSET].memset, memset};
    static const char *const impl[3] = {"nop", "altmem", "libc"};
    /* 64-aligned, (dst - src) mod 4096 = 0, as altmem bench's 0/0 cells (the
       loops of both libraries take the 4 KiB-alias path there); STEPCOST_ALIGN
       s+1/d+3 or d+63 offsets them as the bench's cells of those names. */
    const char *align = getenv("STEPCOST_ALIGN");
    size_t s_off = 0, d_off = 0;
    if (align && !strcmp(align, "s+1/d+3"))
        s_off = 1, d_off = 3;
    else if (align && !strcmp(align, "d+63"))
        d_off = 63;
    else if (align && !strncmp(align, "dist=", 5)) {
        char *end;
        unsigned long v = strtoul(align + 5, &end, 10);
        if (*end || end == align + 5 || v > 4095) {
            fprintf(stderr, "altmem-stepcost: STEPCOST_ALIGN=dist=N takes N in 0..4095, not '%s'\n", align + 5);
            return 2;
        }
        d_off = v;
    } else if (align && *align && strcmp(align, "0/0")) {
        fprintf(stderr, "altmem-stepcost: STEPCOST_ALIGN is 0/0, s+1/d+3, d+63 or dist=N, not '%s'\n", align);
        return 2;
    }
    unsigned char *src = buf + 64 + s_off, *dst = buf + STEP_MAX_SIZE + 4096 + 64 + d_off;
    char tag[64];
    for (size_t si = 0; si < nsizes; si++) {
        size_t n = sizes[si];
        for (int i = 0; i < 3; i++) {
            snprintf(tag, sizeof tag, "memcpy %s %zu", impl[i], n);
            stepcost_begin(tag);
            c_fn[i](dst, src, n);
            stepcost_end();
            snprintf(tag, sizeof tag, "memmove %s %zu", impl[i], n);
            stepcost_begin(tag);
            m_fn[i](dst, src, n);
            stepcost_end();
            snprintf(tag, sizeof tag, "memset %s %zu", impl[i], n);
            stepcost_begin(tag);
            s_fn[i](dst, 0x5a, n);
            stepcost_end();
        }
    }
    return 0;
}
