/*
 * memset_avx2_erms — memset_avx2, with rep stosb in the size range where it
 * measurably beats the AVX2 loop (features UAL, SIMD256, ERMS).
 *
 * Assumptions:
 *   - As memset_avx2 (built with -mavx2, this file only).
 *   - ERMS: rep stosb stores whole lines internally once its start-up cost is
 *     amortised.  The range below was measured (docs/performance.md).
 */
#define VEC_BITS 256
#include "x86_vec.h"

#define ERMS_MIN 2048                   /* below: the vector blocks win       */

void *altmem_memset_avx2_erms(void *dst, int c, size_t n)
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
    else if (n < ERMS_MIN)
        vset_loop(d, vsplat(v), n);     /* (256, ERMS_MIN): 128 B loop        */
    else if (n < altmem__nt_threshold)
        rep_stosb(d, c, n);             /* [ERMS_MIN, nt): rep stosb          */
    else
        vset_nt(d, vsplat(v), n);       /* [nt, ...): streaming stores        */
    return dst;
}
