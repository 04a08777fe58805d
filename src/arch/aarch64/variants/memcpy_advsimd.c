/*
 * memcpy_advsimd — Advanced SIMD (q registers), the aarch64 baseline.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1) and unaligned access to normal memory.
 *   - src and dst do not overlap (the classes are memmove-safe anyway).
 * Size classes (a64_simd.h): [0,3] bytes 0, n/2, n-1; [4,16] two overlapping
 * scalars; (16,128] 1, 2 or 4 q registers from each end; above, 64-byte blocks
 * stored 16-aligned, the unaligned last 64 and first 16 bytes loaded up front.
 */
#include "../../../variants/variants.h"
#include "a64_simd.h"

void *altmem_memcpy_advsimd(void *__restrict dst, const void *__restrict src, size_t n)
{
    if (n <= 128)
        a64_copy_upto128(dst, src, n);
    else
        a64_copy_fwd(dst, src, n);
    return dst;
}
