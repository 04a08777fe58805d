/*
 * memcpy_ual — for CPUs with fast hardware unaligned access (feature UAL).
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte loads and stores are single, fast instructions.
 *   - Sizes up to 64 use two overlapping accesses per class, never a byte loop;
 *     larger sizes a 64-byte loop whose stores are 16-aligned (misaligned store
 *     streams are slower even with UAL, on Loongson and, once GCC pairs the
 *     words into 16-byte stores, on x86_64: docs/perf/variant-figures.md).
 */
#include "registry.h"
#include "ual_classes.h"

void *altmem_memcpy_ual(void *__restrict dst, const void *__restrict src, size_t n)
{
    if (n <= 64)
        ual_copy_upto64(dst, src, n);
    else
        ual_copy_fwd_large(dst, src, n);
    return dst;
}
