/*
 * memmove_advsimd — Advanced SIMD (q registers), the aarch64 baseline.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1) and unaligned access to normal memory.
 * Size classes (a64_simd.h):
 *   [0,128]   as memcpy_advsimd, every load before any store (any overlap)
 *   (128,...) forward unless dst lies inside (src, src + n), then backward:
 *             64-byte LD1/ST1 blocks stored 16-aligned, each loaded before it
 *             is stored; the unaligned ends loaded before the loop, stored
 *             after it
 */
#include "registry.h"
#include "a64_simd.h"

void *altmem_memmove_advsimd(void *dst, const void *src, size_t n)
{
    a64_copy(dst, src, n, 1);
    return dst;
}
