/*
 * memset_advsimd — Advanced SIMD (q registers), the aarch64 baseline, with
 * DC ZVA for large zeroing.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1) and unaligned access to normal memory.
 *   - DC ZVA zeroes one whole naturally aligned block of altmem__zero_block
 *     bytes (DCZID_EL0, detection); 0 means prohibited or unknown, and then it
 *     is never used.  Only whole blocks inside [dst, dst + n) are zeroed by it.
 * Size classes:
 *   [0,3]     bytes 0, n/2, n-1
 *   [4,15]    the low 4 or 8 bytes of the vector from each end
 *   [16,64]   1 or 2 q registers from each end
 *   (64,128]  4 q registers (two STP) from each end
 *   (128,256] 8 q registers (four STP) from each end
 *   (256,...) 16 unaligned bytes, 256-byte blocks (eight STP) stored
 *             16-aligned, the last 256 bytes unaligned; zeroing of at least
 *             2 DC ZVA blocks: vectors up to the first block boundary (at least
 *             64 bytes), DC ZVA for the whole blocks (four per iteration, then
 *             one by one), vectors for the rest
 * The classes: a64_set_le32 and a64_set_gt32 (a64_simd.h), src/ops/'s where
 * they have the shape.
 */
#include "registry.h"
#include "a64_simd.h"

void *altmem_memset_advsimd(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    const uint8_t b = (uint8_t)c;
    const uint8x16_t v = vdupq_n_u8(b);
    if (n <= 32) {
        a64_set_le32(OPS_PLAIN, (uintptr_t)d, v, b, n);
        return dst;
    }
    a64_set_gt32(d, v, b, n);
    return dst;
}
