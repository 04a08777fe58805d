/*
 * copy_user_sve — fault-tolerant copy with SVE predicated vectors,
 * vector-length agnostic.
 *
 * Not src/ops/'s classes up to 2 VL: one predicated vector (whilelo) covers any
 * size at any vector length.
 *
 * Assumptions:
 *   - SVE (AT_HWCAP bit 22) on a kernel that keeps it enabled across system
 *     calls (detection's rule); built with SVE enabled for this file only;
 *     every access is an extable accessor (extable.h: UA_SVE_COPY,
 *     UA_Q16_COPY, UA_Q64_COPY).
 *   - src and dst do not overlap.
 *   - Vectors are copied in ascending order, each loaded before it is stored,
 *     so the start of the faulting vector is the progress.  st1b that faults
 *     may already have stored some active bytes (or none): nothing relies on
 *     it either way, the fix-up (altmem__uaccess_bytes) stores again byte by
 *     byte from the progress and returns the exact count.
 *   - Predicates are made from indices (whilelo i, n), never from end
 *     addresses, so d + n wrapping cannot end a loop early; an inactive
 *     element is never accessed.
 *   - Above 64 bytes with a vector shorter than 64 bytes (VL 16, 32), the
 *     Advanced SIMD accessors (UA_Q16_COPY, UA_Q64_COPY) move more bytes per
 *     instruction: copy_user_advsimd's body (ua_a64_q64.h), two 64-byte
 *     blocks per iteration; the blocks are ascending, each beginning at or below the end
 *     of the stored prefix, so each label's progress is exact as there.
 * Size classes:
 *   [0, 2 VL]  one or two predicated vectors
 *   (2 VL,...) VL < 64 and n > 64: the first 16 bytes unaligned, 64-byte
 *              blocks (ldp/stp q) stored 16-aligned, two per iteration, then
 *              one, while more than 64 bytes remain, then the last 64
 *              unaligned; otherwise two whole vectors per iteration while at
 *              least 2 VL remain, then at most two predicated ones
 */
#include <arm_sve.h>

#include "registry.h"
#include "ua_a64_q64.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

size_t altmem_copy_user_sve(void *dst, const void *src, size_t n)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    const uint64_t vl = svcntb();
    const svbool_t all = svptrue_b8();
    uint64_t i = 0;
    if (n > 2 * vl) {
        if (vl < 64 && n > 64)
            return ua_a64_copy_q64(d, s, n);
        for (; i <= n - 2 * vl; i += 2 * vl) {
            UA_SVE_COPY(d + i, s + i, all, f0);
            UA_SVE_COPY(d + i + vl, s + i + vl, all, f1);
        }
    }
    if (i < n) {
        UA_SVE_COPY(d + i, s + i, svwhilelt_b8_u64(i, n), f0);
        if (i + vl < n)
            UA_SVE_COPY(d + i + vl, s + i + vl, svwhilelt_b8_u64(i + vl, n), f1);
    }
    return 0;
f0:
    return altmem__uaccess_bytes(d, s, n, i, 0);
f1:
    return altmem__uaccess_bytes(d, s, n, i + vl, 0);
first_use:
    return altmem__copy_user_first(dst, src, n, altmem_copy_user_sve);
}
