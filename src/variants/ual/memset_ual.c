/*
 * memset_ual — for CPUs with fast hardware unaligned access (feature UAL).
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte stores are single, fast instructions.
 *   - Sizes up to 64: two overlapping stores per class; above, 16 bytes unaligned
 *     at the start, a 64-byte loop from a 16-aligned dst (so that compilers that
 *     pair the words into 16-byte stores never split a cache line), and 64 bytes
 *     unaligned at the end.  The classes up to 32 bytes and the loop's block are
 *     clear_user_ual's too (ual_classes.h); above 32 the tail is stored first,
 *     a plain-only order (clear_user_ual's must ascend).
 */
#include <stdint.h>

#include "registry.h"
#include "ual_classes.h"

void *altmem_memset_ual(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    uint64_t v = UINT64_C(0x0101010101010101) * (unsigned char)c;

    /* The classes one call each (ual_classes.h); as a chain here, not in a
       function of its own, which GCC would lay out otherwise. */
    if (n <= 16) {
        if (n >= 8)             /* [8, 16] */
            ual_set_8_16(d, v, n);
        else if (n >= 4)        /* [4, 7] */
            ual_set_4_8(d, v, n);
        else if (n >= 2)        /* [2, 3] */
            ual_set_2_4(d, v, n);
        else if (n == 1)        /* 1 */
            ual_set_1(d, v);
        return dst;
    }
    if (n <= 32) {              /* [17, 32]: 16 + 16 */
        ual_set_16_32(d, v, n);
        return dst;
    }
    /* Tail: the last 64 (or, for n <= 64, 32) bytes, unaligned. */
    unsigned char *e = d + n;
    st64(e - 32, v);
    st64(e - 24, v);
    st64(e - 16, v);
    st64(e - 8, v);
    if (n <= 64) {              /* [33, 64]: head 32 + tail 32 */
        st64(d, v);
        st64(d + 8, v);
        st64(d + 16, v);
        st64(d + 24, v);
        return dst;
    }
    st64(e - 64, v);
    st64(e - 56, v);
    st64(e - 48, v);
    st64(e - 40, v);
    /* Head: 16 unaligned bytes, then align dst to 16. */
    st64(d, v);
    st64(d + 8, v);
    d += 16 - ((uintptr_t)d & 15);
    /* Body: 64 bytes per iteration, 16-aligned, until the tail is reached. */
    for (size_t left = (size_t)(e - d); left > 64; left -= 64, d += 64)
        ual_set_64a(d, v);
    return dst;
}
