/*
 * The fix-up of every uaccess variant: go on from the fast path's progress a
 * byte at a time, each byte guarded, and stop at the first inaccessible one.
 * That makes the count exact to the byte whatever the fast path's granularity
 * was (the kernel's fast paths promise 8 bytes and needed a byte-retry fix-up
 * added later).
 *
 * Assumptions: any ISA; byte accesses only; every byte of dst below `done` was
 * stored by the fast path and none at or above it (extable.h), so bytes already
 * copied are neither re-read nor rewritten; addresses are integers (the caller's
 * pointers may be NULL or wild: no C pointer arithmetic on them).
 */
#include "extable.h"

size_t altmem__uaccess_bytes(uintptr_t dst, uintptr_t src, size_t n, size_t done, int clear)
{
    size_t i = done;
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
