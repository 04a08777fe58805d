/*
 * The fix-up of every uaccess variant: redo [0, n) a byte at a time, each byte
 * guarded, and stop at the first inaccessible one.  That makes the count exact
 * to the byte whatever the fast path's granularity was (the kernel's fast paths
 * promise 8 bytes and needed a byte-retry fix-up added later).
 *
 * Assumptions: any ISA; byte accesses only; src and dst do not overlap, so
 * rewriting bytes the fast path already copied writes the same values.
 */
#include "extable.h"

size_t altmem__uaccess_bytes(unsigned char *dst, const unsigned char *src, size_t n, int clear)
{
    size_t i = 0;
    for (; i < n; i++) {
        uint8_t b = 0;
        if (!clear)
            UA_LD8(b, src + i, fault);
        UA_ST8(dst + i, b, fault);
    }
    return 0;
fault:
    return n - i;
}
