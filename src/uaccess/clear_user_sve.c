/*
 * clear_user_sve — fault-tolerant zeroing with SVE predicated stores,
 * vector-length agnostic.
 *
 * Assumptions:
 *   - SVE (AT_HWCAP bit 22) on a kernel that keeps it enabled across system
 *     calls (detection's rule); built with SVE enabled for this file only;
 *     every store is an extable accessor (extable.h: UA_SVE_ZERO,
 *     UA_Q16_ZERO, UA_Q64_ZERO).
 *   - Vectors are stored in ascending order, so the start of the faulting
 *     vector is the progress.  st1b that faults may already have stored some
 *     active bytes: the fix-up zeroes again byte by byte from the progress and
 *     returns the exact count.
 *   - Predicates come from indices (whilelo i, n), never from end addresses.
 *   - Above 64 bytes with a vector shorter than 64 bytes (VL 16, 32), the
 *     Advanced SIMD accessors (UA_Q16_ZERO, UA_Q64_ZERO) store more bytes per
 *     instruction: clear_user_advsimd's scheme, two 64-byte blocks per
 *     iteration; the stores are ascending, each beginning at or below the end
 *     of the zeroed prefix, so each label's progress is exact as there.
 * Size classes:
 *   [0, 2 VL]  one or two predicated stores
 *   (2 VL,...) VL < 64 and n > 64: 16 bytes unaligned, 64-byte blocks (stp q)
 *              16-aligned, two per iteration, then one, while more than 64
 *              remain, the last 64 unaligned; otherwise two whole vectors per
 *              iteration while at least 2 VL remain, then at most two
 *              predicated ones
 */
#include <arm_neon.h>
#include <arm_sve.h>

#include "../variants/variants.h"
#include "ua_access.h"

#define MAX altmem__ua_max

size_t altmem_clear_user_sve(void *dst, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    const uint64_t vl = svcntb();
    const svbool_t all = svptrue_b8();
    const svuint8_t z = svdup_n_u8(0);
    uint64_t i = 0;
    if (n > 2 * vl) {
        if (vl < 64 && n > 64)
            goto q64;
        for (; i <= n - 2 * vl; i += 2 * vl) {
            UA_SVE_ZERO(d + i, z, all, f0);
            UA_SVE_ZERO(d + i + vl, z, all, f1);
        }
    }
    if (i < n) {
        UA_SVE_ZERO(d + i, z, svwhilelt_b8_u64(i, n), f0);
        if (i + vl < n)
            UA_SVE_ZERO(d + i + vl, z, svwhilelt_b8_u64(i + vl, n), f1);
    }
    return 0;
f0:
    return altmem__uaccess_bytes(d, 0, n, i, 1);
f1:
    return altmem__uaccess_bytes(d, 0, n, i + vl, 1);
q64:;
    /* [0, 16) first, then blocks from i (1..16) up: [0, MAX(i, 16)) is zeroed. */
    const uint8x16_t q = vdupq_n_u8(0);
    UA_Q16_ZERO(d, q0);
    i = 16 - (d & 15);
    /* Pairs of blocks [dp - d, dp - d + 128) while the second begins below
       n - 64: (n - 1 - i) / 128 of them. */
    uintptr_t dp = d + i;
    for (size_t k = (n - 1 - i) >> 7; k; k--) {
        UA_Q64_ZERO(dp, q, pl0, pl32);
        UA_Q64_ZERO(dp + 64, q, pm0, pm32);
        dp += 128;
    }
    i = dp - d;
    for (; i < n - 64; i += 64)      /* at most once: i >= n - 128 */
        UA_Q64_ZERO(d + i, q, ql0, ql32);
    UA_Q64_ZERO(d + n - 64, q, qt0, qt32);      /* begins at or below MAX(i, 16) */
    return 0;
q0:
    return altmem__uaccess_bytes(d, 0, n, 0, 1);
ql0:
    return altmem__uaccess_bytes(d, 0, n, MAX(i, 16), 1);
ql32:
    return altmem__uaccess_bytes(d, 0, n, MAX(i + 32, 16), 1);
pl0:
    return altmem__uaccess_bytes(d, 0, n, MAX(dp - d, 16), 1);
pl32:
    return altmem__uaccess_bytes(d, 0, n, MAX(dp - d + 32, 16), 1);
pm0:
    return altmem__uaccess_bytes(d, 0, n, dp - d + 64, 1);
pm32:
    return altmem__uaccess_bytes(d, 0, n, dp - d + 96, 1);
qt0:
    return altmem__uaccess_bytes(d, 0, n, MAX(i, 16), 1);
qt32:
    return altmem__uaccess_bytes(d, 0, n, MAX(MAX(i, 16), n - 32), 1);
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_sve);
}
