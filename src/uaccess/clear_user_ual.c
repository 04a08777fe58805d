/*
 * clear_user_ual — fault-tolerant zeroing for CPUs with fast unaligned access.
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte (and on x86_64 16-byte SSE2) stores are single fast
 *     instructions; every store is an extable accessor (OPS_FAULT).
 *   - Stores go in ascending address order, each beginning at or below the end
 *     of the zeroed prefix, so a fault leaves nothing written at or past the
 *     first inaccessible byte and each store knows the progress (every byte
 *     below it zeroed, none above); the fix-up goes on from there byte by byte
 *     for the exact count.
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL, wild or at the end of the address
 *     space.
 * Size classes: memset_ual's own (src/variants/ual/ual_classes.h,
 * ual_clear_user) with OPS_FAULT: [0,16] two overlapping stores of the largest
 * fitting width; (16,32] 16 + 16 and (32,64] 32 + 32 bytes from each end;
 * above, the first 16 bytes unaligned, 64-byte blocks stored 16-aligned while
 * more than 64 bytes remain, then the last 64 bytes unaligned.
 */
#include "registry.h"
#include "variants/ual/ual_classes.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

size_t altmem_clear_user_ual(void *dst, size_t n)
{
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    return ual_clear_user((uintptr_t)dst, n);
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_ual);
}
