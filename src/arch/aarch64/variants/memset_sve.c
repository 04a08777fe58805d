/*
 * memset_sve — SVE, vector-length agnostic, with DC ZVA for large zeroing.
 *
 * Assumptions:
 *   - SVE (AT_HWCAP bit 22) on a kernel that keeps it enabled across system
 *     calls (detection's rule); built with SVE enabled for this file only.
 *   - Predicated st1b never touches an inactive element.
 *   - DC ZVA zeroes one whole naturally aligned block of altmem__zero_block
 *     bytes (DCZID_EL0, detection); 0 means prohibited or unknown, and then it
 *     is never used.  Only whole blocks inside [dst, dst + n) are zeroed by it.
 *   - Above 2 VL, a vector shorter than 64 bytes stores fewer bytes per
 *     iteration than memset_advsimd's 256-byte loop, so there (VL 16, 32) the
 *     large sizes are a64_simd.h's classes; from VL 64 on the SVE loop (as
 *     memcpy_sve).
 * Size classes:
 *   [0, 2 VL]  one or two predicated stores
 *   (2 VL,...) VL < 64: a64_set_gt32 (memset_advsimd's classes above 32
 *              bytes, its DC ZVA zeroing included); VL >= 64: four whole
 *              vectors per iteration while at least 4 VL remain, then whole
 *              pairs, then at most two predicated stores; zeroing of at least
 *              max(256, 2 blocks): vectors up to the first block boundary,
 *              DC ZVA for the whole blocks (four per iteration, then one by
 *              one), vectors for the rest
 */
#include <arm_sve.h>

#include "policy.h"
#include "registry.h"
#include "a64_simd.h"

/* Any n: the classes above, without DC ZVA.  Not src/ops/'s classes: one
   predicated store (whilelo) covers a whole tail at any vector length. */
OPS_INL void sve_set(uint8_t *d, svuint8_t v, uint64_t n)
{
    const uint64_t vl = svcntb();
    if (n <= 2 * vl) {
        svst1_u8(svwhilelt_b8_u64(0, n), d, v);
        svst1_vnum_u8(svwhilelt_b8_u64(vl, n), d, 1, v);
        return;
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
}

void *altmem_memset_sve(void *dst, int c, size_t n)
{
    uint8_t *d = dst;
    const svuint8_t v = svdup_n_u8((uint8_t)c);
    const uint64_t vl = svcntb();
    if (n <= 2 * vl) {          /* the small class first: no zeroing test on its path */
        svst1_u8(svwhilelt_b8_u64(0, n), d, v);
        svst1_vnum_u8(svwhilelt_b8_u64(vl, n), d, 1, v);
        return dst;
    }
    if (vl < 64) {
        a64_set_gt32(d, vdupq_n_u8((uint8_t)c), (uint8_t)c, n);
        return dst;
    }
    if ((uint8_t)c == 0 && n >= 256) {
        const size_t zb = __atomic_load_n(&altmem__zero_block, __ATOMIC_RELAXED);
        if (zb >= 16 && n >= 2 * zb) {
            uintptr_t p = ((uintptr_t)d + zb - 1) & ~(uintptr_t)(zb - 1);
            const uintptr_t end = ((uintptr_t)d + n) & ~(uintptr_t)(zb - 1);
            sve_set(d, v, p - (uintptr_t)d);
            a64_dc_zva(p, end, zb);
            sve_set((uint8_t *)end, v, (uintptr_t)d + n - end);
            return dst;
        }
    }
    sve_set(d, v, n);
    return dst;
}
