/*
 * memmove_avx512 — 64-byte AVX-512 vectors (features UAL, SIMD512).
 *
 * Assumptions:
 *   - AVX-512F, with the OS saving the ZMM and opmask state (SIMD512); only
 *     AVX-512F instructions (no BW/VL: no byte masks).  Built with -mavx512f:
 *     this file only; the rest of the library stays baseline x86_64.
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 *   - Up to 512 bytes every byte is loaded before any is stored (x86_vec.h), so
 *     overlap needs no test; above, the direction follows the overlap, and each
 *     256-byte block is loaded before it is stored.
 */
#include <stdint.h>

#define VEC_BITS 512
#include "x86_vec.h"

void *altmem_memmove_avx512(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    uintptr_t fwd = (uintptr_t)d - (uintptr_t)s, bwd = (uintptr_t)s - (uintptr_t)d;
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
    else if (fwd < n)
        vcopy_bwd(d, s, n);             /* dst inside (src, src+n): backward, dst end 64-aligned */
    else if (n < altmem__nt_threshold || bwd < n)
        vcopy_fwd(d, s, n);             /* forward, dst 64-aligned            */
    else
        vcopy_fwd_nt(d, s, n);          /* [nt, ...), no overlap: streaming   */
    return dst;
}
