/*
 * memcpy_avx2_erms — memcpy_avx2, with rep movsb in the size range where it
 * measurably beats the AVX2 loop (features UAL, SIMD256, ERMS).
 *
 * Assumptions:
 *   - As memcpy_avx2 (built with -mavx2, this file only).
 *   - ERMS: rep movsb moves whole lines internally, at loop speed or better,
 *     once its start-up cost (tens of cycles) is amortised.  The range below
 *     was measured (docs/performance.md), not assumed.
 */
#define VEC_BITS 256
#include "x86_vec.h"

#define ERMS_MIN 2048                   /* below: the vector blocks win       */

void *altmem_memcpy_avx2_erms(void *__restrict dst, const void *__restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n <= 16)
        copy_upto16(d, s, n);           /* [0, 16]: 8+8, 4+4 or three bytes  */
    else if (n <= 32)
        copy_ht16(d, s, n);             /* (16, 32]: 16 + 16, overlapping     */
    else if (n <= 64)
        vcopy_ht1(d, s, n);             /* (32, 64]: 32 + 32                  */
    else if (n <= 128)
        vcopy_ht2(d, s, n);             /* (64, 128]: 2 x 32 from each end    */
    else if (n <= 256)
        vcopy_ht4(d, s, n);             /* (128, 256]: 4 x 32 from each end   */
    else if (n < ERMS_MIN)
        vcopy_fwd(d, s, n);             /* (256, ERMS_MIN): 128 B loop        */
    else if (n < altmem__nt_threshold)
        rep_movsb(d, s, n);             /* [ERMS_MIN, nt): rep movsb          */
    else
        vcopy_fwd_nt(d, s, n);          /* [nt, ...): streaming stores        */
    return dst;
}
