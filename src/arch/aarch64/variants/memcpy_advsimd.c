/*
 * memcpy_advsimd — Advanced SIMD (q registers), the aarch64 baseline.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1) and unaligned access to normal memory.
 *   - src and dst do not overlap (the classes are memmove-safe anyway).
 * Size classes (a64_simd.h):
 *   [0,3]     bytes 0, n/2, n-1
 *   [4,15]    two overlapping 4- or 8-byte scalars
 *   [16,64]   1 or 2 q registers from each end
 *   (64,128]  one four-register LD1/ST1 (64 bytes) from each end
 *   (128,...) 64-byte LD1/ST1 blocks stored 16-aligned, the unaligned first 16
 *             and last 64 bytes loaded up front and stored after the loop
 */
#include "registry.h"
#include "a64_simd.h"

void *altmem_memcpy_advsimd(void *__restrict dst, const void *__restrict src, size_t n)
{
    a64_copy(dst, src, n, 0);
    return dst;
}
