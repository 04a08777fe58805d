/*
 * memmove_generic — for CPUs without hardware unaligned access.
 *
 * Assumptions:
 *   - Any ISA, either byte order; no CPU feature required.
 *   - Never performs a multi-byte access at an address that is not a multiple
 *     of its size.
 *   - Direction by overlap: forward unless dst lies inside (src, src + n); the
 *     word kernels load each block before storing it, so forward is safe for
 *     dst < src and backward for dst > src.
 */
#include <stdint.h>

#include "registry.h"
#include "word_copy.h"

void *altmem_memmove_generic(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    /* dst - src >= n (unsigned): dst is below src or past its end. */
    if ((uintptr_t)d - (uintptr_t)s >= n)
        word_copy_fwd(d, s, n);
    else if (d != s)
        word_copy_bwd(d, s, n);
    return dst;
}
