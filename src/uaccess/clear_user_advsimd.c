/*
 * clear_user_advsimd — fault-tolerant zeroing with Advanced SIMD q registers.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1) and unaligned access to normal memory;
 *     every store is an extable accessor (extable.h: UA_Q16_ZERO,
 *     UA_Q64_ZERO).
 *   - Stores go in ascending order, each beginning at or below the end of the
 *     zeroed prefix; each fault label knows the progress.  A vector store is
 *     not taken to be all-or-nothing: the fix-up zeroes again byte by byte
 *     from the progress and returns the exact count.
 *   - Addresses are integers; loops count by index.
 * Size classes: [0, 64] clear_user_ual's; above, 16 bytes unaligned, 64-byte
 * blocks (stp q) 16-aligned while more than 64 remain, the last 64 unaligned.
 */
#include <arm_neon.h>

#include "../variants/variants.h"
#include "ua_access.h"

#define MAX altmem__ua_max

size_t altmem_clear_user_advsimd(void *dst, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    if (n <= 64)
        return altmem_clear_user_ual(dst, n);
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    const uint8x16_t z = vdupq_n_u8(0);
    UA_Q16_ZERO(d, f0);
    size_t i = 16 - (d & 15);
    for (; i < n - 64; i += 64)
        UA_Q64_ZERO(d + i, z, fl0, fl32);
    UA_Q64_ZERO(d + n - 64, z, ft0, ft32);
    return 0;
fl0:
    return altmem__uaccess_bytes(d, 0, n, MAX(i, 16), 1);
fl32:
    return altmem__uaccess_bytes(d, 0, n, MAX(i + 32, 16), 1);
ft0:
    return altmem__uaccess_bytes(d, 0, n, MAX(i, 16), 1);
ft32:
    return altmem__uaccess_bytes(d, 0, n, MAX(MAX(i, 16), n - 32), 1);
f0:
    return altmem__uaccess_bytes(d, 0, n, 0, 1);
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_advsimd);
}
