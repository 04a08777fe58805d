/*
 * memcpy_sve — SVE, vector-length agnostic (any VL from 16 to 256 bytes).
 *
 * Not src/ops/'s classes up to 2 VL: one predicated vector (whilelo) covers any
 * size at any vector length.
 *
 * Assumptions:
 *   - SVE (AT_HWCAP bit 22) on a kernel that keeps it enabled across system
 *     calls (detection's rule); built with SVE enabled for this file only.
 *   - src and dst do not overlap.
 *   - Predicated ld1b/st1b never touch an inactive element, so whilelo
 *     predicates that end at n access nothing past the region: no scalar tail.
 *   - Above 2 VL, a vector shorter than 64 bytes moves fewer bytes per
 *     iteration than the Advanced SIMD loop's four-register LD1/ST1, so there
 *     (VL 16, 32) the large sizes are a64_simd.h's classes (as optimized-
 *     routines' memcpy-sve uses SVE for the small sizes only); from VL 64 on
 *     the SVE loop (docs/arch-notes.md, "aarch64 vector variants").
 * Size classes:
 *   [0, 2 VL]  one or two predicated vectors (no branch on the size within
 *              the class)
 *   (2 VL,...) VL < 64: a64_copy_gt32 (32 + 32 up to 64, 64 + 64 up to 128,
 *              above 64-byte LD1/ST1 blocks stored 16-aligned); VL >= 64: two
 *              whole vectors per iteration while at least 2 VL remain, then
 *              at most two predicated vectors
 */
#include <arm_sve.h>

#include "registry.h"
#include "a64_simd.h"
#include "sve_copy.h"

void *altmem_memcpy_sve(void *__restrict dst, const void *__restrict src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    const uint64_t vl = svcntb();
    if (n <= 2 * vl)
        sve_copy_2v_from(d, s, 0, n, vl);
    else if (vl < 64)
        a64_copy_gt32(d, s, n, 0);
    else
        sve_copy_fwd(d, s, n, vl);
    return dst;
}
