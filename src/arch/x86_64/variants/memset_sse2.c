/*
 * memset_sse2 — 16-byte SSE2 vectors (features UAL, SIMD128).
 *
 * Assumptions:
 *   - SSE2, which every x86_64 CPU has: no compiler flag needed.
 *   - Unaligned stores are single, fast instructions (UAL).
 *   - Sizes up to 128: overlapping stores from both ends; above, a 16-aligned
 *     64-byte loop between an unaligned first vector and unaligned last 64.
 */
#define VEC_BITS 128
#include "x86_vec.h"

void *altmem_memset_sse2(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    uint64_t v = splat8(c);
    if (n <= 16)
        set_upto16(d, v, n);            /* [0, 16]: 8+8, 4+4 or three bytes  */
    else if (n <= 32)
        vset_ht1(d, vsplat(v), n);      /* (16, 32]: 16 + 16, overlapping     */
    else if (n <= 64)
        vset_ht2(d, vsplat(v), n);      /* (32, 64]: 2 x 16 from each end     */
    else if (n <= 128)
        vset_ht4(d, vsplat(v), n);      /* (64, 128]: 4 x 16 from each end    */
    else if (n < altmem__nt_threshold)
        vset_loop(d, vsplat(v), n);     /* (128, nt): 64 B loop, dst 16-aligned */
    else
        vset_nt(d, vsplat(v), n);       /* [nt, ...): streaming stores        */
    return dst;
}
