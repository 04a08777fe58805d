/*
 * copy_user_ual — fault-tolerant copy for CPUs with fast unaligned access (UAL).
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte (and on x86_64 16-byte SSE2) loads and stores are
 *     single fast instructions; every access is an extable accessor (OPS_FAULT).
 *   - src and dst do not overlap.
 *   - Every block is loaded before it is stored and blocks are stored in
 *     ascending order, each beginning at or below the end of the stored prefix,
 *     so when an access faults no byte at or past the first inaccessible one has
 *     been written, and each store knows the progress (every byte below it
 *     stored, none above); the fix-up goes on from there byte by byte and returns
 *     the exact count (altmem__uaccess_bytes).
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL, wild or at the end of the address
 *     space.
 * Size classes: memcpy_ual's own (src/variants/ual/ual_classes.h, ual_copy_user)
 * with OPS_FAULT: [0,16) two overlapping accesses of the largest fitting width;
 * [16,32) 16 + 16 and [32,64] 32 + 32 bytes from each end, every load before
 * the first store; above, the first 16 bytes unaligned, 64-byte blocks stored
 * 16-aligned while more than 64 bytes remain, then the last 64 bytes unaligned.
 */
#include "registry.h"
#include "variants/ual/ual_classes.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

size_t altmem_copy_user_ual(void *dst, const void *src, size_t n)
{
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    return ual_copy_user((uintptr_t)dst, (uintptr_t)src, n);
first_use:
    return altmem__copy_user_first(dst, src, n, altmem_copy_user_ual);
}
