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
 *             64 bytes), DC ZVA for the whole blocks, vectors for the rest
 */
#include "../../../variants/variants.h"
#include "../../../policy.h"
#include "a64_simd.h"

/* 64 bytes from p: two STP q. */
static inline __attribute__((always_inline)) void set64(unsigned char *p, uint8x16_t v)
{
    a64_st(p, v);
    a64_st(p + 16, v);
    a64_st(p + 32, v);
    a64_st(p + 48, v);
}

/* [64, ...): the classes above 64 bytes. */
static inline __attribute__((always_inline)) void set_vec(unsigned char *d, uint8x16_t v, size_t n)
{
    unsigned char *const de = d + n;
    if (n <= 128) {             /* [64, 128]: 64 + 64 */
        set64(d, v);
        set64(de - 64, v);
        return;
    }
    if (n <= 256) {             /* (128, 256]: 128 + 128 */
        set64(d, v);
        set64(d + 64, v);
        set64(de - 128, v);
        set64(de - 64, v);
        return;
    }
    /* (256, ...): each block [p, p + 256) with p < e ends before de. */
    a64_st(d, v);
    unsigned char *p = (unsigned char *)(((uintptr_t)d + 16) & ~(uintptr_t)15);
    unsigned char *const e = de - 256;
    while (p < e) {
        set64(p, v);
        set64(p + 64, v);
        set64(p + 128, v);
        set64(p + 192, v);
        p += 256;
    }
    set64(e, v);
    set64(e + 64, v);
    set64(e + 128, v);
    set64(e + 192, v);
}

void *altmem_memset_advsimd(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    const uint8_t b = (uint8_t)c;
    const uint8x16_t v = vdupq_n_u8(b);
    if (n <= 32) {
        if (n >= 16) {          /* [16, 32] */
            a64_st(d, v);
            a64_st(d + n - 16, v);
        } else if (n & 8) {     /* [8, 15] */
            vst1_u8(d, vget_low_u8(v));
            vst1_u8(d + n - 8, vget_low_u8(v));
        } else if (n & 4) {     /* [4, 7] */
            vst1q_lane_u32((uint32_t *)(void *)d, vreinterpretq_u32_u8(v), 0);
            vst1q_lane_u32((uint32_t *)(void *)(d + n - 4), vreinterpretq_u32_u8(v), 0);
        } else if (n) {         /* [1, 3] */
            d[0] = b;
            d[n >> 1] = b;
            d[n - 1] = b;
        }
        return dst;
    }
    if (n <= 64) {              /* (32, 64] */
        a64_st(d + n - 32, v);
        a64_st(d + n - 16, v);
        a64_st(d, v);
        a64_st(d + 16, v);
        return dst;
    }
    if (b == 0 && n > 256) {
        const size_t zb = __atomic_load_n(&altmem__zero_block, __ATOMIC_RELAXED);
        if (zb >= 16 && n >= 2 * zb) {
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
    }
    set_vec(d, v, n);
    return dst;
}
