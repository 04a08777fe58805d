/*
 * clear_user_advsimd — fault-tolerant zeroing with Advanced SIMD q registers.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1) and unaligned access to normal memory;
 *     every store is an extable accessor (OPS_FAULT; extable.h: UA_STQ,
 *     UA_Q16_ZERO, UA_Q64_ZERO).
 *   - Stores go in ascending order, each beginning at or below the end of the
 *     zeroed prefix; each fault label knows the progress.  A vector store is
 *     not taken to be all-or-nothing: the fix-up zeroes again byte by byte
 *     from the progress and returns the exact count.
 *   - Addresses are integers; loops count by index.
 * Size classes: [0, 64] memset_advsimd's (a64_simd.h: src/ops/ classes over
 * q registers, scalars below 16 bytes) with OPS_FAULT, stored ascending;
 * above, ua_a64_q64.h's: 16 bytes
 * unaligned, 64-byte blocks (stp q) 16-aligned, two per iteration, then one,
 * while more than 64 remain, the last 64 unaligned.
 */
#include "registry.h"
#include "a64_simd.h"
#include "ua_a64_q64.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

size_t altmem_clear_user_advsimd(void *dst, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    size_t k;
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    if (n > 64)
        return ua_a64_zero_q64(d, n);
    if (n <= 32)                /* [0, 32] */
        k = a64_set_le32(OPS_FAULT, d, vdupq_n_u8(0), 0, n);
    else                        /* (32, 64]: 32 + 32 */
        k = ops_vset_ht2(OPS_FAULT, d, vdupq_n_u8(0), n);
    if (__builtin_expect(k != OPS_OK, 0))
        return altmem__uaccess_bytes(d, 0, n, k, 1);
    return 0;
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_advsimd);
}
