/*
 * memcpy_avx512 — 64-byte AVX-512 vectors (features UAL, SIMD512).
 *
 * Assumptions:
 *   - AVX-512F, with the OS saving the ZMM and opmask state (SIMD512); only
 *     AVX-512F instructions (no BW/VL: no byte masks).  Built with -mavx512f:
 *     this file only; the rest of the library stays baseline x86_64.
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 *   - The building blocks (x86_vec.h) load every byte of a size class up to
 *     512 before storing any, and the loops store 64-aligned (one line each).
 */
#define VEC_BITS 512
#include "x86_vec.h"

void *altmem_memcpy_avx512(void *__restrict dst, const void *__restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n <= 16)
        copy_upto16(d, s, n);           /* [0, 16]: 8+8, 4+4 or three bytes  */
    else if (n <= 32)
        copy_ht16(d, s, n);             /* (16, 32]: 16 + 16, overlapping     */
    else if (n <= 64)
        copy_ht32(d, s, n);             /* (32, 64]: 32 + 32                  */
    else if (n <= 128)
        vcopy_ht1(d, s, n);             /* (64, 128]: 64 + 64                 */
    else if (n <= 256)
        vcopy_ht2(d, s, n);             /* (128, 256]: 2 x 64 from each end   */
    else if (n <= 512)
        vcopy_ht4(d, s, n);             /* (256, 512]: 4 x 64 from each end   */
    else if (n < altmem__nt_threshold)
        vcopy_fwd(d, s, n);             /* (512, nt): 256 B loop, dst 64-aligned */
    else
        vcopy_fwd_nt(d, s, n);          /* [nt, ...): streaming stores        */
    return dst;
}
