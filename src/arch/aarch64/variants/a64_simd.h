/*
 * The Advanced SIMD size classes of the aarch64 advsimd copies: q registers
 * (16 bytes, unaligned loads and stores are single instructions on normal
 * memory), overlapping head/tail classes, and a 64-byte loop of one
 * four-register LD1 and one four-register ST1, both post-indexed, stores
 * 16-aligned.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1; baseline on AArch64 Linux) and unaligned
 *     access to normal memory (SCTLR_EL1.A clear under Linux).  LD1/ST1 of
 *     .16b elements have byte elements, so they never need alignment.
 *   - Every class up to 128 bytes loads everything before it stores anything,
 *     so memmove can use them for any overlap.
 *   - The loops are written so that GCC 12 -O2/-O3 keeps the two pointers in
 *     the post-index writeback of the LD1/ST1 (4 instructions per 64 bytes:
 *     ld1, st1, cmp, b); an unrolled form of the same C gets address
 *     arithmetic of its own (checked with objdump -d), so they are not unrolled.
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
A64_INL uint8x16x4_t a64_ld4(const unsigned char *p) { return vld1q_u8_x4(p); }
A64_INL void a64_st4(unsigned char *p, uint8x16x4_t v) { vst1q_u8_x4(p, v); }

/* [0, 32]: all loads before all stores. */
A64_INL void a64_copy_0_32(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n >= 16) {              /* [16, 32]: 16 + 16 */
        uint8x16_t a = a64_ld(s), b = a64_ld(s + n - 16);
        a64_st(d, a);
        a64_st(d + n - 16, b);
        return;
    }
    if (n & 8) {                /* [8, 15]: 8 + 8 */
        uint64_t a = *(const a64_u64 *)s, b = *(const a64_u64 *)(s + n - 8);
        *(a64_u64 *)d = a;
        *(a64_u64 *)(d + n - 8) = b;
        return;
    }
    if (n & 4) {                /* [4, 7]: 4 + 4 */
        uint32_t a = *(const a64_u32 *)s, b = *(const a64_u32 *)(s + n - 4);
        *(a64_u32 *)d = a;
        *(a64_u32 *)(d + n - 4) = b;
        return;
    }
    if (n) {                    /* [1, 3]: bytes 0, n/2, n-1 */
        unsigned char a = s[0], b = s[n >> 1], c = s[n - 1];
        d[0] = a;
        d[n >> 1] = b;
        d[n - 1] = c;
    }
}

/* (32, 64]: 32 + 32, all loads before all stores; the end pair stored first
   (with restrict, GCC 12 then still pairs each end's loads into one LDP). */
A64_INL void a64_copy_32_64(unsigned char *d, const unsigned char *s, size_t n)
{
    const unsigned char *se = s + n;
    unsigned char *de = d + n;
    uint8x16_t a = a64_ld(s), b = a64_ld(s + 16), c = a64_ld(se - 32), e = a64_ld(se - 16);
    a64_st(de - 32, c);
    a64_st(de - 16, e);
    a64_st(d, a);
    a64_st(d + 16, b);
}

/* (64, 128]: 64 + 64, all loads before all stores. */
A64_INL void a64_copy_64_128(unsigned char *d, const unsigned char *s, size_t n)
{
    uint8x16x4_t a = a64_ld4(s), z = a64_ld4(s + n - 64);
    a64_st4(d, a);
    a64_st4(d + n - 64, z);
}

/* n > 128, forward: the first 16 and last 64 bytes loaded up front, 64-byte
   blocks stored 16-aligned (each loaded before stored), then the tail, the
   head last: correct for memmove when dst is below src. */
A64_INL void a64_copy_fwd(unsigned char *d, const unsigned char *s, size_t n)
{
    uint8x16_t h = a64_ld(s);
    uint8x16x4_t z = a64_ld4(s + n - 64);
    unsigned char *de = d + n - 64;
    const size_t skip = 16 - ((uintptr_t)d & 15);      /* 1..16 */
    unsigned char *q = d + skip;
    const unsigned char *p = s + skip;
    /* q < de holds at entry (skip <= 16 < n - 64); each block ends before de + 64. */
    do {
        uint8x16x4_t a = a64_ld4(p);
        p += 64;
        a64_st4(q, a);
        q += 64;
    } while (q < de);
    a64_st4(de, z);
    a64_st(d, h);
}

/* n > 128, backward (dst above src, overlapping): the mirror image, the last
   16 and first 64 bytes loaded up front, 64-byte blocks from the end. */
A64_INL void a64_copy_bwd(unsigned char *d, const unsigned char *s, size_t n)
{
    uint8x16_t t = a64_ld(s + n - 16);
    uint8x16x4_t a = a64_ld4(s);
    /* [q - d, n) (fewer than 16 bytes) is inside the tail; q is 16-aligned. */
    unsigned char *q = (unsigned char *)(((uintptr_t)d + n) & ~(uintptr_t)15);
    const unsigned char *p = s + (q - d);
    unsigned char *const d64 = d + 64;
    /* q > d + 64 at entry (n > 128); each block starts at or after d. */
    do {
        p -= 64;
        q -= 64;
        uint8x16x4_t b = a64_ld4(p);
        a64_st4(q, b);
    } while (q > d64);
    a64_st4(d, a);
    a64_st(d + n - 16, t);
}

/* The class chain of memcpy (overlap_ok 0: always forward) and memmove
   (overlap_ok 1: backward when dst lies inside (src, src + n)). */
A64_INL void a64_copy(unsigned char *d, const unsigned char *s, size_t n, int overlap_ok)
{
    if (n <= 32)
        a64_copy_0_32(d, s, n);
    else if (n <= 64)
        a64_copy_32_64(d, s, n);
    else if (n <= 128)
        a64_copy_64_128(d, s, n);
    else if (!overlap_ok || (uintptr_t)d - (uintptr_t)s >= n)
        a64_copy_fwd(d, s, n);
    else
        a64_copy_bwd(d, s, n);
}

#endif
