/*
 * memcpy_sve — SVE, vector-length agnostic (any VL from 16 to 256 bytes).
 *
 * Assumptions:
 *   - SVE (AT_HWCAP bit 22) on a kernel that keeps it enabled across system
 *     calls (detection's rule); built with SVE enabled for this file only.
 *   - src and dst do not overlap.
 *   - Predicated ld1b/st1b never touch an inactive element, so whilelo
 *     predicates that end at n access nothing past the region: no scalar tail.
 * Size classes: [0, 2 VL] one or two predicated vectors (no branch on the
 * size within the class); above, two whole vectors per iteration while at
 * least 2 VL remain, then at most two predicated vectors.
 */
#include <arm_sve.h>

#include "../../../variants/variants.h"

void *altmem_memcpy_sve(void *__restrict dst, const void *__restrict src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    const uint64_t vl = svcntb();
    if (n <= 2 * vl) {
        const svbool_t p0 = svwhilelt_b8_u64(0, n), p1 = svwhilelt_b8_u64(vl, n);
        const svuint8_t a = svld1_u8(p0, s), b = svld1_vnum_u8(p1, s, 1);
        svst1_u8(p0, d, a);
        svst1_vnum_u8(p1, d, 1, b);
        return dst;
    }
    const svbool_t all = svptrue_b8();
    uint64_t i = 0;
    for (; i + 2 * vl <= n; i += 2 * vl) {
        const svuint8_t a = svld1_u8(all, s + i), b = svld1_vnum_u8(all, s + i, 1);
        svst1_u8(all, d + i, a);
        svst1_vnum_u8(all, d + i, 1, b);
    }
    const svbool_t p0 = svwhilelt_b8_u64(i, n), p1 = svwhilelt_b8_u64(i + vl, n);
    const svuint8_t a = svld1_u8(p0, s + i), b = svld1_vnum_u8(p1, s + i, 1);
    svst1_u8(p0, d + i, a);
    svst1_vnum_u8(p1, d + i, 1, b);
    return dst;
}
