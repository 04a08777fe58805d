/*
 * memset_advsimd — Advanced SIMD (q registers), the aarch64 baseline, with
 * DC ZVA for large zeroing.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1) and unaligned access to normal memory.
 *   - DC ZVA zeroes one whole naturally aligned block of altmem__zero_block
 *     bytes (DCZID_EL0, detection); 0 means prohibited or unknown, and then it
 *     is never used.  Only whole blocks inside [dst, dst + n) are zeroed by it.
 * Size classes: [0,3] bytes 0, n/2, n-1; [4,16] two overlapping scalars;
 * (16,128] 1, 2 or 4 q registers from each end; above, 16 unaligned bytes then
 * 64-byte blocks stored 16-aligned and the last 64 bytes unaligned; zeroing of
 * at least max(256, 2 blocks): vectors up to the first block boundary, DC ZVA
 * for the whole blocks, vectors for the rest.
 */
#include "../../../variants/variants.h"
#include "../../../policy.h"
#include "a64_simd.h"

/* [16, ...): 64-byte blocks stored 16-aligned, the unaligned ends by q. */
static inline __attribute__((always_inline)) void set_vec(unsigned char *d, uint8x16_t v, size_t n)
{
    a64_st(d, v);
    size_t i = 16 - ((uintptr_t)d & 15);
    for (; i + 64 < n; i += 64) {
        a64_st(d + i, v);
        a64_st(d + i + 16, v);
        a64_st(d + i + 32, v);
        a64_st(d + i + 48, v);
    }
    a64_st(d + n - 64, v);
    a64_st(d + n - 48, v);
    a64_st(d + n - 32, v);
    a64_st(d + n - 16, v);
}

void *altmem_memset_advsimd(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    const uint8_t b = (uint8_t)c;
    if (n <= 16) {
        const uint64_t w = (uint64_t)b * 0x0101010101010101ull;
        if (n >= 8) {           /* [8, 16] */
            *(a64_u64 *)d = w;
            *(a64_u64 *)(d + n - 8) = w;
        } else if (n >= 4) {    /* [4, 7] */
            *(a64_u32 *)d = (uint32_t)w;
            *(a64_u32 *)(d + n - 4) = (uint32_t)w;
        } else if (n) {         /* [1, 3] */
            d[0] = b;
            d[n >> 1] = b;
            d[n - 1] = b;
        }
        return dst;
    }
    const uint8x16_t v = vdupq_n_u8(b);
    if (n <= 32) {              /* (16, 32] */
        a64_st(d, v);
        a64_st(d + n - 16, v);
        return dst;
    }
    if (n <= 64) {              /* (32, 64] */
        a64_st(d, v);
        a64_st(d + 16, v);
        a64_st(d + n - 32, v);
        a64_st(d + n - 16, v);
        return dst;
    }
    if (n <= 128) {             /* (64, 128] */
        a64_st(d, v);
        a64_st(d + 16, v);
        a64_st(d + 32, v);
        a64_st(d + 48, v);
        a64_st(d + n - 64, v);
        a64_st(d + n - 48, v);
        a64_st(d + n - 32, v);
        a64_st(d + n - 16, v);
        return dst;
    }
    const size_t zb = __atomic_load_n(&altmem__zero_block, __ATOMIC_RELAXED);
    if (b == 0 && zb >= 16 && n >= 256 && n >= 2 * zb) {
        /* Vectors up to the first block boundary (at least 64 bytes), whole
           blocks by DC ZVA, vectors for the remaining < zb bytes. */
        uintptr_t p = ((uintptr_t)d + zb - 1) & ~(uintptr_t)(zb - 1);
        const uintptr_t end = ((uintptr_t)d + n) & ~(uintptr_t)(zb - 1);
        if (p > (uintptr_t)d)
            set_vec(d, v, p - (uintptr_t)d < 64 ? 64 : p - (uintptr_t)d);
        for (; p < end; p += zb)
            __asm__ volatile("dc zva, %0" : : "r"(p) : "memory");
        const size_t rest = (uintptr_t)d + n - end;
        if (rest)
            set_vec((unsigned char *)end + rest - (rest < 64 ? 64 : rest), v, rest < 64 ? 64 : rest);
        return dst;
    }
    set_vec(d, v, n);
    return dst;
}
