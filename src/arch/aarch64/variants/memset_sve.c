/*
 * memset_sve — SVE, vector-length agnostic.
 *
 * Assumptions:
 *   - SVE (AT_HWCAP bit 22) on a kernel that keeps it enabled across system
 *     calls (detection's rule); built with SVE enabled for this file only.
 *   - Predicated st1b never touches an inactive element.
 * Size classes: [0, 2 VL] one or two predicated stores; above, four whole
 * vectors per iteration while at least 4 VL remain, then whole pairs, then at
 * most two predicated stores.  (No DC ZVA here: the advsimd variant has it;
 * SVE's gain is the branch-free small sizes.)
 */
#include <arm_sve.h>

#include "../../../variants/variants.h"

void *altmem_memset_sve(void *dst, int c, size_t n)
{
    uint8_t *d = dst;
    const uint64_t vl = svcntb();
    const svuint8_t v = svdup_n_u8((uint8_t)c);
    if (n <= 2 * vl) {
        svst1_u8(svwhilelt_b8_u64(0, n), d, v);
        svst1_vnum_u8(svwhilelt_b8_u64(vl, n), d, 1, v);
        return dst;
    }
    const svbool_t all = svptrue_b8();
    uint64_t i = 0;
    for (; i + 4 * vl <= n; i += 4 * vl) {
        svst1_u8(all, d + i, v);
        svst1_vnum_u8(all, d + i, 1, v);
        svst1_vnum_u8(all, d + i, 2, v);
        svst1_vnum_u8(all, d + i, 3, v);
    }
    if (i + 2 * vl <= n) {
        svst1_u8(all, d + i, v);
        svst1_vnum_u8(all, d + i, 1, v);
        i += 2 * vl;
    }
    svst1_u8(svwhilelt_b8_u64(i, n), d + i, v);
    svst1_vnum_u8(svwhilelt_b8_u64(i + vl, n), d + i, 1, v);
    return dst;
}
