/*
 * clear_user_sve — fault-tolerant zeroing with SVE predicated stores,
 * vector-length agnostic.
 *
 * Not src/ops/'s classes up to 2 VL: one predicated vector (whilelo) covers any
 * size at any vector length.
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
 *     instruction: clear_user_advsimd's body (ua_a64_q64.h), two 64-byte
 *     blocks per iteration; the stores are ascending, each beginning at or below the end
 *     of the zeroed prefix, so each label's progress is exact as there.
 * Size classes:
 *   [0, 2 VL]  one or two predicated stores
 *   (2 VL,...) VL < 64 and n > 64: 16 bytes unaligned, 64-byte blocks (stp q)
 *              16-aligned, two per iteration, then one, while more than 64
 *              remain, the last 64 unaligned; otherwise two whole vectors per
 *              iteration while at least 2 VL remain, then at most two
 *              predicated ones
 */
#include <arm_sve.h>

#include "registry.h"
#include "ua_a64_q64.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

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
            return ua_a64_zero_q64(d, n);
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
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_sve);
}
