/*
 * The Advanced SIMD size classes of the aarch64 advsimd variants: q registers
 * (16 bytes, unaligned loads and stores are single instructions on normal
 * memory), overlapping head/tail classes, a 64-byte loop whose stores are
 * 16-aligned.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1; baseline on AArch64 Linux) and unaligned
 *     access to normal memory (SCTLR_EL1.A clear under Linux).
 *   - Every small class loads everything before it stores anything, so
 *     memmove can use them for any overlap.
 */
#ifndef ALTMEM_A64_SIMD_H
#define ALTMEM_A64_SIMD_H

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#define A64_INL static inline __attribute__((always_inline))

typedef uint64_t __attribute__((aligned(1), may_alias)) a64_u64;
typedef uint32_t __attribute__((aligned(1), may_alias)) a64_u32;
typedef uint16_t __attribute__((aligned(1), may_alias)) a64_u16;

A64_INL uint8x16_t a64_ld(const unsigned char *p) { return vld1q_u8(p); }
A64_INL void a64_st(unsigned char *p, uint8x16_t v) { vst1q_u8(p, v); }

/* [0, 128]: all loads before all stores. */
A64_INL void a64_copy_upto128(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n <= 16) {
        if (n >= 8) {           /* [8, 16]: 8 + 8 */
            uint64_t a = *(const a64_u64 *)s, b = *(const a64_u64 *)(s + n - 8);
            *(a64_u64 *)d = a;
            *(a64_u64 *)(d + n - 8) = b;
        } else if (n >= 4) {    /* [4, 7]: 4 + 4 */
            uint32_t a = *(const a64_u32 *)s, b = *(const a64_u32 *)(s + n - 4);
            *(a64_u32 *)d = a;
            *(a64_u32 *)(d + n - 4) = b;
        } else if (n) {         /* [1, 3]: bytes 0, n/2, n-1 */
            unsigned char a = s[0], b = s[n >> 1], c = s[n - 1];
            d[0] = a;
            d[n >> 1] = b;
            d[n - 1] = c;
        }
        return;
    }
    if (n <= 32) {              /* (16, 32]: 16 + 16 */
        uint8x16_t a = a64_ld(s), b = a64_ld(s + n - 16);
        a64_st(d, a);
        a64_st(d + n - 16, b);
        return;
    }
    if (n <= 64) {              /* (32, 64]: 32 + 32 */
        uint8x16_t a = a64_ld(s), b = a64_ld(s + 16), c = a64_ld(s + n - 32), e = a64_ld(s + n - 16);
        a64_st(d, a);
        a64_st(d + 16, b);
        a64_st(d + n - 32, c);
        a64_st(d + n - 16, e);
        return;
    }
    /* (64, 128]: 64 + 64 */
    uint8x16_t a = a64_ld(s), b = a64_ld(s + 16), c = a64_ld(s + 32), e = a64_ld(s + 48);
    uint8x16_t w = a64_ld(s + n - 64), x = a64_ld(s + n - 48), y = a64_ld(s + n - 32), z = a64_ld(s + n - 16);
    a64_st(d, a);
    a64_st(d + 16, b);
    a64_st(d + 32, c);
    a64_st(d + 48, e);
    a64_st(d + n - 64, w);
    a64_st(d + n - 48, x);
    a64_st(d + n - 32, y);
    a64_st(d + n - 16, z);
}

/* n > 128, forward: the first 16 and last 64 bytes loaded up front, 64-byte
   blocks stored 16-aligned (each loaded before stored), then the tail, the
   head last: correct for memmove when dst is below src. */
A64_INL void a64_copy_fwd(unsigned char *d, const unsigned char *s, size_t n)
{
    uint8x16_t h = a64_ld(s);
    uint8x16_t w = a64_ld(s + n - 64), x = a64_ld(s + n - 48), y = a64_ld(s + n - 32), z = a64_ld(s + n - 16);
    size_t i = 16 - ((uintptr_t)d & 15);
    for (; i + 64 < n; i += 64) {
        uint8x16_t a = a64_ld(s + i), b = a64_ld(s + i + 16), c = a64_ld(s + i + 32), e = a64_ld(s + i + 48);
        a64_st(d + i, a);
        a64_st(d + i + 16, b);
        a64_st(d + i + 32, c);
        a64_st(d + i + 48, e);
    }
    a64_st(d + n - 64, w);
    a64_st(d + n - 48, x);
    a64_st(d + n - 32, y);
    a64_st(d + n - 16, z);
    a64_st(d, h);
}

/* n > 128, backward (dst above src, overlapping): the mirror image. */
A64_INL void a64_copy_bwd(unsigned char *d, const unsigned char *s, size_t n)
{
    uint8x16_t t = a64_ld(s + n - 16);
    uint8x16_t a = a64_ld(s), b = a64_ld(s + 16), c = a64_ld(s + 32), e = a64_ld(s + 48);
    /* [i, n) (fewer than 16 bytes) is inside the tail; d + i is 16-aligned. */
    size_t i = (size_t)(((uintptr_t)d + n) & ~(uintptr_t)15) - (uintptr_t)d;
    while (i > 64) {
        uint8x16_t p = a64_ld(s + i - 64), q = a64_ld(s + i - 48), r = a64_ld(s + i - 32), u = a64_ld(s + i - 16);
        a64_st(d + i - 16, u);
        a64_st(d + i - 32, r);
        a64_st(d + i - 48, q);
        a64_st(d + i - 64, p);
        i -= 64;
    }
    a64_st(d + 48, e);
    a64_st(d + 32, c);
    a64_st(d + 16, b);
    a64_st(d, a);
    a64_st(d + n - 16, t);
}

#endif
