/*
 * memcpy_rvv — RVV strip-mined copy.
 *
 * Assumptions:
 *   - RVV 1.0 (ALTMEM_FEAT_RVV: the kernel saves the vector state); built with
 *     -march=rv64gcv.  Any VLEN: vsetvli e8/m8 gives each step's length.
 *   - Byte elements: no alignment of dst or src is needed, and no scalar
 *     misaligned access is made (so not UAL).
 *   - Reads exactly src[0, n), writes exactly dst[0, n).
 * Size classes: none; every size, 0 included, is the one loop of
 * min(n, 8 * VLENB)-byte steps (rvv.h).
 */
#include "registry.h"
#include "rvv.h"

void *altmem_memcpy_rvv(void *dst, const void *src, size_t n)
{
    rvv_copy_fwd((uintptr_t)dst, (uintptr_t)src, n);
    return dst;
}
