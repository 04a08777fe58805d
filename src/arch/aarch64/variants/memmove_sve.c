/*
 * memmove_sve — SVE, vector-length agnostic.
 *
 * Not src/ops/'s classes up to 2 VL: one predicated vector (whilelo) covers any
 * size at any vector length.
 *
 * Assumptions:
 *   - SVE (AT_HWCAP bit 22) on a kernel that keeps it enabled across system
 *     calls (detection's rule); built with SVE enabled for this file only.
 *   - Predicated ld1b/st1b never touch an inactive element.
 *   - Above 2 VL, a vector shorter than 64 bytes moves fewer bytes per
 *     iteration than the Advanced SIMD loop, so there (VL 16, 32) the large
 *     sizes are a64_simd.h's classes (every load before any store up to 128
 *     bytes; above, the loop forward or backward by overlap); from VL 64 on
 *     the SVE loops (as memcpy_sve).
 * Size classes:
 *   [0, 2 VL]  one or two predicated vectors, both loaded before either is
 *              stored (any overlap)
 *   (2 VL,...) VL < 64: a64_copy_gt32 with overlap (memmove_advsimd's classes
 *              above 32 bytes); VL >= 64: forward unless dst lies inside
 *              (src, src + n): two whole vectors per iteration, both loaded
 *              before they are stored, from the start (forward) or from the
 *              end (backward), then the rest (at the end, or at the start)
 *              with predicated vectors
 */
#include <arm_sve.h>

#include "registry.h"
#include "a64_simd.h"
#include "sve_copy.h"

void *altmem_memmove_sve(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    const uint64_t vl = svcntb();
    if (n <= 2 * vl) {
        sve_copy_2v_from(d, s, 0, n, vl);
        return dst;
    }
    if (vl < 64) {
        a64_copy_gt32(d, s, n, 1);
        return dst;
    }
    if ((uintptr_t)dst - (uintptr_t)src >= n) {
        sve_copy_fwd(d, s, n, vl);
        return dst;
    }
    const svbool_t all = svptrue_b8();
    /* Backward: blocks [j - 2 VL, j) from the end, then [0, j). */
    uint64_t j = n;
    for (; j >= 2 * vl; j -= 2 * vl) {
        const svuint8_t a = svld1_u8(all, s + j - 2 * vl), b = svld1_vnum_u8(all, s + j - 2 * vl, 1);
        svst1_vnum_u8(all, d + j - 2 * vl, 1, b);
        svst1_u8(all, d + j - 2 * vl, a);
    }
    const svbool_t p0 = svwhilelt_b8_u64(0, j), p1 = svwhilelt_b8_u64(vl, j);
    const svuint8_t a = svld1_u8(p0, s), b = svld1_vnum_u8(p1, s, 1);
    svst1_vnum_u8(p1, d, 1, b);
    svst1_u8(p0, d, a);
    return dst;
}
