/*
 * The large-size body of the aarch64 Advanced SIMD copy_user / clear_user:
 * copy_user_advsimd's and clear_user_advsimd's, and copy_user_sve's and
 * clear_user_sve's when the SVE vector is shorter than 64 bytes.
 *
 * Assumptions:
 *   - Advanced SIMD and unaligned access to normal memory; n > 64; every access
 *     is an extable accessor (extable.h: UA_Q16_COPY/ZERO, UA_Q64_COPY/ZERO);
 *     the fault handler is installed (the caller checked first use).
 *   - src and dst do not overlap.
 *   - Blocks are stored in ascending order, each beginning at or below the end
 *     of the stored prefix, each loaded before it is stored; each fault label
 *     knows the progress (every byte below it stored).  A vector store is not
 *     taken to be all-or-nothing: the fix-up (altmem__uaccess_bytes) stores
 *     again byte by byte from the progress and returns the exact count.
 *   - Addresses are integers; loops count by index or iterations, so d + n
 *     never wraps a bound.
 * Size classes (n > 64): the first 16 bytes unaligned; 64-byte blocks
 * (ldp/stp q) stored 16-aligned, two per iteration, then one, while more than
 * 64 bytes remain; the last 64 unaligned (they begin inside the stored prefix).
 * Not src/ops/vector.h's block4: GCC cannot pair two asm accessors into one
 * ldp/stp, so a 64-byte block is one asm of two pairs (UA_Q64_COPY / ZERO).
 */
#ifndef ALTMEM_UA_A64_Q64_H
#define ALTMEM_UA_A64_Q64_H

#include <arm_neon.h>

#include "ops/access.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

OPS_INL size_t ua_a64_copy_q64(uintptr_t d, uintptr_t s, size_t n)
{
    /* [0, 16) first, then blocks from i (1..16) up: [0, MAX(i, 16)) is stored. */
    UA_Q16_COPY(d, s, q0);
    size_t i = 16 - (d & 15);
    /* Pairs of blocks [dp - d, dp - d + 128) while the second begins below
       n - 64: (n - 1 - i) / 128 of them. */
    uintptr_t dp = d + i, sp = s + i;
    for (size_t k = (n - 1 - i) >> 7; k; k--) {
        UA_Q64_COPY(dp, sp, pl0, pl32);
        UA_Q64_COPY(dp + 64, sp + 64, pm0, pm32);
        dp += 128;
        sp += 128;
    }
    i = dp - d;
    for (; i < n - 64; i += 64) /* at most once: i >= n - 128 */
        UA_Q64_COPY(d + i, s + i, ql0, ql32);
    UA_Q64_COPY(d + n - 64, s + n - 64, qt0, qt32); /* begins at or below MAX(i, 16) */
    return 0;
q0:
    return altmem__uaccess_bytes(d, s, n, 0, 0);
ql0:
    return altmem__uaccess_bytes(d, s, n, ops_max(i, 16), 0);
ql32:
    return altmem__uaccess_bytes(d, s, n, ops_max(i + 32, 16), 0);
pl0:
    return altmem__uaccess_bytes(d, s, n, ops_max(dp - d, 16), 0);
pl32:
    return altmem__uaccess_bytes(d, s, n, ops_max(dp - d + 32, 16), 0);
pm0:
    return altmem__uaccess_bytes(d, s, n, dp - d + 64, 0);
pm32:
    return altmem__uaccess_bytes(d, s, n, dp - d + 96, 0);
qt0:
    return altmem__uaccess_bytes(d, s, n, ops_max(i, 16), 0);
qt32:
    return altmem__uaccess_bytes(d, s, n, ops_max(ops_max(i, 16), n - 32), 0);
}

OPS_INL size_t ua_a64_zero_q64(uintptr_t d, size_t n)
{
    /* [0, 16) first, then blocks from i (1..16) up: [0, MAX(i, 16)) is zeroed. */
    const uint8x16_t q = vdupq_n_u8(0);
    UA_Q16_ZERO(d, q0);
    size_t i = 16 - (d & 15);
    /* Pairs of blocks [dp - d, dp - d + 128) while the second begins below
       n - 64: (n - 1 - i) / 128 of them. */
    uintptr_t dp = d + i;
    for (size_t k = (n - 1 - i) >> 7; k; k--) {
        UA_Q64_ZERO(dp, q, pl0, pl32);
        UA_Q64_ZERO(dp + 64, q, pm0, pm32);
        dp += 128;
    }
    i = dp - d;
    for (; i < n - 64; i += 64) /* at most once: i >= n - 128 */
        UA_Q64_ZERO(d + i, q, ql0, ql32);
    UA_Q64_ZERO(d + n - 64, q, qt0, qt32); /* begins at or below MAX(i, 16) */
    return 0;
q0:
    return altmem__uaccess_bytes(d, 0, n, 0, 1);
ql0:
    return altmem__uaccess_bytes(d, 0, n, ops_max(i, 16), 1);
ql32:
    return altmem__uaccess_bytes(d, 0, n, ops_max(i + 32, 16), 1);
pl0:
    return altmem__uaccess_bytes(d, 0, n, ops_max(dp - d, 16), 1);
pl32:
    return altmem__uaccess_bytes(d, 0, n, ops_max(dp - d + 32, 16), 1);
pm0:
    return altmem__uaccess_bytes(d, 0, n, dp - d + 64, 1);
pm32:
    return altmem__uaccess_bytes(d, 0, n, dp - d + 96, 1);
qt0:
    return altmem__uaccess_bytes(d, 0, n, ops_max(i, 16), 1);
qt32:
    return altmem__uaccess_bytes(d, 0, n, ops_max(ops_max(i, 16), n - 32), 1);
}

#endif
