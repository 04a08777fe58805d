/*
 * memmove_advsimd — Advanced SIMD (q registers), the aarch64 baseline.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1) and unaligned access to normal memory.
 * Size classes (a64_simd.h): up to 128 bytes as memcpy_advsimd, every load
 * before any store (so any overlap is safe); above, forward unless dst lies
 * inside (src, src + n), each 64-byte block loaded before it is stored and the
 * unaligned ends loaded before the loop, stored after it.
 */
#include "../../../variants/variants.h"
#include "a64_simd.h"

void *altmem_memmove_advsimd(void *dst, const void *src, size_t n)
{
    if (n <= 128)
        a64_copy_upto128(dst, src, n);
    else if ((uintptr_t)dst - (uintptr_t)src >= n)
        a64_copy_fwd(dst, src, n);
    else
        a64_copy_bwd(dst, src, n);
    return dst;
}
