/*
 * memmove_ual — for CPUs with fast hardware unaligned access (feature UAL).
 *
 * Assumptions:
 *   - As memcpy_ual.  Up to 64 bytes, every byte is loaded before any store, so
 *     overlap needs no test; above, direction by overlap, and each 64-byte block
 *     is loaded before it is stored.
 * Size classes: ual_classes.h's, with OPS_PLAIN.
 */
#include <stdint.h>

#include "registry.h"
#include "ual_classes.h"

void *altmem_memmove_ual(void *dst, const void *src, size_t n)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    if (n <= 64)
        ual_copy_le64_plain(d, s, n);
    else if (d - s >= n)        /* dst below src, or no overlap */
        ual_copy_fwd_large(d, s, n);
    else if (d != s)
        ual_copy_bwd_large(d, s, n);
    return dst;
}
