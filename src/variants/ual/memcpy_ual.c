/*
 * memcpy_ual — for CPUs with fast hardware unaligned access (feature UAL).
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte loads and stores are single, fast instructions.
 *   - Sizes up to 64 use two overlapping accesses per class, never a byte loop;
 *     larger sizes a 64-byte loop whose stores are 16-aligned (misaligned store
 *     streams are slower even with UAL, on Loongson and, once GCC pairs the
 *     words into 16-byte stores, on x86_64: docs/perf/variant-figures.md).
 * Size classes: ual_classes.h's, with OPS_PLAIN.
 */
#include "registry.h"
#include "ual_classes.h"

void *altmem_memcpy_ual(void *__restrict dst, const void *__restrict src, size_t n)
{
    if (n <= 64)
        ual_copy_le64_plain((uintptr_t)dst, (uintptr_t)src, n);
    else
        ual_copy_fwd_large((uintptr_t)dst, (uintptr_t)src, n);
    return dst;
}
