/*
 * copy_user_advsimd — fault-tolerant copy with Advanced SIMD q registers.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1) and unaligned access to normal memory;
 *     every access is an extable accessor (OPS_FAULT; extable.h: UA_LDQ,
 *     UA_STQ, UA_Q16_COPY, UA_Q64_COPY).
 *   - src and dst do not overlap.
 *   - Blocks are stored in ascending order, each beginning at or below the end
 *     of the stored prefix, each loaded before it is stored; each fault label
 *     knows the progress (every byte below it stored).  A vector store is not
 *     taken to be all-or-nothing: the fix-up (altmem__uaccess_bytes) stores
 *     again byte by byte from the progress and returns the exact count.
 *   - Addresses are integers; loops count by index, so d + n never wraps a
 *     bound.
 * Size classes: [0, 64] memcpy_advsimd's (a64_simd.h, a64_copy_le64: src/ops/
 * classes over q registers, scalars below 16 bytes) with OPS_FAULT; above,
 * ua_a64_q64.h's: the first 16 bytes unaligned, 64-byte blocks
 * (ldp/stp q) stored 16-aligned, two per iteration, then one, while more than
 * 64 bytes remain, then the last 64 unaligned (they begin inside the stored
 * prefix).
 */
#include "registry.h"
#include "a64_simd.h"
#include "ua_a64_q64.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

size_t altmem_copy_user_advsimd(void *dst, const void *src, size_t n)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    size_t k;
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    if (n > 64)
        return ua_a64_copy_q64(d, s, n);
    if (__builtin_expect((k = a64_copy_le64(OPS_FAULT, d, s, n)) != OPS_OK, 0))
        return altmem__uaccess_bytes(d, s, n, k, 0);
    return 0;
first_use:
    return altmem__copy_user_first(dst, src, n, altmem_copy_user_advsimd);
}
