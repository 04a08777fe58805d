/*
 * clear_user_ual — fault-tolerant zeroing for CPUs with fast unaligned access.
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte stores are single fast instructions; every store is
 *     an extable accessor.
 *   - Stores go in ascending address order, each beginning at or below the end
 *     of the zeroed prefix, so a fault leaves nothing written at or past the
 *     first inaccessible byte and each fault label knows the progress (every
 *     byte below it zeroed, none above); the fix-up goes on from there byte by
 *     byte for the exact count.
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL, wild or at the end of the address
 *     space.
 * Size classes: [0,16] two overlapping stores; above, 8-byte stores from an
 * 8-aligned dst in blocks of 32, then the last 8 bytes (overlapping).
 */
#include "../variants/variants.h"
#include "extable.h"

size_t altmem_clear_user_ual(void *dst, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    const uint64_t z = 0;

    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    if (n <= 16) {
        if (n >= 8) {           /* [8, 16] */
            UA_ST64(d, z, f0);
            UA_ST64(d + n - 8, z, f8);
        } else if (n >= 4) {    /* [4, 7] */
            UA_ST32(d, (uint32_t)z, f0);
            UA_ST32(d + n - 4, (uint32_t)z, f4);
        } else if (n >= 2) {    /* [2, 3] */
            UA_ST16(d, (uint16_t)z, f0);
            UA_ST16(d + n - 2, (uint16_t)z, f2);
        } else if (n == 1) {    /* 1 */
            UA_ST8(d, (uint8_t)z, f0);
        }
        return 0;
    }
    /* Head: 8 unaligned bytes, then from the next 8-aligned address. */
    UA_ST64(d, z, f0);
    size_t i = 8 - (d & 7);
    /* Body: 32 bytes per iteration. */
    for (; i + 32 <= n; i += 32) {
        UA_ST64(d + i, z, fi);
        UA_ST64(d + i + 8, z, fi8);
        UA_ST64(d + i + 16, z, fi16);
        UA_ST64(d + i + 24, z, fi24);
    }
    /* Tail: words, then the last 8 bytes (overlapping). */
    for (; i + 8 <= n; i += 8)
        UA_ST64(d + i, z, fi);
    if (i < n)
        UA_ST64(d + n - 8, z, fi);
    return 0;
    /* Progress: [0, i) plus the words stored before the fault, and the 8-byte
       head (the first word may start inside it). */
fi24:
    i += 8;
fi16:
    i += 8;
fi8:
    i += 8;
fi:
    return altmem__uaccess_bytes(d, 0, n, altmem__ua_max(i, 8), 1);
f8:
    return altmem__uaccess_bytes(d, 0, n, 8, 1);
f4:
    return altmem__uaccess_bytes(d, 0, n, 4, 1);
f2:
    return altmem__uaccess_bytes(d, 0, n, 2, 1);
f0:
    return altmem__uaccess_bytes(d, 0, n, 0, 1);
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_ual);
}
