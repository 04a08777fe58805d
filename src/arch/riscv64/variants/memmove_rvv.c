/*
 * memmove_rvv — RVV strip-mined copy, direction by overlap.
 *
 * Assumptions:
 *   - RVV 1.0 (ALTMEM_FEAT_RVV), built with -march=rv64gcv; any VLEN.
 *   - Byte elements: no alignment needed, no scalar misaligned access.
 *   - Each step (up to 8 * VLENB bytes) is loaded whole before it is stored,
 *     so forward is right unless dst lies inside (src, src + n), and then
 *     backward from the end is.
 * Size classes: none; one loop per direction (rvv.h).
 */
#include "registry.h"
#include "rvv.h"

void *altmem_memmove_rvv(void *dst, const void *src, size_t n)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    /* dst - src >= n (unsigned): dst below src, or at or past its end. */
    if (d - s >= n)
        rvv_copy_fwd(d, s, n);
    else
        rvv_copy_bwd(d, s, n);
    return dst;
}
