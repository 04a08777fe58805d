/*
 * clear_user_generic — fault-tolerant zeroing for CPUs without unaligned access.
 *
 * Assumptions:
 *   - Any ISA with the extable accessors; never a multi-byte store at an address
 *     that is not a multiple of its size.
 *   - Stores in ascending order: a fault leaves nothing written at or past the
 *     first inaccessible byte, and everything below d (plus the words stored
 *     before the faulting one) written; the fix-up goes on from there byte by byte.
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL or wild.
 * Size classes: < 3 words bytes; else bytes to word alignment, aligned words
 * (4 per iteration), bytes at the end.
 */
#include "../variants/variants.h"
#include "extable.h"

#define W ((size_t)sizeof(uint64_t))

size_t altmem_clear_user_generic(void *dst, size_t n)
{
    const uintptr_t d0 = (uintptr_t)dst;
    uintptr_t d = d0;
    size_t left = n;
    const uint64_t z = 0;

    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    if (left >= 3 * W) {
        /* Head: bytes until d is word-aligned. */
        for (size_t head = (size_t)(-d & (W - 1)); head; head--, left--, d++)
            UA_ST8(d, (uint8_t)z, fault);
        /* Body: 4 aligned words per iteration, then words. */
        for (; left >= 4 * W; left -= 4 * W, d += 4 * W) {
            UA_ST64(d, z, fault);
            UA_ST64(d + 8, z, fault8);
            UA_ST64(d + 16, z, fault16);
            UA_ST64(d + 24, z, fault24);
        }
        for (; left >= W; left -= W, d += W)
            UA_ST64(d, z, fault);
    }
    /* Tail: bytes. */
    for (; left; left--, d++)
        UA_ST8(d, (uint8_t)z, fault);
    return 0;
    /* Progress: everything below d, plus the words stored before the fault. */
fault24:
    d += 8;
fault16:
    d += 8;
fault8:
    d += 8;
fault:
    return altmem__uaccess_bytes(d0, 0, n, d - d0, 1);
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_generic);
}
