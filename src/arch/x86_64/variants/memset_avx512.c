/*
 * memset_avx512 — 64-byte AVX-512 vectors (features UAL, SIMD512).
 *
 * Assumptions:
 *   - AVX-512F, with the OS saving the ZMM and opmask state (SIMD512); only
 *     AVX-512F instructions (the byte is spread with a multiply and a 64-bit
 *     broadcast, not BW's vpbroadcastb).  Built with -mavx512f: this file only.
 *   - Unaligned stores are single, fast instructions (UAL).
 *   - Sizes up to 512: overlapping stores from both ends; above, a 64-aligned
 *     256-byte loop between an unaligned first vector and unaligned last 256.
 */
#define VEC_BITS 512
#include "x86_vec.h"

void *altmem_memset_avx512(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    uint64_t v = splat8(c);
    if (n <= 16)
        set_upto16(d, v, n);            /* [0, 16]: 8+8, 4+4 or three bytes  */
    else if (n <= 32)
        set_ht16(d, v, n);              /* (16, 32]: 16 + 16, overlapping     */
    else if (n <= 64)
        set_ht32(d, v, n);              /* (32, 64]: 32 + 32                  */
    else if (n <= 128)
        vset_ht1(d, vsplat(v), n);      /* (64, 128]: 64 + 64                 */
    else if (n <= 256)
        vset_ht2(d, vsplat(v), n);      /* (128, 256]: 2 x 64 from each end   */
    else if (n <= 512)
        vset_ht4(d, vsplat(v), n);      /* (256, 512]: 4 x 64 from each end   */
    else if (n < altmem__nt_threshold)
        vset_loop(d, vsplat(v), n);     /* (512, nt): 256 B loop, dst 64-aligned */
    else
        vset_nt(d, vsplat(v), n);       /* [nt, ...): streaming stores        */
    return dst;
}
