/*
 * memset_avx2 — 32-byte AVX2 vectors (features UAL, SIMD256).
 *
 * Assumptions:
 *   - AVX2, with the OS saving the YMM state (SIMD256).  Built with -mavx2:
 *     this file only; the rest of the library stays baseline x86_64.
 *   - Unaligned stores are single, fast instructions (UAL).
 *   - Sizes up to 256: overlapping stores from both ends; above, a 32-aligned
 *     128-byte loop between an unaligned first vector and unaligned last 128.
 */
#define VEC_BITS 256
#include "x86_vec.h"

void *altmem_memset_avx2(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    uint64_t v = splat8(c);
    if (n <= 16)
        set_upto16(d, v, n);            /* [0, 16]: 8+8, 4+4 or three bytes  */
    else if (n <= 32)
        set_ht16(d, v, n);              /* (16, 32]: 16 + 16, overlapping     */
    else if (n <= 64)
        vset_ht1(d, vsplat(v), n);      /* (32, 64]: 32 + 32                  */
    else if (n <= 128)
        vset_ht2(d, vsplat(v), n);      /* (64, 128]: 2 x 32 from each end    */
    else if (n <= 256)
        vset_ht4(d, vsplat(v), n);      /* (128, 256]: 4 x 32 from each end   */
    else if (n < altmem__nt_threshold)
        vset_loop(d, vsplat(v), n);     /* (256, nt): 128 B loop, dst 32-aligned */
    else
        vset_nt(d, vsplat(v), n);       /* [nt, ...): streaming stores        */
    return dst;
}
