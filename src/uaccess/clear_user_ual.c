/*
 * clear_user_ual — fault-tolerant zeroing for CPUs with fast unaligned access.
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte stores are single fast instructions; every store is
 *     an extable accessor.
 *   - Stores go in ascending address order (an overlapping store only rewrites
 *     zeros below it), so a fault leaves nothing written at or past the first
 *     inaccessible byte; the fix-up redoes it byte by byte for the exact count.
 * Size classes: [0,16] two overlapping stores; above, 8-byte stores from an
 * 8-aligned dst in blocks of 32, then the last 8 bytes (overlapping).
 */
#include "../variants/variants.h"
#include "extable.h"

size_t altmem_clear_user_ual(void *dst, size_t n)
{
    unsigned char *d = dst;
    const uint64_t z = 0;

    if (n <= 16) {
        if (n >= 8) {           /* [8, 16] */
            UA_ST64(d, z, fault);
            UA_ST64(d + n - 8, z, fault);
        } else if (n >= 4) {    /* [4, 7] */
            UA_ST32(d, (uint32_t)z, fault);
            UA_ST32(d + n - 4, (uint32_t)z, fault);
        } else if (n >= 2) {    /* [2, 3] */
            UA_ST16(d, (uint16_t)z, fault);
            UA_ST16(d + n - 2, (uint16_t)z, fault);
        } else if (n == 1) {    /* 1 */
            UA_ST8(d, (uint8_t)z, fault);
        }
        return 0;
    }
    /* Head: 8 unaligned bytes, then from the next 8-aligned address. */
    UA_ST64(d, z, fault);
    size_t i = 8 - ((uintptr_t)d & 7);
    /* Body: 32 bytes per iteration. */
    for (; i + 32 <= n; i += 32) {
        UA_ST64(d + i, z, fault);
        UA_ST64(d + i + 8, z, fault);
        UA_ST64(d + i + 16, z, fault);
        UA_ST64(d + i + 24, z, fault);
    }
    /* Tail: words, then the last 8 bytes (overlapping). */
    for (; i + 8 <= n; i += 8)
        UA_ST64(d + i, z, fault);
    if (i < n)
        UA_ST64(d + n - 8, z, fault);
    return 0;
fault:
    return altmem__uaccess_bytes(dst, NULL, n, 1);
}
