/*
 * memmove_ual — for CPUs with fast hardware unaligned access (feature UAL).
 *
 * Assumptions:
 *   - As memcpy_ual.  Up to 64 bytes, every byte is loaded before any store, so
 *     overlap needs no test; above, direction by overlap, and each 64-byte block
 *     is loaded before it is stored.
 */
#include <stdint.h>

#include "registry.h"
#include "ual_classes.h"

void *altmem_memmove_ual(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n <= 64)
        ual_copy_upto64(d, s, n);
    else if ((uintptr_t)d - (uintptr_t)s >= n)   /* dst below src, or no overlap */
        ual_copy_fwd_large(d, s, n);
    else if (d != s)
        ual_copy_bwd_large(d, s, n);
    return dst;
}
