/*
 * The byte-loop reference of `altmem bench`.
 *
 * Assumptions:
 *   - It must stay a byte loop, or the "generic vs byte loop" ratio means
 *     nothing.  bench/CMakeLists.txt builds this file with -fno-builtin and
 *     -ffreestanding (no idiom recognition into memcpy/memset calls), GCC's
 *     -fno-tree-loop-distribute-patterns (same, GCC's loop-distribution path),
 *     and no auto-vectorisation.  `#pragma GCC unroll 1` (honoured by GCC and
 *     clang) keeps one load and one store per iteration, as in the kernel's
 *     assembly loops.  Check with: objdump -d build/bench/CMakeFiles/altmem_bench.dir/byteloop.c.o
 *   - memmove picks its direction the way the kernel's __memmove does: forward
 *     when dst is below src, backward when above, nothing when equal.  It does
 *     not test for overlap, so a non-overlapping move with dst > src also runs
 *     backward (on the Sapphire Rapids guest of docs/performance.md the
 *     backward loop is ~30% slower than the forward one; that is part of what
 *     the reference measures).
 */
#include "byteloop.h"

#include <stdint.h>

void *altmem_bench_byte_memcpy(void *__restrict dst, const void *__restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
#pragma GCC unroll 1
    while (n--)
        *d++ = *s++;
    return dst;
}

void *altmem_bench_byte_memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    /* Integer comparison: the two pointers may lie in different objects. */
    if ((uintptr_t)d < (uintptr_t)s) {
#pragma GCC unroll 1
        while (n--)
            *d++ = *s++;
    } else if ((uintptr_t)d > (uintptr_t)s) {
        d += n;
        s += n;
#pragma GCC unroll 1
        while (n--)
            *--d = *--s;
    }
    return dst;
}

void *altmem_bench_byte_memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    unsigned char v = (unsigned char)c;
#pragma GCC unroll 1
    while (n--)
        *d++ = v;
    return dst;
}

static const union altmem_routine_fn byteloops[ALTMEM_ROUTINE_COUNT] = {
    [ALTMEM_MEMCPY] = {.memcpy = altmem_bench_byte_memcpy},
    [ALTMEM_MEMMOVE] = {.memmove = altmem_bench_byte_memmove},
    [ALTMEM_MEMSET] = {.memset = altmem_bench_byte_memset},
};

union altmem_routine_fn bench_byteloop(int r)
{
    static const union altmem_routine_fn none;
    return r >= 0 && r < ALTMEM_ROUTINE_COUNT ? byteloops[r] : none;
}
