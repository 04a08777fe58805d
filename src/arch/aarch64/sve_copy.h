/*
 * The forward copy of the SVE variants (memcpy_sve, and memmove_sve when dst
 * does not lie inside (src, src + n)), written once; their large sizes use it
 * from VL 64 on (below, a64_simd.h's classes).
 *
 * Not src/ops/'s classes: a predicated vector of any length covers [i, n) in
 * one access (whilelo), where a fixed-width class needs a head and a tail.
 *
 * Assumptions:
 *   - Built with SVE enabled (the file's flag set sve); vector-length agnostic.
 *   - Predicated ld1b/st1b never touch an inactive element.
 *   - Each pair of vectors is loaded before either is stored, ascending: safe
 *     for any overlap where dst is not inside (src, src + n).
 */
#ifndef ALTMEM_SVE_COPY_H
#define ALTMEM_SVE_COPY_H

#include <arm_sve.h>
#include <stddef.h>
#include <stdint.h>

#include "ops/access.h"

/* [i, min(i + 2 VL, n)): one or two predicated vectors. */
OPS_INL void sve_copy_2v_from(uint8_t *d, const uint8_t *s, uint64_t i, uint64_t n, uint64_t vl)
{
    const svbool_t p0 = svwhilelt_b8_u64(i, n), p1 = svwhilelt_b8_u64(i + vl, n);
    const svuint8_t a = svld1_u8(p0, s + i), b = svld1_vnum_u8(p1, s + i, 1);
    svst1_u8(p0, d + i, a);
    svst1_vnum_u8(p1, d + i, 1, b);
}

/* n > 2 VL: two whole vectors per iteration, then the rest predicated. */
OPS_INL void sve_copy_fwd(uint8_t *d, const uint8_t *s, uint64_t n, uint64_t vl)
{
    const svbool_t all = svptrue_b8();
    uint64_t i = 0;
    for (; i + 2 * vl <= n; i += 2 * vl) {
        const svuint8_t a = svld1_u8(all, s + i), b = svld1_vnum_u8(all, s + i, 1);
        svst1_u8(all, d + i, a);
        svst1_vnum_u8(all, d + i, 1, b);
    }
    sve_copy_2v_from(d, s, i, n, vl);
}

#endif
