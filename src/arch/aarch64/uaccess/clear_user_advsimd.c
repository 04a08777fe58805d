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
 * Size classes: [0, 64] clear_user_ual's; above, ua_a64_q64.h's: 16 bytes
 * unaligned, 64-byte blocks (stp q) 16-aligned, two per iteration, then one,
 * while more than 64 remain, the last 64 unaligned.
 */
#include "registry.h"
#include "ua_a64_q64.h"

size_t altmem_clear_user_advsimd(void *dst, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    if (n <= 64)
        return altmem_clear_user_ual(dst, n);
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    return ua_a64_zero_q64(d, n);
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_advsimd);
}
