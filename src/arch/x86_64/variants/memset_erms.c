/*
 * memset_erms — memset_sse2, with rep stosb in the size range where it
 * measurably beats the SSE2 loop (features UAL, SIMD128, ERMS).
 *
 * Assumptions:
 *   - As memset_sse2 (SSE2, the x86_64 baseline: no compiler flag).
 *   - ERMS: rep stosb stores whole lines internally once its start-up cost is
 *     amortised.  The range below was measured (docs/performance.md).
 */
#define VEC_BITS 128
#include "x86_vec.h"

#define ERMS_MIN 2048                   /* below: the vector blocks win       */

void *altmem_memset_erms(void *dst, int c, size_t n)
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
    else if (n < ERMS_MIN)
        vset_loop(d, vsplat(v), n);     /* (128, ERMS_MIN): 64 B loop         */
    else if (n < altmem__nt_threshold)
        rep_stosb(d, c, n);             /* [ERMS_MIN, nt): rep stosb          */
    else
        vset_nt(d, vsplat(v), n);       /* [nt, ...): streaming stores        */
    return dst;
}
